import type { z } from "zod";
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError, zodFieldErrors } from "./errors";

const maxJsonBodyBytes = 1024 * 1024;

/** Reads a JSON body: 415 unless application/json, 400 when malformed, 422 with every failing path. */
export async function readJsonBody<S extends z.ZodType>(req: Request, schema: S): Promise<z.infer<S>> {
  const contentType = req.headers.get("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(contentType)) {
    throw new UnsupportedMediaTypeError("The request body must be JSON (Content-Type: application/json).");
  }
  const text = await req.text();
  if (Buffer.byteLength(text) > maxJsonBodyBytes) throw new PayloadTooLargeError("The JSON body is larger than 1 MB.");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new BadRequestError(`The body is not valid JSON: ${(error as Error).message}`);
  }
  return parseInput(schema, body);
}

/** Validates already-parsed input (query parameters, JSON) and throws a 422 listing each path. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(zodFieldErrors(result.error));
  return result.data;
}

export function searchParamsObject(req: Request): Record<string, string> {
  return Object.fromEntries(new URL(req.url).searchParams);
}
