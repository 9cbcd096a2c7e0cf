import { ValidationError } from "@/lib/errors";
import { withProjectRole } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";
import { idempotencyKeySchema } from "@/lib/templates/contract";
import { uploadTemplate } from "@/lib/templates/upload-template";

// POST /api/Projects/{projectId}/templates/upload – multipart upload, streamed to storage; optional Idempotency-Key
export const POST = withProjectRole("template.upload", async (ctx) => {
  const header = ctx.req.headers.get("idempotency-key");
  const key = header === null ? undefined : idempotencyKeySchema.safeParse(header);
  if (key && !key.success) throw new ValidationError([{ path: "Idempotency-Key", message: key.error.issues[0]!.message }]);
  const result = await uploadTemplate(ctx, { request: ctx.req, idempotencyKey: key?.data });
  return json(result.body, result.status, result.replayed ? { "Idempotent-Replayed": "true" } : {});
});
