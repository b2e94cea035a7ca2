/* pbem pages: the details panel (hover or click a counter or a place) and, in a replay, the step buttons
   and arrow keys. Hand-written and dependency-free: a page opens offline, from a file:// address.
   The page's data is JSON in <script id="pbem-data">; the map's base (terrain, names) is drawn once and a
   step change redraws only the overlay (units, control, markers, events), and of it only the items the step
   changed (each step's overlay is its layers of keyed items, see page.py). A hex map's hexes are a few paths,
   not an element each: the hex under the pointer is the one whose centre is nearest (data.hexes). */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("pbem-data").textContent);
  var steps = data.steps, at = data.start, pinned = null, shown = null;
  var map = document.getElementById("map"), overlay = document.getElementById("pbem-overlay");
  var base = document.getElementById("pbem-base"), mark = document.getElementById("pbem-pin");
  var panel = document.getElementById("details"), report = document.getElementById("report");
  var label = document.getElementById("step-label"), hint = panel.innerHTML;
  // The step the page opened on is already in the document; keep its report so we can come back to it (its
  // overlay's markup is read from the document when we first leave it, see draw).
  steps[at].report = report.innerHTML;

  // What the pointer is on: {kind: "unit" or "place", key, el (the element, if the thing has one)}.
  function thing(el) {
    var key = el.getAttribute("data-unit");
    return key !== null ? {kind: "unit", key: key, el: el} : {kind: "place", key: el.getAttribute("data-place"), el: el};
  }

  function rowsOf(t) {
    var s = steps[at];
    if (t.kind === "unit") return s.units[t.key];
    var rows = s.places[t.key] || data.places[t.key], plain = data.plain[t.key];
    if (rows || !plain) return rows;
    rows = {};  // a plain place: its id, terrain and country (Place.plain_details)
    rows[plain[0]] = t.key;
    if (plain[1]) rows.terrain = plain[1];
    if (plain[2]) rows.country = plain[2];
    return rows;
  }

  function show(t) {
    var rows = t && rowsOf(t);
    shown = rows ? t.kind + ":" + t.key : null;
    if (!rows) { panel.innerHTML = hint; panel.removeAttribute("data-showing"); return; }
    panel.textContent = "";  // built with DOM calls: nothing from the data is parsed as markup
    var h = document.createElement("h2");
    h.textContent = t.kind === "unit" ? "Counter" : "Place";
    panel.appendChild(h);
    var dl = document.createElement("dl");
    Object.keys(rows).forEach(function (k) {
      var dt = document.createElement("dt"), dd = document.createElement("dd");
      dt.textContent = k;
      dd.textContent = rows[k];
      dl.appendChild(dt);
      dl.appendChild(dd);
    });
    panel.appendChild(dl);
    panel.setAttribute("data-showing", shown);
  }

  // The hexes by square of the grid (a hex's radius a side), made when the pointer first moves over the map.
  var buckets = null;
  function hexAt(x, y) {
    var hx = data.hexes, r = hx.r, best = null, bestD = r * r;
    if (!buckets) {
      buckets = {};
      Object.keys(hx.at).forEach(function (id) {
        var c = hx.at[id], k = Math.floor(c[0] / r) + "," + Math.floor(c[1] / r);
        (buckets[k] = buckets[k] || []).push(id);
      });
    }
    var i = Math.floor(x / r), j = Math.floor(y / r);
    for (var di = -1; di <= 1; di++) for (var dj = -1; dj <= 1; dj++) {
      (buckets[(i + di) + "," + (j + dj)] || []).forEach(function (id) {
        var c = hx.at[id], d = (c[0] - x) * (c[0] - x) + (c[1] - y) * (c[1] - y);
        if (d < bestD) { bestD = d; best = id; }
      });
    }
    return best;
  }

  function target(e) {
    var el = e.target && e.target.closest ? e.target.closest("[data-unit],[data-place]") : null;
    if (el) return thing(el);
    if (!data.hexes || !e.target || !e.target.closest || !e.target.closest("#pbem-base")) return null;
    var svg = base.ownerSVGElement, m = svg.getScreenCTM();
    if (!m) return null;
    var p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse()), id = hexAt(p.x, p.y);
    return id === null ? null : {kind: "place", key: id, el: null};
  }

  function highlight(t, on) {
    if (t.el) { t.el.classList.toggle("pbem-pinned", on); return; }
    if (!on) { mark.removeAttribute("d"); return; }
    var c = data.hexes.at[t.key], r = data.hexes.r, h = r * Math.sqrt(3) / 2;
    mark.setAttribute("d", "M" + (c[0] + r) + " " + c[1] + "l" + (-r / 2) + " " + (-h) + "h" + (-r) + "l" + (-r / 2) +
                      " " + h + "l" + (r / 2) + " " + h + "h" + r + "z");
  }

  function pin(t) {
    if (pinned) highlight(pinned, false);
    pinned = t;
    if (t) highlight(t, true);
    show(t);
  }

  function same(a, b) { return a && b && a.kind === b.kind && a.key === b.key; }

  function hover(e) {
    if (pinned) return;
    var t = target(e);
    if (t && shown !== t.kind + ":" + t.key) show(t);
  }
  map.addEventListener("mouseover", hover);
  map.addEventListener("mousemove", hover);
  map.addEventListener("click", function (e) {
    var t = target(e);
    pin(t && !same(t, pinned) ? t : null);
  });

  // Step i's overlay in place of step `at`'s: in each layer, the items whose key both steps have are kept (a
  // counter gets its new View key), the others removed, and the new ones made in one parse and put in order.
  var holder = document.createElement("template"), UNIT = / data-unit="([^"]*)"/;
  function draw(i) {
    var from = steps[at].layers, to = steps[i].layers, groups = overlay.children;
    from.forEach(function (layer, n) {  // the step the page opened on: its items' markup from the document
      if (layer[2] === null) {
        layer[2] = Array.prototype.map.call(groups[n].children, function (el) { return el.outerHTML; });
      }
    });
    var same = groups.length === to.length && from.length === to.length &&
               to.every(function (layer, n) { return layer[0] === from[n][0]; });
    if (!same) {  // other layers altogether: draw them whole
      overlay.innerHTML = to.map(function (l) { return l[0] + l[2].join("") + "</g>"; }).join("");
      return;
    }
    to.forEach(function (layer, n) {
      var g = groups[n], keys = layer[1], markup = layer[2], pool = new Map(), order = [], fresh = [];
      Array.prototype.forEach.call(g.children, function (el, k) {
        var key = from[n][1][k];
        if (!pool.has(key)) pool.set(key, []);
        pool.get(key).push(el);
      });
      keys.forEach(function (key, k) {
        var kept = pool.has(key) && pool.get(key).shift();
        if (kept) {
          var unit = UNIT.exec(markup[k]);
          if (unit && kept.getAttribute("data-unit") !== unit[1]) kept.setAttribute("data-unit", unit[1]);
        } else {
          fresh.push(k);
        }
        order.push(kept || null);
      });
      pool.forEach(function (els) { els.forEach(function (el) { el.remove(); }); });
      if (fresh.length) {
        holder.innerHTML = '<svg xmlns="http://www.w3.org/2000/svg">' +
                           fresh.map(function (k) { return markup[k]; }).join("") + "</svg>";
        var made = Array.prototype.slice.call(holder.content.firstChild.children);
        fresh.forEach(function (k, j) { order[k] = made[j]; });
      }
      var next = g.firstElementChild;
      order.forEach(function (el) {
        if (el === next) next = next.nextElementSibling;
        else g.insertBefore(el, next);
      });
    });
  }

  function go(i) {
    i = Math.max(0, Math.min(steps.length - 1, i));
    if (i === at) return;
    // A pinned place stays pinned; a counter's key is local to its step's View, so a pinned counter lets go.
    var was = pinned && pinned.kind === "place" ? pinned : null;
    pin(null);  // before the overlay is read or kept: no item carries the pinned outline into another step
    draw(i);
    at = i;
    report.innerHTML = steps[i].report;
    label.textContent = steps[i].label;
    document.body.setAttribute("data-step", String(i));
    buttons();
    if (was && was.el && !was.el.isConnected) was = null;  // a place of the overlay the step changed is gone
    pin(was);
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

  // A hex map's ids (and printed codes) are drawn only where they can be read: a map fitted to a window shows
  // them at a fraction of their 7.5 px, as grey specks, and laying them out would be most of the page's first
  // draw. "Actual size" (or a window wide enough) shows them; `ids` on the map is the switch (page.css).
  var picture = base.ownerSVGElement, wide = picture.viewBox.baseVal.width;
  var labels = document.getElementById("pbem-labels"), markup = document.getElementById("pbem-labels-markup");
  function ids(width) {  // width: the picture's in CSS pixels, as laid out
    var show = width / wide * (window.devicePixelRatio || 1) >= 0.75;
    if (show && markup) {  // the first time: move the labels out of their template into the map
      var svg = markup.content.firstElementChild;
      while (svg.firstChild) labels.appendChild(svg.firstChild);
      markup = null;
    }
    map.classList.toggle("ids", show);
  }
  // Told after each layout that changes the picture's size (the window, the zoom button, the browser's zoom),
  // before it is painted: no layout is forced here.
  new ResizeObserver(function (entries) { ids(entries[entries.length - 1].contentRect.width); }).observe(picture);
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
