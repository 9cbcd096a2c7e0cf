import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { campaignRecipients, campaigns } from "./campaigns";
import { projects } from "./projects";
import { templates } from "./templates";
import { users } from "./users";

/** A video (MP4), animation (GIF) or still (PNG) of a template rendered with one set of data. */
export const renders = pgTable(
  "renders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    templateId: uuid("template_id")
      .notNull()
      .references(() => templates.id, { onDelete: "cascade" }),
    campaignId: uuid("campaign_id").references(() => campaigns.id, { onDelete: "cascade" }),
    recipientId: uuid("recipient_id").references(() => campaignRecipients.id, { onDelete: "cascade" }),
    /** render: the whole template; thumbnail: a short GIF with a play button, for email. */
    purpose: text("purpose").notNull().default("render"),
    format: text("format").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    /** BCP 47: the data's formatted values (dates, amounts) and captions are in it; null: en-US. */
    locale: text("locale"),
    /** none; attach: an MP4's subtitle stream; burn: drawn into the frames. */
    captions: text("captions").notNull().default("none"),
    metadata: jsonb("metadata").$type<Record<string, unknown>>(),
    webhookUrl: text("webhook_url"),
    status: text("status").notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    error: text("error"),
    storageKey: text("storage_key"),
    bytes: bigint("bytes", { mode: "number" }),
    width: integer("width"),
    height: integer("height"),
    frames: integer("frames"),
    durationMs: integer("duration_ms"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    startedAt: timestamptz("started_at"),
    finishedAt: timestamptz("finished_at"),
    /** When a worker may take it: queued, its next attempt (after a retry's delay); rendering, the end of its worker's lease. */
    nextAttemptAt: timestamptz("next_attempt_at").notNull().defaultNow(),
  },
  (t) => [
    index("renders_project_created_idx").on(t.projectId, t.createdAt),
    index("renders_campaign_idx").on(t.campaignId).where(sql`${t.campaignId} is not null`),
    // A recipient's thumbnails (the export), and the cascade when recipients are removed.
    index("renders_recipient_idx").on(t.recipientId).where(sql`${t.recipientId} is not null`),
    index("renders_unfinished_idx").on(t.status, t.createdAt).where(sql`${t.status} in ('queued', 'rendering')`),
    index("renders_due_idx").on(t.nextAttemptAt).where(sql`${t.status} in ('queued', 'rendering')`),
    check("renders_format_check", sql`${t.format} in ('mp4', 'gif', 'png')`),
    check("renders_captions_check", sql`${t.captions} in ('none', 'attach', 'burn')`),
    check("renders_purpose_check", sql`${t.purpose} in ('render', 'thumbnail')`),
    check("renders_status_check", sql`${t.status} in ('queued', 'rendering', 'done', 'failed')`),
  ],
);
