import { shareCtaLink, type PlayerState, type ShareCta } from "./player-controls";
import type { PageManifest } from "@/shared/embed-protocol";
import { resolveLocale, textDirection, type Translate } from "@/shared/i18n/locale";
import type { PlayerMessageId } from "@/shared/i18n/player-messages";
import { createIcon } from "./icons";

// The player's page structure: a frame with the template's aspect ratio, fitted into the iframe
// and reserved before anything loads (the poster shows in it until the first frame, so nothing
// shifts), plus the state the page exposes: data-state, data-first-frame and a performance mark.
// The root carries the share's lang and dir, so an Arabic share lays the controls out right to left.

export const firstFrameMark = "reelbind:first-frame";

type Template = NonNullable<PageManifest["template"]>;

export class PlayerView {
  /** Where the video and the animation go; a click on it plays or pauses. */
  readonly frame: HTMLElement;
  /** The Lottie's container, above the video. */
  readonly animations: HTMLElement;
  private readonly poster: HTMLImageElement | null = null;
  private readonly message: HTMLElement;
  private firstFrameShown = false;

  constructor(
    readonly root: HTMLElement,
    title: string,
    template: Template | null,
    /** The player's own words in the share's language; the controls and the controller use it too. */
    readonly t: Translate<PlayerMessageId>,
    locale: string | null,
  ) {
    root.classList.add("rb-player");
    // lang names the catalogue the controls speak (de-AT reads de), not the tag as written.
    root.lang = resolveLocale(locale);
    root.dir = textDirection(locale);
    root.setAttribute("role", "region");
    root.setAttribute("aria-label", title || t("video"));
    this.frame = element("div", "rb-frame");
    this.animations = element("div", "rb-animations");
    this.frame.appendChild(this.animations);
    if (template) {
      this.fitFrame(template.width, template.height);
      if (template.files.posterFile) {
        this.poster = element("img", "rb-poster");
        this.poster.alt = "";
        this.poster.src = template.files.posterFile;
        this.frame.appendChild(this.poster);
      }
      const bigPlay = element("div", "rb-big-play");
      bigPlay.appendChild(createIcon("play"));
      this.frame.appendChild(bigPlay);
    } else {
      this.frame.hidden = true;
    }
    this.message = element("div", "rb-message");
    this.message.setAttribute("role", "status");
    this.message.hidden = true;
    const spinner = element("div", "rb-spinner");
    spinner.setAttribute("role", "progressbar");
    spinner.setAttribute("aria-label", t("loading"));
    root.append(this.frame, spinner, this.message);
  }

  /** The Raster template's video, under the animation. */
  createVideo(src: string, fit: "contain" | "cover" | "fill"): HTMLVideoElement {
    const video = element("video", "rb-video");
    video.setAttribute("playsinline", "");
    video.setAttribute("webkit-playsinline", "");
    video.preload = "auto";
    video.style.objectFit = fit;
    video.src = src;
    this.frame.insertBefore(video, this.animations);
    return video;
  }

  setState(state: PlayerState): void {
    this.root.dataset.state = state;
    // Until the first play (ready: loaded, nothing played, e.g. no autoplay under reduced
    // motion) the poster stays over the video's first frame, with the big play sign on it.
    if (this.poster) this.poster.hidden = this.firstFrameShown && state !== "ready";
  }

  /** Once: the mark and attribute the benchmark reads, and the poster gives way. */
  showFirstFrame(): void {
    if (this.firstFrameShown) return;
    this.firstFrameShown = true;
    performance.mark(firstFrameMark);
    this.root.dataset.firstFrame = String(Math.round(performance.now()));
    if (this.poster && this.root.dataset.state !== "ready") this.poster.hidden = true;
  }

  showMessage(text: string, cta: ShareCta | null = null): void {
    this.message.textContent = text;
    if (cta) {
      const link = shareCtaLink(cta);
      link.classList.add("rb-message-cta");
      this.message.append(document.createElement("br"), link);
    }
    this.message.hidden = false;
    this.frame.hidden = true;
  }

  /** The largest box of the template's aspect ratio that fits the iframe, centred. */
  private fitFrame(width: number, height: number): void {
    const ratio = width > 0 && height > 0 ? width / height : 16 / 9;
    this.frame.style.width = `min(100vw, ${(100 * ratio).toFixed(4)}vh)`;
    this.frame.style.height = `min(100vh, ${(100 / ratio).toFixed(4)}vw)`;
  }
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string): HTMLElementTagNameMap[K] {
  const created = document.createElement(tag);
  created.className = className;
  return created;
}
