import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Uniformly random base62 string (randomInt is unbiased). */
export function randomBase62(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += base62[randomInt(62)];
  return out;
}

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/** A management-API token: rbk_ + 192 random bits. */
export function generatePersonalAccessToken(): string {
  return `rbk_${randomBytes(24).toString("base64url")}`;
}

/** A membership invitation's accept token: rbi_ + 256 random bits (the accept URL's last segment). */
export function generateInvitationToken(): string {
  return `rbi_${randomBytes(32).toString("base64url")}`;
}

/** A password-reset link's token: rbr_ + 256 random bits (the link's last segment). */
export function generatePasswordResetToken(): string {
  return `rbr_${randomBytes(32).toString("base64url")}`;
}

/** A generated sign-in password: 96 random bits, base64url. */
export function generatePassword(): string {
  return randomBytes(12).toString("base64url");
}

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;
const scryptParams = { N: 16384, r: 8, p: 1 };
const keyLength = 32;

/** scrypt needs 128·N·r bytes; allow twice that so raised parameters keep working. */
const scryptOptions = (N: number, r: number, p: number) => ({ N, r, p, maxmem: 256 * N * r });

/** scrypt$N$r$p$salt$hash, all base64url; the parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = scryptParams;
  const hash = await scryptAsync(password, salt, keyLength, scryptOptions(N, r, p));
  return ["scrypt", N, r, p, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

function isPowerOfTwo(n: number): boolean {
  return Number.isSafeInteger(n) && n > 1 && (n & (n - 1)) === 0;
}

/** False for a wrong password and for any malformed or tampered stored hash; never throws. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash, ...rest] = stored.split("$");
  const [N, R, P] = [Number(n), Number(r), Number(p)];
  if (scheme !== "scrypt" || rest.length > 0 || !salt || !hash) return false;
  if (!isPowerOfTwo(N) || N > 2 ** 20 || !Number.isSafeInteger(R) || R < 1 || R > 32 || !Number.isSafeInteger(P) || P < 1 || P > 16) {
    return false;
  }
  const expected = Buffer.from(hash, "base64url");
  if (expected.length !== keyLength) return false;
  try {
    const actual = await scryptAsync(password, Buffer.from(salt, "base64url"), keyLength, scryptOptions(N, R, P));
    return timingSafeEqual(actual, expected);
  } catch {
    return false;
  }
}

/** Constant-time comparison of two strings of any length. */
export function safeEqual(a: string, b: string): boolean {
  const left = createHash("sha256").update(a).digest();
  const right = createHash("sha256").update(b).digest();
  return timingSafeEqual(left, right);
}
