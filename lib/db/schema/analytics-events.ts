import { index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";

/**
 * Ingested analytics events. No foreign keys: ingest is a hot path and the ids come
 * from signed token claims. (project_id, event_id) makes retried batches idempotent.
 */
export const analyticsEvents = pgTable(
  "analytics_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id").notNull(),
    projectId: uuid("project_id").notNull(),
    eventId: uuid("event_id").notNull(),
    eventType: text("event_type").notNull(),
    occurredAt: timestamptz("occurred_at").notNull(),
    receivedAt: timestamptz("received_at").notNull(),
    templateId: text("template_id"),
    templateVersion: text("template_version"),
    sessionId: text("session_id"),
    playbackId: integer("playback_id"),
    viewerHash: text("viewer_hash"),
    referrerHost: text("referrer_host"),
    consent: jsonb("consent").$type<Record<string, unknown>>(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    device: jsonb("device").$type<Record<string, unknown>>(),
    geo: jsonb("geo").$type<Record<string, unknown>>(),
    shareId: uuid("share_id"),
    channel: text("channel"),
  },
  (t) => [
    uniqueIndex("analytics_events_project_event_unique").on(t.projectId, t.eventId),
    index("analytics_events_project_occurred_idx").on(t.projectId, t.occurredAt),
  ],
);
