// The control bar's icons: 24×24 SVG built with DOM calls (no markup strings), drawn in currentColor.

export type IconName = "play" | "pause" | "replay" | "volume" | "muted" | "fullscreen" | "exitFullscreen";

/** A filled shape and/or a 2-px stroke per icon. */
const icons: Record<IconName, { fill?: string; stroke?: string }> = {
  play: { fill: "M8 5v14l11-7z" },
  pause: { fill: "M6 5h4v14H6zM14 5h4v14h-4z" },
  replay: { stroke: "M4 12a8 8 0 1 0 2.3-5.7M4 4v5h5" },
  volume: { fill: "M3 9h4l5-4v14l-5-4H3z", stroke: "M16 9a4 4 0 0 1 0 6M18.5 6a8 8 0 0 1 0 12" },
  muted: { fill: "M3 9h4l5-4v14l-5-4H3z", stroke: "M16 9l5 6M21 9l-5 6" },
  fullscreen: { stroke: "M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5" },
  exitFullscreen: { stroke: "M9 4v5H4M15 4v5h5M20 15h-5v5M4 15h5v5" },
};

const svgNamespace = "http://www.w3.org/2000/svg";

export function createIcon(name: IconName): SVGSVGElement {
  const svg = document.createElementNS(svgNamespace, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const { fill, stroke } = icons[name];
  if (fill) svg.appendChild(path(fill, { fill: "currentColor" }));
  if (stroke) svg.appendChild(path(stroke, { fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round", "stroke-linejoin": "round" }));
  return svg;
}

function path(d: string, attributes: Record<string, string>): SVGPathElement {
  const element = document.createElementNS(svgNamespace, "path");
  element.setAttribute("d", d);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}
