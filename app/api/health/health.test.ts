import { describe, expect, it } from "vitest";
import { startRollupJob } from "@/lib/analytics/rollups/rollup-job";
import { GET } from "./route";

const health = async () => {
  const response = await GET(new Request("http://localhost/api/health"));
  expect(response.status).toBe(200);
  return response.json();
};

describe("GET /api/health", () => {
  it("answers 200 with the database driver in use; no rollup job has run in this process yet", async () => {
    expect(await health()).toEqual({
      status: "ok",
      database: process.env.DATABASE_URL ? "postgres" : "pglite",
      analyticsRollups: null,
    });
  });

  it("once the rollup job has looked, says how far behind it is", async () => {
    const job = startRollupJob();
    try {
      await expect.poll(async () => (await health()).analyticsRollups, { timeout: 60_000 }).not.toBeNull();
      const { analyticsRollups } = await health();
      expect(analyticsRollups).toMatchObject({ lagSeconds: 0, pendingProjects: 0 });
      expect(["worker", "in-process"]).toContain(analyticsRollups.runner);
      expect(Date.parse(analyticsRollups.checkedAt)).not.toBeNaN();
    } finally {
      await job.stop();
    }
  });
});
