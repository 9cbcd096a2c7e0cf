import { describe, expect, it } from "vitest";
import type { Role } from "@/lib/db/schema";
import { can, highestRole, minimumRole, type Action } from "./permissions";

// The role matrix of docs/design.md, Roles, written out by hand so a change to the table shows here.

const actions = Object.keys(minimumRole) as Action[];

describe("can – role matrix", () => {
  it.each([
    { role: "Viewer", action: "share.read", allowed: true },
    { role: "Viewer", action: "template.read", allowed: true },
    { role: "Viewer", action: "analytics.read", allowed: true },
    { role: "Viewer", action: "audit.read", allowed: true },
    { role: "Viewer", action: "template.upload", allowed: false },
    { role: "Viewer", action: "share.write", allowed: false },
    { role: "Viewer", action: "credential.read", allowed: false },
    { role: "Viewer", action: "member.read", allowed: false },
    { role: "Editor", action: "share.read", allowed: true },
    { role: "Editor", action: "template.upload", allowed: true },
    { role: "Editor", action: "template.preview", allowed: true },
    { role: "Editor", action: "share.write", allowed: false },
    { role: "Editor", action: "template.deploy", allowed: false },
    { role: "Editor", action: "credential.read", allowed: false },
    { role: "Editor", action: "member.read", allowed: false },
    { role: "ProjectManager", action: "template.upload", allowed: true },
    { role: "ProjectManager", action: "share.write", allowed: true },
    { role: "ProjectManager", action: "template.deploy", allowed: true },
    { role: "ProjectManager", action: "template.archive", allowed: true },
    { role: "ProjectManager", action: "template.delete", allowed: true },
    { role: "ProjectManager", action: "credential.read", allowed: true },
    { role: "ProjectManager", action: "credential.write", allowed: true },
    { role: "ProjectManager", action: "member.read", allowed: false },
    { role: "ProjectManager", action: "member.manage", allowed: false },
    { role: "ProjectManager", action: "member.list", allowed: false },
    { role: "ProjectManager", action: "project.manage", allowed: false },
  ] satisfies { role: Role; action: Action; allowed: boolean }[])("can – $role, $action → $allowed", ({ role, action, allowed }) => {
    expect(can(role, action)).toBe(allowed);
  });

  it.each(actions)("can – OrganizationAdmin, %s → true", (action) => {
    expect(can("OrganizationAdmin", action)).toBe(true);
  });

  it.each(actions)("can – no role, %s → false", (action) => {
    expect(can(null, action)).toBe(false);
  });

  it("minimumRole – covers every action of docs/design.md, Roles and nothing else", () => {
    expect(actions.sort()).toEqual(
      [
        "analytics.read",
        "audit.read",
        "campaign.read",
        "campaign.write",
        "channel.pin-dev",
        "channel.pin-staging",
        "credential.read",
        "credential.write",
        "member.list",
        "member.manage",
        "member.read",
        "organization.require-two-factor",
        "project.manage",
        "render.create",
        "render.read",
        "share.read",
        "share.write",
        "sso.manage",
        "sso.read",
        "template.archive",
        "template.delete",
        "template.deploy",
        "template.preview",
        "template.read",
        "template.upload",
        "webhook.read",
        "webhook.write",
      ].sort(),
    );
  });
});

describe("highestRole", () => {
  it.each([
    { name: "no roles", candidates: [], expected: null },
    { name: "only null and undefined", candidates: [null, undefined], expected: null },
    { name: "one role", candidates: ["Editor"], expected: "Editor" },
    { name: "admin first", candidates: ["OrganizationAdmin", "Viewer", "Editor"], expected: "OrganizationAdmin" },
    { name: "admin last", candidates: ["Viewer", "Editor", "OrganizationAdmin"], expected: "OrganizationAdmin" },
    { name: "manager among gaps", candidates: [null, "Viewer", undefined, "ProjectManager", "Editor"], expected: "ProjectManager" },
  ] satisfies { name: string; candidates: (Role | null | undefined)[]; expected: Role | null }[])(
    "highestRole – $name → $expected",
    ({ candidates, expected }) => {
      expect(highestRole(candidates)).toBe(expected);
    },
  );
});
