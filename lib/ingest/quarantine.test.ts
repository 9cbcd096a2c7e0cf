import { describe, expect, it } from "vitest";
import { quarantineSampleMaxChars } from "@/lib/analytics/definitions";
import { sampleText } from "./quarantine";

describe("sampleText – a refused event as stored in the quarantine", () => {
  it("is the event's JSON", () => {
    const event = { event_type: "video.played", payload: { position_ms: 0, tags: ["a", { b: null }] } };
    expect(sampleText(event)).toBe(JSON.stringify(event));
  });

  it("writes nesting below 64 levels as a marker instead of overflowing the stack (10,000 levels)", () => {
    let deep: unknown = "bottom";
    for (let level = 0; level < 10_000; level++) deep = { a: deep };
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    const text = sampleText(deep);
    expect(text.startsWith('{"a":{"a":')).toBe(true);
    expect(text).toContain('"[nested too deep]"');
    expect(text.match(/\{/g)).toHaveLength(64);
  });

  it("is cut to the sample limit", () => {
    expect(sampleText({ text: "x".repeat(quarantineSampleMaxChars * 2) })).toHaveLength(quarantineSampleMaxChars);
  });
});
