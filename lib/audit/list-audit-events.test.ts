import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Role } from "@/lib/db/schema";
import { otherMemberLabel, redactAuditEvent } from "./list-audit-events";

// What each role sees of one audit event (docs/adr/0057-what-the-audit-log-shows.md, as
// docs/adr/0104-whose-emails-the-audit-log-shows.md amended it).

const reader = randomUUID();
const readerEmail = "me@example.com";
const other = randomUUID();
const createdAt = new Date("2026-01-01T00:00:00.000Z");
const credentialCreated = (actorId: string) => ({
  id: randomUUID(),
  action: "credential.created",
  targetType: "api_credential",
  targetId: randomUUID(),
  actorId,
  actorEmail: actorId === reader ? "me@example.com" : "other@example.com",
  data: { apiKey: "pk_secretish", name: "Site" },
  createdAt,
});

describe("redactAuditEvent", () => {
  it.each([
    { role: "Viewer", actor: other, email: otherMemberLabel, data: { name: "Site" } },
    { role: "Editor", actor: other, email: otherMemberLabel, data: { name: "Site" } },
    { role: "Viewer", actor: reader, email: "me@example.com", data: { name: "Site" } },
    { role: "ProjectManager", actor: other, email: otherMemberLabel, data: { apiKey: "pk_secretish", name: "Site" } },
    { role: "ProjectManager", actor: reader, email: "me@example.com", data: { apiKey: "pk_secretish", name: "Site" } },
    { role: "OrganizationAdmin", actor: other, email: "other@example.com", data: { apiKey: "pk_secretish", name: "Site" } },
  ] satisfies { role: Role; actor: string; email: string; data: Record<string, unknown> }[])(
    "redactAuditEvent – $role reading credential.created by $email → data $data",
    ({ role, actor, email, data }) => {
      const shown = redactAuditEvent(credentialCreated(actor), { userId: reader, email: readerEmail, role });
      expect(shown.actor).toEqual({ id: actor, email });
      expect(shown.data).toEqual(data);
    },
  );

  it("redactAuditEvent – an event without an actor (CLI, deleted user) → actor null for every role", () => {
    const event = { ...credentialCreated(other), actorId: null, actorEmail: null, data: null };
    expect(redactAuditEvent(event, { userId: reader, email: readerEmail, role: "Viewer" })).toMatchObject({ actor: null, data: null });
  });

  // The member events name the member in data.email (lib/accounts/organizations.ts).
  const memberEvent = (action: string, email: string, rest: Record<string, unknown>) => ({
    id: randomUUID(),
    action,
    targetType: "membership",
    targetId: randomUUID(),
    actorId: other,
    actorEmail: "admin@example.com",
    data: { email, ...rest },
    createdAt,
  });
  const memberEvents = [
    ["member.added", { role: "Editor", newUser: true }],
    ["member.role_changed", { from: "Editor", to: "Viewer" }],
    ["member.removed", { role: "Viewer" }],
  ] as const;

  it.each(memberEvents.flatMap(([action, rest]) => (["Viewer", "Editor", "ProjectManager"] as const).map((role) => ({ action, rest, role }))))(
    "redactAuditEvent – $role reading $action about another member → their email and the actor's read \"a project member\", the rest stays",
    ({ action, rest, role }) => {
      const shown = redactAuditEvent(memberEvent(action, "someone@example.com", rest), { userId: reader, email: readerEmail, role });
      expect(shown.data).toEqual({ email: otherMemberLabel, ...rest });
      expect(shown.actor).toEqual({ id: other, email: otherMemberLabel });
      expect(JSON.stringify(shown)).not.toMatch(/@example\.com/);
    },
  );

  it.each(memberEvents.map(([action, rest]) => ({ action, rest })))("redactAuditEvent – a Viewer reading $action about themselves → their own email (any case) stays", ({ action, rest }) => {
    const shown = redactAuditEvent(memberEvent(action, "ME@Example.com", rest), { userId: reader, email: readerEmail, role: "Viewer" });
    expect(shown.data).toEqual({ email: "ME@Example.com", ...rest });
  });

  it.each(memberEvents.map(([action, rest]) => ({ action, rest })))("redactAuditEvent – an OrganizationAdmin reading $action → every email", ({ action, rest }) => {
    const shown = redactAuditEvent(memberEvent(action, "someone@example.com", rest), { userId: reader, email: readerEmail, role: "OrganizationAdmin" });
    expect(shown).toMatchObject({ actor: { id: other, email: "admin@example.com" }, data: { email: "someone@example.com", ...rest } });
  });

  it("redactAuditEvent – any data key ending in Email is another person's email too", () => {
    const event = { ...memberEvent("member.invited", "someone@example.com", {}), data: { invitedByEmail: "boss@example.com", count: 2 } };
    expect(redactAuditEvent(event, { userId: reader, email: readerEmail, role: "Editor" }).data).toEqual({ invitedByEmail: otherMemberLabel, count: 2 });
  });
});
