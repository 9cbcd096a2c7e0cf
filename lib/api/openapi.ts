import { z } from "zod";
import { minimumRole } from "@/lib/auth/permissions";
import { problemSchema } from "@/lib/errors";
import { scopeOfAction, tokenScopes, type TokenScope } from "@/lib/auth/token-scopes";
import type { Role } from "@/lib/db/schema";
import { webhookPayloadSchemas } from "@/lib/webhooks/contract";
// With its attribute: Node's own ESM loader (scripts run by tsx, Playwright) requires it.
import eventSchema from "@/lib/ingest/event-schema-v1.json" with { type: "json" };
import { retryAfterHeader, replayedHeader, tagDescriptions, tags, type ErrorStatus, type HttpMethod, type Operation, type RouteContract, type SuccessResponse } from "./contract";

// The OpenAPI 3.1 document, built from the contracts the route files declare (defineRoute,
// ./define-route.ts): the same zod schemas the wrapper validates with. app/api/route-modules.ts
// lists the route modules; GET /api/openapi.json serves the document.

const httpMethods = ["get", "post", "put", "patch", "delete", "options"] as const satisfies HttpMethod[];

/** Every operation a set of route modules declares: each exported method that carries a contract. */
export function operationsOf(modules: readonly object[]): Operation[] {
  return modules.flatMap((module) =>
    httpMethods.flatMap((method) => {
      const route = (module as Record<string, unknown>)[method.toUpperCase()];
      const contract = typeof route === "function" ? (route as { contract?: RouteContract }).contract : undefined;
      return contract ? [{ ...contract, method }] : [];
    }),
  );
}

/**
 * Who may call an operation, as the document (x-access) and the route matrix name it: the minimum
 * role of its action on the project or organization; "user": any authenticated user, about
 * themselves; "credential": HTTP Basic apiKey:apiSecret; "public": no authentication (a signed
 * URL may still be its authorization); "ingest": an ingest token; "admin-channel": the CLI's secret;
 * "session": the caller's own console session only (tokens get 403).
 * `scope`: the scope a personal access token needs for it, beside the role.
 */
export function accessOf(op: RouteContract): { role: Role | "user" | "session" | "credential" | "public" | "ingest" | "admin-channel"; scope?: TokenScope } {
  const { access } = op;
  if (access === "signed-in") return { role: "user" };
  if (access === "console-session") return { role: "session" };
  if (typeof access === "string") return { role: access };
  if ("account" in access) return { role: "user", scope: scopeOfAction[access.account] };
  const action = "project" in access ? access.project : access.organization;
  return { role: minimumRole[action], scope: scopeOfAction[action] };
}

/**
 * A standalone JSON Schema placed at `at` in this document: its `$id` goes (OpenAPI tools resolve
 * `$ref` against the document, not against an embedded `$id`) and its own references are
 * rewritten to point where it now lives ("#/$defs/x" → "<at>/$defs/x", "#" → "<at>").
 */
function embedded(schema: object, at: string): object {
  const { $id: _id, $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  return JSON.parse(JSON.stringify(rest), (key, value: unknown) =>
    key === "$ref" && typeof value === "string" && value.startsWith("#") ? `${at}${value.slice(1)}` : value,
  ) as object;
}

function describeAccess(op: Operation) {
  const { role, scope } = accessOf(op);
  const x = { "x-access": { role, ...(scope ? { scope } : {}) } };
  if (role === "credential") return { ...x, description: "Authenticated with an API credential: HTTP Basic apiKey:apiSecret.", security: [{ apiCredential: [] }] };
  if (role === "ingest") return { ...x, description: "Authenticated with an ingest token from the page manifest.", security: [{ ingestToken: [] }] };
  if (role === "public") return { ...x, description: "Public: no authentication.", security: [] };
  if (role === "session") return { ...x, description: "A signed-in console session (the session cookie), about the caller only; a personal access token gets 403.", security: [] };
  const who = role === "user" ? "Any authenticated user; about the caller only." : `Minimum role: ${role}.`;
  if (!scope) return { ...x, description: who };
  // OpenAPI 3.1 lets a non-OAuth scheme's requirement name the roles it needs: here the token scope.
  return { ...x, description: `${who} A token needs the ${scope} scope.`, security: [{ bearer: [scope] }] };
}

const jsonSchema = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { io, unrepresentable: "any" });

function pathParameters(op: Operation) {
  return [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name = ""]) => {
    const declared = op.params?.[name];
    return {
      name,
      in: "path",
      required: true,
      schema: declared ? jsonSchema(declared, "input") : /(^id|Id)$/.test(name) ? { type: "string", format: "uuid" } : { type: "string" },
    };
  });
}

function queryParameters(query: z.ZodObject | undefined) {
  if (!query) return [];
  const schema = jsonSchema(query, "input") as { properties?: Record<string, object>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    in: "query",
    required: schema.required?.includes(name) ?? false,
    schema: property,
  }));
}

const idempotencyKeyParameter = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description: "Sent again with the same request, the first answer is replayed (Idempotent-Replayed: true) instead of doing it twice; 409 while the first is still in flight",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
};

/** Authenticated by withActor: a bearer token or the console's session cookie. */
const sessionAuthenticated = (op: Operation) => typeof op.access !== "string" || op.access === "signed-in" || op.access === "console-session";

/**
 * The error statuses of an operation, from its facts: the body it reads, how it authenticates,
 * its path, its limits, whether anything behind it can be unavailable; then its own `errors`.
 * Viewer is every member's least role, so a role check alone never answers 403 there (a
 * non-member gets 404); a token's missing scope does, whatever the role.
 */
export function errorStatusesOf(op: Operation): Partial<Record<ErrorStatus, string>> {
  const errors: Partial<Record<ErrorStatus, string>> = {};
  const { role, scope } = accessOf(op);
  if (op.body || op.ownBody?.json) {
    errors[400] = "Malformed JSON";
    errors[413] = "The body is larger than 1 MB";
    errors[415] = op.ownBody?.csv ? "Neither application/json nor text/csv" : "Not application/json";
    errors[422] = "Validation failed; errors lists each path";
  }
  if (op.ownBody?.jsonSchema) {
    errors[400] = "Malformed JSON";
    errors[415] = `Not ${op.ownBody.jsonSchema.mediaTypes.join(" or ")}`;
    errors[422] = "Validation failed; errors lists each path";
  }
  if (op.ownBody?.multipart) errors[415] = "Not multipart/form-data";
  if (op.query || op.ownBody?.multipart || op.idempotent) errors[422] = "Validation failed; errors lists each path";
  if (role === "credential") errors[401] = "Missing, wrong or revoked API credential";
  else if (role === "ingest") errors[401] = "Missing, invalid or expired ingest token";
  else if (sessionAuthenticated(op)) errors[401] = "Missing or invalid bearer token or session";
  if (role === "session") errors[403] = "A personal access token (only a console session may), or a console session's request from another origin";
  if (scope) {
    const byRole = role !== "user" && role !== "Viewer" ? `The caller's role is below ${role}, or the` : "The";
    const unsafe = op.method === "get" ? "" : "; a read-only token, or a console session's request from another origin";
    errors[403] = `${byRole} token's scopes do not cover ${scope}${unsafe}`;
  }
  // A console session's unsafe request must carry a JSON, multipart or CSV type (lib/api/same-origin.ts: a form cannot forge it).
  if (sessionAuthenticated(op) && op.method !== "get" && !errors[415]) errors[415] = "A console session's request with a body type a form can send";
  if (/\{\w+\}/.test(op.path)) errors[404] = op.path.startsWith("/api/Projects/") ? "No such project, or no access to it; or no such resource in it" : "Not found";
  if (op.rateLimited) errors[429] = "Too many requests; Retry-After says when to try again";
  if (!op.offline) errors[503] = "The database (or blob store) cannot be reached now; Retry-After says when to try again";
  return { ...errors, ...op.errors };
}

const problemResponse = (status: number, description: string) => ({
  description,
  ...(status === 401 || status === 429 || status === 503
    ? {
        headers: {
          ...(status === 401 ? { "WWW-Authenticate": { description: "The scheme to authenticate with (Bearer or Basic)", required: true, schema: { type: "string" } } } : {}),
          ...(status !== 401 ? { "Retry-After": retryAfterHeader } : {}),
        },
      }
    : {}),
  content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
});

function successResponse(op: Operation, status: number, response: SuccessResponse) {
  const content: Record<string, { schema: object }> = {};
  if (response.schema) content["application/json"] = { schema: jsonSchema(response.schema, "output") };
  for (const [mediaType, schema] of Object.entries(response.media ?? {})) content[mediaType] = { schema };
  const headers = { ...(op.idempotent && status < 300 ? { "Idempotent-Replayed": replayedHeader } : {}), ...response.headers };
  return {
    description: response.description,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(Object.keys(content).length > 0 ? { content } : {}),
  };
}

function requestBodyOf(op: Operation) {
  const content: Record<string, object> = {};
  const own = op.ownBody ?? {};
  const json = op.body ?? own.json;
  if (json) content["application/json"] = { schema: jsonSchema(json, "input") };
  if (own.csv) content["text/csv"] = { schema: { type: "string", description: "UTF-8; a header row, then one recipient a line; `,` or `;`" } };
  for (const mediaType of own.jsonSchema?.mediaTypes ?? []) content[mediaType] = { schema: own.jsonSchema!.schema };
  if (own.multipart) content["multipart/form-data"] = { schema: jsonSchema(own.multipart, "input") };
  if (own.bytes) content["application/octet-stream"] = { schema: { type: "string", format: "binary" } };
  return Object.keys(content).length > 0 ? { requestBody: { required: op.bodyOptional !== true, content } } : {};
}

function operationObject(op: Operation) {
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(op.responses)) responses[status] = successResponse(op, Number(status), response);
  for (const [status, description] of Object.entries(errorStatusesOf(op))) responses[status] = problemResponse(Number(status), description);
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    ...describeAccess(op),
    parameters: [...pathParameters(op), ...queryParameters(op.query), ...(op.idempotent ? [idempotencyKeyParameter] : [])],
    ...requestBodyOf(op),
    responses,
  };
}

/** OpenAPI 3.1 `webhooks`: what each event POSTs to an endpoint, with the Standard Webhooks headers. */
function webhookOperations() {
  const signatureHeaders = [
    { name: "webhook-id", in: "header", required: true, description: "The message id: the same for every attempt of one event", schema: { type: "string" } },
    { name: "webhook-timestamp", in: "header", required: true, description: "Unix seconds when this attempt was signed", schema: { type: "string", pattern: "^[0-9]+$" } },
    {
      name: "webhook-signature",
      in: "header",
      required: true,
      description: "v1,<base64 HMAC-SHA256> of `{id}.{timestamp}.{body}` with the signing secret; during a rotation also one with the previous secret, space-separated",
      schema: { type: "string" },
    },
  ];
  return Object.fromEntries(
    Object.entries(webhookPayloadSchemas).map(([type, schema]) => [
      type,
      {
        post: {
          operationId: `receive${type.split(/[._]/).map((word) => word[0]!.toUpperCase() + word.slice(1)).join("")}Event`,
          tags: ["Webhooks"],
          summary: `The ${type} event, POSTed to each enabled endpoint that takes it (retried with backoff for 24 h until it answers 2xx)`,
          parameters: signatureHeaders,
          requestBody: { required: true, content: { "application/json": { schema: jsonSchema(schema, "output") } } },
          responses: { 200: { description: "Any 2xx: delivered" } },
        },
      },
    ]),
  );
}

/** The document of the operations the route modules declare (app/api/route-modules.ts), served at serverUrl. */
export function buildOpenApiDocument(serverUrl: string, routeModules: readonly object[]) {
  const operations = operationsOf(routeModules).sort((a, b) => a.path.localeCompare(b.path));
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    if (op.internal) continue;
    paths[op.path] ??= {};
    paths[op.path]![op.method] = operationObject(op);
  }
  return {
    openapi: "3.1.0",
    info: { title: "Reelbind management API", version: "1" },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
    tags: tags.filter((tag) => operations.some((op) => !op.internal && op.tag === tag)).map((name) => ({ name, description: tagDescriptions[name] })),
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: `Personal access token (rbk_…). A call needs the user's role and the token's scope; scopes: ${tokenScopes.join(", ")} (read covers every read, each write scope the changes to its resource).`,
        },
        apiCredential: { type: "http", scheme: "basic", description: "API credential: apiKey (pk_…) as user name, apiSecret (sk_…) as password" },
        ingestToken: { type: "http", scheme: "bearer", description: "The ingest token of a page manifest (GET /api/embed/manifest); the consent beacon carries it in its body instead" },
      },
      schemas: { Problem: jsonSchema(problemSchema, "output"), AnalyticsEvent: embedded(eventSchema, "#/components/schemas/AnalyticsEvent") },
    },
    paths,
    webhooks: webhookOperations(),
  };
}
