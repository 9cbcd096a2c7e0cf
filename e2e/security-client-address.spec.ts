import { randomBytes } from "node:crypto";
import http from "node:http";
import { expect, test } from "@playwright/test";
import { startRoundRobinProxy, type RoundRobinProxy } from "../testing/round-robin-proxy";
import { startOwnInstance, type OwnInstance } from "./own-instance";
import { ctaClick, type Manifest } from "./wire-events";

// Issue 30, finding 1: the per-address limits took the first X-Forwarded-For entry, which the
// client writes itself, so rotating it escaped every one of them. The address is now the one the
// nearest untrusted hop reported (TRUSTED_PROXIES; docs/security.md, "Client addresses: the trust
// model"). Two instances of the spec's own, with limits so small that nothing refills while a
// test runs (one unknown share link, then one every 100 min; one full batch of ingest events,
// then one every 1,000 s):
// - `direct`, on the default (no proxy trusted): a client's X-Forwarded-For is ignored;
// - `proxied`, trusting 127.0.0.1, behind the test round-robin proxy there: the entry the proxy
//   appended is the address, whatever the client wrote left of it.
// Each client connects from an address of its own on the loopback network (127.0.0.0/8), so each
// is a client of its own to the server it reaches.

test.describe.configure({ timeout: 300_000 });

/** SHARE_MISS_RATE=0.01: a burst of one miss. */
const missBurst = 1;
const fullBatch = 500;
/** Failed sign-ins one address may make in 15 min (lib/auth/sign-in-throttle.ts). */
const addressLimit = 50;
const smallLimits = { SHARE_MISS_RATE: "0.01", INGEST_ADDRESS_RATE: "0.001" };

let direct: OwnInstance | undefined;
let proxied: OwnInstance | undefined;
let proxy: RoundRobinProxy | undefined;

const onIpv4 = (instance: OwnInstance) => `http://127.0.0.1:${instance.app.port}`;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  // TRUSTED_PROXIES "" is unset, whatever the suite's apps trust (own-instance.ts).
  [direct, proxied] = await Promise.all([
    startOwnInstance("address-direct", { ...smallLimits, TRUSTED_PROXIES: "" }),
    startOwnInstance("address-proxied", { ...smallLimits, TRUSTED_PROXIES: "127.0.0.1" }),
  ]);
  proxy = await startRoundRobinProxy({ upstreams: [onIpv4(proxied)] });
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  await proxy?.close();
  await Promise.all([direct?.stop(), proxied?.stop()]);
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** A request from the local address `from` (a client of its own), with no redirect followed. */
function requestFrom(from: string, url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: init.method ?? "GET",
        localAddress: from,
        headers: { connection: "close", ...init.headers },
        timeout: 60_000,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => resolve({ status: answer.statusCode!, headers: answer.headers, body: Buffer.concat(chunks).toString() }));
        answer.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(new Error(`${url} did not answer within 60 s`)));
    request.on("error", reject);
    request.end(init.body);
  });
}

const forged = (i: number) => ({ "X-Forwarded-For": `203.0.113.${i}, 10.0.0.1` });
/** A slug of the real shape (22 base62 characters) that no share has. */
const unknownSlug = () => Array.from(randomBytes(22), (byte) => "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"[byte % 62]).join("");
const demoSlug = (instance: OwnInstance) => new URL(instance.app.shareUrl).pathname.split("/").pop()!;

/** The unknown-share lookups, in turn: the page manifest, the landing page (refused in proxy.ts), the player iframe, the poster. */
const lookups = [(slug: string) => `/api/embed/manifest?share=${slug}`, (slug: string) => `/v/${slug}`, (slug: string) => `/embed/${slug}`, (slug: string) => `/api/embed/posters/${slug}`];

/** `count` unknown-slug lookups from `from` to `base`, each with the headers `headersOf(i)`; their statuses. */
async function missSlugs(from: string, base: string, count: number, headersOf: (i: number) => Record<string, string>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await requestFrom(from, `${base}${lookups[i % lookups.length]!(unknownSlug())}`, { headers: headersOf(i) })).status);
  return statuses;
}

/** An ingest token of the instance's demo share, from the page manifest. */
async function manifestFrom(from: string, base: string, instance: OwnInstance): Promise<Manifest> {
  const answer = await requestFrom(from, `${base}/api/embed/manifest?share=${demoSlug(instance)}`);
  expect(answer.status, answer.body).toBe(200);
  return JSON.parse(answer.body) as Manifest;
}

/** POST /analytics/v1/events of `n` events from `from` to `base`, with `headers`. */
async function sendEvents(from: string, base: string, manifest: Manifest, n: number, headers: Record<string, string>) {
  const answer = await requestFrom(from, `${base}/analytics/v1/events`, {
    method: "POST",
    headers: { Authorization: `Bearer ${manifest.ingest.token}`, "Content-Type": "application/json", ...headers },
    body: JSON.stringify({ sent_at: new Date().toISOString(), events: Array.from({ length: n }, () => ctaClick(manifest)) }),
  });
  return { status: answer.status, detail: (JSON.parse(answer.body) as { detail?: string }).detail };
}

/** A failed sign-in at a fresh unknown email from `from`, as the console's form sends it (CSRF token and cookie first). */
async function failSignIn(from: string, base: string, headers: Record<string, string>): Promise<number> {
  const csrf = await requestFrom(from, `${base}/api/auth/csrf`, { headers });
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  const cookie = (csrf.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
  const email = `nobody-${randomBytes(6).toString("hex")}@example.com`;
  const answer = await requestFrom(from, `${base}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { ...headers, cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password: "x", csrfToken, callbackUrl: "/projects", json: "true" }).toString(),
  });
  return answer.status;
}

test.describe("no proxy trusted (the default): a client's X-Forwarded-For is ignored", () => {
  test("POST /api/auth/callback/credentials – 55 failures at 55 accounts from one client with X-Forwarded-For: 203.0.113.$i, 10.0.0.1 → 401 × 50, then 429", async () => {
    const base = onIpv4(direct!);
    const statuses: number[] = [];
    for (let batch = 0; batch < 11; batch++) {
      statuses.push(...(await Promise.all(Array.from({ length: 5 }, (_, i) => failSignIn("127.0.0.21", base, forged(batch * 5 + i))))));
    }
    expect(statuses.slice(0, addressLimit)).toEqual(Array(addressLimit).fill(401));
    expect(statuses.slice(addressLimit)).toEqual([429, 429, 429, 429, 429]);
  });

  test("GET unknown share slugs from one client rotating X-Forwarded-For (and a forged X-Reelbind-Peer-Address) → 404 up to SHARE_MISS_RATE, then 429 on every lookup", async () => {
    const base = onIpv4(direct!);
    const headersOf = (i: number) => ({ ...forged(i), "X-Reelbind-Peer-Address": `198.51.100.${i}` });
    const statuses = await missSlugs("127.0.0.22", base, missBurst + lookups.length, headersOf);
    expect(statuses).toEqual([...Array(missBurst).fill(404), ...Array(lookups.length).fill(429)]);
    // Another client is unaffected.
    expect(await missSlugs("127.0.0.23", base, 1, () => forged(99))).toEqual([404]);
  });

  test("POST /analytics/v1/events – one client rotating X-Forwarded-For → its burst, then 429 for the address; another client is served", async () => {
    const base = onIpv4(direct!);
    const manifest = await manifestFrom("127.0.0.24", base, direct!);
    expect(await sendEvents("127.0.0.24", base, manifest, fullBatch, forged(1))).toEqual({ status: 202, detail: undefined });
    for (let i = 2; i < 5; i++) {
      expect(await sendEvents("127.0.0.24", base, manifest, 1, forged(i))).toEqual({ status: 429, detail: "Too many events from this address; retry later." });
    }
    expect((await sendEvents("127.0.0.25", base, manifest, 1, forged(1))).status).toBe(202);
  });
});

test.describe("behind a trusted proxy (TRUSTED_PROXIES=127.0.0.1, the round-robin proxy): the entry the proxy appended", () => {
  test("GET unknown share slugs – a client forging the leftmost X-Forwarded-For entry → 429 after SHARE_MISS_RATE; a second client behind the proxy has its own bucket; the first, bypassing the proxy, is still itself", async () => {
    const statuses = await missSlugs("127.0.0.31", proxy!.url, missBurst + lookups.length, forged);
    expect(statuses).toEqual([...Array(missBurst).fill(404), ...Array(lookups.length).fill(429)]);

    expect(await missSlugs("127.0.0.32", proxy!.url, missBurst, forged)).toEqual([404]);
    // Straight to the app, its X-Forwarded-For naming another client is ignored: 127.0.0.31 is no trusted proxy.
    expect(await missSlugs("127.0.0.31", onIpv4(proxied!), 1, () => ({ "X-Forwarded-For": "127.0.0.33" }))).toEqual([429]);
  });

  test("POST /analytics/v1/events – a client forging the leftmost X-Forwarded-For entry → its burst, then 429 for the address; a second client behind the proxy is served", async () => {
    const manifest = await manifestFrom("127.0.0.34", proxy!.url, proxied!);
    expect((await sendEvents("127.0.0.34", proxy!.url, manifest, fullBatch, forged(1))).status).toBe(202);
    for (let i = 2; i < 5; i++) {
      expect(await sendEvents("127.0.0.34", proxy!.url, manifest, 1, forged(i))).toEqual({ status: 429, detail: "Too many events from this address; retry later." });
    }
    expect((await sendEvents("127.0.0.35", proxy!.url, manifest, 1, forged(2))).status).toBe(202);
  });
});
