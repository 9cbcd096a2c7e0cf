import type { Lottie } from "@/shared/templates/lottie";
import { timingOf, type AnimationTiming } from "./animation-timing";
import type { AnimationItem, AnimationView } from "./animation-view";
import type { MediaEvents, PlayerMedia } from "./media";

// LottieStandalone: the animation is the video. One clock (a start timestamp and the position
// at that moment) gives the position for rendering, seeking and analytics alike; lottie-web's
// own playback is never started. No media element, so no autoplay policy and no sound.

export async function openLottieClock(view: AnimationView, animationData: Lottie, events: MediaEvents): Promise<LottieClock> {
  await view.show(animationData);
  return new LottieClock(view, timingOf(animationData), events);
}

export class LottieClock implements PlayerMedia {
  readonly durationMs: number;
  readonly firstFrame = Promise.resolve();
  /** performance.now() when play started (or the position last moved while playing); null while paused. */
  private startedAt: number | null = null;
  /** The position at startedAt, or the paused position. */
  private origin = 0;
  private endTimer: ReturnType<typeof setTimeout> | undefined;
  private muted = false;

  constructor(
    private readonly view: AnimationView,
    private readonly timing: AnimationTiming,
    private readonly events: MediaEvents,
  ) {
    this.durationMs = (timing.totalFrames / timing.frameRate) * 1000;
    this.render();
  }

  positionMs(): number {
    if (this.startedAt === null) return this.origin;
    return Math.min(this.durationMs, this.origin + performance.now() - this.startedAt);
  }

  isPlaying(): boolean {
    return this.startedAt !== null;
  }

  play(): Promise<void> {
    if (this.startedAt === null) {
      // Like a media element: play at the end starts over.
      if (this.origin >= this.durationMs) this.origin = 0;
      this.startedAt = performance.now();
      this.scheduleEnd();
      this.events.played();
      this.render();
    }
    return Promise.resolve();
  }

  pause(): void {
    if (this.startedAt === null) return;
    this.origin = this.positionMs();
    this.startedAt = null;
    clearTimeout(this.endTimer);
    this.render();
    this.events.paused();
  }

  seek(positionMs: number): void {
    this.origin = Math.min(this.durationMs, Math.max(0, positionMs));
    if (this.startedAt !== null) {
      this.startedAt = performance.now();
      this.scheduleEnd();
    }
    this.render();
  }

  isMuted(): boolean {
    return this.muted;
  }

  setMuted(muted: boolean): void {
    this.muted = muted;
  }

  hasAudio(): boolean {
    return false;
  }

  render(): void {
    const frame = (this.positionMs() / 1000) * this.timing.frameRate;
    // The out point itself is past the last frame (layers end there): stop just before it.
    this.view.goToFrame(Math.min(frame, this.timing.totalFrames - 0.001));
  }

  async replaceAnimation(animationData: Lottie): Promise<void> {
    await this.view.show(animationData);
  }

  animation(): AnimationItem | null {
    return this.view.item;
  }

  /** A timer rather than the render loop ends playback: animation frames stop in background tabs. */
  private scheduleEnd(): void {
    clearTimeout(this.endTimer);
    this.endTimer = setTimeout(() => {
      if (this.startedAt === null) return;
      if (this.positionMs() < this.durationMs) {
        this.scheduleEnd();
        return;
      }
      this.origin = this.durationMs;
      this.startedAt = null;
      this.render();
      this.events.ended();
    }, Math.max(0, this.durationMs - this.positionMs()));
  }
}
