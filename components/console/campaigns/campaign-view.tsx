"use client";

import Link from "next/link";
import { useState } from "react";
import { Badge, type BadgeTone } from "@/components/console/badge";
import { Button, buttonClass } from "@/components/console/button";
import { CopyButton } from "@/components/console/copy-button";
import { EmptyState, ErrorState, LoadingState, RoleNote } from "@/components/console/states";
import { problemMessage } from "@/lib/console/api-client";
import { formatDateTime } from "@/lib/console/format";
import { campaignPath, useCampaign, useRecipients, type CampaignDetailJson, type CampaignImportJson, type RecipientJson } from "@/lib/console/hooks/campaigns";
import { stacked, TableHead } from "@/components/console/table-head";
import { EmailThumbnails } from "./email-thumbnails";
import { ImportRecipients } from "./import-recipients";
import { RecipientActions } from "./recipient-actions";
import { Progress } from "./progress";

/** A campaign's page: upload with progress, imports and their problems, the funnel and the recipients. */
export function CampaignView({ projectId, initialCampaign, canImport }: { projectId: string; initialCampaign: CampaignDetailJson; canImport: boolean }) {
  const [importing, setImporting] = useState(false);
  const query = useCampaign(projectId, initialCampaign.id, initialCampaign, importing);
  const campaign = query.data ?? initialCampaign;
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="text-sm">
            <Link href={`/projects/${projectId}/campaigns`} className="text-indigo-700 hover:underline">
              Campaigns
            </Link>
          </p>
          <h1 className="text-2xl font-semibold">{campaign.name}</h1>
          <p className="mt-1 text-sm text-slate-600">
            <Badge tone="blue">{campaign.channel}</Badge> share · {campaign.recipientCount.toLocaleString("en-US")} recipient{campaign.recipientCount === 1 ? "" : "s"} · fields{" "}
            {campaign.fields.length === 0 ? "none (the channel serves no template)" : campaign.fields.map((field) => `${field.key}${field.required ? " (required)" : ""}`).join(", ")}
          </p>
        </div>
        <a href={`${campaignPath(projectId, campaign.id)}/export`} className={buttonClass("secondary")} download>
          Export CSV
        </a>
      </div>
      {query.error ? <ErrorState message={problemMessage(query.error)} retry={() => void query.refetch()} /> : null}
      {canImport ? (
        <ImportRecipients projectId={projectId} campaignId={campaign.id} running={campaign.imports.find((item) => item.status === "running") ?? null} onImporting={setImporting} />
      ) : (
        <RoleNote>Importing recipients needs the Editor role or higher.</RoleNote>
      )}
      <Imports imports={campaign.imports} />
      <Funnel funnel={campaign.funnel} />
      <Recipients projectId={projectId} campaignId={campaign.id} fields={campaign.fields} canEdit={canImport} />
      <EmailThumbnails projectId={projectId} campaignId={campaign.id} canRender={canImport} hasRecipients={campaign.recipientCount > 0} />
    </div>
  );
}

const statusTone: Record<CampaignImportJson["status"], BadgeTone> = { running: "blue", completed: "green", failed: "red" };

function Imports({ imports }: { imports: CampaignImportJson[] }) {
  if (imports.length === 0) return null;
  return (
    <section aria-labelledby="imports-title" className="space-y-3">
      <h2 id="imports-title" className="text-lg font-semibold">
        Imports
      </h2>
      <ul className="space-y-3">
        {imports.map((item) => (
          <li key={item.id} className="rounded-lg bg-white p-4 ring-1 ring-slate-200">
            <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
              <Badge tone={statusTone[item.status]}>{item.status === "running" ? "Running" : item.status === "completed" ? "Completed" : "Failed"}</Badge>
              <span className="uppercase text-slate-500">{item.source}</span>
              <span className="tabular-nums">{item.rowsImported.toLocaleString("en-US")} added</span>
              <span className="tabular-nums">{item.rowsUpdated.toLocaleString("en-US")} updated</span>
              <span className="tabular-nums">{item.rowsUnchanged.toLocaleString("en-US")} unchanged</span>
              {item.rowsRemoved > 0 ? <span className="tabular-nums">{item.rowsRemoved.toLocaleString("en-US")} removed</span> : null}
              <span className="tabular-nums">{item.rowsRefused.toLocaleString("en-US")} refused</span>
              {item.rowsDuplicate > 0 ? <span className="tabular-nums">{item.rowsDuplicate.toLocaleString("en-US")} named twice in the file</span> : null}
              <span className="text-slate-500">
                <time dateTime={item.createdAt}>{formatDateTime(item.createdAt)}</time>
              </span>
            </div>
            {item.status === "running" ? <Progress label="Importing" done={item.rowsDone} total={item.rowsEstimated} unit="rows" /> : null}
            {item.error ? <p className="mt-2 text-sm text-red-700">{item.error}</p> : null}
            {item.problems.length > 0 ? (
              <table className="mt-3 min-w-full text-sm">
                <caption className="sr-only">Problems of this import</caption>
                <TableHead
                  className="text-left text-slate-600"
                  cellClassName="py-1 font-medium"
                  columns={[{ label: "Line", className: "w-20 pr-3" }, { label: "Severity", className: "w-24 pr-3" }, { label: "Problem" }]}
                />
                <tbody className="divide-y divide-slate-100">
                  {item.problems.map((problem, index) => (
                    <tr key={index}>
                      <td className="py-1 pr-3 tabular-nums">{problem.line ?? "—"}</td>
                      <td className="py-1 pr-3">
                        <Badge tone={problem.severity === "error" ? "red" : "amber"}>{problem.severity === "error" ? "Refused" : "Warning"}</Badge>
                      </td>
                      <td className="py-1">{problem.message}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

const funnelSteps: { key: keyof CampaignDetailJson["funnel"]; label: string }[] = [
  { key: "recipients", label: "Recipients" },
  { key: "opened", label: "Opened" },
  { key: "played", label: "Played" },
  { key: "reached25", label: "Watched 25%" },
  { key: "reached50", label: "Watched 50%" },
  { key: "reached75", label: "Watched 75%" },
  { key: "completed", label: "Completed" },
  { key: "clicked", label: "Clicked the CTA" },
];

function Funnel({ funnel }: { funnel: CampaignDetailJson["funnel"] }) {
  const base = funnel.recipients;
  return (
    <section aria-labelledby="funnel-title" className="space-y-3">
      <h2 id="funnel-title" className="text-lg font-semibold">
        Funnel
      </h2>
      <dl className="grid gap-2 rounded-lg bg-white p-4 ring-1 ring-slate-200" data-testid="campaign-funnel">
        {funnelSteps.map((step) => {
          const value = funnel[step.key];
          const percent = base > 0 ? Math.round((value / base) * 1000) / 10 : 0;
          return (
            <div key={step.key} className="grid grid-cols-[6.5rem_1fr_5.5rem] items-center gap-3 text-sm sm:grid-cols-[9rem_1fr_7rem]">
              <dt className="text-slate-700">{step.label}</dt>
              <div className="h-3 overflow-hidden rounded bg-slate-100" aria-hidden>
                <div className="h-full bg-indigo-500" style={{ width: `${percent}%` }} />
              </div>
              <dd className="text-right tabular-nums">
                {value.toLocaleString("en-US")} <span className="text-slate-500">({percent}%)</span>
              </dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}

/** How far a recipient got, in one cell: not opened, opened, or the furthest point watched; then whether they completed and clicked. */
function Reach({ reach }: { reach: RecipientJson["reach"] }) {
  const watched = !reach.opened ? "Not opened" : reach.furthestPercent === 0 ? "Opened" : `Watched ${reach.furthestPercent}%`;
  return (
    <div className="flex flex-wrap items-center gap-1">
      <span className={reach.opened ? "tabular-nums" : "text-slate-500"}>{watched}</span>
      {reach.completed ? <Badge tone="green">Completed</Badge> : null}
      {reach.clicked ? <Badge tone="blue">Clicked</Badge> : null}
    </div>
  );
}

/** The fields a recipient fills, each with its key (a template may have many: one cell, not a column each); "—" when none. */
function RecipientData({ data, fields }: { data: Record<string, unknown>; fields: CampaignDetailJson["fields"] }) {
  const filled = fields.filter((field) => typeof data[field.key] === "string" && data[field.key] !== "");
  if (filled.length === 0) return <>—</>;
  return (
    <dl className="grid max-w-72 grid-cols-[auto_1fr] gap-x-2 text-xs max-sm:max-w-none">
      {filled.map((field) => (
        <div key={field.key} className="contents">
          <dt className="text-slate-500">{field.key}</dt>
          <dd className="truncate text-slate-900">{String(data[field.key])}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A recipient's own id, or nothing when the import knew them by their data alone (a digest is no name). */
const ownId = (externalId: string) => (externalId.startsWith("sha256:") ? null : externalId);

function Recipients({ projectId, campaignId, fields, canEdit }: { projectId: string; campaignId: string; fields: CampaignDetailJson["fields"]; canEdit: boolean }) {
  const recipients = useRecipients(projectId, campaignId);
  const items = recipients.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section aria-labelledby="recipients-title" className="space-y-3">
      <h2 id="recipients-title" className="text-lg font-semibold">
        Recipients
      </h2>
      {recipients.isPending ? <LoadingState label="Loading recipients…" /> : null}
      {recipients.error ? <ErrorState message={problemMessage(recipients.error)} retry={() => void recipients.refetch()} /> : null}
      {!recipients.isPending && items.length === 0 ? <EmptyState title="No recipients yet">Upload a CSV to give each row its own link.</EmptyState> : null}
      {items.length > 0 ? (
        // On a phone each row stacks into a card, every cell labelled, so the link and its Copy
        // button are on screen instead of past a sideways scroll.
        <div className="overflow-x-auto rounded-lg bg-white ring-1 ring-slate-200">
          <table className={`min-w-full divide-y divide-slate-200 text-sm ${stacked.table}`}>
            <caption className="sr-only">Recipients and how far each watched</caption>
            <TableHead
              className={`bg-slate-50 text-left text-slate-600 ${stacked.head}`}
              cellClassName="px-3 py-2 font-medium"
              columns={[
                { label: "Recipient" },
                { label: "Data" },
                { label: "Reach" },
                { label: "Link" },
                ...(canEdit ? [{ label: "Actions" }] : []),
              ]}
            />
            <tbody className={`divide-y divide-slate-100 ${stacked.body}`}>
              {items.map((recipient) => (
                <tr key={recipient.id} data-testid="recipient-row" className={stacked.row}>
                  <th scope="row" className="max-w-48 px-3 py-2 text-left font-normal max-sm:col-span-2 max-sm:max-w-none max-sm:p-0">
                    {recipient.email ? <span className="block truncate">{recipient.email}</span> : null}
                    {ownId(recipient.externalId) ? (
                      <span className="block truncate font-mono text-xs text-slate-500" title={recipient.externalId}>
                        {recipient.externalId}
                      </span>
                    ) : null}
                    {!recipient.email && !ownId(recipient.externalId) ? <span className="text-slate-500">Line {recipient.line ?? "—"}</span> : null}
                  </th>
                  <td data-label="Data" className={`min-w-44 px-3 py-2 max-sm:col-span-2 ${stacked.cell}`}>
                    <RecipientData data={recipient.data} fields={fields} />
                  </td>
                  <td data-label="Reach" className={`px-3 py-2 whitespace-nowrap max-sm:col-span-2 ${stacked.cell}`}>
                    <Reach reach={recipient.reach} />
                  </td>
                  <td data-label="Link" className={`px-3 py-2 max-sm:col-span-2 ${stacked.cell}`}>
                    {recipient.url ? (
                      <div className="flex min-w-0 items-center gap-2">
                        <a href={recipient.url} target="_blank" rel="noopener noreferrer" className="max-w-40 min-w-0 truncate font-mono text-xs text-indigo-700 hover:underline max-sm:max-w-none max-sm:flex-1" data-testid="recipient-url">
                          {recipient.url}
                        </a>
                        <CopyButton value={recipient.url} label="Copy link" className="shrink-0 whitespace-nowrap" />
                      </div>
                    ) : (
                      "—"
                    )}
                  </td>
                  {canEdit ? (
                    <td data-label="Actions" className={`px-3 py-2 max-sm:col-span-2 ${stacked.cell}`}>
                      <RecipientActions projectId={projectId} campaignId={campaignId} recipient={recipient} fields={fields} />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {recipients.hasNextPage ? (
        <Button onClick={() => void recipients.fetchNextPage()} busy={recipients.isFetchingNextPage}>
          Show more recipients
        </Button>
      ) : null}
    </section>
  );
}
