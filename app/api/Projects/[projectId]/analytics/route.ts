import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { getProjectAnalytics } from "@/lib/analytics/get-project-analytics";
import { analyticsQueryParams, analyticsWindow, projectAnalyticsSchema } from "@/lib/analytics/contract";
import { parseInput } from "@/lib/validation/parse-input";

export const GET = defineRoute(
  {
    path: "/api/Projects/{projectId}/analytics",
    operationId: "getProjectAnalytics",
    tag: "Analytics",
    summary:
      "Sessions, plays, viewers, quartile funnel, completion, CTA clicks, errors, the previous period, a time series, chapters, and breakdowns by day, channel, template version, device, browser, OS, referrer, country; bots left out",
    access: { project: "analytics.read" },
    query: analyticsQueryParams,
    responses: { 200: { description: "The project's analytics for the window", schema: projectAnalyticsSchema } },
  },
  async (ctx) => json(await getProjectAnalytics(ctx, parseInput(analyticsWindow, ctx.query))),
);
