import { bigint, index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { templates } from "./templates";

/** One stored file of a template: templateJson, manifestJson, overlayJson, videoFile, posterFile or an asset. */
export const templateFiles = pgTable(
  "template_files",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    templateId: uuid("template_id")
      .notNull()
      .references(() => templates.id, { onDelete: "cascade" }),
    role: text("role").notNull(),
    name: text("name").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    sha256: text("sha256").notNull(),
    contentType: text("content_type").notNull(),
    storageKey: text("storage_key").notNull(),
  },
  (t) => [
    uniqueIndex("template_files_template_name_unique").on(t.templateId, t.role, t.name),
    index("template_files_storage_key_idx").on(t.storageKey),
  ],
);
