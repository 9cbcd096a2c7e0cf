import { listMarkers, type Lottie } from "./lottie";
import type { BindingManifest } from "./manifest";

// A template's chapters in Lottie frames: the server (outline, comparison, page manifest) and
// the player (derived descriptions, cues.ts) read them the same way. Browser-safe.

export type Chapter = { id: string; name: string; startFrame: number; endFrame: number };

/**
 * The manifest's chapters, or else one per Lottie marker: a marker without a duration runs to
 * the next marker (or the out point).
 */
export function chaptersOf(manifest: BindingManifest | null, lottie: Lottie): Chapter[] {
  if (manifest?.chapters) return manifest.chapters.map((chapter) => ({ ...chapter }));
  const markers = listMarkers(lottie);
  const used = new Set<string>();
  const chapters: Chapter[] = [];
  markers.forEach((marker, i) => {
    const next = markers[i + 1];
    const startFrame = Math.max(lottie.ip, marker.startFrame);
    const end = marker.durationFrames > 0 ? marker.startFrame + marker.durationFrames : (next?.startFrame ?? lottie.op);
    const endFrame = Math.min(lottie.op, end);
    if (endFrame <= startFrame) return;
    const name = marker.name.trim() || `Chapter ${chapters.length + 1}`;
    const base = name.toLowerCase().replace(/[^a-z0-9_.-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 56) || "chapter";
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    chapters.push({ id, name: name.slice(0, 200), startFrame, endFrame });
  });
  return chapters;
}
