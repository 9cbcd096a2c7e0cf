import { readFileSync } from "node:fs";

// The weather card fixture as a template upload's multipart body: its Lottie file, binding
// manifest and the two images its animation shows (an upload without them is refused).

const dir = "testing/fixtures/lottie/weather-card";

export function weatherCardForm(name = "Weather card", version = "1.0"): FormData {
  const body = new FormData();
  body.set("name", name);
  body.set("version", version);
  body.set("kind", "LottieStandalone");
  body.set("templateJson", new Blob([readFileSync(`${dir}/data.json`)], { type: "application/json" }), "data.json");
  body.set("manifestJson", new Blob([readFileSync(`${dir}/manifest.json`)], { type: "application/json" }), "manifest.json");
  for (const image of ["img_0.jpg", "img_1.jpg"]) body.append("assetFiles", new Blob([readFileSync(`${dir}/images/${image}`)], { type: "image/jpeg" }), image);
  return body;
}
