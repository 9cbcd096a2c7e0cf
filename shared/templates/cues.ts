import { bindingFieldsOf } from "./bindings";
import { chaptersOf } from "./chapters";
import { formatData } from "./format-values";
import { textKeyframes, type Lottie, type LottieLayer } from "./lottie";
import type { BindingManifest } from "./manifest";
import { fillPlaceholders } from "./placeholders";

// A viewer's captions and descriptions: the manifest's cues filled with their formatted data, or
// (a template that declares no descriptions) one description per chapter read off the bound
// animation: the bound text layers visible in it, in reading order. The player, the landing
// page's transcript, the WebVTT API and renders all take them from here. Browser-safe.

export type CueKind = "captions" | "descriptions";

/** One cue in media milliseconds (frame ip is 0, plus a Raster overlay's offset). */
export type TimedCue = { kind: CueKind; startMs: number; endMs: number; text: string };

export type ViewerCuesInput = {
  /** The animation with the viewer's data applied (applyBindings with the same data and locale). */
  boundLottie: Lottie;
  manifest: BindingManifest | null;
  /** The viewer's raw data: formatted here for the locale, as applyBindings formats it. */
  data: Readonly<Record<string, string>>;
  locale: string | null | undefined;
  /** A Raster template's overlay offset: where frame ip falls in the video. */
  offsetSeconds?: number;
};

export function viewerCues({ boundLottie: lottie, manifest, data, locale, offsetSeconds = 0 }: ViewerCuesInput): TimedCue[] {
  const ms = (frame: number) => Math.max(0, Math.round(((frame - lottie.ip) / lottie.fr + offsetSeconds) * 1000));
  const chapters = chaptersOf(manifest, lottie);
  const formatted = formatData(bindingFieldsOf(manifest, lottie), data, locale).data;

  const cues: TimedCue[] = [];
  for (const cue of manifest?.cues ?? []) {
    const span = "chapter" in cue ? chapters.find((chapter) => chapter.id === cue.chapter) : cue;
    const text = oneLine(fillPlaceholders(cue.text, formatted));
    if (span && text) cues.push({ kind: cue.kind, startMs: ms(span.startFrame), endMs: ms(span.endFrame), text });
  }
  if (!cues.some((cue) => cue.kind === "descriptions")) {
    const spans = chapters.length > 0 ? chapters : [{ startFrame: lottie.ip, endFrame: lottie.op }];
    const boundLayers = new Set(bindingFieldsOf(manifest, lottie).flatMap((field) => ("layer" in field.target && field.type === "text" ? [field.target.layer] : [])));
    for (const span of spans) {
      const text = visibleText(lottie, boundLayers, span.startFrame, span.endFrame);
      if (text) cues.push({ kind: "descriptions", startMs: ms(span.startFrame), endMs: ms(span.endFrame), text });
    }
  }
  return cues.sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
}

/** The bound text layers shown in [start, end), top to bottom then left to right, as sentences. */
function visibleText(lottie: Lottie, boundLayers: Set<string>, start: number, end: number): string {
  const shown = lottie.layers.filter((layer) => {
    if (layer.ty !== 5 || !layer.nm || !boundLayers.has(layer.nm)) return false;
    const inPoint = typeof layer.ip === "number" ? layer.ip : lottie.ip;
    const outPoint = typeof layer.op === "number" ? layer.op : lottie.op;
    return inPoint < end && outPoint > start;
  });
  return shown
    .map((layer) => ({ text: oneLine(String(textKeyframes(layer)[0]?.s?.t ?? "")), ...position(layer) }))
    .filter((layer) => layer.text !== "")
    .sort((a, b) => a.y - b.y || a.x - b.x)
    .map(({ text }) => (/[.!?…:]$/.test(text) ? text : `${text}.`))
    .join(" ");
}

/** A layer's position at its first keyframe (or its static one); 0,0 when it has none. */
function position(layer: LottieLayer): { x: number; y: number } {
  const ks = layer.ks as { p?: { k?: unknown } } | undefined;
  const value = ks?.p?.k;
  const first = Array.isArray(value) && typeof value[0] === "object" && value[0] !== null ? (value[0] as { s?: unknown }).s : value;
  return Array.isArray(first) && typeof first[0] === "number" && typeof first[1] === "number" ? { x: first[0], y: first[1] } : { x: 0, y: 0 };
}

/** Lottie's "\r" line breaks and any run of whitespace as one space. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** 01:02:03.456 */
function timestamp(ms: number): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

/** The cues of one kind as a WebVTT file (the text escaped: no markup, no "-->" inside a cue). */
export function toWebVtt(cues: readonly TimedCue[], kind: CueKind): string {
  const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const blocks = cues
    .filter((cue) => cue.kind === kind && cue.endMs > cue.startMs)
    .map((cue, i) => `${i + 1}\n${timestamp(cue.startMs)} --> ${timestamp(cue.endMs)}\n${escape(cue.text)}`);
  return ["WEBVTT", ...blocks].join("\n\n") + "\n";
}
