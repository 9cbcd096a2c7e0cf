import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acquireDataDirLock, DataDirLockedError, lockFilePath, readLockHolder } from "./data-dir-lock";

// Real processes stand in for "another server": one kept alive, one already exited.

const tempDirs: string[] = [];
let liveChild: ChildProcess;
let deadPid: number;

function freshDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "reelbind-lock-"));
  tempDirs.push(dir);
  return dir;
}

/** A node process that lives until this one kills it or goes away (its stdin closes), however long the tests take. */
function startIdleNode(): ChildProcess {
  return spawn(process.execPath, ["-e", "process.stdin.resume(); process.stdin.on('end', () => process.exit())"], { stdio: ["pipe", "ignore", "ignore"] });
}

beforeAll(async () => {
  liveChild = startIdleNode();
  const shortLived = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  deadPid = shortLived.pid!;
  await new Promise((resolve) => shortLived.once("exit", resolve));
});

afterAll(() => {
  liveChild.kill();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe("acquireDataDirLock", () => {
  it("acquireDataDirLock – fresh dir → lock file holds our pid; release removes it", () => {
    const dir = freshDir();
    const release = acquireDataDirLock(dir);
    expect(readFileSync(lockFilePath(dir), "utf8")).toBe(String(process.pid));
    expect(readLockHolder(dir)).toBe(process.pid);

    release();
    expect(existsSync(lockFilePath(dir))).toBe(false);
    expect(readLockHolder(dir)).toBeNull();
  });

  it("acquireDataDirLock – after a release → can be taken again", () => {
    const dir = freshDir();
    acquireDataDirLock(dir)();
    const release = acquireDataDirLock(dir);
    expect(readLockHolder(dir)).toBe(process.pid);
    release();
  });

  it("acquireDataDirLock – held by a live other process → DataDirLockedError naming its pid, file untouched", () => {
    const dir = freshDir();
    const pid = liveChild.pid!;
    writeFileSync(lockFilePath(dir), String(pid));

    let thrown: unknown;
    try {
      acquireDataDirLock(dir);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DataDirLockedError);
    expect(thrown).toMatchObject({ name: "DataDirLockedError", pid, dataDir: dir });
    expect((thrown as Error).message).toContain(`process ${pid}`);
    expect(readFileSync(lockFilePath(dir), "utf8")).toBe(String(pid));
    expect(readLockHolder(dir)).toBe(pid);
  });

  it.each([
    { name: "a dead process's pid", content: () => String(deadPid) },
    { name: "garbage", content: () => "not-a-pid" },
    { name: "nothing", content: () => "" },
  ])("acquireDataDirLock – stale lock file holding $name → taken over", ({ content }) => {
    const dir = freshDir();
    writeFileSync(lockFilePath(dir), content());
    expect(readLockHolder(dir)).toBeNull();

    const release = acquireDataDirLock(dir);
    expect(readFileSync(lockFilePath(dir), "utf8")).toBe(String(process.pid));
    release();
    expect(existsSync(lockFilePath(dir))).toBe(false);
  });

  it("release – after another process took the lock over → leaves its lock file alone", () => {
    const dir = freshDir();
    const release = acquireDataDirLock(dir);
    writeFileSync(lockFilePath(dir), String(liveChild.pid));
    release();
    expect(readLockHolder(dir)).toBe(liveChild.pid);
  });
});

describe("acquireDataDirLock – stale lock takeover", () => {
  it("acquireDataDirLock – stale lock while another process is taking it over → DataDirLockedError, nothing deleted", () => {
    const dir = freshDir();
    writeFileSync(lockFilePath(dir), String(deadPid));
    writeFileSync(`${lockFilePath(dir)}.takeover`, String(liveChild.pid));
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    expect(readFileSync(lockFilePath(dir), "utf8")).toBe(String(deadPid));
  });

  it("acquireDataDirLock – a takeover abandoned over 10 s ago → cleared, lock taken", () => {
    const dir = freshDir();
    const takeover = `${lockFilePath(dir)}.takeover`;
    writeFileSync(lockFilePath(dir), String(deadPid));
    writeFileSync(takeover, String(deadPid));
    const old = new Date(Date.now() - 60_000);
    utimesSync(takeover, old, old);
    const release = acquireDataDirLock(dir);
    expect(readLockHolder(dir)).toBe(process.pid);
    expect(existsSync(takeover)).toBe(false);
    release();
  });
});

describe("readLockHolder", () => {
  it("readLockHolder – missing dir → null", () => {
    expect(readLockHolder(path.join(freshDir(), "missing"))).toBeNull();
  });

  it("readLockHolder – pid with surrounding whitespace → the pid", () => {
    const dir = freshDir();
    writeFileSync(lockFilePath(dir), ` ${liveChild.pid}\n`);
    expect(readLockHolder(dir)).toBe(liveChild.pid);
  });
});
