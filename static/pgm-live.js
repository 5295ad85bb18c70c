// pgm: follow a game in progress. Polls the game's game.json (or the event's live.json)
// with conditional requests and:
//  - moves a viewer who is on the latest turn to the new latest turn (unless they turned
//    "Follow new moves" off, or the keyboard's focus is on the page), and goes on doing so
//    when the page it opens (a reload of its own, the next turn, a "latest turn" link
//    followed) turns out to be a move behind already: a move published while that page
//    was on its way does not make a follower a viewer who stepped back;
//  - leaves a viewer who stepped back where they are, with a "N moves ahead" link (the
//    moves after theirs, made before or since they came; "N plies ahead" in Gungi, whose
//    pages count plies);
//  - sends a viewer whose turn was withdrawn (a correction) to the latest turn;
//  - reloads the page when the site now holds a different version of it (a note, a
//    corrected score, a renamed player; on the event index a new title or a game's
//    players), and only then: what polling refreshes in place (the time of the last
//    change, the index's status and turn columns) does not count, and neither do the
//    parts of an earlier turn's page that follow from moves made after it (the turns
//    listed after its own, the total in "Turn 2 of 11" and "2 / 11", the Last link),
//    which the page takes in place, keeping the viewer's focus, scroll position and
//    open key help. The event index downloads itself to compare only when live.json's
//    "index" (a digest of what it shows besides those) changed, not after every move;
//  - keeps the reader's place through the pages it opens (the scroll position, and
//    autoplay, which pgm.js keeps: it is told of each page change, "pgm:leave");
//  - does not download a page it opened again to compare when the data polled is still
//    what the page before polled last, and the page says it was made from it (its
//    data-turns and data-updated);
//  - polls at once when the page comes back (Back, a tab shown again), and not while
//    the tab is hidden;
//  - says so when it cannot poll ("not updating since 14:05 — connection lost") once
//    polls have failed for two poll intervals, until one succeeds;
//  - shows when the data last changed (changing the live region only when that time or
//    the number of moves ahead changes), and stops once the game is over (the event
//    index goes on looking for new games, slowly, see WAIT_MS, and its "Games in
//    progress" goes once no game is: a finished game followed for corrections, "live"
//    in live.json, keeps the pace of polling but is not in progress).
// pgm serve also tells the page after each rebuild (a "pgm:rebuilt" event): it looks at
// once instead of at the next poll.
(function () {
  "use strict";
  var body = document.body;
  var source = body.getAttribute("data-live");
  if (!source || !window.fetch || !window.DOMParser) { return; }
  var every = Math.max(1, parseInt(body.getAttribute("data-poll"), 10) || 5) * 1000;
  var turn = parseInt(body.getAttribute("data-turn") || "0", 10);
  var known = parseInt(body.getAttribute("data-turns") || "0", 10);
  var status = document.getElementById("live-status");
  var link = document.getElementById("live-link");
  // What the game counts in, as its page names it: Gungi pages count plies, "Ply 32 of
  // 64", so the link must too ("32 plies ahead"); moves elsewhere, and on the event index.
  var one = (link && link.getAttribute("data-one")) || "move";
  var many = (link && link.getAttribute("data-many")) || "moves";
  var address = window.location.href.split("#")[0];

  // The live region (#live-status) is announced at every change: change it only when
  // what it says changes, never just because a poll came back. The page says the time
  // in UTC (all it can know); the script shows it in the viewer's own time as the page
  // opens, and only then makes the paragraph a live region (it changes only with this
  // script), so that this first change is not announced.
  var slot = status && status.querySelector("time");
  // The date and the time of day, always: a page left open overnight, or a game last
  // changed yesterday, must not look as if it were changing today.
  function clock(iso) {
    var when = new Date(iso);
    if (isNaN(when)) { return ""; }
    return when.toLocaleDateString([], {year: "numeric", month: "short", day: "numeric"}) +
      " " + when.toLocaleTimeString([], {hour: "2-digit", minute: "2-digit", second: "2-digit"});
  }
  function showTime(iso) {
    var text = clock(iso);
    if (!text) { return; }
    slot.setAttribute("datetime", iso);
    slot.setAttribute("title",
                      new Date(iso).toISOString().slice(0, 19).replace("T", " ") + " UTC");
    if (slot.textContent !== text) { slot.textContent = text; }
  }
  function showUpdated(iso) {
    if (slot && iso && slot.getAttribute("datetime") !== iso) { showTime(iso); }
  }
  if (slot) { showTime(slot.getAttribute("datetime")); }
  // A page opened from disk cannot read the site's files (browsers refuse file://
  // requests): it says how to see new moves instead of seeming to follow them.
  if (window.location.protocol === "file:") {
    if (status) {
      status.appendChild(document.createTextNode(" \u00b7 reload to see new " + many));
    }
    return;
  }
  if (status) { status.setAttribute("aria-live", "polite"); }
  function setText(element, text) {
    if (element.textContent !== text) { element.textContent = text; }
  }

  // A follower stays one across the pages this script opens: with a second or two on the
  // way, the page asked for may already be a move behind when it comes (a move made
  // while a note's reload, a followed move or a "latest turn" link was on its way). What
  // the viewer meant is kept for the tab (sessionStorage) with the address it leads to,
  // and the page opened there goes on to the latest turn at once. A reload by hand finds
  // nothing kept (it is taken as a page opens) and a page opened otherwise finds another
  // address. Kept with it: the data this page last polled (its digest), which the page
  // opened was made from or after (pages are written before game.json): while the site's
  // game.json is still that, and the page says it was made from it (its data-turns and
  // data-updated), the page need not download itself again to compare.
  var CARRY = "pgm-live-follow";
  function resolved(href) {
    var anchor = document.createElement("a");
    anchor.href = href;
    return anchor.href.split("#")[0];
  }
  function carry(to, follow, stamp) {
    try {
      window.sessionStorage.setItem(CARRY, JSON.stringify(
        {to: to, follow: follow, seen: stamp || null, at: Date.now()}));
    } catch (error) { /* none: the page follows from the next move on */ }
  }
  // What the page before kept for this one: {follow, seen}.
  function carried() {
    var kept = null;
    try {
      kept = JSON.parse(window.sessionStorage.getItem(CARRY) || "null");
      window.sessionStorage.removeItem(CARRY);
    } catch (error) { kept = null; }
    return kept && kept.to === address && Math.abs(Date.now() - kept.at) < 120000 ? kept
      : {follow: false, seen: null};
  }
  var kept = carried();
  // pgm.js keeps the reader's place (the scroll position, autoplay) for the page opened
  // next: one mechanism for its own page changes and this script's.
  function leave(to) {
    if (typeof window.CustomEvent === "function") {
      document.dispatchEvent(new window.CustomEvent("pgm:leave", {detail: to}));
    }
  }
  // Leaves for turn ``number`` (0: the game's overview); a follower stays one there. A
  // later turn is a page made after the data polled, not one the browser may keep
  // from before.
  function goTo(number) {
    var to = resolved(number > 0 ? number + ".html" : "index.html");
    carry(to, number > 0 && following(), number > turn ? seen : null);
    leave(to);
    window.location.replace(to);
  }
  // Reloads the page in place (its content changed); a follower stays one.
  function reloadHere() {
    carry(address, turn > 0 && turn === known && following() && !atWork(), seen);
    leave(address);
    window.location.reload();
  }

  // A viewer on the latest turn is taken to each new one, unless they said not to (the
  // "Follow new moves" box, kept for the site in the browser) or are at work on the page
  // (the keyboard's focus on a link, a button, a square): a screen reader's user reading
  // the board must not be thrown to another page at every move. They get the "moves
  // ahead" link instead, which the live region announces.
  var FOLLOW = "pgm-follow";
  function following() {
    try { return window.localStorage.getItem(FOLLOW) !== "0"; } catch (error) { return true; }
  }
  var followBox = null;
  function atWork() {
    var active = document.activeElement;
    return !!active && active !== body && active !== document.documentElement &&
      active !== followBox;
  }
  // Whether this page takes the viewer to the new latest turn ``total``.
  function follows(total) {
    return turn > 0 && turn === known && total > known && following() && !atWork();
  }
  function offerFollowing() {
    var label = document.createElement("label");
    label.className = "live-follow";
    var box = followBox = label.appendChild(document.createElement("input"));
    box.type = "checkbox";
    box.checked = following();
    label.appendChild(document.createTextNode(" Follow new " + many));
    box.addEventListener("change", function () {
      try { window.localStorage.setItem(FOLLOW, box.checked ? "1" : "0"); } catch (error) { /* none */ }
    });
    status.parentNode.insertBefore(label, status.nextSibling);
  }
  if (status && turn > 0) { offerFollowing(); }
  // A follower's page that came a move behind goes on to the latest turn.
  if (turn > 0 && kept.follow && known > turn && following()) {
    seen = null;
    goTo(known);
    return;
  }
  // Opening the latest turn by a link (the overview's "Latest turn", "go to live", Last,
  // the End key) follows the game from there, even if a move lands on the way.
  document.addEventListener("click", function (event) {
    var chosen = event.target.closest && event.target.closest("a[href]");
    if (chosen && known > 0 && chosen.href.split("#")[0] === resolved(known + ".html")) {
      carry(chosen.href.split("#")[0], true, null);
    }
  });
  // The link is part of the status message ("3 moves ahead — go to live", "1 ply ahead
  // — go to live"): it is announced when the count changes, and left alone while it
  // does not.
  function offerLatest(total) {
    if (!link || turn === 0) { return; }
    var count = total - turn;
    if (link.hidden !== (count <= 0)) { link.hidden = count <= 0; }
    if (count > 0) {
      var href = total + ".html";
      if (link.getAttribute("href") !== href) { link.setAttribute("href", href); }
      setText(link, count + " " + (count === 1 ? one : many) + " ahead — go to live");
    }
  }

  // Conditional requests save bandwidth, but many servers date files to the second: a
  // file rewritten within the second of the copy we hold would be answered "304 Not
  // Modified". While the copy is that fresh, ask without validators.
  var ambiguous = {};
  function fresh(response) {
    var modified = Date.parse(response.headers.get("Last-Modified") || "");
    var served = Date.parse(response.headers.get("Date") || "");
    return !isNaN(modified) && !isNaN(served) && served - modified < 2000;
  }
  function get(url, mode) {
    return window.fetch(url, {cache: mode || (ambiguous[url] ? "reload" : "no-cache")})
      .then(function (response) {
        ambiguous[url] = fresh(response);
        return response;
      });
  }

  // A turn page's parts that moves made after its turn change, and nothing else does:
  // the rows of its list of turns after its own (a crossword turn list's <li>s, a Gungi
  // ply or Upwords score sheet's <tr>s, a gap row "Turns 502-900"), the total in its
  // headings and counter ("Turn 2 of 11", "2 / 11") and its Last link. In a spoiler-free
  // event the list ends at the page's own turn: no rows follow it. The game's overview
  // (turn 0) shows the position so far, which every move changes: it reloads.
  var TOTALS = "main h1, #move-h, .turn-nav .where";
  function ownRow(page) {
    var own = page.querySelector('a[aria-current="page"]');
    var row = own && own.closest("li, tr");
    return row && /^(OL|TBODY)$/.test(row.parentNode.nodeName) ? row : null;
  }
  function serialized(node) { return node.outerHTML || node.nodeValue; }
  // Takes those parts out of page (a heading's total becomes "#"), and returns
  // them; null if page has none (not a turn page, or a theme's other layout).
  function laterParts(page, total) {
    var own = ownRow(page);
    if (!own) { return null; }
    var rows = [];
    while (own.nextSibling) { rows.push(own.parentNode.removeChild(own.nextSibling)); }
    var totals = [];
    page.querySelectorAll(TOTALS).forEach(function (element) {
      totals.push(element.cloneNode(true));
      var text = element.textContent;
      var found = /(\d+)(\D*)$/.exec(text);
      if (!element.children.length && found && parseInt(found[1], 10) === total) {
        element.textContent = text.slice(0, found.index) + "#" + found[2];
      }
    });
    var last = page.querySelector(".turn-nav a.last");
    var href = last && last.getAttribute("href");
    if (last) { last.removeAttribute("href"); }
    page.body.removeAttribute("data-turns");
    return {rows: rows, totals: totals, last: href,
            key: [total, href].concat(rows.map(serialized), totals.map(serialized))
              .join("\n")};
  }

  // Makes old (a node of this page) what now (a node of a downloaded copy) is, keeping
  // each node that stays the same kind of node: a focused link stays focused.
  function morph(old, now) {
    if (old.nodeType !== now.nodeType || old.nodeName !== now.nodeName) {
      old.parentNode.replaceChild(document.importNode(now, true), old);
    } else if (old.nodeType !== 1) {
      if (old.nodeValue !== now.nodeValue) { old.nodeValue = now.nodeValue; }
    } else if (!old.isEqualNode(now)) {
      Array.prototype.slice.call(old.attributes).forEach(function (attribute) {
        if (!now.hasAttribute(attribute.name)) { old.removeAttribute(attribute.name); }
      });
      Array.prototype.forEach.call(now.attributes, function (attribute) {
        if (old.getAttribute(attribute.name) !== attribute.value) {
          old.setAttribute(attribute.name, attribute.value);
        }
      });
      morphFrom(old, old.firstChild, Array.prototype.slice.call(now.childNodes));
    }
  }
  // Makes the children of parent, from first on, what nodes are: pairwise, with the
  // nodes beyond its children appended and the children beyond the nodes removed.
  function morphFrom(parent, first, nodes) {
    var old = first;
    nodes.forEach(function (node) {
      if (!old) { parent.appendChild(document.importNode(node, true)); return; }
      var next = old.nextSibling;
      morph(old, node);
      old = next;
    });
    while (old) {
      var next = old.nextSibling;
      parent.removeChild(old);
      old = next;
    }
  }
  // Puts the later parts of the site's copy (now) on this page; false, having done
  // nothing, if this page lacks them where the copy has them.
  function takeLater(now) {
    var parts = now.parts;
    var own = ownRow(document);
    var totals = document.querySelectorAll(TOTALS);
    var last = document.querySelector(".turn-nav a.last");
    if (!own || totals.length !== parts.totals.length || !last !== !parts.last) {
      return false;
    }
    var list = own.parentNode;
    var focused = document.activeElement;
    var inList = focused !== list && list.contains(focused);
    morphFrom(list, own.nextSibling, parts.rows);
    // A withdrawn move took the focused row: the viewer goes on from the list's end.
    if (inList && !list.contains(focused)) {
      var links = list.querySelectorAll("a[href]");
      if (links.length) { links[links.length - 1].focus(); }
    }
    totals.forEach(function (element, index) { morph(element, parts.totals[index]); });
    if (last && last.getAttribute("href") !== parts.last) {
      last.setAttribute("href", parts.last);
    }
    body.setAttribute("data-turns", String(now.turns));
    if (now.updated) { body.setAttribute("data-updated", now.updated); }
    known = now.turns;
    shown = window.Promise.resolve(now);
    return true;
  }

  // The page as the server sent it, less what this script refreshes or takes in place
  // (in parts), and the number of turns it was made for.
  function content(html) {
    var page = new window.DOMParser().parseFromString(html, "text/html");
    var turns = parseInt(page.body.getAttribute("data-turns"), 10);
    var parts = turn > 0 && !isNaN(turns) ? laterParts(page, turns) : null;
    var updated = page.body.getAttribute("data-updated");
    page.body.removeAttribute("data-updated");
    page.querySelectorAll("time").forEach(function (time) {
      time.textContent = "";
      time.removeAttribute("datetime");
    });
    page.querySelectorAll("tr[data-game]").forEach(function (row) {
      row.removeAttribute("class");
      row.querySelectorAll(".status-text, .turns").forEach(function (cell) {
        cell.textContent = "";
      });
    });
    return {text: page.documentElement.outerHTML, turns: turns, updated: updated,
            parts: parts};
  }
  function textOf(response) {
    if (!response.ok) { throw new Error(response.status + " " + response.url); }
    return response.text();
  }
  // What is on screen: the copy of this page the browser keeps (fetched again if it
  // keeps none; should that copy be newer than the one on screen, by its update time,
  // its number of turns or its Last-Modified, the first look reloads). A look that
  // fails (a network blip, a rebuild swapping the folder) is made again at the next
  // poll.
  var onScreen = Date.parse(document.lastModified);
  var shown = null;
  function shownCopy() {
    if (shown) { return shown; }
    var attempt = shown = get(address, "force-cache").then(function (response) {
      var modified = Date.parse(response.headers.get("Last-Modified") || "");
      return textOf(response).then(function (html) {
        var copy = content(html);
        if (copy.updated !== body.getAttribute("data-updated")
            || (!isNaN(copy.turns) && copy.turns !== known)
            || (!isNaN(modified) && !isNaN(onScreen) && modified !== onScreen)) {
          copy.text = "";
        }
        return copy;
      });
    });
    attempt.catch(function () { if (shown === attempt) { shown = null; } });
    return attempt;
  }
  shownCopy();
  // The server's version of this page if it differs from the one on screen, else null;
  // its later is true when only its later parts (see laterParts) differ. Fails if
  // either copy cannot be had.
  function changedPage() {
    return shownCopy().then(function (before) {
      return get(address).then(textOf).then(function (html) {
        var now = content(html);
        if (now.text !== before.text) { return now; }
        if (!now.parts || !before.parts || now.parts.key === before.parts.key) {
          return null;
        }
        now.later = true;
        return now;
      });
    });
  }

  // A reload asks "changed since the copy on screen?", which a file rewritten within
  // that copy's second is answered "304 Not Modified" (see get): fetch the page first,
  // so that the copy the browser keeps is the server's, then reload.
  function reloadFresh() {
    get(address).then(reloadHere, reloadHere);
  }

  // Each returns true when it leaves the page.
  function onGame(data) {
    var total = data.turns;
    if (turn > 0) {
      if (turn > total) { goTo(total); return true; }
      if (follows(total)) { goTo(total); return true; }
      offerLatest(total);
    }
    return false;
  }

  function onEvent(data) {
    var rows = {};
    data.games.forEach(function (game) { rows[game.slug] = game; });
    var listed = document.querySelectorAll("tr[data-game]");
    var missing = false;
    var news = [];
    listed.forEach(function (row) {
      var game = rows[row.getAttribute("data-game")];
      if (!game) { missing = true; return; }
      var shown = row.querySelector(".status-text");
      var turns = row.querySelector(".turns");
      if (shown.textContent !== game.status ||
          (turns.textContent.trim() && turns.textContent.trim() !== String(game.turns))) {
        news.push(rowName(row) + ": " + game.status);
      }
      setText(shown, game.status);
      if (turns.textContent.trim()) { setText(turns, String(game.turns)); }
      if (row.className !== (game.live ? "live" : "final")) {
        row.className = game.live ? "live" : "final";
      }
    });
    if (missing || listed.length !== data.games.length) {
      reloadFresh();
      return true;
    }
    if (news.length) { tell(news.join("; ")); }
    return false;
  }
  // What changed on the index, said in the live region for a screen reader's user (the
  // rows change in silence): "Table 3, Ann vs Bob: in progress: Ann 270 – Bob 212".
  function rowName(row) {
    var table = row.cells[0].textContent.trim();
    var game = row.cells[1].querySelector("a").textContent;
    return (table ? "Table " + table + ", " : "") + game;
  }
  function tell(text) {
    if (!status) { return; }
    var said = status.querySelector(".live-news");
    if (!said) {
      said = status.appendChild(document.createElement("span"));
      said.className = "live-news visually-hidden";
    }
    setText(said, text);
  }

  // The event index of an event with no game in progress (before round 1, between
  // rounds) still looks for new games, at a sixth of the pace, while a record changed in
  // the last WAIT_MS (or none is there yet): a venue screen showing it gets the next
  // round's games; an archive's index stops asking.
  var WAIT_MS = 12 * 3600 * 1000;
  // A digest of text (cyrb53, and its length): what the page keeps of the data polled,
  // for the next page too.
  function digest(text) {
    var h1 = 0xdeadbeef;
    var h2 = 0x41c6ce57;
    for (var i = 0; i < text.length; i++) {
      var code = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ code, 2654435761);
      h2 = Math.imul(h2 ^ code, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (h2 >>> 0).toString(16) + (h1 >>> 0).toString(16) + ":" + text.length;
  }
  var waiting = body.hasAttribute("data-waiting");
  // The data as last polled (a digest); null: compare the page at the next poll. At
  // first, the data the page before last polled, when it opened this one (see carry):
  // it vouches for this page while the page says it was made from that data.
  var seen = kept.seen;
  var vouched = !!seen;
  var same;  // live.json's "index" when the event index last matched the site's copy
  var timer = null;
  var busy = false;
  var again = false;
  // Whether a game of live.json is in progress: its end is still to come. A finished
  // game that event.yaml still follows for corrections ("live": true) is not, and the
  // index says "Games in progress" for those that are only, as pgm makes it; "live"
  // sets the pace of polling. (A live.json made before "in_progress" was has "live".)
  function inProgress(game) {
    return game.in_progress === undefined ? game.live : game.in_progress;
  }
  // The latest update time of the event's games (only of those in progress with
  // ``progressOnly``), as ISO text: "" when there is none.
  function newest(games, progressOnly) {
    return (games || []).reduce(function (a, game) {
      return (!progressOnly || inProgress(game)) && game.updated > a ? game.updated : a;
    }, "");
  }
  // The event index says "Games in progress" while one is, and nothing once none is,
  // as the index pgm makes then does (it reloads for that too, when it can).
  function showProgress(progressing) {
    if (status && status.hidden === progressing) { status.hidden = !progressing; }
  }

  // Whether the data polled (a game's) is what this page was made from, or has taken
  // in since: the same number of turns and update time, in a game.json written with the
  // page (pages are written before it; one written two seconds or more after the page
  // came from a later build).
  function madeFrom(data, modified) {
    var written = Date.parse(modified || "");
    return !data.games && data.turns === known &&
      data.updated === body.getAttribute("data-updated") &&
      (isNaN(written) || isNaN(onScreen) || written - onScreen < 2000);
  }

  // Polls that fail (the network gone, the server down or failing with a 5xx) for two
  // poll intervals are said in the status line, a live region: "not updating since
  // 14:05 — connection lost", until one succeeds. A page left green and "In progress"
  // would lie.
  var answered = Date.now();  // when a poll last succeeded (or the page opened)
  var failing = 0;  // since when polls fail; 0 while they succeed
  var lost = null;
  function connection(ok) {
    if (!status) { return; }
    if (ok) {
      answered = Date.now();
      failing = 0;
      if (lost) {
        lost.parentNode.removeChild(lost);
        lost = null;
        status.classList.remove("lost");
      }
      return;
    }
    failing = failing || Date.now();
    if (lost || Date.now() - failing < 2 * every) { return; }
    lost = document.createElement("span");
    lost.className = "live-lost";
    lost.textContent = " \u00b7 not updating since " + new Date(answered).toLocaleTimeString(
      [], {hour: "2-digit", minute: "2-digit"}) + " \u2014 connection lost";
    var after = slot && slot.parentNode === status ? slot : null;
    status.insertBefore(lost, after ? after.nextSibling : link && link.parentNode === status
      ? link : null);
    status.classList.add("lost");
  }

  // The next poll, in ``delay`` ms (0: none, the game is over). A hidden tab does not
  // poll: it looks at once when shown again, and so does a page brought back by Back
  // or Forward (kept by the browser as it was, it may be moves behind).
  var pace = 0;
  function schedule(delay) {
    pace = delay;
    window.clearTimeout(timer);
    timer = delay && !document.hidden ? window.setTimeout(poll, delay) : null;
  }
  function pollNow() { if (pace && !busy) { poll(); } }
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) {
      window.clearTimeout(timer);
      timer = null;
    } else {
      pollNow();
    }
  });
  window.addEventListener("pageshow", function (event) { if (event.persisted) { pollNow(); } });

  function poll() {
    window.clearTimeout(timer);
    if (busy) { again = true; return; }
    busy = true;
    var left = false;
    var live = true;
    var progressing = true;
    var ok = false;
    var reached = false;  // the server answered: a 404 (the game taken off) is no lost line
    get(source).then(function (response) {
      reached = response.status < 500;
      if (!response.ok) { throw new Error(response.status + " " + response.url); }
      var headers = [response.headers.get("Last-Modified"), response.headers.get("ETag")];
      return response.text().then(function (text) {
        var data = JSON.parse(text);
        ok = true;
        var stamp = digest(JSON.stringify(headers.concat(text)));
        var changed = stamp !== seen || (vouched && !madeFrom(data, headers[0]));
        vouched = false;
        seen = stamp;
        live = data.games ? data.games.some(function (game) { return game.live; }) : data.live;
        progressing = data.games ? data.games.some(inProgress) : live;
        if (data.games) { showProgress(progressing); }
        left = data.games ? onEvent(data) : onGame(data);
        var latest = data.updated || newest(data.games, false);
        // "Games in progress · updated ...": the games in progress, not a file changed
        // long after them (a set of positions), unless none of them has a time
        showUpdated(data.updated || newest(data.games, true) || latest);
        waiting = !live && !!data.games && (!data.games.length ||
                                              Date.now() - Date.parse(latest) < WAIT_MS);
        if (left || !changed || (data.index !== undefined && data.index === same)) {
          return null;
        }
        return changedPage().then(function (now) {
          if (!now) { same = data.index; return; }
          // Pages are written before game.json: the page may know of new turns first.
          if (follows(now.turns)) {
            left = true;
            goTo(now.turns);
          } else if (!(now.later && takeLater(now))) {
            left = true;
            reloadHere();
          }
        });
      });
    }).catch(function () { seen = null; }).then(function () {
      busy = false;
      if (left) { return; }
      connection(ok || reached);
      if (again) { again = false; poll(); }
      else { schedule(live ? every : waiting ? every * 6 : 0); }
      if (status) { status.classList.toggle("over", !progressing); }
    });
  }
  document.addEventListener("pgm:rebuilt", poll);
  offerLatest(known);
  schedule(waiting ? every * 6 : every);
}());
