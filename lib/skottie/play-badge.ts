// The play button drawn on campaign thumbnails (a GIF in an email looks like a video to click):
// a dark translucent disc with a white triangle, centred, its diameter a quarter of the shorter
// side. Computed once per size as a coverage mask, then blended into each opaque RGBA frame.

type Badge = { x0: number; y0: number; size: number; disc: Float32Array; triangle: Float32Array };

const badges = new Map<string, Badge>();

/** Coverage in [0, 1] with 4×4 supersampling: smooth edges without a drawing library. */
function coverage(size: number, inside: (x: number, y: number) => boolean): Float32Array {
  const mask = new Float32Array(size * size);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let hits = 0;
      for (let sy = 0; sy < 4; sy++) for (let sx = 0; sx < 4; sx++) if (inside(x + (sx + 0.5) / 4, y + (sy + 0.5) / 4)) hits++;
      mask[y * size + x] = hits / 16;
    }
  }
  return mask;
}

function badgeFor(width: number, height: number): Badge {
  const key = `${width}x${height}`;
  const cached = badges.get(key);
  if (cached) return cached;
  const size = Math.max(16, Math.round(Math.min(width, height) / 4));
  const r = size / 2;
  const disc = coverage(size, (x, y) => (x - r) ** 2 + (y - r) ** 2 <= r * r);
  // A triangle pointing right, its centroid a little right of the disc's centre.
  const left = r - size * 0.14;
  const right = r + size * 0.24;
  const half = size * 0.2;
  const triangle = coverage(size, (x, y) => x >= left && x <= right && Math.abs(y - r) <= (half * (right - x)) / (right - left));
  const badge = { x0: Math.floor((width - size) / 2), y0: Math.floor((height - size) / 2), size, disc, triangle };
  badges.set(key, badge);
  return badge;
}

/** Blends the play badge into an opaque RGBA frame, in place. */
export function drawPlayBadge(rgba: Uint8Array, width: number, height: number): void {
  const { x0, y0, size, disc, triangle } = badgeFor(width, height);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const m = y * size + x;
      const d = disc[m]! * 0.6; // the disc darkens what is under it
      const t = triangle[m]!;
      if (d === 0 && t === 0) continue;
      const i = ((y0 + y) * width + x0 + x) * 4;
      for (let c = 0; c < 3; c++) {
        const dark = rgba[i + c]! * (1 - d);
        rgba[i + c] = Math.round(dark * (1 - t) + 255 * t);
      }
    }
  }
}
