// Errors are recognised by a stable `code`, never by `instanceof`: Next.js may bundle a module
// once per route, and a process-wide object (the database connection, the ingest writer, the
// blob store) made by one bundle throws that bundle's copy of a class, which another bundle's
// `instanceof` does not recognise. That once turned every retried ingest batch into a 500.

/** True when `error` is an object whose own `code` is `code` (its cause is not looked at). */
export function hasErrorCode(error: unknown, code: string): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === code;
}
