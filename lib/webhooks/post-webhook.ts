import http from "node:http";
import https from "node:https";
import { performance } from "node:perf_hooks";
import ipaddr from "ipaddr.js";
import { publicAddressesOnly, publicOnlyLookup, refusedAddressReason } from "./url-safety";

// One HTTP attempt of a delivery: a POST of the exact body, no redirects followed (a 3xx is a
// failure like any non-2xx), 10 s for the whole exchange, and a connection only to an address
// checked as public (unless WEBHOOK_ALLOW_PRIVATE=1).

export const attemptTimeoutMs = 10_000;
/** How much of the receiver's answer the attempt log keeps. */
const responseExcerptChars = 200;
const userAgent = "Reelbind-Webhooks/1";

export type AttemptOutcome = {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The start of the receiver's answer (text), for the delivery log. */
  response: string | null;
  /** The URL itself was refused (not http(s), or a non-public address): trying again cannot help. */
  refused: boolean;
};

export const succeeded = (outcome: AttemptOutcome) => outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;

type PostOptions = { url: string; headers: Record<string, string>; body: string; allowPrivate: boolean; signal?: AbortSignal };

export async function postWebhook({ url, headers, body, allowPrivate, signal }: PostOptions): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const refuse = (reason: string): AttemptOutcome => ({ statusCode: null, error: `Refused: ${reason}.`, durationMs: elapsed(), response: null, refused: true });
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse("the URL is not an absolute URL");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return refuse("the URL must be an http:// or https:// URL");
  // A literal IP host never reaches the lookup, so it is checked here; a name is checked by the
  // lookup, on the very addresses the connection then uses.
  const literal = parsed.hostname.replace(/^\[|\]$/g, "");
  const refusedAddress = !allowPrivate && ipaddr.isValid(literal) ? refusedAddressReason(literal) : null;
  if (refusedAddress) return refuse(`${refusedAddress}: ${publicAddressesOnly}`);

  const timeout = AbortSignal.timeout(attemptTimeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const payload = Buffer.from(body, "utf8");
  return new Promise<AttemptOutcome>((resolve) => {
    const finish = (outcome: Omit<AttemptOutcome, "durationMs" | "refused">, refused = false) => resolve({ ...outcome, durationMs: elapsed(), refused });
    const client = parsed.protocol === "https:" ? https : http;
    const request = client.request(parsed, {
      method: "POST",
      agent: false,
      lookup: publicOnlyLookup(allowPrivate),
      signal: combined,
      headers: { ...headers, "content-type": "application/json", "content-length": String(payload.length), "user-agent": userAgent },
    });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const answered = () => {
        const text = Buffer.concat(chunks).toString("utf8").slice(0, responseExcerptChars);
        finish({ statusCode: response.statusCode ?? null, error: null, response: text || null });
      };
      response.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        // Enough for the log: the rest of a long answer is not waited for.
        if (size >= responseExcerptChars * 4) {
          answered();
          response.destroy();
        }
      });
      response.on("end", answered);
      response.on("error", answered);
    });
    request.on("error", (error: NodeJS.ErrnoException) => {
      if (timeout.aborted) return finish({ statusCode: null, error: `No answer within ${attemptTimeoutMs / 1000} s.`, response: null });
      if (signal?.aborted) return finish({ statusCode: null, error: "Interrupted: the server was shutting down.", response: null });
      finish({ statusCode: null, error: describeNetworkError(error), response: null }, error.code === "EWEBHOOKADDRESS");
    });
    request.end(payload);
  });
}

function describeNetworkError(error: NodeJS.ErrnoException): string {
  if (error.code === "EWEBHOOKADDRESS") return `Refused: ${error.message}: ${publicAddressesOnly}.`;
  if (error.code === "ENOTFOUND" || error.code === "EAI_AGAIN") return `The host could not be resolved (${error.code}).`;
  if (error.code === "ECONNREFUSED") return "The connection was refused (ECONNREFUSED).";
  if (error.code === "ECONNRESET") return "The connection was reset (ECONNRESET).";
  return error.code ? `${error.message} (${error.code})` : error.message;
}
