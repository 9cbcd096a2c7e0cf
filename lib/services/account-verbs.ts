import { requireConsoleSession, type Actor } from "@/lib/auth/authenticate";
import { requireScope, type AccountAction } from "@/lib/auth/token-scopes";
import type { Db } from "@/lib/db";
import { auditedWriter, type Writer } from "./verbs";

// The user-level counterpart of verbs.ts (docs/adr/0143-service-verbs.md): verbs on the caller's
// own account (/api/me, personal access tokens). `ctx = { db, actor }`; `accountVerb` checks the
// token scope the action needs before the body runs. Such changes belong to no organization, so
// they are in no organization's audit trail: a token's own row keeps when it was made and revoked.
// They still go through `ctx.write` (one transaction), each saying `audited(result, [])`.

/** Who calls a verb on their own account. */
export type AccountContext = { readonly db: Db; readonly actor: Actor };

/** An account context whose token scopes were checked; `write` runs a change in one transaction. */
export type AccountPermitted = AccountContext & { readonly write: Writer };

/** A change to one's own account has no trail to go to: a row asked for is a mistake in the verb. */
const noTrail = async () => {
  throw new Error("A change to one's own account is in no organization's trail: an account verb records audited(result, []).");
};

/** Makes an account verb: checks that the caller's token scopes cover `action`, then runs `body`. */
export function accountVerb<I = void, R = unknown>(action: AccountAction, body: (ctx: AccountPermitted, input: I) => Promise<R>) {
  return async (ctx: AccountContext, input: I): Promise<R> => {
    requireScope(ctx.actor, action);
    return body({ db: ctx.db, actor: ctx.actor, write: auditedWriter(ctx.db, noTrail) }, input);
  };
}

/**
 * An account verb that changes how the account signs in (profile, password, sessions): only a
 * console session may call it. A leaked personal access token must not be able to lock its
 * owner out or keep itself alive by ending the owner's sessions (docs/adr/0162-account-page.md).
 */
export function consoleAccountVerb<I = void, R = unknown>(body: (ctx: AccountPermitted, input: I) => Promise<R>) {
  return accountVerb<I, R>("account.read", async (ctx, input) => {
    requireConsoleSession(ctx.actor);
    return body(ctx, input);
  });
}

