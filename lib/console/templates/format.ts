// How the template pages write sizes, dates and hashes. Dates are formatted in UTC with a fixed
// locale, so the server's render and the browser's hydration print the same text.

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

const dateFormat = new Intl.DateTimeFormat("en-GB", {
  timeZone: "UTC",
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hour12: false,
});

/** "25 Nov 2026, 02:38 UTC"; "—" for null. */
export function formatDate(iso: string | null): string {
  return iso ? `${dateFormat.format(new Date(iso))} UTC` : "—";
}

/** The first 12 hex digits: enough to tell files apart by eye. */
export function shortSha(sha256: string): string {
  return sha256.slice(0, 12);
}
