import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { authenticate } from "@/lib/auth/authenticate";
import { findProjectAccess } from "@/lib/auth/project-access";
import { getDb, schema, type Db } from "@/lib/db";
import type { Role } from "@/lib/db/schema";
import { apiRequest, createTestMember, createTestProject } from "@/testing/factories";
import { audited as trailAudited, operatorContext, operatorVerb, type OperatorContext } from "./operator-verbs";
import { audited, permissionOfVerb, projectVerb, type ProjectContext } from "./verbs";

// The service layer's guarantees, on the real database: a verb checks its permission before its
// body runs, and a change and its audit row commit together or not at all.

let db: Db;
let projectId: string;
const contexts = new Map<Role, ProjectContext>();

async function contextOf(role: Role): Promise<ProjectContext> {
  const { token } = await createTestMember(role, { projectId });
  const actor = await authenticate(db, apiRequest("GET", "/api/x", { token }));
  const access = await findProjectAccess(db, actor, projectId);
  if (!access) throw new Error(`no access for the ${role}`);
  return { db, actor, access };
}

/** A write verb that names a webhook endpoint after its input, then fails when told to. */
const addEndpoint = projectVerb("webhook.write", async (ctx, input: { url: string; failAfterInsert?: boolean }) =>
  ctx.write(async (tx) => {
    const [row] = await tx.insert(schema.webhookEndpoints).values({ projectId: ctx.access.project.id, url: input.url, eventTypes: [], createdBy: ctx.actor.userId }).returning();
    if (input.failAfterInsert) throw new Error("the change fails after its insert");
    return audited(row!, { action: "webhook.endpoint_created", targetType: "webhook_endpoint", targetId: row!.id });
  }),
);

const endpointsAt = (url: string) => db.select().from(schema.webhookEndpoints).where(eq(schema.webhookEndpoints.url, url));
const auditRowsOf = (targetId: string) => db.select().from(schema.auditEvents).where(eq(schema.auditEvents.targetId, targetId));

beforeAll(async () => {
  db = await getDb();
  projectId = (await createTestProject("Service verbs")).project.id;
  for (const role of ["Viewer", "Editor", "ProjectManager"] as const) contexts.set(role, await contextOf(role));
});

describe("projectVerb", () => {
  it("refuses a caller whose role is below the verb's permission before its body runs: nothing is written", async () => {
    for (const role of ["Viewer", "Editor"] as const) {
      const url = `https://hooks.example/${role}`;
      await expect(addEndpoint(contexts.get(role)!, { url })).rejects.toMatchObject({ kind: "forbidden", message: expect.stringContaining("ProjectManager") });
      expect(await endpointsAt(url)).toEqual([]);
    }
  });

  it("a permitted write commits its row and its audit row, with the actor and the project", async () => {
    const ctx = contexts.get("ProjectManager")!;
    const row = await addEndpoint(ctx, { url: "https://hooks.example/ok" });
    expect(await endpointsAt("https://hooks.example/ok")).toHaveLength(1);
    expect(await auditRowsOf(row.id)).toEqual([
      expect.objectContaining({ projectId, organizationId: ctx.access.project.organizationId, actorUserId: ctx.actor.userId, action: "webhook.endpoint_created" }),
    ]);
  });

  it("a change that fails after its insert leaves neither the row nor an audit row", async () => {
    const url = "https://hooks.example/fails";
    const trailBefore = await db.select().from(schema.auditEvents).where(eq(schema.auditEvents.projectId, projectId));
    await expect(addEndpoint(contexts.get("ProjectManager")!, { url, failAfterInsert: true })).rejects.toThrow("the change fails after its insert");
    expect(await endpointsAt(url)).toEqual([]);
    expect(await db.select().from(schema.auditEvents).where(eq(schema.auditEvents.projectId, projectId))).toEqual(trailBefore);
  });

  it("a verb says which permission it checks; a plain function is not a verb", () => {
    expect(permissionOfVerb(addEndpoint)).toBe("webhook.write");
    expect(permissionOfVerb(async () => {})).toBeUndefined();
  });
});

describe("operatorVerb", () => {
  /** Makes an organization named after its input: the operator's kind of change. */
  const addOrganization = operatorVerb(async ({ write }, name: string) =>
    write(async (tx) => {
      const [row] = await tx.insert(schema.organizations).values({ name }).returning();
      return trailAudited(row!, { organizationId: row!.id, action: "organization.created", targetType: "organization", targetId: row!.id });
    }),
  );
  const organizationsNamed = (name: string) => db.select().from(schema.organizations).where(eq(schema.organizations.name, name));

  it("refuses any actor but the operator before its body runs, even one cast past the type: nothing is written", async () => {
    const name = `Refused ${projectId}`;
    const user = contexts.get("ProjectManager")!;
    await expect(addOrganization({ db, actor: user.actor } as unknown as OperatorContext, name)).rejects.toMatchObject({ kind: "forbidden" });
    expect(await organizationsNamed(name)).toEqual([]);
  });

  it("the operator's change commits with its trail row in the organization it names, with no actor", async () => {
    const row = await addOrganization(operatorContext(db), `Made ${projectId}`);
    expect(await auditRowsOf(row.id)).toEqual([expect.objectContaining({ organizationId: row.id, projectId: null, actorUserId: null, action: "organization.created" })]);
  });
});
