import { describe, expect, it } from "vitest";
import { readJsonBody } from "@/lib/api/request";
import { jsonNestingExceeds, readJsonText } from "./json-text";
import { z } from "zod";
import { httpStatusOf } from "@/lib/api/errors";
import { isAppError } from "@/lib/errors";

const deepArrays = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
const deepObjects = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
const limits = { maxChars: 1024 * 1024, maxDepth: 32 };

describe("readJsonText", () => {
  it.each([
    ["32 levels of arrays", deepArrays(32), true],
    ["33 levels of arrays", deepArrays(33), "too_deep"],
    ["100,000 levels of arrays", deepArrays(100_000), "too_deep"],
    ["100,000 levels of objects", deepObjects(100_000), "too_deep"],
    ["brackets inside strings", JSON.stringify({ a: "[".repeat(1000) }), true],
    ["an escaped quote before brackets", JSON.stringify({ a: '\\"[[[[' }), true],
    ["not JSON", "{", "invalid_json"],
    ["too long", "1".repeat(11), "too_large"],
  ])("%s", (_, text, expected) => {
    const result = readJsonText(text, text.length > 10 && expected === "too_large" ? { maxChars: 10, maxDepth: 32 } : limits);
    expect(result.ok ? true : result.reason).toBe(expected);
  });

  it("jsonNestingExceeds – the offset of the first bracket too deep", () => {
    expect(jsonNestingExceeds("[[[]]]", 2)).toBe(2);
    expect(jsonNestingExceeds("[[]]", 2)).toBeNull();
  });
});

describe("readJsonBody", () => {
  const post = (body: string) => new Request("http://localhost/api/x", { method: "POST", headers: { "content-type": "application/json" }, body });
  it.each([
    ["3,000 levels", deepArrays(3_000), "422 validation_failed"],
    ["100,000 levels of objects", deepObjects(100_000), "422 validation_failed"],
    ["not JSON", "{", "400 bad_request"],
  ])("%s → %s", async (_, body, expected) => {
    const error = await readJsonBody(post(body), z.unknown()).then(() => null, (e: unknown) => e);
    expect(isAppError(error) ? `${httpStatusOf(error)} ${error.code}` : error).toBe(expected);
  });
});
