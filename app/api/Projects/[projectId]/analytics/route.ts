import { withProjectRole } from "@/lib/api/handler";
import { searchParamsObject } from "@/lib/api/request";
import { parseInput } from "@/lib/validation/parse-input";
import { json } from "@/lib/api/responses";
import { getProjectAnalytics } from "@/lib/analytics/get-project-analytics";
import { analyticsQuery } from "@/lib/analytics/contract";

// GET /api/Projects/{projectId}/analytics?from=&to=&channel=&templateId= – summary, quartile funnel and breakdowns over a window
export const GET = withProjectRole("analytics.read", async (ctx) => json(await getProjectAnalytics(ctx, parseInput(analyticsQuery, searchParamsObject(ctx.req)))));
