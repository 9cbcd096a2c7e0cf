import { unknownKey } from "../definitions";

// What one session's events add to the rollups (definitions.ts says what each number means).
// The rollup job computes a session's contribution from all its events, and subtracts the
// contribution of the events it had already rolled up: rollups stay exact however a session's
// events are split across batches, reordered or retried, with no per-session state kept.

/** An event as the rollup job reads it from analytics_events. */
export type RollupEvent = {
  event_id: string;
  event_type: string;
  /** Milliseconds since the epoch. */
  occurred_ms: number;
  session_id: string | null;
  playback_id: number | null;
  viewer_hash: string | null;
  channel: string | null;
  template_id: string | null;
  template_version: string | null;
  device_type: string | null;
  browser: string | null;
  os: string | null;
  country: string | null;
  referrer_host: string | null;
  payload: Record<string, unknown>;
  is_bot: boolean;
};

/** The counters of a daily rollup row, in this order. */
export const dailyCounters = [
  "sessions",
  "sessions_with_play",
  "sessions_with_play_and_cta_click",
  "plays",
  "completed_plays",
  "reached_25",
  "reached_50",
  "reached_75",
  "watch_percent_sum",
  "cta_clicks",
  "autoplay_failures",
  "errors",
  "bot_events",
  "heatmap_plays",
] as const;
export type DailyCounter = (typeof dailyCounters)[number];
const at = Object.fromEntries(dailyCounters.map((name, index) => [name, index])) as Record<DailyCounter, number>;

/** The dimensions a report filters on, in rollup key order. */
export const filterDimensions = ["channel", "template_id", "template_version", "device_type", "country"] as const;
export type FilterDimension = (typeof filterDimensions)[number];

/** Breakdowns read from a rollup row's breakdowns document (the filter dimensions have rows of their own). */
export const documentDimensions = ["browser", "os", "referrerHost"] as const;
export type DocumentDimension = (typeof documentDimensions)[number];

/** [sessions, plays, completions, CTA clicks] of a breakdown key or a series bucket. */
export type Facts = [number, number, number, number];

/** chapter id → its sessions, plays, lowest entry position, newest name and that name's time. */
export type ChapterFacts = { sessions: number; plays: number; minPositionMs: number | null; name: string; nameAtMs: number };

/** Everything one day and one combination of filter values receives. */
export type DailyDelta = {
  counters: number[];
  /** `${dimension}\u0000${key}` → facts. */
  breakdowns: Map<string, Facts>;
  chapters: Map<string, ChapterFacts>;
  /** second → [views, watched plays, drop-offs] changes. */
  heatmap: Map<number, [number, number, number]>;
  heatmapFurthestMs: number | null;
  /** Viewer keys (viewer hash, else session id) of the sessions counted here. */
  viewers: Set<string>;
};

/** A contribution: daily deltas by `${day}|${combination}`, hourly facts by `${hour ms}|${combination}`. */
export type Contribution = { daily: Map<string, DailyDelta>; hourly: Map<string, Facts> };

export function emptyContribution(): Contribution {
  return { daily: new Map(), hourly: new Map() };
}

export function emptyDailyDelta(): DailyDelta {
  return {
    counters: dailyCounters.map(() => 0),
    breakdowns: new Map(),
    chapters: new Map(),
    heatmap: new Map(),
    heatmapFurthestMs: null,
    viewers: new Set(),
  };
}

const dayMs = 86_400_000;
const hourMs = 3_600_000;

/** A dimension value as the rollups key it: missing or empty is "unknown". */
export const keyOf = (value: string | null | undefined) => (value ? value : unknownKey);

/** The filter values of an event, joined with `|` (no value holds one: see combinationOf's callers). */
function combinationOf(event: RollupEvent): string {
  return `${keyOf(event.channel)}\u0001${keyOf(event.template_id)}\u0001${keyOf(event.template_version)}\u0001${keyOf(event.device_type)}\u0001${keyOf(event.country)}`;
}

/** "YYYY-MM-DD" of the UTC day holding `ms`. */
export function utcDate(ms: number): string {
  return new Date(Math.floor(ms / dayMs) * dayMs).toISOString().slice(0, 10);
}

class ContributionBuilder {
  readonly result = emptyContribution();

  daily(event: RollupEvent): DailyDelta {
    const key = `${utcDate(event.occurred_ms)}|${combinationOf(event)}`;
    let delta = this.result.daily.get(key);
    if (!delta) this.result.daily.set(key, (delta = emptyDailyDelta()));
    return delta;
  }

  count(event: RollupEvent, counter: DailyCounter, amount = 1): DailyDelta {
    const delta = this.daily(event);
    delta.counters[at[counter]]! += amount;
    return delta;
  }

  /** Adds facts under the event's browser, OS and referrer host, and to its hour. */
  facts(event: RollupEvent, facts: Facts): void {
    const delta = this.daily(event);
    addFacts(delta.breakdowns, `browser\u0000${keyOf(event.browser)}`, facts);
    addFacts(delta.breakdowns, `os\u0000${keyOf(event.os)}`, facts);
    addFacts(delta.breakdowns, `referrerHost\u0000${keyOf(event.referrer_host)}`, facts);
    addFacts(this.result.hourly, `${Math.floor(event.occurred_ms / hourMs) * hourMs}|${combinationOf(event)}`, facts);
  }
}

function addFacts<K>(map: Map<K, Facts>, key: K, facts: Facts): void {
  const known = map.get(key);
  if (!known) map.set(key, [...facts]);
  else for (let i = 0; i < 4; i++) known[i]! += facts[i]!;
}

const byTime = (a: RollupEvent, b: RollupEvent) => a.occurred_ms - b.occurred_ms || (a.event_id < b.event_id ? -1 : a.event_id > b.event_id ? 1 : 0);

const spanEvents = new Set(["video.paused", "video.completed", "video.incomplete"]);

/**
 * The contribution of one session's events (or of one event without a session). Bots count
 * only as bot events; the rest as definitions.ts says: a session on the day and values of its
 * first session.started, a play on those of its first video.played, an event on its own.
 */
export function contributionOf(events: readonly RollupEvent[]): Contribution {
  const builder = new ContributionBuilder();
  const human: RollupEvent[] = [];
  for (const event of events) {
    if (event.is_bot) builder.count(event, "bot_events");
    else human.push(event);
  }
  if (human.length === 0) return builder.result;
  human.sort(byTime);

  const sessionId = human[0]!.session_id;
  const plays = new Map<number, RollupEvent[]>();
  let clicked = false;
  for (const event of human) {
    if (event.event_type === "cta.clicked") {
      clicked = true;
      builder.count(event, "cta_clicks");
      builder.facts(event, [0, 0, 0, 1]);
    } else if (event.event_type === "autoplay.failed") builder.count(event, "autoplay_failures");
    else if (event.event_type === "video.errored") builder.count(event, "errors");
    if (sessionId !== null && event.playback_id !== null) {
      const playEvents = plays.get(event.playback_id);
      if (playEvents) playEvents.push(event);
      else plays.set(event.playback_id, [event]);
    }
  }
  if (sessionId === null) return builder.result;

  let played = false;
  for (const playEvents of plays.values()) {
    const anchor = playEvents.find((event) => event.event_type === "video.played");
    addHeatmap(builder, anchor, playEvents);
    if (!anchor) continue;
    played = true;
    addPlay(builder, anchor, playEvents);
    const entered = new Set<string>();
    for (const event of playEvents) {
      const chapterId = chapterIdOf(event);
      if (chapterId === null) continue;
      const entry = chapterEntry(builder.daily(anchor), chapterId, event);
      if (!entered.has(chapterId)) {
        entered.add(chapterId);
        entry.plays++;
      }
    }
  }
  addChapterSessions(builder, human);

  const start = human.find((event) => event.event_type === "session.started");
  if (start) {
    const delta = builder.count(start, "sessions");
    if (played) delta.counters[at.sessions_with_play]!++;
    if (played && clicked) delta.counters[at.sessions_with_play_and_cta_click]!++;
    delta.viewers.add(start.viewer_hash ?? sessionId);
    builder.facts(start, [1, 0, 0, 0]);
  }
  return builder.result;
}

/** A play: counted on its first video.played, with how far it got. */
function addPlay(builder: ContributionBuilder, anchor: RollupEvent, playEvents: readonly RollupEvent[]): void {
  let completed = false;
  let highestQuartile = 0;
  let watchedPercent = 0;
  for (const event of playEvents) {
    if (event.event_type === "video.completed") {
      completed = true;
      highestQuartile = 100;
      watchedPercent = 100;
    } else if (event.event_type === "video.progressed" || event.event_type === "video.incomplete") {
      const percent = percentOf(event.payload);
      if (percent === null) continue;
      watchedPercent = Math.max(watchedPercent, percent);
      if (event.event_type === "video.progressed") highestQuartile = Math.max(highestQuartile, percent);
    }
  }
  const delta = builder.count(anchor, "plays");
  const { counters } = delta;
  if (completed) counters[at.completed_plays]!++;
  if (highestQuartile >= 25) counters[at.reached_25]!++;
  if (highestQuartile >= 50) counters[at.reached_50]!++;
  if (highestQuartile >= 75) counters[at.reached_75]!++;
  counters[at.watch_percent_sum]! += watchedPercent;
  builder.facts(anchor, [0, 1, completed ? 1 : 0, 0]);
}

/** payload.percent clamped to 0–100, or null when it is not a number. */
function percentOf(payload: Record<string, unknown>): number | null {
  const percent = payload.percent;
  return typeof percent === "number" && Number.isFinite(percent) ? Math.min(Math.max(percent, 0), 100) : null;
}

/** The valid [fromMs, toMs] spans of an event's payload.watched (fromMs < toMs, fromMs clamped to 0). */
function spansOf(event: RollupEvent): [number, number][] {
  if (!spanEvents.has(event.event_type)) return [];
  const watched = event.payload.watched;
  if (!Array.isArray(watched)) return [];
  const spans: [number, number][] = [];
  for (const span of watched) {
    if (!Array.isArray(span) || typeof span[0] !== "number" || typeof span[1] !== "number") continue;
    const from = Math.max(span[0], 0);
    if (Number.isFinite(from) && Number.isFinite(span[1]) && from < span[1]) spans.push([from, span[1]]);
  }
  return spans;
}

/**
 * A play's heatmap, on its anchor's day and values: +1/−1 views at each span's second interval
 * [floor(from/1000), ceil(to/1000)), the same over the play's merged intervals for watched
 * plays, and a drop-off at its furthest second unless it completed. The template's duration
 * clips nothing here: the report cuts the timeline, and moves later drop-offs to its last second.
 */
function addHeatmap(builder: ContributionBuilder, anchor: RollupEvent | undefined, playEvents: readonly RollupEvent[]): void {
  if (!anchor) return;
  const intervals = playEvents.flatMap(spansOf).map(([from, to]) => [Math.floor(from / 1000), Math.ceil(to / 1000), to] as const);
  if (intervals.length === 0) return;
  const delta = builder.count(anchor, "heatmap_plays");
  const change = (second: number, index: 0 | 1 | 2, amount: number) => {
    let entry = delta.heatmap.get(second);
    if (!entry) delta.heatmap.set(second, (entry = [0, 0, 0]));
    entry[index] += amount;
  };
  let furthestMs = 0;
  for (const [a, b, to] of intervals) {
    change(a, 0, 1);
    change(b, 0, -1);
    furthestMs = Math.max(furthestMs, to);
  }
  const sorted = [...intervals].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let [start, end] = [sorted[0]![0], sorted[0]![1]];
  for (const [a, b] of sorted.slice(1)) {
    if (a > end) {
      change(start, 1, 1);
      change(end, 1, -1);
      [start, end] = [a, b];
    } else end = Math.max(end, b);
  }
  change(start, 1, 1);
  change(end, 1, -1);
  if (!playEvents.some((event) => event.event_type === "video.completed")) change(Math.floor((furthestMs - 1) / 1000), 2, 1);
  delta.heatmapFurthestMs = Math.max(delta.heatmapFurthestMs ?? 0, furthestMs);
}

function chapterIdOf(event: RollupEvent): string | null {
  if (event.event_type !== "chapter.entered") return null;
  const id = event.payload.chapter_id;
  return typeof id === "string" ? id : null;
}

/** The chapter's entry in a daily delta, its name and lowest position updated from `event`. */
function chapterEntry(delta: DailyDelta, chapterId: string, event: RollupEvent): ChapterFacts {
  let entry = delta.chapters.get(chapterId);
  if (!entry) delta.chapters.set(chapterId, (entry = { sessions: 0, plays: 0, minPositionMs: null, name: chapterId, nameAtMs: -Infinity }));
  const position = event.payload.position_ms;
  if (typeof position === "number" && Number.isFinite(position)) entry.minPositionMs = Math.min(entry.minPositionMs ?? position, position);
  const name = event.payload.chapter_name;
  if (typeof name === "string" && event.occurred_ms >= entry.nameAtMs) {
    entry.name = name;
    entry.nameAtMs = event.occurred_ms;
  }
  return entry;
}

/** A chapter's session: counted on the session's first entry into it; every entry updates name and position. */
function addChapterSessions(builder: ContributionBuilder, events: readonly RollupEvent[]): void {
  const entered = new Set<string>();
  for (const event of events) {
    const chapterId = chapterIdOf(event);
    if (chapterId === null) continue;
    const entry = chapterEntry(builder.daily(event), chapterId, event);
    if (!entered.has(chapterId)) {
      entered.add(chapterId);
      entry.sessions++;
    }
  }
}
