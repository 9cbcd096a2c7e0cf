"use client";

import { useEffect, useRef, useState } from "react";

// The API reference viewer: Scalar's standalone bundle, copied from its package into
// public/api-reference/ at build (scripts/build-browser.mjs) and served by this server. This
// component's script inserts it, so the page's 'strict-dynamic' CSP trusts it without a nonce of
// its own (docs/adr/0140-api-reference-page-and-allow.md).

type Viewer = { destroy(): void };
type ViewerBundle = { createApiReference(element: HTMLElement, configuration: Record<string, unknown>): Viewer };
declare global {
  interface Window {
    Scalar?: ViewerBundle;
    __zod_globalConfig?: { jitless?: boolean };
  }
}

/**
 * Everything the viewer would fetch or send elsewhere is off: the page's CSP allows this origin
 * only. Fonts are the system's (not fonts.scalar.com), no AI agent or MCP panel (they call
 * Scalar's servers), no request proxy: "Test Request" calls the API directly.
 */
const offline = {
  withDefaultFonts: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  proxyUrl: "",
  telemetry: false,
  showDeveloperTools: "never",
};

let bundle: Promise<ViewerBundle> | undefined;

/** Loads the bundle once per page, however often the component mounts. */
function loadViewer(): Promise<ViewerBundle> {
  bundle ??= new Promise((resolve, reject) => {
    // zod, inside the bundle, probes for eval with new Function(""): the CSP refuses it and the
    // browser reports a violation. Jitless (zod's own z.config({ jitless: true }), a global
    // shared by every copy of zod) skips the probe; zod parses the same without compiled code.
    window.__zod_globalConfig = { ...window.__zod_globalConfig, jitless: true };
    const script = document.createElement("script");
    script.src = "/api-reference/scalar.js";
    script.onload = () => (window.Scalar ? resolve(window.Scalar) : reject(new Error("The viewer's bundle defined no Scalar.")));
    script.onerror = () => reject(new Error("The viewer's bundle did not load."));
    document.head.append(script);
  });
  return bundle;
}

export function ApiReference({ documentUrl }: { documentUrl: string }) {
  const container = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let viewer: Viewer | undefined;
    let unmounted = false;
    loadViewer().then(
      (scalar) => {
        if (!unmounted && container.current) viewer = scalar.createApiReference(container.current, { url: documentUrl, ...offline });
      },
      () => setFailed(true),
    );
    return () => {
      unmounted = true;
      viewer?.destroy();
    };
  }, [documentUrl]);

  return (
    <>
      {failed && (
        <p role="alert">
          The API reference could not load; the document itself is <a href={documentUrl}>{documentUrl}</a>.
        </p>
      )}
      {/* React renders nothing inside: the viewer owns this element's children. */}
      <div ref={container} />
    </>
  );
}
