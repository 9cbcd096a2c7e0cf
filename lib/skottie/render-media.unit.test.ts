import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadLottieFixture, makeLottie, solidLayer, textLayer } from "@/testing/fixtures/lottie-builders";
import { fixture } from "@/testing/multipart";
import { maxGifBytes, renderMedia, type RenderMediaInput } from "./render-media";

// Real ffmpeg and ffprobe (Debian's package): every output is checked by what ffprobe reads from it.

const workDirs: string[] = [];
const workDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "reelbind-render-test-"));
  workDirs.push(dir);
  return dir;
};
afterAll(() => workDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

type Probe = {
  streams: { codec_type: string; codec_name: string; pix_fmt?: string; width?: number; height?: number; nb_read_frames?: string }[];
  format: { duration: string; format_name: string };
};

function ffprobe(file: string): Probe {
  const out = execFileSync("ffprobe", ["-v", "error", "-count_frames", "-show_streams", "-show_format", "-of", "json", file]);
  return JSON.parse(out.toString("utf8")) as Probe;
}

const video = (probe: Probe) => probe.streams.find((s) => s.codec_type === "video")!;

/** One second at 30 fps, 320×180: a coloured background and a text layer. */
const oneSecond = makeLottie({
  w: 320,
  h: 180,
  fr: 30,
  op: 30,
  layers: [textLayer("Name", "Hello Ana", { op: 30 }), solidLayer("Background", "#1e6091", 320, 180, { op: 30 })],
});

const render = (input: Partial<RenderMediaInput> & Pick<RenderMediaInput, "format">) =>
  renderMedia({ lottie: oneSecond, workDir: workDir(), ffmpegPath: "ffmpeg", ...input });

describe("renderMedia", () => {
  it("mp4 – H.264, yuv420p, every frame of the animation, its duration", async () => {
    const rendered = await render({ format: "mp4" });
    expect(rendered).toMatchObject({ contentType: "video/mp4", width: 320, height: 180, frames: 30, durationMs: 1000 });
    const probe = ffprobe(rendered.path);
    expect(video(probe)).toMatchObject({ codec_name: "h264", pix_fmt: "yuv420p", width: 320, height: 180, nb_read_frames: "30" });
    expect(Number(probe.format.duration)).toBeCloseTo(1, 1);
    expect(probe.streams.filter((s) => s.codec_type === "audio")).toEqual([]);
    // +faststart: the index (moov) comes before the media data (mdat), so a browser plays while downloading.
    const bytes = readFileSync(rendered.path);
    expect(bytes.indexOf("moov")).toBeLessThan(bytes.indexOf("mdat"));
  });

  it("mp4 – the frames show the animation (a pixel of the background has its colour)", async () => {
    const rendered = await render({ format: "mp4" });
    const rgb = execFileSync("ffmpeg", ["-v", "error", "-i", rendered.path, "-frames:v", "1", "-vf", "crop=2:2:300:170", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]);
    // #1e6091 = (30, 96, 145), give or take the YUV round trip.
    expect(Math.abs(rgb[0]! - 30)).toBeLessThan(8);
    expect(Math.abs(rgb[1]! - 96)).toBeLessThan(8);
    expect(Math.abs(rgb[2]! - 145)).toBeLessThan(8);
  });

  it("gif – a looping GIF at most 5 MB, at most 480 px wide", async () => {
    const rendered = await render({ format: "gif", lottie: loadLottieFixture("lights") });
    expect(rendered.contentType).toBe("image/gif");
    expect(rendered.bytes).toBeLessThanOrEqual(maxGifBytes);
    const probe = ffprobe(rendered.path);
    expect(video(probe).codec_name).toBe("gif");
    expect(video(probe).width).toBe(rendered.width);
    expect(rendered.width).toBeLessThanOrEqual(480);
    expect(Number(video(probe).nb_read_frames)).toBe(rendered.frames);
  });

  it("png – one frame at the template's size", async () => {
    const rendered = await render({ format: "png", stillFrame: 10 });
    expect(rendered).toMatchObject({ contentType: "image/png", width: 320, height: 180, frames: 1 });
    const probe = ffprobe(rendered.path);
    expect(video(probe)).toMatchObject({ codec_name: "png", width: 320, height: 180 });
  });

  it("thumbnail – a short GIF loop (3 s at most) with the play button drawn in the middle", async () => {
    const rendered = await render({ format: "gif", lottie: loadLottieFixture("lights"), thumbnail: true });
    expect(rendered.width).toBeLessThanOrEqual(320);
    expect(rendered.durationMs).toBeLessThanOrEqual(3000);
    const centre = execFileSync("ffmpeg", [
      ...["-v", "error", "-i", rendered.path, "-frames:v", "1"],
      ...["-vf", `crop=1:1:${rendered.width / 2 + 4}:${Math.floor(rendered.height / 2)}`, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
    ]);
    expect([...centre].every((value) => value > 200)).toBe(true); // the white triangle
  });

  it("raster mp4 – the overlay composited on every decoded frame of the video; its sound kept", async () => {
    const dir = workDir();
    const withSound = path.join(dir, "with-sound.mp4");
    execFileSync("ffmpeg", [
      ...["-v", "error", "-i", path.join(process.cwd(), "testing/fixtures/video/background-640x360-6s.mp4")],
      ...["-f", "lavfi", "-i", "sine=frequency=440:duration=6", "-c:v", "copy", "-c:a", "aac", "-shortest", "-y", withSound],
    ]);
    const overlay = makeLottie({ w: 640, h: 360, fr: 30, op: 30, layers: [solidLayer("Box", "#00ff00", 100, 100, { op: 30 })] });
    const rendered = await renderMedia({ format: "mp4", lottie: overlay, video: withSound, overlay: { fit: "contain", offsetSeconds: 0 }, workDir: dir, ffmpegPath: "ffmpeg" });
    expect(rendered).toMatchObject({ width: 640, height: 360, frames: 180 });
    const probe = ffprobe(rendered.path);
    expect(video(probe)).toMatchObject({ codec_name: "h264", pix_fmt: "yuv420p", nb_read_frames: "180" });
    expect(probe.streams.find((s) => s.codec_type === "audio")?.codec_name).toBe("aac");
    expect(Number(probe.format.duration)).toBeCloseTo(6, 0);
    const pixelAt = (seconds: number) =>
      execFileSync("ffmpeg", ["-v", "error", "-ss", String(seconds), "-i", rendered.path, "-frames:v", "1", "-vf", "crop=2:2:50:50", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]);
    // The fixture is red there; the overlay's green box covers it for the overlay's one second.
    const during = pixelAt(0.5);
    expect(during[1]).toBeGreaterThan(200);
    expect(during[0]).toBeLessThan(60);
    const after = pixelAt(3);
    expect(after[0]).toBeGreaterThan(200);
    expect(after[1]).toBeLessThan(60);
  });

  describe("captions", () => {
    const vtt = () => {
      const file = path.join(workDir(), "captions.vtt");
      writeFileSync(file, "WEBVTT\n\n1\n00:00:00.000 --> 00:00:01.000\nHallo Ana, am 3. März 2027\n");
      return file;
    };
    const frameBytes = (file: string) =>
      execFileSync("ffmpeg", ["-v", "error", "-ss", "0.5", "-i", file, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]);

    it("attach – the MP4 gets a mov_text subtitle stream in the locale's language, with the cue's text", async () => {
      const rendered = await render({ format: "mp4", captions: { mode: "attach", vttPath: vtt(), language: "deu" } });
      const probe = JSON.parse(execFileSync("ffprobe", ["-v", "error", "-show_streams", "-of", "json", rendered.path]).toString("utf8")) as {
        streams: { codec_type: string; codec_name: string; tags?: Record<string, string> }[];
      };
      const subtitle = probe.streams.find((s) => s.codec_type === "subtitle");
      expect(subtitle).toMatchObject({ codec_name: "mov_text", tags: { language: "deu" } });
      expect(video(ffprobe(rendered.path))).toMatchObject({ codec_name: "h264", nb_read_frames: "30" });
      const text = execFileSync("ffmpeg", ["-v", "error", "-i", rendered.path, "-map", "0:s:0", "-f", "webvtt", "-"]).toString("utf8");
      expect(text).toContain("Hallo Ana, am 3. März 2027");
      expect(text).toContain("00:00.000 --> 00:01.000");
    });

    it("burn – the captions are drawn into the frames (they differ from the same render without), no subtitle stream", async () => {
      const plain = await render({ format: "mp4" });
      const burnt = await render({ format: "mp4", captions: { mode: "burn", vttPath: vtt() } });
      expect(ffprobe(burnt.path).streams.map((s) => s.codec_type)).toEqual(["video"]);
      expect(frameBytes(burnt.path).equals(frameBytes(plain.path))).toBe(false);
    });

    it("burn – a GIF too", async () => {
      const plain = await render({ format: "gif" });
      const burnt = await render({ format: "gif", captions: { mode: "burn", vttPath: vtt() } });
      expect(video(ffprobe(burnt.path)).codec_name).toBe("gif");
      expect(frameBytes(burnt.path).equals(frameBytes(plain.path))).toBe(false);
    });

    it("attach – refused for a GIF (no subtitle track)", async () => {
      await expect(render({ format: "gif", captions: { mode: "attach", vttPath: vtt() } })).rejects.toMatchObject({ code: "RENDER_INPUT_INVALID" });
    });
  });

  it("missing ffmpeg – a clear error naming FFMPEG_PATH, no crash", async () => {
    await expect(render({ format: "mp4", ffmpegPath: "/nonexistent/ffmpeg" })).rejects.toMatchObject({
      code: "FFMPEG_MISSING",
      message: expect.stringContaining("FFMPEG_PATH"),
    });
  });

  it("ffmpeg failing – the error carries what ffmpeg printed", async () => {
    await expect(render({ format: "mp4", video: fixture("video/poster-640x360.png") && path.join(process.cwd(), "testing/fixtures/video/poster-640x360.png") })).rejects.toThrow();
  });

  it("abort – the render stops with the abort's reason and ffmpeg is killed", async () => {
    const controller = new AbortController();
    const long = makeLottie({ w: 320, h: 180, fr: 30, op: 3000, layers: [solidLayer("Background", "#1e6091", 320, 180, { op: 3000 })] });
    const running = renderMedia({ format: "mp4", lottie: long, workDir: workDir(), ffmpegPath: "ffmpeg", signal: controller.signal });
    setTimeout(() => controller.abort(new Error("stop now")), 200);
    await expect(running).rejects.toThrow("stop now");
  });
});
