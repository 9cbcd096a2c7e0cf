// npm run ingest – the analytics ingest endpoints alone, on plain node:http, for a separate
// {ingest_url} host. The same handler functions as the Next routes serve every request.
import http from "node:http";
import { startPartitionMaintenance } from "@/lib/analytics/partitions";
import { clientAddressResolver } from "@/lib/client-address";
import { getConfig, startUpWarnings } from "@/lib/config";
import { closeDb, getDb } from "@/lib/db";
import { drainIngestWriter } from "@/lib/ingest/handle-ingest";
import { createNodeIngestHandler } from "@/lib/server/node-ingest";
import { dataResponseHeaders, transportSecurityHeaders } from "@/lib/security/response-headers";

export function createIngestServer(): http.Server {
  const handle = createNodeIngestHandler({
    // What the app's routes get from next.config.ts, and HSTS when the ingest URL is https.
    headers: { ...dataResponseHeaders, ...transportSecurityHeaders(getConfig().ingestBaseUrl) },
    // The client address from the socket and TRUSTED_PROXIES, as scripts/serve.mjs works it out for the app.
    addressOf: clientAddressResolver(),
  });
  return http.createServer((req, res) => void handle(req, res));
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
