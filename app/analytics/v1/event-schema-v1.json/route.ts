import eventSchema from "@/lib/ingest/event-schema-v1.json";

export const dynamic = "force-static";

const body = `${JSON.stringify(eventSchema, null, 2)}\n`;

// GET /analytics/v1/event-schema-v1.json – the wire event schema, a public document any page may fetch
export function GET(): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "application/schema+json",
      "Access-Control-Allow-Origin": "*",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
