import { ViewerSketch } from "./viewer-sketch";
import {
  dailyCounters,
  emptyContribution,
  emptyDailyDelta,
  filterDimensions,
  type ChapterFacts,
  type Contribution,
  type DailyDelta,
  type Facts,
} from "./contribution";

// From sessions' contributions to rollup rows: the difference a session's new events made
// (diff), summed over a chunk of sessions and spread over the cube of filter masks (addToCube),
// then merged into the stored rows (mergeIntoRow).

/** The bit of each filter dimension in a rollup row's mask. */
export const maskBits = { channel: 1, template_id: 2, template_version: 4, device_type: 8, country: 16 } as const;
export const maskCount = 32;
const allMasks = Array.from({ length: maskCount }, (_, mask) => mask);
/** Only rows of one template carry a heatmap: the heatmap report always names its template. */
const heatmapMask = maskBits.template_id;

/** new − old: what a session's newly rolled-up events changed. Sketches and names only grow, so they take new's. */
export function diff(next: Contribution, previous: Contribution): Contribution {
  const result = emptyContribution();
  for (const [key, facts] of next.hourly) {
    const old = previous.hourly.get(key);
    const change = old ? (facts.map((value, i) => value - old[i]!) as Facts) : facts;
    if (change.some((value) => value !== 0)) result.hourly.set(key, change);
  }
  for (const [key, old] of previous.hourly) if (!next.hourly.has(key)) result.hourly.set(key, old.map((value) => -value) as Facts);
  for (const key of new Set([...next.daily.keys(), ...previous.daily.keys()])) {
    const change = dailyDiff(next.daily.get(key) ?? emptyDailyDelta(), previous.daily.get(key));
    if (change) result.daily.set(key, change);
  }
  return result;
}

/** The change from `old` to `next`, or null when there is none. */
function dailyDiff(next: DailyDelta, old: DailyDelta | undefined): DailyDelta | null {
  if (!old) return next;
  const change = emptyDailyDelta();
  let changed = false;
  next.counters.forEach((value, i) => {
    change.counters[i] = value - old.counters[i]!;
    if (change.counters[i] !== 0) changed = true;
  });
  for (const key of new Set([...next.breakdowns.keys(), ...old.breakdowns.keys()])) {
    const a = next.breakdowns.get(key) ?? [0, 0, 0, 0];
    const b = old.breakdowns.get(key) ?? [0, 0, 0, 0];
    const facts = a.map((value, i) => value - b[i]!) as Facts;
    if (facts.some((value) => value !== 0)) {
      change.breakdowns.set(key, facts);
      changed = true;
    }
  }
  for (const [id, entry] of next.chapters) {
    const before = old.chapters.get(id);
    const sessions = entry.sessions - (before?.sessions ?? 0);
    const plays = entry.plays - (before?.plays ?? 0);
    if (sessions !== 0 || plays !== 0 || entry.name !== before?.name || entry.minPositionMs !== before?.minPositionMs) {
      change.chapters.set(id, { ...entry, sessions, plays });
      changed = true;
    }
  }
  for (const second of new Set([...next.heatmap.keys(), ...old.heatmap.keys()])) {
    const a = next.heatmap.get(second) ?? [0, 0, 0];
    const b = old.heatmap.get(second) ?? [0, 0, 0];
    const values = a.map((value, i) => value - b[i]!) as [number, number, number];
    if (values.some((value) => value !== 0)) {
      change.heatmap.set(second, values);
      changed = true;
    }
  }
  if (next.heatmapFurthestMs !== null && next.heatmapFurthestMs !== old.heatmapFurthestMs) {
    change.heatmapFurthestMs = next.heatmapFurthestMs;
    changed = true;
  }
  for (const viewer of next.viewers) {
    if (!old.viewers.has(viewer)) {
      change.viewers.add(viewer);
      changed = true;
    }
  }
  return changed ? change : null;
}

/** Adds `change` into `target` (sums; sketches, names and furthest points merge). */
export function addDaily(target: DailyDelta, change: DailyDelta, withHeatmap = true): void {
  change.counters.forEach((value, i) => (target.counters[i]! += value));
  for (const [key, facts] of change.breakdowns) {
    const known = target.breakdowns.get(key);
    if (known) facts.forEach((value, i) => (known[i]! += value));
    else target.breakdowns.set(key, [...facts]);
  }
  for (const [id, entry] of change.chapters) {
    const known = target.chapters.get(id);
    if (known) mergeChapter(known, entry);
    else target.chapters.set(id, { ...entry });
  }
  if (withHeatmap) {
    for (const [second, values] of change.heatmap) {
      const known = target.heatmap.get(second);
      if (known) values.forEach((value, i) => (known[i]! += value));
      else target.heatmap.set(second, [...values]);
    }
    if (change.heatmapFurthestMs !== null) target.heatmapFurthestMs = Math.max(target.heatmapFurthestMs ?? 0, change.heatmapFurthestMs);
  }
  for (const viewer of change.viewers) target.viewers.add(viewer);
}

function mergeChapter(target: ChapterFacts, entry: ChapterFacts): void {
  target.sessions += entry.sessions;
  target.plays += entry.plays;
  if (entry.minPositionMs !== null) target.minPositionMs = Math.min(target.minPositionMs ?? entry.minPositionMs, entry.minPositionMs);
  if (entry.nameAtMs >= target.nameAtMs) {
    target.name = entry.name;
    target.nameAtMs = entry.nameAtMs;
  }
}

/** Keys of one dimension (and chapters) a rollup row keeps before it folds the rest into otherKey. */
export const maxRowKeys = 100;
/** Where a row's keys past maxRowKeys are counted. Not a hostname, browser or OS name a client can send. */
export const otherKey = "(other)";

/** A cube row's key: project, mask, the five filter values ('' where the mask leaves one out), day. */
export type CubeKey = { projectId: string; mask: number; values: string[]; day: string };

export const cubeKeyText = ({ projectId, mask, values, day }: CubeKey) => `${projectId}|${mask}|${values.join("\u0001")}|${day}`;

/** Spreads one project's daily change (keyed `${day}|${combination}`) over the cube's masks (a report needs only those it reads; each once). */
export function addToCube(
  cube: Map<string, { key: CubeKey; delta: DailyDelta }>,
  projectId: string,
  dailyKey: string,
  change: DailyDelta,
  masks: readonly number[] = allMasks,
): void {
  const separator = dailyKey.indexOf("|");
  const day = dailyKey.slice(0, separator);
  const combination = dailyKey.slice(separator + 1).split("\u0001");
  for (const mask of masks) {
    const values = filterDimensions.map((dimension, i) => (mask & maskBits[dimension] ? combination[i]! : ""));
    const key: CubeKey = { projectId, mask, values, day };
    const text = cubeKeyText(key);
    let entry = cube.get(text);
    if (!entry) cube.set(text, (entry = { key, delta: emptyDailyDelta() }));
    addDaily(entry.delta, change, (mask & heatmapMask) !== 0);
  }
}

/** A daily rollup row as stored (snake_case; the sketch as bytes). */
export type DailyRow = {
  [counter in (typeof dailyCounters)[number]]: number;
} & {
  breakdowns: Record<string, Record<string, number[]>>;
  chapters: Record<string, [number, number, number | null, string, number | null]>;
  heatmap: Record<string, number[]>;
  heatmap_furthest_ms: number | null;
  viewers: Uint8Array | null;
};

/** A stored row (or none) plus a change: the row to store. */
export function mergeIntoRow(row: DailyRow | undefined, change: DailyDelta): DailyRow {
  const merged = emptyDailyDelta();
  if (row) addDaily(merged, rowToDelta(row));
  addDaily(merged, change);
  const sketch = ViewerSketch.fromBytes(row?.viewers ?? null);
  for (const viewer of change.viewers) sketch.add(viewer);
  foldBreakdowns(merged);
  foldChapters(merged);
  const breakdowns: DailyRow["breakdowns"] = {};
  for (const [key, facts] of merged.breakdowns) {
    const [dimension, value] = key.split("\u0000") as [string, string];
    (breakdowns[dimension] ??= {})[value] = facts;
  }
  return {
    ...(Object.fromEntries(dailyCounters.map((name, i) => [name, merged.counters[i]!])) as { [counter in (typeof dailyCounters)[number]]: number }),
    breakdowns,
    chapters: Object.fromEntries(
      [...merged.chapters].map(([id, c]) => [id, [c.sessions, c.plays, c.minPositionMs, c.name, Number.isFinite(c.nameAtMs) ? c.nameAtMs : null]]),
    ),
    heatmap: Object.fromEntries([...merged.heatmap].filter(([, values]) => values.some((v) => v !== 0))),
    heatmap_furthest_ms: merged.heatmapFurthestMs,
    viewers: sketch.isEmpty() ? null : sketch.toBytes(),
  };
}

/**
 * Past maxRowKeys keys of a dimension (referrer hosts, browsers, OSes) or chapters, a row keeps
 * the most-watched and folds the rest into otherKey: clients choose these values, and a row must
 * stay small whatever they send. Sums are kept, so breakdowns still add up to the totals.
 */
function foldBreakdowns(delta: DailyDelta): void {
  const byDimension = new Map<string, [string, Facts][]>();
  for (const entry of delta.breakdowns) {
    const dimension = entry[0].slice(0, entry[0].indexOf("\u0000"));
    const list = byDimension.get(dimension);
    if (list) list.push(entry);
    else byDimension.set(dimension, [entry]);
  }
  for (const [dimension, entries] of byDimension) {
    if (entries.length <= maxRowKeys) continue;
    const otherId = `${dimension}\u0000${otherKey}`;
    const ranked = entries.filter(([key]) => key !== otherId).sort(([keyA, a], [keyB, b]) => b[0] - a[0] || b[1] - a[1] || (keyA < keyB ? -1 : 1));
    const other: Facts = [...(delta.breakdowns.get(otherId) ?? [0, 0, 0, 0])];
    for (const [key, facts] of ranked.slice(maxRowKeys - 1)) {
      facts.forEach((value, i) => (other[i]! += value));
      delta.breakdowns.delete(key);
    }
    delta.breakdowns.set(otherId, other);
  }
}

function foldChapters(delta: DailyDelta): void {
  if (delta.chapters.size <= maxRowKeys) return;
  const ranked = [...delta.chapters].filter(([id]) => id !== otherKey).sort(([idA, a], [idB, b]) => b.sessions - a.sessions || b.plays - a.plays || (idA < idB ? -1 : 1));
  const other = delta.chapters.get(otherKey) ?? { sessions: 0, plays: 0, minPositionMs: null, name: "Other chapters", nameAtMs: -Infinity };
  for (const [id, entry] of ranked.slice(maxRowKeys - 1)) {
    other.sessions += entry.sessions;
    other.plays += entry.plays;
    delta.chapters.delete(id);
  }
  delta.chapters.set(otherKey, other);
}

/** A stored row as a change from nothing (its viewers stay in the stored sketch). */
function rowToDelta(row: DailyRow): DailyDelta {
  const delta = emptyDailyDelta();
  delta.counters = dailyCounters.map((name) => Number(row[name]));
  for (const [dimension, keys] of Object.entries(row.breakdowns)) {
    for (const [key, facts] of Object.entries(keys)) delta.breakdowns.set(`${dimension}\u0000${key}`, facts as Facts);
  }
  for (const [id, [sessions, plays, minPositionMs, name, nameAtMs]] of Object.entries(row.chapters)) {
    delta.chapters.set(id, { sessions, plays, minPositionMs, name, nameAtMs: nameAtMs ?? -Infinity });
  }
  for (const [second, values] of Object.entries(row.heatmap)) delta.heatmap.set(Number(second), values as [number, number, number]);
  delta.heatmapFurthestMs = row.heatmap_furthest_ms;
  return delta;
}
