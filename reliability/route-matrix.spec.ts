import { randomUUID } from "node:crypto";
import { connect } from "node:net";
import { expect, test } from "@playwright/test";
import { highestRole, roleRank, roles } from "@/lib/auth/permissions";
import { tokenScopes, type TokenScope } from "@/lib/auth/token-scopes";
import type { Role } from "@/lib/db/schema";
import { env } from "../e2e/owned-project";
import { useOwnSuiteApp } from "./own-app";
import { servedOperations, type Operation } from "./served-operations";
import { appLogReader, send, wrongAnswer, type SentRequest } from "./server-watch";
import {
  addCampaignRecipient,
  addMember,
  basic,
  bearer,
  callOk,
  createCredential,
  createRecipientVictim,
  createUploadVictim,
  createWebhookVictim,
  inParallel,
  lightsJsonText,
  lightsSessionBody,
  lightsUploadForm,
  setUpTenants,
  uploadTemplate,
  type Credential,
  type Member,
  type Project,
  type Tenants,
} from "./tenants";

// Issue 15, "Bad inputs tried": every route of the route table (the OpenAPI document the app
// serves, built from each route file's contract: ./served-operations.ts) × every
// caller × own project, a foreign project of the same organization and a project of a foreign
// organization. The expected status comes from the route table's declared minimum role and
// the caller's memberships (lib/auth/permissions), never from the server: 401 without valid
// credentials, 404 without access to the project (its existence is not revealed), 403 with
// a role below the minimum, the route's own success status otherwise. Also: a method a path
// does not take, and paths no route has, under /api and /analytics.

type Tenant = "own" | "foreign project" | "foreign organization";
const tenantNames: Tenant[] = ["own", "foreign project", "foreign organization"];

/** Who calls: a member of organization A (on the organization or on its own project; `scopes`: with a token of those scopes only), or no valid credentials. */
type Caller =
  | { label: string; kind: "member"; member: Member; scopes?: TokenScope[] }
  | { label: string; kind: "credential"; credential: Credential }
  | { label: string; kind: "none"; headers: Record<string, string> };

/** This spec counts its app's rows and reads its log: it has an app of its own (own-app.ts). */
let leaveOwnApp: (() => Promise<void>) | undefined;
let tenants: Tenants;
let callers: Caller[];
let operations: Operation[];
/** What each tenant's signed routes are called with: a template file URL of its share and a preview URL, each with its query. */
let signedUrls: Map<Tenant, { fileId: string; fileName: string; fileQuery: string; previewFile: string; previewQuery: string; renderQuery: string }>;
/** Per tenant, resources a refused call may point at: they exist, so a 404 is about access, not absence. */
let victims: Map<
  Tenant,
  {
    credentialId: string;
    membershipId: string;
    invitationId: string;
    tokenId: string;
    endpointId: string;
    deliveryId: string;
    campaignId: string;
    /** A recipient of campaignId that the reads and the refused edits point at (the edits that succeed use fresh ones). */
    recipientId: string;
    recipientToken: string;
    /** An embed session of the tenant's share, for the session's captions. */
    sessionToken: string;
    renderId: string;
    uploadId: string;
    partUrl: string;
  }
>;

const projectOf = (tenant: Tenant): Project =>
  tenant === "own" ? tenants.own : tenant === "foreign project" ? tenants.foreignProject : tenants.foreignOrg;

/**
 * The statuses the route table, the role rules and the token's scopes allow for this call. A
 * token with `read` alone gets 403 for every unsafe method, before any lookup (withActor); one
 * whose scopes lack the operation's scope (the route table's) gets 403 where its role would have
 * passed, and on the account routes, which check the scope first.
 */
function expectedStatuses(op: Operation, caller: Caller, tenant: Tenant): number[] {
  const statuses = expectedByScope(op, caller, tenant);
  const instead = answersWithoutState[`${op.method} ${op.path}`];
  return instead === undefined ? statuses : statuses.map((status) => (status < 300 ? instead : status));
}

/** Routes whose success needs a state the tenants are not in: what they answer instead once the role rules let the call through. */
const answersWithoutState: Record<string, number> = {
  // The tenants' STAGING share runs no A/B test.
  "get /api/Projects/{projectId}/public-video-shares/{channel}/variants/comparison": 409,
  // No tenant's organization signs in example.com addresses through single sign-on.
  "post /api/sso/lookup": 404,
};

function expectedByScope(op: Operation, caller: Caller, tenant: Tenant): number[] {
  const byRole = expectedByRole(op, caller, tenant);
  if (caller.kind !== "member" || !caller.scopes || (op.role !== "user" && !(roles as readonly string[]).includes(op.role))) return byRole;
  if (!caller.scopes.some((scope) => scope !== "read") && op.method !== "get") return [403];
  if (!op.scope || caller.scopes.includes(op.scope)) return byRole;
  if (op.role === "user") return [403];
  return byRole.some((status) => status < 300) ? [403] : byRole;
}

/** The statuses the route table and the role rules allow for this call. */
function expectedByRole(op: Operation, caller: Caller, tenant: Tenant): number[] {
  const success = op.successStatuses.filter((status) => status < 300);
  if (op.role === "public") return success;
  if (op.role === "credential") return caller.kind !== "credential" ? [401] : tenant === "own" ? success : [404];
  // The account's own sign-in settings: the matrix's members call with tokens, which are refused
  // before anything is read (app/api/me/account.test.ts and e2e/account.spec.ts call them as sessions).
  if (op.role === "session") return caller.kind === "member" ? [403] : [401];
  if (caller.kind !== "member") return [401];
  if (op.role === "user") return tenant === "own" || !op.path.includes("{id}") ? success : [404];
  const { member } = caller;
  // Every member belongs to organization A: on the organization itself, or on its own project.
  const inOrganizationA = tenant !== "foreign organization";
  const meets = (role: Role | null) => role !== null && roleRank(role) >= roleRank(op.role as Role);
  if (op.path.startsWith("/api/organizations/")) {
    if (!inOrganizationA) return [404];
    return meets(member.scope === "organization" ? member.role : null) ? success : [403];
  }
  const roleOnProject = highestRole([
    member.scope === "organization" && inOrganizationA ? member.role : null,
    member.scope === "project" && tenant === "own" ? member.role : null,
  ]);
  if (!roleOnProject) return [404];
  return meets(roleOnProject) ? success : [403];
}

/** Headers of the caller; an admin of the tenant's organization makes what a successful call uses up. */
const headersOf = (caller: Caller) =>
  caller.kind === "member" ? bearer(caller.member.token) : caller.kind === "credential" ? basic(caller.credential) : caller.headers;

/** The request for one cell: path parameters, query and body pointing at the tenant's project. */
async function requestFor(op: Operation, caller: Caller, tenant: Tenant, succeeds: boolean): Promise<SentRequest> {
  const project = projectOf(tenant);
  const admin = bearer(project.adminToken);
  const victim = victims.get(tenant)!;
  const signed = signedUrls.get(tenant)!;
  const fresh = async (name: string): Promise<string> => {
    if (!succeeds) return name === "templateId" ? project.templateId : name in victim ? victim[name as keyof typeof victim] : victim.credentialId;
    if (name === "templateId") return uploadTemplate(project.projectId, project.adminToken);
    if (name === "uploadId") return (await createUploadVictim(project.projectId, project.adminToken, true)).uploadId;
    if (name === "endpointId" || name === "deliveryId") return (await createWebhookVictim(project.projectId, project.adminToken))[name];
    if (name === "invitationId") return (await inviteVictim(project)).id;
    if (name === "recipientId") return addCampaignRecipient(project, victim.campaignId, `matrix-${randomUUID()}`);
    if (name === "membershipId") {
      const member = await addMember(project, "Viewer", "project");
      const { items } = await callOk<{ items: { id: string; userId: string }[] }>("GET", `/api/organizations/${project.orgId}/members`, admin);
      return items.find((item) => item.userId === member.userId)!.id;
    }
    return (await createCredential(project.projectId, project.adminToken)).id;
  };
  const consumes = op.method === "delete" || /\/(deploy|archive|revoke|resend|complete|regenerate-url)$/.test(op.path) || op.method === "patch";
  // The standing session's one part: every caller may send it again (the URL is the authorization).
  const [, , , sessionId, , fileIndex, , partNumber] = new URL(victim.partUrl, "http://matrix").pathname.split("/");
  const values: Record<string, string> = {
    projectId: project.projectId,
    orgId: project.orgId,
    channel: "STAGING",
    slug: project.share.slug,
    fileId: signed.fileId,
    name: signed.fileName,
    file: signed.previewFile,
    campaignId: victim.campaignId,
    token: victim.recipientToken,
    renderId: victim.renderId,
    sessionId: sessionId!,
    fileIndex: fileIndex!,
    partNumber: partNumber!,
  };
  for (const [, name] of op.path.matchAll(/\{(\w+)\}/g)) {
    if (values[name!] !== undefined) continue;
    if (name === "id" && op.path.startsWith("/api/me/")) {
      // The caller's own token, or another user's.
      values.id = tenant === "own" && succeeds && caller.kind === "member"
        ? (await callOk<{ id: string }>("POST", "/api/me/tokens", bearer(caller.member.token), { name: "revoked by the matrix" }, 201)).id
        : victim.tokenId;
    } else {
      const standing =
        name === "templateId" ? project.templateId : name === "endpointId" || name === "deliveryId" || name === "uploadId" ? victim[name] : victim.credentialId;
      values[name!] = consumes ? await fresh(name === "id" ? "credentialId" : name!) : standing;
    }
  }
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name]!);
  // A cancel that succeeds needs a go-live to cancel: its fresh template gets one, tomorrow.
  if (succeeds && op.path.endsWith("/scheduled-deploy")) {
    await callOk("POST", `/api/Projects/${project.projectId}/templates/${values.templateId}/deploy`, admin, { at: new Date(Date.now() + 86_400_000).toISOString() });
  }
  // A promote that succeeds ends a test: each gets one of its own (the standing template and a fresh one), promoting the standing one.
  if (succeeds && op.path.endsWith("/variants/promote")) {
    const candidate = await uploadTemplate(project.projectId, project.adminToken);
    await callOk("PUT", `/api/Projects/${project.projectId}/public-video-shares/STAGING/variants`, admin, { variants: [{ templateId: project.templateId, weight: 50 }, { templateId: candidate, weight: 50 }] });
  }
  const queries: Record<string, string> = {
    "get /api/credentials": `?projectId=${project.projectId}`,
    "get /api/embed/manifest": `?share=${project.share.slug}`,
    "get /api/embed/captions": `?session=${encodeURIComponent(victim.sessionToken)}`,
    "get /api/embed/files/{fileId}/{name}": `?${signed.fileQuery}`,
    "get /api/previews/{file}": `?${signed.previewQuery}`,
    "get /api/Projects/{projectId}/analytics/heatmap": `?templateId=${project.templateId}`,
    "get /api/renders/{renderId}/download": `?${signed.renderQuery}`,
    "put /api/uploads/{sessionId}/files/{fileIndex}/parts/{partNumber}": new URL(victim.partUrl, "http://matrix").search,
  };
  const bodies: Record<string, unknown> = {
    "post /api/Projects/{projectId}/templates/{templateId}/preview": { data: {} },
    "post /api/Projects/{projectId}/templates/{templateId}/renders": { data: {}, format: "png" },
    "put /api/Projects/{projectId}/public-video-shares/{channel}": { publicTitle: "Matrix", apiCredentialId: project.credential.id },
    "post /api/credentials": { projectId: project.projectId, name: "matrix" },
    "post /api/me/tokens": { name: "matrix" },
    "put /api/organizations/{orgId}/two-factor": { required: false },
    "post /api/organizations/{orgId}/projects": { name: "matrix" },
    "post /api/organizations/{orgId}/members": { email: `matrix-${randomUUID()}@example.com`, role: "Viewer" },
    "patch /api/organizations/{orgId}/members/{membershipId}": { role: "Editor" },
    "put /api/organizations/{orgId}/sso": { issuer: "https://idp.example.com", clientId: "matrix", clientSecret: "matrix secret" },
    "post /api/sso/lookup": { email: "matrix@example.com" },
    "post /api/embed-sessions": { shareSlug: project.share.slug },
    "post /api/Projects/{projectId}/webhooks": { url: "http://127.0.0.1:9/matrix" },
    "patch /api/Projects/{projectId}/webhooks/{endpointId}": { description: "matrix" },
    "patch /api/Projects/{projectId}/campaigns/{campaignId}/recipients/{recipientId}": { email: "matrix-edit@example.com" },
    "post /api/Projects/{projectId}/campaigns": { name: "Matrix", channel: "STAGING" },
    // The same content every time: the first import answers 201, every later one 200 (nothing added).
    "post /api/Projects/{projectId}/campaigns/{campaignId}/recipients": { recipients: [{ id: "matrix-1", text: "Matrix" }] },
    "post /api/Projects/{projectId}/templates/uploads": lightsSessionBody("Matrix"),
    "post /api/Projects/{projectId}/templates/uploads/{uploadId}/complete": {},
    "put /api/Projects/{projectId}/public-video-shares/{channel}/variants": { variants: [] },
    "post /api/Projects/{projectId}/public-video-shares/{channel}/variants/promote": { templateId: project.templateId },
    "put /api/Projects/{projectId}/channels/DEV": { templateId: null },
    "put /api/Projects/{projectId}/channels/STAGING": { templateId: null },
    "put /api/uploads/{sessionId}/files/{fileIndex}/parts/{partNumber}": JSON.parse(lightsJsonText()) as unknown,
  };
  const key = `${op.method} ${op.path}`;
  const headers: Record<string, string> = { ...headersOf(caller) };
  if (op.multipart) return { method: "POST", url: path, headers, body: lightsUploadForm("Matrix") };
  if (key in bodies) headers["Content-Type"] = "application/json";
  return { method: op.method.toUpperCase(), url: `${path}${queries[key] ?? ""}`, headers, body: key in bodies ? JSON.stringify(bodies[key]) : undefined };
}

/**
 * The matrix's operations: all of the document (next-auth's and UploadThing's own protocols and
 * the CLI's channel are not in it; the channel has its own test below) but accepting an invitation, whose
 * authorization is the invitation's secret and the invited address's console session, not a
 * role (app/api/organizations/[orgId]/invitations/invitations.test.ts, e2e/security-invitations.spec.ts),
 * password resets, open to anyone and limited per address asked for and per client address
 * (app/api/password-resets/password-resets.test.ts, e2e/mail.spec.ts),
 * and ingest (/analytics/…), whose authorization is an ingest token (e2e/ingest.spec.ts, e2e/security-limits-ingest.spec.ts),
 * and the two-factor changes under /api/me/two-factor/, which only a console session may make, never a token
 * (app/api/me/two-factor/two-factor.test.ts, e2e/two-factor.spec.ts).
 */
const matrixOperations = () =>
  operations.filter(
    (op) => !op.path.startsWith("/api/invitations/") && !op.path.startsWith("/api/password-resets") && !op.path.startsWith("/analytics/") && !op.path.startsWith("/api/me/two-factor/"),
  );

/** An open invitation of the project's organization, to a new address. */
const inviteVictim = (project: Project) =>
  callOk<{ id: string }>("POST", `/api/organizations/${project.orgId}/members`, bearer(project.adminToken), { email: `matrix-victim-${randomUUID()}@example.com`, role: "Viewer" }, 201);

/**
 * Members calling with tokens of fewer scopes: read-only tokens of an OrganizationAdmin and of a
 * project's Editor, and one token per write scope (with read) of the OrganizationAdmin, so that
 * every route's scope in the route table is checked against the handler, both ways.
 */
function scopedCallers(): Promise<Caller>[] {
  const admin = tenants.members.find((member) => member.role === "OrganizationAdmin" && member.scope === "organization")!;
  const editor = tenants.members.find((member) => member.role === "Editor" && member.scope === "project")!;
  const wanted: [Member, TokenScope[]][] = [
    [admin, ["read"]],
    [editor, ["read"]],
    ...tokenScopes.filter((scope) => scope !== "read").map((scope): [Member, TokenScope[]] => [admin, ["read", scope]]),
  ];
  return wanted.map(async ([member, scopes]): Promise<Caller> => {
    const { token } = await callOk<{ token: string }>("POST", "/api/me/tokens", bearer(member.token), { name: scopes.join(" "), scopes }, 201);
    return { label: `${member.role} on the ${member.scope}, token scoped ${scopes.join(", ")}`, kind: "member", member: { ...member, token }, scopes };
  });
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  leaveOwnApp = await useOwnSuiteApp("route-matrix");
  operations = await servedOperations();
  tenants = await setUpTenants("Route matrix", { withMembers: true });
  const revokedToken = await callOk<{ id: string; token: string }>("POST", "/api/me/tokens", bearer(tenants.members[0]!.token), { name: "revoked" }, 201);
  await callOk("POST", `/api/me/tokens/${revokedToken.id}/revoke`, bearer(tenants.members[0]!.token));
  const revokedCredential = await createCredential(tenants.own.projectId, tenants.own.adminToken);
  await callOk("POST", `/api/credentials/${revokedCredential.id}/revoke`, bearer(tenants.own.adminToken));
  callers = [
    { label: "anonymous", kind: "none", headers: {} },
    { label: "an unknown token", kind: "none", headers: bearer(`rbk_${randomUUID().replaceAll("-", "")}`) },
    { label: "a revoked token", kind: "none", headers: bearer(revokedToken.token) },
    { label: "a malformed Authorization", kind: "none", headers: { Authorization: "Bearer" } },
    { label: "a revoked credential (pk_/sk_)", kind: "none", headers: basic(revokedCredential) },
    { label: "the own project's credential (pk_/sk_)", kind: "credential", credential: tenants.own.credential },
    ...tenants.members.map((member): Caller => ({ label: `${member.role} on the ${member.scope}`, kind: "member", member })),
    ...(await Promise.all(scopedCallers())),
  ];

  const entries = await inParallel(tenantNames, 3, async (tenant) => {
    const project = projectOf(tenant);
    const admin = bearer(project.adminToken);
    await callOk("PUT", `/api/Projects/${project.projectId}/public-video-shares/STAGING`, admin, { publicTitle: "Staging", apiCredentialId: project.credential.id }, 201);
    const manifest = await callOk<{ template: { files: { templateJson: string } } }>("GET", `/api/embed/manifest?share=${project.share.slug}`, {});
    const file = new URL(manifest.template.files.templateJson);
    const [, , , , fileId, fileName] = file.pathname.split("/");
    const preview = new URL((await callOk<{ url: string }>("POST", `/api/Projects/${project.projectId}/templates/${project.templateId}/preview`, admin, { data: {} })).url);
    const render = await callOk<{ id: string }>("POST", `/api/Projects/${project.projectId}/templates/${project.templateId}/renders`, admin, { format: "png" }, 202);
    const renderUrl = `/api/Projects/${project.projectId}/templates/${project.templateId}/renders/${render.id}`;
    let rendered = await callOk<{ status: string; downloadUrl?: string }>("GET", renderUrl, admin);
    // Polled until done; the 120 s is only a guard against a hang.
    for (const giveUpAt = Date.now() + 120_000; rendered.status !== "done" && Date.now() < giveUpAt; ) {
      if (rendered.status === "failed") throw new Error(`the matrix's render failed: ${JSON.stringify(rendered)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      rendered = await callOk("GET", renderUrl, admin);
    }
    const [credential, member, token, webhook, campaign, upload, invitation] = await Promise.all([
      createCredential(project.projectId, project.adminToken),
      addMember(project, "Viewer", "project"),
      callOk<{ id: string }>("POST", "/api/me/tokens", admin, { name: "victim" }, 201),
      createWebhookVictim(project.projectId, project.adminToken),
      // DEV: the share that serves the tenant's template, so the campaign's thumbnails can be rendered.
      callOk<{ id: string }>("POST", `/api/Projects/${project.projectId}/campaigns`, admin, { name: "Victim", channel: "DEV" }, 201),
      createUploadVictim(project.projectId, project.adminToken, false),
      inviteVictim(project),
    ]);
    const { items } = await callOk<{ items: { id: string; userId: string }[] }>("GET", `/api/organizations/${project.orgId}/members`, admin);
    const recipientToken = await createRecipientVictim(project, campaign.id);
    const session = await callOk<{ token: string }>("POST", "/api/embed-sessions", basic(project.credential), { shareSlug: project.share.slug }, 201);
    const recipientId = await addCampaignRecipient(project, campaign.id, "edit-victim");
    return {
      tenant,
      signed: { fileId: fileId!, fileName: fileName!, fileQuery: file.search.slice(1), previewFile: preview.pathname.split("/").pop()!, previewQuery: preview.search.slice(1), renderQuery: new URL(rendered.downloadUrl!).search.slice(1) },
      victim: {
        credentialId: credential.id,
        membershipId: items.find((item) => item.userId === member.userId)!.id,
        invitationId: invitation.id,
        tokenId: token.id,
        ...webhook,
        campaignId: campaign.id,
        recipientId,
        recipientToken,
        sessionToken: session.token,
        renderId: render.id,
        ...upload,
      },
    };
  });
  signedUrls = new Map(entries.map(({ tenant, signed }) => [tenant, signed]));
  victims = new Map(entries.map(({ tenant, victim }) => [tenant, victim]));
});

test.afterAll(async () => {
  await leaveOwnApp?.();
});

test("every route × every caller × own project, foreign project, foreign organization – the status the role rules give", async () => {
  const appLog = appLogReader();
  const started = Date.now();
  const unexpected: string[] = [];
  const statuses = new Map<number, number>();
  let cells = 0;
  for (const op of matrixOperations()) {
    for (const caller of callers) {
      for (const tenant of tenantNames) {
        const expected = expectedStatuses(op, caller, tenant);
        const request = await requestFor(op, caller, tenant, expected.some((status) => status < 300));
        const answer = await send(request);
        cells += 1;
        if ("status" in answer) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const where = `${op.method.toUpperCase()} ${op.path} – ${caller.label} – ${tenant}`;
        if ("error" in answer || !expected.includes(answer.status)) {
          unexpected.push(`${where}: expected ${expected.join(" or ")}, got ${"error" in answer ? answer.error : `${answer.status} ${answer.body.slice(0, 160)}`}`);
        } else {
          const wrong = wrongAnswer(answer, request.method);
          if (wrong) unexpected.push(`${where}: ${wrong}`);
        }
      }
    }
  }
  const printed = appLog.read().errors;
  console.log(
    `route matrix: ${matrixOperations().length} routes × ${callers.length} callers × ${tenantNames.length} tenants = ${cells} calls, ` +
      `${unexpected.length} unexpected, ${printed.length} error lines in the app's output, ${((Date.now() - started) / 1000).toFixed(0)} s; ` +
      `statuses: ${[...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status} ×${n}`).join(", ")}`,
  );
  expect(unexpected).toEqual([]);
  expect(printed).toEqual([]);
});

test("the CLI's channel (POST /api/internal/cli) – 401 problem+json for every caller: only DATA_DIR's secret opens it", async () => {
  const wrong: string[] = [];
  for (const caller of callers) {
    const request = { method: "POST", url: "/api/internal/cli", headers: { ...headersOf(caller), "Content-Type": "application/json" }, body: JSON.stringify({ command: "db row-counts", options: {} }) };
    const answer = await send(request);
    const problem = wrongAnswer(answer, "POST");
    if ("error" in answer || answer.status !== 401 || problem) wrong.push(`${caller.label}: ${problem ?? ("error" in answer ? answer.error : answer.status)}`);
  }
  expect(callers.length).toBeGreaterThan(5);
  expect(wrong).toEqual([]);
});

test("a method a route does not take – 405 problem+json, on every path of the route table", async () => {
  const token = bearer(tenants.own.adminToken);
  const wrong: string[] = [];
  const paths = [...new Set(matrixOperations().map((op) => op.path))];
  for (const path of paths) {
    const taken = new Set(operations.filter((op) => op.path === path).map((op) => op.method));
    const request = await requestFor(operations.find((op) => op.path === path)!, { label: "admin", kind: "none", headers: token }, "own", false);
    for (const method of (["get", "post", "put", "patch", "delete"] as const).filter((m) => !taken.has(m))) {
      const answer = await send({ method: method.toUpperCase(), url: request.url, headers: token });
      const problem = wrongAnswer(answer, method);
      if ("error" in answer || answer.status !== 405 || problem) wrong.push(`${method.toUpperCase()} ${path}: ${problem ?? ("error" in answer ? answer.error : answer.status)}`);
    }
  }
  expect(wrong).toEqual([]);
});

test("paths no route has, under /api and /analytics – 404 problem+json for every method", async () => {
  const project = tenants.own.projectId;
  const paths = [
    "/api/nope",
    "/api/Projects",
    `/api/Projects/${project}`,
    `/api/Projects/${project}/nope`,
    `/api/Projects/${project}/templates/${tenants.own.templateId}/nope`,
    "/api/Projects/%2e%2e/templates",
    "/api/Projects/../templates",
    `/api/me/tokens/${randomUUID()}`,
    "/api/embed/files/x",
    "/analytics/nope",
    "/analytics/v1",
    "/analytics/v1/events/more",
    "/analytics/v2/events",
  ];
  const wrong: string[] = [];
  for (const path of paths) {
    for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
      const answer = await send({ method, url: path, headers: bearer(tenants.own.adminToken) });
      const problem = wrongAnswer(answer, method);
      if ("error" in answer || answer.status !== 404 || problem) wrong.push(`${method} ${path}: ${problem ?? ("error" in answer ? answer.error : `${answer.status} ${answer.contentType}`)}`);
    }
  }
  expect(wrong).toEqual([]);
});

test("requests Node's HTTP parser refuses – problem+json with Node's status, not an empty answer", async () => {
  const longUrl = await send({ method: "GET", url: `/api/me?q=${"x".repeat(20_000)}`, headers: bearer(tenants.own.adminToken) });
  expect(longUrl).toMatchObject({ status: 431, contentType: "application/problem+json" });
  expect(wrongAnswer(longUrl, "GET")).toBeNull();
  const base = new URL(env("E2E_BASE_URL"));
  const garbage = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(base.port), base.hostname, () => socket.end("NOT HTTP AT ALL\r\n\r\n"));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.on("error", reject);
  });
  expect(garbage).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  expect(garbage).toContain("Content-Type: application/problem+json");
  expect(JSON.parse(garbage.slice(garbage.indexOf("\r\n\r\n") + 4))).toMatchObject({ status: 400, code: "bad_request" });
});
