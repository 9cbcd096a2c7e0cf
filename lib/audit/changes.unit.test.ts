import { describe, expect, it } from "vitest";
import { fieldChanges } from "./changes";

describe("fieldChanges", () => {
  it.each([
    { name: "nothing changed", before: { a: "x", b: 1 }, after: { a: "x", b: 1 }, changes: [] },
    { name: "a string changed", before: { a: "x", b: 1 }, after: { a: "y", b: 1 }, changes: [{ field: "a", from: "x", to: "y" }] },
    { name: "a value unset", before: { a: "x", b: 1 }, after: { a: null, b: 1 }, changes: [{ field: "a", from: "x", to: null }] },
    { name: "fields in the order given", before: { a: "x", b: 1 }, after: { a: "y", b: 2 }, changes: [{ field: "a", from: "x", to: "y" }, { field: "b", from: 1, to: 2 }] },
  ])("fieldChanges – $name", ({ before, after, changes }) => {
    expect(fieldChanges<Record<string, unknown>>(before, after, ["a", "b"])).toEqual(changes);
  });

  it("fieldChanges – an object field is compared key by key, keys sorted, added and removed keys from/to null", () => {
    const before = { data: { firstName: "Ana", plan: "Pro", old: 1 } };
    const after = { data: { firstName: "Max", plan: "Pro", city: "Porto" } };
    expect(fieldChanges<Record<string, unknown>>(before, after, ["data"], ["data"])).toEqual([
      { field: "data.city", from: null, to: "Porto" },
      { field: "data.firstName", from: "Ana", to: "Max" },
      { field: "data.old", from: 1, to: null },
    ]);
  });

  it("fieldChanges – an object field set from nothing lists its keys", () => {
    expect(fieldChanges<Record<string, unknown>>({ data: null }, { data: { a: "1" } }, ["data"], ["data"])).toEqual([{ field: "data.a", from: null, to: "1" }]);
  });
});
