// Status badges: colour plus the word, never colour alone.

const tones = {
  green: "bg-green-50 text-green-800 ring-green-600/20",
  blue: "bg-blue-50 text-blue-800 ring-blue-600/20",
  amber: "bg-amber-50 text-amber-900 ring-amber-600/20",
  slate: "bg-slate-100 text-slate-700 ring-slate-500/20",
  red: "bg-red-50 text-red-800 ring-red-600/20",
} as const;

export type BadgeTone = keyof typeof tones;

export function Badge({ tone = "slate", children }: { tone?: BadgeTone; children: React.ReactNode }) {
  return <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tones[tone]}`}>{children}</span>;
}
