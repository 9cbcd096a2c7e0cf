import { readFileSync } from "node:fs";
import path from "node:path";

export const fixturesDir = path.join(process.cwd(), "testing/fixtures");

export function fixture(relativePath: string): Buffer {
  return readFileSync(path.join(fixturesDir, relativePath));
}

export type UploadPart =
  | { name: string; value: string }
  | { name: string; filename: string; content: Uint8Array | string; contentType?: string };

/** A multipart/form-data body built by hand, so tests can also send what a browser never would. */
export function multipartBody(parts: UploadPart[], boundary = `----reelbind-test-${Math.random().toString(36).slice(2)}`) {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ("value" in part) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` +
            `Content-Type: ${part.contentType ?? "application/octet-stream"}\r\n\r\n`,
        ),
        Buffer.from(part.content),
        Buffer.from("\r\n"),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A POST of a multipart body as a route handler receives it. */
export function uploadRequest(url: string, parts: UploadPart[], options: { token?: string; headers?: Record<string, string> } = {}) {
  const { body, contentType } = multipartBody(parts);
  const headers = new Headers(options.headers);
  if (options.token) headers.set("authorization", `Bearer ${options.token}`);
  if (!headers.has("content-type")) headers.set("content-type", contentType);
  return new Request(new URL(url, "http://localhost:3000"), { method: "POST", headers, body });
}

/** The weather-card fixture with a manifest binding its three text layers and the profile image. */
export function weatherCardParts(extra: UploadPart[] = []): UploadPart[] {
  const manifest = {
    version: 1,
    fields: [
      { key: "City", type: "text", target: { layer: "City" }, default: "Paris" },
      { key: "Status", type: "text", target: { layer: "Status" }, default: "Sunny" },
      { key: "Tempreture", type: "text", target: { layer: "Tempreture" }, default: "20°" },
      { key: "avatar", type: "image", target: { asset: "image_0" } },
    ],
  };
  return [
    { name: "name", value: "Weather card" },
    { name: "kind", value: "LottieStandalone" },
    { name: "version", value: "1.0" },
    { name: "templateJson", filename: "data.json", content: fixture("lottie/weather-card/data.json"), contentType: "application/json" },
    { name: "manifestJson", filename: "manifest.json", content: JSON.stringify(manifest), contentType: "application/json" },
    { name: "assetFiles", filename: "img_0.jpg", content: fixture("lottie/weather-card/images/img_0.jpg"), contentType: "image/jpeg" },
    { name: "assetFiles", filename: "img_1.jpg", content: fixture("lottie/weather-card/images/img_1.jpg"), contentType: "image/jpeg" },
    ...extra,
  ];
}
