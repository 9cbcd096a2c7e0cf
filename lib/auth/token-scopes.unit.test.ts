import { describe, expect, it } from "vitest";
import { minimumRole, type Action } from "./permissions";
import { requireScope, scopeOfAction, tokenScopes } from "./token-scopes";

// The scope table against the action table: every read is `read`, no change is.

describe("scopeOfAction", () => {
  const actions = Object.keys(minimumRole) as Action[];

  it.each(actions)("%s → a scope; read actions → read, changes → a write scope", (action) => {
    const scope = scopeOfAction[action];
    expect(tokenScopes).toContain(scope);
    expect(scope === "read").toBe(/\.(read|list)$/.test(action));
  });

  it("every scope but tokens:write covers some action of the role table (tokens:write: the caller's own tokens)", () => {
    const used = new Set<string>(actions.map((action) => scopeOfAction[action]));
    expect(tokenScopes.filter((scope) => !used.has(scope))).toEqual(["tokens:write"]);
  });
});

describe("requireScope", () => {
  it.each([
    { scopes: ["read"], action: "template.read", allowed: true },
    { scopes: ["read"], action: "template.deploy", allowed: false },
    { scopes: ["templates:write"], action: "template.deploy", allowed: true },
    { scopes: ["templates:write"], action: "template.read", allowed: false },
    { scopes: ["read", "shares:write"], action: "render.create", allowed: false },
    { scopes: ["read"], action: "token.write", allowed: false },
    { scopes: [...tokenScopes], action: "member.manage", allowed: true },
  ] as const)("$scopes, $action → $allowed", ({ scopes, action, allowed }) => {
    const check = () => requireScope({ scopes }, action);
    if (allowed) expect(check).not.toThrow();
    else expect(check).toThrow(expect.objectContaining({ kind: "forbidden", message: expect.stringContaining(scopeOfAction[action]) }));
  });
});
