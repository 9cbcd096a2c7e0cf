import { defineRoute } from "@/lib/api/define-route";
import { ingestPreflight } from "@/lib/api/ingest-preflight";
import { ingestResultSchema } from "@/lib/ingest/contract";
import { handleConsentBeacon } from "@/lib/ingest/handle-ingest";

// The ingest handler (lib/ingest/handle-ingest.ts) checks the token, the Origin, the limits and the event
// itself, and answers its own errors (with CORS headers, so the SDK can read them).

/** The beacon's body: the ingest token and one event of the event schema (components.schemas.AnalyticsEvent). */
const consentBeaconBody = {
  type: "object",
  additionalProperties: false,
  required: ["token", "event"],
  properties: { token: { type: "string", description: "The ingest token" }, event: { $ref: "#/components/schemas/AnalyticsEvent" } },
};

export const POST = defineRoute(
  {
    path: "/analytics/v1/consent",
    operationId: "sendConsentBeacon",
    tag: "Ingest",
    summary: "The consent beacon (navigator.sendBeacon, so text/plain): one consent.accepted or consent.declined event with the ingest token in the body",
    access: "ingest",
    ownBody: { jsonSchema: { mediaTypes: ["text/plain", "application/json"], schema: consentBeaconBody } },
    rateLimited: true,
    responses: { 202: { description: "Stored", schema: ingestResultSchema } },
    errors: {
      401: "The beacon carries no valid ingest token",
      403: "This Origin may not send events with this token",
      413: "The body is larger than 16 KB",
      429: "Too many events for the token, the project or the address",
    },
  },
  ({ req }) => handleConsentBeacon(req),
);

// For clients that send the beacon as application/json.
export const OPTIONS = ingestPreflight("/analytics/v1/consent", "preflightConsentBeacon");
