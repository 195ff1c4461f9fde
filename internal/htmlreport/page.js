// Step-through of every walk: previous/next move the highlight along the
// path on the picture and in the table. Without this script the numbered
// picture and the table are all there.
(function () {
  "use strict";
  document.querySelectorAll(".walk").forEach(function (walk) {
    var rows = Array.prototype.slice.call(walk.querySelectorAll("table.steps tbody tr"));
    var controls = walk.querySelector(".controls");
    if (!controls || rows.length < 2) { return; }
    var prev = controls.querySelector(".prev"), next = controls.querySelector(".next");
    var pos = controls.querySelector(".pos");
    var cur = 0;
    function mark(id) {
      var el = id && document.getElementById(id);
      if (el) { el.classList.add("current"); }
    }
    function show(i) {
      cur = Math.max(0, Math.min(rows.length - 1, i));
      walk.querySelectorAll(".current").forEach(function (el) { el.classList.remove("current"); });
      var row = rows[cur];
      row.classList.add("current");
      (row.getAttribute("data-edges") || "").split(" ").forEach(mark);
      mark(row.getAttribute("data-state"));
      pos.textContent = cur === 0 ? "start" : "step " + cur + " of " + (rows.length - 1);
      prev.disabled = cur === 0;
      next.disabled = cur === rows.length - 1;
    }
    prev.addEventListener("click", function () { show(cur - 1); });
    next.addEventListener("click", function () { show(cur + 1); });
    controls.hidden = false;
    show(0);
  });
})();
