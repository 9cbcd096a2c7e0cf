import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite and CanvasKit load their WASM and data files from their own package directories at run time.
  serverExternalPackages: ["@electric-sql/pglite", "canvaskit-wasm"],
  poweredByHeader: false,
  // The console and the landing page are separate root layouts; unmatched URLs get app/global-not-found.tsx.
  experimental: { globalNotFound: true },
  async headers() {
    return [
      {
        // Pages' Content-Security-Policy has a nonce per response: proxy.ts sets it. The player
        // iframe (/embed) and the demo host page set their own headers: they are framed by other sites.
        source: "/((?!api/|embed$|embed/|demo/).*)",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        ],
      },
      { source: "/api/:path*", headers: [{ key: "X-Content-Type-Options", value: "nosniff" }] },
    ];
  },
};

export default nextConfig;
