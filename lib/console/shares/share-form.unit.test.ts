import { describe, expect, it } from "vitest";
import { shareBody, shareDataProblems, validateShareDraft, withDataKey, type ShareDraft } from "./share-form";

const draft = (change: Partial<ShareDraft> = {}): ShareDraft => ({
  publicTitle: "Your plan",
  publicSubtitle: "",
  locale: "",
  ctaLabel: "",
  ctaUrl: "",
  personalizationData: "",
  consentMode: "not_required",
  apiCredentialId: "11111111-1111-4111-8111-111111111111",
  ...change,
});

describe("validateShareDraft", () => {
  it("accepts a minimal draft and gives the PUT body with nulls for what is empty", () => {
    expect(validateShareDraft(draft())).toEqual({});
    expect(shareBody(draft({ publicSubtitle: "  " }))).toMatchObject({ publicTitle: "Your plan", publicSubtitle: null, ctaUrl: null, personalizationData: null });
  });

  it("counts characters as the server does: 160 emoji fit a title, 161 do not", () => {
    expect(validateShareDraft(draft({ publicTitle: "🎬".repeat(160) }))).toEqual({});
    expect(validateShareDraft(draft({ publicTitle: "🎬".repeat(161) })).publicTitle).toMatch(/160/);
    expect(validateShareDraft(draft({ publicSubtitle: "x".repeat(281) })).publicSubtitle).toMatch(/280/);
  });

  it("wants the CTA label and URL together, and only http(s) URLs", () => {
    expect(validateShareDraft(draft({ ctaLabel: "Book" })).ctaUrl).toMatch(/both or neither/);
    expect(validateShareDraft(draft({ ctaUrl: "https://example.com" })).ctaLabel).toMatch(/both or neither/);
    for (const url of ["javascript:alert(1)", "data:text/html,x", "//example.com", "https://exa mple.com", "ftp://example.com"]) {
      expect(validateShareDraft(draft({ ctaLabel: "Go", ctaUrl: url })).ctaUrl, url).toMatch(/http/);
    }
    expect(validateShareDraft(draft({ ctaLabel: "Go", ctaUrl: "http://example.com/x?y=1" }))).toEqual({});
  });

  it("wants personalization data as a JSON object of at most 16 KB, and a locale like pt-BR", () => {
    expect(validateShareDraft(draft({ personalizationData: "{" })).personalizationData).toMatch(/JSON/);
    expect(validateShareDraft(draft({ personalizationData: "[1]" })).personalizationData).toMatch(/object/);
    expect(validateShareDraft(draft({ personalizationData: JSON.stringify({ a: "x".repeat(17_000) }) })).personalizationData).toMatch(/16 KB/);
    expect(validateShareDraft(draft({ locale: "pt_BR" })).locale).toMatch(/BCP 47/);
    expect(validateShareDraft(draft({ locale: "english" })).locale).toBeDefined();
    expect(validateShareDraft(draft({ locale: "ar-EG" }))).toEqual({});
    expect(validateShareDraft(draft({ locale: "ja-JP" }))).toEqual({});
    expect(validateShareDraft(draft({ locale: "ar" })).locale).toBeDefined();
    expect(validateShareDraft(draft({ locale: "pt-BR", personalizationData: '{"firstName": "Ana"}' }))).toEqual({});
  });
});

describe("withDataKey", () => {
  it("adds a field's key with its default, keeping the others, and leaves a present key alone", () => {
    expect(JSON.parse(withDataKey('{"a": "1"}', "firstName", "there"))).toEqual({ a: "1", firstName: "there" });
    expect(withDataKey('{"firstName": "Ana"}', "firstName", "there")).toBe('{"firstName": "Ana"}');
    expect(JSON.parse(withDataKey("", "City", "Paris"))).toEqual({ City: "Paris" });
  });
});

describe("validateShareDraft with the served template's data rules", () => {
  const template = {
    name: "Welcome message",
    version: "1.0",
    fields: [
      { key: "firstName", type: "text" as const, maxLength: 12, strict: false },
      { key: "planName", type: "text" as const, maxLength: 5, strict: true },
    ],
    imageFiles: [],
  };

  it("warnings do not block the save; they are the preview's words", () => {
    const text = '{"nickname":"Max","firstName":"Maximilianoooooo"}';
    expect(validateShareDraft(draft({ personalizationData: text }), template)).toEqual({});
    expect(shareDataProblems(text, template).map((problem) => problem.message)).toEqual(['unknown key "nickname"', '"firstName" was shortened to 12 characters']);
  });

  it("a strict field's problem blocks the save, naming the template", () => {
    expect(validateShareDraft(draft({ personalizationData: '{"planName":"Platinum"}' }), template)).toEqual({
      personalizationData: 'Welcome message 1.0 refuses this data: "planName" is 8 characters; the template allows at most 5.',
    });
  });
});
