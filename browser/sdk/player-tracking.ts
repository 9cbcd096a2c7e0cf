import { createTracker } from "./tracker";
import type { ReelbindGlobal } from "./player-embed";

// player-tracking.global.js: loaded lazily by the bootstrap (player-embed.ts), to which it
// registers through `Reelbind._t` (the contract is in tracking-api.ts).

const tracker = createTracker({
  send: ({ url, token, body }) =>
    fetch(url, {
      method: "POST",
      // keepalive lets the last batch outlive the page (pagehide, navigation).
      keepalive: true,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body,
    }).then((response) => response.status),
  beacon: (url, body) => navigator.sendBeacon(url, new Blob([body], { type: "text/plain" })),
  referrer: document.referrer,
});

addEventListener("pagehide", tracker.flush);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "hidden") tracker.flush();
});

(window as { Reelbind?: ReelbindGlobal }).Reelbind?._t(tracker);
