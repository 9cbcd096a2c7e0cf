import { isImageAsset, listImageAssets, listTextLayers, slotKind, textKeyframes, type Lottie, type LottieAsset, type LottieLayer } from "./lottie";
import type { BindingManifest, ManifestField } from "./manifest";

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
};

export type AppliedBindings = { lottie: Lottie; warnings: string[] };

const imageDataUrl = /^data:image\/(png|jpeg|webp);base64,([A-Za-z0-9+/]*={0,2})$/;

/**
 * Returns a deep copy of the animation with the data applied (the input is never touched, and
 * a player that mutates what it loads — lottie-web does — cannot reach the template), plus
 * warnings for data that could not be used.
 */
export function applyBindings({ lottie, manifest, data, assets }: ApplyBindingsInput): AppliedBindings {
  const bound = structuredClone(lottie);
  const warnings: string[] = [];
  const fields = bindingFieldsOf(manifest, lottie);
  const keys = new Set(fields.map((field) => field.key));
  for (const key of Object.keys(data)) if (!keys.has(key)) warnings.push(`unknown key "${key}"`);

  const files = new Set(assets ?? []);
  for (const image of listImageAssets(lottie)) if (!image.embedded) files.add(image.fileName);

  for (const field of fields) {
    const value = Object.hasOwn(data, field.key) ? (data[field.key] as unknown) : undefined;
    if (value !== undefined && typeof value !== "string") {
      warnings.push(`"${field.key}" is not a string; the default is used`);
    }
    const given = typeof value === "string" ? value : undefined;
    const applied = field.type === "text" ? bindText(bound, field, given, warnings) : bindImage(bound, field, given, files, warnings);
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
function boundText(field: ManifestField, value: string | undefined, warnings: string[]): string | undefined {
  let text = value ?? field.default;
  if (text === undefined) return undefined;
  text = text.replace(/\r\n|\n/g, "\r");
  const codePoints = [...text];
  if (field.maxLength !== undefined && codePoints.length > field.maxLength) {
    text = field.maxLength > 1 ? `${codePoints.slice(0, field.maxLength - 1).join("")}…` : codePoints.slice(0, field.maxLength).join("");
    warnings.push(`"${field.key}" was shortened to ${field.maxLength} characters`);
  }
  return text;
}

/** Returns false when the animation has no such target. */
function bindText(lottie: Lottie, field: ManifestField, value: string | undefined, warnings: string[]): boolean {
  const { target } = field;
  if ("asset" in target) return false;
  if ("slot" in target) {
    const slot = lottie.slots?.[target.slot];
    if (slotKind(slot) !== "text") return false;
    const text = boundText(field, value, warnings);
    if (text === undefined) return true;
    const property = slot!.p as { k: unknown };
    if (Array.isArray(property.k)) for (const keyframe of property.k) (keyframe as { s: { t: string } }).s.t = text;
    else (property.k as { t: string }).t = text;
    return true;
  }
  const layers = allLayers(lottie).filter((layer) => layer.ty === 5 && layer.nm === target.layer);
  if (layers.length === 0) return false;
  const text = boundText(field, value, warnings);
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
 * embedded; the name of one of the template's image files is referenced. Anything else is a
 * warning and the default (the manifest's file name, else the template's own image) stays.
 */
function bindImage(lottie: Lottie, field: ManifestField, value: string | undefined, files: Set<string>, warnings: string[]): boolean {
  const { target } = field;
  let asset: LottieAsset | undefined;
  if ("asset" in target) asset = (lottie.assets ?? []).find((candidate) => isImageAsset(candidate) && candidate.id === target.asset);
  else if ("slot" in target) {
    const slot = lottie.slots?.[target.slot];
    if (slotKind(slot) === "image") asset = slot!.p as LottieAsset;
  }
  if (!asset) return false;

  let choice = value;
  if (choice !== undefined && !isImageDataUrl(choice) && !files.has(choice)) {
    warnings.push(`"${field.key}" is neither a data:image/png, jpeg or webp base64 URL nor one of the template's image files; the default image is used`);
    choice = undefined;
  }
  choice ??= field.default;
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

const magicBytes: Record<string, (bytes: string) => boolean> = {
  png: (b) => b.startsWith("\x89PNG\r\n\x1a\n"),
  jpeg: (b) => b.startsWith("\xff\xd8\xff"),
  webp: (b) => b.startsWith("RIFF") && b.slice(8, 12) === "WEBP",
};

/** A base64 data URL of a PNG, JPEG or WebP image whose first bytes match its declared type. */
export function isImageDataUrl(value: string): boolean {
  const match = imageDataUrl.exec(value);
  if (!match) return false;
  const [, type, payload] = match as unknown as [string, string, string];
  if (payload.length % 4 !== 0 || payload.length < 16) return false;
  let head: string;
  try {
    head = atob(payload.slice(0, 16));
  } catch {
    return false;
  }
  return magicBytes[type]?.(head) ?? false;
}
