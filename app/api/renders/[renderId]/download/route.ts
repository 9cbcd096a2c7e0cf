import { withPublic } from "@/lib/api/handler";
import { getDb } from "@/lib/db";
import { serveRenderDownload } from "@/lib/renders/serve-download";

// GET /api/renders/{renderId}/download?expires=&signature= – a finished render's file; the signed URL is the authorization
export const GET = withPublic<{ renderId: string }>(async ({ req, params }) => serveRenderDownload(await getDb(), req, params.renderId));
