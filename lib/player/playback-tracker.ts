import type { AnalyticsEventType, ManifestChapter } from "@/lib/embed/protocol";

// The analytics rules of spec §6 and DESIGN §8 as a pure state machine: the player tells it what
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
    }
    this.playing = true;
    const position = toMilliseconds(positionMs);
    return [this.event("video.played", { position_ms: position }), ...this.moveTo(position)];
  }

  /** A transition to not playing other than the natural end (which is ended()). */
  paused(positionMs: number): TrackedEvent[] {
    if (!this.playing) return [];
    this.playing = false;
    const position = toMilliseconds(positionMs);
    return [...this.moveTo(position), this.event("video.paused", { position_ms: position })];
  }

  /** The playing position moved on. */
  position(positionMs: number): TrackedEvent[] {
    return this.moveTo(toMilliseconds(positionMs));
  }

  /** A seek: the old chapter is left, the new one entered; passing a quartile by seeking counts once. */
  seeked(positionMs: number): TrackedEvent[] {
    return this.moveTo(toMilliseconds(positionMs));
  }

  /** The media reached its end. */
  ended(): TrackedEvent[] {
    this.playing = false;
    if (!this.inPlayback) return [];
    const events = this.moveTo(this.durationMs);
    events.push(...this.exitChapters(this.chapterIds, this.durationMs));
    this.chapterIds = [];
    this.inPlayback = false;
    events.push(this.event("video.completed", { duration_ms: this.durationMs, percent: 100 }));
    return events;
  }

  /** The page goes away: an unfinished playback is reported once. */
  pageHidden(positionMs: number): TrackedEvent[] {
    if (!this.inPlayback || this.incompleteSent) return [];
    this.incompleteSent = true;
    const position = toMilliseconds(positionMs);
    const percent = this.durationMs > 0 ? Math.min(100, Math.floor((position * 100) / this.durationMs)) : 0;
    return [this.event("video.incomplete", { position_ms: position, percent })];
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
