import { withPublic } from "@/lib/api/handler";
import { getDb } from "@/lib/db";
import { receiveUploadPart, type PartParams } from "@/lib/templates/upload-sessions/receive-part";

// PUT /api/uploads/{sessionId}/files/{fileIndex}/parts/{partNumber}?expires=&signature= – one part of a direct upload (local storage); the signed URL is the authorization
export const PUT = withPublic<PartParams>(async ({ req, params }) => receiveUploadPart(await getDb(), req, params));
