/** A task started by startPeriodicTask. */
export type PeriodicTask = {
  /** No run starts after this; resolves once the one under way (if any) has finished. */
  stop: () => Promise<void>;
};

/**
 * Runs `run` now, then `intervalMs` after each success (`retryMs` after a failure). A failure is
 * logged once until the task succeeds again (a database outage is one message, not one per
 * run), never thrown; a success that returns a report logs it. The timer does not keep the
 * process alive.
 */
export function startPeriodicTask({
  name,
  run,
  intervalMs,
  retryMs,
}: {
  name: string;
  run: () => Promise<string | undefined>;
  intervalMs: number;
  retryMs: number;
}): PeriodicTask {
  let stopped = false;
  let failing = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(start, delayMs);
    timer.unref();
  };
  const start = () => {
    running = run().then(
      (report) => {
        if (report) console.log(report);
        if (failing) console.log(`${name}: running again.`);
        failing = false;
        schedule(intervalMs);
      },
      (error: unknown) => {
        if (!failing) console.error(`${name} failed; retrying every ${retryMs / 1000} s until it succeeds:`, error);
        failing = true;
        schedule(retryMs);
      },
    );
  };

  start();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
