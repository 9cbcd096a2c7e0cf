import type { BindingManifest } from "@/shared/templates/manifest";

// The contract between the page manifest (server), the player iframe (browser/player) and the
// host-page SDK (browser/sdk): spec §4.5, §6 and docs/design.md, Tokens and Player. Types and constants only, so the
// browser bundles can import it without pulling in server code.

/** The control channel's version: every control message and host command carries `v: 1`. */
export const controlVersion = 1;

/** The analytics channel's message type (spec §2.4). */
export const analyticsMessageType = "PLAYER_ANALYTICS_EVENT_V1";

export const analyticsEventTypes = [
  "session.started",
  "video.played",
  "video.paused",
  "video.progressed",
  "video.completed",
  "video.incomplete",
  "video.errored",
  "autoplay.failed",
  "cta.clicked",
  "interaction.engaged",
  "chapter.entered",
  "chapter.exited",
  "consent.accepted",
  "consent.declined",
] as const;
export type AnalyticsEventType = (typeof analyticsEventTypes)[number];

export type ConsentMode = "required" | "not_required";
/** What the host page (or the landing page's banner) decided; `undefined` while undecided. */
export type ConsentDecision = "granted" | "denied";

// ---------------------------------------------------------------------------------------------
// Page manifest: GET /api/embed/manifest?share=slug | ?session=token, also inlined in the
// player page. Times are milliseconds; URLs are absolute.

export type ManifestFileUrls = {
  templateJson: string | null;
  videoFile: string | null;
  posterFile: string | null;
  /** Asset file name → URL: what an image layer (`p`) or an image field value may name. */
  assets: Record<string, string>;
};

export type ManifestChapter = { id: string; name: string; startMs: number; endMs: number };
/** A template CTA: a Lottie layer that opens the share's ctaUrl when clicked. */
export type ManifestTemplateCta = { id: string; name: string; layer: string };

export type PageManifest = {
  version: 1;
  organizationId: string;
  projectId: string;
  /** null in the console's preview of one template, which plays no share. */
  shareId: string | null;
  channel: "DEV" | "STAGING" | "PROD" | null;
  /** The share's title: the player's accessible name. */
  title: string;
  /** The share's locale (a canonical BCP 47 tag: en-US, ar) or null. */
  locale: string | null;
  template: {
    id: string;
    version: string;
    kind: "LottieStandalone" | "Raster";
    width: number;
    height: number;
    files: ManifestFileUrls;
    /** Raster only: how the video fills the frame and when the overlay starts (overlayJson). */
    overlay: { fit: "contain" | "cover" | "fill"; offsetSeconds: number } | null;
  } | null;
  /** The data to bind: the share's personalizationData overridden by the session's (strings only). */
  bindings: { manifest: BindingManifest | null; data: Record<string, string> };
  chapters: ManifestChapter[];
  ctas: ManifestTemplateCta[];
  /** The share's call to action (http(s) only), or null. */
  cta: { label: string; url: string } | null;
  consent: { mode: ConsentMode };
  /** null in the console's preview: no ingest token, so its plays never reach the project's analytics. */
  ingest: { url: string; token: string; expiresAt: string } | null;
  /** The embed session's allowed origins: the player accepts INIT only from these. null: any origin. */
  allowedOrigins: string[] | null;
};

// ---------------------------------------------------------------------------------------------
// Host → player commands (the SDK posts them to the player origin).

export type HostCommand =
  | {
      v: 1;
      type: "INIT";
      /** Data from the host page; overrides the manifest's data key by key. */
      data?: Record<string, string>;
      autoplay?: boolean;
      muted?: boolean;
    }
  | { v: 1; type: "PLAY" }
  | { v: 1; type: "PAUSE" }
  | { v: 1; type: "SEEK"; positionMs: number }
  | { v: 1; type: "MUTE"; muted: boolean }
  | { v: 1; type: "SET_DATA"; data: Record<string, string> };

// ---------------------------------------------------------------------------------------------
// Player → host, control channel (spec §4.5): drives onReady/onProgress/onComplete/onWarn/onCta/onError.

/** What the SDK's tracking bundle needs to enrich and send the analytics events. */
export type PlayerContext = {
  organizationId: string;
  projectId: string;
  templateId: string;
  templateVersion: string;
  consentMode: ConsentMode;
  /** null: nothing of this player is recorded (the console's preview). */
  ingest: { url: string; token: string } | null;
};

export type ControlMessage =
  | { v: 1; type: "READY"; durationMs: number; width: number; height: number; context: PlayerContext }
  | { v: 1; type: "PROGRESS"; positionMs: number; durationMs: number; percent: number; playing: boolean; playbackId: number | null }
  | { v: 1; type: "COMPLETE"; durationMs: number; playbackId: number | null }
  | { v: 1; type: "WARN"; code: "AUTOPLAY_BLOCKED" | "BINDING"; message: string }
  | { v: 1; type: "CTA"; ctaId: string; ctaName: string; url: string | null; positionMs: number }
  | { v: 1; type: "ERROR"; code: string; message: string };

export type ControlMessageType = ControlMessage["type"];

// ---------------------------------------------------------------------------------------------
// Player → host, analytics channel (spec §2.4).

export type AnalyticsMessage = {
  type: typeof analyticsMessageType;
  eventType: AnalyticsEventType;
  /** ISO 8601 with milliseconds (Date.prototype.toISOString), player clock. */
  occurredAt: string;
  playbackId: number | null;
  payload: Record<string, unknown>;
};
