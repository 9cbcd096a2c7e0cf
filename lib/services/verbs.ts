import type { Actor } from "@/lib/auth/authenticate";
import type { Action } from "@/lib/auth/permissions";
import { requireRole, type ProjectAccess } from "@/lib/auth/project-access";
import { recordProjectAuditEvent } from "@/lib/audit/record-audit-event";
import type { Db } from "@/lib/db";

// The service layer's one shape (docs/adr/0143-service-verbs.md). A verb is `verb(ctx, input)`:
// `ctx` says who calls on which project, `input` is what it asks for, already validated against
// its contract. A verb is made by `projectVerb(action, body)`, so its first act is the permission
// check, and the body receives a context whose type names the permission that was checked. A
// change goes through `ctx.write`, which opens the transaction and records the audit row in it:
// the body must hand back what the change was (`audited(result, change)`), or it does not compile.

/** Who calls a verb, on which project: routes, console pages and the CLI all pass one. */
export type ProjectContext = { readonly db: Db; readonly actor: Actor; readonly access: ProjectAccess };

/** What the audit trail records of one change (the project and the actor come from the context). */
export type AuditedChange = { action: string; targetType: string; targetId: string; data?: Record<string, unknown> };

declare const auditedBrand: unique symbol;

/** A change's result and the audit rows that describe it; only `audited` makes one. */
export type Audited<T> = { readonly result: T; readonly changes: readonly AuditedChange[]; readonly [auditedBrand]: true };

/**
 * The result of a write and what the trail records of it. An empty list says, on purpose, that
 * nothing changed (a PUT that sets what is already there).
 */
export function audited<T>(result: T, changes: AuditedChange | readonly AuditedChange[]): Audited<T> {
  const list: readonly AuditedChange[] = Array.isArray(changes) ? changes : [changes as AuditedChange];
  return { result, changes: list } as unknown as Audited<T>;
}

/** Runs `change` in one transaction and records its audit rows in the same transaction. */
export type Writer = <T>(change: (tx: Db) => Promise<Audited<T>>) => Promise<T>;

declare const permitted: unique symbol;

/**
 * A context whose role and token scopes were checked for `A` (or for every action of a union).
 * Helpers below the verbs take one, so they cannot be reached without the check.
 */
export type Permitted<A extends Action> = ProjectContext & { readonly write: Writer; readonly [permitted]: A };

/** A Writer on `db`: runs a change in one transaction and records its audit rows with `record`. */
export function auditedWriter(db: Db, record: (tx: Db, change: AuditedChange) => Promise<void>): Writer {
  return (change) =>
    db.transaction(async (tx) => {
      const { result, changes } = await change(tx);
      for (const entry of changes) await record(tx, entry);
      return result;
    });
}

/** 403 unless the caller's role and token scopes allow `action`; the context that proves it. */
export function permit<A extends Action>(ctx: ProjectContext, action: A): Permitted<A> {
  requireRole(ctx.access, action);
  const write = auditedWriter(ctx.db, (tx, entry) => recordProjectAuditEvent(tx, ctx.actor, ctx.access, entry));
  return { db: ctx.db, actor: ctx.actor, access: ctx.access, write } as Permitted<A>;
}

const verbAction = Symbol.for("reelbind.verbAction");

/** A verb, with the permission it checks readable by tests and docs. */
export type Verb<C, A extends Action, I, R> = ((ctx: C, input: I) => Promise<R>) & { readonly [verbAction]: A };
export type ProjectVerb<A extends Action, I, R> = Verb<ProjectContext, A, I, R>;

/**
 * Makes a verb for any kind of context: `check` proves the caller may do `action` and gives the
 * checked context, then `body` runs with it. A refusal is a rejected promise like any other
 * failure, never a synchronous throw.
 */
export function defineVerb<C, P, A extends Action, I, R>(action: A, check: (ctx: C, action: A) => P, body: (ctx: P, input: I) => Promise<R>): Verb<C, A, I, R> {
  const verb = async (ctx: C, input: I) => body(check(ctx, action), input);
  return Object.assign(verb, { [verbAction]: action });
}

/** Makes a project verb: checks `action` first, then runs `body` with the checked context. */
export function projectVerb<A extends Action, I = void, R = unknown>(
  action: A,
  body: (ctx: Permitted<A>, input: I) => Promise<R>,
): ProjectVerb<A, I, R> {
  return defineVerb(action, permit, body);
}

/** The permission a verb checks, or undefined when `value` is not one. */
export function permissionOfVerb(value: unknown): Action | undefined {
  return typeof value === "function" ? (value as { [verbAction]?: Action })[verbAction] : undefined;
}
