import { sql } from "drizzle-orm";
import { check, index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { roleEnum } from "./enums";
import { organizations } from "./organizations";
import { projects } from "./projects";
import { users } from "./users";

/**
 * An invitation to a membership, waiting for the invited person: it grants nothing until they
 * accept it (then the membership row is made). Only the SHA-256 of its accept token is kept.
 * Open: neither accepted nor revoked (an open one past expires_at is expired).
 */
export const memberInvitations = pgTable(
  "member_invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    // Set: a role on this project of the organization; null: on the whole organization.
    projectId: uuid("project_id").references(() => projects.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: roleEnum("role").notNull(),
    tokenHash: text("token_hash").notNull().unique("member_invitations_token_hash_unique"),
    invitedBy: uuid("invited_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    expiresAt: timestamptz("expires_at").notNull(),
    acceptedAt: timestamptz("accepted_at"),
    acceptedBy: uuid("accepted_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: timestamptz("revoked_at"),
  },
  (t) => [
    check("member_invitations_email_lowercase", sql`${t.email} = lower(${t.email})`),
    check("member_invitations_one_outcome", sql`${t.acceptedAt} is null or ${t.revokedAt} is null`),
    // One open invitation per address and scope: inviting again replaces it.
    uniqueIndex("member_invitations_open_org_unique")
      .on(t.organizationId, t.email)
      .where(sql`${t.projectId} is null and ${t.acceptedAt} is null and ${t.revokedAt} is null`),
    uniqueIndex("member_invitations_open_project_unique")
      .on(t.projectId, t.email)
      .where(sql`${t.projectId} is not null and ${t.acceptedAt} is null and ${t.revokedAt} is null`),
    index("member_invitations_organization_idx").on(t.organizationId, t.createdAt),
  ],
);
