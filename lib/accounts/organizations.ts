import { and, asc, eq, or, sql } from "drizzle-orm";
import { NotFoundError } from "@/lib/errors";
import { revokeUserConsoleSessions } from "@/lib/auth/console-sessions";
import { isUuid } from "@/lib/auth/project-access";
import { accountVerb } from "@/lib/services/account-verbs";
import type { Db } from "@/lib/db";
import { memberships, organizations, projects, users, type Role } from "@/lib/db/schema";
import { audited, organizationVerb } from "@/lib/services/organization-verbs";
import { listProjectsForUser } from "./accounts";
import { requireAnotherAdmin } from "./last-admin";

// The organization verbs (lib/services/organization-verbs.ts): projects of an organization and
// its members, for the API, the console and the CLI alike; and who the signed-in user is.
// Organization-level rights come from an organization membership only (docs/design.md, Roles:
// managing projects and members is OrganizationAdmin's). Changes are audited in the organization's
// trail (project_id set when the change is about one project).

import type { OrganizationAccess } from "./organization-access";

export { authorizeOrganization, findOrganizationAccess, requireOrganizationRole, systemOrganizationAccess, type OrganizationAccess } from "./organization-access";

/** GET /api/me: the user, the organizations they belong to (role null: only through a project) and their projects. */
export const describeMe = accountVerb("account.read", async ({ db, actor }) => {
  const projectList = await listProjectsForUser(db, actor.userId);
  const orgRoles = await db
    .select({ id: organizations.id, name: organizations.name, role: memberships.role })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, actor.userId));
  const byId = new Map<string, { id: string; name: string; role: Role | null }>(orgRoles.map((org) => [org.id, org]));
  for (const project of projectList) {
    if (!byId.has(project.organizationId)) byId.set(project.organizationId, { id: project.organizationId, name: project.organizationName, role: null });
  }
  const [user] = await db.select({ name: users.name }).from(users).where(eq(users.id, actor.userId));
  return {
    user: { id: actor.userId, email: actor.email, name: user?.name ?? null },
    organizations: [...byId.values()].sort((a, b) => a.name.localeCompare(b.name)),
    projects: projectList,
  };
});

/** A new project of the organization (the API's POST …/projects and the CLI's `project create`). */
export const createOrganizationProject = organizationVerb("project.manage", async ({ access, write }, { name }: { name: string }) =>
  write(async (tx) => {
    const [project] = await tx.insert(projects).values({ organizationId: access.organization.id, name }).returning();
    return audited(
      { id: project!.id, organizationId: project!.organizationId, name: project!.name, createdAt: project!.createdAt },
      { projectId: project!.id, action: "project.created", targetType: "project", targetId: project!.id, data: { name } },
    );
  }),
);

const memberColumns = {
  id: memberships.id,
  userId: memberships.userId,
  email: users.email,
  name: users.name,
  role: memberships.role,
  projectId: memberships.projectId,
  projectName: projects.name,
  createdAt: memberships.createdAt,
};

type MemberRow = { id: string; userId: string; email: string; name: string | null; role: Role; projectId: string | null; projectName: string | null; createdAt: Date };

const presentMember = (row: MemberRow) => ({ ...row, scope: row.projectId ? ("project" as const) : ("organization" as const) });

/** Memberships on the organization and on each of its projects. */
function organizationMembersWhere(organizationId: string) {
  return or(eq(memberships.organizationId, organizationId), eq(projects.organizationId, organizationId));
}

export const listOrganizationMembers = organizationVerb("member.list", async ({ db, access }) => {
  const rows = await db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(projects, eq(projects.id, memberships.projectId))
    .where(organizationMembersWhere(access.organization.id))
    .orderBy(asc(users.email), asc(projects.name));
  return rows.map(presentMember);
});

async function findMember(tx: Db, access: OrganizationAccess, membershipId: string): Promise<MemberRow> {
  const notFound = new NotFoundError(`Membership ${membershipId} was not found in this organization.`);
  if (!isUuid(membershipId)) throw notFound;
  const [row] = await tx
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(projects, eq(projects.id, memberships.projectId))
    .where(and(eq(memberships.id, membershipId), organizationMembersWhere(access.organization.id)));
  if (!row) throw notFound;
  return row;
}

/** A new role for a membership (never the organization's last OrganizationAdmin's: 409). */
export const changeMemberRole = organizationVerb("member.manage", async ({ access, write }, { membershipId, role }: { membershipId: string; role: Role }) =>
  write(async (tx) => {
    const member = await findMember(tx, access, membershipId);
    if (member.role === role) return audited(presentMember(member), []);
    await requireAnotherAdmin(tx, access.organization.id, member, "change their role");
    await tx.update(memberships).set({ role }).where(eq(memberships.id, membershipId));
    return audited(presentMember({ ...member, role }), {
      projectId: member.projectId,
      action: "member.role_changed",
      targetType: "membership",
      targetId: membershipId,
      data: { email: member.email, from: member.role, to: role },
    });
  }),
);

/**
 * Removes a membership (never the organization's last OrganizationAdmin's: 409); the member's
 * console sessions end too: a page already open must not keep showing what they may no longer see.
 */
export const removeOrganizationMember = organizationVerb("member.manage", async ({ access, write }, membershipId: string) =>
  write(async (tx) => {
    const member = await findMember(tx, access, membershipId);
    await requireAnotherAdmin(tx, access.organization.id, member, "remove them");
    await tx.delete(memberships).where(eq(memberships.id, membershipId));
    await revokeUserConsoleSessions(tx, member.userId);
    return audited(undefined, {
      projectId: member.projectId,
      action: "member.removed",
      targetType: "membership",
      targetId: membershipId,
      data: { email: member.email, role: member.role },
    });
  }),
);

/**
 * The operator's `member add` (the CLI: at once, no invitation). A user who is a member on that
 * scope already gets the role through changeMemberRole (its guard and audit row); otherwise the
 * membership is made. Answers the membership row.
 */
export const addOrganizationMember = organizationVerb(
  "member.manage",
  async (ctx, member: { userId: string; projectId?: string; role: Role }) => {
    const existing = await findMembershipOf(ctx, member);
    if (existing) {
      await changeMemberRole(ctx, { membershipId: existing.id, role: member.role });
      return { ...existing, role: member.role };
    }
    if (member.projectId) {
      const [project] = await ctx.db
        .select({ id: projects.id })
        .from(projects)
        .where(and(eq(projects.id, member.projectId), eq(projects.organizationId, ctx.access.organization.id)));
      if (!project) throw new NotFoundError(`Project ${member.projectId} was not found.`);
    }
    const scopeColumn = member.projectId ? memberships.projectId : memberships.organizationId;
    const scopeWhere = member.projectId ? sql`${memberships.projectId} is not null` : sql`${memberships.organizationId} is not null`;
    return ctx.write(async (tx) => {
      const [row] = await tx
        .insert(memberships)
        .values({
          userId: member.userId,
          organizationId: member.projectId ? null : ctx.access.organization.id,
          projectId: member.projectId ?? null,
          role: member.role,
        })
        .onConflictDoUpdate({ target: [memberships.userId, scopeColumn], targetWhere: scopeWhere, set: { role: member.role } })
        .returning();
      // No audit row, as before the verbs: lib/cli/cli.test.ts pins a membership's trail to its
      // role changes and its removal. (A `member.added` row would be this verb's to add.)
      return audited(row!, []);
    });
  },
);

/**
 * The user's membership on the organization (`projectId` omitted) or on one of its projects, as
 * its row; null when there is none. The CLI names members by user, the API by membership id.
 */
export const findMembershipOf = organizationVerb("member.list", async ({ db, access }, member: { userId: string; projectId?: string }) => {
  const scope = member.projectId
    ? and(eq(memberships.projectId, member.projectId), eq(projects.organizationId, access.organization.id))
    : eq(memberships.organizationId, access.organization.id);
  const [row] = await db
    .select({ membership: memberships })
    .from(memberships)
    .leftJoin(projects, eq(projects.id, memberships.projectId))
    .where(and(eq(memberships.userId, member.userId), scope));
  return row?.membership ?? null;
});
