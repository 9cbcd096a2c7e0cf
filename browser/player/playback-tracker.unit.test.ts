import { describe, expect, it } from "vitest";
import { maxWatchedSpans, PlaybackTracker, type TrackedEvent } from "./playback-tracker";

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
      'video.completed(1) {"duration_ms":10000,"percent":100,"watched":[[0,10000]]}',
    ]);
  });

  it("ended – a quartile still due goes out before video.completed, and no video.paused", () => {
    const tracker = newTracker();
    tracker.played(0);
    tracker.position(6_000);
    expect(summarize(tracker.ended())).toEqual([
      'video.progressed(1) {"position_ms":10000,"percent":75}',
      'video.completed(1) {"duration_ms":10000,"percent":100,"watched":[[0,10000]]}',
    ]);
    expect(tracker.paused(10_000)).toEqual([]);
  });

  it("replay – playbackId 2 and the quartiles again", () => {
    const tracker = newTracker();
    playThrough(tracker);
    const replay = summarize(playThrough(tracker));
    expect(replay[0]).toBe('video.played(2) {"position_ms":0}');
    expect(replay.filter((line) => line.startsWith("video.progressed(2)"))).toHaveLength(3);
    expect(replay.at(-1)).toBe('video.completed(2) {"duration_ms":10000,"percent":100,"watched":[[0,10000]]}');
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
    expect(summarize(tracker.paused(1_234.4))).toEqual(['video.paused(1) {"position_ms":1234,"watched":[[0,1234]]}']);
    expect(tracker.paused(1_234)).toEqual([]);
    expect(summarize(tracker.played(1_234))).toEqual(['video.played(1) {"position_ms":1234}']);
    expect(tracker.played(1_300)).toEqual([]);
  });

  it("pause after crossing a quartile between ticks – progressed first, then paused", () => {
    const tracker = newTracker();
    tracker.played(0);
    expect(summarize(tracker.paused(2_600))).toEqual([
      'video.progressed(1) {"position_ms":2600,"percent":25}',
      'video.paused(1) {"position_ms":2600,"watched":[[0,2600]]}',
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
    { name: "during a playback", run: (t: PlaybackTracker) => t.played(0), at: 4_321, expected: ['video.incomplete(1) {"position_ms":4321,"percent":43,"watched":[[0,4321]]}'] },
    { name: "while paused mid-playback", run: (t: PlaybackTracker) => [...t.played(0), ...t.paused(2_000)], at: 2_000, expected: ['video.incomplete(1) {"position_ms":2000,"percent":20,"watched":[]}'] },
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

/** The watched spans each report carried, in order: `type: [[from, to], …]`. */
const reports = (events: TrackedEvent[]) =>
  events.filter((e) => "watched" in e.payload).map((e) => `${e.eventType}(${e.playbackId}): ${JSON.stringify(e.payload.watched)}`);

describe("PlaybackTracker – watched spans", () => {
  it("play-through in ticks – one span from 0 to the duration on video.completed", () => {
    expect(reports(playThrough(newTracker()))).toEqual(["video.completed(1): [[0,10000]]"]);
  });

  it("pause and resume – each pause reports what was played since the previous report", () => {
    const tracker = newTracker();
    const events = [...tracker.played(0), ...tracker.position(1_500), ...tracker.paused(2_000.4)];
    events.push(...tracker.played(2_000), ...tracker.position(4_000), ...tracker.paused(4_500));
    events.push(...tracker.played(4_500), ...tracker.ended());
    expect(reports(events)).toEqual(["video.paused(1): [[0,2000]]", "video.paused(1): [[2000,4500]]", "video.completed(1): [[4500,10000]]"]);
  });

  it("seek back – the rewatched part appears twice (overlapping spans are rewatches)", () => {
    const tracker = newTracker();
    const events = [...tracker.played(0), ...tracker.position(5_000)];
    events.push(...tracker.seeked(2_000), ...tracker.position(4_000), ...tracker.paused(6_000));
    expect(reports(events)).toEqual(["video.paused(1): [[0,5000],[2000,6000]]"]);
  });

  it("seek forward – the skipped part is not watched", () => {
    const tracker = newTracker();
    const events = [...tracker.played(0), ...tracker.position(2_000)];
    events.push(...tracker.seeked(7_000), ...tracker.position(8_000), ...tracker.ended());
    expect(reports(events)).toEqual(["video.completed(1): [[0,2000],[7000,10000]]"]);
  });

  it("seek bar drag – the part played before the drag counts up to where it began, the drag itself not at all", () => {
    const tracker = newTracker();
    const events = [...tracker.played(0), ...tracker.position(1_000)];
    tracker.seeking(1_200);
    tracker.seeking(3_000);
    tracker.seeking(6_000);
    events.push(...tracker.seeked(6_500), ...tracker.paused(7_000));
    expect(reports(events)).toEqual(["video.paused(1): [[0,1200],[6500,7000]]"]);
  });

  it("a seek to where it already is – adjacent spans merge into one", () => {
    const tracker = newTracker();
    const events = [...tracker.played(0), ...tracker.position(3_000)];
    tracker.seeking(3_000);
    events.push(...tracker.seeked(3_000), ...tracker.paused(5_000));
    expect(reports(events)).toEqual(["video.paused(1): [[0,5000]]"]);
  });

  it("a position behind the span without a seek – a new span, nothing counted backwards", () => {
    const tracker = newTracker();
    const events = [...tracker.played(3_000), ...tracker.position(4_000), ...tracker.position(1_000), ...tracker.paused(2_000)];
    expect(reports(events)).toEqual(["video.paused(1): [[3000,4000],[1000,2000]]"]);
  });

  it("seeks while paused – nothing is watched", () => {
    const tracker = newTracker();
    const events = [...tracker.played(0), ...tracker.paused(1_000)];
    tracker.seeking(1_000);
    events.push(...tracker.seeked(8_000));
    tracker.seeking(8_000);
    events.push(...tracker.seeked(2_000), ...tracker.played(2_000), ...tracker.paused(2_500));
    expect(reports(events)).toEqual(["video.paused(1): [[0,1000]]", "video.paused(1): [[2000,2500]]"]);
  });

  it("replay – the second playback reports its own spans only", () => {
    const tracker = newTracker();
    const first = playThrough(tracker);
    const second = [...tracker.played(0), ...tracker.position(3_000), ...tracker.paused(3_000)];
    expect(reports(first)).toEqual(["video.completed(1): [[0,10000]]"]);
    expect(reports(second)).toEqual(["video.paused(2): [[0,3000]]"]);
  });

  it("pause right after play – an empty list, not a zero-length span", () => {
    const tracker = newTracker();
    tracker.played(4_000);
    expect(reports(tracker.paused(4_000))).toEqual(["video.paused(1): []"]);
  });

  it("clamped to the duration; integers", () => {
    const tracker = newTracker();
    const events = [...tracker.played(8_000.6), ...tracker.position(9_999.5), ...tracker.paused(12_000)];
    expect(reports(events)).toEqual(["video.paused(1): [[8001,10000]]"]);
  });

  it("video.incomplete – the spans since the last pause; playing goes on in a new span", () => {
    const tracker = newTracker();
    const events = [...tracker.played(0), ...tracker.paused(1_000), ...tracker.played(1_000), ...tracker.position(2_500)];
    events.push(...tracker.pageHidden(3_000), ...tracker.position(3_500), ...tracker.paused(4_000));
    expect(reports(events)).toEqual(["video.paused(1): [[0,1000]]", "video.incomplete(1): [[1000,3000]]", "video.paused(1): [[3000,4000]]"]);
  });

  it(`at most ${maxWatchedSpans} spans in one report – later ones are dropped`, () => {
    const tracker = newTracker();
    tracker.played(0);
    for (let i = 0; i < 150; i += 1) {
      tracker.position(i * 50 + 20);
      tracker.seeking(i * 50 + 20);
      tracker.seeked((i + 1) * 50);
    }
    const watched = tracker.paused(7_520)[0]?.payload.watched as number[][];
    expect(watched).toHaveLength(maxWatchedSpans);
    expect(watched[0]).toEqual([0, 20]);
    expect(watched.at(-1)).toEqual([4_950, 4_970]);
  });
});
