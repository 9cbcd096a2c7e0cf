import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import ipaddr from "ipaddr.js";
import { UTApi } from "uploadthing/server";
import { isAppError, ServiceUnavailableError, ValidationError } from "@/lib/errors";
import { getConfig, type Config } from "@/lib/config";
import { publicOnlyLookup, refusedAddressReason } from "@/lib/webhooks/url-safety";
import type { UploadThingFile } from "./upload-session-files";

// Reading and removing the files UploadThing stores for upload sessions. The completion step
// reads each file once to import it; after the import, and when the TTL sweep expires a
// session, its files are deleted at UploadThing.

/** Without a byte for this long (waiting for the answer, or between chunks), the read fails. */
const idleTimeoutMs = 30_000;
const maxRedirects = 3;

type UploadThingSettings = NonNullable<Config["uploadThing"]>;

function settings(): UploadThingSettings {
  const configured = getConfig().uploadThing;
  if (!configured) throw new ServiceUnavailableError("UploadThing is not configured (UPLOADTHING_TOKEN).");
  return configured;
}

/**
 * Host names whose private addresses the app may reach: a self-hosted UploadThing-compatible
 * server (UPLOADTHING_INGEST_URL, UPLOADTHING_API_URL) may live on the private network. Any
 * other file URL must resolve to public addresses only, redirects included.
 */
function privateHostsAllowed(): Set<string> {
  const configured = getConfig().uploadThing;
  return new Set([configured?.ingestUrl, configured?.apiUrl].filter((url): url is string => Boolean(url)).map((url) => new URL(url).hostname));
}

const unreachable = (file: UploadThingFile, reason: string) => new ServiceUnavailableError(`UploadThing's file ${file.key} could not be read: ${reason}.`);

const sizeMismatch = (file: UploadThingFile, received: string) =>
  new ValidationError([{ path: "uploadthing", message: `UploadThing's file ${file.key} has ${received} bytes, not the ${file.size} its upload reported` }]);

/** One GET, no redirect followed: the answer's headers, or a refusal of the address. */
function get(url: URL, file: UploadThingFile, allowPrivate: boolean): Promise<IncomingMessage> {
  const literal = url.hostname.replace(/^\[|\]$/g, "");
  const refused = !allowPrivate && ipaddr.isValid(literal) ? refusedAddressReason(literal) : null;
  if (url.protocol !== "http:" && url.protocol !== "https:") return Promise.reject(unreachable(file, `${url.protocol} is not http(s)`));
  if (refused) return Promise.reject(unreachable(file, `its URL points at a private network (${refused})`));
  return new Promise((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const request = client.request(url, { method: "GET", agent: false, lookup: publicOnlyLookup(allowPrivate) });
    request.setTimeout(idleTimeoutMs, () => request.destroy(new Error(`no answer within ${idleTimeoutMs / 1000} s`)));
    request.on("response", resolve);
    request.on("error", (error) => reject(unreachable(file, error.message)));
    request.end();
  });
}

/** Reads the body, counting: more or fewer bytes than the upload reported is a refusal. */
async function* counted(body: IncomingMessage, file: UploadThingFile): AsyncGenerator<Uint8Array> {
  let received = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > file.size) throw sizeMismatch(file, `more than ${file.size}`);
      yield chunk;
    }
  } catch (error) {
    if (isAppError(error)) throw error;
    throw unreachable(file, (error as Error).message);
  } finally {
    body.destroy();
  }
  if (received !== file.size) throw sizeMismatch(file, String(received));
}

/**
 * The bytes of a file UploadThing stores, as its callback recorded it (files[i].uploadthing).
 * Resolves once UploadThing answers 200; the iterable fails (ValidationError, 422) when the
 * byte count differs from `size`, and (ServiceUnavailableError, 503) when UploadThing cannot be
 * reached, answers anything else, or stalls for 30 s. Redirects (at most 3) are followed to
 * public addresses, or to the configured self-hosted server.
 */
export async function openUploadThingFile(file: UploadThingFile): Promise<AsyncIterable<Uint8Array>> {
  const allowed = privateHostsAllowed();
  let url = new URL(file.url);
  for (let hop = 0; ; hop++) {
    const response = await get(url, file, allowed.has(url.hostname));
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location && hop < maxRedirects) {
      response.destroy();
      url = new URL(location, url);
      continue;
    }
    if (status !== 200) {
      response.destroy();
      if (status === 404 || status === 410) {
        throw new ValidationError([{ path: "uploadthing", message: `UploadThing has no file ${file.key} (it answered ${status})` }]);
      }
      throw unreachable(file, `UploadThing answered ${status}`);
    }
    const length = response.headers["content-length"];
    if (length !== undefined && Number(length) !== file.size) {
      response.destroy();
      throw sizeMismatch(file, length);
    }
    return counted(response, file);
  }
}

let cachedApi: { settings: UploadThingSettings; api: UTApi } | null = null;

function utApi(): UTApi {
  const current = settings();
  if (cachedApi?.settings !== current) {
    cachedApi = { settings: current, api: new UTApi({ token: current.token, apiUrl: current.apiUrl, ingestUrl: current.ingestUrl, logLevel: "Error" }) };
  }
  return cachedApi.api;
}

/**
 * Deletes files at UploadThing by key (UTApi.deleteFiles). Keys UploadThing does not know are
 * not an error; an unreachable or refusing UploadThing is (ServiceUnavailableError).
 */
export async function deleteUploadThingFiles(keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  let success: boolean;
  try {
    ({ success } = await utApi().deleteFiles(keys));
  } catch (error) {
    if (isAppError(error)) throw error;
    throw new ServiceUnavailableError(`UploadThing could not delete ${keys.length} file(s): ${(error as Error).message}`);
  }
  if (!success) throw new ServiceUnavailableError(`UploadThing did not delete ${keys.length} file(s).`);
}
