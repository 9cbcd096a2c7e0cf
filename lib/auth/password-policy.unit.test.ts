import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { assertAcceptablePassword, passwordProblem } from "./password-policy";

describe("password policy", () => {
  it("accepts a long phrase and refuses short or common passwords with the reason", () => {
    expect(passwordProblem("correct horse battery")).toBeNull();
    expect(passwordProblem("short")).toBe("must be at least 8 characters");
    expect(passwordProblem("password123")).toMatch(/^is too easy to guess: this is a commonly used password/);
    expect(passwordProblem("qwertyuiop")).toMatch(/too easy to guess/);
    expect(passwordProblem("Password1!")).toMatch(/similar to a commonly used password/);
  });

  it("refuses a password made of the user's own address", () => {
    expect(passwordProblem("ana.rivera@example.org")).toBeNull();
    expect(passwordProblem("ana.rivera@example.org", ["ana.rivera@example.org"])).toMatch(/too easy to guess/);
  });

  it("refuses with a validation error naming the field", () => {
    let refused: unknown;
    try {
      assertAcceptablePassword("letmein2024", ["someone@example.org", null]);
    } catch (error) {
      refused = error;
    }
    expect(isAppError(refused, "validation_failed")).toBe(true);
    expect((refused as { errors: { path: string; message: string }[] }).errors).toEqual([{ path: "password", message: expect.stringMatching(/too easy to guess/) }]);
    expect(() => assertAcceptablePassword("a good long password", ["someone@example.org"])).not.toThrow();
  });
});
