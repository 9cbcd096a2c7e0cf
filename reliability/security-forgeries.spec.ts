import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type JWTPayload } from "jose";
import { lightsUpload, setUpShare } from "../e2e/embed-helpers";
import { env } from "../e2e/owned-project";
import { browserUserAgent, ctaClick, type Manifest } from "../e2e/wire-events";

// Issue 15, security checks: forged and altered credentials of every kind against the built
// server. Each case is a request an attacker could make; each must be refused with the status
// the API promises (401 for a token or credential that does not authenticate, 403 for an origin
// the token does not allow, 404 for another tenant's resource and for a signed URL that does not
// verify: such a URL names nothing), as problem+json (the player iframe answers an HTML notice).
// The cases "with the real secret" sign with the server's own key (DATA_DIR/secrets.json): only
// the claim checks stand between them and the data.

type Case = { kind: string; name: string; send: () => Promise<Response>; status: number; html?: boolean };

const timeout = () => AbortSignal.timeout(60_000);
const base = () => env("E2E_BASE_URL");
const get = (url: string, headers: Record<string, string> = {}) => fetch(new URL(url, base()), { headers, redirect: "manual", signal: timeout() });
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const basic = (key: string, secret: string) => ({ Authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString("base64")}` });
const now = () => Math.floor(Date.now() / 1000);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const decodePart = (token: string, index: 0 | 1) => JSON.parse(Buffer.from(token.split(".")[index]!, "base64url").toString()) as Record<string, unknown>;

/** The server's token secrets (kid → secret), generated into its DATA_DIR by the first start. */
function serverSecret(): { kid: string; secret: string } {
  const { tokenSecrets } = JSON.parse(readFileSync(path.join(env("E2E_DATA_DIR"), "secrets.json"), "utf8")) as { tokenSecrets: string };
  const first = tokenSecrets.split(",")[0]!;
  return { kid: first.slice(0, first.indexOf(":")), secret: first.slice(first.indexOf(":") + 1) };
}

/** A JWT with any header and claims, HMAC-signed with `key` (the algorithm named in the header). */
async function hmacToken(header: { alg: string; typ?: string; kid?: string }, claims: JWTPayload, key: string | Uint8Array): Promise<string> {
  return new SignJWT(claims).setProtectedHeader(header).sign(typeof key === "string" ? new TextEncoder().encode(key) : key);
}

/** Changes the middle character of base64url text (its last one may only carry padding bits). */
function flipMiddle(text: string): string {
  const i = Math.floor(text.length / 2);
  return `${text.slice(0, i)}${text[i] === "A" ? "B" : "A"}${text.slice(i + 1)}`;
}

/** A token with its signature altered. */
const flipSignature = (token: string) => token.replace(/[^.]+$/, flipMiddle);

/** The same signature on other claims. */
const withClaims = (token: string, claims: Record<string, unknown>) => {
  const [header, , signature] = token.split(".");
  return `${header}.${b64({ ...decodePart(token, 1), ...claims })}.${signature}`;
};

function sign(secret: string, purpose: string, subject: string, expires: number): string {
  return createHmac("sha256", secret).update(`${purpose}:${subject}:${expires}`).digest("base64url");
}

async function manifestOf(request: APIRequestContext, slug: string) {
  const response = await request.get(`/api/embed/manifest?share=${slug}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as Manifest & { template: { id: string; files: { templateJson: string } } };
}

/** Runs the cases; returns what each got, and the figures line. */
async function run(cases: Case[]) {
  const results = [];
  for (const c of cases) {
    const response = await c.send();
    const body = await response.text();
    const contentType = response.headers.get("content-type") ?? "";
    const shape = c.html ? contentType.startsWith("text/html") : contentType === "application/problem+json" && JSON.parse(body).status === c.status;
    results.push({ ...c, got: response.status, shape, body: body.slice(0, 200) });
  }
  return results;
}

test("forged and altered tokens, credentials and signed URLs are refused with 401/403/404 problem+json; the genuine ones work", async ({ request }) => {
  test.setTimeout(400_000);
  const real = serverSecret();
  const [a, b] = await Promise.all([setUpShare(request, "Forgeries A", lightsUpload), setUpShare(request, "Forgeries B", lightsUpload)]);
  const manifestA = await manifestOf(request, a.share.slug);
  const manifestB = await manifestOf(request, b.share.slug);
  const ingestToken = manifestA.ingest.token;
  const ingestClaims = decodePart(ingestToken, 1);
  const sessionToken = await a.session(request, {});
  const sessionClaims = decodePart(sessionToken, 1);
  const boundSession = await a.session(request, { allowedOrigins: ["https://customer.example"] });
  const boundIngest = (await (await get(`/api/embed/manifest?session=${encodeURIComponent(boundSession)}`)).json()) as Manifest;
  const rsa = await generateKeyPair("RS256", { extractable: true });
  const rsaPublicPem = await exportSPKI(rsa.publicKey);
  const wrongKey = randomBytes(32).toString("base64url");

  // Genuine credentials of project A, and a credential and a token to revoke.
  const credentialA = await (await request.post("/api/credentials", { headers: bearer(a.token), data: { projectId: a.projectId, name: "genuine" } })).json() as { id: string; apiKey: string; apiSecret: string };
  const credentialB = await (await request.post("/api/credentials", { headers: bearer(b.token), data: { projectId: b.projectId, name: "genuine B" } })).json() as { id: string; apiKey: string; apiSecret: string };
  const revokedCredential = await (await request.post("/api/credentials", { headers: bearer(a.token), data: { projectId: a.projectId, name: "revoked" } })).json() as { id: string; apiKey: string; apiSecret: string };
  expect((await request.post(`/api/credentials/${revokedCredential.id}/revoke`, { headers: bearer(a.token) })).status()).toBe(200);
  const revokedPat = await (await request.post("/api/me/tokens", { headers: bearer(a.token), data: { name: "revoked" } })).json() as { id: string; token: string };
  expect((await request.post(`/api/me/tokens/${revokedPat.id}/revoke`, { headers: bearer(a.token) })).status()).toBe(200);
  const revokedSession = await (async () => {
    const credential = await (await request.post("/api/credentials", { headers: bearer(a.token), data: { projectId: a.projectId, name: "minted then revoked" } })).json() as { id: string; apiKey: string; apiSecret: string };
    const minted = await (await request.post("/api/embed-sessions", { headers: basic(credential.apiKey, credential.apiSecret), data: { channel: "DEV" } })).json() as { token: string };
    expect((await request.post(`/api/credentials/${credential.id}/revoke`, { headers: bearer(a.token) })).status()).toBe(200);
    return minted.token;
  })();

  // Signed URLs: a preview of A's template and one of its files.
  const previewResponse = await request.post(`/api/Projects/${a.projectId}/templates/${manifestA.template.id}/preview`, { headers: bearer(a.token), data: { data: {} } });
  expect(previewResponse.status()).toBe(200);
  const previewUrl = new URL(((await previewResponse.json()) as { url: string }).url);
  const previewName = previewUrl.pathname.split("/").pop()!.replace(/\.png$/, "");
  const fileUrl = new URL(manifestA.template.files.templateJson);
  const fileId = fileUrl.pathname.split("/")[4]!;
  const fileIdB = new URL(manifestB.template.files.templateJson).pathname.split("/")[4]!;
  const withQuery = (url: URL, changes: Record<string, string | null>) => {
    const copy = new URL(url);
    for (const [name, value] of Object.entries(changes)) if (value === null) copy.searchParams.delete(name); else copy.searchParams.set(name, value);
    return `${copy.pathname}${copy.search}`;
  };
  const previewPath = (name: string, expires: number, signature: string) => `/api/previews/${name}.png?expires=${expires}&signature=${signature}`;
  const filePath = (id: string, name: string, expires: number, signature: string) => `/api/embed/files/${id}/${name}?expires=${expires}&signature=${signature}`;

  // Ingest: a batch of one valid event of project A, sent with the token under test.
  const batch = (manifest: Manifest, claims: Record<string, string> = {}) => JSON.stringify({ sent_at: new Date().toISOString(), events: [{ ...ctaClick(manifest), ...claims }] });
  const ingest = (token: string | null, extra: Record<string, string> = {}, body = batch(manifestA)) => () =>
    fetch(`${base()}/analytics/v1/events`, { method: "POST", headers: { "Content-Type": "application/json", "User-Agent": browserUserAgent, ...(token === null ? {} : bearer(token)), ...extra }, body, signal: timeout() });
  const consent = (token: string) => () =>
    fetch(`${base()}/analytics/v1/consent`, {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: JSON.stringify({ token, event: { ...ctaClick(manifestA), event_type: "consent.accepted", payload: { source: "banner" } } }),
      signal: timeout(),
    });
  const ingestHeader = { alg: "HS256", typ: "ingest+jwt", kid: real.kid };
  const fresh = (lifetime: number, claims: JWTPayload = {}) => ({ ...ingestClaims, iat: now(), exp: now() + lifetime, jti: randomUUID(), ...claims });

  const sessionHeader = { alg: "HS256", typ: "embed+jwt", kid: real.kid };
  const manifestFor = (session: string) => () => get(`/api/embed/manifest?session=${encodeURIComponent(session)}`);
  const playerFor = (session: string) => () => get(`/embed?session=${encodeURIComponent(session)}`);
  const freshSession = (claims: JWTPayload = {}) => ({ ...sessionClaims, iat: now(), exp: now() + 600, jti: randomUUID(), ...claims });

  const templatesOfA = (headers: Record<string, string>) => () => get(`/api/Projects/${a.projectId}/templates`, headers);
  const mintSession = (headers: Record<string, string>, data: Record<string, unknown> = { channel: "DEV" }) => () =>
    fetch(`${base()}/api/embed-sessions`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(data), signal: timeout() });

  const tamperedPat = `${a.token.slice(0, -3)}${a.token.endsWith("AAA") ? "BBB" : "AAA"}`;
  const tamperedSecret = `${credentialA.apiSecret.slice(0, -1)}${credentialA.apiSecret.endsWith("A") ? "B" : "A"}`;

  const controls: Case[] = [
    { kind: "control", name: "the genuine ingest token", send: ingest(ingestToken), status: 202 },
    { kind: "control", name: "the genuine embed session", send: manifestFor(sessionToken), status: 200 },
    { kind: "control", name: "the genuine personal access token", send: templatesOfA(bearer(a.token)), status: 200 },
    { kind: "control", name: "the genuine API credential", send: mintSession(basic(credentialA.apiKey, credentialA.apiSecret)), status: 201 },
    { kind: "control", name: "the genuine preview URL", send: () => get(`${previewUrl.pathname}${previewUrl.search}`), status: 200 },
    { kind: "control", name: "the genuine file URL", send: () => get(`${fileUrl.pathname}${fileUrl.search}`), status: 200 },
  ];

  const forgeries: Case[] = [
    // Ingest token (POST /analytics/v1/events, and the consent beacon).
    { kind: "ingest token", name: "none", send: ingest(null), status: 401 },
    { kind: "ingest token", name: "not a JWT", send: ingest("not-a-token"), status: 401 },
    { kind: "ingest token", name: "signed with another key under the server's kid", send: ingest(await hmacToken(ingestHeader, fresh(3600), wrongKey)), status: 401 },
    { kind: "ingest token", name: "an unknown kid", send: ingest(await hmacToken({ ...ingestHeader, kid: "attacker" }, fresh(3600), wrongKey)), status: 401 },
    { kind: "ingest token", name: "alg none", send: ingest(`${b64({ alg: "none", typ: "ingest+jwt", kid: real.kid })}.${b64(fresh(3600))}.`), status: 401 },
    { kind: "ingest token", name: "alg none on the genuine claims", send: ingest(`${b64({ alg: "none", typ: "ingest+jwt" })}.${ingestToken.split(".")[1]}.`), status: 401 },
    {
      kind: "ingest token",
      name: "RS256 with the attacker's key in the header (jwk)",
      send: ingest(await new SignJWT(fresh(3600)).setProtectedHeader({ alg: "RS256", typ: "ingest+jwt", jwk: await exportJWK(rsa.publicKey) }).sign(rsa.privateKey)),
      status: 401,
    },
    { kind: "ingest token", name: "HS256 keyed with an RSA public key (algorithm confusion)", send: ingest(await hmacToken(ingestHeader, fresh(3600), rsaPublicPem)), status: 401 },
    { kind: "ingest token", name: "HS512 with the real secret", send: ingest(await hmacToken({ ...ingestHeader, alg: "HS512" }, fresh(3600), real.secret)), status: 401 },
    { kind: "ingest token", name: "expired an hour ago (real secret)", send: ingest(await hmacToken(ingestHeader, fresh(3600, { iat: now() - 7200, exp: now() - 3600 }), real.secret)), status: 401 },
    { kind: "ingest token", name: "living 49 h (real secret)", send: ingest(await hmacToken(ingestHeader, fresh(49 * 3600), real.secret)), status: 401 },
    { kind: "ingest token", name: "issued in the future (real secret)", send: ingest(await hmacToken(ingestHeader, fresh(3600, { iat: now() + 3600, exp: now() + 7200 }), real.secret)), status: 401 },
    { kind: "ingest token", name: "typ embed+jwt (real secret)", send: ingest(await hmacToken({ ...ingestHeader, typ: "embed+jwt" }, fresh(3600), real.secret)), status: 401 },
    { kind: "ingest token", name: "aud reelbind-embed (real secret)", send: ingest(await hmacToken(ingestHeader, fresh(3600, { aud: "reelbind-embed" }), real.secret)), status: 401 },
    { kind: "ingest token", name: "no exp (real secret)", send: ingest(await hmacToken(ingestHeader, { ...ingestClaims, iat: now(), exp: undefined }, real.secret)), status: 401 },
    { kind: "ingest token", name: "genuine, project_id changed to project B's", send: ingest(withClaims(ingestToken, { project_id: b.projectId })), status: 401 },
    { kind: "ingest token", name: "genuine, allowed_origins removed", send: ingest(withClaims(boundIngest.ingest.token, { allowed_origins: undefined })), status: 401 },
    { kind: "ingest token", name: "genuine, signature altered", send: ingest(flipSignature(ingestToken)), status: 401 },
    { kind: "ingest token", name: "genuine, signature removed", send: ingest(ingestToken.replace(/[^.]+$/, "")), status: 401 },
    { kind: "ingest token", name: "an embed-session token", send: ingest(sessionToken), status: 401 },
    { kind: "ingest token", name: "a personal access token", send: ingest(a.token), status: 401 },
    { kind: "ingest token", name: "an API secret", send: ingest(credentialA.apiSecret), status: 401 },
    { kind: "ingest token", name: "bound to https://customer.example, sent from https://evil.example", send: ingest(boundIngest.ingest.token, { Origin: "https://evil.example" }), status: 403 },
    { kind: "ingest token", name: "consent beacon: alg none", send: consent(`${b64({ alg: "none", typ: "ingest+jwt" })}.${ingestToken.split(".")[1]}.`), status: 401 },
    { kind: "ingest token", name: "consent beacon: signature altered", send: consent(flipSignature(ingestToken)), status: 401 },
    { kind: "ingest token", name: "consent beacon: an embed-session token", send: consent(sessionToken), status: 401 },

    // Embed-session token (GET /api/embed/manifest?session=, /embed?session=).
    { kind: "embed session", name: "signed with another key", send: manifestFor(await hmacToken(sessionHeader, freshSession(), wrongKey)), status: 401 },
    { kind: "embed session", name: "alg none", send: manifestFor(`${b64({ alg: "none", typ: "embed+jwt" })}.${sessionToken.split(".")[1]}.`), status: 401 },
    {
      kind: "embed session",
      name: "RS256 with the attacker's key in the header (jwk)",
      send: manifestFor(await new SignJWT(freshSession()).setProtectedHeader({ alg: "RS256", typ: "embed+jwt", jwk: await exportJWK(rsa.publicKey) }).sign(rsa.privateKey)),
      status: 401,
    },
    { kind: "embed session", name: "HS256 keyed with an RSA public key", send: manifestFor(await hmacToken(sessionHeader, freshSession(), rsaPublicPem)), status: 401 },
    { kind: "embed session", name: "expired (real secret)", send: manifestFor(await hmacToken(sessionHeader, freshSession({ iat: now() - 7200, exp: now() - 3600 }), real.secret)), status: 401 },
    { kind: "embed session", name: "living 25 h (real secret)", send: manifestFor(await hmacToken(sessionHeader, freshSession({ exp: now() + 25 * 3600 }), real.secret)), status: 401 },
    { kind: "embed session", name: "genuine, personalization data changed", send: manifestFor(withClaims(sessionToken, { personalization_data: { name: "Mallory" } })), status: 401 },
    { kind: "embed session", name: "genuine, share_slug changed to project B's share", send: manifestFor(withClaims(sessionToken, { share_slug: b.share.slug })), status: 401 },
    { kind: "embed session", name: "genuine, signature altered", send: manifestFor(flipSignature(sessionToken)), status: 401 },
    { kind: "embed session", name: "an ingest token", send: manifestFor(ingestToken), status: 401 },
    { kind: "embed session", name: "real secret, project B with project A's credential", send: manifestFor(await hmacToken(sessionHeader, freshSession({ project_id: b.projectId, organization_id: manifestB.organizationId }), real.secret)), status: 401 },
    { kind: "embed session", name: "real secret, project A naming project B's share", send: manifestFor(await hmacToken(sessionHeader, freshSession({ channel: undefined, share_slug: b.share.slug }), real.secret)), status: 404 },
    { kind: "embed session", name: "minted by a credential revoked since", send: manifestFor(revokedSession), status: 401 },
    { kind: "embed session", name: "player iframe: alg none", send: playerFor(`${b64({ alg: "none", typ: "embed+jwt" })}.${sessionToken.split(".")[1]}.`), status: 401, html: true },
    { kind: "embed session", name: "player iframe: signature altered", send: playerFor(flipSignature(sessionToken)), status: 401, html: true },
    { kind: "embed session", name: "player iframe: expired (real secret)", send: playerFor(await hmacToken(sessionHeader, freshSession({ iat: now() - 7200, exp: now() - 3600 }), real.secret)), status: 401, html: true },

    // Management: personal access tokens, console session cookies and API credentials.
    { kind: "management", name: "a random rbk_ token", send: templatesOfA(bearer(`rbk_${randomBytes(24).toString("base64url")}`)), status: 401 },
    { kind: "management", name: "the genuine token with characters changed", send: templatesOfA(bearer(tamperedPat)), status: 401 },
    { kind: "management", name: "a revoked token", send: templatesOfA(bearer(revokedPat.token)), status: 401 },
    { kind: "management", name: "project B's manager's token on project A", send: templatesOfA(bearer(b.token)), status: 404 },
    { kind: "management", name: "an ingest token as bearer", send: templatesOfA(bearer(ingestToken)), status: 401 },
    { kind: "management", name: "an embed-session token as bearer", send: templatesOfA(bearer(sessionToken)), status: 401 },
    { kind: "management", name: "an API secret as bearer", send: templatesOfA(bearer(credentialA.apiSecret)), status: 401 },
    { kind: "management", name: "an API credential as Basic", send: templatesOfA(basic(credentialA.apiKey, credentialA.apiSecret)), status: 401 },
    { kind: "management", name: "a forged session cookie", send: templatesOfA({ cookie: `next-auth.session-token=${b64({ alg: "dir", enc: "A256GCM" })}..${randomBytes(16).toString("base64url")}.${randomBytes(32).toString("base64url")}.${randomBytes(16).toString("base64url")}` }), status: 401 },
    { kind: "management", name: "credential: a random pk_/sk_ pair", send: mintSession(basic(`pk_${randomBytes(18).toString("base64url")}`, `sk_${randomBytes(30).toString("base64url")}`)), status: 401 },
    { kind: "management", name: "credential: the genuine key with a changed secret", send: mintSession(basic(credentialA.apiKey, tamperedSecret)), status: 401 },
    { kind: "management", name: "credential: the genuine key with project B's secret", send: mintSession(basic(credentialA.apiKey, credentialB.apiSecret)), status: 401 },
    { kind: "management", name: "credential: the key alone", send: mintSession(basic(credentialA.apiKey, "")), status: 401 },
    { kind: "management", name: "credential: revoked", send: mintSession(basic(revokedCredential.apiKey, revokedCredential.apiSecret)), status: 401 },
    { kind: "management", name: "credential: a personal access token as Bearer", send: mintSession(bearer(a.token)), status: 401 },
    { kind: "management", name: "credential: project A's, naming project B's share", send: mintSession(basic(credentialA.apiKey, credentialA.apiSecret), { shareSlug: b.share.slug }), status: 404 },

    // Preview URLs (/api/previews/{name}.png?expires=&signature=).
    { kind: "preview URL", name: "signature altered", send: () => get(withQuery(previewUrl, { signature: flipMiddle(previewUrl.searchParams.get("signature")!) })), status: 404 },
    { kind: "preview URL", name: "signature removed", send: () => get(withQuery(previewUrl, { signature: null })), status: 404 },
    { kind: "preview URL", name: "expiry moved a second later", send: () => get(withQuery(previewUrl, { expires: String(Number(previewUrl.searchParams.get("expires")) + 1) })), status: 404 },
    { kind: "preview URL", name: "another preview's name", send: () => get(`${previewUrl.pathname.replace(previewName, randomBytes(32).toString("hex"))}${previewUrl.search}`), status: 404 },
    { kind: "preview URL", name: "the path without .png", send: () => get(`${previewUrl.pathname.replace(/\.png$/, "")}${previewUrl.search}`), status: 404 },
    { kind: "preview URL", name: "expired a minute ago and a bit (real secret)", send: () => get(previewPath(previewName, now() - 120, sign(real.secret, "preview", previewName, now() - 120))), status: 404 },
    { kind: "preview URL", name: "expiring in a year (real secret)", send: () => get(previewPath(previewName, now() + 365 * 86400, sign(real.secret, "preview", previewName, now() + 365 * 86400))), status: 404 },
    { kind: "preview URL", name: "signed for a file, not a preview (real secret)", send: () => get(previewPath(previewName, now() + 600, sign(real.secret, "file", previewName, now() + 600))), status: 404 },

    // Template file URLs (/api/embed/files/{id}/{name}?expires=&signature=).
    { kind: "file URL", name: "signature altered", send: () => get(withQuery(fileUrl, { signature: flipMiddle(fileUrl.searchParams.get("signature")!) })), status: 404 },
    { kind: "file URL", name: "expiry moved an hour later", send: () => get(withQuery(fileUrl, { expires: String(Number(fileUrl.searchParams.get("expires")) + 3600) })), status: 404 },
    { kind: "file URL", name: "project B's file id with project A's signature", send: () => get(`${fileUrl.pathname.replace(fileId, fileIdB)}${fileUrl.search}`), status: 404 },
    { kind: "file URL", name: "another file name in the path", send: () => get(`${fileUrl.pathname.replace(/[^/]+$/, "other.json")}${fileUrl.search}`), status: 404 },
    { kind: "file URL", name: "expired (real secret)", send: () => get(filePath(fileId, "lights.json", now() - 120, sign(real.secret, "file", fileId, now() - 120))), status: 404 },
    { kind: "file URL", name: "expiring in 30 days (real secret)", send: () => get(filePath(fileId, "lights.json", now() + 30 * 86400, sign(real.secret, "file", fileId, now() + 30 * 86400))), status: 404 },
    { kind: "file URL", name: "signed for a preview, not a file (real secret)", send: () => get(filePath(fileId, "lights.json", now() + 600, sign(real.secret, "preview", fileId, now() + 600))), status: 404 },
  ];

  const controlResults = await run(controls);
  const results = await run(forgeries);
  const accepted = results.filter((r) => r.got >= 200 && r.got < 300);
  const kinds = [...new Set(forgeries.map((c) => c.kind))];
  const figures = kinds.map((kind) => {
    const of = results.filter((r) => r.kind === kind);
    return `${kind} ${of.filter((r) => r.got === r.status && r.shape).length}/${of.length}`;
  });
  console.log(`token forgeries: ${results.length} tried, ${results.filter((r) => r.got >= 400).length} refused, ${accepted.length} accepted; refused as promised per kind: ${figures.join(", ")}`);

  expect(controlResults.map((r) => `${r.name}: ${r.got}`)).toEqual(controls.map((c) => `${c.name}: ${c.status}`));
  expect(results.filter((r) => r.got !== r.status || !r.shape).map((r) => `${r.kind} – ${r.name}: ${r.got} ${r.body}`)).toEqual([]);

  // The genuine token of project A carries events that name project B: they are stored as project A's.
  const crossed = await ingest(ingestToken, {}, batch(manifestA, { organization_id: manifestB.organizationId, project_id: b.projectId }))();
  expect(crossed.status).toBe(202);
  const ctaClicks = async (project: { projectId: string; token: string }) =>
    ((await (await request.get(`/api/Projects/${project.projectId}/analytics`, { headers: bearer(project.token) })).json()) as { summary: { ctaClicks: number } }).summary.ctaClicks;
  expect(await ctaClicks(b)).toBe(0);
  expect(await ctaClicks(a)).toBe(2); // the control's event and this one
});
