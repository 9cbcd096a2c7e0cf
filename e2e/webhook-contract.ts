import type { IncomingHttpHeaders } from "node:http";
import { expect, type APIRequestContext } from "@playwright/test";
import { checkWebhookDeliveries, type OpenApiDocument } from "@/testing/contract-check";

/**
 * The contract check for what the app sends, not answers: every delivery a spec's loopback
 * receiver got matches the served document's `webhooks` (its event type, the Standard Webhooks
 * headers, the payload's schema). Called once a spec's receiver is closed.
 */
export async function expectDeliveriesMatchDocument(request: APIRequestContext, received: { headers: IncomingHttpHeaders; body: string }[]) {
  const document = (await (await request.get("/api/openapi.json")).json()) as OpenApiDocument;
  expect(received.length).toBeGreaterThan(0);
  expect(checkWebhookDeliveries(received, document)).toEqual([]);
}
