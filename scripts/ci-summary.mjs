#!/usr/bin/env node
// Sums up a CI run from what its steps left in the report folder: the tests Playwright had to
// retry (flaky: the run is green, the issue is not), each step's duration (steps.tsv, written by
// .ci/run and scripts/run-tests.mjs), the ten slowest tests, and one closing count line.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const dir = process.argv[2];
const counts = { passed: 0, failed: 0, skipped: 0 };
const tests = [];
const flaky = [];

/** Every test of a Playwright JSON report with its file, title path and results. */
function* playwrightTests(suite, titles = []) {
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests) yield { file: spec.file, title: [...titles, spec.title].join(" › "), test };
  }
  for (const child of suite.suites ?? []) yield* playwrightTests(child, suite.title && !suite.title.endsWith(".ts") ? [...titles, suite.title] : titles);
}

for (const file of readdirSync(dir).filter((name) => name.endsWith(".json"))) {
  const run = file.replace(/\.json$/, "");
  const report = JSON.parse(readFileSync(path.join(dir, file), "utf8"));
  if (report.stats && "expected" in report.stats) {
    counts.passed += report.stats.expected + report.stats.flaky;
    counts.failed += report.stats.unexpected;
    counts.skipped += report.stats.skipped;
    for (const suite of report.suites) {
      for (const { file: specFile, title, test } of playwrightTests(suite)) {
        const name = `${run}: ${specFile} › ${title}`;
        if (test.status === "flaky") flaky.push(`${name} (${test.results.length} attempts)`);
        for (const result of test.results) tests.push({ name, ms: result.duration });
      }
    }
  } else {
    counts.passed += report.numPassedTests;
    counts.failed += report.numFailedTests;
    counts.skipped += report.numPendingTests + report.numTodoTests;
    for (const fileResult of report.testResults) {
      const specFile = path.relative(process.cwd(), fileResult.name);
      for (const assertion of fileResult.assertionResults) tests.push({ name: `${run}: ${specFile} › ${assertion.fullName}`, ms: assertion.duration ?? 0 });
    }
  }
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

console.log("\n== Summary");
if (flaky.length > 0) {
  console.log(`Flaky: ${flaky.length} test(s) passed only on a retry:`);
  for (const name of flaky) console.log(`  ${name}`);
} else {
  console.log("Flaky: none (no test was retried)");
}

const stepsFile = path.join(dir, "steps.tsv");
if (existsSync(stepsFile)) {
  console.log("\nSteps:");
  let total = 0;
  for (const line of readFileSync(stepsFile, "utf8").trim().split("\n")) {
    const [name, stepSeconds, code] = line.split("\t");
    total += Number(stepSeconds);
    console.log(`  ${name.padEnd(52)} ${stepSeconds.padStart(5)} s${code === "0" ? "" : `  FAILED (exit ${code})`}`);
  }
  // Steps run side by side (type check and lint; the two branches of .ci/run): the run's own clock (CI_STARTED, epoch seconds) when .ci/run set it.
  const started = Number(process.env.CI_STARTED);
  if (started > 0) total = Math.round(Date.now() / 1000 - started);
  console.log(`  ${(started > 0 ? "the whole run" : "all steps").padEnd(52)} ${String(total).padStart(5)} s`);
}

console.log("\nThe ten slowest tests:");
for (const { name, ms } of tests.sort((a, b) => b.ms - a.ms).slice(0, 10)) console.log(`  ${seconds(ms).padStart(8)}  ${name}`);

console.log(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(counts.failed > 0 || counts.passed === 0 ? 1 : 0);
