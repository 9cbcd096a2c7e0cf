import { withProjectRole } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";
import { parseChannel } from "@/lib/shares/contract";
import { restoreShare } from "@/lib/shares/shares";

// POST …/public-video-shares/{channel}/restore – serve the share again; a no-op when already enabled
export const POST = withProjectRole<{ projectId: string; channel: string }>("share.write", async (ctx) => {
  return json(await restoreShare(ctx, parseChannel(ctx.params.channel)));
});
