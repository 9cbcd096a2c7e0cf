import type { OutlineField } from "@/lib/templates/template-outline";

// How the template pages name a field's target and a file's role (the detail and compare pages).

export const targetLabel = (target: OutlineField["target"]) =>
  "layer" in target ? `text layer “${target.layer}”` : "asset" in target ? `image asset “${target.asset}”` : `slot “${target.slot}”`;

export const fileRoleLabels: Record<string, string> = {
  templateJson: "Lottie JSON",
  manifestJson: "Binding manifest",
  overlayJson: "Overlay settings",
  videoFile: "Video",
  posterFile: "Poster",
  assetFiles: "Asset",
};
