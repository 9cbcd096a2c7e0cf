import type { Actor } from "@/lib/auth/authenticate";
import type { Action } from "@/lib/auth/permissions";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { requireOrganizationRole, systemOrganizationAccess, type OrganizationAccess } from "@/lib/accounts/organization-access";
import type { Db } from "@/lib/db";
import { audited as auditedChanges, auditedWriter, defineVerb, type Audited, type AuditedChange, type Verb, type Writer } from "./verbs";

// The organization-level counterpart of verbs.ts (docs/adr/0143-service-verbs.md): a verb is
// `verb(ctx, input)` with `ctx = { db, actor, access }` on an organization; `organizationVerb`
// checks the organization role and token scopes first (on an access already loaded, as
// `requireRole` does for projects), and `ctx.write` records the audit rows in the change's
// transaction, in the organization's trail (`projectId` when the change is about one project).

/**
 * The operator at the command line (the CLI, the bootstrap): no user. Its audit rows have no actor
 * (`actorUserId` null), and it gets every right through `systemOrganizationAccess`.
 */
export type SystemActor = { readonly kind: "system"; readonly userId: null };
export const systemActor: SystemActor = Object.freeze({ kind: "system", userId: null });

/** Who calls an organization verb: a signed-in user or a token's (routes, pages), or the operator. */
export type OrganizationActor = Actor | SystemActor;

/** Who calls a verb, on which organization. */
export type OrganizationContext = { readonly db: Db; readonly actor: OrganizationActor; readonly access: OrganizationAccess };

/** What the organization's trail records of one change; `projectId` when it is about one project. */
export type OrganizationChange = AuditedChange & { projectId?: string | null };

/** `audited` of verbs.ts, for changes that may name a project of the organization. */
export function audited<T>(result: T, changes: OrganizationChange | readonly OrganizationChange[]): Audited<T> {
  return auditedChanges(result, changes);
}

declare const permitted: unique symbol;

/** A context whose organization role and token scopes were checked for `A`. */
export type OrganizationPermitted<A extends Action> = OrganizationContext & { readonly write: Writer; readonly [permitted]: A };

/** 403 unless the organization-level role and token scopes allow `action`; the context that proves it. */
export function permitOrganization<A extends Action>(ctx: OrganizationContext, action: A): OrganizationPermitted<A> {
  requireOrganizationRole(ctx.access, action);
  const write = auditedWriter(ctx.db, (tx, change) => {
    const { projectId, ...entry } = change as OrganizationChange;
    return recordAuditEvent(tx, { organizationId: ctx.access.organization.id, projectId: projectId ?? null, actorUserId: ctx.actor.userId, ...entry });
  });
  return { db: ctx.db, actor: ctx.actor, access: ctx.access, write } as OrganizationPermitted<A>;
}

/** An organization verb, with the permission it checks readable by `permissionOfVerb`. */
export type OrganizationVerb<A extends Action, I, R> = Verb<OrganizationContext, A, I, R>;

/** Makes an organization verb: checks `action` first, then runs `body` with the checked context. */
export function organizationVerb<A extends Action, I = void, R = unknown>(
  action: A,
  body: (ctx: OrganizationPermitted<A>, input: I) => Promise<R>,
): OrganizationVerb<A, I, R> {
  return defineVerb(action, permitOrganization, body);
}

/** The operator's context on an organization that exists (404 otherwise): the CLI's, the bootstrap's. */
export async function systemOrganizationContext(db: Db, organizationId: string): Promise<OrganizationContext> {
  return { db, actor: systemActor, access: await systemOrganizationAccess(db, organizationId) };
}
