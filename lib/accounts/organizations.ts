import { and, asc, eq, or } from "drizzle-orm";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { Actor } from "@/lib/auth/authenticate";
import { revokeUserConsoleSessions } from "@/lib/auth/console-sessions";
import { can, minimumRole, type Action } from "@/lib/auth/permissions";
import { isUuid } from "@/lib/auth/project-access";
import { requireScope } from "@/lib/auth/token-scopes";
import type { Db } from "@/lib/db";
import { memberships, organizations, projects, users, type Role } from "@/lib/db/schema";
import { listProjectsForUser } from "./accounts";
import { requireAnotherAdmin } from "./last-admin";

// The console's organization verbs: who the signed-in user is, projects of an organization, and
// its members. Organization-level rights come from an organization membership only (docs/design.md, Roles:
// managing projects and members is OrganizationAdmin's). Changes are audited in the organization's
// trail (project_id set when the change is about one project).

declare const authorizedOrganization: unique symbol;
/** Proof that the actor may act on the organization; made only here. */
export type OrganizationAccess = { readonly organization: { id: string; name: string }; readonly role: Role; readonly [authorizedOrganization]: true };

/**
 * 404 when the actor has no membership in the organization at all (organization-level or on one
 * of its projects: its existence is not revealed), 403 when the organization-level role is too
 * low or the actor's token scopes do not cover the action.
 */
export async function authorizeOrganization(db: Db, actor: Actor, organizationId: string, action: Action): Promise<OrganizationAccess> {
  const notFound = new NotFoundError(`Organization ${organizationId} was not found.`);
  if (!isUuid(organizationId)) throw notFound;
  const rows = await db
    .select({ id: organizations.id, name: organizations.name, orgRole: memberships.role, projectId: memberships.projectId })
    .from(organizations)
    .innerJoin(memberships, eq(memberships.userId, actor.userId))
    .leftJoin(projects, eq(projects.id, memberships.projectId))
    .where(and(eq(organizations.id, organizationId), or(eq(memberships.organizationId, organizations.id), eq(projects.organizationId, organizations.id))));
  if (rows.length === 0) throw notFound;
  const role = rows.find((row) => row.projectId === null)?.orgRole ?? null;
  if (!can(role, action)) {
    throw new ForbiddenError(`This needs the ${minimumRole[action]} role on the organization; you have ${role ?? "no organization role"}.`);
  }
  requireScope(actor, action);
  return { organization: { id: rows[0]!.id, name: rows[0]!.name }, role: role! } as OrganizationAccess;
}

/** GET /api/me: the user, the organizations they belong to (role null: only through a project) and their projects. */
export async function describeMe(db: Db, actor: Actor) {
  requireScope(actor, "account.read");
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
  return {
    user: { id: actor.userId, email: actor.email },
    organizations: [...byId.values()].sort((a, b) => a.name.localeCompare(b.name)),
    projects: projectList,
  };
}

export async function createOrganizationProject(db: Db, actor: Actor, access: OrganizationAccess, { name }: { name: string }) {
  return db.transaction(async (tx) => {
    const [project] = await tx.insert(projects).values({ organizationId: access.organization.id, name }).returning();
    await recordAuditEvent(tx, {
      organizationId: access.organization.id,
      projectId: project!.id,
      actorUserId: actor.userId,
      action: "project.created",
      targetType: "project",
      targetId: project!.id,
      data: { name },
    });
    return { id: project!.id, organizationId: project!.organizationId, name: project!.name, createdAt: project!.createdAt };
  });
}

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

export async function listOrganizationMembers(db: Db, access: OrganizationAccess) {
  const rows = await db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(projects, eq(projects.id, memberships.projectId))
    .where(organizationMembersWhere(access.organization.id))
    .orderBy(asc(users.email), asc(projects.name));
  return rows.map(presentMember);
}

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

export async function changeMemberRole(db: Db, actor: Actor, access: OrganizationAccess, membershipId: string, { role }: { role: Role }) {
  return db.transaction(async (tx) => {
    const member = await findMember(tx, access, membershipId);
    if (member.role === role) return presentMember(member);
    await requireAnotherAdmin(tx, access.organization.id, member, "change their role");
    await tx.update(memberships).set({ role }).where(eq(memberships.id, membershipId));
    await recordAuditEvent(tx, {
      organizationId: access.organization.id,
      projectId: member.projectId,
      actorUserId: actor.userId,
      action: "member.role_changed",
      targetType: "membership",
      targetId: membershipId,
      data: { email: member.email, from: member.role, to: role },
    });
    return presentMember({ ...member, role });
  });
}

export async function removeOrganizationMember(db: Db, actor: Actor, access: OrganizationAccess, membershipId: string) {
  return db.transaction(async (tx) => {
    const member = await findMember(tx, access, membershipId);
    await requireAnotherAdmin(tx, access.organization.id, member, "remove them");
    await tx.delete(memberships).where(eq(memberships.id, membershipId));
    await revokeUserConsoleSessions(tx, member.userId);
    await recordAuditEvent(tx, {
      organizationId: access.organization.id,
      projectId: member.projectId,
      actorUserId: actor.userId,
      action: "member.removed",
      targetType: "membership",
      targetId: membershipId,
      data: { email: member.email, role: member.role },
    });
  });
}
