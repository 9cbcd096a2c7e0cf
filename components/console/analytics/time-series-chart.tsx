"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { SeriesPoint } from "@/lib/console/analytics/analytics-types";

const hourLabel = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", hour12: false });
const dayLabel = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "short" });

// Wider lines below narrower ones: equal values (every session played) stay visible side by side.
const lines = [
  { key: "sessions", name: "Sessions", color: "#94a3b8", width: 7 },
  { key: "plays", name: "Plays", color: "#818cf8", width: 4.5 },
  { key: "completions", name: "Completions", color: "#16a34a", width: 2 },
  { key: "ctaClicks", name: "CTA clicks", color: "#d97706", width: 2 },
] as const;

/** Sessions, plays, completions and CTA clicks per hour or per UTC day. */
export function TimeSeriesChart({ points, granularity }: { points: SeriesPoint[]; granularity: "hour" | "day" }) {
  const label = (start: string) => (granularity === "hour" ? `${hourLabel.format(new Date(start))}` : dayLabel.format(new Date(start)));
  const data = points.map((point) => ({ ...point, label: label(point.start) }));
  return (
    <figure className="rounded-lg bg-white p-3 ring-1 ring-slate-200" data-testid="time-series">
      <figcaption className="mb-2 text-sm font-medium text-slate-800">Per {granularity === "hour" ? "hour" : "day"} (UTC)</figcaption>
      <div className="h-64">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data} margin={{ top: 4, right: 12, bottom: 0, left: -12 }}>
            <CartesianGrid stroke="#e2e8f0" vertical={false} />
            <XAxis dataKey="label" tick={{ fontSize: 11, fill: "#475569" }} minTickGap={24} />
            <YAxis allowDecimals={false} tick={{ fontSize: 11, fill: "#475569" }} width={48} />
            <Tooltip />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            {lines.map((line) => (
              <Line key={line.key} type="linear" dataKey={line.key} name={line.name} stroke={line.color} strokeWidth={line.width} dot={false} isAnimationActive={false} />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
