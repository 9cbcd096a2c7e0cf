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

type UploadEnv = Record<string, string | undefined>;

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/**
 * Where the console's uploader sends file parts itself (docs/direct-uploads.md), so that
 * connect-src allows it: the bucket's S3 endpoint for direct uploads, UploadThing's ingest
 * servers with UploadThing. Mirrors lib/config.ts's choice of upload mode.
 */
export function directUploadOrigins(env: UploadEnv): string[] {
  const mode = env.UPLOAD_MODE || (env.UPLOADTHING_TOKEN ? "uploadthing" : env.STORAGE_DRIVER === "s3" ? "direct" : "server");
  if (mode === "uploadthing") return [env.UPLOADTHING_INGEST_URL ? originOf(env.UPLOADTHING_INGEST_URL) : "https://*.ingest.uploadthing.com"].filter((o): o is string => o !== null);
  if (mode !== "direct" || env.STORAGE_DRIVER !== "s3" || !env.S3_BUCKET) return [];
  if (env.S3_ENDPOINT) {
    const endpoint = originOf(env.S3_ENDPOINT);
    if (!endpoint) return [];
    if (env.S3_FORCE_PATH_STYLE === "1") return [endpoint];
    const url = new URL(endpoint);
    return [`${url.protocol}//${env.S3_BUCKET}.${url.host}`];
  }
  const region = env.S3_REGION || "us-east-1";
  // Virtual-hosted style, and path style for bucket names with dots (the SDK picks one).
  return [`https://${env.S3_BUCKET}.s3.${region}.amazonaws.com`, `https://s3.${region}.amazonaws.com`];
}

export function pagePolicy({ nonce, ingestBaseUrl, uploadOrigins = [], dev }: { nonce: string; ingestBaseUrl?: string; uploadOrigins?: string[]; dev: boolean }): string {
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
    ["connect-src 'self'", ...(ingest ? [ingest] : []), ...uploadOrigins].join(" "),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
