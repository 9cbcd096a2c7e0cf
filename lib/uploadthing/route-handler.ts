import { createRouteHandler } from "uploadthing/next";
import { BadRequestError, NotFoundError, ValidationError } from "@/lib/errors";
import { withPublic } from "@/lib/api/handler";
import { readJsonText } from "@/lib/validation/json-text";
import { readTextWithLimit } from "@/lib/api/request";
import { requireSameOrigin } from "@/lib/api/same-origin";
import { authenticate } from "@/lib/auth/authenticate";
import { getConfig, type Config } from "@/lib/config";
import { getDb } from "@/lib/db";
import { uploadThingRouter } from "./file-router";

// /api/uploadthing: UploadThing's route handler for the console's uploader, behind our checks.
// Two kinds of callers reach it. The browser (the route config, and the upload request that
// gets a presigned URL) is authenticated like every console call: session cookie and, for a
// POST, the app's own origin. UploadThing's server calls back with a `uploadthing-hook` header
// and no cookie: the SDK refuses it unless `x-uploadthing-signature` is the HMAC-SHA256 of the
// body under the API key, so it passes our checks untouched.

type SdkHandler = (req: Request) => Promise<Response>;

/** Both kinds of POST are small JSON: the file list and input, or one file's callback. */
const maxBodyBytes = 64 * 1024;
const maxBodyDepth = 32;

let cached: { settings: NonNullable<Config["uploadThing"]>; handler: SdkHandler } | null = null;

/** Built on first use, not at import: `next build` never reads configuration. */
function sdkHandler(): SdkHandler {
  const { uploadThing: settings, publicBaseUrl } = getConfig();
  if (!settings) throw new NotFoundError("UploadThing is not configured on this server (UPLOADTHING_TOKEN).");
  if (cached?.settings !== settings) {
    const { POST } = createRouteHandler({
      router: uploadThingRouter,
      config: {
        token: settings.token,
        // Where UploadThing calls back: the public URL, not whatever Host the request came with.
        callbackUrl: `${publicBaseUrl}/api/uploadthing`,
        ingestUrl: settings.ingestUrl,
        logLevel: "Error",
      },
    });
    cached = { settings, handler: POST as SdkHandler };
  }
  return cached.handler;
}

/**
 * The SDK answers errors as JSON with its own status for each code (no 401, 409 or 422): our
 * errorFormatter put the problem document in the body (lib/uploadthing/file-router.ts), so the
 * answer becomes that problem with its status, as every other API error.
 */
async function asProblem(response: Response): Promise<Response> {
  if (response.status < 400) return response;
  const body = (await response.json().catch(() => null)) as { status?: unknown; type?: unknown } | null;
  if (!body || typeof body.status !== "number" || typeof body.type !== "string") {
    return new Response(JSON.stringify({ type: "urn:reelbind:problem:uploadthing", title: "Upload refused", status: response.status, detail: "UploadThing refused the request.", code: "uploadthing" }), {
      status: response.status,
      headers: { "Content-Type": "application/problem+json" },
    });
  }
  return new Response(JSON.stringify(body), { status: body.status, headers: { "Content-Type": "application/problem+json" } });
}

/**
 * The request as the SDK gets it: a POST's body read here first, within 64 KB and 32 levels of
 * nesting, so that no one (the callback is unauthenticated until the SDK checks its signature)
 * makes the SDK buffer or parse more. The text is handed on unchanged: the signature covers it.
 */
async function boundedRequest(req: Request): Promise<Request> {
  if (req.method !== "POST") return req;
  const text = await readTextWithLimit(req, maxBodyBytes);
  const parsed = readJsonText(text, { maxChars: maxBodyBytes, maxDepth: maxBodyDepth });
  if (!parsed.ok) {
    if (parsed.reason === "invalid_json") throw new BadRequestError(`The body ${parsed.message}`);
    throw new ValidationError([{ path: "", message: parsed.message }]);
  }
  const headers = new Headers(req.headers);
  headers.delete("content-length");
  return new Request(req.url, { method: req.method, headers, body: text });
}

export const handleUploadThing = withPublic(async ({ req }) => {
  const handler = sdkHandler();
  if (!req.headers.has("uploadthing-hook")) {
    const actor = await authenticate(await getDb(), req);
    if (actor.via === "session") requireSameOrigin(req);
  }
  return asProblem(await handler(await boundedRequest(req)));
});
