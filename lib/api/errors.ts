import { hasErrorCode } from "@/lib/error-code";
import { AppError, toAppError, type ErrorKind } from "@/lib/errors";

// The HTTP face of lib/errors.ts: each kind of error as a status, every error as an RFC 9457
// problem+json document with the headers its hints call for.

const statusOfKind = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  too_many_requests: 429,
  internal: 500,
  service_unavailable: 503,
} as const satisfies Record<ErrorKind, number>;

/** The HTTP status an error is answered with. */
export function httpStatusOf(error: AppError): number {
  return statusOfKind[error.kind];
}

/** The kind of error an HTTP status stands for (an answer from another Reelbind server); unknown ones are `internal`. */
export function kindOfHttpStatus(status: number): ErrorKind {
  const entry = Object.entries(statusOfKind).find(([, value]) => value === status);
  return entry ? (entry[0] as ErrorKind) : status < 500 ? "bad_request" : "internal";
}

function headersOf(error: AppError): Record<string, string> {
  const headers: Record<string, string> = {};
  if (error.hints.challenge) headers["WWW-Authenticate"] = `${error.hints.challenge} realm="reelbind"`;
  if (error.hints.retryAfterSeconds !== undefined) headers["Retry-After"] = String(error.hints.retryAfterSeconds);
  return headers;
}

/** The RFC 9457 problem document of an error, its status, and the headers it is sent with. */
export function problemOf(error: AppError): { status: number; body: string; headers: Record<string, string> } {
  const status = httpStatusOf(error);
  const document = {
    type: `urn:reelbind:problem:${error.code}`,
    title: error.title,
    status,
    detail: error.message,
    code: error.code,
    ...(error.errors ? { errors: error.errors } : {}),
  };
  return { status, body: JSON.stringify(document), headers: { "Content-Type": "application/problem+json", ...headersOf(error) } };
}

export function problemResponse(error: AppError): Response {
  const { status, body, headers } = problemOf(error);
  return new Response(body, { status, headers });
}

/** A 405 problem for a method the endpoint does not take, with the `Allow` header RFC 9110 asks for. */
export function methodNotAllowedProblem(allow: string, detail: string): { status: number; body: string; headers: Record<string, string> } {
  const document = { type: "urn:reelbind:problem:method_not_allowed", title: "Method not allowed", status: 405, detail, code: "method_not_allowed" };
  return { status: 405, body: JSON.stringify(document), headers: { "Content-Type": "application/problem+json", Allow: allow } };
}

/**
 * Any thrown value as an AppError; an unexpected one (5xx) is logged with its stack. A request
 * refused because the database is known to be unreachable is not: lib/db says so once per outage.
 */
export function toLoggedAppError(error: unknown): AppError {
  const appError = toAppError(error);
  if (appError.kind === "internal" || (appError.kind === "service_unavailable" && !hasErrorCode(error, "DATABASE_UNREACHABLE"))) console.error(error);
  return appError;
}

export function errorResponse(error: unknown): Response {
  return problemResponse(toLoggedAppError(error));
}
