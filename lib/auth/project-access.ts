import { and, eq, or } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import type { Db } from "@/lib/db";
import { memberships, projects, type Role } from "@/lib/db/schema";
import type { Actor } from "./authenticate";
import { can, highestRole, minimumRole, type Action } from "./permissions";
import { requireScope, type TokenScope } from "./token-scopes";

declare const authorized: unique symbol;

/**
 * Proof that an actor may act on one project, and the tenant scope of every verb that reads or
 * writes a project's rows. Only this module makes one (the brand cannot be written elsewhere),
 * so a verb cannot be handed a project id that was never authorized.
 */
export type ProjectAccess = {
  readonly project: { id: string; organizationId: string; name: string };
  readonly role: Role;
  /** The actor's token scopes (every scope for a console session): requireRole checks them with the role. */
  readonly scopes: readonly TokenScope[];
  readonly [authorized]: true;
};

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}

/** The actor's effective role on a project: the higher of its organization and project memberships. */
export async function findProjectAccess(db: Db, actor: Actor, projectId: string): Promise<ProjectAccess | null> {
  if (!isUuid(projectId)) return null;
  const orgMembership = alias(memberships, "org_membership");
  const projectMembership = alias(memberships, "project_membership");
  const rows = await db
    .select({
      project: { id: projects.id, organizationId: projects.organizationId, name: projects.name },
      orgRole: orgMembership.role,
      projectRole: projectMembership.role,
    })
    .from(projects)
    .leftJoin(
      orgMembership,
      and(eq(orgMembership.organizationId, projects.organizationId), eq(orgMembership.userId, actor.userId)),
    )
    .leftJoin(
      projectMembership,
      and(eq(projectMembership.projectId, projects.id), eq(projectMembership.userId, actor.userId)),
    )
    .where(and(eq(projects.id, projectId), or(eq(orgMembership.userId, actor.userId), eq(projectMembership.userId, actor.userId))))
    .limit(1);
  const row = rows[0];
  const role = row ? highestRole([row.orgRole, row.projectRole]) : null;
  return row && role ? ({ project: row.project, role, scopes: actor.scopes } as ProjectAccess) : null;
}

/**
 * 404 when the actor has no access to the project at all (its existence is not revealed),
 * 403 when it has access but its role is below what the action needs, or its token's scopes
 * do not cover the action.
 */
export async function authorizeProject(db: Db, actor: Actor, projectId: string, action: Action): Promise<ProjectAccess> {
  const access = await findProjectAccess(db, actor, projectId);
  if (!access) throw new NotFoundError(`Project ${projectId} was not found.`);
  return requireRole(access, action);
}

/**
 * 403 unless the access's role is enough for the action and its token's scopes cover it: every
 * project-scoped action passes here, so no route can skip the scope check.
 */
export function requireRole(access: ProjectAccess, action: Action): ProjectAccess {
  if (!can(access.role, action)) {
    throw new ForbiddenError(`This needs the ${minimumRole[action]} role or higher on the project; you have ${access.role}.`);
  }
  requireScope(access, action);
  return access;
}
