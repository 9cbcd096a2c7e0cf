import { describe, expect, it } from "vitest";
import webvtt from "webvtt-parser";
import { makeLottie, textLayer } from "@/testing/fixtures/lottie-builders";
import { applyBindings } from "./bindings";
import { toWebVtt, viewerCues, type TimedCue } from "./cues";
import type { Lottie } from "./lottie";
import type { BindingManifest } from "./manifest";

// Two seconds at 30 fps: the name at the top, the amount below it, a title to the left of the amount.
const lottie: Lottie = makeLottie({
  fr: 30,
  op: 60,
  layers: [
    textLayer("Amount", "$0.00", { x: 200, y: 120, ip: 30, op: 60 }),
    textLayer("Title", "Your total:", { x: 20, y: 120, ip: 30, op: 60 }),
    textLayer("Name", "there", { x: 20, y: 40, ip: 0, op: 60 }),
  ],
});

const fields: BindingManifest["fields"] = [
  { key: "firstName", type: "text", target: { layer: "Name" } },
  { key: "title", type: "text", target: { layer: "Title" } },
  { key: "amount", type: "text", target: { layer: "Amount" }, format: { type: "currency", currency: "EUR" } },
];
const chapters = [
  { id: "hello", name: "Hello", startFrame: 0, endFrame: 30 },
  { id: "total", name: "Total", startFrame: 30, endFrame: 60 },
];

function cuesFor(manifest: BindingManifest, data: Record<string, string>, locale: string | null, offsetSeconds = 0): TimedCue[] {
  const { lottie: boundLottie } = applyBindings({ lottie, manifest, data, locale });
  return viewerCues({ boundLottie, manifest, data, locale, offsetSeconds });
}

const plain = (text: string) => text.replace(/\s/g, " ");

describe("viewerCues", () => {
  it("declared cues: a chapter's span or a frame range, in ms, with the viewer's formatted values", () => {
    const manifest: BindingManifest = {
      version: 1,
      fields,
      chapters,
      cues: [
        { kind: "captions", chapter: "total", text: "Your total is {{amount}}." },
        { kind: "captions", chapter: "hello", text: "Hi {{firstName|there}}!" },
        { kind: "descriptions", startFrame: 15, endFrame: 45, text: "A card with {{firstName}}'s\rtotal." },
        { kind: "captions", chapter: "no-such-chapter", text: "Never shown" },
      ],
    };
    const cues = cuesFor(manifest, { firstName: "Ana", amount: "1234.5" }, "de-DE");
    expect(cues.map((cue) => ({ ...cue, text: plain(cue.text) }))).toEqual([
      { kind: "captions", startMs: 0, endMs: 1000, text: "Hi Ana!" },
      { kind: "descriptions", startMs: 500, endMs: 1500, text: "A card with Ana's total." },
      { kind: "captions", startMs: 1000, endMs: 2000, text: "Your total is 1.234,50 €." },
    ]);
    // A placeholder's default when the data has no value; a Raster overlay's offset moves every cue.
    expect(cuesFor(manifest, {}, null, 2)[0]).toEqual({ kind: "captions", startMs: 2000, endMs: 3000, text: "Hi there!" });
  });

  it("no declared descriptions: one per chapter, the bound text layers shown in it, top to bottom then left to right", () => {
    const manifest: BindingManifest = { version: 1, fields, chapters, cues: [{ kind: "captions", chapter: "hello", text: "Hi" }] };
    const cues = cuesFor(manifest, { firstName: "Ana", title: "Your total:", amount: "24" }, "en-US");
    expect(cues.filter((cue) => cue.kind === "descriptions")).toEqual([
      { kind: "descriptions", startMs: 0, endMs: 1000, text: "Ana." },
      { kind: "descriptions", startMs: 1000, endMs: 2000, text: "Ana. Your total: €24.00." },
    ]);
  });

  it("no chapters: one description over the whole animation", () => {
    const manifest: BindingManifest = { version: 1, fields };
    expect(cuesFor(manifest, { firstName: "Ana", title: "Total", amount: "5" }, "en-US")).toEqual([
      { kind: "descriptions", startMs: 0, endMs: 2000, text: "Ana. Total. €5.00." },
    ]);
  });
});

describe("toWebVtt", () => {
  const cues: TimedCue[] = [
    { kind: "captions", startMs: 0, endMs: 1500, text: "Tom & Jerry <b>bold</b> --> next" },
    { kind: "descriptions", startMs: 0, endMs: 1500, text: "Not a caption" },
    { kind: "captions", startMs: 3_723_004, endMs: 3_724_000, text: "An hour in" },
    { kind: "captions", startMs: 10, endMs: 10, text: "Empty span: left out" },
  ];

  it("one kind's cues, numbered, with hh:mm:ss.mmm times; markup and arrows in the text escaped so a real parser reads them as text", () => {
    const vtt = toWebVtt(cues, "captions");
    expect(vtt).toBe("WEBVTT\n\n1\n00:00:00.000 --> 00:00:01.500\nTom &amp; Jerry &lt;b&gt;bold&lt;/b&gt; --&gt; next\n\n2\n01:02:03.004 --> 01:02:04.000\nAn hour in\n");
    const parsed = new webvtt.WebVTTParser().parse(vtt, "metadata");
    expect(parsed.errors).toEqual([]);
    expect(parsed.cues.map((cue) => ({ id: cue.id, start: cue.startTime, end: cue.endTime, text: cue.text }))).toEqual([
      { id: "1", start: 0, end: 1.5, text: "Tom &amp; Jerry &lt;b&gt;bold&lt;/b&gt; --&gt; next" },
      { id: "2", start: 3723.004, end: 3724, text: "An hour in" },
    ]);
  });

  it("no cues of the kind: a valid empty file", () => {
    expect(toWebVtt([], "descriptions")).toBe("WEBVTT\n");
    expect(new webvtt.WebVTTParser().parse(toWebVtt([], "descriptions"), "metadata").errors).toEqual([]);
  });
});
