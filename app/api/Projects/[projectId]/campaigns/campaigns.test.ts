import { createHash, randomUUID } from "node:crypto";
import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import type { z } from "zod";
import { POST as createCredentialRoute } from "@/app/api/credentials/route";
import { authorizeProject } from "@/lib/auth/project-access";
import { getCampaignRowOrThrow } from "@/lib/campaigns/campaigns";
import { permit } from "@/lib/services/verbs";
import { importBatchRows, importRecipients } from "@/lib/campaigns/import-recipients";
import type { campaignDetailSchema, campaignImportSchema, campaignSchema, editedRecipientSchema, importDryRunSchema, recipientPageSchema } from "@/lib/campaigns/contract";
import { findShareRecipient } from "@/lib/campaigns/recipient-share";
import { findServedTemplate } from "@/lib/templates/served-template";
import { csvSource } from "@/lib/campaigns/upload-recipients";
import { spoolUpload } from "@/lib/campaigns/csv-source";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { auditEvents, campaignImports, campaignRecipients, campaigns, publicVideoShares, renders, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { buildPageManifest } from "@/lib/embed/page-manifest";
import { apiRequest, createTestMember, createTestProject, routeParams } from "@/testing/factories";
import { makeLottie, textLayer } from "@/testing/fixtures/lottie-builders";
import { PUT as putShareRoute } from "../public-video-shares/[channel]/route";
import { GET as exportRoute } from "./[campaignId]/export/route";
import { DELETE as deleteRecipientRoute, PATCH as patchRecipientRoute } from "./[campaignId]/recipients/[recipientId]/route";
import { POST as regenerateUrlRoute } from "./[campaignId]/recipients/[recipientId]/regenerate-url/route";
import { GET as listRecipientsRoute, POST as postRecipientsRoute } from "./[campaignId]/recipients/route";
import { GET as getCampaignRoute } from "./[campaignId]/route";
import { GET as listRoute, POST as createRoute } from "./route";
import { sessionActor } from "@/lib/auth/authenticate";
import { uploadWithManifest } from "@/testing/template-api";

type CampaignJson = z.infer<typeof campaignSchema>;
type DetailJson = z.infer<typeof campaignDetailSchema>;
type ImportJson = z.infer<typeof campaignImportSchema>;
type PageJson = z.infer<typeof recipientPageSchema>;
type DryRunJson = z.infer<typeof importDryRunSchema>;
type EditedJson = z.infer<typeof editedRecipientSchema>;
type Problem = { status: number; code: string; detail: string; errors?: { path: string; message: string }[] };

let home: Awaited<ReturnType<typeof createTestProject>>;
let admin: Awaited<ReturnType<typeof createTestMember>>;
let viewer: string;

const campaignsUrl = (projectId: string) => `/api/Projects/${projectId}/campaigns`;

async function expectJson<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

/**
 * A template whose firstName (at most 12 characters, shortened beyond) has no default and whose
 * planName (at most 20, strict: refused beyond) has one, served by DEV.
 */
async function setUpProject() {
  const token = admin.token;
  const projectId = home.project.id;
  const lottie = makeLottie({ nm: `campaign-${randomUUID()}`, w: 320, h: 180, layers: [textLayer("First name", "Name"), textLayer("Plan", "Basic")] });
  const manifest = {
    version: 1,
    fields: [
      { key: "firstName", type: "text", target: { layer: "First name" }, maxLength: 12 },
      { key: "planName", type: "text", target: { layer: "Plan" }, default: "Plus", maxLength: 20, strict: true },
    ],
  };
  await uploadWithManifest(token, projectId, "Campaign template", lottie, manifest);
  const credential = await expectJson<{ id: string }>(
    await createCredentialRoute(apiRequest("POST", "/api/credentials", { token, body: { projectId } }), routeParams({})),
    201,
  );
  for (const channel of ["DEV", "STAGING"]) {
    const body = { publicTitle: "Campaign", apiCredentialId: credential.id, personalizationData: { planName: "Share plan", greeting: "Hi" } };
    const share = await putShareRoute(apiRequest("PUT", `/api/Projects/${projectId}/public-video-shares/${channel}`, { token, body }), routeParams({ projectId, channel }));
    expect(share.status).toBe(201);
  }
}

beforeAll(async () => {
  home = await createTestProject();
  admin = await createTestMember("OrganizationAdmin", { organizationId: home.organization.id });
  viewer = (await createTestMember("Viewer", { projectId: home.project.id })).token;
  await setUpProject();
});

const create = (token: string, body: unknown) =>
  createRoute(apiRequest("POST", campaignsUrl(home.project.id), { token, body }), routeParams({ projectId: home.project.id }));

async function newCampaign(fieldMap?: Record<string, string>, channel = "DEV"): Promise<CampaignJson> {
  return expectJson<CampaignJson>(await create(admin.token, { name: `Spring ${randomUUID().slice(0, 6)}`, channel, ...(fieldMap ? { fieldMap } : {}) }), 201);
}

const params = (campaignId: string) => routeParams({ projectId: home.project.id, campaignId });
const recipientsUrl = (campaignId: string) => `${campaignsUrl(home.project.id)}/${campaignId}/recipients`;

function postCsv(campaignId: string, csv: string | Uint8Array, token = admin.token, query = "") {
  const req = new Request(new URL(`${recipientsUrl(campaignId)}${query}`, "http://localhost:3000"), {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "text/csv" },
    body: typeof csv === "string" ? csv : Buffer.from(csv),
  });
  return postRecipientsRoute(req, params(campaignId));
}

const postJson = (campaignId: string, body: unknown) => postRecipientsRoute(apiRequest("POST", recipientsUrl(campaignId), { token: admin.token, body }), params(campaignId));
const detail = async (campaignId: string) => expectJson<DetailJson>(await getCampaignRoute(apiRequest("GET", `${campaignsUrl(home.project.id)}/${campaignId}`, { token: viewer }), params(campaignId)), 200);
const page = async (campaignId: string, query = "") =>
  expectJson<PageJson>(await listRecipientsRoute(apiRequest("GET", `${recipientsUrl(campaignId)}${query}`, { token: viewer }), params(campaignId)), 200);

const bom = "\ufeff";

describe("POST …/campaigns", () => {
  it("creates a campaign on a channel that has a share (Editor and up); the audit log records it", async () => {
    const campaign = await newCampaign({ Vorname: "firstName" });
    expect(campaign).toMatchObject({ channel: "DEV", recipientCount: 0, fieldMap: { Vorname: "firstName" }, createdBy: admin.user.id });
    const db = await getDb();
    const [audit] = await db.select().from(auditEvents).where(and(eq(auditEvents.targetId, campaign.id), eq(auditEvents.action, "campaign.created")));
    expect(audit).toBeDefined();
    const { items } = await expectJson<{ items: CampaignJson[] }>(await listRoute(apiRequest("GET", campaignsUrl(home.project.id), { token: viewer }), routeParams({ projectId: home.project.id })), 200);
    expect(items.map((item) => item.id)).toContain(campaign.id);
  });

  it.each([
    ["a channel without a share", { name: "A", channel: "PROD" }, "channel", "the project has no PROD share; create it first"],
    ["an unknown channel", { name: "A", channel: "QA" }, "channel", undefined],
    ["an empty name", { name: " ", channel: "DEV" }, "name", "must not be empty"],
    ["an unknown field", { name: "A", channel: "DEV", slug: "x" }, "slug", "unknown field: slug"],
    ["a field map to no key", { name: "A", channel: "DEV", fieldMap: { Name: "first name" } }, "fieldMap.Name", undefined],
  ])("%s → 422 naming %s", async (_, body, path, message) => {
    const problem = await expectJson<Problem>(await create(admin.token, body), 422);
    const error = problem.errors?.find((e) => e.path === path);
    expect(error, JSON.stringify(problem)).toBeDefined();
    if (message) expect(error!.message).toBe(message);
  });

  it("a Viewer may read but not create: 403", async () => {
    const problem = await expectJson<Problem>(await create(viewer, { name: "A", channel: "DEV" }), 403);
    expect(problem.code).toBe("forbidden");
  });
});

describe("POST …/recipients (CSV)", () => {
  it("BOM, `;` and quoted fields: each accepted row a recipient with a token and its viewer_hash; refused rows, unknown columns and the preview's data warnings with line numbers", async () => {
    const campaign = await newCampaign({ Vorname: "firstName" });
    const csv =
      `${bom}id;Vorname;planName;email;shoeSize\r\n` +
      `c-1;Ana;Gold;ana@example.com;38\r\n` +
      `c-2;"Bo;Jo";;;41\r\n` +
      `c-3;;Gold;;40\r\n` + // line 4: no firstName
      `c-4;Bartholomew-Maximilian;;;40\r\n` + // line 5: too long, shortened by the player: a warning
      `c-5;"Multi\nline";;;\r\n` + // lines 6-7
      `\r\n` +
      `c-6;Dora\r\n` + // line 9: too few values
      `c-7;Eve;An-extremely-long-plan-name;;\r\n`; // line 10: too long for a strict field
    const imported = await expectJson<ImportJson>(await postCsv(campaign.id, csv), 201);
    expect(imported).toMatchObject({ status: "completed", source: "csv", rowsDone: 7, rowsImported: 4, rowsRefused: 3, rowsDuplicate: 0, error: null });
    expect(imported.problems).toEqual([
      expect.objectContaining({ line: 1, column: "shoeSize", code: "unknown_column", severity: "warning" }),
      expect.objectContaining({ line: 4, column: "firstName", code: "missing_field", severity: "error" }),
      { line: 5, column: "firstName", code: "too_long", message: '"firstName" was shortened to 12 characters', severity: "warning" },
      expect.objectContaining({ line: 9, code: "field_count", severity: "error" }),
      { line: 10, column: "planName", code: "too_long", message: '"planName" is 27 characters; the template allows at most 20', severity: "error" },
    ]);
    const { items, nextCursor } = await page(campaign.id);
    expect(nextCursor).toBeNull();
    expect(items.map((item) => [item.externalId, item.data, item.email, item.line])).toEqual([
      ["c-1", { firstName: "Ana", planName: "Gold" }, "ana@example.com", 2],
      ["c-2", { firstName: "Bo;Jo" }, null, 3],
      ["c-4", { firstName: "Bartholomew-Maximilian" }, null, 5],
      ["c-5", { firstName: "Multi\nline" }, null, 6],
    ]);
    const db = await getDb();
    for (const item of items) {
      const [row] = await db.select().from(campaignRecipients).where(eq(campaignRecipients.id, item.id));
      expect(row!.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(item.url).toBe(`${item.url!.split("/v/")[0]}/v/${item.url!.split("/v/")[1]!.split("/")[0]}/${row!.token}`);
      expect(row!.viewerHash).toBe(createHash("sha256").update(`${home.project.id}:${item.id}`).digest("hex"));
      expect(item.reach).toEqual({ opened: false, furthestPercent: 0, completed: false, clicked: false });
    }
    expect(new Set(items.map((item) => item.url)).size).toBe(4);
    expect((await detail(campaign.id)).recipientCount).toBe(4);
  });

  it("values with quotes, backslashes, braces, commas and the word NULL are stored exactly as sent (the rows travel as text[] literals)", async () => {
    const campaign = await newCampaign();
    const values = ['Say "hi"', "back\\slash", "{a,b}", "NULL", "end\\", "Zoë, ünïcode"];
    const csv = `id,firstName,email\n${values.map((value, i) => `"${value.replace(/"/g, '""')}","${value.replace(/"/g, '""')}",${i % 2 === 0 ? "" : `p${i}@example.com`}`).join("\n")}\n`;
    const imported = await expectJson<ImportJson>(await postCsv(campaign.id, csv), 201);
    expect(imported).toMatchObject({ status: "completed", rowsImported: values.length, rowsRefused: 0 });
    const { items } = await page(campaign.id);
    expect(items.map((item) => [item.externalId, item.data, item.email])).toEqual(
      values.map((value, i) => [value, { firstName: value }, i % 2 === 0 ? null : `p${i}@example.com`]),
    );
  });

  it("the same content again adds nothing and answers the first import (Idempotent-Replayed); new rows in another file are added, known ones left as they are", async () => {
    const campaign = await newCampaign();
    const csv = "firstName,planName\nAna,Gold\nBo,Silver\n";
    const first = await expectJson<ImportJson>(await postCsv(campaign.id, csv), 201);
    const again = await postCsv(campaign.id, csv);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await expectJson<ImportJson>(again, 200)).toEqual(first);
    // Without an id or email column a row is known by its data: Ana is the same recipient.
    const second = await expectJson<ImportJson>(await postCsv(campaign.id, "firstName,planName\nAna,Gold\nCy,Gold\n"), 201);
    expect(second).toMatchObject({ mode: "upsert", rowsImported: 1, rowsUnchanged: 1, rowsUpdated: 0, rowsDuplicate: 0 });
    expect((await page(campaign.id)).items).toHaveLength(3);
  });

  it.each([
    ["an unclosed quote", 'firstName\nAna\n"Bo\nCy\n', "line 3", "a quoted field opens here and is never closed"],
    ["text after a closing quote", 'firstName\nAna\n"Bo"x\n', "line 3", "a quoted field has text after its closing quote (write a quote inside a quoted field as two quotes)"],
    ["an empty file", "", "line 1", "the file is empty: its first line names the columns"],
    ["a stray quote inside a field (a\"b)", 'firstName\nAna\na"b\nCy\n', "line 3", 'a field has a quote inside it without being quoted (quote the whole field and write the quote twice: "a""b")'],
    ["a stray quote in the header", 'first"Name\nAna\n', "line 1", 'a field has a quote inside it without being quoted (quote the whole field and write the quote twice: "a""b")'],
    ["a stray quote after a field spanning lines", 'firstName,planName\n"Ana\nMaria",Gold\nBo,Go"ld\n', "line 4", 'a field has a quote inside it without being quoted (quote the whole field and write the quote twice: "a""b")'],
    ["a stray quote after a `;` delimiter", 'firstName;planName\nAna;G"old\n', "line 2", 'a field has a quote inside it without being quoted (quote the whole field and write the quote twice: "a""b")'],
    ["text after a closing quote, then a space", 'firstName\nAna\n"Bo" \n', "line 3", "a quoted field has text after its closing quote (write a quote inside a quoted field as two quotes)"],
  ])("%s → 422 with the line, and no recipient stays", async (_, csv, path, message) => {
    const campaign = await newCampaign();
    const problem = await expectJson<Problem>(await postCsv(campaign.id, csv), 422);
    expect(problem.errors).toEqual([{ path, message }]);
    expect((await page(campaign.id)).items).toEqual([]);
    const [failed] = (await detail(campaign.id)).imports;
    expect(failed).toMatchObject({ status: "failed", rowsImported: 0, error: expect.stringContaining(`${path}: ${message}`) });
  });

  it.each([
    ["a stray quote", (i: number) => `Na"me${i}`, 'a field has a quote inside it without being quoted (quote the whole field and write the quote twice: "a""b")'],
    ["an unclosed quote", (i: number) => `"Name${i}`, "a quoted field opens here and is never closed"],
  ])(`%s after ${2 * importBatchRows + 500} good rows (batches committed) → 422 naming its exact line; every row taken back`, async (_, badValue, message) => {
    const campaign = await newCampaign();
    const good = Array.from({ length: 2 * importBatchRows + 500 }, (_, i) => `Name${i}`);
    const badLine = good.length + 2;
    const problem = await expectJson<Problem>(await postCsv(campaign.id, `firstName\n${good.join("\n")}\n${badValue(badLine)}\nLast\n`), 422);
    expect(problem.errors).toEqual([{ path: `line ${badLine}`, message }]);
    expect(problem.detail).toBe(`The CSV cannot be read at line ${badLine}: ${message}.`);
    expect((await page(campaign.id)).items).toEqual([]);
    const db = await getDb();
    expect(await db.select({ id: campaignRecipients.id }).from(campaignRecipients).where(eq(campaignRecipients.campaignId, campaign.id))).toEqual([]);
    const [failed] = (await detail(campaign.id)).imports;
    expect(failed).toMatchObject({ status: "failed", rowsImported: 0, rowsDone: 0, error: `The CSV cannot be read at line ${badLine}: ${message}.` });
  });

  it("a NUL in a column name is a warning naming it with U+FFFD; a NUL in a value refuses the row", async () => {
    const campaign = await newCampaign();
    const imported = await expectJson<ImportJson>(await postCsv(campaign.id, "firstName,sh\u0000oe\nAna,1\nB\u0000o,2\n"), 201);
    expect(imported).toMatchObject({ rowsImported: 1, rowsRefused: 1 });
    expect(imported.problems.map((p) => [p.line, p.code, p.column])).toEqual([
      [1, "unknown_column", "sh\uFFFDoe"],
      [3, "malformed", "firstName"],
    ]);
  });

  it("a file that is not UTF-8 → 422; another content type → 415", async () => {
    const campaign = await newCampaign();
    const latin1 = Buffer.from("firstName\nJos\xe9\n", "latin1");
    expect((await expectJson<Problem>(await postCsv(campaign.id, latin1), 422)).errors).toEqual([{ path: "line 1", message: "is not UTF-8 text; save the file as CSV UTF-8" }]);
    const req = new Request(new URL(recipientsUrl(campaign.id), "http://localhost:3000"), {
      method: "POST",
      headers: { authorization: `Bearer ${admin.token}`, "content-type": "text/plain" },
      body: "firstName\nAna\n",
    });
    expect((await expectJson<Problem>(await postRecipientsRoute(req, params(campaign.id)), 415)).code).toBe("unsupported_media_type");
  });

  it("a Viewer cannot import: 403; another project's campaign id: 404", async () => {
    const campaign = await newCampaign();
    expect((await expectJson<Problem>(await postCsv(campaign.id, "firstName\nAna\n", viewer), 403)).code).toBe("forbidden");
    const other = await createTestProject();
    const otherAdmin = await createTestMember("OrganizationAdmin", { organizationId: other.organization.id });
    const response = await getCampaignRoute(
      apiRequest("GET", `${campaignsUrl(other.project.id)}/${campaign.id}`, { token: otherAdmin.token }),
      routeParams({ projectId: other.project.id, campaignId: campaign.id }),
    );
    expect((await expectJson<Problem>(response, 404)).code).toBe("not_found");
  });

  it("an import stopped after its first batch resumes from rowsDone when the same file comes again; a webhook event and an audit row when it completes", async () => {
    const db = await getDb();
    const campaign = await newCampaign();
    const [endpoint] = await db.insert(webhookEndpoints).values({ projectId: home.project.id, url: "https://hooks.example/campaigns" }).returning();
    const rows = importBatchRows * 5 + 17;
    const dir = mkdtempSync(path.join(tmpdir(), "campaign-test-"));
    try {
      const file = path.join(dir, "big.csv");
      writeFileSync(file, "id,firstName\n" + Array.from({ length: rows }, (_, i) => `r${i},Name ${i}`).join("\n") + "\n");
      const { createReadStream } = await import("node:fs");
      const spooled = await spoolUpload(createReadStream(file), null);
      const actor = sessionActor({ id: admin.user.id, email: admin.user.email });
      const access = await authorizeProject(db, actor, home.project.id, "campaign.write");
      const ctx = permit({ db, actor, access }, "campaign.write");
      const row = await getCampaignRowOrThrow(ctx, campaign.id);
      const stop = new AbortController();
      await expect(
        importRecipients(ctx, row, csvSource(spooled), { signal: stop.signal, onBatch: () => stop.abort() }),
      ).rejects.toMatchObject({ code: "import_stopped" });
      const [stopped] = (await detail(campaign.id)).imports;
      // Stopped between batches: after the first (or, with a second batch in flight on PostgreSQL, the second).
      expect(stopped).toMatchObject({ status: "failed", rowsImported: stopped!.rowsDone, rowsEstimated: rows });
      expect([importBatchRows, importBatchRows * 2]).toContain(stopped!.rowsDone);
      const before = await db.select({ externalId: campaignRecipients.externalId, token: campaignRecipients.token }).from(campaignRecipients).where(eq(campaignRecipients.campaignId, campaign.id));

      const resumed = await importRecipients(ctx, row, csvSource(spooled));
      expect(resumed.import).toMatchObject({ id: stopped!.id, status: "completed", rowsDone: rows, rowsImported: rows, rowsDuplicate: 0 });
      const after = await db.select({ externalId: campaignRecipients.externalId, token: campaignRecipients.token }).from(campaignRecipients).where(eq(campaignRecipients.campaignId, campaign.id));
      expect(after).toHaveLength(rows);
      const tokens = new Map(after.map((r) => [r.externalId, r.token]));
      expect(before.every((r) => tokens.get(r.externalId) === r.token)).toBe(true);

      const deliveries = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint!.id));
      expect(deliveries.map((d) => [d.eventType, d.payload.data])).toEqual([
        ["campaign.imported", expect.objectContaining({ campaignId: campaign.id, importId: stopped!.id, rowsImported: rows, rowsRefused: 0 })],
      ]);
      const audits = await db.select().from(auditEvents).where(and(eq(auditEvents.targetId, campaign.id), eq(auditEvents.action, "campaign.imported")));
      expect(audits).toHaveLength(1);
      await spooled.dispose();
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint!.id));
    }
  }, 120_000);
});

describe("ids repeated across batches", () => {
  it("each id is one recipient, the first row's; the repeats count as duplicates", async () => {
    const db = await getDb();
    const campaign = await newCampaign();
    const distinct = Math.round(importBatchRows * 1.5);
    const rows = importBatchRows * 4;
    const csv = "id,firstName\n" + Array.from({ length: rows }, (_, i) => `r${i % distinct},N${i}`).join("\n") + "\n";
    const imported = await expectJson<ImportJson>(await postCsv(campaign.id, csv), 201);
    expect(imported).toMatchObject({ rowsDone: rows, rowsImported: distinct, rowsDuplicate: rows - distinct, rowsRefused: 0 });
    const stored = await db.select({ externalId: campaignRecipients.externalId, data: campaignRecipients.data }).from(campaignRecipients).where(eq(campaignRecipients.campaignId, campaign.id));
    expect(stored).toHaveLength(distinct);
    expect(stored.every((row) => row.data.firstName === `N${Number(row.externalId.slice(1))}`)).toBe(true);
  });
});

describe("an import another process is running", () => {
  it("→ 409 while its progress moves; once it has not moved for 30 s (its process died), the same content takes it over and finishes it", async () => {
    const db = await getDb();
    const campaign = await newCampaign();
    const csv = "id,firstName\nk1,Kim\nk2,Lee\n";
    const sha256 = createHash("sha256").update(csv).digest("hex");
    const [running] = await db
      .insert(campaignImports)
      .values({ campaignId: campaign.id, projectId: home.project.id, sha256, importKey: sha256, source: "csv", bytes: csv.length })
      .returning();
    const busy = await expectJson<Problem>(await postCsv(campaign.id, csv), 409);
    expect(busy).toMatchObject({ code: "import_running" });
    expect(busy.detail).toContain(running!.id);

    await db.update(campaignImports).set({ updatedAt: sql`now() - interval '31 seconds'` }).where(eq(campaignImports.id, running!.id));
    const resumed = await postCsv(campaign.id, csv);
    expect(resumed.headers.get("idempotent-replayed")).toBeNull();
    expect(await expectJson<ImportJson>(resumed, 200)).toMatchObject({ id: running!.id, status: "completed", rowsImported: 2 });
  });
});

describe("POST …/recipients (JSON), GET …/recipients, export, reach and funnel", () => {
  it("a JSON batch imports through the same rules; more than 10,000 → 422", async () => {
    const campaign = await newCampaign();
    const imported = await expectJson<ImportJson>(
      await postJson(campaign.id, { recipients: [{ id: 7, firstName: "Ana", email: "ana@example.com" }, { firstName: "" }, { id: "b", firstName: "Bo", planName: "Gold" }] }),
      201,
    );
    expect(imported).toMatchObject({ source: "json", rowsImported: 2, rowsRefused: 1 });
    expect(imported.problems).toEqual([expect.objectContaining({ line: 2, code: "missing_field" })]);
    const tooMany = { recipients: Array.from({ length: 10_001 }, (_, i) => ({ firstName: `N${i}` })) };
    const problem = await expectJson<Problem>(await postJson(campaign.id, tooMany), 422);
    expect(problem.errors?.[0]?.path).toBe("recipients");
  });

  it("pages by cursor; the export lists every recipient with its URL; reach and funnel come from the recipients' events (bots left out)", async () => {
    const campaign = await newCampaign();
    await expectJson<ImportJson>(await postCsv(campaign.id, "id,firstName,email\n" + Array.from({ length: 7 }, (_, i) => `id${i},N${i},n${i}@example.com`).join("\n")), 201);
    const first = await page(campaign.id, "?limit=3");
    const second = await page(campaign.id, `?limit=3&cursor=${first.nextCursor}`);
    const third = await page(campaign.id, `?limit=3&cursor=${second.nextCursor}`);
    expect([...first.items, ...second.items, ...third.items].map((item) => item.externalId)).toEqual(["id0", "id1", "id2", "id3", "id4", "id5", "id6"]);
    expect(third.nextCursor).toBeNull();
    expect((await expectJson<Problem>(await listRecipientsRoute(apiRequest("GET", `${recipientsUrl(campaign.id)}?cursor=nope`, { token: viewer }), params(campaign.id)), 422)).errors?.[0]?.path).toBe("cursor");

    const exported = await exportRoute(apiRequest("GET", `${campaignsUrl(home.project.id)}/${campaign.id}/export`, { token: viewer }), params(campaign.id));
    expect(exported.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = (await exported.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe("recipient_id,email,url,firstName,planName");
    expect(lines.slice(1)).toEqual(first.items.concat(second.items, third.items).map((item) => `${item.externalId},${item.email},${item.url},${item.data.firstName as string},`));

    // id0 watched to the end and clicked; id1 opened and reached 50 %; id2's only events are a bot's.
    const db = await getDb();
    const hash = async (externalId: string) =>
      (await db.select({ h: campaignRecipients.viewerHash }).from(campaignRecipients).where(and(eq(campaignRecipients.campaignId, campaign.id), eq(campaignRecipients.externalId, externalId))))[0]!.h;
    const events: [string, string, Record<string, unknown>, boolean][] = [
      ["id0", "session.started", {}, false],
      ["id0", "video.played", { position_ms: 0 }, false],
      ["id0", "video.progressed", { percent: 75 }, false],
      ["id0", "video.completed", { percent: 100 }, false],
      ["id0", "cta.clicked", {}, false],
      ["id1", "session.started", {}, false],
      ["id1", "video.played", { position_ms: 0 }, false],
      ["id1", "video.progressed", { percent: 50 }, false],
      ["id1", "video.incomplete", { percent: 61.5 }, false],
      ["id2", "session.started", {}, true],
      ["id2", "video.played", {}, true],
    ];
    for (const [externalId, type, payload, isBot] of events) {
      await db.execute(sql`
        insert into analytics_events (organization_id, project_id, event_id, event_type, occurred_at, received_at, viewer_hash, payload, is_bot)
        values (${home.organization.id}, ${home.project.id}, ${randomUUID()}, ${type}, now(), now(), ${await hash(externalId)}, ${JSON.stringify(payload)}::jsonb, ${isBot})`);
    }
    const reach = Object.fromEntries((await page(campaign.id, "?limit=3")).items.map((item) => [item.externalId, item.reach]));
    expect(reach).toEqual({
      id0: { opened: true, furthestPercent: 100, completed: true, clicked: true },
      id1: { opened: true, furthestPercent: 61.5, completed: false, clicked: false },
      id2: { opened: false, furthestPercent: 0, completed: false, clicked: false },
    });
    expect((await detail(campaign.id)).funnel).toEqual({ recipients: 7, opened: 2, played: 2, reached25: 2, reached50: 2, reached75: 1, completed: 1, clicked: 1 });
  });
});

describe("the personal URL's page manifest (/embed/{slug}/{token})", () => {
  it("binds the recipient's data over the share's; an unknown token, or one of another channel's campaign, is the share's 404", async () => {
    const db = await getDb();
    const dev = await newCampaign();
    const staging = await newCampaign(undefined, "STAGING");
    await expectJson<ImportJson>(await postCsv(dev.id, "id,firstName,planName\nr1,Dana,Gold\n"), 201);
    await expectJson<ImportJson>(await postCsv(staging.id, "id,firstName\nr1,Eve\n"), 201);
    const tokenOf = async (campaignId: string) => (await db.select().from(campaignRecipients).where(eq(campaignRecipients.campaignId, campaignId)))[0]!.token;
    const [devShare] = await db.select().from(publicVideoShares).where(and(eq(publicVideoShares.projectId, home.project.id), eq(publicVideoShares.channel, "DEV")));
    const manifest = (recipient?: string) => buildPageManifest(db, { share: devShare!.slug, address: `campaign-test-${randomUUID()}`, ...(recipient === undefined ? {} : { recipient }) });

    expect((await manifest()).bindings.data).toEqual({ planName: "Share plan", greeting: "Hi" });
    expect((await manifest(await tokenOf(dev.id))).bindings.data).toEqual({ planName: "Gold", greeting: "Hi", firstName: "Dana" });
    for (const token of ["A".repeat(43), "short", await tokenOf(staging.id)]) {
      await expect(manifest(token), token).rejects.toMatchObject({ kind: "not_found", message: "This video is not available." });
    }
  });

  it("an address that opens unknown tokens is limited like one that opens unknown slugs (SHARE_MISS_RATE a minute, then 429)", async () => {
    const db = await getDb();
    const [devShare] = await db.select().from(publicVideoShares).where(and(eq(publicVideoShares.projectId, home.project.id), eq(publicVideoShares.channel, "DEV")));
    const address = `campaign-guesser-${randomUUID()}`;
    const statuses: string[] = [];
    const perMinute = getConfig().shareMissRate;
    // The limiter's clock (performance.now()) stands still: no miss is refilled however long
    // the machine takes over the lookups (on a busy one, a second each refilled some).
    vi.useFakeTimers({ toFake: ["performance"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    for (let i = 0; i < perMinute + 2; i++) {
      const token = randomUUID().replaceAll("-", "").padEnd(43, "x");
      statuses.push(await buildPageManifest(db, { share: devShare!.slug, address, recipient: token }).then(() => "found", (error: { kind: string }) => error.kind));
    }
    expect(statuses.slice(0, perMinute).every((kind) => kind === "not_found")).toBe(true);
    expect(statuses.at(-1)).toBe("too_many_requests");
  });
});

/** The campaign's recipients as stored, in first-import order (the list's order). */
async function storedRecipients(campaignId: string) {
  const db = await getDb();
  return db.select().from(campaignRecipients).where(eq(campaignRecipients.campaignId, campaignId)).orderBy(campaignRecipients.id);
}

const query = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

describe("column mapping", () => {
  it("auto-matches by name without case or punctuation (First Name → firstName, E-mail, recipient_id); an explicit mapping wins, $ignore silences; the mapping an import used becomes the campaign's", async () => {
    const campaign = await newCampaign();
    const csv = "Customer Ref,First Name,E-mail,Plan,Notes,Shoe\nr1,Ana,ana@example.com,Gold,vip,38\n";
    const fieldMap = { "Customer Ref": "$id", Plan: "planName", Notes: "$ignore" };
    const dry = await expectJson<DryRunJson>(await postCsv(campaign.id, csv, admin.token, query({ dryRun: "true", fieldMap: JSON.stringify(fieldMap) })), 200);
    expect(dry.columns).toEqual([
      { name: "Customer Ref", target: { kind: "id" }, matched: "mapping" },
      { name: "First Name", target: { kind: "field", key: "firstName" }, matched: "auto" },
      { name: "E-mail", target: { kind: "email" }, matched: "auto" },
      { name: "Plan", target: { kind: "field", key: "planName" }, matched: "mapping" },
      { name: "Notes", target: { kind: "ignored" }, matched: "mapping" },
      { name: "Shoe", target: { kind: "ignored" }, matched: "none" },
    ]);
    // Only the unmatched column warns: $ignore is silent.
    expect(dry.problems.map((p) => [p.code, p.column])).toEqual([["unknown_column", "Shoe"]]);
    expect(dry.sample).toEqual([{ line: 2, externalId: "r1", email: "ana@example.com", data: { firstName: "Ana", planName: "Gold" } }]);

    const imported = await expectJson<ImportJson>(await postCsv(campaign.id, csv, admin.token, query({ fieldMap: JSON.stringify(fieldMap) })), 201);
    expect(imported).toMatchObject({ rowsImported: 1, fieldMap });
    expect((await detail(campaign.id)).fieldMap).toEqual(fieldMap);
    // The next file needs no mapping: the campaign's is used (r1 is known by the mapped id column).
    const again = await expectJson<ImportJson>(await postCsv(campaign.id, "Customer Ref,First Name,Plan\nr1,Anna,Gold\n"), 201);
    expect(again).toMatchObject({ rowsImported: 0, rowsUpdated: 1, problems: [] });
    expect((await storedRecipients(campaign.id)).map((r) => [r.externalId, r.data])).toEqual([["r1", { firstName: "Anna", planName: "Gold" }]]);
  });

  it("several columns for one target: a mapping beats an exact name, an exact name a normalized one, id beats recipient_id; the others warn", async () => {
    const campaign = await newCampaign();
    const dry = await expectJson<DryRunJson>(
      await postCsv(campaign.id, "first_name,firstName,external_id,ID,Name\nx,Ana,e1,i1,Bo\n", admin.token, query({ dryRun: "true", fieldMap: JSON.stringify({ Name: "firstName" }) })),
      200,
    );
    expect(dry.columns.map((c) => [c.name, c.target])).toEqual([
      ["first_name", { kind: "ignored" }],
      ["firstName", { kind: "ignored" }],
      ["external_id", { kind: "ignored" }],
      ["ID", { kind: "id" }],
      ["Name", { kind: "field", key: "firstName" }],
    ]);
    expect(dry.problems.map((p) => [p.code, p.column])).toEqual([
      ["duplicate_column", "first_name"],
      ["duplicate_column", "firstName"],
      ["duplicate_column", "external_id"],
    ]);
    expect(dry.sample[0]).toMatchObject({ externalId: "i1", data: { firstName: "Bo" } });
  });

  it.each([
    ["not JSON", { fieldMap: "{Name: firstName}" }, "fieldMap", "must be an object of column name → template field key, $id, $email or $ignore in JSON; this is not valid JSON"],
    ["not an object", { fieldMap: '["firstName"]' }, "fieldMap", "must be a JSON object: column name → template field key, $id, $email or $ignore"],
    ["a target that is no key", { fieldMap: '{"Name":"first name"}' }, "fieldMap.Name", "must be a template field key (letters, digits, underscores), $id, $email or $ignore"],
    ["an unknown mode", { mode: "merge" }, "mode", 'must be "upsert" or "replace"'],
    ["dryRun neither true nor false", { dryRun: "yes" }, "dryRun", 'must be "true" or "false"'],
  ])("a query with %s → 422 naming %s; nothing is imported", async (_, params, path, message) => {
    const campaign = await newCampaign();
    const problem = await expectJson<Problem>(await postCsv(campaign.id, "firstName\nAna\n", admin.token, query(params)), 422);
    expect(problem.errors).toEqual([{ path, message }]);
    expect(await storedRecipients(campaign.id)).toEqual([]);
  });
});

describe("dry run", () => {
  it("reads the whole file and writes nothing: the counts against the campaign's recipients, a sample, the problems with their lines", async () => {
    const db = await getDb();
    const campaign = await newCampaign();
    await expectJson<ImportJson>(await postCsv(campaign.id, "id,firstName,planName\na,Ana,Gold\nb,Bo,Gold\nc,Cy,Gold\n"), 201);
    const rowsOf = async () => ({
      recipients: await storedRecipients(campaign.id),
      imports: await db.select().from(campaignImports).where(eq(campaignImports.campaignId, campaign.id)),
      audit: await db.select({ id: auditEvents.id }).from(auditEvents).where(eq(auditEvents.targetId, campaign.id)),
      campaign: await db.select().from(campaigns).where(eq(campaigns.id, campaign.id)),
    });
    const before = await rowsOf();
    // a: changed; b: as it is; d: new; line 5: no firstName; line 6: a again; c is not named.
    const csv = "id,firstName,planName\na,Anna,Gold\nb,Bo,Gold\nd,Dee,Gold\ne,,Gold\na,Ann,Gold\n";
    for (const mode of ["upsert", "replace"]) {
      const dry = await expectJson<DryRunJson>(await postCsv(campaign.id, csv, admin.token, query({ dryRun: "true", mode })), 200);
      expect(dry).toMatchObject({ dryRun: true, mode, rows: 5, wouldAdd: 1, wouldUpdate: 1, wouldLeaveUnchanged: 1, wouldRefuse: 1, duplicates: 1, wouldRemove: mode === "replace" ? 1 : 0 });
      expect(dry.fields).toEqual([
        { key: "firstName", required: true, maxLength: 12 },
        { key: "planName", required: false, maxLength: 20 },
      ]);
      expect(dry.sample.map((row) => [row.line, row.externalId])).toEqual([
        [2, "a"],
        [3, "b"],
        [4, "d"],
      ]);
      expect(dry.problems).toEqual([expect.objectContaining({ line: 5, column: "firstName", code: "missing_field", severity: "error" })]);
    }
    // A JSON batch too.
    const jsonDry = await postRecipientsRoute(apiRequest("POST", `${recipientsUrl(campaign.id)}?dryRun=true`, { token: admin.token, body: { recipients: [{ id: "a", firstName: "Ana", planName: "Gold" }] } }), params(campaign.id));
    expect(await expectJson<DryRunJson>(jsonDry, 200)).toMatchObject({ rows: 1, wouldLeaveUnchanged: 1, wouldAdd: 0 });
    expect(await rowsOf()).toEqual(before);
  });

  it("a file that cannot be read is the import's 422; a Viewer may not dry-run (403)", async () => {
    const campaign = await newCampaign();
    const problem = await expectJson<Problem>(await postCsv(campaign.id, 'firstName\nAna\n"Bo\n', admin.token, "?dryRun=true"), 422);
    expect(problem.errors).toEqual([{ path: "line 3", message: "a quoted field opens here and is never closed" }]);
    expect((await detail(campaign.id)).imports).toEqual([]);
    expect((await expectJson<Problem>(await postCsv(campaign.id, "firstName\nAna\n", viewer, "?dryRun=true"), 403)).code).toBe("forbidden");
  });
});

describe("re-imports: upsert and replace", () => {
  it("a changed file updates its recipients (tokens, ids and URLs stay), adds the new ones, counts the unchanged; the fields it has no column for stay", async () => {
    const campaign = await newCampaign();
    await expectJson<ImportJson>(await postCsv(campaign.id, "id,firstName,planName,email\na,Ana,Gold,ana@example.com\nb,Bo,Gold,\nc,Cy,Silver,\n"), 201);
    const before = await storedRecipients(campaign.id);
    const second = await expectJson<ImportJson>(await postCsv(campaign.id, "id,firstName\na,Anna\nb,Bo\nd,Dee\n"), 201);
    expect(second).toMatchObject({ mode: "upsert", rowsDone: 3, rowsImported: 1, rowsUpdated: 1, rowsUnchanged: 1, rowsRemoved: 0, rowsDuplicate: 0 });
    const after = await storedRecipients(campaign.id);
    expect(after.map((r) => [r.externalId, r.data, r.email])).toEqual([
      ["a", { firstName: "Anna", planName: "Gold" }, "ana@example.com"],
      ["b", { firstName: "Bo", planName: "Gold" }, null],
      ["c", { firstName: "Cy", planName: "Silver" }, null],
      ["d", { firstName: "Dee" }, null],
    ]);
    for (const old of before) expect(after.find((r) => r.id === old.id)).toMatchObject({ token: old.token, externalId: old.externalId });
    expect((await detail(campaign.id)).recipientCount).toBe(4);
    // The same file as a replace is another import, not a replay.
    const replaced = await postCsv(campaign.id, "id,firstName\na,Anna\nb,Bo\nd,Dee\n", admin.token, "?mode=replace");
    expect(replaced.headers.get("idempotent-replayed")).toBeNull();
    expect(await expectJson<ImportJson>(replaced, 201)).toMatchObject({ mode: "replace", rowsUnchanged: 3, rowsRemoved: 1 });
  });

  it("without an id column a recipient is known by its email (trimmed, any case): a re-import updates it", async () => {
    const campaign = await newCampaign();
    await expectJson<ImportJson>(await postCsv(campaign.id, "firstName,email\nAna,Ana@Example.com\nBo,\n"), 201);
    const [ana] = await storedRecipients(campaign.id);
    expect(ana).toMatchObject({ externalId: "ana@example.com", email: "Ana@Example.com" });
    const again = await expectJson<ImportJson>(await postCsv(campaign.id, "First Name,Email Address\nAnnie, ana@example.COM \n"), 201);
    expect(again).toMatchObject({ rowsImported: 0, rowsUpdated: 1 });
    const [updated] = await storedRecipients(campaign.id);
    expect(updated).toMatchObject({ id: ana!.id, token: ana!.token, email: "ana@example.COM", data: { firstName: "Annie" } });
  });

  it("replace removes the recipients the file does not name, in the import's last transaction: their URLs stop working", async () => {
    const db = await getDb();
    const campaign = await newCampaign();
    await expectJson<ImportJson>(await postCsv(campaign.id, "id,firstName\na,Ana\nb,Bo\nc,Cy\n"), 201);
    const before = await storedRecipients(campaign.id);
    const share = { projectId: home.project.id, channel: "DEV" as const };
    const replaced = await expectJson<ImportJson>(await postCsv(campaign.id, "id,firstName\nb,Bob\ne,Eve\n", admin.token, "?mode=replace"), 201);
    expect(replaced).toMatchObject({ mode: "replace", rowsImported: 1, rowsUpdated: 1, rowsRemoved: 2 });
    expect((await storedRecipients(campaign.id)).map((r) => r.externalId)).toEqual(["b", "e"]);
    for (const gone of before.filter((r) => r.externalId !== "b")) expect(await findShareRecipient(db, share, gone.token)).toBeNull();
    expect(await findShareRecipient(db, share, before.find((r) => r.externalId === "b")!.token)).toMatchObject({ data: { firstName: "Bob" } });
    expect((await detail(campaign.id)).recipientCount).toBe(2);
    const [event] = await db.select().from(auditEvents).where(and(eq(auditEvents.targetId, campaign.id), eq(auditEvents.action, "campaign.imported"))).orderBy(sql`${auditEvents.createdAt} desc`).limit(1);
    expect(event!.data).toMatchObject({ mode: "replace", rowsRemoved: 2 });
  });

  it(`a file that cannot be read after ${2 * importBatchRows + 500} rows updating known recipients changes nobody (it is read through before anything is written)`, async () => {
    const campaign = await newCampaign();
    const ids = Array.from({ length: 2 * importBatchRows + 500 }, (_, i) => `r${i}`);
    await expectJson<ImportJson>(await postCsv(campaign.id, `id,firstName\n${ids.map((id) => `${id},Old`).join("\n")}\n`), 201);
    const before = await storedRecipients(campaign.id);
    for (const mode of ["upsert", "replace"]) {
      const problem = await expectJson<Problem>(await postCsv(campaign.id, `id,firstName\n${ids.map((id) => `${id},New`).join("\n")}\n"x,Bo\n`, admin.token, `?mode=${mode}`), 422);
      expect(problem.errors).toEqual([{ path: `line ${ids.length + 2}`, message: "a quoted field opens here and is never closed" }]);
      expect(await storedRecipients(campaign.id)).toEqual(before);
    }
  }, 120_000);
});

describe("recipients in CSV order", () => {
  it("lists and exports by first import: file order, a later import's new rows after, an updated row where it was", async () => {
    const campaign = await newCampaign();
    const ids = ["zed", "alpha", "mike", "bravo", "yankee"];
    await expectJson<ImportJson>(await postCsv(campaign.id, `id,firstName\n${ids.map((id) => `${id},N`).join("\n")}\n`), 201);
    await expectJson<ImportJson>(await postCsv(campaign.id, "id,firstName\naaa,New\nmike,Changed\n"), 201);
    const first = await page(campaign.id, "?limit=4");
    const second = await page(campaign.id, `?limit=4&cursor=${first.nextCursor}`);
    expect(second.nextCursor).toBeNull();
    expect([...first.items, ...second.items].map((item) => [item.externalId, item.line])).toEqual([
      ["zed", 2],
      ["alpha", 3],
      ["mike", 3],
      ["bravo", 5],
      ["yankee", 6],
      ["aaa", 2],
    ]);
  });
});

describe("the export", () => {
  it("recipient_id, email, url, a column per template field in template order; thumbnail_url and html once the campaign has thumbnails", async () => {
    const db = await getDb();
    const campaign = await newCampaign();
    await expectJson<ImportJson>(await postCsv(campaign.id, 'planName,firstName,id,email\nGold,"Ana, B",r1,ana@example.com\n,Bo,r2,\n'), 201);
    const exportCsv = async () =>
      (await (await exportRoute(apiRequest("GET", `${campaignsUrl(home.project.id)}/${campaign.id}/export`, { token: viewer }), params(campaign.id))).text()).trimEnd().split("\r\n");
    const { items } = await page(campaign.id);
    expect(await exportCsv()).toEqual([
      "recipient_id,email,url,firstName,planName",
      `r1,ana@example.com,${items[0]!.url},"Ana, B",Gold`,
      `r2,,${items[1]!.url},Bo,`,
    ]);
    const template = await findServedTemplate(db, home.project.id, "DEV");
    await db.insert(renders).values([
      { projectId: home.project.id, templateId: template!.id, campaignId: campaign.id, recipientId: items[0]!.id, purpose: "thumbnail", format: "gif", status: "done", width: 320, height: 180 },
      { projectId: home.project.id, templateId: template!.id, campaignId: campaign.id, recipientId: items[1]!.id, purpose: "thumbnail", format: "gif", status: "queued" },
    ]);
    const [header, ana, bo] = await exportCsv();
    expect(header).toBe("recipient_id,email,url,firstName,planName,thumbnail_url,html");
    const thumbnailUrl = /,(https?:\/\/[^,]+\/api\/renders\/[0-9a-f-]+\/download\?expires=\d+&signature=[^,]+),/.exec(ana!)?.[1];
    expect(thumbnailUrl, ana).toBeDefined();
    const html = `<a href="${items[0]!.url}"><img src="${thumbnailUrl!.replaceAll("&", "&amp;")}" width="320" height="180" alt="Play the video"></a>`;
    expect(ana).toBe(`r1,ana@example.com,${items[0]!.url},"Ana, B",Gold,${thumbnailUrl},"${html.replaceAll('"', '""')}"`);
    expect(bo).toBe(`r2,,${items[1]!.url},Bo,,,`);
  });
});

describe("PATCH, DELETE …/recipients/{recipientId} and POST …/regenerate-url", () => {
  const recipientUrlOf = (campaignId: string, recipientId: string) => `${recipientsUrl(campaignId)}/${recipientId}`;
  const recipientParams = (campaignId: string, recipientId: string) => routeParams({ projectId: home.project.id, campaignId, recipientId });
  const patch = (campaignId: string, recipientId: string, body: unknown, token = admin.token) =>
    patchRecipientRoute(apiRequest("PATCH", recipientUrlOf(campaignId, recipientId), { token, body }), recipientParams(campaignId, recipientId));
  const remove = (campaignId: string, recipientId: string, token = admin.token) =>
    deleteRecipientRoute(apiRequest("DELETE", recipientUrlOf(campaignId, recipientId), { token }), recipientParams(campaignId, recipientId));
  const regenerate = (campaignId: string, recipientId: string, token = admin.token) =>
    regenerateUrlRoute(apiRequest("POST", `${recipientUrlOf(campaignId, recipientId)}/regenerate-url`, { token }), recipientParams(campaignId, recipientId));

  async function campaignWithRecipients() {
    const campaign = await newCampaign();
    await expectJson<ImportJson>(await postCsv(campaign.id, "firstName,planName,email\nAna,Gold,ana@example.com\nBo,Gold,bo@example.com\n"), 201);
    const [ana, bo] = await storedRecipients(campaign.id);
    return { campaign, ana: ana!, bo: bo! };
  }

  it("PATCH changes the data named and the email (a recipient known by its email is known by the new one); the URL stays; the audit log records the fields' names", async () => {
    const db = await getDb();
    const { campaign, ana } = await campaignWithRecipients();
    const edited = await expectJson<EditedJson>(await patch(campaign.id, ana.id, { email: " Ana.B@example.com ", data: { planName: null, firstName: "Anastasia-Maria" } }), 200);
    expect(edited).toMatchObject({ id: ana.id, externalId: "ana.b@example.com", email: "Ana.B@example.com", data: { firstName: "Anastasia-Maria" } });
    expect(edited.warnings).toEqual([expect.objectContaining({ column: "firstName", code: "too_long", severity: "warning" })]);
    expect(edited.url!.endsWith(`/${ana.token}`)).toBe(true);
    const [audit] = await db.select().from(auditEvents).where(and(eq(auditEvents.targetId, campaign.id), eq(auditEvents.action, "campaign.recipient_updated")));
    expect(audit!.data).toEqual({ name: campaign.name, channel: "DEV", recipientId: ana.id, changed: ["email", "data.firstName", "data.planName"] });
    // A re-import with the new email updates the same recipient.
    expect(await expectJson<ImportJson>(await postCsv(campaign.id, "firstName,email\nAna,ana.b@example.com\n"), 201)).toMatchObject({ rowsImported: 0, rowsUpdated: 1 });
  });

  it.each([
    ["a strict field's value too long", 422, { data: { planName: "An-extremely-long-plan-name" } }, "data.planName"],
    ["a required field emptied", 422, { data: { firstName: "" } }, "data.firstName"],
    ["a key that is no field", 422, { data: { shoeSize: "40" } }, "data.shoeSize"],
    ["nothing to change", 422, {}, ""],
    ["another recipient's email", 409, { email: "BO@example.com" }, undefined],
  ])("PATCH with %s → %i; the recipient stays as it was", async (_, status, body, path) => {
    const { campaign, ana } = await campaignWithRecipients();
    const problem = await expectJson<Problem>(await patch(campaign.id, ana.id, body), status);
    if (path !== undefined) expect(problem.errors?.map((e) => e.path)).toEqual([path]);
    expect((await storedRecipients(campaign.id)).find((r) => r.id === ana.id)).toEqual(ana);
  });

  it("DELETE removes the recipient (its URL is the share's 404 from then on); regenerate-url gives a new token and the old one stops working", async () => {
    const db = await getDb();
    const { campaign, ana, bo } = await campaignWithRecipients();
    const shareOf = { projectId: home.project.id, channel: "DEV" as const };
    const renewed = await expectJson<{ id: string; url: string }>(await regenerate(campaign.id, bo.id), 200);
    const [boNow] = (await storedRecipients(campaign.id)).filter((r) => r.id === bo.id);
    expect(boNow!.token).not.toBe(bo.token);
    expect(renewed.url.endsWith(`/${boNow!.token}`)).toBe(true);
    expect(await findShareRecipient(db, shareOf, bo.token)).toBeNull();
    expect(await findShareRecipient(db, shareOf, boNow!.token)).toMatchObject({ id: bo.id });

    const removed = await remove(campaign.id, ana.id);
    expect(removed.status).toBe(204);
    expect(await findShareRecipient(db, shareOf, ana.token)).toBeNull();
    expect((await detail(campaign.id)).recipientCount).toBe(1);
    expect((await expectJson<Problem>(await remove(campaign.id, ana.id), 404)).code).toBe("not_found");
    const actions = await db.select({ action: auditEvents.action }).from(auditEvents).where(eq(auditEvents.targetId, campaign.id));
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(["campaign.recipient_url_regenerated", "campaign.recipient_removed"]));
  });

  it("another campaign's recipient is a 404 for each; a Viewer gets 403", async () => {
    const { campaign, ana } = await campaignWithRecipients();
    const other = await newCampaign();
    expect((await expectJson<Problem>(await patch(other.id, ana.id, { email: null }), 404)).code).toBe("not_found");
    expect((await expectJson<Problem>(await remove(other.id, ana.id), 404)).code).toBe("not_found");
    expect((await expectJson<Problem>(await regenerate(other.id, ana.id), 404)).code).toBe("not_found");
    expect((await expectJson<Problem>(await patch(campaign.id, "not-a-uuid", { email: null }), 404)).code).toBe("not_found");
    expect((await expectJson<Problem>(await patch(campaign.id, ana.id, { email: null }, viewer), 403)).code).toBe("forbidden");
    expect((await expectJson<Problem>(await remove(campaign.id, ana.id, viewer), 403)).code).toBe("forbidden");
    expect((await expectJson<Problem>(await regenerate(campaign.id, ana.id, viewer), 403)).code).toBe("forbidden");
    expect((await storedRecipients(campaign.id)).find((r) => r.id === ana.id)).toEqual(ana);
  });
});
