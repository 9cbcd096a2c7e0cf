import { eq } from "drizzle-orm";
import UAParser from "ua-parser-js";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { listLiveConsoleSessions, revokeOtherConsoleSessions, revokeOwnConsoleSession } from "@/lib/auth/console-sessions";
import { assertAcceptablePassword } from "@/lib/auth/password-policy";
import { dummyPasswordHash } from "@/lib/auth/sign-in";
import { forgiveSignInAttempt, spendSignInAttempt } from "@/lib/auth/sign-in-throttle";
import { hashPassword, verifyPassword } from "@/lib/auth/secrets";
import { users } from "@/lib/db/schema";
import { audited } from "@/lib/services/verbs";
import { closeOpenPasswordResets } from "./open-password-resets";
import { consoleAccountVerb } from "@/lib/services/account-verbs";

// The account page's verbs (/account): the caller's name, password and console sessions. Only a
// console session may call them (consoleAccountVerb). Like the caller's tokens, these changes
// belong to no organization's trail: the user's own rows keep when they happened.

/** Sets the caller's display name (null clears it). */
export const updateOwnProfile = consoleAccountVerb(async ({ actor, write }, input: { name: string | null }) =>
  write(async (tx) => {
    const [user] = await tx.update(users).set({ name: input.name }).where(eq(users.id, actor.userId)).returning({ id: users.id, email: users.email, name: users.name });
    if (!user) throw new NotFoundError("Your account was not found.");
    return audited(user, []);
  }),
);

/**
 * Changes the caller's password. The current one is checked against the sign-in limits (a stolen
 * session cannot guess it faster than the sign-in form could), the new one against the password
 * policy; every other console session of the user ends with the change, this one stays.
 */
export const changeOwnPassword = consoleAccountVerb(
  async ({ db, actor, write }, input: { currentPassword: string; newPassword: string; address: string }) => {
    const attempt = { email: actor.email.toLowerCase(), address: input.address };
    await spendSignInAttempt(db, attempt);
    const [user] = await db.select({ email: users.email, name: users.name, passwordHash: users.passwordHash }).from(users).where(eq(users.id, actor.userId));
    if (!user) throw new NotFoundError("Your account was not found.");
    const matches = await verifyPassword(input.currentPassword, user.passwordHash ?? dummyPasswordHash);
    if (!user.passwordHash) {
      throw new ValidationError([{ path: "currentPassword", message: "your account has no password yet: sign out and use “Forgot password?” to set one" }]);
    }
    if (!matches) throw new ValidationError([{ path: "currentPassword", message: "is not your current password" }]);
    await forgiveSignInAttempt(db, attempt);
    if (input.newPassword === input.currentPassword) throw new ValidationError([{ path: "newPassword", message: "must differ from the current password" }]);
    await assertAcceptablePassword(input.newPassword, [user.email, user.name], "newPassword");
    const passwordHash = await hashPassword(input.newPassword);
    return write(async (tx) => {
      await tx.update(users).set({ passwordHash }).where(eq(users.id, actor.userId));
      await closeOpenPasswordResets(tx, actor.userId);
      const endedSessions = await revokeOtherConsoleSessions(tx, actor.userId, actor.sessionId ?? null);
      return audited({ endedSessions }, []);
    });
  },
);

/** "Chrome 131 on Linux" from a User-Agent; null when it says nothing recognizable. */
function describeBrowser(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const { browser, os } = new UAParser(userAgent).getResult();
  const name = [browser.name, browser.major].filter(Boolean).join(" ");
  const system = [os.name, os.version].filter(Boolean).join(" ");
  return name ? (system ? `${name} on ${system}` : name) : null;
}

/** The caller's console sessions that are still signed in, newest first; `current` marks the one calling. */
export const listOwnSessions = consoleAccountVerb(async ({ db, actor }) => {
  const rows = await listLiveConsoleSessions(db, actor.userId);
  return rows.map((row) => ({ id: row.id, createdAt: row.createdAt, browser: describeBrowser(row.userAgent), current: row.id === actor.sessionId }));
});

/** Signs one of the caller's sessions out (404 for another user's or one already ended). */
export const endOwnSession = consoleAccountVerb(async ({ actor, write }, input: { sessionId: string }) =>
  write(async (tx) => {
    if (!(await revokeOwnConsoleSession(tx, actor.userId, input.sessionId))) throw new NotFoundError("No such signed-in session of yours.");
    return audited({ endedSessions: 1 }, []);
  }),
);

/** Signs every session of the caller out but the one calling. */
export const endOtherSessions = consoleAccountVerb(async ({ actor, write }) =>
  write(async (tx) => audited({ endedSessions: await revokeOtherConsoleSessions(tx, actor.userId, actor.sessionId ?? null) }, [])),
);
