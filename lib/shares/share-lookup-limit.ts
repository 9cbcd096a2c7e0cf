import { TooManyRequestsError } from "@/lib/errors";
import { getConfig } from "@/lib/config";
import { createRateLimiter } from "@/lib/ingest/rate-limit";
import { processWide } from "@/lib/process-wide";
import { isWellFormedSlug } from "./share-rules";

// Guessing share slugs (docs/adr/0082-security-checks.md): each client address may look up
// SHARE_MISS_RATE unknown slugs a minute (a minute's worth at once) on the public lookups — the
// landing page, the player iframe, the page manifest, the poster. Past that, every lookup from
// the address is refused with 429 until its bucket refills (a second a miss at the default),
// hits included: answering hits would still tell a guess that hit from one that missed. A hit
// costs nothing, so a viewer of a real link is only ever refused after misses of their address.
// Per process, in memory: a miss costs one indexed query, and the limit must not add a write.
// No database here: proxy.ts loads this module.

/** The address's bucket: refilled at SHARE_MISS_RATE a minute, a minute's worth deep. */
const missLimiter = () =>
  processWide("share-miss-limiter", () => {
    const perMinute = getConfig().shareMissRate;
    return createRateLimiter({ ratePerSecond: perMinute / 60, burst: Math.max(1, perMinute), maxKeys: 10_000 });
  });

/** The 429 to answer a lookup from `address` with, when its misses are used up; null to go on. */
export function shareLookupRefusal(address: string): TooManyRequestsError | null {
  const decision = missLimiter().check(address, 1);
  if (decision.allowed) return null;
  const seconds = decision.retryAfterSeconds;
  return new TooManyRequestsError(`Too many unknown video links from your address; try again in ${seconds} second${seconds === 1 ? "" : "s"}.`, seconds);
}

/** Charges `address` for a lookup of `slug` that found nothing; a malformed slug was never looked up, and costs nothing. */
export function chargeShareMiss(slug: string, address: string): void {
  if (isWellFormedSlug(slug)) missLimiter().take(address, 1);
}

/**
 * The landing page's answer to a refused address (proxy.ts): a plain page in the landing page's
 * colours, no script, with Retry-After.
 */
export function tooManyLookupsPage(refusal: TooManyRequestsError): Response {
  const seconds = String(refusal.hints.retryAfterSeconds ?? 60);
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">
<title>Too many requests</title><style>body{margin:0;min-height:100vh;background:#020617;color:#f1f5f9;font:16px/1.5 system-ui,sans-serif;display:flex;align-items:center;justify-content:center;text-align:center;padding:1.5rem;box-sizing:border-box}p{color:#94a3b8}</style></head>
<body><main><h1>Too many requests</h1><p>Too many unknown video links were opened from your address. Try again in ${Number(seconds)} second${seconds === "1" ? "" : "s"}.</p></main></body></html>`;
  return new Response(html, {
    status: 429,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Retry-After": seconds,
      "Cache-Control": "no-store",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
    },
  });
}
