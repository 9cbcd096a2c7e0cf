import { createHmac, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { genUploader } from "uploadthing/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as uploadThingRoute from "@/app/api/uploadthing/route";
import { startConsoleSession } from "@/lib/auth/console-sessions";
import { authorizeProject } from "@/lib/auth/project-access";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { templateUploadSessions, type UploadSessionFile } from "@/lib/db/schema";
import { createTestMember, createTestProject } from "@/testing/factories";
import { NodeXMLHttpRequest } from "@/testing/node-xhr";
import { createUploadSession } from "@/lib/templates/upload-sessions/sessions";
import { startRouteServer, type RouteServer } from "@/testing/route-server";
import { startUploadThingStandIn, type UploadThingStandIn } from "@/testing/uploadthing-stand-in";
import type { UploadThingRouter } from "./file-router";
import { deleteUploadThingFiles, openUploadThingFile } from "./files";
import { recordUploadThingFile } from "./upload-session-files";
import { sessionActor } from "@/lib/auth/authenticate";

// The UploadThing provider end to end, in this process: the app's /api/uploadthing served over
// HTTP, the real client (uploadthing/client) and the real server SDK, against the loopback
// stand-in (testing/uploadthing-stand-in.ts), which calls the app back as UploadThing does.

const configKey = Symbol.for("reelbind.config");
const resetConfig = () => delete (globalThis as Record<symbol, unknown>)[configKey];

let app: RouteServer;
let standIn: UploadThingStandIn;
let projectId: string;
let editor: { id: string; cookie: string };
let viewer: { id: string; cookie: string };
let outsider: { id: string; cookie: string };
const savedEnv = { ...process.env };

const jsonBytes = Buffer.from(JSON.stringify({ v: "5.7.4", fr: 30, ip: 0, op: 30, w: 100, h: 100, layers: [] }));
const pngBytes = randomBytes(1024 * 1024);
const declaredFiles: UploadSessionFile[] = [
  { role: "templateJson", name: "weather.json", size: jsonBytes.length, type: "application/json" },
  { role: "assetFiles", name: "sun.png", size: pngBytes.length, type: "image/png" },
];

async function consoleUser(role: "Editor" | "Viewer", scope: { projectId: string }) {
  const { user } = await createTestMember(role, scope);
  const sid = await startConsoleSession(await getDb(), user.id);
  const jwt = await encode({ token: { sub: user.id, sid, email: user.email }, secret: getConfig().authSecret });
  return { id: user.id, cookie: `next-auth.session-token=${jwt}` };
}

/** A session as POST …/templates/uploads creates it (provider uploadthing: UPLOADTHING_TOKEN is set); `overrides` written over it. */
async function createSession(overrides: Partial<typeof templateUploadSessions.$inferInsert> = {}) {
  const db = await getDb();
  const actor = sessionActor({ id: editor.id, email: "editor@test.example" });
  const access = await authorizeProject(db, actor, projectId, "template.upload");
  const { body } = await createUploadSession(
    { db, actor, access },
    {
      declaration: {
        fields: { name: "Weather card", version: "1.0", kind: "LottieStandalone" },
        files: declaredFiles.map(({ role, name, size, type }) => ({ role: role as "templateJson" | "assetFiles", name, size, type })),
      },
    },
  );
  expect(body).toMatchObject({ provider: "uploadthing", files: [{ uploadthing: { endpoint: "templateFiles", input: { sessionId: body.id, fileIndex: 0 } } }, {}] });
  if (Object.keys(overrides).length > 0) await db.update(templateUploadSessions).set(overrides).where(eq(templateUploadSessions.id, body.id));
  return body.id;
}

async function sessionFiles(sessionId: string) {
  const db = await getDb();
  const [row] = await db.select({ files: templateUploadSessions.files }).from(templateUploadSessions).where(eq(templateUploadSessions.id, sessionId));
  return row!.files;
}

function uploader(cookie: string) {
  const { uploadFiles } = genUploader<UploadThingRouter>({ url: `${app.url}/api/uploadthing`, package: "vitest", fetch: globalThis.fetch });
  return (input: { sessionId: string; fileIndex: number }, file: File) =>
    uploadFiles("templateFiles", { files: [file], input, headers: { cookie, origin: app.url } });
}

/** The upload request the client sends first, by hand: its status and body. */
async function requestUpload(body: unknown, headers: Record<string, string>) {
  const answer = await fetch(`${app.url}/api/uploadthing?actionType=upload&slug=templateFiles`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: answer.status, contentType: answer.headers.get("content-type"), body: (await answer.json()) as Record<string, unknown> };
}

async function readAll(iterable: AsyncIterable<Uint8Array>) {
  const chunks: Uint8Array[] = [];
  for await (const chunk of iterable) chunks.push(chunk);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  app = await startRouteServer({ "/api/uploadthing": uploadThingRoute });
  standIn = await startUploadThingStandIn();
  Object.assign(process.env, standIn.env, { PUBLIC_BASE_URL: app.url });
  resetConfig();
  (globalThis as Record<string, unknown>).XMLHttpRequest = NodeXMLHttpRequest;
  ({
    project: { id: projectId },
  } = await createTestProject());
  editor = await consoleUser("Editor", { projectId });
  viewer = await consoleUser("Viewer", { projectId });
  outsider = await consoleUser("Editor", { projectId: (await createTestProject("Another project")).project.id });
});

afterAll(async () => {
  delete (globalThis as Record<string, unknown>).XMLHttpRequest;
  await standIn?.close();
  await app?.close();
  for (const name of ["UPLOADTHING_TOKEN", "UPLOADTHING_INGEST_URL", "UPLOADTHING_API_URL", "PUBLIC_BASE_URL"]) {
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  }
  resetConfig();
});

describe("POST /api/uploadthing – an Editor's upload of a declared file", () => {
  it("the stand-in stores the bytes under a verified presigned URL, the app's signed callback records key, url and size", async () => {
    const sessionId = await createSession();
    const [result] = await uploader(editor.cookie)({ sessionId, fileIndex: 0 }, new File([jsonBytes], "weather.json", { type: "application/json" }));

    expect(result!.serverData).toEqual({ recorded: true });
    const stored = standIn.files().find((file) => file.key === result!.key)!;
    expect(stored.bytes.equals(jsonBytes)).toBe(true);
    expect(stored).toMatchObject({ name: "weather.json", size: jsonBytes.length, slug: "templateFiles" });
    const put = standIn.requests().find((request) => request.method === "PUT" && request.path === `/${result!.key}`);
    expect(put).toMatchObject({ server: "ingest", status: 200 });
    expect(standIn.callbacks().filter((callback) => callback.key === result!.key)).toEqual([expect.objectContaining({ via: "http", status: 200 })]);

    const files = await sessionFiles(sessionId);
    expect(files[0]!.uploadthing).toEqual({ key: result!.key, url: stored.ufsUrl, size: jsonBytes.length });
    expect(files[1]!.uploadthing).toBeUndefined();

    expect((await readAll(await openUploadThingFile(files[0]!.uploadthing!))).equals(jsonBytes)).toBe(true);
  });

  it("the same file sent again – the newer upload is recorded, the one it replaces deleted at UploadThing", async () => {
    const sessionId = await createSession();
    const upload = uploader(editor.cookie);
    const file = () => new File([jsonBytes], "weather.json", { type: "application/json" });
    const [first] = await upload({ sessionId, fileIndex: 0 }, file());
    const [second] = await upload({ sessionId, fileIndex: 0 }, file());

    expect((await sessionFiles(sessionId))[0]!.uploadthing!.key).toBe(second!.key);
    expect(standIn.files().map((stored) => stored.key)).toContain(second!.key);
    expect(standIn.files().map((stored) => stored.key)).not.toContain(first!.key);
  });

  it("in development (the SDK's isDev, as under next dev) – the callback comes down the registration's stream, the app forwards it to itself", async () => {
    const sessionId = await createSession();
    process.env.UPLOADTHING_IS_DEV = "true";
    try {
      const [result] = await uploader(editor.cookie)({ sessionId, fileIndex: 0 }, new File([jsonBytes], "weather.json", { type: "application/json" }));
      expect(result!.serverData).toEqual({ recorded: true });
      expect(standIn.callbacks().filter((callback) => callback.key === result!.key)).toEqual([expect.objectContaining({ via: "dev-stream" })]);
      expect((await sessionFiles(sessionId))[0]!.uploadthing).toMatchObject({ key: result!.key, size: jsonBytes.length });
    } finally {
      delete process.env.UPLOADTHING_IS_DEV;
    }
  });

  it("the connection drops mid-body – the upload fails, nothing is recorded; sent again, it is", async () => {
    const sessionId = await createSession();
    const upload = uploader(editor.cookie);
    const file = () => new File([pngBytes], "sun.png", { type: "image/png" });
    standIn.dropPut(1);
    await expect(upload({ sessionId, fileIndex: 1 }, file())).rejects.toMatchObject({ code: "UPLOAD_FAILED" });
    expect(standIn.requests().some((request) => request.method === "PUT" && request.detail === "connection lost mid-body")).toBe(true);
    expect((await sessionFiles(sessionId))[1]!.uploadthing).toBeUndefined();

    const [result] = await upload({ sessionId, fileIndex: 1 }, file());
    expect((await sessionFiles(sessionId))[1]!.uploadthing).toMatchObject({ key: result!.key, size: pngBytes.length });
    expect(standIn.files().find((stored) => stored.key === result!.key)!.bytes.equals(pngBytes)).toBe(true);
  });
});

describe("the presigned URL, by hand – as a browser sends it, and resumed", () => {
  it("CORS preflight, a PUT dropped mid-body, HEAD's x-ut-range-start, the rest with Range → recorded whole", async () => {
    const sessionId = await createSession();
    const presign = await requestUpload(
      { input: { sessionId, fileIndex: 1 }, files: [{ name: "sun.png", size: pngBytes.length, type: "image/png" }] },
      { cookie: editor.cookie, origin: app.url },
    );
    expect(presign.status).toBe(200);
    const [{ url, key }] = presign.body as unknown as [{ url: string; key: string }];
    expect(url.startsWith(`${standIn.ingestUrl}/${key}?`)).toBe(true);

    const preflight = await fetch(url, {
      method: "OPTIONS",
      headers: { origin: app.url, "access-control-request-method": "PUT", "access-control-request-headers": "range,x-uploadthing-version,b3,traceparent" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("PUT");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("x-uploadthing-version");

    standIn.dropPut(1);
    await expect(fetch(url, { method: "PUT", headers: { range: "bytes=0-" }, body: pngBytes })).rejects.toThrow();
    const head = await fetch(url, { method: "HEAD" });
    expect(head.headers.get("access-control-expose-headers")).toContain("x-ut-range-start");
    const start = Number(head.headers.get("x-ut-range-start"));
    expect(start).toBeGreaterThan(0);
    expect(start).toBeLessThan(pngBytes.length);

    const rest = await fetch(url, { method: "PUT", headers: { range: `bytes=${start}-` }, body: pngBytes.subarray(start) });
    expect(rest.status).toBe(200);
    expect(await rest.json()).toMatchObject({ ufsUrl: `${standIn.filesUrl}/f/${key}`, serverData: { recorded: true } });
    const recorded = (await sessionFiles(sessionId))[1]!.uploadthing!;
    expect(recorded).toEqual({ key, url: `${standIn.filesUrl}/f/${key}`, size: pngBytes.length });
    expect((await readAll(await openUploadThingFile(recorded))).equals(pngBytes)).toBe(true);
  });
});

describe("POST /api/uploadthing?actionType=upload – refusals (problem+json, no presigned URL, nothing registered at UploadThing)", () => {
  const file = { name: "weather.json", size: jsonBytes.length, type: "application/json" };

  it.each([
    { name: "a Viewer", status: 403, code: "forbidden", caller: () => viewer, body: (id: string) => ({ input: { sessionId: id, fileIndex: 0 }, files: [file] }) },
    { name: "an Editor of another project", status: 404, code: "not_found", caller: () => outsider, body: (id: string) => ({ input: { sessionId: id, fileIndex: 0 }, files: [file] }) },
    { name: "an unknown session", status: 404, code: "not_found", caller: () => editor, body: () => ({ input: { sessionId: "00000000-0000-4000-8000-000000000000", fileIndex: 0 }, files: [file] }) },
    { name: "a size other than the declared one", status: 422, code: "validation_failed", path: "files.0.size", caller: () => editor, body: (id: string) => ({ input: { sessionId: id, fileIndex: 0 }, files: [{ ...file, size: file.size + 1 }] }) },
    { name: "a name other than the declared one", status: 422, code: "validation_failed", path: "files.0.name", caller: () => editor, body: (id: string) => ({ input: { sessionId: id, fileIndex: 0 }, files: [{ ...file, name: "other.json" }] }) },
    { name: "a file index the session does not declare", status: 422, code: "validation_failed", path: "input.fileIndex", caller: () => editor, body: (id: string) => ({ input: { sessionId: id, fileIndex: 2 }, files: [file] }) },
    { name: "an input that is not { sessionId: uuid, fileIndex }", status: 422, code: "validation_failed", path: "sessionId", caller: () => editor, body: () => ({ input: { sessionId: "nope", fileIndex: 0 }, files: [file] }) },
    { name: "two files in one upload", status: 400, code: "bad_request", caller: () => editor, body: (id: string) => ({ input: { sessionId: id, fileIndex: 0 }, files: [file, file] }) },
  ])("$name → $status", async ({ status, code, path, caller, body }) => {
    const sessionId = await createSession();
    const registrations = standIn.requests().filter((request) => request.path === "/route-metadata").length;
    const answer = await requestUpload(body(sessionId), { cookie: caller().cookie, origin: app.url });

    expect(answer).toMatchObject({ status, contentType: "application/problem+json", body: { status, code } });
    if (path) expect(answer.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
    expect(standIn.requests().filter((request) => request.path === "/route-metadata").length).toBe(registrations);
  });

  it.each([
    { name: "cancelled", overrides: { status: "cancelled" }, code: "upload_session_not_open" },
    { name: "for S3", overrides: { provider: "s3" }, code: "upload_session_provider" },
  ])("a session $name → 409", async ({ overrides, code }) => {
    const sessionId = await createSession(overrides);
    const answer = await requestUpload({ input: { sessionId, fileIndex: 0 }, files: [file] }, { cookie: editor.cookie, origin: app.url });
    expect(answer).toMatchObject({ status: 409, contentType: "application/problem+json", body: { code } });
  });

  it.each([
    { name: "no session cookie", headers: () => ({ origin: app.url }), status: 401, code: "unauthorized" },
    { name: "the session cookie from another origin", headers: () => ({ cookie: editor.cookie, origin: "http://evil.example" }), status: 403, code: "forbidden" },
    { name: "the session cookie and no Origin", headers: () => ({ cookie: editor.cookie }), status: 403, code: "forbidden" },
  ])("$name → $status", async ({ headers, status, code }) => {
    const sessionId = await createSession();
    const answer = await requestUpload({ input: { sessionId, fileIndex: 0 }, files: [file] }, headers());
    expect(answer).toMatchObject({ status, contentType: "application/problem+json", body: { code } });
  });

  it("a Viewer through the client library – the upload fails with the problem's detail as its message", async () => {
    const sessionId = await createSession();
    await expect(uploader(viewer.cookie)({ sessionId, fileIndex: 0 }, new File([jsonBytes], "weather.json"))).rejects.toMatchObject({
      message: expect.stringContaining("Editor role"),
    });
  });
});

describe("GET /api/uploadthing and other requests of the SDK's protocol", () => {
  it("GET – signed in → the file routes' config; anonymous → 401", async () => {
    const signedIn = await fetch(`${app.url}/api/uploadthing`, { headers: { cookie: viewer.cookie } });
    expect(signedIn.status).toBe(200);
    expect(await signedIn.json()).toEqual([{ slug: "templateFiles", config: expect.objectContaining({ blob: expect.objectContaining({ maxFileCount: 1 }) }) }]);
    const anonymous = await fetch(`${app.url}/api/uploadthing`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("content-type")).toBe("application/problem+json");
  });

  it.each([
    { name: "an unknown file route", url: "?actionType=upload&slug=nope", body: {}, status: 404 },
    { name: "a body that is not the SDK's upload request", url: "?actionType=upload&slug=templateFiles", body: { files: "x" }, status: 400 },
  ])("POST – $name → $status problem+json", async ({ url, body, status }) => {
    const answer = await fetch(`${app.url}/api/uploadthing${url}`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: editor.cookie, origin: app.url },
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(status);
    expect(answer.headers.get("content-type")).toBe("application/problem+json");
    expect(await answer.json()).toMatchObject({ status, detail: expect.any(String) });
  });
});

describe("POST /api/uploadthing with uploadthing-hook: callback – UploadThing's callback", () => {
  const callback = (sessionId: string, key: string) =>
    JSON.stringify({
      status: "uploaded",
      metadata: { sessionId, fileIndex: 1 },
      origin: standIn.ingestUrl,
      file: { name: "sun.png", size: pngBytes.length, type: "image/png", customId: null, key, url: `${standIn.filesUrl}/f/${key}`, appUrl: `${standIn.filesUrl}/f/${key}`, ufsUrl: `${standIn.filesUrl}/f/${key}`, fileHash: "0" },
    });
  const send = (payload: string, signature: string | null) =>
    fetch(`${app.url}/api/uploadthing?slug=templateFiles`, {
      method: "POST",
      headers: { "content-type": "application/json", "uploadthing-hook": "callback", ...(signature ? { "x-uploadthing-signature": signature } : {}) },
      body: payload,
    });

  it.each([
    { name: "signed with another key", sign: (payload: string) => `hmac-sha256=${createHmac("sha256", "sk_not_the_key").update(payload).digest("hex")}` },
    { name: "signed over another body", sign: (payload: string) => `hmac-sha256=${createHmac("sha256", standIn.apiKey).update(`${payload} `).digest("hex")}` },
    { name: "without a signature", sign: () => null },
  ])("a callback $name → 400 problem+json, the session unchanged", async ({ sign }) => {
    const sessionId = await createSession();
    const payload = callback(sessionId, "forged-key");
    const answer = await send(payload, sign(payload));

    expect(answer.status).toBe(400);
    expect(answer.headers.get("content-type")).toBe("application/problem+json");
    expect(await answer.json()).toMatchObject({ status: 400, detail: "Invalid signature" });
    expect((await sessionFiles(sessionId))[1]!.uploadthing).toBeUndefined();
  });

  it.each([
    { name: "larger than 64 KB", body: () => JSON.stringify({ padding: "x".repeat(70 * 1024) }), status: 413 },
    { name: "nested deeper than 32 levels", body: () => `${"[".repeat(40)}${"]".repeat(40)}`, status: 422 },
    { name: "not JSON", body: () => "{", status: 400 },
  ])("a callback body $name → $status before the SDK reads it", async ({ body, status }) => {
    const answer = await send(body(), "hmac-sha256=00");
    expect(answer.status).toBe(status);
    expect(answer.headers.get("content-type")).toBe("application/problem+json");
  });
});

describe("recordUploadThingFile – only an open session, only the declared size; what is left to delete", () => {
  it.each([
    { name: "a cancelled session", overrides: { status: "cancelled" }, size: pngBytes.length },
    { name: "a size other than the declared one", overrides: {}, size: pngBytes.length - 1 },
    { name: "a file index past the declared files", overrides: {}, size: pngBytes.length, fileIndex: 7 },
  ])("$name → not recorded", async ({ overrides, size, fileIndex = 1 }) => {
    const sessionId = await createSession(overrides);
    const result = await recordUploadThingFile(await getDb(), { sessionId, fileIndex, file: { key: "k", url: "http://x.invalid/f/k", size } });
    expect(result).toEqual({ recorded: false, unreferencedKeys: ["k"] });
    expect((await sessionFiles(sessionId)).map((file) => file.uploadthing)).toEqual([undefined, undefined]);
  });

  it("the same callback again after the session moved on → not recorded, and the recorded file not given up", async () => {
    const sessionId = await createSession();
    const file = { key: "k1", url: "http://x.invalid/f/k1", size: pngBytes.length };
    expect(await recordUploadThingFile(await getDb(), { sessionId, fileIndex: 1, file })).toEqual({ recorded: true, unreferencedKeys: [] });
    expect(await recordUploadThingFile(await getDb(), { sessionId, fileIndex: 1, file })).toEqual({ recorded: true, unreferencedKeys: [] });
    await (await getDb()).update(templateUploadSessions).set({ status: "completing" }).where(eq(templateUploadSessions.id, sessionId));
    expect(await recordUploadThingFile(await getDb(), { sessionId, fileIndex: 1, file })).toEqual({ recorded: false, unreferencedKeys: [] });
    expect(await recordUploadThingFile(await getDb(), { sessionId, fileIndex: 1, file: { ...file, key: "k2" } })).toEqual({ recorded: false, unreferencedKeys: ["k2"] });
    expect((await sessionFiles(sessionId))[1]!.uploadthing).toEqual(file);
  });
});

describe("openUploadThingFile and deleteUploadThingFiles", () => {
  async function uploaded() {
    const sessionId = await createSession();
    await uploader(editor.cookie)({ sessionId, fileIndex: 1 }, new File([pngBytes], "sun.png", { type: "image/png" }));
    return (await sessionFiles(sessionId))[1]!.uploadthing!;
  }

  it("openUploadThingFile – a size other than the recorded one → 422 before a byte is read", async () => {
    const file = await uploaded();
    await expect(openUploadThingFile({ ...file, size: file.size + 1 })).rejects.toMatchObject({ kind: "validation_failed" });
  });

  it("openUploadThingFile – a URL on a private network that is not the configured UploadThing server → 503, no request", async () => {
    await expect(openUploadThingFile({ key: "k", url: "http://10.1.2.3/f/k", size: 1 })).rejects.toMatchObject({ kind: "service_unavailable", message: expect.stringContaining("private network") });
  });

  it("deleteUploadThingFiles – the files are gone at the stand-in; opening one then → 422", async () => {
    const file = await uploaded();
    await deleteUploadThingFiles([file.key]);
    expect(standIn.files().map((stored) => stored.key)).not.toContain(file.key);
    expect(standIn.requests().some((request) => request.server === "api" && request.path === "/v6/deleteFiles" && request.status === 200)).toBe(true);
    await expect(openUploadThingFile(file)).rejects.toMatchObject({ kind: "validation_failed" });
  });
});

describe("the stand-in's ingest", () => {
  it("PUT with a presigned URL whose signature is not the app's → 403, nothing stored", async () => {
    const url = new URL(`${standIn.ingestUrl}/somekey`);
    url.searchParams.append("expires", String(Date.now() + 60_000));
    url.searchParams.append("x-ut-identifier", standIn.appId);
    url.searchParams.append("x-ut-file-name", "a.txt");
    url.searchParams.append("x-ut-file-size", "1");
    url.searchParams.append("signature", `hmac-sha256=${createHmac("sha256", "sk_other").update(url.href).digest("hex")}`);
    const answer = await fetch(url, { method: "PUT", body: "a" });
    expect(answer.status).toBe(403);
    expect(standIn.files().map((file) => file.key)).not.toContain("somekey");
  });
});

describe("/api/uploadthing without UPLOADTHING_TOKEN", () => {
  it("GET and POST → 404 problem+json", async () => {
    delete process.env.UPLOADTHING_TOKEN;
    resetConfig();
    try {
      for (const method of ["GET", "POST"]) {
        const answer = await fetch(`${app.url}/api/uploadthing?actionType=upload&slug=templateFiles`, { method, headers: { cookie: editor.cookie, origin: app.url } });
        expect(answer.status).toBe(404);
        expect(answer.headers.get("content-type")).toBe("application/problem+json");
      }
    } finally {
      process.env.UPLOADTHING_TOKEN = standIn.token;
      resetConfig();
    }
  });
});
