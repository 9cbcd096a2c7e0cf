import type { ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

// Helpers for benchmarks that run servers in child processes.

/** Resident memory of a process and all its descendants, from /proc. */
export function treeRss(rootPid: number): number {
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
    for (const [pid, parent] of parents) if (tree.has(parent) && !tree.has(pid)) (tree.add(pid), (grew = true));
  }
  let total = 0;
  for (const pid of tree) {
    try {
      total += Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
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

