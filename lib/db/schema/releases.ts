import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { projects } from "./projects";
import { publicVideoShares } from "./public-video-shares";
import { templates } from "./templates";
import { users } from "./users";

// Release control (docs/adr/0150-release-control.md): which template a testing channel serves,
// and the A/B variants of a share. A scheduled go-live is two columns of `templates`.

/**
 * A Testing template pinned to DEV or STAGING: that channel serves it instead of the newest
 * Testing template. The pin goes when its template leaves Testing for Previous or Archived.
 */
export const channelPins = pgTable(
  "channel_pins",
  {
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    channel: text("channel").notNull(),
    templateId: uuid("template_id")
      .notNull()
      .references(() => templates.id, { onDelete: "cascade" }),
    pinnedBy: uuid("pinned_by").references(() => users.id, { onDelete: "set null" }),
    pinnedAt: timestamptz("pinned_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.channel] }), check("channel_pins_channel_check", sql`${t.channel} in ('DEV', 'STAGING')`)],
);

/**
 * One template of a share's A/B test with its weight: a viewer is assigned one of a share's 2–4
 * variants, sticky and deterministic (a hash of the share and the viewer). No rows: no test.
 */
export const shareVariants = pgTable(
  "share_variants",
  {
    shareId: uuid("share_id")
      .notNull()
      .references(() => publicVideoShares.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    templateId: uuid("template_id")
      .notNull()
      .references(() => templates.id, { onDelete: "cascade" }),
    /** A share of 100: the weights of a share's variants add up to 100. */
    weight: integer("weight").notNull(),
    /** The order the variants were given in: the first is the control of the comparison. */
    position: integer("position").notNull(),
    startedAt: timestamptz("started_at").notNull().defaultNow(),
    startedBy: uuid("started_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    primaryKey({ columns: [t.shareId, t.templateId] }),
    uniqueIndex("share_variants_position_unique").on(t.shareId, t.position),
    index("share_variants_template_idx").on(t.templateId),
    check("share_variants_weight_check", sql`${t.weight} between 1 and 99`),
    check("share_variants_position_check", sql`${t.position} between 0 and 3`),
  ],
);
