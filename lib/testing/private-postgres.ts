import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./free-port";

// A PostgreSQL cluster of a test's own (initdb into a temp directory, its own port), which the
// test may stop and start: the shared server on 5432 is never touched. initdb refuses to run
// as root, so as root the cluster belongs to the postgres user.

export type PrivatePostgres = {
  url: string;
  port: number;
  /** pg_ctl stop -m fast: open sessions are terminated, new connections refused. */
  stop: () => void;
  start: () => void;
  /** Stops the cluster and removes its directory. */
  destroy: () => void;
};

/** The server's programs: Debian's /usr/lib/postgresql/<newest>/bin, else where pg_config says. */
function binDir(): string {
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const newest = readdirSync(debian).sort((a, b) => Number(b) - Number(a))[0];
    if (newest) return path.join(debian, newest, "bin");
  }
  return execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  const dir = mkdtempSync(path.join(tmpdir(), "reelbind-pg-"));
  const dataDir = path.join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
    chownSync(dir, id("-u"), id("-g"));
  }
  const run = (tool: string, args: string[]) => {
    const command = asRoot ? ["runuser", ["-u", "postgres", "--", path.join(bin, tool), ...args]] : [path.join(bin, tool), args];
    execFileSync(command[0] as string, command[1] as string[], { stdio: "pipe", timeout: 60_000 });
  };
  const port = await freePort();
  run("initdb", ["-D", dataDir, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off`;
  const start = () => run("pg_ctl", ["-D", dataDir, "-o", options, "-l", path.join(dir, "log"), "-w", "-t", "30", "start"]);
  const stop = () => run("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "-t", "30", "stop"]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop,
    start,
    destroy: () => {
      try {
        stop();
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
