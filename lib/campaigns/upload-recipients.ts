import { createHash } from "node:crypto";
import { UnsupportedMediaTypeError, ValidationError } from "@/lib/errors";
import { readJsonBody } from "@/lib/api/request";
import { projectVerb } from "@/lib/services/verbs";
import { getCampaignRowOrThrow } from "./campaigns";
import { readCsvRows, spoolUpload, type SpooledFile } from "./csv-source";
import { importRecipients, type ImportOutcome, type ImportRow, type ImportSource } from "./import-recipients";
import { previewImport, type ImportDryRun } from "./preview-import";
import { recipientBatchBody, type ImportRecipientsQuery } from "./contract";

// POST …/campaigns/{campaignId}/recipients: a CSV body (text/csv) or a JSON batch, both through
// the same import (import-recipients.ts), or its dry run (preview-import.ts).

const csvTypes = /^(text\/csv|application\/csv)\b/i;
const jsonTypes = /^application\/(.+\+)?json\b/i;

type UploadInput = ImportRecipientsQuery & { campaignId: string; req: Request };

/**
 * Imports the request's recipients into the campaign, or (dryRun) answers what the import would
 * do and writes nothing. The import writes batch by batch, each batch its own transaction
 * (import-recipients.ts), and records `campaign.imported` when it completes.
 */
export const uploadRecipients = projectVerb(
  "campaign.write",
  async (ctx, { campaignId, req, dryRun, mode, fieldMap }: UploadInput): Promise<ImportOutcome | ImportDryRun> => {
    const campaign = await getCampaignRowOrThrow(ctx, campaignId);
    const run = (source: ImportSource) => (dryRun ? previewImport(ctx, campaign, source, { mode, fieldMap }) : importRecipients(ctx, campaign, source, { mode, fieldMap }));
    const contentType = req.headers.get("content-type") ?? "";
    if (jsonTypes.test(contentType)) {
      const body = await readJsonBody(req, recipientBatchBody);
      return run(jsonSource(body.recipients));
    }
    if (!csvTypes.test(contentType)) {
      throw new UnsupportedMediaTypeError("Send recipients as CSV (Content-Type: text/csv) or as JSON (application/json: {recipients: [...]}).");
    }
    const file = await spoolUpload(req.body as unknown as AsyncIterable<Uint8Array> | null, req.headers.get("content-length"));
    try {
      return await run(csvSource(file));
    } finally {
      await file.dispose();
    }
  },
);

/** A CSV already on disk (spoolUpload) as an import source. */
export function csvSource(file: Pick<SpooledFile, "path" | "sha256" | "bytes" | "lines">): ImportSource {
  return {
    kind: "csv",
    sha256: file.sha256,
    bytes: file.bytes,
    rowsEstimated: Math.max(file.lines - 1, 0),
    open: async () => {
      const records = readCsvRows(file.path)[Symbol.asyncIterator]();
      const first = await records.next();
      if (first.done) throw new ValidationError([{ path: "line 1", message: "the file is empty: its first line names the columns" }]);
      const rows: AsyncIterable<ImportRow> = { [Symbol.asyncIterator]: () => records };
      return { header: first.value.values, headerLine: first.value.line, rows };
    },
  };
}

type JsonRecipient = Record<string, string | number | boolean | null>;

/** A JSON batch as an import source: its columns are every key any recipient has; a recipient's line is its position. */
export function jsonSource(recipients: JsonRecipient[]): ImportSource {
  const canonical = JSON.stringify(recipients);
  const header = [...new Set(recipients.flatMap((recipient) => Object.keys(recipient)))];
  return {
    kind: "json",
    sha256: createHash("sha256").update(canonical).digest("hex"),
    bytes: Buffer.byteLength(canonical),
    rowsEstimated: recipients.length,
    open: async () => ({
      header,
      headerLine: null,
      rows: recipients.map((recipient, i) => ({
        line: i + 1,
        values: header.map((key) => {
          const value = recipient[key];
          return value === undefined || value === null ? "" : String(value);
        }),
      })),
    }),
  };
}
