import { eq } from "drizzle-orm";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "@/lib/errors";
import { isUuid } from "@/lib/auth/project-access";
import { schema, type Db } from "@/lib/db";
import { hasErrorCode } from "@/lib/error-code";
import { partsOf } from "./contract";
import { localStaging, verifyPartUrl } from "./staging";

export type PartParams = { sessionId: string; fileIndex: string; partNumber: string };

/**
 * PUT /api/uploads/{sessionId}/files/{index}/parts/{n}?expires=&signature=: the local provider's
 * stand-in for a presigned S3 UploadPart URL. The signed URL is the authorization; the body is
 * exactly the part's bytes, written whole or not at all. Answers the part's ETag.
 */
export async function receiveUploadPart(db: Db, req: Request, params: PartParams): Promise<Response> {
  const notFound = new NotFoundError("No upload part has this address.");
  if (!isUuid(params.sessionId) || !/^\d{1,5}$/.test(params.fileIndex) || !/^\d{1,5}$/.test(params.partNumber)) throw notFound;
  const index = Number(params.fileIndex);
  const partNumber = Number(params.partNumber);
  const url = new URL(req.url);
  if (!verifyPartUrl(params.sessionId, index, partNumber, url.searchParams.get("expires"), url.searchParams.get("signature"))) {
    throw new ForbiddenError("This part URL is not valid or has expired; ask the upload session for fresh ones.");
  }
  const [row] = await db.select().from(schema.templateUploadSessions).where(eq(schema.templateUploadSessions.id, params.sessionId));
  const file = row?.files[index];
  if (!row || !file || row.provider !== "local") throw notFound;
  if (row.status !== "open") throw new ConflictError(`Upload session ${row.id} is ${row.status}; parts are taken only while it is open.`, "upload_session_not_open");
  const { count, sizeOf } = partsOf(file.size, row.partSize);
  if (partNumber < 1 || partNumber > count) throw notFound;

  const expected = sizeOf(partNumber);
  const declared = req.headers.get("content-length");
  if (declared !== null && Number(declared) !== expected) {
    throw new BadRequestError(`Part ${partNumber} of ${file.name} must be ${expected} bytes; Content-Length says ${declared}.`);
  }
  if (!req.body) throw new BadRequestError(`Part ${partNumber} of ${file.name} must be ${expected} bytes; the request has no body.`);
  let etag: string;
  try {
    etag = await localStaging().writePart(row.id, index, partNumber, req.body as unknown as AsyncIterable<Uint8Array>, expected);
  } catch (error) {
    if (hasErrorCode(error, "PART_SIZE")) throw new BadRequestError(`Part ${partNumber} of ${file.name}: ${(error as Error).message}`);
    throw new BadRequestError(`Part ${partNumber} of ${file.name} was interrupted before it ended; send it again.`);
  }
  return Response.json({ partNumber, size: expected, etag }, { headers: { ETag: etag } });
}
