import { getConfig } from "@/lib/config";
import { ForbiddenError, UnsupportedMediaTypeError } from "@/lib/errors";

// CSRF: the console's session cookie is SameSite=Lax, and a page on another port of the same
// host is the same *site*, so the browser sends the cookie with that page's form posts. Calls
// authenticated by the cookie must therefore prove they come from the app's own pages. Bearer
// calls need no such proof: no browser attaches a token on its own.

const unsafeMethods = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * For a cookie-authenticated unsafe method: 403 unless the Origin is PUBLIC_BASE_URL's origin
 * or the browser says Sec-Fetch-Site: same-origin (a header pages cannot set, which also covers
 * the app opened under another host name); 415 for a body a plain HTML form can send
 * (urlencoded, text/plain). multipart/form-data is the template upload's own type, text/csv a
 * campaign's recipients (no form can send it: a page would need a CORS preflight).
 */
export function requireSameOrigin(req: Request): void {
  if (!unsafeMethods.has(req.method.toUpperCase())) return;
  const appOrigin = new URL(getConfig().publicBaseUrl).origin;
  const origin = req.headers.get("origin");
  if (origin !== appOrigin && req.headers.get("sec-fetch-site") !== "same-origin") {
    const seen = origin === null ? "no Origin header" : `Origin ${origin}`;
    throw new ForbiddenError(
      `A ${req.method} with the session cookie must come from ${appOrigin} (this request has ${seen}); other clients use a bearer token.`,
    );
  }
  const contentType = req.headers.get("content-type");
  if (contentType !== null && !/^(application\/(.+\+)?json|multipart\/form-data|text\/csv)\b/i.test(contentType)) {
    throw new UnsupportedMediaTypeError(`A ${req.method} with the session cookie sends JSON (Content-Type: application/json), not ${contentType}.`);
  }
}
