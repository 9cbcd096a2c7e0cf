import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";

// Through the running app (not the route handler alone): Next hands the upload route an
// unbuffered body, and the signed preview URL it returns is served by the same app.

const dir = "testing/fixtures/lottie/weather-card";
const file = (name: string, mimeType: string, path = name) => ({ name, mimeType, buffer: readFileSync(`${dir}/${path}`) });

test("POST …/templates/upload then /preview – the weather card through the running app", async ({ request }) => {
  const headers = { authorization: `Bearer ${process.env.E2E_API_TOKEN}` };
  const base = `/api/Projects/${process.env.E2E_PROJECT_ID}/templates`;
  const key = `e2e-${randomUUID()}`;
  // The images its animation shows go with it (an upload without them is refused: upload-assets.test.ts).
  const form = () => {
    const body = new FormData();
    for (const [name, value] of Object.entries({ name: "Weather card e2e", version: "2.0", kind: "LottieStandalone" })) body.set(name, value);
    for (const [role, name, mimeType, path] of [
      ["templateJson", "data.json", "application/json"],
      ["manifestJson", "manifest.json", "application/json"],
      ["assetFiles", "img_0.jpg", "image/jpeg", "images/img_0.jpg"],
      ["assetFiles", "img_1.jpg", "image/jpeg", "images/img_1.jpg"],
    ] as const) {
      const { buffer } = file(name, mimeType, path);
      body.append(role, new File([new Uint8Array(buffer)], name, { type: mimeType }));
    }
    return body;
  };

  const first = await request.post(`${base}/upload`, { headers: { ...headers, "idempotency-key": key }, multipart: form() });
  expect(first.status(), await first.text()).toBe(201);
  const template = (await first.json()) as { id: string; status: string; width: number; height: number };
  expect(template).toMatchObject({ status: "Testing", width: 720, height: 1280 });

  const replay = await request.post(`${base}/upload`, { headers: { ...headers, "idempotency-key": key }, multipart: form() });
  expect(replay.status()).toBe(201);
  expect(replay.headers()["idempotent-replayed"]).toBe("true");
  expect(((await replay.json()) as { id: string }).id).toBe(template.id);

  const preview = await request.post(`${base}/${template.id}/preview`, { headers, data: { data: { City: "Lisbon" } } });
  expect(preview.status(), await preview.text()).toBe(200);
  const { url } = (await preview.json()) as { url: string };
  const png = await request.get(url);
  expect(png.status()).toBe(200);
  expect(png.headers()["content-type"]).toBe("image/png");
  expect((await png.body()).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

  // One character of the signature changed (to another one: a signature may begin with "x").
  const tampered = await request.get(url.replace(/signature=(.)/, (_, first: string) => `signature=${first === "x" ? "y" : "x"}`));
  expect(tampered.status()).toBe(404);
});
