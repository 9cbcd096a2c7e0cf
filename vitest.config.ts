import path from "node:path";
import { defineConfig } from "vitest/config";

// In CI every run also writes a JSON report, summed up by scripts/ci-summary.mjs.
const reportDir = process.env.CI_REPORT_DIR;
const reportName = process.env.CI_REPORT_NAME ?? "pglite";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["lib/**/*.test.ts", "app/**/*.test.ts"],
    globalSetup: ["lib/testing/global-setup.ts"],
    setupFiles: ["lib/testing/setup.ts"],
    // Two cores, two workers: files run side by side, each on a database of its own (setup.ts).
    maxWorkers: 2,
    environment: "node",
    // Guards against a hang only: no verdict may depend on how busy the machine is.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: reportDir ? ["default", "json"] : ["default"],
    outputFile: reportDir ? { json: path.join(reportDir, `vitest-${reportName}.json`) } : undefined,
  },
});
