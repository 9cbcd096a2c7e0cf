import { and, desc, eq, sql } from "drizzle-orm";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/errors";
import { isUuid } from "@/lib/auth/project-access";
import { schema } from "@/lib/db";
import { audited, projectVerb } from "@/lib/services/verbs";
import { appendToAttemptLog, wakeDeliveryWorker } from "./delivery-worker";
import { newMessageId } from "./emit";
import { getEndpointOrThrow, hostOf } from "./endpoints";
import type { ListDeliveriesQuery } from "./contract";

// The delivery log of a project: every event queued for every URL, its attempts, and re-sends.

const deliveries = schema.webhookDeliveries;
type DeliveryRow = typeof deliveries.$inferSelect;

/** The test event's type: never emitted by anything else, so receivers can recognise it. */
export const testEventType = "webhook.test";

export function presentDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    endpointId: row.endpointId,
    url: row.url,
    messageId: row.messageId,
    eventType: row.eventType,
    status: row.status as "pending" | "delivered" | "failed",
    attempts: row.attempts,
    nextAttemptAt: row.status === "pending" ? row.nextAttemptAt : null,
    retryUntil: row.retryUntil,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    attemptLog: row.attemptLog,
    payload: row.payload,
    createdAt: row.createdAt,
    deliveredAt: row.deliveredAt,
  };
}

/** createdAt as the API shows it (milliseconds): what a cursor holds, so pages order by it too. */
const createdMs = sql`date_trunc('milliseconds', ${deliveries.createdAt})`;

/** A cursor is the (createdAt, id) of the last delivery on a page, opaque to clients. */
function encodeCursor(row: { createdAt: Date; id: string }): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString("base64url");
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)\|([0-9a-f-]{36})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match || !isUuid(match[2]!)) throw new ValidationError([{ path: "cursor", message: "must be the nextCursor of a previous page" }]);
  return { createdAt: new Date(match[1]!), id: match[2]! };
}

/** The project's deliveries, newest first, in pages that stay stable while new ones arrive. */
export const listDeliveries = projectVerb("webhook.read", async ({ db, access: { project } }, { limit, cursor, status, endpointId }: ListDeliveriesQuery) => {
  const after = cursor ? decodeCursor(cursor) : null;
  const rows = await db
    .select()
    .from(deliveries)
    .where(
      and(
        eq(deliveries.projectId, project.id),
        status ? eq(deliveries.status, status) : undefined,
        endpointId ? eq(deliveries.endpointId, endpointId) : undefined,
        after ? sql`(${createdMs}, ${deliveries.id}) < (${after.createdAt.toISOString()}::timestamptz, ${after.id}::uuid)` : undefined,
      ),
    )
    .orderBy(desc(createdMs), desc(deliveries.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { items: page.map(presentDelivery), nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
});

/**
 * Queues a delivered or failed delivery again, with the same webhook-id (receivers that already
 * processed it recognise the duplicate) and a fresh series of attempts over 24 h. A pending one
 * is already queued: 409.
 */
export const resendDelivery = projectVerb("webhook.write", async ({ access, write }, deliveryId: string) => {
  const notFound = new NotFoundError(`Webhook delivery ${deliveryId} was not found.`);
  if (!isUuid(deliveryId)) throw notFound;
  const row = await write(async (tx) => {
    const [current] = await tx
      .select()
      .from(deliveries)
      .where(and(eq(deliveries.id, deliveryId), eq(deliveries.projectId, access.project.id)))
      .for("update");
    if (!current) throw notFound;
    if (current.status === "pending") throw new ConflictError("The delivery is still pending: it is sent again on its own.", "delivery_pending");
    const [queued] = await tx
      .update(deliveries)
      .set({
        status: "pending",
        attempts: 0,
        nextAttemptAt: new Date(),
        retryUntil: null,
        deliveredAt: null,
        attemptLog: appendToAttemptLog(current.attemptLog, { at: new Date().toISOString(), resent: true }),
      })
      .where(eq(deliveries.id, current.id))
      .returning();
    return audited(queued!, {
      action: "webhook.delivery_resent",
      targetType: "webhook_delivery",
      targetId: current.id,
      data: { messageId: current.messageId, eventType: current.eventType, host: hostOf(current.url) },
    });
  });
  wakeDeliveryWorker();
  return presentDelivery(row);
});

/** Queues a `webhook.test` event for one endpoint (enabled or not, whatever its event types). */
export const sendTestEvent = projectVerb("webhook.write", async (ctx, endpointId: string) => {
  const { access } = ctx;
  const endpoint = await getEndpointOrThrow(ctx, endpointId);
  const payload = {
    type: testEventType,
    timestamp: new Date().toISOString(),
    data: { projectId: access.project.id, endpointId: endpoint.id, message: "A test event from Reelbind: your endpoint receives and verifies webhooks." },
  };
  const row = await ctx.write(async (tx) => {
    const [queued] = await tx
      .insert(deliveries)
      .values({ projectId: access.project.id, endpointId: endpoint.id, url: endpoint.url, messageId: newMessageId(), eventType: testEventType, payload })
      .returning();
    return audited(queued!, {
      action: "webhook.test_sent",
      targetType: "webhook_endpoint",
      targetId: endpoint.id,
      data: { messageId: queued!.messageId, host: hostOf(endpoint.url) },
    });
  });
  wakeDeliveryWorker();
  return presentDelivery(row);
});
