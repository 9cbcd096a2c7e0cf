import type { AnalyticsEventType, ManifestChapter } from "@/shared/embed-protocol";

// The analytics rules of spec §6 and docs/design.md, Player as a pure state machine: the player tells it what
// happened and posts the events it returns. No DOM and no clock (the caller stamps occurredAt),
// so every rule is unit-tested. Payloads carry exactly the fields event-schema-v1.json allows.

export type TrackedEvent = {
  eventType: AnalyticsEventType;
  playbackId: number | null;
  payload: Record<string, unknown>;
};

/** A viewer's action in the player UI (host commands are not interactions). */
export type EngagementAction = "click" | "unmute" | "seek" | "fullscreen" | "replay";

const quartiles = [75, 50, 25] as const;
type Quartile = 0 | (typeof quartiles)[number];

/** The schema's media time: whole milliseconds, 0 to 24 hours. */
const maxMilliseconds = 86_400_000;
const toMilliseconds = (value: number) => Math.min(maxMilliseconds, Math.max(0, Math.round(Number.isFinite(value) ? value : 0)));
const cut = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

/** [fromMs, toMs] of media time actually played. */
export type WatchedSpan = [fromMs: number, toMs: number];
/** event-schema-v1.json `watched_spans`: at most this many per report. */
export const maxWatchedSpans = 100;

export class PlaybackTracker {
  private readonly durationMs: number;
  private readonly chapters: readonly ManifestChapter[];
  /** The latest playback's id: kept after its video.completed until the next video.played. */
  private playbackId: number | null = null;
  /** From a playback's video.played to its video.completed. */
  private inPlayback = false;
  private playing = false;
  private quartile: Quartile = 0;
  /** Ids of the chapters the position is in (chapters may overlap). */
  private chapterIds: string[] = [];
  private incompleteSent = false;
  /** Where the span being played began (null when nothing plays, or a seek is under way), and how far it got. */
  private spanFrom: number | null = null;
  private spanTo = 0;
  /** Spans played since the playback's previous report (video.paused, video.completed, video.incomplete). */
  private watched: WatchedSpan[] = [];

  constructor({ durationMs, chapters }: { durationMs: number; chapters: readonly ManifestChapter[] }) {
    this.durationMs = toMilliseconds(durationMs);
    this.chapters = chapters;
  }

  /** The id control messages carry (PROGRESS, COMPLETE): the same as the events'. */
  get currentPlaybackId(): number | null {
    return this.playbackId;
  }

  /** INIT completed: session.started is never part of a playback. */
  sessionStarted(): TrackedEvent[] {
    return [{ eventType: "session.started", playbackId: null, payload: {} }];
  }

  /** A transition to playing. The first one, and the first after a completed playback, starts a playback. */
  played(positionMs: number): TrackedEvent[] {
    if (this.playing) return [];
    if (!this.inPlayback) {
      this.playbackId = (this.playbackId ?? 0) + 1;
      this.inPlayback = true;
      this.quartile = 0;
      this.chapterIds = [];
      this.incompleteSent = false;
      this.watched = [];
    }
    this.playing = true;
    const position = toMilliseconds(positionMs);
    this.startSpan(position);
    return [this.event("video.played", { position_ms: position }), ...this.moveTo(position)];
  }

  /** A transition to not playing other than the natural end (which is ended()). */
  paused(positionMs: number): TrackedEvent[] {
    if (!this.playing) return [];
    this.playing = false;
    const position = toMilliseconds(positionMs);
    this.extendSpan(position);
    this.closeSpan();
    return [...this.moveTo(position), this.event("video.paused", { position_ms: position, watched: this.takeWatched() })];
  }

  /** The playing position moved on. */
  position(positionMs: number): TrackedEvent[] {
    const position = toMilliseconds(positionMs);
    this.extendSpan(position);
    return this.moveTo(position);
  }

  /**
   * The position is about to jump (the viewer drags the seek bar): what played up to here is a
   * span, and nothing counts as watched until seeked().
   */
  seeking(positionMs: number): void {
    this.extendSpan(toMilliseconds(positionMs));
    this.closeSpan();
  }

  /** A seek: the old chapter is left, the new one entered; passing a quartile by seeking counts once. */
  seeked(positionMs: number): TrackedEvent[] {
    const position = toMilliseconds(positionMs);
    this.closeSpan();
    if (this.playing) this.startSpan(position);
    return this.moveTo(position);
  }

  /** The media reached its end. */
  ended(): TrackedEvent[] {
    this.extendSpan(this.durationMs);
    this.closeSpan();
    this.playing = false;
    if (!this.inPlayback) return [];
    const events = this.moveTo(this.durationMs);
    events.push(...this.exitChapters(this.chapterIds, this.durationMs));
    this.chapterIds = [];
    this.inPlayback = false;
    events.push(this.event("video.completed", { duration_ms: this.durationMs, percent: 100, watched: this.takeWatched() }));
    return events;
  }

  /** The page goes away: an unfinished playback is reported once. */
  pageHidden(positionMs: number): TrackedEvent[] {
    if (!this.inPlayback || this.incompleteSent) return [];
    this.incompleteSent = true;
    const position = toMilliseconds(positionMs);
    this.extendSpan(position);
    this.closeSpan();
    // The page may come back (bfcache): playing goes on from here in a new span.
    if (this.playing) this.startSpan(position);
    const percent = this.durationMs > 0 ? Math.min(100, Math.floor((position * 100) / this.durationMs)) : 0;
    return [this.event("video.incomplete", { position_ms: position, percent, watched: this.takeWatched() })];
  }

  errored(code: string, message?: string): TrackedEvent[] {
    const payload: Record<string, unknown> = { error_code: cut(code, 64) || "UNKNOWN" };
    if (message) payload.message = cut(message, 500);
    return [this.event("video.errored", payload)];
  }

  autoplayFailed(reason: string): TrackedEvent[] {
    return [this.event("autoplay.failed", { reason: cut(reason, 200) || "blocked" })];
  }

  ctaClicked(cta: { id: string; name: string }, positionMs: number): TrackedEvent[] {
    return [this.event("cta.clicked", { cta_id: cut(cta.id, 64), cta_name: cut(cta.name, 200), position_ms: toMilliseconds(positionMs) })];
  }

  engaged(action: EngagementAction, positionMs: number): TrackedEvent[] {
    return [this.event("interaction.engaged", { action, position_ms: toMilliseconds(positionMs) })];
  }

  private startSpan(position: number): void {
    this.spanFrom = position;
    this.spanTo = position;
  }

  /** Playing moves forward; a position behind the span (a seek nobody announced) starts a new one. */
  private extendSpan(position: number): void {
    if (this.spanFrom === null) return;
    if (position >= this.spanTo) {
      this.spanTo = position;
      return;
    }
    this.closeSpan();
    this.startSpan(position);
  }

  /**
   * The span being played ends: clamped to the duration, merged into the previous one when it
   * continues it. Beyond maxWatchedSpans in one report, later spans are dropped: undercounting
   * a viewer who seeks a hundred times without pausing beats inventing viewing.
   */
  private closeSpan(): void {
    const from = this.spanFrom;
    this.spanFrom = null;
    if (from === null || !this.inPlayback) return;
    const to = Math.min(this.spanTo, this.durationMs);
    if (to <= from) return;
    const last = this.watched.at(-1);
    if (last && last[1] === from) last[1] = to;
    else if (this.watched.length < maxWatchedSpans) this.watched.push([from, to]);
  }

  private takeWatched(): WatchedSpan[] {
    const watched = this.watched;
    this.watched = [];
    return watched;
  }

  /** Chapters and quartiles follow the position only during a playback. */
  private moveTo(position: number): TrackedEvent[] {
    if (!this.inPlayback) return [];
    const inside = this.chapters.filter((chapter) => chapter.startMs <= position && position < chapter.endMs).map((chapter) => chapter.id);
    const events = this.exitChapters(
      this.chapterIds.filter((id) => !inside.includes(id)),
      position,
    );
    for (const id of inside) {
      if (!this.chapterIds.includes(id)) events.push(this.chapterEvent("chapter.entered", id, position));
    }
    this.chapterIds = inside;

    if (this.durationMs > 0) {
      const reached = quartiles.find((quartile) => position * 100 >= quartile * this.durationMs);
      if (reached !== undefined && reached > this.quartile) {
        this.quartile = reached;
        events.push(this.event("video.progressed", { position_ms: position, percent: reached }));
      }
    }
    return events;
  }

  private exitChapters(ids: string[], position: number): TrackedEvent[] {
    return ids.map((id) => this.chapterEvent("chapter.exited", id, position));
  }

  private chapterEvent(eventType: "chapter.entered" | "chapter.exited", id: string, position: number): TrackedEvent {
    const chapter = this.chapters.find((candidate) => candidate.id === id);
    return this.event(eventType, { chapter_id: cut(id, 64), chapter_name: cut(chapter?.name || id, 200), position_ms: position });
  }

  private event(eventType: AnalyticsEventType, payload: Record<string, unknown>): TrackedEvent {
    return { eventType, playbackId: this.playbackId, payload };
  }
}
