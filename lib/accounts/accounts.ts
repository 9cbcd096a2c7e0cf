import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import { NotFoundError } from "@/lib/errors";
import { parseInput } from "@/lib/validation/parse-input";
import { revokeUserConsoleSessions } from "@/lib/auth/console-sessions";
import { highestRole } from "@/lib/auth/permissions";
import { generatePersonalAccessToken, hashPassword, sha256Hex } from "@/lib/auth/secrets";
import { tokenScopes } from "@/lib/auth/token-scopes";
import { requireAnotherAdmin } from "./last-admin";
import type { Db } from "@/lib/db";
import { memberships, organizations, personalAccessTokens, projects, users } from "@/lib/db/schema";
import {
  addMemberInput,
  createOrganizationInput,
  createProjectInput,
  createTokenInput,
  createUserInput,
  disableUserInput,
  setPasswordInput,
} from "./contract";

// Verbs behind the CLI and the bootstrap: organizations, projects, users, memberships, tokens.

export async function createOrganization(db: Db, input: unknown) {
  const { name } = parseInput(createOrganizationInput, input);
  const [org] = await db.insert(organizations).values({ name }).returning();
  return org!;
}

export async function createProject(db: Db, input: unknown) {
  const { organizationId, name } = parseInput(createProjectInput, input);
  const [org] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, organizationId));
  if (!org) throw new NotFoundError(`Organization ${organizationId} was not found.`);
  const [project] = await db.insert(projects).values({ organizationId, name }).returning();
  return project!;
}

export async function createUser(db: Db, input: unknown) {
  const { email, name, password } = parseInput(createUserInput, input);
  const passwordHash = password ? await hashPassword(password) : null;
  const [user] = await db.insert(users).values({ email, name: name ?? null, passwordHash }).returning();
  return { id: user!.id, email: user!.email, name: user!.name, createdAt: user!.createdAt };
}

export async function findUserByEmail(db: Db, email: string) {
  const [user] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return user ?? null;
}

/** Resolves a CLI user reference: a user id or an email. */
export async function resolveUserId(db: Db, reference: string): Promise<string> {
  const isId = /^[0-9a-f-]{36}$/i.test(reference);
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(isId ? eq(users.id, reference) : sql`lower(${users.email}) = ${reference.toLowerCase()}`);
  if (!user) throw new NotFoundError(`User ${reference} was not found.`);
  return user.id;
}

/** Adds a membership, or changes the role of the existing one on the same scope. */
export async function addMember(db: Db, input: unknown) {
  const member = parseInput(addMemberInput, input);
  if (member.organizationId) {
    const [org] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, member.organizationId));
    if (!org) throw new NotFoundError(`Organization ${member.organizationId} was not found.`);
  }
  if (member.projectId) {
    const [project] = await db.select({ id: projects.id }).from(projects).where(eq(projects.id, member.projectId));
    if (!project) throw new NotFoundError(`Project ${member.projectId} was not found.`);
  }
  const scopeColumn = member.organizationId ? memberships.organizationId : memberships.projectId;
  const scopeWhere = member.organizationId
    ? sql`${memberships.organizationId} is not null`
    : sql`${memberships.projectId} is not null`;
  return db.transaction(async (tx) => {
    // A new role for the organization's last admin would leave it without one, as in the API.
    const existing = await findMembership(tx, member);
    if (existing && existing.role !== member.role) await requireAnotherAdmin(tx, existing.organizationId, existing, "change their role");
    const [row] = await tx
      .insert(memberships)
      .values({
        userId: member.userId,
        organizationId: member.organizationId ?? null,
        projectId: member.projectId ?? null,
        role: member.role,
      })
      .onConflictDoUpdate({ target: [memberships.userId, scopeColumn], targetWhere: scopeWhere, set: { role: member.role } })
      .returning();
    return row!;
  });
}

/**
 * Disables the user: sign-in is refused, their console sessions end at once and their tokens stop
 * authenticating. Idempotent (the first disabledAt is kept).
 */
export async function disableUser(db: Db, input: unknown) {
  const { userId } = parseInput(disableUserInput, input);
  return db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ disabledAt: sql`coalesce(${users.disabledAt}, now())` })
      .where(eq(users.id, userId))
      .returning({ id: users.id, email: users.email, disabledAt: users.disabledAt });
    if (!user) throw new NotFoundError(`User ${userId} was not found.`);
    await revokeUserConsoleSessions(tx, userId);
    return user;
  });
}

/** Sets a new sign-in password; every console session of the user ends in the same transaction. */
export async function setUserPassword(db: Db, input: unknown) {
  const { userId, password } = parseInput(setPasswordInput, input);
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [user] = await tx.update(users).set({ passwordHash }).where(eq(users.id, userId)).returning({ id: users.id, email: users.email });
    if (!user) throw new NotFoundError(`User ${userId} was not found.`);
    await revokeUserConsoleSessions(tx, userId);
    return user;
  });
}

/**
 * The user's membership on an organization or a project, with the organization it belongs to
 * and the user's email; null when there is none.
 */
async function findMembership(tx: Db, member: { userId: string; organizationId?: string; projectId?: string }) {
  const scope = member.organizationId ? eq(memberships.organizationId, member.organizationId) : eq(memberships.projectId, member.projectId!);
  const [row] = await tx
    .select({
      id: memberships.id,
      role: memberships.role,
      projectId: memberships.projectId,
      organizationId: sql<string>`coalesce(${memberships.organizationId}, ${projects.organizationId})`,
      email: users.email,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(projects, eq(projects.id, memberships.projectId))
    .where(and(eq(memberships.userId, member.userId), scope));
  return row ?? null;
}

/**
 * Creates a personal access token (every scope unless `scopes` says otherwise; `parentTokenId`:
 * the token it is created with). The plain token is returned once, only its SHA-256 is stored.
 */
export async function createPersonalAccessToken(db: Db, input: unknown) {
  const { userId, name, scopes = tokenScopes, parentTokenId } = parseInput(createTokenInput, input);
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!user) throw new NotFoundError(`User ${userId} was not found.`);
  const token = generatePersonalAccessToken();
  const [row] = await db
    .insert(personalAccessTokens)
    .values({ userId, name: name ?? null, tokenHash: sha256Hex(token), scopes: [...scopes], parentTokenId: parentTokenId ?? null })
    .returning({ id: personalAccessTokens.id, createdAt: personalAccessTokens.createdAt, scopes: personalAccessTokens.scopes, parentTokenId: personalAccessTokens.parentTokenId });
  return { id: row!.id, token, name: name ?? null, scopes: row!.scopes, parentTokenId: row!.parentTokenId, createdAt: row!.createdAt };
}

export async function getOrganizationName(db: Db, organizationId: string): Promise<string> {
  const [org] = await db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, organizationId));
  if (!org) throw new NotFoundError(`Organization ${organizationId} was not found.`);
  return org.name;
}

/** Emails of the given users, by id (for "disabled by …" lines; callers decide who may see them). */
export async function userEmails(db: Db, userIds: (string | null)[]): Promise<Record<string, string>> {
  const ids = [...new Set(userIds.filter((id): id is string => id !== null))];
  if (ids.length === 0) return {};
  const rows = await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, ids));
  return Object.fromEntries(rows.map((row) => [row.id, row.email]));
}

/** Projects the user can open, with the effective role on each (org membership covers all its projects). */
export async function listProjectsForUser(db: Db, userId: string) {
  const userMemberships = await db.select().from(memberships).where(eq(memberships.userId, userId));
  const orgIds = userMemberships.flatMap((m) => (m.organizationId ? [m.organizationId] : []));
  const projectIds = userMemberships.flatMap((m) => (m.projectId ? [m.projectId] : []));
  if (orgIds.length === 0 && projectIds.length === 0) return [];
  const rows = await db
    .select({ project: projects, organizationName: organizations.name })
    .from(projects)
    .innerJoin(organizations, eq(organizations.id, projects.organizationId))
    .where(
      or(
        orgIds.length ? inArray(projects.organizationId, orgIds) : undefined,
        projectIds.length ? inArray(projects.id, projectIds) : undefined,
      ),
    )
    .orderBy(asc(organizations.name), asc(projects.name));
  return rows.flatMap(({ project, organizationName }) => {
    const role = highestRole(
      userMemberships
        .filter((m) => m.organizationId === project.organizationId || m.projectId === project.id)
        .map((m) => m.role),
    );
    return role ? [{ id: project.id, name: project.name, organizationId: project.organizationId, organizationName, role }] : [];
  });
}
