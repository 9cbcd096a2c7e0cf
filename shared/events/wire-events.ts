import type { AnalyticsEventType } from "@/shared/embed-protocol";

// The wire events of docs/design.md, Ingest: what the SDK's tracking bundle sends and the ingest
// server validates against lib/ingest/event-schema-v1.json (lib/ingest/validate-events.ts).

export type ConsentStatus = "granted" | "not_required" | "denied";
export type ConsentSource = "banner" | "host" | "api";
export type InteractionAction = "click" | "unmute" | "seek" | "fullscreen" | "replay";

/** Spans of media time actually played, [[fromMs, toMs], …]: see event-schema-v1.json's `watched`. */
export type WatchedSpans = [fromMs: number, toMs: number][];

/** Payload fields per event type; position_ms and duration_ms are whole milliseconds, 0 … 86,400,000. */
export type EventPayloads = {
  "session.started": Record<string, never>;
  "video.played": { position_ms: number };
  "video.paused": { position_ms: number; watched?: WatchedSpans };
  "video.progressed": { position_ms: number; percent: 25 | 50 | 75 };
  "video.completed": { duration_ms: number; percent: 100; watched?: WatchedSpans };
  "video.incomplete": { position_ms: number; percent: number; watched?: WatchedSpans };
  "video.errored": { error_code: string; message?: string };
  "autoplay.failed": { reason: string };
  "cta.clicked": { cta_id: string; cta_name: string; position_ms: number };
  "interaction.engaged": { action: InteractionAction; position_ms?: number };
  "chapter.entered": { chapter_id: string; chapter_name: string; position_ms: number };
  "chapter.exited": { chapter_id: string; chapter_name: string; position_ms: number };
  "consent.accepted": { source: ConsentSource };
  "consent.declined": { source: ConsentSource };
};

type WireEventContext = {
  event_id: string;
  occurred_at: string;
  playback_id: number | null;
  organization_id: string;
  project_id: string;
  template_id: string;
  template_version: string;
  session_id: string;
  consent: { status: ConsentStatus };
  viewer_hash?: string;
  referrer_host?: string;
};

/** A wire event that passed validation (hand-written to match lib/ingest/event-schema-v1.json). */
export type WireEvent<T extends AnalyticsEventType = AnalyticsEventType> = T extends AnalyticsEventType
  ? WireEventContext & { event_type: T; payload: EventPayloads[T] }
  : never;

/** The body of POST /analytics/v1/events. */
export type EventBatch = { sent_at: string; events: WireEvent[] };
