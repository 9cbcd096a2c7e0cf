import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { EventEmitter } from "node:events";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import busboy from "busboy";

// A loopback stand-in for UploadThing (v7 protocol, as uploadthing 7.7's SDK speaks it and
// docs.uploadthing.com's "Uploading files" describes it), for tests: three servers on 127.0.0.1.
//
// ingest   POST /route-metadata   the app registers the keys it presigned, its metadata and callback
//                                 URL (x-uploadthing-api-key); with isDev the answer is a stream
//                                 of JSON lines {payload, signature, hook} the app forwards to itself
//          HEAD /{key}?…          a presigned URL's resume point (x-ut-range-start)
//          PUT  /{key}?…          the file (multipart field "file", or the raw body; Range: bytes=N-),
//                                 refused with 403 unless `signature` is hmac-sha256= the HMAC-SHA256
//                                 (hex) of the URL before it under the API key, `expires` is ahead
//                                 and x-ut-identifier is the app; then, for a route upload (x-ut-slug),
//                                 the signed callback to the app (uploadthing-hook: callback,
//                                 x-uploadthing-signature: hmac-sha256= HMAC of the body), and with
//                                 awaitServerData the answer waits for the app's /callback-result
//          POST /callback-result  the app's onUploadComplete result {fileKey, callbackData}
//          OPTIONS                CORS preflight, as a browser's XHR needs it
// api      POST /v6/deleteFiles   UTApi.deleteFiles: {fileKeys} or {customIds}
// files    GET  /f/{key}          the stored bytes (url and ufsUrl), /a/{appId}/{key} (appUrl)
//
// Not implemented: the other /v6 API calls, ACLs and signed file URLs, regions, file key
// validation against the app id (the SDK's sqids scheme), onUploadError callbacks.

export type StandInFile = {
  key: string;
  name: string;
  size: number;
  type: string;
  customId: string | null;
  /** The file route (x-ut-slug); null for a server-side upload. */
  slug: string | null;
  bytes: Buffer;
  fileHash: string;
  url: string;
  appUrl: string;
  ufsUrl: string;
};

export type StandInRequest = { server: "ingest" | "api" | "files"; method: string; path: string; status: number; detail?: string };

export type StandInCallback = {
  key: string;
  /** "http": sent to the app's callback URL; "dev-stream": a line of the isDev registration's stream. */
  via: "http" | "dev-stream";
  /** The app's answer to an http callback (null: none, or a dev-stream line). */
  status: number | null;
  body: string;
};

export type UploadThingStandIn = {
  ingestUrl: string;
  apiUrl: string;
  filesUrl: string;
  appId: string;
  apiKey: string;
  /** base64 JSON { apiKey, appId, regions, ingestHost }: the SDK's token. */
  token: string;
  /** UPLOADTHING_TOKEN, UPLOADTHING_INGEST_URL and UPLOADTHING_API_URL for the app. */
  env: Record<string, string>;
  files: () => StandInFile[];
  requests: () => StandInRequest[];
  callbacks: () => StandInCallback[];
  /** The n-th PUT from now (1: the next) loses its connection after its first chunk; its bytes so far are kept for a resume. */
  dropPut: (n: number) => void;
  close: () => Promise<void>;
};

type Registration = {
  metadata: unknown;
  callbackUrl: string;
  callbackSlug: string;
  awaitServerData: boolean;
  /** isDev: the open answer to /route-metadata that callbacks are written to. */
  stream: ServerResponse | null;
  pending: Set<string>;
};

const callbackTimeoutMs = 30_000;
const registrationWaitMs = 5_000;
const maxJsonBody = 1024 * 1024;

const hmacHex = (secret: string, payload: string) => createHmac("sha256", secret).update(payload).digest("hex");

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxJsonBody) throw new Error("body too large");
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

/** A presigned URL's parameters once its signature, expiry and app are checked, or why it is refused. */
type Presigned = { key: string; name: string; size: number; type: string; slug: string | null; customId: string | null };

async function listen(server: http.Server): Promise<string> {
  server.headersTimeout = 10_000;
  server.requestTimeout = 120_000;
  server.keepAliveTimeout = 1_000;
  server.timeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function startUploadThingStandIn(options: { appId?: string } = {}): Promise<UploadThingStandIn> {
  const appId = options.appId ?? `standin${randomBytes(4).toString("hex")}`;
  const apiKey = `sk_standin_${randomBytes(24).toString("hex")}`;
  const token = Buffer.from(JSON.stringify({ apiKey, appId, regions: ["stand-in"], ingestHost: "ingest.invalid" })).toString("base64");

  const stored = new Map<string, StandInFile>();
  /** Bytes of uploads not finished yet (a dropped connection), by key, for the resume point. */
  const partial = new Map<string, Buffer>();
  const registrations = new Map<string, Registration>();
  const registered = new EventEmitter();
  const results = new Map<string, (data: unknown) => void>();
  const requestLog: StandInRequest[] = [];
  const callbackLog: StandInCallback[] = [];
  let putCount = 0;
  let dropAt = 0;

  const ingest = http.createServer();
  const api = http.createServer();
  const files = http.createServer();
  const ingestUrl = await listen(ingest);
  const apiUrl = await listen(api);
  const filesUrl = await listen(files);

  const corsHeaders = { "access-control-allow-origin": "*", "access-control-expose-headers": "x-ut-range-start" };
  const logged = (server: StandInRequest["server"], req: IncomingMessage, res: ServerResponse, detail?: string) => {
    requestLog.push({ server, method: req.method ?? "", path: (req.url ?? "").split("?")[0]!, status: res.statusCode, ...(detail ? { detail } : {}) });
  };
  const refuse = (server: StandInRequest["server"], req: IncomingMessage, res: ServerResponse, status: number, error: string) => {
    sendJson(res, status, { error }, corsHeaders);
    logged(server, req, res, error);
  };
  const hasApiKey = (req: IncomingMessage) => sameSecret(String(req.headers["x-uploadthing-api-key"] ?? ""), apiKey);

  function checkPresigned(req: IncomingMessage): Presigned | { status: number; error: string } {
    const raw = `${ingestUrl}${req.url ?? "/"}`;
    const match = /[?&]signature=([^&]*)$/.exec(raw);
    if (!match) return { status: 403, error: "The URL has no signature (it must be the last parameter)." };
    const signature = decodeURIComponent(match[1]!);
    if (!sameSecret(signature, `hmac-sha256=${hmacHex(apiKey, raw.slice(0, match.index))}`)) {
      return { status: 403, error: "Invalid signature: not the HMAC-SHA256 of the URL under the app's API key." };
    }
    const url = new URL(raw);
    // The SDK percent-encodes each value before URLSearchParams encodes it again.
    const param = (name: string) => {
      const value = url.searchParams.get(name);
      return value === null ? null : decodeURIComponent(value);
    };
    const expires = Number(param("expires"));
    if (!Number.isFinite(expires) || expires < Date.now()) return { status: 403, error: "The presigned URL has expired." };
    if (param("x-ut-identifier") !== appId) return { status: 403, error: "The presigned URL is for another app." };
    const size = Number(param("x-ut-file-size"));
    const name = param("x-ut-file-name");
    if (!name || !Number.isSafeInteger(size) || size < 0) return { status: 400, error: "x-ut-file-name and x-ut-file-size are required." };
    return { key: decodeURIComponent(url.pathname.slice(1)), name, size, type: param("x-ut-file-type") ?? "", slug: param("x-ut-slug"), customId: param("x-ut-custom-id") };
  }

  /** The registration of a route upload's key; the app may register it a moment after handing out the URL (isDev). */
  async function registrationOf(key: string): Promise<Registration | null> {
    const found = registrations.get(key);
    if (found) return found;
    return new Promise((resolve) => {
      const onRegistered = (registeredKey: string) => {
        if (registeredKey !== key) return;
        clearTimeout(timer);
        registered.off("key", onRegistered);
        resolve(registrations.get(key) ?? null);
      };
      const timer = setTimeout(() => {
        registered.off("key", onRegistered);
        resolve(null);
      }, registrationWaitMs);
      registered.on("key", onRegistered);
    });
  }

  /** Sends the signed callback; true when the app took it (2xx), or it went down the dev stream. */
  async function sendCallback(registration: Registration, file: StandInFile): Promise<boolean> {
    const described = {
      name: file.name,
      size: file.size,
      type: file.type,
      customId: file.customId,
      key: file.key,
      url: file.url,
      appUrl: file.appUrl,
      ufsUrl: file.ufsUrl,
      fileHash: file.fileHash,
    };
    const payload = JSON.stringify({ status: "uploaded", metadata: registration.metadata, file: described, origin: ingestUrl });
    const signature = `hmac-sha256=${hmacHex(apiKey, payload)}`;
    if (registration.stream) {
      registration.stream.write(`${JSON.stringify({ payload, signature, hook: "callback" })}\n`);
      callbackLog.push({ key: file.key, via: "dev-stream", status: null, body: payload });
      registration.pending.delete(file.key);
      if (registration.pending.size === 0) registration.stream.end();
      return true;
    }
    const target = new URL(registration.callbackUrl);
    target.searchParams.set("slug", registration.callbackSlug);
    try {
      const answer = await fetch(target, {
        method: "POST",
        headers: { "content-type": "application/json", "uploadthing-hook": "callback", "x-uploadthing-signature": signature },
        body: payload,
        signal: AbortSignal.timeout(callbackTimeoutMs),
      });
      await answer.arrayBuffer();
      callbackLog.push({ key: file.key, via: "http", status: answer.status, body: payload });
      return answer.ok;
    } catch {
      callbackLog.push({ key: file.key, via: "http", status: null, body: payload });
      return false;
    }
  }

  function waitForResult(key: string): Promise<{ data: unknown } | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        results.delete(key);
        resolve(null);
      }, callbackTimeoutMs);
      results.set(key, (data) => {
        clearTimeout(timer);
        results.delete(key);
        resolve({ data });
      });
    });
  }

  /** Receives the file's bytes after `start` (multipart field "file", or the raw body) into partial; the total received. */
  function receive(req: IncomingMessage, presigned: Presigned, start: number, drop: boolean): Promise<number> {
    let buffer = (partial.get(presigned.key) ?? Buffer.alloc(0)).subarray(0, start);
    const append = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      partial.set(presigned.key, buffer);
      if (buffer.length > presigned.size) throw Object.assign(new Error("more bytes than x-ut-file-size"), { status: 413 });
      if (drop) req.socket.destroy();
    };
    partial.set(presigned.key, buffer);
    return new Promise((resolve, reject) => {
      req.once("close", () => {
        if (!req.complete) reject(new Error("connection lost"));
      });
      if (!/^multipart\/form-data\b/i.test(req.headers["content-type"] ?? "")) {
        req.on("data", (chunk: Buffer) => {
          try {
            append(chunk);
          } catch (error) {
            reject(error);
          }
        });
        req.once("end", () => resolve(buffer.length));
        return;
      }
      const parser = busboy({ headers: req.headers, limits: { files: 1, fields: 10 } });
      let sawFile = false;
      parser.on("file", (field, stream) => {
        if (field !== "file") return stream.resume();
        sawFile = true;
        stream.on("data", (chunk: Buffer) => {
          try {
            append(chunk);
          } catch (error) {
            reject(error);
            stream.resume();
          }
        });
      });
      parser.once("error", reject);
      parser.once("close", () => (sawFile ? resolve(buffer.length) : reject(new Error('no multipart field "file"'))));
      req.pipe(parser);
    });
  }

  async function handlePut(req: IncomingMessage, res: ServerResponse) {
    const presigned = checkPresigned(req);
    if ("error" in presigned) return refuse("ingest", req, res, presigned.status, presigned.error);
    const registration = presigned.slug ? await registrationOf(presigned.key) : null;
    if (presigned.slug && !registration) return refuse("ingest", req, res, 403, "The file key was never registered (POST /route-metadata).");
    const range = /^bytes=(\d+)-$/.exec(String(req.headers.range ?? "bytes=0-"));
    const start = range ? Number(range[1]) : -1;
    if (start < 0 || start > (partial.get(presigned.key)?.length ?? 0)) return refuse("ingest", req, res, 416, "The Range does not start at or before the bytes received so far.");
    putCount += 1;
    const drop = dropAt === putCount;
    let total: number;
    try {
      total = await receive(req, presigned, start, drop);
    } catch (error) {
      if (res.destroyed || req.socket.destroyed) return logged("ingest", req, res, "connection lost mid-body");
      return refuse("ingest", req, res, (error as { status?: number }).status ?? 400, (error as Error).message);
    }
    if (total !== presigned.size) return refuse("ingest", req, res, 400, `Received ${total} of the ${presigned.size} bytes x-ut-file-size announced.`);
    const bytes = partial.get(presigned.key)!;
    partial.delete(presigned.key);
    const file: StandInFile = {
      key: presigned.key,
      name: presigned.name,
      size: presigned.size,
      type: presigned.type,
      customId: presigned.customId,
      slug: presigned.slug,
      bytes,
      fileHash: createHash("md5").update(bytes).digest("hex"),
      url: `${filesUrl}/f/${presigned.key}`,
      appUrl: `${filesUrl}/a/${appId}/${presigned.key}`,
      ufsUrl: `${filesUrl}/f/${presigned.key}`,
    };
    stored.set(file.key, file);
    const answer = { url: file.url, appUrl: file.appUrl, ufsUrl: file.ufsUrl, fileHash: file.fileHash, serverData: null as unknown };
    if (registration) {
      const result = registration.awaitServerData ? waitForResult(file.key) : null;
      const delivered = sendCallback(registration, file);
      if (result) {
        if (!(await delivered)) return refuse("ingest", req, res, 502, "The app refused the upload callback.");
        const settled = await result;
        if (!settled) return refuse("ingest", req, res, 504, "The app did not report its callback result in time.");
        answer.serverData = settled.data;
      }
    }
    sendJson(res, 200, answer, corsHeaders);
    logged("ingest", req, res);
  }

  async function handleRouteMetadata(req: IncomingMessage, res: ServerResponse) {
    if (!hasApiKey(req)) return refuse("ingest", req, res, 401, "Invalid x-uploadthing-api-key.");
    const body = (await readJson(req)) as Partial<{ fileKeys: string[]; metadata: unknown; isDev: boolean; callbackUrl: string; callbackSlug: string; awaitServerData: boolean }>;
    if (!Array.isArray(body.fileKeys) || typeof body.callbackUrl !== "string" || typeof body.callbackSlug !== "string") {
      return refuse("ingest", req, res, 400, "fileKeys, callbackUrl and callbackSlug are required.");
    }
    const registration: Registration = {
      metadata: body.metadata ?? null,
      callbackUrl: body.callbackUrl,
      callbackSlug: body.callbackSlug,
      awaitServerData: body.awaitServerData ?? true,
      stream: body.isDev ? res : null,
      pending: new Set(body.fileKeys),
    };
    if (body.isDev) {
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      res.flushHeaders();
      logged("ingest", req, res, "dev stream opened");
    } else {
      sendJson(res, 200, { ok: true });
      logged("ingest", req, res);
    }
    for (const key of body.fileKeys) {
      registrations.set(key, registration);
      registered.emit("key", key);
    }
  }

  ingest.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0]!;
    const run = async () => {
      if (req.method === "OPTIONS") {
        res.writeHead(204, {
          ...corsHeaders,
          "access-control-allow-methods": "GET, HEAD, PUT, OPTIONS",
          "access-control-allow-headers": String(req.headers["access-control-request-headers"] ?? "*"),
          "access-control-max-age": "600",
        });
        res.end();
        return logged("ingest", req, res);
      }
      if (req.method === "POST" && path === "/route-metadata") return handleRouteMetadata(req, res);
      if (req.method === "POST" && path === "/callback-result") {
        if (!hasApiKey(req)) return refuse("ingest", req, res, 401, "Invalid x-uploadthing-api-key.");
        const body = (await readJson(req)) as { fileKey?: string; callbackData?: unknown; error?: string };
        results.get(String(body.fileKey))?.(body.callbackData ?? null);
        sendJson(res, 200, { ok: true });
        return logged("ingest", req, res);
      }
      if (req.method === "HEAD") {
        const presigned = checkPresigned(req);
        if ("error" in presigned) return refuse("ingest", req, res, presigned.status, presigned.error);
        res.writeHead(200, { ...corsHeaders, "x-ut-range-start": String(partial.get(presigned.key)?.length ?? 0) });
        res.end();
        return logged("ingest", req, res);
      }
      if (req.method === "PUT" && path.length > 1) return handlePut(req, res);
      refuse("ingest", req, res, 404, `The stand-in's ingest has no ${req.method} ${path}.`);
    };
    run().catch((error: unknown) => {
      if (!res.headersSent) refuse("ingest", req, res, 400, (error as Error).message);
      else res.destroy();
    });
  });

  api.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const run = async () => {
      if (req.method !== "POST" || req.url !== "/v6/deleteFiles") return refuse("api", req, res, 404, `The stand-in's API has no ${req.method} ${req.url}.`);
      if (!hasApiKey(req)) return refuse("api", req, res, 401, "Invalid x-uploadthing-api-key.");
      const body = (await readJson(req)) as { fileKeys?: unknown; customIds?: unknown };
      const ids = Array.isArray(body.fileKeys) ? body.fileKeys : Array.isArray(body.customIds) ? body.customIds : null;
      if (!ids) return refuse("api", req, res, 400, "fileKeys or customIds is required.");
      const byCustomId = !Array.isArray(body.fileKeys);
      let deletedCount = 0;
      for (const file of [...stored.values()]) {
        if (ids.includes(byCustomId ? file.customId : file.key)) {
          stored.delete(file.key);
          deletedCount += 1;
        }
      }
      if (!byCustomId) for (const id of ids) partial.delete(String(id));
      sendJson(res, 200, { success: true, deletedCount });
      logged("api", req, res);
    };
    run().catch((error: unknown) => refuse("api", req, res, 400, (error as Error).message));
  });

  files.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0]!;
    const match = /^\/(?:f|a\/[^/]+)\/([^/]+)$/.exec(path);
    const file = match && (req.method === "GET" || req.method === "HEAD") ? stored.get(decodeURIComponent(match[1]!)) : undefined;
    if (!file) return refuse("files", req, res, 404, "No such file.");
    res.writeHead(200, { "content-type": file.type || "application/octet-stream", "content-length": file.bytes.length });
    res.end(req.method === "HEAD" ? undefined : file.bytes);
    logged("files", req, res);
  });

  const closeServer = (server: http.Server) =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });

  return {
    ingestUrl,
    apiUrl,
    filesUrl,
    appId,
    apiKey,
    token,
    env: { UPLOADTHING_TOKEN: token, UPLOADTHING_INGEST_URL: ingestUrl, UPLOADTHING_API_URL: apiUrl },
    files: () => [...stored.values()],
    requests: () => [...requestLog],
    callbacks: () => [...callbackLog],
    dropPut: (n) => {
      dropAt = putCount + n;
    },
    close: async () => {
      for (const registration of new Set(registrations.values())) registration.stream?.end();
      await Promise.all([closeServer(ingest), closeServer(api), closeServer(files)]);
    },
  };
}
