import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { Db } from "@/lib/db";
import { ForbiddenError } from "@/lib/errors";
import { systemActor, type SystemActor } from "./organization-verbs";
import { audited as auditedChanges, auditedWriter, type Audited, type AuditedChange } from "./verbs";

// The operator's verbs (docs/adr/0143-service-verbs.md): what only the command line does, on
// accounts that may belong to no organization yet (make an organization or a user, set a user's
// password, disable one, make a token for one). `ctx = { db, actor }` with the system actor;
// `operatorVerb` refuses any other actor first, and `ctx.write` records the audit rows in the
// change's transaction. A change names the organization whose trail it goes to, since no access
// says which: a change to a user goes to the trail of each organization the user belongs to
// (none for a user just made), with no actor (`actorUserId` null), as the operator's rows are.

/** Who calls an operator verb: the operator at the command line (the CLI, the bootstrap). */
export type OperatorContext = { readonly db: Db; readonly actor: SystemActor };

/**
 * One row of an organization's trail, for a change that no access scopes; `actorUserId` when the
 * one who made it is known only inside the change (an account made by accepting an invitation).
 */
export type TrailChange = AuditedChange & { organizationId: string; projectId?: string | null; actorUserId?: string | null };

/** Runs a change in one transaction and records its trail rows in the same transaction. */
export type TrailWriter = <T>(change: (tx: Db) => Promise<Audited<T>>) => Promise<T>;

declare const operator: unique symbol;

/** A context checked to be the operator's. */
export type OperatorPermitted = OperatorContext & { readonly write: TrailWriter; readonly [operator]: true };

/**
 * A writer whose changes name their organization (operator verbs, an invitation's acceptance);
 * `actorUserId` is who made them (null: the operator).
 */
export function trailWriter(db: Db, actorUserId: string | null): TrailWriter {
  return auditedWriter(db, (tx, change) => {
    const { organizationId, projectId, actorUserId: madeBy, ...entry } = change as TrailChange;
    return recordAuditEvent(tx, { organizationId, projectId: projectId ?? null, actorUserId: madeBy === undefined ? actorUserId : madeBy, ...entry });
  });
}

/** The operator's context: what the CLI and the bootstrap pass. */
export function operatorContext(db: Db): OperatorContext {
  return { db, actor: systemActor };
}

/** Makes an operator verb: refuses anyone but the operator, then runs `body` with the checked context. */
export function operatorVerb<I = void, R = unknown>(body: (ctx: OperatorPermitted, input: I) => Promise<R>) {
  return async (ctx: OperatorContext, input: I): Promise<R> => {
    // The type admits only the system actor; this holds it for a caller that cast its way past.
    if ((ctx.actor as { kind?: string }).kind !== "system") throw new ForbiddenError("Only the operator, at the command line, may do this.");
    return body({ db: ctx.db, actor: ctx.actor, write: trailWriter(ctx.db, null) } as OperatorPermitted, input);
  };
}

/** `audited` of verbs.ts, for changes that name their organization's trail. */
export function audited<T>(result: T, changes: TrailChange | readonly TrailChange[]): Audited<T> {
  return auditedChanges(result, changes);
}
