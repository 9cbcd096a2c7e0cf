import { sql } from "drizzle-orm";
import { bigint, boolean, bigserial, customType, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";

/** PostgreSQL's 64-bit transaction id, read as its decimal text. */
const xid8 = customType<{ data: string }>({ dataType: () => "xid8" });

/**
 * Ingested analytics events. No foreign keys: ingest is a hot path and the ids come
 * from signed token claims. (project_id, event_id, occurred_at) makes retried batches
 * idempotent: a retry resends the same envelope, occurred_at included.
 *
 * The table is partitioned by month of occurred_at (migration 0007; lib/analytics/partitions.ts
 * creates partitions ahead and drops those past ANALYTICS_RETENTION_DAYS). drizzle-kit has no
 * words for partitioning: this declaration lists the columns and indexes the partitions share.
 */
export const analyticsEvents = pgTable(
  "analytics_events",
  {
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
    /** Enrichment's verdict (isbot on the User-Agent): stored, counted as excluded, kept out of every metric. */
    isBot: boolean("is_bot").notNull().default(false),
    /**
     * The transaction that stored the row. The rollup job (lib/analytics/rollups) reads the
     * events of transactions below the oldest one still running: all committed or gone, so
     * none can appear later below its cursor.
     */
    xid: xid8("xid").notNull().default(sql`pg_current_xact_id()`),
  },
  (t) => [
    uniqueIndex("analytics_events_project_event_unique").on(t.projectId, t.eventId, t.occurredAt),
    index("analytics_events_project_occurred_idx").on(t.projectId, t.occurredAt),
    // The rollup job and the reports read a project's events above its cursor (lib/analytics/rollups).
    index("analytics_events_project_xid_idx").on(t.projectId, t.xid),
    index("analytics_events_project_session_idx").on(t.projectId, t.sessionId),
    // A campaign's per-recipient reach: the events of a page of recipients by their viewer_hash.
    index("analytics_events_project_viewer_idx").on(t.projectId, t.viewerHash).where(sql`${t.viewerHash} is not null`),
  ],
);

/**
 * Events refused by the v1 schema in batches that carried a valid ingest token, or left unstored
 * for a template the project does not have, counted per project, UTC hour and reason (the
 * quarantine report). Bounded by reasons × hours, whatever the volume of refused events.
 */
export const analyticsQuarantineCounts = pgTable(
  "analytics_quarantine_counts",
  {
    projectId: uuid("project_id").notNull(),
    hour: timestamptz("hour").notNull(),
    reason: text("reason").notNull(),
    count: bigint("count", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.hour, t.reason] })],
);

/** A sample of refused events, the newest few hundred per project (ingest trims it as it adds). */
export const analyticsQuarantineSamples = pgTable(
  "analytics_quarantine_samples",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    projectId: uuid("project_id").notNull(),
    receivedAt: timestamptz("received_at").notNull(),
    reason: text("reason").notNull(),
    /** The refused envelope as JSON text, cut to 4 KB (then no longer parseable, and reported as the cut text). */
    event: text("event").notNull(),
  },
  (t) => [index("analytics_quarantine_samples_project_idx").on(t.projectId, t.id)],
);
