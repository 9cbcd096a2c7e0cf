import type { z } from "zod";
import { ValidationError, zodFieldErrors } from "@/lib/errors";

/** Validates already-parsed input (query parameters, JSON) and throws a 422 listing each path. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(zodFieldErrors(result.error));
  return result.data;
}
