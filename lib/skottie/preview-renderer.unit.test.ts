import { readdirSync, readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { applyBindings } from "@/shared/templates/bindings";
import type { Lottie, LottieLayer } from "@/shared/templates/lottie";
import type { BindingManifest } from "@/shared/templates/manifest";
import {
  imageAsset,
  imageLayer,
  loadLottieFixture,
  makeLottie,
  readFixture,
  solidLayer,
  solidPngDataUrl,
  textLayer,
  weatherCardImages,
  weatherManifest,
} from "@/testing/fixtures/lottie-builders";
import {
  clearPreviewRendererCaches,
  loadCanvasKit,
  previewRendererStats,
  previewSize,
  renderPreviewPixels,
  configurePreviewRenderer,
  defaultRecycleHeapBytes,
  renderPreviewPng,
  openFrameRenderer,
} from "./preview-renderer";

/** Width and height from the IHDR chunk, which must come first. */
function pngHeader(png: Buffer) {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.toString("latin1", 12, 16)).toBe("IHDR");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Decodes with CanvasKit's PNG decoder: an independent check that the file is a valid PNG. */
async function decodePng(png: Buffer): Promise<{ width: number; height: number; rgba: Uint8Array }> {
  const ck = await loadCanvasKit();
  const image = ck.MakeImageFromEncoded(png);
  if (!image) throw new Error("CanvasKit could not decode the PNG");
  try {
    const width = image.width();
    const height = image.height();
    const rgba = image.readPixels(0, 0, { width, height, colorType: ck.ColorType.RGBA_8888, alphaType: ck.AlphaType.Unpremul, colorSpace: ck.ColorSpace.SRGB });
    return { width, height, rgba: rgba as Uint8Array };
  } finally {
    image.delete();
  }
}

function countDifferentPixels(a: Uint8Array, b: Uint8Array): number {
  expect(a.length).toBe(b.length);
  let different = 0;
  for (let i = 0; i < a.length; i += 4) {
    if (Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!) + Math.abs(a[i + 3]! - b[i + 3]!) > 16) different++;
  }
  return different;
}

const pixelAt = (image: { width: number; rgba: Uint8Array }, x: number, y: number) => [...image.rgba.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4)];
const visiblePixels = (rgba: Uint8Array) => rgba.filter((_, i) => i % 4 === 3 && rgba[i]! > 0).length;


beforeEach(async () => {
  await clearPreviewRendererCaches();
});

describe("renderPreviewPng – fixtures", () => {
  it.each([
    ["banner", 1280, 330, 301],
    ["lights", 960, 720, 150],
    ["ripple", 960, 720, 180],
    ["starfish", 960, 720, 150],
    ["weatherCard", 405, 720, 180],
  ] as const)("%s → %i×%i at frame %i, fitted into 1280×720", async (name, width, height, frame) => {
    const rendered = await renderPreviewPng({ lottie: loadLottieFixture(name), assets: name === "weatherCard" ? weatherCardImages() : undefined });
    expect(rendered).toMatchObject({ width, height, frame, warnings: [] });
    expect(pngHeader(rendered.png)).toEqual({ width, height });
    const decoded = await decodePng(rendered.png);
    expect(decoded).toMatchObject({ width, height });
    expect(visiblePixels(decoded.rgba)).toBeGreaterThan(width * height * 0.002);
  });

  it("width alone keeps the aspect; both are taken as given", async () => {
    const lottie = loadLottieFixture("lights");
    expect(pngHeader((await renderPreviewPng({ lottie, width: 400 })).png)).toEqual({ width: 400, height: 300 });
    expect(pngHeader((await renderPreviewPng({ lottie, height: 90 })).png)).toEqual({ width: 120, height: 90 });
    expect(pngHeader((await renderPreviewPng({ lottie, width: 200, height: 200 })).png)).toEqual({ width: 200, height: 200 });
  });

  it.each([
    [{ frame: -1 }, "frame -1 is outside the animation's frames [0, 300]"],
    [{ frame: 301 }, "frame 301 is outside the animation's frames [0, 300]"],
    [{ frame: Number.NaN }, "frame NaN is outside"],
    [{ width: 0 }, "width must be a whole number of pixels from 1 to 8192, not 0"],
    [{ width: 10.5 }, "width must be a whole number of pixels"],
    [{ width: 100, height: 9000 }, "height must be a whole number of pixels from 1 to 8192, not 9000"],
  ])("%j → RangeError", async (options, message) => {
    await expect(renderPreviewPng({ lottie: loadLottieFixture("lights"), ...options })).rejects.toThrow(message);
  });

  it("previewSize: 720p fit, rounding, never 0", () => {
    expect(previewSize({ w: 1920, h: 1080 })).toEqual({ width: 1280, height: 720 });
    expect(previewSize({ w: 720, h: 1280 })).toEqual({ width: 405, height: 720 });
    expect(previewSize({ w: 8192, h: 1 })).toEqual({ width: 1280, height: 1 });
  });
});

describe("renderPreviewPng – bindings", () => {
  it("weather card with City/Status/Tempreture and a solid profile image differs from the unbound render", async () => {
    const lottie = loadLottieFixture("weatherCard");
    const assets = weatherCardImages();
    const profile = solidPngDataUrl([0, 200, 0, 255], 278, 278);
    const bound = applyBindings({ lottie, manifest: weatherManifest, data: { city: "Porto", status: "Sunny", temperature: "21 °C", profile } });
    expect(bound.warnings).toEqual([]);

    const plain = await decodePng((await renderPreviewPng({ lottie, assets, frame: 180 })).png);
    const personal = await decodePng((await renderPreviewPng({ lottie: bound.lottie, assets, frame: 180 })).png);
    expect(countDifferentPixels(plain.rgba, personal.rgba)).toBeGreaterThan(plain.width * plain.height * 0.05);
    // The profile image (278×278 at the centre of the 720×1280 card) is now solid green.
    expect(pixelAt(personal, 202, 300)).toEqual([0, 200, 0, 255]);
    expect(pixelAt(plain, 202, 300)).not.toEqual([0, 200, 0, 255]);
  });

  it("text layers render with DejaVu Sans whatever font the animation names", async () => {
    const blank = makeLottie({ layers: [textLayer("Title", "", { font: "NoSuchFont-Bold" })] });
    const written = makeLottie({ layers: [textLayer("Title", "Hello Ünïcode", { font: "NoSuchFont-Bold" })] });
    const none = await renderPreviewPixels({ lottie: blank });
    const some = await renderPreviewPixels({ lottie: written });
    expect(visiblePixels(none.rgba)).toBe(0);
    expect(visiblePixels(some.rgba)).toBeGreaterThan(500);
  });

  describe("font weight and style from fonts.list", () => {
    /** A line of text in the font `font` of fonts.list describes. */
    const styled = (font: { fStyle?: string; fWeight?: string }, fName = "Brand") => {
      const lottie = makeLottie({ w: 640, h: 160, layers: [textLayer("Title", "Bold headline Wg", { font: fName, size: 56, y: 100 })] });
      return { ...lottie, fonts: { list: [{ fName, fFamily: "Brand Sans", ascent: 75, ...font }] } };
    };
    /** Ink: how much the text covers, alpha summed (the background is transparent). */
    const ink = (rgba: Uint8Array) => rgba.reduce((sum, value, i) => (i % 4 === 3 ? sum + value / 255 : sum), 0);

    it("Bold (fStyle) draws measurably more ink than Regular, in previews and in the video path", async () => {
      const regular = await renderPreviewPixels({ lottie: styled({ fStyle: "Regular" }), frame: 0 });
      const bold = await renderPreviewPixels({ lottie: styled({ fStyle: "Bold" }), frame: 0 });
      expect(ink(regular.rgba)).toBeGreaterThan(1000);
      expect(ink(bold.rgba) / ink(regular.rgba)).toBeGreaterThan(1.25);

      const drawn = async (lottie: Lottie) => {
        const renderer = await openFrameRenderer({ lottie, width: 640, height: 160 });
        try {
          return ink(renderer.drawFrame(0, { color: [0, 0, 0, 0] }).slice());
        } finally {
          renderer.close();
        }
      };
      expect((await drawn(styled({ fStyle: "Bold" }))) / (await drawn(styled({ fStyle: "Regular" })))).toBeGreaterThan(1.25);
    });

    it("Semibold, a bold fName with no fStyle, fWeight 700 and Bold Italic are drawn bold; Italic is slanted, not bold", async () => {
      const inkOf = async (lottie: Lottie) => ink((await renderPreviewPixels({ lottie, frame: 0 })).rgba);
      const regular = await inkOf(styled({ fStyle: "Regular" }));
      for (const [label, lottie] of [
        ["Semibold", styled({ fStyle: "Semibold" })],
        ["Brand-Bold, no fStyle", styled({ fStyle: "" }, "Brand-Bold")],
        ["fWeight 700", styled({ fStyle: "", fWeight: "700" })],
        ["Bold Italic", styled({ fStyle: "Bold Italic" })],
      ] as const) {
        expect(await inkOf(lottie), label).toBeGreaterThan(regular * 1.25);
      }
      const italic = await renderPreviewPixels({ lottie: styled({ fStyle: "Italic" }), frame: 0 });
      const upright = await renderPreviewPixels({ lottie: styled({ fStyle: "Regular" }), frame: 0 });
      expect(ink(italic.rgba) / regular).toBeLessThan(1.15);
      expect(countDifferentPixels(italic.rgba, upright.rgba)).toBeGreaterThan(500);
    });

    it("the demo template's bold headline comes out bold: its Sans-Bold texts draw more ink than the same texts in regular", async () => {
      const demo = "lib/bootstrap/demo-template/landscape";
      const lottie = JSON.parse(readFileSync(`${demo}/data.json`, "utf8")) as Lottie;
      const assets = new Map(readdirSync(`${demo}/images`).map((name) => [`${name}`, new Uint8Array(readFileSync(`${demo}/images/${name}`))]));
      const withFonts = (change: (font: Record<string, unknown>) => Record<string, unknown>) => ({ ...lottie, fonts: { list: lottie.fonts!.list!.map((font) => change(font)) } });
      const asRegular = withFonts((font) => (font.fName === "Sans-Bold" ? { ...font, fStyle: "Regular" } : font));
      // The same frame with the bold texts emptied: what is not their ink.
      const blankBold = (layers: LottieLayer[]): LottieLayer[] =>
        layers.map((layer) => (layer.ty === 5 && layer.t?.d?.k?.[0]?.s?.f === "Sans-Bold" ? { ...layer, t: { ...layer.t, d: { k: [{ ...layer.t.d.k[0], s: { ...layer.t.d.k[0].s, t: "" } }] } } } : layer));
      const withoutBold = { ...lottie, layers: blankBold(lottie.layers), assets: lottie.assets?.map((asset) => (asset.layers ? { ...asset, layers: blankBold(asset.layers) } : asset)) };
      const frame = 60; // "Hi there" and the intro line are on screen
      const [bold, regular, none] = await Promise.all([lottie, asRegular, withoutBold].map((variant) => renderPreviewPixels({ lottie: variant as Lottie, assets, frame })));
      expect(bold!.warnings).toEqual([]);
      const boldInk = countDifferentPixels(bold!.rgba, none!.rgba);
      const regularInk = countDifferentPixels(regular!.rgba, none!.rgba);
      expect(regularInk).toBeGreaterThan(2000);
      expect(boldInk / regularInk).toBeGreaterThan(1.15);
    });
  });

  it("a text layer naming a font missing from fonts.list still renders", async () => {
    const lottie = makeLottie({ layers: [textLayer("Title", "Hello", { font: "Listed" })] });
    lottie.layers.push(textLayer("Other", "World", { font: "Unlisted", y: 120 }));
    expect(visiblePixels((await renderPreviewPixels({ lottie })).rgba)).toBeGreaterThan(500);
  });

  it("an image the assets map lacks is a warning", async () => {
    const lottie = loadLottieFixture("weatherCard");
    const rendered = await renderPreviewPng({ lottie, assets: new Map([["img_1.jpg", readFixture("lottie/weather-card/images/img_1.jpg")]]) });
    expect(rendered.warnings).toEqual(['image "img_0.jpg" (asset image_0) was not provided; it is left out']);
  });

  it("frames are absolute: ip 10, a layer shown in frames 10–20", async () => {
    const lottie = makeLottie({ ip: 10, op: 30, layers: [solidLayer("early", "#ff0000", 320, 180, { ip: 10, op: 20 })] });
    expect(pixelAt(await renderPreviewPixels({ lottie, frame: 15 }), 10, 10)).toEqual([255, 0, 0, 255]);
    expect(pixelAt(await renderPreviewPixels({ lottie, frame: 25 }), 10, 10)).toEqual([0, 0, 0, 0]);
    expect((await renderPreviewPng({ lottie })).frame).toBe(20);
  });
});

describe("renderPreviewPng – background (Raster templates)", () => {
  it("the poster covers the frame under an empty overlay", async () => {
    const overlay = makeLottie({ w: 640, h: 360 });
    const rendered = await renderPreviewPng({ lottie: overlay, background: readFixture("video/poster-640x360.png") });
    expect(rendered).toMatchObject({ width: 1280, height: 720, warnings: [] });
    const decoded = await decodePng(rendered.png);
    expect(visiblePixels(decoded.rgba)).toBe(1280 * 720);
  });

  it("a background that is not an image is a warning", async () => {
    const rendered = await renderPreviewPng({ lottie: makeLottie(), background: new Uint8Array([1, 2, 3]) });
    expect(rendered.warnings).toEqual(["the background is not a PNG or JPEG image CanvasKit can decode; it was left out"]);
  });
});

describe("renderPreviewPng – determinism and caching", () => {
  it("the same input twice gives identical bytes", async () => {
    const input = { lottie: loadLottieFixture("banner"), frame: 120 };
    const first = await renderPreviewPng(input);
    const second = await renderPreviewPng(input);
    expect(second.png.equals(first.png)).toBe(true);
  });

  it.each([
    ["weatherCard", 180, weatherManifest, { city: "Porto", status: "Sunny" }, { city: "Zürich Hauptbahnhof", status: "Cloudy with some rain" }],
    [
      "weatherCard (and a profile image)",
      180,
      weatherManifest,
      { city: "Porto", profile: solidPngDataUrl([0, 200, 0, 255], 278, 278) },
      { city: "Lisbon", profile: solidPngDataUrl([200, 0, 200, 255], 278, 278) },
    ],
    [
      "banner",
      301,
      {
        version: 1,
        fields: [
          { key: "a", type: "text", target: { layer: "Share." } },
          { key: "b", type: "text", target: { layer: "Discover Beyond" } },
        ],
      } satisfies BindingManifest,
      { a: "Learn.", b: "Discover more" },
      { a: "Build things.", b: "Look further" },
    ],
  ] as const)("%s: a render reusing the animation with other data equals a fresh one", async (name, frame, manifest, dataA, dataB) => {
    const lottie = loadLottieFixture(name.startsWith("weatherCard") ? "weatherCard" : "banner");
    const assets = name.startsWith("weatherCard") ? weatherCardImages() : undefined;
    const render = (data: Record<string, string>) => renderPreviewPng({ lottie: applyBindings({ lottie, manifest, data }).lottie, assets, frame });
    const freshA = await render(dataA);
    await clearPreviewRendererCaches();
    const freshB = await render(dataB);
    const reusedA = await render(dataA);
    expect((await previewRendererStats()).animations).toBe(1);
    expect(reusedA.png.equals(freshA.png)).toBe(true);
    expect(reusedA.png.equals(freshB.png)).toBe(false);
    expect((await render(dataB)).png.equals(freshB.png)).toBe(true);
  });

  it("concurrent callers share one CanvasKit", async () => {
    const [a, b] = await Promise.all([loadCanvasKit(), loadCanvasKit()]);
    expect(a).toBe(b);
  });

  it("500 renders with new texts and images reuse one animation: the WASM heap stays flat", { timeout: 120_000 }, async () => {
    const lottie = makeLottie({
      layers: [textLayer("Name", "x"), imageLayer("avatar", "image_0", { x: 200, y: 40 })],
      assets: [imageAsset("image_0", "avatar.png", 64, 64)],
    });
    const manifest: BindingManifest = {
      version: 1,
      fields: [
        { key: "name", type: "text", target: { layer: "Name" } },
        { key: "avatar", type: "image", target: { asset: "image_0" } },
      ],
    };
    const renderOne = (i: number) => {
      const data = { name: `Render ${i}`, avatar: solidPngDataUrl([i % 256, 0, 0, 255], 64, 64) };
      return renderPreviewPng({ lottie: applyBindings({ lottie, manifest, data }).lottie, width: 160 });
    };
    for (let i = 0; i < 50; i++) await renderOne(i);
    const before = await previewRendererStats();
    for (let i = 50; i < 550; i++) await renderOne(i);
    const after = await previewRendererStats();
    expect(after.wasmHeapBytes).toBe(before.wasmHeapBytes);
    expect(after.canvasKitStarts).toBe(before.canvasKitStarts);
    expect(after.animations).toBe(1);
  });

  it("500 renders each needing a new animation: the heap stays bounded", { timeout: 180_000 }, async () => {
    // A new layer colour each time is a new animation; each leaves its typeface in CanvasKit's
    // font caches until they evict it.
    const poster = readFixture("video/poster-640x360.png");
    const renderOne = (i: number) => {
      const lottie: Lottie = makeLottie({
        layers: [textLayer("Name", `Render ${i}`), solidLayer("panel", `#${(0x102030 + i).toString(16)}`, 100, 100)],
      });
      return renderPreviewPng({ lottie, width: 160, background: i % 2 === 0 ? poster : undefined });
    };
    const rssBefore = process.memoryUsage().rss;
    let largestHeap = 0;
    for (let i = 0; i < 500; i++) {
      await renderOne(i);
      if (i % 10 === 0) largestHeap = Math.max(largestHeap, (await previewRendererStats()).wasmHeapBytes);
    }
    expect(largestHeap).toBeLessThanOrEqual(defaultRecycleHeapBytes + 64 * 1024 * 1024);
    expect((await previewRendererStats()).animations).toBeLessThanOrEqual(4);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(1024 * 1024 * 1024);
  });

  it("past the recycling limit the next render starts a fresh CanvasKit, and renders the same", { timeout: 180_000 }, async () => {
    // A new background colour each time is a new animation; its text is shaped but not drawn
    // (the layer starts after the rendered frame), which keeps typefaces in CanvasKit's caches.
    const color = (i: number) => `#${(0x336600 + i).toString(16)}`;
    const lottie = (i: number) => makeLottie({ layers: [textLayer("Later", "Text", { ip: 30, op: 60 }), solidLayer("bg", color(i), 320, 180)] });
    const reference = await renderPreviewPng({ lottie: lottie(0), frame: 0 });
    const before = await previewRendererStats();
    configurePreviewRenderer({ recycleHeapBytes: before.wasmHeapBytes + 32 * 1024 * 1024 });
    try {
      let starts = before.canvasKitStarts;
      for (let i = 1; i < 1000 && starts === before.canvasKitStarts; i++) {
        await renderPreviewPng({ lottie: lottie(i), frame: 0 });
        starts = (await previewRendererStats()).canvasKitStarts;
      }
      expect(starts).toBe(before.canvasKitStarts + 1);
      expect((await previewRendererStats()).wasmHeapBytes).toBeLessThan(before.wasmHeapBytes + 32 * 1024 * 1024);
      expect((await renderPreviewPng({ lottie: lottie(0), frame: 0 })).png.equals(reference.png)).toBe(true);
    } finally {
      configurePreviewRenderer({});
    }
  });
});
