import { createPgBossQueue } from "@/lib/renders/queue";

// A render worker process of its own, for lib/renders/queue.test.ts to kill mid-render (SIGKILL):
// pg-boss on DATABASE_URL, jobs expiring after 20 s so that another worker retries them soon.

const queue = createPgBossQueue(process.env.DATABASE_URL!, {
  queueName: process.env.RENDER_QUEUE_NAME,
  concurrency: 1,
  expireInSeconds: 20,
  retryDelaySeconds: 1,
  pollingIntervalSeconds: 0.5,
  maintenanceIntervalSeconds: 1,
});
await queue.start();
console.log("worker started");
setInterval(() => {}, 60_000);
