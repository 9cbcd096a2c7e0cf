import { isCallerError, toAppError } from "@/lib/errors";
import { eventKey, type EventRow, type Inserted } from "./store-events";

export type WriteResult = { accepted: number; duplicates: number };
type Pending = { rows: EventRow[]; resolve: (result: WriteResult) => void; reject: (error: unknown) => void };

/**
 * Group commit: rows of concurrent requests that arrive while a write is in flight are
 * written together by the next single statement, and each request is answered only when
 * the statement holding its rows has committed. At most maxInFlight statements at a time.
 */
export class GroupCommitWriter {
  private queue: Pending[] = [];
  private readonly flushers = new Set<Promise<void>>();

  constructor(
    private readonly insert: (rows: EventRow[]) => Promise<Inserted>,
    private readonly maxRowsPerStatement = 10_000,
    /** True for a failure caused by the rows themselves (a 4xx), as opposed to the database being unreachable. */
    private readonly isDataError: (error: unknown) => boolean = (error) => isCallerError(toAppError(error)),
    /** Statements that may run at once: the next group is prepared and sent while the database writes one. */
    private readonly maxInFlight = 2,
  ) {}

  /** Resolves once the rows are durable: how many were new and how many were already stored. */
  write(rows: EventRow[]): Promise<WriteResult> {
    if (rows.length === 0) return Promise.resolve({ accepted: 0, duplicates: 0 });
    return new Promise<WriteResult>((resolve, reject) => {
      this.queue.push({ rows, resolve, reject });
      if (this.flushers.size < this.maxInFlight) {
        const flusher = this.flushAll().finally(() => this.flushers.delete(flusher));
        this.flushers.add(flusher);
      }
    });
  }

  /** Waits until everything queued so far is written (graceful shutdown). */
  async drain(): Promise<void> {
    while (this.flushers.size > 0) await Promise.all(this.flushers);
  }

  private async flushAll(): Promise<void> {
    // Let the requests that are arriving in this same tick join the first statement.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.queue.length > 0) await this.flushGroup(this.takeGroup());
  }

  private takeGroup(): Pending[] {
    const group: Pending[] = [];
    let rows = 0;
    while (this.queue.length > 0 && (group.length === 0 || rows + this.queue[0]!.rows.length <= this.maxRowsPerStatement)) {
      const next = this.queue.shift()!;
      rows += next.rows.length;
      group.push(next);
    }
    return group;
  }

  private async flushGroup(group: Pending[]): Promise<void> {
    let inserted: Inserted;
    try {
      inserted = await this.insert(group.flatMap((pending) => pending.rows));
    } catch (error) {
      // One request's bad data must not fail the others that shared its statement: write
      // each alone. When the database itself is down, every request fails just the same.
      if (group.length === 1 || !this.isDataError(error)) for (const pending of group) pending.reject(error);
      else for (const pending of group) await this.flushGroup([pending]);
      return;
    }
    if (inserted === "all") {
      for (const pending of group) pending.resolve({ accepted: pending.rows.length, duplicates: 0 });
      return;
    }
    // A key inserted by this statement counts as accepted for the first request that sent it.
    for (const pending of group) {
      let accepted = 0;
      for (const row of pending.rows) {
        if (inserted.delete(eventKey(row.project_id, row.event_id))) accepted++;
      }
      pending.resolve({ accepted, duplicates: pending.rows.length - accepted });
    }
  }
}
