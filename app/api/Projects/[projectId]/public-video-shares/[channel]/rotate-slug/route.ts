import { withProjectRole } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";
import { parseChannel } from "@/lib/shares/contract";
import { rotateShareSlug } from "@/lib/shares/shares";

// POST …/public-video-shares/{channel}/rotate-slug – new public URL; the old one is dead forever
export const POST = withProjectRole<{ projectId: string; channel: string }>("share.write", async (ctx) => {
  return json(await rotateShareSlug(ctx, parseChannel(ctx.params.channel)));
});
