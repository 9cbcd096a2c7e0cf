import { readFileSync } from "node:fs";
import fc from "fast-check";
import { imageAsset, imageLayer, makeLottie, solidLayer, solidPng, textLayer } from "@/testing/fixtures/lottie-builders";
import { multipartBody, type UploadPart } from "@/testing/multipart";
import { badValue, mutationOf, type JsonSchema } from "./bad-values";

// Multipart bodies for POST …/templates/upload: a small valid template (a text layer and an
// image bound by its manifest) with its parts dropped, repeated, renamed, swapped, made huge or
// bad (the Lottie and the manifest mutated like any JSON body), unknown file parts, and the
// body itself cut short, unterminated, mislabelled or garbled.

/** mayStore: false when the body cannot be a whole multipart/form-data upload (cut short, unterminated, mislabelled). */
export type UploadCase = { label: string; headers: Record<string, string>; body: Uint8Array<ArrayBuffer>; mayStore: boolean };

const manifestSchema = JSON.parse(readFileSync("lib/templates/binding-manifest-v1.json", "utf8")) as JsonSchema;

const lottie = makeLottie({
  nm: "bad-inputs",
  w: 160,
  h: 90,
  layers: [textLayer("Title", "Hello"), imageLayer("Avatar", "image_0"), solidLayer("Background", "#2255aa", 160, 90)],
  assets: [imageAsset("image_0", "avatar.png", 8, 8)],
}) as unknown as Record<string, unknown>;
const manifest = {
  version: 1,
  fields: [
    { key: "title", type: "text", target: { layer: "Title" }, default: "Hello" },
    { key: "avatar", type: "image", target: { asset: "image_0" } },
  ],
};

const json = (name: string, filename: string, value: unknown): UploadPart => ({ name, filename, content: JSON.stringify(value) ?? "", contentType: "application/json" });

function validParts(): UploadPart[] {
  return [
    { name: "name", value: "Bad inputs" },
    { name: "kind", value: "LottieStandalone" },
    { name: "version", value: "1.0" },
    json("templateJson", "animation.json", lottie),
    json("manifestJson", "manifest.json", manifest),
    { name: "assetFiles", filename: "avatar.png", content: solidPng([10, 200, 90, 255]), contentType: "image/png" },
  ];
}

const badString = badValue.map((value) => (typeof value === "string" ? value : (JSON.stringify(value) ?? "")));
const badBytes = fc.oneof(fc.uint8Array({ maxLength: 2048 }), badString.map((text) => Buffer.from(text)));
const fileName = fc.oneof(fc.constantFrom("../../etc/passwd", "..\\..\\x.png", ".hidden.png", "", " ", "a/b/c.png", "x".repeat(300), "é.png", "%2e%2e.png", 'quote".png', "nul\u0000.png"), fc.string({ maxLength: 40 }));
const partName = fc.oneof(
  fc.constantFrom("unknownFile", "templatejson", "assetFiles[]", "", "x".repeat(150), "name\r\nX-Injected: 1", "file"),
  fc.string({ maxLength: 30 }),
);

type PartsMutation = { label: string; parts: UploadPart[] };

/** A change to the valid list of parts. */
function partsMutation(): fc.Arbitrary<PartsMutation> {
  const parts = validParts();
  const index = fc.nat({ max: parts.length - 1 });
  const replace = (i: number, part: UploadPart) => parts.map((p, j) => (j === i ? part : p));
  return fc.oneof(
    index.map((i) => ({ label: `${parts[i]!.name} missing`, parts: parts.filter((_, j) => j !== i) })),
    index.map((i) => ({ label: `${parts[i]!.name} twice`, parts: [...parts, parts[i]!] })),
    fc.tuple(index, partName).map(([i, name]) => ({ label: `${parts[i]!.name} renamed`, parts: replace(i, { ...parts[i]!, name }) })),
    fc.tuple(fc.constantFrom("name", "kind", "version"), badString).map(([name, value]) => ({ label: `${name} bad`, parts: [...parts.filter((p) => p.name !== name), { name, value }] })),
    fc.constantFrom("name", "kind", "version").map((name) => ({ label: `${name} over 16 KB`, parts: [...parts.filter((p) => p.name !== name), { name, value: "v".repeat(16 * 1024 + 1) }] })),
    index.map((i) => {
      const part = parts[i]!;
      const swapped: UploadPart = "value" in part ? { name: part.name, filename: "field.txt", content: part.value } : { name: part.name, value: Buffer.from(part.content).toString("utf8").slice(0, 1000) };
      return { label: `${part.name} as a ${"value" in part ? "file" : "field"}`, parts: replace(i, swapped) };
    }),
    mutationOf(lottie).map(({ label, value }) => ({ label: `templateJson: ${label}`, parts: replace(3, json("templateJson", "animation.json", value)) })),
    mutationOf(manifest, manifestSchema).map(({ label, value }) => ({ label: `manifestJson: ${label}`, parts: replace(4, json("manifestJson", "manifest.json", value)) })),
    fc.tuple(fc.constantFrom(3, 4), badBytes).map(([i, content]) => ({ label: `${parts[i]!.name} not JSON`, parts: replace(i, { ...parts[i]!, content } as UploadPart) })),
    fc.tuple(fc.constantFrom("unknownFile", "overlayJson", "videoFile", "posterFile", "assetFiles"), fileName, badBytes).map(([name, filename, content]) => ({
      label: `extra file part ${name}`,
      parts: [...parts, { name, filename, content }],
    })),
    fc.integer({ min: 21, max: 40 }).map((n) => ({ label: `${n} fields`, parts: [...parts, ...Array.from({ length: n }, (_, i) => ({ name: `f${i}`, value: "x" }))] })),
    fc.constant<PartsMutation>({ label: "501 files", parts: [...parts, ...Array.from({ length: 501 }, (_, i) => ({ name: "assetFiles", filename: `a${i}.bin`, content: "x" }))] }),
    fc.constant<PartsMutation>({ label: "Raster without a video", parts: parts.map((p) => (p.name === "kind" ? { name: "kind", value: "Raster" } : p)) }),
  );
}

const multipart = (boundary: string) => ({ "Content-Type": `multipart/form-data; boundary=${boundary}` });

/** The body's bytes or its headers garbled. */
function transportMutation({ label, parts }: PartsMutation): fc.Arbitrary<UploadCase> {
  const boundary = "----reelbind-bad-inputs-0123456789";
  const { body } = multipartBody(parts, boundary);
  const whole: UploadCase = { label, headers: multipart(boundary), body: new Uint8Array(body), mayStore: true };
  const text = body.toString("latin1");
  const closeDelimiterEnd = text.lastIndexOf(`--${boundary}--`) + `--${boundary}--`.length;
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(whole) },
    // Cut before the close delimiter's last byte: without the CRLF after it the body is still whole (RFC 2046 §5.1.1).
    { weight: 2, arbitrary: fc.nat({ max: closeDelimiterEnd - 1 }).map((cut) => ({ ...whole, label: `${label}, cut at byte ${cut}`, body: whole.body.slice(0, cut), mayStore: false })) },
    { weight: 1, arbitrary: fc.constant({ ...whole, label: `${label}, no closing boundary`, body: whole.body.slice(0, body.lastIndexOf(`--${boundary}--`)), mayStore: false }) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("multipart/form-data", "multipart/form-data; boundary=", `multipart/form-data; boundary=${"b".repeat(200)}`, "multipart/form-data; boundary=other", "multipart/mixed; boundary=x", "application/json", "text/plain", "")
        .map((contentType) => ({ ...whole, label: `${label}, Content-Type "${contentType}"`, headers: { "Content-Type": contentType }, mayStore: false })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          ["no Content-Disposition", /Content-Disposition: form-data; name="kind"\r\n/, ""],
          ["LF line ends", /\r\n/g, "\n"],
          ["filename*", /filename="animation.json"/, "filename*=UTF-8''%E2%82%AC.json"],
          ["no name", /name="name"/, 'x="name"'],
          ["garbage part header", /Content-Type: image\/png/, "Content-Type: \u0000\u0001\u00ff"],
        )
        .map(([what, pattern, replacement]) => ({ ...whole, label: `${label}, ${what as string}`, body: new Uint8Array(Buffer.from(text.replace(pattern as RegExp, replacement as string), "latin1")) })),
    },
    { weight: 1, arbitrary: badString.map((key) => ({ ...whole, label: `${label}, Idempotency-Key ${JSON.stringify(key.slice(0, 20))}`, headers: { ...whole.headers, "Idempotency-Key": encodeURIComponent(key.toWellFormed()).slice(0, 300) || " " } })) },
  );
}

/** An unknown file part the parser skips, with the body cut inside it (busboy's error on a skipped part, issue 15). */
const unknownPartCut = fc.integer({ min: 1, max: 4000 }).map((offset): UploadCase => {
  const boundary = "----reelbind-bad-inputs-skipped";
  const { body } = multipartBody([...validParts(), { name: "unknownFile", filename: "x.bin", content: Buffer.alloc(8192, 7) }], boundary);
  const cut = body.indexOf('filename="x.bin"') + offset;
  return { label: `unknown file part cut after ${offset} bytes`, headers: multipart(boundary), body: new Uint8Array(body.subarray(0, cut)), mayStore: false };
});

export function uploadCases(): fc.Arbitrary<UploadCase> {
  return fc.oneof({ weight: 8, arbitrary: partsMutation().chain(transportMutation) }, { weight: 1, arbitrary: unknownPartCut });
}
