import type { AnalyticsMessage, ConsentDecision, PlayerContext } from "@/shared/embed-protocol";
import type { ConsentSource, WireEvent } from "@/shared/events/wire-events";
import { readAnalyticsMessage } from "./bridge";
import { createQueue, type Queue } from "./queue";
import { hashViewer, randomUuid, referrerHostOf } from "./enrichment";
import type { TrackingApi } from "./tracking-api";

// The tracking bundle's core: the bridge's source and origin checks, enrichment into wire events,
// consent, and one queue per ingest endpoint. Browser APIs come in through TrackerOptions.

export type TrackerOptions = {
  /** POSTs one body to `url` with the bearer token; resolves with the HTTP status (0: network error). */
  send: (request: { url: string; token: string; body: string }) => Promise<number>;
  /** navigator.sendBeacon with a text/plain body (a simple request: no preflight). */
  beacon: (url: string, body: string) => void;
  /** document.referrer */
  referrer: string;
};

/** The fields every event of a player shares, known once READY's context (and the viewer hash) is in. */
type PlayerFields = Pick<
  WireEvent,
  "organization_id" | "project_id" | "template_id" | "template_version" | "session_id" | "viewer_hash" | "referrer_host"
>;

type ConsentChoice = { decision: ConsentDecision; source: ConsentSource; occurredAt: string };

/** A context with somewhere to send events; a player without one (the console's preview) is never tracked. */
type IngestContext = PlayerContext & { ingest: NonNullable<PlayerContext["ingest"]> };

type Player = {
  origin: string;
  viewerId?: string;
  sessionId: string;
  context?: IngestContext;
  fields?: PlayerFields;
  /** Events waiting for the context, or for consent in mode required. */
  held: AnalyticsMessage[];
  /** The decision in effect (mode required only). */
  consent?: ConsentDecision;
  /** A decision made before the consent mode was known. */
  earlyChoice?: ConsentChoice;
};

/** One batch's worth: a viewer who never answers the consent banner must not grow the page's memory forever. */
const maxHeldEvents = 500;
const consentSources: readonly string[] = ["banner", "host", "api"];

export type Tracker = TrackingApi & {
  setContext(frame: unknown, context: PlayerContext): Promise<void>;
  /** pagehide / hidden: see Queue.flush. */
  flush(): void;
};

export function createTracker({ send, beacon, referrer }: TrackerOptions): Tracker {
  const players = new Map<unknown, Player>();
  const queues = new Map<string, Queue>();
  const referrerHost = referrerHostOf(referrer);

  const ingestBase = (context: IngestContext) => context.ingest.url.replace(/\/+$/, "");

  function queueFor(context: IngestContext): Queue {
    const url = `${ingestBase(context)}/analytics/v1/events`;
    const { token } = context.ingest;
    const key = `${url} ${token}`;
    let queue = queues.get(key);
    if (!queue) {
      queue = createQueue({ send: (body) => send({ url, token, body }) });
      queues.set(key, queue);
    }
    return queue;
  }

  function toWireEvent(
    fields: PlayerFields,
    message: Pick<AnalyticsMessage, "eventType" | "occurredAt" | "playbackId" | "payload">,
    status: WireEvent["consent"]["status"],
  ): WireEvent {
    // The bridge checks the envelope, not the payload's fields: ingest validates those (and answers 422).
    return {
      event_id: randomUuid(),
      event_type: message.eventType,
      occurred_at: message.occurredAt,
      playback_id: message.playbackId,
      payload: message.payload,
      ...fields,
      consent: { status },
    } as WireEvent;
  }

  /** Sends what the player holds when it may, drops it when it never may. */
  function release(player: Player) {
    const { context, fields } = player;
    if (!context || !fields) return;
    const required = context.consentMode === "required";
    if (required && player.consent !== "granted") {
      if (player.consent === "denied") player.held = [];
      return;
    }
    const queue = queueFor(context);
    for (const message of player.held) queue.enqueue(toWireEvent(fields, message, required ? "granted" : "not_required"));
    player.held = [];
  }

  function applyConsent(player: Player, choice: ConsentChoice) {
    const { context, fields } = player;
    if (!context || !fields || context.consentMode !== "required" || player.consent === choice.decision) return;
    player.consent = choice.decision;
    const granted = choice.decision === "granted";
    const event = toWireEvent(
      fields,
      {
        eventType: granted ? "consent.accepted" : "consent.declined",
        occurredAt: choice.occurredAt,
        playbackId: null,
        payload: { source: choice.source },
      },
      granted ? "granted" : "denied",
    );
    beacon(`${ingestBase(context)}/analytics/v1/consent`, JSON.stringify({ token: context.ingest.token, event }));
    release(player);
  }

  return {
    addPlayer(frame, origin, { viewerId }) {
      players.set(frame, { origin, viewerId, sessionId: randomUuid(), held: [] });
    },

    async setContext(frame, context) {
      const player = players.get(frame);
      if (!player || !context || !context.ingest) return;
      player.context = { ...context, ingest: context.ingest };
      const viewerHash = player.viewerId ? await hashViewer(context.projectId, player.viewerId) : undefined;
      player.fields = {
        organization_id: context.organizationId,
        project_id: context.projectId,
        template_id: context.templateId,
        template_version: context.templateVersion,
        session_id: player.sessionId,
        ...(viewerHash && { viewer_hash: viewerHash }),
        ...(referrerHost && { referrer_host: referrerHost }),
      };
      if (player.earlyChoice) applyConsent(player, player.earlyChoice);
      player.earlyChoice = undefined;
      release(player);
    },

    setConsent(frame, decision, source) {
      const player = players.get(frame);
      if (!player || (decision !== "granted" && decision !== "denied")) return;
      const choice = { decision, source: consentSources.includes(source) ? source : "api", occurredAt: new Date().toISOString() };
      if (player.fields) applyConsent(player, choice);
      else player.earlyChoice = choice;
    },

    // The bridge (spec §4.5 rule 3): anything failing a check is dropped without a trace.
    receive({ data, origin, source }) {
      const player = players.get(source);
      if (!player || origin !== player.origin) return;
      const message = readAnalyticsMessage(data);
      if (!message || player.held.length >= maxHeldEvents) return;
      player.held.push(message);
      release(player);
    },

    flush() {
      for (const queue of queues.values()) queue.flush();
    },
  };
}
