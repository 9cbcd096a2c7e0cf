import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { once } from "node:events";
import { parse, type CsvError } from "csv-parse";
import { PayloadTooLargeError, ValidationError } from "@/lib/api/errors";

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

/** csv-parse's errors carry a code starting CSV_ (told apart by code, never instanceof). */
function isCsvError(error: unknown): error is CsvError {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("CSV_");
}

function describeCsvError(error: CsvError): string {
  switch (error.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return "a quoted field opens here and is never closed";
    case "CSV_MAX_RECORD_SIZE":
      return `a record is longer than ${maxRecordBytes / 1024} KB (a quoted field that is never closed?)`;
    case "CSV_INVALID_CLOSING_QUOTE":
    case "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE":
      return "a quoted field has text after its closing quote (write a quote inside a quoted field as two quotes)";
    default:
      return error.message;
  }
}

/**
 * The file's records, header first, each with the line it begins on (1-based). Quoted fields may
 * span lines; blank lines are skipped. Reading pauses while the caller awaits (backpressure).
 */
export async function* readCsvRows(file: string): AsyncGenerator<CsvRow> {
  const delimiter = await detectDelimiter(file);
  const parser = createReadStream(file, { highWaterMark: 256 * 1024 }).pipe(
    parse({ bom: true, delimiter, relax_column_count: true, max_record_size: maxRecordBytes, skip_empty_lines: false }),
  );
  let line = 1;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      const start = line;
      line++;
      for (const value of record) if (value.includes("\n")) line += countNewlinesIn(value);
      if (record.length === 1 && record[0] === "") continue;
      yield { values: record, line: start };
    }
  } catch (error) {
    if (isCsvError(error)) throw new CsvSyntaxError(line, describeCsvError(error));
    throw error;
  } finally {
    parser.destroy();
  }
}

function countNewlinesIn(value: string): number {
  let count = 0;
  for (let at = value.indexOf("\n"); at !== -1; at = value.indexOf("\n", at + 1)) count++;
  return count;
}
