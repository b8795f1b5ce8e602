// The trace viewer: reads the run (#stackplay-run) and, for the selected test only, its traces
// (JSON Lines, deflated and in Base64, each in its own <script> element, inflated by the browser's
// DecompressionStream), and draws the frame at the chosen event as SVG. Nothing is fetched: the
// page is one file.
"use strict";
(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const run = JSON.parse(document.getElementById("stackplay-run").textContent);
  const $ = (id) => document.getElementById(id);
  const parsed = new Map(); // script id -> { header, steps } (parsed when first shown)
  let current = null; // { test, screen, trace, golden, failing, event }

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = text;
    return node;
  }
  const num = (x) => (Math.round(x * 100) / 100).toString();

  /** The text of a deflated, Base64 trace. */
  async function inflate(base64) {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return new Response(stream).text();
  }

  /** A trace's header and events, inflated and read the first time it is needed. */
  function trace(id) {
    if (id === null || id === undefined) return Promise.resolve(null);
    if (!parsed.has(id)) {
      parsed.set(id, inflate($(id).textContent.trim()).then((text) => {
        const lines = text.split("\n").filter((l) => l.trim() !== "");
        return { header: JSON.parse(lines[0]), steps: lines.slice(1).map((l) => JSON.parse(l)) };
      }));
    }
    return parsed.get(id);
  }

  /** The screen's settings, touches and their start points after event `index`. */
  function replayInputs(t, index) {
    const s = t.header.screen;
    const settings = { width: s.width, height: s.height, direction: s.layout_direction,
      reduceMotion: s.reduce_motion, dynamicType: s.dynamic_type };
    const touches = new Map();
    let lifted = null;
    for (let i = 0; i <= index && i < t.steps.length; i++) {
      const e = t.steps[i];
      lifted = null;
      switch (e.type) {
        case "set_size": settings.width = e.width; settings.height = e.height; break;
        case "set_layout_direction": settings.direction = e.direction; break;
        case "set_reduce_motion": settings.reduceMotion = e.on; break;
        case "set_dynamic_type": settings.dynamicType = e.size; break;
        case "touch_down": touches.set(e.touch, { startX: e.x, startY: e.y, x: e.x, y: e.y }); break;
        case "touch_move": {
          const f = touches.get(e.touch);
          if (f) { f.x = e.x; f.y = e.y; } else touches.set(e.touch, { startX: e.x, startY: e.y, x: e.x, y: e.y });
          break;
        }
        case "touch_up": lifted = touches.get(e.touch) ? [e.touch, touches.get(e.touch)] : null; touches.delete(e.touch); break;
      }
    }
    return { settings, touches, lifted };
  }

  /** The last recorded frame at or before `index`. */
  function frameAt(t, index) {
    for (let i = Math.min(index, t.steps.length - 1); i >= 0; i--) if (t.steps[i].frame) return t.steps[i].frame;
    return { components: [] };
  }

  function drawCards(g, frame, style) {
    const cards = [];
    frame.components.forEach((c, ci) => c.cards.forEach((card, k) => { if (card.visible) cards.push([ci, card.z, k, card]); }));
    cards.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
    for (const [, , , card] of cards) {
      const r = Math.min(12 * card.scale, card.width / 2, card.height / 2);
      const group = svg("g", { class: style.cls, "data-id": card.id, opacity: style.golden ? 1 : num(card.opacity) });
      group.appendChild(svg("rect", { x: num(card.x), y: num(card.y), width: num(card.width), height: num(card.height),
        rx: num(Math.max(r, 0)), fill: style.fill, stroke: style.stroke, "stroke-dasharray": style.dash || "none" }));
      if (!style.golden) {
        // The id near the top edge: in a pile, the lower part of a card is under the next one.
        group.appendChild(svg("text", { x: num(card.x + card.width / 2), y: num(card.y + Math.min(card.height / 2 + 5, 24) * card.scale),
          "font-size": num(14 * card.scale), "text-anchor": "middle", fill: "#222" }, card.id));
      }
      g.appendChild(group);
    }
  }

  /** The frame after event `index` of trace `t` as SVG, with fingers, drags and the golden frame. */
  function drawFrame(t, index, golden) {
    const { settings, touches, lifted } = replayInputs(t, index);
    const w = settings.width, h = settings.height, m = 28;
    const root = svg("svg", { xmlns: SVG, viewBox: `${-m} ${-m} ${w + 2 * m} ${h + 2 * m}`, width: w + 2 * m,
      height: h + 2 * m, "font-family": "sans-serif", id: "frame-svg" });
    root.appendChild(svg("rect", { class: "screen", x: 0, y: 0, width: w, height: h, fill: "#f4f4f6", stroke: "#333" }));
    const rtl = settings.direction === "rtl";
    const [from, to] = rtl ? [w - 8, w - 48] : [8, 48];
    root.appendChild(svg("line", { x1: from, y1: -12, x2: to, y2: -12, stroke: "#06c", "stroke-width": 3 }));
    root.appendChild(svg("polygon", { points: `${to},-18 ${to + (rtl ? -10 : 10)},-12 ${to},-6`, fill: "#06c" }));
    root.appendChild(svg("text", { x: rtl ? to - 16 : to + 16, y: -7, "font-size": 12, fill: "#06c",
      "text-anchor": rtl ? "end" : "start" }, settings.direction));
    const frame = index < 0 ? { components: [] } : frameAt(t, index);
    for (const c of frame.components) {
      root.appendChild(svg("rect", { class: "component", x: num(c.x), y: num(c.y), width: num(c.width), height: num(c.height),
        fill: "none", stroke: "#999", "stroke-dasharray": "4 3" }));
      for (const p of c.parts || []) {
        if (!(p.opacity > 0)) continue;
        const g = svg("g", { class: "part", opacity: num(p.opacity) });
        g.appendChild(svg("rect", { x: num(p.x), y: num(p.y), width: num(p.width), height: num(p.height), fill: "#dde8f4", stroke: "#8ab" }));
        g.appendChild(svg("text", { x: num(p.x + 6), y: num(p.y + 16), "font-size": 12, fill: "#357" }, p.name));
        root.appendChild(g);
      }
    }
    drawCards(root, frame, { cls: "card", fill: "#fff", stroke: "#555" });
    if (golden && index >= 0 && golden.steps.length > 0) {
      const g = svg("g", { class: "golden" });
      drawCards(g, frameAt(golden, Math.min(index, golden.steps.length - 1)), { cls: "golden-card", fill: "none",
        stroke: "#d81b60", dash: "6 4", golden: true });
      root.appendChild(g);
    }
    // Fingers: where each touch is now, and the drag's translation from where it went down.
    const fingers = [...touches.entries()].map(([id, f]) => [id, f, false]);
    if (lifted) fingers.push([lifted[0], lifted[1], true]);
    for (const [id, f, up] of fingers) {
      const g = svg("g", { class: "finger", "data-touch": id, opacity: up ? 0.45 : 1 });
      const dx = f.x - f.startX, dy = f.y - f.startY;
      if (dx !== 0 || dy !== 0) {
        g.appendChild(svg("line", { x1: num(f.startX), y1: num(f.startY), x2: num(f.x), y2: num(f.y), stroke: "#e65100",
          "stroke-width": 2, "stroke-dasharray": "5 3" }));
        g.appendChild(svg("circle", { cx: num(f.startX), cy: num(f.startY), r: 4, fill: "#e65100" }));
        g.appendChild(svg("text", { class: "translation", x: num(f.x + 16), y: num(f.y - 14), "font-size": 13, fill: "#e65100" },
          `drag ${num(dx)}, ${num(dy)}`));
      }
      g.appendChild(svg("circle", { cx: num(f.x), cy: num(f.y), r: 14, fill: "rgba(230,81,0,0.25)", stroke: "#e65100", "stroke-width": 2 }));
      root.appendChild(g);
    }
    const step = t.steps[index];
    const caption = step ? `event ${index} ${step.type}, t = ${step.t} s` : "before any event";
    root.appendChild(svg("text", { class: "caption", x: 0, y: h + 18, "font-size": 13, fill: "#333" }, caption));
    return root;
  }

  /** The first event that differs from the golden trace's (its input or its frame), else the last. */
  function failingEvent(test, t, golden) {
    if (test.status !== "failed" || t.steps.length === 0) return null;
    if (golden) {
      for (let i = 0; i < t.steps.length; i++) {
        const g = golden.steps[i];
        // The input or the frame after it: the same fields in the same order when nothing differs.
        if (!g || JSON.stringify(g) !== JSON.stringify(t.steps[i])) return i;
      }
      if (golden.steps.length !== t.steps.length) return t.steps.length - 1;
    }
    return t.steps.length - 1;
  }

  function describe(e) {
    const skip = new Set(["i", "t", "type", "frame"]);
    const rest = Object.entries(e).filter(([k]) => !skip.has(k))
      .map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : v}`);
    return `${String(e.i ?? "").padStart(3)} ${e.t.toFixed(3)}s ${e.type} ${rest.join(" ")}`;
  }

  function showState(t, index) {
    const box = $("state");
    box.replaceChildren();
    const { settings } = replayInputs(t, index);
    const screen = el("table", { "data-component": "screen" });
    screen.appendChild(el("tr")).appendChild(el("th", { colspan: 2 }, "screen"));
    const rows = [["time", index >= 0 && t.steps[index] ? `${t.steps[index].t} s` : "0 s"], ["size", `${settings.width} × ${settings.height}`],
      ["layout_direction", settings.direction], ["reduce_motion", String(settings.reduceMotion)], ["dynamic_type", settings.dynamicType]];
    for (const [k, v] of rows) { const tr = screen.appendChild(el("tr")); tr.appendChild(el("td", {}, k)); tr.appendChild(el("td", {}, v)); }
    box.appendChild(screen);
    const frame = index < 0 ? { components: [] } : frameAt(t, index);
    for (const c of frame.components) {
      const table = el("table", { "data-component": c.name });
      table.appendChild(el("tr")).appendChild(el("th", { colspan: 2 }, `${c.kind} '${c.name}'`));
      for (const [k, v] of Object.entries(c.state || {})) {
        const tr = table.appendChild(el("tr", { "data-key": k }));
        tr.appendChild(el("td", {}, k));
        tr.appendChild(el("td", { class: "value" }, typeof v === "object" ? JSON.stringify(v) : String(v)));
      }
      box.appendChild(table);
    }
  }

  function showEvent(index) {
    if (!current || !current.trace) return;
    const t = current.trace;
    index = Math.max(0, Math.min(index, t.steps.length - 1));
    current.event = index;
    $("scrub").value = String(index);
    $("frame").replaceChildren(drawFrame(t, t.steps.length === 0 ? -1 : index, current.golden));
    const step = t.steps[index];
    $("position").textContent = step ? `event ${index} / ${t.steps.length - 1} · ${step.type} · t = ${step.t} s`
      : "no events: the screen as built";
    for (const li of $("events").children) li.classList.toggle("current", Number(li.dataset.index) === index);
    const li = $("events").children[index];
    if (li) li.scrollIntoView({ block: "nearest" });
    showState(t, t.steps.length === 0 ? -1 : index);
  }

  let shown = 0; // which showScreen call is the latest: an earlier one that finishes later is dropped
  async function showScreen(test, screen) {
    const ticket = ++shown;
    document.body.dataset.ready = "false";
    const ref = test.traces[screen];
    const t = await trace(ref.id);
    const golden = await trace(ref.golden);
    if (ticket !== shown) return;
    current = { test, screen, trace: t, golden, failing: failingEvent(test, t, golden), event: 0 };
    for (const b of $("screens").children) b.classList.toggle("selected", Number(b.dataset.screen) === screen);
    const scrub = $("scrub");
    scrub.max = String(Math.max(t.steps.length - 1, 0));
    scrub.disabled = t.steps.length === 0;
    const marks = $("marks");
    marks.replaceChildren();
    const events = $("events");
    events.replaceChildren();
    t.steps.forEach((e, i) => {
      const li = el("li", { "data-index": i }, (i === current.failing ? "✗ " : "  ") + describe(e));
      if (i === current.failing) li.classList.add("failing");
      li.addEventListener("click", () => showEvent(i));
      events.appendChild(li);
    });
    if (current.failing !== null) {
      const mark = el("div", { class: "mark", id: "failing-mark", title: `fails at event ${current.failing}` });
      mark.style.left = `${(current.failing / Math.max(t.steps.length - 1, 1)) * 100}%`;
      marks.appendChild(mark);
    }
    $("legend").textContent = (golden ? "dashed pink: the golden trace's cards at this event · " : "")
      + "orange: fingers, and a drag's translation from where it went down";
    showEvent(current.failing !== null ? current.failing : 0);
    document.body.dataset.ready = "true";
  }

  function select(test) {
    for (const li of $("tests").children) li.classList.toggle("selected", li.testRef === test);
    $("title").textContent = test.name;
    $("message").textContent = test.message || "";
    const screens = $("screens");
    screens.replaceChildren();
    if (test.traces.length > 1) {
      test.traces.forEach((_, i) => {
        const b = el("button", { "data-screen": i }, `screen ${i + 1}`);
        b.addEventListener("click", () => showScreen(test, i));
        screens.appendChild(b);
      });
    }
    if (test.traces.length === 0) {
      current = null;
      shown++;
      document.body.dataset.ready = "true";
      $("frame").replaceChildren(el("p", { class: "empty" }, "This test made no screen."));
      for (const id of ["events", "state", "marks"]) $(id).replaceChildren();
      $("position").textContent = "";
      $("scrub").disabled = true;
      return;
    }
    showScreen(test, test.traces.length - 1);
  }

  function visibleTests() { return [...$("tests").children].filter((li) => !li.hidden); }

  function build() {
    document.title = run.title;
    $("heading").textContent = run.title;
    const counts = { passed: 0, failed: 0, skipped: 0, trace: 0 };
    for (const test of run.tests) counts[test.status] = (counts[test.status] || 0) + 1;
    $("summary").textContent = run.tests.every((t) => t.status === "trace") ? `${run.tests.length} trace${run.tests.length === 1 ? "" : "s"}`
      : `${counts.passed} passed, ${counts.failed} failed` + (counts.skipped ? `, ${counts.skipped} skipped` : "");
    const list = $("tests");
    for (const test of run.tests) {
      const li = el("li", { "data-status": test.status });
      li.testRef = test;
      li.appendChild(el("span", { class: `badge ${test.status}` }, test.status === "trace" ? "TRACE" : test.status.toUpperCase()));
      li.appendChild(el("span", { class: "name" }, test.name));
      if (test.seconds !== null && test.seconds !== undefined) li.appendChild(el("span", { class: "seconds" }, `${(test.seconds * 1000).toFixed(1)} ms`));
      li.addEventListener("click", () => select(test));
      list.appendChild(li);
    }
    $("filter").addEventListener("input", () => {
      const words = $("filter").value.toLowerCase().split(/\s+/).filter((w) => w);
      for (const li of list.children) {
        const text = `${li.testRef.name} ${li.testRef.status}`.toLowerCase();
        li.hidden = !words.every((w) => text.includes(w));
      }
    });
    $("scrub").addEventListener("input", () => showEvent(Number($("scrub").value)));
    document.addEventListener("keydown", (event) => {
      if (event.target === $("filter") || event.target === $("scrub")) return;
      if (!current) return;
      const step = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity }[event.key];
      if (step !== undefined) {
        event.preventDefault();
        const to = Number.isFinite(step) ? current.event + step : step < 0 ? 0 : current.trace.steps.length - 1;
        showEvent(to);
      } else if (event.key === "ArrowUp" || event.key === "ArrowDown") {
        event.preventDefault();
        const shown = visibleTests();
        const at = shown.findIndex((li) => li.testRef === current.test);
        const next = shown[at + (event.key === "ArrowDown" ? 1 : -1)];
        if (next) select(next.testRef);
      }
    });
    const first = run.tests.find((t) => t.status === "failed") || run.tests[0];
    if (first) select(first);
    else $("frame").replaceChildren(el("p", { class: "empty" }, "No tests."));
  }
  build();
})();
