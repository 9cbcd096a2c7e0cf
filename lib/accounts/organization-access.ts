import { and, eq, or } from "drizzle-orm";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import type { Actor } from "@/lib/auth/authenticate";
import { can, minimumRole, type Action } from "@/lib/auth/permissions";
import { isUuid } from "@/lib/auth/project-access";
import { requireScope, tokenScopes, type TokenScope } from "@/lib/auth/token-scopes";
import type { Db } from "@/lib/db";
import { memberships, organizations, projects, type Role } from "@/lib/db/schema";

// Who may act on an organization. Organization-level rights come from an organization
// membership only (docs/design.md, Roles: managing projects and members is OrganizationAdmin's).

declare const authorizedOrganization: unique symbol;

/**
 * The organization an actor was found in, with their organization-level role (null: a member
 * through a project only) and their token scopes; `requireOrganizationRole` checks an action on
 * it. Made only here.
 */
export type OrganizationAccess = {
  readonly organization: { id: string; name: string };
  readonly role: Role | null;
  readonly scopes: readonly TokenScope[];
  readonly [authorizedOrganization]: true;
};

const notFoundError = (organizationId: string) => new NotFoundError(`Organization ${organizationId} was not found.`);

/**
 * 404 when the actor has no membership in the organization at all (organization-level or on one
 * of its projects: its existence is not revealed); the access otherwise, not yet checked for an action.
 */
export async function findOrganizationAccess(db: Db, actor: Actor, organizationId: string): Promise<OrganizationAccess> {
  if (!isUuid(organizationId)) throw notFoundError(organizationId);
  const rows = await db
    .select({ id: organizations.id, name: organizations.name, orgRole: memberships.role, projectId: memberships.projectId })
    .from(organizations)
    .innerJoin(memberships, eq(memberships.userId, actor.userId))
    .leftJoin(projects, eq(projects.id, memberships.projectId))
    .where(and(eq(organizations.id, organizationId), or(eq(memberships.organizationId, organizations.id), eq(projects.organizationId, organizations.id))));
  if (rows.length === 0) throw notFoundError(organizationId);
  const role = rows.find((row) => row.projectId === null)?.orgRole ?? null;
  return { organization: { id: rows[0]!.id, name: rows[0]!.name }, role, scopes: actor.scopes } as OrganizationAccess;
}

/** 403 when the organization-level role is too low or the token scopes do not cover the action. */
export function requireOrganizationRole(access: OrganizationAccess, action: Action): OrganizationAccess {
  if (!can(access.role, action)) {
    throw new ForbiddenError(`This needs the ${minimumRole[action]} role on the organization; you have ${access.role ?? "no organization role"}.`);
  }
  requireScope(access, action);
  return access;
}

/**
 * 404 when the actor has no membership in the organization at all, 403 when the
 * organization-level role is too low or the actor's token scopes do not cover the action.
 */
export async function authorizeOrganization(db: Db, actor: Actor, organizationId: string, action: Action): Promise<OrganizationAccess> {
  return requireOrganizationRole(await findOrganizationAccess(db, actor, organizationId), action);
}

/**
 * The operator's access at the command line (the CLI, the bootstrap): every right on an
 * organization that exists (404 otherwise). Never made from a request.
 */
export async function systemOrganizationAccess(db: Db, organizationId: string): Promise<OrganizationAccess> {
  if (!isUuid(organizationId)) throw notFoundError(organizationId);
  const [row] = await db.select({ id: organizations.id, name: organizations.name }).from(organizations).where(eq(organizations.id, organizationId));
  if (!row) throw notFoundError(organizationId);
  const role: Role = "OrganizationAdmin";
  const scopes: readonly TokenScope[] = tokenScopes;
  return { organization: row, role, scopes } as OrganizationAccess;
}

/** The organization a project belongs to, for the operator's access; 404 for an unknown project. */
export async function organizationOfProject(db: Db, projectId: string): Promise<string> {
  const notFound = new NotFoundError(`Project ${projectId} was not found.`);
  if (!isUuid(projectId)) throw notFound;
  const [row] = await db.select({ organizationId: projects.organizationId }).from(projects).where(eq(projects.id, projectId));
  if (!row) throw notFound;
  return row.organizationId;
}
