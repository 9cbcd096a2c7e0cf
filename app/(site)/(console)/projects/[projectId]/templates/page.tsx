import type { Metadata } from "next";
import { z } from "zod";
import { TemplateList } from "@/components/console/templates/template-list";
import { asApiJson, requireProjectPage } from "@/lib/console/page-access";
import { templateStatusList } from "@/lib/console/templates/template-rules";
import { loadPageData } from "@/lib/server/request-context";
import { templateSchema } from "@/lib/templates/contract";
import { listTemplates } from "@/lib/templates/templates";

export const metadata: Metadata = { title: "Templates" };

type Props = { params: Promise<{ projectId: string }>; searchParams: Promise<{ status?: string | string[] }> };

// The project's templates; the status filter is applied in the browser, so switching it needs no round trip.
export default async function TemplatesPage({ params, searchParams }: Props) {
  const { projectId } = await params;
  const { status } = await searchParams;
  const page = await requireProjectPage(projectId);
  const templates = await loadPageData(() => listTemplates(page));
  return (
    <TemplateList
      projectId={projectId}
      initialTemplates={asApiJson(z.array(templateSchema), templates)}
      initialStatus={templateStatusList.find((s) => s === status) ?? null}
    />
  );
}
