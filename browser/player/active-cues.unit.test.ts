import { describe, expect, it } from "vitest";
import type { TimedCue } from "@/shared/templates/cues";
import { activeCue, descriptionToAnnounce } from "./active-cues";

const hello: TimedCue = { kind: "captions", startMs: 0, endMs: 2000, text: "Hello Ana" };
const plan: TimedCue = { kind: "captions", startMs: 2000, endMs: 4000, text: "Your plan" };
const overlap: TimedCue = { kind: "captions", startMs: 3000, endMs: 3500, text: "Overlap" };
const card: TimedCue = { kind: "descriptions", startMs: 1000, endMs: 3000, text: "A card" };
const cues = [hello, card, plan, overlap];

describe("activeCue", () => {
  it("is the cue of the kind whose [start, end) holds the position", () => {
    expect(activeCue(cues, "captions", 0)).toBe(hello);
    expect(activeCue(cues, "captions", 1999)).toBe(hello);
    expect(activeCue(cues, "captions", 2000)).toBe(plan);
    expect(activeCue(cues, "descriptions", 1500)).toBe(card);
    expect(activeCue(cues, "descriptions", 500)).toBeNull();
  });

  it("is none past the last cue's end, and the latest to start where cues overlap", () => {
    expect(activeCue(cues, "captions", 4000)).toBeNull();
    expect(activeCue(cues, "captions", 3200)).toBe(overlap);
    expect(activeCue(cues, "captions", 3500)).toBe(plan);
  });
});

describe("descriptionToAnnounce", () => {
  it("is the description playback enters, once", () => {
    expect(descriptionToAnnounce(cues, 900, null)).toBeNull();
    expect(descriptionToAnnounce(cues, 1000, null)).toBe(card);
    expect(descriptionToAnnounce(cues, 1500, card)).toBeNull();
  });

  it("is the description again after a seek out of it and back in", () => {
    expect(descriptionToAnnounce(cues, 500, card)).toBeNull();
    expect(descriptionToAnnounce(cues, 2500, null)).toBe(card);
  });
});
