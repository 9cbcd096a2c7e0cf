import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { auditEvents, memberships, templates } from "@/lib/db/schema";
import { findServedTemplate } from "@/lib/templates/served-template";
import { fireDueDeploys, fireScheduledDeploy } from "@/lib/templates/release-scheduler";
import { apiRequest, createTestMember, createTestProject, createTestProjectIn, routeParams } from "@/testing/factories";
import { archive, deploy, errorPaths, getOne, okJson, problemOf, uploadSmall, type TemplateJson } from "@/testing/template-api";
import { DELETE as cancelRoute } from "./[templateId]/scheduled-deploy/route";

// Rollback and scheduled go-lives (issue 36, docs/adr/0150-release-control.md), on the run's
// database: a Previous template deploys again; a deploy with `at` waits for the release
// scheduler, which carries it out once however many callers look, as the person who scheduled it.

let organizationId: string;
let admin: { user: { id: string }; token: string };

beforeAll(async () => {
  const { organization } = await createTestProject("Release");
  organizationId = organization.id;
  admin = await createTestMember("OrganizationAdmin", { organizationId });
});

const newProject = async () => (await createTestProjectIn(organizationId, `Release ${randomUUID()}`)).id;
const deployed = async (projectId: string, templateId: string, body?: unknown) => okJson<TemplateJson>(await deploy(admin.token, projectId, templateId, body));
const current = async (projectId: string, templateId: string) => okJson<TemplateJson>(await getOne(admin.token, projectId, templateId));
const cancel = (token: string, projectId: string, templateId: string) =>
  cancelRoute(apiRequest("DELETE", `/api/Projects/${projectId}/templates/${templateId}/scheduled-deploy`, { token }), routeParams({ projectId, templateId }));
const auditOf = async (templateId: string) =>
  (await getDb()).select().from(auditEvents).where(eq(auditEvents.targetId, templateId)).orderBy(asc(auditEvents.createdAt), asc(auditEvents.id));
const inAMinute = () => new Date(Date.now() + 60_000);

describe("rollback: deploying a Previous template", () => {
  it("makes it Production again, the current one Previous; the PROD channel serves it at once; the trail names both versions", async () => {
    const projectId = await newProject();
    const first = await uploadSmall(admin.token, projectId, "Plan");
    await deployed(projectId, first.id);
    const second = await uploadSmall(admin.token, projectId, "Plan");
    await deployed(projectId, second.id);
    expect((await findServedTemplate(await getDb(), projectId, "PROD"))?.id).toBe(second.id);

    const rolledBack = await deployed(projectId, first.id);
    expect(rolledBack).toMatchObject({ status: "Production", everProduction: true });
    expect((await current(projectId, second.id)).status).toBe("Previous");
    expect((await findServedTemplate(await getDb(), projectId, "PROD"))?.id).toBe(first.id);
    const event = (await auditOf(first.id)).at(-1)!;
    expect(event).toMatchObject({ action: "template.deployed", data: { rollback: true, previousProductionId: second.id, previousVersion: second.version } });
    // The rolled-back-from template can go live again the same way.
    expect((await deployed(projectId, second.id)).status).toBe("Production");
  });
});

describe("scheduled go-live", () => {
  it("`at` schedules without changing the status; the scheduler deploys it once due, as the person who scheduled it", async () => {
    const projectId = await newProject();
    const template = await uploadSmall(admin.token, projectId, "Later");
    const at = inAMinute();
    const scheduled = await deployed(projectId, template.id, { at: at.toISOString() });
    expect(scheduled).toMatchObject({ status: "Testing", scheduledDeployAt: at.toISOString() });
    // Not due yet: nothing happens.
    expect(await fireDueDeploys(await getDb(), new Date())).not.toContainEqual(expect.objectContaining({ templateId: template.id }));
    expect((await current(projectId, template.id)).status).toBe("Testing");

    const fired = await fireDueDeploys(await getDb(), new Date(at.getTime() + 1000));
    expect(fired).toContainEqual({ templateId: template.id, outcome: "deployed" });
    expect(await current(projectId, template.id)).toMatchObject({ status: "Production", scheduledDeployAt: null });
    const actions = (await auditOf(template.id)).map((event) => [event.action, event.actorUserId, (event.data as { scheduledFor?: string }).scheduledFor ?? null]);
    expect(actions).toEqual([
      ["template.uploaded", admin.user.id, null],
      ["template.deploy_scheduled", admin.user.id, null],
      ["template.deployed", admin.user.id, at.toISOString()],
    ]);
  });

  it("two schedulers looking at once: the go-live happens exactly once", async () => {
    const projectId = await newProject();
    const template = await uploadSmall(admin.token, projectId, "Race");
    const at = inAMinute();
    await deployed(projectId, template.id, { at: at.toISOString() });
    const db = await getDb();
    const later = new Date(at.getTime() + 1000);
    const outcomes = await Promise.all([fireScheduledDeploy(db, template.id, later), fireScheduledDeploy(db, template.id, later), fireDueDeploys(db, later)]);
    const flat = outcomes.flat().filter((entry) => entry.templateId === template.id);
    expect(flat.filter((entry) => entry.outcome === "deployed")).toHaveLength(1);
    expect((await auditOf(template.id)).filter((event) => event.action === "template.deployed")).toHaveLength(1);
  });

  it("a rollback may be scheduled too", async () => {
    const projectId = await newProject();
    const first = await uploadSmall(admin.token, projectId, "Back");
    await deployed(projectId, first.id);
    const second = await uploadSmall(admin.token, projectId, "Back");
    await deployed(projectId, second.id);
    const at = inAMinute();
    await deployed(projectId, first.id, { at: at.toISOString() });
    await fireDueDeploys(await getDb(), new Date(at.getTime() + 1000));
    expect([(await current(projectId, first.id)).status, (await current(projectId, second.id)).status]).toEqual(["Production", "Previous"]);
  });

  it("cancel: the schedule goes (audited); cancelling again → 409; an Editor → 403", async () => {
    const projectId = await newProject();
    const template = await uploadSmall(admin.token, projectId, "Cancel");
    const at = inAMinute();
    await deployed(projectId, template.id, { at: at.toISOString() });
    const editor = await createTestMember("Editor", { projectId });
    await problemOf(await cancel(editor.token, projectId, template.id), 403);
    expect(await okJson<TemplateJson>(await cancel(admin.token, projectId, template.id))).toMatchObject({ scheduledDeployAt: null, status: "Testing" });
    expect((await problemOf(await cancel(admin.token, projectId, template.id), 409)).code).toBe("not_scheduled");
    await fireDueDeploys(await getDb(), new Date(at.getTime() + 1000));
    expect((await current(projectId, template.id)).status).toBe("Testing");
    expect((await auditOf(template.id)).map((event) => event.action)).toEqual(["template.uploaded", "template.deploy_scheduled", "template.deploy_cancelled"]);
  });

  it("archiving a scheduled template drops its schedule", async () => {
    const projectId = await newProject();
    const template = await uploadSmall(admin.token, projectId, "Archived");
    await deployed(projectId, template.id, { at: inAMinute().toISOString() });
    expect(await okJson<TemplateJson>(await archive(admin.token, projectId, template.id))).toMatchObject({ status: "Archived", scheduledDeployAt: null });
  });

  it("the person who scheduled it lost the right to deploy: the go-live is dropped, the trail says why", async () => {
    const projectId = await newProject();
    const manager = await createTestMember("ProjectManager", { projectId });
    const template = await uploadSmall(admin.token, projectId, "Demoted");
    const at = inAMinute();
    await okJson(await deploy(manager.token, projectId, template.id, { at: at.toISOString() }));
    const db = await getDb();
    await db.update(memberships).set({ role: "Editor" }).where(and(eq(memberships.userId, manager.user.id), eq(memberships.projectId, projectId)));
    expect(await fireScheduledDeploy(db, template.id, new Date(at.getTime() + 1000))).toMatchObject({ outcome: "refused" });
    expect(await current(projectId, template.id)).toMatchObject({ status: "Testing", scheduledDeployAt: null });
    expect((await auditOf(template.id)).at(-1)).toMatchObject({ action: "template.deploy_failed", data: { reason: "the person who scheduled it can no longer deploy in this project" } });
  });

  it.each([
    [{ at: new Date(Date.now() - 60_000).toISOString() }, "must be in the future (deploy without it to go live now)"],
    [{ at: new Date(Date.now() + 400 * 86_400_000).toISOString() }, "must be within a year"],
    [{ at: "tomorrow" }, "must be an ISO 8601 date-time with a time zone, e.g. 2026-12-01T09:00:00Z"],
    [{ at: "2026-12-01T09:00:00" }, "must be an ISO 8601 date-time with a time zone, e.g. 2026-12-01T09:00:00Z"],
  ])("%j → 422 naming `at`, nothing scheduled", async (body, message) => {
    const projectId = await newProject();
    const template = await uploadSmall(admin.token, projectId, "Bad");
    const problem = await problemOf(await deploy(admin.token, projectId, template.id, body), 422);
    expect(errorPaths(problem)).toEqual(["at"]);
    expect(problem.errors?.[0]?.message).toBe(message);
    const [row] = await (await getDb()).select().from(templates).where(eq(templates.id, template.id));
    expect(row).toMatchObject({ status: "Testing", deployAt: null });
  });
});
