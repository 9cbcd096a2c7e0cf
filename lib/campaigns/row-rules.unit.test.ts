import { describe, expect, it } from "vitest";
import { campaignFields, checkRow, dataDigest, planColumns } from "./row-rules";

const stored = [
  { key: "firstName", type: "text" as const, default: "Name", maxLength: 12 },
  { key: "planName", type: "text" as const, default: "Plus", maxLength: null },
  { key: "avatar", type: "image" as const, default: null, maxLength: null },
];
const manifest = {
  version: 1 as const,
  fields: [
    { key: "firstName", type: "text" as const, target: { layer: "Name" }, maxLength: 12 },
    { key: "planName", type: "text" as const, target: { layer: "Plan" }, default: "Plus" },
    { key: "avatar", type: "image" as const, target: { asset: "image_0" } },
  ],
};

describe("campaignFields", () => {
  it("a text field without a manifest default is required, unless the share's data fills it; image fields never are", () => {
    expect(campaignFields(stored, manifest, null).map((f) => [f.key, f.required])).toEqual([
      ["firstName", true],
      ["planName", false],
      ["avatar", false],
    ]);
    expect(campaignFields(stored, manifest, { firstName: "Ana" }).find((f) => f.key === "firstName")!.required).toBe(false);
    expect(campaignFields(stored, manifest, { firstName: "" }).find((f) => f.key === "firstName")!.required).toBe(true);
    // Bound by {{key}} layer names: no manifest, no defaults.
    expect(campaignFields(stored, null, null).filter((f) => f.required).map((f) => f.key)).toEqual(["firstName", "planName"]);
  });
});

describe("planColumns and checkRow", () => {
  const fields = campaignFields(stored, manifest, null);

  it("maps columns by fieldMap or name; id, recipient_id or external_id is the id (in that order), email the email; others warn", () => {
    const plan = planColumns(["External_ID", "Vorname", "EMAIL", "id", "shoe", "firstName"], fields, { Vorname: "firstName" }, 1);
    expect(plan.idIndex).toBe(3);
    expect(plan.emailIndex).toBe(2);
    expect(plan.fieldColumns.map((c) => [c.index, c.field.key])).toEqual([[1, "firstName"]]);
    expect(plan.warnings.map((w) => [w.code, w.column])).toEqual([
      ["duplicate_column", "External_ID"],
      ["unknown_column", "shoe"],
      ["duplicate_column", "firstName"],
    ]);
  });

  it("matches a column by its name without case, spaces or punctuation; a mapping names $id, $email or $ignore", () => {
    const plan = planColumns(["First Name", "E-mail", "Recipient ID", "PLAN_NAME", "Ref", "Notes", "Avatar URL"], fields, { Ref: "$email", Notes: "$ignore" }, 1);
    expect(plan.columns).toEqual([
      { name: "First Name", target: { kind: "field", key: "firstName" }, matched: "auto" },
      { name: "E-mail", target: { kind: "ignored" }, matched: "auto" },
      { name: "Recipient ID", target: { kind: "id" }, matched: "auto" },
      { name: "PLAN_NAME", target: { kind: "field", key: "planName" }, matched: "auto" },
      { name: "Ref", target: { kind: "email" }, matched: "mapping" },
      { name: "Notes", target: { kind: "ignored" }, matched: "mapping" },
      { name: "Avatar URL", target: { kind: "ignored" }, matched: "none" },
    ]);
    expect(plan.warnings.map((w) => [w.code, w.column])).toEqual([
      ["duplicate_column", "E-mail"],
      ["unknown_column", "Avatar URL"],
    ]);
  });

  it("refuses a missing required value and a wrong value count; a value over maxLength (code points) is kept with the preview's warning", () => {
    const plan = planColumns(["id", "firstName", "planName"], fields, {}, 1);
    expect(checkRow(["a", "", "Gold"], plan, 2)).toMatchObject({ ok: false, problems: [{ line: 2, code: "missing_field", column: "firstName" }] });
    expect(checkRow(["a", "Åsa-Matilda-Ö", ""], plan, 3)).toEqual({
      ok: true,
      row: { externalId: "a", email: null, data: { firstName: "Åsa-Matilda-Ö" } },
      warnings: [{ line: 3, column: "firstName", code: "too_long", message: '"firstName" was shortened to 12 characters', severity: "warning" }],
    });
    expect(checkRow(["a", "😀".repeat(12), ""], plan, 4)).toMatchObject({ ok: true, warnings: [] });
    expect(checkRow(["a", "Ana"], plan, 5)).toMatchObject({ ok: false, problems: [{ code: "field_count" }] });
    expect(checkRow([" a-1 ", "Ana", ""], plan, 6)).toEqual({ ok: true, row: { externalId: "a-1", email: null, data: { firstName: "Ana" } }, warnings: [] });
  });

  it("a field the manifest marks strict refuses the row, in the share form's and the API's words", () => {
    const strictManifest = { ...manifest, fields: manifest.fields.map((field) => (field.key === "firstName" ? { ...field, strict: true } : field)) };
    const strictFields = campaignFields(stored, strictManifest, null);
    expect(strictFields.find((field) => field.key === "firstName")!.strict).toBe(true);
    const plan = planColumns(["id", "firstName"], strictFields, {}, 1);
    expect(checkRow(["a", "Maximilianoooooo"], plan, 7)).toEqual({
      ok: false,
      problems: [{ line: 7, column: "firstName", code: "too_long", message: '"firstName" is 16 characters; the template allows at most 12', severity: "error" }],
    });
  });

  it("an image value that is neither an image data URL nor one of the template's images warns (known images only)", () => {
    const plan = planColumns(["id", "firstName", "avatar"], fields, {}, 1, new Set(["logo.png"]));
    expect(checkRow(["a", "Ana", "logo.png"], plan, 2)).toMatchObject({ ok: true, warnings: [] });
    expect(checkRow(["a", "Ana", "https://x.test/me.png"], plan, 3)).toMatchObject({
      ok: true,
      warnings: [{ line: 3, column: "avatar", code: "not_image", severity: "warning" }],
    });
  });

  it("without an id, a row is known by its email (trimmed, lowercased); without either, by its data", () => {
    const plan = planColumns(["id", "firstName", "email"], fields, {}, 1);
    expect(checkRow(["", "Ana", " Ana@Example.com "], plan, 2)).toEqual({ ok: true, row: { externalId: "ana@example.com", email: "Ana@Example.com", data: { firstName: "Ana" } }, warnings: [] });
    expect(checkRow(["", "Ana", ""], plan, 3)).toEqual({ ok: true, row: { externalId: dataDigest({ firstName: "Ana" }, null), email: null, data: { firstName: "Ana" } }, warnings: [] });
    expect(dataDigest({ firstName: "Ana" }, null)).not.toBe(dataDigest({ firstName: "Bo" }, null));
  });
});
