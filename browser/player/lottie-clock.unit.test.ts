import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AnimationView } from "./animation-view";
import { LottieClock } from "./lottie-clock";
import type { MediaEvents } from "./media";

// 90 frames at 30 fps: 3 s.
const timing = { frameRate: 30, totalFrames: 90 };

function newClock() {
  const frames: number[] = [];
  const view = { goToFrame: (frame: number) => frames.push(frame), item: null } as unknown as AnimationView;
  const events = { played: vi.fn(), paused: vi.fn(), ended: vi.fn(), failed: vi.fn(), changed: vi.fn() } satisfies MediaEvents;
  return { clock: new LottieClock(view, timing, events), events, lastFrame: () => frames.at(-1) };
}

describe("LottieClock", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("play – the position follows the clock and render draws its frame", async () => {
    const { clock, events, lastFrame } = newClock();
    expect(clock.durationMs).toBe(3_000);
    expect(lastFrame()).toBe(0);
    await clock.play();
    expect(events.played).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1_000);
    expect(clock.positionMs()).toBe(1_000);
    clock.render();
    expect(lastFrame()).toBe(30);
  });

  it("pause – the position stops; a second pause reports nothing", async () => {
    const { clock, events } = newClock();
    await clock.play();
    vi.advanceTimersByTime(500);
    clock.pause();
    clock.pause();
    vi.advanceTimersByTime(2_000);
    expect(clock.positionMs()).toBe(500);
    expect(events.paused).toHaveBeenCalledTimes(1);
    expect(clock.isPlaying()).toBe(false);
  });

  it("seek – while paused it draws the frame; while playing the clock goes on from there", async () => {
    const { clock, lastFrame } = newClock();
    clock.seek(2_000);
    expect(lastFrame()).toBe(60);
    clock.seek(-5);
    expect(clock.positionMs()).toBe(0);
    await clock.play();
    clock.seek(1_000);
    vi.advanceTimersByTime(250);
    expect(clock.positionMs()).toBe(1_250);
  });

  it("the end – ended once, on the last frame, not paused; play then starts over", async () => {
    const { clock, events, lastFrame } = newClock();
    await clock.play();
    vi.advanceTimersByTime(2_999);
    expect(events.ended).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(events.ended).toHaveBeenCalledTimes(1);
    expect(events.paused).not.toHaveBeenCalled();
    expect(clock.isPlaying()).toBe(false);
    expect(clock.positionMs()).toBe(3_000);
    expect(lastFrame()).toBeCloseTo(89.999, 3);
    await clock.play();
    expect(clock.positionMs()).toBe(0);
  });

  it("the end – a seek while playing moves it", async () => {
    const { clock, events } = newClock();
    await clock.play();
    clock.seek(2_500);
    vi.advanceTimersByTime(500);
    expect(events.ended).toHaveBeenCalledTimes(1);
  });

  it("no sound – nothing to mute", () => {
    expect(newClock().clock.hasAudio()).toBe(false);
  });
});
