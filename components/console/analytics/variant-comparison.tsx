"use client";

import { Badge } from "@/components/console/badge";
import { Button } from "@/components/console/button";
import { ConfirmMutationDialog, useDialogState } from "@/components/console/dialog";
import { useProject } from "@/components/console/project-context";
import { useToast } from "@/components/console/toast";
import { ErrorState } from "@/components/console/states";
import { stacked, TableHead } from "@/components/console/table-head";
import type { Channel } from "@/lib/db/schema";
import type { ComparedVariant, VariantComparison, VariantRate, VariantTest } from "@/lib/experiments/contract";
import { formatPValue } from "@/lib/experiments/verdict";
import { problemMessage } from "@/lib/console/api-client";
import { formatDateTime } from "@/lib/console/format";
import { isNoAbTest, usePromoteVariant, useVariantComparison } from "@/lib/console/hooks/variant-comparison";
import { Panel } from "./report-tables";

// The A/B test of the chosen channel's share (docs/adr/0151-ab-variant-statistics.md): each
// variant's rates with their 95 % intervals, each against the control, and the verdict. Nothing
// at all when the share runs no test.

const oneDecimal = new Intl.NumberFormat("en", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const percent = (fraction: number) => oneDecimal.format(fraction * 100);

const columns = [
  { label: "Variant", className: "text-left" },
  { label: "Weight", numeric: true },
  { label: "Plays", numeric: true },
  { label: "Completion (95 % interval)", numeric: true },
  { label: "CTR (95 % interval)", numeric: true },
  { label: "Completion vs A", numeric: true },
  { label: "CTR vs A", numeric: true },
  { label: "Winner", numeric: true },
];
const cell = "px-2 py-1.5";

/** "40.0 %" over "33.5–46.8 %"; a dash without trials. */
function RateCell({ rate, label }: { rate: VariantRate; label: string }) {
  return (
    <td data-label={label} className={`${cell} ${stacked.cell} text-right tabular-nums max-sm:text-left`}>
      {rate.value === null ? (
        "—"
      ) : (
        <>
          <span className="block">{percent(rate.value)} %</span>
          {rate.interval ? (
            <span className="block text-xs text-slate-500" aria-label={`95 % interval ${percent(rate.interval.low)} to ${percent(rate.interval.high)} %`}>
              {percent(rate.interval.low)}–{percent(rate.interval.high)} %
            </span>
          ) : null}
        </>
      )}
    </td>
  );
}

/** "+20.0 pts" over "p < 0.001", or "not enough data" below the minimum sample. */
function TestCell({ test, label }: { test: VariantTest | null; label: string }) {
  const className = `${cell} ${stacked.cell} text-right tabular-nums max-sm:text-left`;
  if (!test) {
    return (
      <td data-label={label} className={`${className} text-slate-500`}>
        control
      </td>
    );
  }
  if (!test.enoughData || test.difference === null || test.pValue === null) {
    return (
      <td data-label={label} className={`${className} text-slate-500`}>
        not enough data
      </td>
    );
  }
  const points = test.difference * 100;
  const sign = points > 0 ? "+" : points < 0 ? "−" : "±";
  return (
    <td data-label={label} className={className}>
      <span className={`block ${test.significant ? "font-semibold" : ""}`}>
        {sign}
        {oneDecimal.format(Math.abs(points))} pts
      </span>
      <span className="block text-xs text-slate-500">
        {formatPValue(test.pValue)}
        {test.significant ? <span className="sr-only"> (significant)</span> : null}
      </span>
    </td>
  );
}

/** Promote: the variant goes live (Production) and the test ends, after a confirmation that says so. */
function PromoteButton({ projectId, channel, variant }: { projectId: string; channel: Channel; variant: ComparedVariant }) {
  const { roleReason } = useProject();
  const toast = useToast();
  const promote = usePromoteVariant(projectId, channel);
  const dialog = useDialogState(() => promote.reset());
  const name = `${variant.templateName} ${variant.templateVersion}`;
  return (
    <>
      <Button onClick={dialog.show} disabledReason={roleReason("template.deploy")} aria-label={`Promote ${variant.label} (${name})`}>
        Promote
      </Button>
      <ConfirmMutationDialog
        open={dialog.open}
        onClose={dialog.close}
        title={`Promote ${variant.label}, ${name}?`}
        description={`${name} becomes Production (unless it is already; the Production template now becomes Previous), and the test ends: every viewer of the ${channel} share sees ${name}.`}
        confirmLabel="Promote"
        mutation={promote}
        variables={variant.templateId}
        onDone={() => {
          toast.success(`${name} won: the test has ended.`);
          dialog.close();
        }}
      />
    </>
  );
}

function VariantRow({ projectId, channel, variant }: { projectId: string; channel: Channel; variant: ComparedVariant }) {
  return (
    <tr data-testid={`variant-${variant.label}`} className={`align-top ${stacked.row}`}>
      <th scope="row" data-label="Variant" className={`${cell} ${stacked.cell} col-span-2 text-left font-normal`}>
        <span className="font-semibold">{variant.label}</span> {variant.templateName} {variant.templateVersion}{" "}
        {variant.control ? <Badge>Control</Badge> : null}
      </th>
      <td data-label="Weight" className={`${cell} ${stacked.cell} text-right tabular-nums max-sm:text-left`}>
        {variant.weight} %
      </td>
      <td data-label="Plays" className={`${cell} ${stacked.cell} text-right tabular-nums max-sm:text-left`}>
        {variant.plays.toLocaleString("en")}
      </td>
      <RateCell rate={variant.completionRate} label="Completion (95 % interval)" />
      <RateCell rate={variant.ctr} label="CTR (95 % interval)" />
      <TestCell test={variant.vsControl?.completionRate ?? null} label="Completion vs A" />
      <TestCell test={variant.vsControl?.ctr ?? null} label="CTR vs A" />
      <td data-label="Winner" className={`${cell} ${stacked.cell} text-right max-sm:text-left`}>
        <PromoteButton projectId={projectId} channel={channel} variant={variant} />
      </td>
    </tr>
  );
}

const verdictTone: Record<VariantComparison["verdict"]["status"], string> = {
  significant_difference: "bg-green-50 text-green-900 ring-green-600/20",
  no_significant_difference: "bg-slate-50 text-slate-800 ring-slate-500/20",
  not_enough_data: "bg-amber-50 text-amber-900 ring-amber-600/20",
};

function ComparisonTable({ projectId, channel, comparison }: { projectId: string; channel: Channel; comparison: VariantComparison }) {
  const { method } = comparison;
  const startedAt = comparison.variants.map((variant) => variant.startedAt).sort()[0]!;
  return (
    <>
      <p data-testid="variants-verdict" role="status" className={`mb-3 rounded-md px-3 py-2 text-sm font-medium ring-1 ring-inset ${verdictTone[comparison.verdict.status]}`}>
        {comparison.verdict.text}
      </p>
      <table className={`w-full text-sm ${stacked.table}`}>
        <TableHead columns={columns} className={`text-xs text-slate-500 ${stacked.head}`} cellClassName={`${cell} font-medium`} />
        <tbody className={`divide-y divide-slate-100 ${stacked.body}`}>
          {comparison.variants.map((variant) => (
            <VariantRow key={variant.templateId} projectId={projectId} channel={channel} variant={variant} />
          ))}
        </tbody>
      </table>
      <p className="mt-2 text-xs text-slate-500">
        Since the test started ({formatDateTime(startedAt)}), counted in whole UTC days. CTR: playing sessions that clicked the call to action. Each variant is compared with the
        control A by a two-proportion z-test; a difference counts as significant below p = {method.alpha}. Below {method.minimumTrials} plays (or playing sessions), or
        fewer than {method.minimumSuccesses} of either outcome, a rate is not compared.
      </p>
    </>
  );
}

/**
 * The channel share's A/B test; nothing when it runs none (the API's 404 or 409), and nothing
 * while that is not known yet, so a project without a test never sees the section flash.
 */
export function VariantComparisonPanel({ projectId, channel }: { projectId: string; channel: Channel }) {
  const comparison = useVariantComparison(projectId, channel);
  // Checked first: a test that ended (promoted) answers 409 while react-query still holds its last data.
  if (comparison.error && isNoAbTest(comparison.error)) return null;
  if (comparison.data) {
    return (
      <Panel title={`A/B test on the ${channel} share`} testId="variants">
        <ComparisonTable projectId={projectId} channel={channel} comparison={comparison.data} />
      </Panel>
    );
  }
  if (!comparison.error) return null;
  return (
    <Panel title={`A/B test on the ${channel} share`} testId="variants">
      <ErrorState message={problemMessage(comparison.error)} retry={() => void comparison.refetch()} />
    </Panel>
  );
}
