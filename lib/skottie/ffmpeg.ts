import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import type { Readable, Writable } from "node:stream";

// ffmpeg and ffprobe as child processes: raw frames go in on stdin (or come out on stdout), never
// through temp frame files. A process is killed when its render fails or is aborted, and its
// failure is an error carrying the end of its stderr.

/** ffmpeg (FFMPEG_PATH, else `ffmpeg` on PATH) could not be started: the render cannot succeed, retrying will not help. */
export class FfmpegMissingError extends Error {
  readonly code = "FFMPEG_MISSING";
  constructor(readonly binary: string, cause: unknown) {
    super(`ffmpeg could not be started (${JSON.stringify(binary)}): install ffmpeg (Debian: apt-get install ffmpeg) or set FFMPEG_PATH to its binary.`);
    this.name = "FfmpegMissingError";
    this.cause = cause;
  }
}

/** ffmpeg or ffprobe exited with an error; `message` ends with what it printed. */
export class FfmpegFailedError extends Error {
  readonly code = "FFMPEG_FAILED";
  constructor(readonly binary: string, exit: string, stderr: string) {
    super(`${path.basename(binary)} ${exit}${stderr ? `: ${stderr.trim().split("\n").slice(-3).join(" | ")}` : ""}`);
    this.name = "FfmpegFailedError";
  }
}

/** ffprobe beside the given ffmpeg (Debian's package ships both). */
export function ffprobePathFor(ffmpegPath: string): string {
  const dir = path.dirname(ffmpegPath);
  const name = path.basename(ffmpegPath).replace(/ffmpeg/, "ffprobe");
  return dir === "." && !ffmpegPath.startsWith(".") ? name : path.join(dir, name);
}

export type MediaProcess = {
  stdin: Writable;
  stdout: Readable;
  /** Resolves when the process exits 0; rejects with FfmpegMissingError, FfmpegFailedError or the abort reason. */
  exited: Promise<void>;
  kill(): void;
};

const stderrKeptBytes = 4096;

/** Starts ffmpeg/ffprobe with `args`; an abort kills it. The caller must await `exited`. */
export function startMediaProcess(binary: string, args: string[], signal?: AbortSignal): MediaProcess {
  const child: ChildProcess = spawn(binary, args, { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-stderrKeptBytes);
  });
  // A process that exits early breaks its pipes: `exited` reports why, not the EPIPE.
  child.stdin!.on("error", () => {});
  child.stdout!.on("error", () => {});
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  const onAbort = () => kill();
  signal?.addEventListener("abort", onAbort, { once: true });
  const exited = new Promise<void>((resolve, reject) => {
    child.once("error", (error: NodeJS.ErrnoException) => {
      reject(error.code === "ENOENT" || error.code === "EACCES" ? new FfmpegMissingError(binary, error) : error);
    });
    child.once("close", (code, killedBy) => {
      signal?.removeEventListener("abort", onAbort);
      if (signal?.aborted) reject(signal.reason);
      else if (code === 0) resolve();
      else reject(new FfmpegFailedError(binary, killedBy ? `was killed (${killedBy})` : `exited with code ${code}`, stderr));
    });
  });
  exited.catch(() => {}); // the caller awaits it; a rejection before that must not be unhandled
  return { stdin: child.stdin!, stdout: child.stdout!, exited, kill };
}

/** Writes a chunk, waiting while the pipe is full; fails when the process has gone. */
export async function writeChunk(process: MediaProcess, chunk: Uint8Array): Promise<void> {
  if (process.stdin.write(chunk)) return;
  await Promise.race([
    once(process.stdin, "drain"),
    process.exited.then(() => {
      throw new Error("ffmpeg exited before it read every frame");
    }),
  ]);
}

/** Reads exactly `size` bytes at a time from a stream (decoded raw frames); the last partial chunk is dropped. */
export async function* readFrames(stream: Readable, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    pending.push(chunk);
    pendingBytes += chunk.byteLength;
    if (pendingBytes < size) continue;
    let joined = Buffer.concat(pending, pendingBytes);
    let offset = 0;
    while (joined.byteLength - offset >= size) {
      yield joined.subarray(offset, offset + size);
      offset += size;
    }
    joined = joined.subarray(offset);
    pending = joined.byteLength ? [joined] : [];
    pendingBytes = joined.byteLength;
  }
}

export type VideoInfo = { width: number; height: number; frameRate: number; durationSeconds: number; hasAudio: boolean };

/** Size, frame rate, duration and whether it has sound, read with ffprobe. */
export async function probeVideo(ffmpegPath: string, file: string, signal?: AbortSignal): Promise<VideoInfo> {
  const probe = startMediaProcess(
    ffprobePathFor(ffmpegPath),
    ["-v", "error", "-show_entries", "stream=codec_type,width,height,avg_frame_rate,r_frame_rate:format=duration", "-of", "json", file],
    signal,
  );
  probe.stdin.end();
  const chunks: Buffer[] = [];
  for await (const chunk of probe.stdout as AsyncIterable<Buffer>) chunks.push(chunk);
  await probe.exited;
  const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
    streams?: { codec_type?: string; width?: number; height?: number; avg_frame_rate?: string; r_frame_rate?: string }[];
    format?: { duration?: string };
  };
  const video = parsed.streams?.find((s) => s.codec_type === "video");
  if (!video?.width || !video.height) throw new Error("The template's video file has no video stream ffprobe can read.");
  const rate = (text: string | undefined) => {
    const [n, d] = (text ?? "").split("/").map(Number);
    return n && d ? n / d : 0;
  };
  return {
    width: video.width,
    height: video.height,
    frameRate: rate(video.avg_frame_rate) || rate(video.r_frame_rate) || 30,
    durationSeconds: Number(parsed.format?.duration ?? 0),
    hasAudio: parsed.streams?.some((s) => s.codec_type === "audio") ?? false,
  };
}
