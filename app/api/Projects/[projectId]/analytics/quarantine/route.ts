import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { getQuarantineReport } from "@/lib/analytics/get-quarantine-report";
import { quarantineQueryParams, quarantineReportSchema, quarantineWindow } from "@/lib/analytics/contract";
import { parseInput } from "@/lib/validation/parse-input";

export const GET = defineRoute(
  {
    path: "/api/Projects/{projectId}/analytics/quarantine",
    operationId: "getQuarantineReport",
    tag: "Analytics",
    summary: "Events of the project's batches that the v1 event schema refused (422), by reason, with the newest samples",
    access: { project: "analytics.read" },
    query: quarantineQueryParams,
    responses: { 200: { description: "Refused events in the window", schema: quarantineReportSchema } },
  },
  async (ctx) => json(await getQuarantineReport(ctx, parseInput(quarantineWindow, ctx.query))),
);
