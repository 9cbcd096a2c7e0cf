import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/** PGlite is single-process: a second process opening the same DATA_DIR would corrupt it. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by process ${pid}. Stop it first, or run CLI commands while it runs (they are sent to the running server).`,
    );
    this.name = "DataDirLockedError";
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function lockFilePath(dataDir: string): string {
  return path.join(dataDir, "pglite.lock");
}

/** The pid holding the lock, or null when nobody live holds it. */
export function readLockHolder(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(lockFilePath(dataDir), "utf8").trim());
    return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

/** Takes the lock (clearing a stale one left by a dead process) and returns its release function. */
export function acquireDataDirLock(dataDir: string): () => void {
  const file = lockFilePath(dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: "wx" });
      const release = () => {
        if (readLockHolder(dataDir) === process.pid) rmSync(file, { force: true });
      };
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = readLockHolder(dataDir);
      if (holder !== null && holder !== process.pid) throw new DataDirLockedError(dataDir, holder);
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${file}`);
}
