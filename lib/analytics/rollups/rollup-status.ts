import { processWide } from "@/lib/process-wide";
import type { RollupLoopStatus } from "./rollup-loop";

// The rollup job's last status in this process, as rollup-job.ts records it and /api/health reads it.

type Holder = { status: RollupLoopStatus | null; runner: "worker" | "in-process" | null };

export const rollupJobHolder = () => processWide("analytics.rollup-job", (): Holder => ({ status: null, runner: null }));

/** The job's last status in this process (null before its first round, or when another process holds it). */
export function rollupJobStatus(): (RollupLoopStatus & { runner: "worker" | "in-process" }) | null {
  const { status, runner } = rollupJobHolder();
  return status && runner ? { ...status, runner } : null;
}
