import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { z } from "zod";
import { TemplateCompare, type CompareSide } from "@/components/console/templates/template-compare";
import { asApiJson, requireProjectPage } from "@/lib/console/page-access";
import { loadPageData } from "@/lib/server/request-context";
import { defaultComparison } from "@/lib/templates/compare-templates";
import { templateSchema } from "@/lib/templates/contract";
import { getTemplateOutline } from "@/lib/templates/template-outline";
import { listTemplates } from "@/lib/templates/templates";

export const metadata: Metadata = { title: "Compare versions" };

type Props = { params: Promise<{ projectId: string }>; searchParams: Promise<{ a?: string | string[]; b?: string | string[] }> };

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) || undefined;

// Two templates of the project side by side, named in the query (?a=…&b=…) so the address can be
// shared. With one or none named, the default counterpart is put in the address; an id that is
// not one of the project's templates is shown as such on its side, never as a crash.
export default async function CompareTemplatesPage({ params, searchParams }: Props) {
  const { projectId } = await params;
  const query = await searchParams;
  const [a, b] = [single(query.a), single(query.b)];
  const page = await requireProjectPage(projectId);
  const templates = asApiJson(z.array(templateSchema), await loadPageData(() => listTemplates(page)));
  if (!a || !b) {
    const pair = defaultComparison(templates, b ?? a);
    if (pair) redirect(`/projects/${projectId}/templates/compare?a=${pair.a.id}&b=${pair.b.id}`);
  }

  const side = async (id: string | undefined): Promise<CompareSide> => {
    const template = templates.find((candidate) => candidate.id === id);
    if (!id || !template) return { id: id ?? null, loaded: null };
    return { id, loaded: { template, outline: await loadPageData(() => getTemplateOutline(page, id)) } };
  };
  const [sideA, sideB] = await Promise.all([side(a), side(b)]);
  return <TemplateCompare projectId={projectId} templates={templates} a={sideA} b={sideB} />;
}
