import { analyticsMessageType, type AnalyticsMessage, type ControlMessage } from "@/shared/embed-protocol";
import type { TrackedEvent } from "./playback-tracker";

// Player → host, both channels (spec §4.5 rules 1–2): nothing goes out before the first accepted
// INIT, and everything after goes to window.parent at exactly that INIT's origin, never "*".

export class HostChannel {
  private origin: string | null = null;

  constructor(private readonly parent: Window) {}

  get parentOrigin(): string | null {
    return this.origin;
  }

  /** The first accepted INIT's origin; later calls change nothing. */
  connect(origin: string): void {
    this.origin ??= origin;
  }

  postControl(message: ControlMessage): void {
    this.post(message);
  }

  postAnalytics(events: TrackedEvent[]): void {
    for (const { eventType, playbackId, payload } of events) {
      const message: AnalyticsMessage = { type: analyticsMessageType, eventType, occurredAt: new Date().toISOString(), playbackId, payload };
      this.post(message);
    }
  }

  private post(message: ControlMessage | AnalyticsMessage): void {
    if (this.origin === null) return;
    this.parent.postMessage(message, this.origin);
  }
}
