import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { once } from "node:events";
import { parse, type CsvErrorCode } from "csv-parse";
import { PayloadTooLargeError, ValidationError } from "@/lib/errors";

// An uploaded CSV: received onto disk first (hashed and checked as UTF-8 on the way, so the
// import knows which file it is before it writes anything), then read back through csv-parse.

/** The largest CSV accepted: a million rows of 256 bytes. */
export const maxCsvBytes = 256 * 1024 * 1024;
/** A record longer than this is an unclosed quote swallowing the file, not a recipient. */
const maxRecordBytes = 64 * 1024;

export type SpooledFile = { path: string; sha256: string; bytes: number; lines: number; dispose: () => Promise<void> };

const newline = 0x0a;

function countNewlines(chunk: Uint8Array): number {
  let count = 0;
  for (let at = chunk.indexOf(newline); at !== -1; at = chunk.indexOf(newline, at + 1)) count++;
  return count;
}

/**
 * Writes the body to a temporary file, with its SHA-256, size and line count; 413 once it is
 * larger than `limit` (declared or streamed), 422 when it is not UTF-8. Nothing is left on disk
 * after a failure; `dispose` removes the file after use.
 */
export async function spoolUpload(body: AsyncIterable<Uint8Array> | null, contentLength: string | null, limit = maxCsvBytes): Promise<SpooledFile> {
  const tooLarge = () => new PayloadTooLargeError(`The file is larger than ${limit / (1024 * 1024)} MB.`);
  if (Number(contentLength ?? 0) > limit) throw tooLarge();
  const dir = await mkdtemp(path.join(tmpdir(), "reelbind-campaign-"));
  const dispose = () => rm(dir, { recursive: true, force: true });
  const file = path.join(dir, "upload.csv");
  const out = createWriteStream(file);
  const hash = createHash("sha256");
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  let bytes = 0;
  let lines = 0;
  let lastByte = newline;
  try {
    for await (const chunk of body ?? []) {
      bytes += chunk.byteLength;
      if (bytes > limit) throw tooLarge();
      try {
        utf8.decode(chunk, { stream: true });
      } catch {
        throw new ValidationError([{ path: `line ${lines + 1}`, message: "is not UTF-8 text; save the file as CSV UTF-8" }]);
      }
      hash.update(chunk);
      lines += countNewlines(chunk);
      if (chunk.byteLength > 0) lastByte = chunk[chunk.byteLength - 1]!;
      if (!out.write(chunk)) await once(out, "drain");
    }
    out.end();
    await once(out, "finish");
  } catch (error) {
    out.destroy();
    await dispose();
    throw error;
  }
  if (lastByte !== newline) lines++;
  return { path: file, sha256: hash.digest("hex"), bytes, lines, dispose };
}

/**
 * `,` or `;`: whichever the header line has more of outside quotes (Excel writes `;` where the
 * decimal separator is a comma). A header with neither is a single column: `,`.
 */
export async function detectDelimiter(file: string): Promise<"," | ";"> {
  const handle = await open(file, "r");
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(64 * 1024), 0, 64 * 1024, 0);
    const head = buffer.subarray(0, bytesRead).toString("utf8");
    let commas = 0;
    let semicolons = 0;
    let quoted = false;
    for (const char of head) {
      if (char === '"') quoted = !quoted;
      else if (!quoted && (char === "\n" || char === "\r")) break;
      else if (!quoted && char === ",") commas++;
      else if (!quoted && char === ";") semicolons++;
    }
    return semicolons > commas ? ";" : ",";
  } finally {
    await handle.close();
  }
}

export type CsvRow = { values: string[]; line: number };

/** A CSV the parser could not read; `line` is where the record it stopped in begins. */
export class CsvSyntaxError extends ValidationError {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super([{ path: `line ${line}`, message: reason }], `The CSV cannot be read at line ${line}: ${reason}.`);
  }
}

/**
 * What each csv-parse error code says about the file, by code (never by class or message); null
 * for the codes only a wrong option of ours can raise (a bug: a 500). Typed against csv-parse's
 * own list, so a code a new version adds fails the typecheck until it is placed here. Not every
 * data code can occur with readCsvRows' options (relax_column_count, no `columns`), but a file
 * never makes a 500 if the options change.
 */
const csvProblems: Record<CsvErrorCode, string | null> = {
  // csv-parse 7 spells this one without the CSV_ prefix.
  INVALID_OPENING_QUOTE: "a field has a quote inside it without being quoted (quote the whole field and write the quote twice: \"a\"\"b\")",
  CSV_QUOTE_NOT_CLOSED: "a quoted field opens here and is never closed",
  CSV_INVALID_CLOSING_QUOTE: "a quoted field has text after its closing quote (write a quote inside a quoted field as two quotes)",
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: "a quoted field has text after its closing quote (write a quote inside a quoted field as two quotes)",
  CSV_MAX_RECORD_SIZE: `a record is longer than ${maxRecordBytes / 1024} KB (a quoted field that is never closed?)`,
  CSV_RECORD_INCONSISTENT_FIELDS_LENGTH: "a record has another number of fields than the first line",
  CSV_RECORD_INCONSISTENT_COLUMNS: "a record has another number of fields than the first line names columns",
  CSV_INVALID_COLUMN_MAPPING: "a column name cannot be used",
  CSV_UNKNOWN_ERROR: "the file cannot be read as CSV",
  CSV_INVALID_ARGUMENT: null,
  CSV_INVALID_COLUMN_DEFINITION: null,
  CSV_INVALID_OPTION_BOM: null,
  CSV_INVALID_OPTION_CAST: null,
  CSV_INVALID_OPTION_CAST_DATE: null,
  CSV_INVALID_OPTION_COLUMNS: null,
  CSV_INVALID_OPTION_COMMENT: null,
  CSV_INVALID_OPTION_DELIMITER: null,
  CSV_INVALID_OPTION_GROUP_COLUMNS_BY_NAME: null,
  CSV_INVALID_OPTION_ON_RECORD: null,
  CSV_OPTION_COLUMNS_MISSING_NAME: null,
};

/** What a csv-parse error says about the file, or null when it is not the file's fault (nor csv-parse's). */
export function describeCsvError(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string" || !Object.hasOwn(csvProblems, code)) return null;
  return csvProblems[code as CsvErrorCode];
}

/** The file's records as csv-parse reads them (`to`: stop after that many), blank lines included as [""]. */
function parseRecords(file: string, delimiter: "," | ";", to?: number) {
  return createReadStream(file, { highWaterMark: 256 * 1024 }).pipe(
    parse({ bom: true, delimiter, relax_column_count: true, max_record_size: maxRecordBytes, skip_empty_lines: false, ...(to ? { to } : {}) }),
  );
}

/** The line after `record`, which begins on `line`: a quoted field may span lines. */
function lineAfter(line: number, record: string[]): number {
  let next = line + 1;
  for (const value of record) if (value.includes("\n")) next += countNewlinesIn(value);
  return next;
}

/** The line the record after the first `records` begins on (a second pass over the file's start). */
async function lineAfterRecords(file: string, delimiter: "," | ";", records: number): Promise<number> {
  let line = 1;
  const parser = parseRecords(file, delimiter, records);
  try {
    for await (const record of parser as AsyncIterable<string[]>) line = lineAfter(line, record);
  } finally {
    parser.destroy();
  }
  return line;
}

/**
 * The file's records, header first, each with the line it begins on (1-based). Quoted fields may
 * span lines; blank lines are skipped. Reading pauses while the caller awaits (backpressure).
 */
export async function* readCsvRows(file: string): AsyncGenerator<CsvRow> {
  const delimiter = await detectDelimiter(file);
  const parser = parseRecords(file, delimiter);
  let line = 1;
  let taken = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      const start = line;
      line = lineAfter(line, record);
      taken++;
      if (record.length === 1 && record[0] === "") continue;
      yield { values: record, line: start };
    }
  } catch (error) {
    const problem = describeCsvError(error);
    if (!problem) throw error;
    // The parser reads ahead of a slow caller and drops the records it had buffered when it
    // fails: their lines are counted again, up to the record it failed in (`records` of its error).
    const parsed = (error as { records?: unknown }).records;
    const at = typeof parsed === "number" && parsed > taken ? await lineAfterRecords(file, delimiter, parsed).catch(() => line) : line;
    throw new CsvSyntaxError(at, problem);
  } finally {
    parser.destroy();
  }
}

function countNewlinesIn(value: string): number {
  let count = 0;
  for (let at = value.indexOf("\n"); at !== -1; at = value.indexOf("\n", at + 1)) count++;
  return count;
}
