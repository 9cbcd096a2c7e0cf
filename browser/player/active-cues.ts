import type { CueKind, TimedCue } from "@/shared/templates/cues";

// Which cue is on at a position: the captions line to show and the description to announce.

/** The cue of `kind` showing at `positionMs` ([start, end)); of overlapping ones, the latest to start. */
export function activeCue(cues: readonly TimedCue[], kind: CueKind, positionMs: number): TimedCue | null {
  let found: TimedCue | null = null;
  for (const cue of cues) {
    if (cue.kind !== kind || cue.startMs > positionMs || positionMs >= cue.endMs) continue;
    if (!found || cue.startMs >= found.startMs) found = cue;
  }
  return found;
}

/**
 * The description to announce now: the active one, when it was not already active at the last
 * update (so a cue is read once as playback reaches it, and again after a seek out and back in).
 */
export function descriptionToAnnounce(cues: readonly TimedCue[], positionMs: number, previouslyActive: TimedCue | null): TimedCue | null {
  const active = activeCue(cues, "descriptions", positionMs);
  return active && active !== previouslyActive ? active : null;
}
