import { withProjectRole } from "@/lib/api/handler";
import { searchParamsObject } from "@/lib/api/request";
import { parseInput } from "@/lib/validation/parse-input";
import { json } from "@/lib/api/responses";
import { getQuarantineReport } from "@/lib/analytics/get-quarantine-report";
import { quarantineQuery } from "@/lib/analytics/contract";

// GET /api/Projects/{projectId}/analytics/quarantine?from=&to= – events ingest refused (v1 schema, unknown template), by reason, with samples
export const GET = withProjectRole("analytics.read", async (ctx) => json(await getQuarantineReport(ctx, parseInput(quarantineQuery, searchParamsObject(ctx.req)))));
