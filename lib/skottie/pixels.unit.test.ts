import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { downscaleRgba, unpremultiply } from "./pixels";
import { encodePng } from "./png";

const solid = (width: number, height: number, rgba: number[]) => {
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0; i < pixels.length; i += 4) pixels.set(rgba, i);
  return pixels;
};

describe("downscaleRgba", () => {
  it("keeps a flat colour exact at any ratio (720×1280 → 405×720)", () => {
    const out = downscaleRgba(solid(720, 1280, [10, 20, 30, 255]), 720, 1280, 405, 720);
    expect(Buffer.from(out).equals(solid(405, 720, [10, 20, 30, 255]))).toBe(true);
  });

  it("averages the area each pixel covers (2×2 → 1×1)", () => {
    const src = Uint8Array.from([0, 0, 0, 255, 200, 100, 40, 255, 0, 0, 0, 255, 200, 100, 40, 255]);
    expect([...downscaleRgba(src, 2, 2, 1, 1)]).toEqual([100, 50, 20, 255]);
  });

  it("matches an exact area average within one level (random 37×23 → 10×7)", () => {
    const [sw, sh, w, h] = [37, 23, 10, 7];
    const src = Uint8Array.from({ length: sw * sh * 4 }, (_, i) => (i * 7919) % 256);
    const out = downscaleRgba(src, sw, sh, w, h);
    const cover = (i: number, s: number, ratio: number) => Math.max(0, Math.min((i + 1) * ratio, s + 1) - Math.max(i * ratio, s));
    let worst = 0;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        for (let c = 0; c < 4; c++) {
          let sum = 0;
          for (let sy = 0; sy < sh; sy++) {
            for (let sx = 0; sx < sw; sx++) sum += src[(sy * sw + sx) * 4 + c]! * cover(x, sx, sw / w) * cover(y, sy, sh / h);
          }
          worst = Math.max(worst, Math.abs(out[(y * w + x) * 4 + c]! - sum / ((sw / w) * (sh / h))));
        }
      }
    }
    expect(worst).toBeLessThanOrEqual(1.5);
  });

  it("refuses to enlarge", () => {
    expect(() => downscaleRgba(solid(2, 2, [0, 0, 0, 0]), 2, 2, 3, 2)).toThrow(RangeError);
  });
});

describe("unpremultiply", () => {
  it("divides colour by alpha; opaque and clear pixels are unchanged", () => {
    expect([...unpremultiply(Uint8Array.from([64, 32, 0, 128, 10, 20, 30, 255, 0, 0, 0, 0]))]).toEqual([128, 64, 0, 128, 10, 20, 30, 255, 0, 0, 0, 0]);
  });
});

describe("encodePng", () => {
  it("writes signature, IHDR (RGBA, 8 bits), one IDAT of unfiltered rows, IEND", () => {
    const pixels = Uint8Array.from([255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 9, 9, 9, 9]);
    const png = encodePng(pixels, 2, 2);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.toString("latin1", 12, 16)).toBe("IHDR");
    expect([png.readUInt32BE(16), png.readUInt32BE(20), png[24], png[25]]).toEqual([2, 2, 8, 6]);
    const idatLength = png.readUInt32BE(33);
    expect(png.toString("latin1", 37, 41)).toBe("IDAT");
    const rows = inflateSync(png.subarray(41, 41 + idatLength));
    expect([...rows]).toEqual([0, ...pixels.subarray(0, 8), 0, ...pixels.subarray(8)]);
    expect(png.toString("latin1", png.length - 8, png.length - 4)).toBe("IEND");
  });
});
