import { mkdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Lottie } from "@/shared/templates/lottie";
import { probeVideo, readFrames, startMediaProcess, writeChunk, type MediaProcess } from "./ffmpeg";
import { readFontFiles } from "./fonts";
import { unpremultiply } from "./pixels";
import { i420Bytes, rgbaToI420 } from "./yuv";
import { drawPlayBadge } from "./play-badge";
import { encodePng } from "./png";
import { openFrameRenderer, type FrameFit, type FrameRenderer } from "./preview-renderer";

// Renders a template to a file: an H.264 MP4, a GIF of at most 5 MB, or a PNG still.
//
// Frames are drawn by Skottie (preview-renderer.ts) and streamed as raw RGBA to ffmpeg's stdin.
// A Raster template's MP4 is decoded by a second ffmpeg to raw RGBA on a pipe at the output
// size and rate; each decoded frame is copied under the overlay's frame before it is encoded,
// and the encoder takes the sound from the original file. Any failure kills both processes.

export type MediaFormat = "mp4" | "gif" | "png";

export type RenderMediaInput = {
  format: MediaFormat;
  /** The animation (LottieStandalone) or overlay (Raster), bindings applied; null: a Raster template without overlay. */
  lottie: Lottie | null;
  assets?: ReadonlyMap<string, Uint8Array>;
  /** A Raster template's MP4, as a file ffmpeg can read. */
  video?: string;
  /** A Raster template's overlayJson. */
  overlay?: { fit: FrameFit; offsetSeconds: number };
  /** The still a PNG shows (absolute Lottie frame; default the middle of the animation). */
  stillFrame?: number;
  /** Thumbnails: a short loop, small, with a play button. */
  thumbnail?: boolean;
  /**
   * Captions, as a WebVTT file in workDir: attach (MP4) adds it as a mov_text subtitle stream
   * tagged with `language` (ISO 639-2); burn draws it into the frames (libass).
   */
  captions?: { mode: "attach" | "burn"; vttPath: string; language?: string };
  /** Where the output file goes (a directory the caller removes). */
  workDir: string;
  ffmpegPath: string;
  signal?: AbortSignal;
};

export type RenderedMedia = {
  path: string;
  contentType: string;
  bytes: number;
  width: number;
  height: number;
  frames: number;
  durationMs: number;
  warnings: string[];
};

/** A render's problem that another attempt cannot fix (the template's, not the machine's). */
export class RenderInputError extends Error {
  readonly code = "RENDER_INPUT_INVALID";
  constructor(message: string) {
    super(message);
    this.name = "RenderInputError";
  }
}

/** The largest GIF an email may carry comfortably. */
export const maxGifBytes = 5 * 1024 * 1024;
/** Videos are at most 1080p; larger templates are scaled down. */
const videoBox = { width: 1920, height: 1080 };
/** Longest render: ten minutes of video. */
const maxSeconds = 600;
const maxFrameRate = 60;
/** GIF sizes tried in turn until the file is at most 5 MB. */
const gifLadder = [
  { width: 480, fps: 15 },
  { width: 400, fps: 12 },
  { width: 320, fps: 10 },
  { width: 240, fps: 8 },
];
const thumbnailLadder = [
  { width: 320, fps: 12 },
  { width: 240, fps: 10 },
  { width: 200, fps: 8 },
];
/** A thumbnail loops the first seconds. */
const thumbnailSeconds = 3;
/** Standalone animations are drawn over white (most pages are), like the player on a white page. */
const white: [number, number, number, number] = [255, 255, 255, 1];

const even = (n: number) => Math.max(2, 2 * Math.round(n / 2));

function fitBox(width: number, height: number, box: { width: number; height: number }) {
  const scale = Math.min(1, box.width / width, box.height / height);
  return { width: even(width * scale), height: even(height * scale) };
}

type Source = {
  width: number;
  height: number;
  frameRate: number;
  durationSeconds: number;
  hasAudio: boolean;
};

/** What frames are drawn from: the animation's own timing, or the Raster video's. */
async function describeSource(input: RenderMediaInput): Promise<Source> {
  if (input.video) {
    const info = await probeVideo(input.ffmpegPath, input.video, input.signal);
    if (!(info.durationSeconds > 0)) throw new RenderInputError("The template's video has no duration ffprobe can read.");
    return info;
  }
  const { lottie } = input;
  if (!lottie) throw new RenderInputError("The template has neither a Lottie animation nor a video to render.");
  return { width: lottie.w, height: lottie.h, frameRate: lottie.fr, durationSeconds: (lottie.op - lottie.ip) / lottie.fr, hasAudio: false };
}

/** Renders the input to `workDir/render.<format>`. */
export async function renderMedia(input: RenderMediaInput): Promise<RenderedMedia> {
  const source = await describeSource(input);
  const seconds = Math.min(source.durationSeconds, input.thumbnail ? thumbnailSeconds : maxSeconds);
  if (!input.thumbnail && source.durationSeconds > maxSeconds) {
    throw new RenderInputError(`The template lasts ${Math.round(source.durationSeconds)} s; renders are limited to ${maxSeconds} s.`);
  }
  const output = path.join(input.workDir, `render.${input.format}`);
  if (input.format === "png") return renderStill(input, source, output);
  if (input.captions?.mode === "attach" && input.format !== "mp4") throw new RenderInputError(`A ${input.format} has no subtitle track to attach captions to.`);
  const burn = input.captions?.mode === "burn" ? await burnFilter(input.captions.vttPath, input.workDir) : null;
  if (input.format === "mp4") {
    const size = fitBox(source.width, source.height, videoBox);
    const fps = Math.min(source.frameRate, maxFrameRate);
    return encode(input, source, { ...size, fps, seconds, output, contentType: "video/mp4", args: mp4Args(input, source, output, burn), pipeFormat: "yuv420p" });
  }
  const ladder = input.thumbnail ? thumbnailLadder : gifLadder;
  for (const [index, step] of ladder.entries()) {
    const width = even(Math.min(step.width, source.width));
    const height = even((width * source.height) / source.width);
    const fps = Math.min(step.fps, source.frameRate);
    const rendered = await encode(input, source, { width, height, fps, seconds, output, contentType: "image/gif", args: gifArgs(output, burn), pipeFormat: "rgba" });
    if (rendered.bytes <= maxGifBytes) return rendered;
    if (index === ladder.length - 1) {
      throw new RenderInputError(`The GIF is ${rendered.bytes} bytes even at ${width} px and ${fps} fps; GIFs are limited to ${maxGifBytes} bytes.`);
    }
  }
  throw new Error("unreachable");
}

/** A value quoted for ffmpeg's filtergraph; one with a quote, backslash or colon would need two levels of escaping, and the temp paths never have one. */
function filterValue(value: string): string {
  if (/['\\:]/.test(value)) throw new Error(`A path for ffmpeg's subtitles filter must not contain ', \\ or : (${JSON.stringify(value)}); set TMPDIR to a plain path.`);
  return `'${value}'`;
}

/**
 * The subtitles filter drawing the WebVTT file into the frames, in DejaVu Sans (the renders' font,
 * copied beside it: libass finds no fonts on a machine without fontconfig's). Refused with a clear
 * error when this ffmpeg was built without libass.
 */
async function burnFilter(vttPath: string, workDir: string): Promise<string> {
  const fontsDir = path.join(workDir, "caption-fonts");
  await mkdir(fontsDir, { recursive: true });
  await writeFile(path.join(fontsDir, "DejaVuSans.ttf"), new Uint8Array(readFontFiles().regular));
  return `subtitles=filename=${filterValue(vttPath)}:fontsdir=${filterValue(fontsDir)}:force_style=${filterValue("FontName=DejaVu Sans,Outline=2,Shadow=0,MarginV=24")}`;
}

/** ffmpeg names a missing filter so: a build without libass cannot burn captions, whatever is retried. */
function missingFilter(error: unknown): RenderInputError | null {
  const message = error instanceof Error ? error.message : "";
  return /No such filter: '?subtitles/i.test(message)
    ? new RenderInputError("Burning captions needs ffmpeg's subtitles filter (libass), which this ffmpeg lacks: render with captions none or attach, or install an ffmpeg with libass.")
    : null;
}

function mp4Args(input: RenderMediaInput, source: Source, output: string, burn: string | null): string[] {
  const audio = input.video && source.hasAudio;
  const attach = input.captions?.mode === "attach" ? input.captions : null;
  const inputs = [...(audio ? ["-i", input.video!] : []), ...(attach ? ["-i", attach.vttPath] : [])];
  const maps = inputs.length > 0 ? ["-map", "0:v", ...(audio ? ["-map", "1:a:0"] : []), ...(attach ? ["-map", `${audio ? 2 : 1}:s:0`] : [])] : [];
  return [
    ...inputs,
    ...maps,
    ...(audio ? ["-c:a", "aac", "-b:a", "128k"] : []),
    ...(attach ? ["-c:s", "mov_text", ...(attach.language ? ["-metadata:s:s:0", `language=${attach.language}`] : [])] : []),
    // The sound sets the length; subtitles never do (-shortest would stop the video at the last cue).
    ...(audio ? ["-shortest"] : []),
    ...(burn ? ["-vf", burn] : []),
    ...["-c:v", "libx264", "-preset", "superfast", "-crf", "23", "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f", "mp4", "-y", output],
  ];
}

function gifArgs(output: string, burn: string | null): string[] {
  return [
    "-filter_complex",
    `${burn ? `${burn},` : ""}split[a][b];[a]palettegen=max_colors=256:stats_mode=diff[p];[b][p]paletteuse=dither=bayer:bayer_scale=4:diff_mode=rectangle`,
    ...["-loop", "0", "-f", "gif", "-y", output],
  ];
}

type Encoding = {
  width: number;
  height: number;
  fps: number;
  seconds: number;
  output: string;
  contentType: string;
  args: string[];
  /** yuv420p: frames are converted here and sent as I420 (H.264); rgba: ffmpeg takes RGBA (GIF's palette wants it). */
  pipeFormat: "yuv420p" | "rgba";
};

/** The overlay's absolute frame at a video time, or null where the player draws nothing over the video. */
function overlayFrame(lottie: Lottie, offsetSeconds: number, seconds: number): number | null {
  const total = lottie.op - lottie.ip;
  const relative = (seconds - offsetSeconds) * lottie.fr;
  return relative >= 0 && relative < total + 1 ? lottie.ip + Math.min(relative, total - 0.001) : null;
}

/** Frames converted here are BT.709, limited range: say so, so that players do not guess. */
function colorTags(pipeFormat: Encoding["pipeFormat"]): string[] {
  return pipeFormat === "yuv420p" ? ["-color_range", "tv", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"] : [];
}

/** Draws every frame and streams it to an ffmpeg encoder. */
async function encode(input: RenderMediaInput, source: Source, encoding: Encoding): Promise<RenderedMedia> {
  const { width, height, fps, seconds } = encoding;
  const frameCount = Math.max(1, Math.round(seconds * fps));
  const encoder = startMediaProcess(
    input.ffmpegPath,
    ["-hide_banner", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", encoding.pipeFormat, ...colorTags(encoding.pipeFormat), "-s", `${width}x${height}`, "-r", String(fps), "-i", "pipe:0", ...encoding.args],
    input.signal,
  );
  const processes: MediaProcess[] = [encoder];
  let renderer: FrameRenderer | null = null;
  try {
    renderer = input.lottie ? await openFrameRenderer({ lottie: input.lottie, assets: input.assets, width, height, fit: input.overlay?.fit }) : null;
    const compose = (index: number, under: Uint8Array | null): Uint8Array => {
      const time = index / fps;
      const lottie = input.lottie;
      let pixels: Uint8Array;
      if (!renderer || !lottie) pixels = under!;
      else if (under) pixels = renderer.drawFrame(overlayFrame(lottie, input.overlay?.offsetSeconds ?? 0, time), under);
      else pixels = renderer.drawFrame(lottie.ip + Math.min(time * lottie.fr, lottie.op - lottie.ip - 0.001), { color: white });
      if (input.thumbnail) {
        pixels = Buffer.from(pixels);
        drawPlayBadge(pixels, width, height);
      }
      // A new buffer either way: the renderer's view changes with the next frame, while the pipe may still be sending this one.
      return encoding.pipeFormat === "yuv420p" ? rgbaToI420(pixels, width, height, Buffer.allocUnsafe(i420Bytes(width, height))) : Buffer.from(pixels);
    };
    let written = 0;
    if (input.video) {
      const decoder = startMediaProcess(
        input.ffmpegPath,
        [
          ...["-hide_banner", "-loglevel", "error", "-t", String(seconds), "-i", input.video],
          ...["-vf", `fps=${fps},scale=${width}:${height}:flags=bicubic`, "-an", "-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1"],
        ],
        input.signal,
      );
      processes.push(decoder);
      decoder.stdin.end();
      for await (const frame of readFrames(decoder.stdout, width * height * 4)) {
        input.signal?.throwIfAborted();
        await writeChunk(encoder, compose(written++, frame));
      }
      await decoder.exited;
    } else {
      for (; written < frameCount; written++) {
        input.signal?.throwIfAborted();
        await writeChunk(encoder, compose(written, null));
      }
    }
    if (written === 0) throw new RenderInputError("The template's video has no frames ffmpeg can decode.");
    encoder.stdin.end();
    await encoder.exited;
    const { size } = await stat(encoding.output);
    return {
      path: encoding.output,
      contentType: encoding.contentType,
      bytes: size,
      width,
      height,
      frames: written,
      durationMs: Math.round((written / fps) * 1000),
      warnings: renderer?.warnings ?? [],
    };
  } catch (error) {
    for (const process of processes) process.kill();
    await Promise.allSettled(processes.map((p) => p.exited));
    throw input.signal?.aborted ? input.signal.reason : (missingFilter(error) ?? error);
  } finally {
    renderer?.close();
  }
}

/** One frame as a PNG: the still frame of the animation, over the video frame at that time for Raster templates. */
async function renderStill(input: RenderMediaInput, source: Source, output: string): Promise<RenderedMedia> {
  const { width, height } = fitBox(source.width, source.height, videoBox);
  const { lottie } = input;
  const offset = input.overlay?.offsetSeconds ?? 0;
  const frame = lottie ? (input.stillFrame ?? Math.floor((lottie.ip + lottie.op) / 2)) : null;
  const seconds = lottie && frame !== null ? (frame - lottie.ip) / lottie.fr + (input.video ? offset : 0) : source.durationSeconds / 2;
  let under: Uint8Array | null = null;
  if (input.video) {
    const decoder = startMediaProcess(
      input.ffmpegPath,
      [
        ...["-hide_banner", "-loglevel", "error", "-ss", String(Math.min(seconds, Math.max(0, source.durationSeconds - 0.05))), "-i", input.video],
        ...["-frames:v", "1", "-vf", `scale=${width}:${height}:flags=bicubic`, "-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1"],
      ],
      input.signal,
    );
    decoder.stdin.end();
    for await (const decoded of readFrames(decoder.stdout, width * height * 4)) under ??= Buffer.from(decoded);
    await decoder.exited;
    if (!under) throw new RenderInputError("The template's video has no frame ffmpeg can decode at that time.");
  }
  let rgba: Uint8Array;
  let warnings: string[] = [];
  if (lottie) {
    const renderer = await openFrameRenderer({ lottie, assets: input.assets, width, height, fit: input.overlay?.fit });
    try {
      const at = input.video ? overlayFrame(lottie, offset, seconds) : frame;
      rgba = unpremultiply(renderer.drawFrame(at, under ?? { color: [0, 0, 0, 0] }).slice());
      warnings = renderer.warnings;
    } finally {
      renderer.close();
    }
  } else {
    rgba = under!;
  }
  if (input.thumbnail) drawPlayBadge(rgba, width, height);
  const png = encodePng(rgba, width, height);
  await writeFile(output, png);
  return { path: output, contentType: "image/png", bytes: png.byteLength, width, height, frames: 1, durationMs: 0, warnings };
}
