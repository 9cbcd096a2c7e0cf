import type { PageManifest } from "@/shared/embed-protocol";

// The page manifest the server inlines as <script id="reelbind-manifest" type="application/json">.

export const manifestElementId = "reelbind-manifest";

/** null when the page carries no readable manifest (the player then only says it is unavailable). */
export function readPageManifest(document: Document): PageManifest | null {
  const text = document.getElementById(manifestElementId)?.textContent;
  if (!text) return null;
  try {
    const manifest = JSON.parse(text) as PageManifest;
    return typeof manifest === "object" && manifest !== null && manifest.version === 1 ? manifest : null;
  } catch {
    return null;
  }
}
