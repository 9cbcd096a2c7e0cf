import { readFileSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import { expect, test } from "@playwright/test";
import Ajv2020 from "ajv/dist/2020.js";
import fc from "fast-check";
import { ctaClick, type Manifest } from "../e2e/wire-events";
import { badValue, bodyCases, mutationOf, queryCases, type BodyCase, type JsonSchema } from "./bad-values";
import { useOwnSuiteApp } from "./own-app";
import { bodyValidator, servedOperations, type Operation } from "./served-operations";
import { appLogReader, blobFiles, isRejected, rowCounter, RowLedger, send, wrongAnswer, type SentRequest } from "./server-watch";
import { addCampaignRecipient, addMember, basic, bearer, callOk, createCredential, createRecipientVictim, createUploadVictim, createWebhookVictim, lightsSessionBody, setUpTenants, uploadTemplate, type Project } from "./tenants";
import { uploadCases } from "./upload-cases";

// Issue 15, "Bad inputs tried": fast-check over every management endpoint of the route table
// (its JSON body, its query string, its path parameters), the multipart template upload and
// the analytics ingest, on the app global-setup started. For every case: no 5xx, no reset
// connection, a 4xx is problem+json with a detail, a refused request changed no row of any
// table (and left no blob or temp file); after each endpoint, nothing in the app's output
// says an error escaped. BAD_INPUT_SCALE multiplies the case counts: 0.4 by default (≈ 6,900
// cases: every endpoint, each of a body's per-field mutations drawn about twice a run on average
// instead of five times; a new seed each run widens what CI has tried over time), 1 for the
// 17,250 of the full sweep. FC_SEED replays a run (the seed is printed first).

const scale = Number(process.env.BAD_INPUT_SCALE ?? 0.4);
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);

/** mayStore: false when the route's own checks must refuse the request (its schema in the route table, the ingest's event schema, a multipart body cut short…), or it is a read. */
type Case = { label: string; request: SentRequest; mayStore: boolean };
type Figures = { endpoint: string; cases: number; accepted: number; rejected: number; redirected: number; violations: string[]; ms: number; rowCounts: number };

const figures: Figures[] = [];
/** This spec counts its app's rows and reads its log: it has an app of its own (own-app.ts). */
let leaveOwnApp: (() => Promise<void>) | undefined;
let own: Project;
let counter: ReturnType<typeof rowCounter>;
let appLog: ReturnType<typeof appLogReader>;

/** Path parameters of the own project that exist, per endpoint (a template of its own for deploy, archive, delete…). */
let validParams: (op: Operation) => Record<string, string>;
let manifest: Manifest;
/** An open invitation to a new address: the accept routes' token. */
let invitation: { token: string };

const eventSchema = JSON.parse(readFileSync("lib/ingest/event-schema-v1.json", "utf8")) as JsonSchema;
/** The route table: the OpenAPI document the app serves (./served-operations.ts). */
let operations: Operation[];
const isValidBody = bodyValidator();
const runsFor = (base: number) => Math.max(1, Math.round(base * scale));

/** Runs numRuns cases of one endpoint and checks each; returns the endpoint's figures. */
async function runEndpoint(endpoint: string, numRuns: number, cases: fc.Arbitrary<Case>, { blobs = false } = {}): Promise<Figures> {
  const result: Figures = { endpoint, cases: 0, accepted: 0, rejected: 0, redirected: 0, violations: [], ms: 0, rowCounts: 0 };
  const started = Date.now();
  const ledger = await RowLedger.open(counter);
  let stored = blobs ? blobFiles().stored : new Set<string>();
  await fc.assert(
    fc.asyncProperty(cases, async ({ label, request, mayStore }) => {
      result.cases += 1;
      const where = `${endpoint} [${label}] ${request.method} ${request.url.slice(0, 120)}`;
      if (mayStore) result.violations.push(...(await ledger.beforeStoring()));
      const answer = await send(request);
      const wrong = wrongAnswer(answer, request.method);
      if (wrong) result.violations.push(`${where}: ${wrong}`);
      // A redirect (Next's to the path without its trailing slash, when "." or "%2e%2e" ends it) reaches no handler.
      const accepted = "status" in answer && answer.status < 300;
      const refused = isRejected(answer) || "error" in answer;
      if (accepted) result.accepted += 1;
      else if (refused) result.rejected += 1;
      else result.redirected += 1;
      if (accepted && !mayStore && request.method !== "GET") result.violations.push(`${where}: accepted, though the route's own checks refuse it`);
      result.violations.push(...(await ledger.after(where, mayStore && accepted)));
      if (blobs) {
        const now = blobFiles();
        const added = [...now.stored].filter((file) => !stored.has(file));
        if (!accepted && added.length > 0) result.violations.push(`${where}: not accepted, yet ${added.length} blob(s) stored`);
        if (now.temp.length > 0) result.violations.push(`${where}: ${now.temp.length} temp file(s) left`);
        stored = now.stored;
      }
      return true;
    }),
    { numRuns, seed, endOnFailure: true },
  );
  result.violations.push(...(await ledger.settle()));
  result.rowCounts = ledger.counts;
  // What the app prints about the last request has a moment to reach the log file. Not a
  // verdict's timing: a line later than this is read with the next endpoint's (and fails that one).
  await delay(300);
  const { errors } = appLog.read();
  result.violations.push(...errors.map((line) => `${endpoint}: the app printed "${line.slice(0, 300)}"`));
  result.ms = Date.now() - started;
  figures.push(result);
  console.log(
    `bad inputs: ${endpoint} – ${result.cases} cases (${result.accepted} accepted, ${result.rejected} refused, ${result.redirected} redirected), ${result.violations.length} violations, ` +
      `${result.rowCounts} row counts, ${(result.ms / 1000).toFixed(1)} s`,
  );
  return result;
}

// ── path parameters ──────────────────────────────────────────────────────────────────

const pathParameter = (valid: string) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant(valid) },
    { weight: 2, arbitrary: badValue.map((value) => encodeURIComponent((typeof value === "string" ? value : (JSON.stringify(value) ?? "")).toWellFormed())) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.constantFrom("..", "%2e%2e", ".", "%2F", "%5C", "%00", "%E0%A4%A", "%C0%AF", "x".repeat(4096), valid.toUpperCase(), `${valid}%20`, `${valid}.png`) },
  );

function pathOf(op: Operation, values: Record<string, string>): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? "x");
}

/** The op's path with each parameter valid or bad. */
function pathCases(op: Operation): fc.Arbitrary<string> {
  const valid = validParams(op);
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name!);
  return fc.tuple(...names.map((name) => pathParameter(valid[name] ?? "x"))).map((values) => pathOf(op, Object.fromEntries(names.map((name, i) => [name, values[i]!]))));
}

// ── the endpoints ────────────────────────────────────────────────────────────────────

/** Who may call an op (the own project's OrganizationAdmin, or its credential). */
const authFor = (op: Operation) => (op.role === "credential" ? basic(own.credential) : bearer(own.adminToken));

function validBody(op: Operation): Record<string, unknown> {
  const bodies: Record<string, Record<string, unknown>> = {
    "post /api/Projects/{projectId}/templates/{templateId}/preview": { data: { title: "Ana" } },
    "put /api/Projects/{projectId}/public-video-shares/{channel}": {
      publicTitle: "Bad inputs",
      publicSubtitle: "tried",
      locale: "en-US",
      ctaLabel: "Go",
      ctaUrl: "https://example.com/go",
      personalizationData: { firstName: "Ana" },
      consentMode: "required",
      apiCredentialId: own.credential.id,
    },
    "post /api/credentials": { projectId: own.projectId, name: "fuzzed" },
    "post /api/me/tokens": { name: "fuzzed" },
    // The account's own settings: a bearer token is refused them (403) whatever the body.
    "patch /api/me": { name: "Fuzzed" },
    "put /api/me/password": { currentPassword: "fuzzed password", newPassword: "a fuzzed long passphrase" },
    // Through a token these answer 403 whatever the body (two-factor is set up in the console only).
    "post /api/me/two-factor/confirm": { code: "123456" },
    "post /api/me/two-factor/disable": { password: "fuzzed password" },
    // Never true: a required two-factor would hold back the suite's console sessions on this organization.
    "put /api/organizations/{orgId}/two-factor": { required: false },
    "post /api/organizations/{orgId}/projects": { name: "fuzzed" },
    "post /api/organizations/{orgId}/members": { email: "fuzzed-member@example.com", role: "Viewer", projectId: own.projectId },
    "patch /api/organizations/{orgId}/members/{membershipId}": { role: "Editor" },
    // An issuer nobody signs in through: the settings are stored, nothing is fetched.
    "put /api/organizations/{orgId}/sso": { issuer: "https://idp.example.com", clientId: "fuzzed", clientSecret: "fuzzed secret" },
    "post /api/sso/lookup": { email: "fuzzed@example.com" },
    // A bearer token never accepts (403); the first valid account creation uses the invitation up (410 after).
    "post /api/invitations/accept": { token: invitation.token },
    "post /api/invitations/create-account": { token: invitation.token, password: "fuzzed password", name: "Fuzzed" },
    // 202 for any address (mailed only to an account's); past the per-address limits 429.
    "post /api/password-resets": { email: "fuzzed-reset@example.com" },
    // No link has this token: 404 (a valid-looking body still hashes the password first).
    "post /api/password-resets/complete": { token: `rbr_${"A".repeat(43)}`, password: "fuzzed password" },
    "post /api/embed-sessions": { channel: "DEV", personalizationData: { firstName: "Ana" }, allowedOrigins: ["https://example.com"], ttlSeconds: 600 },
    "post /api/Projects/{projectId}/webhooks": { url: "https://example.com/hooks", description: "fuzzed", eventTypes: ["render.completed"], enabled: true },
    "patch /api/Projects/{projectId}/webhooks/{endpointId}": { url: "https://example.com/hooks/2", description: "fuzzed", eventTypes: [], enabled: true },
    // No webhookUrl: a fuzzed render must not send anything off this machine.
    "post /api/Projects/{projectId}/templates/{templateId}/renders": { data: { title: "Ana" }, format: "png", metadata: { order: 1 } },
    "post /api/Projects/{projectId}/campaigns": { name: "Fuzzed", channel: "STAGING", fieldMap: { Name: "title" } },
    "post /api/Projects/{projectId}/campaigns/{campaignId}/recipients": { recipients: [{ id: "fuzzed-1", title: "Ana", email: "ana@example.com" }, { title: "Bo" }] },
    "patch /api/Projects/{projectId}/campaigns/{campaignId}/recipients/{recipientId}": { email: "fuzzed-edit@example.com", data: { text: "Fuzzed" } },
    "post /api/Projects/{projectId}/templates/uploads": lightsSessionBody("Fuzzed"),
    "post /api/Projects/{projectId}/templates/uploads/{uploadId}/complete": { files: [] },
    // Deploy now (a fuzzed `at` that stays valid schedules the victim's go-live instead).
    "post /api/Projects/{projectId}/templates/{templateId}/deploy": {},
    "put /api/Projects/{projectId}/public-video-shares/{channel}/variants": { variants: [] },
    "post /api/Projects/{projectId}/public-video-shares/{channel}/variants/promote": { templateId: own.templateId },
    "put /api/Projects/{projectId}/channels/DEV": { templateId: null },
    "put /api/Projects/{projectId}/channels/STAGING": { templateId: null },
  };
  const body = bodies[`${op.method} ${op.path}`];
  if (!body) throw new Error(`No valid body for ${op.method} ${op.path}`);
  return body;
}

function validQuery(op: Operation): Record<string, string> {
  const queries: Record<string, Record<string, string>> = {
    "/api/Projects/{projectId}/templates": { status: "Testing" },
    "/api/Projects/{projectId}/analytics": { from: "2026-01-01", to: "2026-02-01T00:00:00Z", channel: "DEV", templateId: own.templateId },
    "/api/Projects/{projectId}/audit-events": { limit: "10", action: "share.disabled" },
    "/api/credentials": { projectId: own.projectId },
    "/api/embed/manifest": { share: own.share.slug },
    "/api/Projects/{projectId}/webhooks/deliveries": { limit: "10", status: "failed" },
  };
  return queries[op.path] ?? {};
}

/**
 * True when the body cannot pass the route's own checks: not JSON, or refused by the document's
 * schema of it. (The app's zod schemas may refuse more than their JSON Schema says, e.g. a
 * refinement; such a body counts as one that may be stored, which only loosens the check.)
 */
function refusedBySchema(schema: JsonSchema, body: BodyCase): boolean {
  if (!/^application\/(.+\+)?json\b/i.test(body.contentType ?? "")) return true;
  try {
    // A leading byte order mark is allowed (RFC 8259 §8.1); the API reads past it.
    return !isValidBody(schema, JSON.parse(body.text.replace(/^\ufeff/, "")));
  } catch {
    return true;
  }
}

/** The ingest's batch schema (lib/ingest/event-schema-v1.json); formats unchecked, so it refuses no more than the ingest does. */
const validBatch = (() => {
  const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, validateFormats: false });
  ajv.addSchema(eventSchema);
  return ajv.getSchema(`${(eventSchema as { $id: string }).$id}#/$defs/batch`)!;
})();

/** True when the ingest's own validation refuses the batch: not JSON, or not what the event schema describes. */
function refusedByIngest(text: string, contentType: string | null): boolean {
  if (!/^application\/json\b/i.test(contentType ?? "")) return true;
  try {
    return !validBatch(JSON.parse(text));
  } catch {
    return true;
  }
}

const requestOf = (op: Operation, url: string, body?: BodyCase): SentRequest => ({
  method: op.method.toUpperCase(),
  url,
  headers: { ...authFor(op), ...(body?.contentType ? { "Content-Type": body.contentType } : {}) },
  body: body?.text,
});

/** Bodies (mutations of a valid one, values of the op's schema, raw junk); now and then a bad path. */
function jsonBodyCases(op: Operation): fc.Arbitrary<Case> {
  const path = fc.oneof({ weight: 5, arbitrary: fc.constant(pathOf(op, validParams(op))) }, { weight: 1, arbitrary: pathCases(op) });
  return fc.tuple(path, bodyCases(validBody(op), op.body!)).map(([url, body]) => ({
    label: body.label,
    request: requestOf(op, url, body),
    mayStore: !refusedBySchema(op.body!, body),
  }));
}

function queryStringCases(op: Operation): fc.Arbitrary<Case> {
  const path = fc.oneof({ weight: 5, arbitrary: fc.constant(pathOf(op, validParams(op))) }, { weight: 1, arbitrary: pathCases(op) });
  return fc.tuple(path, queryCases(validQuery(op), op.query)).map(([url, { label, query }]) => ({
    label,
    request: requestOf(op, query ? `${url}?${query}` : url),
    mayStore: false,
  }));
}

/**
 * Reads that store what they make: a recipient's poster is rendered once per recipient and
 * template and kept (recipient_posters). Fetched before the fuzzing, but a deploy fuzzed earlier
 * puts another template on the share, whose poster the next valid read renders and keeps.
 */
const cachingReads = new Set(["/api/embed/posters/{slug}/{token}"]);

/** Routes without a body or query of their own: bad path parameters, and junk they should ignore or refuse. */
function pathAndJunkCases(op: Operation): fc.Arbitrary<Case> {
  const junkBody = fc.option(
    badValue.map((value): BodyCase => ({ label: "junk body", contentType: "application/json", text: JSON.stringify(value) ?? "" })),
    { freq: 2 },
  );
  return fc.tuple(pathCases(op), fc.option(queryCases({}), { freq: 2 }), junkBody).map(([url, query, body]) => ({
    label: [query?.label, body?.label].filter(Boolean).join(", ") || "path",
    request: requestOf(op, query ? `${url}?${query.query}` : url, op.method === "get" ? undefined : (body ?? undefined)),
    mayStore: op.method !== "get" || cachingReads.has(op.path),
  }));
}

/** The op's cases and how many at BAD_INPUT_SCALE=1: with the upload (1,500) and the ingest (1,800), 17,250 in all. */
function endpointPlan(op: Operation): { runs: number; cases: fc.Arbitrary<Case> } {
  if (op.body) {
    // A valid preview renders a frame and a valid account creation or password reset hashes a password: fewer of those.
    const runs = op.path.endsWith("/preview") ? 300 : op.path.endsWith("/create-account") || op.path === "/api/password-resets/complete" ? 350 : 550;
    return { runs, cases: jsonBodyCases(op) };
  }
  if (op.query) return { runs: op.path.endsWith("/analytics") ? 350 : 300, cases: queryStringCases(op) };
  return { runs: 80, cases: pathAndJunkCases(op) };
}

/**
 * Every op of the route table but the upload (its own test) and ingest (its own test below, from
 * the event schema). The internal routes are not in the document (next-auth stores sign-in
 * attempts by design; the CLI's channel needs DATA_DIR's secret).
 */
const fuzzedOperations = () => operations.filter((op) => !op.multipart && !op.path.startsWith("/analytics/"));

// ── setup ────────────────────────────────────────────────────────────────────────────

test.beforeAll(async () => {
  test.setTimeout(300_000);
  leaveOwnApp = await useOwnSuiteApp("bad-inputs");
  operations = await servedOperations();
  console.log(`bad inputs: seed ${seed} (FC_SEED=${seed} replays this run), scale ${scale}`);
  ({ own } = await setUpTenants("Bad inputs", { withMembers: false }));
  const token = own.adminToken;
  // Victims: what deploy, archive, delete and the revocations may use up, apart from what the other cases need.
  const invite = (label: string) =>
    callOk<{ id: string; acceptUrl: string }>("POST", `/api/organizations/${own.orgId}/members`, bearer(token), { email: `${label}-${Date.now()}@example.com`, role: "Viewer" }, 201);
  const [deployTemplate, archiveTemplate, deleteTemplate, credential, ownToken, member, webhook, deleteWebhook, acceptVictim, revokeVictim] = await Promise.all([
    uploadTemplate(own.projectId, token),
    uploadTemplate(own.projectId, token),
    uploadTemplate(own.projectId, token),
    createCredential(own.projectId, token),
    callOk<{ id: string }>("POST", "/api/me/tokens", bearer(token), { name: "victim" }, 201),
    addMember(own, "Viewer", "project"),
    createWebhookVictim(own.projectId, token),
    createWebhookVictim(own.projectId, token),
    invite("fuzzed-accept"),
    invite("fuzzed-revoke"),
  ]);
  invitation = { token: new URL(acceptVictim.acceptUrl).pathname.split("/").pop()! };
  // Upload sessions: one whose part is sent (completed by the first valid case, replayed after), one to cancel.
  const [uploadVictim, cancelVictim] = await Promise.all([createUploadVictim(own.projectId, token, true), createUploadVictim(own.projectId, token, false)]);
  const [, , , sessionId, , fileIndex, , partNumber] = new URL(uploadVictim.partUrl, "http://victim").pathname.split("/");
  // The signing secret exists before its GET is fuzzed: made on first need, it would be a read that stores.
  await callOk("GET", `/api/Projects/${own.projectId}/webhooks/signing-secret`, bearer(token));
  const membership = (await callOk<{ items: { id: string; userId: string }[] }>("GET", `/api/organizations/${own.orgId}/members`, bearer(token))).items.find(
    (item) => item.userId === member.userId,
  )!;
  await callOk("PUT", `/api/Projects/${own.projectId}/public-video-shares/STAGING`, bearer(token), { publicTitle: "Staging", apiCredentialId: own.credential.id }, 201);
  const campaign = await callOk<{ id: string }>("POST", `/api/Projects/${own.projectId}/campaigns`, bearer(token), { name: "Bad inputs", channel: "STAGING" }, 201);
  // The recipient poster's {token}: of a campaign on the DEV share, its poster stored before its GET is fuzzed.
  const posterCampaign = await callOk<{ id: string }>("POST", `/api/Projects/${own.projectId}/campaigns`, bearer(token), { name: "Posters", channel: "DEV" }, 201);
  const recipientToken = await createRecipientVictim(own, posterCampaign.id);
  // The recipient the edit routes are fuzzed on (a first valid DELETE removes it; later cases get 404).
  const editedRecipient = await addCampaignRecipient(own, posterCampaign.id, "fuzzed-edit");
  manifest = await callOk<Manifest>("GET", `/api/embed/manifest?share=${own.share.slug}`, {});
  const fileUrl = new URL((manifest as unknown as { template: { files: { templateJson: string } } }).template.files.templateJson);
  const [, , , , fileId, fileName] = fileUrl.pathname.split("/");
  const preview = await callOk<{ url: string }>("POST", `/api/Projects/${own.projectId}/templates/${own.templateId}/preview`, bearer(token), { data: {} });
  const previewFile = new URL(preview.url).pathname.split("/").pop()!;

  validParams = (op) => ({
    projectId: own.projectId,
    orgId: own.orgId,
    templateId: op.path.endsWith("/deploy") ? deployTemplate : op.path.endsWith("/archive") ? archiveTemplate : op.method === "delete" ? deleteTemplate : own.templateId,
    // The DEV share serves the manifest and the embed sessions; the share routes use up STAGING.
    channel: "STAGING",
    id: op.path.startsWith("/api/me/") ? ownToken.id : credential.id,
    membershipId: membership.id,
    invitationId: revokeVictim.id,
    endpointId: op.method === "delete" ? deleteWebhook.endpointId : webhook.endpointId,
    deliveryId: webhook.deliveryId,
    slug: own.share.slug,
    fileId: fileId!,
    name: fileName!,
    file: previewFile,
    campaignId: op.path.includes("{recipientId}") ? posterCampaign.id : campaign.id,
    recipientId: editedRecipient,
    token: recipientToken,
    uploadId: op.method === "delete" ? cancelVictim.uploadId : uploadVictim.uploadId,
    sessionId: sessionId!,
    fileIndex: fileIndex!,
    partNumber: partNumber!,
  });
  counter = rowCounter();
  appLog = appLogReader();
});

test.afterAll(async () => {
  await counter?.close();
  await leaveOwnApp?.();
  if (figures.length === 0) return;
  const cases = figures.reduce((sum, f) => sum + f.cases, 0);
  const violations = figures.reduce((sum, f) => sum + f.violations.length, 0);
  const seconds = figures.reduce((sum, f) => sum + f.ms, 0) / 1000;
  const rowCounts = figures.reduce((sum, f) => sum + f.rowCounts, 0);
  console.log(
    `bad inputs: ${cases} cases over ${figures.length} endpoints, ${violations} violations, ${rowCounts} row counts, ${seconds.toFixed(0)} s, ` +
      `seed ${seed}, database ${process.env.E2E_DATABASE_URL ? "PostgreSQL" : "PGlite"}`,
  );
});

/** Runs some endpoints; fails listing the first violations of each. */
async function expectNoViolations(results: Figures[]) {
  const violations = results.flatMap((result) => result.violations.slice(0, 10));
  expect(violations, `seed ${seed}`).toEqual([]);
}

// ── the tests ────────────────────────────────────────────────────────────────────────

test("JSON bodies – every endpoint of the route table that takes one", async () => {
  const results: Figures[] = [];
  for (const op of fuzzedOperations().filter((op) => op.body)) {
    const { runs, cases } = endpointPlan(op);
    results.push(await runEndpoint(`${op.method.toUpperCase()} ${op.path}`, runsFor(runs), cases));
  }
  await expectNoViolations(results);
});

test("query strings and path parameters – every other endpoint of the route table", async () => {
  const results: Figures[] = [];
  for (const op of fuzzedOperations().filter((op) => !op.body)) {
    const { runs, cases } = endpointPlan(op);
    results.push(await runEndpoint(`${op.method.toUpperCase()} ${op.path}`, runsFor(runs), cases));
  }
  await expectNoViolations(results);
});

/**
 * Waits until the renders the earlier cases queued are finished — the JSON-body cases' renders
 * and the campaign thumbnails the path cases queued, of whichever template the campaign's share
 * serves: the render worker stores their files in the same blob store whose growth the upload
 * cases are judged by.
 */
async function rendersFinished(): Promise<void> {
  const admin = bearer(own.adminToken);
  const unfinished = async () => {
    const { items: templates } = await callOk<{ items: { id: string }[] }>("GET", `/api/Projects/${own.projectId}/templates`, admin);
    let count = 0;
    for (const template of templates) {
      const { items } = await callOk<{ items: { status: string }[] }>("GET", `/api/Projects/${own.projectId}/templates/${template.id}/renders?limit=100`, admin);
      count += items.filter((render) => /queued|rendering/.test(render.status)).length;
    }
    return count;
  };
  await expect.poll(unfinished, { timeout: 300_000, intervals: [500] }).toBe(0);
}

test("POST /api/Projects/{projectId}/templates/upload – multipart bodies", async () => {
  await rendersFinished();
  const url = `/api/Projects/${own.projectId}/templates/upload`;
  const cases = uploadCases().map(({ label, headers, body, mayStore }) => ({ label, request: { method: "POST", url, headers: { ...bearer(own.adminToken), ...headers }, body }, mayStore }));
  await expectNoViolations([await runEndpoint("POST /api/Projects/{projectId}/templates/upload", runsFor(1500), cases, { blobs: true })]);
});

test("POST /analytics/v1/events and /consent – ingest batches and consent beacons", async () => {
  const ingest = manifest.ingest;
  const event = () => ctaClick(manifest) as Record<string, unknown>;
  const eventCase = mutationOf(event(), eventSchema);
  const batchCases = fc.oneof(
    { weight: 4, arbitrary: eventCase.map(({ label, value }) => ({ label: `event: ${label}`, text: JSON.stringify({ sent_at: new Date().toISOString(), events: [event(), value] }) })) },
    { weight: 2, arbitrary: bodyCases({ sent_at: new Date().toISOString(), events: [event()] }).map(({ label, text, contentType }) => ({ label: `batch: ${label}`, text, contentType })) },
    { weight: 1, arbitrary: fc.integer({ min: 2, max: 600 }).map((n) => ({ label: `${n} events`, text: JSON.stringify({ sent_at: new Date().toISOString(), events: Array.from({ length: n }, event) }) })) },
  );
  const events = batchCases.map(({ label, text, contentType }: { label: string; text: string; contentType?: string | null }) => ({
    label,
    request: {
      method: "POST",
      url: `${ingest.url}/analytics/v1/events`,
      headers: { Authorization: `Bearer ${ingest.token}`, ...(contentType === null ? {} : { "Content-Type": contentType ?? "application/json" }) },
      body: text,
    },
    mayStore: !refusedByIngest(text, contentType === undefined ? "application/json" : contentType),
  }));
  const consentEvent = { ...event(), event_type: "consent.accepted", playback_id: null, payload: { source: "banner" } };
  const beacons = bodyCases({ token: ingest.token, event: consentEvent }).map(({ label, text, contentType }) => ({
    label,
    request: {
      method: "POST",
      url: `${ingest.url}/analytics/v1/consent`,
      headers: contentType ? { "Content-Type": contentType === "application/json" ? "text/plain" : contentType } : ({} as Record<string, string>),
      body: text,
    },
    mayStore: true,
  }));
  await expectNoViolations([
    await runEndpoint("POST /analytics/v1/events", runsFor(1500), events),
    await runEndpoint("POST /analytics/v1/consent", runsFor(300), beacons),
  ]);
});
