import { defineRoute } from "@/lib/api/define-route";
import { ingestPreflight } from "@/lib/api/ingest-preflight";
import { ingestResultSchema } from "@/lib/ingest/contract";
import { handleEventBatch } from "@/lib/ingest/handle-ingest";

// The ingest handler (lib/ingest/handle-ingest.ts) checks the token, the Origin, the limits and the events
// itself, and answers its own errors (with CORS headers, so the SDK can read them).

/** The body: a batch of wire events, as the event schema (components.schemas.AnalyticsEvent) defines it. */
const eventBatchBody = { $ref: "#/components/schemas/AnalyticsEvent/$defs/batch" };

export const POST = defineRoute(
  {
    path: "/analytics/v1/events",
    operationId: "sendEventBatch",
    tag: "Ingest",
    summary:
      "A batch of player events (the tracking SDK sends them; served at the ingest URL, which may be another origin): answered once committed; a retried event_id is stored once; events the schema refuses are counted in the project's quarantine",
    access: "ingest",
    ownBody: { jsonSchema: { mediaTypes: ["application/json"], schema: eventBatchBody } },
    rateLimited: true,
    responses: { 202: { description: "Stored", schema: ingestResultSchema } },
    errors: {
      403: "This Origin may not send events with this token",
      413: "The body is larger than 512 KB, or holds more than 500 events",
      429: "Too many events for the token, the project or the address",
    },
  },
  ({ req }) => handleEventBatch(req),
);

// The SDK's fetch.
export const OPTIONS = ingestPreflight("/analytics/v1/events", "preflightEventBatch");
