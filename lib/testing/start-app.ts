import { spawn, type ChildProcess } from "node:child_process";
import { freePort } from "./free-port";

// The product as the README's quick start runs it (`npm start`: build when needed, then
// scripts/serve.mjs), for the browser tests, the outage test and the benchmarks.

export type StartedApp = {
  port: number;
  baseUrl: string;
  /** The start banner's values. */
  adminEmail: string;
  adminPassword: string;
  token: string;
  projectId: string;
  shareUrl: string;
  child: ChildProcess;
  /** Everything the app printed so far. */
  output: () => string;
  /** SIGTERM to the start script (it forwards it to the server); resolves with the exit code. */
  stop: () => Promise<number | null>;
};

/** Reads one "  Label:  value" line of the start banner. */
function bannerValue(output: string, label: string): string {
  const match = new RegExp(`^\\s+${label}:\\s+(\\S+)`, "m").exec(output);
  if (!match) throw new Error(`The start banner has no "${label}" line:\n${output}`);
  return match[1]!;
}

/**
 * Starts `scripts/start.mjs` on a free port with `env` (DATA_DIR, DATABASE_URL…) and resolves
 * once the server listens and has printed its banner.
 */
export async function startApp(env: NodeJS.ProcessEnv, timeoutMs = 300_000): Promise<StartedApp> {
  const port = await freePort();
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    env: { ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The app did not start within ${timeoutMs / 1000} s:\n${output}`)), timeoutMs);
    const check = setInterval(() => {
      if (/PROD share:.*\n/.test(output) && /is listening on port/.test(output)) done(resolve);
    }, 50);
    const done = (settle: () => void) => {
      clearTimeout(timer);
      clearInterval(check);
      settle();
    };
    void exited.then((code) => done(() => reject(new Error(`The app exited with code ${code} before it was ready:\n${output}`))));
  });

  return {
    port,
    baseUrl: `http://localhost:${port}`,
    adminEmail: bannerValue(output, "Admin login"),
    adminPassword: bannerValue(output, "Password"),
    token: bannerValue(output, "API token"),
    projectId: /Project:.*\(([0-9a-f-]{36})\)/.exec(output)![1]!,
    shareUrl: bannerValue(output, "PROD share"),
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
