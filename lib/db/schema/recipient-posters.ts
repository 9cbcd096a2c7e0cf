import { sql } from "drizzle-orm";
import { check, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { campaignRecipients } from "./campaigns";
import { templates } from "./templates";

/**
 * A campaign recipient's poster (GET /api/embed/posters/{slug}/{token}): the template's poster
 * frame rendered with the recipient's data, kept in the blob store by content. The blob store
 * cannot be looked up by anything but content, so this row is what finds it again without
 * rendering: one per recipient and template, valid while the merged data hashes to `dataHash`
 * (a change of the share's data renders once more and replaces it).
 */
export const recipientPosters = pgTable(
  "recipient_posters",
  {
    recipientId: uuid("recipient_id")
      .notNull()
      .references(() => campaignRecipients.id, { onDelete: "cascade" }),
    templateId: uuid("template_id")
      .notNull()
      .references(() => templates.id, { onDelete: "cascade" }),
    /** Lowercase hex SHA-256 of the data the poster was rendered with (keys sorted). */
    dataHash: text("data_hash").notNull(),
    /** The PNG's SHA-256: its blob is `sha256/<this>`, its ETag the same. */
    sha256: text("sha256").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.recipientId, t.templateId] }),
    check("recipient_posters_data_hash_check", sql`${t.dataHash} ~ '^[0-9a-f]{64}$'`),
    check("recipient_posters_sha256_check", sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
  ],
);
