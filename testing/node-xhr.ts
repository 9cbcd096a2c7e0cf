// UploadThing's browser client sends each file with XMLHttpRequest (for upload progress), which
// Node does not have. This is the part of it the client uses, on top of Node's fetch, so tests
// can run the real client (uploadthing/client) in Node. Unlike a browser it does no CORS
// checks and reports upload progress once, when the body has been sent.

type Listener = (event: { loaded: number; total: number }) => void;

class Listeners {
  private readonly byType = new Map<string, Listener[]>();
  addEventListener(type: string, listener: Listener) {
    this.byType.set(type, [...(this.byType.get(type) ?? []), listener]);
  }
  removeEventListener(type: string, listener: Listener) {
    this.byType.set(type, (this.byType.get(type) ?? []).filter((l) => l !== listener));
  }
  dispatch(type: string, event = { loaded: 0, total: 0 }) {
    for (const listener of this.byType.get(type) ?? []) listener(event);
  }
}

export class NodeXMLHttpRequest extends Listeners {
  readonly upload = new Listeners();
  responseType: "" | "json" | "text" = "";
  status = 0;
  statusText = "";
  response: unknown = null;
  readyState = 0;
  private method = "GET";
  private url = "";
  private readonly headers = new Headers();
  private readonly controller = new AbortController();

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
    this.readyState = 1;
  }

  setRequestHeader(name: string, value: string) {
    this.headers.set(name, value);
  }

  abort() {
    this.controller.abort();
  }

  send(body?: BodyInit | null) {
    const size = body instanceof Blob ? body.size : body instanceof FormData ? [...body.values()].reduce((sum, v) => sum + (typeof v === "string" ? v.length : v.size), 0) : 0;
    fetch(this.url, { method: this.method, headers: this.headers, body: body ?? null, signal: this.controller.signal })
      .then(async (answer) => {
        this.upload.dispatch("progress", { loaded: size, total: size });
        const text = await answer.text();
        this.status = answer.status;
        this.statusText = answer.statusText;
        this.response = this.responseType === "json" ? safeJson(text) : text;
        this.readyState = 4;
        this.dispatch("load");
      })
      .catch(() => {
        this.readyState = 4;
        this.dispatch(this.controller.signal.aborted ? "abort" : "error");
      });
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
