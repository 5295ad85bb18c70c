// pgm: keyboard navigation for turn pages. The pages work without it; this only adds
// arrow keys, Home/End and a "?" help, which is made here because only this script
// gives the keys it lists (no page carries it for readers without JavaScript).
(function () {
  "use strict";
  var nav = document.querySelector(".turn-nav");
  if (!nav) { return; }
  var keys = [["\u2190", "previous turn"], ["\u2192", "next turn"], ["Home", "first"],
              ["End", "last"], ["?", "this help"]];
  var toggle = document.createElement("button");
  toggle.type = "button";
  toggle.className = "help-toggle";
  toggle.title = "Keyboard shortcuts";
  // Its name is what it does; "?" alone is all a screen reader would say.
  toggle.setAttribute("aria-label", "Keyboard shortcuts");
  toggle.textContent = "?";
  toggle.setAttribute("aria-controls", "key-help");
  toggle.setAttribute("aria-expanded", "false");
  nav.appendChild(toggle);
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
    // Shift+arrow, Shift+Home/End select text (caret browsing): the browser's
    if (event.shiftKey) { return; }
    var link = nav.querySelector('a[data-key="' + event.key + '"]');
    if (link) { event.preventDefault(); window.location.href = link.href; }
  });
}());
