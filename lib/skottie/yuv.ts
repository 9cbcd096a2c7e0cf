// RGBA → I420 (YUV 4:2:0 planar, BT.709, limited range) for the H.264 encoder. Done here rather
// than by ffmpeg: swscale's unscaled RGBA → yuv420p path costs ~4 ms a 720p frame there, this
// ~2 ms here, and the pipe then carries 1.5 bytes a pixel instead of 4 (docs/benchmarks.md).
// Coefficients are BT.709's scaled to 219/224 levels, in 1/256ths; each chroma sample is
// taken from the mean of its 2×2 pixels. Alpha is ignored: frames are opaque.

/** Bytes of an I420 frame of even width × height. */
export const i420Bytes = (width: number, height: number) => (width * height * 3) / 2;

/** Converts opaque RGBA (even width and height) into `out` (i420Bytes long); returns `out`. */
export function rgbaToI420(rgba: Uint8Array, width: number, height: number, out: Uint8Array): Uint8Array {
  if (width % 2 || height % 2) throw new RangeError("rgbaToI420: width and height must be even");
  if (rgba.byteLength < width * height * 4 || out.byteLength < i420Bytes(width, height)) throw new RangeError("rgbaToI420: buffer too small");
  const pixels = rgba.byteOffset % 4 === 0 ? new Uint32Array(rgba.buffer, rgba.byteOffset, width * height) : new Uint32Array(rgba.slice().buffer);
  const ySize = width * height;
  const uOffset = ySize;
  const vOffset = ySize + ySize / 4;
  const halfWidth = width / 2;
  for (let y = 0; y < height; y += 2) {
    const row0 = y * width;
    const row1 = row0 + width;
    let chroma = (y / 2) * halfWidth;
    for (let x = 0; x < width; x += 2, chroma++) {
      const a = pixels[row0 + x]!;
      const b = pixels[row0 + x + 1]!;
      const c = pixels[row1 + x]!;
      const d = pixels[row1 + x + 1]!;
      // Little-endian RGBA: R is the low byte.
      const ar = a & 255, ag = (a >>> 8) & 255, ab = (a >>> 16) & 255;
      const br = b & 255, bg = (b >>> 8) & 255, bb = (b >>> 16) & 255;
      const cr = c & 255, cg = (c >>> 8) & 255, cb = (c >>> 16) & 255;
      const dr = d & 255, dg = (d >>> 8) & 255, db = (d >>> 16) & 255;
      out[row0 + x] = ((47 * ar + 157 * ag + 16 * ab + 128) >> 8) + 16;
      out[row0 + x + 1] = ((47 * br + 157 * bg + 16 * bb + 128) >> 8) + 16;
      out[row1 + x] = ((47 * cr + 157 * cg + 16 * cb + 128) >> 8) + 16;
      out[row1 + x + 1] = ((47 * dr + 157 * dg + 16 * db + 128) >> 8) + 16;
      const r = ar + br + cr + dr;
      const g = ag + bg + cg + dg;
      const bl = ab + bb + cb + db;
      out[uOffset + chroma] = ((-26 * r - 86 * g + 112 * bl + 512) >> 10) + 128;
      out[vOffset + chroma] = ((112 * r - 102 * g - 10 * bl + 512) >> 10) + 128;
    }
  }
  return out;
}
