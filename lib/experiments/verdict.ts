import type { TwoProportionTest } from "./statistics";

// The sentences a dashboard shows of an A/B comparison, made once on the server so the console,
// the API and any other client say the same thing.

export type ComparedRate = "completionRate" | "ctr";

const phrases: Record<ComparedRate, { more: string; less: string }> = {
  completionRate: { more: "completes more often than", less: "completes less often than" },
  ctr: { more: "gets more CTA clicks per playing session than", less: "gets fewer CTA clicks per playing session than" },
};

/** "p = 0.003", "p < 0.001": rounded down to 3 decimals (past float noise), so a p-value shown as 0.049 is below 0.05. */
export function formatPValue(pValue: number): string {
  return pValue < 0.001 ? "p < 0.001" : `p = ${Math.floor(pValue * 1000 + 1e-9) / 1000}`;
}

/** The outcome of one rate of a variant against the control. */
export function testVerdict(
  rate: ComparedRate,
  { label, controlLabel }: { label: string; controlLabel: string },
  test: TwoProportionTest | null,
  { enoughData, significant }: { enoughData: boolean; significant: boolean },
): string {
  if (!enoughData || test === null) return "Not enough data yet";
  if (!significant) return `No significant difference from ${controlLabel} (${formatPValue(test.pValue)})`;
  return `Variant ${label} ${test.difference > 0 ? phrases[rate].more : phrases[rate].less} ${controlLabel} (${formatPValue(test.pValue)})`;
}

export type VerdictStatus = "not_enough_data" | "no_significant_difference" | "significant_difference";

/** The comparison's one sentence: its significant differences, else whether any test had the data to find one. */
export function overallVerdict(tests: { enoughData: boolean; significant: boolean; verdict: string }[]): { status: VerdictStatus; text: string } {
  const significant = tests.filter((test) => test.significant);
  if (significant.length > 0) return { status: "significant_difference", text: significant.map((test) => test.verdict).join("; ") };
  if (tests.some((test) => test.enoughData)) return { status: "no_significant_difference", text: "No significant difference yet" };
  return { status: "not_enough_data", text: "Not enough data yet" };
}
