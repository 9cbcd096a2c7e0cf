import { z } from "zod";
import {
  createCredentialBody,
  createdCredentialSchema,
  credentialSchema,
  listCredentialsQuery,
} from "@/lib/credentials/contract";
import {
  changeMemberRoleBody,
  acceptedInvitationSchema,
  acceptInvitationBody,
  createAccountFromInvitationBody,
  createdInvitationSchema,
  createdPersonalAccessTokenSchema,
  createOwnTokenBody,
  createProjectBody,
  invitationSchema,
  inviteMemberBody,
  memberSchema,
  meSchema,
  personalAccessTokenSchema,
} from "@/lib/accounts/contract";
import {
  analyticsQueryParams,
  engagementHeatmapSchema,
  heatmapQueryParams,
  projectAnalyticsSchema,
  quarantineQueryParams,
  quarantineReportSchema,
} from "@/lib/analytics/contract";
import { auditEventPageSchema, listAuditEventsQuery } from "@/lib/audit/contract";
import {
  campaignDetailSchema,
  campaignImportSchema,
  campaignSchema,
  createCampaignBody,
  listRecipientsQuery,
  recipientBatchBody,
  recipientPageSchema,
} from "@/lib/campaigns/contract";
import { tokenScopes, type TokenScope } from "@/lib/auth/token-scopes";
import type { Role } from "@/lib/db/schema";
import { embedSessionBody, embedSessionSchema, manifestQuery, pageManifestSchema } from "@/lib/embed/contract";
import { channelSchema, putShareBody, rotatedSlugSchema, savedShareSchema, shareSchema } from "@/lib/shares/contract";
import {
  createdRenderSchema,
  createRenderBody,
  listRendersQuery,
  listThumbnailsQuery,
  queuedThumbnailsSchema,
  renderSchema,
  thumbnailPageSchema,
} from "@/lib/renders/contract";
import { completeUploadSessionBody, createUploadSessionBody, uploadSessionSchema } from "@/lib/templates/upload-sessions/contract";
import { previewBodySchema } from "@/lib/templates/preview-contract";
import { listTemplatesQuery, previewResultSchema, templateSchema, uploadedTemplateSchema, uploadFieldsSchema } from "@/lib/templates/contract";
import {
  createEndpointBody,
  deliveryPageSchema,
  deliverySchema,
  endpointSchema,
  savedEndpointSchema,
  listDeliveriesQuery,
  signingSecretSchema,
  updateEndpointBody,
  webhookPayloadSchemas,
} from "@/lib/webhooks/contract";
// With its attribute: the reliability specs import this table through Node's own ESM loader (Playwright), which requires it.
import eventSchema from "@/lib/ingest/event-schema-v1.json" with { type: "json" };

// The OpenAPI 3.1 document, generated from the same zod schemas the handlers validate with.

const healthSchema = z.object({
  status: z.literal("ok"),
  database: z.enum(["pglite", "postgres"]),
  analyticsRollups: z
    .object({
      runner: z.enum(["worker", "in-process"]).describe("worker: a thread of its own (PostgreSQL); in-process: the server's thread (PGlite)"),
      lagSeconds: z.number().min(0).describe("How long the oldest event not yet rolled up has waited; 0 when caught up"),
      pendingProjects: z.number().int().min(0),
      checkedAt: z.iso.datetime(),
    })
    .nullable()
    .describe("This process's analytics rollup job; null before its first round"),
});

const createdProjectSchema = z.object({ id: z.uuid(), organizationId: z.uuid(), name: z.string(), createdAt: z.iso.datetime() });

const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

/** The answer ingest gives a batch or a consent beacon once its events are committed. */
const ingestResultSchema = z.object({
  accepted: z.number().int().min(0).describe("Events stored now"),
  duplicates: z.number().int().min(0).describe("Events whose event_id was stored before (a retried batch)"),
  quarantined: z.number().int().min(0).describe("Events naming a template the project does not have: counted in its quarantine report, not stored"),
});

const uploadPartSchema = z.object({ partNumber: z.number().int().min(1), size: z.number().int().min(0), etag: z.string() });

/** The areas of the API, one tag each. */
export type Tag = "Templates" | "Uploads" | "Renders" | "Shares" | "Analytics" | "Campaigns" | "Audit" | "Webhooks" | "Credentials" | "Account" | "Organizations" | "Invitations" | "Embed" | "Ingest" | "System";

/** The error statuses an operation may answer, always as application/problem+json. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 503;

/** A response header: its description, and whether every answer with that status carries it. */
type HeaderSpec = { description: string; required?: boolean; schema: object };

type SuccessResponse = {
  description: string;
  /** The application/json body. */
  schema?: z.ZodType;
  /** Bodies of other media types, each with a JSON Schema of its own ({} when it says nothing: bytes). */
  media?: Record<string, object>;
  headers?: Record<string, HeaderSpec>;
};

export type Operation = {
  method: "get" | "post" | "put" | "patch" | "delete" | "options";
  path: string;
  /** camelCase verb + noun, unique across the document. */
  operationId: string;
  tag: Tag;
  summary: string;
  /**
   * The minimum role for bearer-token calls (on the project, or on the organization for
   * /api/organizations/…); "user": any authenticated user, about themselves; "credential": HTTP
   * Basic apiKey:apiSecret; "public": no authentication (a signed URL may still be its
   * authorization); "ingest": an ingest token (from the page manifest); "admin-channel": the CLI's
   * secret from DATA_DIR.
   */
  role: Role | "user" | "credential" | "public" | "ingest" | "admin-channel";
  /**
   * For a role or "user": the scope a personal access token needs for it, beside the role
   * (lib/auth/token-scopes.ts maps the actions the handlers authorize onto scopes).
   */
  scope?: TokenScope;
  /** Not in the OpenAPI document: the CLI's channel to the server, and next-auth's and UploadThing's own protocols. */
  internal?: true;
  query?: z.ZodObject;
  /** An application/json body, read by readJsonBody (lib/api/request.ts): 400, 413, 415 and 422 follow. */
  body?: z.ZodType;
  /** The same body also taken as text/csv (the recipients import). */
  csvBody?: true;
  /** A multipart/form-data body instead of a JSON body: its fields, files as z.file(). */
  upload?: z.ZodObject;
  /** A JSON body checked by a JSON Schema of its own, not zod (ingest's wire events), in these media types. */
  jsonBody?: { mediaTypes: string[]; schema: object };
  /** A body of raw bytes (application/octet-stream): an upload part. */
  bytesBody?: true;
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

const replayedHeader: HeaderSpec = { description: "true when this is the stored answer to an earlier request with the same Idempotency-Key (or the same content)", schema: { type: "string", enum: ["true"] } };
const retryAfterHeader: HeaderSpec = { description: "Seconds to wait before trying again", required: true, schema: { type: "string", pattern: "^[0-9]+$" } };
const etagHeader: HeaderSpec = { description: "The bytes' SHA-256, quoted: send it as If-None-Match for a 304", required: true, schema: { type: "string" } };
const contentRangeHeader: HeaderSpec = { description: "bytes start-end/size", required: true, schema: { type: "string" } };
const contentDispositionHeader: HeaderSpec = { description: "attachment (or inline) with the file's name", required: true, schema: { type: "string" } };
/** A file served by a signed URL: whole, a byte range, not modified, or a range it does not have. */
const fileResponses = (description: string, media: Record<string, object>, headers: Record<string, HeaderSpec> = {}): Record<number, SuccessResponse> => ({
  200: { description, media, headers: { ETag: etagHeader, ...headers } },
  206: { description: "The byte range asked for (Range: bytes=…)", media, headers: { ETag: etagHeader, "Content-Range": contentRangeHeader, ...headers } },
  304: { description: "Not modified (If-None-Match matched the ETag)", headers: { ETag: etagHeader } },
  416: { description: "The range lies outside the file; Content-Range gives its size", headers: { "Content-Range": { ...contentRangeHeader, description: "bytes */size" } } },
});
const bytes = { type: "string", format: "binary" };

/** The multipart form of a template upload: its fields, then the files by role. */
const templateUploadForm = uploadFieldsSchema.extend({
  templateJson: z.file().optional().describe("The Lottie animation (LottieStandalone, and Raster's overlay)"),
  manifestJson: z.file().optional().describe("The binding manifest"),
  overlayJson: z.file().optional().describe("Raster only: how the overlay sits on the video"),
  videoFile: z.file().optional().describe("Raster only: the H.264 MP4"),
  posterFile: z.file().optional(),
  assetFiles: z.array(z.file()).optional().describe("Repeatable: the images the animation loads by name"),
});

/** The JSON Schema of the analytics wire events, for the ingest bodies. */
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

const eventBatchBody = { $ref: "#/components/schemas/AnalyticsEvent/$defs/batch" };
const consentBeaconBody = {
  type: "object",
  additionalProperties: false,
  required: ["token", "event"],
  properties: { token: { type: "string", description: "The ingest token" }, event: { $ref: "#/components/schemas/AnalyticsEvent" } },
};

const listOf = (item: z.ZodType) => z.object({ items: z.array(item) });

const shares = "/api/Projects/{projectId}/public-video-shares";

const templates = "/api/Projects/{projectId}/templates";

const webhooks = "/api/Projects/{projectId}/webhooks";
const campaigns = "/api/Projects/{projectId}/campaigns";

/**
 * The route table: every route under app/api, one entry per method (lib/api/route-table.unit.test.ts
 * holds the two to each other). The OpenAPI document and the reliability suite's route ×
 * role × tenant matrix are generated from it.
 */
export const operations: Operation[] = [
  {
    method: "get",
    path: templates,
    operationId: "listTemplates",
    tag: "Templates",
    summary: "List the project's templates, newest first",
    role: "Viewer",
    scope: "read",
    query: listTemplatesQuery,
    responses: { 200: { description: "The templates", schema: listOf(templateSchema) } },
  },
  {
    method: "post",
    path: `${templates}/upload`,
    operationId: "uploadTemplate",
    tag: "Templates",
    summary:
      "Upload a template: multipart/form-data with name, version?, kind and the files templateJson, manifestJson, overlayJson, videoFile, posterFile, assetFiles (repeatable); at most 250 MB; every image the animation loads by name must be among the assetFiles (422 naming each missing one) unless a manifest image field fills it from data (then a warning); optional Idempotency-Key header",
    role: "Editor",
    scope: "templates:write",
    upload: templateUploadForm,
    idempotent: true,
    responses: { 201: { description: "The template, status Testing, and its warnings (a replay carries Idempotent-Replayed: true)", schema: uploadedTemplateSchema } },
    errors: {
      400: "The multipart body cannot be read",
      409: "The same Idempotency-Key is still in flight",
      413: "The body is larger than 250 MB",
      422: "A field or file breaks the upload's rules; errors lists each (a missing asset by name)",
    },
  },
  {
    method: "post",
    path: `${templates}/uploads`,
    operationId: "createUploadSession",
    tag: "Uploads",
    summary:
      "Start a direct upload: declare the template's fields and files (role, name, size, type); answers where to PUT each part (presigned S3 URLs, the app's part route, or UploadThing); optional Idempotency-Key header",
    role: "Editor",
    scope: "templates:write",
    body: createUploadSessionBody,
    idempotent: true,
    responses: { 201: { description: "The upload session, open (a replay carries Idempotent-Replayed: true)", schema: uploadSessionSchema } },
    errors: { 409: "The same Idempotency-Key is still in flight", 413: "The body is larger than 1 MB, or the files add up to more than 250 MB" },
  },
  {
    method: "get",
    path: `${templates}/uploads/{uploadId}`,
    operationId: "getUploadSession",
    tag: "Uploads",
    summary: "An upload session, with fresh part URLs while it is open and the parts the app has received",
    role: "Editor",
    scope: "templates:write",
    responses: { 200: { description: "The upload session", schema: uploadSessionSchema } },
  },
  {
    method: "delete",
    path: `${templates}/uploads/{uploadId}`,
    operationId: "cancelUploadSession",
    tag: "Uploads",
    summary: "Cancel an open upload session: multipart uploads aborted, staged parts removed",
    role: "Editor",
    scope: "templates:write",
    responses: { 204: { description: "Cancelled (or already)" } },
    errors: { 409: "The session has ended otherwise" },
  },
  {
    method: "post",
    path: `${templates}/uploads/{uploadId}/complete`,
    operationId: "completeUploadSession",
    tag: "Uploads",
    summary:
      "Complete an upload session: the stored files are read once and validated as an upload's, and the template is created; for S3 list each part's ETag",
    role: "Editor",
    scope: "templates:write",
    body: completeUploadSessionBody,
    responses: {
      201: {
        description: "The template, status Testing, and its warnings (completing again replays it with Idempotent-Replayed: true)",
        schema: uploadedTemplateSchema,
        headers: { "Idempotent-Replayed": replayedHeader },
      },
    },
    errors: {
      409: "The session is not open (failed, cancelled, expired) or is being completed",
      422: "A file was not sent whole (the session stays open), or the files break the upload's rules (the session fails)",
    },
  },
  {
    method: "put",
    path: "/api/uploads/{sessionId}/files/{fileIndex}/parts/{partNumber}",
    operationId: "putUploadPart",
    tag: "Uploads",
    summary: "One part of a direct upload with local storage: the part's exact bytes; ?expires=&signature= from the session are its authorization",
    role: "public",
    bytesBody: true,
    responses: { 200: { description: "Stored; the ETag header names the part", schema: uploadPartSchema, headers: { ETag: { ...etagHeader, description: "The part's ETag, for completing the session" } } } },
    errors: {
      400: "Not the part's size, or cut off before its end",
      403: "A forged or expired URL",
      404: "No upload part has this address",
      409: "The session is not open",
    },
  },
  {
    method: "get",
    path: `${templates}/{templateId}`,
    operationId: "getTemplate",
    tag: "Templates",
    summary: "One template with its files and personalization fields",
    role: "Viewer",
    scope: "read",
    responses: { 200: { description: "The template", schema: templateSchema } },
  },
  {
    method: "delete",
    path: `${templates}/{templateId}`,
    operationId: "deleteTemplate",
    tag: "Templates",
    summary: "Delete a template that was never Production (its unshared files too)",
    role: "ProjectManager",
    scope: "templates:write",
    responses: { 204: { description: "Deleted" } },
    errors: { 409: "The template was Production once" },
  },
  {
    method: "post",
    path: `${templates}/{templateId}/deploy`,
    operationId: "deployTemplate",
    tag: "Templates",
    summary: "Testing → Production; the current Production template becomes Previous",
    role: "ProjectManager",
    scope: "templates:write",
    responses: { 200: { description: "The deployed template", schema: templateSchema } },
    errors: { 409: "Not a Testing template" },
  },
  {
    method: "post",
    path: `${templates}/{templateId}/archive`,
    operationId: "archiveTemplate",
    tag: "Templates",
    summary: "Testing or Previous → Archived (no-op when Archived)",
    role: "ProjectManager",
    scope: "templates:write",
    responses: { 200: { description: "The template", schema: templateSchema } },
    errors: { 409: "A Production template cannot be archived" },
  },
  {
    method: "post",
    path: `${templates}/{templateId}/preview`,
    operationId: "previewTemplate",
    tag: "Templates",
    summary: "Render a PNG with the personalization data applied; returns a signed URL valid 15 minutes",
    role: "Editor",
    scope: "templates:write",
    body: previewBodySchema,
    responses: { 200: { description: "The preview", schema: previewResultSchema } },
    errors: { 409: "The template has neither a Lottie file nor a poster" },
  },
  {
    method: "post",
    path: `${templates}/{templateId}/renders`,
    operationId: "createRender",
    tag: "Renders",
    summary:
      "Queue a render of the template with the data: an H.264 MP4, a GIF (at most 5 MB) or a PNG still; render.completed or render.failed goes to the project's webhooks and webhookUrl",
    role: "Editor",
    scope: "renders:write",
    body: createRenderBody,
    responses: { 202: { description: "Queued; poll GET …/renders/{id}", schema: createdRenderSchema } },
  },
  {
    method: "get",
    path: `${templates}/{templateId}/renders`,
    operationId: "listRenders",
    tag: "Renders",
    summary: "The template's renders, newest first",
    role: "Viewer",
    scope: "read",
    query: listRendersQuery,
    responses: { 200: { description: "The renders", schema: listOf(renderSchema) } },
  },
  {
    method: "get",
    path: `${templates}/{templateId}/renders/{renderId}`,
    operationId: "getRender",
    tag: "Renders",
    summary: "A render: queued, rendering, done (with a signed download URL valid 24 hours) or failed (with its error)",
    role: "Viewer",
    scope: "read",
    responses: { 200: { description: "The render", schema: renderSchema } },
  },
  {
    method: "get",
    path: shares,
    operationId: "listShares",
    tag: "Shares",
    summary: "List the project's public video shares (at most one per channel)",
    role: "Viewer",
    scope: "read",
    responses: { 200: { description: "The shares", schema: listOf(shareSchema) } },
  },
  {
    method: "put",
    path: `${shares}/{channel}`,
    operationId: "putShare",
    tag: "Shares",
    summary: "Create or replace the channel's share (idempotent; omitted optional fields become null)",
    role: "ProjectManager",
    scope: "shares:write",
    body: putShareBody,
    responses: {
      200: { description: "The share was replaced (or already had this configuration), with its data's warnings", schema: savedShareSchema },
      201: { description: "The share was created, Enabled, with a new slug, with its data's warnings", schema: savedShareSchema },
    },
  },
  {
    method: "post",
    path: `${shares}/{channel}/disable`,
    operationId: "disableShare",
    tag: "Shares",
    summary: "Disable the share: its URL answers 404 (no-op when already disabled)",
    role: "ProjectManager",
    scope: "shares:write",
    responses: { 200: { description: "The share", schema: shareSchema } },
  },
  {
    method: "post",
    path: `${shares}/{channel}/restore`,
    operationId: "restoreShare",
    tag: "Shares",
    summary: "Restore a disabled share (no-op when already enabled)",
    role: "ProjectManager",
    scope: "shares:write",
    responses: { 200: { description: "The share", schema: shareSchema } },
  },
  {
    method: "post",
    path: `${shares}/{channel}/rotate-slug`,
    operationId: "rotateShareSlug",
    tag: "Shares",
    summary: "Give the share a new slug; the previous URL answers 404 forever",
    role: "ProjectManager",
    scope: "shares:write",
    responses: { 200: { description: "The previous slug, the new one and the share", schema: rotatedSlugSchema } },
  },
  {
    method: "get",
    path: "/api/Projects/{projectId}/analytics",
    operationId: "getProjectAnalytics",
    tag: "Analytics",
    summary:
      "Sessions, plays, viewers, quartile funnel, completion, CTA clicks, errors, the previous period, a time series, chapters, and breakdowns by day, channel, template version, device, browser, OS, referrer, country; bots left out",
    role: "Viewer",
    scope: "read",
    query: analyticsQueryParams,
    responses: { 200: { description: "The project's analytics for the window", schema: projectAnalyticsSchema } },
  },
  {
    method: "get",
    path: "/api/Projects/{projectId}/analytics/heatmap",
    operationId: "getEngagementHeatmap",
    tag: "Analytics",
    summary: "Second by second, how many plays of one template watched, rewatched and left it (from the player's watched spans)",
    role: "Viewer",
    scope: "read",
    query: heatmapQueryParams,
    responses: {
      200: { description: "The template's engagement heatmap for the window", schema: engagementHeatmapSchema },
    },
    errors: { 404: "No such project or no access to it, or no such template in it" },
  },
  {
    method: "get",
    path: "/api/Projects/{projectId}/analytics/quarantine",
    operationId: "getQuarantineReport",
    tag: "Analytics",
    summary: "Events of the project's batches that the v1 event schema refused (422), by reason, with the newest samples",
    role: "Viewer",
    scope: "read",
    query: quarantineQueryParams,
    responses: { 200: { description: "Refused events in the window", schema: quarantineReportSchema } },
  },
  {
    method: "get",
    path: campaigns,
    operationId: "listCampaigns",
    tag: "Campaigns",
    summary: "List the project's campaigns, newest first, with their recipient counts",
    role: "Viewer",
    scope: "read",
    responses: { 200: { description: "The campaigns", schema: listOf(campaignSchema) } },
  },
  {
    method: "post",
    path: campaigns,
    operationId: "createCampaign",
    tag: "Campaigns",
    summary: "Create a campaign: personalized links to one channel's share, one per recipient",
    role: "Editor",
    scope: "campaigns:write",
    body: createCampaignBody,
    responses: { 201: { description: "The campaign", schema: campaignSchema } },
  },
  {
    method: "get",
    path: `${campaigns}/{campaignId}`,
    operationId: "getCampaign",
    tag: "Campaigns",
    summary: "One campaign: the fields its rows fill, its imports (progress, problems with line numbers) and its funnel",
    role: "Viewer",
    scope: "read",
    responses: { 200: { description: "The campaign", schema: campaignDetailSchema } },
  },
  {
    method: "post",
    path: `${campaigns}/{campaignId}/recipients`,
    operationId: "importRecipients",
    tag: "Campaigns",
    summary:
      "Import recipients: a CSV body (text/csv, UTF-8, `,` or `;`, a header row, up to 1,000,000 rows and 256 MB) or a JSON batch (application/json, up to 10,000). The same content again adds nothing; an interrupted import resumes",
    role: "Editor",
    scope: "campaigns:write",
    body: recipientBatchBody,
    csvBody: true,
    responses: {
      200: {
        description: "The same content was imported before (Idempotent-Replayed: true), or its interrupted import was resumed",
        schema: campaignImportSchema,
        headers: { "Idempotent-Replayed": replayedHeader },
      },
      201: { description: "The import, completed; refused rows are counted and the first problems listed", schema: campaignImportSchema },
    },
    errors: {
      409: "The channel serves no template, or the same content is being imported right now",
      413: "The JSON body is larger than 1 MB, or the CSV larger than 256 MB",
    },
  },
  {
    method: "get",
    path: `${campaigns}/{campaignId}/recipients`,
    operationId: "listRecipients",
    tag: "Campaigns",
    summary: "The campaign's recipients by recipient id, each with its URL and reach (opened, furthest percent, completed, clicked); paginated by cursor",
    role: "Viewer",
    scope: "read",
    query: listRecipientsQuery,
    responses: { 200: { description: "A page of recipients", schema: recipientPageSchema } },
  },
  {
    method: "get",
    path: `${campaigns}/{campaignId}/export`,
    operationId: "exportRecipients",
    tag: "Campaigns",
    summary: "Every recipient as CSV (recipient_id,email,url), streamed",
    role: "Viewer",
    scope: "read",
    responses: {
      200: {
        description: "recipient_id,email,url: a header row, then one recipient a line",
        media: { "text/csv": { type: "string" } },
        headers: { "Content-Disposition": contentDispositionHeader },
      },
    },
  },
  {
    method: "get",
    path: "/api/Projects/{projectId}/audit-events",
    operationId: "listAuditEvents",
    tag: "Audit",
    summary: "The project's audit trail, newest first, paginated by cursor",
    role: "Viewer",
    scope: "read",
    query: listAuditEventsQuery,
    responses: { 200: { description: "A page of audit events", schema: auditEventPageSchema } },
  },
  {
    method: "get",
    path: webhooks,
    operationId: "listWebhookEndpoints",
    tag: "Webhooks",
    summary: "List the project's webhook endpoints",
    role: "ProjectManager",
    scope: "read",
    responses: { 200: { description: "The endpoints", schema: listOf(endpointSchema) } },
  },
  {
    method: "post",
    path: webhooks,
    operationId: "createWebhookEndpoint",
    tag: "Webhooks",
    summary:
      "Register a webhook endpoint for render.completed, render.failed and campaign.imported (eventTypes: a subset, empty = all); its URL must be http(s) and reach only public addresses (a host that does not resolve now is saved with a warning and checked at each delivery)",
    role: "ProjectManager",
    scope: "webhooks:write",
    body: createEndpointBody,
    responses: { 201: { description: "The endpoint, with warnings (its host did not resolve now)", schema: savedEndpointSchema } },
  },
  {
    method: "get",
    path: `${webhooks}/{endpointId}`,
    operationId: "getWebhookEndpoint",
    tag: "Webhooks",
    summary: "One webhook endpoint",
    role: "ProjectManager",
    scope: "read",
    responses: { 200: { description: "The endpoint", schema: endpointSchema } },
  },
  {
    method: "patch",
    path: `${webhooks}/{endpointId}`,
    operationId: "updateWebhookEndpoint",
    tag: "Webhooks",
    summary: "Change an endpoint's url, description, eventTypes or enabled; pending deliveries follow a new URL, and fail when it is disabled",
    role: "ProjectManager",
    scope: "webhooks:write",
    body: updateEndpointBody,
    responses: { 200: { description: "The endpoint, with warnings (its new host did not resolve now)", schema: savedEndpointSchema } },
  },
  {
    method: "delete",
    path: `${webhooks}/{endpointId}`,
    operationId: "deleteWebhookEndpoint",
    tag: "Webhooks",
    summary: "Delete an endpoint and its deliveries",
    role: "ProjectManager",
    scope: "webhooks:write",
    responses: { 204: { description: "Deleted" } },
  },
  {
    method: "post",
    path: `${webhooks}/{endpointId}/test`,
    operationId: "sendWebhookTestEvent",
    tag: "Webhooks",
    summary: "Queue a signed webhook.test event for this endpoint",
    role: "ProjectManager",
    scope: "webhooks:write",
    responses: { 202: { description: "The queued delivery", schema: deliverySchema } },
  },
  {
    method: "get",
    path: `${webhooks}/deliveries`,
    operationId: "listWebhookDeliveries",
    tag: "Webhooks",
    summary: "The delivery log, newest first, paginated by cursor: event, URL, status, attempts, last status code or error, the attempt log and the payload",
    role: "ProjectManager",
    scope: "read",
    query: listDeliveriesQuery,
    responses: { 200: { description: "A page of deliveries", schema: deliveryPageSchema } },
  },
  {
    method: "post",
    path: `${webhooks}/deliveries/{deliveryId}/resend`,
    operationId: "resendWebhookDelivery",
    tag: "Webhooks",
    summary: "Queue a delivered or failed delivery again: the same webhook-id, a fresh 24 h of attempts",
    role: "ProjectManager",
    scope: "webhooks:write",
    responses: {
      202: { description: "The delivery, pending again", schema: deliverySchema },
    },
    errors: { 409: "The delivery is still pending" },
  },
  {
    method: "get",
    path: `${webhooks}/signing-secret`,
    operationId: "getWebhookSigningSecret",
    tag: "Webhooks",
    summary: "The project's Standard Webhooks signing secret (whsec_…), made on first need",
    role: "ProjectManager",
    scope: "read",
    responses: { 200: { description: "The secret", schema: signingSecretSchema } },
  },
  {
    method: "post",
    path: `${webhooks}/signing-secret/rotate`,
    operationId: "rotateWebhookSigningSecret",
    tag: "Webhooks",
    summary: "Replace the signing secret; for 24 h deliveries carry a signature made with the previous one too",
    role: "ProjectManager",
    scope: "webhooks:write",
    responses: { 200: { description: "The new secret", schema: signingSecretSchema } },
  },
  {
    method: "get",
    path: "/api/credentials",
    operationId: "listCredentials",
    tag: "Credentials",
    summary: "List a project's API credentials (never the secret)",
    role: "ProjectManager",
    scope: "read",
    query: listCredentialsQuery,
    responses: { 200: { description: "The credentials", schema: listOf(credentialSchema) } },
    errors: { 404: "No such project, or no access to it" },
  },
  {
    method: "post",
    path: "/api/credentials",
    operationId: "createCredential",
    tag: "Credentials",
    summary: "Create an API credential; the secret is returned only here",
    role: "ProjectManager",
    scope: "credentials:write",
    body: createCredentialBody,
    responses: { 201: { description: "The new credential with its secret", schema: createdCredentialSchema } },
    errors: { 404: "No such project, or no access to it" },
  },
  {
    method: "post",
    path: "/api/credentials/{id}/revoke",
    operationId: "revokeCredential",
    tag: "Credentials",
    summary: "Revoke an API credential (idempotent)",
    role: "ProjectManager",
    scope: "credentials:write",
    responses: { 200: { description: "The revoked credential", schema: credentialSchema } },
  },
  {
    method: "get",
    path: "/api/me",
    operationId: "getMe",
    tag: "Account",
    summary: "The caller: their organizations (role null when they belong only through a project) and their projects with the effective role",
    role: "user",
    scope: "read",
    responses: { 200: { description: "The caller", schema: meSchema } },
  },
  {
    method: "get",
    path: "/api/me/tokens",
    operationId: "listOwnTokens",
    tag: "Account",
    summary: "The caller's personal access tokens (never the token itself)",
    role: "user",
    scope: "read",
    responses: { 200: { description: "The tokens", schema: listOf(personalAccessTokenSchema) } },
  },
  {
    method: "post",
    path: "/api/me/tokens",
    operationId: "createOwnToken",
    tag: "Account",
    summary: "Create a personal access token for the caller; the token is returned only here",
    role: "user",
    scope: "tokens:write",
    body: createOwnTokenBody,
    responses: { 201: { description: "The new token", schema: createdPersonalAccessTokenSchema } },
  },
  {
    method: "post",
    path: "/api/me/tokens/{id}/revoke",
    operationId: "revokeOwnToken",
    tag: "Account",
    summary: "Revoke one of the caller's tokens (idempotent); it stops authenticating at once",
    role: "user",
    scope: "tokens:write",
    responses: { 200: { description: "The revoked token", schema: personalAccessTokenSchema } },
  },
  {
    method: "post",
    path: "/api/organizations/{orgId}/projects",
    operationId: "createProject",
    tag: "Organizations",
    summary: "Create a project in the organization",
    role: "OrganizationAdmin",
    scope: "projects:write",
    body: createProjectBody,
    responses: { 201: { description: "The new project", schema: createdProjectSchema } },
  },
  {
    method: "get",
    path: "/api/organizations/{orgId}/members",
    operationId: "listMembers",
    tag: "Organizations",
    summary: "Memberships on the organization and on each of its projects",
    role: "OrganizationAdmin",
    scope: "read",
    responses: { 200: { description: "The members", schema: listOf(memberSchema) } },
  },
  {
    method: "post",
    path: "/api/organizations/{orgId}/members",
    operationId: "inviteMember",
    tag: "Organizations",
    summary:
      "Invite by email: a pending invitation (7 days) that grants nothing until the person accepts it at its accept URL, returned only here; the same answer whether the address has an account or not; an open invitation for the same address and scope is replaced; 409 if already a member on that scope",
    role: "OrganizationAdmin",
    scope: "members:write",
    body: inviteMemberBody,
    responses: { 201: { description: "The invitation, status pending, and its accept URL", schema: createdInvitationSchema } },
    errors: { 409: "Already a member on that scope" },
  },
  {
    method: "get",
    path: "/api/organizations/{orgId}/invitations",
    operationId: "listInvitations",
    tag: "Organizations",
    summary: "The organization's invitations not yet accepted or revoked (pending, or expired), newest first",
    role: "OrganizationAdmin",
    scope: "read",
    responses: { 200: { description: "The invitations", schema: listOf(invitationSchema) } },
  },
  {
    method: "delete",
    path: "/api/organizations/{orgId}/invitations/{invitationId}",
    operationId: "revokeInvitation",
    tag: "Organizations",
    summary: "Revoke an invitation: its accept URL stops working (idempotent); 409 once accepted (remove the membership instead)",
    role: "OrganizationAdmin",
    scope: "members:write",
    responses: { 204: { description: "Revoked" } },
    errors: { 409: "The invitation was accepted" },
  },
  {
    method: "post",
    path: "/api/invitations/accept",
    operationId: "acceptInvitation",
    tag: "Invitations",
    summary:
      "Accept an invitation as the signed-in console user, whose email must be the invited address (a bearer token cannot accept); 410 when revoked, expired or accepted already",
    role: "user",
    body: acceptInvitationBody,
    responses: { 200: { description: "The membership made", schema: acceptedInvitationSchema } },
    errors: {
      403: "A bearer token cannot accept, or the signed-in user is not the invited address; or a request from another origin",
      404: "No invitation has this token",
      410: "Revoked, expired or accepted already",
    },
  },
  {
    method: "post",
    path: "/api/invitations/create-account",
    operationId: "createAccountFromInvitation",
    tag: "Invitations",
    summary:
      "Accept an invitation to an address without an account by choosing its password: the account and the membership are made; 409 when the address has an account (sign in and accept instead); 410 when revoked, expired or accepted already",
    role: "public",
    body: createAccountFromInvitationBody,
    responses: { 201: { description: "The membership made", schema: acceptedInvitationSchema } },
    errors: { 404: "No invitation has this token", 409: "The address has an account: sign in and accept instead", 410: "Revoked, expired or accepted already" },
  },
  {
    method: "patch",
    path: "/api/organizations/{orgId}/members/{membershipId}",
    operationId: "changeMemberRole",
    tag: "Organizations",
    summary: "Change a membership's role; 409 for the organization's last OrganizationAdmin",
    role: "OrganizationAdmin",
    scope: "members:write",
    body: changeMemberRoleBody,
    responses: { 200: { description: "The membership", schema: memberSchema } },
    errors: { 409: "The organization's last OrganizationAdmin" },
  },
  {
    method: "delete",
    path: "/api/organizations/{orgId}/members/{membershipId}",
    operationId: "removeMember",
    tag: "Organizations",
    summary: "Remove a membership (the user's console sessions end); 409 for the organization's last OrganizationAdmin",
    role: "OrganizationAdmin",
    scope: "members:write",
    responses: { 204: { description: "Removed" } },
    errors: { 409: "The organization's last OrganizationAdmin" },
  },
  {
    method: "post",
    path: "/api/embed-sessions",
    operationId: "createEmbedSession",
    tag: "Embed",
    summary: "Mint an embed-session token for a customer site (pass it to the SDK)",
    role: "credential",
    body: embedSessionBody,
    responses: { 201: { description: "The token, its expiry and the player URL", schema: embedSessionSchema } },
    errors: { 404: "The credential's project has no such share" },
  },
  {
    method: "get",
    path: "/api/embed/manifest",
    operationId: "getPageManifest",
    tag: "Embed",
    summary: "The page manifest the player plays: template files, bound data, CTA, consent mode, a fresh ingest token",
    role: "public",
    query: manifestQuery,
    rateLimited: true,
    responses: { 200: { description: "The page manifest", schema: pageManifestSchema } },
    errors: { 401: "The embed-session token is invalid or expired", 404: "This video is not available", 429: "Too many unknown share slugs from this address" },
  },
  {
    method: "get",
    path: "/api/embed/posters/{slug}",
    operationId: "getSharePoster",
    tag: "Embed",
    summary: "The share's poster image (its Open Graph image too)",
    role: "public",
    rateLimited: true,
    responses: { 200: { description: "The poster", media: { "image/*": bytes } } },
    errors: { 404: "No such share, or it has no poster", 429: "Too many unknown share slugs from this address" },
  },
  {
    method: "get",
    path: "/api/embed/files/{fileId}/{name}",
    operationId: "getTemplateFile",
    tag: "Embed",
    summary: "A template file for the player; ?expires=&signature= from the page manifest are its authorization",
    role: "public",
    responses: fileResponses("The file, with the type it was uploaded as", { "*/*": bytes }),
    errors: { 404: "The URL is unknown or has expired" },
  },
  {
    method: "get",
    path: "/api/previews/{file}",
    operationId: "getPreviewImage",
    tag: "Templates",
    summary: "A rendered preview PNG; ?expires=&signature= from the preview call are its authorization",
    role: "public",
    responses: { 200: { description: "The PNG", media: { "image/png": bytes } } },
    errors: { 404: "The URL is unknown or has expired" },
  },
  {
    method: "post",
    path: "/api/Projects/{projectId}/campaigns/{campaignId}/thumbnails",
    operationId: "queueCampaignThumbnails",
    tag: "Campaigns",
    summary:
      "Queue an email thumbnail per recipient: a 3 s GIF loop with a play button, of the template the campaign's share serves with the recipient's data; only recipients without one (or whose last one failed)",
    role: "Editor",
    scope: "renders:write",
    responses: { 202: { description: "Queued", schema: queuedThumbnailsSchema } },
    errors: { 409: "The campaign's channel has no share or no template" },
  },
  {
    method: "get",
    path: "/api/Projects/{projectId}/campaigns/{campaignId}/thumbnails",
    operationId: "listCampaignThumbnails",
    tag: "Campaigns",
    summary: "The campaign's recipients with their thumbnail: status, signed URL (30 days), recipient URL and the HTML of a linked image for an email",
    role: "Viewer",
    scope: "read",
    query: listThumbnailsQuery,
    responses: { 200: { description: "A page of recipients", schema: thumbnailPageSchema } },
  },
  {
    method: "get",
    path: "/api/renders/{renderId}/download",
    operationId: "downloadRender",
    tag: "Renders",
    summary: "A finished render's file (byte ranges supported); ?expires=&signature= from the render are its authorization",
    role: "public",
    responses: fileResponses("The MP4, GIF or PNG", { "video/mp4": bytes, "image/gif": bytes, "image/png": bytes }, { "Content-Disposition": contentDispositionHeader }),
    errors: { 404: "The URL is unknown or has expired, or the render is not done" },
  },
  {
    method: "get",
    path: "/api/health",
    operationId: "getHealth",
    tag: "System",
    summary: "Readiness: 200 when the database answers, 503 when it does not",
    role: "public",
    responses: { 200: { description: "Ready", schema: healthSchema } },
    errors: { 503: "The database does not answer" },
  },
  {
    method: "get",
    path: "/api/openapi.json",
    operationId: "getOpenApiDocument",
    tag: "System",
    summary: "This document",
    role: "public",
    offline: true,
    responses: { 200: { description: "The OpenAPI 3.1 document", media: { "application/json": { type: "object" } } } },
  },
  {
    method: "post",
    path: "/analytics/v1/events",
    operationId: "sendEventBatch",
    tag: "Ingest",
    summary:
      "A batch of player events (the tracking SDK sends them; served at the ingest URL, which may be another origin): answered once committed; a retried event_id is stored once; events the schema refuses are counted in the project's quarantine",
    role: "ingest",
    jsonBody: { mediaTypes: ["application/json"], schema: eventBatchBody },
    rateLimited: true,
    responses: { 202: { description: "Stored", schema: ingestResultSchema } },
    errors: {
      403: "This Origin may not send events with this token",
      413: "The body is larger than 512 KB, or holds more than 500 events",
      429: "Too many events for the token, the project or the address",
    },
  },
  {
    method: "post",
    path: "/analytics/v1/consent",
    operationId: "sendConsentBeacon",
    tag: "Ingest",
    summary: "The consent beacon (navigator.sendBeacon, so text/plain): one consent.accepted or consent.declined event with the ingest token in the body",
    role: "ingest",
    jsonBody: { mediaTypes: ["text/plain", "application/json"], schema: consentBeaconBody },
    rateLimited: true,
    responses: { 202: { description: "Stored", schema: ingestResultSchema } },
    errors: {
      401: "The beacon carries no valid ingest token",
      403: "This Origin may not send events with this token",
      413: "The body is larger than 16 KB",
      429: "Too many events for the token, the project or the address",
    },
  },
  ...(["/analytics/v1/events", "/analytics/v1/consent"] as const).map(
    (path): Operation => ({
      method: "options",
      path,
      operationId: path.endsWith("events") ? "preflightEventBatch" : "preflightConsentBeacon",
      tag: "Ingest",
      summary: "CORS preflight: the Origin is checked on the POST itself, against the token's allowed origins",
      role: "public",
      offline: true,
      responses: { 204: { description: "The methods and headers a page may send" } },
    }),
  ),
  {
    method: "get",
    path: "/analytics/v1/event-schema-v1.json",
    operationId: "getEventSchema",
    tag: "Ingest",
    summary: "The JSON Schema (2020-12) of the wire events, as components.schemas.AnalyticsEvent here",
    role: "public",
    offline: true,
    responses: { 200: { description: "The schema", media: { "application/schema+json": { type: "object" } } } },
  },
  {
    method: "post",
    path: "/api/internal/cli",
    operationId: "runCliCommand",
    tag: "System",
    summary: "Runs a reelbind CLI command while this server holds the embedded database",
    role: "admin-channel",
    internal: true,
    responses: { 200: { description: "The command's result" } },
  },
  ...(["get", "post"] as const).map(
    (method): Operation => ({
      method,
      path: "/api/uploadthing",
      operationId: method === "get" ? "getUploadThingConfig" : "postUploadThing",
      tag: "Uploads",
      summary:
        method === "get"
          ? "UploadThing: the file routes' config, for the console's uploader"
          : "UploadThing: a presigned URL for one declared file of an upload session (?actionType=upload), or UploadThing's signed callback (uploadthing-hook header); 404 without UPLOADTHING_TOKEN",
      role: "user",
      scope: method === "get" ? "read" : "templates:write",
      internal: true,
      responses: { 200: { description: "UploadThing's answer" } },
    }),
  ),
  ...(["get", "post"] as const).map(
    (method): Operation => ({
      method,
      path: "/api/auth/{...nextauth}",
      operationId: method === "get" ? "getNextAuth" : "postNextAuth",
      tag: "Account",
      summary: "next-auth: the console's sign-in, session and sign-out",
      role: "public",
      internal: true,
      responses: { 200: { description: "next-auth's answer" } },
    }),
  ),
];

function describeAccess({ role, scope }: Operation) {
  if (role === "credential") return { description: "Authenticated with an API credential: HTTP Basic apiKey:apiSecret.", security: [{ apiCredential: [] }] };
  if (role === "ingest") return { description: "Authenticated with an ingest token from the page manifest.", security: [{ ingestToken: [] }] };
  if (role === "public") return { description: "Public: no authentication.", security: [] };
  const who = role === "user" ? "Any authenticated user; about the caller only." : `Minimum role: ${role}.`;
  if (!scope) return { description: who };
  // OpenAPI 3.1 lets a non-OAuth scheme's requirement name the roles it needs: here the token scope.
  return { description: `${who} A token needs the ${scope} scope.`, security: [{ bearer: [scope] }] };
}

const jsonSchema = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { io, unrepresentable: "any" });

function pathParameters(path: string) {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name = ""]) => ({
    name,
    in: "path",
    required: true,
    schema: name === "channel" ? jsonSchema(channelSchema, "input") : /(^id|Id)$/.test(name) ? { type: "string", format: "uuid" } : { type: "string" },
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

const idempotencyKeyParameter = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description: "Sent again with the same request, the first answer is replayed (Idempotent-Replayed: true) instead of doing it twice; 409 while the first is still in flight",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
};

/** Authenticated by withActor: a bearer token or the console's session cookie. */
const sessionAuthenticated = (op: Operation) => op.role !== "public" && op.role !== "credential" && op.role !== "ingest" && op.role !== "admin-channel";

/**
 * The error statuses of an operation, from its facts: the body it reads, how it authenticates,
 * its path, its limits, whether anything behind it can be unavailable; then its own `errors`.
 * Viewer is every member's least role, so a role check alone never answers 403 there (a
 * non-member gets 404); a token's missing scope does, whatever the role.
 */
export function errorStatusesOf(op: Operation): Partial<Record<ErrorStatus, string>> {
  const errors: Partial<Record<ErrorStatus, string>> = {};
  if (op.body) {
    errors[400] = "Malformed JSON";
    errors[413] = "The body is larger than 1 MB";
    errors[415] = op.csvBody ? "Neither application/json nor text/csv" : "Not application/json";
    errors[422] = "Validation failed; errors lists each path";
  }
  if (op.jsonBody) {
    errors[400] = "Malformed JSON";
    errors[415] = `Not ${op.jsonBody.mediaTypes.join(" or ")}`;
    errors[422] = "Validation failed; errors lists each path";
  }
  if (op.upload) errors[415] = "Not multipart/form-data";
  if (op.query || op.upload || op.idempotent) errors[422] = "Validation failed; errors lists each path";
  if (op.role === "credential") errors[401] = "Missing, wrong or revoked API credential";
  else if (op.role === "ingest") errors[401] = "Missing, invalid or expired ingest token";
  else if (sessionAuthenticated(op)) errors[401] = "Missing or invalid bearer token or session";
  if (op.scope) {
    const byRole = op.role !== "user" && op.role !== "Viewer" ? `The caller's role is below ${op.role}, or the` : "The";
    const unsafe = op.method === "get" ? "" : "; a read-only token, or a console session's request from another origin";
    errors[403] = `${byRole} token's scopes do not cover ${op.scope}${unsafe}`;
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
  if (op.body) content["application/json"] = { schema: jsonSchema(op.body, "input") };
  if (op.csvBody) content["text/csv"] = { schema: { type: "string", description: "UTF-8; a header row, then one recipient a line; `,` or `;`" } };
  for (const mediaType of op.jsonBody?.mediaTypes ?? []) content[mediaType] = { schema: op.jsonBody!.schema };
  if (op.upload) content["multipart/form-data"] = { schema: jsonSchema(op.upload, "input") };
  if (op.bytesBody) content["application/octet-stream"] = { schema: { type: "string", format: "binary" } };
  return Object.keys(content).length > 0 ? { requestBody: { required: true, content } } : {};
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
    parameters: [...pathParameters(op.path), ...queryParameters(op.query), ...(op.idempotent ? [idempotencyKeyParameter] : [])],
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

export function buildOpenApiDocument(serverUrl: string) {
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
    tags: [...new Set(operations.filter((op) => !op.internal).map((op) => op.tag))].map((name) => ({ name })),
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
