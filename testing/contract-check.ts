import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { buildOpenApiDocument } from "@/lib/api/openapi";

// The contract check (docs/adr/0144-contract-check.md): every answer the built server gave the
// browser and reliability suites, recorded by scripts/serve.mjs under REELBIND_CONTRACT_LOG,
// held against the OpenAPI document. An operation or status the document does not declare, a
// media type it does not list for that status, a JSON body its schema refuses, or a header it
// declares required and the answer lacks, is a mismatch.

/** One line of the log scripts/serve.mjs writes. */
export type ContractRecord = {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string | string[] | number>;
  bodyBytes: number;
  body?: unknown;
  unparsableBody?: string;
};

type MediaType = { schema?: object };
type Header = { required?: boolean };
type Response = { content?: Record<string, MediaType>; headers?: Record<string, Header> };
type OperationObject = { responses: Record<string, Response> };
/** The OpenAPI document: the one the app serves at /api/openapi.json, or one built in process (scripts/openapi-document.ts). */
export type OpenApiDocument = Omit<ReturnType<typeof buildOpenApiDocument>, "paths"> & { paths: Record<string, Record<string, OperationObject>> };

/**
 * Paths the document leaves out on purpose, whose answers are not checked: the CLI's channel,
 * next-auth's and UploadThing's own protocols (no contract, or an `internal` one), and the API
 * reference page, an HTML page under /api (app/api/docs/page.tsx).
 */
const undocumentedPaths: [RegExp, string][] = [
  [/^\/api\/(internal\/|auth\/|uploadthing$)/, "internal route"],
  [/^\/api\/docs$/, "the API reference page"],
];

export type ContractReport = { checked: number; skipped: Record<string, number>; mismatches: string[] };

type PathTemplate = { template: string; pattern: RegExp; literalSegments: number };

function pathTemplates(document: OpenApiDocument): PathTemplate[] {
  return Object.keys(document.paths)
    .map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}/g, "[^/]+")}$`),
      literalSegments: template.split("/").filter((segment) => !segment.startsWith("{")).length,
    }))
    // /templates/upload before /templates/{templateId}: the route with more literal segments wins, as in Next.
    .sort((a, b) => b.literalSegments - a.literalSegments);
}

/** JSON Pointer escaping of one reference token (RFC 6901). */
const pointer = (token: string) => token.replaceAll("~", "~0").replaceAll("/", "~1");

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

const mediaTypeOf = (headers: ContractRecord["headers"]) => String(headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();

/** Checks records against the document. */
export function checkContract(records: ContractRecord[], document: OpenApiDocument): ContractReport {
  const ajv = new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  // OpenAPI's own format for a file's bytes; never a JSON value.
  ajv.addFormat("binary", true);
  ajv.addSchema(document, "openapi");
  const templates = pathTemplates(document);
  const report: ContractReport = { checked: 0, skipped: {}, mismatches: [] };
  const skip = (reason: string) => (report.skipped[reason] = (report.skipped[reason] ?? 0) + 1);
  const seen = new Set<string>();

  for (const record of records) {
    let where = record.path;
    const mismatch = (message: string) => {
      // The same mismatch from many calls is listed once, by the operation's path template.
      const line = `${record.method} ${where} → ${record.status}: ${message}`;
      if (!seen.has(line)) report.mismatches.push(line);
      seen.add(line);
    };
    const undocumented = undocumentedPaths.find(([pattern]) => pattern.test(record.path));
    if (undocumented) {
      skip(undocumented[1]);
      continue;
    }
    // Next itself answers a path with a trailing slash or an empty segment ("/a//b", "/a/") with a
    // 308 to the path without it, before proxy.ts and any route: such a path is no path of the document.
    if (record.status === 308 && record.headers.location && /\/\/|\/$/.test(record.path)) {
      skip("308 from Next to the path without its trailing or doubled slash");
      continue;
    }
    // proxy.ts answers 400 to a path whose percent-encoding does not decode, before any route
    // (docs/adr/0060-malformed-percent-encoding.md): no path template's parameters can hold it.
    if (!decodes(record.path)) {
      if (record.status === 400 && mediaTypeOf(record.headers) === "application/problem+json") skip("400 for a path that does not percent-decode");
      else mismatch("a path that does not percent-decode is not answered 400 problem+json");
      continue;
    }
    const template = templates.find(({ pattern }) => pattern.test(record.path))?.template;
    // app/api/[...path] and app/analytics/[...path] answer 404 problem+json to every path no route has.
    if (!template) {
      if (record.status === 404 && mediaTypeOf(record.headers) === "application/problem+json") skip("404 for a path no route has");
      else mismatch("no path of the document matches");
      continue;
    }
    where = template;
    const method = record.method === "HEAD" ? "get" : record.method.toLowerCase();
    const operation = document.paths[template]![method];
    if (!operation) {
      // scripts/serve.mjs answers a method a route does not take with 405 and Allow, and Next an
      // OPTIONS the route does not export with 204 and Allow (RFC 9110): the transport's, not an operation's.
      if (record.status === 405 && record.headers.allow) skip("405 for a method the route does not take");
      else if (record.method === "OPTIONS" && record.status === 204 && record.headers.allow) skip("204 to OPTIONS with Allow");
      else mismatch(`${template} declares no ${record.method}`);
      continue;
    }
    report.checked++;
    const base = `openapi#/paths/${pointer(template)}/${method}/responses`;
    const status = String(record.status);
    const statusKey = status in operation.responses ? status : `${status[0]}XX` in operation.responses ? `${status[0]}XX` : undefined;
    if (!statusKey) {
      mismatch(`status ${status} is not declared for ${method.toUpperCase()} ${template}`);
      continue;
    }
    const response = operation.responses[statusKey]!;

    for (const [name, header] of Object.entries(response.headers ?? {})) {
      if (header.required && record.headers[name.toLowerCase()] === undefined) mismatch(`required header ${name} is missing`);
    }

    const mediaType = mediaTypeOf(record.headers);
    const hasBody = record.bodyBytes > 0 && record.method !== "HEAD";
    if (!response.content) {
      if (hasBody) mismatch(`a ${mediaType || "untyped"} body is sent, the document declares none`);
      continue;
    }
    if (!hasBody && record.method === "HEAD") continue;
    // OpenAPI's media type ranges: the most specific key that covers the answer's type.
    const declaredKey = [mediaType, `${mediaType.split("/")[0]}/*`, "*/*"].find((key) => key in response.content!);
    const declared = declaredKey ? response.content[declaredKey] : undefined;
    if (!declaredKey || !declared) {
      mismatch(`media type "${mediaType}" is not declared (declared: ${Object.keys(response.content).join(", ")})`);
      continue;
    }
    if (record.unparsableBody !== undefined) {
      mismatch(`the ${mediaType} body is not JSON: ${record.unparsableBody}`);
      continue;
    }
    // A schema describes a JSON value only under a JSON media type; under a range (*/*) the bytes are a file's.
    if (record.body === undefined || !declared.schema || !/json$/.test(declaredKey)) continue;
    const validate = ajv.getSchema(`${base}/${pointer(statusKey)}/content/${pointer(declaredKey)}/schema`);
    if (!validate) throw new Error(`No schema at ${base}/${statusKey}/content/${mediaType}`);
    if (!validate(record.body)) {
      const errors = (validate.errors ?? []).slice(0, 3).map((error) => `${error.instancePath || "/"} ${error.message}`);
      mismatch(`the body does not match its schema: ${errors.join("; ")}`);
    }
  }
  return report;
}

type WebhookOperation = { post: { parameters: { name: string; required?: boolean }[]; requestBody: { content: Record<string, { schema: object }> } } };

/**
 * Checks webhook deliveries a test's receiver got against the document's `webhooks`: the event
 * type is declared, the required headers (webhook-id, -timestamp, -signature) are there, and the
 * JSON body matches the event's payload schema. Returns one line per mismatch.
 */
export function checkWebhookDeliveries(deliveries: { headers: Record<string, unknown>; body: string }[], document: OpenApiDocument): string[] {
  const webhooks = (document as unknown as { webhooks: Record<string, WebhookOperation> }).webhooks;
  const ajv = new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addSchema(document, "openapi");
  return deliveries.flatMap(({ headers, body }, index) => {
    let payload: { type?: unknown };
    try {
      payload = JSON.parse(body) as { type?: unknown };
    } catch {
      return [`delivery ${index}: the body is not JSON`];
    }
    const type = String(payload.type);
    const operation = webhooks[type]?.post;
    if (!operation) return [`delivery ${index}: the event type ${JSON.stringify(payload.type)} is not among the document's webhooks`];
    const missing = operation.parameters.filter((parameter) => parameter.required && headers[parameter.name.toLowerCase()] === undefined);
    const validate = ajv.getSchema(`openapi#/webhooks/${pointer(type)}/post/requestBody/content/application~1json/schema`)!;
    const errors = validate(payload) ? [] : (validate.errors ?? []).slice(0, 3).map((error) => `${error.instancePath || "/"} ${error.message}`);
    return [
      ...missing.map((parameter) => `${type} delivery ${index}: header ${parameter.name} is missing`),
      ...(errors.length > 0 ? [`${type} delivery ${index}: the body does not match its schema: ${errors.join("; ")}`] : []),
    ];
  });
}

export function readContractLog(file: string): ContractRecord[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as ContractRecord);
}

export function describeReport({ checked, skipped, mismatches }: ContractReport): string {
  const skippedText = Object.entries(skipped).map(([reason, count]) => `${count} ${reason}`).join(", ") || "none";
  const head = `Contract check: ${checked} answers checked against the OpenAPI document, ${mismatches.length} mismatches (skipped: ${skippedText}).`;
  return [head, ...mismatches.map((mismatch) => `  - ${mismatch}`)].join("\n");
}

// `npx tsx testing/contract-check.ts <log>…`: checks saved logs again against the document the
// sources build now, e.g. after fixing it. (Imported here only: the suites check against the
// document their app serves.)
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { openApiDocument } = await import("@/scripts/openapi-document");
  const document = openApiDocument("http://localhost") as unknown as OpenApiDocument;
  const report = checkContract(process.argv.slice(2).flatMap(readContractLog), document);
  console.log(describeReport(report));
  process.exitCode = report.mismatches.length > 0 ? 1 : 0;
}
