import http from "node:http";
import type { AddressInfo } from "node:net";

// A small reverse proxy for the scale-out test: each request (not each connection) goes to
// the next upstream of its pool in turn, so consecutive requests of one client hit different
// processes. Requests whose path starts with a route's prefix go to that route's pool (the
// ingest processes behind /analytics/), the rest to the default pool (the app processes), as
// the reverse proxy in docs/operations.md routes them. Bodies stream both ways; the Host
// header is kept and the client's address appended to X-Forwarded-For.

export type RoundRobinProxy = {
  url: string;
  port: number;
  /** Requests sent to each upstream so far. */
  hits: () => Record<string, number>;
  close: () => Promise<void>;
};

type Pool = { upstreams: URL[]; next: number };

export type RoundRobinOptions = {
  upstreams: string[];
  routes?: { prefix: string; upstreams: string[] }[];
  /** Default: any free port. A fixed one lets the apps behind it know their public URL before it starts. */
  port?: number;
};

export async function startRoundRobinProxy(options: RoundRobinOptions): Promise<RoundRobinProxy> {
  const pool = (upstreams: string[]): Pool => {
    if (upstreams.length === 0) throw new Error("A pool needs at least one upstream.");
    return { upstreams: upstreams.map((upstream) => new URL(upstream)), next: 0 };
  };
  const fallback = pool(options.upstreams);
  const routes = (options.routes ?? []).map((route) => ({ prefix: route.prefix, pool: pool(route.upstreams) }));
  // Idle upstream connections close after 4 s, below the processes' own 5 s (Node's default), as
  // docs/operations.md sets nginx's keepalive_timeout: otherwise a request can be sent on a
  // connection the upstream is closing at that moment, and one with a body cannot be resent.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 4_000 });
  const hits: Record<string, number> = {};

  const server = http.createServer((req, res) => {
    const chosen = routes.find((route) => req.url?.startsWith(route.prefix))?.pool ?? fallback;
    const forwardedFor = [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", ");
    const bodyless = req.method === "GET" || req.method === "HEAD";

    const send = (retry: boolean) => {
      const upstream = chosen.upstreams[chosen.next++ % chosen.upstreams.length]!;
      hits[upstream.origin] = (hits[upstream.origin] ?? 0) + 1;
      const forward = http.request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, "x-forwarded-for": forwardedFor }, agent },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
          answer.pipe(res);
          answer.once("error", () => res.destroy());
        },
      );
      forward.once("error", (error: NodeJS.ErrnoException) => {
        // An upstream closes a kept-alive connection after its idle timeout; a request sent on it
        // at that moment is reset unanswered. As reverse proxies do, a bodyless request is sent
        // again, once, on a fresh connection to the next upstream.
        if (retry && bodyless && forward.reusedSocket && error.code === "ECONNRESET" && !res.headersSent) return send(false);
        if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain", connection: "close" }).end(`Upstream ${upstream.origin} failed.`);
        else res.destroy();
      });
      if (bodyless) forward.end();
      else req.pipe(forward);
      // The client went away before the answer was complete: so does the upstream request.
      res.once("close", () => {
        if (!res.writableFinished) forward.destroy();
      });
    };
    send(true);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    port,
    hits: () => ({ ...hits }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
