import { defineRoute } from "@/lib/api/define-route";
import eventSchema from "@/lib/ingest/event-schema-v1.json";

export const dynamic = "force-static";

const body = `${JSON.stringify(eventSchema, null, 2)}\n`;

// A public document any page may fetch.
export const GET = defineRoute(
  {
    path: "/analytics/v1/event-schema-v1.json",
    operationId: "getEventSchema",
    tag: "Ingest",
    summary: "The JSON Schema (2020-12) of the wire events, as components.schemas.AnalyticsEvent here",
    access: "public",
    offline: true,
    responses: { 200: { description: "The schema", media: { "application/schema+json": { type: "object" } } } },
  },
  (): Response =>
    new Response(body, {
      headers: {
        "Content-Type": "application/schema+json",
        "Access-Control-Allow-Origin": "*",
        "Cache-Control": "public, max-age=3600",
      },
    }),
);
