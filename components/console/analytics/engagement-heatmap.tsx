"use client";

import { Area, Bar, CartesianGrid, ComposedChart, Legend, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { HeatmapReport } from "@/lib/console/analytics/analytics-types";
import { formatKpi } from "@/lib/console/analytics/kpis";

const clock = (second: number) => `${Math.floor(second / 60)}:${String(second % 60).padStart(2, "0")}`;

/**
 * Along the template's timeline: the share of plays that watched each second (area), how many
 * times it was watched again (line) and where plays stopped (bars), with the chapters marked.
 */
export function EngagementHeatmap({ heatmap }: { heatmap: HeatmapReport }) {
  const data = heatmap.seconds.map((second) => ({ ...second, label: clock(second.second), percent: second.share === null ? null : Math.round(second.share * 1000) / 10 }));
  const strip = heatmap.seconds.length > 0 ? heatmap.seconds : [];
  const mostDropped = [...heatmap.seconds].sort((a, b) => b.dropOffs - a.dropOffs).filter((second) => second.dropOffs > 0).slice(0, 3);
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">
        {heatmap.plays === 1 ? "1 play reported what it watched" : `${heatmap.plays} plays reported what they watched`}
        {heatmap.durationMs !== null ? ` of ${clock(Math.ceil(heatmap.durationMs / 1000))}` : ""}.
        {mostDropped.length > 0 ? ` Most stopped at ${mostDropped.map((second) => clock(second.second)).join(", ")}.` : ""}
      </p>
      {/* The heat strip: one cell per second, darker where more plays watched it. */}
      <div aria-hidden className="flex h-4 overflow-hidden rounded" data-testid="heat-strip">
        {strip.map((second) => (
          <span key={second.second} className="h-full flex-1 bg-indigo-600" style={{ opacity: 0.08 + 0.92 * (second.share ?? 0) }} title={`${clock(second.second)}: ${formatKpi("rate", second.share)}`} />
        ))}
      </div>
      <div className="h-64">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={data} margin={{ top: 16, right: 12, bottom: 0, left: -12 }}>
            <CartesianGrid stroke="#e2e8f0" vertical={false} />
            <XAxis dataKey="label" tick={{ fontSize: 11, fill: "#475569" }} minTickGap={16} />
            <YAxis yAxisId="share" domain={[0, 100]} unit=" %" tick={{ fontSize: 11, fill: "#475569" }} width={56} />
            <YAxis yAxisId="count" orientation="right" allowDecimals={false} tick={{ fontSize: 11, fill: "#475569" }} width={36} />
            <Tooltip />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            <Area yAxisId="share" type="stepAfter" dataKey="percent" name="Watched (% of plays)" stroke="#4f46e5" fill="#c7d2fe" isAnimationActive={false} />
            <Line yAxisId="count" type="stepAfter" dataKey="rewatches" name="Rewatches" stroke="#0d9488" dot={false} strokeWidth={2} isAnimationActive={false} />
            <Bar yAxisId="count" dataKey="dropOffs" name="Drop-offs" fill="#f87171" isAnimationActive={false} />
            {heatmap.chapters.map((chapter) => (
              <ReferenceLine
                key={chapter.chapterId}
                yAxisId="share"
                x={clock(Math.floor(chapter.startMs / 1000))}
                stroke="#94a3b8"
                strokeDasharray="4 3"
                label={{ value: chapter.chapterName, position: "insideTopLeft", fontSize: 11, fill: "#334155" }}
              />
            ))}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      {heatmap.chapters.length > 0 ? (
        <ul aria-label="Chapters" className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
          {heatmap.chapters.map((chapter) => (
            <li key={chapter.chapterId}>
              {clock(Math.floor(chapter.startMs / 1000))} {chapter.chapterName}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
