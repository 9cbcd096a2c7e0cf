"use client";

import Script from "next/script";
import { useCallback, useEffect, useRef, useState } from "react";
import { useLandingText } from "./landing-locale";
import { usePlayerHandle } from "./player-handle";

// The landing page's player: the same SDK a customer site uses (public/sdk), so the landing
// page is the first embed and its analytics take the same path.

type ConsentDecision = "granted" | "denied";
type EmbeddedPlayer = { setConsent(decision: ConsentDecision, source?: "banner" | "host" | "api"): void; play(): void; seek(positionMs: number): void; destroy(): void };
type EmbedOptions = { share: string; recipient?: string; viewerId?: string; autoplay?: boolean; muted?: boolean; consent?: ConsentDecision; title?: string };
declare global {
  interface Window {
    Reelbind?: { embed(target: Element, options: EmbedOptions): EmbeddedPlayer };
  }
}

type Props = {
  slug: string;
  shareId: string;
  consentRequired: boolean;
  posterUrl: string | null;
  /** CSS for the reserved box (aspect ratio and width), computed by the server page. */
  box: React.CSSProperties;
  title: string;
  /** A campaign recipient's personal URL: their token (the player plays their data) and id (their events' viewer_hash). */
  recipient?: { token: string; id: string };
};

const consentButton =
  "min-h-10 min-w-24 rounded-lg px-4 py-2 text-sm focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-white";

const consentKey = (shareId: string) => `reelbind:consent:${shareId}`;

function storedConsent(shareId: string): ConsentDecision | null {
  try {
    const value = window.localStorage.getItem(consentKey(shareId));
    return value === "granted" || value === "denied" ? value : null;
  } catch {
    return null;
  }
}

export function SharePlayer({ slug, shareId, consentRequired, posterUrl, box, title, recipient }: Props) {
  const recipientToken = recipient?.token;
  const viewerId = recipient?.id;
  const frame = useRef<HTMLDivElement>(null);
  const player = useRef<EmbeddedPlayer | null>(null);
  // The transcript's timestamps seek this player (components/player-handle.tsx).
  const handle = usePlayerHandle();
  // null: not asked yet; undefined: not known before hydration (no banner flash for a viewer who already chose).
  const [consent, setConsent] = useState<ConsentDecision | null | undefined>(undefined);
  const t = useLandingText();

  const embed = useCallback(() => {
    if (player.current || !frame.current || !window.Reelbind) return;
    const decided = consentRequired ? storedConsent(shareId) : null;
    player.current = window.Reelbind.embed(frame.current, {
      share: slug,
      ...(recipientToken && viewerId ? { recipient: recipientToken, viewerId } : {}),
      autoplay: true,
      // Browsers allow autoplay only without sound; the viewer unmutes in the player.
      muted: true,
      ...(decided ? { consent: decided } : {}),
      // The iframe's accessible name: the video's own title, in the share's language.
      title,
    });
    handle?.register(player.current);
  }, [consentRequired, shareId, slug, recipientToken, viewerId, handle, title]);

  useEffect(() => {
    // The stored decision exists only in the browser: read after mount, so that the server's
    // render and the first client render agree.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setConsent(consentRequired ? storedConsent(shareId) : "granted");
    embed();
    return () => {
      player.current?.destroy();
      player.current = null;
      handle?.register(null);
    };
  }, [consentRequired, embed, shareId, handle]);

  const decide = (decision: ConsentDecision) => {
    setConsent(decision);
    try {
      window.localStorage.setItem(consentKey(shareId), decision);
    } catch {
      // Private mode: the choice holds for this page view only.
    }
    player.current?.setConsent(decision, "banner");
  };

  return (
    <>
      <Script src="/sdk/player-embed.global.js" strategy="afterInteractive" onReady={embed} />
      {/* The box is reserved before anything loads: the poster, then the player, take it without shifting the page. */}
      <div
        data-testid="player-slot"
        style={box}
        className="relative mx-auto overflow-hidden rounded-xl bg-slate-800 ring-1 ring-slate-700"
      >
        {posterUrl && (
          // eslint-disable-next-line @next/next/no-img-element -- a signed, already-sized frame; no optimizer in between
          <img src={posterUrl} alt="" fetchPriority="high" className="absolute inset-0 h-full w-full object-contain" />
        )}
        <div ref={frame} className="absolute inset-0" aria-label={title} />
      </div>
      {consentRequired && consent === null && (
        <div
          role="dialog"
          aria-label={t("consentLabel")}
          className="fixed inset-x-0 bottom-0 z-10 border-t border-slate-700 bg-slate-900/95 px-6 py-4"
        >
          <div className="mx-auto flex max-w-4xl flex-wrap items-center gap-4">
            <p className="flex-1 text-sm text-slate-200">
              {t("consentText")}
            </p>
            {/* indigo-600 keeps white text at 4.5:1; the focus ring is white with an offset, visible on the dark banner. */}
            <button type="button" onClick={() => decide("denied")} className={`${consentButton} text-slate-200 ring-1 ring-slate-500 hover:bg-slate-800`}>
              {t("consentDecline")}
            </button>
            <button type="button" onClick={() => decide("granted")} className={`${consentButton} bg-indigo-600 font-medium text-white hover:bg-indigo-500`}>
              {t("consentAccept")}
            </button>
          </div>
        </div>
      )}
    </>
  );
}
