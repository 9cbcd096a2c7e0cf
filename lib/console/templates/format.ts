// How the template pages write sizes and hashes (times: lib/console/format.ts).

const units = ["B", "KB", "MB", "GB"] as const;

/** 1536 → "1.5 KB", 150000 → "146 KB": one decimal below 10 of a unit. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** The first 12 hex digits: enough to tell files apart by eye. */
export function shortSha(sha256: string): string {
  return sha256.slice(0, 12);
}
