// pgm: keyboard navigation for turn pages. The pages work without it; this only adds
// arrow keys, Home/End and a visible "?" help.
(function () {
  "use strict";
  var nav = document.querySelector(".turn-nav");
  if (!nav) { return; }
  var help = document.getElementById("key-help");
  var toggle = nav.querySelector(".help-toggle");
  function showHelp(show) {
    help.hidden = !show;
    toggle.setAttribute("aria-expanded", show ? "true" : "false");
  }
  toggle.hidden = false;
  toggle.addEventListener("click", function () { showHelp(help.hidden); });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) {
      return;
    }
    if (event.key === "?") { showHelp(help.hidden); event.preventDefault(); return; }
    if (event.key === "Escape") { showHelp(false); return; }
    var link = nav.querySelector('a[data-key="' + event.key + '"]');
    if (link) { event.preventDefault(); window.location.href = link.href; }
  });
}());
