import { and, eq, isNull, sql } from "drizzle-orm";
import { spendActionLimits } from "@/lib/auth/action-limits";
import { revokeUserConsoleSessions } from "@/lib/auth/console-sessions";
import { assertAcceptablePassword } from "@/lib/auth/password-policy";
import { generatePasswordResetToken, hashPassword, sha256Hex } from "@/lib/auth/secrets";
import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db";
import { passwordResets, users } from "@/lib/db/schema";
import { GoneError, NotFoundError } from "@/lib/errors";
import { linkMessage, logUndeliveredLink, mailConfigured, sendMail } from "@/lib/mail";
import { audited, trailWriter } from "@/lib/services/operator-verbs";
import { userChanges } from "./operator";
import { closeOpenPasswordResets } from "./open-password-resets";

// Password reset by mail (docs/adr/0155-password-reset-by-mail.md). Anyone may ask for a link
// for any address: the answer is the same whether it has an account or not, and so is the work
// before it (the token is made and hashed, the user looked up; the mail goes out after the
// answer), so neither the answer nor its time tells whether the address is known. Requests are
// limited per address asked for and per client address. The link works once, for
// PASSWORD_RESET_TTL (30 minutes); using it sets the password and ends every console session of
// the user. Without mail the link goes to the server log only: the requester is not shown it.

/** What every request is answered, known address or not. */
export function passwordResetAnswer(): { message: string } {
  return mailConfigured()
    ? { message: "If an account has this address, a link to choose a new password is on its way. It works once, for a limited time." }
    : { message: "This instance does not send mail: ask an administrator of your organization to reset your password." };
}

const resetUrlOf = (token: string) => `${getConfig().publicBaseUrl}/reset-password/${token}`;

/** Mails the link (or logs it without mail); a failed send is logged, never shown to the requester. */
function deliverReset(email: string, token: string, minutes: number): void {
  const url = resetUrlOf(token);
  if (!mailConfigured()) return logUndeliveredLink("password reset", email, url);
  const message = linkMessage({
    to: email,
    subject: "Choose a new Reelbind password",
    paragraphs: ["Someone (we hope you) asked to reset the password of your Reelbind account.", "Open the link to choose a new one; every signed-in session of the account then ends."],
    link: url,
    linkLabel: "Choose a new password",
    after: [`The link works once, for ${minutes} minutes. If you did not ask for it, ignore this mail: your password stays as it is.`],
  });
  sendMail(message).catch((error: unknown) => console.error(`Sending the password-reset mail to ${email} failed:`, error instanceof Error ? error.message : error));
}

/**
 * Asks for a reset link for `email` from the client `address`: spends one request of each limit
 * (429 past either), then, for an account that is not disabled, stores the link's hash and sends
 * it. The answer is passwordResetAnswer() in every other case.
 */
export async function requestPasswordReset({ db }: { db: Db }, { email, address }: { email: string; address: string }): Promise<{ message: string }> {
  const normalized = email.trim().toLowerCase();
  await spendActionLimits(
    db,
    [
      { limit: "passwordResetAccount", key: sha256Hex(normalized) },
      { limit: "passwordResetAddress", key: address },
    ],
    "Too many password-reset requests. Try again later.",
  );
  // Made and hashed for every request, used only for a known one.
  const token = generatePasswordResetToken();
  const tokenHash = sha256Hex(token);
  const ttlSeconds = getConfig().passwordResetTtlSeconds;
  const user = await db.transaction(async (tx) => {
    const [found] = await tx
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${normalized}`, isNull(users.disabledAt)));
    if (!found) return null;
    await tx.insert(passwordResets).values({ userId: found.id, tokenHash, expiresAt: sql`now() + make_interval(secs => ${ttlSeconds})` });
    return found;
  });
  // After the answer's work: its time does not depend on the mail server.
  if (user) deliverReset(user.email, token, Math.round(ttlSeconds / 60));
  return passwordResetAnswer();
}

/** The account a reset link is for while it works, or null (unknown, used, expired, disabled): what the page shows. */
export async function findOpenPasswordReset(db: Db, token: string): Promise<{ email: string } | null> {
  if (!/^rbr_[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const [row] = await db
    .select({ email: users.email })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(and(eq(passwordResets.tokenHash, sha256Hex(token)), isNull(passwordResets.usedAt), sql`${passwordResets.expiresAt} > now()`, isNull(users.disabledAt)));
  return row ?? null;
}

/**
 * Sets the password a reset link was for: 404 for an unknown token, 410 used, expired or the
 * account disabled. Closes every open link of the user, ends all their console sessions and
 * records user.password_reset in each of their organizations' trails, with the user as actor.
 */
export async function completePasswordReset({ db }: { db: Db }, { token, password }: { token: string; password: string }): Promise<{ email: string }> {
  const passwordHash = await hashPassword(password);
  return trailWriter(db, null)(async (tx) => {
    const [reset] = await tx
      .select({
        id: passwordResets.id,
        userId: passwordResets.userId,
        usedAt: passwordResets.usedAt,
        expired: sql<boolean>`${passwordResets.expiresAt} <= now()`,
        email: users.email,
        name: users.name,
        disabledAt: users.disabledAt,
      })
      .from(passwordResets)
      .innerJoin(users, eq(users.id, passwordResets.userId))
      .where(eq(passwordResets.tokenHash, sha256Hex(token)))
      .for("update", { of: passwordResets });
    if (!reset) throw new NotFoundError("This password-reset link is not valid. Ask for a new one on the sign-in page.");
    if (reset.usedAt) throw new GoneError("This password-reset link has been used already. Ask for a new one on the sign-in page.");
    if (reset.expired) throw new GoneError("This password-reset link has expired. Ask for a new one on the sign-in page.");
    if (reset.disabledAt) throw new GoneError("This account is disabled; its password cannot be reset.");
    await assertAcceptablePassword(password, [reset.email, reset.name]);
    await tx.update(users).set({ passwordHash }).where(eq(users.id, reset.userId));
    await closeOpenPasswordResets(tx, reset.userId);
    await revokeUserConsoleSessions(tx, reset.userId);
    const user = { id: reset.userId, email: reset.email };
    return audited({ email: reset.email }, await userChanges(tx, user, { action: "user.password_reset", actorUserId: reset.userId }));
  });
}

