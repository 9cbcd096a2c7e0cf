import { z } from "zod";
import type { AccountAction } from "@/lib/auth/token-scopes";
import type { Action } from "@/lib/auth/permissions";

// What a route declares about itself, once, in its route file (defineRoute, ./define-route.ts):
// who may call it, what it reads, what it answers. The wrapper enforces the first two; the
// OpenAPI document (./openapi.ts), the typed client and the reliability suite's route matrix
// are built from all three (docs/adr/0144-openapi-contract-check.md).

/** The areas of the API, one tag each, in the order the document lists them. */
export const tags = ["Templates", "Channels", "Uploads", "Renders", "Shares", "Analytics", "Campaigns", "Audit", "Webhooks", "Credentials", "Account", "Organizations", "Invitations", "Embed", "System", "Ingest"] as const;
export type Tag = (typeof tags)[number];

export const tagDescriptions: Record<Tag, string> = {
  Templates: "Lottie animations, or MP4s with a Lottie overlay: upload, deploy (Testing → Production → Previous), roll back, schedule a go-live, archive, preview",
  Channels: "What each channel (DEV, STAGING, PROD) serves and why; a Testing template pinned to DEV or STAGING",
  Uploads: "Direct uploads of a template's files, part by part, for files too large for one request",
  Renders: "MP4, GIF and PNG renders of a template with one viewer's data",
  Shares: "The public video share of each channel (DEV, STAGING, PROD): its landing page and player",
  Analytics: "Sessions, plays, completion and clicks of the project's shares, and the engagement heatmap",
  Campaigns: "A CSV of recipients → one personalized URL each, with its reach",
  Audit: "Who changed what in the project",
  Webhooks: "Endpoints the project's events are POSTed to, signed per Standard Webhooks",
  Credentials: "API credentials (pk_/sk_) a customer's server mints embed sessions with",
  Account: "The caller's own account and personal access tokens; password resets by mail",
  Organizations: "Projects and members of an organization",
  Invitations: "Joining an organization by an invitation",
  Embed: "What the player and the host-page SDK load: the page manifest, files, posters, embed sessions",
  System: "Health and this document",
  Ingest: "Player events and consent beacons from the tracking SDK",
};

/** The error statuses an operation may answer, always as application/problem+json. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 503;

/** A response header: its description, and whether every answer with that status carries it. */
export type HeaderSpec = { description: string; required?: boolean; schema: object };

export type SuccessResponse = {
  description: string;
  /** The application/json body. */
  schema?: z.ZodType;
  /** Bodies of other media types, each with a JSON Schema of its own ({} when it says nothing: bytes). */
  media?: Record<string, object>;
  headers?: Record<string, HeaderSpec>;
};

/**
 * Who may call the route, and how the wrapper checks it before the handler runs:
 * - `{ project }`: a member (bearer token or console session) with the action's role on the
 *   project named by the path's {projectId}, or else by the projectId of the query or the body;
 *   `{ project, checkedBy: "handler" }`: the handler finds the project (from the resource the
 *   path names) and authorizes `ctx.action` there.
 * - `{ organization }`: a member with the action's role on the organization of the path's {orgId}.
 * - `{ account }`: any signed-in caller, about their own account (the verb checks the scope).
 * - "signed-in": any signed-in caller; the handler decides what they may do (accepting an
 *   invitation: only the invited address's console session, never a token).
 * - "credential": a customer site's server, HTTP Basic apiKey:apiSecret.
 * - "public": nobody is authenticated (a signed URL or a secret in the body may still authorize);
 *   "ingest": an ingest token, checked by the ingest handler; "admin-channel": the CLI's secret.
 */
export type Access =
  | { project: Action; checkedBy?: "handler" }
  | { organization: Action }
  | { account: AccountAction }
  | "signed-in"
  /** The caller's own account, from the console only: a personal access token gets 403 (docs/adr/0162-account-page.md). */
  | "console-session"
  | "credential"
  | "public"
  | "ingest"
  | "admin-channel";

export type RouteContract = {
  /** The URL path with {name} parameters; lib/api/route-table.unit.test.ts holds it to the file's location. */
  path: string;
  /** camelCase verb + noun, unique across the document. */
  operationId: string;
  tag: Tag;
  summary: string;
  access: Access;
  /** Not in the OpenAPI document: the CLI's channel to the server. */
  internal?: true;
  /** Path parameters with a schema of their own (a value it refuses answers 404); the others are strings, `…Id` ones UUIDs in the document. */
  params?: Record<string, z.ZodType>;
  /** The query string, parsed by the wrapper (422 with every failing parameter). */
  query?: z.ZodObject;
  /** An application/json body, read by the wrapper (readJsonBody, ./request.ts): 400, 413, 415 and 422 follow. */
  body?: z.ZodType;
  /** The body may be left out (no Content-Type, nothing sent): it is then read as `{}`. For a body added to an operation that had none. */
  bodyOptional?: true;
  /** A body the handler reads itself (the wrapper leaves it alone); the document describes it by media type. */
  ownBody?: {
    /** application/json, checked by this schema in the handler: 400, 413, 415 and 422 follow as for `body`. */
    json?: z.ZodType;
    /** text/csv besides the JSON (the recipients import). */
    csv?: true;
    /** multipart/form-data: its fields, files as z.file(). */
    multipart?: z.ZodObject;
    /** A JSON body checked by a JSON Schema of its own, not zod (ingest's wire events), in these media types. */
    jsonSchema?: { mediaTypes: string[]; schema: object };
    /** Raw bytes (application/octet-stream): an upload part. */
    bytes?: true;
  };
  /** The Idempotency-Key request header is honoured; a replay carries Idempotent-Replayed: true. */
  idempotent?: true;
  /** A per-address or per-token limit answers 429 with Retry-After. */
  rateLimited?: true;
  /** Reads nothing that can be unavailable (no database, no blob store): never 503. */
  offline?: true;
  responses: Record<number, SuccessResponse>;
  /** Error statuses the facts above do not imply, or a better sentence for one they do. */
  errors?: Partial<Record<ErrorStatus, string>>;
};

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete" | "options";

/** A declared route as the document and the route table see it: the method is its export's name. */
export type Operation = RouteContract & { method: HttpMethod };

// ── pieces several contracts share ───────────────────────────────────────────────────

export const listOf = (item: z.ZodType) => z.object({ items: z.array(item) });

export const replayedHeader: HeaderSpec = {
  description: "true when this is the stored answer to an earlier request with the same Idempotency-Key (or the same content)",
  schema: { type: "string", enum: ["true"] },
};
export const retryAfterHeader: HeaderSpec = { description: "Seconds to wait before trying again", required: true, schema: { type: "string", pattern: "^[0-9]+$" } };
export const etagHeader: HeaderSpec = { description: "The bytes' SHA-256, quoted: send it as If-None-Match for a 304", required: true, schema: { type: "string" } };
export const contentRangeHeader: HeaderSpec = { description: "bytes start-end/size", required: true, schema: { type: "string" } };
export const contentDispositionHeader: HeaderSpec = { description: "attachment (or inline) with the file's name", required: true, schema: { type: "string" } };

export const bytes = { type: "string", format: "binary" };

/** A file served by a signed URL: whole, a byte range, not modified, or a range it does not have. */
export const fileResponses = (description: string, media: Record<string, object>, headers: Record<string, HeaderSpec> = {}): Record<number, SuccessResponse> => ({
  200: { description, media, headers: { ETag: etagHeader, ...headers } },
  206: { description: "The byte range asked for (Range: bytes=…)", media, headers: { ETag: etagHeader, "Content-Range": contentRangeHeader, ...headers } },
  304: { description: "Not modified (If-None-Match matched the ETag)", headers: { ETag: etagHeader } },
  416: { description: "The range lies outside the file; Content-Range gives its size", headers: { "Content-Range": { ...contentRangeHeader, description: "bytes */size" } } },
});
