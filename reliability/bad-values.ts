import fc from "fast-check";

// fast-check arbitraries for bad input: values generated from a JSON Schema (the zod schemas of
// the route table, through z.toJSONSchema), mutations of a valid value (a field dropped, an
// unknown one added, a value of the wrong type, null, huge, odd unicode, deeply nested, out
// of range), and request bodies and query strings made of them, raw junk included.

export type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
};

const smallJson = fc.jsonValue({ maxDepth: 2 });

/** Values a schema describes (bounded in size: long strings come from the mutations). */
export function valueOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map(valueOf));
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type) => valueOf({ ...schema, type })));
  switch (schema.type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
    case "number":
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case "string":
      if (schema.format === "uuid") return fc.uuid();
      if (schema.format === "email") return fc.emailAddress();
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? Infinity));
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40), unit: "grapheme" });
    case "array":
      return fc.array(schema.items ? valueOf(schema.items) : smallJson, { maxLength: 4 });
    case "object":
      return objectOf(schema);
    default:
      return smallJson;
  }
}

function objectOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.properties) {
    const fields = Object.fromEntries(Object.entries(schema.properties).map(([key, property]) => [key, valueOf(property)]));
    return fc.record(fields, { requiredKeys: schema.required ?? [] });
  }
  const values = typeof schema.additionalProperties === "object" ? valueOf(schema.additionalProperties) : smallJson;
  const keys = schema.propertyNames ? (valueOf(schema.propertyNames) as fc.Arbitrary<string>) : fc.string({ maxLength: 20 });
  return fc.dictionary(keys, values, { maxKeys: 5 });
}

/** An object whose own key is "__proto__" (an object literal would set the prototype instead). */
const protoKey = (value: unknown) => JSON.parse(`{"__proto__": ${JSON.stringify(value)}}`) as Record<string, unknown>;

function nested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

/** Values no field of this API takes as they are: wrong types, edges of numbers, strings that break things. */
export const badValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    -0.000001,
    1e308,
    -1e308,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 53 + 2,
    "",
    " ",
    "\t\n",
    "\u0000",
    "a\u0000b",
    "\ud800",
    "x\udfffy",
    "\ufeff",
    "\u202e\u0041",
    "𝕳𝖊𝖑𝖑𝖔 👩‍👩‍👧‍👦",
    "<script>alert(1)</script>",
    "' OR '1'='1' --",
    "../../../../etc/passwd",
    "%00%2e%2e%2f",
    "${jndi:ldap://x}",
    "{{constructor.constructor('x')()}}",
    "00000000-0000-0000-0000-000000000000",
    "1e400",
    "NaN",
    [],
    {},
    [null],
    protoKey({ polluted: true }),
    { constructor: { prototype: { polluted: true } } },
  ),
  fc.string({ unit: "binary", maxLength: 60 }),
  fc.string({ unit: "grapheme", maxLength: 60 }),
  fc.integer({ min: 1_000, max: 200_000 }).map((n) => "x".repeat(n)),
  fc.integer({ min: 2, max: 200 }).map((depth) => nested(depth, 1)),
  fc.double(),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map((n) => Number(n)),
  fc.array(fc.integer(), { minLength: 1, maxLength: 2000 }),
  smallJson,
);

/** A key this API never takes. */
const unknownKey = fc.oneof(fc.constantFrom("id", "slug", "status", "createdAt", "projectId", "__proto__", "constructor", "", " ", "a.b", "𝕏"), fc.string({ maxLength: 30 }));

type Mutation = { label: string; value: unknown };

/** One change to a valid object: each field dropped, replaced or made wrong; fields added; the whole value replaced. */
export function mutationOf(valid: Record<string, unknown>, schema?: JsonSchema): fc.Arbitrary<Mutation> {
  const keys = Object.keys({ ...valid, ...schema?.properties });
  const withKey = (key: string, value: unknown) => (key === "__proto__" ? { ...valid, ...protoKey(value) } : { ...valid, [key]: value });
  const options: fc.Arbitrary<Mutation>[] = [
    fc.tuple(unknownKey, badValue).map(([key, value]) => ({ label: "extra field", value: withKey(key, value) })),
    badValue.map((value) => ({ label: "whole body replaced", value })),
  ];
  if (keys.length > 0) {
    const key = fc.constantFrom(...keys);
    options.push(
      key.map((k) => ({ label: `${k} missing`, value: Object.fromEntries(Object.entries(valid).filter(([name]) => name !== k)) })),
      fc.tuple(key, badValue).map(([k, value]) => ({ label: `${k} bad`, value: withKey(k, value) })),
      fc.tuple(key, badValue).map(([k, value]) => ({ label: `${k} nested bad`, value: withKey(k, { ...(typeof valid[k] === "object" ? valid[k] : {}), [k]: value }) })),
    );
  }
  if (schema) options.push(valueOf(schema).map((value) => ({ label: "from the schema", value })));
  return fc.oneof(...options);
}

// ── bodies ───────────────────────────────────────────────────────────────────────────

export type BodyCase = { label: string; contentType: string | null; text: string };

/** Text no JSON parser should take, or should take only as something else than an object. */
function rawJunk(validText: string): fc.Arbitrary<BodyCase> {
  const json = "application/json";
  return fc.oneof(
    fc.nat({ max: Math.max(0, validText.length - 1) }).map((cut) => ({ label: "truncated JSON", contentType: json, text: validText.slice(0, cut) })),
    fc
      .constantFrom("", " ", "{", "}", "[", "null", "nul", "{}}", "{,}", '{"a":}', '{"a":1,}', "{'a':1}", "NaN", "Infinity", "-", "1e99999", '"\\ud800"', "[".repeat(50_000), "/* */{}", "\u0000")
      .map((text) => ({ label: "malformed JSON", contentType: json, text })),
    fc.constant({ label: "BOM before JSON", contentType: json, text: `\ufeff${validText}` }),
    fc.constant({ label: "duplicate keys", contentType: json, text: validText.replace(/^\{/, `{${validText.slice(1, -1)},`) }),
    fc.constant({ label: "larger than 1 MB", contentType: json, text: `${validText.slice(0, -1)}${validText.length > 2 ? "," : ""}"pad":"${"x".repeat(1024 * 1024)}"}` }),
    fc
      .constantFrom(null, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonx", "json", "application/json; charset=utf-16", "application/problem+json", "*/*")
      .map((contentType) => ({ label: `Content-Type ${contentType ?? "missing"}`, contentType, text: validText })),
    fc.string({ unit: "binary", maxLength: 200 }).map((text) => ({ label: "random text", contentType: json, text })),
  );
}

/** Bodies for an endpoint that takes `valid`: mutations of it, values of its schema, raw junk. */
export function bodyCases(valid: Record<string, unknown>, schema?: JsonSchema): fc.Arbitrary<BodyCase> {
  const validText = JSON.stringify(valid);
  const asJson = ({ label, value }: Mutation): BodyCase => ({ label, contentType: "application/json", text: JSON.stringify(value) ?? "" });
  return fc.oneof(
    { weight: 6, arbitrary: mutationOf(valid, schema).map(asJson) },
    { weight: 2, arbitrary: mutationOf(valid, schema).chain((first) => mutationOf(typeof first.value === "object" && first.value && !Array.isArray(first.value) ? (first.value as Record<string, unknown>) : valid, schema)).map(asJson) },
    { weight: 2, arbitrary: rawJunk(validText) },
  );
}

// ── query strings ────────────────────────────────────────────────────────────────────

export type QueryCase = { label: string; query: string };

const queryValue = fc.oneof(
  badValue.map((value) => (typeof value === "string" ? value : JSON.stringify(value) ?? "")),
  fc.integer({ min: 8_000, max: 20_000 }).map((n) => "q".repeat(n)),
);

/** Query strings for an endpoint that takes `valid`: a parameter dropped, added, repeated, bad; raw escapes. */
export function queryCases(valid: Record<string, string>, schema?: JsonSchema): fc.Arbitrary<QueryCase> {
  const encode = (params: [string, string][]) => new URLSearchParams(params).toString();
  const entries = Object.entries(valid);
  const keys = [...new Set([...Object.keys(valid), ...Object.keys(schema?.properties ?? {})])];
  const options: fc.Arbitrary<QueryCase>[] = [
    fc.tuple(unknownKey, queryValue).map(([key, value]) => ({ label: "extra parameter", query: encode([...entries, [key, value]]) })),
    fc
      .constantFrom("%", "%zz", "%E0%A4%A", "%C0%AF", "%00", "a=%ff%fe", "&&&", "=", "a", "a[]=1&a[]=2", "a[b]=c", "+", "%2B%2b", "?", "#x", ";a=1")
      .map((raw) => ({ label: "raw escapes", query: entries.length ? `${encode(entries)}&${raw}` : raw })),
  ];
  if (keys.length > 0) {
    const key = fc.constantFrom(...keys);
    options.push(
      key.map((k) => ({ label: `${k} missing`, query: encode(entries.filter(([name]) => name !== k)) })),
      fc.tuple(key, queryValue).map(([k, value]) => ({ label: `${k} bad`, query: encode([...entries.filter(([name]) => name !== k), [k, value]]) })),
      fc.tuple(key, queryValue).map(([k, value]) => ({ label: `${k} twice`, query: encode([...entries, [k, value]]) })),
    );
  }
  if (schema) {
    options.push(
      valueOf(schema).map((value) => ({
        label: "from the schema",
        query: encode(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])),
      })),
    );
  }
  return fc.oneof(...options);
}
