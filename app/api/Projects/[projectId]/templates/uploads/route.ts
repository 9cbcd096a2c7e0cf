import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { ValidationError } from "@/lib/errors";
import { idempotencyKeySchema } from "@/lib/templates/contract";
import { createUploadSessionBody, uploadSessionSchema } from "@/lib/templates/upload-sessions/contract";
import { createUploadSession } from "@/lib/templates/upload-sessions/sessions";

// docs/direct-uploads.md
export const POST = defineRoute(
  {
    path: "/api/Projects/{projectId}/templates/uploads",
    operationId: "createUploadSession",
    tag: "Uploads",
    summary:
      "Start a direct upload: declare the template's fields and files (role, name, size, type); answers where to PUT each part (presigned S3 URLs, the app's part route, or UploadThing); optional Idempotency-Key header",
    access: { project: "template.upload" },
    body: createUploadSessionBody,
    idempotent: true,
    responses: { 201: { description: "The upload session, open (a replay carries Idempotent-Replayed: true)", schema: uploadSessionSchema } },
    errors: { 409: "The same Idempotency-Key is still in flight", 413: "The body is larger than 1 MB, or the files add up to more than 250 MB" },
  },
  async (ctx) => {
    const header = ctx.req.headers.get("idempotency-key");
    const key = header === null ? undefined : idempotencyKeySchema.safeParse(header);
    if (key && !key.success) throw new ValidationError([{ path: "Idempotency-Key", message: key.error.issues[0]!.message }]);
    const result = await createUploadSession(ctx, { declaration: ctx.body, idempotencyKey: key?.data });
    return json(result.body, result.status, result.replayed ? { "Idempotent-Replayed": "true" } : {});
  },
);
