import { z, ZodError } from "zod";

// The typed errors every layer throws (docs/adr/0139-transport-free-errors.md). They say what
// went wrong — a `kind`, a stable `code`, a sentence — and nothing about how it is answered:
// lib/api/errors.ts maps a kind to an HTTP status and an RFC 9457 problem document, the CLI
// prints it, the player page shows it as a notice.

export type FieldError = { path: string; message: string };

/** What went wrong, by who can fix it and how; one per HTTP status the API answers with (lib/api/errors.ts). */
export type ErrorKind =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "gone"
  | "payload_too_large"
  | "unsupported_media_type"
  | "validation_failed"
  | "too_many_requests"
  | "service_unavailable"
  | "internal";

/** How a caller may recover: when to try again, which credentials to send. */
export type ErrorHints = {
  retryAfterSeconds?: number;
  /** The credentials scheme an `unauthorized` error asks for. */
  challenge?: "Bearer" | "Basic";
};

/** Marks every AppError, whichever bundle's copy of this module made it (lib/error-code.ts says why). */
const appErrorBrand = Symbol.for("reelbind.AppError");

export class AppError extends Error {
  readonly [appErrorBrand] = true;

  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    readonly title: string,
    detail: string,
    readonly errors?: FieldError[],
    readonly hints: ErrorHints = {},
  ) {
    super(detail);
    this.name = new.target.name;
  }
}

export class BadRequestError extends AppError {
  constructor(detail: string) {
    super("bad_request", "bad_request", "Bad request", detail);
  }
}

export class UnauthorizedError extends AppError {
  constructor(detail = "A valid bearer token is required.", challenge: "Bearer" | "Basic" = "Bearer") {
    super("unauthorized", "unauthorized", "Unauthorized", detail, undefined, { challenge });
  }
}

export class ForbiddenError extends AppError {
  constructor(detail: string) {
    super("forbidden", "forbidden", "Forbidden", detail);
  }
}

export class NotFoundError extends AppError {
  constructor(detail: string) {
    super("not_found", "not_found", "Not found", detail);
  }
}

export class ConflictError extends AppError {
  constructor(detail: string, code = "conflict") {
    super("conflict", code, "Conflict", detail);
  }
}

/** The thing existed but is no more usable (an expired, revoked or used invitation). */
export class GoneError extends AppError {
  constructor(detail: string) {
    super("gone", "gone", "Gone", detail);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(detail: string) {
    super("payload_too_large", "payload_too_large", "Payload too large", detail);
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor(detail: string) {
    super("unsupported_media_type", "unsupported_media_type", "Unsupported media type", detail);
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(detail: string) {
    super("service_unavailable", "service_unavailable", "Service unavailable", detail, undefined, { retryAfterSeconds: 5 });
  }
}

export class TooManyRequestsError extends AppError {
  constructor(detail: string, retryAfterSeconds: number) {
    super("too_many_requests", "too_many_requests", "Too many requests", detail, undefined, { retryAfterSeconds });
  }
}

export class ValidationError extends AppError {
  constructor(errors: FieldError[], detail = describeFieldErrors(errors)) {
    super("validation_failed", "validation_failed", "Validation failed", detail, errors);
  }
}

/** An AppError from any bundle; `code` narrows it to one kind (ValidationError: "validation_failed"…). */
export function isAppError(error: unknown, code?: string): error is AppError {
  if (typeof error !== "object" || error === null || (error as { [appErrorBrand]?: unknown })[appErrorBrand] !== true) return false;
  return code === undefined || (error as AppError).code === code;
}

/** The caller's mistake (bad input, no right, not found…), not the server's or the database's. */
export function isCallerError(error: AppError): boolean {
  return error.kind !== "internal" && error.kind !== "service_unavailable";
}

function describeFieldErrors(errors: FieldError[]): string {
  return errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join("; ");
}

export function zodFieldErrors(error: ZodError): FieldError[] {
  return error.issues.map((issue) => {
    const base = issue.path.map(String).join(".");
    // Unknown keys are reported on the object; name each key so the caller sees which.
    if (issue.code === "unrecognized_keys") {
      const keys = issue.keys.map((key) => (base ? `${base}.${key}` : key));
      return { path: keys.join(","), message: `unknown field${keys.length > 1 ? "s" : ""}: ${keys.join(", ")}` };
    }
    return { path: base, message: issue.message };
  });
}

const connectionErrorCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "DATABASE_UNREACHABLE",
]);

type DriverErrorCode = { code: string; constraint?: string; severity?: string };

/** The first error code on the cause chain, whichever driver raised it (postgres.js, PGlite, node:net). */
function driverErrorCode(error: unknown): DriverErrorCode | null {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: unknown; constraint?: unknown; constraint_name?: unknown; severity?: unknown; cause?: unknown };
    if (typeof candidate.code === "string") {
      const constraint = candidate.constraint_name ?? candidate.constraint;
      return {
        code: candidate.code,
        constraint: typeof constraint === "string" ? constraint : undefined,
        severity: typeof candidate.severity === "string" ? candidate.severity : undefined,
      };
    }
    current = candidate.cause;
  }
  return null;
}

/**
 * The database could not be reached, is shutting down, refuses connections or is out of them
 * (SQLSTATE class 08, 57P01–03, 53300, and any FATAL error, which ends the session): worth retrying.
 */
function isDatabaseUnavailable({ code, severity }: DriverErrorCode): boolean {
  return connectionErrorCodes.has(code) || /^(08[0-9A-Z]{3}|57P0[1-3]|53300)$/.test(code) || severity === "FATAL";
}

/** Maps anything thrown to an AppError: a driver's error by its SQLSTATE; an unknown one is `internal`. */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  // zod 4 checks its classes by trait, not identity, so this holds across bundles too.
  // eslint-disable-next-line no-restricted-syntax
  if (error instanceof ZodError) return new ValidationError(zodFieldErrors(error));
  const pg = driverErrorCode(error);
  if (pg && isDatabaseUnavailable(pg)) return new ServiceUnavailableError("The database is unavailable; try again shortly.");
  if (pg?.code === "23505") {
    return new ConflictError(`The change conflicts with existing data${pg.constraint ? ` (${pg.constraint})` : ""}.`);
  }
  if (pg?.code === "23503" || pg?.code === "23514") {
    return new ValidationError([{ path: "", message: `violates ${pg.constraint ?? "a database constraint"}` }]);
  }
  if (pg && /^22[0-9A-Z]{3}$/.test(pg.code)) {
    // Data exceptions (bad text encoding, out-of-range numbers…) come from the values a client sent.
    return new ValidationError([{ path: "", message: `contains a value the database cannot store (SQLSTATE ${pg.code})` }]);
  }
  return new AppError("internal", "internal_error", "Internal server error", "An unexpected error occurred.");
}

/** The RFC 9457 problem document every error answers with (lib/api/errors.ts writes it; the OpenAPI document's `Problem`). */
export const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
