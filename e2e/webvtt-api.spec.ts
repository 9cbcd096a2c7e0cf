import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext } from "@playwright/test";
import webvtt from "webvtt-parser";
import { makeLottie, solidLayer, textLayer } from "../testing/fixtures/lottie-builders";
import { lottieWithManifest, setUpShare } from "./embed-helpers";

// The WebVTT API against the built server: a share's, a campaign recipient's and an embed
// session's captions, each filled with that viewer's own data and formatted for the share's
// locale, read by a real WebVTT parser; cue times are the manifest's chapters (frame / fr s).

const fr = 25;
const chapters = [
  { id: "hello", name: "Hello", startFrame: 0, endFrame: 40 },
  { id: "total", name: "Total", startFrame: 40, endFrame: 100 },
];
const upload = lottieWithManifest(
  "Captioned",
  makeLottie({ w: 640, h: 360, fr, op: 100, layers: [textLayer("Name", "Name", { op: 100 }), textLayer("Amount", "0", { y: 160, op: 100 }), solidLayer("Card", "#e0e7ff", 640, 360, { op: 100 })] }),
  {
    version: 1,
    fields: [
      { key: "firstName", type: "text", target: { layer: "Name" } },
      { key: "amount", type: "text", target: { layer: "Amount" }, format: { type: "currency", currency: "EUR" } },
    ],
    chapters,
    cues: [
      { kind: "captions", chapter: "hello", text: "Hallo {{firstName|du}}!" },
      { kind: "captions", chapter: "total", text: "Dein Betrag: {{amount}}." },
      { kind: "descriptions", chapter: "total", text: "Eine Karte für {{firstName}} mit {{amount}}." },
    ],
  },
);

// Intl writes "1.234,50 €" with a no-break space.
const plain = (text: string) => text.replace(/\s/g, " ");

async function webVtt(request: APIRequestContext, url: string) {
  const response = await request.get(url);
  expect(response.status(), await response.text()).toBe(200);
  expect(response.headers()["content-type"]).toBe("text/vtt; charset=utf-8");
  const parsed = new webvtt.WebVTTParser().parse(await response.text(), "metadata");
  expect(parsed.errors).toEqual([]);
  return { headers: response.headers(), cues: parsed.cues.map((cue) => ({ start: cue.startTime, end: cue.endTime, text: plain(cue.text) })) };
}

const chapterSeconds = (id: string) => {
  const chapter = chapters.find((c) => c.id === id)!;
  return { start: chapter.startFrame / fr, end: chapter.endFrame / fr };
};

test("a de-DE share's captions and descriptions, a recipient's and an embed session's: each with its own name, amounts formatted for the locale, times of the chapters", async ({ request }) => {
  const setup = await setUpShare(request, "Captions", upload, {
    locale: "de-DE",
    publicTitle: "Hallo {{firstName}}, {{amount}}",
    personalizationData: { firstName: "Ana", amount: "1234.5" },
  });
  const slug = setup.share.slug;

  const share = await webVtt(request, `/api/embed/captions/${slug}`);
  expect(share.cues).toEqual([
    { ...chapterSeconds("hello"), text: "Hallo Ana!" },
    { ...chapterSeconds("total"), text: "Dein Betrag: 1.234,50 €." },
  ]);
  expect(share.headers["cache-control"]).toBe("public, max-age=300");
  const descriptions = await webVtt(request, `/api/embed/captions/${slug}?kind=descriptions`);
  expect(descriptions.cues).toEqual([{ ...chapterSeconds("total"), text: "Eine Karte für Ana mit 1.234,50 €." }]);

  // The player's title fills its placeholders with the same formatted values.
  const manifest = await request.get(`/api/embed/manifest?share=${slug}`);
  expect(((await manifest.json()) as { title: string }).title.replace(/\s/g, " ")).toBe("Hallo Ana, 1.234,50 €");

  // A campaign recipient: their data over the share's, in the share's locale; personal, so private.
  const auth = { Authorization: `Bearer ${setup.token}` };
  const campaigns = `/api/Projects/${setup.projectId}/campaigns`;
  const created = await request.post(campaigns, { headers: auth, data: { name: `Captions ${randomUUID().slice(0, 6)}`, channel: "DEV" } });
  expect(created.status(), await created.text()).toBe(201);
  const campaignId = ((await created.json()) as { id: string }).id;
  const imported = await request.post(`${campaigns}/${campaignId}/recipients`, { headers: auth, data: { recipients: [{ id: "r-1", firstName: "Bruno", amount: "99" }] } });
  expect(imported.status(), await imported.text()).toBe(201);
  const listed = await request.get(`${campaigns}/${campaignId}/recipients`, { headers: auth });
  const token = ((await listed.json()) as { items: { url: string }[] }).items[0]!.url.split("/").at(-1)!;
  const recipient = await webVtt(request, `/api/embed/captions/${slug}/${token}`);
  expect(recipient.cues.map((cue) => cue.text)).toEqual(["Hallo Bruno!", "Dein Betrag: 99,00 €."]);
  expect(recipient.headers["cache-control"]).toBe("private, max-age=300");

  // An embed session: the session's data over the share's.
  const session = await setup.session(request, { personalizationData: { firstName: "Cleo" } });
  const sessionVtt = await webVtt(request, `/api/embed/captions?session=${encodeURIComponent(session)}`);
  expect(sessionVtt.cues.map((cue) => cue.text)).toEqual(["Hallo Cleo!", "Dein Betrag: 1.234,50 €."]);
  expect(sessionVtt.headers["cache-control"]).toBe("private, max-age=300");
});

test("in the browser, a de-DE share's player draws the amount as 1.234,50 € and the page title says it too, with German controls", async ({ page, request }) => {
  const setup = await setUpShare(request, "Betrag", upload, {
    locale: "de-DE",
    publicTitle: "Ihr Betrag: {{amount}}",
    personalizationData: { firstName: "Ana", amount: "1234.5" },
  });
  await page.goto(setup.share.url);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Ihr Betrag: 1\.234,50\s€$/);
  const player = page.frameLocator('[data-testid="player-slot"] iframe');
  // lottie-web's SVG renderer writes the bound text into the document (a glyph or word per node, spaces as U+00A0).
  await expect.poll(async () => plain(await player.locator("svg").first().evaluate((svg) => svg.textContent ?? ""))).toContain("1.234,50 €");
  expect(plain(await player.locator("svg").first().evaluate((svg) => svg.textContent ?? ""))).toContain("Ana");
  await expect(player.getByRole("button", { name: /^(Abspielen|Pausieren|Erneut abspielen)$/ })).toBeVisible();
});

test("refusals: an unknown share or recipient token 404, a bad session token 401, a bad kind 422, each as problem+json", async ({ request }) => {
  const setup = await setUpShare(request, "Captions refused", upload, { personalizationData: { firstName: "Ana" } });
  const problem = async (url: string, status: number, detail: RegExp) => {
    const response = await request.get(url);
    expect(response.status()).toBe(status);
    expect(response.headers()["content-type"]).toContain("application/problem+json");
    expect(JSON.stringify(await response.json())).toMatch(detail);
  };
  await problem(`/api/embed/captions/${"x".repeat(22)}`, 404, /not available/);
  await problem(`/api/embed/captions/${setup.share.slug}/${"y".repeat(32)}`, 404, /not available/);
  await problem(`/api/embed/captions?session=not-a-token`, 401, /.+/);
  await problem(`/api/embed/captions/${setup.share.slug}?kind=subtitles`, 422, /kind.*must be one of captions, descriptions/);
  // Without a locale, the en-US default: still the share's own name.
  const { cues } = await webVtt(request, `/api/embed/captions/${setup.share.slug}`);
  expect(cues.map((cue) => cue.text)).toEqual(["Hallo Ana!", "Dein Betrag: ."]);
});

test("the server preview formats for the locale it is given: another picture for de-DE than for en-US; a bad locale 422", async ({ request }) => {
  const setup = await setUpShare(request, "Preview locale", upload);
  const auth = { Authorization: `Bearer ${setup.token}` };
  const [template] = ((await (await request.get(`/api/Projects/${setup.projectId}/templates`, { headers: auth })).json()) as { items: { id: string }[] }).items;
  const preview = async (body: Record<string, unknown>) => request.post(`/api/Projects/${setup.projectId}/templates/${template!.id}/preview`, { headers: auth, data: body });
  const data = { firstName: "Ana", amount: "1234.5" };
  const pictureOf = async (body: Record<string, unknown>) => {
    const response = await preview(body);
    expect(response.status(), await response.text()).toBe(200);
    const { url, warnings } = (await response.json()) as { url: string; warnings: string[] };
    expect(warnings).toEqual([]);
    return (await request.get(url)).body();
  };
  const german = await pictureOf({ data, locale: "de-DE" });
  const english = await pictureOf({ data });
  expect(german.equals(english)).toBe(false);
  expect((await pictureOf({ data, locale: "en-US" })).equals(english)).toBe(true);
  const refused = await preview({ data, locale: "de_DE!" });
  expect(refused.status()).toBe(422);
  expect(JSON.stringify(await refused.json())).toMatch(/locale.*must be a BCP 47 language tag/);
});
