import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { channelEnum } from "./enums";
import { projects } from "./projects";
import { users } from "./users";

/**
 * A bulk send: one share (project + channel) personalized per recipient. Every recipient gets
 * its own URL `/v/{slug}/{recipientToken}` that plays the share's template with the
 * recipient's row merged over the share's personalization data.
 */
export const campaigns = pgTable(
  "campaigns",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    channel: channelEnum("channel").notNull(),
    name: text("name").notNull(),
    /** CSV column → template field key; a column not named here maps to the field of the same key. */
    fieldMap: jsonb("field_map").$type<Record<string, string>>().notNull().default({}),
    /** Its recipients now: kept by the imports, the removals and the edits in their own transactions (a count(*) of a million rows is slow). */
    recipientCount: integer("recipient_count").notNull().default(0),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    index("campaigns_project_created_idx").on(t.projectId, t.createdAt),
    check("campaigns_name_length_check", sql`char_length(${t.name}) between 1 and 120`),
  ],
);

/**
 * One uploaded file (or JSON batch) of recipients. Keyed by the content's SHA-256 with the mode
 * and column mapping it was imported with (`importKey`), so that uploading the same file again
 * finds this import instead of running it twice; `rowsDone` is the resume point of an import that
 * stopped part way.
 */
export const campaignImports = pgTable(
  "campaign_imports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    campaignId: uuid("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    projectId: uuid("project_id").notNull(),
    sha256: text("sha256").notNull(),
    /** The content's SHA-256 itself for an upsert without a mapping, else a digest of it with the mode and the mapping (import-recipients.ts). */
    importKey: text("import_key").notNull(),
    source: text("source").notNull(),
    /** upsert: known recipients are updated, new ones added; replace: and the recipients the file does not name are removed. */
    mode: text("mode").notNull().default("upsert"),
    /** The explicit column mapping it ran with: the request's over the campaign's. */
    fieldMap: jsonb("field_map").$type<Record<string, string>>().notNull().default({}),
    status: text("status").notNull().default("running"),
    bytes: bigint("bytes", { mode: "number" }).notNull().default(0),
    rowsDone: integer("rows_done").notNull().default(0),
    rowsImported: integer("rows_imported").notNull().default(0),
    rowsRefused: integer("rows_refused").notNull().default(0),
    rowsDuplicate: integer("rows_duplicate").notNull().default(0),
    rowsUpdated: integer("rows_updated").notNull().default(0),
    rowsUnchanged: integer("rows_unchanged").notNull().default(0),
    rowsRemoved: integer("rows_removed").notNull().default(0),
    /** The file's line count less its header, counted while it was received: the console's progress bar (exact unless quoted fields span lines). */
    rowsEstimated: integer("rows_estimated"),
    /** The first problems found, each `{line, column?, code, message, severity}`; capped. */
    problems: jsonb("problems").$type<unknown[]>().notNull().default([]),
    error: text("error"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
    completedAt: timestamptz("completed_at"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("campaign_imports_campaign_key_unique").on(t.campaignId, t.importKey),
    check("campaign_imports_status_check", sql`${t.status} in ('running', 'completed', 'failed')`),
    check("campaign_imports_mode_check", sql`${t.mode} in ('upsert', 'replace')`),
    check("campaign_imports_source_check", sql`${t.source} in ('csv', 'json')`),
  ],
);

/**
 * One person of a campaign: their row's data and the unguessable token of their URL. Ids are
 * time-ordered (UUIDv7, made by the import in file order), so the primary key lists a campaign's
 * recipients in the order they were first imported without another index.
 */
export const campaignRecipients = pgTable(
  "campaign_recipients",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    campaignId: uuid("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    projectId: uuid("project_id").notNull(),
    /** The row's own id column when it has one, else its email (trimmed, lowercased), else a digest of its data: re-importing updates, never duplicates. */
    externalId: text("external_id").notNull(),
    email: text("email"),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    token: text("token").notNull(),
    /** Lowercase hex SHA-256 of `${projectId}:${id}`: the viewer_hash of this recipient's events. */
    viewerHash: text("viewer_hash").notNull(),
    /** The import that added it (a file that turns out unreadable takes its rows back by this). */
    importId: uuid("import_id"),
    /** The last import whose file named it: a replacing import removes the recipients it did not name. */
    lastImportId: uuid("last_import_id"),
    /** Its line in the last file that named it. */
    line: integer("line"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("campaign_recipients_campaign_external_unique").on(t.campaignId, t.externalId),
    uniqueIndex("campaign_recipients_token_unique").on(t.token),
    // No index on viewer_hash: reach goes from recipients to their events (analytics_events'
    // (project_id, viewer_hash) index), never back; each index costs a million-row import ~20 %.
  ],
);
