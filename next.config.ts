import type { NextConfig } from "next";
import { dataResponseHeaders } from "./lib/security/response-headers";

const asList = (headers: Record<string, string>) => Object.entries(headers).map(([key, value]) => ({ key, value }));

const nextConfig: NextConfig = {
  // PGlite and CanvasKit load their WASM and data files from their own package directories at run time.
  serverExternalPackages: ["@electric-sql/pglite", "canvaskit-wasm"],
  poweredByHeader: false,
  // The console and the landing page are separate root layouts; unmatched URLs get app/global-not-found.tsx.
  experimental: { globalNotFound: true },
  async headers() {
    return [
      {
        // Pages' Content-Security-Policy has a nonce per response: proxy.ts sets it (/api/docs, the
        // API reference, is a page). The player iframe (/embed) and the demo host page set their own
        // headers: they are framed by other sites.
        source: "/((?!api/(?!docs$)|analytics/|embed$|embed/|demo/).*)",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        ],
      },
      // Data, never pages (the API reference page, /api/docs, aside). These win over a route's own
      // headers of the same name (Next sets them first).
      { source: "/api/:path((?!docs$).*)?", headers: asList(dataResponseHeaders) },
      { source: "/analytics/:path*", headers: asList(dataResponseHeaders) },
    ];
  },
};

export default nextConfig;
