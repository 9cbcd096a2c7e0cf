import { describe, expect, it, vi } from "vitest";

// Next.js may bundle a module once per route; vi.resetModules() gives the same effect here:
// a second, separate copy of each module, whose classes differ from the first copy's.
async function secondCopy<T>(load: () => Promise<T>): Promise<T> {
  vi.resetModules();
  return load();
}

describe("errors made by another bundle's copy of their module", () => {
  it("toAppError – a NotFoundError from another copy of lib/errors keeps its kind", async () => {
    const first = await import("@/lib/errors");
    const other = await secondCopy(() => import("@/lib/errors"));
    const error = new other.NotFoundError("no such share");
    expect(error instanceof first.AppError).toBe(false);
    expect(first.isAppError(error)).toBe(true);
    expect(first.isAppError(error, "not_found")).toBe(true);
    expect(first.isAppError(error, "conflict")).toBe(false);
    expect(first.toAppError(error)).toMatchObject({ kind: "not_found", message: "no such share" });
  });

  it("isAppError – plain errors and look-alikes without the brand are not AppErrors", async () => {
    const { isAppError } = await import("@/lib/errors");
    expect(isAppError(Object.assign(new Error("x"), { status: 404, code: "not_found" }))).toBe(false);
    expect(isAppError(null)).toBe(false);
    expect(isAppError("not_found")).toBe(false);
  });

  it("isCopyRejected – a CopyRejectedError from another copy of lib/db/copy is recognised, a lost connection is not", async () => {
    const { isCopyRejected } = await import("@/lib/db/copy");
    const other = await secondCopy(() => import("@/lib/db/copy"));
    expect(isCopyRejected(new other.CopyRejectedError())).toBe(true);
    expect(isCopyRejected(new other.CopyTimeoutError())).toBe(false);
    expect(isCopyRejected(Object.assign(new Error("closed"), { code: "CONNECTION_CLOSED" }))).toBe(false);
  });
});
