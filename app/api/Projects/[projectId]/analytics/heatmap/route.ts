import { withProjectRole } from "@/lib/api/handler";
import { searchParamsObject } from "@/lib/api/request";
import { parseInput } from "@/lib/validation/parse-input";
import { json } from "@/lib/api/responses";
import { getEngagementHeatmap } from "@/lib/analytics/get-engagement-heatmap";
import { heatmapQuery } from "@/lib/analytics/contract";

// GET /api/Projects/{projectId}/analytics/heatmap?templateId=&from=&to=&… – second-by-second engagement with one template
export const GET = withProjectRole("analytics.read", async (ctx) => json(await getEngagementHeatmap(ctx, parseInput(heatmapQuery, searchParamsObject(ctx.req)))));
