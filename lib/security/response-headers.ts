// Headers of the responses that are data, never pages (the API, ingest, template files,
// posters, previews), and the one every response gets when the app is reached over https.
// Pages get theirs from proxy.ts (CSP) and next.config.ts; the player iframe and the demo page
// set their own (lib/embed/player-page.ts, app/demo/embed/route.ts).

/**
 * A JSON answer, an uploaded file or an error opened as a document by someone's browser: no
 * sniffing it into HTML, nothing in it may load or run (sandbox: no script, an opaque origin),
 * no site may frame it, and a link in it tells nothing of where it came from.
 */
export const dataResponseHeaders = {
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'; sandbox",
  "Referrer-Policy": "no-referrer",
} as const;

/** A year: browsers then refuse plain http to the host for that long (the usual minimum, and what preload lists ask). */
const hstsMaxAgeSeconds = 365 * 24 * 3600;

/**
 * Strict-Transport-Security when the app's public URL (PUBLIC_BASE_URL, or INGEST_BASE_URL for
 * the standalone ingest) is https: TLS ends at the proxy in front, so the request the app sees
 * says nothing about it. Without includeSubDomains: the other hosts of the domain are not ours.
 */
export function transportSecurityHeaders(publicUrl: string): Record<string, string> {
  return publicUrl.startsWith("https://") ? { "Strict-Transport-Security": `max-age=${hstsMaxAgeSeconds}` } : {};
}
