// The trace viewer: reads the run (#stackplay-run) and, for the selected test only, its traces
// (JSON Lines, deflated and in Base64, each in its own <script> element, inflated by the browser's
// DecompressionStream), and draws the frames before and after the chosen action as SVG, with the
// script's source at the action's line, what the test printed and each card's numbers. The hash
// (#test=NAME&t=SECONDS&event=N) opens a test at a moment. Nothing is fetched: the page is one file.
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
        // Action lines (version 2) group the events after them; the events keep their own fields.
        const steps = [], actions = [], actionOf = [];
        for (const line of lines.slice(1)) {
          const o = JSON.parse(line);
          if (o.type === undefined && o.action !== undefined) {
            actions.push({ method: o.method, file: o.file, line: o.line, source: o.source, first: steps.length, events: o.events });
            continue;
          }
          const open = actions[actions.length - 1];
          actionOf.push(open && steps.length < open.first + open.events ? open : null);
          steps.push(o);
        }
        // A version 1 trace (or an input no call made): each such event is its own entry.
        const all = [], entryOf = [];
        steps.forEach((e, i) => {
          const a = actionOf[i];
          if (!a) all.push({ method: e.type, file: null, line: null, source: "", first: i, events: 1 });
          else if (a.first === i) all.push(a);
          entryOf.push(all.length - 1);
        });
        all.forEach((a, k) => { a.index = k; });
        return { header: JSON.parse(lines[0]), steps, actions: all, entryOf };
      }));
    }
    return parsed.get(id);
  }

  /** A script's text (deflated like the traces), as lines. */
  const sources = new Map();
  function source(id) {
    if (!id || !$(id)) return Promise.resolve(null);
    if (!sources.has(id)) sources.set(id, inflate($(id).textContent.trim()).then((text) => text.split("\n")));
    return sources.get(id);
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

  // Labels never cover a finger: each label takes the first of its places whose box keeps clear of
  // every finger's circle (or is left out when none does; the card's numbers are in its tooltip).
  const FINGER = 14;
  function textBox(x, y, size, text, anchor) {
    const w = 0.62 * size * text.length, left = anchor === "middle" ? x - w / 2 : anchor === "end" ? x - w : x;
    return { x: left, y: y - size, w, h: size * 1.25 };
  }
  function clearOf(box, fingers) {
    return fingers.every(([fx, fy]) => {
      const r = FINGER + 3;
      return box.x > fx + r || box.x + box.w < fx - r || box.y > fy + r || box.y + box.h < fy - r;
    });
  }
  function placeLabel(parent, places, size, text, fingers, attrs) {
    for (const [x, y, anchor] of places) {
      if (!clearOf(textBox(x, y, size, text, anchor), fingers)) continue;
      parent.appendChild(svg("text", Object.assign({ x: num(x), y: num(y), "font-size": num(size), "text-anchor": anchor }, attrs), text));
      return true;
    }
    return false;
  }

  /** A card's numbers, for its tooltip and the state panel. */
  function cardNumbers(card) {
    return [["x", card.x], ["y", card.y], ["width", card.width], ["height", card.height], ["scale", card.scale],
      ["opacity", card.opacity], ["z", card.z], ["visible", card.visible], ["hittable", card.hittable]];
  }
  function cardText(card) {
    return `card '${card.id}'\nframe ${num(card.x)}, ${num(card.y)}, ${num(card.width)} × ${num(card.height)}\n`
      + `scale ${num(card.scale)} · opacity ${num(card.opacity)} · z ${card.z}\n`
      + `visible ${card.visible} · hittable ${card.hittable}`;
  }

  function drawCards(g, frame, style, fingers) {
    const cards = [];
    // A card on its way out (G8: `leaving`) is drawn with its transition's opacity, as on screen.
    frame.components.forEach((c, ci) => c.cards.concat(c.leaving || []).forEach((card, k) => { if (card.visible) cards.push([ci, card.z, k, card]); }));
    cards.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
    for (const [, , , card] of cards) {
      const r = Math.min(12 * card.scale, card.width / 2, card.height / 2);
      const group = svg("g", { class: style.cls, "data-id": card.id, opacity: style.golden ? 1 : num(card.opacity) });
      group.appendChild(svg("rect", { x: num(card.x), y: num(card.y), width: num(card.width), height: num(card.height),
        rx: num(Math.max(r, 0)), fill: style.fill, stroke: style.stroke, "stroke-dasharray": style.dash || "none" }));
      if (!style.golden) {
        group.appendChild(svg("title", {}, cardText(card)));
        group.cardRef = card;
        // The id near the top edge: in a pile, the lower part of a card is under the next one.
        const size = 14 * card.scale, y = card.y + Math.min(card.height / 2 + 5, 24) * card.scale;
        const cx = card.x + card.width / 2, pad = 10 * card.scale;
        placeLabel(group, [[cx, y, "middle"], [card.x + pad, y, "start"], [card.x + card.width - pad, y, "end"],
          [cx, card.y + card.height - pad, "middle"]], size, card.id, fingers, { class: "card-label", fill: "#222" });
      }
      g.appendChild(group);
    }
  }

  /** The frame after event `index` of trace `t` as SVG, with fingers, drags and the golden frame. */
  function drawFrame(t, index, golden, id) {
    const { settings, touches, lifted } = replayInputs(t, index);
    const w = settings.width, h = settings.height, m = 28;
    const root = svg("svg", { xmlns: SVG, viewBox: `${-m} ${-m} ${w + 2 * m} ${h + 2 * m}`, width: w + 2 * m,
      height: h + 2 * m, "font-family": "sans-serif", id });
    root.appendChild(svg("rect", { class: "screen", x: 0, y: 0, width: w, height: h, fill: "#f4f4f6", stroke: "#333" }));
    const rtl = settings.direction === "rtl";
    const [from, to] = rtl ? [w - 8, w - 48] : [8, 48];
    root.appendChild(svg("line", { x1: from, y1: -12, x2: to, y2: -12, stroke: "#06c", "stroke-width": 3 }));
    root.appendChild(svg("polygon", { points: `${to},-18 ${to + (rtl ? -10 : 10)},-12 ${to},-6`, fill: "#06c" }));
    root.appendChild(svg("text", { x: rtl ? to - 16 : to + 16, y: -7, "font-size": 12, fill: "#06c",
      "text-anchor": rtl ? "end" : "start" }, settings.direction));
    // Fingers: where each touch is now, and the drag's translation from where it went down.
    const fingers = [...touches.entries()].map(([tid, f]) => [tid, f, false]);
    if (lifted) fingers.push([lifted[0], lifted[1], true]);
    const spots = fingers.map(([, f]) => [f.x, f.y]);
    // What the screen shows is clipped to it (a nested viewport, same coordinates): a card pushed
    // past its edge is off screen.
    const layer = root.appendChild(svg("svg", { class: "screen-content", x: 0, y: 0, width: w, height: h,
      viewBox: `0 0 ${w} ${h}`, overflow: "hidden" }));
    const frame = index < 0 ? { components: [] } : frameAt(t, index);
    for (const c of frame.components) {
      layer.appendChild(svg("rect", { class: "component", x: num(c.x), y: num(c.y), width: num(c.width), height: num(c.height),
        fill: "none", stroke: "#999", "stroke-dasharray": "4 3" }));
      for (const p of c.parts || []) {
        if (!(p.opacity > 0)) continue;
        const g = svg("g", { class: "part", opacity: num(p.opacity) });
        g.appendChild(svg("rect", { x: num(p.x), y: num(p.y), width: num(p.width), height: num(p.height), fill: "#dde8f4", stroke: "#8ab" }));
        placeLabel(g, [[p.x + 6, p.y + 16, "start"], [p.x + p.width - 6, p.y + 16, "end"]], 12, p.name, spots, { fill: "#357" });
        layer.appendChild(g);
      }
    }
    drawCards(layer, frame, { cls: "card", fill: "#fff", stroke: "#555" }, spots);
    if (golden && index >= 0 && golden.steps.length > 0) {
      const g = svg("g", { class: "golden" });
      drawCards(g, frameAt(golden, Math.min(index, golden.steps.length - 1)), { cls: "golden-card", fill: "none",
        stroke: "#d81b60", dash: "6 4", golden: true }, spots);
      layer.appendChild(g);
    }
    for (const [tid, f, up] of fingers) {
      const g = svg("g", { class: "finger", "data-touch": tid, opacity: up ? 0.45 : 1 });
      const dx = f.x - f.startX, dy = f.y - f.startY;
      if (dx !== 0 || dy !== 0) {
        g.appendChild(svg("line", { x1: num(f.startX), y1: num(f.startY), x2: num(f.x), y2: num(f.y), stroke: "#e65100",
          "stroke-width": 2, "stroke-dasharray": "5 3" }));
        g.appendChild(svg("circle", { cx: num(f.startX), cy: num(f.startY), r: 4, fill: "#e65100" }));
      }
      g.appendChild(svg("circle", { class: "finger-spot", cx: num(f.x), cy: num(f.y), r: FINGER, fill: "rgba(230,81,0,0.25)",
        stroke: "#e65100", "stroke-width": 2 }));
      root.appendChild(g);
    }
    // The translations last, clear of every finger (the caption line below the screen when all else fails).
    for (const [tid, f] of fingers) {
      const dx = f.x - f.startX, dy = f.y - f.startY;
      if (dx === 0 && dy === 0) continue;
      const g = root.querySelector(`g.finger[data-touch="${tid}"]`);
      const text = `drag ${num(dx)}, ${num(dy)}`, d = FINGER + 6;
      placeLabel(g, [[f.x + d, f.y - d, "start"], [f.x - d, f.y - d, "end"], [f.x + d, f.y + d + 10, "start"],
        [f.x - d, f.y + d + 10, "end"], [f.x, f.y - d - 12, "middle"], [w, h + 18, "end"]], 13, text, spots,
        { class: "translation", fill: "#e65100" });
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
      // Each card's numbers, as the frame draws it (the tooltip of a card shows the same).
      const cards = el("table", { class: "cards", "data-cards": c.name });
      const head = cards.appendChild(el("tr"));
      for (const k of ["card", "x", "y", "w", "h", "scale", "opacity", "z", "hittable"]) head.appendChild(el("th", {}, k));
      for (const card of c.cards.concat(c.leaving || [])) {
        const tr = cards.appendChild(el("tr", { "data-card": card.id }));
        if ((c.leaving || []).includes(card)) tr.classList.add("leaving-card");
        tr.appendChild(el("td", { "data-field": "id" }, card.id));
        for (const [k, v] of cardNumbers(card)) {
          if (k === "visible") continue;
          tr.appendChild(el("td", { "data-field": k }, typeof v === "number" ? num(v) : String(v)));
        }
        if (!card.visible) tr.classList.add("hidden-card");
        tr.addEventListener("mouseenter", () => highlight(card.id, true));
        tr.addEventListener("mouseleave", () => highlight(card.id, false));
      }
      box.appendChild(cards);
    }
  }

  function highlight(id, on) {
    for (const g of document.querySelectorAll(`#frame svg g.card[data-id="${CSS.escape(id)}"]`)) g.classList.toggle("hover", on);
  }

  /** The source pane: the file of `action` with its line marked, and the failure's line. */
  async function showSource(action) {
    const box = $("source");
    const test = current.test;
    const failure = /^(.+?):(\d+):/.exec(test.message || "");
    const file = (action && action.file) || (failure && test.sources[failure[1]] ? failure[1] : Object.keys(test.sources)[0]);
    const ticket = current;
    const lines = file ? await source(test.sources[file]) : null;
    if (ticket !== current) return;
    box.replaceChildren();
    if (!lines) {
      box.appendChild(el("p", { class: "empty" }, file ? `${file}: the source is not in this report` : "No source in this report."));
      return;
    }
    box.appendChild(el("div", { class: "file" }, file));
    const code = box.appendChild(el("div", { class: "code" }));
    lines.forEach((text, i) => {
      const n = i + 1;
      const row = code.appendChild(el("div", { class: "line", "data-line": n }));
      row.appendChild(el("span", { class: "no" }, String(n)));
      row.appendChild(el("span", { class: "text" }, text));
      if (action && action.file === file && action.line === n) row.classList.add("current-line");
      if (failure && failure[1] === file && Number(failure[2]) === n) row.classList.add("failure-line");
      const failing = current.failing !== null ? current.trace.actions[current.trace.entryOf[current.failing]] : null;
      if (failing && failing.file === file && failing.line === n) row.classList.add("failing-line");
    });
    const mark = code.querySelector(".current-line") || code.querySelector(".failure-line");
    if (mark) {
      const offset = mark.getBoundingClientRect().top - code.getBoundingClientRect().top;
      box.scrollTop = Math.max(0, offset - box.clientHeight / 2);
    }
  }

  function actionTitle(a) {
    return a.file ? `${a.method} · ${a.file}:${a.line}` : a.method;
  }

  function showEvent(index) {
    if (!current || !current.trace) return;
    const t = current.trace;
    index = Math.max(0, Math.min(index, t.steps.length - 1));
    current.event = index;
    $("scrub").value = String(index);
    const empty = t.steps.length === 0;
    const action = empty ? null : t.actions[t.entryOf[index]];
    const changed = current.action !== action;
    current.action = action;
    const before = action ? action.first - 1 : -1;
    $("frame-before").replaceChildren(drawFrame(t, before, null, "before-svg"));
    $("frame").replaceChildren(drawFrame(t, empty ? -1 : index, current.golden, "frame-svg"));
    $("before-caption").textContent = action ? `Before ${actionTitle(action)}` : "Before";
    $("after-caption").textContent = action ? `After: event ${index}` + (index === action.first + action.events - 1 ? "" : ` (${index - action.first + 1} of ${action.events})`) : "As built";
    const step = t.steps[index];
    $("position").textContent = step ? `event ${index} / ${t.steps.length - 1} · ${step.type} · t = ${step.t} s`
      : "no events: the screen as built";
    for (const li of $("events").children) {
      const i = Number(li.dataset.index);
      li.classList.toggle("current", i === index);
      li.classList.toggle("in-action", !!action && i >= action.first && i < action.first + action.events);
    }
    for (const li of $("actions").children) li.classList.toggle("current", action !== null && Number(li.dataset.action) === action.index);
    const li = $("events").children[index];
    if (li) li.scrollIntoView({ block: "nearest" });
    const ali = action && $("actions").children[action.index];
    if (ali) ali.scrollIntoView({ block: "nearest" });
    showState(t, empty ? -1 : index);
    if (changed) showSource(action);
    const link = `#test=${encodeURIComponent(current.test.name)}` + (current.screen > 0 ? `&screen=${current.screen + 1}` : "")
      + (step ? `&t=${step.t}&event=${index}` : "");
    if (location.hash !== link) history.replaceState(null, "", link);
  }

  /** The last event at or before `seconds` (the first event when all are later). */
  function eventAt(t, seconds) {
    let at = 0;
    t.steps.forEach((e, i) => { if (e.t <= seconds) at = i; });
    return at;
  }

  let shown = 0; // which showScreen call is the latest: an earlier one that finishes later is dropped
  async function showScreen(test, screen, moment) {
    const ticket = ++shown;
    document.body.dataset.ready = "false";
    const ref = test.traces[screen];
    const t = await trace(ref.id);
    const golden = await trace(ref.golden);
    if (ticket !== shown) return;
    current = { test, screen, trace: t, golden, failing: failingEvent(test, t, golden), event: 0, action: undefined };
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
    const failingAction = current.failing !== null ? t.entryOf[current.failing] : null;
    const actions = $("actions");
    actions.replaceChildren();
    for (const a of t.actions) {
      const li = el("li", { "data-action": a.index, "data-first": a.first, "data-events": a.events });
      const head = li.appendChild(el("div", { class: "head" }));
      head.appendChild(el("span", { class: "method" }, (a.index === failingAction ? "✗ " : "") + a.method));
      if (a.file) head.appendChild(el("span", { class: "where" }, `${a.file}:${a.line}`));
      head.appendChild(el("span", { class: "count" }, `${a.events} event${a.events === 1 ? "" : "s"}`));
      if (a.source) li.appendChild(el("code", { class: "call" }, a.source));
      if (a.index === failingAction) li.classList.add("failing");
      li.addEventListener("click", () => showEvent(a.first + a.events - 1));
      actions.appendChild(li);
    }
    if (current.failing !== null) {
      const mark = el("div", { class: "mark", id: "failing-mark", title: `fails at event ${current.failing}` });
      mark.style.left = `${(current.failing / Math.max(t.steps.length - 1, 1)) * 100}%`;
      marks.appendChild(mark);
    }
    $("legend").textContent = (golden ? "dashed pink: the golden trace's cards at this event · " : "")
      + "orange: fingers, and a drag's translation from where it went down · hover a card for its numbers";
    let at = current.failing !== null ? current.failing : 0;
    if (moment && moment.event !== undefined && moment.event < t.steps.length) at = moment.event;
    else if (moment && moment.t !== undefined) at = eventAt(t, moment.t);
    showEvent(at);
    document.body.dataset.ready = "true";
  }

  function select(test, moment) {
    for (const li of $("tests").children) li.classList.toggle("selected", li.testRef === test);
    $("title").textContent = test.name;
    $("message").textContent = test.message || "";
    const output = $("output");
    output.textContent = test.output || "";
    output.dataset.empty = test.output ? "false" : "true";
    if (!test.output) output.textContent = "(the test printed nothing)";
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
      for (const id of ["events", "actions", "state", "marks", "frame-before", "source"]) $(id).replaceChildren();
      $("position").textContent = "";
      $("scrub").disabled = true;
      history.replaceState(null, "", `#test=${encodeURIComponent(test.name)}`);
      return;
    }
    const screen = moment && moment.screen !== undefined && moment.screen < test.traces.length ? moment.screen : test.traces.length - 1;
    showScreen(test, screen, moment);
  }

  function visibleTests() { return [...$("tests").children].filter((li) => !li.hidden); }

  /** `#test=NAME&t=SECONDS&event=N&screen=K`: the test and the moment a link opens. */
  function fromHash() {
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    const name = params.get("test");
    const test = name === null ? null : run.tests.find((x) => x.name === name);
    if (!test) return null;
    const moment = {};
    if (params.has("t") && Number.isFinite(Number(params.get("t")))) moment.t = Number(params.get("t"));
    if (params.has("event") && Number.isInteger(Number(params.get("event")))) moment.event = Number(params.get("event"));
    if (params.has("screen") && Number.isInteger(Number(params.get("screen")))) moment.screen = Number(params.get("screen")) - 1;
    return { test, moment };
  }

  /** The tooltip of a card under the pointer: its frame, scale, opacity, z and whether it is hittable. */
  function tooltips() {
    const tip = $("card-tip");
    const hide = () => { tip.hidden = true; };
    for (const id of ["frame", "frame-before"]) {
      $(id).addEventListener("mousemove", (event) => {
        const g = event.target.closest && event.target.closest("g.card");
        if (!g || !g.cardRef) return hide();
        const card = g.cardRef;
        tip.replaceChildren(el("b", {}, `card '${card.id}'`));
        const table = tip.appendChild(el("table"));
        for (const [k, v] of cardNumbers(card)) {
          const tr = table.appendChild(el("tr", { "data-field": k }));
          tr.appendChild(el("td", {}, k));
          tr.appendChild(el("td", { class: "value" }, typeof v === "number" ? num(v) : String(v)));
        }
        tip.hidden = false;
        tip.style.left = `${Math.min(event.clientX + 14, window.innerWidth - 180)}px`;
        tip.style.top = `${Math.min(event.clientY + 14, window.innerHeight - 200)}px`;
      });
      $(id).addEventListener("mouseleave", hide);
    }
  }

  function build() {
    document.title = run.title;
    $("heading").textContent = run.title;
    const counts = { passed: 0, failed: 0, skipped: 0, trace: 0 };
    for (const test of run.tests) counts[test.status] = (counts[test.status] || 0) + 1;
    $("summary").textContent = run.tests.every((t) => t.status === "trace") ? `${run.tests.length} trace${run.tests.length === 1 ? "" : "s"}`
      : `${counts.passed} passed, ${counts.failed} failed` + (counts.skipped ? `, ${counts.skipped} skipped` : "");
    const list = $("tests");
    for (const test of run.tests) {
      test.sources = test.sources || {};
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
    tooltips();
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
    window.addEventListener("hashchange", () => {
      const link = fromHash();
      if (link) select(link.test, link.moment);
    });
    const link = fromHash();
    const first = run.tests.find((t) => t.status === "failed") || run.tests[0];
    if (link) select(link.test, link.moment);
    else if (first) select(first);
    else $("frame").replaceChildren(el("p", { class: "empty" }, "No tests."));
  }
  build();
})();
