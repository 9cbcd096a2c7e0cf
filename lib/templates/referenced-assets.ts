import type { FieldError } from "@/lib/errors";
import type { Lottie } from "@/shared/templates/lottie";
import type { BindingManifest, ManifestField } from "@/shared/templates/manifest";

// Which image files an animation loads by name (its `assets` and image slots, `u` + `p`, not
// embedded), and whether an upload brings each one. The player and the renderers find a file by
// its name or its base name (browser/player/bind-template.ts), so the same match is used here.

export type ImageReference = {
  /** The name as the animation writes it (`p`), folder included when `p` has one. */
  fileName: string;
  /** "asset" for an entry of `assets`, "slot" for an image slot. */
  source: "asset" | "slot";
  /** The asset's id or the slot's id. */
  id: string;
  /** The slot an asset takes its image from (`sid`), when it has one. */
  slotId?: string;
};

export type AssetCheck = { errors: FieldError[]; warnings: string[] };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A file reference lottie-web would load by URL: a name that is neither embedded nor a data: URI. */
function loadedByName(file: Record<string, unknown>): file is Record<string, unknown> & { p: string } {
  return typeof file.p === "string" && file.p.trim() !== "" && file.e !== 1 && !file.p.startsWith("data:");
}

/** Every image the animation loads by name: image assets (not precompositions, not `t: 3` data files) and image slots. */
export function listImageReferences(lottie: Lottie): ImageReference[] {
  const references: ImageReference[] = [];
  for (const asset of lottie.assets ?? []) {
    if (!isRecord(asset) || Array.isArray(asset.layers) || asset.t === 3 || !loadedByName(asset)) continue;
    references.push({ fileName: asset.p, source: "asset", id: String(asset.id ?? ""), slotId: typeof asset.sid === "string" ? asset.sid : undefined });
  }
  for (const [id, slot] of Object.entries(lottie.slots ?? {})) {
    const value = isRecord(slot) ? slot.p : undefined;
    if (isRecord(value) && loadedByName(value)) references.push({ fileName: value.p, source: "slot", id });
  }
  return references;
}

const baseName = (fileName: string) => fileName.slice(fileName.lastIndexOf("/") + 1);

/** The manifest's image field that replaces this reference's image with personalization data, if any. */
function bindingField(reference: ImageReference, manifest: BindingManifest | null): ManifestField | undefined {
  return manifest?.fields.find(({ type, target }) => {
    if (type !== "image") return false;
    if ("asset" in target) return reference.source === "asset" && target.asset === reference.id;
    if ("slot" in target) return reference.source === "slot" ? target.slot === reference.id : target.slot === reference.slotId;
    return false;
  });
}

const describe = (reference: ImageReference) =>
  reference.source === "asset" ? `the animation's image asset "${reference.id}"` : `the animation's image slot "${reference.id}"`;

/**
 * Every image the animation loads by name must be among the asset files, or the player shows a
 * broken image. One exception: an image the manifest binds to an image field, which
 * personalization data fills, may be left out (a warning), unless the field's default is that
 * very file: a viewer without data would see it.
 */
export function checkReferencedAssets(lottie: Lottie, manifest: BindingManifest | null, assetNames: Iterable<string>): AssetCheck {
  const present = new Set(assetNames);
  const missing = new Map<string, ImageReference[]>();
  for (const reference of listImageReferences(lottie)) {
    const name = baseName(reference.fileName);
    if (present.has(reference.fileName) || present.has(name)) continue;
    missing.set(name, [...(missing.get(name) ?? []), reference]);
  }
  const errors: FieldError[] = [];
  const warnings: string[] = [];
  for (const [name, references] of missing) {
    const bound = references.map((reference) => ({ reference, field: bindingField(reference, manifest) }));
    const refused = bound.find(({ reference, field }) => !field || field.default === name || field.default === reference.fileName);
    if (refused) {
      const why = refused.field ? ` and the manifest's image field "${refused.field.key}" shows it by default` : "";
      errors.push({ path: "assetFiles", message: `must include ${name}: ${describe(refused.reference)} shows it${why}; add the file, or embed the image in the Lottie JSON` });
    } else {
      const { reference, field } = bound[0]!;
      warnings.push(
        `${name} is not among the asset files: ${describe(reference)} shows it, and the manifest's image field "${field!.key}" fills it from personalization data; a viewer whose data has no "${field!.key}" sees no image there.`,
      );
    }
  }
  return { errors, warnings };
}
