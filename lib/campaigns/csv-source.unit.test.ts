import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse, type Options } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { describeCsvError, readCsvRows } from "./csv-source";

// csv-parse's errors as the import reports them: every syntax error a 422 naming the line where
// the record it stopped in begins, however far the parser ran ahead of the reader.

const scratch = mkdtempSync(path.join(tmpdir(), "reelbind-csv-source-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let files = 0;
function csvFile(text: string): string {
  const file = path.join(scratch, `${++files}.csv`);
  writeFileSync(file, text);
  return file;
}

/** Reads every row, awaiting a macrotask per row as the import does between batches; the rows, or the error. */
async function readAll(file: string, slow = false): Promise<{ lines: number[]; error: unknown }> {
  const lines: number[] = [];
  try {
    for await (const row of readCsvRows(file)) {
      lines.push(row.line);
      if (slow) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    return { lines, error: null };
  } catch (error) {
    return { lines, error };
  }
}

/** The code csv-parse itself throws for `text` with `options`. */
function codeOf(text: string, options: Options = {}): string {
  try {
    parse(text, options);
  } catch (error) {
    return (error as { code: string }).code;
  }
  throw new Error("csv-parse read it");
}

describe("describeCsvError", () => {
  it.each([
    ["a stray quote inside a field", 'a\nx"y\n', {}],
    ["an unclosed quote", 'a\n"x\n', {}],
    ["text after a closing quote", 'a\n"x"y\n', {}],
    ["a space after a closing quote, trimmed", 'a\n"x" y\n', { trim: true }],
    ["a record too long", `a\n${"x".repeat(100)}\n`, { max_record_size: 10 }],
    ["another number of fields", "a,b\n1\n", {}],
    ["another number of fields than the columns", "a,b\n1\n", { columns: ["a", "b"] }],
  ] satisfies [string, string, Options][])("describeCsvError – %s (the code csv-parse throws) → a message about the file", (_, text, options) => {
    const code = codeOf(text, options);
    expect(describeCsvError({ code })).toEqual(expect.any(String));
  });

  it("describeCsvError – INVALID_OPENING_QUOTE, which csv-parse spells without CSV_ → a message naming the fix", () => {
    expect(codeOf('a\nx"y\n')).toBe("INVALID_OPENING_QUOTE");
    expect(describeCsvError({ code: "INVALID_OPENING_QUOTE" })).toMatch(/quote the whole field/);
  });

  it.each([{ code: "CSV_INVALID_OPTION_DELIMITER" }, { code: "ENOENT" }, { code: "toString" }, new Error("boom"), null, "CSV_QUOTE_NOT_CLOSED"])(
    "describeCsvError – %s (a wrong option, an I/O error, not a csv-parse error) → null: not the file's fault",
    (error) => {
      expect(describeCsvError(error)).toBeNull();
    },
  );
});

describe("readCsvRows", () => {
  // 3,000 records, every 100th with a field spanning two lines: 3,031 lines after the header.
  const good = Array.from({ length: 3000 }, (_, i) => (i % 100 === 99 ? `${i},"two\nlines"` : `${i},name${i}`));
  const badLine = 1 + 3000 + 30 + 1;
  it.each([
    ["a stray quote", '3001,na"me'],
    ["an unclosed quote", '3001,"name'],
    ["text after a closing quote", '3001,"na"me'],
  ])(`readCsvRows – %s after 3,000 records (some spanning lines), read fast and slowly → CsvSyntaxError at line ${badLine}`, async (_, bad) => {
    for (const slow of [false, true]) {
      const { lines, error } = await readAll(csvFile(["id,name", ...good, bad, "3002,last", ""].join("\n")), slow);
      expect(isAppError(error, "validation_failed"), String(error)).toBe(true);
      expect(error).toMatchObject({ kind: "validation_failed", errors: [{ path: `line ${badLine}` }] });
      // Whatever the reader got before the error, its lines were right.
      if (lines.length > 101) expect(lines.slice(99, 102)).toEqual([100, 101, 103]);
    }
  });

  it("readCsvRows – quoted fields spanning lines, blank lines, CRLF → each record with the line it begins on", async () => {
    const { lines, error } = await readAll(csvFile('id,name\r\n1,"Ana\r\nMaria"\r\n\r\n2,Bo\r\n3,"C\ny"\r\n4,Di\r\n'), true);
    expect(error).toBeNull();
    expect(lines).toEqual([1, 2, 5, 6, 8]);
  });
});
