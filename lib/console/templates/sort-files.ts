import { labelsFor, type FileRole, type SingleFileRole, type UploadDraft } from "./upload-draft";

// Where the upload form puts files dropped or picked on it (issue 32, finding 3): each file goes
// to its field by what it is (a JSON file by its content, the others by extension and type), and
// the form says what it did with each one. Pure, so the rules are unit-tested; reading the files
// (JSON text, folders) is the component's.

/** What a JSON file holds, read by the form before sorting. */
export type JsonContent =
  | { kind: "lottie"; images: string[] }
  | { kind: "manifest" }
  | { kind: "overlay" }
  | { kind: "other" }
  | { kind: "unreadable" };

/** A file as the form hands it over: its path inside a dropped folder (else its name), and for JSON its content. */
export type IncomingFile = { file: File; path: string; json?: JsonContent };

/** One line of the report: "data.json → Lottie JSON". `placed` is false for a file left out. */
export type SortedLine = { path: string; outcome: string; placed: boolean };

export type SortResult = { draft: UploadDraft; report: SortedLine[] };

type FileClass = "json" | "video" | "image" | "poster-image" | "font" | "svg" | "other";

const extension = (name: string) => /\.([^./]+)$/.exec(name)?.[1]?.toLowerCase() ?? "";

/** What a file is by its extension and browser-given type (the server checks its bytes again). */
function classify(file: File): FileClass {
  const ext = extension(file.name);
  const type = file.type.toLowerCase();
  if (ext === "json" || type === "application/json") return "json";
  if (ext === "mp4" || type === "video/mp4") return "video";
  if (ext === "svg" || type === "image/svg+xml") return "svg";
  if (["png", "jpg", "jpeg", "webp"].includes(ext) || ["image/png", "image/jpeg", "image/webp"].includes(type)) return "poster-image";
  if (ext === "gif" || type === "image/gif") return "image";
  if (["ttf", "otf", "woff", "woff2"].includes(ext) || type.startsWith("font/")) return "font";
  return "other";
}

/** The classes of file each field takes. */
const takes: Record<FileRole, readonly FileClass[]> = {
  templateJson: ["json"],
  manifestJson: ["json"],
  overlayJson: ["json"],
  videoFile: ["video"],
  posterFile: ["poster-image"],
  assetFiles: ["poster-image", "image", "font"],
};

/** What a field takes, for a refusal: "Lottie JSON takes a .json file". */
const takesWords: Record<FileRole, string> = {
  templateJson: "a .json file",
  manifestJson: "a .json file",
  overlayJson: "a .json file",
  videoFile: "an .mp4 video",
  posterFile: "a PNG, JPEG or WebP image",
  assetFiles: "images (PNG, JPEG, GIF, WebP) and fonts (TTF, OTF, WOFF, WOFF2)",
};

const jsonRoles: Partial<Record<JsonContent["kind"], SingleFileRole>> = { lottie: "templateJson", manifest: "manifestJson", overlay: "overlayJson" };

/**
 * Reads a JSON text for sorting: a Lottie animation (`v` and `layers`; with the image files it
 * loads by name), a binding manifest (`version` and `fields`), overlay settings (`version`
 * alone, or with `fit` / `offsetSeconds`), or something else.
 */
export function readJsonContent(text: string): JsonContent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "unreadable" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { kind: "other" };
  const record = value as Record<string, unknown>;
  if (typeof record.v === "string" && Array.isArray(record.layers)) {
    const assets = Array.isArray(record.assets) ? (record.assets as Record<string, unknown>[]) : [];
    const images = assets.flatMap((asset) =>
      asset && typeof asset.p === "string" && !Array.isArray(asset.layers) && asset.e !== 1 && !asset.p.startsWith("data:") ? [asset.p.slice(asset.p.lastIndexOf("/") + 1)] : [],
    );
    return { kind: "lottie", images };
  }
  if (record.version !== undefined && Array.isArray(record.fields)) return { kind: "manifest" };
  if (record.version !== undefined && Object.keys(record).every((key) => ["version", "fit", "offsetSeconds"].includes(key))) return { kind: "overlay" };
  return { kind: "other" };
}

/** The field a file belongs in, or why it belongs nowhere. */
function fieldFor(incoming: IncomingFile, lottieImages: Set<string>): { role: FileRole } | { ignored: string } {
  const { file, json } = incoming;
  const name = file.name;
  switch (classify(file)) {
    case "json": {
      const role = json ? jsonRoles[json.kind] : undefined;
      if (role) return { role };
      if (/manifest/i.test(name)) return { role: "manifestJson" };
      if (/overlay/i.test(name)) return { role: "overlayJson" };
      if (json?.kind === "unreadable") return { ignored: "not valid JSON" };
      return { ignored: "a JSON file that is not a Lottie animation, a binding manifest or overlay settings" };
    }
    case "video":
      return { role: "videoFile" };
    case "poster-image":
      return /poster/i.test(name) && !lottieImages.has(name) ? { role: "posterFile" } : { role: "assetFiles" };
    case "image":
    case "font":
      return { role: "assetFiles" };
    case "svg":
      return { ignored: "SVG is not accepted; export the image as PNG" };
    default:
      return { ignored: "not a template file" };
  }
}

/**
 * Puts files into the draft's fields. `zone`: the field they were dropped on or picked for, or
 * none (dropped on the form around the fields). A file the zone takes goes there, unless its
 * content says it is another JSON file of a template (a manifest dropped on the Lottie field);
 * any other file goes to its own field, or is left out with the reason. An MP4 makes the
 * template Raster. A single field keeps the first file of a drop (and replaces an earlier
 * choice); an asset replaces an earlier one of the same name.
 */
export function sortFiles(draft: UploadDraft, incoming: readonly IncomingFile[], zone?: FileRole): SortResult {
  const next: UploadDraft = { ...draft, files: { ...draft.files, assetFiles: [...draft.files.assetFiles] } };
  const report: SortedLine[] = [];
  const takenNow = new Map<FileRole | string, string>();
  const lottieImages = new Set(incoming.flatMap((entry) => (entry.json?.kind === "lottie" ? entry.json.images : [])));
  const visible = incoming.filter((entry) => !entry.path.split("/").some((segment) => segment.startsWith(".")));
  // The zone is the user's choice for one file (or files for the assets' own zone); several files dropped together sort themselves.
  const preferZone = (file: File) => zone !== undefined && takes[zone].includes(classify(file)) && (visible.length === 1 || zone === "assetFiles");
  if (zone && visible.length === 1 && !preferZone(visible[0]!.file)) {
    const only = visible[0]!;
    const elsewhere = fieldFor(only, lottieImages);
    if ("ignored" in elsewhere) {
      const label = labelsFor(draft.kind)[zone] ?? zone;
      return { draft, report: [{ path: only.path, outcome: `refused: ${label} takes ${takesWords[zone]} (${elsewhere.ignored})`, placed: false }] };
    }
  }
  if (visible.some((entry) => classify(entry.file) === "video")) next.kind = "Raster";
  const labels = labelsFor(next.kind);
  const kindChanged = next.kind !== draft.kind;

  for (const entry of incoming) {
    const { file, path } = entry;
    if (!visible.includes(entry)) {
      report.push({ path, outcome: "ignored: a hidden file", placed: false });
      continue;
    }
    const own = fieldFor(entry, lottieImages);
    const knownJson = entry.json && jsonRoles[entry.json.kind];
    const role: FileRole | null = zone && preferZone(file) && !(knownJson && knownJson !== zone) ? zone : "role" in own ? own.role : null;
    if (!role) {
      report.push({ path, outcome: `ignored: ${"ignored" in own ? own.ignored : "not a template file"}`, placed: false });
      continue;
    }
    const label = labels[role] ?? labelsFor("Raster")[role]!;
    if (role === "assetFiles") {
      const key = `asset:${file.name}`;
      const first = takenNow.get(key);
      if (first) {
        report.push({ path, outcome: `ignored: ${first} is the asset named ${file.name} in this drop`, placed: false });
        continue;
      }
      takenNow.set(key, path);
      const earlier = next.files.assetFiles.findIndex((asset) => asset.name === file.name);
      if (earlier >= 0) next.files.assetFiles.splice(earlier, 1);
      next.files.assetFiles.push(file);
      report.push({ path, outcome: `${label}${earlier >= 0 ? ` (replaces the earlier ${file.name})` : ""}`, placed: true });
      continue;
    }
    const first = takenNow.get(role);
    if (first) {
      report.push({ path, outcome: `ignored: ${first} is the ${label} of this drop`, placed: false });
      continue;
    }
    takenNow.set(role, path);
    const replaced = next.files[role];
    next.files[role] = file;
    const notes = [
      replaced && replaced !== file ? `replaces ${replaced.name === file.name ? `the earlier ${file.name}` : replaced.name}` : null,
      role === "videoFile" && kindChanged ? "the kind is now Raster" : null,
      role === "overlayJson" && next.kind !== "Raster" ? "used by a Raster template only" : null,
    ].filter(Boolean);
    report.push({ path, outcome: notes.length > 0 ? `${label} (${notes.join("; ")})` : label, placed: true });
  }
  return { draft: next, report };
}
