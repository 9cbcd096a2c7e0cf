"use client";

import { useId, useState } from "react";
import { Button } from "@/components/console/button";
import { DateInput } from "@/components/console/date-input";
import { Dialog } from "@/components/console/dialog";
import { ApiProblem, problemMessage } from "@/lib/console/api-client";
import { useScheduleDeploy } from "@/lib/console/hooks/templates";
import type { TemplateJson } from "@/lib/console/templates/template-rules";

/** Tomorrow's date, "2026-11-30" (UTC, as the console writes times). */
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/**
 * Chooses when a template goes live (a day and a time, in UTC like every time the console shows):
 * the deploy, or the rollback, happens then on the server, whether or not anyone is signed in.
 */
export function ScheduleGoLive({
  projectId,
  template,
  productionLabel,
  onClose,
  onDone,
}: {
  projectId: string;
  template: TemplateJson;
  productionLabel: string | null;
  onClose: () => void;
  onDone: (at: string) => void;
}) {
  const id = useId();
  const schedule = useScheduleDeploy(projectId);
  const [day, setDay] = useState(template.scheduledDeployAt?.slice(0, 10) ?? tomorrow());
  const [time, setTime] = useState(template.scheduledDeployAt?.slice(11, 16) ?? "09:00");
  const label = `${template.name} ${template.version}`;
  const problem = schedule.error instanceof ApiProblem ? schedule.error : null;
  const formId = `${id}-form`;
  return (
    <Dialog
      open
      onClose={onClose}
      title={`Schedule the go-live of ${label}`}
      description={
        <>
          At that time {label} becomes Production{productionLabel ? `, and ${productionLabel} becomes Previous` : ""}. Until then nothing changes, and the go-live can be cancelled.
        </>
      }
      actions={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button intent="primary" type="submit" form={formId} busy={schedule.isPending} disabledReason={day ? null : "Choose a day"}>
            Schedule
          </Button>
        </>
      }
    >
      <form
        id={formId}
        className="flex flex-wrap items-end gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          const at = new Date(`${day}T${time}:00Z`).toISOString();
          schedule.mutate({ templateId: template.id, at }, { onSuccess: () => onDone(at) });
        }}
      >
        <div className="space-y-1">
          <label htmlFor={`${id}-day`} className="block text-sm font-medium text-slate-800">
            Day
          </label>
          <DateInput id={`${id}-day`} calendarLabel="Choose the day" value={day} onChange={setDay} min={new Date().toISOString().slice(0, 10)} />
        </div>
        <div className="space-y-1">
          <label htmlFor={`${id}-time`} className="block text-sm font-medium text-slate-800">
            Time (UTC)
          </label>
          <input
            id={`${id}-time`}
            type="time"
            required
            value={time}
            onChange={(event) => setTime(event.target.value)}
            className="block rounded-md border-0 px-3 py-2 text-sm text-slate-900 ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-inset focus:ring-indigo-600"
          />
        </div>
      </form>
      {problem || schedule.error ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {problem?.fieldError("at") ? `The time ${problem.fieldError("at")}.` : problemMessage(schedule.error)}
        </p>
      ) : null}
    </Dialog>
  );
}
