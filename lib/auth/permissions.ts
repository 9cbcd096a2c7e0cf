import type { Role } from "@/lib/db/schema";

/** Lowest to highest; a role includes every right of the roles before it. */
export const roles = ["Viewer", "Editor", "ProjectManager", "OrganizationAdmin"] as const satisfies readonly Role[];

/** The minimum role for each action (docs/design.md, Roles). */
export const minimumRole = {
  "share.read": "Viewer",
  "template.read": "Viewer",
  "analytics.read": "Viewer",
  "audit.read": "Viewer",
  "campaign.read": "Viewer",
  "template.upload": "Editor",
  /** Which Testing template the DEV channel serves: a developer's own candidate (docs/adr/0150-release-control.md). */
  "channel.pin-dev": "Editor",
  "template.preview": "Editor",
  "campaign.write": "Editor",
  "render.read": "Viewer",
  "render.create": "Editor",
  "share.write": "ProjectManager",
  "template.deploy": "ProjectManager",
  /** Which Testing template STAGING serves: what the business reviews before a deploy. */
  "channel.pin-staging": "ProjectManager",
  "template.archive": "ProjectManager",
  "template.delete": "ProjectManager",
  "credential.read": "ProjectManager",
  "credential.write": "ProjectManager",
  /** Webhook endpoints, deliveries (their payloads) and the signing secret: integration secrets like credentials. */
  "webhook.read": "ProjectManager",
  "webhook.write": "ProjectManager",
  /** Who else works on the project: other people's emails (the audit log's actors and members, who changed a share). */
  "member.read": "OrganizationAdmin",
  "project.manage": "OrganizationAdmin",
  /** The organization's member list and its pending invitations. */
  "member.list": "OrganizationAdmin",
  /** Invite, change a role, remove a member, revoke an invitation. */
  "member.manage": "OrganizationAdmin",
  /** The organization's single sign-on settings (docs/adr/0159-organization-sso.md): who may sign in, and how. */
  "sso.read": "OrganizationAdmin",
  "sso.manage": "OrganizationAdmin",
  /** Whether the organization's members must use two-factor to sign in with a password (docs/adr/0157-organizations-require-two-factor.md). */
  "organization.require-two-factor": "OrganizationAdmin",
} as const satisfies Record<string, Role>;

export type Action = keyof typeof minimumRole;

export function roleRank(role: Role): number {
  return roles.indexOf(role);
}

export function highestRole(candidates: (Role | null | undefined)[]): Role | null {
  let best: Role | null = null;
  for (const role of candidates) {
    if (role && (best === null || roleRank(role) > roleRank(best))) best = role;
  }
  return best;
}

export function can(role: Role | null, action: Action): boolean {
  return role !== null && roleRank(role) >= roleRank(minimumRole[action]);
}
