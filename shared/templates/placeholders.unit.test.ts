import { describe, expect, it } from "vitest";
import { fillPlaceholders, hasPlaceholders } from "./placeholders";

describe("fillPlaceholders", () => {
  it.each([
    ["a field with a value", "Hi {{firstName}}", { firstName: "Ana" }, "Hi Ana"],
    ["a field with a value and a default", "Hi {{firstName|there}}", { firstName: "Ana" }, "Hi Ana"],
    ["a missing field with a default", "Hi {{firstName|there}}", {}, "Hi there"],
    ["an empty field with a default", "Hi {{firstName|there}}", { firstName: "" }, "Hi there"],
    ["a blank field with a default", "Hi {{firstName|there}}", { firstName: "   " }, "Hi there"],
    ["a missing field without a default", "Hi {{firstName}}!", {}, "Hi !"],
    ["an empty default", "Hi {{firstName|}}!", {}, "Hi !"],
    ["spaces inside the braces", "Hi {{ firstName | my friend }}", {}, "Hi my friend"],
    ["spaces inside the braces, with a value", "Hi {{  firstName  }}", { firstName: "Ana" }, "Hi Ana"],
    ["a field repeated", "{{name}} and {{name|x}}, {{name}}", { name: "Bo" }, "Bo and Bo, Bo"],
    ["two fields", "{{firstName}} from {{city|somewhere}}", { firstName: "Ana", city: "Porto" }, "Ana from Porto"],
    ["no placeholders", "Your video is ready", { firstName: "Ana" }, "Your video is ready"],
    ["an empty text", "", { firstName: "Ana" }, ""],
  ])("fillPlaceholders – %s", (_case, text, data, expected) => {
    expect(fillPlaceholders(text, data)).toBe(expected);
  });

  it.each([
    ["single braces", "Hi {firstName}"],
    ["empty braces", "Hi {{}}"],
    ["a key with a space", "Hi {{first name}}"],
    ["a key starting with a digit", "Hi {{1st}}"],
    ["a key with a dash", "Hi {{first-name}}"],
    ["two bars", "Hi {{firstName|a|b}}"],
    ["an unclosed placeholder", "Hi {{firstName"],
    ["a brace in the default", "Hi {{firstName|{x}}}"],
  ])("fillPlaceholders – unknown syntax is left as written: %s", (_case, text) => {
    expect(fillPlaceholders(text, { firstName: "Ana", first: "A", "1st": "B", "first-name": "C" })).toBe(text);
  });

  it("fillPlaceholders – a value is inserted as text, markup and placeholders in it included (escaping is the renderer's)", () => {
    expect(fillPlaceholders("Hi {{firstName}}", { firstName: "<script>alert(1)</script>" })).toBe("Hi <script>alert(1)</script>");
    // A value is never filled again: {{x}} in the data stays as the recipient wrote it.
    expect(fillPlaceholders("Hi {{firstName}}", { firstName: "{{secret}}", secret: "s" })).toBe("Hi {{secret}}");
    expect(fillPlaceholders("Costs $1 {{price|$&}}", {})).toBe("Costs $1 $&");
  });

  it("fillPlaceholders – only the data's own keys count, not the object's prototype", () => {
    expect(fillPlaceholders("{{constructor|x}} {{toString}}", {})).toBe("x ");
  });
});

describe("hasPlaceholders", () => {
  it.each([
    ["Hi {{firstName|there}}", true],
    ["Hi {{ firstName }}", true],
    ["Hi there", false],
    ["Hi {{first name}}", false],
  ])("hasPlaceholders(%j) → %s", (text, expected) => {
    expect(hasPlaceholders(text)).toBe(expected);
  });
});
