import Ajv2020 from "ajv/dist/2020.js";
import { ValidationError, type FieldError } from "@/lib/errors";
import { readJsonText } from "@/lib/validation/json-text";
import { describeSchemaErrors, type ErrorWording } from "@/lib/validation/schema-errors";
import { bindingFieldsOf } from "@/shared/templates/bindings";
import { chaptersOf } from "@/shared/templates/chapters";
import {
  lottieLayerTypes,
  listImageAssets,
  listLayers,
  listSlots,
  listTextLayers,
  slotText,
  type Lottie,
} from "@/shared/templates/lottie";
import type { BindingManifest, ManifestField, ManifestTarget, TemplateField } from "@/shared/templates/manifest";
import manifestSchema from "./binding-manifest-v1.json";

// The binding manifest (manifestJson, version 1): JSON Schema first, then cross-checks against
// the template's Lottie file, and what the template API reads from it. The player does not need
// this module (ajv compiles the schema to code with new Function): its types are
// shared/templates/manifest.ts.

export type ManifestValidation = { ok: true; manifest: BindingManifest } | { ok: false; errors: FieldError[] };

/** manifestJson files are small; anything bigger than this is not a manifest. */
export const manifestJsonLimits = { maxChars: 1024 * 1024, maxDepth: 16 } as const;

const validateSchema = new Ajv2020({ allErrors: true }).compile<BindingManifest>(manifestSchema);

/** Schema errors, then (only for a schema-valid manifest) cross-checks against the animation. */
export function validateManifest(json: unknown, lottie: Lottie): ManifestValidation {
  if (!validateSchema(json)) return { ok: false, errors: describeSchemaErrors(validateSchema.errors ?? [], manifestWording) };
  const errors = crossCheck(json, lottie);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, manifest: json };
}

/**
 * For the upload route: parses manifestJson text and validates it, or throws a 422
 * ValidationError whose paths start with "manifestJson".
 */
export function parseManifestJson(text: string, lottie: Lottie): BindingManifest {
  const parsed = readJsonText(text, manifestJsonLimits);
  if (!parsed.ok) throw new ValidationError([{ path: "manifestJson", message: parsed.message }]);
  const result = validateManifest(parsed.value, lottie);
  if (!result.ok) {
    throw new ValidationError(result.errors.map((e) => ({ ...e, path: e.path ? `manifestJson.${e.path}` : "manifestJson" })));
  }
  return result.manifest;
}

/** The manifest schema's own wording; everything else reads as elsewhere in the API. */
const manifestWording: ErrorWording = (error, { path, at, params }) => {
  switch (error.keyword) {
    case "additionalProperties":
      return {
        path: at(String(params.additionalProperty)),
        message: /\.format$/.test(path) ? "is not an option of this format" : "is not a manifest field",
      };
    case "false schema":
      return { path, message: /^cues\.\d+\./.test(path) ? "is not allowed with chapter (a cue spans a chapter or a frame range)" : "is only allowed for text fields" };
    case "minProperties":
    case "maxProperties":
      return { path, message: 'must name exactly one of "layer", "asset" or "slot"' };
    case "pattern":
      return {
        path,
        message: /\.format\.currency$/.test(path)
          ? "must be an ISO 4217 currency code in capitals, e.g. EUR"
          : error.schemaPath.startsWith("#/$defs/key/")
          ? "must be letters, digits and underscores, not starting with a digit"
          : "must be letters, digits, '_', '.' and '-'",
      };
    default:
      return undefined;
  }
};

const targetLabel = (target: ManifestTarget) =>
  "layer" in target ? `layer:${target.layer}` : "asset" in target ? `asset:${target.asset}` : `slot:${target.slot}`;

function crossCheck(manifest: BindingManifest, lottie: Lottie): FieldError[] {
  const errors: FieldError[] = [];
  const layers = listLayers(lottie);
  const images = listImageAssets(lottie);
  const imageFiles = new Set(images.filter((image) => !image.embedded).map((image) => image.fileName));
  const slots = new Map(listSlots(lottie).map((slot) => [slot.id, slot.kind]));
  const keys = new Map<string, number>();
  const targets = new Map<string, number>();

  manifest.fields.forEach((field, i) => {
    const path = `fields.${i}`;
    const firstWithKey = keys.get(field.key);
    if (firstWithKey !== undefined) errors.push({ path: `${path}.key`, message: `duplicates fields.${firstWithKey}.key ("${field.key}")` });
    else keys.set(field.key, i);

    const targetError = checkTarget(field, lottie, layers, slots);
    const label = targetLabel(field.target);
    const firstWithTarget = targets.get(label);
    if (targetError) errors.push({ path: `${path}.target.${targetError.member}`, message: targetError.message });
    else if (firstWithTarget !== undefined) {
      errors.push({ path: `${path}.target`, message: `is already bound by fields.${firstWithTarget} ("${manifest.fields[firstWithTarget]?.key}")` });
    } else targets.set(label, i);

    if (field.default !== undefined) {
      if (field.type === "text" && field.maxLength !== undefined && [...field.default].length > field.maxLength) {
        errors.push({ path: `${path}.default`, message: `is longer than maxLength (${field.maxLength})` });
      }
      if (field.type === "image" && !imageFiles.has(field.default)) {
        errors.push({ path: `${path}.default`, message: `no image file named "${field.default}" in templateJson` });
      }
    }
  });

  const range = `[${lottie.ip}, ${lottie.op}]`;
  const chapterIds = new Map<string, number>();
  (manifest.chapters ?? []).forEach((chapter, i) => {
    const path = `chapters.${i}`;
    const first = chapterIds.get(chapter.id);
    if (first !== undefined) errors.push({ path: `${path}.id`, message: `duplicates chapters.${first}.id ("${chapter.id}")` });
    else chapterIds.set(chapter.id, i);
    if (chapter.startFrame < lottie.ip || chapter.startFrame > lottie.op) {
      errors.push({ path: `${path}.startFrame`, message: `must be within the animation's frames ${range}` });
    }
    if (chapter.endFrame < lottie.ip || chapter.endFrame > lottie.op) {
      errors.push({ path: `${path}.endFrame`, message: `must be within the animation's frames ${range}` });
    } else if (chapter.endFrame <= chapter.startFrame) {
      errors.push({ path: `${path}.endFrame`, message: `must be greater than startFrame (${chapter.startFrame})` });
    }
  });

  const layerNames = new Set(layers.map((ref) => ref.name));
  const ctaIds = new Map<string, number>();
  (manifest.ctas ?? []).forEach((cta, i) => {
    const first = ctaIds.get(cta.id);
    if (first !== undefined) errors.push({ path: `ctas.${i}.id`, message: `duplicates ctas.${first}.id ("${cta.id}")` });
    else ctaIds.set(cta.id, i);
    if (!layerNames.has(cta.layer)) errors.push({ path: `ctas.${i}.layer`, message: `no layer named "${cta.layer}" in templateJson` });
  });

  const fieldKeys = new Set(manifest.fields.map((field) => field.key));
  manifest.fields.forEach((field, i) => {
    const format = field.format;
    if (format?.type !== "currency") return;
    if ((format.currency === undefined) === (format.currencyField === undefined)) {
      errors.push({ path: `fields.${i}.format`, message: "must name exactly one of currency (an ISO 4217 code) or currencyField" });
    } else if (format.currencyField !== undefined && !fieldKeys.has(format.currencyField)) {
      errors.push({ path: `fields.${i}.format.currencyField`, message: `no field with key "${format.currencyField}"` });
    }
  });

  const chapterIdsNow = new Set(chaptersOf(manifest, lottie).map((chapter) => chapter.id));
  (manifest.cues ?? []).forEach((cue, i) => {
    const path = `cues.${i}`;
    if ("chapter" in cue) {
      if (!chapterIdsNow.has(cue.chapter)) errors.push({ path: `${path}.chapter`, message: `no chapter with id "${cue.chapter}"` });
      return;
    }
    if (cue.startFrame < lottie.ip || cue.startFrame > lottie.op) errors.push({ path: `${path}.startFrame`, message: `must be within the animation's frames ${range}` });
    if (cue.endFrame < lottie.ip || cue.endFrame > lottie.op) errors.push({ path: `${path}.endFrame`, message: `must be within the animation's frames ${range}` });
    else if (cue.endFrame <= cue.startFrame) errors.push({ path: `${path}.endFrame`, message: `must be greater than startFrame (${cue.startFrame})` });
  });

  if (manifest.posterFrame !== undefined && (manifest.posterFrame < lottie.ip || manifest.posterFrame >= lottie.op)) {
    errors.push({ path: "posterFrame", message: `must be a frame of the animation, from ${lottie.ip} up to (not including) ${lottie.op}` });
  }
  return errors;
}

function checkTarget(
  field: ManifestField,
  lottie: Lottie,
  layers: ReturnType<typeof listLayers>,
  slots: Map<string, string>,
): { member: string; message: string } | null {
  const { target } = field;
  if ("layer" in target) {
    if (field.type === "image") {
      return { member: "layer", message: 'an image field targets an image asset ({"asset": id}) or an image slot, not a layer' };
    }
    const named = layers.filter((ref) => ref.name === target.layer);
    if (named.some((ref) => ref.layer.ty === 5)) return null;
    const other = named[0];
    if (other) {
      const kind = lottieLayerTypes[other.layer.ty ?? -1] ?? "non-text";
      return { member: "layer", message: `layer "${target.layer}" is a ${kind} layer, not a text layer` };
    }
    return { member: "layer", message: `no text layer named "${target.layer}" in templateJson` };
  }
  if ("asset" in target) {
    if (field.type === "text") {
      return { member: "asset", message: 'a text field targets a text layer ({"layer": name}) or a text slot, not an asset' };
    }
    if (listImageAssets(lottie).some((image) => image.id === target.asset)) return null;
    const other = (lottie.assets ?? []).find((asset) => asset?.id === target.asset);
    if (other) return { member: "asset", message: `asset "${target.asset}" is not an image (it is ${Array.isArray(other.layers) ? "a precomposition" : "another kind of asset"})` };
    return { member: "asset", message: `no image asset with id "${target.asset}" in templateJson` };
  }
  const kind = slots.get(target.slot);
  if (kind === undefined) return { member: "slot", message: `no slot "${target.slot}" in templateJson` };
  if (kind !== field.type) {
    return { member: "slot", message: `slot "${target.slot}" does not hold ${field.type === "text" ? "text" : "an image"}` };
  }
  return null;
}

/** The template's field list, as the template API and the console show it. */
export function fieldsOf(manifest: BindingManifest | null, lottie: Lottie): TemplateField[] {
  return bindingFieldsOf(manifest, lottie).map((field) => ({
    key: field.key,
    type: field.type,
    default: field.default ?? (field.type === "text" ? templateText(field.target, lottie) : null),
    maxLength: field.type === "text" ? (field.maxLength ?? null) : null,
    ...(field.strict === true ? { strict: true as const } : {}),
  }));
}

function templateText(target: ManifestTarget, lottie: Lottie): string | null {
  if ("layer" in target) return listTextLayers(lottie).find((layer) => layer.name === target.layer)?.text ?? null;
  if ("slot" in target) return slotText(lottie.slots?.[target.slot]);
  return null;
}

export { chaptersOf, type Chapter } from "@/shared/templates/chapters";
