import { createHash } from "node:crypto";
import type { CanvasKit, Image, MallocObj, Surface } from "canvaskit-wasm";
import initCanvasKit from "canvaskit-wasm/bin/full/canvaskit.js";
import { maxLottieDimension } from "@/lib/templates/lottie";
import { listImageAssets, type Lottie } from "@/shared/templates/lottie";
import { readFontFiles } from "./fonts";
import { downscaleRgba, unpremultiply } from "./pixels";
import { encodePng } from "./png";
import { createAnimationCache, type AnimationCache } from "./skottie-animations";

// Server-side preview frames: Skia's Skottie (canvaskit-wasm) renders a Lottie animation to a
// PNG in Node. One CanvasKit at a time, loaded on first use. Every CanvasKit object a render
// makes is deleted before it returns, or kept in a small cache that deletes what it evicts.
//
// CanvasKit itself keeps every typeface it made in its font caches (up to ~2,000 of them), and
// Skottie makes one from the font file for every new animation: ~0.7 MB of WASM heap that is
// never given back (glyph caches that fill their byte budget do evict, so a steady preview
// load levels off near 320 MB; text that is shaped but never drawn does not, up to ~1.5 GB).
// So when the heap passes the recycling limit, the next render starts a fresh CanvasKit and
// the old one is left to the garbage collector.

/** Previews fit this box unless the caller asks for a size (720p). */
export const previewBox = { width: 1280, height: 720 } as const;

/** A WASM heap larger than this (it never shrinks) retires its CanvasKit after the render. */
export const defaultRecycleHeapBytes = 384 * 1024 * 1024;
let recycleHeapBytes = defaultRecycleHeapBytes;

export function configurePreviewRenderer(options: { recycleHeapBytes?: number }) {
  recycleHeapBytes = options.recycleHeapBytes ?? defaultRecycleHeapBytes;
}

export type RenderPreviewInput = {
  /** The animation with bindings already applied. */
  lottie: Lottie;
  /** Image files by the name image assets give in `p`. */
  assets?: ReadonlyMap<string, Uint8Array>;
  /** Absolute Lottie frame (ip ≤ frame ≤ op); default: mid-animation, rounded down. */
  frame?: number;
  width?: number;
  height?: number;
  /** PNG or JPEG drawn first, scaled to cover the frame (Raster templates: the poster). */
  background?: Uint8Array;
};

export type RenderedPreview = {
  png: Buffer;
  width: number;
  height: number;
  frame: number;
  /** Images the animation names but `assets` lacks; an undecodable background. */
  warnings: string[];
};

export type RenderedPixels = Omit<RenderedPreview, "png"> & {
  /** Unpremultiplied RGBA, width × height, rows packed. */
  rgba: Uint8Array;
};

type PixelSurface = { surface: Surface; pixels: MallocObj; delete(): void };

/** A CanvasKit and the caches of objects it made (objects of one CanvasKit never reach another). */
type Runtime = {
  ck: CanvasKit;
  animations: AnimationCache;
  surfaces: Map<string, PixelSurface>;
  backgrounds: Map<string, Image>;
  retired: boolean;
};

let runtime: Promise<Runtime> | null = null;
let starts = 0;

/** The CanvasKit renders use: loaded once (and again after a retirement); concurrent callers share the promise. */
export async function loadCanvasKit(): Promise<CanvasKit> {
  return (await currentRuntime()).ck;
}

function currentRuntime(): Promise<Runtime> {
  runtime ??= startRuntime().catch((error: unknown) => {
    runtime = null; // a later call tries again
    throw error;
  });
  return runtime;
}

async function startRuntime(): Promise<Runtime> {
  // The full build includes Skottie. canvaskit-wasm is a server-external package, so its
  // loader runs from node_modules and finds canvaskit.wasm beside itself.
  const ck = await withWasmConsole(() => initCanvasKit({}));
  starts++;
  return { ck, animations: createAnimationCache(ck, readFontFiles()), surfaces: new Map(), backgrounds: new Map(), retired: false };
}

/**
 * CanvasKit binds console.log/console.error for its C++ output when it starts (it ignores the
 * print options). Starting it with these two swapped keeps its expected chatter out of the
 * server log: Skottie tries every asset as a font ("failed to open <n> as a font"), and
 * missing images, which renders report as warnings.
 */
function withWasmConsole<T>(start: () => T): T {
  const { log, error } = console;
  const forward = (...args: unknown[]) => {
    const line = args.map(String).join(" ");
    if (/^---- failed to open <\d+>/.test(line) || line.startsWith("Could not find ")) return;
    console.warn(`[canvaskit] ${line}`);
  };
  console.log = forward;
  console.error = forward;
  try {
    return start();
  } finally {
    console.log = log;
    console.error = error;
  }
}

function heapBytes(ck: CanvasKit): number {
  return (ck as unknown as { HEAPU8: Uint8Array }).HEAPU8.length;
}

/** After a render: a runtime whose heap grew too large is dropped; the next render starts a new one. */
function retireIfFull(current: Runtime, settled: Promise<Runtime>) {
  if (heapBytes(current.ck) > recycleHeapBytes) retire(current, settled);
}

function retire(current: Runtime, settled: Promise<Runtime>) {
  if (current.retired) return;
  current.retired = true;
  clearCaches(current);
  if (runtime === settled) runtime = null;
}

/**
 * A CanvasKit nobody rendered with for this long is dropped too: its WASM heap (tens to hundreds
 * of MB) goes back once collected, and previews are rare next to the rest of the server's work.
 * Starting it again costs ~0.3 s on the next preview.
 */
const idleReleaseMs = 60_000;
let idleTimer: NodeJS.Timeout | null = null;

function releaseWhenIdle(current: Runtime, settled: Promise<Runtime>) {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    idleTimer = null;
    retire(current, settled);
  }, idleReleaseMs);
  idleTimer.unref();
}

function clearCaches(current: Runtime) {
  current.animations.clear();
  for (const cache of [current.surfaces, current.backgrounds] as Map<string, { delete(): void }>[]) {
    for (const value of cache.values()) value.delete();
    cache.clear();
  }
}

/** The output size: the animation fitted into 1280×720 keeping its aspect, or what the caller asked. */
export function previewSize(lottie: Pick<Lottie, "w" | "h">, width?: number, height?: number): { width: number; height: number } {
  const scale =
    width !== undefined ? width / lottie.w : height !== undefined ? height / lottie.h : Math.min(previewBox.width / lottie.w, previewBox.height / lottie.h);
  const size = {
    width: width ?? Math.max(1, Math.round(lottie.w * scale)),
    height: height ?? Math.max(1, Math.round(lottie.h * scale)),
  };
  for (const [name, value] of Object.entries(size)) {
    if (!Number.isInteger(value) || value < 1 || value > maxLottieDimension) {
      throw new RangeError(`renderPreviewPng: ${name} must be a whole number of pixels from 1 to ${maxLottieDimension}, not ${value}`);
    }
  }
  return size;
}

/** Renders one frame to a PNG. The same input gives the same bytes. */
export async function renderPreviewPng(input: RenderPreviewInput): Promise<RenderedPreview> {
  const { rgba, ...rendered } = await renderPreviewPixels(input);
  return { png: encodePng(rgba, rendered.width, rendered.height), ...rendered };
}

/** renderPreviewPng without the PNG encoding. */
export async function renderPreviewPixels(input: RenderPreviewInput): Promise<RenderedPixels> {
  const settled = currentRuntime();
  const current = await settled;
  try {
    return renderWith(current, input);
  } finally {
    retireIfFull(current, settled);
    releaseWhenIdle(current, settled);
  }
}

function renderWith(current: Runtime, input: RenderPreviewInput): RenderedPixels {
  const { ck } = current;
  const { lottie } = input;
  const { width, height } = previewSize(lottie, input.width, input.height);
  const frame = input.frame ?? Math.floor((lottie.ip + lottie.op) / 2);
  if (!Number.isFinite(frame) || frame < lottie.ip || frame > lottie.op) {
    throw new RangeError(`renderPreviewPng: frame ${frame} is outside the animation's frames [${lottie.ip}, ${lottie.op}]`);
  }
  const warnings: string[] = [];
  const drawn = drawingSize(lottie, width, height);
  const { surface, pixels } = surfaceOf(current, drawn.width, drawn.height);
  const canvas = surface.getCanvas();
  canvas.clear(ck.TRANSPARENT);
  if (input.background) {
    const background = coverImage(current, input.background, drawn.width, drawn.height);
    if (background) canvas.drawImage(background, 0, 0);
    else warnings.push("the background is not a PNG or JPEG image CanvasKit can decode; it was left out");
  }
  const { animation, release } = current.animations.animationOf(lottie, input.assets, warnings);
  try {
    animation.seekFrame(frame - lottie.ip); // Skottie counts frames from the in point
    animation.render(canvas, ck.LTRBRect(0, 0, drawn.width, drawn.height));
  } finally {
    release();
  }
  surface.flush();
  const premultiplied = pixels.toTypedArray() as Uint8Array;
  const rgba =
    drawn.width === width && drawn.height === height
      ? premultiplied.slice()
      : downscaleRgba(premultiplied, drawn.width, drawn.height, width, height);
  return { rgba: unpremultiply(rgba), width, height, frame, warnings };
}

/**
 * The size Skottie draws at: the output size, except for an animation with images that is
 * larger than the output (by up to 4× the pixels). That one is drawn at its own size and
 * shrunk in JavaScript, because images placed at 100% are then copied instead of resampled,
 * and CanvasKit's WASM raster pipeline resamples at ~70 ns a pixel: the weather card's
 * 1600×1600 photo takes 40 ms to draw at 720p, 2 ms at its own size, plus ~15 ms to shrink.
 */
function drawingSize(lottie: Lottie, width: number, height: number): { width: number; height: number } {
  const own = { width: lottie.w, height: lottie.h };
  const shrinks = own.width >= width && own.height >= height && own.width * own.height > width * height;
  const affordable = own.width * own.height <= 4 * width * height;
  return shrinks && affordable && listImageAssets(lottie).length > 0 ? own : { width, height };
}

// Small caches of CanvasKit objects that renders reuse; an evicted entry is deleted.
const maxCached = 4;

function remember<T extends { delete(): void }>(cache: Map<string, T>, key: string, value: T): T {
  cache.set(key, value);
  if (cache.size > maxCached) {
    const [oldestKey, oldest] = cache.entries().next().value as [string, T];
    cache.delete(oldestKey);
    oldest.delete();
  }
  return value;
}

function recall<T>(cache: Map<string, T>, key: string): T | undefined {
  const value = cache.get(key);
  if (value !== undefined) {
    cache.delete(key); // most recently used goes last
    cache.set(key, value);
  }
  return value;
}

function premultipliedInfo(ck: CanvasKit, width: number, height: number) {
  return { width, height, colorType: ck.ColorType.RGBA_8888, alphaType: ck.AlphaType.Premul, colorSpace: ck.ColorSpace.SRGB };
}

/**
 * A premultiplied RGBA surface over memory we read directly. (CanvasKit's MakeSurface is
 * unpremultiplied, for HTML canvases, and blends ~15× slower.)
 */
function surfaceOf({ ck, surfaces }: Runtime, width: number, height: number): PixelSurface {
  const key = `${width}x${height}`;
  const cached = recall(surfaces, key);
  if (cached) return cached;
  const pixels = ck.Malloc(Uint8Array, width * height * 4);
  const surface = ck.MakeRasterDirectSurface(premultipliedInfo(ck, width, height), pixels, width * 4);
  if (!surface) {
    ck.Free(pixels);
    throw new Error(`renderPreviewPng: could not make a ${width}×${height} surface`);
  }
  return remember(surfaces, key, {
    surface,
    pixels,
    delete() {
      surface.delete();
      ck.Free(pixels);
    },
  });
}

/**
 * The background scaled (cubic filter) to cover width × height, made once per image and size:
 * drawing it is then a plain copy, where a scaled draw of a 720p frame costs 60+ ms.
 */
function coverImage({ ck, backgrounds }: Runtime, bytes: Uint8Array, width: number, height: number): Image | null {
  const key = `${createHash("sha256").update(bytes).digest("hex")}:${width}x${height}`;
  const cached = recall(backgrounds, key);
  if (cached) return cached;
  const decoded = ck.MakeImageFromEncoded(bytes);
  if (!decoded) return null;
  const info = premultipliedInfo(ck, width, height);
  const pixels = ck.Malloc(Uint8Array, width * height * 4);
  const scratch = ck.MakeRasterDirectSurface(info, pixels, width * 4);
  try {
    if (!scratch) throw new Error(`renderPreviewPng: could not make a ${width}×${height} surface`);
    const scale = Math.max(width / decoded.width(), height / decoded.height());
    const source = ck.XYWHRect((decoded.width() - width / scale) / 2, (decoded.height() - height / scale) / 2, width / scale, height / scale);
    const canvas = scratch.getCanvas();
    canvas.clear(ck.TRANSPARENT);
    canvas.drawImageRectCubic(decoded, source, ck.LTRBRect(0, 0, width, height), 1 / 3, 1 / 3, null);
    scratch.flush();
    const image = ck.MakeImage(info, pixels.toTypedArray() as Uint8Array, width * 4); // a copy: outlives `pixels`
    if (!image) throw new Error("renderPreviewPng: could not keep the scaled background");
    return remember(backgrounds, key, image);
  } finally {
    scratch?.delete();
    ck.Free(pixels);
    decoded.delete();
  }
}

/** Deletes every cached CanvasKit object (tests; a long idle). */
export async function clearPreviewRendererCaches() {
  if (runtime) clearCaches(await runtime);
}

/** For tests and the benchmark: the WASM heap, what the caches hold, how many CanvasKits were started. */
export async function previewRendererStats() {
  const current = await currentRuntime();
  return {
    wasmHeapBytes: heapBytes(current.ck),
    animations: current.animations.size,
    surfaces: current.surfaces.size,
    backgrounds: current.backgrounds.size,
    canvasKitStarts: starts,
  };
}

/** How an animation sits in a frame of another aspect (a Raster template's overlayJson `fit`). */
export type FrameFit = "contain" | "cover" | "fill";

export type FrameRendererInput = {
  /** The animation with bindings already applied. */
  lottie: Lottie;
  assets?: ReadonlyMap<string, Uint8Array>;
  width: number;
  height: number;
  fit?: FrameFit;
};

/** Draws frames of one animation in turn (video renders); close() when done. */
export type FrameRenderer = {
  /** Images the animation names but `assets` lacks. */
  warnings: string[];
  /**
   * Draws the frame (absolute Lottie frame; null: the animation is not on screen) over
   * `under` — opaque RGBA of width × height, e.g. a decoded video frame — or over `color`.
   * Returns the premultiplied RGBA pixels (opaque when `under` or an opaque color is given),
   * a view valid until the next call: copy it to keep it.
   */
  drawFrame(frame: number | null, under: Uint8Array | { color: [number, number, number, number] }): Uint8Array;
  close(): void;
};

/**
 * A frame renderer for video: the same Skottie animation (built once) drawn frame after frame
 * into one surface. Raw pixels, no PNG: the caller streams them to ffmpeg.
 */
export async function openFrameRenderer(input: FrameRendererInput): Promise<FrameRenderer> {
  const settled = currentRuntime();
  const current = await settled;
  const { ck } = current;
  const { lottie, width, height, fit = "contain" } = input;
  const warnings: string[] = [];
  // Its own surface and animation, outside the caches: a preview drawn between two frames must
  // neither evict them nor set other data on a shared animation.
  const pixels = ck.Malloc(Uint8Array, width * height * 4);
  const surface = ck.MakeRasterDirectSurface(premultipliedInfo(ck, width, height), pixels, width * 4);
  if (!surface) {
    ck.Free(pixels);
    throw new Error(`openFrameRenderer: could not make a ${width}×${height} surface`);
  }
  let animation: ReturnType<typeof current.animations.build>;
  try {
    animation = current.animations.build(lottie, input.assets, warnings);
  } catch (error) {
    surface.delete();
    ck.Free(pixels);
    throw error;
  }
  const bytes = width * height * 4;
  let closed = false;
  return {
    warnings,
    drawFrame(frame, under) {
      if (closed) throw new Error("drawFrame: the frame renderer is closed");
      const canvas = surface.getCanvas();
      const target = pixels.toTypedArray() as Uint8Array;
      if (under instanceof Uint8Array) {
        if (under.byteLength !== bytes) throw new RangeError(`drawFrame: expected ${bytes} bytes of RGBA under the frame, got ${under.byteLength}`);
        target.set(under);
      } else {
        canvas.clear(ck.Color(...under.color));
      }
      if (frame !== null) {
        animation.seekFrame(Math.min(Math.max(frame, lottie.ip), lottie.op) - lottie.ip);
        canvas.save();
        if (fit === "fill") {
          canvas.scale(width / lottie.w, height / lottie.h);
          animation.render(canvas, ck.LTRBRect(0, 0, lottie.w, lottie.h));
        } else {
          const scale = (fit === "cover" ? Math.max : Math.min)(width / lottie.w, height / lottie.h);
          const w = lottie.w * scale;
          const h = lottie.h * scale;
          canvas.clipRect(ck.LTRBRect(0, 0, width, height), ck.ClipOp.Intersect, false);
          animation.render(canvas, ck.XYWHRect((width - w) / 2, (height - h) / 2, w, h));
        }
        canvas.restore();
      }
      surface.flush();
      return pixels.toTypedArray() as Uint8Array;
    },
    close() {
      if (closed) return;
      closed = true;
      animation.delete();
      surface.delete();
      ck.Free(pixels);
      retireIfFull(current, settled);
      releaseWhenIdle(current, settled);
    },
  };
}
