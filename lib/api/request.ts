import type { z } from "zod";
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError, zodFieldErrors } from "./errors";

const maxJsonBodyBytes = 1024 * 1024;

/** Reads a JSON body: 415 unless application/json, 400 when malformed, 422 with every failing path. */
export async function readJsonBody<S extends z.ZodType>(req: Request, schema: S): Promise<z.infer<S>> {
  const contentType = req.headers.get("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(contentType)) {
    throw new UnsupportedMediaTypeError("The request body must be JSON (Content-Type: application/json).");
  }
  const text = await readTextWithLimit(req, maxJsonBodyBytes);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new BadRequestError(`The body is not valid JSON: ${(error as Error).message}`);
  }
  return parseInput(schema, body);
}

/** Reads the body as UTF-8, refusing (413) as soon as it passes the limit: a declared or a streamed size. */
async function readTextWithLimit(req: Request, limit: number): Promise<string> {
  const tooLarge = () => new PayloadTooLargeError(`The body is larger than ${limit / (1024 * 1024)} MB.`);
  if (Number(req.headers.get("content-length") ?? 0) > limit) throw tooLarge();
  if (!req.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
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
