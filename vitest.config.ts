import path from "node:path";
import { defineConfig } from "vitest/config";

// In CI every run also writes a JSON report, summed up by scripts/ci-summary.mjs.
const reportDir = process.env.CI_REPORT_DIR;
const reportName = process.env.CI_REPORT_NAME ?? "pglite";

/**
 * Two projects. "units" (`*.unit.test.ts`) never opens a database: its files get an empty
 * DATA_DIR and a DATABASE_URL nothing listens on, so a unit test that reaches the database fails
 * instead of passing on the wrong layer. "database" (every other test file) gets a migrated
 * database of its own per file; the PostgreSQL pass of scripts/run-tests.mjs runs it alone.
 */
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    // Two cores, two workers: files run side by side, each on a database of its own (setup.ts).
    maxWorkers: 2,
    environment: "node",
    // Guards against a hang only: no verdict may depend on how busy the machine is.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: reportDir ? ["default", "json"] : ["default"],
    outputFile: reportDir ? { json: path.join(reportDir, `vitest-${reportName}.json`) } : undefined,
    projects: [
      {
        extends: true,
        test: {
          name: "units",
          include: ["lib/**/*.unit.test.ts", "app/**/*.unit.test.ts", "browser/**/*.unit.test.ts", "shared/**/*.unit.test.ts", "testing/**/*.unit.test.ts"],
          setupFiles: ["testing/unit-setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "database",
          include: ["lib/**/*.test.ts", "app/**/*.test.ts", "testing/**/*.test.ts"],
          exclude: ["**/*.unit.test.ts", "**/node_modules/**"],
          globalSetup: ["testing/global-setup.ts"],
          setupFiles: ["testing/setup.ts"],
        },
      },
    ],
  },
});
