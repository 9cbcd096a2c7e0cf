import type { Lottie } from "@/shared/templates/lottie";
import { timingOf, type AnimationTiming } from "./animation-timing";
import type { AnimationItem, AnimationView } from "./animation-view";
import type { MediaEvents, PlayerMedia } from "./media";
import { PlayerError } from "./player-error";

// Raster: the video is the clock (its time, its duration); the Lottie overlay follows it, frame =
// (video time − overlay offset) × frame rate, drawn for every video frame the browser presents
// (requestVideoFrameCallback) or, where that is missing, on every animation frame.

export type Overlay = { view: AnimationView; animationData: Lottie; offsetSeconds: number };

type VideoFrameVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (callback: (now: number, metadata: { mediaTime: number }) => void) => number;
  mozHasAudio?: boolean;
  audioTracks?: { length: number };
  webkitAudioDecodedByteCount?: number;
  webkitVideoDecodedByteCount?: number;
};

/** Resolves once the video's duration is known and the overlay is drawn. */
export async function openRasterMedia(video: HTMLVideoElement, overlay: Overlay | null, events: MediaEvents): Promise<RasterMedia> {
  await Promise.all([whenMetadataLoaded(video), overlay?.view.show(overlay.animationData)]);
  if (!Number.isFinite(video.duration)) throw new PlayerError("MEDIA_UNSUPPORTED", "The video has no fixed duration.");
  return new RasterMedia(video, overlay && { view: overlay.view, timing: timingOf(overlay.animationData), offsetSeconds: overlay.offsetSeconds }, events);
}

export class RasterMedia implements PlayerMedia {
  readonly durationMs: number;
  readonly firstFrame: Promise<void>;
  private readonly video: VideoFrameVideo;
  private audio: boolean | undefined;

  constructor(
    video: HTMLVideoElement,
    private readonly overlay: { view: AnimationView; timing: AnimationTiming; offsetSeconds: number } | null,
    private readonly events: MediaEvents,
  ) {
    this.video = video;
    this.durationMs = video.duration * 1000;
    this.firstFrame = new Promise((resolve) => {
      if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) resolve();
      else video.addEventListener("loadeddata", () => resolve(), { once: true });
    });
    video.addEventListener("play", () => {
      this.followFrames();
      events.played();
    });
    // At the natural end the element fires pause, then ended: only ended counts.
    video.addEventListener("pause", () => {
      if (!video.ended) events.paused();
    });
    video.addEventListener("ended", () => events.ended());
    video.addEventListener("error", () => events.failed(mediaError(video)));
    video.addEventListener("volumechange", () => events.changed());
    for (const type of ["loadeddata", "seeked"]) video.addEventListener(type, () => this.drawOverlay(video.currentTime));
    for (const type of ["loadedmetadata", "timeupdate"]) video.addEventListener(type, () => this.detectAudio());
    this.detectAudio();
    this.drawOverlay(video.currentTime);
  }

  positionMs(): number {
    return this.video.currentTime * 1000;
  }

  isPlaying(): boolean {
    return !this.video.paused && !this.video.ended;
  }

  play(): Promise<void> {
    // Old browsers return undefined rather than a promise.
    return this.video.play() ?? Promise.resolve();
  }

  pause(): void {
    this.video.pause();
  }

  seek(positionMs: number): void {
    this.video.currentTime = Math.min(this.durationMs, Math.max(0, positionMs)) / 1000;
    this.drawOverlay(this.video.currentTime);
  }

  isMuted(): boolean {
    return this.video.muted;
  }

  setMuted(muted: boolean): void {
    this.video.muted = muted;
  }

  hasAudio(): boolean {
    return this.audio ?? true;
  }

  render(): void {
    if (!this.video.requestVideoFrameCallback) this.drawOverlay(this.video.currentTime);
  }

  async replaceAnimation(animationData: Lottie): Promise<void> {
    if (!this.overlay) return;
    await this.overlay.view.show(animationData);
    this.drawOverlay(this.video.currentTime);
  }

  animation(): AnimationItem | null {
    return this.overlay?.view.item ?? null;
  }

  private followFrames(): void {
    const video = this.video;
    if (!video.requestVideoFrameCallback || !this.overlay) return;
    const onFrame = (_now: number, { mediaTime }: { mediaTime: number }) => {
      this.drawOverlay(mediaTime);
      if (!video.paused && !video.ended) video.requestVideoFrameCallback!(onFrame);
    };
    video.requestVideoFrameCallback(onFrame);
  }

  /** Outside the overlay's own time span (before its offset, after its end) nothing is drawn over the video. */
  private drawOverlay(videoSeconds: number): void {
    if (!this.overlay) return;
    const { view, timing, offsetSeconds } = this.overlay;
    const frame = (videoSeconds - offsetSeconds) * timing.frameRate;
    // One frame of tolerance: a video that ends with the overlay keeps its last overlay frame.
    const inside = frame >= 0 && frame < timing.totalFrames + 1;
    view.setVisible(inside);
    if (inside) view.goToFrame(Math.min(frame, timing.totalFrames - 0.001));
  }

  /**
   * Whether the video has sound, where the browser tells: Firefox (mozHasAudio), Safari
   * (audioTracks), Chromium (decoded audio bytes, once some video has played). Unknown counts as
   * sound, so the mute button shows.
   */
  private detectAudio(): void {
    const video = this.video;
    if (video.readyState < HTMLMediaElement.HAVE_METADATA) return;
    let audio = this.audio;
    if (typeof video.mozHasAudio === "boolean") audio = video.mozHasAudio;
    else if (video.audioTracks && typeof video.audioTracks.length === "number") audio = video.audioTracks.length > 0;
    else if (typeof video.webkitAudioDecodedByteCount === "number" && (video.webkitVideoDecodedByteCount ?? 0) > 0 && video.currentTime > 1) {
      audio = video.webkitAudioDecodedByteCount > 0;
    }
    if (audio !== this.audio) {
      this.audio = audio;
      this.events.changed();
    }
  }
}

function whenMetadataLoaded(video: HTMLVideoElement): Promise<void> {
  return new Promise((resolve, reject) => {
    if (video.error) {
      reject(mediaError(video));
      return;
    }
    if (video.readyState >= HTMLMediaElement.HAVE_METADATA) {
      resolve();
      return;
    }
    const onError = () => reject(mediaError(video));
    video.addEventListener("loadedmetadata", () => {
      video.removeEventListener("error", onError);
      resolve();
    }, { once: true });
    video.addEventListener("error", onError, { once: true });
  });
}

const mediaErrorCodes: Record<number, [string, string]> = {
  1: ["MEDIA_ABORTED", "Loading the video was aborted."],
  2: ["MEDIA_NETWORK_ERROR", "The video could not be downloaded."],
  3: ["MEDIA_DECODE_ERROR", "The video could not be decoded."],
  4: ["MEDIA_UNSUPPORTED", "The video's format is not supported by this browser."],
};

function mediaError(video: HTMLVideoElement): PlayerError {
  const [code, message] = mediaErrorCodes[video.error?.code ?? 0] ?? ["MEDIA_ERROR", "The video could not be played."];
  return new PlayerError(code, message);
}
