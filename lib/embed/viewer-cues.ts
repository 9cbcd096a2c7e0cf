import type { Db } from "@/lib/db";
import type { PublicShare } from "@/lib/shares/public-share";
import { loadLottie } from "@/lib/templates/load-lottie";
import { getTemplateFiles } from "@/lib/templates/templates";
import { applyBindings } from "@/shared/templates/bindings";
import { viewerCues, type TimedCue } from "@/shared/templates/cues";
import type { Lottie } from "@/shared/templates/lottie";
import type { BindingManifest } from "@/shared/templates/manifest";

// One viewer's captions and descriptions on the server (the landing page's transcript, the
// WebVTT API, renders): the served template bound with their data in the share's locale, then
// the same cues.ts the player runs.

/** The cues of the template `share` serves, for `data` (already the viewer's data over the share's); [] without a Lottie file. */
export async function shareCues(db: Db, share: Pick<PublicShare, "template" | "locale">, data: Record<string, string>): Promise<TimedCue[]> {
  if (!share.template) return [];
  const lottieFile = (await getTemplateFiles(db, share.template.id)).find((file) => file.role === "templateJson");
  if (!lottieFile) return [];
  return templateCues(await loadLottie(lottieFile), share.template, data, share.locale);
}

/** The cues of one template's animation for `data` in `locale` (a Raster overlay's offset moves them). */
export function templateCues(
  lottie: Lottie,
  template: { kind: string; manifest: unknown; overlay: Record<string, unknown> | null },
  data: Record<string, string>,
  locale: string | null,
): TimedCue[] {
  const manifest = (template.manifest as BindingManifest | null) ?? null;
  const offset = template.kind === "Raster" && typeof template.overlay?.offsetSeconds === "number" ? template.overlay.offsetSeconds : 0;
  const { lottie: boundLottie } = applyBindings({ lottie, manifest, data, locale });
  return viewerCues({ boundLottie, manifest, data, locale, offsetSeconds: offset });
}
