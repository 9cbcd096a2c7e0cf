"use client";

import { useId, useRef, useState } from "react";
import { Badge } from "@/components/console/badge";
import { Button } from "@/components/console/button";
import { TableHead } from "@/components/console/table-head";
import { problemMessage } from "@/lib/console/api-client";
import {
  fieldMapValue,
  useDryRunRecipients,
  useUploadRecipients,
  type CampaignImportJson,
  type ColumnTarget,
  type DryRunJson,
  type ImportMode,
} from "@/lib/console/hooks/campaigns";
import type { UploadProgress } from "@/lib/console/upload-request";
import { Progress } from "./progress";

/**
 * The most of a file the check sends: a bigger file is checked on its first rows (cut at a line
 * end), which shows the mapping and the kinds of problems without sending 256 MB twice.
 */
const checkedBytes = 2 * 1024 * 1024;

/** The file's first `limit` bytes, cut after its last complete line; the file itself when smaller. */
async function firstLines(file: File, limit: number): Promise<{ part: Blob; whole: boolean }> {
  if (file.size <= limit) return { part: file, whole: true };
  const head = new Uint8Array(await file.slice(0, limit).arrayBuffer());
  const end = head.lastIndexOf(0x0a);
  return { part: file.slice(0, end > 0 ? end + 1 : limit, file.type), whole: false };
}

/** The API's fieldMap for every column's chosen target: what was checked is what is imported. */
const mappingOf = (columns: Record<string, ColumnTarget>) => Object.fromEntries(Object.entries(columns).map(([name, target]) => [name, fieldMapValue(target)]));
const targetOf = (value: string): ColumnTarget =>
  value === "$id" ? { kind: "id" } : value === "$email" ? { kind: "email" } : value === "$ignore" ? { kind: "ignored" } : { kind: "field", key: value };

const plural = (count: number, word: string) => `${count.toLocaleString("en-US")} ${word}${count === 1 ? "" : "s"}`;

/**
 * Import recipients in three steps: choose a CSV; check its columns — each mapped to a template
 * field, the recipient's id or e-mail, or ignored (matched by name, changeable), with what the
 * import would add, update and refuse — and choose whether the file adds to the list or replaces
 * it; then import, with progress.
 */
export function ImportRecipients({ projectId, campaignId, running, onImporting }: { projectId: string; campaignId: string; running: CampaignImportJson | null; onImporting: (busy: boolean) => void }) {
  const check = useDryRunRecipients(projectId, campaignId);
  const upload = useUploadRecipients(projectId, campaignId);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [whole, setWhole] = useState(true);
  const [columns, setColumns] = useState<Record<string, ColumnTarget>>({});
  // The columns the first check matched by name (its fieldMap value): later checks send the whole
  // mapping, so the answer says "mapping" for every column; the badge stays while the choice does.
  const [matchedByName, setMatchedByName] = useState<Record<string, string>>({});
  const [mode, setMode] = useState<ImportMode>("upsert");
  const [sent, setSent] = useState<UploadProgress | null>(null);
  const [result, setResult] = useState<{ replayed: boolean; body: CampaignImportJson } | null>(null);
  const checked = check.data;
  const sending = upload.isPending && sent !== null && sent.loaded < sent.total;

  const runCheck = async (chosen: File, mapping: Record<string, string> | undefined, checkMode: ImportMode) => {
    const { part, whole: complete } = await firstLines(chosen, checkedBytes);
    setWhole(complete);
    check.mutate(
      { file: part, mode: checkMode, ...(mapping ? { fieldMap: mapping } : {}) },
      {
        onSuccess: (answer) => {
          setColumns(Object.fromEntries(answer.columns.map((column) => [column.name, column.target])));
          if (!mapping) setMatchedByName(Object.fromEntries(answer.columns.filter((column) => column.matched === "auto").map((column) => [column.name, fieldMapValue(column.target)])));
        },
      },
    );
  };

  /** The check runs again in the chosen mode: a replacing import also says whom it would remove. */
  const changeMode = (next: ImportMode) => {
    setMode(next);
    if (file) void runCheck(file, mappingOf(columns), next);
  };

  const reset = () => {
    setFile(null);
    check.reset();
    setColumns({});
    setMode("upsert");
    if (input.current) input.current.value = "";
  };

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-4 rounded-lg bg-white p-4 ring-1 ring-slate-200">
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        Import recipients
      </h2>
      <p className="text-sm text-slate-600">
        A CSV in UTF-8 (commas or semicolons) whose first line names the columns. You check how each column maps to the template&apos;s fields before anything is imported. A recipient is known by
        their id column, else their e-mail: importing them again updates their data and keeps their link.
      </p>
      <div className="space-y-1">
        <label htmlFor={`${id}-file`} className="block text-sm font-medium text-slate-800">
          CSV file
        </label>
        <input
          ref={input}
          id={`${id}-file`}
          type="file"
          accept=".csv,text/csv"
          onChange={(event) => {
            const chosen = event.target.files?.[0] ?? null;
            setResult(null);
            upload.reset();
            setFile(chosen);
            if (chosen) void runCheck(chosen, undefined, mode);
            else check.reset();
          }}
          className="block text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-1.5 file:text-sm file:font-medium hover:file:bg-slate-200"
        />
      </div>
      {check.isPending ? (
        <p role="status" className="text-sm text-slate-600">
          Checking the file…
        </p>
      ) : null}
      {check.error ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 ring-1 ring-red-200">
          {problemMessage(check.error)}
        </p>
      ) : null}
      {file && checked ? (
        <form
          aria-label="Check the columns and import"
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            setResult(null);
            setSent(null);
            onImporting(true);
            upload.mutate(
              { file, fieldMap: mappingOf(columns), mode, onProgress: setSent },
              {
                onSuccess: (response) => {
                  setResult({ replayed: response.replayed, body: response.body });
                  reset();
                },
                onSettled: () => onImporting(false),
              },
            );
          }}
        >
          <ColumnMapping
            id={id}
            checked={checked}
            columns={columns}
            matchedByName={matchedByName}
            onChange={(name, target) => {
              const next = { ...columns, [name]: target };
              setColumns(next);
              void runCheck(file, mappingOf(next), mode);
            }}
          />
          <CheckSummary checked={checked} whole={whole} />
          <fieldset className="space-y-1 text-sm">
            <legend className="font-medium text-slate-800">Recipients already in the campaign</legend>
            <label className="flex items-center gap-2">
              <input type="radio" name={`${id}-mode`} value="upsert" checked={mode === "upsert"} onChange={() => changeMode("upsert")} />
              Add new recipients and update those in the file (the others stay)
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name={`${id}-mode`} value="replace" checked={mode === "replace"} onChange={() => changeMode("replace")} />
              Replace the list: remove everyone the file does not have (their links stop working)
            </label>
          </fieldset>
          <div className="flex flex-wrap gap-3">
            <Button type="submit" intent="primary" busy={upload.isPending} disabledReason={check.isPending ? "Wait for the check to finish" : null}>
              Import {file.name}
            </Button>
            <Button onClick={reset} disabled={upload.isPending}>
              Choose another file
            </Button>
          </div>
        </form>
      ) : null}
      {upload.isPending ? (
        <Progress
          label={sending ? "Uploading" : "Importing"}
          done={sending ? sent!.loaded : (running?.rowsDone ?? 0)}
          total={sending ? sent!.total : (running?.rowsEstimated ?? null)}
          unit={sending ? "bytes" : "rows"}
        />
      ) : null}
      {upload.error ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm font-medium text-red-800 ring-1 ring-red-200">
          {problemMessage(upload.error)}
        </p>
      ) : null}
      {result ? <ImportResult result={result} /> : null}
    </section>
  );
}

function ColumnMapping({
  id,
  checked,
  columns,
  matchedByName,
  onChange,
}: {
  id: string;
  checked: DryRunJson;
  columns: Record<string, ColumnTarget>;
  matchedByName: Record<string, string>;
  onChange: (name: string, target: ColumnTarget) => void;
}) {
  const first = checked.sample[0];
  return (
    <div className="overflow-x-auto rounded-md ring-1 ring-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="px-3 py-2 text-left font-medium text-slate-800">Columns of the file</caption>
        <TableHead className="bg-slate-50 text-left text-slate-600" cellClassName="px-3 py-2 font-medium" columns={[{ label: "Column" }, { label: "Fills" }, { label: "First row" }]} />
        <tbody className="divide-y divide-slate-100">
          {checked.columns.map((column, index) => {
            const target = columns[column.name] ?? column.target;
            const value = target.kind === "field" ? first?.data[target.key] : target.kind === "email" ? first?.email : target.kind === "id" ? first?.externalId : undefined;
            return (
              <tr key={column.name} data-testid="column-mapping">
                <th scope="row" className="px-3 py-2 text-left font-normal">
                  <span className="font-mono text-xs">{column.name}</span>
                  {matchedByName[column.name] === fieldMapValue(target) ? (
                    <span className="ml-2">
                      <Badge tone="slate">matched by name</Badge>
                    </span>
                  ) : null}
                </th>
                <td className="px-3 py-2">
                  <label className="sr-only" htmlFor={`${id}-column-${index}`}>
                    What the column {column.name} fills
                  </label>
                  <select
                    id={`${id}-column-${index}`}
                    value={fieldMapValue(target)}
                    onChange={(event) => onChange(column.name, targetOf(event.target.value))}
                    className="rounded-md border-slate-300 py-1 text-sm"
                  >
                    <optgroup label="Template fields">
                      {checked.fields.map((field) => (
                        <option key={field.key} value={field.key}>
                          {field.key}
                          {field.required ? " (required)" : ""}
                        </option>
                      ))}
                    </optgroup>
                    <optgroup label="The recipient">
                      <option value="$id">Recipient id</option>
                      <option value="$email">E-mail</option>
                    </optgroup>
                    <option value="$ignore">Ignore this column</option>
                  </select>
                </td>
                <td className="max-w-56 truncate px-3 py-2 text-slate-700">{typeof value === "string" && value !== "" ? value : "—"}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function CheckSummary({ checked, whole }: { checked: DryRunJson; whole: boolean }) {
  const missing = checked.fields.filter((field) => field.required && !checked.columns.some((column) => column.target.kind === "field" && column.target.key === field.key));
  return (
    <div className="space-y-2 text-sm" aria-live="polite">
      <p className="text-slate-800">
        {whole ? "The file has" : "The first part of the file has"} {plural(checked.rows, "row")}: {plural(checked.wouldAdd, "new recipient")}, {checked.wouldUpdate.toLocaleString("en-US")}{" "}
        to update, {checked.wouldLeaveUnchanged.toLocaleString("en-US")} unchanged, {checked.wouldRefuse.toLocaleString("en-US")} refused.
        {checked.mode === "replace" && whole ? ` ${plural(checked.wouldRemove, "recipient")} not in the file would be removed.` : ""}
        {whole ? "" : " The rest is checked as it is imported."}
      </p>
      {missing.length > 0 ? (
        <p className="text-amber-800">No column fills {missing.map((field) => field.key).join(", ")}, which the template needs: every row would be refused.</p>
      ) : null}
      {checked.problems.length > 0 ? (
        <details open={checked.wouldRefuse > 0}>
          <summary className="cursor-pointer font-medium text-slate-800">{plural(checked.problems.length, "problem")} found</summary>
          <ul className="mt-1 max-h-48 list-inside list-disc overflow-y-auto text-slate-700">
            {checked.problems.map((problem, index) => (
              <li key={index}>
                {problem.line === null ? "" : `Line ${problem.line}: `}
                {problem.message}
                {problem.severity === "error" ? " (refused)" : ""}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}

function ImportResult({ result }: { result: { replayed: boolean; body: CampaignImportJson } }) {
  const { body } = result;
  return (
    <p role="status" className="text-sm text-slate-700">
      {result.replayed
        ? "This file was imported before with this mapping: nothing changed."
        : `Added ${plural(body.rowsImported, "recipient")}, updated ${body.rowsUpdated.toLocaleString("en-US")}, ${body.rowsUnchanged.toLocaleString("en-US")} unchanged${body.rowsRemoved > 0 ? `, removed ${body.rowsRemoved.toLocaleString("en-US")}` : ""}; ${plural(body.rowsRefused, "row")} refused.`}
    </p>
  );
}
