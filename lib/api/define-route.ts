import type { z } from "zod";
import { authorizeOrganization, type OrganizationAccess } from "@/lib/accounts/organizations";
import { requireConsoleSession, type Actor } from "@/lib/auth/authenticate";
import type { Action } from "@/lib/auth/permissions";
import { authorizeProject, type ProjectAccess } from "@/lib/auth/project-access";
import type { Db } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import type { Access, RouteContract } from "./contract";
import { withActor, withCredential, withPublic, type CredentialContext } from "./handler";
import { readJsonBody, searchParamsObject } from "./request";
import { parseInput } from "@/lib/validation/parse-input";

// A route handler and its contract in one declaration (docs/adr/0144-openapi-contract-check.md):
//
//   export const PUT = defineRoute({ path, operationId, access: { project: "share.write" }, body, responses, … },
//     async (ctx) => json(await putShare(ctx, ctx.body)));
//
// The wrapper authenticates by `access`, checks the path parameters, the query and the JSON body
// the contract declares (in that order: 401, 403/404, 404, 422, 415/400/413/422), hands the
// handler what they parsed to, and maps whatever is thrown to problem+json. The function it
// returns carries the contract (`.contract`), which the OpenAPI document is built from.

/** "/api/Projects/{projectId}/x/{channel}" → "projectId" | "channel". */
type ParamNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;

type ParamsOf<C extends RouteContract> = {
  [Name in ParamNames<C["path"]>]: C["params"] extends Record<Name, infer Schema extends z.ZodType> ? z.output<Schema> : string;
};

type Parsed<C extends RouteContract> = {
  params: ParamsOf<C>;
  query: C["query"] extends z.ZodType ? z.output<C["query"]> : undefined;
  body: C["body"] extends z.ZodType ? z.output<C["body"]> : undefined;
  req: Request;
};

type Member = { actor: Actor; db: Db };

type AccessContext<A extends Access> = A extends { project: Action; checkedBy: "handler" }
  ? Member & { action: A["project"] }
  : A extends { project: Action }
    ? Member & { access: ProjectAccess }
    : A extends { organization: Action }
      ? Member & { access: OrganizationAccess }
      : A extends { account: string } | "signed-in" | "console-session"
        ? Member
        : A extends "credential"
          ? Omit<CredentialContext<unknown>, "req" | "params">
          : unknown;

export type RouteContextOf<C extends RouteContract> = Parsed<C> & AccessContext<C["access"]>;

type NextRoute = (req: Request, context?: { params: Promise<Record<string, string>> }) => Promise<Response>;
export type DeclaredRoute<C extends RouteContract = RouteContract> = NextRoute & { contract: C };

export function defineRoute<const C extends RouteContract>(contract: C, handler: (ctx: RouteContextOf<C>) => Promise<Response> | Response): DeclaredRoute<C> {
  const run = async (ctx: { req: Request; params: Record<string, string> } & Record<string, unknown>, authorize?: (input: Parsed<C>) => Promise<object>) => {
    const params = parseParams(contract, ctx.params);
    const query = contract.query ? parseInput(contract.query, searchParamsObject(ctx.req)) : undefined;
    const body = contract.body ? await readJsonBody(ctx.req, contract.body, { optional: contract.bodyOptional === true }) : undefined;
    const parsed = { ...ctx, params, query, body } as Parsed<C>;
    const authorized = authorize ? await authorize(parsed) : {};
    return handler({ ...parsed, ...authorized } as RouteContextOf<C>);
  };
  const { access } = contract;
  let route: NextRoute;
  if (access === "credential") {
    route = withCredential<Record<string, string>>((ctx) => run(ctx));
  } else if (access === "signed-in") {
    route = withActor<Record<string, string>>((ctx) => run(ctx));
  } else if (access === "console-session") {
    route = withActor<Record<string, string>>((ctx) => {
      requireConsoleSession(ctx.actor);
      return run(ctx);
    });
  } else if (typeof access === "string") {
    route = withPublic<Record<string, string>>((ctx) => run(ctx));
  } else if ("project" in access && access.checkedBy === "handler") {
    route = withActor<Record<string, string>>((ctx) => run({ ...ctx, action: access.project }));
  } else if ("project" in access) {
    route = withActor<Record<string, string>>(async (ctx) => {
      // The path's project is checked before anything else is read; one named by the input, once it is parsed.
      const fromPath = ctx.params.projectId;
      if (fromPath !== undefined) {
        const projectAccess = await authorizeProject(ctx.db, ctx.actor, fromPath, access.project);
        return run({ ...ctx, access: projectAccess });
      }
      return run(ctx, async (input) => ({ access: await authorizeProject(ctx.db, ctx.actor, projectIdOf(input), access.project) }));
    });
  } else if ("organization" in access) {
    route = withActor<Record<string, string>>(async (ctx) =>
      run({ ...ctx, access: await authorizeOrganization(ctx.db, ctx.actor, ctx.params.orgId ?? "", access.organization) }),
    );
  } else {
    route = withActor<Record<string, string>>((ctx) => run(ctx));
  }
  return Object.assign(route as NextRoute, { contract });
}

/** The declared path parameters, each checked by its schema: a value it refuses names nothing here (404). */
function parseParams(contract: RouteContract, raw: Record<string, string>): Record<string, unknown> {
  const params: Record<string, unknown> = { ...raw };
  for (const [name, schema] of Object.entries(contract.params ?? {})) {
    const result = schema.safeParse(raw[name]);
    if (!result.success) throw new NotFoundError(`There is no ${name} ${JSON.stringify(raw[name])}: ${result.error.issues[0]?.message ?? "not one of this API's"}.`);
    params[name] = result.data;
  }
  return params;
}

/** The projectId of the parsed query or body (credentials name their project there). */
function projectIdOf(input: { query?: unknown; body?: unknown }): string {
  const named = (value: unknown) => (value && typeof value === "object" && "projectId" in value ? (value as { projectId: unknown }).projectId : undefined);
  const projectId = named(input.query) ?? named(input.body);
  if (typeof projectId !== "string") throw new Error("A route with { project } access and no {projectId} in its path must have projectId in its query or body schema.");
  return projectId;
}
