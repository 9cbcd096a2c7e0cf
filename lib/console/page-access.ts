import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import type { z } from "zod";
import { sessionActor, type Actor } from "@/lib/auth/authenticate";
import { defaultCallbackPath, safeCallbackPath } from "@/lib/auth/callback-url";
import { getConsoleUser } from "@/lib/auth/next-auth";
import { getConfig } from "@/lib/config";
import type { Action } from "@/lib/auth/permissions";
import { findProjectAccess, type ProjectAccess } from "@/lib/auth/project-access";
import { sessionMustEnrol, twoFactorEnrolmentPath } from "@/lib/auth/two-factor-enrolment";
import { authorizeOrganization, type OrganizationAccess } from "@/lib/accounts/organizations";
import { getDb, type Db } from "@/lib/db";
import { isAppError } from "@/lib/errors";
import { loadPageData } from "@/lib/server/request-context";
import { pagePathHeader } from "./page-path";

// What a console page (a server component) starts with: the signed-in user as an Actor, the
// same the API's verbs take, and for project pages the authorized ProjectAccess. Anonymous
// users go to sign-in; a project the user cannot see is a 404, as in the API.

export type ConsolePage = { actor: Actor; db: Db };
export type ProjectPage = ConsolePage & { access: ProjectAccess };

// The layouts and the page of one request ask the same questions: React's cache answers them
// once per request (the session lookup, and each project's access).
const signedInUser = cache(() => loadPageData(getConsoleUser));
// Keyed by primitives: cache compares arguments by identity.
const projectAccess = cache((userId: string, email: string, projectId: string) =>
  loadPageData(async () => findProjectAccess(await getDb(), sessionActor({ id: userId, email }), projectId)),
);

const mustEnrol = cache((userId: string, signInMethod: string) => loadPageData(async () => sessionMustEnrol(await getDb(), { id: userId, signInMethod })));

/**
 * The signed-in user; anyone else goes to sign-in and comes back to the page they asked for. A
 * user held back by an organization's two-factor requirement goes to the enrolment page instead
 * (`enrolling`: the pages that stay open to them).
 */
export async function requireConsoleActor({ enrolling = false }: { enrolling?: boolean } = {}): Promise<ConsolePage> {
  const user = await signedInUser();
  if (!user) {
    const callbackPath = safeCallbackPath((await headers()).get(pagePathHeader), getConfig().publicBaseUrl);
    redirect(callbackPath === defaultCallbackPath ? "/login" : `/login?callbackUrl=${encodeURIComponent(callbackPath)}`);
  }
  if (!enrolling && (await mustEnrol(user.id, user.signInMethod))) redirect(twoFactorEnrolmentPath);
  return { actor: sessionActor(user), db: await loadPageData(getDb) };
}

export async function requireProjectPage(projectId: string): Promise<ProjectPage> {
  const page = await requireConsoleActor();
  const access = await projectAccess(page.actor.userId, page.actor.email, projectId);
  if (!access) notFound();
  return { ...page, access };
}

/**
 * An organization's console page: the signed-in user and their access for `action`, or
 * `access: null` when their role is too low (the page shows a note); an organization they are
 * not in is a 404, as in the API.
 */
export async function requireOrganizationPage(organizationId: string, action: Action): Promise<ConsolePage & { access: OrganizationAccess | null }> {
  const page = await requireConsoleActor();
  const access = await loadPageData(() => authorizeOrganization(page.db, page.actor, organizationId, action)).catch((error: unknown) => {
    if (isAppError(error, "not_found")) notFound();
    if (isAppError(error, "forbidden")) return null;
    throw error;
  });
  return { ...page, access };
}

/**
 * A verb's result as the API sends it (dates as ISO strings, checked against the API's response
 * schema), for a client component's first data: the same shape its react-query hook fetches.
 */
export function asApiJson<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  return schema.parse(JSON.parse(JSON.stringify(value)));
}
