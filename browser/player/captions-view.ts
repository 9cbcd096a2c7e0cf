import { captionMessages, type CaptionMessageId } from "@/shared/i18n/caption-messages";
import { textDirection, translator, type Translate } from "@/shared/i18n/locale";
import type { TimedCue } from "@/shared/templates/cues";
import { activeCue, descriptionToAnnounce } from "./active-cues";
import type { PlayerState } from "./player-controls";

// The viewer's captions and descriptions in the player: the active captions line over the video
// (toggled by the CC button and the c key, the choice remembered in localStorage), each
// description written into a polite live region as playback reaches it, and, when the viewer asks
// and the browser can, read aloud in the share's language. The cues come from cues.ts, computed
// again on every rebinding.

const captionsKey = "reelbind:captions";
const readAloudKey = "reelbind:read-descriptions";

const css = `
.rb-captions{position:absolute;left:5%;right:5%;bottom:max(5%,12px);text-align:center;pointer-events:none;transition:bottom .2s;font-size:clamp(14px,3.4vw,40px);line-height:1.35}
.rb-player:not([data-state=playing]) .rb-captions,.rb-player:hover .rb-captions,.rb-player:focus-within .rb-captions{bottom:56px}
@media (max-width:559px){.rb-player:has(.rb-controls .rb-cta):not([data-state=playing]) .rb-captions,.rb-player:has(.rb-controls .rb-cta):hover .rb-captions,.rb-player:has(.rb-controls .rb-cta):focus-within .rb-captions{bottom:100px}}
.rb-captions-text{display:inline;padding:.1em .45em;background:rgba(0,0,0,.75);color:#fff;white-space:pre-line;-webkit-box-decoration-break:clone;box-decoration-break:clone}
.rb-button.rb-text-button{width:auto;min-width:36px;padding:6px 8px;font-size:13px;font-weight:700;letter-spacing:.04em;opacity:.7}
.rb-button.rb-text-button[aria-pressed=true]{opacity:1;box-shadow:inset 0 -3px 0 #fff}
.rb-visually-hidden{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
@media (prefers-reduced-motion:reduce){.rb-captions{transition:none}}
`;

export class CaptionsView {
  private cues: readonly TimedCue[] = [];
  private readonly t: Translate<CaptionMessageId>;
  private readonly captions: HTMLElement;
  private readonly captionsText: HTMLElement;
  private readonly descriptions: HTMLElement;
  private readonly captionsButton: HTMLButtonElement;
  private readonly readAloudButton: HTMLButtonElement;
  private captionsOn: boolean;
  private readAloud: boolean;
  private shownCaption: TimedCue | null = null;
  private activeDescription: TimedCue | null = null;
  /** Descriptions are announced once the viewer has played or sought, not for the still first frame. */
  private started = false;
  private lastPositionMs = 0;

  constructor(private readonly locale: string | null) {
    this.t = translator(captionMessages, locale);
    const style = document.createElement("style");
    style.textContent = css;
    document.head.appendChild(style);

    this.captions = document.createElement("div");
    this.captions.className = "rb-captions";
    this.captions.dir = textDirection(locale);
    if (locale) this.captions.lang = locale;
    this.captions.hidden = true;
    // The line is the video's sound as text: a screen reader has the descriptions region instead.
    this.captions.setAttribute("aria-hidden", "true");
    this.captionsText = document.createElement("span");
    this.captionsText.className = "rb-captions-text";
    this.captions.appendChild(this.captionsText);

    this.descriptions = document.createElement("div");
    this.descriptions.className = "rb-visually-hidden rb-descriptions";
    // A log: each description is added in order, and read (politely) as it arrives.
    this.descriptions.setAttribute("role", "log");
    this.descriptions.setAttribute("aria-live", "polite");
    this.descriptions.setAttribute("aria-label", this.t("descriptionsRegion"));
    if (locale) this.descriptions.lang = locale;

    this.captionsOn = stored(captionsKey) === "on";
    this.readAloud = stored(readAloudKey) === "on";
    this.captionsButton = textButton("CC", this.t("captions"), this.t("captionsTitle"), () => this.toggleCaptions());
    this.captionsButton.classList.add("rb-captions-button");
    this.readAloudButton = textButton("AD", this.t("readAloud"), this.t("readAloud"), () => this.toggleReadAloud());
    this.readAloudButton.classList.add("rb-read-aloud-button");
    this.render();
  }

  /** Into the player: the line and the region in the root, the buttons before the control bar's last one (full screen). */
  attach(root: HTMLElement, controls: HTMLElement): void {
    root.append(this.captions, this.descriptions);
    const buttons = [this.captionsButton, this.readAloudButton];
    const last = controls.lastElementChild;
    for (const button of buttons) controls.insertBefore(button, last);
  }

  /** New data was bound: the cues say the new name; what shows is recomputed at the next update. */
  setCues(cues: readonly TimedCue[]): void {
    this.cues = cues;
    this.shownCaption = null;
    this.activeDescription = null;
    this.render();
    this.update(this.lastPositionMs, null);
  }

  /** A seek, by the viewer or the host: the description there is announced even while paused. */
  seeked(): void {
    this.started = true;
  }

  /** Called on every control update (each animation frame while playing, after every seek). */
  update(positionMs: number, state: PlayerState | null): void {
    this.lastPositionMs = positionMs;
    if (state === "playing") this.started = true;
    const caption = activeCue(this.cues, "captions", positionMs);
    if (caption !== this.shownCaption) {
      this.shownCaption = caption;
      this.captionsText.textContent = caption?.text ?? "";
      this.render();
    }
    const announce = descriptionToAnnounce(this.cues, positionMs, this.activeDescription);
    this.activeDescription = activeCue(this.cues, "descriptions", positionMs);
    if (announce && this.started) this.announce(announce.text);
  }

  toggleCaptions(): void {
    if (!this.hasCaptions()) return;
    this.captionsOn = !this.captionsOn;
    store(captionsKey, this.captionsOn ? "on" : "off");
    this.render();
  }

  private toggleReadAloud(): void {
    this.readAloud = !this.readAloud;
    store(readAloudKey, this.readAloud ? "on" : "off");
    if (!this.readAloud) speech()?.cancel();
    this.render();
  }

  /** A new paragraph each time: a screen reader reads an added node even when its text repeats. */
  private announce(text: string): void {
    const paragraph = document.createElement("p");
    paragraph.textContent = text;
    this.descriptions.replaceChildren(paragraph);
    const synthesis = speech();
    if (!this.readAloud || !synthesis) return;
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = this.locale ?? "en";
    synthesis.cancel();
    synthesis.speak(utterance);
  }

  private hasCaptions(): boolean {
    return this.cues.some((cue) => cue.kind === "captions");
  }

  private render(): void {
    const hasCaptions = this.hasCaptions();
    this.captionsButton.hidden = !hasCaptions;
    this.captionsButton.setAttribute("aria-pressed", String(this.captionsOn));
    this.captions.hidden = !hasCaptions || !this.captionsOn || !this.shownCaption;
    this.readAloudButton.hidden = !speech() || !this.cues.some((cue) => cue.kind === "descriptions");
    this.readAloudButton.setAttribute("aria-pressed", String(this.readAloud));
  }
}

function textButton(text: string, label: string, title: string, onClick: () => void): HTMLButtonElement {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "rb-button rb-text-button";
  // The letters are the button's icon; its name is the label.
  const glyph = document.createElement("span");
  glyph.setAttribute("aria-hidden", "true");
  glyph.textContent = text;
  button.appendChild(glyph);
  button.setAttribute("aria-label", label);
  button.title = title;
  button.addEventListener("click", onClick);
  return button;
}

function speech(): SpeechSynthesis | null {
  return typeof window.speechSynthesis === "object" && typeof SpeechSynthesisUtterance === "function" ? window.speechSynthesis : null;
}

// A third-party iframe may have no storage (blocked cookies): the choice then lasts the page view.
function stored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // See stored().
  }
}
