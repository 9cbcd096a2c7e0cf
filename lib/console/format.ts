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
