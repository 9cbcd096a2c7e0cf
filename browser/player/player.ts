import { playerMessages } from "@/shared/i18n/player-messages";
import { translator } from "@/shared/i18n/locale";
import { HostChannel } from "./host-channel";
import { PlayerSession } from "./player-session";
import { PlayerView } from "./player-view";
import { installPolyfills } from "./polyfills";
import { readPageManifest } from "./read-manifest";
import { injectStyles } from "./styles";

// The player iframe's script (GET /embed/{slug}, /embed?session=…), bundled to
// public/player/player.js. The page holds <div id="reelbind-player"> and the inlined page
// manifest; everything else is built here.

function boot(): void {
  const root = document.getElementById("reelbind-player");
  if (!root) return;
  installPolyfills();
  injectStyles();
  const manifest = readPageManifest(document);
  // One translator for the whole player, in the share's language (the document's lang without a manifest).
  const locale = manifest ? manifest.locale : document.documentElement.lang;
  const t = translator(playerMessages, locale);
  if (!manifest) {
    const view = new PlayerView(root, document.title, null, t, locale);
    view.setState("error");
    view.showMessage(t("unavailable"));
    return;
  }
  const session = new PlayerSession(manifest, new PlayerView(root, manifest.title, manifest.template, t, locale), new HostChannel(window.parent));
  window.addEventListener("message", (event) => session.receive(event));
  window.addEventListener("pagehide", () => session.pageHidden());
  void session.load();
}

// A deferred script runs after parsing; the check keeps it working if loaded otherwise.
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
else boot();
