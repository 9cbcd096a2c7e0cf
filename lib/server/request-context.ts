import { toAppError } from "@/lib/errors";

// Pages (server components) cannot set their response's status. The server (scripts/serve.mjs)
// runs each request in an AsyncLocalStorage context shared under this Symbol.for name; a page
// whose data could not be loaded because the database or blob store is unreachable marks it,
// and the server answers 503 with Retry-After instead of Next's 500.

type RequestContext = { serviceUnavailable: boolean };
type ContextStorage = { getStore(): RequestContext | undefined };

/** The digest of the error a page throws then: its error boundary shows "temporarily unavailable". */
export const serviceUnavailableDigest = "reelbind-service-unavailable";

/** Loads a page's data; an unreachable database or blob store marks the request 503 and throws a digest-marked error. */
export async function loadPageData<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (toAppError(error).kind !== "service_unavailable") throw error;
    const storage = (globalThis as { [key: symbol]: ContextStorage | undefined })[Symbol.for("reelbind.request-context")];
    const context = storage?.getStore();
    if (context) context.serviceUnavailable = true;
    throw Object.assign(new Error("The service is temporarily unavailable."), { digest: serviceUnavailableDigest, cause: error });
  }
}
