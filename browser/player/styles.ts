// The player's CSS, injected as one <style> element (the page's CSP allows inline styles, not
// inline scripts). Everything is scoped under .rb-player.
// Accessibility: the control bar's gradient is at least 60% black behind the controls, so white
// icons keep 3:1 over a white frame (WCAG 1.4.11); every target is at least 24×24 (2.5.8); the
// focus ring is white with a blue halo, visible on any picture (2.4.7). In a right-to-left share
// the bar is mirrored by dir=rtl, but time runs left to right: the seek slider and the m:ss
// read-out keep ltr, as the arrow-key shortcuts do (←/→ seek back/forward).

const css = `
html,body{margin:0;height:100%;overflow:hidden;background:#000}
.rb-player{position:fixed;top:0;right:0;bottom:0;left:0;overflow:hidden;background:#000;color:#fff;font:14px/1.2 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;-webkit-tap-highlight-color:transparent;-webkit-user-select:none;user-select:none}
.rb-player [hidden]{display:none!important}
.rb-frame{position:absolute;top:50%;left:50%;transform:translate(-50%,-50%);overflow:hidden;cursor:pointer}
.rb-frame>video,.rb-frame>img,.rb-animations,.rb-animation{position:absolute;top:0;left:0;width:100%;height:100%}
.rb-frame>video,.rb-frame>img{object-fit:contain}
.rb-animation svg{display:block}
.rb-cta-layer{cursor:pointer}
.rb-big-play{position:absolute;top:50%;left:50%;width:72px;height:72px;margin:-36px 0 0 -36px;padding:18px;box-sizing:border-box;border-radius:50%;background:rgba(0,0,0,.55);pointer-events:none;display:none}
.rb-big-play svg{width:36px;height:36px;display:block}
.rb-player[data-state=ready] .rb-big-play,.rb-player[data-state=paused] .rb-big-play,.rb-player[data-state=ended] .rb-big-play{display:block}
.rb-spinner{position:absolute;top:50%;left:50%;width:40px;height:40px;margin:-20px 0 0 -20px;box-sizing:border-box;border:3px solid rgba(255,255,255,.3);border-top-color:#fff;border-radius:50%;animation:rb-spin 1s linear infinite;display:none}
.rb-player[data-state=loading] .rb-spinner{display:block}
@keyframes rb-spin{to{transform:rotate(360deg)}}
.rb-message{position:absolute;top:50%;left:0;right:0;transform:translateY(-50%);padding:0 16px;text-align:center;font-size:16px}
.rb-controls{position:absolute;left:0;right:0;bottom:0;display:flex;align-items:center;gap:6px;padding:28px 10px 8px;background:linear-gradient(rgba(0,0,0,0),rgba(0,0,0,.6) 40%,rgba(0,0,0,.8));transition:opacity .2s}
.rb-player[data-state=loading] .rb-controls,.rb-player[data-state=error] .rb-controls{display:none}
.rb-player[data-state=playing]:not(:hover):not(:focus-within) .rb-controls{opacity:0}
.rb-button{-webkit-appearance:none;appearance:none;flex:none;width:36px;height:36px;margin:0;padding:6px;border:0;border-radius:4px;background:transparent;color:inherit;font:inherit;cursor:pointer}
.rb-button svg{width:24px;height:24px;display:block;filter:drop-shadow(0 0 1px rgba(0,0,0,.9))}
.rb-button:hover{background:rgba(255,255,255,.18)}
.rb-time{flex:none;font-variant-numeric:tabular-nums;white-space:nowrap;font-size:13px;direction:ltr;unicode-bidi:isolate;text-shadow:0 0 2px #000}
.rb-seek{flex:1;min-width:48px;height:24px;margin:0 4px;accent-color:#fff;cursor:pointer;direction:ltr}
.rb-cta{width:auto;max-width:45%;height:32px;padding:0 14px;border-radius:16px;background:#fff;color:#111;font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.rb-cta:hover{background:#e6e6e6}
.rb-cta{display:inline-flex;align-items:center;text-decoration:none}
.rb-message-cta{margin-top:12px}
.rb-player :focus{outline:3px solid #fff;outline-offset:1px;box-shadow:0 0 0 5px #1a56db}
.rb-player :focus:not(:focus-visible){outline:none;box-shadow:none}
/* A narrow player (a portrait video, a phone): the call to action sits above the bar, so the bar keeps room for its slider and every button. */
@media (max-width:559px){.rb-controls .rb-cta{position:absolute;right:10px;bottom:56px;max-width:calc(100% - 20px)}}
@media (max-width:359px){.rb-time{display:none}}
@media (prefers-reduced-motion:reduce){.rb-spinner{animation-duration:4s}.rb-controls{transition:none}}
`;

export function injectStyles(): void {
  const style = document.createElement("style");
  style.textContent = css;
  document.head.appendChild(style);
}
