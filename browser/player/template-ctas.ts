import type { ManifestTemplateCta } from "@/shared/embed-protocol";
import type { AnimationItem } from "./animation-view";

// Template CTAs: the manifest names a Lottie layer (`nm`) per CTA; its rendered SVG element
// becomes a button. lottie-web keeps no public layer lookup, so the renderer's element tree is
// walked (main composition and precompositions alike).

type RenderedElement = {
  data?: { nm?: unknown };
  baseElement?: Element;
  layerElement?: Element;
  elements?: (RenderedElement | null | undefined)[];
};

export function attachTemplateCtas(animation: AnimationItem, ctas: readonly ManifestTemplateCta[], onClick: (cta: ManifestTemplateCta) => void): void {
  if (ctas.length === 0) return;
  const byLayer = new Map(ctas.map((cta) => [cta.layer, cta]));
  const visit = (elements: RenderedElement["elements"]) => {
    for (const element of elements ?? []) {
      if (!element) continue;
      const cta = typeof element.data?.nm === "string" ? byLayer.get(element.data.nm) : undefined;
      const target = element.baseElement ?? element.layerElement;
      if (cta && target) makeButton(target, cta, () => onClick(cta));
      visit(element.elements);
    }
  };
  visit((animation.renderer as RenderedElement | undefined)?.elements);
}

function makeButton(target: Element, cta: ManifestTemplateCta, activate: () => void): void {
  // Attaching again (a superseded rebind leaves the same animation) must not double the clicks.
  if (target.classList.contains("rb-cta-layer")) return;
  target.setAttribute("role", "button");
  target.setAttribute("tabindex", "0");
  target.setAttribute("aria-label", cta.name);
  target.classList.add("rb-cta-layer");
  // The frame's own click toggles playback: a CTA click must not also pause the video.
  target.addEventListener("click", (event) => {
    event.stopPropagation();
    activate();
  });
  target.addEventListener("keydown", (event) => {
    const key = (event as KeyboardEvent).key;
    if (key !== "Enter" && key !== " ") return;
    event.preventDefault();
    event.stopPropagation();
    activate();
  });
}
