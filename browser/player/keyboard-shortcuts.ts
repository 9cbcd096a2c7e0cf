// The player's keys while it has focus: Space/K play-pause, ←/→ seek ∓5 s, M mute, F fullscreen,
// C captions.

export type Shortcut = "togglePlay" | "seekBack" | "seekForward" | "toggleMute" | "toggleFullscreen" | "toggleCaptions";

export const seekStepMs = 5_000;

export type KeyPress = {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  /** The focused element's tag name ("BUTTON", "INPUT", …). */
  targetTag?: string;
};

/**
 * The shortcut a key press means, or null to leave it to the browser: with a modifier (browser
 * and system shortcuts), and Space or Enter on a focused button, which the button itself
 * activates (handling it here as well would toggle twice).
 */
export function shortcutFor({ key, ctrlKey, metaKey, altKey, targetTag }: KeyPress): Shortcut | null {
  if (ctrlKey || metaKey || altKey) return null;
  switch (key) {
    case " ":
    case "Spacebar":
      return targetTag === "BUTTON" ? null : "togglePlay";
    case "k":
    case "K":
      return "togglePlay";
    case "ArrowLeft":
    case "Left":
      return "seekBack";
    case "ArrowRight":
    case "Right":
      return "seekForward";
    case "m":
    case "M":
      return "toggleMute";
    case "f":
    case "F":
      return "toggleFullscreen";
    case "c":
    case "C":
      return "toggleCaptions";
    default:
      return null;
  }
}
