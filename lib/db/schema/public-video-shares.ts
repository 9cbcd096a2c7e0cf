import { sql } from "drizzle-orm";
import { check, foreignKey, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { apiCredentials } from "./api-credentials";
import { channelEnum, consentModeEnum, shareStatusEnum } from "./enums";
import { projects } from "./projects";
import { shareSlugs } from "./share-slugs";
import { users } from "./users";

/** A landing page for one distribution channel of a project: at most one per (project, channel). */
export const publicVideoShares = pgTable(
  "public_video_shares",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    channel: channelEnum("channel").notNull(),
    slug: text("slug")
      .notNull()
      .references(() => shareSlugs.slug),
    status: shareStatusEnum("status").notNull().default("Enabled"),
    publicTitle: text("public_title").notNull(),
    publicSubtitle: text("public_subtitle"),
    locale: text("locale"),
    ctaLabel: text("cta_label"),
    ctaUrl: text("cta_url"),
    personalizationData: jsonb("personalization_data").$type<Record<string, unknown>>(),
    /** required: the player sends no analytics until the viewer accepts (docs/design.md, Player). */
    consentMode: consentModeEnum("consent_mode").notNull().default("not_required"),
    apiCredentialId: uuid("api_credential_id").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
    disabledAt: timestamptz("disabled_at"),
    disabledBy: uuid("disabled_by").references(() => users.id, { onDelete: "set null" }),
    restoredAt: timestamptz("restored_at"),
    restoredBy: uuid("restored_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("public_video_shares_project_channel_unique").on(t.projectId, t.channel),
    uniqueIndex("public_video_shares_slug_unique").on(t.slug),
    foreignKey({
      name: "public_video_shares_credential_same_project_fk",
      columns: [t.projectId, t.apiCredentialId],
      foreignColumns: [apiCredentials.projectId, apiCredentials.id],
    }),
    check("public_video_shares_cta_pair_check", sql`(${t.ctaLabel} is null) = (${t.ctaUrl} is null)`),
    check("public_video_shares_title_length_check", sql`char_length(${t.publicTitle}) between 1 and 160`),
    check("public_video_shares_subtitle_length_check", sql`char_length(${t.publicSubtitle}) <= 280`),
  ],
);
