import Ajv2020 from "ajv/dist/2020";
import { describe, expect, it } from "vitest";
import eventSchema from "@/lib/ingest/event-schema-v1.json";
import { GET } from "./route";

const consentEvent = {
  event_id: "0b6f2c0e-5d1a-4f7e-9a53-3c2d8e4f1a90",
  event_type: "consent.accepted",
  occurred_at: "2026-11-21T10:00:00.123Z",
  playback_id: null,
  payload: { source: "banner" },
  organization_id: "5f0c3b8a-1d2e-4c6f-8a9b-0e1d2c3b4a59",
  project_id: "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d",
  template_id: "3e2d1c0b-9a8f-4e7d-8c6b-5a4f3e2d1c0b",
  template_version: "1.0",
  session_id: "c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f",
  consent: { status: "granted" },
};

describe("GET /analytics/v1/event-schema-v1.json", () => {
  it("serves the schema file as a public, cacheable application/schema+json document", async () => {
    const response = GET();
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/schema+json");
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=3600");
    expect(await response.json()).toEqual(eventSchema);
  });

  it("is a valid JSON Schema 2020-12 that a strict ajv compiles", async () => {
    const served = (await GET().json()) as Record<string, unknown>;
    expect(served.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    // A third party's ajv: it knows the date-time format only as a name, and still compiles strictly.
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, formats: { "date-time": true } });
    expect(ajv.validateSchema(served), JSON.stringify(ajv.errors)).toBe(true);
    const validate = ajv.compile(served);
    expect(validate({})).toBe(false);
    expect(validate(consentEvent), JSON.stringify(validate.errors)).toBe(true);
    expect(ajv.getSchema(`${String(served.$id)}#/$defs/batch`)).toBeTypeOf("function");
  });
});
