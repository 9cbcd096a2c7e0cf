import { describe, expect, it } from "vitest";
import { HostChannel } from "./host-channel";

function newChannel() {
  const posted: { message: unknown; targetOrigin: string }[] = [];
  const parent = { postMessage: (message: unknown, targetOrigin: string) => posted.push({ message, targetOrigin }) } as unknown as Window;
  return { channel: new HostChannel(parent), posted };
}

describe("HostChannel", () => {
  it("posts nothing before the first INIT's origin is known", () => {
    const { channel, posted } = newChannel();
    channel.postControl({ v: 1, type: "ERROR", code: "X", message: "x" });
    channel.postAnalytics([{ eventType: "session.started", playbackId: null, payload: {} }]);
    expect(posted).toEqual([]);
  });

  it("posts to the first origin only, never '*'", () => {
    const { channel, posted } = newChannel();
    channel.connect("https://shop.example");
    channel.connect("https://evil.example");
    channel.postControl({ v: 1, type: "WARN", code: "BINDING", message: "m" });
    expect(posted).toEqual([{ message: { v: 1, type: "WARN", code: "BINDING", message: "m" }, targetOrigin: "https://shop.example" }]);
  });

  it("analytics – the V1 envelope with an ISO occurredAt", () => {
    const { channel, posted } = newChannel();
    channel.connect("https://shop.example");
    channel.postAnalytics([{ eventType: "video.played", playbackId: 1, payload: { position_ms: 0 } }]);
    expect(posted[0]?.message).toEqual({
      type: "PLAYER_ANALYTICS_EVENT_V1",
      eventType: "video.played",
      occurredAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      playbackId: 1,
      payload: { position_ms: 0 },
    });
  });
});
