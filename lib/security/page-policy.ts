// The Content-Security-Policy of the console and the landing page. Scripts run only when the
// server put them in the document: script-src is a nonce minted per response plus
// 'strict-dynamic' (the scripts Next's runtime loads inherit the trust), and no 'unsafe-inline',
// so markup injected later (a stored XSS found some day) cannot run script. The player iframe
// (lib/embed/player-page.ts) and the demo customer page set their own policies.

/** 128 random bits, base64: unguessable, and fresh for every response. */
export function mintNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/** The origin the landing page's SDK posts analytics to, when INGEST_BASE_URL names another host. */
function ingestOrigin(ingestBaseUrl: string | undefined): string | null {
  if (!ingestBaseUrl) return null;
  try {
    return new URL(ingestBaseUrl).origin;
  } catch {
    return null; // lib/config.ts refuses the value at start; a policy without it is the safe side.
  }
}

export function pagePolicy({ nonce, ingestBaseUrl, dev }: { nonce: string; ingestBaseUrl?: string; dev: boolean }): string {
  const ingest = ingestOrigin(ingestBaseUrl);
  return [
    "default-src 'self'",
    // 'self' only matters to browsers without 'strict-dynamic' (CSP 2), which ignore it otherwise; dev's React needs eval.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    // Style attributes (React's style prop, e.g. the landing page's player box) cannot carry a
    // nonce; an injected style cannot run script. A nonce here would turn 'unsafe-inline' off.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${ingest ? ` ${ingest}` : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
