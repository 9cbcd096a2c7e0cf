// npm run bench:preview – preview PNG render times at 720p for every Lottie fixture: cold (the
// first render of a template, parse and animation build included; CanvasKit's start measured
// apart) and warm (the same template, new data each time), beside baselines measured in the
// same run: the pixels without PNG encoding, CanvasKit's own PNG encoder on the same pixels,
// and a naive pipeline (fresh animation, MakeSurface, encodeToBytes) on the same input.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import type { CanvasKit } from "canvaskit-wasm";
import { encodePng } from "@/lib/skottie/png";
import {
  clearPreviewRendererCaches,
  loadCanvasKit,
  previewRendererStats,
  previewSize,
  renderPreviewPixels,
  renderPreviewPng,
} from "@/lib/skottie/preview-renderer";
import { lottieFixtures, readFixture, solidPngDataUrl, weatherCardImages } from "@/testing/fixtures/lottie-builders";
import { applyBindings } from "@/shared/templates/bindings";
import { parseLottieJson } from "@/lib/templates/lottie";
import { listFontNames, listImageAssets, type Lottie } from "@/shared/templates/lottie";
import type { BindingManifest } from "@/shared/templates/manifest";

const warmRuns = Number(process.env.BENCH_PREVIEW_RUNS ?? 60);
const warmUpRuns = 3;

type Case = {
  name: string;
  file: string;
  assets?: Map<string, Uint8Array>;
  manifest: BindingManifest | null;
  data: (i: number) => Record<string, string>;
};

const text = (key: string, layer: string) => ({ key, type: "text" as const, target: { layer } });
const cases: Case[] = [
  {
    name: "banner",
    file: lottieFixtures.banner,
    manifest: { version: 1, fields: [text("headline", "Discover Beyond"), text("word", "Share.")] },
    data: (i) => ({ headline: `Discover ${i}`, word: `Go ${i}` }),
  },
  { name: "lights (no fields)", file: lottieFixtures.lights, manifest: null, data: () => ({}) },
  { name: "ripple (no fields)", file: lottieFixtures.ripple, manifest: null, data: () => ({}) },
  { name: "starfish (no fields)", file: lottieFixtures.starfish, manifest: null, data: () => ({}) },
  {
    name: "weather-card (texts)",
    file: lottieFixtures.weatherCard,
    assets: weatherCardImages(),
    manifest: { version: 1, fields: [text("city", "City"), text("status", "Status"), text("temperature", "Tempreture")] },
    data: (i) => ({ city: `City ${i}`, status: i % 2 ? "Sunny" : "Cloudy", temperature: `${i % 40} °C` }),
  },
  {
    name: "weather-card (texts + new image)",
    file: lottieFixtures.weatherCard,
    assets: weatherCardImages(),
    manifest: {
      version: 1,
      fields: [text("city", "City"), text("status", "Status"), { key: "profile", type: "image", target: { asset: "image_0" } }],
    },
    data: (i) => ({ city: `City ${i}`, status: "Sunny", profile: solidPngDataUrl([i % 256, 80, 160, 255], 278, 278) }),
  },
];

const round = (ms: number) => (ms < 10 ? ms.toFixed(1) : ms.toFixed(0));
const percentile = (samples: number[], p: number) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

async function time<T>(run: () => Promise<T> | T): Promise<[number, T]> {
  const start = performance.now();
  const result = await run();
  return [performance.now() - start, result];
}

async function samples(count: number, run: (i: number) => Promise<unknown> | unknown): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < warmUpRuns + count; i++) {
    const [ms] = await time(() => run(i));
    if (i >= warmUpRuns) out.push(ms);
  }
  return out;
}

const fontBytes = readFileSync(createRequire(import.meta.url).resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf"));

/** The straightforward pipeline: a fresh animation, CanvasKit's MakeSurface, encodeToBytes. */
function naiveRender(ck: CanvasKit, lottie: Lottie, files: Map<string, Uint8Array> | undefined): Uint8Array {
  const { width, height } = previewSize(lottie);
  const assets: Record<string, ArrayBuffer> = {};
  for (const image of listImageAssets(lottie)) {
    const bytes = files?.get(image.fileName);
    if (bytes) assets[image.fileName] = bytes.slice().buffer;
  }
  for (const name of listFontNames(lottie)) assets[name] = fontBytes.slice().buffer;
  const animation = ck.MakeManagedAnimation(JSON.stringify({ ...lottie, chars: undefined }), assets);
  const surface = ck.MakeSurface(width, height)!;
  try {
    animation.seekFrame(Math.floor((lottie.ip + lottie.op) / 2) - lottie.ip);
    animation.render(surface.getCanvas(), ck.LTRBRect(0, 0, width, height));
    const image = surface.makeImageSnapshot();
    const png = image.encodeToBytes()!;
    image.delete();
    return png;
  } finally {
    surface.delete();
    animation.delete();
  }
}

function canvasKitPng(ck: CanvasKit, rgba: Uint8Array, width: number, height: number): Uint8Array {
  const info = { width, height, colorType: ck.ColorType.RGBA_8888, alphaType: ck.AlphaType.Unpremul, colorSpace: ck.ColorSpace.SRGB };
  const image = ck.MakeImage(info, rgba, width * 4)!;
  try {
    return image.encodeToBytes()!;
  } finally {
    image.delete();
  }
}

const [startMs, ck] = await time(() => loadCanvasKit());
const rows: string[] = [];
let firstCold = 0;

for (const benchCase of cases) {
  await clearPreviewRendererCaches();
  const source = readFixture(benchCase.file).toString("utf8");
  const [coldMs, cold] = await time(async () => {
    const lottie = parseLottieJson(source);
    const bound = applyBindings({ lottie, manifest: benchCase.manifest, data: benchCase.data(0) });
    return renderPreviewPng({ lottie: bound.lottie, assets: benchCase.assets });
  });
  if (!firstCold) firstCold = coldMs;
  const lottie = parseLottieJson(source);
  const bind = (i: number) => applyBindings({ lottie, manifest: benchCase.manifest, data: benchCase.data(i + 1) }).lottie;

  const warm = await samples(warmRuns, (i) => renderPreviewPng({ lottie: bind(i), assets: benchCase.assets }));
  const pixelsOnly = await samples(warmRuns, (i) => renderPreviewPixels({ lottie: bind(i), assets: benchCase.assets }));
  const { rgba, width, height } = await renderPreviewPixels({ lottie: bind(0), assets: benchCase.assets });
  const ourEncode = await samples(warmRuns, () => encodePng(rgba, width, height));
  const ckEncode = await samples(Math.min(warmRuns, 20), () => canvasKitPng(ck, rgba, width, height));
  const naive = await samples(Math.min(warmRuns, 20), (i) => naiveRender(ck, bind(i), benchCase.assets));

  const p50 = percentile(warm, 50);
  rows.push(
    `| ${benchCase.name} | ${width}×${height} | ${round(coldMs)} | **${round(p50)}** | ${round(percentile(warm, 95))} | ` +
      `${round(percentile(pixelsOnly, 50))} | ${round(percentile(ourEncode, 50))} / ${round(percentile(ckEncode, 50))} | ` +
      `${Math.round(encodePng(rgba, width, height).length / 1024)} / ${Math.round(canvasKitPng(ck, rgba, width, height).length / 1024)} | ` +
      `${round(percentile(naive, 50))} | ${(percentile(naive, 50) / p50).toFixed(1)}× | ${p50 <= 50 ? "yes" : "no"} |`,
  );
  if (cold.warnings.length) console.error(`${benchCase.name}: ${cold.warnings.join("; ")}`);
}

const stats = await previewRendererStats();
console.log(`## Preview render (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus()[0]?.model ?? "unknown CPU"} × ${os.cpus().length})

CanvasKit start (WASM compile + init, once per process): ${round(startMs)} ms; first render after it: ${round(firstCold)} ms.
Warm: the same template, new data each render (bindings applied each time), ${warmRuns} renders after ${warmUpRuns} warm-up renders; times in ms.

| fixture | output | cold | warm p50 | warm p95 | pixels only p50 (no PNG) | PNG encode p50: ours / CanvasKit | PNG KB: ours / CanvasKit | naive pipeline p50 | naive ÷ warm | warm ≤ 50 ms |
|---|---|---|---|---|---|---|---|---|---|---|
${rows.join("\n")}

Naive pipeline: a fresh Skottie animation per render, CanvasKit's MakeSurface (unpremultiplied) at the output size, encodeToBytes.
WASM heap at the end: ${Math.round(stats.wasmHeapBytes / 1048576)} MB; CanvasKit starts: ${stats.canvasKitStarts}.`);
