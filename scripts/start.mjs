#!/usr/bin/env node
// `npm start`: prepares the app (scripts/prepare-start.mjs: configuration check, bundles, a build
// when the sources changed) in a child process, then serves it in this one (scripts/serve.mjs).
// The build's tools (esbuild and its service process) end with that child instead of
// staying beside the server for its whole life. Migrations and the demo bootstrap run inside
// the server at start (instrumentation.ts).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { unregisterServer } from "./build-app.mjs";

const scripts = path.dirname(fileURLToPath(import.meta.url));
process.chdir(path.resolve(scripts, "..")); // the migrations and DATA_DIR's default are relative to the project

// The preparation registers this process among the servers that read .next (no start rebuilds
// it under them); the entry goes when this process exits, and a dead process's is ignored.
process.on("exit", () => unregisterServer(process.pid));
const prepare = spawnSync(process.execPath, [path.join(scripts, "prepare-start.mjs")], { stdio: "inherit", env: { ...process.env, REELBIND_SERVER_PID: String(process.pid) } });
if (prepare.status !== 0) process.exit(prepare.status ?? 1);

process.env.NODE_ENV = "production";
process.env.NEXT_TELEMETRY_DISABLED = "1";
process.env.ALLOW_GENERATED_SECRETS ??= "1";
await import("./serve.mjs");
