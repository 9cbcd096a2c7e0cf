import { and, asc, eq, isNotNull, lte } from "drizzle-orm";
import { sessionActor } from "@/lib/auth/authenticate";
import { findProjectAccess } from "@/lib/auth/project-access";
import { can } from "@/lib/auth/permissions";
import { recordProjectAuditEvent } from "@/lib/audit/record-audit-event";
import { getDb, type Db } from "@/lib/db";
import { templates, users } from "@/lib/db/schema";
import { isAppError } from "@/lib/errors";
import { startPeriodicTask, type PeriodicTask } from "@/lib/jobs/periodic-task";
import { goLive, lockProject, templateChange } from "./lifecycle";

// Scheduled go-lives (docs/adr/0150-release-control.md). Every app process looks for due ones
// every second; each is carried out in one transaction that holds the project row, so when two
// processes find the same one, the second reads it again after the first committed, finds it
// done, and does nothing: exactly once. The schedule is rows in the database, so a restart in
// between loses nothing: the next process to look carries it out.

/** How often each process looks: a go-live happens within about this long after its instant. */
export const releaseSchedulerIntervalMs = 1000;
/** Go-lives carried out per look. */
const batchSize = 20;

export type FiredGoLive = { templateId: string; outcome: "deployed" | "refused" | "skipped"; reason?: string };

/**
 * Carries out one template's due go-live, as the person who scheduled it, if it is still due
 * once the project row is held. When it can no longer go live (archived, Production already, the
 * scheduler lost the right to deploy) the schedule is dropped and the trail says why.
 */
export async function fireScheduledDeploy(db: Db, templateId: string, now = new Date()): Promise<FiredGoLive> {
  return db.transaction(async (tx) => {
    const [candidate] = await tx.select({ projectId: templates.projectId }).from(templates).where(eq(templates.id, templateId));
    if (!candidate) return { templateId, outcome: "skipped", reason: "gone" };
    await lockProject(tx, candidate.projectId);
    const [template] = await tx.select().from(templates).where(eq(templates.id, templateId)).for("update");
    if (!template?.deployAt || template.deployAt > now) return { templateId, outcome: "skipped", reason: "not due (done or cancelled elsewhere)" };
    const scheduledFor = template.deployAt.toISOString();
    const [user] = template.deployScheduledBy ? await tx.select().from(users).where(eq(users.id, template.deployScheduledBy)) : [];
    const access = user ? await findProjectAccess(tx, sessionActor(user), template.projectId) : null;
    const refuse = async (reason: string) => {
      await tx.update(templates).set({ deployAt: null, deployScheduledBy: null }).where(eq(templates.id, template.id));
      if (user && access) await recordProjectAuditEvent(tx, { userId: user.id }, access, templateChange(template, "template.deploy_failed", { scheduledFor, reason }));
      return { templateId, outcome: "refused" as const, reason };
    };
    if (!user || !access || !can(access.role, "template.deploy")) return refuse("the person who scheduled it can no longer deploy in this project");
    try {
      const { change } = await goLive(tx, template, { scheduledFor });
      await recordProjectAuditEvent(tx, { userId: user.id }, access, change);
      return { templateId, outcome: "deployed" };
    } catch (error) {
      if (isAppError(error, "already_production") || isAppError(error, "template_archived")) return refuse((error as Error).message);
      throw error;
    }
  });
}

/** Carries out every go-live due at `now` (oldest first); what happened to each. */
export async function fireDueDeploys(db: Db, now = new Date()): Promise<FiredGoLive[]> {
  const due = await db
    .select({ id: templates.id })
    .from(templates)
    .where(and(isNotNull(templates.deployAt), lte(templates.deployAt, now)))
    .orderBy(asc(templates.deployAt))
    .limit(batchSize);
  const fired: FiredGoLive[] = [];
  for (const { id } of due) fired.push(await fireScheduledDeploy(db, id, now));
  return fired;
}

/** The periodic look for due go-lives, started with the server (lib/server/start-up.ts). */
export function startReleaseScheduler(): PeriodicTask {
  return startPeriodicTask({
    name: "Scheduled go-lives",
    intervalMs: releaseSchedulerIntervalMs,
    retryMs: 5000,
    run: async () => {
      const fired = await fireDueDeploys(await getDb());
      const done = fired.filter((entry) => entry.outcome !== "skipped");
      return done.length > 0 ? done.map((entry) => `Scheduled go-live of template ${entry.templateId}: ${entry.outcome}${entry.reason ? ` (${entry.reason})` : ""}.`).join("\n") : undefined;
    },
  });
}
