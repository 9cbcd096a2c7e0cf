import { SignJWT, type JWTPayload } from "jose";
import { expect } from "vitest";
import { TokenError, type TokenErrorReason, type TokenSecret } from "@/lib/tokens/tokens";

// Test helpers: explicit secrets and a fixed clock, and tokens built by hand the way an attacker would.

export const currentSecret: TokenSecret = { kid: "k2", secret: "current-secret-0123456789abcdefghij" };
export const oldSecret: TokenSecret = { kid: "k1", secret: "old-secret-0123456789abcdefghijklmno" };
export const strangerSecret: TokenSecret = { kid: "k2", secret: "stranger-secret-0123456789abcdefghi" };

/** Rotation in progress: the new secret signs, the old one still verifies. */
export const secrets = [currentSecret, oldSecret];

export const t0 = new Date("2030-01-01T00:00:00Z");
export const t0Seconds = t0.getTime() / 1000;

export const at = (secondsAfterT0: number) => new Date(t0.getTime() + secondsAfterT0 * 1000);

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** An unsecured JWT (`alg: none`), with an empty signature. */
export function unsignedToken(header: Record<string, unknown>, payload: JWTPayload): string {
  return `${base64url({ alg: "none", ...header })}.${base64url(payload)}.`;
}

/** Any header and claims (no iat unless given), signed with jose using `key`. */
export async function forgeToken(
  header: { alg: string; typ?: string; kid?: string },
  payload: JWTPayload,
  key: CryptoKey | Uint8Array | TokenSecret,
): Promise<string> {
  const signingKey = "secret" in key ? new TextEncoder().encode(key.secret) : key;
  return new SignJWT(payload).setProtectedHeader(header).sign(signingKey);
}

/** Awaits a rejection and returns the TokenError, failing the test on anything else. */
export async function tokenError(promise: Promise<unknown>): Promise<TokenError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TokenError);
  return error as TokenError;
}

export async function expectRejected(promise: Promise<unknown>, reason: TokenErrorReason): Promise<TokenError> {
  const error = await tokenError(promise);
  expect(error.reason, error.diagnostic).toBe(reason);
  return error;
}
