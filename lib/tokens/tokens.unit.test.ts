import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { errorResponse } from "@/lib/api/errors";
import { UnauthorizedError } from "@/lib/errors";
import { at, currentSecret, expectRejected, forgeToken, secrets, t0, t0Seconds } from "@/testing/tokens";
import { signToken, verifyToken, type TokenKind } from "./tokens";

const kind: TokenKind = { typ: "test+jwt", audience: "reelbind-test", maxLifetimeSeconds: 600 };
const claimsSchema = z.object({ n: z.number() });

describe("TokenError", () => {
  it("TokenError – is a 401 UnauthorizedError with a safe message and a detailed diagnostic", async () => {
    const { token } = await signToken(kind, { n: 1 }, 60, { secrets, now: t0 });
    const error = await expectRejected(verifyToken({ ...kind, typ: "other+jwt" }, token, claimsSchema, { secrets, now: t0 }), "invalid");
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect([error.kind, error.name, error.message]).toEqual(["unauthorized", "TokenError", "The token is invalid."]);
    expect(error.diagnostic).toMatch(/typ/);
  });

  it("TokenError – through errorResponse → 401 problem+json without the diagnostic", async () => {
    const { token } = await signToken(kind, { n: 1 }, 60, { secrets, now: t0 });
    const error = await expectRejected(verifyToken(kind, token, claimsSchema, { secrets: [], now: t0 }), "invalid");
    const response = errorResponse(error);
    const body = await response.text();
    expect(response.status).toBe(401);
    expect(response.headers.get("WWW-Authenticate")).toContain("Bearer");
    expect(JSON.parse(body)).toMatchObject({ status: 401, detail: "The token is invalid." });
    expect(body).not.toContain("kid");
  });

  it("TokenError – expired → reason expired, message says only that", async () => {
    const { token } = await signToken(kind, { n: 1 }, 60, { secrets, now: t0 });
    const error = await expectRejected(verifyToken(kind, token, claimsSchema, { secrets, now: at(120) }), "expired");
    expect(error.message).toBe("The token has expired.");
    expect(error.diagnostic).toContain("exp");
  });
});

describe("verifyToken – mechanics", () => {
  it("verifyToken – round trip → claims parsed by the schema, extra claims dropped", async () => {
    const { token, expiresAt } = await signToken(kind, { n: 3, extra: true }, 600, { secrets, now: t0 });
    expect(await verifyToken(kind, token, claimsSchema, { secrets, now: t0 })).toEqual({ claims: { n: 3 }, expiresAt });
  });

  it("verifyToken – lifetime exactly the kind's maximum → accepted; one second more → invalid", async () => {
    const header = { alg: "HS256", typ: "test+jwt", kid: currentSecret.kid };
    const payload = (lifetime: number) => ({ n: 1, aud: "reelbind-test", iat: t0Seconds, exp: t0Seconds + lifetime });
    await expect(verifyToken(kind, await forgeToken(header, payload(600), currentSecret), claimsSchema, { secrets, now: t0 })).resolves.toBeDefined();
    await expectRejected(verifyToken(kind, await forgeToken(header, payload(601), currentSecret), claimsSchema, { secrets, now: t0 }), "invalid");
  });

  it.each([
    ["empty string", ""],
    ["one segment", "abc"],
    ["two segments", "abc.def"],
    ["four segments", "a.b.c.d"],
    ["header not JSON", "bm90IGpzb24.e30.c2ln"],
    ["header a JSON array", `${Buffer.from("[]").toString("base64url")}.e30.c2ln`],
    ["payload not JSON", `${Buffer.from('{"alg":"HS256","typ":"test+jwt","kid":"k2"}').toString("base64url")}.bm9wZQ.c2ln`],
    ["not a string", 42 as unknown as string],
  ])("verifyToken – malformed: %s → invalid", async (_case, token) => {
    await expectRejected(verifyToken(kind, token, claimsSchema, { secrets, now: t0 }), "invalid");
  });

  it("verifyToken – correctly signed but over 16 KB → invalid before parsing", async () => {
    const { token } = await signToken(kind, { n: 1, padding: "x".repeat(16 * 1024) }, 60, { secrets, now: t0 });
    const error = await expectRejected(verifyToken(kind, token, claimsSchema, { secrets, now: t0 }), "invalid");
    expect(error.diagnostic).toContain("size");
  });

  it("verifyToken – correctly signed but the payload is not JSON → invalid", async () => {
    const header = Buffer.from(JSON.stringify({ alg: "HS256", typ: "test+jwt", kid: currentSecret.kid })).toString("base64url");
    const signingInput = `${header}.${Buffer.from("not json").toString("base64url")}`;
    const signature = createHmac("sha256", currentSecret.secret).update(signingInput).digest("base64url");
    const error = await expectRejected(verifyToken(kind, `${signingInput}.${signature}`, claimsSchema, { secrets, now: t0 }), "invalid");
    expect(error.diagnostic).toContain("ERR_JWT_INVALID");
  });

  it("verifyToken – claims failing the schema → invalid, diagnostic names the claim", async () => {
    const { token } = await signToken(kind, { n: "three" }, 60, { secrets, now: t0 });
    const error = await expectRejected(verifyToken(kind, token, claimsSchema, { secrets, now: t0 }), "invalid");
    expect(error.diagnostic).toContain("n:");
  });
});

describe("signToken", () => {
  it.each([0, -1, 601, 1.5])("signToken – ttlSeconds %s → RangeError", async (ttl) => {
    await expect(signToken(kind, { n: 1 }, ttl, { secrets, now: t0 })).rejects.toBeInstanceOf(RangeError);
  });

  it("signToken – no secrets → error", async () => {
    await expect(signToken(kind, { n: 1 }, 60, { secrets: [], now: t0 })).rejects.toThrow(/TOKEN_SECRETS/);
  });
});

describe("signToken – every token is distinct", () => {
  it("two tokens with the same claims in the same second differ (jti), so per-token limits are per page view", async () => {
    const { mintIngestToken } = await import("./ingest-token");
    const input = { organizationId: "6f1d3c1e-4a43-4a43-9c1e-1a2b3c4d5e6f", projectId: "7f1d3c1e-4a43-4a43-9c1e-1a2b3c4d5e6f" };
    const now = new Date("2026-11-21T10:00:00Z");
    const secrets = [{ kid: "t", secret: "a-test-secret-that-is-long-enough-0123" }];
    const [a, b] = await Promise.all([mintIngestToken(input, { secrets, now }), mintIngestToken(input, { secrets, now })]);
    expect(a!.token).not.toBe(b!.token);
  });
});
