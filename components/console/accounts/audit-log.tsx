"use client";

import { useMemo, useState } from "react";
import { Button } from "@/components/console/button";
import { inputClass } from "@/components/console/field";
import { EmptyState, ErrorState, LoadingState } from "@/components/console/states";
import { auditActionLabel, auditActionLabels, auditChanges, auditSubject } from "@/lib/console/audit-actions";
import { problemMessage } from "@/lib/console/api-client";
import { formatDateTime } from "@/lib/console/format";
import { useAuditLog, type AuditFilters, type AuditPage } from "@/lib/console/hooks/audit";

/** Who did what, newest first; filter by action and by an actor seen in the log. */
export function AuditLog({ projectId, firstPage }: { projectId: string; firstPage: AuditPage }) {
  const [filters, setFilters] = useState<AuditFilters>({});
  const log = useAuditLog(projectId, filters, firstPage);
  const events = useMemo(() => log.data?.pages.flatMap((page) => page.items) ?? [], [log.data]);
  // Actors come from what has been loaded unfiltered: the log is the list of who acted.
  const actors = useMemo(() => {
    const seen = new Map<string, string>();
    for (const event of firstPage.items) if (event.actor) seen.set(event.actor.id, event.actor.email);
    for (const event of events) if (event.actor) seen.set(event.actor.id, event.actor.email);
    return [...seen];
  }, [firstPage, events]);

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row">
        <div className="sm:w-64">
          <label htmlFor="audit-action" className="block text-sm font-medium text-slate-800">
            Action
          </label>
          <select id="audit-action" className={inputClass} value={filters.action ?? ""} onChange={(event) => setFilters({ ...filters, action: event.target.value || undefined })}>
            <option value="">All actions</option>
            {Object.entries(auditActionLabels).map(([action, label]) => (
              <option key={action} value={action}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="sm:w-64">
          <label htmlFor="audit-actor" className="block text-sm font-medium text-slate-800">
            Actor
          </label>
          <select id="audit-actor" className={inputClass} value={filters.actor ?? ""} onChange={(event) => setFilters({ ...filters, actor: event.target.value || undefined })}>
            <option value="">Everyone</option>
            {actors.map(([id, email]) => (
              <option key={id} value={id}>
                {email}
              </option>
            ))}
          </select>
        </div>
      </div>
      {log.error ? <ErrorState message={problemMessage(log.error)} retry={() => void log.refetch()} /> : null}
      {log.isPending ? (
        <LoadingState label="Loading the audit log…" />
      ) : events.length === 0 ? (
        <EmptyState title={filters.action || filters.actor ? "No events match these filters" : "Nothing has happened in this project yet"} />
      ) : (
        <ol className="divide-y divide-slate-200 rounded-lg bg-white ring-1 ring-slate-200" aria-label="Audit events">
          {events.map((event) => (
            <li key={event.id} className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-baseline sm:justify-between">
              <div className="min-w-0">
                <p className="font-medium">{auditActionLabel(event.action)}</p>
                <p className="break-words text-sm text-slate-700" data-testid="audit-subject">
                  {auditSubject(event)}
                </p>
                <AuditChanges lines={auditChanges(event)} />
                <p className="truncate text-sm text-slate-500">by {event.actor?.email ?? "the system"}</p>
              </div>
              <time dateTime={event.createdAt} title={event.createdAt} className="shrink-0 text-sm text-slate-500">
                {formatDateTime(event.createdAt)}
              </time>
            </li>
          ))}
        </ol>
      )}
      {log.hasNextPage ? (
        <Button onClick={() => void log.fetchNextPage()} busy={log.isFetchingNextPage}>
          Load older events
        </Button>
      ) : null}
    </div>
  );
}

/** An update's changed fields, old → new. */
function AuditChanges({ lines }: { lines: string[] }) {
  if (lines.length === 0) return null;
  return (
    <ul className="mt-1 space-y-0.5 text-sm text-slate-600" aria-label="Changes">
      {lines.map((line) => (
        <li key={line} className="break-words">
          {line}
        </li>
      ))}
    </ul>
  );
}
