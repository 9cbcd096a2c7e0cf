// lottie_light is lottie-web's SVG renderer WITHOUT the expression engine, on purpose: expressions
// are JavaScript written by template authors, and evaluating them would run it in every viewer's
// browser on the app's origin (it would also need eval, which the page's CSP forbids). Templates
// therefore play without expressions; bindings.ts drops the text expressions it replaces.
import lottie, { type AnimationItem } from "lottie-web/build/player/lottie_light";
import type { Lottie } from "@/shared/templates/lottie";
import { PlayerError } from "./player-error";

export type { AnimationItem };

/** The template's JSON. Its shape was checked at upload, so it is taken as a Lottie. */
export async function fetchTemplateJson(url: string): Promise<Lottie> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: "same-origin" });
  } catch (error) {
    throw new PlayerError("TEMPLATE_LOAD_FAILED", `The template could not be loaded: ${(error as Error).message}`);
  }
  if (!response.ok) throw new PlayerError("TEMPLATE_LOAD_FAILED", `The template could not be loaded (HTTP ${response.status}).`);
  try {
    return (await response.json()) as Lottie;
  } catch {
    throw new PlayerError("TEMPLATE_INVALID", "The template is not valid JSON.");
  }
}

/**
 * One Lottie animation in a container, driven frame by frame (never by lottie-web's own clock, so
 * the player keeps one time source). Replacing the animation data (new bindings) builds the new
 * animation hidden and swaps it in once loaded, so the viewer never sees an empty frame.
 */
export class AnimationView {
  private current: { item: AnimationItem; layer: HTMLElement } | null = null;
  private generation = 0;
  private frame = 0;

  constructor(
    private readonly container: HTMLElement,
    private readonly title: string,
  ) {}

  get item(): AnimationItem | null {
    return this.current?.item ?? null;
  }

  /** Resolves with the animation showing the current frame, or null when a later show() superseded it. */
  async show(animationData: Lottie): Promise<AnimationItem | null> {
    const generation = ++this.generation;
    const layer = document.createElement("div");
    layer.className = "rb-animation";
    layer.style.visibility = "hidden";
    this.container.appendChild(layer);
    let item: AnimationItem;
    try {
      item = await loadAnimation(layer, animationData, this.title);
    } catch (error) {
      layer.remove();
      throw error;
    }
    if (generation !== this.generation) {
      item.destroy();
      layer.remove();
      return null;
    }
    item.goToAndStop(this.frame, true);
    layer.style.visibility = "";
    if (this.current) {
      this.current.item.destroy();
      this.current.layer.remove();
    }
    this.current = { item, layer };
    return item;
  }

  /** Renders a frame counted from the animation's in point (sub-frames allowed). */
  goToFrame(frame: number): void {
    this.frame = frame;
    this.current?.item.goToAndStop(frame, true);
  }

  setVisible(visible: boolean): void {
    this.container.style.visibility = visible ? "" : "hidden";
  }

  destroy(): void {
    this.generation++;
    this.current?.item.destroy();
    this.current?.layer.remove();
    this.current = null;
  }
}

function loadAnimation(container: HTMLElement, animationData: Lottie, title: string): Promise<AnimationItem> {
  return new Promise((resolve, reject) => {
    let loaded = false;
    const fail = () => reject(new PlayerError("ANIMATION_FAILED", "The animation could not be rendered."));
    let item: AnimationItem;
    try {
      item = lottie.loadAnimation({
        container,
        renderer: "svg",
        autoplay: false,
        loop: false,
        animationData,
        rendererSettings: { preserveAspectRatio: "xMidYMid meet", progressiveLoad: false, title },
      });
    } catch {
      fail();
      return;
    }
    item.addEventListener("DOMLoaded", () => {
      loaded = true;
      resolve(item);
    });
    // Only a failure to load rejects: lottie-web reports an error in a later frame and goes on.
    for (const failure of ["data_failed", "error"] as const) {
      item.addEventListener(failure, () => {
        if (loaded) return;
        item.destroy();
        fail();
      });
    }
  });
}
