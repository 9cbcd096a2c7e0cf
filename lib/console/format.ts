// How the console writes times: in UTC with a fixed locale, so the server's render and the
// browser's hydration print the same text whatever the browser's time zone ("25 Nov 2026,
// 02:38 UTC"); the exact ISO time is the <time> element's dateTime where it is shown.

const dateTime = new Intl.DateTimeFormat("en-GB", {
  timeZone: "UTC",
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hour12: false,
});

const dateTimeSeconds = new Intl.DateTimeFormat("en-GB", {
  timeZone: "UTC",
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: false,
});

/** "25 Nov, 02:38:07 UTC": for events seconds apart (webhook attempts). */
export function formatDateTimeSeconds(iso: string): string {
  return `${dateTimeSeconds.format(new Date(iso))} UTC`;
}

/** "25 Nov 2026, 02:38 UTC"; "—" for none. */
export function formatDateTime(iso: string | null | undefined): string {
  return iso ? `${dateTime.format(new Date(iso))} UTC` : "—";
}

const dateOnly = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "short", year: "numeric" });

/** "2026-11-27" → "27 Nov 2026", the console's way of writing a day; "" for none. */
export function formatIsoDate(iso: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(iso) ? dateOnly.format(new Date(`${iso}T00:00:00Z`)) : "";
}

/** "january" … "december": a typed month is any start of one of them, three letters at least. */
const monthNames = Array.from({ length: 12 }, (_, month) => new Intl.DateTimeFormat("en", { month: "long", timeZone: "UTC" }).format(Date.UTC(2000, month, 1)).toLowerCase());

/**
 * A day typed as the console writes it ("27 Nov 2026", "27 november 2026") or as ISO
 * ("2026-11-27") → "2026-11-27"; null when it is not a real day. Numeric forms such as
 * 11/27/2026 are refused: whether they mean November or the 11th depends on the reader.
 */
export function parseConsoleDate(input: string): string | null {
  const text = input.trim();
  let year: number, month: number, day: number;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  const written = /^(\d{1,2})\s+([A-Za-z]{3,9})\.?,?\s+(\d{4})$/.exec(text);
  if (iso) {
    [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  } else if (written) {
    const name = written[2]!.toLowerCase();
    const index = monthNames.findIndex((month) => month.startsWith(name));
    if (index < 0) return null;
    [year, month, day] = [Number(written[3]), index + 1, Number(written[1])];
  } else {
    return null;
  }
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}
