import { createHmac, hkdfSync } from "node:crypto";
import { eq } from "drizzle-orm";
import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db";
import { users } from "@/lib/db/schema";
import { safeEqual } from "./secrets";
import type { SignedInUser } from "./sign-in";

// The second step of a password sign-in (docs/adr/0156-two-factor-totp.md). A right password of
// a user with two-factor does not sign in; it earns a challenge: the user id and an expiry,
// HMAC-signed under a key derived from NEXTAUTH_SECRET and bound to the password hash (a password
// changed meanwhile voids it). The browser posts it back with the code instead of the password,
// so the password is neither asked for again nor kept in the page.

export const challengeLifetimeSeconds = 5 * 60;

function challengeKey(): Buffer {
  return Buffer.from(hkdfSync("sha256", getConfig().authSecret, "reelbind", "two-factor sign-in challenge v1", 32));
}

const macOf = (payload: string, passwordHash: string) => createHmac("sha256", challengeKey()).update(`${payload}\n${passwordHash}`).digest("base64url");

/** `<base64url({"u":userId,"e":expiresAtSeconds})>.<mac>`, for a user whose password was just checked. */
export async function mintTwoFactorChallenge(db: Db, userId: string, now = new Date()): Promise<string> {
  const [user] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  const payload = Buffer.from(JSON.stringify({ u: userId, e: Math.floor(now.getTime() / 1000) + challengeLifetimeSeconds })).toString("base64url");
  return `${payload}.${macOf(payload, user?.passwordHash ?? "")}`;
}

/** The user a challenge was made for, while it is unexpired, unforged and the user can still sign in; null otherwise. */
export async function userOfTwoFactorChallenge(db: Db, challenge: unknown, now = new Date()): Promise<SignedInUser | null> {
  if (typeof challenge !== "string" || challenge.length > 512) return null;
  const [payload, mac] = challenge.split(".");
  if (!payload || !mac) return null;
  let claims: { u?: unknown; e?: unknown };
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as typeof claims;
  } catch {
    return null;
  }
  if (typeof claims.u !== "string" || !/^[0-9a-f-]{36}$/i.test(claims.u) || typeof claims.e !== "number" || claims.e * 1000 <= now.getTime()) return null;
  const [user] = await db.select().from(users).where(eq(users.id, claims.u));
  if (!user?.passwordHash || user.disabledAt || !safeEqual(mac, macOf(payload, user.passwordHash))) return null;
  return { id: user.id, email: user.email, name: user.name };
}
