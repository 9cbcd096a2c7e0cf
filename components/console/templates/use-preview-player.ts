"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { controlVersion, type ControlMessage, type HostCommand } from "@/shared/embed-protocol";
import { needsRestart } from "@/lib/console/templates/preview-data";

// Drives the console's preview player (GET /embed/template-preview/…, same origin) over the
// player's host protocol (spec §4.5): INIT when the iframe loads, SET_DATA for each change once
// it is READY. Messages go to the app's own origin only, and only messages from that iframe's
// window and origin are read.

export type PlayerStatus = { state: "loading" } | { state: "ready" } | { state: "error"; message: string };

export function usePreviewPlayer(data: Record<string, string>) {
  const frame = useRef<HTMLIFrameElement>(null);
  const latest = useRef(data);
  /** The data the player has now (INIT's, then each SET_DATA's); null before INIT. */
  const sent = useRef<Record<string, string> | null>(null);
  const ready = useRef(false);
  const [generation, setGeneration] = useState(0);
  const [status, setStatus] = useState<PlayerStatus>({ state: "loading" });
  const [warnings, setWarnings] = useState<string[]>([]);

  const post = useCallback((command: HostCommand) => frame.current?.contentWindow?.postMessage(command, window.location.origin), []);

  /** Brings the player to `latest`: SET_DATA, or a fresh start when a key has to go. */
  const sync = useCallback(() => {
    const next = latest.current;
    if (!ready.current || !sent.current || JSON.stringify(next) === JSON.stringify(sent.current)) return;
    setWarnings([]);
    if (needsRestart(sent.current, next)) {
      ready.current = false;
      setStatus({ state: "loading" });
      setGeneration((n) => n + 1);
      return;
    }
    sent.current = next;
    post({ v: controlVersion, type: "SET_DATA", data: next });
  }, [post]);

  useEffect(() => {
    latest.current = data;
    sync();
  }, [data, sync]);

  useEffect(() => {
    const receive = (event: MessageEvent) => {
      if (event.source !== frame.current?.contentWindow || event.origin !== window.location.origin) return;
      const message = event.data as ControlMessage | null;
      if (!message || message.v !== controlVersion) return;
      if (message.type === "READY") {
        ready.current = true;
        setStatus({ state: "ready" });
        sync();
      } else if (message.type === "WARN" && message.code === "BINDING") {
        setWarnings((current) => (current.includes(message.message) ? current : [...current, message.message]));
      } else if (message.type === "ERROR") {
        setStatus({ state: "error", message: message.message });
      }
    };
    window.addEventListener("message", receive);
    return () => window.removeEventListener("message", receive);
  }, [sync]);

  /** The iframe's onLoad: INIT with the form's data as it is now, once per player document. */
  const initialised = useRef<Document | null>(null);
  const onLoad = useCallback(() => {
    const playerDocument = frame.current?.contentDocument;
    if (!playerDocument || playerDocument === initialised.current) return;
    initialised.current = playerDocument;
    ready.current = false;
    sent.current = latest.current;
    post({ v: controlVersion, type: "INIT", data: latest.current, autoplay: true, muted: true });
  }, [post]);

  // A player that finished loading before React hydrated the page fired its load event unheard.
  useEffect(() => {
    const playerDocument = frame.current?.contentDocument;
    if (playerDocument?.readyState === "complete" && playerDocument.URL !== "about:blank") onLoad();
  }, [generation, onLoad]);

  const restart = useCallback(() => {
    ready.current = false;
    setWarnings([]);
    setStatus({ state: "loading" });
    setGeneration((n) => n + 1);
  }, []);

  return { frame, generation, status, warnings, onLoad, restart };
}
