import { randomUUID } from "node:crypto";
import { jwtVerify, SignJWT, type JWSHeaderParameters, type JWTPayload } from "jose";
import type { z } from "zod";
import { isAppError, UnauthorizedError } from "@/lib/errors";
import { getConfig } from "@/lib/config";

// Shared mechanics of Reelbind's signed tokens (docs/design.md, Tokens): HS256 only, the secret chosen
// by `kid`, one `typ` and `aud` per kind of token, 60 s clock tolerance, bounded lifetime.

export type TokenSecret = { kid: string; secret: string };

/** Both default to the configuration and the clock; tests pass their own. */
export type TokenOptions = { secrets?: readonly TokenSecret[]; now?: Date };

/** One kind of token: its header type, its audience, and the longest lifetime (exp - iat) verify accepts. */
export type TokenKind = { typ: string; audience: string; maxLifetimeSeconds: number };

export type SignedToken = { token: string; expiresAt: Date };

export const tokenAlgorithm = "HS256";
export const clockToleranceSeconds = 60;
/** Far above any token we mint; refuses oversized input before any parsing. */
const maxTokenLength = 16 * 1024;

export type TokenErrorReason = "expired" | "invalid";

const clientMessages: Record<TokenErrorReason, string> = {
  expired: "The token has expired.",
  invalid: "The token is invalid.",
};

/**
 * A token that must not be honoured: answers 401. The message tells a client only "expired" or
 * "invalid"; `diagnostic` names the failed check and is meant for logs only.
 */
export class TokenError extends UnauthorizedError {
  constructor(
    readonly reason: TokenErrorReason,
    readonly diagnostic: string,
    cause?: unknown,
  ) {
    super(clientMessages[reason]);
    if (cause !== undefined) this.cause = cause;
  }
}

function secretsOrConfig(options: TokenOptions): readonly TokenSecret[] {
  return options.secrets ?? getConfig().tokenSecrets;
}

const encoder = new TextEncoder();

/** Signs `claims` as a `kind` token with the first secret, its kid in the header. */
export async function signToken(
  kind: TokenKind,
  claims: JWTPayload,
  ttlSeconds: number,
  options: TokenOptions = {},
): Promise<SignedToken> {
  const [signer] = secretsOrConfig(options);
  if (!signer) throw new Error("No token secret is configured (TOKEN_SECRETS).");
  if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds <= 0 || ttlSeconds > kind.maxLifetimeSeconds) {
    throw new RangeError(`A ${kind.typ} token lives 1 to ${kind.maxLifetimeSeconds} seconds, not ${ttlSeconds}.`);
  }
  const issuedAt = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const expiresAt = issuedAt + ttlSeconds;
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: tokenAlgorithm, typ: kind.typ, kid: signer.kid })
    .setAudience(kind.audience)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    // Every token is distinct (two page views in one second too): the rate limit is per token.
    .setJti(randomUUID())
    .sign(await hmacKey(signer.secret));
  return { token, expiresAt: new Date(expiresAt * 1000) };
}

const importedKeys = new Map<string, Promise<CryptoKey>>();

/**
 * The secret as an HMAC-SHA-256 CryptoKey, imported once: importing it on every verify was
 * the largest single cost of an ingest request (a tenth of its CPU time).
 */
function hmacKey(secret: string): Promise<CryptoKey> {
  let key = importedKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    importedKeys.set(secret, key);
  }
  return key;
}

function keyFor(secrets: readonly TokenSecret[], header: JWSHeaderParameters): Promise<CryptoKey> {
  const match = typeof header.kid === "string" ? secrets.find((entry) => entry.kid === header.kid) : undefined;
  if (!match) throw new TokenError("invalid", `unknown kid ${JSON.stringify(header.kid ?? null)}`);
  return hmacKey(match.secret);
}

function toTokenError(error: unknown): unknown {
  if (isAppError(error)) return error;
  // jose's errors by their documented codes, like every error here (lib/error-code.ts).
  const { code, message, claim } = (error ?? {}) as { code?: unknown; message?: string; claim?: string };
  if (code === "ERR_JWT_EXPIRED") return new TokenError("expired", `${claim}: ${message}`, error);
  if (typeof code === "string" && /^ERR_(JOSE|JWS|JWT|JWK|JWE)/.test(code)) return new TokenError("invalid", `${code}: ${message}`, error);
  return error;
}

/**
 * Verifies a `kind` token and parses its claims with `claimsSchema`; throws TokenError otherwise.
 * Checked: HS256 only, a known kid, typ, aud, iat and exp present, exp and nbf with the clock
 * tolerance, iat not in the future, exp - iat at most the kind's maximum, claim types.
 */
export async function verifyToken<Claims>(
  kind: TokenKind,
  token: string,
  claimsSchema: z.ZodType<Claims>,
  options: TokenOptions = {},
): Promise<{ claims: Claims; expiresAt: Date }> {
  if (typeof token !== "string" || token.length > maxTokenLength) throw new TokenError("invalid", "not a compact JWT of a sane size");
  const secrets = secretsOrConfig(options);
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, (header) => keyFor(secrets, header), {
      algorithms: [tokenAlgorithm],
      typ: kind.typ,
      audience: kind.audience,
      clockTolerance: clockToleranceSeconds,
      requiredClaims: ["iat", "exp"],
      // Also refuses an iat in the future, which would otherwise stretch the lifetime bound.
      maxTokenAge: kind.maxLifetimeSeconds,
      currentDate: options.now,
    }));
  } catch (error) {
    throw toTokenError(error);
  }
  const { iat, exp } = payload as { iat: number; exp: number };
  const lifetime = exp - iat;
  if (lifetime <= 0 || lifetime > kind.maxLifetimeSeconds) {
    throw new TokenError("invalid", `lifetime exp - iat = ${lifetime}s is outside 1..${kind.maxLifetimeSeconds}s`);
  }
  const parsed = claimsSchema.safeParse(payload);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
    throw new TokenError("invalid", `claims: ${issues}`);
  }
  return { claims: parsed.data, expiresAt: new Date(exp * 1000) };
}
