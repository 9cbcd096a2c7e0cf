// Draws Reelbind's mark (a play triangle on an indigo rounded square, with a dot for the
// viewer's data) and writes the app's icons: app/favicon.ico (16, 32 and 48 px PNGs in an ICO
// container), app/icon.png (512 px, also the web app manifest's icon) and app/apple-icon.png
// (180 px). Run with `npm run icons`; the output is committed, and the same on every run.
import { writeFileSync } from "node:fs";
import initCanvasKit from "canvaskit-wasm/bin/full/canvaskit.js";

const indigo = [79, 70, 229];
const amber = [251, 191, 36];

/** The mark at `size` px, as PNG bytes. */
function drawMark(ck, size) {
  const surface = ck.MakeSurface(size, size);
  const canvas = surface.getCanvas();
  canvas.clear(ck.TRANSPARENT);
  const paint = new ck.Paint();
  paint.setAntiAlias(true);
  const unit = size / 32;

  paint.setColor(ck.Color(...indigo, 1));
  canvas.drawRRect(ck.RRectXY(ck.LTRBRect(0, 0, size, size), 7 * unit, 7 * unit), paint);

  const triangle = ck.Path.MakeFromCmds([ck.MOVE_VERB, 12 * unit, 8.5 * unit, ck.LINE_VERB, 24 * unit, 16 * unit, ck.LINE_VERB, 12 * unit, 23.5 * unit, ck.CLOSE_VERB]);
  paint.setColor(ck.WHITE);
  canvas.drawPath(triangle, paint);

  paint.setColor(ck.Color(...amber, 1));
  canvas.drawCircle(24.5 * unit, 24.5 * unit, 3.5 * unit, paint);

  const image = surface.makeImageSnapshot();
  const png = image.encodeToBytes();
  for (const object of [image, triangle, paint, surface]) object.delete();
  return Buffer.from(png);
}

/** An ICO file holding PNG images (supported by every browser since Windows Vista's format change). */
function ico(images) {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // icon
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0);
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map(({ png }) => png)]);
}

const ck = await initCanvasKit();
writeFileSync("app/favicon.ico", ico([16, 32, 48].map((size) => ({ size, png: drawMark(ck, size) }))));
writeFileSync("app/icon.png", drawMark(ck, 512));
writeFileSync("app/apple-icon.png", drawMark(ck, 180));
console.log("Wrote app/favicon.ico, app/icon.png and app/apple-icon.png");
