import type { Db } from "@/lib/db";
import type { PublicShare } from "@/lib/shares/public-share";
import { previewTemplate } from "@/lib/templates/preview";
import { getTemplateFiles } from "@/lib/templates/templates";
import { signFileUrl } from "./file-url";
import { bindingData } from "./page-manifest";

/**
 * What the landing page shows in the player's box until the player draws its first frame:
 * the template's poster, else a server-rendered frame with the share's data (the preview
 * renderer caches it per template and data, so only the first view pays for it). Null when
 * there is nothing to show; the box then stays empty — the page must render regardless.
 */
export async function findSharePoster(db: Db, share: PublicShare): Promise<string | null> {
  if (!share.template) return null;
  try {
    const poster = (await getTemplateFiles(db, share.template.id)).find((file) => file.role === "posterFile");
    if (poster) return signFileUrl(poster);
    return (await previewTemplate(db, share.projectId, share.template.id, bindingData(share.personalizationData))).url;
  } catch (error) {
    console.error(`No poster for share ${share.id}:`, error);
    return null;
  }
}
