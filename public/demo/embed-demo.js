// The demo customer site's own script: embeds the player the way docs/api.md shows and lists
// every SDK callback (also in window.reelbindDemo.calls, which the browser tests read).
(function () {
  var query = new URLSearchParams(location.search);
  var log = document.getElementById("log");
  var calls = [];
  window.reelbindDemo = { calls: calls, player: null };

  function record(name) {
    return function (message) {
      calls.push({ name: name, message: message });
      var item = document.createElement("li");
      item.textContent = name + " " + JSON.stringify(message);
      log.appendChild(item);
    };
  }

  var options = {
    autoplay: query.get("autoplay") === "1",
    muted: query.get("muted") === "1",
    onReady: record("onReady"),
    onProgress: record("onProgress"),
    onComplete: record("onComplete"),
    onWarn: record("onWarn"),
    onCta: record("onCta"),
    onError: record("onError"),
  };
  if (query.get("session")) options.session = query.get("session");
  else if (query.get("share")) options.share = query.get("share");
  else {
    record("demo")("Add ?share=<slug> or ?session=<embed-session token> to the URL.");
    return;
  }
  if (query.get("consent")) options.consent = query.get("consent");
  if (query.get("viewer")) options.viewerId = query.get("viewer");

  var player = window.Reelbind.embed(document.getElementById("player"), options);
  window.reelbindDemo.player = player;
  document.getElementById("controls").addEventListener("click", function (event) {
    var command = event.target.getAttribute && event.target.getAttribute("data-command");
    if (command === "play") player.play();
    else if (command === "pause") player.pause();
    else if (command === "mute") player.mute(true);
    else if (command === "unmute") player.mute(false);
    else if (command === "consent-granted") player.setConsent("granted", "host");
    else if (command === "consent-denied") player.setConsent("denied", "host");
  });
})();
