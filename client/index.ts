// Reelbind's typed API client, for Node.js (18+) and browsers: openapi-fetch calls typed by
// client/schema.ts, which `npm run client:generate` writes from the server's OpenAPI document.
// It imports nothing of the server (dependency-cruiser's client-reaches-server rule).
// docs/api-client.md shows it in use; docs/adr/0145-typed-api-client.md says why it looks so.
import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { components, operations, paths } from "./schema.js";

export type { components, operations, paths };

/** An API credential (Settings → API credentials): embed sessions are minted with it. */
export type ApiCredential = { apiKey: string; apiSecret: string };

export type ReelbindClientOptions = {
  /** The server's origin, e.g. https://video.example.com (the paths start with /api/). */
  baseUrl: string;
  /** Replaces globalThis.fetch (tests, proxies, retries). */
  fetch?: ClientOptions["fetch"];
} & ({ token: string; credential?: never } | { credential: ApiCredential; token?: never });

export type ReelbindClient = Client<paths>;

/** btoa takes Latin-1 only; keys and secrets are ASCII, and this keeps any other text intact. */
const base64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

/**
 * A client for the management API with a personal access token (rbk_…, sent as a bearer), or for
 * the credential-authenticated calls (POST /api/embed-sessions) with an API credential (HTTP Basic).
 */
export function createReelbindClient(options: ReelbindClientOptions): ReelbindClient {
  const authorization = options.token !== undefined ? `Bearer ${options.token}` : `Basic ${base64(`${options.credential.apiKey}:${options.credential.apiSecret}`)}`;
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers: { Authorization: authorization },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

type FormValue = string | Blob | readonly (string | Blob)[] | undefined;

/**
 * For multipart bodies (the template upload): pass `bodySerializer: formData` with the body as
 * the typed object; each array becomes repeated parts (assetFiles), undefined fields are left out.
 * fetch sets the Content-Type with its boundary.
 */
export function formData(body: Record<string, FormValue>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    for (const part of Array.isArray(value) ? value : [value]) {
      if (part !== undefined) form.append(name, part as string | Blob);
    }
  }
  return form;
}

/**
 * For a text/csv body (the campaign recipient import): spread into the call's options with the
 * CSV text as `body`; openapi-fetch would otherwise send it JSON-encoded as application/json.
 */
export const csvBody = { bodySerializer: (body: unknown) => body, headers: { "Content-Type": "text/csv" } } as const;
