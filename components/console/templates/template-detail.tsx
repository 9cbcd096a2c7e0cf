"use client";

import Link from "next/link";
import { Badge } from "@/components/console/badge";
import { ButtonLink } from "@/components/console/button";
import { ErrorState } from "@/components/console/states";
import { problemMessage } from "@/lib/console/api-client";
import { useTemplate, useTemplates } from "@/lib/console/hooks/templates";
import { formatDateTime } from "@/lib/console/format";
import { formatBytes, shortSha } from "@/lib/console/templates/format";
import { comparePath, currentProduction, templateFileList, totalSize, type TemplateJson } from "@/lib/console/templates/template-rules";
import type { TemplateOutline } from "@/lib/templates/template-outline";
import { kindLabels } from "./kind-labels";
import { LivePreview } from "./live-preview";
import { fileRoleLabels, targetLabel } from "./outline-labels";
import { TemplateActions } from "./template-actions";
import { TemplateStatusBadge } from "./template-status-badge";
import { Section } from "./section";

type Props = { projectId: string; initialTemplate: TemplateJson; initialTemplates: TemplateJson[]; outline: TemplateOutline };

/** One template: its lifecycle and actions, a live preview with its fields, then what it is made of. */
export function TemplateDetail({ projectId, initialTemplate, initialTemplates, outline }: Props) {
  const query = useTemplate(projectId, initialTemplate.id, initialTemplate);
  const list = useTemplates(projectId, initialTemplates);
  const template = query.data;
  if (!template) return <ErrorState message={problemMessage(query.error)} retry={() => void query.refetch()} />;
  const seconds = (frame: number) => (outline.frameRate ? ` (${(frame / outline.frameRate).toFixed(1)} s)` : "");
  const previewFields = outline.fields.map((field) => ({ ...field, note: targetLabel(field.target) }));
  const templates = list.data ?? [];
  const production = currentProduction(templates, template.id);

  return (
    <article className="space-y-8" aria-labelledby="template-heading">
      <div className="space-y-4">
        <Link href={`/projects/${projectId}/templates`} className="text-sm text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600">
          ← All templates
        </Link>
        <div className="flex flex-wrap items-center gap-2">
          <h1 id="template-heading" className="min-w-0 break-words text-2xl font-semibold">
            {template.name}
          </h1>
          <Badge>v{template.version}</Badge>
          <TemplateStatusBadge status={template.status} />
        </div>
        {query.isError ? <ErrorState title="This template could not be refreshed" message={problemMessage(query.error)} retry={() => void query.refetch()} /> : null}
        <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-3 lg:grid-cols-6">
          <Fact label="Kind">{kindLabels[template.kind]}</Fact>
          <Fact label="Size">{template.width && template.height ? `${template.width}×${template.height}` : "—"}</Fact>
          <Fact label="Files">{formatBytes(totalSize(template))}</Fact>
          <Fact label="Created">
            <time dateTime={template.createdAt}>{formatDateTime(template.createdAt)}</time>
          </Fact>
          <Fact label="Deployed">{template.deployedAt ? <time dateTime={template.deployedAt}>{formatDateTime(template.deployedAt)}</time> : "—"}</Fact>
          <Fact label="Archived">{template.archivedAt ? <time dateTime={template.archivedAt}>{formatDateTime(template.archivedAt)}</time> : "—"}</Fact>
        </dl>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <TemplateActions projectId={projectId} template={template} production={production} />
          {templates.length > 1 ? <ButtonLink href={comparePath(projectId, templates, template.id)}>Compare versions</ButtonLink> : null}
        </div>
      </div>

      <Section title="Live preview" id="preview">
        <LivePreview projectId={projectId} template={template} fields={previewFields} />
      </Section>

      <Section title="Fields" id="fields" note="The data keys this template binds, from its binding manifest (or its {{key}} text layers).">
        {outline.fields.length === 0 ? (
          <p className="text-sm text-slate-600">No fields.</p>
        ) : (
          <Table head={["Key", "Type", "Target", "Default", "Max length"]} caption="Fields">
            {outline.fields.map((field) => (
              <tr key={field.key}>
                <th scope="row" className="px-3 py-2 text-left font-mono text-xs font-medium">
                  {field.key}
                </th>
                <td className="px-3 py-2">{field.type}</td>
                <td className="px-3 py-2">{targetLabel(field.target)}</td>
                <td className="max-w-[16rem] truncate px-3 py-2" title={field.default ?? undefined}>
                  {field.default ?? "—"}
                </td>
                <td className="px-3 py-2 tabular-nums">{field.maxLength ?? "—"}</td>
              </tr>
            ))}
          </Table>
        )}
      </Section>

      <div className="grid gap-8 lg:grid-cols-2">
        <Section title="Chapters" id="chapters" note="From the manifest, else one per Lottie marker.">
          {outline.chapters.length === 0 ? (
            <p className="text-sm text-slate-600">No chapters.</p>
          ) : (
            <Table head={["Name", "Id", "Frames"]} caption="Chapters">
              {outline.chapters.map((chapter) => (
                <tr key={chapter.id}>
                  <th scope="row" className="px-3 py-2 text-left font-medium">
                    {chapter.name}
                  </th>
                  <td className="px-3 py-2 font-mono text-xs">{chapter.id}</td>
                  <td className="px-3 py-2 tabular-nums">
                    {chapter.startFrame}–{chapter.endFrame}
                    <span className="text-slate-500">{seconds(chapter.endFrame - chapter.startFrame)}</span>
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </Section>
        <Section title="Calls to action" id="ctas" note="Layers that open the share's CTA link when clicked.">
          {outline.ctas.length === 0 ? (
            <p className="text-sm text-slate-600">No calls to action.</p>
          ) : (
            <Table head={["Name", "Id", "Layer"]} caption="Calls to action">
              {outline.ctas.map((cta) => (
                <tr key={cta.id}>
                  <th scope="row" className="px-3 py-2 text-left font-medium">
                    {cta.name}
                  </th>
                  <td className="px-3 py-2 font-mono text-xs">{cta.id}</td>
                  <td className="px-3 py-2">{cta.layer}</td>
                </tr>
              ))}
            </Table>
          )}
        </Section>
      </div>

      <Section title="Files" id="files">
        <Table head={["Name", "Role", "Size", "SHA-256", "Content type"]} caption="Files">
          {templateFileList(template).map((file) => (
            <tr key={`${file.role}/${file.name}`}>
              <th scope="row" className="max-w-[14rem] truncate px-3 py-2 text-left font-medium" title={file.name}>
                {file.name}
              </th>
              <td className="px-3 py-2">{fileRoleLabels[file.role] ?? file.role}</td>
              <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">{formatBytes(file.size)}</td>
              <td className="px-3 py-2">
                <code className="text-xs" title={file.sha256}>
                  {shortSha(file.sha256)}
                </code>
              </td>
              <td className="px-3 py-2 text-slate-600">{file.contentType}</td>
            </tr>
          ))}
        </Table>
      </Section>
    </article>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}

function Table({ head, caption, children }: { head: string[]; caption: string; children: React.ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-lg bg-white ring-1 ring-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            {head.map((label) => (
              <th key={label} scope="col" className="whitespace-nowrap px-3 py-2">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}
