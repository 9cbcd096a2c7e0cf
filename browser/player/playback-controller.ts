import type { ManifestChapter, ManifestTemplateCta, PageManifest } from "@/shared/embed-protocol";
import type { Lottie } from "@/shared/templates/lottie";
import { fullscreenSupported, isFullscreen, onFullscreenChange, toggleFullscreen } from "./fullscreen";
import type { HostChannel } from "./host-channel";
import { seekStepMs, shortcutFor, type Shortcut } from "./keyboard-shortcuts";
import type { MediaEvents, PlayerMedia } from "./media";
import { PlaybackTracker, type EngagementAction, type TrackedEvent } from "./playback-tracker";
import { PlayerControls } from "./player-controls";
import type { PlayerError } from "./player-error";
import type { PlayerState } from "./player-controls";
import type { PlayerView } from "./player-view";
import type { CaptionsView } from "./captions-view";
import { attachTemplateCtas } from "./template-ctas";

// Playback: what the media does (played, paused, ended, failed) becomes data-state, the
// controls, the control channel (PROGRESS, COMPLETE, CTA, WARN, ERROR) and the analytics
// events; host commands and viewer actions come in here. Viewer actions alone count as
// interaction.engaged.

/** PROGRESS about four times a second while playing (spec §4.5). */
const progressIntervalMs = 250;

export type PlaybackControllerOptions = {
  view: PlayerView;
  channel: HostChannel;
  chapters: readonly ManifestChapter[];
  ctas: readonly ManifestTemplateCta[];
  shareCta: PageManifest["cta"];
  /** The captions line, the descriptions region and their buttons. */
  captions?: CaptionsView;
};

export class PlaybackController implements MediaEvents {
  private media: PlayerMedia | null = null;
  private controls: PlayerControls | null = null;
  /** Replaced once the duration is known; nothing can play before that. */
  private tracker: PlaybackTracker;
  private state: PlayerState = "loading";
  private failure: PlayerError | null = null;
  private failureReported = false;
  private frameRequest = 0;
  private progressTimer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly options: PlaybackControllerOptions) {
    this.tracker = new PlaybackTracker({ durationMs: 0, chapters: options.chapters });
    options.view.setState("loading");
  }

  get hasFailed(): boolean {
    return this.failure !== null;
  }

  /** The media is loaded: the player becomes ready and takes commands. */
  attach(media: PlayerMedia): void {
    if (this.failure) return;
    const { view, chapters, shareCta } = this.options;
    this.media = media;
    this.tracker = new PlaybackTracker({ durationMs: media.durationMs, chapters });
    this.controls = new PlayerControls(
      {
        togglePlay: () => this.viewerTogglePlay(),
        scrub: (positionMs) => {
          this.tracker.seeking(media.positionMs());
          media.seek(positionMs);
          this.updateControls();
        },
        seek: (positionMs) => this.viewerSeek(positionMs),
        toggleMute: () => this.viewerToggleMute(),
        toggleFullscreen: () => this.viewerToggleFullscreen(),
        shareCtaClicked: () => {
          if (shareCta) this.clickCta("share", shareCta.label, false);
        },
      },
      { shareCta, fullscreenSupported: fullscreenSupported(), t: view.t },
    );
    view.root.appendChild(this.controls.element);
    this.options.captions?.attach(view.root, this.controls.element);
    view.frame.addEventListener("click", () => this.viewerTogglePlay());
    document.addEventListener("keydown", (event) => this.onKeyDown(event));
    onFullscreenChange(() => this.updateControls());
    void media.firstFrame.then(() => view.showFirstFrame());
    this.attachCtas();
    this.setState("ready");
  }

  sessionStarted(): void {
    this.emit(this.tracker.sessionStarted());
  }

  /** A play the viewer did not click for (INIT autoplay, PLAY): a refusal is reported, not thrown. */
  async requestPlay(): Promise<void> {
    try {
      await this.play();
    } catch (error) {
      // AbortError: a pause or a new source interrupted play(); only a refusal is news.
      if ((error as Error | undefined)?.name !== "NotAllowedError") return;
      this.options.channel.postControl({
        v: 1,
        type: "WARN",
        code: "AUTOPLAY_BLOCKED",
        message: "The browser did not allow playback to start without a viewer gesture; the play button starts it.",
      });
      this.emit(this.tracker.autoplayFailed((error as Error).name));
    }
  }

  pause(): void {
    this.usable()?.pause();
  }

  seek(positionMs: number): void {
    const media = this.usable();
    if (!media) return;
    const target = Math.min(media.durationMs, Math.max(0, positionMs));
    this.tracker.seeking(media.positionMs());
    media.seek(target);
    this.options.captions?.seeked();
    if (this.state === "ended" && target < media.durationMs) this.setState(media.isPlaying() ? "playing" : "paused");
    this.emit(this.tracker.seeked(target));
    this.postProgress();
    this.updateControls();
  }

  setMuted(muted: boolean): void {
    this.usable()?.setMuted(muted);
    this.updateControls();
  }

  /** New bindings on screen at the same position; the CTA layers are the new animation's. */
  async replaceAnimation(animationData: Lottie): Promise<void> {
    const media = this.usable();
    if (!media) return;
    await media.replaceAnimation(animationData);
    this.attachCtas();
  }

  pageHidden(): void {
    if (this.media) this.emit(this.tracker.pageHidden(this.media.positionMs()));
  }

  /** Fatal: the player shows why and reports it (now, or at INIT when the host is not known yet). */
  fail(error: PlayerError): void {
    if (this.failure) return;
    this.failure = error;
    this.stopLoops();
    const text = this.options.view.t(error.code === "TEMPLATE_UNAVAILABLE" ? "unavailable" : "playbackFailed");
    // The call to action still works without the video.
    this.options.view.showMessage(text, this.options.shareCta);
    this.setState("error");
    this.reportFailure();
  }

  /** ERROR and video.errored, once, when there is a host to tell. */
  reportFailure(): void {
    const { failure, options } = this;
    if (!failure || this.failureReported || options.channel.parentOrigin === null) return;
    this.failureReported = true;
    options.channel.postControl({ v: 1, type: "ERROR", code: failure.code, message: failure.message });
    this.emit(this.tracker.errored(failure.code, failure.message));
  }

  // MediaEvents ---------------------------------------------------------------------------------

  played(): void {
    if (!this.media) return;
    this.setState("playing");
    this.emit(this.tracker.played(this.media.positionMs()));
    this.postProgress();
    this.startLoops();
  }

  paused(): void {
    if (!this.media) return;
    this.stopLoops();
    this.setState("paused");
    this.emit(this.tracker.paused(this.media.positionMs()));
    this.postProgress();
  }

  ended(): void {
    if (!this.media) return;
    this.stopLoops();
    this.setState("ended");
    this.emit(this.tracker.ended());
    this.postProgress();
    this.options.channel.postControl({ v: 1, type: "COMPLETE", durationMs: Math.round(this.media.durationMs), playbackId: this.tracker.currentPlaybackId });
  }

  failed(error: PlayerError): void {
    this.fail(error);
  }

  changed(): void {
    this.updateControls();
  }

  // Viewer actions ------------------------------------------------------------------------------

  private viewerTogglePlay(): void {
    const media = this.usable();
    if (!media) return;
    if (media.isPlaying()) {
      this.engaged("click");
      media.pause();
    } else {
      this.engaged(this.state === "ended" ? "replay" : "click");
      // A refusal of a click-started play leaves the player paused; there is nothing to report.
      this.play().catch(() => undefined);
    }
  }

  private viewerSeek(positionMs: number): void {
    const media = this.usable();
    if (!media) return;
    this.engaged("seek", Math.min(media.durationMs, Math.max(0, positionMs)));
    this.seek(positionMs);
  }

  private viewerToggleMute(): void {
    const media = this.usable();
    if (!media?.hasAudio()) return;
    const muted = !media.isMuted();
    if (!muted) this.engaged("unmute");
    this.setMuted(muted);
  }

  private viewerToggleFullscreen(): void {
    if (!this.usable() || !fullscreenSupported()) return;
    if (!isFullscreen()) this.engaged("fullscreen");
    toggleFullscreen(this.options.view.root);
  }

  private onKeyDown(event: KeyboardEvent): void {
    const { key, ctrlKey, metaKey, altKey } = event;
    const shortcut = shortcutFor({ key, ctrlKey, metaKey, altKey, targetTag: (event.target as Element | null)?.tagName });
    if (!shortcut || !this.usable()) return;
    event.preventDefault();
    const actions: Record<Shortcut, () => void> = {
      togglePlay: () => this.viewerTogglePlay(),
      seekBack: () => this.viewerSeek(this.media!.positionMs() - seekStepMs),
      seekForward: () => this.viewerSeek(this.media!.positionMs() + seekStepMs),
      toggleMute: () => this.viewerToggleMute(),
      toggleFullscreen: () => this.viewerToggleFullscreen(),
      toggleCaptions: () => this.options.captions?.toggleCaptions(),
    };
    actions[shortcut]();
  }

  /** open: a template CTA layer opens the share's URL itself; the share CTA is a link the browser follows. */
  private clickCta(ctaId: string, ctaName: string, open = true): void {
    const media = this.usable();
    if (!media) return;
    const url = this.options.shareCta?.url ?? null;
    const positionMs = Math.round(media.positionMs());
    if (url && open) window.open(url, "_blank", "noopener,noreferrer");
    this.options.channel.postControl({ v: 1, type: "CTA", ctaId, ctaName, url, positionMs });
    this.emit(this.tracker.ctaClicked({ id: ctaId, name: ctaName }, positionMs));
  }

  // ---------------------------------------------------------------------------------------------

  /** Play; at the end, a replay from the start. */
  private async play(): Promise<void> {
    const media = this.usable();
    if (!media) return;
    if (this.state === "ended") media.seek(0);
    await media.play();
  }

  private attachCtas(): void {
    const animation = this.media?.animation();
    if (animation) attachTemplateCtas(animation, this.options.ctas, (cta) => this.clickCta(cta.id, cta.name));
  }

  private engaged(action: EngagementAction, positionMs = this.media?.positionMs() ?? 0): void {
    this.emit(this.tracker.engaged(action, positionMs));
  }

  private emit(events: TrackedEvent[]): void {
    this.options.channel.postAnalytics(events);
  }

  private postProgress(): void {
    const media = this.media;
    if (!media) return;
    const positionMs = Math.round(media.positionMs());
    const durationMs = Math.round(media.durationMs);
    this.options.channel.postControl({
      v: 1,
      type: "PROGRESS",
      positionMs,
      durationMs,
      percent: durationMs > 0 ? Math.round((positionMs / durationMs) * 1000) / 10 : 0,
      playing: media.isPlaying(),
      playbackId: this.tracker.currentPlaybackId,
    });
  }

  /**
   * Two loops while playing: every animation frame draws (smooth, but browsers stop it in
   * background tabs), and a timer samples for PROGRESS and the tracker (it keeps running there).
   */
  private startLoops(): void {
    this.stopLoops();
    const draw = () => {
      this.frameRequest = 0;
      if (!this.media?.isPlaying()) return;
      this.media.render();
      this.updateControls();
      this.frameRequest = requestAnimationFrame(draw);
    };
    this.frameRequest = requestAnimationFrame(draw);
    this.progressTimer = setInterval(() => {
      if (!this.media?.isPlaying() || this.controls?.scrubbing) return;
      this.emit(this.tracker.position(this.media.positionMs()));
      this.postProgress();
    }, progressIntervalMs);
  }

  private stopLoops(): void {
    if (this.frameRequest) cancelAnimationFrame(this.frameRequest);
    this.frameRequest = 0;
    clearInterval(this.progressTimer);
  }

  private setState(state: PlayerState): void {
    this.state = state;
    this.options.view.setState(state);
    this.updateControls();
  }

  private updateControls(): void {
    const media = this.media;
    if (!media || !this.controls) return;
    this.options.captions?.update(media.positionMs(), this.state);
    this.controls.update({
      state: this.state,
      positionMs: media.positionMs(),
      durationMs: media.durationMs,
      muted: media.isMuted(),
      hasAudio: media.hasAudio(),
      fullscreen: isFullscreen(),
    });
  }

  /** The media, when it can take commands (loaded, not failed). */
  private usable(): PlayerMedia | null {
    return this.failure ? null : this.media;
  }
}
