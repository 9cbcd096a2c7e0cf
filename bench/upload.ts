// npm run bench:upload – a 250 MB template upload, measured three ways in one run, each
// server in its own process on loopback so each peak RSS is that server's alone:
//   1. the app itself (`npm start`: the Next server and its upload route),
//   2. the upload route handler alone behind node:http (bench/upload-server.ts),
//   3. the baseline: a handler that reads the same body with request.formData().
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { benchSecrets, startQuickStartApp, treeRss, waitForOutput } from "./processes";

const totalBytes = Number(process.env.BENCH_UPLOAD_BYTES ?? 250 * 1024 * 1024);
const boundary = "----reelbind-bench-boundary";
const chunk = Buffer.alloc(1024 * 1024, 0x61);

type Target = { port: number; path: string; token?: string; rss: () => number; stop: () => void };
type Result = { label: string; status: number; seconds: number; mbPerSecond: number; rssGrowthMb: number; peakRssMb: number };

/** The product as the quick start runs it, on a fresh DATA_DIR. */
async function startApp(dataDir: string): Promise<Target> {
  const app = await startQuickStartApp(dataDir);
  return { port: app.port, token: app.token, path: `/api/Projects/${app.projectId}/templates/upload`, rss: () => treeRss(app.pid), stop: app.stop };
}

/** bench/upload-server.ts: one handler behind node:http. */
async function startHandlerServer(variant: "streaming" | "formData", dataDir: string): Promise<Target> {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/upload-server.ts", variant], {
    env: { ...process.env, ...benchSecrets, DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const output = await waitForOutput(child, /"port":\d+/, 120_000);
  return {
    port: (JSON.parse(output.split("\n")[0]!) as { port: number }).port,
    path: "/upload",
    rss: () => treeRss(child.pid!),
    stop: () => child.kill("SIGTERM"),
  };
}

/** Streams one multipart body of totalBytes (a Raster template whose video is all but a few bytes of it). */
async function upload(label: string, target: Target): Promise<Result> {
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nBench\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\nRaster\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="videoFile"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const videoBytes = totalBytes - head.length - tail.length;
  const first = Buffer.from(chunk);
  first.write("\u0000\u0000\u0000\u0018ftypisom", 0, "latin1");

  const rssBefore = target.rss();
  let peakRss = rssBefore;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, target.rss())), 25);
  const started = performance.now();
  try {
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port: target.port,
          method: "POST",
          path: target.path,
          timeout: 600_000,
          headers: {
            "content-type": `multipart/form-data; boundary=${boundary}`,
            "content-length": totalBytes,
            ...(target.token ? { authorization: `Bearer ${target.token}` } : {}),
          },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", reject);
      req.on("timeout", () => req.destroy(new Error("upload timed out")));
      void (async () => {
        req.write(head);
        for (let sent = 0; sent < videoBytes; ) {
          const piece = (sent === 0 ? first : chunk).subarray(0, Math.min(chunk.length, videoBytes - sent));
          sent += piece.length;
          if (!req.write(piece)) await new Promise((r) => req.once("drain", r));
        }
        req.end(tail);
      })();
    });
    const seconds = (performance.now() - started) / 1000;
    peakRss = Math.max(peakRss, target.rss());
    return {
      label,
      status,
      seconds,
      mbPerSecond: totalBytes / 1024 / 1024 / seconds,
      rssGrowthMb: (peakRss - rssBefore) / 1024 / 1024,
      peakRssMb: peakRss / 1024 / 1024,
    };
  } finally {
    clearInterval(sampler);
  }
}

async function measure(label: string, start: (dataDir: string) => Promise<Target>): Promise<Result> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "reelbind-bench-upload-"));
  const target = await start(dataDir);
  try {
    return await upload(label, target);
  } finally {
    target.stop();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const results = [
  await measure("the app (npm start → Next upload route → busboy → storage)", startApp),
  await measure("upload route handler alone (node:http)", (dir) => startHandlerServer("streaming", dir)),
  await measure("baseline: request.formData() handler (node:http)", (dir) => startHandlerServer("formData", dir)),
];
const [app, , baseline] = results as [Result, Result, Result];

console.log(`\n## Template upload of ${(totalBytes / 1024 / 1024).toFixed(0)} MB (${new Date().toISOString().slice(0, 10)}, Node ${process.version})\n`);
console.log("| server | status | wall time | throughput | peak RSS growth | peak RSS |");
console.log("|---|---|---|---|---|---|");
for (const r of results) {
  console.log(`| ${r.label} | ${r.status} | ${r.seconds.toFixed(2)} s | ${r.mbPerSecond.toFixed(0)} MB/s | ${r.rssGrowthMb.toFixed(1)} MB | ${r.peakRssMb.toFixed(0)} MB |`);
}
console.log(
  `\nThe app vs the formData baseline: RSS growth ${(app.rssGrowthMb / baseline.rssGrowthMb).toFixed(3)}×, throughput ${(app.mbPerSecond / baseline.mbPerSecond).toFixed(2)}×. Target: RSS growth ≤ 64 MB — ${app.rssGrowthMb <= 64 ? "met" : "missed"}.`,
);
