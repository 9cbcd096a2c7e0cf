import { eq, sql } from "drizzle-orm";
import { NotFoundError } from "@/lib/errors";
import { parseInput } from "@/lib/validation/parse-input";
import { revokeUserConsoleSessions } from "@/lib/auth/console-sessions";
import { assertAcceptablePassword } from "@/lib/auth/password-policy";
import { hashPassword } from "@/lib/auth/secrets";
import { tokenScopes } from "@/lib/auth/token-scopes";
import type { Db } from "@/lib/db";
import { memberships, organizations, projects, twoFactorRecoveryCodes, userTwoFactor, users } from "@/lib/db/schema";
import { audited, operatorVerb, type TrailChange } from "@/lib/services/operator-verbs";
import { closeOpenPasswordResets } from "./open-password-resets";
import { insertPersonalAccessToken } from "./personal-access-tokens";
import { createOrganizationInput, createTokenInput, createUserInput, disableUserInput, setPasswordInput } from "./contract";
import type { z } from "zod";

// The operator's verbs (the CLI, the bootstrap, the test factories): accounts before any
// organization has them, and changes to a user on the operator's word. Each takes the operator's
// context (lib/services/operator-verbs.ts) and its input as the command line gives it, checked
// against its contract here. Memberships and projects go through the organization verbs
// (lib/accounts/organizations.ts) with the operator's access, as the API's do.

/** A new organization; its trail starts with organization.created. */
export const createOrganization = operatorVerb(async ({ write }, input: z.input<typeof createOrganizationInput>) => {
  const { name } = parseInput(createOrganizationInput, input);
  return write(async (tx) => {
    const [org] = await tx.insert(organizations).values({ name }).returning();
    return audited(org!, { organizationId: org!.id, action: "organization.created", targetType: "organization", targetId: org!.id, data: { name } });
  });
});

/** A new user (with a sign-in password when given). It belongs to no organization yet, so no trail records it; its row keeps when it was made. */
export const createUser = operatorVerb(async ({ write }, input: z.input<typeof createUserInput>) => {
  const { email, name, password } = parseInput(createUserInput, input);
  if (password) await assertAcceptablePassword(password, [email, name]);
  const passwordHash = password ? await hashPassword(password) : null;
  return write(async (tx) => {
    const [user] = await tx.insert(users).values({ email, name: name ?? null, passwordHash }).returning();
    return audited({ id: user!.id, email: user!.email, name: user!.name, createdAt: user!.createdAt }, []);
  });
});

/** One trail row per organization the user belongs to (on it, or on one of its projects); also for a reset by mail (password-resets.ts). */
export async function userChanges(tx: Db, user: { id: string; email: string }, change: Omit<TrailChange, "organizationId" | "targetType" | "targetId">): Promise<TrailChange[]> {
  const rows = await tx
    .selectDistinct({ organizationId: sql<string>`coalesce(${memberships.organizationId}, ${projects.organizationId})` })
    .from(memberships)
    .leftJoin(projects, eq(projects.id, memberships.projectId))
    .where(eq(memberships.userId, user.id));
  return rows.map(({ organizationId }) => ({ organizationId, targetType: "user", targetId: user.id, ...change, data: { email: user.email, ...change.data } }));
}

/**
 * Disables the user: sign-in is refused, their console sessions end at once and their tokens stop
 * authenticating. Idempotent (the first disabledAt is kept; a second call records nothing).
 */
export const disableUser = operatorVerb(async ({ write }, input: z.input<typeof disableUserInput>) => {
  const { userId } = parseInput(disableUserInput, input);
  return write(async (tx) => {
    const [before] = await tx.select({ disabledAt: users.disabledAt }).from(users).where(eq(users.id, userId)).for("update");
    if (!before) throw new NotFoundError(`User ${userId} was not found.`);
    const [user] = await tx
      .update(users)
      .set({ disabledAt: sql`coalesce(${users.disabledAt}, now())` })
      .where(eq(users.id, userId))
      .returning({ id: users.id, email: users.email, disabledAt: users.disabledAt });
    await revokeUserConsoleSessions(tx, userId);
    return audited(user!, before.disabledAt ? [] : await userChanges(tx, user!, { action: "user.disabled" }));
  });
});

/**
 * Sets a new sign-in password; every console session of the user ends in the same transaction,
 * and so does every open password-reset link (it was asked for the password replaced here).
 */
export const setUserPassword = operatorVerb(async ({ write }, input: z.input<typeof setPasswordInput>) => {
  const { userId, password } = parseInput(setPasswordInput, input);
  await assertAcceptablePassword(password);
  const passwordHash = await hashPassword(password);
  return write(async (tx) => {
    const [user] = await tx.update(users).set({ passwordHash }).where(eq(users.id, userId)).returning({ id: users.id, email: users.email });
    if (!user) throw new NotFoundError(`User ${userId} was not found.`);
    await revokeUserConsoleSessions(tx, userId);
    await closeOpenPasswordResets(tx, userId);
    return audited(user, await userChanges(tx, user, { action: "user.password_set" }));
  });
});

/**
 * Turns off a user's two-factor authentication (a lost phone and lost recovery codes): the secret
 * and the recovery codes are deleted and the user's console sessions end. Audited only when it was on.
 */
export const resetUserTwoFactor = operatorVerb(async ({ write }, input: z.input<typeof disableUserInput>) => {
  const { userId } = parseInput(disableUserInput, input);
  return write(async (tx) => {
    const [user] = await tx.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId));
    if (!user) throw new NotFoundError(`User ${userId} was not found.`);
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
    const removed = await tx.delete(userTwoFactor).where(eq(userTwoFactor.userId, userId)).returning({ userId: userTwoFactor.userId });
    await revokeUserConsoleSessions(tx, userId);
    return audited({ ...user, twoFactor: false }, removed.length > 0 ? await userChanges(tx, user, { action: "user.two_factor_reset" }) : []);
  });
});

/**
 * Makes a personal access token for the user (every scope unless `scopes` says otherwise). The
 * plain token is returned once, only its SHA-256 is stored. A token the operator made for someone
 * is in the trail of each of their organizations (one a user makes for themselves is not: it is
 * theirs, lib/accounts/personal-access-tokens.ts).
 */
export const createPersonalAccessToken = operatorVerb(async ({ write }, input: z.input<typeof createTokenInput>) => {
  const { userId, name, scopes = tokenScopes } = parseInput(createTokenInput, input);
  return write(async (tx) => {
    const [user] = await tx.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId));
    if (!user) throw new NotFoundError(`User ${userId} was not found.`);
    const created = await insertPersonalAccessToken(tx, { userId, name: name ?? null, scopes, parentTokenId: null });
    return audited(created, await userChanges(tx, user, { action: "user.token_created", data: { tokenId: created.id, name: created.name, scopes: created.scopes } }));
  });
});
