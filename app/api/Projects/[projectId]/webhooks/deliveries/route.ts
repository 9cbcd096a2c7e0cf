import { withProjectRole } from "@/lib/api/handler";
import { searchParamsObject } from "@/lib/api/request";
import { parseInput } from "@/lib/validation/parse-input";
import { json } from "@/lib/api/responses";
import { listDeliveries } from "@/lib/webhooks/deliveries";
import { listDeliveriesQuery } from "@/lib/webhooks/contract";

// GET /api/Projects/{projectId}/webhooks/deliveries?limit=&cursor=&status=&endpointId= – the delivery log, newest first
export const GET = withProjectRole("webhook.read", async (ctx) =>
  json(await listDeliveries(ctx, parseInput(listDeliveriesQuery, searchParamsObject(ctx.req)))),
);
