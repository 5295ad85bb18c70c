// pgm: keys, swipes and autoplay for turn pages. The pages work without it; this only
// adds arrow keys, Home/End, a "?" help, swipes across the board and a play button that
// steps through the turns on its own. Both buttons are made here because only this script makes them work (no page
// carries them for readers without JavaScript).
(function () {
  "use strict";
  var nav = document.querySelector(".turn-nav");
  if (!nav) { return; }
  // A set of positions is not a game to play through.
  var playable = !document.body.classList.contains("cgp-position");

  function button(className, label, text) {
    var made = document.createElement("button");
    made.type = "button";
    made.className = className;
    // Its name is what it does; "?" or "▶" alone is all a screen reader would say.
    made.title = label;
    made.setAttribute("aria-label", label);
    made.textContent = text;
    return nav.appendChild(made);
  }

  // Autoplay: a page that is playing opens the next turn after a few seconds. The next
  // page knows to go on from its address ("12.html#play-3", 3 seconds a turn), so it
  // works from disk too, and a link copied while playing plays. Stepping by hand opens
  // pages without it, which stops playing.
  var PACES = [1, 2, 3, 5, 8];
  var found = /^#play(?:-(\d+))?$/.exec(window.location.hash);
  var pace = found && PACES.indexOf(parseInt(found[1], 10)) >= 0 ? parseInt(found[1], 10) : 3;
  var playing = false;
  var timer = null;
  var play = null;
  function link(key) { return nav.querySelector('a[data-key="' + key + '"]'); }
  function here() { return window.location.href.split("#")[0]; }
  function showPlaying() {
    var next = link("ArrowRight");
    var label = playing ? "Pause (a turn every " + pace + " s)"
      : next ? "Play through the turns" : "Play from the first turn";
    play.textContent = playing ? "\u275a\u275a" : "\u25b6";
    play.title = label;
    play.setAttribute("aria-label", label);
  }
  function step() {
    var next = link("ArrowRight");
    if (!next) { setPlaying(false); return; }
    // Back from the next page comes here paused: this page's own entry loses "#play".
    window.history.replaceState(null, "", here());
    window.location.assign(next.href + "#play-" + pace);
  }
  function wait() {
    window.clearTimeout(timer);
    timer = playing && !document.hidden ? window.setTimeout(step, pace * 1000) : null;
  }
  function setPlaying(on) {
    playing = on && !!link("ArrowRight");
    if (window.location.hash !== (playing ? "#play-" + pace : "")) {
      window.history.replaceState(null, "", here() + (playing ? "#play-" + pace : ""));
    }
    showPlaying();
    wait();
  }
  function togglePlaying() {
    var first = link("Home");
    if (!playing && !link("ArrowRight") && first) {
      window.location.assign(first.href + "#play-" + pace);
      return;
    }
    setPlaying(!playing);
  }
  function changePace(by) {
    pace = PACES[Math.min(PACES.length - 1, Math.max(0, PACES.indexOf(pace) + by))];
    if (playing) { setPlaying(true); }
  }
  // Leaving by hand stops playing, and Back then finds this page paused.
  function stopForLink() { if (playing) { setPlaying(false); } }
  if (playable && (link("ArrowRight") || link("Home"))) {
    play = button("play-toggle", "Play through the turns", "\u25b6");
    play.addEventListener("click", togglePlaying);
    setPlaying(!!found);
    // A page left open in a background tab waits; one restored by Back starts paused.
    document.addEventListener("visibilitychange", wait);
    document.addEventListener("click", function (event) {
      if (event.target.closest && event.target.closest("a[href]")) { stopForLink(); }
    });
    window.addEventListener("pageshow", function (event) {
      if (event.persisted) { setPlaying(false); }
    });
  }

  // A swipe across the board turns the page on a touch screen: to the left for the next
  // turn, as a page of a book. Only a quick, mostly sideways swipe of one finger counts,
  // and not while the page is zoomed in, where a swipe moves the view.
  var board = document.querySelector(".board-col");
  var touch = null;
  if (board) {
    board.addEventListener("touchstart", function (event) {
      var point = event.touches.length === 1 && event.touches[0];
      touch = point ? {x: point.clientX, y: point.clientY, at: Date.now()} : null;
    }, {passive: true});
    board.addEventListener("touchend", function (event) {
      var point = event.changedTouches[0];
      var zoomed = window.visualViewport && window.visualViewport.scale > 1.01;
      if (!touch || !point || zoomed || Date.now() - touch.at > 800) { return; }
      var across = point.clientX - touch.x;
      var down = point.clientY - touch.y;
      touch = null;
      if (Math.abs(across) < 50 || Math.abs(across) < 2 * Math.abs(down)) { return; }
      var chosen = link(across < 0 ? "ArrowRight" : "ArrowLeft");
      if (chosen) { stopForLink(); window.location.href = chosen.href; }
    }, {passive: true});
  }

  var keys = [["\u2190", "previous turn"], ["\u2192", "next turn"], ["Home", "first"],
              ["End", "last"]];
  if (play) { keys.push(["P", "play / pause"], ["+ \u2212", "faster / slower"]); }
  keys.push(["?", "this help"]);
  var toggle = button("help-toggle", "Keyboard shortcuts", "?");
  toggle.setAttribute("aria-controls", "key-help");
  toggle.setAttribute("aria-expanded", "false");
  var help = document.createElement("div");
  help.id = "key-help";
  help.className = "key-help";
  help.hidden = true;
  var line = help.appendChild(document.createElement("p"));
  keys.forEach(function (key, index) {
    if (index) { line.appendChild(document.createTextNode(" \u00b7 ")); }
    line.appendChild(document.createElement("kbd")).textContent = key[0];
    line.appendChild(document.createTextNode(" " + key[1]));
  });
  nav.parentNode.insertBefore(help, nav.nextSibling);
  function showHelp(show) {
    help.hidden = !show;
    toggle.setAttribute("aria-expanded", show ? "true" : "false");
  }
  toggle.addEventListener("click", function () { showHelp(help.hidden); });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) {
      return;
    }
    if (event.key === "?") { showHelp(help.hidden); event.preventDefault(); return; }
    if (event.key === "Escape") { showHelp(false); return; }
    if (play && (event.key === "p" || event.key === "P")) {
      togglePlaying();
      event.preventDefault();
      return;
    }
    if (play && (event.key === "+" || event.key === "-")) {
      changePace(event.key === "+" ? -1 : 1);
      event.preventDefault();
      return;
    }
    // Shift+arrow, Shift+Home/End select text (caret browsing): the browser's
    if (event.shiftKey) { return; }
    var chosen = link(event.key);
    if (chosen) { stopForLink(); event.preventDefault(); window.location.href = chosen.href; }
  });
}());
