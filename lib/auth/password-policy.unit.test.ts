import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { assertAcceptablePassword, passwordProblem } from "./password-policy";

describe("password policy", () => {
  it("accepts a long phrase and refuses short or common passwords with the reason", async () => {
    expect(await passwordProblem("correct horse battery")).toBeNull();
    expect(await passwordProblem("short")).toBe("must be at least 8 characters");
    expect(await passwordProblem("password123")).toMatch(/^is too easy to guess: this is a commonly used password/);
    expect(await passwordProblem("qwertyuiop")).toMatch(/too easy to guess/);
    expect(await passwordProblem("Password1!")).toMatch(/similar to a commonly used password/);
  });

  it("refuses a password made of the user's own address", async () => {
    expect(await passwordProblem("ana.rivera@example.org")).toBeNull();
    expect(await passwordProblem("ana.rivera@example.org", ["ana.rivera@example.org"])).toMatch(/too easy to guess/);
  });

  it("refuses with a validation error naming the field", async () => {
    const refused: unknown = await assertAcceptablePassword("letmein2024", ["someone@example.org", null]).catch((error: unknown) => error);
    expect(isAppError(refused, "validation_failed")).toBe(true);
    expect((refused as { errors: { path: string; message: string }[] }).errors).toEqual([{ path: "password", message: expect.stringMatching(/too easy to guess/) }]);
    await expect(assertAcceptablePassword("a good long password", ["someone@example.org"])).resolves.toBeUndefined();
  });
});
