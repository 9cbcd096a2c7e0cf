// Media times as viewers read them: m:ss, and h:mm:ss from an hour on.

export function formatTime(positionMs: number): string {
  const totalSeconds = Math.max(0, Math.floor((Number.isFinite(positionMs) ? positionMs : 0) / 1000));
  const seconds = String(totalSeconds % 60).padStart(2, "0");
  const minutes = Math.floor(totalSeconds / 60);
  if (minutes < 60) return `${minutes}:${seconds}`;
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, "0")}:${seconds}`;
}
