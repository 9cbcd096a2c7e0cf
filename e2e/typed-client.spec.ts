import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { createReelbindClient, csvBody, formData } from "../client";
import { fixture } from "./embed-helpers";
import { createOwnedProject, env } from "./owned-project";

// The typed client (client/, docs/adr/0145-typed-api-client.md) against the built app, on the
// database the run uses: every call below is typed by the generated client/schema.ts, so a
// document that drifts from the server fails here (a wrong status, body or media type) or at
// `npm run typecheck` (a wrong shape). The flow a customer scripts: upload a template
// (multipart), deploy it, put it on a share, mint an API credential and, with it, an embed
// session; import a campaign's recipients as CSV and export them; render; add a webhook endpoint.

test.describe.configure({ timeout: 240_000 });

const execFileAsync = promisify(execFile);

test("the typed client: upload, deploy, share, credential, embed session, CSV import and export, render, webhook endpoint", async () => {
  const baseUrl = env("E2E_BASE_URL");
  const { projectId, token } = await createOwnedProject("Typed client");
  const reelbind = createReelbindClient({ baseUrl, token });
  const project = { path: { projectId } };

  const lights = new Blob([fixture("lottie/lights.json")], { type: "application/json" });
  const uploaded = await reelbind.POST("/api/Projects/{projectId}/templates/upload", {
    params: project,
    body: { name: "Lights (typed client)", kind: "LottieStandalone", templateJson: lights },
    bodySerializer: formData,
  });
  expect(uploaded.response.status, JSON.stringify(uploaded.error)).toBe(201);
  const template = uploaded.data!;
  expect(template).toMatchObject({ name: "Lights (typed client)", status: "Testing", kind: "LottieStandalone" });
  expect(template.files.templateJson?.size).toBe(lights.size);

  const templateParams = { path: { projectId, templateId: template.id } };
  const deployed = await reelbind.POST("/api/Projects/{projectId}/templates/{templateId}/deploy", { params: templateParams });
  expect(deployed.response.status, JSON.stringify(deployed.error)).toBe(200);
  expect(deployed.data?.status).toBe("Production");

  const credential = await reelbind.POST("/api/credentials", { body: { projectId, name: "Typed client site" } });
  expect(credential.response.status, JSON.stringify(credential.error)).toBe(201);
  const { id: apiCredentialId, apiKey, apiSecret } = credential.data!;

  // PROD serves the deployed template; the campaign below imports onto it.
  const share = await reelbind.PUT("/api/Projects/{projectId}/public-video-shares/{channel}", {
    params: { path: { projectId, channel: "PROD" } },
    body: { publicTitle: "Typed client", apiCredentialId },
  });
  expect(share.response.status, JSON.stringify(share.error)).toBe(201);
  expect(share.data).toMatchObject({ channel: "PROD", status: "Enabled" });

  // An embed session is the customer site's call: HTTP Basic with the credential, no token.
  const site = createReelbindClient({ baseUrl, credential: { apiKey, apiSecret } });
  const session = await site.POST("/api/embed-sessions", { body: { channel: "PROD", personalizationData: { firstName: "Ana" } } });
  expect(session.response.status, JSON.stringify(session.error)).toBe(201);
  expect(session.data?.token).toEqual(expect.any(String));
  const refused = await createReelbindClient({ baseUrl, credential: { apiKey, apiSecret: `${apiSecret}x` } }).POST("/api/embed-sessions", { body: { channel: "PROD" } });
  expect(refused.response.status).toBe(401);
  expect(refused.error).toMatchObject({ status: 401 });

  const campaign = await reelbind.POST("/api/Projects/{projectId}/campaigns", { params: project, body: { name: "Typed client campaign", channel: "PROD" } });
  expect(campaign.response.status, JSON.stringify(campaign.error)).toBe(201);
  const campaignParams = { path: { projectId, campaignId: campaign.data!.id } };
  const run = randomUUID().slice(0, 8);
  const ids = [`t-${run}-1`, `t-${run}-2`];
  const csv = `id,firstName,email\r\n${ids[0]},Zoe,zoe@example.com\r\n${ids[1]},Bruno,\r\n`;
  const imported = await reelbind.POST("/api/Projects/{projectId}/campaigns/{campaignId}/recipients", { params: campaignParams, body: csv, ...csvBody });
  expect(imported.response.status, JSON.stringify(imported.error)).toBe(201);
  expect(imported.data).toMatchObject({ status: "completed", source: "csv", rowsImported: 2, rowsRefused: 0 });
  const again = await reelbind.POST("/api/Projects/{projectId}/campaigns/{campaignId}/recipients", { params: campaignParams, body: csv, ...csvBody });
  expect(again.response.status).toBe(200);
  expect(again.response.headers.get("idempotent-replayed")).toBe("true");

  const exported = await reelbind.GET("/api/Projects/{projectId}/campaigns/{campaignId}/export", { params: campaignParams, parseAs: "text" });
  expect(exported.response.status).toBe(200);
  expect(exported.response.headers.get("content-type")).toMatch(/^text\/csv/);
  const rows = exported.data!.trim().split(/\r?\n/);
  expect(rows[0]).toBe("recipient_id,email,url");
  expect(rows.slice(1).map((row) => row.split(",")[0])).toEqual(ids);

  const render = await reelbind.POST("/api/Projects/{projectId}/templates/{templateId}/renders", { params: templateParams, body: { format: "png", data: { firstName: "Ana" } } });
  expect(render.response.status, JSON.stringify(render.error)).toBe(202);
  const renderParams = { path: { projectId, templateId: template.id, renderId: render.data!.id } };
  await expect
    .poll(async () => (await reelbind.GET("/api/Projects/{projectId}/templates/{templateId}/renders/{renderId}", { params: renderParams })).data?.status, { timeout: 150_000 })
    .toBe("done");
  const done = (await reelbind.GET("/api/Projects/{projectId}/templates/{templateId}/renders/{renderId}", { params: renderParams })).data!;
  // The download is signed: no credential, and openapi-fetch's path is the document's.
  const downloadUrl = new URL(done.downloadUrl!);
  const file = await createReelbindClient({ baseUrl, token: "" }).GET("/api/renders/{renderId}/download", {
    params: { path: { renderId: done.id } },
    querySerializer: () => downloadUrl.search.slice(1),
    parseAs: "blob",
  });
  expect(file.response.status).toBe(200);
  expect(file.response.headers.get("content-type")).toBe("image/png");
  expect(new Uint8Array(await file.data!.slice(0, 8).arrayBuffer())).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

  const endpoint = await reelbind.POST("/api/Projects/{projectId}/webhooks", {
    params: project,
    body: { url: "https://hooks.example.com/reelbind", description: "Typed client", eventTypes: ["render.completed"] },
  });
  expect(endpoint.response.status, JSON.stringify(endpoint.error)).toBe(201);
  expect(endpoint.data).toMatchObject({ url: "https://hooks.example.com/reelbind", eventTypes: ["render.completed"] });
  const listed = await reelbind.GET("/api/Projects/{projectId}/webhooks", { params: project });
  expect(listed.data?.items.map((item) => item.id)).toEqual([endpoint.data!.id]);
});

test("the compiled client (npm run client:build) in plain Node.js, no TypeScript loader: a token's calls and a credential's", async () => {
  const baseUrl = env("E2E_BASE_URL");
  const { projectId, token } = await createOwnedProject("Compiled client");
  // Built afresh into this test's output folder, so the check is of the sources as they are now.
  const outDir = test.info().outputPath("client-dist");
  await run("npx", ["tsc", "-p", "client/tsconfig.build.json", "--outDir", outDir]);
  const script = path.join(outDir, "calls.mjs");
  writeFileSync(
    script,
    `import { createReelbindClient } from "./index.js";
const [baseUrl, token, projectId] = process.argv.slice(2);
const reelbind = createReelbindClient({ baseUrl, token });
const me = await reelbind.GET("/api/me");
const credential = await reelbind.POST("/api/credentials", { body: { projectId, name: "Compiled client" } });
const wrong = await createReelbindClient({ baseUrl, credential: { apiKey: credential.data.apiKey, apiSecret: "sk_wrong" } }).POST("/api/embed-sessions", { body: { channel: "DEV" } });
console.log(JSON.stringify({ me: me.response.status, email: me.data?.user.email, credential: credential.response.status, wrong: wrong.response.status, problem: wrong.error?.code }));
`,
  );
  const output = await run(process.execPath, [script, baseUrl, token, projectId]);
  expect(JSON.parse(output)).toEqual({ me: 200, email: expect.stringContaining("@"), credential: 201, wrong: 401, problem: expect.any(String) });
});

/** Runs a command to its end (bounded), answering its standard output. */
async function run(command: string, args: string[]): Promise<string> {
  const { stdout } = await execFileAsync(command, args, { timeout: 120_000, encoding: "utf8" });
  return stdout;
}
