"use client";

import { useEffect } from "react";
import "./globals.css";

// serviceUnavailableDigest of lib/server/request-context.ts (a client module cannot import that server one).
const serviceUnavailableDigest = "reelbind-service-unavailable";
const retryAfterMs = 5_000;

// Any page whose render failed, including a root layout's (the landing page's loads its share):
// "temporarily unavailable" (answered 503 by scripts/serve.mjs) reloads itself until the
// database is back; any other failure says so without details.
export default function GlobalError({ error }: { error: Error & { digest?: string } }) {
  const unavailable = error.digest === serviceUnavailableDigest;
  useEffect(() => {
    if (!unavailable) return;
    const timer = setTimeout(() => window.location.reload(), retryAfterMs);
    return () => clearTimeout(timer);
  }, [unavailable]);
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 font-sans text-slate-900 antialiased">
        <main className="mx-auto mt-24 max-w-md px-6 text-center">
          <h1 className="text-2xl font-semibold">{unavailable ? "Temporarily unavailable" : "Something went wrong"}</h1>
          <p className="mt-3 text-slate-600">
            {unavailable
              ? "We can't reach our database right now. This page will try again by itself in a few seconds."
              : "An unexpected error occurred. Please try again later."}
          </p>
        </main>
      </body>
    </html>
  );
}
