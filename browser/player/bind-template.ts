import type { ManifestFileUrls } from "@/shared/embed-protocol";
import { applyBindings, type BindingData } from "@/shared/templates/bindings";
import type { Lottie, LottieAsset } from "@/shared/templates/lottie";
import type { BindingManifest } from "@/shared/templates/manifest";

// The animation this viewer sees: the template with the data bound and its external files
// pointed at the URLs the page manifest serves them from. Glyph outlines (`chars`) are left out,
// as for the server preview (lib/skottie/skottie-animations.ts): they cover only the characters
// the designer typed, so personalized text would lose letters; lottie-web then sets the text in
// the font the text layer names, or the browser's fallback for it.

export type BoundTemplate = { animationData: Lottie; warnings: string[] };

/** `locale`: the share's, which formats the fields that declare a format. */
export function bindTemplate(
  template: Lottie,
  manifest: BindingManifest | null,
  data: BindingData,
  assetUrls: ManifestFileUrls["assets"],
  locale: string | null = null,
): BoundTemplate {
  const { lottie, warnings } = applyBindings({ lottie: template, manifest, data, assets: Object.keys(assetUrls), locale });
  dropDataFiles(lottie);
  delete lottie.chars;
  resolveAssetUrls(lottie, assetUrls);
  return { animationData: lottie, warnings };
}

/**
 * Data files (`t: 3` assets, JSON an expression reads with footage()) are useless without the
 * expression engine, and lottie-web loads them by XHR and never finishes loading the animation
 * when one is missing (it reads responseText of a JSON response): they are left out.
 */
export function dropDataFiles(lottie: Lottie): void {
  if (lottie.assets) lottie.assets = lottie.assets.filter((asset) => asset.t !== 3);
}

/**
 * Rewrites every non-embedded image reference (`u` folder + `p` name, in assets and image slots)
 * to its absolute URL, found by file name. lottie-web, given animationData and no path,
 * loads `u + p`, so `u` is emptied. Names the manifest does not list stay as they are: lottie-web
 * then fails to load them and renders without the image.
 */
export function resolveAssetUrls(lottie: Lottie, assetUrls: ManifestFileUrls["assets"]): void {
  const files: LottieAsset[] = (lottie.assets ?? []).filter((asset) => !Array.isArray(asset.layers));
  for (const slot of Object.values(lottie.slots ?? {})) {
    const value = slot?.p;
    if (typeof value === "object" && value !== null && typeof (value as LottieAsset).p === "string") files.push(value as LottieAsset);
  }
  for (const file of files) {
    if (typeof file.p !== "string" || file.e === 1 || file.p.startsWith("data:")) continue;
    const url = urlOf(file.p, assetUrls);
    if (url === undefined) continue;
    file.u = "";
    file.p = url;
  }
}

function urlOf(fileName: string, assetUrls: ManifestFileUrls["assets"]): string | undefined {
  if (Object.prototype.hasOwnProperty.call(assetUrls, fileName)) return assetUrls[fileName];
  // Exports sometimes put the folder in `p` ("images/img_0.png"); the manifest lists bare names.
  const baseName = fileName.slice(fileName.lastIndexOf("/") + 1);
  return Object.prototype.hasOwnProperty.call(assetUrls, baseName) ? assetUrls[baseName] : undefined;
}
