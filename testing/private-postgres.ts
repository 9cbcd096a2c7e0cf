import { execFile, execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "./free-port";

// A PostgreSQL cluster of a test's own (initdb into a temp directory, its own port), which the
// test may stop and start: the shared server on 5432 is never touched. initdb refuses to run
// as root, so as root the cluster belongs to the postgres user.

export type PrivatePostgres = {
  url: string;
  port: number;
  /**
   * pg_ctl stop -m fast: open sessions are terminated, new connections refused. Both run the
   * tool in a child process without blocking: traffic a test is sending goes on meanwhile.
   */
  stop: () => Promise<void>;
  /** Resolves once the server accepts connections again. */
  start: () => Promise<void>;
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
  const command = (tool: string, args: string[]): [string, string[]] =>
    asRoot ? ["runuser", ["-u", "postgres", "--", path.join(bin, tool), ...args]] : [path.join(bin, tool), args];
  const run = (tool: string, args: string[]) => execFileSync(...command(tool, args), { stdio: "pipe", timeout: 90_000 });
  const runInBackground = async (tool: string, args: string[]) => {
    await promisify(execFile)(...command(tool, args), { timeout: 90_000 });
  };
  const port = await freePort();
  run("initdb", ["-D", dataDir, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off`;
  const startArgs = ["-D", dataDir, "-o", options, "-l", path.join(dir, "log"), "-w", "-t", "60", "start"];
  const stopArgs = ["-D", dataDir, "-m", "fast", "-w", "-t", "60", "stop"];
  run("pg_ctl", startArgs);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop: () => runInBackground("pg_ctl", stopArgs),
    start: () => runInBackground("pg_ctl", startArgs),
    destroy: () => {
      try {
        run("pg_ctl", stopArgs);
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
