import { analyticsEventTypes, analyticsMessageType, type AnalyticsMessage } from "@/shared/embed-protocol";

// The analytics bridge's message checks (spec §4.5 rule 3 (c), docs/design.md, Player). The source and origin
// checks (a, b) need the player registry and live in the tracker.

/** Event types the player may send. consent.* originate only in the SDK, so over postMessage they are forged. */
const playerEventTypes: readonly string[] = analyticsEventTypes.filter((type) => !type.startsWith("consent."));

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The analytics message carried by `data`, or undefined when any field breaks the rules. Only
 * the known fields are kept, so extra properties never reach the wire.
 */
export function readAnalyticsMessage(data: unknown): AnalyticsMessage | undefined {
  if (!isPlainObject(data) || data.type !== analyticsMessageType) return undefined;
  const { eventType, occurredAt, playbackId, payload } = data;
  if (typeof eventType !== "string" || !playerEventTypes.includes(eventType)) return undefined;
  if (playbackId !== null && !(Number.isInteger(playbackId) && (playbackId as number) > 0)) return undefined;
  if (typeof occurredAt !== "string" || occurredAt === "") return undefined;
  // session.started is the one event with nothing to say (spec §6): the bridge lets its {} through.
  if (!isPlainObject(payload) || (Object.keys(payload).length === 0 && eventType !== "session.started")) return undefined;
  return {
    type: analyticsMessageType,
    eventType: eventType as AnalyticsMessage["eventType"],
    occurredAt,
    playbackId: playbackId as number | null,
    payload,
  };
}
