import { describe, expect, it } from "vitest";
import { nextAttemptAt, retryDelayMs, retryDelaysMs, retryWindowMs } from "./backoff";

const s = 1000;
const min = 60 * s;
const h = 60 * min;

describe("retryDelayMs", () => {
  it.each([
    [1, 5 * s],
    [2, 30 * s],
    [3, 2 * min],
    [4, 10 * min],
    [5, 30 * min],
    [6, h],
    [7, 2 * h],
    [8, 4 * h],
    [9, 8 * h],
    [12, 8 * h],
  ])("retryDelayMs – after failure %i, no jitter → %i ms", (failures, expected) => {
    expect(retryDelayMs(failures, 0.5)).toBe(expected);
  });

  it.each([
    { random: 0, factor: 0.8 },
    { random: 0.999999, factor: 1.2 },
  ])("retryDelayMs – random $random → base × $factor at the edge", ({ random, factor }) => {
    expect(retryDelayMs(2, random)).toBeCloseTo(30 * s * factor, -2);
  });
});

describe("nextAttemptAt", () => {
  const first = new Date("2026-01-01T00:00:00.000Z");
  const until = new Date(first.getTime() + retryWindowMs);

  it("nextAttemptAt – the whole schedule without jitter: 11 attempts in 24 h, then give up", () => {
    let at = first;
    const attempts = [at];
    for (let failures = 1; ; failures++) {
      const next = nextAttemptAt(failures, at, until, 0.5);
      if (!next) break;
      attempts.push((at = next));
    }
    expect(attempts).toHaveLength(11);
    expect(attempts.at(-1)!.getTime() - first.getTime()).toBe(retryDelaysMs.reduce((sum, delay) => sum + delay, 0) + 8 * h);
    expect(attempts.at(-1)!.getTime()).toBeLessThanOrEqual(until.getTime());
  });

  it("nextAttemptAt – the next wait would pass the 24 h → null", () => {
    expect(nextAttemptAt(9, new Date(until.getTime() - h), until, 0.5)).toBeNull();
  });

  it("nextAttemptAt – the next wait ends just inside the window → that time", () => {
    expect(nextAttemptAt(1, new Date(until.getTime() - 5 * s), until, 0.5)).toEqual(until);
  });
});
