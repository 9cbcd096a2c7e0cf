import type { NextConfig } from "next";

const isDev = process.env.NODE_ENV !== "production";

/**
 * The landing page's SDK posts analytics to INGEST_BASE_URL, which may be another host. Headers
 * are fixed at build time, so scripts/start.mjs rebuilds when INGEST_BASE_URL changes.
 */
function ingestOrigin(): string {
  try {
    return process.env.INGEST_BASE_URL ? ` ${new URL(process.env.INGEST_BASE_URL).origin}` : "";
  } catch {
    return "";
  }
}

// Next's hydration uses inline scripts, so scripts are limited to this origin plus inline.
const consoleCsp = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${isDev ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  `connect-src 'self'${ingestOrigin()}`,
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const nextConfig: NextConfig = {
  // PGlite and CanvasKit load their WASM and data files from their own package directories at run time.
  serverExternalPackages: ["@electric-sql/pglite", "canvaskit-wasm"],
  poweredByHeader: false,
  // The console and the landing page are separate root layouts; unmatched URLs get app/global-not-found.tsx.
  experimental: { globalNotFound: true },
  async headers() {
    return [
      {
        // The player iframe (/embed) and the demo host page set their own CSP: they are framed by other sites.
        source: "/((?!api/|embed$|embed/|demo/).*)",
        headers: [
          { key: "Content-Security-Policy", value: consoleCsp },
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        ],
      },
      { source: "/api/:path*", headers: [{ key: "X-Content-Type-Options", value: "nosniff" }] },
    ];
  },
};

export default nextConfig;
