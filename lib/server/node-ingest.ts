import type http from "node:http";
import { methodNotAllowedProblem, problemOf } from "@/lib/api/errors";
import { readBodyWithLimit } from "@/lib/api/request";
import type { PeerRequest } from "@/lib/client-address";
import { NotFoundError } from "@/lib/errors";
import { ingestConsentBeacon, ingestEventBatch, preflightAnswer, type IngestAnswer, type IngestRequest } from "@/lib/ingest/handle-ingest";

// The ingest endpoints on a node:http request and response, without web Request/Response or
// Next's router: what `npm run ingest` (scripts/ingest-server.ts) serves, and what `npm start`'s
// server (scripts/serve.mjs) hands these paths to before Next sees them
// (docs/adr/0168-ingest-before-next.md). The handlers themselves are handle-ingest.ts's, the
// same the Next routes call in `next dev`.

const handlers: Partial<Record<string, (req: IngestRequest) => Promise<IngestAnswer>>> = {
  "/analytics/v1/events": ingestEventBatch,
  "/analytics/v1/consent": ingestConsentBeacon,
};

const pathOf = (req: http.IncomingMessage) => (req.url ?? "").split("?")[0]!;

/**
 * Whether `npm start`'s server hands this request here: a POST or a preflight to an ingest path
 * (exact, any query). Any other method or spelling is left to Next, which answers as before.
 */
export function takesIngestRequest(req: http.IncomingMessage): boolean {
  return (req.method === "POST" || req.method === "OPTIONS") && handlers[pathOf(req)] !== undefined;
}

export type NodeIngestOptions = {
  /** Put on every answer, before the handler's own. */
  headers: Readonly<Record<string, string>>;
  /** The client's address, for the per-address limit. */
  addressOf: (req: PeerRequest) => string;
};

/** Answers an ingest request; resolves once the answer is written (it never rejects: a failure destroys the socket). */
export type NodeIngestHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

function toIngestRequest(req: http.IncomingMessage, addressOf: NodeIngestOptions["addressOf"]): IngestRequest {
  return {
    header: (name) => {
      const value = req.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
    text: (limit) => readBodyWithLimit(req, req.headers["content-length"] ?? null, limit),
    clientAddress: () => addressOf(req),
  };
}

function answer(req: http.IncomingMessage, addressOf: NodeIngestOptions["addressOf"]): Promise<IngestAnswer> {
  const handler = handlers[pathOf(req)];
  if (!handler) return Promise.resolve(problemOf(new NotFoundError("No ingest endpoint here: POST /analytics/v1/events or /analytics/v1/consent.")));
  if (req.method === "OPTIONS") return Promise.resolve(preflightAnswer(toIngestRequest(req, addressOf)));
  if (req.method === "POST") return handler(toIngestRequest(req, addressOf));
  return Promise.resolve(methodNotAllowedProblem("POST, OPTIONS", "Use POST."));
}

export function createNodeIngestHandler({ headers: common, addressOf }: NodeIngestOptions): NodeIngestHandler {
  return (req, res) =>
    answer(req, addressOf)
      .then(({ status, headers, body }) => {
        // An answer given before the whole body was read (401, 403, 413…) leaves the rest of it in
        // the socket: close the connection, or the client's next request on it would hang.
        if (!req.complete) res.setHeader("Connection", "close");
        // Set one by one (not given to writeHead) so that res.getHeaders() reports them as sent.
        for (const [name, value] of Object.entries({ ...common, ...headers })) res.setHeader(name, value);
        res.writeHead(status);
        res.end(body ?? undefined);
      })
      .catch(() => void res.destroy());
}
