import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { schema, type Db } from "@/lib/db";
import type { WebhookEventType } from "./event-types";

export { webhookEventTypes, type WebhookEventType } from "./event-types";

/** A Standard Webhooks message id: unique per event, the same for every attempt of it. */
export const newMessageId = () => `msg_${randomBytes(16).toString("base64url")}`;

type Emit = {
  projectId: string;
  type: WebhookEventType;
  data: Record<string, unknown>;
  /** A one-off URL of the request that caused the event (a render's webhookUrl), besides the project's endpoints. */
  extraUrl?: string | null;
};

/**
 * Queues one delivery of the event per enabled endpoint of the project that takes its type (and
 * one to `extraUrl`). Call it inside the transaction that records what the event tells, so the
 * event is queued exactly when that commits; the delivery worker (lib/webhooks) sends it.
 */
export async function emitWebhookEvent(db: Db, { projectId, type, data, extraUrl }: Emit): Promise<number> {
  const endpoints = await db
    .select({ id: schema.webhookEndpoints.id, url: schema.webhookEndpoints.url, eventTypes: schema.webhookEndpoints.eventTypes })
    .from(schema.webhookEndpoints)
    .where(and(eq(schema.webhookEndpoints.projectId, projectId), eq(schema.webhookEndpoints.enabled, true)));
  const targets: { endpointId: string | null; url: string }[] = endpoints
    .filter((e) => e.eventTypes.length === 0 || e.eventTypes.includes(type))
    .map((e) => ({ endpointId: e.id, url: e.url }));
  if (extraUrl) targets.push({ endpointId: null, url: extraUrl });
  if (targets.length === 0) return 0;
  const payload = { type, timestamp: new Date().toISOString(), data };
  const messageId = newMessageId();
  await db.insert(schema.webhookDeliveries).values(
    targets.map((t) => ({ projectId, endpointId: t.endpointId, url: t.url, messageId, eventType: type, payload })),
  );
  return targets.length;
}
