import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

// Route handlers of app/api served over HTTP on 127.0.0.1, in the test's own process: for a
// test in which another server (the UploadThing stand-in) calls the app back. Each path maps
// to a route module's exports; nothing of Next runs (no proxy.ts, no next.config headers).

type RouteHandler = (req: Request) => Promise<Response>;
export type RouteModule = Partial<Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE", RouteHandler>>;

export type RouteServer = { url: string; close: () => Promise<void> };

export async function startRouteServer(routes: Record<string, RouteModule>): Promise<RouteServer> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
    const handler = routes[url.pathname]?.[req.method as keyof RouteModule];
    const respond = async () => {
      if (!handler) {
        res.writeHead(404, { "content-type": "application/problem+json" }).end(JSON.stringify({ status: 404, title: "No such route in the test server" }));
        return;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
      }
      const bodyless = req.method === "GET" || req.method === "HEAD";
      const request = new Request(url, {
        method: req.method,
        headers,
        body: bodyless ? undefined : (Readable.toWeb(req) as ReadableStream<Uint8Array>),
        duplex: "half",
      } as RequestInit);
      const response = await handler(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
      }
      res.end();
    };
    respond().catch((error: unknown) => {
      console.error(error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 120_000;
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
