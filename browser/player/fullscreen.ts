// The Fullscreen API with Safari's prefixed names (Safari before 16.4 has only those).

type PrefixedDocument = Document & {
  webkitFullscreenEnabled?: boolean;
  webkitFullscreenElement?: Element | null;
  webkitExitFullscreen?: () => void;
};
type PrefixedElement = HTMLElement & { webkitRequestFullscreen?: () => void };

const prefixed = () => document as PrefixedDocument;

/** False in an iframe without allow="fullscreen", and on iPhones (video elements only there). */
export function fullscreenSupported(): boolean {
  return Boolean(document.fullscreenEnabled || prefixed().webkitFullscreenEnabled);
}

export function isFullscreen(): boolean {
  return Boolean(document.fullscreenElement || prefixed().webkitFullscreenElement);
}

export function toggleFullscreen(element: HTMLElement): void {
  if (isFullscreen()) {
    if (document.exitFullscreen) void document.exitFullscreen().catch(() => undefined);
    else prefixed().webkitExitFullscreen?.();
  } else if (element.requestFullscreen) {
    void element.requestFullscreen().catch(() => undefined);
  } else {
    (element as PrefixedElement).webkitRequestFullscreen?.();
  }
}

export function onFullscreenChange(listener: () => void): void {
  document.addEventListener("fullscreenchange", listener);
  document.addEventListener("webkitfullscreenchange", listener);
}
