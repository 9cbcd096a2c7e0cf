import { createRenderQueue } from "@/lib/renders/queue";

// A render worker process of its own, for lib/renders/queue.test.ts to kill mid-render (SIGKILL):
// on DATABASE_URL, leases of 20 s so that another worker takes the render up soon.

const queue = createRenderQueue({ concurrency: 1, leaseSeconds: 20, retryDelaySeconds: 1, pollMs: 500 });
await queue.start();
console.log("worker started");
setInterval(() => {}, 60_000);
