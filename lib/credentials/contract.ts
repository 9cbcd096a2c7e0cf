import { z } from "zod";

export const projectIdSchema = z.uuid({ error: "must be a project id (UUID)" });

export const listCredentialsQuery = z.strictObject({ projectId: projectIdSchema });

export const createCredentialBody = z.strictObject({
  projectId: projectIdSchema,
  name: z.string().trim().min(1).max(120).optional(),
});

export type CreateCredentialInput = z.infer<typeof createCredentialBody>;

/** Response shapes, for the OpenAPI document. */
export const credentialSchema = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  apiKey: z.string().regex(/^pk_[0-9A-Za-z]{24}$/),
  name: z.string().nullable(),
  status: z.enum(["active", "revoked"]),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
});
export const createdCredentialSchema = credentialSchema.extend({
  apiSecret: z.string().regex(/^sk_[0-9A-Za-z]{40}$/).describe("Shown only in this response"),
});
