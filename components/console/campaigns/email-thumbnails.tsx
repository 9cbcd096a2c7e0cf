"use client";

import { Badge, type BadgeTone } from "@/components/console/badge";
import { Button } from "@/components/console/button";
import { CopyButton } from "@/components/console/copy-button";
import { ErrorState, LoadingState, RoleNote } from "@/components/console/states";
import { stacked, TableHead } from "@/components/console/table-head";
import { problemMessage } from "@/lib/console/api-client";
import { useQueueThumbnails, useThumbnails, type ThumbnailPageJson } from "@/lib/console/hooks/campaigns";
import { Progress } from "./progress";

type Thumbnail = ThumbnailPageJson["items"][number];

const statusLabel: Record<NonNullable<Thumbnail["status"]>, { label: string; tone: BadgeTone }> = {
  queued: { label: "Queued", tone: "blue" },
  rendering: { label: "Rendering", tone: "blue" },
  done: { label: "Ready", tone: "green" },
  failed: { label: "Failed", tone: "red" },
};

/**
 * A campaign's e-mail thumbnails: generate one short GIF per recipient (from the page, with its
 * progress), then copy each recipient's HTML — the GIF linked to their page — into an e-mail, or
 * export them all (the export's thumbnail_url and html columns) for an e-mail platform.
 */
export function EmailThumbnails({ projectId, campaignId, canRender, hasRecipients }: { projectId: string; campaignId: string; canRender: boolean; hasRecipients: boolean }) {
  const thumbnails = useThumbnails(projectId, campaignId);
  const queue = useQueueThumbnails(projectId, campaignId);
  const summary = thumbnails.data?.pages[0]?.summary;
  const items = thumbnails.data?.pages.flatMap((page) => page.items) ?? [];
  const started = summary !== undefined && summary.done + summary.pending + summary.failed > 0;
  return (
    <section aria-labelledby="thumbnails-title" className="space-y-3">
      <h2 id="thumbnails-title" className="text-lg font-semibold">
        E-mail thumbnails
      </h2>
      <p className="text-sm text-slate-600">
        A 3-second GIF per recipient with a play button, linked to their page: an e-mail cannot play video, but it can show this and open the page.
      </p>
      {canRender ? (
        <div className="flex flex-wrap items-center gap-3">
          <Button intent="primary" busy={queue.isPending} disabledReason={hasRecipients ? null : "Import recipients first"} onClick={() => queue.mutate()}>
            {!started ? "Generate thumbnails" : summary.outdated > 0 ? "Generate missing and outdated thumbnails" : "Generate missing thumbnails"}
          </Button>
          {queue.data ? (
            <p role="status" className="text-sm text-slate-700">
              {queue.data.queued === 0 ? "Every recipient has a thumbnail already." : `Queued ${queue.data.queued.toLocaleString("en-US")} thumbnail${queue.data.queued === 1 ? "" : "s"}.`}
            </p>
          ) : null}
        </div>
      ) : (
        <RoleNote>Generating thumbnails needs the Editor role or higher.</RoleNote>
      )}
      {queue.error ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 ring-1 ring-red-200">
          {problemMessage(queue.error)}
        </p>
      ) : null}
      {thumbnails.isPending ? <LoadingState label="Loading thumbnails…" /> : null}
      {thumbnails.error ? <ErrorState message={problemMessage(thumbnails.error)} retry={() => void thumbnails.refetch()} /> : null}
      {summary && started ? (
        <div className="space-y-1">
          <Progress label={summary.pending > 0 ? "Rendering thumbnails" : "Thumbnails"} done={summary.done} total={summary.recipients} unit="ready" />
          {summary.failed > 0 ? <p className="text-sm text-red-700">{summary.failed.toLocaleString("en-US")} failed: generate again to retry them.</p> : null}
          {summary.outdated > 0 ? (
            <p className="text-sm text-amber-800">
              {summary.outdated.toLocaleString("en-US")} {summary.outdated === 1 ? "thumbnail shows" : "thumbnails show"} data or a template that changed since: generate again to
              refresh {summary.outdated === 1 ? "it" : "them"}.
            </p>
          ) : null}
        </div>
      ) : null}
      {started && items.length > 0 ? <ThumbnailTable items={items} /> : null}
      {thumbnails.hasNextPage && started ? (
        <Button onClick={() => void thumbnails.fetchNextPage()} busy={thumbnails.isFetchingNextPage}>
          Show more thumbnails
        </Button>
      ) : null}
      <details className="rounded-lg bg-white p-4 text-sm ring-1 ring-slate-200">
        <summary className="cursor-pointer font-medium">Sending with an e-mail platform (Mailchimp, HubSpot…)</summary>
        <div className="mt-2 space-y-2 text-slate-700">
          <p>
            Export the CSV above and import it as contacts: each row has the recipient&apos;s <code>email</code>, their personal <code>url</code> and, once thumbnails are ready,{" "}
            <code>thumbnail_url</code> and <code>html</code>.
          </p>
          <p>
            Map the columns to contact fields (for example <code>VIDEO_URL</code> and <code>VIDEO_HTML</code>), then put the field&apos;s merge tag in the e-mail: <code>*|VIDEO_URL|*</code> in
            Mailchimp, <code>{"{{ contact.video_url }}"}</code> in HubSpot. Use the HTML field in a code or HTML block so the GIF shows and links to the page.
          </p>
          <p>The thumbnail links are signed for 30 days: send within that time, or generate and export again.</p>
        </div>
      </details>
    </section>
  );
}

function ThumbnailTable({ items }: { items: Thumbnail[] }) {
  return (
    <div className="overflow-x-auto rounded-lg bg-white ring-1 ring-slate-200">
      <table className={`min-w-full divide-y divide-slate-200 text-sm ${stacked.table}`}>
        <caption className="sr-only">Each recipient&apos;s thumbnail and the HTML to paste into an e-mail</caption>
        <TableHead
          className={`bg-slate-50 text-left text-slate-600 ${stacked.head}`}
          cellClassName="px-3 py-2 font-medium"
          columns={[{ label: "Recipient" }, { label: "Thumbnail" }, { label: "E-mail HTML" }]}
        />
        <tbody className={`divide-y divide-slate-100 ${stacked.body}`}>
          {items.map((item) => (
            <tr key={item.recipientId} data-testid="thumbnail-row" className={stacked.row}>
              <th scope="row" className="max-w-56 truncate px-3 py-2 text-left font-normal max-sm:col-span-2 max-sm:max-w-none max-sm:p-0">
                {item.email ?? <span className="font-mono text-xs">{item.recipientId}</span>}
              </th>
              <td data-label="Thumbnail" className={`px-3 py-2 ${stacked.cell}`}>
                {item.thumbnailUrl ? (
                  // eslint-disable-next-line @next/next/no-img-element -- a signed GIF of the API, not a static asset next/image could optimize
                  <img src={item.thumbnailUrl} alt={`Thumbnail for ${item.email ?? "this recipient"}`} width={96} height={54} className="rounded ring-1 ring-slate-200" />
                ) : item.status ? (
                  <Badge tone={statusLabel[item.status].tone}>{statusLabel[item.status].label}</Badge>
                ) : (
                  <span className="text-slate-500">None yet</span>
                )}
                {item.outdated ? (
                  <p className="mt-1">
                    <Badge tone="amber">Outdated</Badge>
                  </p>
                ) : null}
                {item.error ? <p className="mt-1 text-xs text-red-700">{item.error}</p> : null}
              </td>
              <td data-label="E-mail HTML" className={`px-3 py-2 ${stacked.cell}`}>
                {item.html ? <CopyButton value={item.html} label="Copy HTML" /> : <span className="text-slate-500">—</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
