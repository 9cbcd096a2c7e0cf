// npm run bench:upload – a 250 MB template upload, measured five ways in one run, each
// server in its own process on loopback so each peak RSS is that server's alone:
//   1. the app itself (`npm start`: the Next server and its upload route),
//   2. the upload route handler alone behind node:http (bench/upload-server.ts),
//   3. the baseline: a handler that reads the same body with request.formData(),
//   4. the app's upload route with STORAGE_DRIVER=s3 (s3rver on loopback, in this process),
//   5. the direct path on the same app and bucket: an upload session, the parts PUT straight to
//      presigned S3 URLs (4 at a time), then the completion (docs/direct-uploads.md).
// For each, the bytes the app's processes read and wrote through system calls (/proc/<pid>/io).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { startS3Server, type S3Server } from "@/testing/s3-server";
import { benchSecrets, startQuickStartApp, treeIo, treeRss, waitForOutput } from "./processes";

const totalBytes = Number(process.env.BENCH_UPLOAD_BYTES ?? 250 * 1024 * 1024);
const boundary = "----reelbind-bench-boundary";
const chunk = Buffer.alloc(1024 * 1024, 0x61);

type Target = { port: number; path: string; token?: string; rss: () => number; io?: () => { read: number; written: number }; stop: () => void };
type Result = { label: string; status: number; seconds: number; mbPerSecond: number; rssGrowthMb: number; peakRssMb: number; readMb?: number; writtenMb?: number };

/** The product as the quick start runs it, on a fresh DATA_DIR (with `extraEnv`: on S3). */
async function startApp(dataDir: string, extraEnv: Record<string, string> = {}): Promise<Target> {
  const app = await startQuickStartApp(dataDir, extraEnv);
  return {
    port: app.port,
    token: app.token,
    path: `/api/Projects/${app.projectId}/templates/upload`,
    rss: () => treeRss(app.pid),
    io: () => treeIo(app.pid),
    stop: app.stop,
  };
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

/** Runs `send` against the target, sampling its RSS and counting its I/O meanwhile. */
async function observe(label: string, target: Target, send: () => Promise<number>): Promise<Result> {
  const rssBefore = target.rss();
  const ioBefore = target.io?.();
  let peakRss = rssBefore;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, target.rss())), 25);
  const started = performance.now();
  try {
    const status = await send();
    const seconds = (performance.now() - started) / 1000;
    peakRss = Math.max(peakRss, target.rss());
    const ioAfter = target.io?.();
    return {
      label,
      status,
      seconds,
      mbPerSecond: totalBytes / 1024 / 1024 / seconds,
      rssGrowthMb: (peakRss - rssBefore) / 1024 / 1024,
      peakRssMb: peakRss / 1024 / 1024,
      ...(ioBefore && ioAfter ? { readMb: (ioAfter.read - ioBefore.read) / 1024 / 1024, writtenMb: (ioAfter.written - ioBefore.written) / 1024 / 1024 } : {}),
    };
  } finally {
    clearInterval(sampler);
  }
}

/** The video's bytes from `offset`, `length` of them: an MP4's first bytes, then filler. */
function videoSlice(offset: number, length: number): Buffer {
  const bytes = Buffer.alloc(length, 0x61);
  if (offset === 0) bytes.write("\u0000\u0000\u0000\u0018ftypisom", 0, "latin1");
  return bytes;
}

/** The direct path: an upload session for one 250 MB video, its parts PUT to their URLs 4 at a time, then the completion. */
async function directUpload(label: string, target: Target): Promise<Result> {
  const base = `http://127.0.0.1:${target.port}${target.path.replace(/\/upload$/, "/uploads")}`;
  const headers = { authorization: `Bearer ${target.token}`, "content-type": "application/json" };
  const created = await fetch(base, {
    method: "POST",
    headers,
    body: JSON.stringify({ fields: { name: "Bench", kind: "Raster" }, files: [{ role: "videoFile", name: "big.mp4", type: "video/mp4", size: totalBytes }] }),
  });
  if (created.status !== 201) throw new Error(`upload session: ${created.status} ${await created.text()}`);
  const session = (await created.json()) as { id: string; partSize: number; files: { parts: { partNumber: number; size: number; url: string }[] }[] };
  return observe(label, target, async () => {
    const parts = [...session.files[0]!.parts];
    const etags: { partNumber: number; etag: string }[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let part = parts.shift(); part; part = parts.shift()) {
          const answer = await fetch(part.url, { method: "PUT", body: new Uint8Array(videoSlice((part.partNumber - 1) * session.partSize, part.size)) });
          if (answer.status !== 200) throw new Error(`part ${part.partNumber}: ${answer.status} ${await answer.text()}`);
          etags.push({ partNumber: part.partNumber, etag: answer.headers.get("etag")! });
        }
      }),
    );
    const completed = await fetch(`${base}/${session.id}/complete`, { method: "POST", headers, body: JSON.stringify({ files: [{ index: 0, parts: etags }] }) });
    await completed.text();
    return completed.status;
  });
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

  return observe(label, target, () =>
    new Promise<number>((resolve, reject) => {
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
    }),
  );
}

async function measure(
  label: string,
  start: (dataDir: string) => Promise<Target>,
  send: (label: string, target: Target) => Promise<Result> = upload,
): Promise<Result> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "reelbind-bench-upload-"));
  const target = await start(dataDir);
  try {
    return await send(label, target);
  } finally {
    target.stop();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const s3: S3Server = await startS3Server("reelbind-bench");
const results = [
  await measure("the app (npm start → Next upload route → busboy → storage)", (dir) => startApp(dir)),
  await measure("upload route handler alone (node:http)", (dir) => startHandlerServer("streaming", dir)),
  await measure("baseline: request.formData() handler (node:http)", (dir) => startHandlerServer("formData", dir)),
  await measure("the app, STORAGE_DRIVER=s3: upload route → busboy → S3", (dir) => startApp(dir, s3.env)),
  await measure("the app, STORAGE_DRIVER=s3: direct — parts PUT to presigned S3 URLs, then complete", (dir) => startApp(dir, s3.env), directUpload),
];
await s3.close();
const [app, , baseline, throughApp, direct] = results as [Result, Result, Result, Result, Result];

console.log(`\n## Template upload of ${(totalBytes / 1024 / 1024).toFixed(0)} MB (${new Date().toISOString().slice(0, 10)}, Node ${process.version})\n`);
console.log("| server | status | wall time | throughput | peak RSS growth | peak RSS | app read | app written |");
console.log("|---|---|---|---|---|---|---|---|");
const mb = (value: number | undefined) => (value === undefined ? "–" : `${value.toFixed(1)} MB`);
for (const r of results) {
  console.log(
    `| ${r.label} | ${r.status} | ${r.seconds.toFixed(2)} s | ${r.mbPerSecond.toFixed(0)} MB/s | ${r.rssGrowthMb.toFixed(1)} MB | ${r.peakRssMb.toFixed(0)} MB | ${mb(r.readMb)} | ${mb(r.writtenMb)} |`,
  );
}
console.log(
  `\nThe app vs the formData baseline: RSS growth ${(app.rssGrowthMb / baseline.rssGrowthMb).toFixed(3)}×, throughput ${(app.mbPerSecond / baseline.mbPerSecond).toFixed(2)}×. Target: RSS growth ≤ 64 MB — ${app.rssGrowthMb <= 64 ? "met" : "missed"}.`,
);
const handled = (r: Result) => (r.readMb ?? 0) + (r.writtenMb ?? 0);
console.log(
  `Direct vs the upload route, both on S3: app bytes handled ${handled(direct).toFixed(0)} MB vs ${handled(throughApp).toFixed(0)} MB (${(handled(direct) / handled(throughApp)).toFixed(2)}×), ` +
    `wall time ${(direct.seconds / throughApp.seconds).toFixed(2)}×, RSS growth ${direct.rssGrowthMb.toFixed(0)} MB vs ${throughApp.rssGrowthMb.toFixed(0)} MB. ` +
    `Goal: only the validation reads — the direct path reads the video once (${(totalBytes / 1024 / 1024).toFixed(0)} MB) for its SHA-256 content address and writes none of it.`,
);
