"use client";

import { useId, useState } from "react";
import { Button } from "@/components/console/button";
import { ConfirmMutationDialog, useDialogState } from "@/components/console/dialog";
import { useProject } from "@/components/console/project-context";
import { ErrorState, LoadingState } from "@/components/console/states";
import { useToast } from "@/components/console/toast";
import { ApiProblem, problemMessage } from "@/lib/console/api-client";
import { usePutVariants, useShareVariants, type Channel } from "@/lib/console/hooks/shares";
import { useTemplates } from "@/lib/console/hooks/templates";

type Row = { templateId: string; weight: string };

const emptyRows = (): Row[] => [
  { templateId: "", weight: "50" },
  { templateId: "", weight: "50" },
];

/**
 * The share's A/B test (docs/adr/0150-release-control.md): which templates its viewers are split
 * between, and how; each viewer keeps the variant they were given. The analytics page compares
 * them and promotes the winner. ProjectManagers start, change and end a test.
 */
export function ShareVariants({ projectId, channel }: { projectId: string; channel: Channel }) {
  const id = useId();
  const toast = useToast();
  const { roleReason } = useProject();
  const variants = useShareVariants(projectId, channel);
  const templates = useTemplates(projectId);
  const put = usePutVariants(projectId, channel);
  const ending = useDialogState(() => put.reset());
  const [rows, setRows] = useState<Row[] | null>(null);
  const candidates = (templates.data ?? []).filter((template) => template.status !== "Archived");
  const reason = roleReason("share.write");
  const running = variants.data?.variants ?? [];
  const problem = put.error instanceof ApiProblem ? put.error : null;
  const total = (rows ?? []).reduce((sum, row) => sum + (Number(row.weight) || 0), 0);

  const editRows = rows ?? (running.length > 0 ? running.map((variant) => ({ templateId: variant.template.id, weight: String(variant.weight) })) : emptyRows());
  const update = (index: number, change: Partial<Row>) => setRows(editRows.map((row, i) => (i === index ? { ...row, ...change } : row)));

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3 rounded-lg bg-white p-4 ring-1 ring-slate-200">
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        A/B test
      </h2>
      <p className="text-sm text-slate-600">
        Split this share&apos;s viewers between 2 to 4 templates. Each viewer keeps the template they were given (a recipient by their link, a visitor by a cookie of this site). The
        Analytics page compares them and promotes the winner.
      </p>
      {variants.isPending ? <LoadingState label="Loading the test…" /> : null}
      {variants.error ? <ErrorState message={problemMessage(variants.error)} retry={() => void variants.refetch()} /> : null}
      {running.length > 0 ? (
        <p className="text-sm text-slate-800" data-testid="running-test">
          Running: {running.map((variant) => `${variant.template.name} ${variant.template.version} ${variant.weight} %`).join(" · ")}
        </p>
      ) : null}
      {rows !== null || running.length === 0 ? (
        <form
          aria-label="Variants of the test"
          className="space-y-2"
          onSubmit={(event) => {
            event.preventDefault();
            const body = editRows.filter((row) => row.templateId !== "").map((row) => ({ templateId: row.templateId, weight: Number(row.weight) }));
            put.mutate(body, {
              onSuccess: () => {
                toast.success(running.length > 0 ? "The test is changed." : "The test has started.");
                setRows(null);
              },
            });
          }}
        >
          {editRows.map((row, index) => (
            <div key={index} className="flex flex-wrap items-end gap-2">
              <div className="space-y-1">
                <label htmlFor={`${id}-template-${index}`} className="block text-xs font-medium text-slate-700">
                  Variant {String.fromCharCode(65 + index)}
                  {index === 0 ? " (control)" : ""}
                </label>
                <select
                  id={`${id}-template-${index}`}
                  value={row.templateId}
                  disabled={reason !== null}
                  onChange={(event) => update(index, { templateId: event.target.value })}
                  className="rounded-md border-slate-300 py-1.5 text-sm"
                >
                  <option value="">Choose a template</option>
                  {candidates.map((template) => (
                    <option key={template.id} value={template.id}>
                      {template.name} {template.version} ({template.status})
                    </option>
                  ))}
                </select>
              </div>
              <div className="space-y-1">
                <label htmlFor={`${id}-weight-${index}`} className="block text-xs font-medium text-slate-700">
                  Weight (%)
                </label>
                <input
                  id={`${id}-weight-${index}`}
                  type="number"
                  min={1}
                  max={99}
                  value={row.weight}
                  disabled={reason !== null}
                  onChange={(event) => update(index, { weight: event.target.value })}
                  className="w-20 rounded-md border-slate-300 py-1.5 text-sm"
                />
              </div>
            </div>
          ))}
          <div className="flex flex-wrap items-center gap-2">
            {editRows.length < 4 ? (
              <Button disabledReason={reason} onClick={() => setRows([...editRows, { templateId: "", weight: "0" }])}>
                Add a variant
              </Button>
            ) : null}
            <Button intent="primary" type="submit" busy={put.isPending} disabledReason={reason}>
              {running.length > 0 ? "Save the test" : "Start the test"}
            </Button>
            {rows !== null ? <span className="text-sm text-slate-600">Weights add up to {total} %.</span> : null}
          </div>
          {problem ? (
            <p role="alert" className="text-sm text-red-700">
              {problem.errors.length > 0 ? problem.errors.map((error) => `${error.path}: ${error.message}`).join("; ") : problemMessage(problem)}
            </p>
          ) : null}
        </form>
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button disabledReason={reason} onClick={() => setRows(editRows)}>
            Change the test
          </Button>
          <Button intent="danger" disabledReason={reason} onClick={ending.show}>
            End the test
          </Button>
        </div>
      )}
      <ConfirmMutationDialog
        open={ending.open}
        onClose={ending.close}
        title="End the A/B test?"
        description="Every viewer sees the template the channel serves again. To end it with a winner, promote one on the Analytics page instead."
        confirmLabel="End the test"
        danger
        mutation={put}
        variables={[]}
        onDone={() => {
          toast.success("The test has ended.");
          ending.close();
        }}
      />
    </section>
  );
}
