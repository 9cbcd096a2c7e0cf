import { describe, expect, it } from "vitest";
import { safeCallbackPath } from "./callback-url";

const base = "http://localhost:3000";

describe("safeCallbackPath", () => {
  it.each([
    ["/projects/abc?tab=shares#top", "/projects/abc?tab=shares#top"],
    ["/login", "/login"],
    ["http://localhost:3000/projects/x", "/projects/x"],
    ["projects", "/projects"],
    [null, "/projects"],
    ["", "/projects"],
    ["/\\evil.example/x", "/projects"],
    ["/\t/evil.example/x", "/projects"],
    ["//evil.example/x", "/projects"],
    ["https://evil.example/x", "/projects"],
    ["http://localhost:3001/x", "/projects"],
    ["javascript:alert(1)", "/projects"],
    ["http://[::1", "/projects"],
  ])("%j → %j", (target, expected) => {
    expect(safeCallbackPath(target, base)).toBe(expected);
  });
});
