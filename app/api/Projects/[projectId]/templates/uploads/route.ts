import { ValidationError } from "@/lib/errors";
import { withProjectRole } from "@/lib/api/handler";
import { readJsonBody } from "@/lib/api/request";
import { json } from "@/lib/api/responses";
import { idempotencyKeySchema } from "@/lib/templates/contract";
import { createUploadSessionBody } from "@/lib/templates/upload-sessions/contract";
import { createUploadSession } from "@/lib/templates/upload-sessions/sessions";

// POST /api/Projects/{projectId}/templates/uploads – declare a template's files; answers where to send them (docs/direct-uploads.md)
export const POST = withProjectRole("template.upload", async (ctx) => {
  const header = ctx.req.headers.get("idempotency-key");
  const key = header === null ? undefined : idempotencyKeySchema.safeParse(header);
  if (key && !key.success) throw new ValidationError([{ path: "Idempotency-Key", message: key.error.issues[0]!.message }]);
  const body = await readJsonBody(ctx.req, createUploadSessionBody);
  const result = await createUploadSession(ctx, { declaration: body, idempotencyKey: key?.data });
  return json(result.body, result.status, result.replayed ? { "Idempotent-Replayed": "true" } : {});
});
