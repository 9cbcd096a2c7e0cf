// webvtt-parser ships no types (and is CommonJS: its default export holds the classes): the parts the tests read.
declare module "webvtt-parser" {
  export type ParsedCue = { id: string; startTime: number; endTime: number; text: string };
  class WebVTTParser {
    parse(input: string, mode?: "metadata" | "chapters" | "subtitles/captions"): { cues: ParsedCue[]; errors: { message: string; line: number }[] };
  }
  const webvtt: { WebVTTParser: typeof WebVTTParser };
  export default webvtt;
}
