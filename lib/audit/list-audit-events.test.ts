import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Role } from "@/lib/db/schema";
import { otherMemberLabel, redactAuditEvent } from "./list-audit-events";

// What each role sees of one audit event (docs/decisions.md, "What the audit log shows").

const reader = randomUUID();
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
    { role: "ProjectManager", actor: other, email: "other@example.com", data: { apiKey: "pk_secretish", name: "Site" } },
    { role: "OrganizationAdmin", actor: other, email: "other@example.com", data: { apiKey: "pk_secretish", name: "Site" } },
  ] satisfies { role: Role; actor: string; email: string; data: Record<string, unknown> }[])(
    "redactAuditEvent – $role reading credential.created by $email → data $data",
    ({ role, actor, email, data }) => {
      const shown = redactAuditEvent(credentialCreated(actor), { userId: reader, role });
      expect(shown.actor).toEqual({ id: actor, email });
      expect(shown.data).toEqual(data);
    },
  );

  it("redactAuditEvent – an event without an actor (CLI, deleted user) → actor null for every role", () => {
    const event = { ...credentialCreated(other), actorId: null, actorEmail: null, data: null };
    expect(redactAuditEvent(event, { userId: reader, role: "Viewer" })).toMatchObject({ actor: null, data: null });
  });
});
