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
import type { campaignDetailSchema, campaignImportSchema, campaignSchema, recipientPageSchema } from "@/lib/campaigns/contract";
import { csvSource } from "@/lib/campaigns/upload-recipients";
import { spoolUpload } from "@/lib/campaigns/csv-source";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { auditEvents, campaignImports, campaignRecipients, publicVideoShares, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { buildPageManifest } from "@/lib/embed/page-manifest";
import { apiRequest, createTestMember, createTestProject, routeParams } from "@/testing/factories";
import { makeLottie, textLayer } from "@/testing/fixtures/lottie-builders";
import { PUT as putShareRoute } from "../public-video-shares/[channel]/route";
import { GET as exportRoute } from "./[campaignId]/export/route";
import { GET as listRecipientsRoute, POST as postRecipientsRoute } from "./[campaignId]/recipients/route";
import { GET as getCampaignRoute } from "./[campaignId]/route";
import { GET as listRoute, POST as createRoute } from "./route";
import { sessionActor } from "@/lib/auth/authenticate";
import { uploadWithManifest } from "@/testing/template-api";

type CampaignJson = z.infer<typeof campaignSchema>;
type DetailJson = z.infer<typeof campaignDetailSchema>;
type ImportJson = z.infer<typeof campaignImportSchema>;
type PageJson = z.infer<typeof recipientPageSchema>;
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

function postCsv(campaignId: string, csv: string | Uint8Array, token = admin.token) {
  const req = new Request(new URL(recipientsUrl(campaignId), "http://localhost:3000"), {
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

  it("the same content again adds nothing and answers the first import (Idempotent-Replayed); new rows in another file are added, known ids skipped", async () => {
    const campaign = await newCampaign();
    const csv = "firstName,planName\nAna,Gold\nBo,Silver\n";
    const first = await expectJson<ImportJson>(await postCsv(campaign.id, csv), 201);
    const again = await postCsv(campaign.id, csv);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await expectJson<ImportJson>(again, 200)).toEqual(first);
    // Without an id column a row is known by its data: Ana is the same recipient.
    const second = await expectJson<ImportJson>(await postCsv(campaign.id, "firstName,planName\nAna,Gold\nCy,Gold\n"), 201);
    expect(second).toMatchObject({ rowsImported: 1, rowsDuplicate: 1 });
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
      .values({ campaignId: campaign.id, projectId: home.project.id, sha256, source: "csv", bytes: csv.length })
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
    expect(lines[0]).toBe("recipient_id,email,url");
    expect(lines.slice(1)).toEqual(first.items.concat(second.items, third.items).map((item) => `${item.externalId},${item.email},${item.url}`));

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
