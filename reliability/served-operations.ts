import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { TokenScope } from "@/lib/auth/token-scopes";
import type { Role } from "@/lib/db/schema";
import { env } from "../e2e/owned-project";
import type { JsonSchema } from "./bad-values";

// The route table as the app under test serves it: the OpenAPI document at /api/openapi.json,
// which the route files' contracts build (lib/api/define-route.ts). The route matrix and the
// bad-input properties read who may call each operation (x-access), its success statuses, its
// JSON body's schema and its query parameters from there, so they test the declarations the
// app itself was built from.

export type Operation = {
  method: "get" | "post" | "put" | "patch" | "delete" | "options";
  path: string;
  operationId: string;
  /** The minimum role, or "user" (about the caller), "session" (the caller's console session only), "credential", "public", "ingest". */
  role: Role | "user" | "session" | "credential" | "public" | "ingest";
  /** The scope a personal access token needs, beside the role. */
  scope?: TokenScope;
  /** The success statuses (2xx, 3xx) the document declares. */
  successStatuses: number[];
  /** The application/json request body's schema. */
  body?: JsonSchema;
  /** The query parameters as one object schema. */
  query?: JsonSchema;
  /** A multipart/form-data body (the template upload). */
  multipart: boolean;
};

type DocumentOperation = {
  operationId: string;
  "x-access": { role: Operation["role"]; scope?: TokenScope };
  parameters?: { name: string; in: string; required: boolean; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, unknown>;
};

export async function servedOperations(): Promise<Operation[]> {
  const response = await fetch(new URL("/api/openapi.json", env("E2E_BASE_URL")), { signal: AbortSignal.timeout(30_000) });
  if (!response.ok) throw new Error(`GET /api/openapi.json answered ${response.status}`);
  const document = (await response.json()) as { paths: Record<string, Record<string, DocumentOperation>> };
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]): Operation => {
      const queryParameters = (op.parameters ?? []).filter((parameter) => parameter.in === "query");
      const content = op.requestBody?.content ?? {};
      return {
        method: method as Operation["method"],
        path,
        operationId: op.operationId,
        role: op["x-access"].role,
        ...(op["x-access"].scope ? { scope: op["x-access"].scope } : {}),
        successStatuses: Object.keys(op.responses).map(Number).filter((status) => status < 400),
        ...(content["application/json"] ? { body: content["application/json"].schema } : {}),
        ...(queryParameters.length > 0
          ? {
              query: {
                type: "object",
                properties: Object.fromEntries(queryParameters.map((parameter) => [parameter.name, parameter.schema])),
                required: queryParameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
              } as JsonSchema,
            }
          : {}),
        multipart: "multipart/form-data" in content,
      };
    }),
  );
}

/** A validator of request bodies against the document's schemas (formats checked, as the app's zod schemas check them). */
export function bodyValidator() {
  const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
  addFormats(ajv);
  const compiled = new Map<JsonSchema, ReturnType<typeof ajv.compile>>();
  return (schema: JsonSchema, value: unknown): boolean => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(schema as object);
      compiled.set(schema, validate);
    }
    return validate(value) === true;
  };
}
