import { isImageAsset, listImageAssets, listTextLayers, slotKind, textKeyframes, type Lottie, type LottieAsset, type LottieLayer } from "./lottie";
import { asLottieText, checkPersonalizationData, dataRuleFields, isImageDataUrl } from "./data-rules";
import { formatData } from "./format-values";
import type { BindingManifest, ManifestField } from "./manifest";

export { isImageDataUrl } from "./data-rules";

// Applies personalization data to a template's animation. The one implementation shared by the
// server preview and the browser player: no Node APIs here.

export type BindingData = Record<string, string>;

export type ApplyBindingsInput = {
  lottie: Lottie;
  /** null: text layers named `{{key}}` bind by convention. */
  manifest: BindingManifest | null;
  data: BindingData;
  /** File names of the template's asset files an image value may name (besides those the animation references). */
  assets?: Iterable<string>;
  /** The share's locale (BCP 47): fields with a `format` are formatted for it (format-values.ts); default en-US. */
  locale?: string | null;
};

export type AppliedBindings = { lottie: Lottie; warnings: string[] };

/**
 * Returns a deep copy of the animation with the data applied (the input is never touched, and
 * a player that mutates what it loads — lottie-web does — cannot reach the template), plus
 * warnings for data that could not be used.
 */
export function applyBindings({ lottie, manifest, data: raw, assets, locale }: ApplyBindingsInput): AppliedBindings {
  const bound = structuredClone(lottie);
  const fields = bindingFieldsOf(manifest, lottie);
  const files = new Set(assets ?? []);
  for (const image of listImageAssets(lottie)) if (!image.embedded) files.add(image.fileName);

  // The data rules' warnings (data-rules.ts), worded as the share form, the API and campaigns word them.
  const problems = checkPersonalizationData(dataRuleFields(fields), raw, files);
  // A formatted field's raw default ("2027-03-03") is formatted as a value would be.
  const defaults = Object.fromEntries(fields.filter((field) => field.format && field.default !== undefined && !Object.hasOwn(raw, field.key)).map((field) => [field.key, field.default!]));
  const formatted = formatData(fields, { ...defaults, ...raw }, locale);
  const data = formatted.data;
  const warnings = [...problems.map((problem) => problem.message), ...formatted.warnings];
  const unusable = new Set(problems.filter((problem) => problem.code === "not_string" || problem.code === "not_image").map((problem) => problem.key));

  for (const field of fields) {
    const value = Object.hasOwn(data, field.key) && !unusable.has(field.key) ? (data[field.key] as unknown) : undefined;
    const given = typeof value === "string" ? value : undefined;
    const applied = field.type === "text" ? bindText(bound, field, given) : bindImage(bound, field, given);
    if (!applied) warnings.push(`"${field.key}" targets ${describeTarget(field)}, which templateJson does not have`);
  }
  return { lottie: bound, warnings };
}

/** `{{key}}`: the text-layer name that binds a key when a template has no manifest. */
export function conventionKey(layerName: string): string | null {
  const match = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]{0,63})\s*\}\}$/.exec(layerName);
  return match?.[1] ?? null;
}

/** The fields that bind data: the manifest's, or one per `{{key}}` text layer without one. */
export function bindingFieldsOf(manifest: BindingManifest | null, lottie: Lottie): ManifestField[] {
  if (manifest) return manifest.fields;
  const fields = new Map<string, ManifestField>();
  for (const layer of listTextLayers(lottie)) {
    const key = conventionKey(layer.name);
    if (key && !fields.has(key)) fields.set(key, { key, type: "text", target: { layer: layer.name } });
  }
  return [...fields.values()];
}

function describeTarget({ type, target }: ManifestField): string {
  if ("layer" in target) return `the text layer "${target.layer}"`;
  if ("asset" in target) return `the image asset "${target.asset}"`;
  return `the ${type} slot "${target.slot}"`;
}

/**
 * Text: the data's value, else the manifest default, else the template's own text. Line breaks
 * become "\r" (After Effects' line separator, which Skottie and lottie-web both break on).
 * Longer than maxLength code points: cut to maxLength - 1 and end with "…", so the result
 * still fits maxLength and the viewer can see it was shortened.
 */
function boundText(field: ManifestField, value: string | undefined): string | undefined {
  const given = value ?? field.default;
  if (given === undefined) return undefined;
  const text = asLottieText(given);
  const codePoints = [...text];
  if (field.maxLength === undefined || codePoints.length <= field.maxLength) return text;
  return field.maxLength > 1 ? `${codePoints.slice(0, field.maxLength - 1).join("")}…` : codePoints.slice(0, field.maxLength).join("");
}

/** Returns false when the animation has no such target. */
function bindText(lottie: Lottie, field: ManifestField, value: string | undefined): boolean {
  const { target } = field;
  if ("asset" in target) return false;
  if ("slot" in target) {
    const slot = lottie.slots?.[target.slot];
    if (slotKind(slot) !== "text") return false;
    const text = boundText(field, value);
    if (text === undefined) return true;
    const property = slot!.p as { k: unknown };
    if (Array.isArray(property.k)) for (const keyframe of property.k) (keyframe as { s: { t: string } }).s.t = text;
    else (property.k as { t: string }).t = text;
    return true;
  }
  const layers = allLayers(lottie).filter((layer) => layer.ty === 5 && layer.nm === target.layer);
  if (layers.length === 0) return false;
  const text = boundText(field, value);
  if (text === undefined) return true;
  for (const layer of layers) {
    for (const keyframe of textKeyframes(layer)) {
      if (keyframe.s && typeof keyframe.s === "object") keyframe.s.t = text;
    }
    // An expression would compute the text again in lottie-web; the data wins.
    if (layer.t?.d) delete layer.t.d.x;
  }
  return true;
}

function allLayers(lottie: Lottie): LottieLayer[] {
  const layers: LottieLayer[] = [...lottie.layers];
  for (const asset of lottie.assets ?? []) if (Array.isArray(asset?.layers)) layers.push(...asset.layers);
  return layers.filter((layer) => typeof layer === "object" && layer !== null);
}

/**
 * Image: a data URL (PNG, JPEG or WebP, base64, checked against the image's first bytes) is
 * embedded; the name of one of the template's image files is referenced. Anything else (already
 * a warning, and left out by the caller) leaves the default: the manifest's file name, else the
 * template's own image.
 */
function bindImage(lottie: Lottie, field: ManifestField, value: string | undefined): boolean {
  const { target } = field;
  let asset: LottieAsset | undefined;
  if ("asset" in target) asset = (lottie.assets ?? []).find((candidate) => isImageAsset(candidate) && candidate.id === target.asset);
  else if ("slot" in target) {
    const slot = lottie.slots?.[target.slot];
    if (slotKind(slot) === "image") asset = slot!.p as LottieAsset;
  }
  if (!asset) return false;

  const choice = value ?? field.default;
  if (choice === undefined) return true;
  if (isImageDataUrl(choice)) {
    asset.p = choice;
    asset.u = "";
    asset.e = 1;
  } else {
    if (asset.e === 1) asset.u = "";
    asset.p = choice;
    asset.e = 0;
  }
  return true;
}
