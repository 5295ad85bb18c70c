// pgm: follow a game in progress. Polls the game's game.json (or the event's live.json)
// with conditional requests and:
//  - moves a viewer who is on the latest turn to the new latest turn;
//  - leaves a viewer who stepped back where they are, with a "N new moves" link;
//  - sends a viewer whose turn was withdrawn (a correction) to the latest turn;
//  - shows when the data last changed, and stops once the game is over.
(function () {
  "use strict";
  var body = document.body;
  var source = body.getAttribute("data-live");
  if (!source || !window.fetch) { return; }
  var every = Math.max(1, parseInt(body.getAttribute("data-poll"), 10) || 5) * 1000;
  var turn = parseInt(body.getAttribute("data-turn") || "0", 10);
  var known = parseInt(body.getAttribute("data-turns") || "0", 10);
  var updated = body.getAttribute("data-updated") || "";
  var status = document.getElementById("live-status");
  var link = document.getElementById("live-link");

  function clock(iso) {
    var when = new Date(iso);
    return isNaN(when) ? "" : when.toLocaleTimeString([], {hour12: false});
  }
  function showUpdated(iso) {
    var slot = status && status.querySelector("time");
    if (slot && iso) { slot.textContent = clock(iso); slot.setAttribute("datetime", iso); }
  }
  function goTo(number) { window.location.replace(number > 0 ? number + ".html" : "index.html"); }

  function onGame(data) {
    var total = data.turns;
    if (turn > 0) {
      if (turn > total) { goTo(total); return false; }
      if (total > known && turn === known) { goTo(total); return false; }
      if (total > turn && link) {
        var count = total - turn;
        link.href = total + ".html";
        link.textContent = count + (count === 1 ? " new move" : " new moves") + " — go to live";
        link.hidden = false;
      } else if (link) {
        link.hidden = true;
      }
    } else if (data.updated !== updated) {
      window.location.reload();
      return false;
    }
    return true;
  }

  function onEvent(data) {
    var rows = {};
    data.games.forEach(function (game) { rows[game.slug] = game; });
    var changed = false;
    document.querySelectorAll("tr[data-game]").forEach(function (row) {
      var game = rows[row.getAttribute("data-game")];
      if (!game) { changed = true; return; }
      row.querySelector(".status-text").textContent = game.status;
      row.querySelector(".turns").textContent = game.turns;
      row.className = game.live ? "live" : "final";
    });
    if (changed || document.querySelectorAll("tr[data-game]").length !== data.games.length) {
      window.location.reload();
      return false;
    }
    return data.games.some(function (game) { return game.live; });
  }

  // Conditional requests save bandwidth, but many servers date files to the second: a
  // file rewritten within the second of the copy we hold would be answered "304 Not
  // Modified". While the copy is that fresh, ask without validators.
  var ambiguous = false;
  function fresh(response) {
    var modified = Date.parse(response.headers.get("Last-Modified") || "");
    var served = Date.parse(response.headers.get("Date") || "");
    return !isNaN(modified) && !isNaN(served) && served - modified < 2000;
  }

  function poll() {
    window.fetch(source, {cache: ambiguous ? "reload" : "no-cache"}).then(function (response) {
      ambiguous = fresh(response);
      return response.ok ? response.json() : null;
    }).then(function (data) {
      if (!data) { window.setTimeout(poll, every); return; }
      var more = data.games ? onEvent(data) : onGame(data);
      var latest = data.updated || (data.games || []).reduce(function (a, g) {
        return g.updated > a ? g.updated : a;
      }, "");
      showUpdated(latest);
      if (more === false && !data.games) { return; }
      if (data.games ? more : data.live) { window.setTimeout(poll, every); }
      else if (status) { status.classList.add("over"); }
    }).catch(function () { window.setTimeout(poll, every); });
  }
  showUpdated(updated);
  window.setTimeout(poll, every);
}());
