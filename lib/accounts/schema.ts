import { z } from "zod";
import { roles } from "@/lib/auth/permissions";

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
export const createOwnTokenBody = z.strictObject({ name: z.string().trim().min(1, "must not be empty").max(120) });

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
export const invitedMemberSchema = z.object({
  member: memberSchema,
  oneTimePassword: z.string().nullable().describe("Set when the invitation created the user: shown once, to hand to them"),
});
export const meSchema = z.object({
  user: z.object({ id: z.uuid(), email: z.string() }),
  organizations: z.array(z.object({ id: z.uuid(), name: z.string(), role: z.enum(roles).nullable() })),
  projects: z.array(z.object({ id: z.uuid(), name: z.string(), organizationId: z.uuid(), organizationName: z.string(), role: z.enum(roles) })),
});
export const personalAccessTokenSchema = z.object({
  id: z.uuid(),
  name: z.string().nullable(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  status: z.enum(["Active", "Revoked"]),
  revokedAt: z.iso.datetime().nullable(),
});
export const createdPersonalAccessTokenSchema = personalAccessTokenSchema.extend({ token: z.string().describe("rbk_…; in this response only") });
