import { and, desc, eq } from "drizzle-orm";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { fieldChanges, type AuditChange } from "@/lib/audit/changes";
import { isUuid } from "@/lib/auth/project-access";
import { schema } from "@/lib/db";
import { audited, projectVerb, type Permitted } from "@/lib/services/verbs";
import type { WebhookEventType } from "./event-types";
import type { CreateEndpointInput, UpdateEndpointInput } from "./contract";
import { checkWebhookUrl } from "./url-safety";

// A project's webhook endpoints: the URLs that receive its events.

const endpoints = schema.webhookEndpoints;
const deliveries = schema.webhookDeliveries;
type EndpointRow = typeof endpoints.$inferSelect;

export function presentEndpoint(row: EndpointRow) {
  return {
    id: row.id,
    projectId: row.projectId,
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes as WebhookEventType[],
    enabled: row.enabled,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * What the audit trail records of an endpoint's URL: its host. The whole URL is often a
 * credential of its own (`…/hooks/catch/123/abc`), and the trail is readable by every member.
 */
export function hostOf(url: string): string | null {
  return URL.parse(url)?.host ?? null;
}

/** An update's changes for the trail: the URL by its host only (its path is often a secret), the rest as they are. */
function endpointChanges(before: EndpointRow, after: EndpointRow): AuditChange[] {
  const changes = fieldChanges(before, after, ["description", "eventTypes", "enabled"]);
  if (before.url === after.url) return changes;
  const [from, to] = [hostOf(before.url), hostOf(after.url)];
  return [from === to ? { field: "url" } : { field: "url", from, to }, ...changes];
}

/**
 * 422 on `url` when its host is, or resolves to, a non-public address (unless
 * WEBHOOK_ALLOW_PRIVATE=1), naming why; the answer's warnings when the host could not be
 * resolved now (the URL is saved; each delivery checks the addresses it connects to).
 */
async function requireSafeUrl(url: string): Promise<string[]> {
  const check = await checkWebhookUrl(url);
  if (!check.ok) throw new ValidationError([{ path: "url", message: check.reason }]);
  return check.warning ? [`url: ${check.warning}`] : [];
}

export const listEndpoints = projectVerb("webhook.read", async ({ db, access }) => {
  const rows = await db.select().from(endpoints).where(eq(endpoints.projectId, access.project.id)).orderBy(desc(endpoints.createdAt), desc(endpoints.id));
  return rows.map(presentEndpoint);
});

/** The endpoint's row, or a 404 when the project has no endpoint by that id. */
export async function getEndpointOrThrow({ db, access }: Permitted<"webhook.read" | "webhook.write">, endpointId: string): Promise<EndpointRow> {
  const notFound = new NotFoundError(`Webhook endpoint ${endpointId} was not found.`);
  if (!isUuid(endpointId)) throw notFound;
  const [row] = await db.select().from(endpoints).where(and(eq(endpoints.id, endpointId), eq(endpoints.projectId, access.project.id)));
  if (!row) throw notFound;
  return row;
}

export const getEndpoint = projectVerb("webhook.read", async (ctx, endpointId: string) => presentEndpoint(await getEndpointOrThrow(ctx, endpointId)));

/** The endpoint as saved, with `warnings` (empty, or why its host could not be checked now). */
export const createEndpoint = projectVerb("webhook.write", async ({ actor, access, write }, input: CreateEndpointInput) => {
  const warnings = await requireSafeUrl(input.url);
  return write(async (tx) => {
    const [row] = await tx
      .insert(endpoints)
      .values({
        projectId: access.project.id,
        url: input.url,
        description: input.description || null,
        eventTypes: input.eventTypes ?? [],
        enabled: input.enabled ?? true,
        createdBy: actor.userId,
      })
      .returning();
    return audited(
      { ...presentEndpoint(row!), warnings },
      {
        action: "webhook.endpoint_created",
        targetType: "webhook_endpoint",
        targetId: row!.id,
        data: { host: hostOf(row!.url), eventTypes: row!.eventTypes, enabled: row!.enabled },
      },
    );
  });
});

/**
 * Changes what the body names, answering the endpoint with `warnings` as createEndpoint does. Deliveries still pending follow the endpoint: a new URL is where
 * they go next, and disabling it fails them (they can be re-sent once it is enabled again).
 */
export const updateEndpoint = projectVerb("webhook.write", async (ctx, { endpointId, ...input }: UpdateEndpointInput & { endpointId: string }) => {
  const before = await getEndpointOrThrow(ctx, endpointId);
  const warnings = input.url !== undefined ? await requireSafeUrl(input.url) : [];
  return ctx.write(async (tx) => {
    const [row] = await tx
      .update(endpoints)
      .set({
        ...(input.url !== undefined ? { url: input.url } : {}),
        ...(input.description !== undefined ? { description: input.description || null } : {}),
        ...(input.eventTypes !== undefined ? { eventTypes: input.eventTypes } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(endpoints.id, endpointId), eq(endpoints.projectId, ctx.access.project.id)))
      .returning();
    if (!row) throw new NotFoundError(`Webhook endpoint ${endpointId} was not found.`);
    const pending = and(eq(deliveries.endpointId, row.id), eq(deliveries.status, "pending"));
    if (input.url !== undefined) await tx.update(deliveries).set({ url: row.url }).where(pending);
    if (input.enabled === false) {
      await tx.update(deliveries).set({ status: "failed", lastError: "The endpoint was disabled." }).where(pending);
    }
    return audited(
      { ...presentEndpoint(row), warnings },
      {
        action: "webhook.endpoint_updated",
        targetType: "webhook_endpoint",
        targetId: row.id,
        data: {
          host: hostOf(row.url),
          changed: Object.keys(input),
          changes: endpointChanges(before, row),
          ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        },
      },
    );
  });
});

/** Deletes the endpoint and its delivery log. */
export const deleteEndpoint = projectVerb("webhook.write", async (ctx, endpointId: string) => {
  const row = await getEndpointOrThrow(ctx, endpointId);
  await ctx.write(async (tx) => {
    await tx.delete(endpoints).where(and(eq(endpoints.id, row.id), eq(endpoints.projectId, ctx.access.project.id)));
    return audited(undefined, { action: "webhook.endpoint_deleted", targetType: "webhook_endpoint", targetId: row.id, data: { host: hostOf(row.url) } });
  });
});
