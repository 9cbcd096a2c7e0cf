// npm run bench:upload – a 250 MB template upload through the upload route handler, beside a
// baseline handler that reads the same body with request.formData(). Each runs in its own
// server process (loopback only), so each peak RSS is that handler's alone.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";

const totalBytes = Number(process.env.BENCH_UPLOAD_BYTES ?? 250 * 1024 * 1024);
const boundary = "----reelbind-bench-boundary";
const chunk = Buffer.alloc(1024 * 1024, 0x61);

type Result = { variant: string; status: number; seconds: number; mbPerSecond: number; rssGrowthMb: number; peakRssMb: number };

function multipartParts(videoBytes: number) {
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nBench\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\nRaster\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="videoFile"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { head, tail, length: head.length + videoBytes + tail.length };
}

async function startServer(variant: string, dataDir: string) {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/upload-server.ts", variant], {
    env: { ...process.env, DATA_DIR: dataDir, TOKEN_SECRETS: "bench:0123456789abcdef0123456789abcdef", AUTH_SECRET: "bench-auth-secret-0123456789abcdef" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("bench server did not start in 60 s")), 60_000);
    child.stdout.once("data", (data: Buffer) => {
      clearTimeout(timer);
      resolve((JSON.parse(data.toString().split("\n")[0]!) as { port: number }).port);
    });
  });
  return { child, port };
}

async function upload(variant: string): Promise<Result> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `reelbind-bench-${variant}-`));
  const { child, port } = await startServer(variant, dataDir);
  try {
    const { head, tail, length } = multipartParts(totalBytes - 400);
    const videoBytes = totalBytes - 400;
    const started = performance.now();
    const response = await new Promise<{ status: number; rssBefore: number; peakRss: number }>((resolve, reject) => {
      const req = http.request(
        { host: "127.0.0.1", port, method: "POST", path: "/upload", timeout: 600_000, headers: { "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": length } },
        (res) => {
          let text = "";
          res.on("data", (d: Buffer) => (text += d));
          res.on("end", () => resolve(JSON.parse(text)));
        },
      );
      req.on("error", reject);
      req.on("timeout", () => req.destroy(new Error("upload timed out")));
      void (async () => {
        req.write(head);
        // An MP4 signature first, so the streaming handler accepts the video.
        const first = Buffer.from(chunk);
        first.write("\u0000\u0000\u0000\u0018ftypisom", 0, "latin1");
        let sent = 0;
        while (sent < videoBytes) {
          const piece = (sent === 0 ? first : chunk).subarray(0, Math.min(chunk.length, videoBytes - sent));
          sent += piece.length;
          if (!req.write(piece)) await new Promise((r) => req.once("drain", r));
        }
        req.end(tail);
      })();
    });
    const seconds = (performance.now() - started) / 1000;
    return {
      variant,
      status: response.status,
      seconds,
      mbPerSecond: totalBytes / 1024 / 1024 / seconds,
      rssGrowthMb: (response.peakRss - response.rssBefore) / 1024 / 1024,
      peakRssMb: response.peakRss / 1024 / 1024,
    };
  } finally {
    child.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const results = [await upload("streaming"), await upload("formData")];
const [streaming, baseline] = results as [Result, Result];
console.log(`\nUpload of ${(totalBytes / 1024 / 1024).toFixed(0)} MB on loopback\n`);
console.log("| handler | status | wall time | throughput | peak RSS growth | peak RSS |");
console.log("|---|---|---|---|---|---|");
for (const r of results) {
  console.log(`| ${r.variant === "streaming" ? "upload route (busboy → storage)" : "baseline: request.formData()"} | ${r.status} | ${r.seconds.toFixed(2)} s | ${r.mbPerSecond.toFixed(0)} MB/s | ${r.rssGrowthMb.toFixed(1)} MB | ${r.peakRssMb.toFixed(0)} MB |`);
}
console.log(`\nRSS growth ratio streaming/baseline: ${(streaming.rssGrowthMb / baseline.rssGrowthMb).toFixed(3)}; throughput ratio: ${(streaming.mbPerSecond / baseline.mbPerSecond).toFixed(2)}`);
