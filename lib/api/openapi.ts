import { z } from "zod";
import {
  createCredentialBody,
  createdCredentialSchema,
  credentialSchema,
  listCredentialsQuery,
} from "@/lib/credentials/schema";
import { auditEventPageSchema, listAuditEventsQuery } from "@/lib/audit/schema";
import type { Role } from "@/lib/db/schema";
import { channelSchema, putShareBody, rotatedSlugSchema, shareSchema } from "@/lib/shares/schema";

// The OpenAPI 3.1 document, generated from the same zod schemas the handlers validate with.

const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

type Operation = {
  method: "get" | "post" | "put" | "delete";
  path: string;
  summary: string;
  role: Role;
  query?: z.ZodObject;
  body?: z.ZodType;
  responses: Record<number, { description: string; schema?: z.ZodType }>;
};

const listOf = (item: z.ZodType) => z.object({ items: z.array(item) });

const shares = "/api/Projects/{projectId}/public-video-shares";

const operations: Operation[] = [
  {
    method: "get",
    path: shares,
    summary: "List the project's public video shares (at most one per channel)",
    role: "Viewer",
    responses: { 200: { description: "The shares", schema: listOf(shareSchema) } },
  },
  {
    method: "put",
    path: `${shares}/{channel}`,
    summary: "Create or replace the channel's share (idempotent; omitted optional fields become null)",
    role: "ProjectManager",
    body: putShareBody,
    responses: {
      200: { description: "The share was replaced (or already had this configuration)", schema: shareSchema },
      201: { description: "The share was created, Enabled, with a new slug", schema: shareSchema },
    },
  },
  {
    method: "post",
    path: `${shares}/{channel}/disable`,
    summary: "Disable the share: its URL answers 404 (no-op when already disabled)",
    role: "ProjectManager",
    responses: { 200: { description: "The share", schema: shareSchema } },
  },
  {
    method: "post",
    path: `${shares}/{channel}/restore`,
    summary: "Restore a disabled share (no-op when already enabled)",
    role: "ProjectManager",
    responses: { 200: { description: "The share", schema: shareSchema } },
  },
  {
    method: "post",
    path: `${shares}/{channel}/rotate-slug`,
    summary: "Give the share a new slug; the previous URL answers 404 forever",
    role: "ProjectManager",
    responses: { 200: { description: "The previous slug, the new one and the share", schema: rotatedSlugSchema } },
  },
  {
    method: "get",
    path: "/api/Projects/{projectId}/audit-events",
    summary: "The project's audit trail, newest first, paginated by cursor",
    role: "Viewer",
    query: listAuditEventsQuery,
    responses: { 200: { description: "A page of audit events", schema: auditEventPageSchema } },
  },
  {
    method: "get",
    path: "/api/credentials",
    summary: "List a project's API credentials (never the secret)",
    role: "ProjectManager",
    query: listCredentialsQuery,
    responses: { 200: { description: "The credentials", schema: listOf(credentialSchema) } },
  },
  {
    method: "post",
    path: "/api/credentials",
    summary: "Create an API credential; the secret is returned only here",
    role: "ProjectManager",
    body: createCredentialBody,
    responses: { 201: { description: "The new credential with its secret", schema: createdCredentialSchema } },
  },
  {
    method: "post",
    path: "/api/credentials/{id}/revoke",
    summary: "Revoke an API credential (idempotent)",
    role: "ProjectManager",
    responses: { 200: { description: "The revoked credential", schema: credentialSchema } },
  },
];

const jsonSchema = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { io, unrepresentable: "any" });

function pathParameters(path: string) {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    schema: name === "channel" ? jsonSchema(channelSchema, "input") : { type: "string", format: "uuid" },
  }));
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

const problemResponse = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
});

export function buildOpenApiDocument(serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(op.responses)) {
      responses[status] = {
        description: response.description,
        ...(response.schema ? { content: { "application/json": { schema: jsonSchema(response.schema, "output") } } } : {}),
      };
    }
    Object.assign(responses, {
      400: problemResponse("Malformed JSON"),
      401: problemResponse("Missing or invalid bearer token"),
      403: problemResponse(`Role below ${op.role}`),
      404: problemResponse("Not found, or no access to the project"),
      422: problemResponse("Validation failed; errors lists each path"),
    });
    paths[op.path] ??= {};
    paths[op.path]![op.method] = {
      summary: op.summary,
      description: `Minimum role: ${op.role}.`,
      parameters: [...pathParameters(op.path), ...queryParameters(op.query)],
      ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(op.body, "input") } } } } : {}),
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Reelbind management API", version: "1" },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "Personal access token (rbk_…)" } },
      schemas: { Problem: jsonSchema(problemSchema, "output") },
    },
    paths,
  };
}
