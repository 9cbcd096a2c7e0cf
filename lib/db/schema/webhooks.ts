import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { projects } from "./projects";
import { users } from "./users";

/**
 * The project's webhook signing secret (Standard Webhooks `whsec_…`): every delivery of the
 * project, to a registered endpoint or to a render's own webhookUrl, is signed with it. Stored
 * encrypted with a key derived from the app's secret, since signing needs the secret itself.
 */
export const webhookSigningKeys = pgTable("webhook_signing_keys", {
  projectId: uuid("project_id")
    .primaryKey()
    .references(() => projects.id, { onDelete: "cascade" }),
  secretCiphertext: text("secret_ciphertext").notNull(),
  /** The secret before the last rotation: deliveries carry its signature too for 24 h after rotatedAt. */
  previousSecretCiphertext: text("previous_secret_ciphertext"),
  createdAt: timestamptz("created_at").notNull().defaultNow(),
  rotatedAt: timestamptz("rotated_at"),
});

/** A URL of the customer's that receives the project's events. */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description"),
    /** Event types delivered (render.completed, render.failed, campaign.imported); empty = all. */
    eventTypes: jsonb("event_types").$type<string[]>().notNull().default([]),
    enabled: boolean("enabled").notNull().default(true),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (t) => [index("webhook_endpoints_project_idx").on(t.projectId)],
);

/**
 * One event for one URL, retried with backoff for 24 h. `endpointId` is null for a render's own
 * webhookUrl. `attemptLog` keeps every attempt (time, status code or error, duration).
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    endpointId: uuid("endpoint_id").references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** The Standard Webhooks `webhook-id` (msg_…): the same for every attempt and re-send. */
    messageId: text("message_id").notNull(),
    eventType: text("event_type").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamptz("next_attempt_at").notNull().defaultNow(),
    /** Retries stop after this: 24 h after the first attempt (or the first after a re-send); null before it. */
    retryUntil: timestamptz("retry_until"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    attemptLog: jsonb("attempt_log").$type<unknown[]>().notNull().default([]),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    deliveredAt: timestamptz("delivered_at"),
  },
  (t) => [
    index("webhook_deliveries_project_created_idx").on(t.projectId, t.createdAt),
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    check("webhook_deliveries_status_check", sql`${t.status} in ('pending', 'delivered', 'failed')`),
  ],
);
