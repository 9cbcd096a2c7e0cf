import { NextResponse, type NextRequest } from "next/server";
import { problemResponse } from "@/lib/api/errors";
import { BadRequestError } from "@/lib/errors";
import { clientAddress } from "@/lib/client-address";
import { pagePathHeader } from "@/lib/console/page-path";
import { isWellEncodedPath } from "@/lib/security/path-encoding";
import { directUploadOrigins, mintNonce, pagePolicy } from "@/lib/security/page-policy";
import { viewerCookie, viewerCookieMaxAge } from "@/lib/releases/viewer-cookie";
import { shareLookupRefusal, tooManyLookupsPage } from "@/lib/shares/share-lookup-limit";

// Runs before routing, for the things no route can do for itself
// (docs/adr/0060-malformed-percent-encoding.md, docs/adr/0016-content-security-policy.md,
// docs/adr/0082-security-checks.md): a path whose percent-encoding does not decode never
// reaches Next's parameter decoding (a bare 500), every page gets a CSP with a nonce of its
// own, which Next reads from the request's CSP header and puts on each of its scripts (and the
// page's own path, for the console's sign-in redirect: lib/console/page-path.ts), and a
// landing page is refused (429) to an address that has missed too many slugs (a page cannot
// answer a status of its own; lib/shares/share-lookup-limit.ts).

/** The API and ingest answer problem+json; the player iframe and the demo page set their own CSP. */
const problemPaths = /^\/(api|analytics)\//;
/** The one page under /api/: the API reference (app/api/docs), under the pages' policy. */
const apiReferencePath = "/api/docs";
/** A share's landing page, or a campaign recipient's (/v/{slug}/{token}). */
const landingPagePath = /^\/v\/[^/]+(\/[^/]+)?\/?$/;
const ownPolicyPaths = /^\/(embed$|embed\/|demo\/)/;

function answerMalformedPath(request: NextRequest): Response {
  if (problemPaths.test(request.nextUrl.pathname)) {
    return problemResponse(new BadRequestError("The path has a percent-escape that is not UTF-8."));
  }
  // No page has a name that does not decode: the 404 page, under the page policy like any page.
  return withPagePolicy(request, (init) => NextResponse.rewrite(new URL("/_not-found", request.url), init));
}

/** What NextResponse.next() and rewrite() take to hand the request on with other headers. */
type ForwardInit = { request: { headers: Headers } };

function withPagePolicy(request: NextRequest, respond: (init: ForwardInit) => NextResponse): NextResponse {
  const policy = pagePolicy({
    nonce: mintNonce(),
    ingestBaseUrl: process.env.INGEST_BASE_URL,
    uploadOrigins: directUploadOrigins(process.env),
    dev: process.env.NODE_ENV !== "production",
  });
  const headers = new Headers(request.headers);
  headers.set("Content-Security-Policy", policy);
  headers.set(pagePathHeader, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  const response = respond({ request: { headers } });
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (!isWellEncodedPath(pathname)) return answerMalformedPath(request);
  if (landingPagePath.test(pathname)) {
    const refusal = shareLookupRefusal(clientAddress(request.headers));
    if (refusal) return tooManyLookupsPage(refusal);
    if (!request.cookies.has(viewerCookie)) return withViewerCookie(request);
  }
  if (pathname !== apiReferencePath && (problemPaths.test(pathname) || ownPolicyPaths.test(pathname))) return NextResponse.next();
  return withPagePolicy(request, (init) => NextResponse.next(init));
}

/**
 * A landing page's first visit: a random viewer id in a first-party cookie, so that the viewer
 * keeps the A/B variant they are given (lib/releases/serve-variant.ts) on this page, its player
 * and their next visits. The page renders with it already (the forwarded request carries it).
 */
function withViewerCookie(request: NextRequest): NextResponse {
  const id = crypto.randomUUID();
  request.cookies.set(viewerCookie, id);
  const response = withPagePolicy(request, (init) => NextResponse.next(init));
  response.cookies.set(viewerCookie, id, {
    httpOnly: true,
    sameSite: "lax",
    secure: request.nextUrl.protocol === "https:",
    path: "/",
    maxAge: viewerCookieMaxAge,
  });
  return response;
}

export const config = {
  matcher: [
    // Pages (the nonce), /api/docs among them. Route prefetches are RSC payloads, not documents: no policy to carry.
    {
      source: "/((?!api/(?!docs$)|analytics/|embed$|embed/|demo/|_next/static|_next/image|favicon.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
    // Any path with an escape that may not decode: a non-ASCII byte, or "%" without two hex
    // digits (escapes of ASCII bytes always decode). Narrow on purpose: Next copies a request's
    // body for the proxy and cuts it at 10 MB, so the proxy must not run for the API's ordinary
    // paths (a template upload is up to 250 MB).
    "/(.*%(?:[89a-fA-F][0-9a-fA-F]|(?![0-9a-fA-F]{2})).*)",
  ],
};
