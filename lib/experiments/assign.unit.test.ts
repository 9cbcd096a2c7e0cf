import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { assignVariant, type WeightedVariant } from "./assign";

const shareId = "5b2f0c7e-8a51-4c1e-9d0a-3f6b2e7c9a14";
const viewers = Array.from({ length: 10_000 }, (_, i) => `viewer-${i}`);

const variantsOf = (weights: number[]): WeightedVariant[] => weights.map((weight, position) => ({ templateId: `template-${position}`, weight, position }));

/** The share of `viewers` each variant gets, in percent, by position. */
function split(variants: WeightedVariant[]): number[] {
  const counts = new Array<number>(variants.length).fill(0);
  for (const viewer of viewers) counts[assignVariant(shareId, viewer, variants)!.position]! += 1;
  return counts.map((count) => (count / viewers.length) * 100);
}

describe("assignVariant – the split follows the weights", () => {
  it.each([{ weights: [50, 50] }, { weights: [70, 30] }, { weights: [25, 25, 25, 25] }, { weights: [10, 20, 30, 40] }])(
    "assignVariant – 10,000 viewers, weights $weights → each share within ±2 percentage points",
    ({ weights }) => {
      const shares = split(variantsOf(weights));
      shares.forEach((share, i) => expect(Math.abs(share - weights[i]!), `variant ${i}: ${share.toFixed(2)} %`).toBeLessThanOrEqual(2));
    },
  );

  it("assignVariant – weights that do not add up to 100 are normalized by their total (1:3 → 25/75)", () => {
    const [first, second] = split(variantsOf([1, 3]));
    expect(Math.abs(first! - 25)).toBeLessThanOrEqual(2);
    expect(Math.abs(second! - 75)).toBeLessThanOrEqual(2);
  });

  it("assignVariant – a variant of weight 0 is never chosen", () => {
    const variants = variantsOf([0, 60, 40]);
    expect(viewers.some((viewer) => assignVariant(shareId, viewer, variants)!.position === 0)).toBe(false);
  });
});

describe("assignVariant – sticky and deterministic", () => {
  it("assignVariant – the same viewer on the same share always gets the same variant (as a fresh copy of the list, too)", () => {
    const variants = variantsOf([34, 33, 33]);
    for (const viewer of viewers.slice(0, 1000)) {
      const first = assignVariant(shareId, viewer, variants);
      for (let i = 0; i < 3; i++) expect(assignVariant(shareId, viewer, structuredClone(variants))).toEqual(first);
    }
  });

  it("assignVariant – the order of the input array does not change the outcome: position decides", () => {
    const variants = variantsOf([40, 30, 20, 10]);
    const shuffled = [variants[2]!, variants[0]!, variants[3]!, variants[1]!];
    const reversed = [...variants].reverse();
    for (const viewer of viewers) {
      const expected = assignVariant(shareId, viewer, variants)!.templateId;
      expect(assignVariant(shareId, viewer, shuffled)!.templateId).toBe(expected);
      expect(assignVariant(shareId, viewer, reversed)!.templateId).toBe(expected);
    }
  });

  it("assignVariant – the hash is SHA-256 of `${shareId}:${viewerKey}`, its first 48 bits over 2^48 times the total weight", () => {
    // Worked by hand from the digest, so a change of the mapping (which would move every
    // viewer of a running test to another variant) fails here.
    const variants = variantsOf([50, 50]);
    for (const viewer of viewers.slice(0, 200)) {
      const digest = createHash("sha256").update(`${shareId}:${viewer}`).digest("hex");
      const point = (parseInt(digest.slice(0, 12), 16) / 2 ** 48) * 100;
      expect(assignVariant(shareId, viewer, variants)!.position).toBe(point < 50 ? 0 : 1);
    }
  });

  it("assignVariant – another share splits the same viewers independently", () => {
    const variants = variantsOf([50, 50]);
    const here = viewers.map((viewer) => assignVariant(shareId, viewer, variants)!.position);
    const there = viewers.map((viewer) => assignVariant("another-share", viewer, variants)!.position);
    const same = here.filter((position, i) => position === there[i]).length / viewers.length;
    // Independent halves agree about half the time.
    expect(Math.abs(same - 0.5)).toBeLessThanOrEqual(0.02);
  });
});

describe("assignVariant – edge cases", () => {
  it("assignVariant – no variants → null", () => {
    expect(assignVariant(shareId, "viewer-1", [])).toBeNull();
  });

  it("assignVariant – every weight 0 → null", () => {
    expect(assignVariant(shareId, "viewer-1", variantsOf([0, 0]))).toBeNull();
  });

  it("assignVariant – one variant → always that one", () => {
    const [only] = variantsOf([100]);
    expect(viewers.slice(0, 100).every((viewer) => assignVariant(shareId, viewer, [only!]) === only)).toBe(true);
  });

  it("assignVariant – the caller's own objects come back (extra fields kept)", () => {
    const variants = variantsOf([50, 50]).map((variant) => ({ ...variant, label: `label-${variant.position}` }));
    expect(variants).toContain(assignVariant(shareId, "viewer-1", variants));
  });

  it.each([{ weight: -1 }, { weight: Number.NaN }, { weight: Number.POSITIVE_INFINITY }])("assignVariant – weight $weight → RangeError", ({ weight }) => {
    expect(() => assignVariant(shareId, "viewer-1", [...variantsOf([50]), { templateId: "bad", weight, position: 1 }])).toThrow(RangeError);
  });
});
