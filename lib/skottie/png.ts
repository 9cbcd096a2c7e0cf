import { crc32, deflateSync } from "node:zlib";

// A minimal PNG writer for unpremultiplied RGBA pixels. CanvasKit's own encoder (encodeToBytes)
// takes 20–30 ms for a 720p frame in WASM; node:zlib's native deflate at level 1 with no row
// filter takes 2–5 ms (bench/preview.ts measures both).

const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "latin1");
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** Encodes width × height RGBA pixels (8 bits per channel, unpremultiplied, rows packed). */
export function encodePng(rgba: Uint8Array, width: number, height: number, { level = 1 }: { level?: number } = {}): Buffer {
  const stride = width * 4;
  if (rgba.length < stride * height) throw new RangeError(`encodePng: ${rgba.length} bytes cannot hold ${width}×${height} RGBA pixels`);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type: RGBA
  const scanlines = Buffer.allocUnsafe((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    scanlines[y * (stride + 1)] = 0; // filter type: none
    scanlines.set(rgba.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }
  return Buffer.concat([
    signature,
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(scanlines, { level })),
    chunk("IEND", new Uint8Array(0)),
  ]);
}
