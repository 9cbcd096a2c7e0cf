import { index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";

/**
 * Every slug ever issued to a share. The primary key makes a slug unique forever:
 * a rotated-out slug stays here with retired_at set and can never be issued again.
 * share_id has no foreign key so the row is written before the share that uses it.
 */
export const shareSlugs = pgTable(
  "share_slugs",
  {
    slug: text("slug").primaryKey(),
    shareId: uuid("share_id").notNull(),
    issuedAt: timestamptz("issued_at").notNull().defaultNow(),
    retiredAt: timestamptz("retired_at"),
  },
  (t) => [index("share_slugs_share_idx").on(t.shareId)],
);
