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
import { embedSessionBody, embedSessionSchema, manifestQuery } from "@/lib/embed/contract";
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
import { listTemplatesQuery, previewResultSchema, singleFileRoles, templateSchema, uploadedTemplateSchema, uploadFieldsSchema } from "@/lib/templates/contract";
import {
  createEndpointBody,
  deliveryPageSchema,
  deliverySchema,
  endpointSchema,
  savedEndpointSchema,
  listDeliveriesQuery,
  signingSecretSchema,
  updateEndpointBody,
} from "@/lib/webhooks/contract";

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

const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

export type Operation = {
  method: "get" | "post" | "put" | "patch" | "delete";
  path: string;
  summary: string;
  /**
   * The minimum role for bearer-token calls (on the project, or on the organization for
   * /api/organizations/…); "user": any authenticated user, about themselves; "credential": HTTP
   * Basic apiKey:apiSecret; "public": no authentication (a signed URL may still be its
   * authorization); "admin-channel": the CLI's secret from DATA_DIR.
   */
  role: Role | "user" | "credential" | "public" | "admin-channel";
  /**
   * For a role or "user": the scope a personal access token needs for it, beside the role
   * (lib/auth/token-scopes.ts maps the actions the handlers authorize onto scopes).
   */
  scope?: TokenScope;
  /** Not in the OpenAPI document: the CLI's channel to the server, and next-auth's and UploadThing's own protocols. */
  internal?: true;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** multipart/form-data instead of a JSON body. */
  upload?: boolean;
  /** text/csv accepted beside the JSON body. */
  csv?: true;
  /** media: the body's media types when it is not JSON (text/… as a string, others as binary). */
  responses: Record<number, { description: string; schema?: z.ZodType; media?: string[] }>;
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
    summary: "List the project's templates, newest first",
    role: "Viewer",
    scope: "read",
    query: listTemplatesQuery,
    responses: { 200: { description: "The templates", schema: listOf(templateSchema) } },
  },
  {
    method: "post",
    path: `${templates}/upload`,
    summary:
      "Upload a template: multipart/form-data with name, version?, kind and the files templateJson, manifestJson, overlayJson, videoFile, posterFile, assetFiles (repeatable); at most 250 MB; every image the animation loads by name must be among the assetFiles (422 naming each missing one) unless a manifest image field fills it from data (then a warning); optional Idempotency-Key header",
    role: "Editor",
    scope: "templates:write",
    upload: true,
    responses: {
      201: { description: "The template, status Testing, and its warnings (a replay carries Idempotent-Replayed: true)", schema: uploadedTemplateSchema },
      409: { description: "The same Idempotency-Key is still in flight" },
      413: { description: "The body is larger than 250 MB" },
      415: { description: "Not multipart/form-data" },
    },
  },
  {
    method: "post",
    path: `${templates}/uploads`,
    summary:
      "Start a direct upload: declare the template's fields and files (role, name, size, type); answers where to PUT each part (presigned S3 URLs, the app's part route, or UploadThing); optional Idempotency-Key header",
    role: "Editor",
    scope: "templates:write",
    body: createUploadSessionBody,
    responses: {
      201: { description: "The upload session, open (a replay carries Idempotent-Replayed: true)", schema: uploadSessionSchema },
      409: { description: "The same Idempotency-Key is still in flight" },
      413: { description: "The files add up to more than 250 MB" },
    },
  },
  {
    method: "get",
    path: `${templates}/uploads/{uploadId}`,
    summary: "An upload session, with fresh part URLs while it is open and the parts the app has received",
    role: "Editor",
    scope: "templates:write",
    responses: { 200: { description: "The upload session", schema: uploadSessionSchema } },
  },
  {
    method: "delete",
    path: `${templates}/uploads/{uploadId}`,
    summary: "Cancel an open upload session: multipart uploads aborted, staged parts removed",
    role: "Editor",
    scope: "templates:write",
    responses: { 204: { description: "Cancelled (or already)" }, 409: { description: "The session has ended otherwise" } },
  },
  {
    method: "post",
    path: `${templates}/uploads/{uploadId}/complete`,
    summary:
      "Complete an upload session: the stored files are read once and validated as an upload's, and the template is created; for S3 list each part's ETag",
    role: "Editor",
    scope: "templates:write",
    body: completeUploadSessionBody,
    responses: {
      201: { description: "The template, status Testing, and its warnings (completing again replays it with Idempotent-Replayed: true)", schema: uploadedTemplateSchema },
      409: { description: "The session is not open (failed, cancelled, expired) or is being completed" },
      422: { description: "A file was not sent whole (the session stays open), or the files break the upload's rules (the session fails)" },
    },
  },
  {
    method: "put",
    path: "/api/uploads/{sessionId}/files/{fileIndex}/parts/{partNumber}",
    summary: "One part of a direct upload with local storage: the part's exact bytes; ?expires=&signature= from the session are its authorization",
    role: "public",
    responses: { 200: { description: "Stored; the ETag header names the part" }, 400: { description: "Not the part's size" }, 403: { description: "A forged or expired URL" } },
  },
  {
    method: "get",
    path: `${templates}/{templateId}`,
    summary: "One template with its files and personalization fields",
    role: "Viewer",
    scope: "read",
    responses: { 200: { description: "The template", schema: templateSchema } },
  },
  {
    method: "delete",
    path: `${templates}/{templateId}`,
    summary: "Delete a template that was never Production (its unshared files too)",
    role: "ProjectManager",
    scope: "templates:write",
    responses: { 204: { description: "Deleted" }, 409: { description: "The template was Production once" } },
  },
  {
    method: "post",
    path: `${templates}/{templateId}/deploy`,
    summary: "Testing → Production; the current Production template becomes Previous",
    role: "ProjectManager",
    scope: "templates:write",
    responses: { 200: { description: "The deployed template", schema: templateSchema }, 409: { description: "Not a Testing template" } },
  },
  {
    method: "post",
    path: `${templates}/{templateId}/archive`,
    summary: "Testing or Previous → Archived (no-op when Archived)",
    role: "ProjectManager",
    scope: "templates:write",
    responses: { 200: { description: "The template", schema: templateSchema }, 409: { description: "A Production template cannot be archived" } },
  },
  {
    method: "post",
    path: `${templates}/{templateId}/preview`,
    summary: "Render a PNG with the personalization data applied; returns a signed URL valid 15 minutes",
    role: "Editor",
    scope: "templates:write",
    body: previewBodySchema,
    responses: { 200: { description: "The preview", schema: previewResultSchema } },
  },
  {
    method: "post",
    path: `${templates}/{templateId}/renders`,
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
    summary: "The template's renders, newest first",
    role: "Viewer",
    scope: "read",
    query: listRendersQuery,
    responses: { 200: { description: "The renders", schema: listOf(renderSchema) } },
  },
  {
    method: "get",
    path: `${templates}/{templateId}/renders/{renderId}`,
    summary: "A render: queued, rendering, done (with a signed download URL valid 24 hours) or failed (with its error)",
    role: "Viewer",
    scope: "read",
    responses: { 200: { description: "The render", schema: renderSchema } },
  },
  {
    method: "get",
    path: shares,
    summary: "List the project's public video shares (at most one per channel)",
    role: "Viewer",
    scope: "read",
    responses: { 200: { description: "The shares", schema: listOf(shareSchema) } },
  },
  {
    method: "put",
    path: `${shares}/{channel}`,
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
    summary: "Disable the share: its URL answers 404 (no-op when already disabled)",
    role: "ProjectManager",
    scope: "shares:write",
    responses: { 200: { description: "The share", schema: shareSchema } },
  },
  {
    method: "post",
    path: `${shares}/{channel}/restore`,
    summary: "Restore a disabled share (no-op when already enabled)",
    role: "ProjectManager",
    scope: "shares:write",
    responses: { 200: { description: "The share", schema: shareSchema } },
  },
  {
    method: "post",
    path: `${shares}/{channel}/rotate-slug`,
    summary: "Give the share a new slug; the previous URL answers 404 forever",
    role: "ProjectManager",
    scope: "shares:write",
    responses: { 200: { description: "The previous slug, the new one and the share", schema: rotatedSlugSchema } },
  },
  {
    method: "get",
    path: "/api/Projects/{projectId}/analytics",
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
    summary: "Second by second, how many plays of one template watched, rewatched and left it (from the player's watched spans)",
    role: "Viewer",
    scope: "read",
    query: heatmapQueryParams,
    responses: {
      200: { description: "The template's engagement heatmap for the window", schema: engagementHeatmapSchema },
      404: { description: "No such template in the project" },
    },
  },
  {
    method: "get",
    path: "/api/Projects/{projectId}/analytics/quarantine",
    summary: "Events of the project's batches that the v1 event schema refused (422), by reason, with the newest samples",
    role: "Viewer",
    scope: "read",
    query: quarantineQueryParams,
    responses: { 200: { description: "Refused events in the window", schema: quarantineReportSchema } },
  },
  {
    method: "get",
    path: campaigns,
    summary: "List the project's campaigns, newest first, with their recipient counts",
    role: "Viewer",
    scope: "read",
    responses: { 200: { description: "The campaigns", schema: listOf(campaignSchema) } },
  },
  {
    method: "post",
    path: campaigns,
    summary: "Create a campaign: personalized links to one channel's share, one per recipient",
    role: "Editor",
    scope: "campaigns:write",
    body: createCampaignBody,
    responses: { 201: { description: "The campaign", schema: campaignSchema } },
  },
  {
    method: "get",
    path: `${campaigns}/{campaignId}`,
    summary: "One campaign: the fields its rows fill, its imports (progress, problems with line numbers) and its funnel",
    role: "Viewer",
    scope: "read",
    responses: { 200: { description: "The campaign", schema: campaignDetailSchema } },
  },
  {
    method: "post",
    path: `${campaigns}/{campaignId}/recipients`,
    summary:
      "Import recipients: a CSV body (text/csv, UTF-8, `,` or `;`, a header row, up to 1,000,000 rows and 256 MB) or a JSON batch (application/json, up to 10,000). The same content again adds nothing; an interrupted import resumes",
    role: "Editor",
    scope: "campaigns:write",
    body: recipientBatchBody,
    csv: true,
    responses: {
      200: { description: "The same content was imported before (Idempotent-Replayed: true), or its interrupted import was resumed", schema: campaignImportSchema },
      201: { description: "The import, completed; refused rows are counted and the first problems listed", schema: campaignImportSchema },
      409: { description: "The channel serves no template, or the same content is being imported right now" },
      413: { description: "The file is larger than 256 MB" },
      415: { description: "Neither text/csv nor application/json" },
    },
  },
  {
    method: "get",
    path: `${campaigns}/{campaignId}/recipients`,
    summary: "The campaign's recipients by recipient id, each with its URL and reach (opened, furthest percent, completed, clicked); paginated by cursor",
    role: "Viewer",
    scope: "read",
    query: listRecipientsQuery,
    responses: { 200: { description: "A page of recipients", schema: recipientPageSchema } },
  },
  {
    method: "get",
    path: `${campaigns}/{campaignId}/export`,
    summary: "Every recipient as CSV (recipient_id,email,url), streamed",
    role: "Viewer",
    scope: "read",
    responses: { 200: { description: "text/csv", media: ["text/csv"] } },
  },
  {
    method: "get",
    path: "/api/Projects/{projectId}/audit-events",
    summary: "The project's audit trail, newest first, paginated by cursor",
    role: "Viewer",
    scope: "read",
    query: listAuditEventsQuery,
    responses: { 200: { description: "A page of audit events", schema: auditEventPageSchema } },
  },
  {
    method: "get",
    path: webhooks,
    summary: "List the project's webhook endpoints",
    role: "ProjectManager",
    scope: "read",
    responses: { 200: { description: "The endpoints", schema: listOf(endpointSchema) } },
  },
  {
    method: "post",
    path: webhooks,
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
    summary: "One webhook endpoint",
    role: "ProjectManager",
    scope: "read",
    responses: { 200: { description: "The endpoint", schema: endpointSchema } },
  },
  {
    method: "patch",
    path: `${webhooks}/{endpointId}`,
    summary: "Change an endpoint's url, description, eventTypes or enabled; pending deliveries follow a new URL, and fail when it is disabled",
    role: "ProjectManager",
    scope: "webhooks:write",
    body: updateEndpointBody,
    responses: { 200: { description: "The endpoint, with warnings (its new host did not resolve now)", schema: savedEndpointSchema } },
  },
  {
    method: "delete",
    path: `${webhooks}/{endpointId}`,
    summary: "Delete an endpoint and its deliveries",
    role: "ProjectManager",
    scope: "webhooks:write",
    responses: { 204: { description: "Deleted" } },
  },
  {
    method: "post",
    path: `${webhooks}/{endpointId}/test`,
    summary: "Queue a signed webhook.test event for this endpoint",
    role: "ProjectManager",
    scope: "webhooks:write",
    responses: { 202: { description: "The queued delivery", schema: deliverySchema } },
  },
  {
    method: "get",
    path: `${webhooks}/deliveries`,
    summary: "The delivery log, newest first, paginated by cursor: event, URL, status, attempts, last status code or error, the attempt log and the payload",
    role: "ProjectManager",
    scope: "read",
    query: listDeliveriesQuery,
    responses: { 200: { description: "A page of deliveries", schema: deliveryPageSchema } },
  },
  {
    method: "post",
    path: `${webhooks}/deliveries/{deliveryId}/resend`,
    summary: "Queue a delivered or failed delivery again: the same webhook-id, a fresh 24 h of attempts",
    role: "ProjectManager",
    scope: "webhooks:write",
    responses: {
      202: { description: "The delivery, pending again", schema: deliverySchema },
      409: { description: "The delivery is still pending" },
    },
  },
  {
    method: "get",
    path: `${webhooks}/signing-secret`,
    summary: "The project's Standard Webhooks signing secret (whsec_…), made on first need",
    role: "ProjectManager",
    scope: "read",
    responses: { 200: { description: "The secret", schema: signingSecretSchema } },
  },
  {
    method: "post",
    path: `${webhooks}/signing-secret/rotate`,
    summary: "Replace the signing secret; for 24 h deliveries carry a signature made with the previous one too",
    role: "ProjectManager",
    scope: "webhooks:write",
    responses: { 200: { description: "The new secret", schema: signingSecretSchema } },
  },
  {
    method: "get",
    path: "/api/credentials",
    summary: "List a project's API credentials (never the secret)",
    role: "ProjectManager",
    scope: "read",
    query: listCredentialsQuery,
    responses: { 200: { description: "The credentials", schema: listOf(credentialSchema) } },
  },
  {
    method: "post",
    path: "/api/credentials",
    summary: "Create an API credential; the secret is returned only here",
    role: "ProjectManager",
    scope: "credentials:write",
    body: createCredentialBody,
    responses: { 201: { description: "The new credential with its secret", schema: createdCredentialSchema } },
  },
  {
    method: "post",
    path: "/api/credentials/{id}/revoke",
    summary: "Revoke an API credential (idempotent)",
    role: "ProjectManager",
    scope: "credentials:write",
    responses: { 200: { description: "The revoked credential", schema: credentialSchema } },
  },
  {
    method: "get",
    path: "/api/me",
    summary: "The caller: their organizations (role null when they belong only through a project) and their projects with the effective role",
    role: "user",
    scope: "read",
    responses: { 200: { description: "The caller", schema: meSchema } },
  },
  {
    method: "get",
    path: "/api/me/tokens",
    summary: "The caller's personal access tokens (never the token itself)",
    role: "user",
    scope: "read",
    responses: { 200: { description: "The tokens", schema: listOf(personalAccessTokenSchema) } },
  },
  {
    method: "post",
    path: "/api/me/tokens",
    summary: "Create a personal access token for the caller; the token is returned only here",
    role: "user",
    scope: "tokens:write",
    body: createOwnTokenBody,
    responses: { 201: { description: "The new token", schema: createdPersonalAccessTokenSchema } },
  },
  {
    method: "post",
    path: "/api/me/tokens/{id}/revoke",
    summary: "Revoke one of the caller's tokens (idempotent); it stops authenticating at once",
    role: "user",
    scope: "tokens:write",
    responses: { 200: { description: "The revoked token", schema: personalAccessTokenSchema } },
  },
  {
    method: "post",
    path: "/api/organizations/{orgId}/projects",
    summary: "Create a project in the organization",
    role: "OrganizationAdmin",
    scope: "projects:write",
    body: createProjectBody,
    responses: { 201: { description: "The new project" } },
  },
  {
    method: "get",
    path: "/api/organizations/{orgId}/members",
    summary: "Memberships on the organization and on each of its projects",
    role: "OrganizationAdmin",
    scope: "read",
    responses: { 200: { description: "The members", schema: listOf(memberSchema) } },
  },
  {
    method: "post",
    path: "/api/organizations/{orgId}/members",
    summary:
      "Invite by email: a pending invitation (7 days) that grants nothing until the person accepts it at its accept URL, returned only here; the same answer whether the address has an account or not; an open invitation for the same address and scope is replaced; 409 if already a member on that scope",
    role: "OrganizationAdmin",
    scope: "members:write",
    body: inviteMemberBody,
    responses: { 201: { description: "The invitation, status pending, and its accept URL", schema: createdInvitationSchema } },
  },
  {
    method: "get",
    path: "/api/organizations/{orgId}/invitations",
    summary: "The organization's invitations not yet accepted or revoked (pending, or expired), newest first",
    role: "OrganizationAdmin",
    scope: "read",
    responses: { 200: { description: "The invitations", schema: listOf(invitationSchema) } },
  },
  {
    method: "delete",
    path: "/api/organizations/{orgId}/invitations/{invitationId}",
    summary: "Revoke an invitation: its accept URL stops working (idempotent); 409 once accepted (remove the membership instead)",
    role: "OrganizationAdmin",
    scope: "members:write",
    responses: { 204: { description: "Revoked" } },
  },
  {
    method: "post",
    path: "/api/invitations/accept",
    summary:
      "Accept an invitation as the signed-in console user, whose email must be the invited address (a bearer token cannot accept); 410 when revoked, expired or accepted already",
    role: "user",
    body: acceptInvitationBody,
    responses: { 200: { description: "The membership made", schema: acceptedInvitationSchema } },
  },
  {
    method: "post",
    path: "/api/invitations/create-account",
    summary:
      "Accept an invitation to an address without an account by choosing its password: the account and the membership are made; 409 when the address has an account (sign in and accept instead); 410 when revoked, expired or accepted already",
    role: "public",
    body: createAccountFromInvitationBody,
    responses: { 201: { description: "The membership made", schema: acceptedInvitationSchema } },
  },
  {
    method: "patch",
    path: "/api/organizations/{orgId}/members/{membershipId}",
    summary: "Change a membership's role; 409 for the organization's last OrganizationAdmin",
    role: "OrganizationAdmin",
    scope: "members:write",
    body: changeMemberRoleBody,
    responses: { 200: { description: "The membership", schema: memberSchema } },
  },
  {
    method: "delete",
    path: "/api/organizations/{orgId}/members/{membershipId}",
    summary: "Remove a membership (the user's console sessions end); 409 for the organization's last OrganizationAdmin",
    role: "OrganizationAdmin",
    scope: "members:write",
    responses: { 204: { description: "Removed" } },
  },
  {
    method: "post",
    path: "/api/embed-sessions",
    summary: "Mint an embed-session token for a customer site (pass it to the SDK)",
    role: "credential",
    body: embedSessionBody,
    responses: { 201: { description: "The token, its expiry and the player URL", schema: embedSessionSchema } },
  },
  {
    method: "get",
    path: "/api/embed/manifest",
    summary: "The page manifest the player plays: template files, bound data, CTA, consent mode, a fresh ingest token",
    role: "public",
    query: manifestQuery,
    responses: { 200: { description: "The page manifest" } },
  },
  {
    method: "get",
    path: "/api/embed/posters/{slug}",
    summary: "The share's poster image (its Open Graph image too)",
    role: "public",
    responses: { 200: { description: "The poster" } },
  },
  {
    method: "get",
    path: "/api/embed/files/{fileId}/{name}",
    summary: "A template file for the player; ?expires=&signature= from the page manifest are its authorization",
    role: "public",
    responses: { 200: { description: "The file" } },
  },
  {
    method: "get",
    path: "/api/previews/{file}",
    summary: "A rendered preview PNG; ?expires=&signature= from the preview call are its authorization",
    role: "public",
    responses: { 200: { description: "The PNG" } },
  },
  {
    method: "post",
    path: "/api/Projects/{projectId}/campaigns/{campaignId}/thumbnails",
    summary:
      "Queue an email thumbnail per recipient: a 3 s GIF loop with a play button, of the template the campaign's share serves with the recipient's data; only recipients without one (or whose last one failed)",
    role: "Editor",
    scope: "renders:write",
    responses: { 202: { description: "Queued", schema: queuedThumbnailsSchema }, 409: { description: "The campaign's channel has no share or no template" } },
  },
  {
    method: "get",
    path: "/api/Projects/{projectId}/campaigns/{campaignId}/thumbnails",
    summary: "The campaign's recipients with their thumbnail: status, signed URL (30 days), recipient URL and the HTML of a linked image for an email",
    role: "Viewer",
    scope: "read",
    query: listThumbnailsQuery,
    responses: { 200: { description: "A page of recipients", schema: thumbnailPageSchema } },
  },
  {
    method: "get",
    path: "/api/renders/{renderId}/download",
    summary: "A finished render's file (byte ranges supported); ?expires=&signature= from the render are its authorization",
    role: "public",
    responses: {
      200: { description: "The MP4, GIF or PNG", media: ["video/mp4", "image/gif", "image/png"] },
      206: { description: "A byte range of it", media: ["video/mp4", "image/gif", "image/png"] },
    },
  },
  {
    method: "get",
    path: "/api/health",
    summary: "Readiness: 200 when the database answers, 503 when it does not",
    role: "public",
    responses: { 200: { description: "Ready", schema: healthSchema }, 503: { description: "The database does not answer" } },
  },
  {
    method: "get",
    path: "/api/openapi.json",
    summary: "This document",
    role: "public",
    responses: { 200: { description: "The OpenAPI 3.1 document" } },
  },
  {
    method: "post",
    path: "/api/internal/cli",
    summary: "Runs a reelbind CLI command while this server holds the embedded database",
    role: "admin-channel",
    internal: true,
    responses: { 200: { description: "The command's result" } },
  },
  ...(["get", "post"] as const).map(
    (method): Operation => ({
      method,
      path: "/api/uploadthing",
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
      summary: "next-auth: the console's sign-in, session and sign-out",
      role: "public",
      internal: true,
      responses: { 200: { description: "next-auth's answer" } },
    }),
  ),
];

function describeAccess({ role, scope }: Operation) {
  if (role === "credential") return { description: "Authenticated with an API credential: HTTP Basic apiKey:apiSecret.", security: [{ apiCredential: [] }] };
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

/** The template upload's form: its text fields, and its files as binary parts (typed clients send a Blob for each). */
function templateUploadForm() {
  const fields = jsonSchema(uploadFieldsSchema, "input") as { properties: Record<string, object>; required?: string[] };
  const file = { type: "string", format: "binary" };
  return {
    type: "object",
    properties: { ...fields.properties, ...Object.fromEntries(singleFileRoles.map((role) => [role, file])), assetFiles: { type: "array", items: file } },
    required: fields.required,
    additionalProperties: false,
  };
}

const mediaContent = (media: string[]) =>
  Object.fromEntries(media.map((type) => [type, { schema: type.startsWith("text/") ? { type: "string" } : { type: "string", format: "binary" } }]));

const problemResponse = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
});

export function buildOpenApiDocument(serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    if (op.internal) continue;
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(op.responses)) {
      responses[status] = {
        description: response.description,
        ...(response.schema ? { content: { "application/json": { schema: jsonSchema(response.schema, "output") } } } : {}),
        ...(response.media ? { content: mediaContent(response.media) } : {}),
      };
    }
    Object.assign(responses, {
      400: problemResponse("Malformed JSON"),
      ...(op.role === "public" ? {} : { 401: problemResponse(op.role === "credential" ? "Missing, wrong or revoked API credential" : "Missing or invalid bearer token") }),
      ...(op.role === "public" || op.role === "credential"
        ? {}
        : { 403: problemResponse(op.role === "user" ? "The token's scopes do not cover it" : `Role below ${op.role}, or the token's scopes do not cover it`) }),
      404: problemResponse("Not found, or no access to the project"),
      422: problemResponse("Validation failed; errors lists each path"),
    });
    paths[op.path] ??= {};
    paths[op.path]![op.method] = {
      summary: op.summary,
      ...describeAccess(op),
      parameters: [...pathParameters(op.path), ...queryParameters(op.query)],
      ...(op.body
        ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(op.body, "input") }, ...(op.csv ? mediaContent(["text/csv"]) : {}) } } }
        : {}),
      ...(op.upload ? { requestBody: { required: true, content: { "multipart/form-data": { schema: templateUploadForm() } } } } : {}),
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Reelbind management API", version: "1" },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: `Personal access token (rbk_…). A call needs the user's role and the token's scope; scopes: ${tokenScopes.join(", ")} (read covers every read, each write scope the changes to its resource).`,
        },
        apiCredential: { type: "http", scheme: "basic", description: "API credential: apiKey (pk_…) as user name, apiSecret (sk_…) as password" },
      },
      schemas: { Problem: jsonSchema(problemSchema, "output") },
    },
    paths,
  };
}
