// A server process for bench/ingest.ts. "standalone": the product's standalone ingest server
// (scripts/ingest-server.ts). "naive": the same checks, one INSERT per event, no group commit —
// the baseline the group commit is measured against.
import http from "node:http";
import { getDb } from "@/lib/db";
import { enrichEvents } from "@/lib/ingest/enrich";
import { insertEventRows } from "@/lib/ingest/store-events";
import { validateEventBatch } from "@/lib/ingest/validate-events";
import { verifyIngestToken } from "@/lib/tokens/ingest-token";
import { createIngestServer } from "@/scripts/ingest-server";

const variant = process.argv[2] as "standalone" | "naive";

function naiveServer(): http.Server {
  return http.createServer(async (req, res) => {
    try {
      const claims = await verifyIngestToken((req.headers.authorization ?? "").replace(/^Bearer /, ""));
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const result = validateEventBatch(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      if (!result.ok) throw new Error("invalid batch");
      const rows = enrichEvents(result.batch.events, {
        organizationId: claims.organizationId,
        projectId: claims.projectId,
        template: claims.templateId && claims.templateVersion ? { id: claims.templateId, version: claims.templateVersion } : undefined,
        userAgent: req.headers["user-agent"] ?? null,
        country: null,
        receivedAt: new Date(),
      });
      const db = await getDb();
      let accepted = 0;
      for (const row of rows) accepted += (await insertEventRows(db, [row])).size;
      res.writeHead(202, { "content-type": "application/json" });
      res.end(JSON.stringify({ accepted, duplicates: rows.length - accepted, quarantined: 0 }));
    } catch (error) {
      res.writeHead(500);
      res.end(String(error));
    }
  });
}

await getDb();
const server = variant === "naive" ? naiveServer() : createIngestServer();
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`);
});

// A clean exit (also writes a --cpu-prof profile when one is being taken).
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(0));
