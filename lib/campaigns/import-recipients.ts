import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { ConflictError, ValidationError, isAppError, isCallerError } from "@/lib/errors";
import { recordProjectAuditEvent } from "@/lib/audit/record-audit-event";
import type { Actor } from "@/lib/auth/authenticate";
import type { ProjectAccess } from "@/lib/auth/project-access";
import { getDbDriver, type Db } from "@/lib/db";
import type { Permitted } from "@/lib/services/verbs";
import { selectRows } from "@/lib/analytics/select-rows";
import { campaignImports, campaignRecipients } from "@/lib/db/schema";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { presentImport, servedCampaignFields, type CampaignImportRow, type CampaignRow } from "./campaigns";
import { checkRow, planColumns, type AcceptedRow, type ColumnPlan } from "./row-rules";
import type { ImportProblem } from "./contract";

// The import of one file (or JSON batch) of recipients: rows are checked against the served
// template's fields and written in batches, each batch one transaction with the import's
// progress, so that an import stopped anywhere resumes after its last committed batch.
// docs/adr/0094-campaigns.md says why each choice.

/** The most rows one file may hold. */
export const maxImportRows = 1_000_000;
/** Rows per INSERT (one bind parameter of JSON whatever the count). */
export const importBatchRows = 2000;
/**
 * Batches written at once on PostgreSQL, each on a connection of its own (most of an import's
 * time is the server maintaining the table's indexes); they commit in order. PGlite has one
 * connection: one batch at a time.
 */
const concurrentBatches = { postgres: 2, pglite: 1 } as const;
/** Problems kept per import; the counts go on. */
export const maxStoredProblems = 100;
/** A running import whose progress has not moved for this long was stopped (a crash): another upload of the file takes it over. */
export const staleImportSeconds = 30;

export type ImportRow = { values: (string | null)[]; line: number | null };

/** The rows of an upload: its header (the columns) and then its records. */
export type ImportSource = {
  kind: "csv" | "json";
  sha256: string;
  bytes: number;
  rowsEstimated: number | null;
  /** Opened only when the import has to run (not for a completed one); called again to resume. */
  open: () => Promise<{ header: string[]; headerLine: number | null; rows: AsyncIterable<ImportRow> | Iterable<ImportRow> }>;
};

export type ImportOptions = {
  /** Stops between batches (the import stays resumable); tests and the benchmark use it. */
  signal?: AbortSignal;
  /** After each committed batch. */
  onBatch?: (progress: { rowsDone: number; rowsImported: number }) => void;
};

/** created: a new import; replayed: the same content was imported already, nothing ran. */
export type ImportOutcome = { created: boolean; replayed: boolean; import: ReturnType<typeof presentImport> };

/** The viewer_hash of a recipient's events: what the SDK's hashViewer computes for viewerId = the recipient's id. */
export function recipientViewerHash(projectId: string, recipientId: string): string {
  return createHash("sha256").update(`${projectId}:${recipientId}`).digest("hex");
}

/**
 * Imports `source` into the campaign, or answers the import of the same content: completed →
 * as it is (created false); running elsewhere → 409; failed or stopped → resumed from rowsDone.
 * A long-running job, not a verb: its batches commit one by one (so that a stopped import
 * resumes), each in a transaction of its own, and the last records `campaign.imported`; it does
 * not write through `ctx.write`, which is one transaction.
 */
export async function importRecipients(
  ctx: Permitted<"campaign.write">,
  campaign: CampaignRow,
  source: ImportSource,
  options: ImportOptions = {},
): Promise<ImportOutcome> {
  const { db, actor, access } = ctx;
  const served = await servedCampaignFields(ctx, campaign);
  if (!served) throw new ConflictError(`The ${campaign.channel} channel serves no template yet: upload one so recipients have fields to fill.`, "no_template");
  const claimed = await claimImport(db, actor, campaign, source);
  if (!claimed.run) return { created: false, replayed: true, import: presentImport(claimed.row) };
  const { header, headerLine, rows } = await source.open().catch(async (error: unknown) => {
    await db
      .update(campaignImports)
      .set({ status: "failed", error: error instanceof Error ? error.message : String(error), updatedAt: sql`now()` })
      .where(eq(campaignImports.id, claimed.row.id));
    throw error;
  });
  const plan = planColumns(header, served.fields, campaign.fieldMap, headerLine, served.imageFiles);
  const writer = new BatchWriter(db, actor, access, campaign, claimed.row, plan, concurrentBatches[await getDbDriver()]);
  try {
    let index = 0;
    for await (const row of rows) {
      index++;
      if (index <= claimed.row.rowsDone) continue;
      if (index > maxImportRows) throw new ValidationError([{ path: `line ${row.line ?? index}`, message: `the file has more than ${maxImportRows.toLocaleString("en-US")} rows` }]);
      writer.add(index, row);
      if (writer.full()) await writer.flush(options);
    }
    const done = await writer.finish(index, served.templateId);
    return { created: claimed.created, replayed: false, import: presentImport(done) };
  } catch (error) {
    await writer.abandon(error);
    throw error;
  }
}

type Claim = { run: boolean; created: boolean; row: CampaignImportRow };

/** Finds or creates the import of this content, and takes it when it has to run (no other process is running it). */
async function claimImport(db: Db, actor: Actor, campaign: CampaignRow, source: ImportSource): Promise<Claim> {
  const [created] = await db
    .insert(campaignImports)
    .values({
      campaignId: campaign.id,
      projectId: campaign.projectId,
      sha256: source.sha256,
      source: source.kind,
      bytes: source.bytes,
      rowsEstimated: source.rowsEstimated,
      createdBy: actor.userId,
    })
    .onConflictDoNothing()
    .returning();
  if (created) return { run: true, created: true, row: created };
  const same = and(eq(campaignImports.campaignId, campaign.id), eq(campaignImports.sha256, source.sha256));
  const [existing] = await db.select().from(campaignImports).where(same);
  if (!existing) throw new ConflictError("The import of this content changed while it was looked up; try again.");
  if (existing.status === "completed") return { run: false, created: false, row: existing };
  const [taken] = await db
    .update(campaignImports)
    .set({ status: "running", error: null, updatedAt: sql`now()` })
    .where(and(same, sql`(${campaignImports.status} = 'failed' or ${campaignImports.updatedAt} < now() - make_interval(secs => ${staleImportSeconds}))`))
    .returning();
  if (!taken) {
    throw new ConflictError(`This content is being imported already (import ${existing.id}, ${existing.rowsDone} rows so far); follow it on the campaign.`, "import_running");
  }
  return { run: true, created: false, row: taken };
}

type PendingRow = AcceptedRow & { line: number | null };

/**
 * Collects checked rows and writes them a batch at a time, while the next is read. Each write is
 * a transaction with the import's progress; several may insert at once, but each waits for the
 * one before it to commit before it records its progress and commits, so `rows_done` never
 * passes a row that is not in. A row whose id a batch still in flight has is a duplicate, never
 * sent: two batches in flight never wait on each other's rows.
 */
class BatchWriter {
  private accepted: PendingRow[] = [];
  private refused = 0;
  private duplicates = 0;
  private problems: ImportProblem[] = [];
  private lastIndex = 0;
  private inFlight: { done: Promise<void>; ids: Set<string> }[] = [];
  private lastCommit: Promise<void> = Promise.resolve();
  private problemsKept: number;
  private row: CampaignImportRow;

  constructor(
    private readonly db: Db,
    private readonly actor: Actor,
    private readonly access: ProjectAccess,
    private readonly campaign: CampaignRow,
    row: CampaignImportRow,
    plan: ColumnPlan,
    private readonly concurrency: number,
  ) {
    this.row = row;
    this.problemsKept = row.problems.length;
    this.plan = plan;
    // The header's warnings belong to the import once, with its first batch.
    if (row.rowsDone === 0 && row.problems.length === 0) this.keep(plan.warnings);
  }

  private readonly plan: ColumnPlan;

  private keep(problems: ImportProblem[]) {
    for (const problem of problems) {
      if (this.problemsKept >= maxStoredProblems) return;
      this.problems.push(problem);
      this.problemsKept++;
    }
  }

  add(index: number, row: ImportRow) {
    this.lastIndex = index;
    const verdict = checkRow(row.values, this.plan, row.line);
    if (verdict.ok) {
      if (this.inFlight.some((batch) => batch.ids.has(verdict.row.externalId))) this.duplicates++;
      else this.accepted.push({ ...verdict.row, line: row.line });
      this.keep(verdict.warnings);
    } else {
      this.refused++;
      this.keep(verdict.problems);
    }
  }

  full(): boolean {
    return this.accepted.length + this.refused + this.duplicates >= importBatchRows;
  }

  /** Starts writing what was collected once a writer is free; returns as soon as it started. */
  async flush(options: ImportOptions) {
    await this.settle(options, this.concurrency - 1);
    const batch = this.take(this.lastIndex);
    const previous = this.lastCommit;
    const done = this.db
      .transaction(async (tx) => {
        const inserted = await this.insertRows(tx, batch.rows);
        await previous;
        return this.recordProgress(tx, batch, inserted);
      })
      .then((row) => {
        this.row = row;
        options.onBatch?.({ rowsDone: row.rowsDone, rowsImported: row.rowsImported });
      });
    // Its failure is thrown where it is awaited (settle), and fails every batch after it.
    done.catch(() => {});
    this.inFlight.push({ done, ids: new Set(batch.rows.map((row) => row.externalId)) });
    this.lastCommit = done;
  }

  private take(rowsDone: number): Batch {
    const batch = { rows: this.accepted, refused: this.refused, duplicates: this.duplicates, problems: this.problems, rowsDone };
    this.accepted = [];
    this.refused = 0;
    this.duplicates = 0;
    this.problems = [];
    return batch;
  }

  /** Waits until at most `left` batches are in flight (oldest first); then a stop asked for is a stop. */
  private async settle(options: ImportOptions, left = 0) {
    while (this.inFlight.length > left) await this.inFlight.shift()!.done;
    if (options.signal?.aborted) throw new StoppedError();
  }

  /** Writes the last batch and completes the import, with its webhook event and audit row, in one transaction. */
  async finish(total: number, templateId: string): Promise<CampaignImportRow> {
    await this.settle({});
    const batch = this.take(Math.max(total, this.row.rowsDone));
    return this.db.transaction(async (tx) => {
      await this.recordProgress(tx, batch, await this.insertRows(tx, batch.rows));
      const [done] = await tx
        .update(campaignImports)
        .set({ status: "completed", completedAt: sql`now()`, updatedAt: sql`now()` })
        .where(eq(campaignImports.id, this.row.id))
        .returning();
      const data = {
        campaignId: this.campaign.id,
        importId: done!.id,
        templateId,
        source: done!.source,
        sha256: done!.sha256,
        rowsDone: done!.rowsDone,
        rowsImported: done!.rowsImported,
        rowsRefused: done!.rowsRefused,
        rowsDuplicate: done!.rowsDuplicate,
      };
      await emitWebhookEvent(tx, { projectId: this.campaign.projectId, type: "campaign.imported", data });
      await recordProjectAuditEvent(tx, this.actor, this.access, {
        action: "campaign.imported",
        targetType: "campaign",
        targetId: this.campaign.id,
        data: { name: this.campaign.name, channel: this.campaign.channel, ...data },
      });
      return done!;
    });
  }

  /**
   * After a failure. A file that cannot be read (a syntax error, too many rows) takes back every
   * row it added: nothing of a bad file stays. A stop (the process, the client, the signal) keeps
   * what was committed, and the import resumes from there when the same content comes again.
   */
  async abandon(error: unknown) {
    await Promise.all(this.inFlight.map((batch) => batch.done.catch(() => {})));
    this.inFlight = [];
    const rejected = isAppError(error) && isCallerError(error) && !isAppError(error, "import_stopped");
    const message = error instanceof Error ? error.message : String(error);
    await this.db
      .transaction(async (tx) => {
        if (rejected) {
          await tx.delete(campaignRecipients).where(and(eq(campaignRecipients.campaignId, this.campaign.id), eq(campaignRecipients.importId, this.row.id)));
          await tx
            .update(campaignImports)
            .set({ status: "failed", error: message, rowsDone: 0, rowsImported: 0, rowsRefused: 0, rowsDuplicate: 0, problems: [], updatedAt: sql`now()` })
            .where(eq(campaignImports.id, this.row.id));
        } else {
          await tx.update(campaignImports).set({ status: "failed", error: message, updatedAt: sql`now()` }).where(eq(campaignImports.id, this.row.id));
        }
      })
      .catch(() => {
        // The database itself failed: the import stays "running" and is taken over once stale.
      });
  }

  /** Inserts the rows (those whose id the campaign has already are skipped); how many were new. */
  private async insertRows(tx: Db, rows: PendingRow[]): Promise<number> {
    if (rows.length === 0) return 0;
    const tokens = randomBytes(32 * rows.length);
    const records = rows.map((row, i) => {
      const id = randomUUID();
      return {
        id,
        external_id: row.externalId,
        email: row.email,
        data: row.data,
        token: tokens.subarray(i * 32, i * 32 + 32).toString("base64url"),
        viewer_hash: recipientViewerHash(this.campaign.projectId, id),
        line: row.line,
      };
    });
    const [result] = await selectRows<{ inserted: number }>(
      tx,
      sql`
        with added as (
          insert into campaign_recipients (id, campaign_id, project_id, external_id, email, data, token, viewer_hash, import_id, line)
          select r.id, ${this.campaign.id}, ${this.campaign.projectId}, r.external_id, r.email, r.data, r.token, r.viewer_hash, ${this.row.id}, r.line
          from json_to_recordset(${JSON.stringify(records)}::json) as r(id uuid, external_id text, email text, data jsonb, token text, viewer_hash text, line int)
          on conflict (campaign_id, external_id) do nothing
          returning 1
        )
        select count(*)::int as inserted from added`,
    );
    return Number(result?.inserted ?? 0);
  }

  private async recordProgress(tx: Db, { rows, refused, duplicates, problems, rowsDone }: Batch, inserted: number): Promise<CampaignImportRow> {
    const [row] = await tx
      .update(campaignImports)
      .set({
        rowsDone,
        rowsImported: sql`${campaignImports.rowsImported} + ${inserted}`,
        rowsDuplicate: sql`${campaignImports.rowsDuplicate} + ${rows.length - inserted + duplicates}`,
        rowsRefused: sql`${campaignImports.rowsRefused} + ${refused}`,
        problems: problems.length > 0 ? sql`${campaignImports.problems} || ${JSON.stringify(problems)}::jsonb` : undefined,
        updatedAt: sql`now()`,
      })
      .where(eq(campaignImports.id, this.row.id))
      .returning();
    return row!;
  }
}

type Batch = { rows: PendingRow[]; refused: number; duplicates: number; problems: ImportProblem[]; rowsDone: number };

/** The import was asked to stop (ImportOptions.signal); it resumes when the same content comes again. */
class StoppedError extends ConflictError {
  constructor() {
    super("The import stopped before the end; upload the same content again to resume it.", "import_stopped");
  }
}
