import http from "node:http";
import type { AddressInfo } from "node:net";

// A loopback reverse proxy to one upstream (s3rver, for the direct-upload browser tests) that
// records every request and lets a test decide, request by request, to pass it on, to drop its
// connection once the first bytes of its body arrived (a connection lost mid-upload), to hold
// it unanswered until the client gives up (a stalled network), or to pass it on only once a
// promise settles (so a test can look at the page while the request is in flight). Bodies stream both ways; the
// Host header is kept, so presigned URLs made for the proxy's address still verify.

export type ProxyAction = "forward" | "drop" | "hold" | { forwardAfter: Promise<unknown> };

export type ProxiedRequest = {
  method: string;
  /** Path and query, as the client sent them. */
  url: string;
  /** Request body bytes received from the client. */
  bytes: number;
  outcome: "pending" | "waiting" | "answered" | "dropped" | "held" | "failed";
  status?: number;
};

export type ProxyRule = (request: { method: string; url: string }) => ProxyAction;

export type FaultProxy = {
  /** http://127.0.0.1:port */
  url: string;
  /** Every request so far, in arrival order (live records: outcomes change as requests finish). */
  requests: () => ProxiedRequest[];
  /** Decides what happens to each request from now on (default: every request passes). */
  setRule: (rule: ProxyRule) => void;
  close: () => Promise<void>;
};

export async function startFaultProxy(upstreamUrl: string): Promise<FaultProxy> {
  const upstream = new URL(upstreamUrl);
  // Idle upstream connections close before the upstream's own keep-alive timeout (see round-robin-proxy.ts).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 4_000 });
  const log: ProxiedRequest[] = [];
  let rule: ProxyRule = () => "forward";

  const forwardTo = (req: http.IncomingMessage, res: http.ServerResponse, record: ProxiedRequest) => {
    const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
      record.status = answer.statusCode;
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
      answer.once("end", () => (record.outcome = "answered"));
      answer.once("error", () => res.destroy());
    });
    forward.once("error", () => {
      record.outcome = "failed";
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain", connection: "close" }).end(`Upstream ${upstream.origin} failed.`);
      else res.destroy();
    });
    req.pipe(forward);
    res.once("close", () => {
      if (!res.writableFinished) forward.destroy();
    });
  };

  const server = http.createServer((req, res) => {
    const record: ProxiedRequest = { method: req.method ?? "GET", url: req.url ?? "/", bytes: 0, outcome: "pending" };
    log.push(record);
    req.on("data", (chunk: Buffer) => (record.bytes += chunk.length));
    const action = rule({ method: record.method, url: record.url });
    if (action === "drop") {
      // The first bytes arrived; the connection goes with no answer (the client sees it reset).
      const drop = () => {
        if (record.outcome !== "pending") return;
        record.outcome = "dropped";
        req.socket.destroy();
      };
      req.once("data", drop);
      req.once("end", drop);
      return;
    }
    if (action === "hold") {
      record.outcome = "held";
      req.resume();
      return;
    }
    if (action === "forward") return forwardTo(req, res, record);
    record.outcome = "waiting";
    req.pause();
    void action.forwardAfter.finally(() => {
      record.outcome = "pending";
      if (!req.destroyed) forwardTo(req, res, record);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => [...log],
    setRule: (next) => (rule = next),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
