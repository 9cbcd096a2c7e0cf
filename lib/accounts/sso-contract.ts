import { z } from "zod";
import { roles } from "@/lib/auth/permissions";

// The organization's single sign-on settings as the API takes and answers them
// (docs/adr/0159-organization-sso.md). The client secret goes in, never out.

/** What a just-in-time member may get: never OrganizationAdmin (an IdP account must not make an administrator). */
export const ssoDefaultRoles = roles.filter((role) => role !== "OrganizationAdmin") as ["Viewer", "Editor", "ProjectManager"];

/** Loopback hosts: an issuer there may be plain http (a provider on this machine, the tests'). */
const loopbackHosts = new Set(["127.0.0.1", "localhost", "[::1]"]);

const issuerField = z
  .string()
  .trim()
  .max(500)
  .pipe(z.url({ error: "must be the issuer's URL, e.g. https://login.example.com/realms/acme" }))
  // URL.parse: zod runs these refinements on a value the pipe refused too.
  .refine((value) => {
    const url = URL.parse(value);
    return !url || url.protocol === "https:" || (url.protocol === "http:" && loopbackHosts.has(url.hostname));
  }, "must be an https URL (plain http only on a loopback address)")
  .refine((value) => !URL.parse(value)?.search && !URL.parse(value)?.hash, "must not have a query or a fragment")
  // The issuer is compared character for character with the provider's `iss`; a trailing slash is
  // the one difference people type by accident, so it is dropped here and compared without.
  .transform((value) => value.replace(/\/+$/, ""));

const domainField = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  // No lookahead for the length: .max says it, and the JSON Schema's pattern stays one every generator reads.
  .regex(/^([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, { error: "must be a domain name such as example.com" });

export const ssoSettingsBody = z.strictObject({
  issuer: issuerField.describe("The OpenID provider's issuer identifier; its /.well-known/openid-configuration must name the same issuer"),
  clientId: z.string().trim().min(1, "must not be empty").max(255),
  clientSecret: z
    .string()
    .min(1, "must not be empty")
    .max(1000)
    .optional()
    .describe("Required the first time; omitted later: the stored one is kept. Sealed at rest and never answered"),
  emailDomain: domainField
    .nullable()
    .default(null)
    .describe("Addresses of this domain find the organization at sign-in, and new ones join it with defaultRole; null: only existing members sign in"),
  defaultRole: z.enum(ssoDefaultRoles, { error: `must be one of ${ssoDefaultRoles.join(", ")} (never OrganizationAdmin)` }).default("Viewer"),
  requireSso: z.boolean().default(false).describe("Members then cannot sign in with a password (OrganizationAdmins still can: the way back when the IdP fails)"),
});
export type SsoSettingsBody = z.infer<typeof ssoSettingsBody>;

export const ssoSettingsSchema = z.object({
  callbackUrl: z.url().describe("The redirect URI to register at the identity provider for this organization"),
  settings: z
    .object({
      issuer: z.string(),
      clientId: z.string(),
      clientSecretSet: z.literal(true).describe("The secret is stored (sealed); it is never answered"),
      emailDomain: z.string().nullable(),
      defaultRole: z.enum(ssoDefaultRoles),
      requireSso: z.boolean(),
      updatedAt: z.iso.datetime(),
    })
    .nullable()
    .describe("null: single sign-on is not configured"),
});

export const ssoLookupBody = z.strictObject({ email: z.email({ error: "must be an email address" }).max(254) });
export const ssoLookupSchema = z.object({
  providerId: z.string().describe("The next-auth provider to sign in with: POST /api/auth/signin/{providerId}"),
  organizationName: z.string(),
});
