import { z } from "zod";
import { etagHeader } from "@/lib/api/contract";
import { defineRoute } from "@/lib/api/define-route";
import { getDb } from "@/lib/db";
import { receiveUploadPart } from "@/lib/templates/upload-sessions/receive-part";

const uploadPartSchema = z.object({ partNumber: z.number().int().min(1), size: z.number().int().min(0), etag: z.string() });

// The local storage provider's part route; the signed URL is the authorization.
export const PUT = defineRoute(
  {
    path: "/api/uploads/{sessionId}/files/{fileIndex}/parts/{partNumber}",
    operationId: "putUploadPart",
    tag: "Uploads",
    summary: "One part of a direct upload with local storage: the part's exact bytes; ?expires=&signature= from the session are its authorization",
    access: "public",
    ownBody: { bytes: true },
    responses: { 200: { description: "Stored; the ETag header names the part", schema: uploadPartSchema, headers: { ETag: { ...etagHeader, description: "The part's ETag, for completing the session" } } } },
    errors: {
      400: "Not the part's size, or cut off before its end",
      403: "A forged or expired URL",
      404: "No upload part has this address",
      409: "The session is not open",
    },
  },
  async ({ req, params }) => receiveUploadPart(await getDb(), req, params),
);
