import type { ConsentDecision, PlayerContext } from "@/shared/embed-protocol";
import type { ConsentSource } from "@/shared/events/wire-events";

// The internal contract between the two SDK bundles. Types only: each bundle carries its own code.
//
// The bootstrap (player-embed.global.js) defines `window.Reelbind = { embed, _t }` and injects
// player-tracking.global.js on the first embed(). Once loaded, the tracking bundle registers itself
// by calling `window.Reelbind._t(trackingApi)`. Until then the bootstrap records every call it
// would make (addPlayer, setContext, setConsent, and the raw analytics messages it saw) and replays
// them in order on registration, so nothing the player sent before the tracking bundle arrived is
// lost. After registration the bootstrap calls the API directly.
//
// The bootstrap does not validate analytics messages: it forwards every message whose `data.type`
// is the analytics literal as it came, and the tracking bundle applies all the bridge checks.

/** A message event as the bootstrap saw it, before any check. */
export type RawMessage = { data: unknown; origin: string; source: unknown };

export type TrackingApi = {
  /** A new embed: `frame` is the iframe's window, captured at insertion; it keys the player from now on. */
  addPlayer(frame: unknown, origin: string, options: { viewerId?: string }): void;
  /** READY's context for that player: ids, consent mode and where to send its events. */
  setContext(frame: unknown, context: PlayerContext): void;
  setConsent(frame: unknown, decision: ConsentDecision, source: ConsentSource): void;
  receive(message: RawMessage): void;
};
