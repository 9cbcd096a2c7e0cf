import { and, asc, eq } from "drizzle-orm";
import { scopeOf, summaryOf, wholeDays } from "@/lib/analytics/get-project-analytics";
import { cubeMask, readScope } from "@/lib/analytics/rollups/read";
import { readReportTail } from "@/lib/analytics/rollups/pending";
import { readSnapshot } from "@/lib/analytics/snapshot";
import type { Db } from "@/lib/db";
import { publicVideoShares, shareVariants, templates, type Channel } from "@/lib/db/schema";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/errors";
import { projectVerb } from "@/lib/services/verbs";
import type { ComparedVariant, VariantComparison, VariantComparisonQuery, VariantRate, VariantTest } from "./contract";
import { hasEnoughData, minimumSample, twoProportionTest, wilsonInterval, type Proportion } from "./statistics";
import { overallVerdict, testVerdict, type ComparedRate } from "./verdict";

/** The significance level of the comparison as a whole; each test gets its share (Bonferroni). */
const familyAlpha = 0.05;
const labels = ["A", "B", "C", "D"] as const;

/**
 * How each variant of the channel's share does against the control (position 0) over a window
 * (default: from when the test started to now): its sessions, viewers, plays, completion rate and
 * CTR with 95 % Wilson intervals, and for each other variant a pooled two-proportion z-test of both
 * rates against the control's. The numbers are the analytics report's (get-project-analytics.ts),
 * read per template on the share's channel from the same rollups and tail, over whole UTC days.
 * 404 without a share on the channel, 409 when the share has no A/B test.
 */
export const compareVariants = projectVerb(
  "analytics.read",
  async ({ db, access: { project } }, { channel, ...query }: VariantComparisonQuery & { channel: Channel }): Promise<VariantComparison> => {
    const shareId = await findShareId(db, project.id, channel);
    const variants = await readVariants(db, project.id, shareId);
    if (variants.length === 0) throw new ConflictError(`There is no A/B test on the ${channel} share: it serves one template.`, "no_ab_test");

    const startedAt = new Date(Math.min(...variants.map((variant) => variant.startedAt.getTime())));
    const { from, to } = wholeDays(query.from ?? startedAt, query.to ?? new Date());
    if (to <= from) {
      throw new ValidationError([
        { path: query.to ? "to" : "from", message: `the window is empty: \`to\` must be after \`from\` (the test started ${startedAt.toISOString()})` },
      ]);
    }

    const { freshness, summaries } = await readSnapshot(db, async (tx) => {
      const scopes = variants.map((variant) => scopeOf(project.id, { ...noFilters, channel, templateId: variant.templateId }, from, to));
      // Every variant's scope (one channel, one template) reads the same cube mask.
      const { change, ...freshness } = await readReportTail(tx, project.id, { masks: [cubeMask(scopes[0]!)] });
      const summaries = [];
      for (const scope of scopes) summaries.push(summaryOf(await readScope(tx, scope, { documents: false, tail: change })));
      return { freshness, summaries };
    });

    const alpha = familyAlpha / Math.max(1, variants.length - 1);
    const rates = summaries.map((summary) => ({
      completionRate: { successes: summary.completedPlays, trials: summary.plays },
      ctr: { successes: summary.sessionsWithPlayAndCtaClick, trials: summary.sessionsWithPlay },
    }));
    const compared: ComparedVariant[] = variants.map((variant, i) => {
      const summary = summaries[i]!;
      const names = { label: labels[i]!, controlLabel: labels[0] };
      const test = (rate: ComparedRate) => compareRate(rate, names, rates[i]![rate], rates[0]![rate], alpha);
      return {
        label: labels[i]!,
        position: variant.position,
        control: i === 0,
        templateId: variant.templateId,
        templateName: variant.templateName,
        templateVersion: variant.templateVersion,
        weight: variant.weight,
        startedAt: variant.startedAt.toISOString(),
        sessions: summary.sessions,
        uniqueViewers: summary.uniqueViewers,
        plays: summary.plays,
        completedPlays: summary.completedPlays,
        sessionsWithPlay: summary.sessionsWithPlay,
        sessionsWithPlayAndCtaClick: summary.sessionsWithPlayAndCtaClick,
        ctaClicks: summary.ctaClicks,
        completionRate: rateOf(rates[i]!.completionRate),
        ctr: rateOf(rates[i]!.ctr),
        vsControl: i === 0 ? null : { completionRate: test("completionRate"), ctr: test("ctr") },
      };
    });

    return {
      shareId,
      channel,
      window: { from: from.toISOString(), to: to.toISOString() },
      freshness,
      method: {
        confidenceLevel: 0.95,
        alpha,
        minimumTrials: minimumSample.trials,
        minimumSuccesses: minimumSample.successes,
        minimumFailures: minimumSample.failures,
      },
      variants: compared,
      verdict: overallVerdict(compared.flatMap((variant) => (variant.vsControl ? [variant.vsControl.completionRate, variant.vsControl.ctr] : []))),
    };
  },
);

const noFilters = { templateVersion: null, deviceType: null, country: null };

async function findShareId(db: Db, projectId: string, channel: Channel): Promise<string> {
  const [share] = await db
    .select({ id: publicVideoShares.id })
    .from(publicVideoShares)
    .where(and(eq(publicVideoShares.projectId, projectId), eq(publicVideoShares.channel, channel)));
  if (!share) throw new NotFoundError(`The project has no ${channel} share.`);
  return share.id;
}

/** The share's variants with their templates, in position order (the control first). */
function readVariants(db: Db, projectId: string, shareId: string) {
  return db
    .select({
      templateId: shareVariants.templateId,
      weight: shareVariants.weight,
      position: shareVariants.position,
      startedAt: shareVariants.startedAt,
      templateName: templates.name,
      templateVersion: templates.version,
    })
    .from(shareVariants)
    .innerJoin(templates, eq(templates.id, shareVariants.templateId))
    .where(and(eq(shareVariants.shareId, shareId), eq(shareVariants.projectId, projectId), eq(templates.projectId, projectId)))
    .orderBy(asc(shareVariants.position));
}

function rateOf(proportion: Proportion): VariantRate {
  return {
    ...proportion,
    value: proportion.trials === 0 ? null : proportion.successes / proportion.trials,
    interval: wilsonInterval(proportion),
    enoughData: hasEnoughData(proportion),
  };
}

function compareRate(rate: ComparedRate, names: { label: string; controlLabel: string }, variant: Proportion, control: Proportion, alpha: number): VariantTest {
  const test = twoProportionTest(variant, control);
  const enoughData = hasEnoughData(variant) && hasEnoughData(control);
  const significant = enoughData && test !== null && test.pValue < alpha;
  return {
    difference: test?.difference ?? null,
    z: test?.z ?? null,
    pValue: test?.pValue ?? null,
    enoughData,
    significant,
    verdict: testVerdict(rate, names, test, { enoughData, significant }),
  };
}
