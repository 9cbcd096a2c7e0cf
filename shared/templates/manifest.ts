// The binding manifest's types (manifestJson, version 1): what the player, the bindings and the
// data rules read. Validating a manifest is the server's (lib/templates/manifest.ts).

import type { FieldFormat } from "./format-values";

export type ManifestTarget = { layer: string } | { asset: string } | { slot: string };
export type FieldType = "text" | "image";

export type ManifestField = {
  key: string;
  type: FieldType;
  target: ManifestTarget;
  default?: string;
  maxLength?: number;
  /** Data that breaks the field's rule (too long, not a string, not an image) is refused, not adapted (data-rules.ts). */
  strict?: boolean;
  /** How the raw value is shown: formatted with Intl for the share's locale (format-values.ts). */
  format?: FieldFormat;
};
export type ManifestChapter = { id: string; name: string; startFrame: number; endFrame: number };
export type ManifestCta = { id: string; name: string; layer: string };

/**
 * A caption (what is said) or description (what is shown), over a chapter or a frame range; its
 * text takes `{{field}}` placeholders, filled with the viewer's formatted data (cues.ts).
 */
export type ManifestCue = { kind: "captions" | "descriptions"; text: string } & ({ chapter: string } | { startFrame: number; endFrame: number });

export type BindingManifest = {
  version: 1;
  fields: ManifestField[];
  chapters?: ManifestChapter[];
  ctas?: ManifestCta[];
  cues?: ManifestCue[];
  posterFrame?: number;
};

export type TemplateField = {
  key: string;
  type: FieldType;
  /**
   * What the video shows when the data has no value for the key: the manifest's default, else
   * (text) the template's own text. null for an image field without a default: the template's
   * own image stays.
   */
  default: string | null;
  maxLength: number | null;
  /** true: the manifest refuses data that breaks the field's rule (data-rules.ts); absent otherwise. */
  strict?: true;
};
