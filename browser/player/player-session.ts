import type { HostCommand, PageManifest } from "@/shared/embed-protocol";
import type { BindingData } from "@/shared/templates/bindings";
import { viewerCues } from "@/shared/templates/cues";
import type { Lottie } from "@/shared/templates/lottie";
import { AnimationView, fetchTemplateJson } from "./animation-view";
import { bindTemplate } from "./bind-template";
import { CaptionsView } from "./captions-view";
import type { HostChannel } from "./host-channel";
import { acceptHostMessage, refusedOriginWarning, type IncomingMessage } from "./host-messages";
import { openLottieClock } from "./lottie-clock";
import type { PlayerMedia } from "./media";
import { PlaybackController } from "./playback-controller";
import { PlayerError } from "./player-error";
import type { PlayerView } from "./player-view";
import { openRasterMedia } from "./raster-media";

// One embed session: load the template, connect to the host on the first accepted INIT, then
// READY, session.started and the host's commands (spec §4.5). The template renders at once with
// the manifest's data, so the first frame never waits for the host; INIT's data, when it changes
// anything, is bound before READY.

type Template = NonNullable<PageManifest["template"]>;
type InitCommand = Extract<HostCommand, { type: "INIT" }>;

export class PlayerSession {
  private readonly controller: PlaybackController;
  private readonly captions: CaptionsView;
  private init: InitCommand | null = null;
  /** manifest data ← INIT data ← every SET_DATA, key by key. */
  private data: BindingData;
  private templateJson: Lottie | null = null;
  private boundData = "";
  private warnings: string[] = [];
  private media: PlayerMedia | null = null;
  private started = false;

  constructor(
    private readonly manifest: PageManifest,
    private readonly view: PlayerView,
    private readonly channel: HostChannel,
  ) {
    this.data = { ...manifest.bindings.data };
    this.captions = new CaptionsView(manifest.locale);
    this.controller = new PlaybackController({ view, channel, chapters: manifest.chapters, ctas: manifest.ctas, shareCta: manifest.cta, captions: this.captions });
  }

  async load(): Promise<void> {
    const template = this.manifest.template;
    if (!template) {
      this.controller.fail(new PlayerError("TEMPLATE_UNAVAILABLE", "This video is unavailable."));
      return;
    }
    try {
      this.media = await this.openMedia(template);
      this.controller.attach(this.media);
      if (this.init) await this.start();
    } catch (error) {
      // The player is one browser bundle: its classes exist once.
      // eslint-disable-next-line no-restricted-syntax
      this.controller.fail(error instanceof PlayerError ? error : new PlayerError("PLAYER_ERROR", String((error as Error)?.message ?? error)));
    }
  }

  receive(event: IncomingMessage): void {
    const context = { parent: window.parent, allowedOrigins: this.manifest.allowedOrigins, parentOrigin: this.channel.parentOrigin };
    const command = acceptHostMessage(event, context);
    if (!command) {
      const warning = refusedOriginWarning(event, context);
      if (warning) console.warn(warning);
      return;
    }
    if (command.type === "INIT") {
      this.channel.connect(event.origin);
      this.init = command;
      this.data = { ...this.data, ...command.data };
      this.controller.reportFailure();
      if (this.media) void this.start();
      return;
    }
    if (!this.started) return;
    switch (command.type) {
      case "PLAY":
        void this.controller.requestPlay();
        break;
      case "PAUSE":
        this.controller.pause();
        break;
      case "SEEK":
        this.controller.seek(command.positionMs);
        break;
      case "MUTE":
        this.controller.setMuted(command.muted);
        break;
      case "SET_DATA":
        this.data = { ...this.data, ...command.data };
        void this.rebind().then(() => this.postWarnings());
        break;
    }
  }

  pageHidden(): void {
    this.controller.pageHidden();
  }

  /** The video starts downloading before the template JSON arrives: both load in parallel. */
  private async openMedia(template: Template): Promise<PlayerMedia> {
    const { files } = template;
    if (template.kind === "Raster") {
      if (!files.videoFile) throw new PlayerError("TEMPLATE_UNAVAILABLE", "The template has no video.");
      const video = this.view.createVideo(files.videoFile, template.overlay?.fit ?? "contain");
      const overlayData = files.templateJson ? this.bind(await fetchTemplateJson(files.templateJson)) : null;
      const overlay = overlayData && { view: this.animationView(), animationData: overlayData, offsetSeconds: template.overlay?.offsetSeconds ?? 0 };
      return openRasterMedia(video, overlay, this.controller);
    }
    if (!files.templateJson) throw new PlayerError("TEMPLATE_UNAVAILABLE", "The template has no animation.");
    return openLottieClock(this.animationView(), this.bind(await fetchTemplateJson(files.templateJson)), this.controller);
  }

  private animationView(): AnimationView {
    return new AnimationView(this.view.animations, this.manifest.title);
  }

  /** Once loaded and initialized: READY, session.started, binding warnings, then INIT's mute and autoplay. */
  private async start(): Promise<void> {
    const { init, media, manifest } = this;
    const template = manifest.template;
    if (this.started || !init || !media || !template || this.controller.hasFailed) return;
    this.started = true;
    await this.rebind();
    if (this.controller.hasFailed) return;
    this.channel.postControl({
      v: 1,
      type: "READY",
      durationMs: Math.round(media.durationMs),
      width: template.width,
      height: template.height,
      context: {
        organizationId: manifest.organizationId,
        projectId: manifest.projectId,
        templateId: template.id,
        templateVersion: template.version,
        consentMode: manifest.consent.mode,
        ingest: manifest.ingest && { url: manifest.ingest.url, token: manifest.ingest.token },
      },
    });
    this.controller.sessionStarted();
    this.postWarnings();
    if (init.muted) this.controller.setMuted(true);
    // A viewer who asked for less motion starts the video themselves: the poster and the play
    // button stay. No autoplay.failed: nothing was refused, the player chose not to try.
    if (init.autoplay && !prefersReducedMotion()) await this.controller.requestPlay();
  }

  /** Binds the current data again when it differs from what is on screen; keeps the position. */
  private async rebind(): Promise<void> {
    if (!this.templateJson || dataKey(this.data) === this.boundData) return;
    try {
      await this.controller.replaceAnimation(this.bind(this.templateJson));
    } catch {
      this.warnings = ["The new data could not be rendered; the video shows the previous data."];
    }
  }

  private bind(templateJson: Lottie): Lottie {
    this.templateJson = templateJson;
    const { bindings, template, locale } = this.manifest;
    const { animationData, warnings } = bindTemplate(templateJson, bindings.manifest, this.data, template?.files.assets ?? {}, locale);
    this.boundData = dataKey(this.data);
    this.warnings = warnings;
    // The captions and descriptions say what this binding shows (a Raster overlay's offset moves them).
    const offsetSeconds = template?.kind === "Raster" ? (template.overlay?.offsetSeconds ?? 0) : 0;
    this.captions.setCues(viewerCues({ boundLottie: animationData, manifest: bindings.manifest, data: this.data, locale, offsetSeconds }));
    return animationData;
  }

  /** Each binding problem once, as WARN BINDING: the host's data is what it can fix. */
  private postWarnings(): void {
    for (const message of this.warnings) this.channel.postControl({ v: 1, type: "WARN", code: "BINDING", message });
    this.warnings = [];
  }
}

function prefersReducedMotion(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function dataKey(data: BindingData): string {
  return JSON.stringify(Object.entries(data).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
