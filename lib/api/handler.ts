import { authenticate, type Actor } from "@/lib/auth/authenticate";
import { allowsWrites } from "@/lib/auth/token-scopes";
import { getDb, type Db } from "@/lib/db";
import { authenticateCredential } from "@/lib/embed/embed-sessions";
import { errorResponse } from "./errors";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import { requireSameOrigin } from "./same-origin";

// The wrappers under defineRoute (./define-route.ts), which API routes declare themselves with;
// the player's pages under app/embed use withPublic directly. None of the handlers catches its
// own errors. Each wrapper does its kind of authentication (none, a credential, an actor),
// resolves the params and maps whatever is thrown to problem+json.

type RouteContext<P> = { params: Promise<P> };
type Route<P> = (req: Request, context?: RouteContext<P>) => Promise<Response>;
type Credential = Awaited<ReturnType<typeof authenticateCredential>>;

export type PublicContext<P> = { req: Request; params: P };
export type CredentialContext<P> = PublicContext<P> & { db: Db; credential: Credential };
export type ActorContext<P> = PublicContext<P> & { actor: Actor; db: Db };

/** No authentication (public documents, signed URLs, health): parses the params and maps errors. */
export function withPublic<P = Record<string, never>>(handler: (ctx: PublicContext<P>) => Promise<Response> | Response): Route<P> {
  return async (req, context) => {
    try {
      const params = (await context?.params) ?? ({} as P);
      return await handler({ req, params });
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/**
 * Every method of a path under /api or /analytics that no route has (app/api/[...path],
 * app/analytics/[...path]): 404 problem+json like any other API error, not Next's HTML page.
 */
export const unknownRoute = withPublic(() => {
  throw new NotFoundError("No route of this API has this path.");
});

/** A customer site's server, authenticated by its API credential (HTTP Basic apiKey:apiSecret). */
export function withCredential<P = Record<string, never>>(handler: (ctx: CredentialContext<P>) => Promise<Response>): Route<P> {
  return withPublic<P>(async (ctx) => {
    const db = await getDb();
    return handler({ ...ctx, db, credential: await authenticateCredential(db, ctx.req) });
  });
}

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Authenticates the caller (bearer token or console session). A session is a cookie the
 * browser sends on its own, so its unsafe calls must also come from the app's origin (CSRF).
 * Each action's scope is checked where the action is authorized (requireRole,
 * authorizeOrganization, the account verbs); a read-only token is also refused every unsafe
 * method here, so a route that forgot its check still cannot change anything through one.
 */
export function withActor<P = Record<string, never>>(handler: (ctx: ActorContext<P>) => Promise<Response>): Route<P> {
  return withPublic<P>(async (ctx) => {
    const db = await getDb();
    const actor = await authenticate(db, ctx.req);
    if (actor.via === "session") requireSameOrigin(ctx.req);
    if (!safeMethods.has(ctx.req.method) && !allowsWrites(actor.scopes)) {
      throw new ForbiddenError(`This token is read-only (scopes: ${actor.scopes.join(", ")}): a ${ctx.req.method} needs a write scope.`);
    }
    return handler({ ...ctx, actor, db });
  });
}
