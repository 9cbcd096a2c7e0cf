import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import type { FieldError } from "@/lib/errors";
import { describeSchemaErrors, type ErrorWording } from "@/lib/validation/schema-errors";
import { analyticsEventTypes, type AnalyticsEventType } from "@/shared/embed-protocol";
import type { EventBatch, WireEvent } from "@/shared/events/wire-events";
import eventSchema from "./event-schema-v1.json";

// The wire events of docs/design.md, Ingest, checked against event-schema-v1.json (the document served
// at /analytics/v1/event-schema-v1.json). Bodies come from the open internet, so a cheap
// iterative walk rejects prototype keys and deep nesting before ajv looks at anything.

export const eventTypes = analyticsEventTypes;
export type EventType = AnalyticsEventType;

export type EventBatchValidation = { ok: true; batch: EventBatch } | { ok: false; errors: FieldError[] };
export type EventValidation = { ok: true; event: WireEvent } | { ok: false; errors: FieldError[] };

export const eventBatchLimits = {
  /** From the schema (events.maxItems); the route answers 413 above it before validating. */
  maxEvents: eventSchema.$defs.batch.properties.events.maxItems,
  /** Arrays and objects, counting the body itself as level 1; a valid batch needs 4. */
  maxDepth: 8,
  /** Errors listed in a 422; the last entry says when more were left out. */
  maxErrors: 50,
} as const;

/** Validates a parsed batch body. Error paths name the event and field: `events.3.payload.percent`. */
export function validateEventBatch(body: unknown): EventBatchValidation {
  const result = validateWith(compiledValidators().batch, body);
  return result.ok ? { ok: true, batch: result.value } : result;
}

/** Validates one event (the consent beacon). Error paths start at the event: `payload.source`. */
export function validateEvent(event: unknown): EventValidation {
  const result = validateWith(compiledValidators().event, event);
  return result.ok ? { ok: true, event: result.value } : result;
}

type Validators = { batch: ValidateFunction<EventBatch>; event: ValidateFunction<WireEvent> };

let validators: Validators | undefined;

// Compiled on first use: ajv generates code with new Function, which costs a few
// milliseconds that importers needing only eventTypes or eventBatchLimits should not pay.
function compiledValidators(): Validators {
  if (validators) return validators;
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  ajv.addFormat("date-time", { type: "string", validate: isRealTimestamp });
  ajv.addSchema(eventSchema);
  const event = ajv.getSchema<WireEvent>(eventSchema.$id);
  const batch = ajv.getSchema<EventBatch>(`${eventSchema.$id}#/$defs/batch`);
  if (!event || !batch) throw new Error("event-schema-v1.json lacks the event or the batch schema");
  validators = { event, batch };
  return validators;
}

/** The pattern fixes the shape and every range but one: this rejects days the month lacks (2026-02-30). */
function isRealTimestamp(value: string): boolean {
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  return day >= 1 && day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function validateWith<T>(validate: ValidateFunction<T>, value: unknown): { ok: true; value: T } | { ok: false; errors: FieldError[] } {
  const structural = structuralErrors(value);
  if (structural.length > 0) return { ok: false, errors: capErrors(structural) };
  if (validate(value)) return { ok: true, value };
  return { ok: false, errors: capErrors(describeSchemaErrors(validate.errors ?? [], eventWording)) };
}

const reservedKeys = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Reserved keys, text PostgreSQL cannot store, and nesting beyond maxDepth, in document order, found without recursion (a
 * 10,000-deep body must not overflow the stack). Stops descending at maxDepth, so a deep
 * body costs little.
 */
function structuralErrors(root: unknown): FieldError[] {
  const { maxDepth, maxErrors } = eventBatchLimits;
  const errors: FieldError[] = [];
  // Paths are built only for the nodes that have an error: most bodies have none.
  type Node = { value: unknown; depth: number; key?: string; parent?: Node };
  const pathOf = (node: Node): string => (node.parent?.key === undefined ? (node.key ?? "") : `${pathOf(node.parent)}.${node.key}`);
  const stack: Node[] = [{ value: root, depth: 1 }];
  while (stack.length > 0 && errors.length <= maxErrors) {
    const node = stack.pop()!;
    const { value, depth, key } = node;
    if (key !== undefined && reservedKeys.has(key)) {
      errors.push({ path: pathOf(node), message: "is a reserved name, not allowed as a key" });
      continue;
    }
    if (key !== undefined && !key.isWellFormed()) {
      errors.push({ path: pathOf(node), message: "has a key with an unpaired UTF-16 surrogate" });
      continue;
    }
    // PostgreSQL's jsonb cannot store unpaired surrogates: refuse them here, naming the field,
    // rather than let the shared INSERT fail.
    if (typeof value === "string" && !value.isWellFormed()) {
      errors.push({ path: pathOf(node), message: "contains an unpaired UTF-16 surrogate" });
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    if (depth > maxDepth) {
      errors.push({ path: pathOf(node), message: `nests objects and arrays deeper than ${maxDepth} levels` });
      continue;
    }
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) {
      const child = keys[i]!;
      stack.push({ value: (value as Record<string, unknown>)[child], depth: depth + 1, key: child, parent: node });
    }
  }
  return errors;
}

function capErrors(errors: FieldError[]): FieldError[] {
  const { maxErrors } = eventBatchLimits;
  if (errors.length <= maxErrors) return errors;
  return [...errors.slice(0, maxErrors - 1), { path: "", message: `more errors not listed; the first ${maxErrors - 1} are` }];
}

const { $defs: defs, properties } = eventSchema;
const patternMessages = new Map<string, string>([
  [defs.uuid.pattern, "must be a UUID in lowercase (8-4-4-4-12 hexadecimal digits)"],
  [defs.timestamp.pattern, "must be an ISO 8601 UTC timestamp with milliseconds, e.g. 2026-11-21T10:00:00.123Z"],
  [defs.hostname.pattern, "must be a host name (lowercase letters, digits, '-', '_' and dots; no scheme, port or path)"],
  [defs.id.pattern, "must not contain NUL characters"],
  [properties.viewer_hash.pattern, "must be 64 lowercase hexadecimal digits"],
  [properties.template_version.pattern, "must be major.minor, e.g. 1.0"],
]);

/** The event schema's own wording; everything else reads as elsewhere in the API. */
const eventWording: ErrorWording = (error, { path }) => {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "pattern") return { path, message: patternMessages.get(String(params.pattern)) ?? "has an invalid format" };
  if (error.keyword === "format") return { path, message: "must be a date and time that exists" };
  return undefined;
};
