import { z } from "zod";

// The answers of the ingest endpoints (app/analytics/v1/events and …/consent). Their bodies are
// wire events, checked by the JSON Schema lib/ingest/event-schema-v1.json, not by zod.

/** The answer ingest gives a batch or a consent beacon once its events are committed. */
export const ingestResultSchema = z.object({
  accepted: z.number().int().min(0).describe("Events stored now"),
  duplicates: z.number().int().min(0).describe("Events whose event_id was stored before (a retried batch)"),
  quarantined: z.number().int().min(0).describe("Events naming a template the project does not have: counted in its quarantine report, not stored"),
});
