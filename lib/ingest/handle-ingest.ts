import { problemOf, toLoggedAppError } from "@/lib/api/errors";
import { BadRequestError, ForbiddenError, PayloadTooLargeError, TooManyRequestsError, UnauthorizedError, UnsupportedMediaTypeError, ValidationError } from "@/lib/errors";
import { LRUCache } from "lru-cache";
import { readTextWithLimit } from "@/lib/api/request";
import { clientAddress } from "@/lib/client-address";
import { getConfig } from "@/lib/config";
import { processWide } from "@/lib/process-wide";
import { isOriginAllowed } from "@/lib/tokens/origins";
import { verifyIngestToken, type IngestTokenClaims } from "@/lib/tokens/ingest-token";
import type { WireEvent } from "@/shared/events/wire-events";
import { countryFromHeader, enrichEvents } from "./enrich";
import { GroupCommitWriter } from "./group-commit";
import { sortByTemplate } from "./project-templates";
import { drainQuarantine, quarantineRefusedBatch, quarantineRefusedEvents } from "./quarantine";
import { createRateLimiter, ingestRateLimit, sharedIngestRateLimit, takeFromEach } from "./rate-limit";
import { storeEventRows } from "./store-events";
import { eventBatchLimits, validateEvent, validateEventBatch } from "./validate-events";

// The ingest endpoints (docs/design.md, Ingest), written once for the Next route handlers and
// node:http (lib/server/node-ingest.ts: the standalone server, and `npm start`'s server before
// Next's router, docs/adr/0168-ingest-before-next.md). They read an IngestRequest and give an
// IngestAnswer: the routes adapt a web Request and Response (below), node-ingest.ts a node:http
// request and response directly, which spares it the web streams and objects (docs/benchmarks.md).

/** What the ingest handlers read of a request. */
export type IngestRequest = {
  /** A header's value, or null; the name in any case. */
  header(name: string): string | null;
  /** The body as text, refused with 413 past limit bytes. */
  text(limit: number): Promise<string>;
  /** The client's address for the per-address limit (lib/client-address.ts). */
  clientAddress(): string;
};

/** What they answer: a JSON body (the 202 result or problem+json), none for a preflight. */
export type IngestAnswer = { status: number; headers: Record<string, string>; body: string | null };

export const maxBatchBodyBytes = 512 * 1024;
const maxConsentBodyBytes = 16 * 1024;

/** One group-commit writer per process, shared by every route bundle that loads this module. */
const ingestWriter = () =>
  processWide("ingest.writer", () => new GroupCommitWriter(storeEventRows));

/** Waits for queued events to be committed: call before closing the database on shutdown. */
export async function drainIngestWriter(): Promise<void> {
  await Promise.all([ingestWriter().drain(), drainQuarantine()]);
}

/**
 * Events per token, per project and per client address, per process. Per token, a leaked or
 * looping page cannot flood the project; but anyone may mint a fresh token for a public share
 * from the manifest endpoint, so the project and the address have buckets of their own.
 */
const rateLimiters = () =>
  processWide("ingest.rate-limiters", () => ({
    token: createRateLimiter(ingestRateLimit),
    project: createRateLimiter(sharedIngestRateLimit(getConfig().ingestProjectRate)),
    address: createRateLimiter(sharedIngestRateLimit(getConfig().ingestAddressRate)),
  }));

const refusals = {
  token: "Too many events for this token; retry later.",
  project: "Too many events for this project; retry later.",
  address: "Too many events from this address; retry later.",
} as const;

/** 429 with Retry-After (retryable, spec 7.1) unless every bucket the batch counts against can pay for it. */
function requireWithinLimits(req: IngestRequest, token: string, claims: IngestTokenClaims, cost: number): void {
  const limiters = rateLimiters();
  const verdict = takeFromEach(
    [
      // A token's signature identifies it; the whole token would be a longer key for the same thing.
      { name: "token", limiter: limiters.token, key: token.slice(token.lastIndexOf(".") + 1) },
      { name: "project", limiter: limiters.project, key: claims.projectId },
      { name: "address", limiter: limiters.address, key: req.clientAddress() },
    ] as const,
    cost,
  );
  if (!verdict.allowed) throw new TooManyRequestsError(refusals[verdict.limit], verdict.retryAfterSeconds);
}

function corsHeaders(origin: string | null): Record<string, string> {
  return origin ? { "Access-Control-Allow-Origin": origin, Vary: "Origin" } : { Vary: "Origin" };
}

/** OPTIONS preflight: the token is not sent on a preflight, so the origin is checked on the POST itself. */
export function preflightAnswer(req: IngestRequest): IngestAnswer {
  return {
    status: 204,
    headers: {
      ...corsHeaders(req.header("origin")),
      "Access-Control-Allow-Methods": "POST, OPTIONS",
      "Access-Control-Allow-Headers": "authorization, content-type",
      "Access-Control-Max-Age": "600",
    },
    body: null,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new BadRequestError(`The body is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * A page sends many batches with one token, and verifying an HMAC through WebCrypto costs
 * more than the rest of a request: a token that verified is remembered until it expires
 * (at most 10,000, least recently used first out).
 */
async function verifyIngestTokenCached(token: string): Promise<IngestTokenClaims> {
  const verified = processWide("ingest.verified-tokens", () => new LRUCache<string, IngestTokenClaims>({ max: 10_000 }));
  const known = verified.get(token);
  if (known) return known;
  const claims = await verifyIngestToken(token);
  const ttl = claims.expiresAt.getTime() - Date.now();
  if (ttl > 0) verified.set(token, claims, { ttl });
  return claims;
}

function requireAllowedOrigin(req: IngestRequest, claims: IngestTokenClaims): void {
  if (!isOriginAllowed(req.header("origin"), claims.allowedOrigins)) {
    throw new ForbiddenError("This origin may not send events with this token.");
  }
}

/** The template the token names: every event it posts counts for that one. */
function servedTemplate({ templateId, templateVersion }: IngestTokenClaims) {
  return templateId && templateVersion ? { id: templateId, version: templateVersion } : undefined;
}

type StoreResult = { accepted: number; duplicates: number; quarantined: number };

/**
 * Enriches and stores a valid batch. Under a token that names no template, events naming a
 * template the project does not have are not stored but counted in its quarantine, once the
 * rest is committed (a batch answered 503 is sent again, and would be counted twice).
 */
async function store(req: IngestRequest, token: string, claims: IngestTokenClaims, events: WireEvent[]): Promise<StoreResult> {
  requireWithinLimits(req, token, claims, events.length);
  const receivedAt = new Date();
  const template = servedTemplate(claims);
  const { known, refused } = template ? { known: events, refused: [] } : await sortByTemplate(claims.projectId, events);
  const rows = enrichEvents(known, {
    organizationId: claims.organizationId,
    projectId: claims.projectId,
    shareId: claims.shareId,
    channel: claims.channel,
    template,
    userAgent: req.header("user-agent"),
    country: countryFromHeader(req.header(getConfig().geoHeader)),
    receivedAt,
  });
  const written = await ingestWriter().write(rows);
  if (refused.length > 0) void quarantineRefusedEvents(claims.projectId, refused, receivedAt);
  return { ...written, quarantined: refused.length };
}

/**
 * POST {ingest_url}/analytics/v1/events. Checks, in this order: bearer token (401), Origin
 * against the token's allowed origins (403), size (413), content type (415), JSON (400),
 * event count (413), schema of the whole batch (422, its refused events recorded in the
 * project's quarantine); then enriches and stores, answering
 * 202 {accepted, duplicates, quarantined} once the rows are committed.
 */
export async function ingestEventBatch(req: IngestRequest): Promise<IngestAnswer> {
  const origin = req.header("origin");
  try {
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.header("authorization") ?? "")?.[1];
    if (!bearer) throw new UnauthorizedError("An ingest token is required: Authorization: Bearer <token>.");
    const claims = await verifyIngestTokenCached(bearer);
    requireAllowedOrigin(req, claims);
    if (Number(req.header("content-length") ?? 0) > maxBatchBodyBytes) {
      throw new PayloadTooLargeError(`The body is larger than ${maxBatchBodyBytes / 1024} KB.`);
    }
    if (!/^application\/json\b/i.test(req.header("content-type") ?? "")) {
      throw new UnsupportedMediaTypeError("Send the batch as application/json.");
    }
    const body = parseJson(await req.text(maxBatchBodyBytes));
    const events = (body as { events?: unknown } | null)?.events;
    if (Array.isArray(events) && events.length > eventBatchLimits.maxEvents) {
      throw new PayloadTooLargeError(`A batch holds at most ${eventBatchLimits.maxEvents} events.`);
    }
    const result = validateEventBatch(body);
    if (!result.ok) {
      // Counted for the project's quarantine report, after the answer and whatever its outcome.
      void quarantineRefusedBatch(claims.projectId, body, result.errors);
      throw new ValidationError(result.errors);
    }
    const written = await store(req, bearer, claims, result.batch.events);
    return accepted(written, origin);
  } catch (error) {
    return problemAnswer(error, origin);
  }
}

/**
 * POST {ingest_url}/analytics/v1/consent: the single-shot beacon `{token, event}` sent by
 * navigator.sendBeacon as text/plain (a simple request: no preflight, no Authorization header).
 */
export async function ingestConsentBeacon(req: IngestRequest): Promise<IngestAnswer> {
  const origin = req.header("origin");
  try {
    if (!/^(text\/plain|application\/json)\b/i.test(req.header("content-type") ?? "")) {
      throw new UnsupportedMediaTypeError("Send the beacon as text/plain (or application/json) JSON.");
    }
    const body = parseJson(await req.text(maxConsentBodyBytes)) as { token?: unknown; event?: unknown } | null;
    if (typeof body?.token !== "string") throw new UnauthorizedError("The beacon carries no ingest token.");
    const claims = await verifyIngestTokenCached(body.token);
    requireAllowedOrigin(req, claims);
    const result = validateEvent(body.event);
    if (!result.ok) throw new ValidationError(result.errors.map((e) => ({ ...e, path: e.path ? `event.${e.path}` : "event" })));
    if (result.event.event_type !== "consent.accepted" && result.event.event_type !== "consent.declined") {
      throw new ValidationError([{ path: "event.event_type", message: "must be consent.accepted or consent.declined" }]);
    }
    const written = await store(req, body.token, claims, [result.event]);
    return accepted(written, origin);
  } catch (error) {
    return problemAnswer(error, origin);
  }
}

function accepted(written: StoreResult, origin: string | null): IngestAnswer {
  return { status: 202, headers: { "Content-Type": "application/json", ...corsHeaders(origin) }, body: JSON.stringify(written) };
}

/** Errors carry CORS headers too, so the SDK can read the status and classify it. */
function problemAnswer(error: unknown, origin: string | null): IngestAnswer {
  const appError = toLoggedAppError(error);
  const problem = problemOf(appError);
  return { status: problem.status, headers: { ...problem.headers, ...corsHeaders(origin) }, body: problem.body };
}

// The Next route handlers' side: a web Request in, a Response out.

function fromWebRequest(req: Request): IngestRequest {
  return {
    header: (name) => req.headers.get(name),
    text: (limit) => readTextWithLimit(req, limit),
    clientAddress: () => clientAddress(req.headers),
  };
}

function toWebResponse(answer: IngestAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

export const handleEventBatch = async (req: Request) => toWebResponse(await ingestEventBatch(fromWebRequest(req)));
export const handleConsentBeacon = async (req: Request) => toWebResponse(await ingestConsentBeacon(fromWebRequest(req)));
export const answerPreflight = (req: Request) => toWebResponse(preflightAnswer(fromWebRequest(req)));
