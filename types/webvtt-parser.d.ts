// webvtt-parser ships no types (and is CommonJS: its default export holds the classes): the parts the tests read.
declare module "webvtt-parser" {
  export type ParsedCue = { id: string; startTime: number; endTime: number; text: string };
  export type ParsedVtt = { cues: ParsedCue[]; errors: { message: string; line: number }[] };
  const webvtt: { WebVTTParser: new () => { parse(input: string, mode?: "metadata" | "chapters" | "subtitles/captions"): ParsedVtt } };
  export default webvtt;
}
