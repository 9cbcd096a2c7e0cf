import { and, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import QRCode from "qrcode";
import { verifyPassword } from "@/lib/auth/secrets";
import { forgiveTwoFactorAttempts, spendTwoFactorAttempt } from "@/lib/auth/two-factor-throttle";
import { generateRecoveryCodes, generateTotpSecret, hashRecoveryCode, looksLikeRecoveryCode, matchTotpStep, totpUri } from "@/lib/auth/totp";
import type { Db } from "@/lib/db";
import { memberships, organizations, projects, twoFactorRecoveryCodes, userTwoFactor, users } from "@/lib/db/schema";
import { ConflictError, ForbiddenError, ValidationError } from "@/lib/errors";
import { accountVerb } from "@/lib/services/account-verbs";
import { audited as auditedOrganization, organizationVerb } from "@/lib/services/organization-verbs";
import { audited } from "@/lib/services/verbs";
import { openSecret, sealSecret, sealedKid } from "@/lib/webhooks/secret-box";
import { getConfig } from "@/lib/config";

// Two-factor sign-in with TOTP (docs/adr/0156-two-factor-totp.md): enrolment on the user's own
// account, the second step of a password sign-in, and the organization setting that requires it
// (docs/adr/0157-organizations-require-two-factor.md).

/** What a sealed secret is bound to: a user's secret cannot be swapped into another user's row. */
const sealContext = (userId: string) => `two-factor ${userId}`;

/** Enrolment and turning it off are the console's: a token that leaked must not replace the second factor. */
function requireConsoleSession(actor: { via: "token" | "session" }): void {
  if (actor.via !== "session") throw new ForbiddenError("Two-factor authentication is set up in the console (/account/security), not with a token.");
}

/** The caller's two-factor state, and the organizations that require it of them. */
export async function describeTwoFactor(db: Db, userId: string) {
  const [row] = await db.select({ enabledAt: userTwoFactor.enabledAt }).from(userTwoFactor).where(eq(userTwoFactor.userId, userId));
  const [{ left } = { left: 0 }] = await db
    .select({ left: sql<number>`count(*)::int` })
    .from(twoFactorRecoveryCodes)
    .where(and(eq(twoFactorRecoveryCodes.userId, userId), isNull(twoFactorRecoveryCodes.usedAt)));
  return {
    enabled: Boolean(row?.enabledAt),
    enabledAt: row?.enabledAt ?? null,
    recoveryCodesLeft: row?.enabledAt ? left : 0,
    requiredBy: await organizationsRequiringTwoFactor(db, userId),
  };
}

/** The caller's own two-factor state (GET /api/me/two-factor). */
export const describeOwnTwoFactor = accountVerb("account.read", ({ db, actor }) => describeTwoFactor(db, actor.userId));

/** The organizations requiring two-factor that the user belongs to, at the organization or at one of its projects. */
async function organizationsRequiringTwoFactor(db: Db, userId: string): Promise<{ id: string; name: string }[]> {
  const rows = await db
    .selectDistinct({ id: organizations.id, name: organizations.name })
    .from(memberships)
    .leftJoin(projects, eq(projects.id, memberships.projectId))
    .innerJoin(organizations, or(eq(organizations.id, memberships.organizationId), eq(organizations.id, projects.organizationId)))
    .where(and(eq(memberships.userId, userId), eq(organizations.requireTwoFactor, true)));
  return rows.sort((a, b) => a.name.localeCompare(b.name));
}

/** Whether sign-in must ask this user for a second factor. */
export async function hasTwoFactor(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ userId: userTwoFactor.userId }).from(userTwoFactor).where(and(eq(userTwoFactor.userId, userId), isNotNull(userTwoFactor.enabledAt)));
  return Boolean(row);
}

/** The QR code of an otpauth:// URI, drawn on the server as an SVG data URL (no script needed to show it). */
async function qrCodeOf(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: "svg", margin: 4, errorCorrectionLevel: "M" });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}

/**
 * Starts (or starts over) an enrolment: a new secret, pending until a code confirms it. 409 once
 * two-factor is on: turn it off first, so a stolen session cannot quietly move it to another phone.
 */
export const startTwoFactorEnrolment = accountVerb("two-factor.write", async ({ actor, write }) => {
  requireConsoleSession(actor);
  const secret = generateTotpSecret();
  await write(async (tx) => {
    const [existing] = await tx.select({ enabledAt: userTwoFactor.enabledAt }).from(userTwoFactor).where(eq(userTwoFactor.userId, actor.userId)).for("update");
    if (existing?.enabledAt) throw new ConflictError("Two-factor authentication is already on. Turn it off first to move it to another authenticator.");
    const sealed = sealSecret(secret, sealContext(actor.userId));
    await tx
      .insert(userTwoFactor)
      .values({ userId: actor.userId, secretSealed: sealed })
      .onConflictDoUpdate({ target: userTwoFactor.userId, set: { secretSealed: sealed, createdAt: new Date(), lastUsedStep: null } });
    return audited(null, []);
  });
  const uri = totpUri(secret, actor.email);
  return { secret, otpauthUri: uri, qrCode: await qrCodeOf(uri) };
});

const wrongCode = () => new ValidationError([{ path: "code", message: "is not the current code of your authenticator app" }], "The code is not right: type the 6 digits your authenticator app shows now.");

/**
 * Confirms a pending enrolment with a code from the app: two-factor is on from now, and the 10
 * recovery codes are returned (only here; stored as hashes).
 */
export const confirmTwoFactorEnrolment = accountVerb("two-factor.write", async ({ actor, db, write }, { code, now = new Date() }: { code: string; now?: Date }) => {
  requireConsoleSession(actor);
  await spendTwoFactorAttempt(db, actor.userId);
  const recoveryCodes = generateRecoveryCodes();
  await write(async (tx) => {
    const [row] = await tx.select().from(userTwoFactor).where(eq(userTwoFactor.userId, actor.userId)).for("update");
    if (!row) throw new ConflictError("There is no enrolment to confirm: start one first.");
    if (row.enabledAt) throw new ConflictError("Two-factor authentication is already on.");
    const step = matchTotpStep(openSecret(row.secretSealed, sealContext(actor.userId)), code, now, null);
    if (step === null) throw wrongCode();
    await tx.update(userTwoFactor).set({ enabledAt: now, lastUsedStep: step }).where(eq(userTwoFactor.userId, actor.userId));
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, actor.userId));
    await tx.insert(twoFactorRecoveryCodes).values(recoveryCodes.map((recovery) => ({ userId: actor.userId, codeHash: hashRecoveryCode(recovery) })));
    return audited(null, []);
  });
  await forgiveTwoFactorAttempts(db, actor.userId);
  return { enabled: true as const, recoveryCodes };
});

/**
 * Turns two-factor off; needs a current code (or a recovery code) or the password, so a session
 * left open is not enough. Attempts count against the user's code limit.
 */
export const disableTwoFactor = accountVerb("two-factor.write", async ({ actor, db, write }, input: { code?: string; password?: string; now?: Date }) => {
  requireConsoleSession(actor);
  if (!(await hasTwoFactor(db, actor.userId))) throw new ConflictError("Two-factor authentication is not on.");
  await spendTwoFactorAttempt(db, actor.userId);
  const proven = input.code ? await verifySecondFactor(db, actor.userId, input.code, input.now) : await passwordMatches(db, actor.userId, input.password ?? "");
  if (!proven) {
    throw new ValidationError(
      [{ path: input.code ? "code" : "password", message: input.code ? "is not a current or recovery code" : "is not your password" }],
      input.code ? "The code is not right." : "The password is not right.",
    );
  }
  await forgiveTwoFactorAttempts(db, actor.userId);
  await write(async (tx) => {
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, actor.userId));
    await tx.delete(userTwoFactor).where(eq(userTwoFactor.userId, actor.userId));
    return audited(null, []);
  });
  return { enabled: false as const };
});

async function passwordMatches(db: Db, userId: string, password: string): Promise<boolean> {
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  return Boolean(row?.passwordHash && password && (await verifyPassword(password, row.passwordHash)));
}

/**
 * Checks a second factor of an enrolled user: a TOTP code of a step newer than the last one used
 * (the step is recorded in the same statement, so two requests cannot both spend one code), or an
 * unused recovery code (spent by the statement that finds it). Re-seals the secret under the first
 * TOKEN_SECRETS key when it was sealed under an older one.
 */
export async function verifySecondFactor(db: Db, userId: string, code: string, now = new Date()): Promise<boolean> {
  const [row] = await db.select().from(userTwoFactor).where(and(eq(userTwoFactor.userId, userId), isNotNull(userTwoFactor.enabledAt)));
  if (!row) return false;
  if (looksLikeRecoveryCode(code)) {
    const spent = await db
      .update(twoFactorRecoveryCodes)
      .set({ usedAt: now })
      .where(and(eq(twoFactorRecoveryCodes.userId, userId), eq(twoFactorRecoveryCodes.codeHash, hashRecoveryCode(code)), isNull(twoFactorRecoveryCodes.usedAt)))
      .returning({ id: twoFactorRecoveryCodes.id });
    return spent.length > 0;
  }
  const secret = openSecret(row.secretSealed, sealContext(userId));
  const step = matchTotpStep(secret, code, now, row.lastUsedStep);
  if (step === null) return false;
  const newestKid = getConfig().tokenSecrets[0]!.kid;
  const accepted = await db
    .update(userTwoFactor)
    .set({ lastUsedStep: step, ...(sealedKid(row.secretSealed) === newestKid ? {} : { secretSealed: sealSecret(secret, sealContext(userId)) }) })
    .where(and(eq(userTwoFactor.userId, userId), or(isNull(userTwoFactor.lastUsedStep), lt(userTwoFactor.lastUsedStep, step))))
    .returning({ userId: userTwoFactor.userId });
  return accepted.length > 0;
}

/** The organization's setting, for its page. */
export async function organizationRequiresTwoFactor(db: Db, organizationId: string): Promise<boolean> {
  const [row] = await db.select({ required: organizations.requireTwoFactor }).from(organizations).where(eq(organizations.id, organizationId));
  return row?.required ?? false;
}

/** Requires two-factor of the organization's members (or stops requiring it); audited when it changes. */
export const setOrganizationTwoFactorRequirement = organizationVerb(
  "organization.require-two-factor",
  async ({ access, write }, { required }: { required: boolean }) =>
    write(async (tx) => {
      const [before] = await tx.select({ required: organizations.requireTwoFactor }).from(organizations).where(eq(organizations.id, access.organization.id)).for("update");
      if (before?.required === required) return auditedOrganization({ required }, []);
      await tx.update(organizations).set({ requireTwoFactor: required }).where(eq(organizations.id, access.organization.id));
      return auditedOrganization({ required }, {
        action: required ? "organization.two_factor_required" : "organization.two_factor_not_required",
        targetType: "organization",
        targetId: access.organization.id,
        data: { required },
      });
    }),
);
