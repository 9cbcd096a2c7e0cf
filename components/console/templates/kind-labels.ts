import type { TemplateKind } from "@/lib/console/templates/template-rules";

export const kindLabels: Record<TemplateKind, string> = { LottieStandalone: "Lottie", Raster: "Raster (MP4 + overlay)" };
