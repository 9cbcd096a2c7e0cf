#!/usr/bin/env node
// Generates Reelbind's own demo template, "Welcome message": a ten-second personalized note
// from Northwind (a company we made up) with the viewer's name, three facts about their plan,
// a logo image slot, three chapters and an in-video call to action. It writes
// lib/bootstrap/demo-template/landscape/ (1280×720) and portrait/ (720×1280), each with
// data.json (Lottie), manifest.json (binding manifest v1) and images/logo.png.
//
// `npm run demo-template` runs it (`node scripts/make-demo-template.mjs <dir>` writes elsewhere).
// The output is committed and the same bytes on every run: no clocks, no randomness, numbers
// rounded, the PNG drawn and encoded by CanvasKit (WASM). lib/bootstrap/demo-template.unit.test.ts
// checks that the committed files are what this script makes.
//
// Text renders in two places: the browser player (lottie-web's SVG renderer, with the font
// family below: Helvetica Neue, else Arial, else the browser's sans-serif) and the server
// preview (Skottie, every font as DejaVu Sans). Bound values sit in paragraph boxes (`sz`)
// sized so that `maxLength` characters as wide as a "W" (≈ 1 em) still fit in the lines the
// layout reserves for them; `rs: 2` lets Skottie shrink an unbreakable word that lottie-web
// would break.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import initCanvasKit from "canvaskit-wasm";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outDir = path.resolve(process.argv[2] ?? path.join(root, "lib/bootstrap/demo-template"));

const fps = 30;
const duration = 300; // frames: 10 s
const chapters = [
  { id: "greeting", name: "Greeting", startFrame: 0, endFrame: 75 },
  { id: "your-plan", name: "Your plan", startFrame: 75, endFrame: 210 },
  { id: "next-step", name: "Next step", startFrame: 210, endFrame: duration },
];

const palette = {
  background: "#F6F3EC",
  ink: "#13233F",
  muted: "#4A5363",
  brand: "#0B5F58",
  brandTint: "#CFE8E3",
  sand: "#EADFC8",
  card: "#FFFFFF",
  rule: "#E4DED3",
  onBrand: "#FFFFFF",
};

const fontFamily = "Helvetica Neue, Arial, sans-serif";
const fonts = {
  bold: { fName: "Sans-Bold", fFamily: fontFamily, fStyle: "Bold", ascent: 72 },
  regular: { fName: "Sans-Regular", fFamily: fontFamily, fStyle: "Regular", ascent: 72 },
};
/**
 * The first line's baseline below a paragraph box's top, in em: lottie-web puts it at the
 * font's `ascent` (72 above), Skottie at the cap height of DejaVu Sans (≈ 0.72).
 */
const boxAscent = 0.72;
/** The widest common glyph ("W": 0.99 em in DejaVu Sans, 0.94 em in Arial Bold). */
const widestGlyph = 1;

const logoSize = 144;
const logoFile = "logo.png";

/**
 * The bound fields (text layers). `default` is the raw value (a date or an amount, formatted for
 * the share's locale as any value is); `shown` is the layer's own text in the animation, what it
 * reads without bindings (the default formatted in en-US). maxLength fits the longest formatted
 * value the locales give ("3. März 2027", "24,00 $").
 */
const fields = {
  firstName: { layer: "First name", default: "there", maxLength: 12 },
  planName: { layer: "Plan name", default: "Northwind Plus", maxLength: 20 },
  renewalDate: { layer: "Renewal date", default: "2027-03-03", shown: "March 3, 2027", maxLength: 24, format: { type: "date", dateStyle: "long" } },
  amount: { layer: "Amount", default: "24", shown: "$24.00", maxLength: 14, format: { type: "currency", currency: "USD" } },
};

/** What is said over each chapter (captions) and what is shown (descriptions), with the viewer's values. */
const cues = [
  { kind: "captions", chapter: "greeting", text: "Hi {{firstName|there}}! Here\u2019s a quick look at your plan." },
  { kind: "captions", chapter: "your-plan", text: "You\u2019re on {{planName}}. It renews on {{renewalDate}}, and your next payment is {{amount}}." },
  { kind: "captions", chapter: "next-step", text: "Want to switch plans or update your card? It only takes a minute." },
  { kind: "descriptions", chapter: "greeting", text: "The Northwind logo, and a greeting: Hi {{firstName|there}}." },
  { kind: "descriptions", chapter: "your-plan", text: "A card shows your plan, {{planName}}, renewing on {{renewalDate}}, next payment {{amount}}." },
  { kind: "descriptions", chapter: "next-step", text: "How to switch plans or update your card, and a button: Manage my plan." },
];

const copy = {
  wordmark: "Northwind",
  hi: "Hi",
  intro: "Here\u2019s a quick look at your plan.",
  planLabel: "YOUR PLAN",
  renewalLabel: "RENEWS ON",
  amountLabel: "NEXT PAYMENT",
  nextStepLabel: "NEXT STEP",
  nextStep: "Want to switch plans or update your card? It only takes a minute.",
  cta: "Manage my plan",
};

/**
 * Every coordinate of one version: x/y of text are the left edge and the first baseline. The
 * greeting (and its accent) rests `headerShift` lower during the first chapter, next to the
 * intro line, and moves up to make room for the plan.
 */
const layouts = {
  landscape: {
    w: 1280,
    h: 720,
    circles: [
      { x: 1160, y: 80, r: 250, color: palette.brandTint, drift: [-28, 18] },
      { x: 1250, y: 720, r: 150, color: palette.sand, drift: [-14, -10] },
    ],
    logo: { x: 80, y: 48, size: 72 },
    wordmark: { x: 168, y: 97, size: 36 },
    greeting: { x: 80, y: 236, size: 80, nameX: 186, nameWidth: 1014, nameLines: 1, lineHeight: 92 },
    accent: { x: 80, y: 266, w: 64, h: 8 },
    headerShift: 100,
    intro: { x: 80, y: 434, size: 44, width: 1120, lines: 1, lineHeight: 56 },
    panel: { x: 56, y: 290, w: 1168, h: 340 },
    rule: { x: 96, y: 448, w: 1088 },
    facts: [
      { field: "planName", label: copy.planLabel, x: 96, labelY: 346, y: 412, size: 52, width: 1088, lines: 1, lineHeight: 62 },
      { field: "renewalDate", label: copy.renewalLabel, x: 96, labelY: 500, y: 556, size: 44, width: 536, lines: 2, lineHeight: 52 },
      { field: "amount", label: copy.amountLabel, x: 656, labelY: 500, y: 556, size: 44, width: 528, lines: 2, lineHeight: 52 },
    ],
    labelSize: 28,
    // The button beside the message, above the player's controls when they show (phones: the bottom third).
    nextStep: { labelY: 346, x: 80, y: 412, size: 44, width: 680, lines: 3, lineHeight: 56 },
    button: { x: 820, y: 382, w: 380, h: 84, size: 34 },
  },
  portrait: {
    w: 720,
    h: 1280,
    circles: [
      { x: 680, y: 130, r: 230, color: palette.brandTint, drift: [-24, 16] },
      { x: 40, y: 1270, r: 170, color: palette.sand, drift: [14, -12] },
    ],
    logo: { x: 56, y: 80, size: 72 },
    wordmark: { x: 144, y: 129, size: 36 },
    accent: { x: 56, y: 236, w: 64, h: 8 },
    greeting: { x: 56, y: 372, size: 80, nameX: 162, nameWidth: 502, nameLines: 2, lineHeight: 92 },
    headerShift: 200,
    intro: { x: 56, y: 740, size: 44, width: 608, lines: 2, lineHeight: 56 },
    panel: { x: 32, y: 540, w: 656, h: 620 },
    rule: { x: 72, y: 764, w: 576 },
    facts: [
      { field: "planName", label: copy.planLabel, x: 72, labelY: 600, y: 666, size: 52, width: 576, lines: 2, lineHeight: 62 },
      { field: "renewalDate", label: copy.renewalLabel, x: 72, labelY: 820, y: 878, size: 44, width: 576, lines: 2, lineHeight: 52 },
      { field: "amount", label: copy.amountLabel, x: 72, labelY: 994, y: 1052, size: 44, width: 576, lines: 2, lineHeight: 52 },
    ],
    labelSize: 28,
    nextStep: { labelY: 600, x: 56, y: 666, size: 44, width: 608, lines: 3, lineHeight: 56 },
    button: { x: 56, y: 850, w: 608, h: 96, size: 36 },
  },
};

// ---------------------------------------------------------------------------------------------
// Lottie building blocks

const round = (value) => Math.round(value * 1000) / 1000;
const rgb = (hex) => [1, 3, 5].map((i) => round(parseInt(hex.slice(i, i + 2), 16) / 255));
const still = (k) => ({ a: 0, k });
/** Ease out (fast start, soft landing), the curve of every entrance. */
const easeOut = { o: { x: [0.16], y: [1] }, i: { x: [0.3], y: [1] } };
const easeInOut = { o: { x: [0.45], y: [0] }, i: { x: [0.55], y: [1] } };

/** An animated property from [frame, value] pairs, eased between each pair. */
function animated(keys, ease = easeOut) {
  const list = (value) => (Array.isArray(value) ? value.map(round) : [round(value)]);
  return {
    a: 1,
    k: keys.map(([t, value], i) => (i < keys.length - 1 ? { t, s: list(value), ...ease } : { t, s: list(value) })),
  };
}

/** A layer transform; `motion` gives keyframes for opacity, a position offset and scale. */
function transform({ x = 0, y = 0, anchor = [0, 0], scale = 100, motion = {} }) {
  const offset = motion.offset ? animated(motion.offset.map(([t, [dx, dy]]) => [t, [x + dx, y + dy, 0]]), motion.ease) : still([x, y, 0]);
  return {
    o: motion.opacity ? animated(motion.opacity, motion.ease) : still(100),
    r: still(0),
    p: offset,
    a: still([...anchor, 0]),
    s: motion.scale ? animated(motion.scale.map(([t, s]) => [t, Array.isArray(s) ? [...s, 100] : [s, s, 100]]), motion.ease) : still([scale, scale, 100]),
  };
}

/** Fades and slides out, up by `dy`, over `length` frames from `start`. */
function exit(start, { length = 14, dy = -16 } = {}) {
  return {
    opacity: [
      [start, 100],
      [start + length, 0],
    ],
    offset: [
      [start, [0, 0]],
      [start + length, [0, dy]],
    ],
  };
}

/** Fades and slides in from `dy` below over `length` frames from `start`, and out the same way at `exit`. */
function entrance(start, { length = 20, dy = 28, exit, exitLength = 14, exitDy = -16 } = {}) {
  const opacity = [
    [start, 0],
    [start + length, 100],
  ];
  const offset = [
    [start, [0, dy]],
    [start + length, [0, 0]],
  ];
  if (exit !== undefined) {
    opacity.push([exit, 100], [exit + exitLength, 0]);
    offset.push([exit, [0, 0]], [exit + exitLength, [0, exitDy]]);
  }
  return { opacity, offset };
}

let layerIndex = 0;
function layer(ty, nm, { ip = 0, op = duration, ks, ...rest }) {
  return { ddd: 0, ind: ++layerIndex, ty, nm, sr: 1, ks, ao: 0, ip, op, st: 0, bm: 0, ...rest };
}

/** A text layer. `box`: a paragraph box of width × lines (the layer sits at the box's top left). */
function textLayer(nm, text, { x, y, size, font, color, justify = 0, tracking = 0, lineHeight = Math.round(size * 1.2), box, motion, ip, op }) {
  const document = { s: size, f: font.fName, t: text, ca: 0, j: justify, tr: tracking, lh: lineHeight, ls: 0, fc: rgb(color) };
  let top = y;
  if (box) {
    top = y - boxAscent * size;
    const height = (box.lines - 1) * lineHeight + size * 1.25;
    Object.assign(document, { sz: [box.width, round(height)], ps: [0, 0], rs: 2 });
  }
  return layer(5, nm, {
    ip,
    op,
    ks: transform({ x, y: round(top), motion }),
    t: { d: { k: [{ s: document, t: 0 }] }, p: {}, m: { g: 1, a: still([0, 0]) }, a: [] },
  });
}

function fill(color) {
  return { ty: "fl", c: still([...rgb(color), 1]), o: still(100), r: 1, nm: "Fill" };
}

function group(nm, items) {
  return {
    ty: "gr",
    nm,
    it: [...items, { ty: "tr", p: still([0, 0]), a: still([0, 0]), s: still([100, 100]), r: still(0), o: still(100), sk: still(0), sa: still(0) }],
  };
}

/** A rounded rectangle whose top left is the layer's origin (scales from `anchor`). */
function rectLayer(nm, { x, y, w, h, radius = 0, color, anchor = [0, 0], motion, ip, op }) {
  return layer(4, nm, {
    ip,
    op,
    ks: transform({ x: x + anchor[0], y: y + anchor[1], anchor, motion }),
    shapes: [group(nm, [{ ty: "rc", d: 1, p: still([w / 2, h / 2]), s: still([w, h]), r: still(radius), nm: "Rectangle" }, fill(color)])],
  });
}

function circleLayer(nm, { x, y, r, color, drift }) {
  return layer(4, nm, {
    ks: transform({
      x,
      y,
      motion: {
        offset: [
          [0, [0, 0]],
          [duration, drift],
        ],
        scale: [
          [0, 100],
          [duration, 106],
        ],
        ease: easeInOut,
      },
    }),
    shapes: [group(nm, [{ ty: "el", d: 1, p: still([0, 0]), s: still([r * 2, r * 2]), nm: "Ellipse" }, fill(color)])],
  });
}

// ---------------------------------------------------------------------------------------------
// The animation

/** Frames of each scene's motion. */
const timing = {
  accentIn: 6,
  introOut: 52,
  headerUp: 58,
  panelIn: 78,
  factsIn: 86,
  panelOut: 200,
  nextStepIn: 212,
  ctaIn: 228,
  ctaPulse: 266,
};

function buildAnimation(layout) {
  layerIndex = 0;
  const { greeting, intro, panel, rule, facts, nextStep, button } = layout;
  const sceneTwo = { ip: timing.panelIn, op: timing.panelOut + 16 };
  const sceneThree = { ip: chapters[2].startFrame, op: duration };
  const bold = fonts.bold;
  const headerUp = {
    offset: [
      [timing.headerUp, [0, layout.headerShift]],
      [timing.headerUp + 24, [0, 0]],
    ],
    ease: easeInOut,
  };

  const factLayers = facts.flatMap((fact, i) => {
    const start = timing.factsIn + i * 6;
    const motion = entrance(start, { exit: timing.panelOut });
    const { layer: layerName, default: raw, shown } = fields[fact.field];
    const text = shown ?? raw;
    return [
      textLayer(layerName, text, {
        x: fact.x,
        y: fact.y,
        size: fact.size,
        font: bold,
        color: palette.ink,
        lineHeight: fact.lineHeight,
        box: { width: fact.width, lines: fact.lines },
        motion,
        ...sceneTwo,
      }),
      textLayer(`${fact.label[0]}${fact.label.slice(1).toLowerCase()} label`, fact.label, {
        x: fact.x,
        y: fact.labelY,
        size: layout.labelSize,
        font: bold,
        color: palette.brand,
        tracking: 80,
        motion,
        ...sceneTwo,
      }),
    ];
  });

  const cta = ctaComposition(button);
  const layers = [
    layer(0, "CTA button", {
      ...sceneThree,
      refId: cta.id,
      w: button.w,
      h: button.h,
      ks: transform({
        x: button.x + button.w / 2,
        y: button.y + button.h / 2,
        anchor: [button.w / 2, button.h / 2],
        motion: {
          opacity: [
            [timing.ctaIn, 0],
            [timing.ctaIn + 18, 100],
          ],
          offset: [
            [timing.ctaIn, [0, 24]],
            [timing.ctaIn + 22, [0, 0]],
          ],
          scale: [
            [timing.ctaIn, 92],
            [timing.ctaIn + 22, 100],
            [timing.ctaPulse, 100],
            [timing.ctaPulse + 10, 104],
            [timing.ctaPulse + 22, 100],
          ],
        },
      }),
    }),
    textLayer("Next step text", copy.nextStep, {
      x: nextStep.x,
      y: nextStep.y,
      size: nextStep.size,
      font: fonts.regular,
      color: palette.ink,
      lineHeight: nextStep.lineHeight,
      box: { width: nextStep.width, lines: nextStep.lines },
      motion: entrance(timing.nextStepIn + 6),
      ...sceneThree,
    }),
    textLayer("Next step label", copy.nextStepLabel, {
      x: nextStep.x,
      y: nextStep.labelY,
      size: layout.labelSize,
      font: bold,
      color: palette.brand,
      tracking: 80,
      motion: entrance(timing.nextStepIn),
      ...sceneThree,
    }),
    ...factLayers,
    rectLayer("Rule", {
      x: rule.x,
      y: rule.y,
      w: rule.w,
      h: 2,
      color: palette.rule,
      motion: {
        scale: [
          [timing.factsIn + 4, [0, 100]],
          [timing.factsIn + 30, [100, 100]],
        ],
        opacity: [
          [timing.panelOut, 100],
          [timing.panelOut + 14, 0],
        ],
      },
      ...sceneTwo,
    }),
    rectLayer("Panel", {
      ...panel,
      radius: 28,
      color: palette.card,
      motion: entrance(timing.panelIn, { length: 22, dy: 40, exit: timing.panelOut, exitDy: -20 }),
      ...sceneTwo,
    }),
    textLayer("Intro", copy.intro, {
      x: intro.x,
      y: intro.y,
      size: intro.size,
      font: fonts.regular,
      color: palette.muted,
      lineHeight: intro.lineHeight,
      box: { width: intro.width, lines: intro.lines },
      motion: exit(timing.introOut),
      op: timing.introOut + 16,
    }),
    textLayer(fields.firstName.layer, fields.firstName.default, {
      x: greeting.nameX,
      y: greeting.y,
      size: greeting.size,
      font: bold,
      color: palette.ink,
      lineHeight: greeting.lineHeight,
      box: { width: greeting.nameWidth, lines: greeting.nameLines },
      motion: headerUp,
    }),
    textLayer("Hi", copy.hi, { x: greeting.x, y: greeting.y, size: greeting.size, font: bold, color: palette.ink, motion: headerUp }),
    rectLayer("Accent", {
      ...layout.accent,
      radius: layout.accent.h / 2,
      color: palette.brand,
      motion: {
        ...headerUp,
        scale: [
          [timing.accentIn, [0, 100]],
          [timing.accentIn + 24, [100, 100]],
        ],
      },
    }),
    textLayer("Wordmark", copy.wordmark, { ...layout.wordmark, font: bold, color: palette.brand }),
    layer(2, "Logo", {
      refId: "logo",
      ks: transform({ x: layout.logo.x, y: layout.logo.y, scale: round((100 * layout.logo.size) / logoSize) }),
    }),
    ...layout.circles.map((circle, i) => circleLayer(`Circle ${i + 1}`, circle)),
    layer(1, "Background", { ks: transform({}), sc: palette.background, sw: layout.w, sh: layout.h }),
  ];

  return {
    v: "5.7.4",
    fr: fps,
    ip: 0,
    op: duration,
    w: layout.w,
    h: layout.h,
    nm: "Welcome message",
    ddd: 0,
    assets: [{ id: "logo", w: logoSize, h: logoSize, u: "images/", p: logoFile, e: 0 }, cta],
    fonts: { list: [fonts.bold, fonts.regular] },
    layers,
    markers: chapters.map((chapter) => ({ tm: chapter.startFrame, cm: chapter.name, dr: chapter.endFrame - chapter.startFrame })),
  };
}

/** The in-video call to action: a precomposition (button and label), so the whole button is the CTA layer. */
function ctaComposition({ w, h, size }) {
  const saved = layerIndex;
  layerIndex = 0;
  const layers = [
    textLayer("CTA label", copy.cta, {
      x: w / 2,
      y: h / 2 + size * 0.36,
      size,
      font: fonts.bold,
      color: palette.onBrand,
      justify: 2,
    }),
    rectLayer("CTA shape", { x: 0, y: 0, w, h, radius: h / 2, color: palette.brand }),
  ];
  layerIndex = saved;
  return { id: "cta", nm: "CTA", fr: fps, layers };
}

function buildManifest() {
  return {
    version: 1,
    fields: [
      ...Object.entries(fields).map(([key, field]) => ({
        key,
        type: "text",
        target: { layer: field.layer },
        default: field.default,
        maxLength: field.maxLength,
        ...(field.format ? { format: field.format } : {}),
      })),
      { key: "logo", type: "image", target: { asset: "logo" }, default: logoFile },
    ],
    chapters,
    cues,
    ctas: [{ id: "manage-plan", name: copy.cta, layer: "CTA button" }],
    // The landing page shows the poster until the player draws frame 0: the same picture.
    posterFrame: 0,
  };
}

// ---------------------------------------------------------------------------------------------
// Checks: readable contrast, and room for every field at its maxLength

function luminance(hex) {
  const [r, g, b] = rgb(hex).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a, b) {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

function checkDesign() {
  const pairs = [
    ["ink on background", palette.ink, palette.background],
    ["muted on background", palette.muted, palette.background],
    ["brand on background", palette.brand, palette.background],
    ["ink on the circles", palette.ink, palette.brandTint],
    ["muted on the circles", palette.muted, palette.brandTint],
    ["ink on card", palette.ink, palette.card],
    ["brand on card", palette.brand, palette.card],
    ["button label", palette.onBrand, palette.brand],
  ];
  for (const [what, fg, bg] of pairs) {
    if (contrast(fg, bg) < 4.5) throw new Error(`${what}: contrast ${contrast(fg, bg).toFixed(2)} is below 4.5:1`);
  }
  for (const [name, layout] of Object.entries(layouts)) {
    const boxes = [
      { field: "firstName", width: layout.greeting.nameWidth, lines: layout.greeting.nameLines, size: layout.greeting.size },
      ...layout.facts,
    ];
    for (const { field, width, lines, size } of boxes) {
      const perLine = Math.floor(width / (widestGlyph * size));
      if (perLine * lines < fields[field].maxLength) {
        throw new Error(`${name}: ${field} (maxLength ${fields[field].maxLength}) needs more than ${lines} line(s) of ${perLine} wide characters`);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The logo: a north-pointing needle on a rounded square

async function drawLogo() {
  const ck = await initCanvasKit();
  const surface = ck.MakeSurface(logoSize, logoSize);
  const canvas = surface.getCanvas();
  const paint = new ck.Paint();
  paint.setAntiAlias(true);
  const s = logoSize / 144;
  canvas.clear(ck.TRANSPARENT);
  paint.setColor(ck.parseColorString(palette.brand));
  canvas.drawRRect(ck.RRectXY(ck.LTRBRect(0, 0, logoSize, logoSize), 32 * s, 32 * s), paint);
  const needle = (points, color) => {
    const builder = new ck.PathBuilder();
    builder.addPolygon(points.flat().map((v) => v * s), true);
    const p = builder.detachAndDelete();
    paint.setColor(ck.parseColorString(color));
    canvas.drawPath(p, paint);
    p.delete();
  };
  needle(
    [
      [72, 22],
      [72, 96],
      [38, 118],
    ],
    palette.brandTint,
  );
  needle(
    [
      [72, 22],
      [106, 118],
      [72, 96],
    ],
    palette.onBrand,
  );
  const image = surface.makeImageSnapshot();
  const png = image.encodeToBytes(ck.ImageFormat.PNG, 100);
  image.delete();
  paint.delete();
  surface.delete();
  if (!png) throw new Error("CanvasKit could not encode the logo");
  return Buffer.from(png);
}

// ---------------------------------------------------------------------------------------------

checkDesign();
const logo = await drawLogo();
const manifest = `${JSON.stringify(buildManifest(), null, 2)}\n`;
for (const [name, layout] of Object.entries(layouts)) {
  const dir = path.join(outDir, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "images"), { recursive: true });
  const data = `${JSON.stringify(buildAnimation(layout))}\n`;
  writeFileSync(path.join(dir, "data.json"), data);
  writeFileSync(path.join(dir, "manifest.json"), manifest);
  writeFileSync(path.join(dir, "images", logoFile), logo);
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(`${path.relative(root, dir)}: data.json ${kb(data.length)}, manifest.json ${kb(manifest.length)}, images/${logoFile} ${kb(logo.length)}`);
}
