// How the console writes times: in the browser's locale and time zone, to the minute, with
// the exact ISO time as a tooltip where it is shown.

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : "—";
}
