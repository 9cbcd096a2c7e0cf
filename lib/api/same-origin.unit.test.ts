import { describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import { httpStatusOf } from "@/lib/api/errors";
import { isAppError } from "@/lib/errors";
import { requireSameOrigin } from "./same-origin";

// The CSRF check of cookie-authenticated calls; the built-server proof is e2e/security-api.spec.ts.

const appOrigin = () => new URL(getConfig().publicBaseUrl).origin;
const request = (method: string, headers: Record<string, string>) => new Request(`${appOrigin()}/api/x`, { method, headers });
const codeOf = (run: () => void): string | null => {
  try {
    run();
    return null;
  } catch (error) {
    return isAppError(error) ? `${httpStatusOf(error)} ${error.code}` : "not an AppError";
  }
};

describe("requireSameOrigin", () => {
  it.each([
    ["GET from anywhere", "GET", { Origin: "http://evil.example" }],
    ["POST from PUBLIC_BASE_URL's origin", "POST", { Origin: "$app" }],
    ["DELETE with Sec-Fetch-Site: same-origin and no Origin", "DELETE", { "Sec-Fetch-Site": "same-origin" }],
    ["PUT with Sec-Fetch-Site: same-origin under another host name", "PUT", { Origin: "http://127.0.0.1:1", "Sec-Fetch-Site": "same-origin" }],
    ["POST JSON", "POST", { Origin: "$app", "Content-Type": "application/json; charset=utf-8" }],
    ["POST problem+json", "POST", { Origin: "$app", "Content-Type": "application/merge-patch+json" }],
    ["POST multipart (the upload)", "POST", { Origin: "$app", "Content-Type": "multipart/form-data; boundary=x" }],
    ["POST text/csv (a campaign's recipients)", "POST", { Origin: "$app", "Content-Type": "text/csv; charset=utf-8" }],
  ])("%s → allowed", (_, method, headers) => {
    const resolved = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v === "$app" ? appOrigin() : v]));
    expect(codeOf(() => requireSameOrigin(request(method, resolved)))).toBeNull();
  });

  it.each([
    ["POST from another port of the same host", "POST", { Origin: "http://localhost:1" }, "403 forbidden"],
    ["PATCH from another site", "PATCH", { Origin: "https://evil.example" }, "403 forbidden"],
    ["DELETE with Origin null", "DELETE", { Origin: "null" }, "403 forbidden"],
    ["POST with Sec-Fetch-Site: same-site", "POST", { "Sec-Fetch-Site": "same-site" }, "403 forbidden"],
    ["POST with Sec-Fetch-Site: cross-site and the app's Origin forged by a non-browser", "POST", { "Sec-Fetch-Site": "cross-site" }, "403 forbidden"],
    ["POST with neither header", "POST", {}, "403 forbidden"],
    ["POST urlencoded from the app's origin", "POST", { Origin: "$app", "Content-Type": "application/x-www-form-urlencoded" }, "415 unsupported_media_type"],
    ["POST text/plain from the app's origin", "POST", { Origin: "$app", "Content-Type": "text/plain" }, "415 unsupported_media_type"],
  ])("%s → %s", (_, method, headers, expected) => {
    const resolved = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v === "$app" ? appOrigin() : v]));
    expect(codeOf(() => requireSameOrigin(request(method, resolved)))).toBe(expected);
  });

  it("names the expected origin and the one seen", () => {
    expect(() => requireSameOrigin(request("POST", { Origin: "http://localhost:1" }))).toThrow(
      `A POST with the session cookie must come from ${appOrigin()} (this request has Origin http://localhost:1); other clients use a bearer token.`,
    );
  });
});
