import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { getEngagementHeatmap } from "@/lib/analytics/get-engagement-heatmap";
import { engagementHeatmapSchema, heatmapQueryParams, heatmapWindow } from "@/lib/analytics/contract";
import { parseInput } from "@/lib/validation/parse-input";

export const GET = defineRoute(
  {
    path: "/api/Projects/{projectId}/analytics/heatmap",
    operationId: "getEngagementHeatmap",
    tag: "Analytics",
    summary: "Second by second, how many plays of one template watched, rewatched and left it (from the player's watched spans)",
    access: { project: "analytics.read" },
    query: heatmapQueryParams,
    responses: {
      200: { description: "The template's engagement heatmap for the window", schema: engagementHeatmapSchema },
    },
    errors: { 404: "No such project or no access to it, or no such template in it" },
  },
  async (ctx) => json(await getEngagementHeatmap(ctx, parseInput(heatmapWindow, ctx.query))),
);
