import { z } from "zod";

export const projectIdSchema = z.uuid({ error: "must be a project id (UUID)" });

export const listCredentialsQuery = z.strictObject({ projectId: projectIdSchema });

export const createCredentialBody = z.strictObject({
  projectId: projectIdSchema,
  name: z.string().trim().min(1).max(120).optional(),
});

export type CreateCredentialInput = z.infer<typeof createCredentialBody>;

export const credentialIdSchema = z.uuid({ error: "must be a credential id (UUID)" });
