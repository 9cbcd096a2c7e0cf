import {
  analyticsMessageType,
  controlVersion,
  type ConsentDecision,
  type ControlMessage,
  type ControlMessageType,
  type HostCommand,
} from "@/shared/embed-protocol";
import type { ConsentSource } from "@/shared/events/wire-events";
import type { TrackingApi } from "./tracking-api";

// player-embed.global.js, the bootstrap a host page loads: `Reelbind.embed(target, options)` puts
// the player iframe on the page, drives it (host commands, control channel callbacks) and loads
// player-tracking.global.js for the analytics channel (contract in tracking-api.ts).

type ControlCallback<Type extends ControlMessageType> = (message: Extract<ControlMessage, { type: Type }>) => void;

export type EmbedOptions = {
  /** The share's slug. Exactly one of share and session. */
  share?: string;
  /** An embed-session token minted by the host's backend. */
  session?: string;
  /** With share: a campaign recipient's token (their personal URL); the player plays their data. */
  recipient?: string;
  data?: Record<string, string>;
  autoplay?: boolean;
  muted?: boolean;
  /** The host page's own consent decision, for shares whose consent mode is required. */
  consent?: ConsentDecision;
  /** The host's id for the viewer; only its hash (with the project id) leaves the page. */
  viewerId?: string;
  /** Where Reelbind runs, when the SDK script is not served from there. */
  baseUrl?: string;
  /** The iframe's accessible name, in the page's language (e.g. the video's title); "Video player" by default. */
  title?: string;
  onReady?: ControlCallback<"READY">;
  onProgress?: ControlCallback<"PROGRESS">;
  onComplete?: ControlCallback<"COMPLETE">;
  onWarn?: ControlCallback<"WARN">;
  onCta?: ControlCallback<"CTA">;
  onError?: ControlCallback<"ERROR">;
};

export type PlayerHandle = {
  play(): void;
  pause(): void;
  seek(positionMs: number): void;
  mute(muted: boolean): void;
  setData(data: Record<string, string>): void;
  setConsent(decision: ConsentDecision, source?: ConsentSource): void;
  destroy(): void;
};

const callbackNames: Record<ControlMessageType, keyof EmbedOptions> = {
  READY: "onReady",
  PROGRESS: "onProgress",
  COMPLETE: "onComplete",
  WARN: "onWarn",
  CTA: "onCta",
  ERROR: "onError",
};

/** Analytics messages kept while the tracking bundle loads; a player sends a handful before READY. */
const maxBufferedMessages = 100;

// Only readable while this script first runs: it locates the player and the tracking bundle.
const scriptSrc = (document.currentScript as HTMLScriptElement | null)?.src;

let tracking: TrackingApi | undefined;
/** Calls for the tracking bundle made before it registered, replayed in order when it does. */
const trackingCalls: ((api: TrackingApi) => void)[] = [];
let bufferedMessages = 0;
let trackingRequested = false;

function toTracking(call: (api: TrackingApi) => void) {
  if (tracking) call(tracking);
  else trackingCalls.push(call);
}

/** Routes the analytics channel to the tracking bundle, which does every check itself. */
function forwardAnalyticsMessage(event: MessageEvent) {
  if (!event.data || event.data.type !== analyticsMessageType) return;
  if (!tracking && ++bufferedMessages > maxBufferedMessages) return;
  const message = { data: event.data, origin: event.origin, source: event.source };
  toTracking((api) => api.receive(message));
}

function loadTracking(sdkBase: string) {
  if (trackingRequested) return;
  trackingRequested = true;
  addEventListener("message", forwardAnalyticsMessage);
  const script = document.createElement("script");
  script.src = `${sdkBase}player-tracking.global.js`;
  script.async = true;
  document.head.appendChild(script);
}

/** A host callback that throws is reported like any uncaught error, without breaking the SDK. */
function callHost(callback: (message: ControlMessage) => void, message: ControlMessage) {
  try {
    callback(message);
  } catch (error) {
    setTimeout(() => {
      throw error;
    });
  }
}

function embed(target: Element | string, options: EmbedOptions): PlayerHandle {
  const container = typeof target === "string" ? document.querySelector(target) : target;
  if (!container) throw new Error(`Reelbind.embed: no element matches ${target}`);
  if (!options.share === !options.session) throw new Error("Reelbind.embed: pass exactly one of share and session");
  if (!options.baseUrl && !scriptSrc) throw new Error("Reelbind.embed: pass baseUrl");

  // The bootstrap lives at {base}/sdk/player-embed.global.js.
  const base = (options.baseUrl || new URL("..", scriptSrc).href).replace(/\/+$/, "");
  const origin = new URL(base).origin;
  loadTracking(options.baseUrl ? `${base}/sdk/` : new URL(".", scriptSrc).href);

  const iframe = document.createElement("iframe");
  const recipient = options.share && options.recipient ? `/${encodeURIComponent(options.recipient)}` : "";
  iframe.src = options.share
    ? `${base}/embed/${encodeURIComponent(options.share)}${recipient}`
    : `${base}/embed?session=${encodeURIComponent(options.session!)}`;
  iframe.title = options.title || "Video player";
  iframe.allow = "autoplay; fullscreen";
  iframe.allowFullscreen = true;
  iframe.style.cssText = "display:block;width:100%;height:100%;border:0";
  container.appendChild(iframe);
  // Kept for good: contentWindow turns null once the iframe is removed, yet the player's last
  // analytics message (video.incomplete on its pagehide) arrives after destroy().
  const frame = iframe.contentWindow!;

  const post = (command: HostCommand) => frame.postMessage(command, origin);
  let initialized = false;
  let destroyed = false;
  // The player takes commands only after INIT, which waits for the iframe's load.
  const commandsBeforeInit: HostCommand[] = [];
  const command = (hostCommand: HostCommand) => {
    if (destroyed) return;
    if (initialized) post(hostCommand);
    else commandsBeforeInit.push(hostCommand);
  };

  iframe.addEventListener("load", () => {
    post({ v: controlVersion, type: "INIT", data: options.data, autoplay: options.autoplay, muted: options.muted });
    initialized = true;
    commandsBeforeInit.splice(0).forEach(post);
  });

  const onControlMessage = (event: MessageEvent) => {
    const message = event.data;
    if (event.source !== frame || event.origin !== origin || !message || message.v !== controlVersion) return;
    if (!Object.prototype.hasOwnProperty.call(callbackNames, message.type)) return;
    if (message.type === "READY") toTracking((api) => api.setContext(frame, message.context));
    const callback = options[callbackNames[message.type as ControlMessageType]];
    if (typeof callback === "function") callHost(callback as (message: ControlMessage) => void, message);
  };
  addEventListener("message", onControlMessage);

  toTracking((api) => api.addPlayer(frame, origin, { viewerId: options.viewerId }));
  if (options.consent) {
    const decision = options.consent;
    toTracking((api) => api.setConsent(frame, decision, "host"));
  }

  return {
    play: () => command({ v: controlVersion, type: "PLAY" }),
    pause: () => command({ v: controlVersion, type: "PAUSE" }),
    seek: (positionMs) => command({ v: controlVersion, type: "SEEK", positionMs }),
    mute: (muted) => command({ v: controlVersion, type: "MUTE", muted }),
    setData: (data) => command({ v: controlVersion, type: "SET_DATA", data }),
    setConsent: (decision, source = "api") => toTracking((api) => api.setConsent(frame, decision, source)),
    // The tracking side keeps listening for this frame, so its final video.incomplete still goes out.
    destroy() {
      destroyed = true;
      removeEventListener("message", onControlMessage);
      iframe.remove();
    },
  };
}

/** The bootstrap's global. `_t` is internal: only the tracking bundle calls it. */
export type ReelbindGlobal = {
  embed: (target: Element | string, options: EmbedOptions) => PlayerHandle;
  _t: (api: TrackingApi) => void;
};

const page = window as { Reelbind?: ReelbindGlobal };
// A second copy of the script on the page must not cut off the players the first one embedded.
page.Reelbind = page.Reelbind || {
  embed,
  _t(api) {
    tracking = api;
    trackingCalls.splice(0).forEach((call) => call(api));
  },
};
