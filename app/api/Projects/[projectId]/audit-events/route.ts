import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { listAuditEvents } from "@/lib/audit/list-audit-events";
import { auditEventPageSchema, listAuditEventsQuery } from "@/lib/audit/contract";

export const GET = defineRoute(
  {
    path: "/api/Projects/{projectId}/audit-events",
    operationId: "listAuditEvents",
    tag: "Audit",
    summary: "The project's audit trail, newest first, paginated by cursor",
    access: { project: "audit.read" },
    query: listAuditEventsQuery,
    responses: { 200: { description: "A page of audit events", schema: auditEventPageSchema } },
  },
  async (ctx) => json(await listAuditEvents(ctx, ctx.query)),
);
