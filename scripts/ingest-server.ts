// npm run ingest – the analytics ingest endpoints alone, on plain node:http, for a separate
// {ingest_url} host. The same handler functions as the Next routes serve every request.
import http from "node:http";
import { startPartitionMaintenance } from "@/lib/analytics/partitions";
import { methodNotAllowedProblem, problemOf } from "@/lib/api/errors";
import { NotFoundError, type AppError } from "@/lib/errors";
import { readBodyWithLimit } from "@/lib/api/request";
import { clientAddressResolver, type PeerRequest } from "@/lib/client-address";
import { getConfig, startUpWarnings } from "@/lib/config";
import { closeDb, getDb } from "@/lib/db";
import {
  drainIngestWriter,
  ingestConsentBeacon,
  ingestEventBatch,
  preflightAnswer,
  type IngestAnswer,
  type IngestRequest,
} from "@/lib/ingest/handle-ingest";
import { dataResponseHeaders, transportSecurityHeaders } from "@/lib/security/response-headers";

const routes: Record<string, (req: IngestRequest) => Promise<IngestAnswer>> = {
  "/analytics/v1/events": ingestEventBatch,
  "/analytics/v1/consent": ingestConsentBeacon,
};

type AddressOf = (req: PeerRequest) => string;

function toIngestRequest(req: http.IncomingMessage, addressOf: AddressOf): IngestRequest {
  return {
    header: (name) => {
      const value = req.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
    text: (limit) => readBodyWithLimit(req, req.headers["content-length"] ?? null, limit),
    clientAddress: () => addressOf(req),
  };
}

function problemAnswer(error: AppError): IngestAnswer {
  return problemOf(error);
}

function answer(req: http.IncomingMessage, addressOf: AddressOf): Promise<IngestAnswer> {
  const handler = routes[(req.url ?? "").split("?")[0]!];
  if (!handler) return Promise.resolve(problemAnswer(new NotFoundError("No ingest endpoint here: POST /analytics/v1/events or /analytics/v1/consent.")));
  if (req.method === "OPTIONS") return Promise.resolve(preflightAnswer(toIngestRequest(req, addressOf)));
  if (req.method === "POST") return handler(toIngestRequest(req, addressOf));
  return Promise.resolve(methodNotAllowedProblem("POST, OPTIONS", "Use POST."));
}

export function createIngestServer(): http.Server {
  // What the app's routes get from next.config.ts, and HSTS when the ingest URL is https.
  const securityHeaders = { ...dataResponseHeaders, ...transportSecurityHeaders(getConfig().ingestBaseUrl) };
  // The client address from the socket and TRUSTED_PROXIES, as scripts/serve.mjs works it out for the app.
  const addressOf = clientAddressResolver();
  return http.createServer((req, res) => {
    answer(req, addressOf)
      .then(({ status, headers, body }) => {
        // An answer given before the whole body was read (401, 403, 413…) leaves the rest of it in
        // the socket: close the connection, or the client's next request on it would hang.
        if (!req.complete) res.setHeader("Connection", "close");
        res.writeHead(status, { ...securityHeaders, ...headers });
        res.end(body ?? undefined);
      })
      .catch(() => res.destroy());
  });
}

/** Serves the ingest endpoints on INGEST_PORT until SIGTERM or SIGINT (`npm run ingest`: scripts/ingest.mjs). */
export async function main() {
  const port = Number(process.env.INGEST_PORT ?? 3001);
  for (const warning of startUpWarnings(getConfig())) console.warn(warning);
  await getDb();
  // On PGlite this process owns its database; on PostgreSQL it keeps partitions ready even with
  // no app process running (processes sharing a database take turns).
  const partitionMaintenance = startPartitionMaintenance();
  const server = createIngestServer();
  server.listen(port, process.env.INGEST_HOST ?? "0.0.0.0", () => console.log(`Reelbind ingest listening on :${port}`));
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      server.close();
      // Answer what is queued, then close the database.
      void Promise.all([drainIngestWriter(), partitionMaintenance.stop()])
        .then(closeDb)
        .finally(() => process.exit(0));
    });
  }
}
