import { integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { idempotencyStateEnum } from "./enums";
import { projects } from "./projects";

/** Idempotency-Key records, scoped per project, replayed for at least 24 hours. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    state: idempotencyStateEnum("state").notNull().default("in_flight"),
    responseStatus: integer("response_status"),
    responseBody: jsonb("response_body"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    expiresAt: timestamptz("expires_at").notNull(),
  },
  (t) => [primaryKey({ name: "idempotency_keys_pk", columns: [t.projectId, t.key] })],
);
