import { z } from "zod";
import { roles } from "@/lib/auth/permissions";
import { tokenScopes } from "@/lib/auth/token-scopes";

/** A token's scopes as sent: known names, at least one; stored deduplicated in tokenScopes' order. */
const tokenScopesField = z
  .array(z.enum(tokenScopes, { error: `must be one of ${tokenScopes.join(", ")}` }))
  .min(1, "must name at least one scope")
  .max(tokenScopes.length * 2)
  .transform((asked) => tokenScopes.filter((scope) => asked.includes(scope)));

export const createOrganizationInput = z.strictObject({ name: z.string().trim().min(1).max(120) });
export const createProjectInput = z.strictObject({
  organizationId: z.uuid({ error: "must be an organization id (UUID)" }),
  name: z.string().trim().min(1).max(120),
});
export const createUserInput = z.strictObject({
  email: z.email().max(254).transform((email) => email.toLowerCase()),
  name: z.string().trim().min(1).max(120).optional(),
  password: z.string().min(8, "must be at least 8 characters").max(256).optional(),
});
export const addMemberInput = z
  .strictObject({
    userId: z.uuid({ error: "must be a user id (UUID)" }),
    organizationId: z.uuid().optional(),
    projectId: z.uuid().optional(),
    role: z.enum(roles),
  })
  .refine((input) => (input.organizationId === undefined) !== (input.projectId === undefined), {
    message: "give exactly one of organization or project",
  });
export const disableUserInput = z.strictObject({ userId: z.uuid({ error: "must be a user id (UUID)" }) });
export const setPasswordInput = z.strictObject({
  userId: z.uuid({ error: "must be a user id (UUID)" }),
  password: z.string().min(8, "must be at least 8 characters").max(256),
});
export const removeMemberInput = z
  .strictObject({
    userId: z.uuid({ error: "must be a user id (UUID)" }),
    organizationId: z.uuid().optional(),
    projectId: z.uuid().optional(),
  })
  .refine((input) => (input.organizationId === undefined) !== (input.projectId === undefined), {
    message: "give exactly one of organization or project",
  });
export const createTokenInput = z.strictObject({
  userId: z.uuid({ error: "must be a user id (UUID)" }),
  name: z.string().trim().min(1).max(120).optional(),
  scopes: tokenScopesField.optional(),
});

export type CreateUserInput = z.input<typeof createUserInput>;
export type AddMemberInput = z.infer<typeof addMemberInput>;

/** Bodies of the console's account endpoints (strict: unknown fields are 422). */
export const createProjectBody = z.strictObject({ name: z.string().trim().min(1, "must not be empty").max(120) });
export const inviteMemberBody = z.strictObject({
  email: z.email({ error: "must be an email address" }).max(254).transform((email) => email.toLowerCase()),
  role: z.enum(roles, { error: `must be one of ${roles.join(", ")}` }),
  projectId: z.uuid({ error: "must be a project id (UUID)" }).optional().describe("A project of the organization; omitted: the whole organization"),
});
export const changeMemberRoleBody = z.strictObject({ role: z.enum(roles, { error: `must be one of ${roles.join(", ")}` }) });
export const createOwnTokenBody = z.strictObject({
  name: z.string().trim().min(1, "must not be empty").max(120),
  scopes: tokenScopesField
    .optional()
    .describe(`Any of ${tokenScopes.join(", ")}; omitted: every scope of the caller (a console session has all, a token its own). A token cannot create one with a scope it lacks (403).`),
});

/** Response shapes, for the OpenAPI document and the console. */
export const memberSchema = z.object({
  id: z.uuid().describe("The membership's id"),
  userId: z.uuid(),
  email: z.string(),
  name: z.string().nullable(),
  role: z.enum(roles),
  scope: z.enum(["organization", "project"]),
  projectId: z.uuid().nullable(),
  projectName: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export const invitationSchema = z.object({
  id: z.uuid().describe("The invitation's id"),
  email: z.string(),
  role: z.enum(roles),
  scope: z.enum(["organization", "project"]),
  projectId: z.uuid().nullable(),
  projectName: z.string().nullable(),
  status: z.enum(["pending", "expired", "accepted", "revoked"]).describe("pending until accepted, revoked or past expiresAt; only an accepted invitation grants anything"),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
});
export const createdInvitationSchema = invitationSchema.extend({
  delivery: z
    .enum(["email", "link"])
    .describe("email: the accept URL was mailed to the invited address (mail is configured) and is not in this answer; link: no mail on this instance, acceptUrl is here to hand over"),
  acceptUrl: z.url().optional().describe("Only with delivery link: the one address the invited person accepts at, shown only here (and in the server log)"),
});
const passwordField = z.string().min(8, "must be at least 8 characters").max(256);
export const requestPasswordResetBody = z.strictObject({
  email: z.email({ error: "must be an email address" }).max(254).transform((email) => email.toLowerCase()),
});
export const passwordResetRequestedSchema = z.object({
  message: z.string().describe("The same whether or not the address has an account"),
});
const passwordResetToken = z.string().regex(/^rbr_[A-Za-z0-9_-]{43}$/, { error: "must be the token at the end of a password-reset link" });
export const completePasswordResetBody = z.strictObject({ token: passwordResetToken, password: passwordField });
export const passwordResetDoneSchema = z.object({ email: z.string().describe("The account whose password was set: sign in with it") });
const invitationToken = z.string().regex(/^rbi_[A-Za-z0-9_-]{43}$/, { error: "must be the token at the end of an invitation's accept URL" });
export const acceptInvitationBody = z.strictObject({ token: invitationToken });
export const createAccountFromInvitationBody = z.strictObject({
  token: invitationToken,
  password: z.string().min(8, "must be at least 8 characters").max(256),
  name: z.string().trim().min(1).max(120).optional(),
});
export const acceptedInvitationSchema = z.object({
  membershipId: z.uuid(),
  userId: z.uuid(),
  email: z.string(),
  organizationId: z.uuid(),
  projectId: z.uuid().nullable(),
  role: z.enum(roles),
  scope: z.enum(["organization", "project"]),
});
export const meSchema = z.object({
  user: z.object({ id: z.uuid(), email: z.string(), name: z.string().nullable() }),
  organizations: z.array(z.object({ id: z.uuid(), name: z.string(), role: z.enum(roles).nullable() })),
  projects: z.array(z.object({ id: z.uuid(), name: z.string(), organizationId: z.uuid(), organizationName: z.string(), role: z.enum(roles) })),
});
export const personalAccessTokenSchema = z.object({
  id: z.uuid(),
  name: z.string().nullable(),
  scopes: z.array(z.enum(tokenScopes)).describe("What the token may be used for, beside its user's roles (docs/security.md, \"Token scopes\")"),
  parentTokenId: z.uuid().nullable().describe("The token it was created with; null: made in the console or with the CLI. Revoking a token revokes every token it created, transitively"),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  status: z.enum(["Active", "Revoked"]),
  revokedAt: z.iso.datetime().nullable(),
});
export const createdPersonalAccessTokenSchema = personalAccessTokenSchema.extend({ token: z.string().describe("rbk_…; in this response only") });

export const updateProfileBody = z.strictObject({
  name: z.string().trim().max(120).transform((name) => (name === "" ? null : name)).describe("Your display name; an empty string clears it"),
});
export const profileSchema = z.object({ id: z.uuid(), email: z.string(), name: z.string().nullable() });
export const changePasswordBody = z.strictObject({
  currentPassword: z.string().min(1, "give your current password").max(256),
  newPassword: z.string().max(256).describe("At least 8 characters and not easy to guess (checked on the server against common passwords and your address)"),
});
export const changedPasswordSchema = z.object({ endedSessions: z.number().int().describe("Your other console sessions, signed out by the change") });
export const consoleSessionSchema = z.object({
  id: z.uuid(),
  createdAt: z.iso.datetime().describe("When this sign-in happened"),
  browser: z.string().nullable().describe("The browser and system it signed in from, as its User-Agent said"),
  current: z.boolean().describe("The session making this request"),
});
export const endedSessionsSchema = z.object({ endedSessions: z.number().int() });
