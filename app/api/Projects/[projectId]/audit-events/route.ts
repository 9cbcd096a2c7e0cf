import { withProjectRole } from "@/lib/api/handler";
import { searchParamsObject } from "@/lib/api/request";
import { parseInput } from "@/lib/validation/parse-input";
import { json } from "@/lib/api/responses";
import { listAuditEvents } from "@/lib/audit/list-audit-events";
import { listAuditEventsQuery } from "@/lib/audit/contract";

// GET /api/Projects/{projectId}/audit-events?limit=&cursor=&actor=&action= – who did what, newest first
export const GET = withProjectRole("audit.read", async (ctx) => json(await listAuditEvents(ctx, parseInput(listAuditEventsQuery, searchParamsObject(ctx.req)))));
