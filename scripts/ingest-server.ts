// npm run ingest – the analytics ingest endpoints alone, on plain node:http, for a separate
// {ingest_url} host. The same handler functions as the Next routes serve every request.
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Readable } from "node:stream";
import { AppError, NotFoundError, problemResponse } from "@/lib/api/errors";
import { closeDb, getDb } from "@/lib/db";
import { answerPreflight, drainIngestWriter, handleConsentBeacon, handleEventBatch } from "@/lib/ingest/handle-ingest";

const routes: Record<string, (req: Request) => Promise<Response>> = {
  "/analytics/v1/events": handleEventBatch,
  "/analytics/v1/consent": handleConsentBeacon,
};

/** node:http request → web Request; the body stays a stream. */
function toRequest(req: http.IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD" && req.method !== "OPTIONS";
  return new Request(`http://${req.headers.host ?? "localhost"}${req.url}`, {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
    duplex: "half",
  } as RequestInit);
}

async function respond(req: http.IncomingMessage, res: http.ServerResponse, response: Response) {
  // An answer given before the whole body was read (401, 403, 413…) leaves the rest of it in
  // the socket: close the connection, or the client's next request on it would hang.
  if (!req.complete) res.setHeader("Connection", "close");
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
}

export function createIngestServer(): http.Server {
  return http.createServer((req, res) => {
    const handler = routes[(req.url ?? "").split("?")[0]!];
    const request = toRequest(req);
    const answer = !handler
      ? Promise.resolve(problemResponse(new NotFoundError("No ingest endpoint here: POST /analytics/v1/events or /analytics/v1/consent.")))
      : req.method === "OPTIONS"
        ? Promise.resolve(answerPreflight(request))
        : req.method === "POST"
          ? handler(request)
          : Promise.resolve(problemResponse(new AppError(405, "method_not_allowed", "Method not allowed", "Use POST.", undefined, { Allow: "POST, OPTIONS" })));
    answer.then((response) => respond(req, res, response)).catch(() => res.destroy());
  });
}

async function main() {
  const port = Number(process.env.INGEST_PORT ?? 3001);
  await getDb();
  const server = createIngestServer();
  server.listen(port, process.env.INGEST_HOST ?? "0.0.0.0", () => console.log(`Reelbind ingest listening on :${port}`));
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      server.close();
      // Answer what is queued, then close the database.
      void drainIngestWriter()
        .then(closeDb)
        .finally(() => process.exit(0));
    });
  }
}

// Run as `npm run ingest`; imported (tests, benchmarks), it only provides createIngestServer.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) void main();
