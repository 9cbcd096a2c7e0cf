import { describe, expect, it } from "vitest";
import { PlaybackTracker, type TrackedEvent } from "./playback-tracker";

const chapters = [
  { id: "intro", name: "Intro", startMs: 0, endMs: 3_000 },
  { id: "offer", name: "Offer", startMs: 3_000, endMs: 8_000 },
  { id: "outro", name: "Outro", startMs: 8_000, endMs: 10_000 },
];

const newTracker = (withChapters = false) => new PlaybackTracker({ durationMs: 10_000, chapters: withChapters ? chapters : [] });

/** `type(playbackId) payload…` per event: one line each, easy to compare. */
const summarize = (events: TrackedEvent[]) => events.map((e) => `${e.eventType}(${e.playbackId}) ${JSON.stringify(e.payload)}`);

/** Plays from 0 to the end in 500 ms ticks. */
function playThrough(tracker: PlaybackTracker): TrackedEvent[] {
  const events = tracker.played(0);
  for (let position = 500; position < 10_000; position += 500) events.push(...tracker.position(position));
  events.push(...tracker.ended());
  return events;
}

describe("PlaybackTracker", () => {
  it("session.started – empty payload, no playback, even when the viewer played before INIT", () => {
    const tracker = newTracker();
    expect(summarize(tracker.sessionStarted())).toEqual(["session.started(null) {}"]);
    tracker.played(0);
    expect(summarize(tracker.sessionStarted())).toEqual(["session.started(null) {}"]);
  });

  it("full playback – played(1), progressed 25/50/75 once each, completed", () => {
    expect(summarize(playThrough(newTracker()))).toEqual([
      'video.played(1) {"position_ms":0}',
      'video.progressed(1) {"position_ms":2500,"percent":25}',
      'video.progressed(1) {"position_ms":5000,"percent":50}',
      'video.progressed(1) {"position_ms":7500,"percent":75}',
      'video.completed(1) {"duration_ms":10000,"percent":100}',
    ]);
  });

  it("ended – a quartile still due goes out before video.completed, and no video.paused", () => {
    const tracker = newTracker();
    tracker.played(0);
    tracker.position(6_000);
    expect(summarize(tracker.ended())).toEqual([
      'video.progressed(1) {"position_ms":10000,"percent":75}',
      'video.completed(1) {"duration_ms":10000,"percent":100}',
    ]);
    expect(tracker.paused(10_000)).toEqual([]);
  });

  it("replay – playbackId 2 and the quartiles again", () => {
    const tracker = newTracker();
    playThrough(tracker);
    const replay = summarize(playThrough(tracker));
    expect(replay[0]).toBe('video.played(2) {"position_ms":0}');
    expect(replay.filter((line) => line.startsWith("video.progressed(2)"))).toHaveLength(3);
    expect(replay.at(-1)).toBe('video.completed(2) {"duration_ms":10000,"percent":100}');
  });

  it("seek 10 % → 80 % – only 75, and 25/50 count as passed for that playback", () => {
    const tracker = newTracker();
    tracker.played(0);
    expect(tracker.position(1_000)).toEqual([]);
    expect(summarize(tracker.seeked(8_000))).toEqual(['video.progressed(1) {"position_ms":8000,"percent":75}']);
    expect(tracker.seeked(1_000)).toEqual([]);
    expect(tracker.position(3_000)).toEqual([]);
    expect(tracker.position(6_000)).toEqual([]);
  });

  it("pause and resume – paused and played in the same playback", () => {
    const tracker = newTracker();
    tracker.played(0);
    expect(summarize(tracker.paused(1_234.4))).toEqual(['video.paused(1) {"position_ms":1234}']);
    expect(tracker.paused(1_234)).toEqual([]);
    expect(summarize(tracker.played(1_234))).toEqual(['video.played(1) {"position_ms":1234}']);
    expect(tracker.played(1_300)).toEqual([]);
  });

  it("pause after crossing a quartile between ticks – progressed first, then paused", () => {
    const tracker = newTracker();
    tracker.played(0);
    expect(summarize(tracker.paused(2_600))).toEqual([
      'video.progressed(1) {"position_ms":2600,"percent":25}',
      'video.paused(1) {"position_ms":2600}',
    ]);
  });

  it("before the first play – null playbackId, no progress or chapters from seeks", () => {
    const tracker = newTracker(true);
    expect(tracker.seeked(9_000)).toEqual([]);
    expect(tracker.paused(9_000)).toEqual([]);
    expect(tracker.ended()).toEqual([]);
    expect(summarize(tracker.engaged("seek", 9_000))).toEqual(['interaction.engaged(null) {"action":"seek","position_ms":9000}']);
    expect(summarize(tracker.ctaClicked({ id: "share", name: "Book" }, 0))).toEqual([
      'cta.clicked(null) {"cta_id":"share","cta_name":"Book","position_ms":0}',
    ]);
    expect(tracker.errored("MEDIA_ERROR")[0]?.playbackId).toBeNull();
    expect(tracker.autoplayFailed("NotAllowedError")[0]?.playbackId).toBeNull();
  });

  it("after completion – events keep the completed playback's id until the next video.played", () => {
    const tracker = newTracker();
    playThrough(tracker);
    expect(tracker.engaged("replay", 10_000)[0]?.playbackId).toBe(1);
    expect(tracker.played(0)[0]?.playbackId).toBe(2);
  });

  it.each([
    { name: "during a playback", run: (t: PlaybackTracker) => t.played(0), at: 4_321, expected: ['video.incomplete(1) {"position_ms":4321,"percent":43}'] },
    { name: "while paused mid-playback", run: (t: PlaybackTracker) => [...t.played(0), ...t.paused(2_000)], at: 2_000, expected: ['video.incomplete(1) {"position_ms":2000,"percent":20}'] },
    { name: "before any play", run: () => [], at: 0, expected: [] },
    { name: "after completion", run: (t: PlaybackTracker) => playThrough(t), at: 10_000, expected: [] },
  ])("pageHidden – $name", ({ run, at, expected }) => {
    const tracker = newTracker();
    run(tracker);
    expect(summarize(tracker.pageHidden(at))).toEqual(expected);
    expect(tracker.pageHidden(at)).toEqual([]);
  });

  it("chapters – entered and exited as the position plays through them", () => {
    const tracker = newTracker(true);
    const chapterEvents = summarize(playThrough(tracker)).filter((line) => line.startsWith("chapter."));
    expect(chapterEvents).toEqual([
      'chapter.entered(1) {"chapter_id":"intro","chapter_name":"Intro","position_ms":0}',
      'chapter.exited(1) {"chapter_id":"intro","chapter_name":"Intro","position_ms":3000}',
      'chapter.entered(1) {"chapter_id":"offer","chapter_name":"Offer","position_ms":3000}',
      'chapter.exited(1) {"chapter_id":"offer","chapter_name":"Offer","position_ms":8000}',
      'chapter.entered(1) {"chapter_id":"outro","chapter_name":"Outro","position_ms":8000}',
      'chapter.exited(1) {"chapter_id":"outro","chapter_name":"Outro","position_ms":10000}',
    ]);
  });

  it("chapters – a seek exits the old chapter and enters the new one, also while paused", () => {
    const tracker = newTracker(true);
    tracker.played(1_000);
    expect(summarize(tracker.seeked(9_000))).toEqual([
      'chapter.exited(1) {"chapter_id":"intro","chapter_name":"Intro","position_ms":9000}',
      'chapter.entered(1) {"chapter_id":"outro","chapter_name":"Outro","position_ms":9000}',
      'video.progressed(1) {"position_ms":9000,"percent":75}',
    ]);
    tracker.paused(9_000);
    expect(summarize(tracker.seeked(4_000))).toEqual([
      'chapter.exited(1) {"chapter_id":"outro","chapter_name":"Outro","position_ms":4000}',
      'chapter.entered(1) {"chapter_id":"offer","chapter_name":"Offer","position_ms":4000}',
    ]);
    expect(tracker.seeked(5_000)).toEqual([]);
  });

  it("chapters – a replay enters the first chapter again", () => {
    const tracker = newTracker(true);
    playThrough(tracker);
    expect(summarize(tracker.played(0))).toEqual([
      'video.played(2) {"position_ms":0}',
      'chapter.entered(2) {"chapter_id":"intro","chapter_name":"Intro","position_ms":0}',
    ]);
  });

  it("payload limits – integer milliseconds within 0..24 h, texts cut to the schema's lengths", () => {
    const tracker = newTracker();
    expect(tracker.engaged("click", -5)[0]?.payload).toEqual({ action: "click", position_ms: 0 });
    expect(tracker.engaged("click", 1e12)[0]?.payload).toEqual({ action: "click", position_ms: 86_400_000 });
    expect(tracker.engaged("click", Number.NaN)[0]?.payload).toEqual({ action: "click", position_ms: 0 });
    const errored = tracker.errored("X".repeat(80), "m".repeat(600))[0]?.payload;
    expect(errored).toEqual({ error_code: "X".repeat(64), message: "m".repeat(500) });
    expect(tracker.errored("MEDIA_ERROR")[0]?.payload).toEqual({ error_code: "MEDIA_ERROR" });
  });
});
