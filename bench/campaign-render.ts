// The render half of `npm run bench:campaign` (standalone: `npx tsx bench/campaign-render.ts`):
// renders Reelbind's demo template — 1280×720, 30 fps, 300 frames: a 10 s 720p Lottie, so no
// scaling or time-stretching — to an H.264 MP4 through the render code path the job runs
// (lib/skottie/render-media.ts: Skottie frames → I420 → ffmpeg's stdin → libx264), and in the
// same run times ffmpeg encoding alone on the same 300 frames, rendered beforehand into memory
// and piped with the same arguments. Each is run several times; the median is reported, with a
// profile of where a frame's time goes on the JavaScript side.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openFrameRenderer } from "@/lib/skottie/preview-renderer";
import { renderMedia } from "@/lib/skottie/render-media";
import { i420Bytes, rgbaToI420 } from "@/lib/skottie/yuv";
import { applyBindings } from "@/shared/templates/bindings";
import { parseLottieJson } from "@/lib/templates/lottie";
import type { Lottie } from "@/shared/templates/lottie";
import type { BindingManifest } from "@/shared/templates/manifest";

export type RenderBenchOptions = { runs?: number; ffmpegPath?: string; log?: (line: string) => void };

export type RenderBenchResult = {
  frames: number;
  /** Median wall time of the whole render (CanvasKit already started). */
  seconds: number;
  framesPerSecond: number;
  /** Seconds of video rendered per second of wall time. */
  realTimeFactor: number;
  /** The same frames, the same encoder arguments, no drawing: what ffmpeg alone sustains. */
  ffmpegOnlyFramesPerSecond: number;
  /** JavaScript's share of a frame: Skottie drawing it, converting it to I420 (milliseconds, median run). */
  profile: { drawMsPerFrame: number; i420MsPerFrame: number };
  runs: number;
  cores: number;
  bytes: number;
};

const demoDir = path.join(process.cwd(), "lib/bootstrap/demo-template/landscape");

function demoTemplate(): { lottie: Lottie; assets: Map<string, Uint8Array> } {
  const lottie = parseLottieJson(readFileSync(path.join(demoDir, "data.json"), "utf8"));
  const manifest = JSON.parse(readFileSync(path.join(demoDir, "manifest.json"), "utf8")) as BindingManifest;
  const assets = new Map<string, Uint8Array>([["logo.png", readFileSync(path.join(demoDir, "images/logo.png"))]]);
  const data = { firstName: "Ana", planName: "Northwind Pro", renewalDate: "May 4, 2027", amount: "$31.00" };
  return { lottie: applyBindings({ lottie, manifest, data, assets: assets.keys() }).lottie, assets };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The frames the render draws, as I420, kept in memory for the ffmpeg-only run. */
async function prerender(lottie: Lottie, assets: Map<string, Uint8Array>, width: number, height: number) {
  const renderer = await openFrameRenderer({ lottie, assets, width, height });
  const frames: Uint8Array[] = [];
  let drawMs = 0;
  let i420Ms = 0;
  try {
    for (let i = 0; i < lottie.op - lottie.ip; i++) {
      const t0 = performance.now();
      const rgba = renderer.drawFrame(lottie.ip + i, { color: [255, 255, 255, 1] });
      const t1 = performance.now();
      frames.push(rgbaToI420(rgba, width, height, Buffer.allocUnsafe(i420Bytes(width, height))));
      drawMs += t1 - t0;
      i420Ms += performance.now() - t1;
    }
  } finally {
    renderer.close();
  }
  return { frames, drawMsPerFrame: drawMs / frames.length, i420MsPerFrame: i420Ms / frames.length };
}

/** ffmpeg encoding the frames from memory, with the arguments renderMedia gives it; resolves to seconds. */
async function encodeOnly(ffmpegPath: string, frames: Uint8Array[], width: number, height: number, fps: number, output: string): Promise<number> {
  const started = performance.now();
  const ffmpeg = spawn(ffmpegPath, [
    ...["-hide_banner", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "yuv420p"],
    ...["-color_range", "tv", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"],
    ...["-s", `${width}x${height}`, "-r", String(fps), "-i", "pipe:0"],
    ...["-c:v", "libx264", "-preset", "superfast", "-crf", "23", "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f", "mp4", "-y", output],
  ]);
  const exited = new Promise<void>((resolve, reject) => ffmpeg.once("close", (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited ${code}`)))));
  for (const frame of frames) {
    if (!ffmpeg.stdin.write(frame)) await new Promise((resolve) => ffmpeg.stdin.once("drain", resolve));
  }
  ffmpeg.stdin.end();
  await exited;
  return (performance.now() - started) / 1000;
}

export async function runRenderBench(options: RenderBenchOptions = {}): Promise<RenderBenchResult> {
  const runs = options.runs ?? 3;
  const ffmpegPath = options.ffmpegPath ?? process.env.FFMPEG_PATH ?? "ffmpeg";
  const log = options.log ?? (() => {});
  const { lottie, assets } = demoTemplate();
  const workDir = mkdtempSync(path.join(os.tmpdir(), "reelbind-render-bench-"));
  try {
    // CanvasKit's start (~0.3 s, once per process) is not part of a render's cost.
    const warm = await prerender(lottie, assets, lottie.w, lottie.h);
    const renderSeconds: number[] = [];
    const ffmpegSeconds: number[] = [];
    let result = { frames: 0, bytes: 0, durationMs: 0 };
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      result = await renderMedia({ format: "mp4", lottie, assets, workDir, ffmpegPath });
      renderSeconds.push((performance.now() - started) / 1000);
      ffmpegSeconds.push(await encodeOnly(ffmpegPath, warm.frames, lottie.w, lottie.h, lottie.fr, path.join(workDir, "encode-only.mp4")));
      log(`run ${run + 1}: render ${renderSeconds.at(-1)!.toFixed(2)} s, ffmpeg alone ${ffmpegSeconds.at(-1)!.toFixed(2)} s`);
    }
    const probed = execFileSync("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "stream=nb_frames", "-of", "csv=p=0", path.join(workDir, "render.mp4")]);
    if (Number(probed.toString().trim()) !== result.frames) throw new Error(`the MP4 has ${probed.toString().trim()} frames, not ${result.frames}`);
    const seconds = median(renderSeconds);
    return {
      frames: result.frames,
      seconds,
      framesPerSecond: result.frames / seconds,
      realTimeFactor: result.durationMs / 1000 / seconds,
      ffmpegOnlyFramesPerSecond: result.frames / median(ffmpegSeconds),
      profile: { drawMsPerFrame: warm.drawMsPerFrame, i420MsPerFrame: warm.i420MsPerFrame },
      runs,
      cores: os.availableParallelism(),
      bytes: result.bytes,
    };
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runRenderBench({ runs: Number(process.env.BENCH_RENDER_RUNS ?? 3), log: (line) => console.log(line) });
  console.log(JSON.stringify(result, null, 2));
}
