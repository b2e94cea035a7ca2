/* pbem pages: the details panel (hover or click a counter or a place) and, in a replay, the step buttons
   and arrow keys. Hand-written and dependency-free: a page opens offline, from a file:// address.
   The page's data is JSON in <script id="pbem-data">; the map's base (terrain, names) is drawn once and a
   step change swaps only the overlay group (units, control, markers, events). */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("pbem-data").textContent);
  var steps = data.steps, at = data.start, pinned = null;
  var map = document.getElementById("map"), overlay = document.getElementById("pbem-overlay");
  var panel = document.getElementById("details"), report = document.getElementById("report");
  var label = document.getElementById("step-label"), hint = panel.innerHTML;
  // The step the page opened on is already in the document; keep it so we can come back to it.
  steps[at].overlay = overlay.innerHTML;
  steps[at].report = report.innerHTML;

  function described(el) {
    var key = el.getAttribute("data-unit"), s = steps[at];
    if (key !== null) return s.units[key] && {kind: "unit", key: key, rows: s.units[key]};
    key = el.getAttribute("data-place");
    var rows = s.places[key] || data.places[key];
    return rows && {kind: "place", key: key, rows: rows};
  }

  function show(el) {
    var d = el && described(el);
    if (!d) { panel.innerHTML = hint; panel.removeAttribute("data-showing"); return; }
    panel.textContent = "";  // built with DOM calls: nothing from the data is parsed as markup
    var h = document.createElement("h2");
    h.textContent = d.kind === "unit" ? "Counter" : "Place";
    panel.appendChild(h);
    var dl = document.createElement("dl");
    Object.keys(d.rows).forEach(function (k) {
      var dt = document.createElement("dt"), dd = document.createElement("dd");
      dt.textContent = k;
      dd.textContent = d.rows[k];
      dl.appendChild(dt);
      dl.appendChild(dd);
    });
    panel.appendChild(dl);
    panel.setAttribute("data-showing", d.kind + ":" + d.key);
  }

  function target(e) {
    return e.target && e.target.closest ? e.target.closest("[data-unit],[data-place]") : null;
  }

  function pin(el) {
    if (pinned) pinned.classList.remove("pbem-pinned");
    pinned = el;
    if (el) el.classList.add("pbem-pinned");
    show(el);
  }

  map.addEventListener("mouseover", function (e) {
    var t = target(e);
    if (t && !pinned) show(t);
  });
  map.addEventListener("click", function (e) {
    var t = target(e);
    pin(t && t !== pinned ? t : null);
  });

  function go(i) {
    i = Math.max(0, Math.min(steps.length - 1, i));
    if (i === at) return;
    // A pinned place stays pinned; a counter's key is local to its step's View, so a pinned counter lets go.
    var was = pinned && pinned.getAttribute("data-place");
    at = i;
    overlay.innerHTML = steps[i].overlay;
    report.innerHTML = steps[i].report;
    label.textContent = steps[i].label;
    document.body.setAttribute("data-step", String(i));
    buttons();
    pin(was ? map.querySelector('#pbem-base [data-place="' + CSS.escape(was) + '"]') : null);
  }

  function buttons() {
    document.querySelectorAll("[data-go]").forEach(function (b) {
      var where = b.getAttribute("data-go");
      b.disabled = (where === "first" || where === "prev") ? at === 0 : at === steps.length - 1;
    });
  }

  var moves = {
    first: function () { return 0; }, prev: function () { return at - 1; },
    next: function () { return at + 1; }, last: function () { return steps.length - 1; }
  };
  document.querySelectorAll("[data-go]").forEach(function (b) {
    b.addEventListener("click", function () { go(moves[b.getAttribute("data-go")]()); });
  });
  var keys = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"};
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || !keys[e.key] || steps.length < 2) return;
    e.preventDefault();
    go(moves[keys[e.key]]());
  });

  var zoom = document.getElementById("zoom");
  zoom.addEventListener("click", function () {
    var fit = map.classList.toggle("fit");
    zoom.textContent = fit ? "Actual size" : "Fit to window";
  });

  var wanted = /^#step-(\d+)$/.exec(location.hash);
  buttons();
  if (wanted) go(parseInt(wanted[1], 10));
  document.body.setAttribute("data-step", String(at));
  document.body.setAttribute("data-ready", "1");
})();
