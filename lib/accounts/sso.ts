import { and, eq, or, sql } from "drizzle-orm";
import { ConflictError } from "@/lib/errors";
import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db";
import { memberships, organizationSso, organizations, projects, users, type Role } from "@/lib/db/schema";
import { audited as trailAudited, trailWriter } from "@/lib/services/operator-verbs";
import { audited, organizationVerb } from "@/lib/services/organization-verbs";
import { openSecret, sealSecret } from "@/lib/webhooks/secret-box";
import type { SsoSettingsBody } from "./sso-contract";

// Single sign-on per organization through its OpenID Connect provider
// (docs/adr/0159-organization-sso.md, 0160, 0161): the settings an OrganizationAdmin keeps, the
// organization an address signs in through, who an ID token's address may sign in as (and the
// just-in-time membership of a new address of the organization's domain), and "require SSO".

/** next-auth's provider id of an organization's SSO: `sso-<organization id>`. */
export const ssoProviderPrefix = "sso-";
export const ssoProviderId = (organizationId: string) => `${ssoProviderPrefix}${organizationId}`;

/** The redirect URI the organization registers at its identity provider. */
export function ssoCallbackUrl(organizationId: string): string {
  return new URL(`/api/auth/callback/${ssoProviderId(organizationId)}`, getConfig().publicBaseUrl).href;
}

/** The client secret's associated data: a sealed secret copied to another organization's row does not open. */
const secretContext = (organizationId: string) => `sso:${organizationId}`;

type SsoRow = typeof organizationSso.$inferSelect;

function presentSettings(organizationId: string, row: SsoRow | undefined) {
  return {
    callbackUrl: ssoCallbackUrl(organizationId),
    settings: row
      ? {
          issuer: row.issuer,
          clientId: row.clientId,
          clientSecretSet: true as const,
          emailDomain: row.emailDomain,
          defaultRole: row.defaultRole as Exclude<Role, "OrganizationAdmin">,
          requireSso: row.requireSso,
          updatedAt: row.updatedAt.toISOString(),
        }
      : null,
  };
}

/** GET …/sso: the settings without the secret (`clientSecretSet`), and the callback URL to register. */
export const getSsoSettings = organizationVerb("sso.read", async ({ db, access }) => {
  const [row] = await db.select().from(organizationSso).where(eq(organizationSso.organizationId, access.organization.id));
  return presentSettings(access.organization.id, row);
});

/** PUT …/sso: sets every field; the client secret is required the first time and kept when omitted later. */
export const putSsoSettings = organizationVerb("sso.manage", async ({ access, write }, body: SsoSettingsBody) =>
  write(async (tx) => {
    const organizationId = access.organization.id;
    const [current] = await tx.select().from(organizationSso).where(eq(organizationSso.organizationId, organizationId)).for("update");
    if (!current && body.clientSecret === undefined) {
      throw new ConflictError("The client secret is required when single sign-on is first configured.", "client_secret_required");
    }
    if (body.emailDomain) {
      const [claimed] = await tx
        .select({ organizationId: organizationSso.organizationId })
        .from(organizationSso)
        .where(and(eq(organizationSso.emailDomain, body.emailDomain), sql`${organizationSso.organizationId} <> ${organizationId}`));
      if (claimed) throw new ConflictError(`Another organization signs in ${body.emailDomain} addresses through its single sign-on; a domain belongs to one organization.`, "domain_taken");
    }
    const values = {
      issuer: body.issuer,
      clientId: body.clientId,
      clientSecretCiphertext: body.clientSecret === undefined ? current!.clientSecretCiphertext : sealSecret(body.clientSecret, secretContext(organizationId)),
      emailDomain: body.emailDomain,
      defaultRole: body.defaultRole,
      requireSso: body.requireSso,
      updatedAt: new Date(),
    };
    const [row] = await tx
      .insert(organizationSso)
      .values({ organizationId, ...values })
      .onConflictDoUpdate({ target: organizationSso.organizationId, set: values })
      .returning();
    const { clientSecretCiphertext: _sealed, updatedAt: _at, ...recorded } = values;
    return audited(presentSettings(organizationId, row), {
      action: current ? "sso.updated" : "sso.configured",
      targetType: "organization",
      targetId: organizationId,
      data: { ...recorded, clientSecretChanged: body.clientSecret !== undefined },
    });
  }),
);

/** DELETE …/sso: single sign-on off; members sign in with their passwords again. */
export const deleteSsoSettings = organizationVerb("sso.manage", async ({ access, write }) =>
  write(async (tx) => {
    const removed = await tx.delete(organizationSso).where(eq(organizationSso.organizationId, access.organization.id)).returning({ issuer: organizationSso.issuer });
    if (removed.length === 0) return audited(undefined, []);
    return audited(undefined, { action: "sso.removed", targetType: "organization", targetId: access.organization.id, data: { issuer: removed[0]!.issuer } });
  }),
);

/** The organization whose SSO signs in this address (by its domain), or null. */
export async function findSsoOrganizationForEmail(db: Db, email: string): Promise<{ organizationId: string; organizationName: string } | null> {
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  const [row] = await db
    .select({ organizationId: organizationSso.organizationId, organizationName: organizations.name })
    .from(organizationSso)
    .innerJoin(organizations, eq(organizations.id, organizationSso.organizationId))
    .where(eq(organizationSso.emailDomain, domain));
  return row ?? null;
}

export type SsoClientSettings = { organizationId: string; organizationName: string; issuer: string; clientId: string; clientSecret: string };

/** What the sign-in needs to talk to the organization's provider (the secret opened), or null when it has no SSO. */
export async function loadSsoClientSettings(db: Db, organizationId: string): Promise<SsoClientSettings | null> {
  const [row] = await db
    .select({ sso: organizationSso, organizationName: organizations.name })
    .from(organizationSso)
    .innerJoin(organizations, eq(organizations.id, organizationSso.organizationId))
    .where(eq(organizationSso.organizationId, organizationId));
  if (!row) return null;
  return {
    organizationId,
    organizationName: row.organizationName,
    issuer: row.sso.issuer,
    clientId: row.sso.clientId,
    clientSecret: openSecret(row.sso.clientSecretCiphertext, secretContext(organizationId)),
  };
}

/** Why an SSO sign-in is refused; the login page says each in words (components/sso-sign-in.tsx). */
export type SsoRefusal = "SsoNoEmail" | "SsoNotMember" | "SsoUserDisabled" | "SsoUnavailable";

export type SsoSignInOutcome = { ok: true; user: { id: string; email: string; name: string | null } } | { ok: false; refusal: SsoRefusal };

/**
 * Who a verified ID token of the organization's provider signs in as. The address must be
 * asserted and not marked unverified. An account with a membership in the organization (on it or
 * on one of its projects) signs in; an address of the organization's domain without one gets it,
 * with the default role (and a new account, passwordless, if it has none): just in time, audited.
 * Anything else is refused, and nothing is written.
 */
export async function resolveSsoSignIn(db: Db, organizationId: string, claims: { email?: unknown; email_verified?: unknown; name?: unknown }): Promise<SsoSignInOutcome> {
  if (typeof claims.email !== "string" || claims.email_verified === false) return { ok: false, refusal: "SsoNoEmail" };
  const email = claims.email.trim().toLowerCase();
  const name = typeof claims.name === "string" && claims.name.trim() ? claims.name.trim().slice(0, 120) : null;
  const [sso] = await db.select().from(organizationSso).where(eq(organizationSso.organizationId, organizationId));
  if (!sso) return { ok: false, refusal: "SsoUnavailable" };
  const inDomain = sso.emailDomain !== null && email.endsWith(`@${sso.emailDomain}`);
  return trailWriter(db, null)<SsoSignInOutcome>(async (tx) => {
    const [existing] = await tx.select().from(users).where(sql`lower(${users.email}) = ${email}`).for("update");
    if (existing?.disabledAt) return trailAudited<SsoSignInOutcome>({ ok: false, refusal: "SsoUserDisabled" }, []);
    if (existing && (await hasMembershipIn(tx, existing.id, organizationId))) {
      return trailAudited<SsoSignInOutcome>({ ok: true, user: { id: existing.id, email: existing.email, name: existing.name } }, []);
    }
    if (!inDomain) return trailAudited<SsoSignInOutcome>({ ok: false, refusal: "SsoNotMember" }, []);
    const user = existing ?? (await tx.insert(users).values({ email, name }).returning())[0]!;
    const [membership] = await tx.insert(memberships).values({ userId: user.id, organizationId, role: sso.defaultRole }).returning({ id: memberships.id });
    return trailAudited<SsoSignInOutcome>({ ok: true, user: { id: user.id, email: user.email, name: user.name } }, {
      organizationId,
      projectId: null,
      actorUserId: user.id,
      action: "member.joined_by_sso",
      targetType: "membership",
      targetId: membership!.id,
      data: { email, role: sso.defaultRole, issuer: sso.issuer, newAccount: !existing },
    });
  });
}

/** A membership on the organization or on one of its projects. */
async function hasMembershipIn(tx: Db, userId: string, organizationId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: memberships.id })
    .from(memberships)
    .leftJoin(projects, eq(projects.id, memberships.projectId))
    .where(and(eq(memberships.userId, userId), or(eq(memberships.organizationId, organizationId), eq(projects.organizationId, organizationId))))
    .limit(1);
  return row !== undefined;
}

/**
 * The organization that refuses this user's password ("require SSO"), or null. A member of such an
 * organization (on it or on one of its projects) signs in through its SSO; an OrganizationAdmin
 * of it still may use a password: the way back in when the identity provider fails or is
 * misconfigured (docs/adr/0160-require-sso.md).
 */
export async function ssoRequiredFor(db: Db, userId: string): Promise<{ organizationName: string } | null> {
  const rows = await db
    .select({ organizationId: organizationSso.organizationId, organizationName: organizations.name, role: memberships.role, projectId: memberships.projectId })
    .from(memberships)
    .leftJoin(projects, eq(projects.id, memberships.projectId))
    .innerJoin(organizationSso, or(eq(organizationSso.organizationId, memberships.organizationId), eq(organizationSso.organizationId, projects.organizationId)))
    .innerJoin(organizations, eq(organizations.id, organizationSso.organizationId))
    .where(and(eq(memberships.userId, userId), eq(organizationSso.requireSso, true)));
  const adminOf = new Set(rows.filter((row) => row.projectId === null && row.role === "OrganizationAdmin").map((row) => row.organizationId));
  const refusing = rows.find((row) => !adminOf.has(row.organizationId));
  return refusing ? { organizationName: refusing.organizationName } : null;
}
