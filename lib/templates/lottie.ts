import { ValidationError } from "@/lib/errors";
import {
  JsonTextError,
  jsonNestingExceeds,
  parseJsonText as parseSharedJsonText,
  readJsonText,
  type JsonTextErrorReason,
  type JsonTextLimits,
} from "@/lib/validation/json-text";
import type { Lottie } from "@/shared/templates/lottie";

export { JsonTextError, jsonNestingExceeds, type JsonTextErrorReason };

// templateJson as the server takes it: a guarded parser and the shape check that makes it a
// Lottie animation (the type and the helpers that read it: shared/templates/lottie.ts).

/**
 * Limits applied before JSON.parse. 32 Mi characters holds any hand-made animation and
 * several megabytes of embedded (data URL) images; nesting of 64 is four times the deepest
 * fixture (16) and far below what would exhaust the stack of a recursive walker.
 */
export const lottieJsonLimits = { maxChars: 32 * 1024 * 1024, maxDepth: 64 } as const;

/** The largest width or height accepted for an animation, in pixels. */
export const maxLottieDimension = 8192;

/**
 * templateJson is not an acceptable Lottie animation (422). `errors` names the member
 * (`templateJson.op`); `message` reads "op: must be greater than ip (0)".
 */
export class LottieJsonError extends ValidationError {
  constructor(
    readonly reason: JsonTextErrorReason | "invalid_shape",
    /** Dotted path inside the Lottie document ("" for the document itself). */
    readonly jsonPath: string,
    message: string,
  ) {
    super([{ path: jsonPath ? `templateJson.${jsonPath}` : "templateJson", message }], jsonPath ? `${jsonPath}: ${message}` : message);
  }
}

const withLottieDefaults = (limits: Partial<JsonTextLimits>): JsonTextLimits => ({
  maxChars: limits.maxChars ?? lottieJsonLimits.maxChars,
  maxDepth: limits.maxDepth ?? lottieJsonLimits.maxDepth,
});

/** parseJsonText (lib/validation/json-text.ts) with the animation's limits unless others are given. */
export function parseJsonText(text: string, limits: Partial<JsonTextLimits> = {}): unknown {
  return parseSharedJsonText(text, withLottieDefaults(limits));
}

/** Parses templateJson text into an animation, or throws LottieJsonError. */
export function parseLottieJson(text: string, limits: Partial<JsonTextLimits> = {}): Lottie {
  const result = readJsonText(text, withLottieDefaults(limits));
  if (!result.ok) throw new LottieJsonError(result.reason, "", result.message);
  assertLottieShape(result.value);
  return result.value;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isFiniteNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

function assertLottieShape(value: unknown): asserts value is Lottie {
  const fail = (path: string, message: string): never => {
    throw new LottieJsonError("invalid_shape", path, message);
  };
  if (!isRecord(value)) return fail("", "must be a JSON object (a Lottie animation)");
  if (typeof value.v !== "string") fail("v", "is required: the Bodymovin version string");
  if (!isFiniteNumber(value.fr) || value.fr <= 0) fail("fr", "must be a frame rate greater than 0");
  if (!isFiniteNumber(value.ip)) fail("ip", "must be a number (the in point, in frames)");
  if (!isFiniteNumber(value.op)) fail("op", "must be a number (the out point, in frames)");
  if ((value.op as number) <= (value.ip as number)) fail("op", `must be greater than ip (${value.ip})`);
  for (const key of ["w", "h"] as const) {
    const size = value[key];
    if (!Number.isInteger(size) || (size as number) < 1 || (size as number) > maxLottieDimension) {
      fail(key, `must be a whole number of pixels from 1 to ${maxLottieDimension}`);
    }
  }
  if (!Array.isArray(value.layers)) fail("layers", "must be an array");
  if (value.assets !== undefined && !Array.isArray(value.assets)) fail("assets", "must be an array");
  for (const member of ["layers", "assets"] as const) {
    const index = ((value[member] ?? []) as unknown[]).findIndex((entry) => !isRecord(entry));
    if (index >= 0) fail(`${member}.${index}`, "must be an object");
  }
  if (value.markers !== undefined && !Array.isArray(value.markers)) fail("markers", "must be an array");
  if (value.slots !== undefined && !isRecord(value.slots)) fail("slots", "must be an object");
  if (value.fonts !== undefined && !(isRecord(value.fonts) && (value.fonts.list === undefined || Array.isArray(value.fonts.list)))) {
    fail("fonts", "must be an object whose list is an array");
  }
}
