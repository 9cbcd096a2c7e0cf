// Lottie (Bodymovin) JSON: the shape of a parsed animation and the helpers that list what a
// binding can target. Pure and free of Node APIs: the browser player and the bindings use it too;
// the server's guarded parser and shape check are lib/templates/lottie.ts.

export type LottieTextKeyframe = { t?: number; s?: { t?: string; f?: string; [key: string]: unknown }; [key: string]: unknown };
export type LottieLayer = {
  ty?: number;
  nm?: string;
  refId?: string;
  t?: { d?: { k?: LottieTextKeyframe[]; x?: string; sid?: string; [key: string]: unknown }; [key: string]: unknown };
  [key: string]: unknown;
};
export type LottieAsset = {
  id?: string;
  p?: string;
  u?: string;
  e?: number;
  w?: number;
  h?: number;
  t?: number;
  layers?: LottieLayer[];
  sid?: string;
  [key: string]: unknown;
};
export type LottieMarker = { cm?: string; tm?: number; dr?: number; [key: string]: unknown };
export type LottieFont = { fName?: string; fFamily?: string; fStyle?: string; [key: string]: unknown };
export type LottieSlot = { p?: unknown; [key: string]: unknown };

/** A parsed animation: the members the shape check guarantees, everything else kept as is. */
export type Lottie = {
  v: string;
  fr: number;
  ip: number;
  op: number;
  w: number;
  h: number;
  layers: LottieLayer[];
  assets?: LottieAsset[];
  markers?: LottieMarker[];
  fonts?: { list?: LottieFont[]; [key: string]: unknown };
  slots?: Record<string, LottieSlot>;
  [key: string]: unknown;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isFiniteNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

export type LottieInfo = {
  width: number;
  height: number;
  frameRate: number;
  inPoint: number;
  outPoint: number;
  durationSeconds: number;
};

export function lottieInfo(lottie: Lottie): LottieInfo {
  return {
    width: lottie.w,
    height: lottie.h,
    frameRate: lottie.fr,
    inPoint: lottie.ip,
    outPoint: lottie.op,
    durationSeconds: (lottie.op - lottie.ip) / lottie.fr,
  };
}

export const lottieLayerTypes: Record<number, string> = {
  0: "precomposition",
  1: "solid",
  2: "image",
  3: "null",
  4: "shape",
  5: "text",
  6: "audio",
  13: "camera",
  15: "data",
};

export type LayerRef = {
  layer: LottieLayer;
  name: string;
  /** Id of the precomposition asset holding the layer, null for the main composition. */
  compId: string | null;
};

/** Every named layer of the main composition and of every precomposition asset. */
export function listLayers(lottie: Lottie): LayerRef[] {
  const refs: LayerRef[] = [];
  const collect = (layers: unknown, compId: string | null) => {
    if (!Array.isArray(layers)) return;
    for (const layer of layers) {
      if (isRecord(layer) && typeof layer.nm === "string") refs.push({ layer: layer as LottieLayer, name: layer.nm, compId });
    }
  };
  collect(lottie.layers, null);
  for (const asset of lottie.assets ?? []) {
    if (isRecord(asset) && Array.isArray(asset.layers)) collect(asset.layers, typeof asset.id === "string" ? asset.id : null);
  }
  return refs;
}

export type TextLayerInfo = {
  name: string;
  compId: string | null;
  /** Text of the first keyframe: what the layer shows without data. */
  text: string;
  font: string | null;
};

/** Text layers by name, including those inside precomposition assets. */
export function listTextLayers(lottie: Lottie): TextLayerInfo[] {
  return listLayers(lottie)
    .filter(({ layer }) => layer.ty === 5)
    .map(({ layer, name, compId }) => {
      const first = textKeyframes(layer)[0];
      return {
        name,
        compId,
        text: typeof first?.s?.t === "string" ? first.s.t : "",
        font: typeof first?.s?.f === "string" ? first.s.f : null,
      };
    });
}

/** The text document keyframes of a text layer (`t.d.k`), or [] when it has none. */
export function textKeyframes(layer: LottieLayer): LottieTextKeyframe[] {
  const keyframes = layer.t?.d?.k;
  return Array.isArray(keyframes) ? keyframes.filter(isRecord) : [];
}

export type ImageAssetInfo = {
  id: string;
  /** `p`: the file name, or the whole data URL when embedded. */
  fileName: string;
  /** `u`: the folder the file name is relative to. */
  folder: string;
  embedded: boolean;
  width: number;
  height: number;
};

/** Image assets by id. Precompositions, data sources (t: 3) and sounds (no size) are not images. */
export function listImageAssets(lottie: Lottie): ImageAssetInfo[] {
  const images: ImageAssetInfo[] = [];
  for (const asset of lottie.assets ?? []) {
    if (!isImageAsset(asset)) continue;
    images.push({
      id: asset.id,
      fileName: asset.p,
      folder: typeof asset.u === "string" ? asset.u : "",
      embedded: asset.e === 1 || asset.p.startsWith("data:"),
      width: asset.w,
      height: asset.h,
    });
  }
  return images;
}

export function isImageAsset(asset: unknown): asset is LottieAsset & { id: string; p: string; w: number; h: number } {
  return (
    isRecord(asset) &&
    typeof asset.id === "string" &&
    typeof asset.p === "string" &&
    !Array.isArray(asset.layers) &&
    asset.t !== 3 &&
    isFiniteNumber(asset.w) &&
    isFiniteNumber(asset.h)
  );
}

export type SlotKind = "text" | "image" | "other";
export type SlotInfo = { id: string; kind: SlotKind };

/** Lottie 1.0 slots (top-level `slots`), with the kind of value each holds. */
export function listSlots(lottie: Lottie): SlotInfo[] {
  return Object.entries(lottie.slots ?? {}).map(([id, slot]) => ({ id, kind: slotKind(slot) }));
}

/**
 * A text slot holds a text document property (`p.k` = keyframes whose `s.t` is the text, or a
 * document with `t`); an image slot holds an image asset (`p` = {w, h, p, u, e}).
 */
export function slotKind(slot: unknown): SlotKind {
  if (!isRecord(slot) || !isRecord(slot.p)) return "other";
  const value = slot.p;
  if (typeof value.p === "string") return "image";
  const k = value.k;
  if (Array.isArray(k) && k.length > 0 && k.every((kf) => isRecord(kf) && isRecord(kf.s) && typeof kf.s.t === "string")) {
    return "text";
  }
  if (isRecord(k) && typeof k.t === "string") return "text";
  return "other";
}

/** The text a text slot shows (its first keyframe), or null for other slots. */
export function slotText(slot: unknown): string | null {
  if (slotKind(slot) !== "text") return null;
  const k = ((slot as LottieSlot).p as { k: unknown }).k;
  const text = Array.isArray(k) ? (k[0] as LottieTextKeyframe).s?.t : (k as { t: unknown }).t;
  return typeof text === "string" ? text : null;
}

export type MarkerInfo = { name: string; startFrame: number; durationFrames: number };

/** Markers (`markers`: cm = comment/name, tm = start frame, dr = duration in frames). */
export function listMarkers(lottie: Lottie): MarkerInfo[] {
  const markers: MarkerInfo[] = [];
  for (const marker of lottie.markers ?? []) {
    if (!isRecord(marker) || !isFiniteNumber(marker.tm)) continue;
    markers.push({
      name: typeof marker.cm === "string" ? marker.cm : "",
      startFrame: marker.tm,
      durationFrames: isFiniteNumber(marker.dr) && marker.dr > 0 ? marker.dr : 0,
    });
  }
  return markers.sort((a, b) => a.startFrame - b.startFrame);
}

/** Font names (`fonts.list[].fName`) the animation asks for. */
export function listFontNames(lottie: Lottie): string[] {
  const names = new Set<string>();
  for (const font of lottie.fonts?.list ?? []) {
    if (isRecord(font) && typeof font.fName === "string") names.add(font.fName);
  }
  return [...names];
}
