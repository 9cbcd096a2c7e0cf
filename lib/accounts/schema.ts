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
