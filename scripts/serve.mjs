#!/usr/bin/env node
// The production server that `npm start` runs once the app is built: Next's request handler
// on a node:http server of our own, so that two things are ours (docs/adr/0053-production-server.md):
// - a page whose render failed because the database or blob store could not be reached is
//   answered 503 with Retry-After, not 500 (Next gives a failed server component no status
//   of its own; lib/server/request-context.ts marks the request);
// - SIGTERM/SIGINT stop the server in order, whatever happened to the database before: stop
//   accepting, answer the requests in flight (cutting off bodies still arriving), then let the
//   app drain the ingest writer and close its pools (the hook lib/server/start-up.ts
//   publishes), all within a bound;
// - the app learns each request's peer, the one thing about a client only the socket knows
//   (the per-address limits start from it: lib/client-address.ts), in peerAddressHeader,
//   written over whatever the client sent in it.
import { AsyncLocalStorage } from "node:async_hooks";
import { appendFileSync } from "node:fs";
import zlib from "node:zlib";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as delay } from "node:timers/promises";
import next from "next";
import { allowedMethods, readRouteMethods } from "./route-methods.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const port = Number(process.env.PORT ?? 3000);
/** Past this the process exits anyway, saying what it was still waiting for. */
const shutdownBoundMs = 10_000;
/** After SIGTERM, connections are closed once no request has been in flight for this long. */
const quietMs = 250;
/** After SIGTERM the server keeps listening until it is quiet, but no longer than this. */
const listenAfterSignalMs = 3_000;
/**
 * From the signal on, a request whose body is still arriving (a slow upload) gets this long
 * before it is cut off if no byte of it came for stalledMs: ample for an ordinary request, and
 * it leaves its handler's cleanup and the app's own time within shutdownBoundMs. One whose bytes
 * still come (a client slowed down by a busy machine) gets until lastCutOffAfterSignalMs.
 */
const cutOffAfterSignalMs = 5_000;
const stalledMs = 1_000;
const lastCutOffAfterSignalMs = 7_500;
/** What a 503 page tells the browser (and a CDN) about when to try again. */
const retryAfterSeconds = "5";

// Shared with the bundled app by these Symbol.for names (no module of ours is shared with it).
const requestContext = new AsyncLocalStorage();
globalThis[Symbol.for("reelbind.request-context")] = requestContext;
const appShutdownKey = Symbol.for("reelbind.app-shutdown");
/** `{takes(req), handle(req, res)}`: the ingest endpoints, answered here before Next's router (docs/adr/0168-ingest-before-next.md). */
const ingestKey = Symbol.for("reelbind.ingest");
const responseHeadersKey = Symbol.for("reelbind.response-headers");
/**
 * Set on every request before the app sees it, so the app may believe it: lib/client-address.ts
 * reads it only because this server says here that it writes it (next dev does not).
 */
const peerAddressHeader = "x-reelbind-peer-address";
globalThis[Symbol.for("reelbind.peer-address-header")] = peerAddressHeader;

const app = next({ dev: false, dir: root, hostname: "localhost", port });
const handle = app.getRequestHandler();
await app.prepare(); // runs instrumentation.ts: migrations, admin channel, bootstrap banner

/** Requests not yet answered, each with its handler's promise. */
const inFlight = new Map();
/** When a connection was last accepted or a request begun or ended, and the shutdown loop's pass at that moment. */
let lastActivityAt = 0;
let passAtActivity = 0;
let shutdownPass = 0;
function noteActivity() {
  lastActivityAt = Date.now();
  passAtActivity = shutdownPass;
}
let stopping = false;

/** A failed page render marked unavailable goes out as 503 + Retry-After instead of 500. */
function answerUnavailableAs503(res, context) {
  const writeHead = res.writeHead;
  res.writeHead = function (status, ...rest) {
    if (status === 500 && context.serviceUnavailable) {
      res.setHeader("Retry-After", retryAfterSeconds);
      res.setHeader("Cache-Control", "no-store");
      return writeHead.call(this, 503, ...rest);
    }
    return writeHead.call(this, status, ...rest);
  };
}

/** The API and ingest answer every error as problem+json (lib/api/errors.ts). */
const problemPaths = /^\/(api|analytics)\//;
/** The methods of each route and page, as the build listed them (scripts/route-methods.mjs). */
const routeMethods = readRouteMethods(root);

/**
 * Next answers a method that a route does not export with a bare 405 (no body, no type, no
 * Allow); a prerendered route's 405 has Allow but a text body. Every 405 goes out with Allow, the
 * methods the route takes (RFC 9110 §15.5.6), and under /api and /analytics as the problem+json
 * every other error is.
 */
function answerMethodNotAllowed(req, res) {
  const problemPath = problemPaths.test(req.url ?? "");
  let asProblem = false;
  /** Completes a 405's head before it goes out; twice is harmless. */
  const complete405 = () => {
    const allow = res.getHeader("allow") ?? allowedMethods(routeMethods, req.url ?? "/");
    if (allow) res.setHeader("Allow", [allow].flat().join(", "));
    if (!problemPath || res.hasHeader("content-type")) return;
    asProblem = true;
    res.setHeader("Content-Type", "application/problem+json");
    res.removeHeader("Content-Length");
  };
  const { writeHead, end } = res;
  res.writeHead = function (status, ...rest) {
    if (status === 405) complete405();
    return writeHead.call(this, status, ...rest);
  };
  res.end = function (...args) {
    // A head set with statusCode goes out inside end(): complete it first.
    if (!res.headersSent && res.statusCode === 405) complete405();
    if (!asProblem || req.method === "HEAD") return end.apply(this, args);
    const problem = {
      type: "urn:reelbind:problem:method_not_allowed",
      title: "Method not allowed",
      status: 405,
      detail: `This route does not take ${req.method}; its Allow header lists the methods it takes.`,
      code: "method_not_allowed",
    };
    return end.call(this, JSON.stringify(problem), args.find((arg) => typeof arg === "function"));
  };
}

/**
 * With REELBIND_CONTRACT_LOG=<file> (set by the test harness, e2e/global-setup.ts, never in
 * production), each answer to a path under /api or /analytics is appended to the file as one
 * JSON line, for testing/contract-check.ts to hold against the OpenAPI document
 * (docs/adr/0144-contract-check.md). Nothing about the answer changes.
 */
const contractLog = process.env.REELBIND_CONTRACT_LOG;
/** JSON bodies up to this size are recorded whole; a larger one only by its size (its schema is not checked). */
const recordedBodyBytes = 256 * 1024;
const jsonType = /^application\/(.+\+)?json\b/i;
const decoders = { gzip: zlib.gunzipSync, deflate: zlib.inflateSync, br: zlib.brotliDecompressSync };

function recordContract(req, res) {
  const url = new URL(req.url ?? "/", "http://localhost");
  if (!problemPaths.test(url.pathname)) return;
  const chunks = [];
  let size = 0;
  const keep = (chunk, encoding) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function") return;
    const buffer = Buffer.isBuffer(chunk) ? chunk : typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? encoding : "utf8") : Buffer.from(chunk);
    size += buffer.byteLength;
    if (size <= recordedBodyBytes) chunks.push(buffer);
  };
  const { write, end } = res;
  res.write = function (chunk, ...rest) {
    keep(chunk, rest[0]);
    return write.call(this, chunk, ...rest);
  };
  res.end = function (chunk, ...rest) {
    keep(chunk, rest[0]);
    return end.call(this, chunk, ...rest);
  };
  res.once("finish", () => {
    const headers = res.getHeaders();
    delete headers["set-cookie"];
    const contentType = String(headers["content-type"] ?? "");
    const record = { method: req.method, path: url.pathname, status: res.statusCode, headers, bodyBytes: size };
    if (jsonType.test(contentType) && size <= recordedBodyBytes && size > 0) {
      // Next compresses an answer the client accepts compressed; the bytes written here are those sent.
      const sent = Buffer.concat(chunks);
      const text = (decoders[String(headers["content-encoding"] ?? "").toLowerCase()] ?? ((bytes) => bytes))(sent).toString("utf8");
      try {
        record.body = JSON.parse(text);
      } catch {
        record.unparsableBody = text.slice(0, 200);
      }
    }
    appendFileSync(contractLog, `${JSON.stringify(record)}\n`);
  });
}

/**
 * True while a request's handler reads its body and has consumed every byte received: it waits
 * for its client. A request whose handler has not started reading, or has bytes waiting, is
 * held up by this busy server instead.
 */
const waitsForItsClient = (req) => !req.complete && !req.destroyed && req.readableFlowing !== null && req.readableLength === 0;

const server = http.createServer((req, res) => {
  const context = { serviceUnavailable: false };
  noteActivity();
  if (req.socket.remoteAddress) req.headers[peerAddressHeader] = req.socket.remoteAddress;
  else delete req.headers[peerAddressHeader];
  res.once("close", () => {
    inFlight.delete(res);
    noteActivity();
  });
  // Keep-alive connections are not kept past a shutdown.
  if (stopping) res.setHeader("Connection", "close");
  // Strict-Transport-Security when PUBLIC_BASE_URL is https (lib/security/response-headers.ts).
  for (const [name, value] of Object.entries(globalThis[responseHeadersKey] ?? {})) res.setHeader(name, value);
  // Innermost, so that it records what the two below make of the answer.
  if (contractLog) recordContract(req, res);
  // A POST or preflight to an ingest endpoint goes to the app's own node:http handler, the one
  // `npm run ingest` serves, sparing it Next's router and web streams (two thirds of its rate
  // under load: docs/benchmarks.md). It answers its own errors, so the two rewrites of Next's
  // answers below are not needed for it.
  const ingest = globalThis[ingestKey];
  if (ingest?.takes(req)) {
    inFlight.set(res, { req, handled: ingest.handle(req, res) });
    return;
  }
  answerUnavailableAs503(res, context);
  answerMethodNotAllowed(req, res);
  inFlight.set(res, { req, handled: requestContext.run(context, () => handle(req, res)) });
});
// A request Node's parser refuses never reaches the app: headers or URL over its 16 KB limit
// (431), a malformed request (400)… It is answered with Node's own status, as problem+json.
const clientErrors = {
  HPE_HEADER_OVERFLOW: [431, "request_header_fields_too_large", "The request's headers (its URL included) are larger than 16 KB."],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, "payload_too_large", "The request's chunk extensions are too large."],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "request_timeout", "The request was not received in time."],
};
server.on("clientError", (error, socket) => {
  if (error.code === "ECONNRESET" || !socket.writable) return;
  const [status, code, detail] = clientErrors[error.code] ?? [400, "bad_request", "The request is not valid HTTP/1.1."];
  const title = http.STATUS_CODES[status];
  const body = JSON.stringify({ type: `urn:reelbind:problem:${code}`, title, status, detail, code });
  socket.end(
    `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
});
server.on("connection", noteActivity);
server.listen(port, () => console.log(`Reelbind is listening on port ${port}.`));

/** Resolves in the check phase of an event-loop pass at least 20 ms from now: after that pass's poll for I/O. */
async function nextPass() {
  await delay(20);
  await new Promise((resolve) => setImmediate(resolve));
  shutdownPass++;
}

async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  const started = Date.now();
  let step = "answering the requests in flight";
  const bound = setTimeout(() => {
    console.error(`Shutdown after ${signal} did not finish within ${shutdownBoundMs / 1000} s (still ${step}); exiting.`);
    process.exit(1);
  }, shutdownBoundMs);
  bound.unref();

  // Answer what reached the server before the signal, then stop accepting and close the
  // connections once no request has been in flight for a moment.
  // - The listening socket stays open until then (at most listenAfterSignalMs): a busy event
  //   loop leaves connections the kernel completed in its queue for hundreds of milliseconds,
  //   and closing the socket would reset them. Each request answered after the signal says
  //   Connection: close.
  // - http.Server#close is not used: it would also drop connections whose request is not yet
  //   parsed.
  // - A request whose body is still arriving (a slow upload) would hold the shutdown for as
  //   long as its client takes: cutOffAfterSignalMs after the signal it is cut off once its
  //   bytes have stopped coming for stalledMs (lastCutOffAfterSignalMs at the latest), and the
  //   server waits for its handler to clean up (an upload removes what it stored). Not sooner,
  //   and only while its handler waits for the client: on a busy server a body may simply not
  //   have been read yet.
  // - Every decision is taken just after the event loop has polled for I/O (nextPass): the
  //   kernel's queue of completed connections has then been accepted, and bytes that arrived on
  //   an open connection have been parsed into a request. Taken in a timer instead, after the
  //   loop was blocked for a while, it would close what the next poll was about to take.
  //   Quiet means nothing in flight, nothing new for quietMs and for two polls (a connection
  //   accepted in one poll has its request read in the next).
  const quiet = () => inFlight.size === 0 && Date.now() - lastActivityAt >= quietMs && shutdownPass - passAtActivity >= 2;
  const listenUntil = started + listenAfterSignalMs;
  while (!quiet() && Date.now() < listenUntil) await nextPass();
  const closed = new Promise((resolve) => net.Server.prototype.close.call(server, resolve));
  const cutOffAt = started + cutOffAfterSignalMs;
  const lastCutOffAt = started + lastCutOffAfterSignalMs;
  /** Per request, the bytes its connection had delivered when last seen, and since when. */
  const progress = new Map();
  const cutOff = [];
  while (!quiet()) {
    const now = Date.now();
    for (const [res, { req, handled }] of inFlight) {
      const bytes = req.socket?.bytesRead ?? 0;
      const seen = progress.get(res);
      if (!seen || seen.bytes !== bytes) progress.set(res, { bytes, since: now });
      if (now < cutOffAt || !waitsForItsClient(req)) continue;
      if (now < lastCutOffAt && now - progress.get(res).since < stalledMs) continue;
      req.destroy();
      cutOff.push(handled);
    }
    await nextPass();
  }
  if (cutOff.length > 0) console.log(`Cut off ${cutOff.length} request(s) whose body was still arriving ${Date.now() - started} ms after ${signal}.`);
  await Promise.allSettled(cutOff);
  server.closeAllConnections();
  await closed;

  step = "draining the ingest writer and closing the database";
  try {
    await globalThis[appShutdownKey]?.();
  } catch (error) {
    console.error("Closing the app failed:", error);
  }
  console.log(`Stopped after ${signal} in ${Date.now() - started} ms.`);
  process.exit(0);
}
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => void shutdown(signal));
