import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { templates } from "@/lib/db/schema";
import { createTestProject } from "@/testing/factories";
import { findServedTemplate } from "./served-template";

type Status = "Testing" | "Production" | "Previous" | "Archived";

async function projectWith(rows: { name: string; status: Status; createdAt: string }[]) {
  const db = await getDb();
  const { project } = await createTestProject();
  for (const row of rows) {
    await db.insert(templates).values({
      projectId: project.id,
      name: row.name,
      kind: "LottieStandalone",
      status: row.status,
      everProduction: row.status !== "Testing" && row.status !== "Archived",
      createdAt: new Date(row.createdAt),
    });
  }
  return project.id;
}

describe("findServedTemplate – which template a channel serves", () => {
  it.each([
    { channel: "PROD", expected: "live" },
    { channel: "STAGING", expected: "newest test" },
    { channel: "DEV", expected: "newest test" },
  ] as const)("$channel with Production, two Testing, a Previous and an Archived → $expected", async ({ channel, expected }) => {
    const projectId = await projectWith([
      { name: "old", status: "Previous", createdAt: "2026-01-01T00:00:00Z" },
      { name: "live", status: "Production", createdAt: "2026-02-01T00:00:00Z" },
      { name: "older test", status: "Testing", createdAt: "2026-03-01T00:00:00Z" },
      { name: "newest test", status: "Testing", createdAt: "2026-04-01T00:00:00Z" },
      { name: "shelved", status: "Archived", createdAt: "2026-05-01T00:00:00Z" },
    ]);
    expect((await findServedTemplate(await getDb(), projectId, channel))?.name).toBe(expected);
  });

  it("DEV without a Testing template falls back to Production; PROD without Production serves nothing", async () => {
    const db = await getDb();
    const onlyLive = await projectWith([{ name: "live", status: "Production", createdAt: "2026-02-01T00:00:00Z" }]);
    expect((await findServedTemplate(db, onlyLive, "DEV"))?.name).toBe("live");
    const onlyTest = await projectWith([{ name: "test", status: "Testing", createdAt: "2026-02-01T00:00:00Z" }]);
    expect(await findServedTemplate(db, onlyTest, "PROD")).toBeNull();
  });
});
