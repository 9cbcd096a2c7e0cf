import { withProjectRole } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";
import { listShares } from "@/lib/shares/shares";

// GET /api/Projects/{projectId}/public-video-shares – the project's shares, one per channel at most
export const GET = withProjectRole("share.read", async (ctx) => {
  return json({ items: await listShares(ctx) });
});
