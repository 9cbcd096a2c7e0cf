import { and, asc, eq } from "drizzle-orm";
import { ConflictError } from "@/lib/errors";
import { memberships, type Role } from "@/lib/db/schema";
import type { Db } from "@/lib/db";

/**
 * Locks the organization's admin memberships (in id order, so concurrent changes queue instead of
 * deadlocking) and refuses a change that would leave none: an organization without an admin
 * could never get its members managed again. The organization verbs ask (organizations.ts), for
 * the API and the CLI alike.
 */
export async function requireAnotherAdmin(tx: Db, organizationId: string, member: { email: string; role: Role; projectId: string | null }, change: string) {
  if (member.projectId !== null || member.role !== "OrganizationAdmin") return;
  const admins = await tx
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, "OrganizationAdmin")))
    .orderBy(asc(memberships.id))
    .for("update");
  if (admins.length <= 1) {
    throw new ConflictError(`${member.email} is the organization's last OrganizationAdmin; make someone else an admin before you ${change}.`);
  }
}
