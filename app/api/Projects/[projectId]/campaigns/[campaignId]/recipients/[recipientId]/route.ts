import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { editedRecipientSchema, recipientEditBody } from "@/lib/campaigns/contract";
import { removeRecipient, updateRecipient } from "@/lib/campaigns/recipient-edits";

// PATCH …/campaigns/{campaignId}/recipients/{recipientId} – change one recipient's email or data (its URL stays)
export const PATCH = defineRoute(
  {
    path: "/api/Projects/{projectId}/campaigns/{campaignId}/recipients/{recipientId}",
    operationId: "updateRecipient",
    tag: "Campaigns",
    summary:
      "Change one recipient's email or data (the fields named; null or empty removes a value), checked as an import row is; its id, token and URL stay. A recipient known by its email is known by the new one",
    access: { project: "campaign.write" },
    body: recipientEditBody,
    responses: { 200: { description: "The recipient, with the warnings of what the template adapts", schema: editedRecipientSchema } },
    errors: {
      409: "The channel serves no template (data cannot be checked), or another recipient of the campaign has the new email",
      422: "Validation failed: a key that is no field of the template, a value the template refuses, a required field emptied; errors names each as data.<key>",
    },
  },
  async (ctx) => json(await updateRecipient(ctx, { campaignId: ctx.params.campaignId, recipientId: ctx.params.recipientId, edit: ctx.body })),
);

// DELETE …/campaigns/{campaignId}/recipients/{recipientId} – remove one recipient; its URL answers 404 from then on
export const DELETE = defineRoute(
  {
    path: "/api/Projects/{projectId}/campaigns/{campaignId}/recipients/{recipientId}",
    operationId: "removeRecipient",
    tag: "Campaigns",
    summary: "Remove one recipient, with its thumbnails; its personal URL answers 404 from then on (an import naming it again adds it anew, with a new URL)",
    access: { project: "campaign.write" },
    responses: { 204: { description: "Removed" } },
  },
  async (ctx) => {
    await removeRecipient(ctx, { campaignId: ctx.params.campaignId, recipientId: ctx.params.recipientId });
    return new Response(null, { status: 204 });
  },
);
