"use client";

import { useState } from "react";
import { Button } from "@/components/console/button";
import { DateInput } from "@/components/console/date-input";
import { inputClass } from "@/components/console/field";
import { channels, rangeLabels, rangePresets, type DashboardView, type FilterName } from "@/lib/console/analytics/dashboard-view";

export type FilterOption = { value: string; label: string };

type Props = {
  view: DashboardView;
  onChange: (view: DashboardView) => void;
  templates: FilterOption[];
  /** Values seen in the current window's breakdowns, for the selects; the chosen one is always listed. */
  seen: { templateVersion: string[]; deviceType: string[]; country: string[] };
};

/** Range and filters; every change goes to the URL (the page's state), so a view can be shared. */
export function AnalyticsFilters({ view, onChange, templates, seen }: Props) {
  const today = new Date().toISOString().slice(0, 10);
  const [fromDate, setFromDate] = useState(view.fromDate ?? "");
  const [toDate, setToDate] = useState(view.toDate ?? "");
  const customValid = /^\d{4}-\d{2}-\d{2}$/.test(fromDate) && /^\d{4}-\d{2}-\d{2}$/.test(toDate) && fromDate <= toDate;

  const select = (name: FilterName, label: string, options: FilterOption[], all: string) => {
    const value = view[name] ?? "";
    const listed = value && !options.some((option) => option.value === value) ? [...options, { value, label: value }] : options;
    return (
      <div className="min-w-0">
        <label htmlFor={`analytics-${name}`} className="block text-xs font-medium text-slate-600">
          {label}
        </label>
        <select
          id={`analytics-${name}`}
          className={inputClass}
          value={value}
          onChange={(event) => onChange({ ...view, [name]: event.target.value || null })}
        >
          <option value="">{all}</option>
          {listed.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
    );
  };
  const plain = (values: string[]) => values.map((value) => ({ value, label: value }));

  return (
    <form
      aria-label="Analytics filters"
      className="space-y-3 rounded-lg bg-white p-3 ring-1 ring-slate-200"
      onSubmit={(event) => {
        event.preventDefault();
        if (customValid) onChange({ ...view, range: "custom", fromDate, toDate });
      }}
    >
      <div className="flex flex-wrap items-end gap-2">
        <div role="group" aria-label="Date range" className="flex flex-wrap gap-1">
          {rangePresets.map((preset) => (
            <button
              key={preset}
              type="button"
              aria-pressed={view.range === preset}
              title={rangeLabels[preset]}
              onClick={() => onChange({ ...view, range: preset, fromDate: null, toDate: null })}
              className={`rounded-md px-2.5 py-1.5 text-sm font-medium ring-1 ring-inset focus-visible:outline-2 focus-visible:outline-indigo-600 ${view.range === preset ? "bg-indigo-600 text-white ring-indigo-600" : "bg-white text-slate-700 ring-slate-300 hover:bg-slate-50"}`}
            >
              {preset === "today" ? "Today" : preset.replace("d", " d")}
            </button>
          ))}
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <div>
            <label htmlFor="analytics-from" className="block text-xs font-medium text-slate-600">
              From
            </label>
            <DateInput id="analytics-from" name="from" calendarLabel="Choose the start date from a calendar" max={today} value={fromDate} onChange={setFromDate} />
          </div>
          <div>
            <label htmlFor="analytics-to" className="block text-xs font-medium text-slate-600">
              To (included)
            </label>
            <DateInput id="analytics-to" name="to" calendarLabel="Choose the end date from a calendar" min={fromDate || undefined} value={toDate} onChange={setToDate} />
          </div>
          <Button type="submit" disabledReason={customValid ? null : "Choose a start date on or before the end date"} aria-pressed={view.range === "custom"}>
            Apply dates
          </Button>
        </div>
      </div>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-5">
        {select("channel", "Channel", plain([...channels]), "All channels")}
        {select("templateId", "Template", templates, "All templates")}
        {select("templateVersion", "Template version", plain(seen.templateVersion), "All versions")}
        {select("deviceType", "Device type", plain(seen.deviceType), "All devices")}
        {select("country", "Country", plain(seen.country), "All countries")}
      </div>
    </form>
  );
}
