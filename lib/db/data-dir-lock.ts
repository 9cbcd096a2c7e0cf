import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/** PGlite is single-process: a second process opening the same DATA_DIR would corrupt it. */
export class DataDirLockedError extends Error {
  readonly code = "DATA_DIR_LOCKED";
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

/** Creates the file with our pid unless it exists; true when we created it. */
function createExclusive(file: string): boolean {
  try {
    writeFileSync(file, String(process.pid), { flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

const abandonedTakeoverMs = 10_000;

/**
 * Replaces a lock left by a dead process. Two processes may both find it stale, so only the
 * one that creates the takeover file may delete and re-create the lock.
 */
function takeOverStaleLock(dataDir: string): void {
  const file = lockFilePath(dataDir);
  const takeover = `${file}.takeover`;
  try {
    if (Date.now() - statSync(takeover).mtimeMs > abandonedTakeoverMs) rmSync(takeover, { force: true });
  } catch {
    // No takeover in progress.
  }
  if (!createExclusive(takeover)) {
    throw new DataDirLockedError(dataDir, Number(readFileSync(takeover, "utf8")) || 0);
  }
  try {
    const holder = readLockHolder(dataDir);
    if (holder !== null && holder !== process.pid) throw new DataDirLockedError(dataDir, holder);
    rmSync(file, { force: true });
    if (!createExclusive(file)) throw new DataDirLockedError(dataDir, readLockHolder(dataDir) ?? 0);
  } finally {
    rmSync(takeover, { force: true });
  }
}

/** Takes the lock (taking over one left by a dead process) and returns its release function. */
export function acquireDataDirLock(dataDir: string): () => void {
  const file = lockFilePath(dataDir);
  if (!createExclusive(file)) {
    const holder = readLockHolder(dataDir);
    if (holder !== null && holder !== process.pid) throw new DataDirLockedError(dataDir, holder);
    takeOverStaleLock(dataDir);
  }
  const release = () => {
    process.off("exit", release);
    if (readLockHolder(dataDir) === process.pid) rmSync(file, { force: true });
  };
  process.once("exit", release);
  return release;
}
