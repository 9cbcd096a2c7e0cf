import { listOf } from "@/lib/api/contract";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { shareSchema } from "@/lib/shares/contract";
import { listShares } from "@/lib/shares/shares";

export const GET = defineRoute(
  {
    path: "/api/Projects/{projectId}/public-video-shares",
    operationId: "listShares",
    tag: "Shares",
    summary: "List the project's public video shares (at most one per channel)",
    access: { project: "share.read" },
    responses: { 200: { description: "The shares", schema: listOf(shareSchema) } },
  },
  async (ctx) => json({ items: await listShares(ctx) }),
);
