import { replayedHeader } from "@/lib/api/contract";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { listRecipients } from "@/lib/campaigns/recipients";
import { campaignImportSchema, importOrDryRunSchema, importRecipientsQuery, listRecipientsQuery, recipientBatchBody, recipientPageSchema } from "@/lib/campaigns/contract";
import { uploadRecipients } from "@/lib/campaigns/upload-recipients";

export const GET = defineRoute(
  {
    path: "/api/Projects/{projectId}/campaigns/{campaignId}/recipients",
    operationId: "listRecipients",
    tag: "Campaigns",
    summary: "The campaign's recipients in the order they were first imported (file order, later imports after), each with its URL and reach (opened, furthest percent, completed, clicked); paginated by cursor",
    access: { project: "campaign.read" },
    query: listRecipientsQuery,
    responses: { 200: { description: "A page of recipients", schema: recipientPageSchema } },
  },
  async (ctx) => json(await listRecipients(ctx, { campaignId: ctx.params.campaignId, ...ctx.query })),
);

export const POST = defineRoute(
  {
    path: "/api/Projects/{projectId}/campaigns/{campaignId}/recipients",
    operationId: "importRecipients",
    tag: "Campaigns",
    summary:
      "Import recipients: a CSV body (text/csv, UTF-8, `,` or `;`, a header row, up to 1,000,000 rows and 256 MB) or a JSON batch (application/json, up to 10,000). Columns fill fields by the fieldMap, else by name; a recipient the campaign has (same id, else same email) is updated, its URL kept; mode=replace also removes those the file does not name; dryRun=true answers what would happen and writes nothing. The same content, mode and mapping again changes nothing; an interrupted import resumes",
    access: { project: "campaign.write" },
    query: importRecipientsQuery,
    ownBody: { json: recipientBatchBody, csv: true },
    responses: {
      200: {
        description:
          "A dry run's report (dryRun: true); or the import of the same content, mode and mapping, made before (Idempotent-Replayed: true), or resumed after an interruption",
        schema: importOrDryRunSchema,
        headers: { "Idempotent-Replayed": replayedHeader },
      },
      201: { description: "The import, completed; refused rows are counted and the first problems listed", schema: campaignImportSchema },
    },
    errors: {
      409: "The channel serves no template, or the same content is being imported right now",
      413: "The JSON body is larger than 1 MB, or the CSV larger than 256 MB",
    },
  },
  async (ctx) => {
    const outcome = await uploadRecipients(ctx, { campaignId: ctx.params.campaignId, req: ctx.req, ...ctx.query });
    if ("dryRun" in outcome) return json(outcome, 200);
    return json(outcome.import, outcome.created ? 201 : 200, outcome.replayed ? { "Idempotent-Replayed": "true" } : undefined);
  },
);
