// The workbench's keyboard shortcuts (no framework, no build step). On the review queue:
// j / k move between items, a / r / e choose Accept / Reject / Edit for the current item:
// with a reason typed it is sent at once, otherwise the reason field takes the focus and
// Ctrl+Enter (or Cmd+Enter) sends the chosen decision. Esc leaves a field. Up in an empty
// reason field brings back the last reason given in this tab (typed again, never assumed).
(function () {
  "use strict";
  function items() { return Array.prototype.slice.call(document.querySelectorAll("li[data-item-id]")); }
  var current = -1;
  var LAST_REASON = "sleuth-last-reason";
  var pending = null;

  function select(i) {
    var all = items();
    if (!all.length) { return; }
    current = Math.max(0, Math.min(i, all.length - 1));
    all.forEach(function (el, n) { el.classList.toggle("current", n === current); });
    all[current].scrollIntoView({ block: "center" });
  }

  function choose(key) {
    var all = items();
    if (current < 0) { select(0); }
    var item = all[current];
    if (!item) { return; }
    var button = item.querySelector("button[data-key='" + key + "']");
    var reason = item.querySelector("textarea[name='reason']");
    if (!button || !reason) { return; }
    item.classList.remove("pending-accept", "pending-reject", "pending-edit");
    if (reason.value.trim()) { button.click(); return; }
    pending = button;
    item.classList.add("pending-" + button.className);
    if (key === "e") {
      var value = item.querySelector("input[name='value']");
      if (value) { value.focus(); value.select(); return; }
    }
    reason.focus();
  }

  document.addEventListener("keydown", function (ev) {
    var t = ev.target;
    var typing = t && (t.tagName === "TEXTAREA" || t.tagName === "INPUT" || t.tagName === "SELECT");
    if (typing) {
      if (ev.key === "Escape") { t.blur(); }
      if (ev.key === "ArrowUp" && t.name === "reason" && !t.value) {
        var last = window.sessionStorage.getItem(LAST_REASON);
        if (last) { ev.preventDefault(); t.value = last; }
      }
      if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
        var item = t.closest("li[data-item-id]");
        var button = pending && item && item.contains(pending) ? pending
          : item && item.querySelector("button.accept");
        if (button) { ev.preventDefault(); button.click(); }
      }
      return;
    }
    if (ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
    if (ev.key === "j") { select(current + 1); }
    else if (ev.key === "k") { select(current - 1); }
    else if (ev.key === "a" || ev.key === "r" || ev.key === "e") { ev.preventDefault(); choose(ev.key); }
  });

  document.addEventListener("submit", function (ev) {
    var reason = ev.target.querySelector && ev.target.querySelector("textarea[name='reason']");
    if (reason && reason.value.trim()) {
      window.sessionStorage.setItem(LAST_REASON, reason.value.trim());
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var again = document.querySelector(".error") && items().find(function (el) {
      return el.querySelector("textarea[name='reason']").value; });
    if (again) { select(items().indexOf(again)); }
    else if (items().length) { select(0); window.scrollTo(0, 0); }
    var cited = document.getElementById("cited-box") || document.getElementById("cited");
    if (cited) { cited.scrollIntoView({ block: "center" }); }
  });
})();
