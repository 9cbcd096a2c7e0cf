import { ApiProblem, problemFrom } from "./api-client";

// A multipart POST with upload progress: fetch cannot report how much of a request body has
// been sent, XMLHttpRequest can (xhr.upload.onprogress). Same contract as apiRequest: resolves
// with the parsed JSON, rejects with an ApiProblem (status 0 for a network failure), or with an
// AbortError when the signal aborts (xhr.abort(): the server sees the body cut short and keeps
// nothing of it).

export type UploadProgress = { loaded: number; total: number };

export type UploadRequest = {
  /** multipart/form-data, or a file sent as it is (its Content-Type in headers). */
  form: FormData | Blob;
  headers?: Record<string, string>;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
};

export type UploadResponse<T> = { status: number; body: T; replayed: boolean };

export function uploadWithProgress<T>(path: string, { form, headers = {}, onProgress, signal }: UploadRequest): Promise<UploadResponse<T>> {
  return new Promise((resolve, reject) => {
    const abortError = () => new DOMException("The upload was cancelled.", "AbortError");
    if (signal?.aborted) return reject(abortError());
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    xhr.setRequestHeader("Accept", "application/json");
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.({ loaded: event.loaded, total: event.total });
    };
    xhr.onload = () => {
      const body = parseJson(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve({ status: xhr.status, body: body as T, replayed: xhr.getResponseHeader("Idempotent-Replayed") === "true" });
      } else {
        reject(problemFrom(xhr.status, body));
      }
    };
    xhr.onerror = () =>
      reject(new ApiProblem({ status: 0, code: "network_error", title: "Network error", detail: "The upload did not reach the server; check the connection and try again." }));
    xhr.onabort = () => reject(abortError());
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
