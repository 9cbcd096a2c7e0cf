import { contentDispositionHeader } from "@/lib/api/contract";
import { defineRoute } from "@/lib/api/define-route";
import { exportRecipients } from "@/lib/campaigns/recipients";

export const GET = defineRoute(
  {
    path: "/api/Projects/{projectId}/campaigns/{campaignId}/export",
    operationId: "exportRecipients",
    tag: "Campaigns",
    summary: "Every recipient as CSV (recipient_id,email,url), streamed",
    access: { project: "campaign.read" },
    responses: {
      200: {
        description: "recipient_id,email,url: a header row, then one recipient a line",
        media: { "text/csv": { type: "string" } },
        headers: { "Content-Disposition": contentDispositionHeader },
      },
    },
  },
  async (ctx) => {
    const { campaign, body } = await exportRecipients(ctx, ctx.params.campaignId);
    const filename = `campaign-${campaign.id}-recipients.csv`;
    return new Response(body, {
      headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${filename}"`, "Cache-Control": "no-store" },
    });
  },
);
