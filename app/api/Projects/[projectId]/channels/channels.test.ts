import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { auditEvents } from "@/lib/db/schema";
import type { ChannelServingJson } from "@/lib/releases/contract";
import { apiRequest, createTestMember, createTestProject, createTestProjectIn, routeParams } from "@/testing/factories";
import { archive, deploy, errorPaths, okJson, problemOf, uploadSmall } from "@/testing/template-api";
import { PUT as pinDevRoute } from "./DEV/route";
import { PUT as pinStagingRoute } from "./STAGING/route";
import { GET as listRoute } from "./route";

// Channel pins (issue 36, docs/adr/0150-release-control.md) on the run's database: DEV and
// STAGING serve a pinned Testing template, else the newest Testing one, else Production; PROD
// follows deploy. Editors pin DEV, ProjectManagers STAGING.

let organizationId: string;
let admin: { token: string };

beforeAll(async () => {
  const { organization } = await createTestProject("Channels");
  organizationId = organization.id;
  admin = await createTestMember("OrganizationAdmin", { organizationId });
});

const newProject = async () => (await createTestProjectIn(organizationId, `Channels ${randomUUID()}`)).id;
const list = async (projectId: string, token = admin.token) =>
  (await okJson<{ items: ChannelServingJson[] }>(await listRoute(apiRequest("GET", `/api/Projects/${projectId}/channels`, { token }), routeParams({ projectId })))).items;
const pin = (channel: "DEV" | "STAGING", projectId: string, templateId: string | null, token = admin.token) =>
  (channel === "DEV" ? pinDevRoute : pinStagingRoute)(apiRequest("PUT", `/api/Projects/${projectId}/channels/${channel}`, { token, body: { templateId } }), routeParams({ projectId }));
const servedBy = async (projectId: string) => Object.fromEntries((await list(projectId)).map((item) => [item.channel, [item.served?.name ?? null, item.because]]));

describe("channels", () => {
  it("two candidates: each testing channel pinned to its own, PROD on Production; unpinned, DEV serves the newest again", async () => {
    const projectId = await newProject();
    const live = await uploadSmall(admin.token, projectId, "live");
    await okJson(await deploy(admin.token, projectId, live.id));
    expect(await servedBy(projectId)).toEqual({ DEV: ["live", "production"], STAGING: ["live", "production"], PROD: ["live", "production"] });
    const mine = await uploadSmall(admin.token, projectId, "mine");
    const yours = await uploadSmall(admin.token, projectId, "yours");
    expect(await servedBy(projectId)).toEqual({ DEV: ["yours", "newest-testing"], STAGING: ["yours", "newest-testing"], PROD: ["live", "production"] });

    expect(await okJson<ChannelServingJson>(await pin("DEV", projectId, mine.id))).toMatchObject({ channel: "DEV", served: { id: mine.id }, because: "pinned", pin: { template: { id: mine.id } } });
    await okJson(await pin("STAGING", projectId, yours.id));
    expect(await servedBy(projectId)).toEqual({ DEV: ["mine", "pinned"], STAGING: ["yours", "pinned"], PROD: ["live", "production"] });
    // A newer upload does not move a pinned channel.
    await uploadSmall(admin.token, projectId, "newest");
    expect((await servedBy(projectId)).DEV).toEqual(["mine", "pinned"]);

    expect(await okJson<ChannelServingJson>(await pin("DEV", projectId, null))).toMatchObject({ served: { name: "newest" }, because: "newest-testing", pin: null });
    const trail = await (await getDb()).select().from(auditEvents).where(eq(auditEvents.projectId, projectId)).orderBy(asc(auditEvents.createdAt), asc(auditEvents.id));
    expect(trail.filter((event) => event.targetType === "channel").map((event) => [event.action, event.targetId])).toEqual([
      ["channel.pinned", "DEV"],
      ["channel.pinned", "STAGING"],
      ["channel.unpinned", "DEV"],
    ]);
    // Unpinning again changes nothing and records nothing.
    await okJson(await pin("DEV", projectId, null));
    expect((await (await getDb()).select().from(auditEvents).where(eq(auditEvents.projectId, projectId))).filter((event) => event.action === "channel.unpinned")).toHaveLength(1);
  });

  it("a pinned template deployed keeps its pin while Production, loses it when it becomes Previous; archiving drops a pin", async () => {
    const projectId = await newProject();
    const candidate = await uploadSmall(admin.token, projectId, "candidate");
    const other = await uploadSmall(admin.token, projectId, "other");
    await okJson(await pin("STAGING", projectId, candidate.id));
    await okJson(await deploy(admin.token, projectId, candidate.id));
    expect((await servedBy(projectId)).STAGING).toEqual(["candidate", "pinned"]);
    await okJson(await deploy(admin.token, projectId, other.id));
    expect((await list(projectId)).find((item) => item.channel === "STAGING")).toMatchObject({ pin: null, served: { name: "other" }, because: "production" });

    const third = await uploadSmall(admin.token, projectId, "third");
    await okJson(await pin("DEV", projectId, third.id));
    await okJson(await archive(admin.token, projectId, third.id));
    expect((await list(projectId)).find((item) => item.channel === "DEV")!.pin).toBeNull();
  });

  it("roles: an Editor pins DEV, not STAGING; a Viewer lists but pins nothing", async () => {
    const projectId = await newProject();
    const template = await uploadSmall(admin.token, projectId, "role");
    const editor = await createTestMember("Editor", { projectId });
    const viewer = await createTestMember("Viewer", { projectId });
    await okJson(await pin("DEV", projectId, template.id, editor.token));
    expect((await problemOf(await pin("STAGING", projectId, template.id, editor.token), 403)).detail).toMatch(/ProjectManager/);
    await problemOf(await pin("DEV", projectId, null, viewer.token), 403);
    expect(await list(projectId, viewer.token)).toHaveLength(3);
  });

  it("refusals: another project's template or a malformed id → 422 naming templateId; a Production template → 409; nothing pinned", async () => {
    const projectId = await newProject();
    const elsewhere = await uploadSmall(admin.token, await newProject(), "elsewhere");
    expect(errorPaths(await problemOf(await pin("DEV", projectId, elsewhere.id), 422))).toEqual(["templateId"]);
    expect(errorPaths(await problemOf(await pin("DEV", projectId, "nope"), 422))).toEqual(["templateId"]);
    const live = await uploadSmall(admin.token, projectId, "live");
    await okJson(await deploy(admin.token, projectId, live.id));
    const problem = await problemOf(await pin("DEV", projectId, live.id), 409);
    expect(problem.detail).toBe(`Only a Testing template can be pinned; live ${live.version} is Production.`);
    expect((await list(projectId)).every((item) => item.pin === null)).toBe(true);
  });
});
