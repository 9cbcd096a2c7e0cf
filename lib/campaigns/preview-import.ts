import { hash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { z } from "zod";
import { ConflictError, ValidationError } from "@/lib/errors";
import type { Db } from "@/lib/db";
import type { Permitted } from "@/lib/services/verbs";
import { selectRows } from "@/lib/analytics/select-rows";
import { servedCampaignFields, type CampaignRow } from "./campaigns";
import { effectiveFieldMap, importBatchRows, maxImportRows, maxStoredProblems, textArrayLiteral, type ImportSource } from "./import-recipients";
import { checkRow, planColumns, type AcceptedRow, type ColumnPlan } from "./row-rules";
import type { ImportMode, ImportProblem, importDryRunSchema } from "./contract";

// The dry run of an import (POST …/recipients?dryRun=true): the whole body read and checked as
// the import would, each accepted row looked up among the campaign's recipients, and nothing
// written. The console shows it before the marketer imports (docs/adr/0146).

export type ImportDryRun = z.infer<typeof importDryRunSchema>;

/** Rows the dry run shows as they would be stored. */
export const dryRunSampleRows = 10;

export async function previewImport(
  ctx: Permitted<"campaign.write">,
  campaign: CampaignRow,
  source: ImportSource,
  { mode, fieldMap }: { mode: ImportMode; fieldMap?: Record<string, string> },
): Promise<ImportDryRun> {
  const served = await servedCampaignFields(ctx, campaign);
  if (!served) throw new ConflictError(`The ${campaign.channel} channel serves no template yet: upload one so recipients have fields to fill.`, "no_template");
  const { header, headerLine, rows } = await source.open();
  const plan = planColumns(header, served.fields, effectiveFieldMap(campaign, fieldMap), headerLine, served.imageFiles);
  const problems: ImportProblem[] = [];
  const keep = (found: ImportProblem[]) => problems.push(...found.slice(0, maxStoredProblems - problems.length));
  keep(plan.warnings);
  const seen = new KeyFingerprints();
  const sample: ImportDryRun["sample"] = [];
  const counts = { rows: 0, refused: 0, duplicates: 0, added: 0, updated: 0, unchanged: 0 };
  let batch: AcceptedRow[] = [];
  const compareBatch = async () => {
    const found = await compareWithCampaign(ctx.db, campaign, plan, batch);
    counts.added += batch.length - found.existing;
    counts.updated += found.changed;
    counts.unchanged += found.existing - found.changed;
    batch = [];
  };
  for await (const row of rows) {
    counts.rows++;
    if (counts.rows > maxImportRows) {
      throw new ValidationError([{ path: `line ${row.line ?? counts.rows}`, message: `the file has more than ${maxImportRows.toLocaleString("en-US")} rows` }]);
    }
    const verdict = checkRow(row.values, plan, row.line);
    if (!verdict.ok) {
      counts.refused++;
      keep(verdict.problems);
      continue;
    }
    keep(verdict.warnings);
    if (!seen.add(verdict.row.externalId)) {
      counts.duplicates++;
      continue;
    }
    if (sample.length < dryRunSampleRows) sample.push({ line: row.line, ...verdict.row });
    batch.push(verdict.row);
    if (batch.length >= importBatchRows) await compareBatch();
  }
  await compareBatch();
  return {
    dryRun: true,
    mode,
    columns: plan.columns,
    fields: served.fields.map(({ key, required, maxLength }) => ({ key, required, maxLength })),
    sample,
    rows: counts.rows,
    wouldAdd: counts.added,
    wouldUpdate: counts.updated,
    wouldLeaveUnchanged: counts.unchanged,
    wouldRemove: mode === "replace" ? Math.max(campaign.recipientCount - counts.updated - counts.unchanged, 0) : 0,
    wouldRefuse: counts.refused,
    duplicates: counts.duplicates,
    problems,
  };
}

/** How many of these rows the campaign has (by key), and how many of those the import would change: as the import's upsert compares. */
async function compareWithCampaign(db: Db, campaign: CampaignRow, plan: ColumnPlan, rows: AcceptedRow[]): Promise<{ existing: number; changed: number }> {
  if (rows.length === 0) return { existing: 0, changed: 0 };
  const records = rows.map((row) => ({ external_id: row.externalId, email: row.email, data: row.data }));
  const fileFields = textArrayLiteral(plan.fieldColumns.map(({ field }) => field.key));
  const hasEmail = plan.emailIndex !== null;
  const [result] = await selectRows<{ existing: number; changed: number }>(
    db,
    sql`
      select
        count(*)::int as existing,
        count(*) filter (where
          ((c.data - ${fileFields}::text[]) || r.data, case when ${hasEmail} then r.email else c.email end) is distinct from (c.data, c.email)
        )::int as changed
      from json_to_recordset(${JSON.stringify(records)}::json) as r(external_id text, email text, data jsonb)
      join campaign_recipients c on c.campaign_id = ${campaign.id} and c.external_id = r.external_id`,
  );
  return { existing: Number(result?.existing ?? 0), changed: Number(result?.changed ?? 0) };
}

/**
 * The keys a dry run has seen, by a 64-bit fingerprint (SHA-1's first 8 bytes) in an
 * open-addressing table: a million keys take 16 MB instead of the ~100 MB of a Set of strings.
 * Two keys sharing a fingerprint (about one chance in 10^7 in a million-row file) would count
 * the second as a duplicate in the dry run only.
 */
class KeyFingerprints {
  private slots = new Uint32Array(2 * 4096);
  private size = 0;

  /** Adds the key; false when it was there already. */
  add(key: string): boolean {
    const digest = hash("sha1", key, "buffer");
    // 0/0 marks an empty slot: the low word is never 0.
    const high = digest.readUInt32LE(0);
    const low = digest.readUInt32LE(4) || 1;
    if (!this.insert(high, low)) return false;
    if (++this.size * 2 > this.slots.length / 2) this.grow();
    return true;
  }

  private insert(high: number, low: number): boolean {
    const capacity = this.slots.length / 2;
    for (let at = high & (capacity - 1); ; at = (at + 1) & (capacity - 1)) {
      const slotLow = this.slots[2 * at + 1];
      if (slotLow === 0) {
        this.slots[2 * at] = high;
        this.slots[2 * at + 1] = low;
        return true;
      }
      if (slotLow === low && this.slots[2 * at] === high) return false;
    }
  }

  private grow() {
    const old = this.slots;
    this.slots = new Uint32Array(old.length * 2);
    for (let at = 0; at < old.length; at += 2) if (old[at + 1] !== 0) this.insert(old[at]!, old[at + 1]!);
  }
}
