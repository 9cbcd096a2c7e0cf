import { withProjectRole } from "@/lib/api/handler";
import { readJsonBody } from "@/lib/api/request";
import { json } from "@/lib/api/responses";
import { parseChannel, putShareBody } from "@/lib/shares/contract";
import { putShare } from "@/lib/shares/shares";

type Params = { projectId: string; channel: string };

// PUT /api/Projects/{projectId}/public-video-shares/{channel} – create (201) or replace (200) the channel's share, with its data's warnings
export const PUT = withProjectRole<Params>("share.write", async (ctx) => {
  const channel = parseChannel(ctx.params.channel);
  const input = await readJsonBody(ctx.req, putShareBody);
  const { share, created, warnings } = await putShare(ctx, { channel, ...input });
  return json({ ...share, warnings }, created ? 201 : 200);
});
