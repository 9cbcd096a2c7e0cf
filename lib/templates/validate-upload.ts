import { isAppError, ValidationError, zodFieldErrors, type FieldError } from "@/lib/api/errors";
import { lottieInfo, parseJsonText, parseLottieJson, type Lottie } from "./lottie";
import { fieldsOf, parseManifestJson, type BindingManifest } from "./manifest";
import type { ReceivedFile, ReceivedUpload } from "./receive-upload";
import { checkReferencedAssets } from "./referenced-assets";
import { overlayConfigSchema, singleFileRoles, uploadFieldsSchema, type UploadFields } from "./schema";

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

  let lottie: Lottie | null = null;
  const templateJson = one("templateJson");
  if (templateJson) {
    try {
      lottie = parseLottieJson(templateJson.text!);
    } catch (error) {
      errors.push(...errorsOf(error, "templateJson"));
    }
  }

  let manifest: BindingManifest | null = null;
  const manifestJson = one("manifestJson");
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

/** The field errors a parser threw, or one error on the file's field for anything else. */
function errorsOf(error: unknown, path: string): FieldError[] {
  if (isAppError(error, "validation_failed") && error.errors?.length) return error.errors.map((e) => ({ ...e, path: e.path || path }));
  return [{ path, message: (error as Error).message }];
}
