import { z } from "zod";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { ValidationError } from "@/lib/errors";
import { idempotencyKeySchema, uploadedTemplateSchema, uploadFieldsSchema } from "@/lib/templates/contract";
import { uploadTemplate } from "@/lib/templates/upload-template";

/** The multipart form of a template upload: its fields, then the files by role. */
const templateUploadForm = uploadFieldsSchema.extend({
  templateJson: z.file().optional().describe("The Lottie animation (LottieStandalone, and Raster's overlay)"),
  manifestJson: z.file().optional().describe("The binding manifest"),
  overlayJson: z.file().optional().describe("Raster only: how the overlay sits on the video"),
  videoFile: z.file().optional().describe("Raster only: the H.264 MP4"),
  posterFile: z.file().optional(),
  assetFiles: z.array(z.file()).optional().describe("Repeatable: the images the animation loads by name"),
});

// Streamed to storage.
export const POST = defineRoute(
  {
    path: "/api/Projects/{projectId}/templates/upload",
    operationId: "uploadTemplate",
    tag: "Templates",
    summary:
      "Upload a template: multipart/form-data with name, version?, kind and the files templateJson, manifestJson, overlayJson, videoFile, posterFile, assetFiles (repeatable); at most 250 MB; every image the animation loads by name must be among the assetFiles (422 naming each missing one) unless a manifest image field fills it from data (then a warning); optional Idempotency-Key header",
    access: { project: "template.upload" },
    ownBody: { multipart: templateUploadForm },
    idempotent: true,
    responses: { 201: { description: "The template, status Testing, and its warnings (a replay carries Idempotent-Replayed: true)", schema: uploadedTemplateSchema } },
    errors: {
      400: "The multipart body cannot be read",
      409: "The same Idempotency-Key is still in flight",
      413: "The body is larger than 250 MB",
      422: "A field or file breaks the upload's rules; errors lists each (a missing asset by name)",
    },
  },
  async (ctx) => {
    const header = ctx.req.headers.get("idempotency-key");
    const key = header === null ? undefined : idempotencyKeySchema.safeParse(header);
    if (key && !key.success) throw new ValidationError([{ path: "Idempotency-Key", message: key.error.issues[0]!.message }]);
    const result = await uploadTemplate(ctx, { request: ctx.req, idempotencyKey: key?.data });
    return json(result.body, result.status, result.replayed ? { "Idempotent-Replayed": "true" } : {});
  },
);
