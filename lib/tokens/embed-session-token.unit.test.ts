import { randomUUID } from "node:crypto";
import { decodeJwt, decodeProtectedHeader, type JWTPayload } from "jose";
import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { maxEmbedPersonalizationDataBytes, mintEmbedSessionToken, verifyEmbedSessionToken } from "./embed-session-token";
import { mintIngestToken, verifyIngestToken } from "./ingest-token";
import { isOriginAllowed } from "./origins";
import { at, currentSecret, expectRejected, forgeToken, secrets, strangerSecret, t0, t0Seconds, unsignedToken } from "@/testing/tokens";

const organizationId = randomUUID();
const projectId = randomUUID();
const credentialId = randomUUID();
const hour = 3600;

function embedPayload(lifetimeSeconds = hour, overrides: JWTPayload = {}): JWTPayload {
  return {
    organization_id: organizationId,
    project_id: projectId,
    credential_id: credentialId,
    channel: "PROD",
    aud: "reelbind-embed",
    iat: t0Seconds,
    exp: t0Seconds + lifetimeSeconds,
    ...overrides,
  };
}

const embedHeader = { alg: "HS256", typ: "embed+jwt", kid: currentSecret.kid };

describe("mintEmbedSessionToken / verifyEmbedSessionToken – round trip", () => {
  it("mintEmbedSessionToken – every field → verifyEmbedSessionToken returns them", async () => {
    const personalizationData = { firstName: "Ana", plan: { tier: "gold", seats: 3 } };
    const { token, expiresAt } = await mintEmbedSessionToken(
      {
        organizationId,
        projectId,
        credentialId,
        channel: "STAGING",
        shareSlug: "AbC123xyz",
        personalizationData,
        allowedOrigins: ["https://Host.Example"],
        ttlSeconds: 600,
      },
      { secrets, now: t0 },
    );
    expect(expiresAt).toEqual(at(600));
    expect(decodeProtectedHeader(token)).toEqual({ alg: "HS256", typ: "embed+jwt", kid: "k2" });
    expect(await verifyEmbedSessionToken(token, { secrets, now: at(300) })).toEqual({
      organizationId,
      projectId,
      credentialId,
      channel: "STAGING",
      shareSlug: "AbC123xyz",
      personalizationData,
      allowedOrigins: ["https://host.example"],
      expiresAt: at(600),
    });
  });

  it("mintEmbedSessionToken – shareSlug only → channel, data and origins undefined", async () => {
    const { token } = await mintEmbedSessionToken({ organizationId, projectId, credentialId, shareSlug: "slug1" }, { secrets, now: t0 });
    expect(await verifyEmbedSessionToken(token, { secrets, now: t0 })).toMatchObject({
      channel: undefined,
      shareSlug: "slug1",
      personalizationData: undefined,
      allowedOrigins: undefined,
    });
  });

  it("mintEmbedSessionToken – no ttlSeconds → 1 hour", async () => {
    const { token, expiresAt } = await mintEmbedSessionToken({ organizationId, projectId, credentialId, channel: "PROD" }, { secrets, now: t0 });
    const { iat, exp } = decodeJwt(token);
    expect([exp! - iat!, expiresAt]).toEqual([hour, at(hour)]);
  });

  it("mintEmbedSessionToken – ttlSeconds 24 h → accepted and verifies", async () => {
    const { token } = await mintEmbedSessionToken({ organizationId, projectId, credentialId, channel: "PROD", ttlSeconds: 24 * hour }, { secrets, now: t0 });
    await expect(verifyEmbedSessionToken(token, { secrets, now: at(23 * hour) })).resolves.toMatchObject({ projectId });
  });

  it("mintEmbedSessionToken → mintIngestToken – the manifest's ingest token copies allowed_origins and enforces them", async () => {
    const session = await mintEmbedSessionToken(
      { organizationId, projectId, credentialId, channel: "PROD", allowedOrigins: ["https://shop.example"] },
      { secrets, now: t0 },
    );
    const claims = await verifyEmbedSessionToken(session.token, { secrets, now: t0 });
    const ingest = await mintIngestToken(
      { organizationId: claims.organizationId, projectId: claims.projectId, allowedOrigins: claims.allowedOrigins },
      { secrets, now: t0 },
    );
    const { allowedOrigins } = await verifyIngestToken(ingest.token, { secrets, now: at(2 * hour) });
    expect([isOriginAllowed("https://shop.example", allowedOrigins), isOriginAllowed("https://evil.example", allowedOrigins)]).toEqual([true, false]);
  });
});

describe("mintEmbedSessionToken – invalid input → ZodError (422)", () => {
  it.each([
    ["neither channel nor shareSlug", { organizationId, projectId }],
    ["unknown channel", { organizationId, projectId, credentialId, channel: "QA" }],
    ["shareSlug with a slash", { organizationId, projectId, credentialId, shareSlug: "../x" }],
    ["projectId not a uuid", { organizationId, projectId: "p", channel: "PROD" }],
    ["personalizationData an array", { organizationId, projectId, credentialId, channel: "PROD", personalizationData: ["a"] }],
    [
      "personalizationData over 4 KB as JSON",
      { organizationId, projectId, credentialId, channel: "PROD", personalizationData: { note: "x".repeat(maxEmbedPersonalizationDataBytes) } },
    ],
    ["allowed origin with a path", { organizationId, projectId, credentialId, channel: "PROD", allowedOrigins: ["https://a.example/page"] }],
    ["ttlSeconds 59", { organizationId, projectId, credentialId, channel: "PROD", ttlSeconds: 59 }],
    ["ttlSeconds 24 h + 1 s", { organizationId, projectId, credentialId, channel: "PROD", ttlSeconds: 24 * hour + 1 }],
    ["ttlSeconds 90.5", { organizationId, projectId, credentialId, channel: "PROD", ttlSeconds: 90.5 }],
  ])("mintEmbedSessionToken – %s", async (_case, input) => {
    await expect(mintEmbedSessionToken(input as never, { secrets, now: t0 })).rejects.toBeInstanceOf(ZodError);
  });
});

describe("verifyEmbedSessionToken – refused tokens", () => {
  const invalidTokens: [string, () => Promise<string>][] = [
    [
      "ingest token (typ ingest+jwt, aud reelbind-ingest)",
      async () => (await mintIngestToken({ organizationId, projectId }, { secrets, now: t0 })).token,
    ],
    ["typ embed+jwt but aud reelbind-ingest", () => forgeToken(embedHeader, embedPayload(hour, { aud: "reelbind-ingest" }), currentSecret)],
    ["typ ingest+jwt but aud reelbind-embed", () => forgeToken({ ...embedHeader, typ: "ingest+jwt" }, embedPayload(), currentSecret)],
    ["forged: another secret under the same kid", () => forgeToken(embedHeader, embedPayload(), strangerSecret)],
    ["alg none", async () => unsignedToken({ typ: "embed+jwt", kid: currentSecret.kid }, embedPayload())],
    ["HS512 with the right secret", () => forgeToken({ ...embedHeader, alg: "HS512" }, embedPayload(), currentSecret)],
    ["25-hour token (exp - iat) with the right secret", () => forgeToken(embedHeader, embedPayload(25 * hour), currentSecret)],
    ["missing iat", () => forgeToken(embedHeader, embedPayload(hour, { iat: undefined }), currentSecret)],
    ["names no share", () => forgeToken(embedHeader, embedPayload(hour, { channel: undefined }), currentSecret)],
    ["names no credential (minted before credential_id existed)", () => forgeToken(embedHeader, embedPayload(hour, { credential_id: undefined }), currentSecret)],
    ["credential_id not a UUID", () => forgeToken(embedHeader, embedPayload(hour, { credential_id: "pk_abc" }), currentSecret)],
    ["channel not a channel", () => forgeToken(embedHeader, embedPayload(hour, { channel: "prod" }), currentSecret)],
    ["personalization_data a string", () => forgeToken(embedHeader, embedPayload(hour, { personalization_data: "{}" }), currentSecret)],
  ];

  it.each(invalidTokens)("verifyEmbedSessionToken – %s → invalid", async (_case, build) => {
    await expectRejected(verifyEmbedSessionToken(await build(), { secrets, now: at(60) }), "invalid");
  });

  it.each([
    ["at exp + 59 s (within the 60 s tolerance)", "accepted", hour + 59],
    ["at exp + 60 s", "expired", hour + 60],
  ] as const)("verifyEmbedSessionToken – %s → %s", async (_case, outcome, offset) => {
    const { token } = await mintEmbedSessionToken({ organizationId, projectId, credentialId, channel: "PROD" }, { secrets, now: t0 });
    const verification = verifyEmbedSessionToken(token, { secrets, now: at(offset) });
    if (outcome === "accepted") await expect(verification).resolves.toMatchObject({ projectId });
    else await expectRejected(verification, "expired");
  });

  it("verifyEmbedSessionToken – a well-formed hand-built 24-hour token → accepted", async () => {
    const token = await forgeToken(embedHeader, embedPayload(24 * hour), currentSecret);
    await expect(verifyEmbedSessionToken(token, { secrets, now: at(60) })).resolves.toMatchObject({ projectId, channel: "PROD" });
  });
});
