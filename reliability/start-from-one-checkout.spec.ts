import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startApp, type StartedApp } from "../testing/start-app";
import { stopOwnApp } from "./own-app";

// Several servers from one checkout (a process manager, two ports), on a copy of the tree of the
// spec's own with no build in .next (only Next's build cache), so that a build is needed and the
// suite's build is not touched: `npm run build` then `npm start` builds once; two starts at once
// build once, under the lock, and both serve; a start that would rebuild under them is refused,
// and they keep serving. Builds only: it runs in the embedded pass.

test.describe.configure({ mode: "serial" });
// Skipped on PostgreSQL on purpose: the build lock does not depend on the database, and each
// build takes most of a minute beside the other specs; .ci/run runs it in the reliability
// suite's PGlite pass (npm run test:all).
test.skip(Boolean(process.env.E2E_DATABASE_URL), "the build lock does not depend on the database: the embedded pass runs it");

const building = /^Building Reelbind \(first start or sources changed\)/m;
const source = "lib/config.ts";

let checkout: string;
const dataDirs: string[] = [];
let servers: StartedApp[] = [];

/** What `npm start` needs: a DATA_DIR of its own (PGlite), nothing of the suite's app. */
function startEnv(label: string): NodeJS.ProcessEnv {
  const dataDir = mkdtempSync(path.join(tmpdir(), `reelbind-one-checkout-${label}-`));
  dataDirs.push(dataDir);
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  for (const name of ["DATABASE_URL", "TOKEN_SECRETS", "AUTH_SECRET", "PORT"]) delete env[name];
  return env;
}

/** Runs a command in the copy to its end: its exit code and everything it printed. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = startEnv("run")): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: checkout, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => resolve({ code, output }));
  });
}

/** A source file touched: the fingerprint changes, as after `git pull`. */
function touchSources() {
  const now = new Date();
  utimesSync(path.join(checkout, source), now, now);
}

async function expectServes(server: StartedApp) {
  const response = await fetch(`${server.baseUrl}/login`, { signal: AbortSignal.timeout(60_000) });
  expect(response.status, server.output()).toBe(200);
  await response.arrayBuffer();
}

test.beforeAll(() => {
  checkout = mkdtempSync(path.join(tmpdir(), "reelbind-checkout-"));
  const root = process.cwd();
  const skipped = new Set(["node_modules", ".next", ".data", ".reelbind", ".git", "test-results", "playwright-report", "tmp"].map((entry) => path.join(root, entry)));
  cpSync(root, checkout, { recursive: true, filter: (from) => !skipped.has(from) && !from.startsWith(path.join(root, "e2e", "screenshots")) });
  // The packages as hard links (same file system): a copy of hundreds of MB in a second.
  const linked = spawnSync("cp", ["-al", path.join(root, "node_modules"), path.join(checkout, "node_modules")]);
  expect(linked.status, linked.stderr?.toString()).toBe(0);
  // Next's build cache of the suite's own build (a copy: a build writes into it), as a checkout
  // that was built before has one: each build below is still a whole `next build` with its own
  // output, in about 20 s alone or 40 s beside the other specs instead of 60–90 s. The lock is
  // what is tested here.
  const cache = path.join(root, ".next", "cache");
  if (existsSync(cache)) cpSync(cache, path.join(checkout, ".next", "cache"), { recursive: true });
});

test.afterAll(async () => {
  test.setTimeout(120_000);
  await Promise.all(servers.map((server) => stopOwnApp(server)));
  for (const dir of [...dataDirs, checkout]) rmSync(dir, { recursive: true, force: true });
});

test("npm run build (taking over the lock a dead process left), then npm start → built once: the start serves that build", async () => {
  test.setTimeout(900_000);
  // A lock left by a build that was killed: its pid is no longer running.
  const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  mkdirSync(path.join(checkout, ".reelbind"), { recursive: true });
  writeFileSync(path.join(checkout, ".reelbind", "build.lock"), JSON.stringify({ pid: Number(dead.stdout.toString()), token: "left-behind", since: new Date().toISOString() }));

  const build = await run("npm", ["run", "build"]);
  expect(build.code, build.output).toBe(0);
  expect(build.output).toContain(`The build lock was held by process ${dead.stdout.toString()}, which is no longer running: taking it over.`);
  expect(build.output).toContain("Building Reelbind (npm run build)");

  const server = await startApp(startEnv("after-build"), 240_000, { root: checkout });
  servers.push(server);
  expect(server.output()).not.toMatch(building);
  await expectServes(server);
  await stopOwnApp(server);
  servers = [];
});

test("two npm start at once on two ports, sources changed → one builds under the lock, the other waits for it; both serve 200", async () => {
  test.setTimeout(900_000);
  touchSources();
  servers = await Promise.all([startApp(startEnv("first"), 840_000, { root: checkout }), startApp(startEnv("second"), 840_000, { root: checkout })]);
  const outputs = servers.map((server) => server.output());
  expect(outputs.filter((output) => building.test(output)), outputs.join("\n----\n")).toHaveLength(1);
  expect(outputs.filter((output) => /^Waiting for process \d+, which holds this checkout's build lock/m.test(output)), outputs.join("\n----\n")).toHaveLength(1);
  for (const output of outputs) expect(output).not.toContain("Another next build process is already running");
  for (const server of servers) await expectServes(server);
});

test("a start or npm run build after the sources changed, while those two serve → refused, naming them; they keep serving", async () => {
  expect(servers).toHaveLength(2);
  touchSources();
  const start = await run(process.execPath, ["scripts/start.mjs"], startEnv("third"));
  expect(start.code, start.output).toBe(1);
  const named = servers.map((server) => `process ${server.child.pid} (port ${server.port})`);
  expect(start.output).toContain("The sources changed since the last build, but Reelbind servers from this checkout are running: ");
  for (const name of named) expect(start.output).toContain(name);
  expect(start.output).toContain("Stop them, then start again");
  expect(start.output).not.toMatch(building);

  const build = await run("npm", ["run", "build"]);
  expect(build.code, build.output).toBe(1);
  expect(build.output).toContain("npm run build was asked to build, but Reelbind servers from this checkout are running: ");
  expect(build.output).not.toContain("Building Reelbind");

  for (const server of servers) await expectServes(server);
});
