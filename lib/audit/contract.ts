import { z } from "zod";

export const listAuditEventsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,200}$/, { error: "must be the nextCursor of a previous page" })
    .optional(),
  actor: z.uuid({ error: "must be a user id (UUID)" }).optional().describe("Only events by this user"),
  action: z
    .string()
    .regex(/^[a-z][a-z_]*(\.[a-z][a-z_]*)*$/, { error: "must be an action name such as share.disabled" })
    .max(64)
    .optional()
    .describe("Only events with this action, e.g. share.disabled"),
});

export type ListAuditEventsQuery = z.infer<typeof listAuditEventsQuery>;

/** Response shapes, for the OpenAPI document. */
export const auditEventSchema = z.object({
  id: z.uuid(),
  action: z.string().describe("e.g. share.disabled, credential.revoked"),
  targetType: z.string(),
  targetId: z.string(),
  actor: z
    .object({
      id: z.uuid(),
      email: z.string().describe('The actor\'s email; "a project member" for another member when the caller is below OrganizationAdmin'),
    })
    .nullable(),
  data: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(
      'What the event is about and what changed: its subject (a credential\'s name and apiKey, a share\'s channel and slug, a template\'s name and version…) and, for updates, `changes`: one `{ field, from, to }` per changed field (never a secret; a webhook URL by its host). A credential\'s apiKey only for callers who may read credentials (ProjectManager and up); another person\'s email (member events\' `email`) only for OrganizationAdmins, else "a project member"',
    ),
  createdAt: z.iso.datetime(),
});

export const auditEventPageSchema = z.object({
  items: z.array(auditEventSchema),
  nextCursor: z.string().nullable().describe("Pass as ?cursor= for the next (older) page; null on the last page"),
});
