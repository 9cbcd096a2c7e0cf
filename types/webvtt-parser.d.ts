// webvtt-parser ships no types: the parts the tests read.
declare module "webvtt-parser" {
  export type ParsedCue = { id: string; startTime: number; endTime: number; text: string };
  export class WebVTTParser {
    parse(input: string, mode?: "metadata" | "chapters" | "subtitles/captions"): { cues: ParsedCue[]; errors: { message: string; line: number }[] };
  }
}
