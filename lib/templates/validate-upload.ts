import { isAppError, ValidationError, zodFieldErrors, type FieldError } from "@/lib/errors";
import { lottieInfo, type Lottie } from "@/shared/templates/lottie";
import type { BindingManifest } from "@/shared/templates/manifest";
import { parseJsonText, parseLottieJson } from "./lottie";
import { fieldsOf, parseManifestJson } from "./manifest";
import type { ReceivedFile, ReceivedUpload } from "./receive-upload";
import { checkReferencedAssets } from "./referenced-assets";
import { overlayConfigSchema, singleFileRoles, uploadFieldsSchema, type UploadFields } from "./contract";

export type ValidUpload = {
  fields: UploadFields;
  lottie: Lottie | null;
  manifest: BindingManifest | null;
  overlay: Record<string, unknown> | null;
  templateFields: ReturnType<typeof fieldsOf>;
  info: ReturnType<typeof lottieInfo> | null;
  /** What the upload lacks without being refused for it (an image that personalization data fills). */
  warnings: string[];
};

const imageTypes = new Set(["image/png", "image/jpeg", "image/webp"]);

/**
 * Every rule of an upload (spec §2.3, docs/design.md, Management API) checked at once, so the 422 lists all
 * problems: the form fields, which files each kind needs or refuses, file types by their
 * bytes, the Lottie shape, and the binding manifest against the Lottie file.
 */
export function validateUpload({ fields, files }: ReceivedUpload): ValidUpload {
  const errors: FieldError[] = [];
  const form = uploadFieldsSchema.safeParse(fields);
  if (!form.success) errors.push(...zodFieldErrors(form.error));

  const byRole = (role: string) => files.filter((file) => file.role === role);
  const one = (role: string): ReceivedFile | undefined => byRole(role)[0];
  // The kind's file rules are checked even when another field is wrong, so the 422 lists everything.
  const kind = form.success ? form.data.kind : (uploadFieldsSchema.shape.kind.safeParse(fields.kind).data ?? null);
  errors.push(...fileSetErrors(kind, files));

  const video = one("videoFile");
  if (video && video.type?.contentType !== "video/mp4") {
    errors.push({ path: "videoFile", message: "must be an MP4 video (checked by its first bytes)" });
  }
  const poster = one("posterFile");
  if (poster && !imageTypes.has(poster.type?.contentType ?? "")) {
    errors.push({ path: "posterFile", message: "must be a PNG, JPEG or WebP image (checked by its first bytes)" });
  }
  byRole("assetFiles").forEach((asset, index) => {
    if (asset.type?.category !== "image" && asset.type?.category !== "font") {
      errors.push({ path: `assetFiles.${index}`, message: `${asset.name} must be an image (PNG, JPEG, GIF, WebP) or a font (TTF, OTF, WOFF, WOFF2)` });
    }
  });

  // A file in the wrong field says so first, in the user's terms, with the parser's detail after it.
  const mistakes: FileMistake[] = [];
  let lottie: Lottie | null = null;
  const templateJson = one("templateJson");
  if (templateJson) {
    try {
      lottie = parseLottieJson(templateJson.text!);
    } catch (error) {
      const mistake = lottieFileMistake(templateJson);
      if (mistake) mistakes.push(mistake);
      errors.push(...errorsOf(error, "templateJson"));
    }
  }

  let manifest: BindingManifest | null = null;
  const manifestJson = one("manifestJson");
  const manifestMistake = manifestJson ? manifestFileMistake(manifestJson) : null;
  if (manifestMistake) mistakes.push(manifestMistake);
  if (manifestJson && lottie) {
    try {
      manifest = parseManifestJson(manifestJson.text!, lottie);
    } catch (error) {
      errors.push(...errorsOf(error, "manifestJson"));
    }
  }

  // The images the animation loads by name, once its manifest (which may exempt some) is known good.
  let warnings: string[] = [];
  if (lottie && (manifest || !manifestJson)) {
    const assets = checkReferencedAssets(lottie, manifest, byRole("assetFiles").map((asset) => asset.name));
    errors.push(...assets.errors);
    warnings = assets.warnings;
  }

  let overlay: Record<string, unknown> | null = null;
  const overlayJson = one("overlayJson");
  if (overlayJson) {
    try {
      const result = overlayConfigSchema.safeParse(parseJsonText(overlayJson.text!));
      if (result.success) overlay = result.data;
      else errors.push(...result.error.issues.map((issue) => ({ path: ["overlayJson", ...issue.path.map(String)].join("."), message: issue.message })));
    } catch (error) {
      errors.push(...errorsOf(error, "overlayJson"));
    }
  }

  if (mistakes.length > 0) {
    const swapped = templateJson && manifestJson && mistakes.some((m) => m.kind === "manifest_as_lottie") && mistakes.some((m) => m.kind === "lottie_as_manifest");
    const detail = swapped
      ? `${templateJson.name} and ${manifestJson.name} are swapped: give ${manifestJson.name} (the Lottie animation) as the Lottie file (templateJson) and ${templateJson.name} (the binding manifest) as the manifest (manifestJson).`
      : mistakes.map((mistake) => mistake.sentence).join(" ");
    throw new ValidationError([...mistakes.map(({ path, message }) => ({ path, message })), ...errors], detail);
  }
  if (errors.length > 0 || !form.success) throw new ValidationError(errors);
  return {
    fields: form.data,
    lottie,
    manifest,
    overlay,
    templateFields: lottie ? fieldsOf(manifest, lottie) : [],
    info: lottie ? lottieInfo(lottie) : null,
    warnings,
  };
}

/**
 * The rules on which files a template has, checkable from their roles and names alone (an
 * upload session checks them when the files are declared, before any byte is sent): single
 * roles at most once, the files the kind needs or refuses, asset names unique.
 */
export function fileSetErrors(kind: UploadFields["kind"] | null, files: { role: string; name: string }[]): FieldError[] {
  const errors: FieldError[] = [];
  const count = (role: string) => files.filter((file) => file.role === role).length;
  for (const role of singleFileRoles) {
    if (count(role) > 1) errors.push({ path: role, message: "appears more than once" });
  }
  if (kind === "LottieStandalone") {
    if (!count("templateJson")) errors.push({ path: "templateJson", message: "is required for a LottieStandalone template" });
    if (count("videoFile")) errors.push({ path: "videoFile", message: "is only for Raster templates" });
    if (count("overlayJson")) errors.push({ path: "overlayJson", message: "is only for Raster templates" });
  }
  if (kind === "Raster" && !count("videoFile")) errors.push({ path: "videoFile", message: "is required for a Raster template" });
  if (count("manifestJson") && !count("templateJson")) errors.push({ path: "manifestJson", message: "needs a templateJson to bind to" });
  const assetNames = new Set<string>();
  files
    .filter((file) => file.role === "assetFiles")
    .forEach((asset, index) => {
      if (assetNames.has(asset.name)) errors.push({ path: `assetFiles.${index}`, message: `${asset.name} appears more than once` });
      assetNames.add(asset.name);
    });
  return errors;
}

/**
 * A file given in the wrong field: the field error (worded to follow the field's label, "Lottie
 * JSON is…") and the problem's first line, a sentence saying what to do.
 */
type FileMistake = { kind: "manifest_as_lottie" | "not_lottie" | "lottie_as_manifest"; path: string; message: string; sentence: string };

const exportAdvice = "export it from After Effects with Bodymovin or from LottieFiles";

/** What a JSON file looks like: a Lottie animation (layers and a frame range), a binding manifest (version and fields), or neither. */
function jsonKind(text: string): "lottie" | "manifest" | "other" | "not_json" {
  let value: unknown;
  try {
    value = parseJsonText(text);
  } catch {
    return "not_json";
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "other";
  const record = value as Record<string, unknown>;
  const lottieMembers = ["v", "fr", "ip", "op", "w", "h", "layers"].filter((member) => member in record).length;
  if ((Array.isArray(record.layers) && lottieMembers >= 2) || lottieMembers >= 3) return "lottie";
  if (Array.isArray(record.fields) && "version" in record) return "manifest";
  return "other";
}

/** A templateJson that Lottie parsing refused: a binding manifest (swapped files) or JSON that is no animation at all. */
function lottieFileMistake(file: ReceivedFile): FileMistake | null {
  const kind = jsonKind(file.text!);
  if (kind === "manifest") {
    return {
      kind: "manifest_as_lottie",
      path: "templateJson",
      message: `(${file.name}) is a binding manifest, not a Lottie animation: the files look swapped; give it as the manifest and the animation here`,
      sentence: `${file.name}, given as the Lottie file (templateJson), is a binding manifest, not a Lottie animation: the files look swapped. Give the animation (the data.json that Bodymovin or LottieFiles exports) as templateJson and ${file.name} as the manifest (manifestJson).`,
    };
  }
  if (kind === "other") {
    return {
      kind: "not_lottie",
      path: "templateJson",
      message: `(${file.name}) is not a Lottie animation: ${exportAdvice}`,
      sentence: `${file.name} is not a Lottie animation: ${exportAdvice} (a .json animation file), and give it as the Lottie file (templateJson).`,
    };
  }
  return null;
}

/** A manifestJson that is a Lottie animation (swapped files). */
function manifestFileMistake(file: ReceivedFile): FileMistake | null {
  if (jsonKind(file.text!) !== "lottie") return null;
  return {
    kind: "lottie_as_manifest",
    path: "manifestJson",
    message: `(${file.name}) is a Lottie animation, not a binding manifest: give it as the Lottie file and the manifest here`,
    sentence: `${file.name}, given as the binding manifest (manifestJson), is a Lottie animation: give it as the Lottie file (templateJson), and the manifest (manifest.json, {"version": 1, "fields": […]}) as manifestJson.`,
  };
}

/** The field errors a parser threw, or one error on the file's field for anything else. */
function errorsOf(error: unknown, path: string): FieldError[] {
  if (isAppError(error, "validation_failed") && error.errors?.length) return error.errors.map((e) => ({ ...e, path: e.path || path }));
  return [{ path, message: (error as Error).message }];
}
