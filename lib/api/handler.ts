import { authenticate, type Actor } from "@/lib/auth/authenticate";
import type { Action } from "@/lib/auth/permissions";
import { authorizeProject, type ProjectAccess } from "@/lib/auth/project-access";
import { getDb, type Db } from "@/lib/db";
import { errorResponse } from "./errors";

type RouteContext<P> = { params: Promise<P> };
type Route<P> = (req: Request, context: RouteContext<P>) => Promise<Response>;

export type ActorContext<P> = { req: Request; params: P; actor: Actor; db: Db };
export type ProjectContext<P> = ActorContext<P> & ProjectAccess;

/** Authenticates the caller and maps every thrown error to problem+json. */
export function withActor<P = Record<string, never>>(handler: (ctx: ActorContext<P>) => Promise<Response>): Route<P> {
  return async (req, context) => {
    try {
      const db = await getDb();
      const actor = await authenticate(db, req);
      const params = (await context?.params) ?? ({} as P);
      return await handler({ req, params, actor, db });
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/** For routes under /api/Projects/{projectId}: authenticates, then requires the action's role on that project. */
export function withProjectRole<P extends { projectId: string }>(
  action: Action,
  handler: (ctx: ProjectContext<P>) => Promise<Response>,
): Route<P> {
  return withActor<P>(async (ctx) => {
    const access = await authorizeProject(ctx.db, ctx.actor, ctx.params.projectId, action);
    return handler({ ...ctx, ...access });
  });
}
