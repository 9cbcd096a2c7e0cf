import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { channelPins, templates } from "@/lib/db/schema";
import { PUT as pinDevRoute } from "@/app/api/Projects/[projectId]/channels/DEV/route";
import { PUT as pinStagingRoute } from "@/app/api/Projects/[projectId]/channels/STAGING/route";
import { DELETE as cancelRoute } from "@/app/api/Projects/[projectId]/templates/[templateId]/scheduled-deploy/route";
import { apiRequest, createTestMember, createTestProject, createTestProjectIn, routeParams } from "@/testing/factories";
import { archive, deploy, remove, uploadSmall } from "@/testing/template-api";
import { fireDueDeploys } from "./release-scheduler";

// The release lifecycle's invariants under random sequences of deploy, rollback, archive, delete,
// pin, schedule, cancel and the scheduler firing, several at once (issue 36, docs/adr/0150-release-control.md),
// on the run's database: never two Production templates, never a once-Production template deleted,
// a pin only on a Testing or Production template, a schedule only on one that can go live, and
// never a 5xx — a refused step is a 4xx.

let organizationId: string;
let admin: string;

beforeAll(async () => {
  const { organization } = await createTestProject("Lifecycle properties");
  organizationId = organization.id;
  admin = (await createTestMember("OrganizationAdmin", { organizationId })).token;
});

type Step =
  | { kind: "deploy" | "archive" | "delete" | "cancel"; template: number }
  | { kind: "schedule"; template: number; minutes: number }
  | { kind: "pin"; channel: "DEV" | "STAGING"; template: number | null }
  | { kind: "fire"; minutes: number };

const templateIndex = fc.integer({ min: 0, max: 3 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constantFrom("deploy" as const, "archive" as const, "delete" as const, "cancel" as const), template: templateIndex }),
  fc.record({ kind: fc.constant("schedule" as const), template: templateIndex, minutes: fc.integer({ min: 1, max: 30 }) }),
  fc.record({ kind: fc.constant("pin" as const), channel: fc.constantFrom("DEV" as const, "STAGING" as const), template: fc.option(templateIndex, { nil: null }) }),
  fc.record({ kind: fc.constant("fire" as const), minutes: fc.integer({ min: 0, max: 40 }) }),
);

async function run(projectId: string, ids: string[], step: Step): Promise<Response | null> {
  const params = (templateId: string) => routeParams({ projectId, templateId });
  switch (step.kind) {
    case "deploy":
      return deploy(admin, projectId, ids[step.template]!);
    case "schedule":
      return deploy(admin, projectId, ids[step.template]!, { at: new Date(Date.now() + step.minutes * 60_000).toISOString() });
    case "archive":
      return archive(admin, projectId, ids[step.template]!);
    case "delete":
      return remove(admin, projectId, ids[step.template]!);
    case "cancel":
      return cancelRoute(apiRequest("DELETE", `/api/Projects/${projectId}/templates/${ids[step.template]}/scheduled-deploy`, { token: admin }), params(ids[step.template]!));
    case "pin": {
      const route = step.channel === "DEV" ? pinDevRoute : pinStagingRoute;
      const body = { templateId: step.template === null ? null : ids[step.template]! };
      return route(apiRequest("PUT", `/api/Projects/${projectId}/channels/${step.channel}`, { token: admin, body }), routeParams({ projectId }));
    }
    case "fire":
      await fireDueDeploys(await getDb(), new Date(Date.now() + step.minutes * 60_000));
      return null;
  }
}

describe("release lifecycle properties", () => {
  it("random concurrent steps keep every invariant and answer no 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(step, { minLength: 1, maxLength: 3 }), { minLength: 3, maxLength: 8 }), async (rounds) => {
        const projectId = (await createTestProjectIn(organizationId, `Properties ${randomUUID()}`)).id;
        const ids = await Promise.all([0, 1, 2, 3].map(async (i) => (await uploadSmall(admin, projectId, `T${i}`)).id));
        const everProduction = new Set<string>();
        const db = await getDb();
        for (const round of rounds) {
          // The steps of a round run at once, as concurrent callers.
          const answers = await Promise.all(round.map((one) => run(projectId, ids, one)));
          for (const [index, answer] of answers.entries()) {
            if (answer) expect(answer.status, `${JSON.stringify(round[index])}: ${await answer.clone().text()}`).toBeLessThan(500);
          }
          const rows = await db.select().from(templates).where(eq(templates.projectId, projectId));
          expect(rows.filter((row) => row.status === "Production").length).toBeLessThanOrEqual(1);
          for (const row of rows) if (row.everProduction) everProduction.add(row.id);
          const present = new Set(rows.map((row) => row.id));
          for (const id of everProduction) expect(present.has(id), `template ${id} was Production and is gone`).toBe(true);
          for (const row of rows) if (row.deployAt) expect(["Testing", "Previous"]).toContain(row.status);
          const pins = await db.select().from(channelPins).where(eq(channelPins.projectId, projectId));
          for (const pin of pins) expect(["Testing", "Production"]).toContain(rows.find((row) => row.id === pin.templateId)?.status);
        }
      }),
      { numRuns: 20 },
    );
  });
});
