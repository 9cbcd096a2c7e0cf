import { controlVersion, type HostCommand } from "@/shared/embed-protocol";

// Which host → player messages the player obeys (spec §4.5 rule 2, docs/design.md, Player). Pure, so every
// case is a row in a test table: the player passes in what it knows and acts only on the command
// returned.

export type IncomingMessage = { source: unknown; origin: string; data: unknown };

export type HostMessageContext = {
  /** window.parent: the only window allowed to drive the player. */
  parent: unknown;
  /** The embed session's allowed origins; null accepts INIT from any origin. */
  allowedOrigins: readonly string[] | null;
  /** Set by the first accepted INIT; null before. */
  parentOrigin: string | null;
};

/**
 * An origin the player can answer: postMessage needs a `scheme://host[:port]` target, and an
 * opaque origin ("null": sandboxed frames, file: pages) could only be answered with "*".
 */
const answerableOrigin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+$/;

/** The command to act on, cleaned of anything the protocol does not define; null: ignore the message. */
export function acceptHostMessage({ source, origin, data }: IncomingMessage, context: HostMessageContext): HostCommand | null {
  if (source !== context.parent || !isRecord(data) || data.v !== controlVersion) return null;
  if (data.type === "INIT") {
    if (context.parentOrigin !== null || !answerableOrigin.test(origin)) return null;
    if (context.allowedOrigins !== null && !context.allowedOrigins.includes(origin)) return null;
    return { v: 1, type: "INIT", data: stringEntries(data.data), autoplay: data.autoplay === true, muted: data.muted === true };
  }
  if (context.parentOrigin === null || origin !== context.parentOrigin) return null;
  switch (data.type) {
    case "PLAY":
    case "PAUSE":
      return { v: 1, type: data.type };
    case "SEEK":
      return typeof data.positionMs === "number" && Number.isFinite(data.positionMs) ? { v: 1, type: "SEEK", positionMs: data.positionMs } : null;
    case "MUTE":
      return typeof data.muted === "boolean" ? { v: 1, type: "MUTE", muted: data.muted } : null;
    case "SET_DATA":
      return isRecord(data.data) ? { v: 1, type: "SET_DATA", data: stringEntries(data.data) } : null;
    default:
      return null;
  }
}

/**
 * The warning for the embedder's console when the parent's INIT is ignored because the embed
 * session does not allow its origin (the commonest set-up mistake); null for any other message.
 */
export function refusedOriginWarning({ source, origin, data }: IncomingMessage, context: HostMessageContext): string | null {
  if (source !== context.parent || !isRecord(data) || data.v !== controlVersion || data.type !== "INIT") return null;
  if (context.parentOrigin !== null || context.allowedOrigins === null || context.allowedOrigins.includes(origin)) return null;
  return `Reelbind player: INIT from ${origin} ignored: the embed session's allowed origins do not include it.`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Binding data is strings only: other values are dropped, the string ones kept. */
function stringEntries(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}
