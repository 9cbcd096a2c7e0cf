import { index, pgTable, text, unique, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { credentialStatusEnum } from "./enums";
import { projects } from "./projects";
import { users } from "./users";

/** Per-project key/secret pairs; the pk_ key is public, the sk_ secret is kept as SHA-256. */
export const apiCredentials = pgTable(
  "api_credentials",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name"),
    apiKey: text("api_key").notNull().unique("api_credentials_key_unique"),
    secretHash: text("secret_hash").notNull(),
    status: credentialStatusEnum("status").notNull().default("active"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    lastUsedAt: timestamptz("last_used_at"),
    revokedAt: timestamptz("revoked_at"),
  },
  (t) => [
    index("api_credentials_project_idx").on(t.projectId, t.createdAt),
    // Target of the shares' (project_id, api_credential_id) foreign key: a share's credential is its own project's.
    unique("api_credentials_project_id_unique").on(t.projectId, t.id),
  ],
);
