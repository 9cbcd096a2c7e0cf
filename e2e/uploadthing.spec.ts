import { createHmac, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { build } from "esbuild";
import { genUploader } from "uploadthing/client";
import { signIn } from "./console-helpers";
import { NodeXMLHttpRequest } from "../testing/node-xhr";
import { startUploadThingStandIn, type UploadThingStandIn } from "../testing/uploadthing-stand-in";
import type { UploadThingRouter } from "../lib/uploadthing/file-router";
import { startOwnInstance, type OwnInstance } from "./own-instance";

// /api/uploadthing as `npm start` serves it (Next's bundling of the SDK, proxy.ts, the API's
// headers), on an instance of its own pointed at the loopback UploadThing stand-in, which calls
// the instance back at its PUBLIC_BASE_URL. The client is uploadthing/client in this process
// (its XMLHttpRequest: testing/node-xhr.ts), with the admin's bearer token; the refusals
// and the cookie rules are lib/uploadthing/uploadthing.test.ts.

let standIn: UploadThingStandIn | undefined;
let instance: OwnInstance | undefined;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  standIn = await startUploadThingStandIn();
  instance = await startOwnInstance("uploadthing", standIn.env);
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  await instance?.stop();
  await standIn?.close();
});

const url = (path: string) => `${instance!.app.baseUrl}${path}`;
const bearer = () => ({ Authorization: `Bearer ${instance!.app.token}` });

test("GET /api/uploadthing – anonymous → 401 problem+json; the admin's token → the file routes' config", async () => {
  const anonymous = await fetch(url("/api/uploadthing"), { signal: AbortSignal.timeout(30_000) });
  expect(anonymous.status).toBe(401);
  expect(anonymous.headers.get("content-type")).toBe("application/problem+json");

  const admin = await fetch(url("/api/uploadthing"), { headers: bearer(), signal: AbortSignal.timeout(30_000) });
  expect(admin.status).toBe(200);
  expect(admin.headers.get("x-content-type-options")).toBe("nosniff");
  expect(await admin.json()).toEqual([{ slug: "templateFiles", config: expect.objectContaining({ blob: expect.objectContaining({ maxFileCount: 1 }) }) }]);
});

test("POST …/templates/uploads, then the file through UploadThing – the stand-in stores it, the session shows it uploaded", async () => {
  const { baseUrl, projectId } = instance!.app;
  const bytes = Buffer.from(JSON.stringify({ v: "5.7.4", fr: 30, ip: 0, op: 30, w: 100, h: 100, layers: [] }));
  const created = await fetch(`${baseUrl}/api/Projects/${projectId}/templates/uploads`, {
    method: "POST",
    headers: { ...bearer(), "Content-Type": "application/json" },
    body: JSON.stringify({
      fields: { name: "Through UploadThing", version: "1.0", kind: "LottieStandalone" },
      files: [{ role: "templateJson", name: "card.json", size: bytes.length, type: "application/json" }],
    }),
    signal: AbortSignal.timeout(30_000),
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const session = (await created.json()) as { id: string; provider: string; files: { name: string; uploadthing: { endpoint: "templateFiles"; input: { sessionId: string; fileIndex: number } } }[] };
  expect(session.provider).toBe("uploadthing");

  const globals = globalThis as Record<string, unknown>;
  globals.XMLHttpRequest = NodeXMLHttpRequest;
  try {
    const { uploadFiles } = genUploader<UploadThingRouter>({ url: url("/api/uploadthing"), package: "e2e", fetch: globalThis.fetch });
    const { endpoint, input } = session.files[0]!.uploadthing;
    const [result] = await uploadFiles(endpoint, { files: [new File([bytes], session.files[0]!.name, { type: "application/json" })], input, headers: bearer() });
    expect(result!.serverData).toEqual({ recorded: true });
    expect(standIn!.files().find((file) => file.key === result!.key)!.bytes.equals(bytes)).toBe(true);
    expect(standIn!.callbacks().filter((callback) => callback.key === result!.key)).toEqual([expect.objectContaining({ via: "http", status: 200 })]);
  } finally {
    delete globals.XMLHttpRequest;
  }

  const shown = await fetch(`${baseUrl}/api/Projects/${projectId}/templates/uploads/${session.id}`, { headers: bearer(), signal: AbortSignal.timeout(30_000) });
  expect(await shown.json()).toMatchObject({ status: "open", files: [{ uploaded: true }] });
});

test("the weather card through UploadThing, completed – the template is created from the files read back from UploadThing, which then deletes them", async () => {
  const { baseUrl, projectId } = instance!.app;
  const files = [
    { role: "templateJson", name: "data.json", bytes: readFileSync("testing/fixtures/lottie/weather-card/data.json") },
    { role: "manifestJson", name: "manifest.json", bytes: readFileSync("testing/fixtures/lottie/weather-card/manifest.json") },
    // The images its animation shows: a completion without them is refused.
    { role: "assetFiles", name: "img_0.jpg", bytes: readFileSync("testing/fixtures/lottie/weather-card/images/img_0.jpg") },
    { role: "assetFiles", name: "img_1.jpg", bytes: readFileSync("testing/fixtures/lottie/weather-card/images/img_1.jpg") },
  ];
  const typeOf = (name: string) => (name.endsWith(".jpg") ? "image/jpeg" : "application/json");
  const created = await fetch(`${baseUrl}/api/Projects/${projectId}/templates/uploads`, {
    method: "POST",
    headers: { ...bearer(), "Content-Type": "application/json" },
    body: JSON.stringify({
      fields: { name: "Weather card via UploadThing", version: "1.0", kind: "LottieStandalone" },
      files: files.map(({ role, name, bytes }) => ({ role, name, size: bytes.length, type: typeOf(name) })),
    }),
    signal: AbortSignal.timeout(30_000),
  });
  expect(created.status).toBe(201);
  const session = (await created.json()) as CreatedSession;
  const completeUrl = `${baseUrl}/api/Projects/${projectId}/templates/uploads/${session.id}/complete`;
  const complete = () => fetch(completeUrl, { method: "POST", headers: { ...bearer(), "Content-Type": "application/json" }, body: "{}", signal: AbortSignal.timeout(60_000) });

  const globals = globalThis as Record<string, unknown>;
  globals.XMLHttpRequest = NodeXMLHttpRequest;
  const keys: string[] = [];
  try {
    const { uploadFiles } = genUploader<UploadThingRouter>({ url: url("/api/uploadthing"), package: "e2e", fetch: globalThis.fetch });
    const [first] = await uploadFiles("templateFiles", { files: [new File([files[0]!.bytes], session.files[0]!.name, { type: "application/json" })], input: session.files[0]!.uploadthing.input, headers: bearer() });
    keys.push(first!.key);
    const early = await complete();
    expect(early.status).toBe(422);
    expect(((await early.json()) as { errors: { path: string }[] }).errors).toEqual([expect.objectContaining({ path: "files.1" })]);
    for (const [index, file] of files.entries()) {
      if (index === 0) continue;
      const [sent] = await uploadFiles("templateFiles", { files: [new File([file.bytes], session.files[index]!.name, { type: typeOf(file.name) })], input: session.files[index]!.uploadthing.input, headers: bearer() });
      keys.push(sent!.key);
    }
  } finally {
    delete globals.XMLHttpRequest;
  }

  const done = await complete();
  expect(done.status, await done.clone().text()).toBe(201);
  expect(await done.json()).toMatchObject({ name: "Weather card via UploadThing", status: "Testing", width: 720, height: 1280 });
  expect(standIn!.files().filter((file) => keys.includes(file.key))).toEqual([]);
  const replay = await complete();
  expect(replay.status).toBe(201);
  expect(replay.headers.get("idempotent-replayed")).toBe("true");
});

type CreatedSession = { id: string; provider: string; files: { name: string; uploadthing: { endpoint: "templateFiles"; input: { sessionId: string; fileIndex: number } } }[] };

async function createSession(bytes: Buffer, name: string): Promise<CreatedSession> {
  const { baseUrl, projectId } = instance!.app;
  const created = await fetch(`${baseUrl}/api/Projects/${projectId}/templates/uploads`, {
    method: "POST",
    headers: { ...bearer(), "Content-Type": "application/json" },
    body: JSON.stringify({
      fields: { name: "Through UploadThing in a browser", version: "1.0", kind: "LottieStandalone" },
      files: [{ role: "templateJson", name, size: bytes.length, type: "application/json" }],
    }),
    signal: AbortSignal.timeout(30_000),
  });
  expect(created.status, await created.clone().text()).toBe(201);
  return (await created.json()) as CreatedSession;
}

test("in Chromium, signed in on a console page – uploadthing/client's XHR to the stand-in (the page's CSP, CORS preflights), the cookie to the app", async ({ browser }) => {
  const { baseUrl, projectId, adminEmail, adminPassword } = instance!.app;
  const bytes = Buffer.from(JSON.stringify({ v: "5.7.4", fr: 30, ip: 0, op: 30, w: 100, h: 100, layers: [] }));
  const session = await createSession(bytes, "browser.json");
  // The client is bundled here and evaluated in the page (as devtools would: a script element
  // would need the page's nonce); its requests are under the page's CSP like the console's own.
  const context = await browser.newContext({ baseURL: baseUrl });
  const page = await context.newPage();
  await signIn(page, { email: adminEmail, password: adminPassword });
  const policy = (await page.goto("/projects"))!.headers()["content-security-policy"] ?? "";
  expect(/connect-src [^;]*/.exec(policy)?.[0]).toContain(standIn!.ingestUrl);
  const bundle = await build({
    stdin: { contents: 'export { genUploader } from "uploadthing/client";', resolveDir: process.cwd() },
    bundle: true,
    format: "iife",
    globalName: "UploadThingClient",
    platform: "browser",
    define: { "process.env.NODE_ENV": '"production"' },
    write: false,
  });
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.evaluate(bundle.outputFiles[0]!.text);
  const preflightsBefore = standIn!.requests().filter((request) => request.method === "OPTIONS").length;

  const result = await page.evaluate(
    async ({ input, name, text }) => {
      type Uploader = { genUploader: (options: { url: string; package: string }) => { uploadFiles: (endpoint: string, options: { files: File[]; input: unknown }) => Promise<{ key: string; serverData: unknown }[]> } };
      const { uploadFiles } = (window as unknown as { UploadThingClient: Uploader }).UploadThingClient.genUploader({ url: "/api/uploadthing", package: "e2e-browser" });
      const [uploaded] = await uploadFiles("templateFiles", { files: [new File([text], name, { type: "application/json" })], input });
      return { key: uploaded!.key, serverData: uploaded!.serverData };
    },
    { input: session.files[0]!.uploadthing.input, name: session.files[0]!.name, text: bytes.toString("utf8") },
  );
  await context.close();

  expect(violations).toEqual([]);
  expect(result.serverData).toEqual({ recorded: true });
  expect(standIn!.files().find((file) => file.key === result.key)!.bytes.equals(bytes)).toBe(true);
  expect(standIn!.requests().filter((request) => request.method === "OPTIONS").length).toBeGreaterThan(preflightsBefore);
  const shown = await fetch(`${baseUrl}/api/Projects/${projectId}/templates/uploads/${session.id}`, { headers: bearer(), signal: AbortSignal.timeout(30_000) });
  expect(await shown.json()).toMatchObject({ status: "open", files: [{ uploaded: true }] });
});

test("POST /api/uploadthing?actionType=upload – an unknown session → 404 problem+json, nothing registered at UploadThing", async () => {
  const registrations = () => standIn!.requests().filter((request) => request.path === "/route-metadata").length;
  const before = registrations();
  const answer = await fetch(url("/api/uploadthing?actionType=upload&slug=templateFiles"), {
    method: "POST",
    headers: { ...bearer(), "Content-Type": "application/json" },
    body: JSON.stringify({ input: { sessionId: randomUUID(), fileIndex: 0 }, files: [{ name: "a.json", size: 2, type: "application/json" }] }),
    signal: AbortSignal.timeout(30_000),
  });
  expect(answer.status).toBe(404);
  expect(answer.headers.get("content-type")).toBe("application/problem+json");
  expect(await answer.json()).toMatchObject({ status: 404, code: "not_found" });
  expect(registrations()).toBe(before);
});

test("POST /api/uploadthing – UploadThing's callback with a forged signature → 400 problem+json", async () => {
  const payload = JSON.stringify({ status: "uploaded", metadata: { sessionId: randomUUID(), fileIndex: 0 }, origin: standIn!.ingestUrl, file: {} });
  const answer = await fetch(url("/api/uploadthing?slug=templateFiles"), {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "uploadthing-hook": "callback",
      "x-uploadthing-signature": `hmac-sha256=${createHmac("sha256", "sk_not_the_key").update(payload).digest("hex")}`,
    },
    body: payload,
    signal: AbortSignal.timeout(30_000),
  });
  expect(answer.status).toBe(400);
  expect(answer.headers.get("content-type")).toBe("application/problem+json");
  expect(await answer.json()).toMatchObject({ status: 400, detail: "Invalid signature" });
});

test("/api/uploadthing on the suite's app, which has no UPLOADTHING_TOKEN – 404 problem+json", async () => {
  const answer = await fetch(`${process.env.E2E_BASE_URL}/api/uploadthing`, { headers: { Authorization: `Bearer ${process.env.E2E_API_TOKEN}` }, signal: AbortSignal.timeout(30_000) });
  expect(answer.status).toBe(404);
  expect(answer.headers.get("content-type")).toBe("application/problem+json");
});
