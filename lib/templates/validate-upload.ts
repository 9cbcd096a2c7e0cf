import { isAppError, ValidationError, zodFieldErrors, type FieldError } from "@/lib/api/errors";
import { lottieInfo, parseJsonText, parseLottieJson, type Lottie } from "./lottie";
import { fieldsOf, parseManifestJson, type BindingManifest } from "./manifest";
import type { ReceivedFile, ReceivedUpload } from "./receive-upload";
import { overlayConfigSchema, singleFileRoles, uploadFieldsSchema, type UploadFields } from "./schema";

export type ValidUpload = {
  fields: UploadFields;
  lottie: Lottie | null;
  manifest: BindingManifest | null;
  overlay: Record<string, unknown> | null;
  templateFields: ReturnType<typeof fieldsOf>;
  info: ReturnType<typeof lottieInfo> | null;
};

const imageTypes = new Set(["image/png", "image/jpeg", "image/webp"]);

/**
 * Every rule of an upload (spec §2.3, DESIGN.md §6) checked at once, so the 422 lists all
 * problems: the form fields, which files each kind needs or refuses, file types by their
 * bytes, the Lottie shape, and the binding manifest against the Lottie file.
 */
export function validateUpload({ fields, files }: ReceivedUpload): ValidUpload {
  const errors: FieldError[] = [];
  const form = uploadFieldsSchema.safeParse(fields);
  if (!form.success) errors.push(...zodFieldErrors(form.error));

  const byRole = (role: string) => files.filter((file) => file.role === role);
  for (const role of singleFileRoles) {
    if (byRole(role).length > 1) errors.push({ path: role, message: "appears more than once" });
  }
  const one = (role: string): ReceivedFile | undefined => byRole(role)[0];
  // The kind's file rules are checked even when another field is wrong, so the 422 lists everything.
  const kind = form.success ? form.data.kind : (uploadFieldsSchema.shape.kind.safeParse(fields.kind).data ?? null);

  if (kind === "LottieStandalone") {
    if (!one("templateJson")) errors.push({ path: "templateJson", message: "is required for a LottieStandalone template" });
    if (one("videoFile")) errors.push({ path: "videoFile", message: "is only for Raster templates" });
    if (one("overlayJson")) errors.push({ path: "overlayJson", message: "is only for Raster templates" });
  }
  if (kind === "Raster" && !one("videoFile")) errors.push({ path: "videoFile", message: "is required for a Raster template" });

  const video = one("videoFile");
  if (video && video.type?.contentType !== "video/mp4") {
    errors.push({ path: "videoFile", message: "must be an MP4 video (checked by its first bytes)" });
  }
  const poster = one("posterFile");
  if (poster && !imageTypes.has(poster.type?.contentType ?? "")) {
    errors.push({ path: "posterFile", message: "must be a PNG, JPEG or WebP image (checked by its first bytes)" });
  }
  const assetNames = new Set<string>();
  byRole("assetFiles").forEach((asset, index) => {
    if (asset.type?.category !== "image" && asset.type?.category !== "font") {
      errors.push({ path: `assetFiles.${index}`, message: `${asset.name} must be an image (PNG, JPEG, GIF, WebP) or a font (TTF, OTF, WOFF, WOFF2)` });
    }
    if (assetNames.has(asset.name)) errors.push({ path: `assetFiles.${index}`, message: `${asset.name} appears more than once` });
    assetNames.add(asset.name);
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
  if (manifestJson && !templateJson) errors.push({ path: "manifestJson", message: "needs a templateJson to bind to" });
  if (manifestJson && lottie) {
    try {
      manifest = parseManifestJson(manifestJson.text!, lottie);
    } catch (error) {
      errors.push(...errorsOf(error, "manifestJson"));
    }
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
  };
}

/** The field errors a parser threw, or one error on the file's field for anything else. */
function errorsOf(error: unknown, path: string): FieldError[] {
  if (isAppError(error, "validation_failed") && error.errors?.length) return error.errors.map((e) => ({ ...e, path: e.path || path }));
  return [{ path, message: (error as Error).message }];
}
