"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Button, ButtonLink } from "@/components/console/button";
import { inputClass } from "@/components/console/field";
import { useProject } from "@/components/console/project-context";
import { EmptyState, ErrorState, LoadingState } from "@/components/console/states";
import { problemMessage } from "@/lib/console/api-client";
import { useTemplates } from "@/lib/console/hooks/templates";
import { formatDateTime } from "@/lib/console/format";
import { formatBytes } from "@/lib/console/templates/format";
import { comparePath, templateStatusList, totalSize, type TemplateJson, type TemplateStatus } from "@/lib/console/templates/template-rules";
import { TemplateStatusBadge } from "./template-status-badge";
import { kindLabels } from "./kind-labels";
import { TableHead } from "@/components/console/table-head";

type Props = { projectId: string; initialTemplates: TemplateJson[]; initialStatus: TemplateStatus | null };

/** The project's templates, newest first: a table on wide screens, cards on a phone; filtered by status in the URL. */
export function TemplateList({ projectId, initialTemplates, initialStatus }: Props) {
  const { can, roleReason } = useProject();
  const router = useRouter();
  const filterId = useId();
  const [status, setStatus] = useState<TemplateStatus | null>(initialStatus);
  const templates = useTemplates(projectId, initialTemplates);
  const base = `/projects/${projectId}/templates`;

  const changeStatus = (value: string) => {
    const next = templateStatusList.find((s) => s === value) ?? null;
    setStatus(next);
    router.replace(next ? `${base}?status=${next}` : base, { scroll: false });
  };

  const all = templates.data ?? [];
  const shown = status ? all.filter((template) => template.status === status) : all;
  const count = (s: TemplateStatus) => all.filter((template) => template.status === s).length;

  return (
    <section aria-labelledby="templates-heading" className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 id="templates-heading" className="text-2xl font-semibold">
            Templates
          </h1>
          <p className="mt-1 text-sm text-slate-600">Uploaded templates start in Testing; deploying one makes it the Production template of the PROD share.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          {all.length > 1 ? <ButtonLink href={comparePath(projectId, all)}>Compare versions</ButtonLink> : null}
          {can("template.upload") ? (
            <ButtonLink href={`${base}/upload`} intent="primary">
              Upload template
            </ButtonLink>
          ) : (
            <Button intent="primary" disabledReason={roleReason("template.upload")}>
              Upload template
            </Button>
          )}
        </div>
      </div>

      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={filterId} className="text-sm font-medium text-slate-800">
          Status
        </label>
        <select id={filterId} value={status ?? ""} onChange={(event) => changeStatus(event.target.value)} className={`${inputClass} w-auto pr-8`}>
          <option value="">All ({all.length})</option>
          {templateStatusList.map((s) => (
            <option key={s} value={s}>
              {s} ({count(s)})
            </option>
          ))}
        </select>
        {templates.isFetching ? <span className="text-xs text-slate-500">Refreshing…</span> : null}
      </div>

      {templates.isPending ? (
        <LoadingState label="Loading templates…" />
      ) : templates.isError && all.length === 0 ? (
        <ErrorState message={problemMessage(templates.error)} retry={() => void templates.refetch()} />
      ) : shown.length === 0 ? (
        status ? (
          <EmptyState title={`No ${status} templates`}>
            <button type="button" className="font-medium text-indigo-700 underline focus-visible:outline-2 focus-visible:outline-indigo-600" onClick={() => changeStatus("")}>
              Show all templates
            </button>
          </EmptyState>
        ) : (
          <EmptyState title="No templates yet" action={can("template.upload") ? { href: `${base}/upload`, label: "Upload template" } : undefined}>
            {can("template.upload") ? "Upload a Lottie animation or an MP4 with a Lottie overlay to start." : "An Editor or a Project manager can upload the first one."}
          </EmptyState>
        )
      ) : (
        <>
          <TemplateTable templates={shown} base={base} />
          <TemplateCards templates={shown} base={base} />
        </>
      )}
    </section>
  );
}

function TemplateTable({ templates, base }: { templates: TemplateJson[]; base: string }) {
  return (
    <div className="hidden overflow-x-auto rounded-lg bg-white ring-1 ring-slate-200 md:block">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">Templates</caption>
        <TableHead
          className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600"
          cellClassName="px-4 py-2"
          columns={[{ label: "Name" }, { label: "Status" }, { label: "Version" }, { label: "Kind" }, { label: "Size", numeric: true }, { label: "Created" }, { label: "Deployed" }]}
        />
        <tbody className="divide-y divide-slate-100">
          {templates.map((template) => (
            <tr key={template.id} className="hover:bg-slate-50">
              <th scope="row" className="px-4 py-2 text-left font-medium">
                <Link href={`${base}/${template.id}`} className="text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600">
                  {template.name}
                </Link>
              </th>
              <td className="px-4 py-2">
                <TemplateStatusBadge status={template.status} />
              </td>
              <td className="px-4 py-2 tabular-nums">{template.version}</td>
              <td className="px-4 py-2">{kindLabels[template.kind]}</td>
              <td className="px-4 py-2 text-right tabular-nums">{formatBytes(totalSize(template))}</td>
              <td className="whitespace-nowrap px-4 py-2 text-slate-600">
                <time dateTime={template.createdAt}>{formatDateTime(template.createdAt)}</time>
              </td>
              <td className="whitespace-nowrap px-4 py-2 text-slate-600">
                {template.deployedAt ? <time dateTime={template.deployedAt}>{formatDateTime(template.deployedAt)}</time> : "—"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function TemplateCards({ templates, base }: { templates: TemplateJson[]; base: string }) {
  return (
    <ul className="space-y-3 md:hidden" aria-label="Templates">
      {templates.map((template) => (
        <li key={template.id} className="rounded-lg bg-white p-4 ring-1 ring-slate-200">
          <div className="flex items-start justify-between gap-2">
            <Link href={`${base}/${template.id}`} className="font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600">
              {template.name}
            </Link>
            <TemplateStatusBadge status={template.status} />
          </div>
          <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-500">Version</dt>
            <dd className="tabular-nums">{template.version}</dd>
            <dt className="text-slate-500">Kind</dt>
            <dd>{kindLabels[template.kind]}</dd>
            <dt className="text-slate-500">Size</dt>
            <dd className="tabular-nums">{formatBytes(totalSize(template))}</dd>
            <dt className="text-slate-500">Created</dt>
            <dd>
              <time dateTime={template.createdAt}>{formatDateTime(template.createdAt)}</time>
            </dd>
            <dt className="text-slate-500">Deployed</dt>
            <dd>{template.deployedAt ? <time dateTime={template.deployedAt}>{formatDateTime(template.deployedAt)}</time> : "—"}</dd>
          </dl>
        </li>
      ))}
    </ul>
  );
}
