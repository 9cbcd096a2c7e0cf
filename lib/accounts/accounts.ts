import { asc, eq, inArray, or, sql } from "drizzle-orm";
import { NotFoundError } from "@/lib/errors";
import { highestRole } from "@/lib/auth/permissions";
import type { Db } from "@/lib/db";
import { memberships, organizations, projects, users } from "@/lib/db/schema";

// Reads about accounts for sign-in, the CLI and the console's shell. The operator's changes are
// in operator.ts; an organization's members and projects in organizations.ts.

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
