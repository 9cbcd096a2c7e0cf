import Ajv2020 from "ajv/dist/2020";
import { describe, expect, it } from "vitest";
import eventSchema from "@/lib/ingest/event-schema-v1.json";
import { newTenant, wireEvent } from "@/testing/ingest";
import { GET } from "./route";

const get = () => GET(new Request("http://localhost/analytics/v1/event-schema-v1.json"));

const consentEvent = wireEvent(newTenant(), "consent.accepted");

describe("GET /analytics/v1/event-schema-v1.json", () => {
  it("serves the schema file as a public, cacheable application/schema+json document", async () => {
    const response = await get();
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/schema+json");
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=3600");
    expect(await response.json()).toEqual(eventSchema);
  });

  it("is a valid JSON Schema 2020-12 that a strict ajv compiles", async () => {
    const served = (await (await get()).json()) as Record<string, unknown>;
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
