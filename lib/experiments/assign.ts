import { createHash } from "node:crypto";

// Which variant of a share's A/B test a viewer gets (docs/adr/0151-ab-variant-statistics.md):
// sticky without any stored state, the same on every app process, and split by the weights.

/** What the assignment reads of a variant: the template it serves, its weight, and its place (0: the control). */
export type WeightedVariant = { templateId: string; weight: number; position: number };

/** 2^48: the assignment reads the first 48 bits of the hash, exactly representable in a double. */
const hashRange = 2 ** 48;

/**
 * The variant `viewerKey` is served on the share: the first 48 bits of SHA-256(`${shareId}:${viewerKey}`),
 * read as a uniform number in [0, total weight), fall in one variant's slice, the slices laid out
 * in `position` order (the input's order does not matter). Weights are relative (normalized by
 * their total); a variant of weight 0 is never chosen. Null when there is nothing to choose.
 */
export function assignVariant<V extends WeightedVariant>(shareId: string, viewerKey: string, variants: readonly V[]): V | null {
  for (const variant of variants) {
    if (!Number.isFinite(variant.weight) || variant.weight < 0) throw new RangeError(`A variant's weight must be a finite number ≥ 0, not ${variant.weight}.`);
  }
  const ordered = [...variants].sort((a, b) => a.position - b.position || (a.templateId < b.templateId ? -1 : a.templateId > b.templateId ? 1 : 0));
  const total = ordered.reduce((sum, variant) => sum + variant.weight, 0);
  if (total === 0) return null;
  const point = unitHash(`${shareId}:${viewerKey}`) * total;
  let end = 0;
  for (const variant of ordered) {
    end += variant.weight;
    if (point < end) return variant;
  }
  // Rounding of the running sum may leave the last slice a hair short of `total`.
  return ordered.findLast((variant) => variant.weight > 0) ?? null;
}

/** A uniform number in [0, 1) from the first 48 bits of the text's SHA-256. */
function unitHash(text: string): number {
  return createHash("sha256").update(text, "utf8").digest().readUIntBE(0, 6) / hashRange;
}
