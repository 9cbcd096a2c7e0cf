import { describe, expect, it } from "vitest";
import { ViewerSketch } from "./viewer-sketch";

const sketchOf = (keys: Iterable<string>) => {
  const sketch = new ViewerSketch();
  for (const key of keys) sketch.add(key);
  return sketch;
};
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `viewer-${from + i}`);

describe("ViewerSketch", () => {
  it("counts exactly up to 256 viewers, repeats counted once", () => {
    expect(new ViewerSketch().count()).toBe(0);
    expect(sketchOf([...range(0, 10), ...range(0, 10)]).count()).toBe(10);
    expect(sketchOf(range(0, 256)).count()).toBe(256);
  });

  it.each([1_000, 10_000, 100_000, 1_000_000])("estimates %i viewers within 5 % (standard error ~1.6 %)", (n) => {
    const estimate = sketchOf(range(0, n)).count();
    expect(Math.abs(estimate - n) / n).toBeLessThan(0.05);
  });

  it("a merge counts the union: overlapping days are not counted twice", () => {
    for (const [a, b] of [[[0, 100], [50, 150]], [[0, 5_000], [2_500, 7_500]], [[0, 200], [0, 5_000]]] as const) {
      const merged = sketchOf(range(a[0], a[1]));
      merged.merge(sketchOf(range(b[0], b[1])));
      const union = Math.max(a[1], b[1]) - Math.min(a[0], b[0]);
      if (union <= 256) expect(merged.count()).toBe(union);
      else expect(Math.abs(merged.count() - union) / union).toBeLessThan(0.05);
      expect(merged.count()).toBe(sketchOf(range(Math.min(a[0], b[0]), Math.max(a[1], b[1]))).count());
    }
  });

  it("survives its stored form, exact and dense", () => {
    for (const n of [0, 3, 256, 257, 20_000]) {
      const sketch = sketchOf(range(0, n));
      const stored = sketch.toBytes();
      expect(ViewerSketch.fromBytes(stored).count()).toBe(sketch.count());
      expect(ViewerSketch.fromBytes(new Uint8Array(stored)).toBytes()).toEqual(stored);
    }
    expect(ViewerSketch.fromBytes(null).count()).toBe(0);
  });

  it.each([
    ["an unknown tag", Buffer.of(7, 0, 0)],
    ["an exact form cut mid-hash", Buffer.of(1, 0, 0, 0)],
    ["a dense form of the wrong length", Buffer.concat([Buffer.of(2), Buffer.alloc(100)])],
  ])("refuses %s", (_name, bytes) => {
    expect(() => ViewerSketch.fromBytes(bytes)).toThrow(RangeError);
  });
});
