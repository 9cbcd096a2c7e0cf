import type { z } from "zod";
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError, type FieldError } from "@/lib/errors";
import { readJsonText } from "@/lib/validation/json-text";
import { parseInput } from "@/lib/validation/parse-input";

const maxJsonBodyBytes = 1024 * 1024;
/** Deeper than any body of this API needs (personalizationData included); checked before parsing. */
const maxJsonBodyDepth = 32;

/** Reads a JSON body: 415 unless application/json, 400 when malformed, 422 with every failing path. */
export async function readJsonBody<S extends z.ZodType>(req: Request, schema: S, { optional = false } = {}): Promise<z.infer<S>> {
  const contentType = req.headers.get("content-type") ?? "";
  // An optional body left out (no Content-Type, nothing sent) reads as `{}`.
  const leftOut = optional && contentType === "" && (await readTextWithLimit(req, maxJsonBodyBytes)) === "";
  if (leftOut) return parseInput(schema, {});
  if (!/^application\/(.+\+)?json\b/i.test(contentType)) {
    throw new UnsupportedMediaTypeError("The request body must be JSON (Content-Type: application/json).");
  }
  const text = await readTextWithLimit(req, maxJsonBodyBytes);
  const parsed = readJsonText(text, { maxChars: maxJsonBodyBytes, maxDepth: maxJsonBodyDepth });
  if (!parsed.ok) {
    const detail = `The body ${parsed.message}`;
    throw parsed.reason === "invalid_json" ? new BadRequestError(detail) : new ValidationError([{ path: "", message: parsed.message }], detail);
  }
  const body = parsed.value;
  const unstorable = findUnstorableJson(body);
  if (unstorable.length > 0) throw new ValidationError(unstorable);
  return parseInput(schema, body);
}

const maxReportedPaths = 10;

/**
 * Strings PostgreSQL cannot store (NUL, unpaired UTF-16 surrogates) and `__proto__` keys,
 * which would vanish when copied into a plain object. Found anywhere in a parsed JSON body.
 * Recursive: only for values readJsonText let through, whose depth is bounded.
 */
export function findUnstorableJson(value: unknown, path: string[] = [], found: FieldError[] = []): FieldError[] {
  if (found.length >= maxReportedPaths) return found;
  const where = path.join(".");
  if (typeof value === "string") {
    if (!value.isWellFormed()) found.push({ path: where, message: "contains an unpaired UTF-16 surrogate" });
    else if (value.includes("\u0000")) found.push({ path: where, message: "contains a NUL character" });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => findUnstorableJson(item, [...path, String(index)], found));
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const keyPath = [...path, key];
      if (key === "__proto__") found.push({ path: keyPath.join("."), message: "__proto__ is not accepted as a key" });
      else if (!key.isWellFormed() || key.includes("\u0000")) found.push({ path: where, message: "has a key PostgreSQL cannot store" });
      else findUnstorableJson(item, keyPath, found);
    }
  }
  return found;
}

/** Reads the body as UTF-8, refusing (413) as soon as it passes the limit: a declared or a streamed size. */
export async function readTextWithLimit(req: Request, limit: number): Promise<string> {
  return readBodyWithLimit(req.body as unknown as AsyncIterable<Uint8Array> | null, req.headers.get("content-length"), limit);
}

/** A body as UTF-8 text, refused with 413 as soon as it is declared or read larger than limit. */
export async function readBodyWithLimit(body: AsyncIterable<Uint8Array> | null, contentLength: string | null, limit: number): Promise<string> {
  const readable = limit >= 1024 * 1024 ? `${limit / (1024 * 1024)} MB` : `${limit / 1024} KB`;
  const tooLarge = () => new PayloadTooLargeError(`The body is larger than ${readable}.`);
  if (Number(contentLength ?? 0) > limit) throw tooLarge();
  if (!body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export function searchParamsObject(req: Request): Record<string, string> {
  return Object.fromEntries(new URL(req.url).searchParams);
}
