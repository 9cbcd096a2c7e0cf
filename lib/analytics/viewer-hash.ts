import { createHash } from "node:crypto";

/**
 * A viewer's pseudonymous id in a project: lowercase hex SHA-256 of `${projectId}:${viewerId}`,
 * what the SDK puts on events as viewer_hash (browser/sdk/enrichment.ts), a campaign recipient's
 * (by their recipient id) and an embed session's minted for a viewer id.
 */
export function viewerHashOf(projectId: string, viewerId: string): string {
  return createHash("sha256").update(`${projectId}:${viewerId}`).digest("hex");
}
