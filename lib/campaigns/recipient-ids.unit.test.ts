import { describe, expect, it } from "vitest";
import { recipientIds } from "./recipient-ids";

describe("recipientIds", () => {
  it("UUIDv7s, each greater than every one made before, within one batch and across batches", () => {
    const ids = [...recipientIds(5000), ...recipientIds(3), ...recipientIds(2000)];
    expect(ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
});
