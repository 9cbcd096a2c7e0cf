#!/usr/bin/env node
// `npm start`'s first step, run by scripts/start.mjs in a process of its own: checks the
// configuration, builds the browser bundles, and builds the app when the sources changed since
// the last build. Exits 0 when the app is ready to serve.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const stampFile = path.join(root, ".next", "reelbind-build-stamp");
const sourceEntries = ["app", "components", "lib", "public", "drizzle", "instrumentation.ts", "proxy.ts", "next.config.ts", "postcss.config.mjs", "package-lock.json", "tsconfig.json"];
const generatedEntries = new Set([path.join("public", "sdk"), path.join("public", "player")]);
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");

/** A fingerprint of every source file's path, size and modification time. */
function sourceFingerprint() {
  const hash = createHash("sha256");
  const visit = (entry) => {
    const full = path.join(root, entry);
    if (!existsSync(full)) return;
    const stat = statSync(full);
    if (generatedEntries.has(entry)) return;
    if (stat.isDirectory()) {
      for (const child of readdirSync(full).sort()) visit(path.join(entry, child));
    } else {
      hash.update(`${entry}:${stat.size}:${stat.mtimeMs}\n`);
    }
  };
  sourceEntries.forEach(visit);
  return hash.digest("hex");
}

// Check the configuration before spending a minute on a build; the server checks it again at start.
const serverEnv = {
  ...process.env,
  NODE_ENV: "production",
  NEXT_TELEMETRY_DISABLED: "1",
  ALLOW_GENERATED_SECRETS: process.env.ALLOW_GENERATED_SECRETS ?? "1",
};
register({ tsconfig: path.join(root, "tsconfig.json") });
const { parseConfig } = await import("../lib/config.ts");
let config;
try {
  config = parseConfig(serverEnv);
} catch (error) {
  if (error?.code !== "CONFIG_INVALID") throw error;
  console.error(error.message);
  process.exit(1);
}

// A first start on the embedded database creates it here, not in the server (see the function).
if (!config.databaseUrl) {
  const { createPgliteClusterIfMissing } = await import("../lib/db/index.ts");
  try {
    await createPgliteClusterIfMissing(config.dataDir);
  } catch (error) {
    if (error?.code !== "DATA_DIR_LOCKED") throw error;
    console.error(error.message);
    process.exit(1);
  }
}

// The browser bundles are outputs of lib/ (left out of the fingerprint); building them takes a second.
const { buildBrowserBundles } = await import("./build-browser.mjs");
await buildBrowserBundles({ quiet: true });

const fingerprint = sourceFingerprint();
const built = existsSync(stampFile) && readFileSync(stampFile, "utf8") === fingerprint;
if (!built) {
  console.log("Building Reelbind (first start or sources changed)…");
  const build = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: root,
    stdio: "inherit",
    env: serverEnv,
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeFileSync(stampFile, fingerprint);
}

