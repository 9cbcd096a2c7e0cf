import { ValidationError } from "@/lib/errors";

// The one guard in front of JSON.parse for every JSON text the server reads: management API
// bodies (lib/api/request.ts), the upload's JSON parts, the binding manifest and Lottie
// animations. Pure and free of Node APIs.

export type JsonTextLimits = { maxChars: number; maxDepth: number };
export type JsonTextErrorReason = "too_large" | "too_deep" | "invalid_json";
export type JsonTextResult = { ok: true; value: unknown } | { ok: false; reason: JsonTextErrorReason; message: string };

/** Text that is not acceptable JSON, or too big or too deeply nested to be parsed safely (422). */
export class JsonTextError extends ValidationError {
  constructor(
    readonly reason: JsonTextErrorReason,
    message: string,
  ) {
    super([{ path: "", message }], message);
  }
}

/**
 * JSON.parse behind the size and nesting limits, checked on the raw text first so a JSON bomb
 * never reaches the parser or a recursive walker after it. A leading byte-order mark is ignored.
 * Messages read after the name of what was parsed: "is not valid JSON: …".
 */
export function readJsonText(text: string, { maxChars, maxDepth }: JsonTextLimits): JsonTextResult {
  if (text.length > maxChars) return { ok: false, reason: "too_large", message: `is ${text.length} characters long; the limit is ${maxChars}` };
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const offset = jsonNestingExceeds(source, maxDepth);
  if (offset !== null) {
    return { ok: false, reason: "too_deep", message: `nests arrays and objects deeper than ${maxDepth} levels (at character ${offset})` };
  }
  try {
    return { ok: true, value: JSON.parse(source) };
  } catch (error) {
    return { ok: false, reason: "invalid_json", message: `is not valid JSON: ${(error as Error).message}` };
  }
}

/** readJsonText that throws JsonTextError. */
export function parseJsonText(text: string, limits: JsonTextLimits): unknown {
  const result = readJsonText(text, limits);
  if (!result.ok) throw new JsonTextError(result.reason, result.message);
  return result.value;
}

/**
 * The offset of the first bracket that opens level maxDepth + 1, or null. One pass, no
 * recursion; brackets inside strings do not count. (V8's JSON.parse copes with any depth, but
 * JSON.stringify, structuredClone and recursive walkers overflow the stack on it.)
 */
export function jsonNestingExceeds(text: string, maxDepth: number): number | null {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return i;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return null;
}
