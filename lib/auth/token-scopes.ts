import { ForbiddenError } from "@/lib/errors";
import { tokenScopes, type TokenScope } from "@/lib/db/schema";
import type { Action } from "./permissions";

export { tokenScopes, type TokenScope };

// What a personal access token may be used for. A call through a token needs both: the user's
// role allows the action (permissions.ts) and the token's scopes cover it (this table). A console
// session has every scope. docs/security.md, "Token scopes", lists them for users.

/** About the caller's own account: any signed-in user may, whatever their roles. */
export type AccountAction = "account.read" | "token.write" | "two-factor.write";

/** The scope each action needs: every read is `read`, every change the write scope of what it changes. */
export const scopeOfAction = {
  "share.read": "read",
  "template.read": "read",
  "analytics.read": "read",
  "audit.read": "read",
  "campaign.read": "read",
  "render.read": "read",
  "credential.read": "read",
  "webhook.read": "read",
  "member.read": "read",
  "member.list": "read",
  "account.read": "read",
  "template.upload": "templates:write",
  "template.preview": "templates:write",
  "template.deploy": "templates:write",
  "channel.pin-dev": "templates:write",
  "channel.pin-staging": "templates:write",
  "template.archive": "templates:write",
  "template.delete": "templates:write",
  "render.create": "renders:write",
  "campaign.write": "campaigns:write",
  "share.write": "shares:write",
  "credential.write": "credentials:write",
  "webhook.write": "webhooks:write",
  "project.manage": "projects:write",
  "member.manage": "members:write",
  "sso.read": "read",
  // SSO decides who joins the organization (just-in-time members): a members change.
  "sso.manage": "members:write",
  "token.write": "tokens:write",
  "organization.require-two-factor": "members:write",
  /** Two-factor is set up in the console only (the verbs refuse tokens); the scope is the one of the account's credentials. */
  "two-factor.write": "tokens:write",
} as const satisfies Record<Action | AccountAction, TokenScope>;

/** Whether the scopes allow anything but reading: a read-only token never takes an unsafe method. */
export function allowsWrites(scopes: readonly TokenScope[]): boolean {
  return scopes.some((scope) => scope !== "read");
}

/** 403 unless the caller's scopes cover the action (a console session's always do). */
export function requireScope(caller: { scopes: readonly TokenScope[] }, action: Action | AccountAction): void {
  const needed = scopeOfAction[action];
  if (!caller.scopes.includes(needed)) {
    throw new ForbiddenError(`This token's scopes (${caller.scopes.join(", ")}) do not cover ${action}: it needs the ${needed} scope.`);
  }
}
