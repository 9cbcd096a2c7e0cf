import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { ConflictError, ForbiddenError, GoneError, NotFoundError, ServiceUnavailableError, ValidationError } from "@/lib/errors";
import { spendActionLimits } from "@/lib/auth/action-limits";
import { isUuid } from "@/lib/auth/project-access";
import { assertAcceptablePassword } from "@/lib/auth/password-policy";
import { generateInvitationToken, hashPassword, sha256Hex } from "@/lib/auth/secrets";
import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db";
import { linkMessage, logUndeliveredLink, mailConfigured, sendMail, type Delivery } from "@/lib/mail";
import { memberInvitations, memberships, organizations, projects, users, type Role } from "@/lib/db/schema";
import type { AccountContext } from "@/lib/services/account-verbs";
import { audited as trailAudited, trailWriter } from "@/lib/services/operator-verbs";
import { audited, organizationVerb, type OrganizationActor } from "@/lib/services/organization-verbs";

// Adding a member is an invitation the person accepts: until then it grants nothing (no
// membership row exists) and the admin learns nothing about the address (the answer is the same
// whether it has an account or not). The admin gets the accept URL once and hands it over; a
// new address accepts it by choosing a password there, an existing user by signing in and
// accepting. Invitations expire, can be revoked, and each step is audited.
// With mail configured (lib/mail) the accept URL goes to the invited address by mail and the
// admin never sees it; without, the admin gets it once as before and the server log has it too
// (docs/adr/0153-mail-and-the-link-fallback.md). Inviting and re-sending are limited per admin
// and organization, since each can send a mail (docs/adr/0154-invitation-resend-and-limits.md).

/** How long an invitation can be accepted. */
export const invitationLifetime = "7 days";

type InvitationRow = {
  id: string;
  email: string;
  role: Role;
  projectId: string | null;
  projectName: string | null;
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
  expired: boolean;
};

const invitationColumns = {
  id: memberInvitations.id,
  email: memberInvitations.email,
  role: memberInvitations.role,
  projectId: memberInvitations.projectId,
  projectName: projects.name,
  createdAt: memberInvitations.createdAt,
  expiresAt: memberInvitations.expiresAt,
  acceptedAt: memberInvitations.acceptedAt,
  revokedAt: memberInvitations.revokedAt,
  // The database's clock decides expiry, as it set expires_at.
  expired: sql<boolean>`${memberInvitations.expiresAt} <= now()`,
};

function invitationStatus(row: InvitationRow) {
  if (row.revokedAt) return "revoked" as const;
  if (row.acceptedAt) return "accepted" as const;
  return row.expired ? ("expired" as const) : ("pending" as const);
}

const presentInvitation = (row: InvitationRow) => ({
  id: row.id,
  email: row.email,
  role: row.role,
  scope: row.projectId ? ("project" as const) : ("organization" as const),
  projectId: row.projectId,
  projectName: row.projectName,
  status: invitationStatus(row),
  createdAt: row.createdAt,
  expiresAt: row.expiresAt,
});

const isOpen = and(isNull(memberInvitations.acceptedAt), isNull(memberInvitations.revokedAt));

const acceptUrlOf = (token: string) => `${getConfig().publicBaseUrl}/invitations/${token}`;

const roleNames: Record<Role, string> = { OrganizationAdmin: "an organization admin", ProjectManager: "a project manager", Editor: "an editor", Viewer: "a viewer" };

/**
 * Hands the accept URL over: by mail when configured (a refused send throws, so the caller's
 * transaction, and the token with it, is undone), otherwise to the server log and the answer.
 */
async function deliverInvitation(
  invitation: { email: string; role: Role; projectName: string | null; expiresAt: Date },
  context: { organizationName: string; invitedBy: string | null },
  token: string,
): Promise<{ delivery: Delivery; acceptUrl?: string }> {
  const acceptUrl = acceptUrlOf(token);
  if (!mailConfigured()) {
    logUndeliveredLink("invitation", invitation.email, acceptUrl);
    return { delivery: "link", acceptUrl };
  }
  const where = invitation.projectName ? `the project ${invitation.projectName} of ${context.organizationName}` : context.organizationName;
  const message = linkMessage({
    to: invitation.email,
    subject: `You are invited to ${context.organizationName} on Reelbind`,
    paragraphs: [`${context.invitedBy ?? "An administrator"} invited you to join ${where} on Reelbind as ${roleNames[invitation.role]}.`, "Open the link to accept: you choose a password there, or sign in if you have an account."],
    link: acceptUrl,
    linkLabel: "Accept the invitation",
    after: [`The link works once, until ${invitation.expiresAt.toUTCString()}. If you did not expect this invitation, ignore this mail.`],
  });
  try {
    await sendMail(message);
  } catch (error) {
    console.error(`Sending the invitation mail to ${invitation.email} failed:`, error instanceof Error ? error.message : error);
    throw new ServiceUnavailableError(`The invitation mail to ${invitation.email} could not be sent (the mail server did not take it), so no invitation was made. Try again; if it keeps failing, check SMTP_URL.`);
  }
  return { delivery: "email" };
}

/** Each invitation made or re-sent spends one of the admin's points in this organization. */
async function spendInvitation(db: Db, actor: OrganizationActor, organizationId: string) {
  await spendActionLimits(db, [{ limit: "invitation", key: `${organizationId}:${actor.userId ?? "operator"}` }], "Too many invitations sent from your account in this organization. Try again later.");
}

const actorEmail = (actor: OrganizationActor) => ("email" in actor ? actor.email : null);

/**
 * Invites an address to the organization or one of its projects. The same answer (201, the
 * invitation and its accept URL) whether the address has an account or not; an open invitation
 * for the same address and scope is replaced (its URL stops working). 409 only when the address
 * is already a member there, which the admin can see in the member list anyway.
 */
export const inviteMember = organizationVerb("member.manage", async ({ db, actor, access, write }, input: { email: string; role: Role; projectId?: string }) => {
  const projectId = input.projectId ?? null;
  await spendInvitation(db, actor, access.organization.id);
  return write(async (tx) => {
    if (projectId) {
      const [project] = await tx
        .select({ id: projects.id })
        .from(projects)
        .where(and(eq(projects.id, projectId), eq(projects.organizationId, access.organization.id)));
      if (!project) throw new ValidationError([{ path: "projectId", message: "must be a project of this organization" }]);
    }
    const [member] = await tx
      .select({ id: memberships.id })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(
        and(
          sql`lower(${users.email}) = ${input.email}`,
          projectId ? eq(memberships.projectId, projectId) : eq(memberships.organizationId, access.organization.id),
        ),
      );
    if (member) {
      throw new ConflictError(`${input.email} is already a member ${projectId ? "of that project" : "of the organization"}; change their role instead.`);
    }
    const replaced = await tx
      .update(memberInvitations)
      .set({ revokedAt: sql`now()` })
      .where(
        and(
          eq(memberInvitations.organizationId, access.organization.id),
          projectId ? eq(memberInvitations.projectId, projectId) : isNull(memberInvitations.projectId),
          eq(memberInvitations.email, input.email),
          isOpen,
        ),
      )
      .returning({ id: memberInvitations.id });
    const token = generateInvitationToken();
    const [created] = await tx
      .insert(memberInvitations)
      .values({
        organizationId: access.organization.id,
        projectId,
        email: input.email,
        role: input.role,
        tokenHash: sha256Hex(token),
        invitedBy: actor.userId,
        expiresAt: sql`now() + ${invitationLifetime}::interval`,
      })
      .returning({ id: memberInvitations.id });
    const [row] = await tx
      .select(invitationColumns)
      .from(memberInvitations)
      .leftJoin(projects, eq(projects.id, memberInvitations.projectId))
      .where(eq(memberInvitations.id, created!.id));
    const delivered = await deliverInvitation(row!, { organizationName: access.organization.name, invitedBy: actorEmail(actor) }, token);
    return audited(
      { ...presentInvitation(row!), ...delivered },
      {
        projectId,
        action: "member.invited",
        targetType: "invitation",
        targetId: created!.id,
        data: { email: input.email, role: input.role, delivery: delivered.delivery, ...(replaced.length ? { replaces: replaced.map((row) => row.id) } : {}) },
      },
    );
  });
});

/** The organization's open invitations (pending, or expired and never answered), newest first. */
export const listInvitations = organizationVerb("member.list", async ({ db, access }) => {
  const rows = await db
    .select(invitationColumns)
    .from(memberInvitations)
    .leftJoin(projects, eq(projects.id, memberInvitations.projectId))
    .where(and(eq(memberInvitations.organizationId, access.organization.id), isOpen))
    .orderBy(desc(memberInvitations.createdAt));
  return rows.map(presentInvitation);
});

/** Its accept URL stops working (idempotent); an accepted invitation is 409 (remove the membership instead). */
export const revokeInvitation = organizationVerb("member.manage", async ({ access, write }, invitationId: string) => {
  const notFound = new NotFoundError(`Invitation ${invitationId} was not found in this organization.`);
  if (!isUuid(invitationId)) throw notFound;
  await write(async (tx) => {
    const [row] = await tx
      .select({ email: memberInvitations.email, role: memberInvitations.role, projectId: memberInvitations.projectId, acceptedAt: memberInvitations.acceptedAt, revokedAt: memberInvitations.revokedAt })
      .from(memberInvitations)
      .where(and(eq(memberInvitations.id, invitationId), eq(memberInvitations.organizationId, access.organization.id)))
      .for("update");
    if (!row) throw notFound;
    if (row.acceptedAt) throw new ConflictError(`${row.email} has accepted this invitation already; remove their membership instead.`);
    if (row.revokedAt) return audited(undefined, []);
    await tx.update(memberInvitations).set({ revokedAt: sql`now()` }).where(eq(memberInvitations.id, invitationId));
    return audited(undefined, {
      projectId: row.projectId,
      action: "member.invitation_revoked",
      targetType: "invitation",
      targetId: invitationId,
      data: { email: row.email, role: row.role },
    });
  });
});

/**
 * Sends a pending (or expired) invitation again with a new token: the old link stops working and
 * the seven days start afresh. An accepted or revoked one is 409 / 410 (invite again instead).
 */
export const resendInvitation = organizationVerb("member.manage", async ({ db, actor, access, write }, invitationId: string) => {
  const notFound = new NotFoundError(`Invitation ${invitationId} was not found in this organization.`);
  if (!isUuid(invitationId)) throw notFound;
  await spendInvitation(db, actor, access.organization.id);
  return write(async (tx) => {
    const [open] = await tx
      .select({ acceptedAt: memberInvitations.acceptedAt, revokedAt: memberInvitations.revokedAt, email: memberInvitations.email })
      .from(memberInvitations)
      .where(and(eq(memberInvitations.id, invitationId), eq(memberInvitations.organizationId, access.organization.id)))
      .for("update");
    if (!open) throw notFound;
    if (open.acceptedAt) throw new ConflictError(`${open.email} has accepted this invitation already.`);
    if (open.revokedAt) throw new GoneError(`The invitation of ${open.email} was revoked; invite them again instead.`);
    const token = generateInvitationToken();
    await tx
      .update(memberInvitations)
      .set({ tokenHash: sha256Hex(token), expiresAt: sql`now() + ${invitationLifetime}::interval` })
      .where(eq(memberInvitations.id, invitationId));
    const [row] = await tx
      .select(invitationColumns)
      .from(memberInvitations)
      .leftJoin(projects, eq(projects.id, memberInvitations.projectId))
      .where(eq(memberInvitations.id, invitationId));
    const delivered = await deliverInvitation(row!, { organizationName: access.organization.name, invitedBy: actorEmail(actor) }, token);
    return audited(
      { ...presentInvitation(row!), ...delivered },
      { projectId: row!.projectId, action: "member.invitation_resent", targetType: "invitation", targetId: invitationId, data: { email: row!.email, role: row!.role, delivery: delivered.delivery } },
    );
  });
});

/** What the accept page shows: the invitation behind an accept token, or null for an unknown one. */
export async function findInvitationByToken(db: Db, token: string) {
  if (!/^rbi_[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const [row] = await db
    .select({ ...invitationColumns, organizationName: organizations.name })
    .from(memberInvitations)
    .innerJoin(organizations, eq(organizations.id, memberInvitations.organizationId))
    .leftJoin(projects, eq(projects.id, memberInvitations.projectId))
    .where(eq(memberInvitations.tokenHash, sha256Hex(token)));
  return row ? { ...presentInvitation(row), organizationName: row.organizationName } : null;
}

/** The invitation behind the token, locked for its acceptance; 404 unknown, 410 revoked, accepted or expired. */
async function lockOpenInvitation(tx: Db, token: string) {
  const [row] = await tx
    .select({
      id: memberInvitations.id,
      organizationId: memberInvitations.organizationId,
      projectId: memberInvitations.projectId,
      email: memberInvitations.email,
      role: memberInvitations.role,
      acceptedAt: memberInvitations.acceptedAt,
      revokedAt: memberInvitations.revokedAt,
      expired: sql<boolean>`${memberInvitations.expiresAt} <= now()`,
    })
    .from(memberInvitations)
    .where(eq(memberInvitations.tokenHash, sha256Hex(token)))
    .for("update");
  if (!row) throw new NotFoundError("No invitation has this token.");
  if (row.revokedAt) throw new GoneError("This invitation was revoked; ask the organization's admin for a new one.");
  if (row.acceptedAt) throw new GoneError("This invitation has been accepted already.");
  if (row.expired) throw new GoneError("This invitation has expired; ask the organization's admin for a new one.");
  return row;
}

type OpenInvitation = Awaited<ReturnType<typeof lockOpenInvitation>>;

/**
 * Makes the membership the invitation offers (a membership made meanwhile on that scope stays as
 * it is) and closes the invitation; the trail row names the one who accepted as its actor.
 */
async function completeInvitation(tx: Db, invitation: OpenInvitation, user: { id: string; email: string }) {
  await tx
    .insert(memberships)
    .values({
      userId: user.id,
      organizationId: invitation.projectId ? null : invitation.organizationId,
      projectId: invitation.projectId,
      role: invitation.role,
    })
    .onConflictDoNothing();
  const [membership] = await tx
    .select({ id: memberships.id, role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.userId, user.id), invitation.projectId ? eq(memberships.projectId, invitation.projectId) : eq(memberships.organizationId, invitation.organizationId)));
  await tx.update(memberInvitations).set({ acceptedAt: sql`now()`, acceptedBy: user.id }).where(eq(memberInvitations.id, invitation.id));
  const accepted = {
    membershipId: membership!.id,
    userId: user.id,
    email: user.email,
    organizationId: invitation.organizationId,
    projectId: invitation.projectId,
    role: membership!.role,
    scope: invitation.projectId ? ("project" as const) : ("organization" as const),
  };
  return trailAudited(accepted, {
    organizationId: invitation.organizationId,
    projectId: invitation.projectId,
    actorUserId: user.id,
    action: "member.invitation_accepted",
    targetType: "invitation",
    targetId: invitation.id,
    data: { email: invitation.email, role: invitation.role },
  });
}

/**
 * An existing user accepts, signed in to the console as the invited address: their consent. A
 * token cannot accept (it may have been made for a script), nor can another account.
 */
export async function acceptInvitation({ db, actor }: AccountContext, { token }: { token: string }) {
  if (actor.via !== "session") throw new ForbiddenError("Accept an invitation in the console, signed in as the invited address; a token cannot accept one.");
  return trailWriter(db, actor.userId)(async (tx) => {
    const invitation = await lockOpenInvitation(tx, token);
    if (invitation.email !== actor.email.toLowerCase()) {
      throw new ForbiddenError(`This invitation is for ${invitation.email}; you are signed in as ${actor.email}. Sign in as ${invitation.email} to accept it.`);
    }
    return completeInvitation(tx, invitation, { id: actor.userId, email: actor.email });
  });
}

/**
 * A new address accepts by choosing its password: the account is made with the membership. An
 * address that has an account already is 409: its owner signs in and accepts, so the invitation
 * can never set an existing account's password.
 */
export async function createAccountFromInvitation({ db }: { db: Db }, { token, password, name }: { token: string; password: string; name?: string }) {
  const passwordHash = await hashPassword(password);
  return trailWriter(db, null)(async (tx) => {
    const invitation = await lockOpenInvitation(tx, token);
    const [existing] = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${invitation.email}`);
    if (existing) throw new ConflictError(`${invitation.email} has an account already: sign in as it and accept the invitation there.`, "account_exists");
    await assertAcceptablePassword(password, [invitation.email, name]);
    const [user] = await tx.insert(users).values({ email: invitation.email, name: name ?? null, passwordHash }).returning({ id: users.id, email: users.email });
    return completeInvitation(tx, invitation, user!);
  });
}
