import type { ErrorObject } from "ajv";
import type { FieldError } from "@/lib/errors";

type ErrorContext = { path: string; at: (child: string) => string; params: Record<string, unknown> };

/** A schema's own wording for some errors: a FieldError, null to leave the error out, undefined for the generic one. */
export type ErrorWording = (error: ErrorObject, context: ErrorContext) => FieldError | null | undefined;

const articles: Record<string, string> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  object: "an object",
  array: "an array",
  boolean: "true or false",
  null: "null",
};

/**
 * ajv's errors as the API's `{path, message}` (paths dotted, as zod's are), one per member:
 * the first ajv reports (an empty string is "must not be empty", not also a pattern mismatch).
 */
export function describeSchemaErrors(errors: ErrorObject[], wording: ErrorWording = () => undefined): FieldError[] {
  const byPath = new Map<string, FieldError>();
  for (const error of errors) {
    const path = error.instancePath
      .split("/")
      .slice(1)
      .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
      .join(".");
    const context = { path, at: (child: string) => (path ? `${path}.${child}` : child), params: error.params as Record<string, unknown> };
    const worded = wording(error, context);
    const described = worded === undefined ? genericError(error, context) : worded;
    if (described && !byPath.has(described.path)) byPath.set(described.path, described);
  }
  return [...byPath.values()];
}

function genericError(error: ErrorObject, { path, at, params }: ErrorContext): FieldError | null {
  const limit = params.limit as number;
  switch (error.keyword) {
    case "if":
      return null; // the failing "then" branch reports the real problem
    case "required":
      return { path: at(String(params.missingProperty)), message: "is required" };
    case "additionalProperties":
      return { path: at(String(params.additionalProperty)), message: "is not a known field" };
    case "type": {
      const types = Array.isArray(params.type) ? params.type : [params.type];
      return { path, message: `must be ${types.map((t) => articles[String(t)] ?? String(t)).join(" or ")}` };
    }
    case "const":
      return { path, message: `must be ${JSON.stringify(params.allowedValue)}` };
    case "enum":
      return { path, message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}` };
    case "minimum":
      return { path, message: `must be at least ${limit}` };
    case "maximum":
      return { path, message: `must be at most ${limit}` };
    case "minLength":
      return { path, message: "must not be empty" };
    case "maxLength":
      return { path, message: `must be at most ${limit} characters` };
    case "minItems":
      return { path, message: `must have at least ${limit} ${limit === 1 ? "entry" : "entries"}` };
    case "maxItems":
      return { path, message: `must have at most ${limit} entries` };
    default:
      return { path, message: error.message ?? "is invalid" };
  }
}
