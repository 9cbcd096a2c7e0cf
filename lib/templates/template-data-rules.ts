import { and, eq, like } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { templateFiles, templates } from "@/lib/db/schema";
import { asPlayedValues, checkPersonalizationData, templateRuleFields, type DataProblem, type DataRuleField } from "@/shared/templates/data-rules";
import type { BindingManifest, TemplateField } from "@/shared/templates/manifest";

// A stored template's data rules (shared/templates/data-rules.ts), for the checks that run on the server: the
// shares API and campaign imports.

export type TemplateDataRules = { fields: DataRuleField[]; imageFiles: Set<string> };

/**
 * The fields the template stored at upload (the manifest's, or its `{{key}}` layers), strict as
 * the manifest marks them (read from the manifest: templates stored before the flag existed have
 * none in their field list), and the names of its image files.
 */
export async function getTemplateDataRules(db: Db, templateId: string): Promise<TemplateDataRules> {
  const [[row], images] = await Promise.all([
    db.select({ fields: templates.fields, manifest: templates.manifest }).from(templates).where(eq(templates.id, templateId)),
    db
      .select({ name: templateFiles.name })
      .from(templateFiles)
      .where(and(eq(templateFiles.templateId, templateId), eq(templateFiles.role, "assetFiles"), like(templateFiles.contentType, "image/%"))),
  ]);
  return {
    fields: templateRuleFields((row?.fields ?? []) as TemplateField[], (row?.manifest as BindingManifest | null) ?? null),
    imageFiles: new Set(images.map((image) => image.name)),
  };
}

/** A share's data's problems against a stored template, its values as the player will receive them. */
export async function checkTemplateData(db: Db, templateId: string, data: Readonly<Record<string, unknown>>): Promise<DataProblem[]> {
  const rules = await getTemplateDataRules(db, templateId);
  return checkPersonalizationData(rules.fields, asPlayedValues(data), rules.imageFiles);
}
