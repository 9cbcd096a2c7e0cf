import { errorResponse } from "@/lib/api/errors";
import { getDb } from "@/lib/db";
import { serveTemplateFile } from "@/lib/embed/serve-file";

type Context = { params: Promise<{ fileId: string; name: string }> };

// GET /api/embed/files/{fileId}/{name}?expires=&signature= – a template file for the player; the signed URL is the authorization
export async function GET(req: Request, { params }: Context) {
  try {
    return await serveTemplateFile(await getDb(), req, (await params).fileId);
  } catch (error) {
    return errorResponse(error);
  }
}
