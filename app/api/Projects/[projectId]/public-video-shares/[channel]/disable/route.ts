import { withProjectRole } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";
import { parseChannel } from "@/lib/shares/contract";
import { disableShare } from "@/lib/shares/shares";

// POST …/public-video-shares/{channel}/disable – viewers get the 404 page; a no-op when already disabled
export const POST = withProjectRole<{ projectId: string; channel: string }>("share.write", async (ctx) => {
  return json(await disableShare(ctx, parseChannel(ctx.params.channel)));
});
