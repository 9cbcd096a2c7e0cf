// npm run ingest – the analytics ingest endpoints alone, on plain node:http, for a separate
// {ingest_url} host. The same handler functions as the Next routes serve every request.
import http from "node:http";
import { Readable } from "node:stream";
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

async function respond(res: http.ServerResponse, response: Response) {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
}

export function createIngestServer(): http.Server {
  return http.createServer((req, res) => {
    const handler = routes[(req.url ?? "").split("?")[0]!];
    const request = toRequest(req);
    const answer = !handler
      ? Promise.resolve(Response.json({ status: 404, title: "Not found" }, { status: 404 }))
      : req.method === "OPTIONS"
        ? Promise.resolve(answerPreflight(request))
        : req.method === "POST"
          ? handler(request)
          : Promise.resolve(new Response(null, { status: 405, headers: { Allow: "POST, OPTIONS" } }));
    answer.then((response) => respond(res, response)).catch(() => res.destroy());
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

if (process.argv[1]?.endsWith("ingest-server.ts")) void main();
