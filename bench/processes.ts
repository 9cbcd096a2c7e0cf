import type { ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { startApp } from "@/testing/start-app";

// Helpers for benchmarks that run servers in child processes.

/** The process and its descendants, by pid, from /proc. */
function processTree(rootPid: number): Set<number> {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  const tree = new Set([rootPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (tree.has(parent) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  return tree;
}

/** Resident memory of a process and its descendants, in bytes. */
export function treeRss(rootPid: number): number {
  let total = 0;
  for (const pid of processTree(rootPid)) {
    try {
      total += Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
    } catch {
      // Gone.
    }
  }
  return total;
}

/**
 * Bytes a process and its descendants have read and written through system calls so far
 * (/proc/<pid>/io rchar, wchar): sockets and files alike, page-cache hits included.
 */
export function treeIo(rootPid: number): { read: number; written: number } {
  const total = { read: 0, written: 0 };
  for (const pid of processTree(rootPid)) {
    try {
      const io = readFileSync(`/proc/${pid}/io`, "utf8");
      total.read += Number(/rchar:\s+(\d+)/.exec(io)?.[1] ?? 0);
      total.written += Number(/wchar:\s+(\d+)/.exec(io)?.[1] ?? 0);
    } catch {
      // Gone.
    }
  }
  return total;
}

export function waitForOutput(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<string> {
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    child.stdout!.on("data", (data: Buffer) => {
      output += data.toString();
      if (pattern.test(output)) {
        clearTimeout(timer);
        resolve(output);
      }
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
}


/** Fixed secrets, so a benchmark's app never writes generated ones into a temporary DATA_DIR it then loses. */
export const benchSecrets = { TOKEN_SECRETS: "bench:0123456789abcdef0123456789abcdef", AUTH_SECRET: "bench-auth-secret-0123456789abcdef" };

export type QuickStartApp = { port: number; baseUrl: string; token: string; projectId: string; shareUrl: string; pid: number; stop: () => void };

/** The product as the README's quick start runs it (`npm start`, PGlite), on a fresh DATA_DIR and a free port. */
export async function startQuickStartApp(dataDir: string, extraEnv: Record<string, string> = {}): Promise<QuickStartApp> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...benchSecrets, DATA_DIR: dataDir, ...extraEnv };
  delete env.DATABASE_URL;
  const app = await startApp(env, 600_000);
  app.child.stdout!.pipe(process.stdout);
  return { ...app, pid: app.child.pid!, stop: () => void app.stop() };
}

/** CPU seconds (user + system) a process has used so far, from /proc; 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}
