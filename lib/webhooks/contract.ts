import { z } from "zod";
import { isExactHttpUrl } from "@/lib/shares/share-rules";
import { webhookEventTypes } from "./event-types";

export const webhookEventTypeSchema = z.enum(webhookEventTypes);

/** Where a webhook goes: an absolute http(s) URL written exactly; whether its host is public is checked apart (url-safety.ts). */
export const webhookUrlSchema = z.string().max(2048, "must be at most 2048 characters").refine(isExactHttpUrl, { error: "must be an absolute http:// or https:// URL" });

const eventTypesField = z
  .array(webhookEventTypeSchema)
  .max(webhookEventTypes.length)
  .refine((types) => new Set(types).size === types.length, { error: "must not name an event type twice" })
  .describe("The event types sent to this endpoint; empty means all");

const descriptionField = z.string().trim().max(200, "must be at most 200 characters");

export const createEndpointBody = z.strictObject({
  url: webhookUrlSchema,
  description: descriptionField.nullish(),
  eventTypes: eventTypesField.optional(),
  enabled: z.boolean().optional(),
});

export const updateEndpointBody = z
  .strictObject({
    url: webhookUrlSchema.optional(),
    description: descriptionField.nullable().optional(),
    eventTypes: eventTypesField.optional(),
    enabled: z.boolean().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { error: "must change at least one of url, description, eventTypes, enabled" });

export type CreateEndpointInput = z.infer<typeof createEndpointBody>;
export type UpdateEndpointInput = z.infer<typeof updateEndpointBody>;

export const deliveryStatusSchema = z.enum(["pending", "delivered", "failed"]);

export const listDeliveriesQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(25),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,200}$/, { error: "must be the nextCursor of a previous page" })
    .optional(),
  status: deliveryStatusSchema.optional(),
  endpointId: z.uuid({ error: "must be a webhook endpoint id (UUID)" }).optional(),
});

export type ListDeliveriesQuery = z.infer<typeof listDeliveriesQuery>;

/** Response shapes, for the OpenAPI document and the console. */
export const endpointSchema = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  url: z.string(),
  description: z.string().nullable(),
  eventTypes: z.array(webhookEventTypeSchema).describe("Empty: every event type"),
  enabled: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export const savedEndpointSchema = endpointSchema.extend({
  warnings: z.array(z.string()).describe("Empty, or why the URL's host could not be checked now (it did not resolve): each delivery checks it again"),
});

const attemptEntrySchema = z.union([
  z.object({
    at: z.iso.datetime(),
    statusCode: z.number().int().nullable(),
    error: z.string().nullable(),
    durationMs: z.number().int(),
    response: z.string().nullable().describe("The start of the receiver's answer"),
  }),
  z.object({ at: z.iso.datetime(), resent: z.literal(true) }),
]);

export const deliverySchema = z.object({
  id: z.uuid(),
  endpointId: z.uuid().nullable().describe("Null for a render's own webhookUrl"),
  url: z.string(),
  messageId: z.string().describe("The webhook-id header: the same on every attempt and re-send"),
  eventType: z.string(),
  status: deliveryStatusSchema,
  attempts: z.number().int().describe("Attempts since the delivery was queued or last re-sent"),
  nextAttemptAt: z.iso.datetime().nullable().describe("When a pending delivery is tried next"),
  retryUntil: z.iso.datetime().nullable().describe("Retries stop after this (24 h after the first attempt)"),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  attemptLog: z.array(attemptEntrySchema).describe("Every attempt (the newest 50) and every re-send"),
  payload: z.record(z.string(), z.unknown()).describe("The JSON body sent"),
  createdAt: z.iso.datetime(),
  deliveredAt: z.iso.datetime().nullable(),
});

export const deliveryPageSchema = z.object({
  items: z.array(deliverySchema),
  nextCursor: z.string().nullable().describe("Pass as ?cursor= for the next (older) page; null on the last page"),
});

export const signingSecretSchema = z.object({
  secret: z.string().regex(/^whsec_[A-Za-z0-9+/]+=*$/).describe("Standard Webhooks secret: whsec_ + base64"),
  createdAt: z.iso.datetime(),
  rotatedAt: z.iso.datetime().nullable(),
  previousSecretExpiresAt: z.iso.datetime().nullable().describe("Until then deliveries also carry a signature made with the previous secret"),
});

/** Every webhook's body: Standard Webhooks' envelope around the event's data. */
const webhookPayload = <T extends string, D extends z.ZodObject>(type: T, data: D) =>
  z.object({ type: z.literal(type), timestamp: z.iso.datetime().describe("When the event happened"), data });

const renderEventData = (status: "done" | "failed") =>
  z.object({
    renderId: z.uuid(),
    templateId: z.uuid(),
    campaignId: z.uuid().optional().describe("An email thumbnail's campaign"),
    recipientId: z.string().optional().describe("An email thumbnail's recipient"),
    status: z.literal(status),
    format: z.enum(["mp4", "gif", "png"]),
    ...(status === "failed" ? { error: z.string() } : { downloadUrl: z.url().describe("Signed, valid 24 hours"), expiresAt: z.iso.datetime() }),
    metadata: z.record(z.string(), z.unknown()).describe("The metadata the render was queued with"),
  });

/**
 * The body each event type is POSTed with (lib/renders/run-render.ts, lib/campaigns/import-recipients.ts,
 * deliveries.ts' test event): the OpenAPI document's `webhooks`.
 */
export const webhookPayloadSchemas = {
  "render.completed": webhookPayload("render.completed", renderEventData("done")),
  "render.failed": webhookPayload("render.failed", renderEventData("failed")),
  "campaign.imported": webhookPayload(
    "campaign.imported",
    z.object({
      campaignId: z.uuid(),
      importId: z.uuid(),
      templateId: z.uuid(),
      source: z.enum(["csv", "json"]),
      sha256: z.string().describe("Of the imported content"),
      mode: z.enum(["upsert", "replace"]),
      rowsDone: z.number().int().min(0),
      rowsImported: z.number().int().min(0),
      rowsUpdated: z.number().int().min(0),
      rowsUnchanged: z.number().int().min(0),
      rowsRemoved: z.number().int().min(0),
      rowsRefused: z.number().int().min(0),
      rowsDuplicate: z.number().int().min(0),
    }),
  ),
  "webhook.test": webhookPayload("webhook.test", z.object({ projectId: z.uuid(), endpointId: z.uuid(), message: z.string() })),
} as const satisfies Record<(typeof webhookEventTypes)[number] | "webhook.test", z.ZodObject>;
