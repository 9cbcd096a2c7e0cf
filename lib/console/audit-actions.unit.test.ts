import { describe, expect, it } from "vitest";
import { auditChanges, auditSubject, formatAuditValue } from "./audit-actions";

// What the audit log's entries say (docs/adr/0113-audit-entries-name-their-subject.md).

describe("auditSubject", () => {
  it.each([
    { targetType: "api_credential", data: { name: "Shop", apiKey: "pk_abc" }, subject: "API credential “Shop” pk_abc" },
    { targetType: "api_credential", data: { name: "Shop" }, subject: "API credential “Shop”" },
    { targetType: "api_credential", data: { name: null, apiKey: "pk_abc" }, subject: "API credential pk_abc" },
    { targetType: "api_credential", data: { name: null }, subject: "API credential (unnamed)" },
    { targetType: "api_credential", data: null, subject: "API credential" },
    { targetType: "public_video_share", data: { channel: "PROD", slug: "abc123" }, subject: "PROD share /v/abc123" },
    { targetType: "public_video_share", data: { channel: "DEV" }, subject: "DEV share" },
    { targetType: "template", data: { name: "Welcome", version: "1.0" }, subject: "Template “Welcome” 1.0" },
    { targetType: "campaign", data: { name: "Spring", channel: "PROD" }, subject: "Campaign “Spring” (PROD share)" },
    { targetType: "render", data: { templateId: "t", name: "Welcome", version: "1.0", format: "mp4" }, subject: "Render MP4 of template “Welcome” 1.0" },
    { targetType: "render", data: null, subject: "Render" },
    { targetType: "webhook_endpoint", data: { host: "hooks.example.com" }, subject: "Webhook endpoint hooks.example.com" },
    { targetType: "webhook_delivery", data: { eventType: "render.completed", host: "h.example" }, subject: "Webhook delivery render.completed to h.example" },
    { targetType: "membership", data: { email: "a@example.com", role: "Viewer" }, subject: "Membership a@example.com (Viewer)" },
    { targetType: "project", data: { name: "Demo" }, subject: "Project “Demo”" },
    { targetType: "some_new_thing", data: null, subject: "some new thing" },
  ])("auditSubject – $targetType with $data → $subject", ({ targetType, data, subject }) => {
    const shown = auditSubject({ action: "x.y", targetType, data });
    expect(shown).toBe(subject);
    if (targetType.includes("_")) expect(shown).not.toContain(targetType);
  });
});

describe("auditChanges", () => {
  it("auditChanges – share.updated with changes → one line per field, old → new, in the form's words", () => {
    const data = {
      changes: [
        { field: "publicTitle", from: "Hello", to: "Welcome" },
        { field: "personalizationData.firstName", from: "Ana", to: "Max" },
        { field: "personalizationData.city", from: null, to: "Porto" },
        { field: "apiCredential", from: "Site", to: null },
        { field: "enabled", from: true, to: false },
        { field: "url" },
      ],
    };
    expect(auditChanges({ action: "share.updated", targetType: "public_video_share", data })).toEqual([
      "Title: “Hello” → “Welcome”",
      "Data “firstName”: “Ana” → “Max”",
      "Data “city”: none → “Porto”",
      "API credential: “Site” → none",
      "Enabled: yes → no",
      "URL host changed",
    ]);
  });

  it.each([
    { action: "share.updated", data: { changed: ["publicTitle", "ctaUrl"] }, lines: ["Changed: Title, Call-to-action URL"] },
    { action: "member.role_changed", data: { email: "a@b.c", from: "Editor", to: "Viewer" }, lines: ["Role: Editor → Viewer"] },
    { action: "share.slug_rotated", data: { previousSlug: "old", slug: "new" }, lines: ["Link: /v/old → /v/new"] },
    { action: "template.archived", data: { from: "Previous" }, lines: ["Status: Previous → Archived"] },
    { action: "credential.revoked", data: null, lines: [] },
  ])("auditChanges – $action written as $data → $lines", ({ action, data, lines }) => {
    expect(auditChanges({ action, targetType: "x", data })).toEqual(lines);
  });
});

describe("formatAuditValue", () => {
  it.each([
    { value: null, text: "none" },
    { value: "", text: "none" },
    { value: ["a", "b"], text: "a, b" },
    { value: 3, text: "3" },
    { value: { nested: 1 }, text: '{"nested":1}' },
    { value: "x".repeat(200), text: `“${"x".repeat(78)}…` },
  ])("formatAuditValue – $value → $text", ({ value, text }) => {
    expect(formatAuditValue(value)).toBe(text);
  });
});
