#!/usr/bin/env node
// The app's build, shared by `npm run build` (this file) and `npm start` (prepare-start.mjs), so
// that one checkout can run several servers (a process manager, two ports) without their builds
// racing (docs/adr/0119-one-build-per-checkout.md):
// - the decision to build and the build itself run under a lock file in the tree
//   (.reelbind/build.lock, holding the holder's pid); a second start waits for the first's build
//   and then serves it; a lock whose holder has died is taken over;
// - the build writes the stamp (the sources' fingerprint) itself, whichever command ran it, so
//   `npm run build` then `npm start` builds once;
// - a build never replaces the .next a live server reads from (its next request would answer 500,
//   "Cannot find module …"): each server from the tree is registered in .reelbind/servers/ while
//   it runs, and a build is refused, saying which servers to stop, while any of them lives.
import { spawnSync } from "node:child_process";
import { buildSync } from "esbuild";
import { createHash, randomUUID } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { pageEntry, routeEntry, routeMethodsFile, routeOfFile } from "./route-methods.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const stampFile = path.join(root, ".next", "reelbind-build-stamp");
const runDir = path.join(root, ".reelbind");
const lockFile = path.join(runDir, "build.lock");
/** Taken for the moment it takes to remove a dead holder's lock, so two waiters never both do. */
const breakFile = path.join(runDir, "build.lock.break");
const serversDir = path.join(runDir, "servers");
// What the built app is made of. Test support (testing/) and the test files beside the code are
// not: changing them never makes `npm start` rebuild.
const sourceEntries = ["app", "browser", "components", "lib", "public", "shared", "drizzle", "instrumentation.ts", "proxy.ts", "next.config.ts", "postcss.config.mjs", "package-lock.json", "tsconfig.json"];
const testFile = /\.test\.ts$/;
const generatedEntries = new Set([path.join("public", "sdk"), path.join("public", "player"), path.join("public", "api-reference")]);
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
const pollMs = 250;
/** A break file older than this was left by a process that died within its few milliseconds. */
const staleBreakMs = 30_000;

/** A fingerprint of every source file's path, size and modification time. */
export function sourceFingerprint() {
  const hash = createHash("sha256");
  const visit = (entry) => {
    const full = path.join(root, entry);
    if (!existsSync(full)) return;
    const stat = statSync(full);
    if (generatedEntries.has(entry)) return;
    if (stat.isDirectory()) {
      for (const child of readdirSync(full).sort()) visit(path.join(entry, child));
    } else if (!testFile.test(entry)) {
      hash.update(`${entry}:${stat.size}:${stat.mtimeMs}\n`);
    }
  };
  sourceEntries.forEach(visit);
  return hash.digest("hex");
}

export const isBuilt = (fingerprint) => existsSync(stampFile) && readFileSync(stampFile, "utf8") === fingerprint;

/** Is the process alive (on this machine)? EPERM: alive, someone else's. */
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
};

/** Creates `file` holding `content` only if it does not exist, all at once (a link of a written file). */
function createExclusive(file, content) {
  const temporary = `${file}.${process.pid}.${randomUUID()}`;
  writeFileSync(temporary, content);
  try {
    linkSync(temporary, file);
    return true;
  } catch (error) {
    if (error.code === "EEXIST") return false;
    throw error;
  } finally {
    unlinkSync(temporary);
  }
}

/**
 * Removes the lock if it is still the dead holder's (`holder.token`); true when it did. Under the break file, so
 * that a waiter that saw the same dead holder cannot remove the lock a third process has taken since.
 */
function breakStaleLock(holder) {
  if (!createExclusive(breakFile, JSON.stringify({ pid: process.pid }))) {
    const age = Date.now() - (statSync(breakFile, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > staleBreakMs) rmSync(breakFile, { force: true });
    return false;
  }
  try {
    const unchanged = readJson(lockFile)?.token === holder.token;
    if (unchanged) rmSync(lockFile, { force: true });
    return unchanged;
  } finally {
    rmSync(breakFile, { force: true });
  }
}

/** Runs `task` holding the checkout's build lock, waiting while a live process holds it. */
export async function withBuildLock(task, { log = console.log } = {}) {
  mkdirSync(serversDir, { recursive: true });
  const token = randomUUID();
  let announced = false;
  for (;;) {
    if (createExclusive(lockFile, JSON.stringify({ pid: process.pid, token, since: new Date().toISOString() }))) break;
    const holder = readJson(lockFile);
    const alive = holder !== null && isAlive(holder.pid);
    if (holder && !alive && breakStaleLock(holder)) {
      log(`The build lock was held by process ${holder.pid}, which is no longer running: taking it over.`);
      continue;
    }
    if (!announced && alive) {
      log(`Waiting for process ${holder.pid}, which holds this checkout's build lock (${path.relative(root, lockFile)}) since ${holder.since}…`);
      announced = true;
    }
    await delay(pollMs);
  }
  try {
    return await task();
  } finally {
    if (readJson(lockFile)?.token === token) rmSync(lockFile, { force: true });
  }
}

/** The servers from this checkout that are running (entries of dead ones are removed). */
export function liveServers() {
  if (!existsSync(serversDir)) return [];
  const live = [];
  for (const name of readdirSync(serversDir)) {
    if (!/^\d+\.json$/.test(name)) continue;
    const entry = readJson(path.join(serversDir, name));
    if (entry && isAlive(entry.pid)) live.push(entry);
    else rmSync(path.join(serversDir, name), { force: true });
  }
  return live;
}

/** Records that process `pid` serves (or is about to serve) this checkout's .next; call under the lock. */
export function registerServer(pid, port) {
  mkdirSync(serversDir, { recursive: true });
  writeFileSync(path.join(serversDir, `${pid}.json`), JSON.stringify({ pid, port, since: new Date().toISOString() }));
}

export function unregisterServer(pid) {
  rmSync(path.join(serversDir, `${pid}.json`), { force: true });
}

/** Why a build may not run now, or null: the servers from this checkout that read .next. */
export function buildRefusal(why) {
  const servers = liveServers();
  if (servers.length === 0) return null;
  const list = servers.map((server) => `process ${server.pid}${server.port ? ` (port ${server.port})` : ""}`).join(", ");
  return (
    `${why}, but ${servers.length === 1 ? "a Reelbind server from this checkout is" : "Reelbind servers from this checkout are"} running: ${list}. ` +
    "Building now would replace the .next it serves from, and its next requests would fail. Stop " +
    `${servers.length === 1 ? "it" : "them"}, then start again; or run the new version from another checkout.`
  );
}

/** The environment the app is built and served with (`npm start`'s, whichever command builds). */
export const serverEnv = () => ({
  ...process.env,
  NODE_ENV: "production",
  NEXT_TELEMETRY_DISABLED: "1",
  ALLOW_GENERATED_SECRETS: process.env.ALLOW_GENERATED_SECRETS ?? "1",
});

/**
 * The server's worker threads, bundled beside Next's output (Next bundles what the routes import,
 * not a file a Worker loads): the analytics rollup job (lib/analytics/rollups/rollup-job.ts).
 * Packages stay imports, resolved from node_modules as the server's own are.
 */
function buildServerWorkers() {
  buildSync({
    ...nodeBundleOptions,
    entryPoints: [path.join(root, "lib", "analytics", "rollups", "rollup-worker.ts")],
    outfile: path.join(root, ".next", "reelbind", "rollup-worker.mjs"),
  });
}

/** Every file named `name` under `directory`, as paths relative to it. */
function filesNamed(directory, name, under = "") {
  return readdirSync(path.join(directory, under), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(under, entry.name);
    if (entry.isDirectory()) return filesNamed(directory, name, relative);
    return name.test(entry.name) ? [relative] : [];
  });
}

/**
 * The methods of every route and page of app/, for the Allow header of a 405 (scripts/serve.mjs):
 * each route file's exports as esbuild reads them, so a re-export counts like a declaration.
 */
function writeRouteMethods() {
  const app = path.join(root, "app");
  const located = (files) => files.map((file) => ({ file, route: routeOfFile(path.dirname(file)) })).filter(({ route }) => route !== null);
  const routeFiles = located(filesNamed(app, /^route\.(ts|tsx|js|mjs)$/));
  const { metafile } = buildSync({
    entryPoints: routeFiles.map(({ file }) => path.join(app, file)),
    absWorkingDir: root,
    outdir: path.join(root, ".next", "reelbind", "route-exports"), // never written: only the metafile is read
    write: false,
    metafile: true,
    format: "esm",
    logLevel: "warning",
  });
  const exportsOf = new Map(Object.values(metafile.outputs).filter((output) => output.entryPoint).map((output) => [path.resolve(root, output.entryPoint), output.exports]));
  const entries = [
    ...routeFiles.map(({ file, route }) => routeEntry(route, exportsOf.get(path.join(app, file)) ?? [])),
    ...located(filesNamed(app, /^page\.(tsx|ts|jsx|js)$/)).map(({ route }) => pageEntry(route)),
  ];
  writeFileSync(path.join(root, routeMethodsFile), JSON.stringify(entries));
}

/** esbuild's options for the project's TypeScript run by Node.js: its code bundled, packages left as imports from node_modules. */
export const nodeBundleOptions = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  alias: { "@": root },
  tsconfig: path.join(root, "tsconfig.json"),
  logLevel: "warning",
};

/** `next build` with `env`, then the stamp of `fingerprint` (the sources as they were when it began). */
export function runNextBuild(fingerprint, env) {
  rmSync(stampFile, { force: true });
  const build = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio: "inherit", env });
  if (build.status !== 0) return build.status ?? 1;
  buildServerWorkers();
  writeRouteMethods();
  writeFileSync(stampFile, fingerprint);
  return 0;
}

// `npm run build`: the browser bundles and the app, under the lock, refused while a server runs.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.chdir(root);
  const status = await withBuildLock(async () => {
    const refusal = buildRefusal("npm run build was asked to build");
    if (refusal) {
      console.error(refusal);
      return 1;
    }
    const { buildBrowserBundles } = await import("./build-browser.mjs");
    await buildBrowserBundles();
    const fingerprint = sourceFingerprint();
    console.log("Building Reelbind (npm run build)…");
    return runNextBuild(fingerprint, serverEnv());
  });
  process.exit(status);
}
