#!/usr/bin/env node
// The production server that `npm start` runs once the app is built: Next's request handler
// on a node:http server of our own, so that two things are ours (docs/decisions.md,
// "The production server"):
// - a page whose render failed because the database or blob store could not be reached is
//   answered 503 with Retry-After, not 500 (Next gives a failed server component no status
//   of its own; lib/server/request-context.ts marks the request);
// - SIGTERM/SIGINT stop the server in order, whatever happened to the database before: stop
//   accepting, answer the requests in flight, then let the app drain the ingest writer and
//   close its pools (the hook lib/server/start-up.ts publishes), all within a bound.
import { AsyncLocalStorage } from "node:async_hooks";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as delay } from "node:timers/promises";
import next from "next";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const port = Number(process.env.PORT ?? 3000);
/** Past this the process exits anyway, saying what it was still waiting for. */
const shutdownBoundMs = 10_000;
/** After SIGTERM, connections are closed once no request has been in flight for this long. */
const quietMs = 250;
/** After SIGTERM the server keeps listening until it is quiet, but no longer than this. */
const listenAfterSignalMs = 3_000;
/** What a 503 page tells the browser (and a CDN) about when to try again. */
const retryAfterSeconds = "5";

// Shared with the bundled app by these Symbol.for names (no module of ours is shared with it).
const requestContext = new AsyncLocalStorage();
globalThis[Symbol.for("reelbind.request-context")] = requestContext;
const appShutdownKey = Symbol.for("reelbind.app-shutdown");
const responseHeadersKey = Symbol.for("reelbind.response-headers");

const app = next({ dev: false, dir: root, hostname: "localhost", port });
const handle = app.getRequestHandler();
await app.prepare(); // runs instrumentation.ts: migrations, admin channel, bootstrap banner

const inFlight = new Set();
let lastRequestAt = 0;
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

const server = http.createServer((req, res) => {
  const context = { serviceUnavailable: false };
  inFlight.add(res);
  lastRequestAt = Date.now();
  res.once("close", () => {
    inFlight.delete(res);
    lastRequestAt = Date.now();
  });
  // Keep-alive connections are not kept past a shutdown.
  if (stopping) res.setHeader("Connection", "close");
  // Strict-Transport-Security when PUBLIC_BASE_URL is https (lib/security/response-headers.ts).
  for (const [name, value] of Object.entries(globalThis[responseHeadersKey] ?? {})) res.setHeader(name, value);
  answerUnavailableAs503(res, context);
  requestContext.run(context, () => handle(req, res));
});
server.listen(port, () => console.log(`Reelbind is listening on port ${port}.`));

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
  const listenUntil = Date.now() + listenAfterSignalMs;
  while ((inFlight.size > 0 || Date.now() - lastRequestAt < quietMs) && Date.now() < listenUntil) await delay(20);
  const closed = new Promise((resolve) => net.Server.prototype.close.call(server, resolve));
  while (inFlight.size > 0 || Date.now() - lastRequestAt < quietMs) await delay(20);
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
