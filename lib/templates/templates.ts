import { and, desc, eq, inArray } from "drizzle-orm";
import { NotFoundError } from "@/lib/errors";
import { isUuid } from "@/lib/auth/project-access";
import type { Db } from "@/lib/db";
import { templateFiles, templates } from "@/lib/db/schema";
import { projectVerb } from "@/lib/services/verbs";
import type { FileRole } from "./contract";

export type TemplateRow = typeof templates.$inferSelect;
export type TemplateFileRow = typeof templateFiles.$inferSelect;
type TemplateScope = { projectId: string; templateId: string };

const presentFile = (file: TemplateFileRow) => ({
  name: file.name,
  size: file.size,
  sha256: file.sha256,
  contentType: file.contentType,
});

export function presentTemplate(row: TemplateRow, files: TemplateFileRow[]) {
  const single = (role: FileRole) => {
    const file = files.find((f) => f.role === role);
    return file ? presentFile(file) : undefined;
  };
  return {
    id: row.id,
    projectId: row.projectId,
    name: row.name,
    version: row.version,
    kind: row.kind,
    status: row.status,
    files: {
      templateJson: single("templateJson"),
      manifestJson: single("manifestJson"),
      overlayJson: single("overlayJson"),
      videoFile: single("videoFile"),
      posterFile: single("posterFile"),
      assetFiles: files
        .filter((f) => f.role === "assetFiles")
        .sort((a, b) => a.name.localeCompare(b.name))
        .map(presentFile),
    },
    fields: row.fields,
    width: row.width,
    height: row.height,
    createdAt: row.createdAt,
    createdBy: row.createdBy,
    deployedAt: row.deployedAt,
    scheduledDeployAt: row.deployAt,
    archivedAt: row.archivedAt,
    everProduction: row.everProduction,
  };
}

export type Template = ReturnType<typeof presentTemplate>;

async function filesOf(db: Db, templateIds: string[]): Promise<Map<string, TemplateFileRow[]>> {
  const byTemplate = new Map<string, TemplateFileRow[]>(templateIds.map((id) => [id, []]));
  if (templateIds.length === 0) return byTemplate;
  const rows = await db.select().from(templateFiles).where(inArray(templateFiles.templateId, templateIds));
  for (const row of rows) byTemplate.get(row.templateId)!.push(row);
  return byTemplate;
}

/** The project's templates, newest first, optionally of one status. */
export const listTemplates = projectVerb("template.read", async ({ db, access: { project } }, input: { status?: TemplateRow["status"] } | void): Promise<Template[]> => {
  const status = input ? input.status : undefined;
  const rows = await db
    .select()
    .from(templates)
    .where(and(eq(templates.projectId, project.id), status ? eq(templates.status, status) : undefined))
    .orderBy(desc(templates.createdAt), desc(templates.id));
  const files = await filesOf(db, rows.map((row) => row.id));
  return rows.map((row) => presentTemplate(row, files.get(row.id)!));
});

/** The template within its project, or a 404; `lock` holds its row for the rest of the transaction. */
export async function getTemplateRowOrThrow(db: Db, { projectId, templateId }: TemplateScope, lock = false): Promise<TemplateRow> {
  const notFound = new NotFoundError(`Template ${templateId} was not found.`);
  if (!isUuid(templateId)) throw notFound;
  const query = db
    .select()
    .from(templates)
    .where(and(eq(templates.id, templateId), eq(templates.projectId, projectId)));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound;
  return row;
}

/** The template within the authorized project, or a 404. */
export const getTemplate = projectVerb("template.read", async ({ db, access }, templateId: string): Promise<Template> => {
  const row = await getTemplateRowOrThrow(db, { projectId: access.project.id, templateId });
  return presentTemplate(row, (await filesOf(db, [row.id])).get(row.id)!);
});

export async function getTemplateFiles(db: Db, templateId: string): Promise<TemplateFileRow[]> {
  return (await filesOf(db, [templateId])).get(templateId)!;
}
