import { randomUUID } from "node:crypto";
import type { EventRow } from "@/lib/ingest/store-events";
import type { EventType } from "@/lib/ingest/validate-events";

// Builds analytics_events rows the way ingest stores them, for tests that seed a scenario
// with insertEventRows and compare the reports with hand-computed numbers.

export type Tenant = { organizationId: string; projectId: string };

/** What every event of one player session shares. */
export type SessionSpec = {
  sessionId: string;
  /** occurred_at of the first step; each step adds its seconds. */
  start: string;
  channel: string | null;
  templateId: string;
  templateVersion: string | null;
  device: { type: string; os: string | null; browser: string | null } | null;
  country: string | null;
  viewerHash: string | null;
  /** Enrichment's bot verdict; false when left out. */
  isBot?: boolean;
};

/** [seconds after start, event type, playback id, payload]. */
export type Step = [seconds: number, eventType: EventType, playbackId: number | null, payload?: Record<string, unknown>];

const defaultPayloads: Partial<Record<EventType, Record<string, unknown>>> = {
  "video.played": { position_ms: 0 },
  "video.paused": { position_ms: 1000 },
  "video.completed": { duration_ms: 20_000, percent: 100 },
  "video.errored": { error_code: "MEDIA_ERR_DECODE" },
  "autoplay.failed": { reason: "NotAllowedError" },
  "cta.clicked": { cta_id: "book", cta_name: "Book a demo", position_ms: 20_000 },
  "interaction.engaged": { action: "seek" },
  "chapter.entered": { chapter_id: "intro", chapter_name: "Intro", position_ms: 0 },
  "consent.accepted": { source: "banner" },
};

export function sessionRows(tenant: Tenant, spec: SessionSpec, steps: Step[]): EventRow[] {
  const start = Date.parse(spec.start);
  return steps.map(([seconds, eventType, playbackId, payload]) => ({
    organization_id: tenant.organizationId,
    project_id: tenant.projectId,
    event_id: randomUUID(),
    event_type: eventType,
    occurred_at: new Date(start + seconds * 1000).toISOString(),
    received_at: new Date(start + seconds * 1000 + 500).toISOString(),
    template_id: spec.templateId,
    template_version: spec.templateVersion,
    session_id: spec.sessionId,
    playback_id: playbackId,
    viewer_hash: spec.viewerHash,
    referrer_host: "www.example.com",
    consent: { status: "granted" },
    payload: payload ?? defaultPayloads[eventType] ?? {},
    device: spec.device,
    geo: spec.country ? { country: spec.country } : null,
    share_id: null,
    channel: spec.channel,
    is_bot: spec.isBot ?? false,
  }));
}

/** A viewer_hash: 64 hex digits. */
export function viewerHash(seed: number): string {
  return seed.toString(16).padStart(64, "0");
}
