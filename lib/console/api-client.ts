// The console's one way to call the REST API from the browser: JSON in, JSON out, and an
// RFC 9457 problem document turned into an ApiProblem whose field errors a form can show
// next to the right input. The session cookie goes along on its own (same origin).

export type FieldProblem = { path: string; message: string };

/** A failed API call: the problem document's fields, or a network failure (status 0). */
export class ApiProblem extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly errors: FieldProblem[];

  constructor(document: { status: number; code?: string; title?: string; detail?: string; errors?: FieldProblem[] }) {
    super(document.detail ?? document.title ?? `The request failed (${document.status}).`);
    this.name = "ApiProblem";
    this.status = document.status;
    this.code = document.code ?? "unknown";
    this.title = document.title ?? "Request failed";
    this.errors = document.errors ?? [];
  }

  /**
   * The problem's first line when it says more than its field errors: a 422's detail is by default
   * those errors joined ("path: message; …", lib/api/errors.ts); a route that knows what the user
   * did wrong (a file in the wrong field) writes a sentence instead, shown above the errors.
   */
  headline(): string | null {
    if (this.errors.length === 0) return this.message;
    const joined = this.errors.map((error) => (error.path ? `${error.path}: ${error.message}` : error.message)).join("; ");
    return this.message === joined ? null : this.message;
  }

  /** The message for one field (its path as the API names it, e.g. "publicTitle" or "ctaUrl"). */
  fieldError(path: string): string | undefined {
    return this.errors.find((error) => error.path === path)?.message;
  }
}

export type ApiRequest = {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Sent as JSON. */
  json?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
};

/** Calls the API; resolves with the parsed JSON body (undefined for 204), rejects with an ApiProblem. */
export async function apiRequest<T>(path: string, { method = "GET", json, headers, signal }: ApiRequest = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: { Accept: "application/json", ...(json === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
      body: json === undefined ? undefined : JSON.stringify(json),
      signal,
      credentials: "same-origin",
    });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    throw new ApiProblem({ status: 0, code: "network_error", title: "Network error", detail: "The server could not be reached; check the connection and try again." });
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const body = text ? parseJson(text) : undefined;
  if (!response.ok) throw problemFrom(response.status, body);
  return body as T;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The ApiProblem a failed response describes (problem+json, or a bare status). */
export function problemFrom(status: number, body: unknown): ApiProblem {
  const document = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  return new ApiProblem({
    status,
    code: typeof document.code === "string" ? document.code : undefined,
    title: typeof document.title === "string" ? document.title : undefined,
    detail: typeof document.detail === "string" ? document.detail : undefined,
    errors: Array.isArray(document.errors) ? (document.errors as FieldProblem[]) : undefined,
  });
}

/** What to show for any error a query or mutation rejected with. */
export function problemMessage(error: unknown): string {
  if (error instanceof ApiProblem) return error.message;
  return error instanceof Error ? error.message : "Something went wrong.";
}

/** What a one-field form shows under its field: the field's own error, else the problem's message. */
export function singleFieldError(error: unknown, path: string): string | null {
  if (!error) return null;
  return (error instanceof ApiProblem ? error.fieldError(path) : undefined) ?? problemMessage(error);
}
