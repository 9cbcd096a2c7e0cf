import type { Translate } from "@/shared/i18n/locale";
import type { PlayerMessageId } from "@/shared/i18n/player-messages";
import { formatTime } from "@/shared/format-time";
import { createIcon, type IconName } from "./icons";

// The control bar: real buttons with accessible names, a seek slider whose value text reads
// m:ss, mute (only with sound), the share CTA link and fullscreen (only where the iframe may).
// Every label comes from the player's catalogue (shared/i18n/player-messages.ts).

/** Where the player is; the view and the control bar show it. */
export type PlayerState = "loading" | "ready" | "playing" | "paused" | "ended" | "error";

export type ControlActions = {
  togglePlay(): void;
  /** The slider moves (dragging or keys): seek without reporting yet. */
  scrub(positionMs: number): void;
  /** The slider is let go: the seek the viewer chose. */
  seek(positionMs: number): void;
  toggleMute(): void;
  toggleFullscreen(): void;
  /** The share CTA link was followed (the browser opens it). */
  shareCtaClicked(): void;
};

export type ShareCta = { label: string; url: string };

/**
 * The share's call to action: a real link, so it reads and behaves as one (new tab, middle
 * click); the opened page gets neither the player's window nor its URL.
 */
export function shareCtaLink({ label, url }: ShareCta): HTMLAnchorElement {
  const link = document.createElement("a");
  link.className = "rb-cta";
  link.href = url;
  link.target = "_blank";
  link.rel = "noopener noreferrer";
  link.textContent = label;
  return link;
}

export type ControlsView = {
  state: PlayerState;
  positionMs: number;
  durationMs: number;
  muted: boolean;
  hasAudio: boolean;
  fullscreen: boolean;
};

export class PlayerControls {
  readonly element: HTMLElement;
  /** True from the slider's first input until its change: the position is the viewer's, not the media's. */
  scrubbing = false;
  private readonly playButton: HTMLButtonElement;
  private readonly slider: HTMLInputElement;
  private readonly time: HTMLElement;
  private readonly muteButton: HTMLButtonElement;
  private readonly fullscreenButton: HTMLButtonElement;
  private readonly t: Translate<PlayerMessageId>;

  constructor(actions: ControlActions, options: { shareCta: ShareCta | null; fullscreenSupported: boolean; t: Translate<PlayerMessageId> }) {
    this.t = options.t;
    this.element = document.createElement("div");
    this.element.className = "rb-controls";

    this.playButton = iconButton(actions.togglePlay);
    this.time = document.createElement("span");
    this.time.className = "rb-time";
    this.time.setAttribute("aria-hidden", "true");

    this.slider = document.createElement("input");
    this.slider.type = "range";
    this.slider.className = "rb-seek";
    this.slider.min = "0";
    this.slider.step = "any";
    this.slider.setAttribute("aria-label", this.t("seek"));
    this.slider.addEventListener("input", () => {
      this.scrubbing = true;
      actions.scrub(Number(this.slider.value));
    });
    // change is the usual end; a drag back to where it started fires none, so releasing ends it too.
    const commit = () => {
      if (!this.scrubbing) return;
      this.scrubbing = false;
      actions.seek(Number(this.slider.value));
    };
    for (const type of ["change", "pointerup", "touchend", "keyup", "blur"]) this.slider.addEventListener(type, commit);

    this.muteButton = iconButton(actions.toggleMute);
    this.fullscreenButton = iconButton(actions.toggleFullscreen);
    this.fullscreenButton.hidden = !options.fullscreenSupported;

    this.element.append(this.playButton, this.time, this.slider, this.muteButton);
    if (options.shareCta) {
      const cta = shareCtaLink(options.shareCta);
      cta.classList.add("rb-button");
      cta.addEventListener("click", actions.shareCtaClicked);
      this.element.appendChild(cta);
    }
    this.element.appendChild(this.fullscreenButton);
  }

  update({ state, positionMs, durationMs, muted, hasAudio, fullscreen }: ControlsView): void {
    const { t } = this;
    const [playIcon, playLabel]: [IconName, PlayerMessageId] = state === "playing" ? ["pause", "pause"] : state === "ended" ? ["replay", "replay"] : ["play", "play"];
    setIcon(this.playButton, playIcon, t(playLabel));

    this.slider.max = String(Math.round(durationMs));
    if (!this.scrubbing) this.slider.value = String(Math.round(positionMs));
    const shown = this.scrubbing ? Number(this.slider.value) : positionMs;
    const times = { position: formatTime(shown), duration: formatTime(durationMs) };
    const valueText = t("seekValue", times);
    if (this.slider.getAttribute("aria-valuetext") !== valueText) {
      this.slider.setAttribute("aria-valuetext", valueText);
      this.time.textContent = t("timeDisplay", times);
    }

    this.muteButton.hidden = !hasAudio;
    setIcon(this.muteButton, muted ? "muted" : "volume", t(muted ? "unmute" : "mute"));
    setIcon(this.fullscreenButton, fullscreen ? "exitFullscreen" : "fullscreen", t(fullscreen ? "exitFullscreen" : "fullscreen"));
  }
}

function iconButton(onClick: () => void): HTMLButtonElement {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "rb-button";
  button.addEventListener("click", onClick);
  return button;
}

/** Rebuilds the icon only when it changes: update() runs on every animation frame. */
function setIcon(button: HTMLButtonElement, icon: IconName, label: string): void {
  if (button.dataset.icon === icon) return;
  button.dataset.icon = icon;
  button.setAttribute("aria-label", label);
  button.textContent = "";
  button.appendChild(createIcon(icon));
}
