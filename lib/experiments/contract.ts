import { z } from "zod";
import { freshnessSchema, instant } from "@/lib/analytics/contract";
import { channelSchema } from "@/lib/shares/contract";

// GET /api/Projects/{projectId}/public-video-shares/{channel}/variants/comparison: how the
// variants of a share's A/B test do against its control (docs/adr/0151-ab-variant-statistics.md).

export const variantComparisonQueryParams = z.strictObject({
  from: instant
    .optional()
    .describe(
      "Start of the window, inclusive: a date (UTC midnight) or a date-time with a zone; default: when the test started (the earliest variant's startedAt). Counts whole UTC days: a time within a day widens to its midnight",
    ),
  to: instant.optional().describe("End of the window, exclusive, in the same forms; default: now. A time within a day widens to the next midnight"),
});

export type VariantComparisonQuery = z.output<typeof variantComparisonQueryParams>;

const count = z.number().int().min(0);
const fraction = z.number().min(0).max(1);

export const variantRateSchema = z
  .object({
    successes: count,
    trials: count,
    value: fraction.nullable().describe("successes / trials; null without trials"),
    interval: z.object({ low: fraction, high: fraction }).nullable().describe("The 95 % Wilson score interval of the rate; null without trials"),
    enoughData: z.boolean().describe("At least 100 trials, 10 successes and 10 failures: below that the rate is not compared"),
  })
  .describe("A rate with its 95 % interval");

export const variantTestSchema = z
  .object({
    difference: z.number().min(-1).max(1).nullable().describe("The variant's rate minus the control's; null when an arm has no trials"),
    z: z.number().nullable().describe("The pooled two-proportion z statistic; null when an arm has no trials"),
    pValue: fraction.nullable().describe("Two-sided; null when an arm has no trials"),
    enoughData: z.boolean().describe("Both arms have the minimum sample"),
    significant: z.boolean().describe("enoughData and pValue below `method.alpha`"),
    verdict: z.string().describe("One sentence for a dashboard, e.g. 'Variant B completes more often than A (p = 0.003)'"),
  })
  .describe("The variant against the control: a two-sided two-proportion z-test with the pooled standard error");

export const comparedVariantSchema = z.object({
  label: z.enum(["A", "B", "C", "D"]).describe("A for the control (position 0), then B, C, D in position order"),
  position: count,
  control: z.boolean(),
  templateId: z.uuid(),
  templateName: z.string(),
  templateVersion: z.string(),
  weight: z.number().int().min(0).describe("The variant's share of the viewers, of 100"),
  startedAt: z.iso.datetime(),
  sessions: count,
  uniqueViewers: count,
  plays: count,
  completedPlays: count,
  sessionsWithPlay: count,
  sessionsWithPlayAndCtaClick: count,
  ctaClicks: count,
  completionRate: variantRateSchema.describe("completedPlays of plays"),
  ctr: variantRateSchema.describe("sessionsWithPlayAndCtaClick of sessionsWithPlay: the analytics report's CTR"),
  vsControl: z.object({ completionRate: variantTestSchema, ctr: variantTestSchema }).nullable().describe("null for the control"),
});

export const verdictStatuses = ["not_enough_data", "no_significant_difference", "significant_difference"] as const;

export const variantComparisonSchema = z.object({
  shareId: z.uuid(),
  channel: channelSchema,
  window: z.object({ from: z.iso.datetime(), to: z.iso.datetime() }).describe("The window counted, widened to whole UTC days"),
  freshness: freshnessSchema,
  method: z.object({
    confidenceLevel: fraction.describe("Of the intervals: 0.95"),
    alpha: fraction.describe("The significance level of each test: 0.05 divided by the number of variants compared with the control (Bonferroni)"),
    minimumTrials: count,
    minimumSuccesses: count,
    minimumFailures: count,
  }),
  variants: z.array(comparedVariantSchema).describe("In position order, the control first"),
  verdict: z
    .object({
      status: z.enum(verdictStatuses),
      text: z.string().describe("One sentence: the significant differences, or 'No significant difference yet', or 'Not enough data yet'"),
    })
    .describe("Over every variant and both rates"),
});

export type VariantComparison = z.output<typeof variantComparisonSchema>;
export type ComparedVariant = VariantComparison["variants"][number];
export type VariantRate = z.output<typeof variantRateSchema>;
export type VariantTest = z.output<typeof variantTestSchema>;
