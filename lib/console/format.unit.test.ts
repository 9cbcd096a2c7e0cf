import { describe, expect, it } from "vitest";
import { formatIsoDate, parseConsoleDate } from "./format";

describe("formatIsoDate", () => {
  it.each([
    { iso: "2026-11-27", text: "27 Nov 2026" },
    { iso: "2027-01-03", text: "3 Jan 2027" },
    { iso: "", text: "" },
  ])("formatIsoDate – $iso → $text", ({ iso, text }) => {
    expect(formatIsoDate(iso)).toBe(text);
  });
});

describe("parseConsoleDate", () => {
  it.each([
    { input: "27 Nov 2026", iso: "2026-11-27" },
    { input: " 27 nov 2026 ", iso: "2026-11-27" },
    { input: "27 November 2026", iso: "2026-11-27" },
    { input: "3 Sept 2026", iso: "2026-09-03" },
    { input: "3 Sep. 2026", iso: "2026-09-03" },
    { input: "2026-11-27", iso: "2026-11-27" },
    { input: "29 Feb 2028", iso: "2028-02-29" },
    { input: "29 Feb 2027", iso: null },
    { input: "31 Apr 2026", iso: null },
    { input: "11/27/2026", iso: null },
    { input: "27 Novx 2026", iso: null },
    { input: "27 Nov", iso: null },
    { input: "", iso: null },
  ])("parseConsoleDate – $input → $iso", ({ input, iso }) => {
    expect(parseConsoleDate(input)).toBe(iso);
  });

  it("parseConsoleDate – reads back what formatIsoDate writes, for every day of a leap year", () => {
    for (let day = 0; day < 366; day++) {
      const iso = new Date(Date.UTC(2028, 0, 1 + day)).toISOString().slice(0, 10);
      expect(parseConsoleDate(formatIsoDate(iso))).toBe(iso);
    }
  });
});
