import type { Lottie } from "@/shared/templates/lottie";
import type { AnimationItem } from "./animation-view";
import type { PlayerError } from "./player-error";

// What the player drives, whichever kind the template is: a Lottie on the player's own clock
// (LottieStandalone) or a video with a Lottie overlay (Raster). Positions are milliseconds.

/** What the media reports; the playback controller implements it. */
export type MediaEvents = {
  /** A transition to playing. */
  played(): void;
  /** A transition to paused, never at the natural end (that is ended()). */
  paused(): void;
  ended(): void;
  failed(error: PlayerError): void;
  /** Something the controls show changed on its own (mute state, whether there is audio). */
  changed(): void;
};

export interface PlayerMedia {
  readonly durationMs: number;
  /** Resolves once the first frame is on screen. */
  readonly firstFrame: Promise<void>;
  positionMs(): number;
  isPlaying(): boolean;
  /** Rejects as the browser does (NotAllowedError when it refuses playback). */
  play(): Promise<void>;
  pause(): void;
  seek(positionMs: number): void;
  isMuted(): boolean;
  setMuted(muted: boolean): void;
  /** Whether there is sound to mute. */
  hasAudio(): boolean;
  /** Draws the current position; called on every animation frame while playing. */
  render(): void;
  /** The same position with another animation (new bindings); no-op without one. */
  replaceAnimation(animationData: Lottie): Promise<void>;
  /** The Lottie on screen, for CTA layers; null when there is none. */
  animation(): AnimationItem | null;
}
