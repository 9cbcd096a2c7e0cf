// A field's `format` (binding manifest): the data holds the raw value ("2027-03-03", "24",
// "0.25", "Ana, Ben") and every place that shows it (player, server preview, renders, captions,
// titles) formats it with Intl for the share's locale. Browser-safe: no Node APIs.

export type DateStyle = "full" | "long" | "medium" | "short";

export type FieldFormat =
  /** An ISO 8601 date (2027-03-03, shown as that calendar day) or date-time (shown in UTC). */
  | { type: "date"; dateStyle?: DateStyle }
  | { type: "number"; minimumFractionDigits?: number; maximumFractionDigits?: number }
  /** The currency: an ISO 4217 code, or the key of the field whose value is one (a per-viewer currency). */
  | { type: "currency"; currency?: string; currencyField?: string }
  /** The raw value is a fraction: 0.25 is 25 %. */
  | { type: "percent"; maximumFractionDigits?: number }
  /** A JSON array of strings, else the items separated by commas. */
  | { type: "list"; style?: "long" | "short" | "narrow"; listType?: "conjunction" | "disjunction" };

/** The locale a share without one formats in. */
export const defaultFormatLocale = "en-US";

export type FormattedValue = { text: string; problem?: string };

const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/;
const decimal = /^-?\d+(\.\d+)?$/;

/** The raw value formatted; a value the format cannot read is shown as given, with the problem. */
export function formatFieldValue(raw: string, format: FieldFormat, locale: string, data: Readonly<Record<string, string>> = {}): FormattedValue {
  const value = raw.trim();
  const unreadable = (what: string): FormattedValue => ({ text: raw, problem: `is not ${what}` });
  switch (format.type) {
    case "date": {
      const dateOnly = isoDate.exec(value);
      const time = dateOnly ? Date.UTC(Number(dateOnly[1]), Number(dateOnly[2]) - 1, Number(dateOnly[3])) : Date.parse(value);
      if (Number.isNaN(time) || !/^\d{4}-\d{2}-\d{2}/.test(value)) return unreadable("an ISO 8601 date (e.g. 2027-03-03)");
      return { text: new Intl.DateTimeFormat(locale, { dateStyle: format.dateStyle ?? "long", timeZone: "UTC" }).format(time) };
    }
    case "number":
    case "percent": {
      if (!decimal.test(value)) return unreadable("a number (e.g. 1234.5)");
      const { type, ...digits } = format;
      return { text: new Intl.NumberFormat(locale, { ...digits, ...(type === "percent" ? { style: "percent" } : {}) }).format(Number(value)) };
    }
    case "currency": {
      if (!decimal.test(value)) return unreadable("an amount (e.g. 1234.5)");
      const currency = (format.currencyField ? data[format.currencyField]?.trim() : format.currency) ?? format.currency;
      if (!currency || !isCurrencyCode(currency)) return { text: raw, problem: `has no valid currency code (${format.currencyField ? `"${format.currencyField}"` : "format.currency"})` };
      return { text: new Intl.NumberFormat(locale, { style: "currency", currency: currency.toUpperCase() }).format(Number(value)) };
    }
    case "list": {
      const items = listItems(value);
      return { text: new Intl.ListFormat(locale, { style: format.style ?? "long", type: format.listType ?? "conjunction" }).format(items) };
    }
  }
}

/** Three letters Intl knows as a currency. */
export function isCurrencyCode(code: string): boolean {
  if (!/^[A-Za-z]{3}$/.test(code)) return false;
  try {
    new Intl.NumberFormat("en", { style: "currency", currency: code });
    return true;
  } catch {
    return false;
  }
}

function listItems(value: string): string[] {
  if (value.startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (Array.isArray(parsed) && parsed.every((item) => typeof item === "string")) return parsed;
    } catch {
      // Not JSON: a comma-separated list that starts with "[".
    }
  }
  return value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/**
 * The data with every formatted field's value formatted for the locale (fields without a format,
 * and keys without a field, pass through), and a warning per value the format could not read.
 */
export function formatData(
  // A manifest's fields (ManifestField), by what is read here: manifest.ts imports this module's types.
  fields: readonly { key: string; format?: FieldFormat }[],
  data: Readonly<Record<string, string>>,
  locale: string | null | undefined,
): { data: Record<string, string>; warnings: string[] } {
  const formatted: Record<string, string> = { ...data };
  const warnings: string[] = [];
  for (const field of fields) {
    if (!field.format || !Object.hasOwn(data, field.key) || typeof data[field.key] !== "string" || data[field.key]!.trim() === "") continue;
    const result = formatFieldValue(data[field.key]!, field.format, locale || defaultFormatLocale, data);
    formatted[field.key] = result.text;
    if (result.problem) warnings.push(`"${field.key}" ${result.problem}; shown as given`);
  }
  return { data: formatted, warnings };
}
