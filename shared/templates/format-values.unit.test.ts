import { describe, expect, it } from "vitest";
import { formatData, formatFieldValue, isCurrencyCode } from "./format-values";
import type { ManifestField } from "./manifest";

// Intl puts no-break spaces in some locales' output ("24,00 $"): compared as plain spaces.
const plain = (text: string) => text.replace(/\s/g, " ");
const text = (...args: Parameters<typeof formatFieldValue>) => plain(formatFieldValue(...args).text);

describe("formatFieldValue", () => {
  it("date – an ISO day as that calendar day in each locale, the date style as asked", () => {
    expect(text("2027-03-03", { type: "date" }, "en-US")).toBe("March 3, 2027");
    expect(text("2027-03-03", { type: "date", dateStyle: "long" }, "de-DE")).toBe("3. März 2027");
    expect(text("2027-03-03", { type: "date", dateStyle: "short" }, "en-GB")).toBe("03/03/2027");
    // A date-time is shown in UTC: late on the 3rd in UTC is still the 3rd.
    expect(text("2027-03-03T23:30:00Z", { type: "date", dateStyle: "medium" }, "en-US")).toBe("Mar 3, 2027");
  });

  it("number and percent – grouping and decimals of the locale, fraction digits as asked", () => {
    expect(text("1234.5", { type: "number" }, "en-US")).toBe("1,234.5");
    expect(text("1234.5", { type: "number", minimumFractionDigits: 2 }, "de-DE")).toBe("1.234,50");
    expect(text("0.25", { type: "percent" }, "en-US")).toBe("25%");
    expect(text("0.125", { type: "percent", maximumFractionDigits: 1 }, "de-DE")).toBe("12,5 %");
  });

  it("currency – a fixed code, or the code another field of the viewer's data holds", () => {
    expect(text("1234.5", { type: "currency", currency: "EUR" }, "de-DE")).toBe("1.234,50 €");
    expect(text("24", { type: "currency", currency: "USD" }, "en-US")).toBe("$24.00");
    expect(text("24", { type: "currency", currency: "USD" }, "de-DE")).toBe("24,00 $");
    expect(text("24", { type: "currency", currencyField: "currency" }, "en-US", { currency: "jpy" })).toBe("¥24");
    // No code in the data: the fixed one.
    expect(text("24", { type: "currency", currencyField: "currency", currency: "EUR" }, "en-US", {})).toBe("€24.00");
  });

  it("list – a JSON array or comma-separated items, joined as the locale joins them", () => {
    expect(text('["Ana","Ben","Cleo"]', { type: "list" }, "en-US")).toBe("Ana, Ben, and Cleo");
    expect(text("Ana, Ben", { type: "list" }, "de-DE")).toBe("Ana und Ben");
    expect(text("Ana, Ben", { type: "list", listType: "disjunction" }, "en-US")).toBe("Ana or Ben");
  });

  it("bad values – shown as given, with the problem", () => {
    expect(formatFieldValue("next Tuesday", { type: "date" }, "en-US")).toEqual({ text: "next Tuesday", problem: expect.stringContaining("ISO 8601 date") });
    expect(formatFieldValue("12abc", { type: "number" }, "en-US")).toEqual({ text: "12abc", problem: expect.stringContaining("a number") });
    expect(formatFieldValue("1,5", { type: "currency", currency: "EUR" }, "de-DE")).toEqual({ text: "1,5", problem: expect.stringContaining("an amount") });
    expect(formatFieldValue("24", { type: "currency", currencyField: "currency" }, "en-US", { currency: "dollars" })).toEqual({
      text: "24",
      problem: expect.stringContaining('"currency"'),
    });
    expect(formatFieldValue("24", { type: "currency" }, "en-US")).toMatchObject({ text: "24", problem: expect.stringContaining("no valid currency code") });
  });

  it("isCurrencyCode – three letters Intl knows", () => {
    expect(isCurrencyCode("EUR")).toBe(true);
    expect(isCurrencyCode("usd")).toBe(true);
    expect(isCurrencyCode("EURO")).toBe(false);
    expect(isCurrencyCode("E1R")).toBe(false);
  });
});

describe("formatData", () => {
  const fields: ManifestField[] = [
    { key: "renewalDate", type: "text", target: { layer: "Date" }, format: { type: "date", dateStyle: "long" } },
    { key: "amount", type: "text", target: { layer: "Amount" }, format: { type: "currency", currencyField: "currency" } },
    { key: "firstName", type: "text", target: { layer: "Name" } },
  ];

  it("formats the fields that have a format; other fields and keys pass through", () => {
    const result = formatData(fields, { renewalDate: "2027-03-03", amount: "1234.5", currency: "EUR", firstName: "Ana", extra: "x" }, "de-DE");
    expect({ ...result.data, amount: plain(result.data.amount!) }).toEqual({
      renewalDate: "3. März 2027",
      amount: "1.234,50 €",
      currency: "EUR",
      firstName: "Ana",
      extra: "x",
    });
    expect(result.warnings).toEqual([]);
  });

  it("no locale: en-US; an empty or missing value is left alone; a bad one is a warning naming its key", () => {
    expect(formatData(fields, { renewalDate: "2027-03-03" }, null).data).toEqual({ renewalDate: "March 3, 2027" });
    expect(formatData(fields, { renewalDate: "  " }, "en-US")).toEqual({ data: { renewalDate: "  " }, warnings: [] });
    expect(formatData(fields, { renewalDate: "soon" }, "en-US")).toEqual({
      data: { renewalDate: "soon" },
      warnings: [expect.stringMatching(/^"renewalDate" is not an ISO 8601 date.*; shown as given$/)],
    });
  });
});
