import postgres from "postgres";
import { describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db";
import { errorResponse, httpStatusOf, problemOf } from "./errors";
import { NotFoundError, toAppError } from "@/lib/errors";

describe("toAppError", () => {
  it("a zod failure → 422 naming each path and each unknown key", () => {
    const schema = z.strictObject({ title: z.string().max(3), nested: z.strictObject({ n: z.number() }) });
    const result = schema.safeParse({ title: "long", nested: { n: "x", extra: 1 }, slug: "s" });
    const error = toAppError(result.error);
    expect(httpStatusOf(error)).toBe(422);
    expect(error.errors?.map((e) => e.path).sort()).toEqual(["nested.extra", "nested.n", "slug", "title"]);
  });

  it("an unreachable PostgreSQL server → 503 with Retry-After, not 500", async () => {
    const client = postgres("postgres://postgres@127.0.0.1:1/none", { connect_timeout: 2, max: 1 });
    const failure = await client`select 1`.catch((error: unknown) => error);
    await client.end();
    const error = toAppError(failure);
    expect(httpStatusOf(error)).toBe(503);
    expect(problemOf(error).headers["Retry-After"]).toBe("5");
  });

  it("a data exception from the database (bad text, out of range) → 422, not 500", async () => {
    const db = await getDb();
    const failure = await db.execute(sql`select ${"a\u0000b"}::text || 'x', (2147483647 + 1)::int4`).catch((error: unknown) => error);
    const error = toAppError(failure);
    expect(httpStatusOf(error)).toBe(422);
    expect(error.errors?.[0]?.message).toMatch(/SQLSTATE 22/);
  });

  it("anything unknown → 500 without leaking its message, logged for the operator", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const failure = new Error("secret internals");
    const response = errorResponse(failure);
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain("secret internals");
    expect(logged).toHaveBeenCalledWith(failure);
    logged.mockRestore();
  });
});

describe("problemResponse", () => {
  it("answers RFC 9457 problem+json", async () => {
    const response = errorResponse(new NotFoundError("Project x was not found."));
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toEqual({
      type: "urn:reelbind:problem:not_found",
      title: "Not found",
      status: 404,
      detail: "Project x was not found.",
      code: "not_found",
    });
  });
});
