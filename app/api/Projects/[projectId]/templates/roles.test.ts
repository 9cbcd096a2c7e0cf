import { beforeAll, describe, expect, it } from "vitest";
import type { Role } from "@/lib/db/schema";
import { createTestMember, createTestProject } from "@/testing/factories";
import {
  archive,
  deploy,
  getOne,
  list,
  preview,
  problemOf,
  remove,
  smallTemplateParts,
  statusesOf,
  templateRowCounts,
  upload,
  uploadSmall,
  type TemplateJson,
} from "@/testing/template-api";

// Who may do what with templates (docs/design.md, Roles): Viewer reads; Editor also uploads and
// previews; ProjectManager and OrganizationAdmin do everything.

let projectId: string;
let setupToken: string;
const tokens: Partial<Record<Caller, string>> = {};

type Caller = Role | "no token" | "invalid token" | "member of another project";
const callers: Caller[] = ["Viewer", "Editor", "ProjectManager", "OrganizationAdmin", "no token", "invalid token", "member of another project"];

beforeAll(async () => {
  const { organization, project } = await createTestProject("Roles");
  projectId = project.id;
  setupToken = (await createTestMember("OrganizationAdmin", { organizationId: organization.id })).token;
  tokens.Viewer = (await createTestMember("Viewer", { projectId })).token;
  tokens.Editor = (await createTestMember("Editor", { projectId })).token;
  tokens.ProjectManager = (await createTestMember("ProjectManager", { projectId })).token;
  tokens.OrganizationAdmin = (await createTestMember("OrganizationAdmin", { organizationId: organization.id })).token;
  tokens["invalid token"] = `rbk_${"x".repeat(43)}`;
  const elsewhere = await createTestProject("Elsewhere");
  tokens["member of another project"] = (await createTestMember("OrganizationAdmin", { organizationId: elsewhere.organization.id })).token;
});

type Operation = "list" | "get" | "upload" | "preview" | "deploy" | "archive" | "delete";

/** Each call runs against a template of its own, so allowed calls never disturb the next case. */
const operations: Record<Operation, { route: string; minimum: Role; ok: number; call: (token: string | undefined, template: TemplateJson) => Promise<Response> }> = {
  list: { route: "GET /api/Projects/:id/templates", minimum: "Viewer", ok: 200, call: (token) => list(token, projectId) },
  get: { route: "GET /api/Projects/:id/templates/:templateId", minimum: "Viewer", ok: 200, call: (token, template) => getOne(token, projectId, template.id) },
  upload: { route: "POST /api/Projects/:id/templates/upload", minimum: "Editor", ok: 201, call: (token) => upload(token, projectId, smallTemplateParts("by role")) },
  preview: { route: "POST /api/Projects/:id/templates/:templateId/preview", minimum: "Editor", ok: 200, call: (token, template) => preview(token, projectId, template.id, { data: { title: "Hi" } }) },
  deploy: { route: "POST /api/Projects/:id/templates/:templateId/deploy", minimum: "ProjectManager", ok: 200, call: (token, template) => deploy(token, projectId, template.id) },
  archive: { route: "POST /api/Projects/:id/templates/:templateId/archive", minimum: "ProjectManager", ok: 200, call: (token, template) => archive(token, projectId, template.id) },
  delete: { route: "DELETE /api/Projects/:id/templates/:templateId", minimum: "ProjectManager", ok: 204, call: (token, template) => remove(token, projectId, template.id) },
};

const rank: Record<Role, number> = { Viewer: 0, Editor: 1, ProjectManager: 2, OrganizationAdmin: 3 };

function expectedStatus(caller: Caller, operation: Operation): number {
  if (caller === "no token" || caller === "invalid token") return 401;
  if (caller === "member of another project") return 404;
  return rank[caller] >= rank[operations[operation].minimum] ? operations[operation].ok : 403;
}

// [route, caller, expected status, operation]: printf-style titles, e.g. "POST …/deploy – Editor → 403".
const cases = callers.flatMap((caller) =>
  (Object.keys(operations) as Operation[]).map((operation) => [operations[operation].route, caller, expectedStatus(caller, operation), operation] as const),
);

describe("/api/Projects/:id/templates – roles", () => {
  it.each(cases)("%s – %s → %i", async (_route, caller, status, operation) => {
    const template = await uploadSmall(setupToken, projectId, `${operation} as ${caller}`);
    const before = { rows: await templateRowCounts(projectId), statuses: await statusesOf(projectId) };

    const response = await operations[operation].call(tokens[caller as keyof typeof tokens], template);
    const body = await response.clone().text();
    expect(response.status, body).toBe(status);

    if (status >= 400) {
      const problem = await problemOf(response, status);
      if (status === 401) expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(problem.code).toBe({ 401: "unauthorized", 403: "forbidden", 404: "not_found" }[status]);
      // A refused call changes nothing.
      expect(await templateRowCounts(projectId)).toEqual(before.rows);
      expect(await statusesOf(projectId)).toEqual(before.statuses);
    }
  });
});
