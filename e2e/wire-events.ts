import { randomUUID } from "node:crypto";

// The analytics wire events the built-server specs send, for the project a page manifest names.

export type Manifest = {
  organizationId: string;
  projectId: string;
  shareId: string;
  template: { id: string; version: string } | null;
  ingest: { url: string; token: string };
};

/** A valid wire event of the manifest's project (a CTA click: the analytics summary counts them one by one). */
/**
 * A desktop Chrome User-Agent, for batches a test sends itself: the SDK sends from a browser,
 * and enrichment counts a script's User-Agent (Playwright's, Node's) as a bot, left out of
 * every report (docs/adr/0084-bots.md).
 */
export const browserUserAgent = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

export function ctaClick(manifest: Manifest) {
  // Its ingest token would name no template, and ingest keeps no event of a template the project lacks.
  if (!manifest.template) throw new Error(`The manifest of share ${manifest.shareId} serves no template: its events would not be stored`);
  return {
    event_id: randomUUID(),
    event_type: "cta.clicked",
    occurred_at: new Date().toISOString(),
    playback_id: 1,
    payload: { cta_id: "book", cta_name: "Book a demo", position_ms: 1_000 },
    organization_id: manifest.organizationId,
    project_id: manifest.projectId,
    template_id: manifest.template.id,
    template_version: manifest.template.version,
    session_id: randomUUID(),
    consent: { status: "granted" },
  };
}
