import { createHash } from "node:crypto";
import type { CanvasKit, ManagedSkottieAnimation } from "canvaskit-wasm";
import {
  isImageAsset,
  listFontNames,
  listImageAssets,
  listLayers,
  textKeyframes,
  type Lottie,
  type LottieAsset,
  type LottieFont,
  type LottieLayer,
} from "@/shared/templates/lottie";
import { fontFaceOf, type FontFace, type FontFiles } from "./fonts";

// Skottie animations for the preview renderer, reused across renders of the same template.
//
// Building an animation is the expensive part of a render: Skottie decodes every image again
// (its image cache lives and dies with the animation; the weather card's 1600×1600 JPEG takes
// ~25 ms in WASM) and loads the fonts again. Previews of one template differ in their data:
// texts and embedded (data URL) images. So an animation is cached under its "skeleton" — the
// JSON without those, plus the image files — and a later render with other data sets them on
// the cached animation: texts through Skottie's text properties (setText), embedded images
// through image slots (every embedded image asset is given one), which yields the same pixels
// as a fresh build. Anything else that differs (a keyframed text, another file) is another
// skeleton, so another animation.

export type SkottieAnimation = {
  animation: ManagedSkottieAnimation;
  /** Call when done drawing: deletes an animation that is not cached. */
  release(): void;
};

export type AnimationCache = {
  /** The animation for a render, from the cache when its skeleton was built before. */
  animationOf(lottie: Lottie, files: ReadonlyMap<string, Uint8Array> | undefined, warnings: string[]): SkottieAnimation;
  /** A fresh animation that is not cached (the caller deletes it): a video render's own, which previews cannot change. */
  build(lottie: Lottie, files: ReadonlyMap<string, Uint8Array> | undefined, warnings: string[]): ManagedSkottieAnimation;
  /** Deletes every cached animation. */
  clear(): void;
  readonly size: number;
};

type CachedAnimation = {
  animation: ManagedSkottieAnimation;
  /** Current text and size of each text property (layer name) renders may set. */
  texts: Map<string, { text: string; size: number }>;
  /** Current data URL of each image slot renders may set. */
  images: Map<string, string>;
};

const maxCachedAnimations = 4;
const imageSlotPrefix = "reelbind-image:";

/**
 * A cache of animations made by one CanvasKit. Each font of an animation's fonts.list gets the
 * face of `fonts` its weight and style name (fonts.ts), under its fName, which is where Skottie
 * looks a font up first.
 */
export function createAnimationCache(ck: CanvasKit, fonts: FontFiles): AnimationCache {
  const cache = new Map<string, CachedAnimation>();
  const forget = (key: string) => {
    cache.get(key)?.animation.delete();
    cache.delete(key);
  };

  function animationOf(lottie: Lottie, files: ReadonlyMap<string, Uint8Array> | undefined, warnings: string[]): SkottieAnimation {
    const fileBytes = imageFiles(lottie, files, warnings);
    const { slotted, images } = slotEmbeddedImages(lottie);
    const { skeleton, texts } = splitTexts(slotted, images);
    const hash = createHash("sha256").update(prepareForSkottie(skeleton).json);
    for (const [name, bytes] of fileBytes) hash.update(`\0${name}\0`).update(bytes);
    const key = hash.digest("hex");

    const cached = cache.get(key);
    if (cached && setData(cached, texts, images)) {
      cache.delete(key); // most recently used goes last
      cache.set(key, cached);
      return { animation: cached.animation, release() {} };
    }
    if (cached) forget(key);

    const { json, fontFaces } = prepareForSkottie(slotted);
    const assets: Record<string, ArrayBuffer> = {};
    for (const [name, bytes] of fileBytes) assets[name] = exactArrayBuffer(bytes);
    for (const [name, face] of fontFaces) assets[name] = fonts[face];
    const animation = ck.MakeManagedAnimation(json, assets);
    if (!animation) throw new Error("renderPreviewPng: Skottie could not load the animation");

    const properties = new Map(animation.getTextProps().map((prop) => [prop.key, { text: prop.value.text, size: prop.value.size }]));
    const slots = new Set(animation.getSlotInfo().imageSlotIDs);
    if (![...texts.keys()].every((name) => properties.has(name)) || ![...images.keys()].every((sid) => slots.has(sid))) {
      return { animation, release: () => animation.delete() };
    }
    cache.set(key, { animation, texts: properties, images: new Map(images) });
    if (cache.size > maxCachedAnimations) forget(cache.keys().next().value!);
    return { animation, release() {} };
  }

  function build(lottie: Lottie, files: ReadonlyMap<string, Uint8Array> | undefined, warnings: string[]): ManagedSkottieAnimation {
    const { json, fontFaces } = prepareForSkottie(lottie);
    const assets: Record<string, ArrayBuffer> = {};
    for (const [name, bytes] of imageFiles(lottie, files, warnings)) assets[name] = exactArrayBuffer(bytes);
    for (const [name, face] of fontFaces) assets[name] = fonts[face];
    const animation = ck.MakeManagedAnimation(json, assets);
    if (!animation) throw new Error("renderPreviewPng: Skottie could not load the animation");
    return animation;
  }

  return {
    animationOf,
    build,
    clear: () => [...cache.keys()].forEach(forget),
    get size() {
      return cache.size;
    },
  };
}

function setData(entry: CachedAnimation, texts: Map<string, string>, images: Map<string, string>): boolean {
  for (const [name, text] of texts) {
    const current = entry.texts.get(name);
    if (!current) return false;
    if (current.text === text) continue;
    if (!entry.animation.setText(name, text, current.size)) return false;
    current.text = text;
  }
  for (const [sid, dataUrl] of images) {
    if (entry.images.get(sid) === dataUrl) continue;
    if (!entry.animation.setImageSlot(sid, dataUrl)) return false;
    entry.images.set(sid, dataUrl);
  }
  return true;
}

/**
 * The animation with an image slot for every embedded image asset (one without a slot of its
 * own), and those slots' data URLs.
 */
function slotEmbeddedImages(lottie: Lottie): { slotted: Lottie; images: Map<string, string> } {
  const images = new Map<string, string>();
  const slots: Record<string, { p: LottieAsset }> = {};
  const assets = lottie.assets?.map((asset) => {
    if (!isImageAsset(asset) || !asset.p.startsWith("data:") || asset.sid !== undefined) return asset;
    const sid = `${imageSlotPrefix}${asset.id}`;
    images.set(sid, asset.p);
    slots[sid] = { p: { ...asset } };
    return { ...asset, sid };
  });
  if (images.size === 0) return { slotted: lottie, images };
  return { slotted: { ...lottie, assets, slots: { ...lottie.slots, ...slots } }, images };
}

/**
 * The skeleton: the animation without settable texts and slotted images, and those texts by
 * layer name. A name is settable when every text layer with it has one keyframe and the same
 * text (setText addresses layers by name and sets one value).
 */
function splitTexts(lottie: Lottie, images: Map<string, string>): { skeleton: Lottie; texts: Map<string, string> } {
  const byName = new Map<string, string | null>();
  for (const { layer, name } of listLayers(lottie)) {
    if (layer.ty !== 5) continue;
    const keyframes = textKeyframes(layer);
    const text = keyframes.length === 1 && typeof keyframes[0]?.s?.t === "string" ? keyframes[0].s.t : null;
    byName.set(name, byName.has(name) && byName.get(name) !== text ? null : text);
  }
  const texts = new Map([...byName].filter((entry): entry is [string, string] => entry[1] !== null));
  if (texts.size === 0 && images.size === 0) return { skeleton: lottie, texts };

  const blankTexts = (layers: LottieLayer[]) =>
    layers.map((layer) => {
      if (layer?.ty !== 5 || typeof layer.nm !== "string" || !texts.has(layer.nm)) return layer;
      const [keyframe] = textKeyframes(layer);
      return { ...layer, t: { ...layer.t, d: { ...layer.t!.d, k: [{ ...keyframe, s: { ...keyframe!.s, t: "" } }] } } };
    });
  const slots = { ...lottie.slots };
  for (const sid of images.keys()) slots[sid] = { p: { ...(slots[sid]?.p as LottieAsset), p: "" } };
  return {
    skeleton: {
      ...lottie,
      layers: blankTexts(lottie.layers),
      assets: lottie.assets?.map((asset) => {
        if (Array.isArray(asset?.layers)) return { ...asset, layers: blankTexts(asset.layers) };
        return typeof asset.sid === "string" && images.has(asset.sid) ? { ...asset, p: "" } : asset;
      }),
      ...(lottie.slots ? { slots } : {}),
    },
    texts,
  };
}

/** The image files the animation names, in order; a missing one is a warning. */
function imageFiles(lottie: Lottie, files: ReadonlyMap<string, Uint8Array> | undefined, warnings: string[]): Map<string, Uint8Array> {
  const images = new Map<string, Uint8Array>();
  for (const image of listImageAssets(lottie)) {
    if (image.embedded || images.has(image.fileName)) continue;
    const bytes = files?.get(image.fileName);
    if (bytes) images.set(image.fileName, bytes);
    else warnings.push(`image "${image.fileName}" (asset ${image.id}) was not provided; it is left out`);
  }
  return images;
}

/**
 * The JSON Skottie loads: without `chars` (glyph outlines cover only the characters the
 * designer typed, so personalized text would lose letters; every family is DejaVu Sans here),
 * and with a fonts.list entry for every font a text layer names, so Skottie shapes its text;
 * and the face each font name is drawn with (a name fonts.list lacks: by its own words, "Arial-Bold").
 */
function prepareForSkottie(lottie: Lottie): { json: string; fontFaces: Map<string, FontFace> } {
  const fontFaces = new Map<string, FontFace>();
  for (const font of lottie.fonts?.list ?? []) if (typeof font?.fName === "string" && !fontFaces.has(font.fName)) fontFaces.set(font.fName, fontFaceOf(font));
  const listed = new Set(listFontNames(lottie));
  const missing = new Set<string>();
  for (const { layer } of listLayers(lottie)) {
    if (layer.ty !== 5) continue;
    for (const keyframe of textKeyframes(layer)) {
      const name = keyframe.s?.f;
      if (typeof name === "string" && !listed.has(name)) missing.add(name);
    }
  }
  const added = [...missing].map((fName): LottieFont => ({ fName, fFamily: fName, fStyle: "", ascent: 75 }));
  for (const font of added) fontFaces.set(font.fName!, fontFaceOf(font));
  for (const name of listed) if (!fontFaces.has(name)) fontFaces.set(name, "regular");
  const fonts = added.length === 0 ? lottie.fonts : { ...lottie.fonts, list: [...(lottie.fonts?.list ?? []), ...added] };
  return { json: JSON.stringify({ ...lottie, chars: undefined, fonts }), fontFaces };
}

export function exactArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes.buffer;
  return bytes.slice().buffer as ArrayBuffer;
}
