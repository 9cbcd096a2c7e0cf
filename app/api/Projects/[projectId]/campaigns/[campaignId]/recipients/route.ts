import { withProjectRole } from "@/lib/api/handler";
import { searchParamsObject } from "@/lib/api/request";
import { parseInput } from "@/lib/validation/parse-input";
import { json } from "@/lib/api/responses";
import { listRecipients } from "@/lib/campaigns/recipients";
import { listRecipientsQuery } from "@/lib/campaigns/contract";
import { uploadRecipients } from "@/lib/campaigns/upload-recipients";

type Params = { projectId: string; campaignId: string };

// GET /api/Projects/{projectId}/campaigns/{campaignId}/recipients?cursor=&limit= – recipients with their URL and reach
export const GET = withProjectRole<Params>("campaign.read", async (ctx) => {
  const query = parseInput(listRecipientsQuery, searchParamsObject(ctx.req));
  return json(await listRecipients(ctx, { campaignId: ctx.params.campaignId, ...query }));
});

// POST /api/Projects/{projectId}/campaigns/{campaignId}/recipients – import a CSV (text/csv) or a JSON batch
export const POST = withProjectRole<Params>("campaign.write", async (ctx) => {
  const outcome = await uploadRecipients(ctx, { campaignId: ctx.params.campaignId, req: ctx.req });
  return json(outcome.import, outcome.created ? 201 : 200, outcome.replayed ? { "Idempotent-Replayed": "true" } : undefined);
});
