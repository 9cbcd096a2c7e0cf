import { sql } from "drizzle-orm";
import { boolean, check, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { roleEnum } from "./enums";
import { organizations } from "./organizations";

/**
 * An organization's single sign-on through its OpenID Connect provider (docs/adr/0159-organization-sso.md).
 * The client secret is sealed like webhook signing secrets (lib/webhooks/secret-box.ts, the
 * organization id bound as associated data) and never answered. `email_domain` finds the
 * organization from the address typed at sign-in and lets new addresses of it join with
 * `default_role`; a domain belongs to one organization only.
 */
export const organizationSso = pgTable(
  "organization_sso",
  {
    organizationId: uuid("organization_id")
      .primaryKey()
      .references(() => organizations.id, { onDelete: "cascade" }),
    issuer: text("issuer").notNull(),
    clientId: text("client_id").notNull(),
    clientSecretCiphertext: text("client_secret_ciphertext").notNull(),
    emailDomain: text("email_domain"),
    // Never OrganizationAdmin (checked here too): an IdP account must not make an administrator.
    defaultRole: roleEnum("default_role").notNull().default("Viewer"),
    requireSso: boolean("require_sso").notNull().default(false),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    check("organization_sso_domain_lowercase", sql`${t.emailDomain} = lower(${t.emailDomain})`),
    check("organization_sso_default_role", sql`${t.defaultRole} <> 'OrganizationAdmin'`),
    uniqueIndex("organization_sso_email_domain_unique").on(t.emailDomain).where(sql`${t.emailDomain} is not null`),
  ],
);
