// Pixel helpers for the preview renderer, on 8-bit RGBA rows packed without padding.
// They run in JavaScript because CanvasKit's WASM raster pipeline is slower at these per-pixel
// jobs (a scaled image draw costs it ~70 ns a pixel; shrinking 720×1280 to 405×720 here: ~8 ms).

/** Weights are in 1/128ths: a channel's weighted sum (≤ 255 × 128) then fits 16 bits. */
const one = 128;
const half = 0x00400040; // one/2 in each 16-bit lane, for rounding

/**
 * Shrinks premultiplied RGBA by area averaging (each output pixel is the mean of the source
 * area it covers): rows first, then columns. Two channels are summed at once in the 16-bit
 * halves of one integer (R and B, then G and A, on little-endian pixels).
 */
export function downscaleRgba(src: Uint8Array, srcWidth: number, srcHeight: number, width: number, height: number): Uint8Array {
  if (width > srcWidth || height > srcHeight) throw new RangeError("downscaleRgba only shrinks");
  const source = src.byteOffset % 4 === 0 ? new Int32Array(src.buffer, src.byteOffset, srcWidth * srcHeight) : new Int32Array(src.slice().buffer);
  const rows = areaWeights(srcHeight, height);
  const columns = areaWeights(srcWidth, width);

  const tall = new Int32Array(srcWidth * height); // rows done, full width
  const redBlue = new Int32Array(srcWidth);
  const greenAlpha = new Int32Array(srcWidth);
  for (let y = 0; y < height; y++) {
    redBlue.fill(0);
    greenAlpha.fill(0);
    let row = rows.first[y]! * srcWidth;
    for (let t = rows.offsets[y]!, end = rows.offsets[y + 1]!; t < end; t++, row += srcWidth) {
      const weight = rows.weights[t]!;
      for (let x = 0; x < srcWidth; x++) {
        const pixel = source[row + x]!;
        redBlue[x]! += (pixel & 0xff00ff) * weight;
        greenAlpha[x]! += ((pixel >>> 8) & 0xff00ff) * weight;
      }
    }
    const out = y * srcWidth;
    for (let x = 0; x < srcWidth; x++) tall[out + x] = pack(redBlue[x]!, greenAlpha[x]!);
  }

  const result = new Int32Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * srcWidth;
    const out = y * width;
    for (let x = 0; x < width; x++) {
      let rb = 0;
      let ga = 0;
      let i = row + columns.first[x]!;
      for (let t = columns.offsets[x]!, end = columns.offsets[x + 1]!; t < end; t++, i++) {
        const weight = columns.weights[t]!;
        const pixel = tall[i]!;
        rb += (pixel & 0xff00ff) * weight;
        ga += ((pixel >>> 8) & 0xff00ff) * weight;
      }
      result[out + x] = pack(rb, ga);
    }
  }
  return new Uint8Array(result.buffer);
}

const pack = (redBlue: number, greenAlpha: number) => (((redBlue + half) >>> 7) & 0xff00ff) | ((((greenAlpha + half) >>> 7) & 0xff00ff) << 8);

/** For each output index: the first source index and the weights (summing to 128) of the sources it covers. */
function areaWeights(srcLength: number, length: number) {
  const ratio = srcLength / length;
  const first = new Int32Array(length);
  const offsets = new Int32Array(length + 1);
  const weights: number[] = [];
  for (let i = 0; i < length; i++) {
    const start = i * ratio;
    const end = Math.min(srcLength, (i + 1) * ratio);
    first[i] = Math.floor(start);
    const taps: number[] = [];
    for (let s = Math.floor(start); s < end; s++) taps.push(Math.round(((Math.min(end, s + 1) - Math.max(start, s)) / ratio) * one));
    // Make the sum exact (flat areas stay exact) on the largest tap, which cannot go negative.
    const largest = taps.indexOf(Math.max(...taps));
    taps[largest]! += one - taps.reduce((sum, w) => sum + w, 0);
    weights.push(...taps);
    offsets[i + 1] = weights.length;
  }
  return { first, offsets, weights: Int32Array.from(weights) };
}

/** Premultiplied → straight alpha in place, as PNG wants. Opaque and clear pixels are left alone. */
export function unpremultiply(rgba: Uint8Array): Uint8Array {
  for (let i = 3; i < rgba.length; i += 4) {
    const alpha = rgba[i]!;
    if (alpha === 255 || alpha === 0) continue;
    const scale = 255 / alpha;
    rgba[i - 3] = Math.min(255, Math.round(rgba[i - 3]! * scale));
    rgba[i - 2] = Math.min(255, Math.round(rgba[i - 2]! * scale));
    rgba[i - 1] = Math.min(255, Math.round(rgba[i - 1]! * scale));
  }
  return rgba;
}
