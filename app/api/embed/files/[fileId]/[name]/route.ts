import { withPublic } from "@/lib/api/handler";
import { getDb } from "@/lib/db";
import { serveTemplateFile } from "@/lib/embed/serve-file";

// GET /api/embed/files/{fileId}/{name}?expires=&signature= – a template file for the player; the signed URL is the authorization
export const GET = withPublic<{ fileId: string; name: string }>(async ({ req, params }) => {
  return serveTemplateFile(await getDb(), req, params);
});
