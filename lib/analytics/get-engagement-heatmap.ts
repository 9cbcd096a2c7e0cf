import { templateChapters } from "@/lib/embed/page-manifest";
import { projectVerb } from "@/lib/services/verbs";
import { getTemplateRowOrThrow, type TemplateRow } from "@/lib/templates/templates";
import { rate } from "./definitions";
import { scopeOf, wholeDays } from "./get-project-analytics";
import { cubeMask, readHeatmap } from "./rollups/read";
import { readReportTail } from "./rollups/pending";
import { filtersOf, type EngagementHeatmap, type HeatmapQuery } from "./contract";
import { readSnapshot } from "./snapshot";

/**
 * GET /api/Projects/{projectId}/analytics/heatmap: second by second, how many plays of one
 * template watched, rewatched and left (definitions.ts), from the rollups and the events not yet
 * rolled up, over whole UTC days. 404 for a template not in the project.
 */
export const getEngagementHeatmap = projectVerb("analytics.read", async ({ db, access: { project } }, query: HeatmapQuery): Promise<EngagementHeatmap> => {
  const template = await getTemplateRowOrThrow(db, { projectId: project.id, templateId: query.templateId });
  const durationMs = templateDurationMs(template);
  const { from, to } = wholeDays(query.from, query.to);
  // The tail and the rollups read in one snapshot, so they agree (get-project-analytics.ts).
  const { freshness, heatmap } = await readSnapshot(db, async (tx) => {
    const scope = { ...scopeOf(project.id, query, from, to), templateId: template.id };
    const { change, ...freshness } = await readReportTail(tx, project.id, { masks: [cubeMask(scope)] });
    return { freshness, heatmap: await readHeatmap(tx, scope, change) };
  });
  const { plays, furthestMs, deltas } = heatmap;
  const length = Math.ceil((durationMs ?? furthestMs ?? 0) / 1000);
  // The rollups keep unclipped spans: a play that went on past the end dropped off in the last second.
  let lateDropOffs = 0;
  for (const [second, [, , dropOffs]] of deltas) if (second >= length) lateDropOffs += dropOffs;
  const seconds: EngagementHeatmap["seconds"] = [];
  let views = 0;
  let watchedPlays = 0;
  for (let second = 0; second < length; second++) {
    const [viewsDelta, playsDelta, secondDropOffs] = deltas.get(second) ?? [0, 0, 0];
    const dropOffs = secondDropOffs + (second === length - 1 ? lateDropOffs : 0);
    views += viewsDelta;
    watchedPlays += playsDelta;
    seconds.push({ second, watchedPlays, share: rate(watchedPlays, plays), views, rewatches: views - watchedPlays, dropOffs });
  }
  return {
    window: { from: from.toISOString(), to: to.toISOString() },
    freshness,
    filters: filtersOf(query),
    templateId: template.id,
    durationMs,
    plays,
    seconds,
    chapters: (await templateChapters(db, template)).map((chapter) => ({
      chapterId: chapter.id,
      chapterName: chapter.name,
      startMs: Math.max(0, chapter.startMs),
      endMs: chapter.endMs,
    })),
  };
});

/** A Lottie template's length from its in and out points; null for a Raster template (its video's length is not stored). */
function templateDurationMs(template: TemplateRow): number | null {
  const { kind, inPoint, outPoint, frameRate } = template;
  if (kind !== "LottieStandalone" || inPoint === null || outPoint === null || !frameRate) return null;
  return Math.max(0, Math.round(((outPoint - inPoint) / frameRate) * 1000));
}
