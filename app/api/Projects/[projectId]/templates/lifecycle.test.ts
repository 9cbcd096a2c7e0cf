import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { and, eq, ne } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { auditEvents, templateFiles, templates } from "@/lib/db/schema";
import { createTestMember, createTestProject, createTestProjectIn } from "@/testing/factories";
import { solidPng } from "@/testing/fixtures/lottie-builders";
import type { UploadPart } from "@/testing/multipart";
import {
  archive,
  auditActionsFor,
  blobPathOf,
  deploy,
  errorPaths,
  getOne,
  list,
  okJson,
  preview,
  problemOf,
  productionCount,
  remove,
  smallTemplateParts,
  statusesOf,
  templateRowCounts,
  uniqueParts,
  upload,
  uploadSmall,
  type TemplateJson,
} from "@/testing/template-api";

let organizationId: string;
let admin: { user: { id: string }; token: string };

beforeAll(async () => {
  const { organization } = await createTestProject("Lifecycle");
  organizationId = organization.id;
  admin = await createTestMember("OrganizationAdmin", { organizationId });
});

async function newProject(): Promise<string> {
  return (await createTestProjectIn(organizationId, `Lifecycle ${randomUUID()}`)).id;
}

const isoMs = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function deployed(projectId: string, templateId: string): Promise<TemplateJson> {
  return okJson<TemplateJson>(await deploy(admin.token, projectId, templateId));
}

async function archived(projectId: string, templateId: string): Promise<TemplateJson> {
  return okJson<TemplateJson>(await archive(admin.token, projectId, templateId));
}

/** A template of the project in the given state, reached only through the API. */
async function templateIn(projectId: string, state: "Testing" | "Production" | "Previous" | "Archived" | "ArchivedAfterProduction") {
  const template = await uploadSmall(admin.token, projectId, state);
  if (state === "Testing") return template;
  if (state === "Archived") return archived(projectId, template.id);
  await deployed(projectId, template.id);
  if (state === "Production") return okJson<TemplateJson>(await getOne(admin.token, projectId, template.id));
  await deployed(projectId, (await uploadSmall(admin.token, projectId, "newer")).id);
  if (state === "Previous") return okJson<TemplateJson>(await getOne(admin.token, projectId, template.id));
  return archived(projectId, template.id);
}

const statusOf = async (projectId: string, templateId: string) =>
  (await okJson<TemplateJson>(await getOne(admin.token, projectId, templateId))).status;

// ── deploy ─────────────────────────────────────────────────────────────────────────────

describe("POST /api/Projects/:id/templates/:templateId/deploy", () => {
  it("POST …/deploy – Testing → Production: everProduction true, deployedAt set", async () => {
    const projectId = await newProject();
    const template = await uploadSmall(admin.token, projectId);
    const startedAt = Date.now();

    const result = await deployed(projectId, template.id);
    expect(result).toMatchObject({ id: template.id, status: "Production", everProduction: true, archivedAt: null });
    expect(result.deployedAt).toMatch(isoMs);
    expect(Date.parse(result.deployedAt!)).toBeGreaterThanOrEqual(startedAt - 1000);
    expect(Date.parse(result.deployedAt!)).toBeLessThanOrEqual(Date.now() + 1000);
    expect(result.files).toEqual(template.files);
    expect(await okJson<TemplateJson>(await getOne(admin.token, projectId, template.id))).toEqual(result);
    expect(await auditActionsFor(template.id)).toEqual(["template.uploaded", "template.deployed"]);
  });

  it("POST …/deploy – deploying another template demotes the first to Previous", async () => {
    const projectId = await newProject();
    const first = await deployed(projectId, (await uploadSmall(admin.token, projectId, "first")).id);
    const second = await uploadSmall(admin.token, projectId, "second");

    expect((await deployed(projectId, second.id)).status).toBe("Production");
    const demoted = await okJson<TemplateJson>(await getOne(admin.token, projectId, first.id));
    expect(demoted).toMatchObject({ status: "Previous", everProduction: true, deployedAt: first.deployedAt });
    expect(await productionCount(projectId)).toBe(1);

    const [event] = await (await getDb())
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, second.id), eq(auditEvents.action, "template.deployed")));
    expect(event?.data).toMatchObject({ previousProductionId: first.id });
  });

  it.each(["Production", "Archived", "ArchivedAfterProduction"] as const)(
    "POST /api/Projects/:id/templates/:templateId/deploy – a %s template → 409, unchanged",
    async (state) => {
      const projectId = await newProject();
      const template = await templateIn(projectId, state);
      const auditBefore = await auditActionsFor(template.id);

      const problem = await problemOf(await deploy(admin.token, projectId, template.id), 409);
      expect(problem.code).toBe(state === "Production" ? "already_production" : "template_archived");
      expect(await okJson<TemplateJson>(await getOne(admin.token, projectId, template.id))).toEqual(template);
      expect(await auditActionsFor(template.id)).toEqual(auditBefore);
    },
  );

  it("POST …/deploy – 20 parallel deploys of 20 Testing templates: no 500, exactly one Production", async () => {
    const projectId = await newProject();
    const uploaded: TemplateJson[] = [];
    for (let i = 0; i < 20; i++) uploaded.push(await uploadSmall(admin.token, projectId, `parallel ${i}`));

    const responses = await Promise.all(uploaded.map((template) => deploy(admin.token, projectId, template.id)));
    const codes = responses.map((response) => response.status);
    for (const code of codes) expect([200, 409]).toContain(code);

    expect(await productionCount(projectId)).toBe(1);
    const statuses = await statusesOf(projectId);
    const values = [...statuses.values()];
    expect(values.filter((status) => status === "Production")).toHaveLength(1);
    for (const status of values) expect(["Production", "Previous", "Testing"]).toContain(status);
    // Every deploy that answered 200 made its template Production for a while; the others stayed Testing.
    expect(values.filter((status) => status !== "Testing")).toHaveLength(codes.filter((code) => code === 200).length);
    uploaded.forEach((template, i) => expect(statuses.get(template.id) === "Testing").toBe(codes[i] === 409));
  });
});

// ── archive ────────────────────────────────────────────────────────────────────────────

describe("POST /api/Projects/:id/templates/:templateId/archive", () => {
  it.each(["Testing", "Previous"] as const)("POST …/archive – a %s template → 200 Archived, archivedAt set", async (state) => {
    const projectId = await newProject();
    const template = await templateIn(projectId, state);
    const result = await archived(projectId, template.id);
    expect(result).toMatchObject({ id: template.id, status: "Archived", everProduction: state === "Previous" });
    expect(result.archivedAt).toMatch(isoMs);
    expect(await statusOf(projectId, template.id)).toBe("Archived");
    expect((await auditActionsFor(template.id)).at(-1)).toBe("template.archived");
  });

  it("POST …/archive – an Archived template → 200, a no-op (archivedAt and audit unchanged)", async () => {
    const projectId = await newProject();
    const template = await templateIn(projectId, "Archived");
    const auditBefore = await auditActionsFor(template.id);
    expect(await archived(projectId, template.id)).toEqual(template);
    expect(await auditActionsFor(template.id)).toEqual(auditBefore);
  });

  it("POST …/archive – the Production template → 409 saying to deploy a newer version; it stays Production", async () => {
    const projectId = await newProject();
    const template = await templateIn(projectId, "Production");
    const problem = await problemOf(await archive(admin.token, projectId, template.id), 409);
    expect(problem.code).toBe("conflict");
    expect(problem.detail).toMatch(/deploy a newer version/i);
    expect(await statusOf(projectId, template.id)).toBe("Production");
    expect(await auditActionsFor(template.id)).toEqual(["template.uploaded", "template.deployed"]);
  });
});

// ── delete ─────────────────────────────────────────────────────────────────────────────

const sharedImage = () => solidPng([10, 200, 30, 255], 16, 16);

describe("DELETE /api/Projects/:id/templates/:templateId", () => {
  it.each(["Testing", "Archived"] as const)("DELETE …/templates/:templateId – a %s template → 204; rows and blobs removed", async (state) => {
    const projectId = await newProject();
    const template = await templateIn(projectId, state);
    const blob = blobPathOf(template.files.templateJson!.sha256);
    expect(existsSync(blob)).toBe(true);

    const response = await remove(admin.token, projectId, template.id);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");

    await problemOf(await getOne(admin.token, projectId, template.id), 404);
    expect(await templateRowCounts(projectId)).toEqual({ templates: 0, files: 0 });
    expect(existsSync(blob)).toBe(false);
    expect(await auditActionsFor(template.id)).toContain("template.deleted");
  });

  it("DELETE …/templates/:templateId – a blob two templates share stays until the last of them is deleted", async () => {
    const projectId = await newProject();
    const [asset] = uniqueParts([{ name: "assetFiles", filename: "shared.png", content: sharedImage(), contentType: "image/png" }]) as [UploadPart];
    const first = await okJson<TemplateJson>(await upload(admin.token, projectId, smallTemplateParts("one", [asset])), 201);
    const second = await okJson<TemplateJson>(await upload(admin.token, projectId, smallTemplateParts("two", [asset])), 201);
    const shared = first.files.assetFiles[0]!.sha256;
    expect(second.files.assetFiles[0]!.sha256).toBe(shared);
    const own = [first, second].map((t) => blobPathOf(t.files.templateJson!.sha256));

    expect((await remove(admin.token, projectId, first.id)).status).toBe(204);
    expect(existsSync(blobPathOf(shared))).toBe(true);
    expect(existsSync(own[0]!)).toBe(false);
    expect(existsSync(own[1]!)).toBe(true);
    expect((await okJson<TemplateJson>(await getOne(admin.token, projectId, second.id))).files.assetFiles[0]!.sha256).toBe(shared);

    expect((await remove(admin.token, projectId, second.id)).status).toBe(204);
    expect(existsSync(blobPathOf(shared))).toBe(false);
    expect(existsSync(own[1]!)).toBe(false);
  });

  it("DELETE …/templates/:templateId – a blob shared with another project's template stays", async () => {
    const [home, away] = [await newProject(), await newProject()];
    const parts = uniqueParts(smallTemplateParts("same content"));
    const mine = await okJson<TemplateJson>(await upload(admin.token, home, parts), 201);
    const theirs = await okJson<TemplateJson>(await upload(admin.token, away, parts), 201);
    expect((await remove(admin.token, home, mine.id)).status).toBe(204);
    expect(existsSync(blobPathOf(theirs.files.templateJson!.sha256))).toBe(true);
  });

  it.each(["Production", "Previous", "ArchivedAfterProduction"] as const)(
    "DELETE /api/Projects/:id/templates/:templateId – a template that was ever Production (%s) → 409, kept",
    async (state) => {
      const projectId = await newProject();
      const template = await templateIn(projectId, state);
      const problem = await problemOf(await remove(admin.token, projectId, template.id), 409);
      expect(problem.code).toBe("conflict");
      expect(await okJson<TemplateJson>(await getOne(admin.token, projectId, template.id))).toEqual(template);
      expect(existsSync(blobPathOf(template.files.templateJson!.sha256))).toBe(true);
      expect(await auditActionsFor(template.id)).not.toContain("template.deleted");
    },
  );
});

// ── read ───────────────────────────────────────────────────────────────────────────────

describe("GET /api/Projects/:id/templates", () => {
  let projectId: string;
  let byStatus: Record<"Testing" | "Production" | "Previous" | "Archived", string[]>;
  let newestFirst: string[];

  beforeAll(async () => {
    projectId = await newProject();
    const made: TemplateJson[] = [];
    for (let i = 0; i < 6; i++) made.push(await uploadSmall(admin.token, projectId, `listed ${i}`));
    await deployed(projectId, made[0]!.id);
    await deployed(projectId, made[1]!.id);
    await archived(projectId, made[2]!.id);
    byStatus = { Previous: [made[0]!.id], Production: [made[1]!.id], Archived: [made[2]!.id], Testing: [made[5]!.id, made[4]!.id, made[3]!.id] };
    newestFirst = made.map((t) => t.id).reverse();
  });

  it("GET …/templates – every template of the project, newest first", async () => {
    const listed = await okJson<{ items: TemplateJson[] }>(await list(admin.token, projectId));
    expect(listed.items.map((t) => t.id)).toEqual(newestFirst);
    for (const item of listed.items) expect(item.projectId).toBe(projectId);
    const createdAt = listed.items.map((t) => Date.parse(t.createdAt));
    expect([...createdAt].sort((a, b) => b - a)).toEqual(createdAt);
    expect(listed.items[0]).toEqual(await okJson<TemplateJson>(await getOne(admin.token, projectId, newestFirst[0]!)));
  });

  it.each(["Testing", "Production", "Previous", "Archived"] as const)("GET …/templates?status=%s – only that status", async (status) => {
    const listed = await okJson<{ items: TemplateJson[] }>(await list(admin.token, projectId, `?status=${status}`));
    expect(listed.items.map((t) => t.id)).toEqual(byStatus[status]);
    for (const item of listed.items) expect(item.status).toBe(status);
  });

  it.each(["bogus", "testing", ""])("GET /api/Projects/:id/templates?status=%s → 422 at status", async (status) => {
    const problem = await problemOf(await list(admin.token, projectId, `?status=${status}`), 422);
    expect(errorPaths(problem)).toEqual(["status"]);
  });

  it("GET …/templates – a project without templates → empty items", async () => {
    expect(await okJson<{ items: TemplateJson[] }>(await list(admin.token, await newProject()))).toEqual({ items: [] });
  });
});

describe("/api/Projects/:id/templates/:templateId – ids that name no template of the project → 404", () => {
  let projectId: string;
  let foreign: TemplateJson;

  beforeAll(async () => {
    projectId = await newProject();
    await uploadSmall(admin.token, projectId, "mine");
    foreign = await uploadSmall(admin.token, await newProject(), "another project's");
  });

  const calls: Record<string, (id: string) => Promise<Response>> = {
    "GET /api/Projects/:id/templates/:templateId": (id) => getOne(admin.token, projectId, id),
    "DELETE /api/Projects/:id/templates/:templateId": (id) => remove(admin.token, projectId, id),
    "POST /api/Projects/:id/templates/:templateId/deploy": (id) => deploy(admin.token, projectId, id),
    "POST /api/Projects/:id/templates/:templateId/archive": (id) => archive(admin.token, projectId, id),
    "POST /api/Projects/:id/templates/:templateId/preview": (id) => preview(admin.token, projectId, id, { data: {} }),
  };
  const ids: Record<string, () => string> = {
    "an unknown id": () => randomUUID(),
    "a malformed id": () => "not-a-uuid",
    "a UUID with a suffix": () => `${randomUUID()}x`,
    "another project's template id": () => foreign.id,
  };

  it.each(Object.keys(ids).flatMap((id) => Object.keys(calls).map((call) => [call, id] as const)))("%s – %s → 404", async (call, id) => {
    const problem = await problemOf(await calls[call]!(ids[id]!()), 404);
    expect(problem.code).toBe("not_found");
  });

  it("another project's template was left untouched by those calls", async () => {
    const [row] = await (await getDb()).select().from(templates).where(eq(templates.id, foreign.id));
    expect(row?.status).toBe("Testing");
    const files = await (await getDb()).select().from(templateFiles).where(eq(templateFiles.templateId, foreign.id));
    expect(files).toHaveLength(1);
    expect(await auditActionsFor(foreign.id)).toEqual(["template.uploaded"]);
  });
});

// ── audit ──────────────────────────────────────────────────────────────────────────────

describe("templates – audit events", () => {
  it("upload, deploy, archive and delete each write one audit event naming the actor and project", async () => {
    const projectId = await newProject();
    const live = await uploadSmall(admin.token, projectId, "live");
    await deployed(projectId, live.id);
    const retired = await uploadSmall(admin.token, projectId, "retired");
    await archived(projectId, retired.id);
    await archived(projectId, retired.id); // a no-op: no second event
    expect((await remove(admin.token, projectId, retired.id)).status).toBe(204);

    expect(await auditActionsFor(live.id)).toEqual(["template.uploaded", "template.deployed"]);
    expect(await auditActionsFor(retired.id)).toEqual(["template.uploaded", "template.archived", "template.deleted"]);
    const rows = await (await getDb())
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.projectId, projectId), ne(auditEvents.action, "project.created")));
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      expect(row).toMatchObject({ organizationId, projectId, actorUserId: admin.user.id, targetType: "template" });
      expect(row.data).toMatchObject({ version: "1.0" });
    }
  });
});
