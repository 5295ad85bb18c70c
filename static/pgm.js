// pgm: keys, swipes and autoplay for turn pages. The pages work without it; this only
// adds arrow keys, Home/End, a "?" help, swipes across the board and a play button that
// steps through the game on its own. The buttons are made here because only this script
// makes them work (no page carries them for readers without JavaScript).
(function () {
  "use strict";
  var nav = document.querySelector(".turn-nav");
  if (!nav) { return; }
  // A set of positions is not a game to play through.
  var playable = !document.body.classList.contains("cgp-position");
  // Gungi pages count plies ("Ply 32 of 64"); the help and the pace say so too.
  var unit = document.body.classList.contains("gungi") ? "ply" : "turn";

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
  function link(key) { return nav.querySelector('a[data-key="' + key + '"]'); }
  function here() { return window.location.href.split("#")[0]; }

  // Autoplay: a page that is playing opens the next turn after a few seconds, at an
  // address that says so ("12.html#play-3": 3 seconds a turn), which works from disk
  // too. A page takes "#play-N" off its address as it opens, so that Back, Forward or a
  // reload never start playing again; stepping by hand opens pages without it, which
  // stops playing. The pace chosen is kept for the tab where the browser allows, and
  // so is how far down the page was scrolled: on a phone the notes are below the board,
  // and a spectator reading them should not be thrown back to the top at every turn.
  // pgm-live.js tells of the pages it opens (the next move followed, a reload for a new
  // note) with a "pgm:leave" event: the place is kept for those too, and so is playing.
  var PACES = [1, 2, 3, 5, 8];
  var playing = false;
  var leaving = false;  // the next page is on its way
  var timer = null;
  var play = null;
  var paceLine = null;
  var pace = remembered();
  // The tab's storage, where the browser allows it (not in every private window): a
  // number kept under ``key``, NaN when none is; ``value`` null forgets it.
  function stored(key) {
    try { return parseInt(window.sessionStorage.getItem(key), 10); } catch (error) { return NaN; }
  }
  function store(key, value) {
    try {
      if (value === null) { window.sessionStorage.removeItem(key); }
      else { window.sessionStorage.setItem(key, String(value)); }
    } catch (error) { /* none */ }
  }
  function remembered() {
    var kept = stored("pgm-pace");
    return PACES.indexOf(kept) >= 0 ? kept : 3;
  }
  function remember() { store("pgm-pace", pace); }
  // Whether the address asks to play; the pace it names is taken, and "#play-N" taken off.
  function asked() {
    var found = /^#play(?:-(\d+))?$/.exec(window.location.hash);
    if (!found) { return false; }
    var wanted = parseInt(found[1], 10);
    if (PACES.indexOf(wanted) >= 0) { pace = wanted; remember(); }
    window.history.replaceState(null, "", here());
    return true;
  }
  // The reader's place, kept for the page at address ``to`` as this page leaves for it:
  // the scroll position and the pace playing at (0: not playing). Taken as a page opens,
  // by that page only, so that a reload by hand or a page opened otherwise starts anew.
  var PLACE = "pgm-place";
  function keepPlace(to, playingAt) {
    try {
      window.sessionStorage.setItem(PLACE, JSON.stringify(
        {to: to.split("#")[0], y: Math.round(window.scrollY), play: playingAt, at: Date.now()}));
    } catch (error) { /* none */ }
  }
  function forgetPlace() {
    try { window.sessionStorage.removeItem(PLACE); } catch (error) { /* none */ }
  }
  function takePlace() {
    var kept = null;
    try { kept = JSON.parse(window.sessionStorage.getItem(PLACE) || "null"); } catch (error) {
      return null;
    }
    forgetPlace();
    return kept && kept.to === here() && Math.abs(Date.now() - kept.at) < 120000 ? kept : null;
  }
  var place = takePlace();
  if (place && place.y > 0) { window.scrollTo(0, place.y); }
  function showPlaying() {
    var label = playing ? "Pause" : link("ArrowRight") ? "Play through the game"
      : "Play the game from the start";
    play.textContent = playing ? "\u275a\u275a" : "\u25b6\ufe0e";  // not the emoji
    play.title = label;
    play.setAttribute("aria-label", label);
    paceLine.hidden = !playing;
    paceLine.querySelector("select").value = String(pace);
  }
  function go(href) {
    leaving = true;
    keepPlace(href, 0);  // the address says to play
    window.location.assign(href + "#play-" + pace);
  }
  function step() {
    var next = link("ArrowRight");
    if (next) { go(next.href); } else { setPlaying(false); }
  }
  function wait() {
    window.clearTimeout(timer);
    timer = playing && !document.hidden ? window.setTimeout(step, pace * 1000) : null;
  }
  function setPlaying(on) {
    if (!on && leaving) {  // a pause wins over the next page on its way
      window.stop();
      forgetPlace();
      leaving = false;
    }
    playing = on && !!link("ArrowRight");
    showPlaying();
    wait();
  }
  function togglePlaying() {
    var first = link("Home");
    if (!playing && !link("ArrowRight") && first) { go(first.href); return; }
    setPlaying(!playing);
  }
  function changePace(to) {
    pace = to;
    remember();
    showPlaying();
    wait();
  }
  function stepPace(by) {
    changePace(PACES[Math.min(PACES.length - 1, Math.max(0, PACES.indexOf(pace) + by))]);
  }
  // Shown while playing, for a pointer or a finger to change the pace with.
  function makePaceLine() {
    var line = document.createElement("p");
    line.className = "play-pace";
    var label = line.appendChild(document.createElement("label"));
    label.appendChild(document.createTextNode("Playing: a " + unit + " every "));
    var select = label.appendChild(document.createElement("select"));
    PACES.forEach(function (seconds) {
      var option = select.appendChild(document.createElement("option"));
      option.value = String(seconds);
      option.textContent = seconds + " s";
    });
    select.addEventListener("change", function () { changePace(parseInt(select.value, 10)); });
    return nav.parentNode.insertBefore(line, nav.nextSibling);
  }
  function stopPlaying() { if (playing) { setPlaying(false); } }
  // Leaving by hand (a key, a swipe) stops playing. The link is clicked, as a pointer
  // would: pgm-live.js learns so that the End key opened the latest turn.
  function follow(chosen) {
    stopPlaying();
    chosen.click();
  }
  document.addEventListener("pgm:leave", function (event) {
    if (typeof event.detail === "string") { keepPlace(event.detail, playing ? pace : 0); }
  });
  if (playable && (link("ArrowRight") || link("Home"))) {
    play = button("play-toggle", "Play through the game", "\u25b6\ufe0e");
    paceLine = makePaceLine();
    play.addEventListener("click", togglePlaying);
    var opened = asked();
    // pgm-live.js reloaded the page (a note came) or took it on while it played.
    if (!opened && place && PACES.indexOf(place.play) >= 0) {
      pace = place.play;
      opened = true;
    }
    setPlaying(opened);
    // A keyboard or screen reader user finds the pause where the play was.
    if (playing) { play.focus({preventScroll: true}); }
    window.addEventListener("hashchange", function () { if (asked()) { setPlaying(true); } });
    // A page left open in a background tab waits; one restored by Back starts paused.
    document.addEventListener("visibilitychange", wait);
    document.addEventListener("click", function (event) {
      if (event.target.closest && event.target.closest("a[href]")) { stopPlaying(); }
    });
    window.addEventListener("pageshow", function (event) {
      if (event.persisted) { leaving = false; setPlaying(false); }
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
      if (chosen) { follow(chosen); }
    }, {passive: true});
  }

  var keys = [["\u2190", "previous " + unit], ["\u2192", "next " + unit], ["Home", "first"],
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
  // Keys that type a character (P, + and -, ?) act however the page is used, where a
  // speech-input user's word or a screen reader's quick key may send them: they can be
  // turned off (kept for the site in the browser); the arrows, Home and End stay.
  var LETTERS = "pgm-letter-keys";
  var letters = true;
  try { letters = window.localStorage.getItem(LETTERS) !== "0"; } catch (error) { /* none */ }
  var choice = help.appendChild(document.createElement("label"));
  var box = choice.appendChild(document.createElement("input"));
  box.type = "checkbox";
  box.checked = letters;
  choice.appendChild(document.createTextNode(" Single-key shortcuts (" +
                                             (play ? "P, + \u2212, " : "") + "?)"));
  box.addEventListener("change", function () {
    letters = box.checked;
    try { window.localStorage.setItem(LETTERS, letters ? "1" : "0"); } catch (error) { /* none */ }
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
    if (event.key === "Escape") { showHelp(false); stopPlaying(); return; }
    if (!letters && event.key.length === 1) { return; }
    if (event.key === "?") { showHelp(help.hidden); event.preventDefault(); return; }
    if (play && (event.key === "p" || event.key === "P")) {
      togglePlaying();
      event.preventDefault();
      return;
    }
    if (play && (event.key === "+" || event.key === "-")) {
      stepPace(event.key === "+" ? -1 : 1);
      event.preventDefault();
      return;
    }
    // Shift+arrow, Shift+Home/End select text (caret browsing): the browser's
    if (event.shiftKey) { return; }
    var chosen = link(event.key);
    if (chosen) { event.preventDefault(); follow(chosen); }
  });
}());
