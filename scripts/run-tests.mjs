#!/usr/bin/env node
// The test layers in order, each timed: `npm test` (the fast layers on the embedded database),
// `npm run test:postgres` (the database-backed suites against a PostgreSQL server, a fresh
// database per layer), `npm run test:all` (both, and the reliability suite on PGlite: what CI
// runs), `npm run test:stress` (the built-server and reliability suites with every core busy).
// Each step's duration goes to CI_REPORT_DIR/steps.tsv when that is set (scripts/ci-summary.mjs
// prints it) and is printed at the end either way.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";

const usage = `Usage: node scripts/run-tests.mjs [--build] [--embedded] [--reliability] [--postgres] [--stress]

  --build        npm start's build step alone (when the sources changed); every layer below
                 that needs the built app does it first
  --embedded     type check, lint, SDK size, unit and API tests and built-server tests on
                 PGlite (npm test)
  --reliability  the reliability suite (faults, load, abuse) on PGlite
  --postgres     the API tests (vitest's "database" project), built-server tests and the
                 reliability suite against the PostgreSQL server of TEST_POSTGRES_URL (default
                 postgres://postgres@127.0.0.1:5432/postgres), each in a fresh database dropped
                 afterwards; the unit tests and the browser-only specs, which open no database,
                 run in the PGlite pass alone (npm run test:postgres)
  --stress     the built-server and reliability suites on PGlite with one busy loop per core
               beside them (npm run test:stress)`;

const { values: flags } = parseArgs({
  options: { build: { type: "boolean" }, embedded: { type: "boolean" }, reliability: { type: "boolean" }, postgres: { type: "boolean" }, stress: { type: "boolean" }, help: { type: "boolean" } },
});
if (flags.help || !(flags.build || flags.embedded || flags.reliability || flags.postgres || flags.stress)) {
  console.log(usage);
  process.exit(flags.help ? 0 : 2);
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const timings = [];

/** Runs `npm run <script>` (or `command`, an argv array) with `env` on top of this process's environment; throws when it fails. */
async function step(name, script, env = {}) {
  console.log(`\n== ${name}`);
  const started = Date.now();
  const [file, ...args] = Array.isArray(script) ? script : [npm, "run", "--silent", script];
  const childEnv = { ...process.env, ...env };
  for (const [key, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[key];
  const code = await new Promise((resolve) => {
    const child = spawn(file, args, { stdio: "inherit", env: childEnv });
    child.once("exit", (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
  });
  const seconds = Math.round((Date.now() - started) / 1000);
  timings.push({ name, seconds, code });
  if (process.env.CI_REPORT_DIR) appendFileSync(`${process.env.CI_REPORT_DIR}/steps.tsv`, `${name}\t${seconds}\t${code}\n`);
  if (code !== 0) throw new Error(`${name} failed (exit code ${code})`);
}

/** Waits for steps started together, then fails with the first that failed. */
async function steps(started) {
  const failed = (await Promise.allSettled(started)).find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
}

/** A fresh, empty database on the TEST_POSTGRES_URL server for `fn`, dropped (with its connections) afterwards. */
async function withFreshDatabase(label, fn) {
  const serverUrl = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const name = `reelbind_test_${label}_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    await fn(url.toString());
  } finally {
    await admin.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {});
    await admin.end();
  }
}

/** One CPU-bound child per core, each ended by `stop()` (and by a 2 h cap should this script die). */
function startBusyLoops() {
  const loops = os.availableParallelism();
  const children = Array.from({ length: loops }, () =>
    spawn(process.execPath, ["-e", "const end = Date.now() + 7_200_000; while (Date.now() < end);"], { stdio: "ignore" }),
  );
  console.log(`${loops} busy loops started beside the suites`);
  return () => children.forEach((child) => child.kill("SIGKILL"));
}

let built = false;

/** `npm start`'s build step alone (bundles, then `next build` when the sources changed), so the suites' timings do not include it. Once per run. */
async function buildIfChanged() {
  if (built) return;
  built = true;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "reelbind-build-"));
  try {
    await step("build (when the sources changed)", [process.execPath, "scripts/prepare-start.mjs"], { DATA_DIR: dataDir, DATABASE_URL: undefined });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  if (flags.build) await buildIfChanged();
  if (flags.embedded) {
    // One single-threaded process each, with little output: on two cores they run side by side.
    await steps([step("type check", "typecheck"), step("lint", "lint")]);
    await step("SDK size", "sdk:size");
    await step("unit and API tests (PGlite)", "test:vitest");
    await buildIfChanged();
    await step("built-server tests (PGlite)", "test:e2e");
  }
  if (flags.reliability) {
    await buildIfChanged();
    await step("reliability suite (PGlite)", "test:reliability");
  }
  if (flags.postgres) {
    const report = { CI_REPORT_NAME: "postgres" };
    await buildIfChanged();
    await withFreshDatabase("api", (url) => step("API tests (PostgreSQL)", "test:api", { ...report, DATABASE_URL: url }));
    await withFreshDatabase("e2e", (url) =>
      // The browser-only specs (playwright.config.ts) run in the PGlite pass alone.
      step("built-server tests (PostgreSQL)", "test:e2e", { ...report, E2E_DATABASE_URL: url, E2E_SKIP_BROWSER_ONLY: "1" }),
    );
    await withFreshDatabase("reliability", (url) =>
      step("reliability suite (PostgreSQL)", "test:reliability", { ...report, E2E_DATABASE_URL: url }),
    );
  }
  if (flags.stress) {
    await buildIfChanged();
    const stopLoops = startBusyLoops();
    try {
      const report = { CI_REPORT_NAME: "stress" };
      await step("built-server tests under load (PGlite)", "test:e2e", report);
      await step("reliability suite under load (PGlite)", "test:reliability", report);
    } finally {
      stopLoops();
    }
  }
}

let failure;
try {
  await main();
} catch (error) {
  failure = error;
}
console.log("\nWhere the time went:");
for (const { name, seconds, code } of timings) console.log(`  ${name.padEnd(44)} ${String(seconds).padStart(5)} s${code === 0 ? "" : "  FAILED"}`);
if (failure) {
  console.error(`\n${failure.message}`);
  process.exit(1);
}
