import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { z } from "zod";
import { TemplateDetail } from "@/components/console/templates/template-detail";
import { isAppError } from "@/lib/errors";
import { asApiJson, requireProjectPage } from "@/lib/console/page-access";
import { loadPageData } from "@/lib/server/request-context";
import { templateSchema } from "@/lib/templates/contract";
import { getTemplateOutline } from "@/lib/templates/template-outline";
import { getTemplate, listTemplates } from "@/lib/templates/templates";

type Params = { projectId: string; templateId: string };

/** The page's data, loaded once for generateMetadata and the page; null when the template is not the project's. */
const loadTemplatePage = cache(async (projectId: string, templateId: string) => {
  const page = await requireProjectPage(projectId);
  try {
    return await loadPageData(() => Promise.all([getTemplate(page, templateId), listTemplates(page), getTemplateOutline(page, templateId)]));
  } catch (error) {
    if (isAppError(error, "not_found")) return null;
    throw error;
  }
});

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { projectId, templateId } = await params;
  const loaded = await loadTemplatePage(projectId, templateId);
  return { title: loaded ? `${loaded[0].name} ${loaded[0].version}` : "Template" };
}

export default async function TemplatePage({ params }: { params: Promise<Params> }) {
  const { projectId, templateId } = await params;
  const loaded = await loadTemplatePage(projectId, templateId);
  if (!loaded) notFound();
  const [template, templates, outline] = loaded;
  return (
    <TemplateDetail
      projectId={projectId}
      initialTemplate={asApiJson(templateSchema, template)}
      initialTemplates={asApiJson(z.array(templateSchema), templates)}
      outline={outline}
    />
  );
}
