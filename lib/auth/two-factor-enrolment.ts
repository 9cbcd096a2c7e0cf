import { and, eq, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { memberships, organizations, projects, userTwoFactor } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";

// An organization that requires two-factor (docs/adr/0157-organizations-require-two-factor.md):
// its members who signed in with a password and have not enrolled may use nothing but the
// enrolment page and its API until they have. Sessions of other sign-in methods (SSO) and
// personal access tokens are not held back.

/**
 * Whether the user must enrol before using the console: a member (at the organization or at
 * one of its projects) of an organization that requires two-factor, without two-factor on.
 * The SSO sign-in does not call it: the organization's identity provider owns MFA there.
 */
export async function needsTwoFactorEnrolment(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(memberships)
    .leftJoin(projects, eq(projects.id, memberships.projectId))
    .innerJoin(organizations, or(eq(organizations.id, memberships.organizationId), eq(organizations.id, projects.organizationId)))
    .leftJoin(userTwoFactor, and(eq(userTwoFactor.userId, memberships.userId), isNotNull(userTwoFactor.enabledAt)))
    .where(and(eq(memberships.userId, userId), eq(organizations.requireTwoFactor, true), isNull(userTwoFactor.userId)))
    .limit(1);
  return Boolean(row);
}

/** Whether this session is held back until its user enrols: a password sign-in that needs enrolment. */
export async function sessionMustEnrol(db: Db, user: { id: string; signInMethod: string }): Promise<boolean> {
  return user.signInMethod === "password" && (await needsTwoFactorEnrolment(db, user.id));
}

/** Where a held-back session enrols. */
export const twoFactorEnrolmentPath = "/account/security";

/** The API paths a held-back session may still call: its own two-factor routes. */
export const isTwoFactorApiPath = (pathname: string) => pathname === "/api/me/two-factor" || pathname.startsWith("/api/me/two-factor/");

export class TwoFactorEnrolmentRequiredError extends AppError {
  constructor() {
    super(
      "forbidden",
      "two_factor_enrolment_required",
      "Forbidden",
      `An organization you belong to requires two-factor authentication: set it up at ${twoFactorEnrolmentPath} before using the console or its API with this session.`,
    );
  }
}
