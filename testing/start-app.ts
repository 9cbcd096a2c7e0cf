import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync } from "node:fs";
import path from "node:path";
import { freePort } from "./free-port";

// The product as the README's quick start runs it (`npm start`: build when needed, then
// scripts/serve.mjs), for the browser tests, the outage test and the benchmarks; and the
// standalone ingest server (`npm run ingest`) beside it, for the scale-out test.

/** A server in a child process of its own (and its process group), on a free port. */
export type ServerProcess = {
  port: number;
  baseUrl: string;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output: () => string;
  /** SIGTERM to the process (the start script forwards it to the server); resolves with the exit code. */
  stop: () => Promise<number | null>;
};

export type StartedApp = ServerProcess & {
  /** The start banner's values. */
  adminEmail: string;
  adminPassword: string;
  token: string;
  projectId: string;
  shareUrl: string;
};

/** Reads one "  Label:  value" line of the start banner. */
function bannerValue(output: string, label: string): string {
  const match = new RegExp(`^\\s+${label}:\\s+(\\S+)`, "m").exec(output);
  if (!match) throw new Error(`The start banner has no "${label}" line:\n${output}`);
  return match[1]!;
}

/** Spawns `args` with `env` and `portVariable` set to a free port; resolves once `ready(output)`. */
async function startServerProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  { portVariable, ready, timeoutMs }: { portVariable: string; ready: (output: string) => boolean; timeoutMs: number },
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    env: { ...env, [portVariable]: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(" ")} did not start within ${timeoutMs / 1000} s:\n${output}`)), timeoutMs);
    const check = setInterval(() => {
      if (ready(output)) done(resolve);
    }, 50);
    const done = (settle: () => void) => {
      clearTimeout(timer);
      clearInterval(check);
      settle();
    };
    void exited.then((code) => done(() => reject(new Error(`${args.join(" ")} exited with code ${code} before it was ready:\n${output}`))));
  });

  return {
    port,
    baseUrl: `http://localhost:${port}`,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/**
 * A hang guard only, long enough for a start that builds first (`npx playwright test` on a
 * changed tree) on a busy 2-core machine, where a build alone took over 5 minutes.
 */
const buildingStartTimeoutMs = 900_000;

/**
 * Starts `scripts/start.mjs` on a free port with `env` (DATA_DIR, DATABASE_URL…) and resolves
 * once the server listens and has printed its banner; from the checkout at `root` (this one by default).
 */
export async function startApp(env: NodeJS.ProcessEnv, timeoutMs = buildingStartTimeoutMs, { root = "." }: { root?: string } = {}): Promise<StartedApp> {
  const app = await startServerProcess([path.join(root, "scripts/start.mjs")], env, {
    portVariable: "PORT",
    ready: (output) => /PROD share:.*\n/.test(output) && /is listening on port/.test(output),
    timeoutMs,
  });
  const output = app.output();
  return {
    ...app,
    adminEmail: bannerValue(output, "Admin login"),
    adminPassword: bannerValue(output, "Password"),
    token: bannerValue(output, "API token"),
    projectId: /Project:.*\(([0-9a-f-]{36})\)/.exec(output)![1]!,
    shareUrl: bannerValue(output, "PROD share"),
  };
}

/** Starts `scripts/start.mjs` with REELBIND_BOOTSTRAP=0 (no banner): one more instance of an app that is already set up. */
export function startAppInstance(env: NodeJS.ProcessEnv, timeoutMs = buildingStartTimeoutMs): Promise<ServerProcess> {
  return startServerProcess(["scripts/start.mjs"], { ...env, REELBIND_BOOTSTRAP: "0" }, {
    portVariable: "PORT",
    ready: (output) => /is listening on port/.test(output),
    timeoutMs,
  });
}

/** Starts the standalone ingest server as `npm run ingest` does (scripts/ingest.mjs) on 127.0.0.1 and a free port. */
export function startIngestServer(env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<ServerProcess> {
  return startServerProcess(["scripts/ingest.mjs"], { ...env, INGEST_HOST: "127.0.0.1" }, {
    portVariable: "INGEST_PORT",
    ready: (output) => /Reelbind ingest listening/.test(output),
    timeoutMs,
  });
}

/** Copies what `server` printed so far, and prints from now on, to `file` (specs that read the app's log). */
export function logOutputTo(server: ServerProcess, file: string): void {
  appendFileSync(file, server.output());
  for (const stream of [server.child.stdout!, server.child.stderr!]) stream.on("data", (chunk: Buffer) => appendFileSync(file, chunk));
}
