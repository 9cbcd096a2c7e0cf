import { describe, expect, it } from "vitest";
import { formatTime } from "./format-time";

describe("formatTime", () => {
  it.each([
    { ms: 0, text: "0:00" },
    { ms: 999, text: "0:00" },
    { ms: 5_000, text: "0:05" },
    { ms: 65_400, text: "1:05" },
    { ms: 600_000, text: "10:00" },
    { ms: 3_725_000, text: "1:02:05" },
    { ms: -3_000, text: "0:00" },
    { ms: Number.NaN, text: "0:00" },
  ])("$ms ms → $text", ({ ms, text }) => {
    expect(formatTime(ms)).toBe(text);
  });
});
