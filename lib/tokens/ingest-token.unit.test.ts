import { randomUUID } from "node:crypto";
import { decodeJwt, decodeProtectedHeader, generateKeyPair, type JWTPayload } from "jose";
import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { getConfig } from "@/lib/config";
import { mintEmbedSessionToken } from "./embed-session-token";
import { ingestTokenKind, mintIngestToken, verifyIngestToken } from "./ingest-token";
import { at, currentSecret, expectRejected, forgeToken, oldSecret, secrets, strangerSecret, t0, t0Seconds, unsignedToken } from "@/testing/tokens";
import { signToken } from "./tokens";

const organizationId = randomUUID();
const projectId = randomUUID();
const shareId = randomUUID();
const templateId = randomUUID();
const hour = 3600;

/** Well-formed ingest claims with iat = t0 and the given lifetime; overrides win. */
function ingestPayload(lifetimeSeconds = hour, overrides: JWTPayload = {}): JWTPayload {
  return {
    organization_id: organizationId,
    project_id: projectId,
    aud: "reelbind-ingest",
    iat: t0Seconds,
    exp: t0Seconds + lifetimeSeconds,
    ...overrides,
  };
}

const ingestHeader = { alg: "HS256", typ: "ingest+jwt", kid: currentSecret.kid };

describe("mintIngestToken / verifyIngestToken – round trip", () => {
  it("mintIngestToken – all claims → verifyIngestToken returns them, with expiresAt", async () => {
    const { token, expiresAt } = await mintIngestToken(
      {
        organizationId,
        projectId,
        shareId,
        channel: "STAGING",
        allowedOrigins: ["https://Shop.Example.com:443/", "http://localhost:3000"],
        ttlSeconds: 2 * hour,
        templateId,
        templateVersion: "12.3",
      },
      { secrets, now: t0 },
    );
    expect(expiresAt).toEqual(at(2 * hour));
    expect(decodeJwt(token)).toMatchObject({ template_id: templateId, template_version: "12.3" });
    expect(await verifyIngestToken(token, { secrets, now: at(hour) })).toStrictEqual({
      organizationId,
      projectId,
      shareId,
      channel: "STAGING",
      allowedOrigins: ["https://shop.example.com", "http://localhost:3000"],
      templateId,
      templateVersion: "12.3",
      expiresAt: at(2 * hour),
    });
  });

  it("mintIngestToken – header is HS256 with typ ingest+jwt and the first secret's kid; aud and iat set", async () => {
    const { token } = await mintIngestToken({ organizationId, projectId }, { secrets, now: t0 });
    expect(decodeProtectedHeader(token)).toEqual({ alg: "HS256", typ: "ingest+jwt", kid: "k2" });
    expect(decodeJwt(token)).toMatchObject({ aud: "reelbind-ingest", iat: t0Seconds, organization_id: organizationId, project_id: projectId });
  });

  it("mintIngestToken – a channel that is not DEV, STAGING or PROD → ZodError", async () => {
    await expect(mintIngestToken({ organizationId, projectId, channel: "QA" as never }, { secrets, now: t0 })).rejects.toThrow(/channel/);
  });

  it("mintIngestToken – no shareId, allowedOrigins or template → claims left out, verify returns undefined", async () => {
    const { token } = await mintIngestToken(
      { organizationId, projectId, shareId: null, allowedOrigins: null, templateId: null, templateVersion: null },
      { secrets, now: t0 },
    );
    expect(Object.keys(decodeJwt(token)).sort()).toEqual(["aud", "exp", "iat", "jti", "organization_id", "project_id"]);
    const claims = await verifyIngestToken(token, { secrets, now: t0 });
    expect([claims.shareId, claims.channel, claims.allowedOrigins, claims.templateId, claims.templateVersion]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("mintIngestToken – duplicate origins after normalization → listed once", async () => {
    const { token } = await mintIngestToken(
      { organizationId, projectId, allowedOrigins: ["https://a.example", "HTTPS://A.EXAMPLE:443", "https://a.example/"] },
      { secrets, now: t0 },
    );
    expect((await verifyIngestToken(token, { secrets, now: t0 })).allowedOrigins).toEqual(["https://a.example"]);
  });

  it("mintIngestToken / verifyIngestToken – defaults → TOKEN_SECRETS from the configuration sign and verify", async () => {
    const { token } = await mintIngestToken({ organizationId, projectId });
    expect(decodeProtectedHeader(token).kid).toBe(getConfig().tokenSecrets[0]!.kid);
    expect((await verifyIngestToken(token)).projectId).toBe(projectId);
    await expectRejected(verifyIngestToken(token, { secrets }), "invalid");
  });
});

describe("mintIngestToken – TTL", () => {
  const lifetime = async (ttlSeconds?: number) => {
    const { token } = await mintIngestToken({ organizationId, projectId, ttlSeconds }, { secrets, now: t0 });
    const { iat, exp } = decodeJwt(token);
    return exp! - iat!;
  };

  it("mintIngestToken – no ttlSeconds → INGEST_TOKEN_TTL from the configuration (2h here)", async () => {
    const configKey = Symbol.for("reelbind.config");
    const previous = process.env.INGEST_TOKEN_TTL;
    process.env.INGEST_TOKEN_TTL = "2h";
    delete (globalThis as Record<symbol, unknown>)[configKey];
    try {
      expect(await lifetime()).toBe(2 * hour);
    } finally {
      if (previous === undefined) delete process.env.INGEST_TOKEN_TTL;
      else process.env.INGEST_TOKEN_TTL = previous;
      delete (globalThis as Record<symbol, unknown>)[configKey];
    }
  });

  it.each([
    [60, 15 * 60],
    [15 * 60, 15 * 60],
    [6 * hour, 6 * hour],
    [90.4, 15 * 60],
    [1800.6, 1801],
    [48 * hour, 48 * hour],
    [72 * hour, 48 * hour],
    [-5, 15 * 60],
  ])("mintIngestToken – ttlSeconds %s → lifetime %s s (clamped to 15 min–48 h)", async (requested, expected) => {
    expect(await lifetime(requested)).toBe(expected);
  });
});

describe("mintIngestToken – invalid input → ZodError (422)", () => {
  it.each([
    ["organizationId not a uuid", { organizationId: "org-1", projectId }],
    ["projectId not a uuid", { organizationId, projectId: "42" }],
    ["shareId not a uuid", { organizationId, projectId, shareId: "share" }],
    ["allowed origin with a path", { organizationId, projectId, allowedOrigins: ["https://a.example/embed"] }],
    ["allowed origin with a wildcard", { organizationId, projectId, allowedOrigins: ["https://*.a.example"] }],
    ["allowed origin not http(s)", { organizationId, projectId, allowedOrigins: ["ftp://a.example"] }],
    ["empty allowedOrigins list", { organizationId, projectId, allowedOrigins: [] }],
    ["eleven allowed origins", { organizationId, projectId, allowedOrigins: Array.from({ length: 11 }, (_, i) => `https://s${i}.example`) }],
    ["ttlSeconds NaN", { organizationId, projectId, ttlSeconds: Number.NaN }],
    ["templateId not a uuid", { organizationId, projectId, templateId: "greeting", templateVersion: "1.0" }],
    ["templateVersion without a minor", { organizationId, projectId, templateId, templateVersion: "1" }],
    ["templateVersion with a patch", { organizationId, projectId, templateId, templateVersion: "1.0.2" }],
    ["templateId without templateVersion", { organizationId, projectId, templateId }],
    ["templateVersion without templateId", { organizationId, projectId, templateVersion: "1.0" }],
  ])("mintIngestToken – %s", async (_case, input) => {
    await expect(mintIngestToken(input, { secrets, now: t0 })).rejects.toBeInstanceOf(ZodError);
  });
});

describe("verifyIngestToken – clock", () => {
  it.each([
    ["at exp + 59 s (within the 60 s tolerance)", hour + 59],
    ["just after minting", 0],
  ])("verifyIngestToken – %s → accepted", async (_case, offset) => {
    const { token } = await mintIngestToken({ organizationId, projectId, ttlSeconds: hour }, { secrets, now: t0 });
    await expect(verifyIngestToken(token, { secrets, now: at(offset) })).resolves.toMatchObject({ projectId });
  });

  it.each([
    ["at exp + 60 s", hour + 60],
    ["a day after exp", hour + 24 * hour],
  ])("verifyIngestToken – %s → expired", async (_case, offset) => {
    const { token } = await mintIngestToken({ organizationId, projectId, ttlSeconds: hour }, { secrets, now: t0 });
    const error = await expectRejected(verifyIngestToken(token, { secrets, now: at(offset) }), "expired");
    expect(error.message).toBe("The token has expired.");
  });

  it("verifyIngestToken – iat 59 s in the future → accepted (clock skew)", async () => {
    const token = await forgeToken(ingestHeader, ingestPayload(hour, { iat: t0Seconds + 59 }), currentSecret);
    await expect(verifyIngestToken(token, { secrets, now: t0 })).resolves.toMatchObject({ projectId });
  });

  it("verifyIngestToken – iat 10 days in the future with exp - iat = 48 h → invalid (would stretch the lifetime)", async () => {
    const iat = t0Seconds + 10 * 24 * hour;
    const token = await forgeToken(ingestHeader, ingestPayload(0, { iat, exp: iat + 48 * hour }), currentSecret);
    await expectRejected(verifyIngestToken(token, { secrets, now: t0 }), "invalid");
  });

  it("verifyIngestToken – nbf 2 minutes ahead → invalid", async () => {
    const token = await forgeToken(ingestHeader, ingestPayload(hour, { nbf: t0Seconds + 120 }), currentSecret);
    await expectRejected(verifyIngestToken(token, { secrets, now: t0 }), "invalid");
  });
});

describe("verifyIngestToken – refused tokens", () => {
  const invalidTokens: [string, () => Promise<string>][] = [
    ["forged: signed with another secret under the same kid", () => forgeToken(ingestHeader, ingestPayload(), strangerSecret)],
    ["alg none, unsigned", async () => unsignedToken({ typ: "ingest+jwt", kid: currentSecret.kid }, ingestPayload())],
    [
      "alg none with the HS256 signature of the same content kept",
      async () => {
        const signed = await forgeToken(ingestHeader, ingestPayload(), currentSecret);
        const unsigned = unsignedToken({ typ: "ingest+jwt", kid: currentSecret.kid }, ingestPayload());
        return unsigned + signed.split(".")[2];
      },
    ],
    ["HS512 signed with the right secret", () => forgeToken({ ...ingestHeader, alg: "HS512" }, ingestPayload(), currentSecret)],
    ["HS384 signed with the right secret", () => forgeToken({ ...ingestHeader, alg: "HS384" }, ingestPayload(), currentSecret)],
    [
      "RS256 signed with an RSA key under the right kid",
      async () => {
        const { privateKey } = await generateKeyPair("RS256");
        return forgeToken({ ...ingestHeader, alg: "RS256" }, ingestPayload(), privateKey);
      },
    ],
    ["49-hour token (exp - iat) signed with the right secret", () => forgeToken(ingestHeader, ingestPayload(49 * hour), currentSecret)],
    ["48 h + 1 s token", () => forgeToken(ingestHeader, ingestPayload(48 * hour + 1), currentSecret)],
    ["exp before iat", () => forgeToken(ingestHeader, ingestPayload(0, { iat: t0Seconds + 30, exp: t0Seconds + 20 }), currentSecret)],
    ["missing iat", () => forgeToken(ingestHeader, ingestPayload(hour, { iat: undefined }), currentSecret)],
    ["missing exp", () => forgeToken(ingestHeader, ingestPayload(hour, { exp: undefined }), currentSecret)],
    ["iat as a string", () => forgeToken(ingestHeader, ingestPayload(hour, { iat: String(t0Seconds) as unknown as number }), currentSecret)],
    ["wrong typ header (JWT)", () => forgeToken({ ...ingestHeader, typ: "JWT" }, ingestPayload(), currentSecret)],
    ["no typ header", () => forgeToken({ alg: "HS256", kid: currentSecret.kid }, ingestPayload(), currentSecret)],
    [
      "embed-session token (typ embed+jwt, aud reelbind-embed)",
      async () => (await mintEmbedSessionToken({ organizationId, projectId, credentialId: randomUUID(), channel: "PROD" }, { secrets, now: t0 })).token,
    ],
    [
      "typ ingest+jwt but aud reelbind-embed",
      () => forgeToken(ingestHeader, ingestPayload(hour, { aud: "reelbind-embed" }), currentSecret),
    ],
    ["no aud", () => forgeToken(ingestHeader, ingestPayload(hour, { aud: undefined }), currentSecret)],
    ["unknown kid", () => forgeToken({ ...ingestHeader, kid: "k9" }, ingestPayload(), currentSecret)],
    ["no kid", () => forgeToken({ alg: "HS256", typ: "ingest+jwt" }, ingestPayload(), currentSecret)],
    ["project_id not a uuid", () => forgeToken(ingestHeader, ingestPayload(hour, { project_id: "project-1" }), currentSecret)],
    ["organization_id a number", () => forgeToken(ingestHeader, ingestPayload(hour, { organization_id: 7 }), currentSecret)],
    ["project_id missing", () => forgeToken(ingestHeader, ingestPayload(hour, { project_id: undefined }), currentSecret)],
    ["share_id not a uuid", () => forgeToken(ingestHeader, ingestPayload(hour, { share_id: 12 }), currentSecret)],
    ["allowed_origins a string", () => forgeToken(ingestHeader, ingestPayload(hour, { allowed_origins: "https://a.example" }), currentSecret)],
    [
      "allowed_origins not canonical (uppercase host)",
      () => forgeToken(ingestHeader, ingestPayload(hour, { allowed_origins: ["https://A.example"] }), currentSecret),
    ],
    ["allowed_origins empty", () => forgeToken(ingestHeader, ingestPayload(hour, { allowed_origins: [] }), currentSecret)],
    ["template_id not a uuid", () => forgeToken(ingestHeader, ingestPayload(hour, { template_id: "greeting", template_version: "1.0" }), currentSecret)],
    ["template_version not major.minor", () => forgeToken(ingestHeader, ingestPayload(hour, { template_id: templateId, template_version: "v1" }), currentSecret)],
    ["template_id without template_version", () => forgeToken(ingestHeader, ingestPayload(hour, { template_id: templateId }), currentSecret)],
    ["template_version without template_id", () => forgeToken(ingestHeader, ingestPayload(hour, { template_version: "1.0" }), currentSecret)],
  ];

  it.each(invalidTokens)("verifyIngestToken – %s → invalid", async (_case, build) => {
    const error = await expectRejected(verifyIngestToken(await build(), { secrets, now: at(60) }), "invalid");
    expect(error.message).toBe("The token is invalid.");
  });

  it("verifyIngestToken – a well-formed hand-built token → accepted (the refused cases differ only in what they name)", async () => {
    const token = await forgeToken(
      ingestHeader,
      ingestPayload(48 * hour, { share_id: shareId, allowed_origins: ["https://a.example"], template_id: templateId, template_version: "1.0" }),
      currentSecret,
    );
    await expect(verifyIngestToken(token, { secrets, now: at(60) })).resolves.toEqual({
      organizationId,
      projectId,
      shareId,
      allowedOrigins: ["https://a.example"],
      templateId,
      templateVersion: "1.0",
      expiresAt: at(48 * hour),
    });
  });

  it("verifyIngestToken – signToken with the ingest kind but a claim of the wrong type → invalid", async () => {
    const { token } = await signToken(ingestTokenKind, { organization_id: organizationId, project_id: 5 }, hour, { secrets, now: t0 });
    await expectRejected(verifyIngestToken(token, { secrets, now: t0 }), "invalid");
  });
});

describe("verifyIngestToken – kid rotation", () => {
  it("verifyIngestToken – signed with the old secret, still listed → accepted", async () => {
    const { token } = await mintIngestToken({ organizationId, projectId }, { secrets: [oldSecret], now: t0 });
    expect(decodeProtectedHeader(token).kid).toBe("k1");
    await expect(verifyIngestToken(token, { secrets: [currentSecret, oldSecret], now: t0 })).resolves.toMatchObject({ projectId });
  });

  it("verifyIngestToken – signed with the old secret, since removed → invalid", async () => {
    const { token } = await mintIngestToken({ organizationId, projectId }, { secrets: [oldSecret], now: t0 });
    const error = await expectRejected(verifyIngestToken(token, { secrets: [currentSecret], now: t0 }), "invalid");
    expect(error.diagnostic).toContain("unknown kid");
  });

  it("verifyIngestToken – old kid relabelled onto the new secret → invalid (the kid picks the secret)", async () => {
    const { token } = await mintIngestToken({ organizationId, projectId }, { secrets: [oldSecret], now: t0 });
    await expectRejected(verifyIngestToken(token, { secrets: [{ kid: "k1", secret: currentSecret.secret }], now: t0 }), "invalid");
  });

  it("mintIngestToken – during rotation → the first listed secret signs", async () => {
    const { token } = await mintIngestToken({ organizationId, projectId }, { secrets: [currentSecret, oldSecret], now: t0 });
    expect(decodeProtectedHeader(token).kid).toBe("k2");
    await expect(verifyIngestToken(token, { secrets: [currentSecret], now: t0 })).resolves.toMatchObject({ projectId });
  });
});
