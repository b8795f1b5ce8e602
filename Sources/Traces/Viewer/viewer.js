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
  // Numbers as people read them: to 1/100 (`1.95`, not `1.9500000000000002`); the full value is
  // in the element's title and is what a copy takes (data-full).
  const fmt = (x) => (typeof x === "number" && Number.isFinite(x) ? num(x) : String(x));
  function roundedDeep(v) {
    if (typeof v === "number") return Number(fmt(v));
    if (Array.isArray(v)) return v.map(roundedDeep);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, roundedDeep(x)]));
    return v;
  }
  /** A value for a cell: rounded text, the full text in its title and for copying. */
  function valueCell(tag, attrs, v) {
    const full = typeof v === "object" && v !== null ? JSON.stringify(v) : String(v);
    const shown = typeof v === "number" ? fmt(v) : typeof v === "object" && v !== null ? JSON.stringify(roundedDeep(v)) : full;
    const node = el(tag, attrs, shown);
    if (shown !== full) { node.title = full; node.dataset.full = full; }
    return node;
  }
  // The smallest text a frame shows, in screen pixels, whatever its zoom.
  const MIN_TEXT_PX = 12;

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
        let initial = null;
        for (const line of lines.slice(1)) {
          const o = JSON.parse(line);
          // The page's own last line: the screen as built (TraceViewer), no part of the trace.
          if (o.initial_frame !== undefined && o.type === undefined) { initial = o.initial_frame; continue; }
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
        return { header: JSON.parse(lines[0]), steps, actions: all, entryOf, initial };
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
  function placeLabel(parent, places, size, text, fingers, attrs, taken) {
    for (const [x, y, anchor] of places) {
      const box = textBox(x, y, size, text, anchor);
      if (!clearOf(box, fingers)) continue;
      if (taken && taken.some((b) => box.x < b.x + b.w && b.x < box.x + box.w && box.y < b.y + b.h && b.y < box.y + box.h)) continue;
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
        const size = Math.max(14 * card.scale, style.minText || 0);
        const y = card.y + Math.min(card.height / 2 + size * 0.36, Math.max(24 * card.scale, size + 4));
        const cx = card.x + card.width / 2, pad = 10 * card.scale;
        const placed = placeLabel(group, [[cx, y, "middle"], [card.x + pad, y, "start"], [card.x + card.width - pad, y, "end"],
          [cx, card.y + card.height - pad, "middle"]], size, card.id, fingers, { class: "card-label", fill: "#222" });
        if (placed && style.taken) {
          const label = group.lastChild;
          style.taken.push(textBox(Number(label.getAttribute("x")), Number(label.getAttribute("y")), size, card.id, label.getAttribute("text-anchor")));
        }
      }
      g.appendChild(group);
    }
  }

  /** The frame shown after event `index` (-1: the screen as built, the trace's initial frame). */
  function frameOf(t, index) {
    if (index < 0) return t.initial || { components: [] };
    return frameAt(t, index);
  }

  /**
   * The box every frame of a test is drawn in, fitted to what it shows: the screen's width, and
   * from its top to the lowest component, card or finger (the empty screen below is left out; the
   * wheel zooms out to it), and whatever a frame draws past the screen's edges.
   */
  function boundsOf(t, frames) {
    const s = t.header.screen;
    let x0 = 0, y0 = 0, x1 = s.width, y1 = 0;
    for (const e of t.steps) if (e.type === "set_size") x1 = Math.max(x1, e.width);
    for (const frame of frames) {
      for (const c of frame.components || []) {
        for (const r of [c, ...(c.cards || []).filter((k) => k.visible), ...(c.parts || [])]) {
          if (![r.x, r.y, r.width, r.height].every(Number.isFinite)) continue;
          x0 = Math.min(x0, r.x); y0 = Math.min(y0, r.y); x1 = Math.max(x1, r.x + r.width); y1 = Math.max(y1, r.y + r.height);
        }
      }
    }
    for (const e of t.steps) {
      if (e.type === "touch_down" || e.type === "touch_move") {
        x0 = Math.min(x0, e.x); y0 = Math.min(y0, e.y); x1 = Math.max(x1, e.x); y1 = Math.max(y1, e.y);
      }
    }
    if (y1 <= y0) y1 = s.height;
    const m = 28;
    return { x: x0 - m, y: y0 - m, w: x1 - x0 + 2 * m, h: y1 - y0 + 2 * m + 10 };
  }

  /** Screen pixels per user unit when `box` is fitted into `node` (preserveAspectRatio meet). */
  function unitFor(node, box) {
    const r = node.getBoundingClientRect();
    if (!(r.width > 0 && r.height > 0)) return 1;
    return Math.min(r.width / box.w, r.height / box.h);
  }

  /**
   * The frame after event `index` of trace `t` as SVG, with fingers and drags; `o.golden` draws a
   * golden frame over it (dashed, `o.goldenOpacity`), `o.frame` draws that frame instead of the
   * trace's, `o.differing` outlines the cards whose numbers differ from the golden trace's.
   */
  function drawFrame(t, index, id, o) {
    o = o || {};
    const { settings, touches, lifted } = replayInputs(t, index);
    const w = settings.width, h = settings.height;
    const box = o.box || boundsOf(t, [frameOf(t, index)]);
    const zoom = o.zoom || { x: box.x, y: box.y, w: box.w, h: box.h };
    const unit = o.unit || 1;
    const minText = MIN_TEXT_PX / unit;
    const root = svg("svg", { xmlns: SVG, viewBox: `${zoom.x} ${zoom.y} ${zoom.w} ${zoom.h}`, "font-family": "sans-serif", id,
      preserveAspectRatio: "xMidYMin meet",
      "data-unit": unit });
    root.appendChild(svg("rect", { class: "screen", x: 0, y: 0, width: w, height: h, fill: "#f4f4f6", stroke: "#333" }));
    const rtl = settings.direction === "rtl";
    const [from, to] = rtl ? [w - 8, w - 48] : [8, 48];
    const dirSize = Math.max(12, minText);
    root.appendChild(svg("line", { x1: from, y1: -12, x2: to, y2: -12, stroke: "#06c", "stroke-width": 3 }));
    root.appendChild(svg("polygon", { points: `${to},-18 ${to + (rtl ? -10 : 10)},-12 ${to},-6`, fill: "#06c" }));
    // The direction's name beside its arrow when it fits above the screen (the caption names it too).
    if (dirSize <= 20) {
      root.appendChild(svg("text", { class: "direction", x: rtl ? to - 16 : to + 16, y: -7, "font-size": num(dirSize), fill: "#06c",
        "text-anchor": rtl ? "end" : "start" }, settings.direction));
    }
    // Fingers: where each touch is now, and the drag's translation from where it went down.
    const fingers = [...touches.entries()].map(([tid, f]) => [tid, f, false]);
    if (lifted) fingers.push([lifted[0], lifted[1], true]);
    const spots = fingers.map(([, f]) => [f.x, f.y]);
    // Everything a frame holds is drawn, past the screen's edge too (as `stackplay render` draws
    // it); the screen's outline shows where its edge is.
    const layer = root.appendChild(svg("g", { class: "screen-content" }));
    const frame = o.frame || frameOf(t, index);
    const partSize = Math.max(12, minText);
    for (const c of frame.components) {
      layer.appendChild(svg("rect", { class: "component", x: num(c.x), y: num(c.y), width: num(c.width), height: num(c.height),
        fill: "none", stroke: "#999", "stroke-dasharray": "4 3" }));
      for (const p of c.parts || []) {
        if (!(p.opacity > 0)) continue;
        const g = svg("g", { class: "part", opacity: num(p.opacity) });
        g.appendChild(svg("rect", { x: num(p.x), y: num(p.y), width: num(p.width), height: num(p.height), fill: "#dde8f4", stroke: "#8ab" }));
        // The header's name at its trailing end, clear of the button drawn over its leading end.
        const ends = [[p.x + 6, p.y + partSize + 4, "start"], [p.x + p.width - 6, p.y + partSize + 4, "end"]];
        if (p.name === "header") ends.reverse();
        placeLabel(g, ends, partSize, p.name, spots, { fill: "#357" });
        layer.appendChild(g);
      }
    }
    const taken = [];
    drawCards(layer, frame, { cls: "card", fill: "#fff", stroke: "#555", minText, taken }, spots);
    if (o.differing) {
      for (const g of layer.querySelectorAll("g.card")) {
        if (o.differing.has(g.dataset.id)) g.classList.add("differs");
      }
    }
    if (o.golden) {
      const g = svg("g", { class: "golden", opacity: o.goldenOpacity === undefined ? 1 : o.goldenOpacity });
      drawCards(g, o.golden, { cls: "golden-card", fill: "none", stroke: "#d81b60", dash: "6 4", golden: true }, spots);
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
    const dragSize = Math.max(13, minText);
    for (const [tid, f] of fingers) {
      const dx = f.x - f.startX, dy = f.y - f.startY;
      if (dx === 0 && dy === 0) continue;
      const g = root.querySelector(`g.finger[data-touch="${tid}"]`);
      const text = `drag ${num(dx)}, ${num(dy)}`, d = FINGER + 6;
      placeLabel(g, [[f.x + d, f.y - d, "start"], [f.x - d, f.y - d, "end"], [f.x + d, f.y + d + dragSize, "start"],
        [f.x - d, f.y + d + dragSize, "end"], [f.x, f.y - d - dragSize, "middle"]], dragSize, text, spots,
        { class: "translation", fill: "#e65100" }, taken) || placeLabel(g, [[box.x + box.w - 6, box.y + box.h - 6, "end"]], dragSize, text, spots,
        { class: "translation", fill: "#e65100" });
    }
    return root;
  }

  /** The first event that differs from the golden trace's (its input or its frame); null when none does. */
  function failingEvent(test, t, golden) {
    if (test.status !== "failed" || t.steps.length === 0 || !golden) return null;
    for (let i = 0; i < t.steps.length; i++) {
      const g = golden.steps[i];
      // The input or the frame after it: the same fields in the same order when nothing differs.
      if (!g || JSON.stringify(g) !== JSON.stringify(t.steps[i])) return i;
    }
    if (golden.steps.length !== t.steps.length) return t.steps.length - 1;
    return null;
  }

  /** What differs between the golden frame and the run's: each card's (or component's) field. */
  const CARD_FIELDS = ["x", "y", "width", "height", "scale", "opacity", "z", "visible", "hittable"];
  function differences(expected, actual, goldenStep, step) {
    const rows = [];
    if (goldenStep && step) {
      for (const k of new Set([...Object.keys(goldenStep), ...Object.keys(step)])) {
        if (k === "frame" || k === "i") continue;
        if (JSON.stringify(goldenStep[k]) !== JSON.stringify(step[k])) rows.push({ what: "the input", field: k, expected: goldenStep[k], actual: step[k] });
      }
    }
    const comps = new Map((expected.components || []).map((c) => [c.name, c]));
    for (const c of actual.components || []) {
      const g = comps.get(c.name);
      if (!g) { rows.push({ what: `component '${c.name}'`, field: "(the component)", expected: "absent", actual: "present" }); continue; }
      const cards = new Map((g.cards || []).map((k) => [k.id, k]));
      for (const card of c.cards || []) {
        const e = cards.get(card.id);
        if (!e) { rows.push({ what: `card '${card.id}'`, card: card.id, field: "(the card)", expected: "absent", actual: "present" }); continue; }
        for (const f of CARD_FIELDS) if (e[f] !== card[f]) rows.push({ what: `card '${card.id}'`, card: card.id, field: f, expected: e[f], actual: card[f] });
        cards.delete(card.id);
      }
      for (const id of cards.keys()) rows.push({ what: `card '${id}'`, card: id, field: "(the card)", expected: "present", actual: "absent" });
      for (const k of Object.keys(Object.assign({}, g.state, c.state))) {
        const x = (g.state || {})[k], y = (c.state || {})[k];
        if (JSON.stringify(x) !== JSON.stringify(y)) rows.push({ what: `'${c.name}' state`, field: k, expected: x, actual: y });
      }
    }
    return rows;
  }

  /** The first event from `from` on whose cards differ from the golden trace's (else `from`). */
  function firstFrameDifference(t, golden, from) {
    for (let i = from; i < t.steps.length && i < golden.steps.length; i++) {
      if (differences(frameOf(golden, i), frameOf(t, i)).some((r) => r.card)) return i;
    }
    return from;
  }

  function describe(e) {
    const skip = new Set(["i", "t", "type", "frame"]);
    const rest = Object.entries(e).filter(([k]) => !skip.has(k))
      .map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(roundedDeep(v)) : fmt(v)}`);
    return `${String(e.i ?? "").padStart(3)} ${fmt(e.t)}s ${e.type} ${rest.join(" ")}`;
  }

  function showState(t, index) {
    const box = $("state");
    box.replaceChildren();
    const { settings } = replayInputs(t, index);
    const screen = el("table", { "data-component": "screen" });
    screen.appendChild(el("tr")).appendChild(el("th", { colspan: 2 }, "screen"));
    const rows = [["time", index >= 0 && t.steps[index] ? t.steps[index].t : 0, " s"], ["size", `${fmt(settings.width)} × ${fmt(settings.height)}`],
      ["layout_direction", settings.direction], ["reduce_motion", String(settings.reduceMotion)], ["dynamic_type", settings.dynamicType]];
    for (const [k, v, unit] of rows) {
      const tr = screen.appendChild(el("tr", { "data-key": k }));
      tr.appendChild(el("td", { class: "key" }, k));
      const cell = tr.appendChild(valueCell("td", { class: "value" }, v));
      if (unit) cell.textContent += unit;
    }
    box.appendChild(screen);
    const frame = frameOf(t, index);
    for (const c of frame.components) {
      const table = el("table", { "data-component": c.name });
      table.appendChild(el("tr")).appendChild(el("th", { colspan: 2 }, `${c.kind} '${c.name}'`));
      for (const [k, v] of Object.entries(c.state || {})) {
        const tr = table.appendChild(el("tr", { "data-key": k }));
        tr.appendChild(el("td", { class: "key" }, k));
        tr.appendChild(valueCell("td", { class: "value" }, v));
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
          tr.appendChild(valueCell("td", { "data-field": k }, v));
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

  /** `x.lua:12` as [file, line]. */
  function place(text) {
    const m = /^(.*):(\d+)$/.exec(text || "");
    return m ? [m[1], Number(m[2])] : null;
  }

  /** The failure's `file:line`: the result's position, else the message's first `file:line:`. */
  function failurePlace(test) {
    const p = place(test.position);
    if (p) return p;
    const m = /^(.+?):(\d+):/.exec(test.message || "");
    return m ? [m[1], Number(m[2])] : null;
  }

  /** The source pane: the file of `action` with its line marked, the failing line and the cause's. */
  async function showSource(action) {
    const box = $("source");
    const test = current.test;
    const failure = failurePlace(test);
    const cause = place(test.cause_position);
    const file = (action && action.file) || (failure && test.sources[failure[0]] ? failure[0] : Object.keys(test.sources)[0]);
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
    const failing = current.failing !== null ? current.trace.actions[current.trace.entryOf[current.failing]] : null;
    lines.forEach((text, i) => {
      const n = i + 1;
      const row = code.appendChild(el("div", { class: "line", "data-line": n }));
      row.appendChild(el("span", { class: "no" }, String(n)));
      row.appendChild(el("span", { class: "text" }, text));
      if (action && action.file === file && action.line === n) row.classList.add("current-line");
      if (failure && failure[0] === file && failure[1] === n) {
        row.classList.add("failure-line");
        row.title = "the failing line";
      }
      if (cause && cause[0] === file && cause[1] === n) {
        row.classList.add("cause-line");
        row.title = "the likely cause";
      }
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

  /** Draws the two frame panes for the moment shown, in the chosen mode; again once if drawing
   * them moved the layout (text is sized for the pane's size in screen pixels). */
  function drawFrames(again) {
    const zoomed = current.zoom || current.box;
    const unit = unitFor($("frame"), zoomed);
    drawPanes();
    if (!again && Math.abs(unitFor($("frame"), zoomed) - unit) > unit * 0.01) drawFrames(true);
  }

  function drawPanes() {
    const t = current.trace, index = current.event, action = current.action;
    const empty = t.steps.length === 0;
    const golden = current.golden;
    const gIndex = golden && golden.steps.length ? Math.min(index, golden.steps.length - 1) : -1;
    const goldenFrame = golden ? frameOf(golden, empty ? -1 : gIndex) : null;
    const after = empty ? -1 : index;
    const box = current.box;
    const zoom = current.zoom || box;
    const unitOf = (node) => unitFor(node, zoom);
    const mode = current.mode;
    $("frames").dataset.mode = mode;
    $("overlay-control").hidden = !golden || mode !== "overlay";
    let differing = null;
    const rows = golden ? differences(goldenFrame, frameOf(t, after), golden.steps[gIndex], t.steps[index]) : [];
    if (golden && mode !== "steps") differing = new Set(rows.filter((r) => r.card).map((r) => r.card));
    // The list first: it takes room from the frames, which are sized for what is left.
    const list = $("differences");
    list.replaceChildren();
    list.hidden = !golden || rows.length === 0;
    if (!list.hidden) {
      list.appendChild(el("h4", {}, `Differs from the golden trace at event ${index}`));
      const table = list.appendChild(el("table"));
      const head = table.appendChild(el("tr"));
      for (const k of ["what", "field", "expected", "actual"]) head.appendChild(el("th", {}, k));
      for (const r of rows.slice(0, 40)) {
        const tr = table.appendChild(el("tr", { "data-card": r.card || "", "data-field": r.field }));
        tr.appendChild(el("td", {}, r.what));
        tr.appendChild(el("td", {}, r.field));
        tr.appendChild(valueCell("td", { class: "expected" }, r.expected === undefined ? "(none)" : r.expected));
        tr.appendChild(valueCell("td", { class: "actual" }, r.actual === undefined ? "(none)" : r.actual));
      }
      if (rows.length > 40) list.appendChild(el("p", {}, `... and ${rows.length - 40} more`));
    }
    const direction = ` · ${replayInputs(t, after).settings.direction}`;
    if (mode === "compare") {
      $("frame-before").replaceChildren(drawFrame(golden, empty ? -1 : gIndex, "before-svg",
        { box, zoom, unit: unitOf($("frame-before")), differing }));
      $("frame").replaceChildren(drawFrame(t, after, "frame-svg", { box, zoom, unit: unitOf($("frame")), differing }));
      $("before-caption").textContent = `Expected (the golden trace) at event ${index}`;
      $("after-caption").textContent = `Actual at event ${index}${direction}`;
    } else if (mode === "overlay") {
      $("frame-before").replaceChildren();
      $("frame").replaceChildren(drawFrame(t, after, "frame-svg", { box, zoom, unit: unitOf($("frame")), differing,
        golden: goldenFrame, goldenOpacity: Number($("overlay").value) / 100 }));
      $("before-caption").textContent = "";
      $("after-caption").textContent = `Actual at event ${index}, the golden trace's cards dashed over it`;
    } else {
      const before = action ? action.first - 1 : -1;
      $("frame-before").replaceChildren(drawFrame(t, before, "before-svg", { box, zoom, unit: unitOf($("frame-before")) }));
      $("frame").replaceChildren(drawFrame(t, after, "frame-svg", { box, zoom, unit: unitOf($("frame")),
        golden: goldenFrame && !empty ? goldenFrame : null }));
      $("before-caption").textContent = action ? `Before ${actionTitle(action)}` : "Before";
      $("after-caption").textContent = (action ? `After: event ${index}` + (index === action.first + action.events - 1 ? "" : ` (${index - action.first + 1} of ${action.events})`) : "As built") + direction;
    }
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
    drawFrames();
    const step = t.steps[index];
    $("position").textContent = step ? `event ${index} / ${t.steps.length - 1} · ${step.type} · t = ${fmt(step.t)} s`
      : "no events: the screen as built";
    $("position").title = step ? `t = ${step.t} s` : "";
    for (const li of $("events").children) {
      const i = Number(li.dataset.index);
      li.classList.toggle("current", i === index);
      li.classList.toggle("in-action", !!action && i >= action.first && i < action.first + action.events);
    }
    for (const li of $("actions").children) li.classList.toggle("current", action !== null && !li.dataset.expect && Number(li.dataset.action) === action.index);
    const li = $("events").children[index];
    if (li) li.scrollIntoView({ block: "nearest" });
    const ali = action && $("actions").querySelector(`li[data-action="${action.index}"]`);
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

  /** The action the likely cause names (its call's `file:line`, the last such), or null. */
  function causeAction(test, t) {
    const p = place(test.cause_position);
    if (!p) return null;
    // Two calls on one line (`wallet:tap("mc"); screen:settle()`): the one the cause names.
    const method = (/^the (\S+) at /.exec(test.cause || "") || [])[1];
    const found = t.actions.filter((a) => a.file === p[0] && a.line === p[1]);
    const named = found.filter((a) => a.method === method);
    const pick = named.length ? named : found;
    return pick.length ? pick[pick.length - 1] : null;
  }

  function setMode(mode) {
    if (!current) return;
    current.mode = mode;
    for (const b of $("modes").children) b.classList.toggle("selected", b.dataset.mode === mode);
    drawFrames();
  }

  let shown = 0; // which showScreen call is the latest: an earlier one that finishes later is dropped
  async function showScreen(test, screen, moment) {
    const ticket = ++shown;
    document.body.dataset.ready = "false";
    const ref = test.traces[screen];
    const t = await trace(ref.id);
    const golden = await trace(ref.golden);
    if (ticket !== shown) return;
    if (golden && !golden.initial) golden.initial = t.initial;
    const failing = failingEvent(test, t, golden);
    const frames = t.steps.filter((e) => e.frame).map((e) => e.frame).concat(t.initial ? [t.initial] : [])
      .concat(golden ? golden.steps.filter((e) => e.frame).map((e) => e.frame) : []);
    current = { test, screen, trace: t, golden, failing, event: 0, action: undefined,
      box: boundsOf(t, frames), zoom: null, mode: golden && failing !== null ? "compare" : "steps" };
    for (const b of $("screens").children) b.classList.toggle("selected", Number(b.dataset.screen) === screen);
    const modes = $("modes");
    modes.replaceChildren();
    const choices = golden ? [["steps", "Before / after"], ["compare", "Expected / actual"], ["overlay", "Overlay"]] : [];
    for (const [m, label] of choices) {
      const b = modes.appendChild(el("button", { type: "button", "data-mode": m }, label));
      b.classList.toggle("selected", m === current.mode);
      b.addEventListener("click", () => setMode(m));
    }
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
    const cause = causeAction(test, t);
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
      if (a === cause) {
        li.classList.add("cause");
        li.appendChild(el("div", { class: "cause-note" }, "likely cause: " + test.cause));
      }
      li.addEventListener("click", () => showEvent(a.first + a.events - 1));
      actions.appendChild(li);
    }
    // The failing expectation: the step the test failed at, after the last input.
    const failure = failurePlace(test);
    if (test.status === "failed" && failure && t.steps.length > 0) {
      const lines = test.sources[failure[0]] ? await source(test.sources[failure[0]]) : null;
      if (ticket !== shown) return;
      const li = el("li", { "data-expect": "true", class: "failing expect" });
      const head = li.appendChild(el("div", { class: "head" }));
      const what = test.kind === "error" ? "error" : "expect";
      head.appendChild(el("span", { class: "method" }, `✗ ${what}`));
      head.appendChild(el("span", { class: "where" }, `${failure[0]}:${failure[1]}`));
      head.appendChild(el("span", { class: "count" }, "fails here"));
      const text = lines && lines[failure[1] - 1] !== undefined ? lines[failure[1] - 1].trim() : "";
      if (text) li.appendChild(el("code", { class: "call" }, text));
      li.addEventListener("click", () => { showEvent(t.steps.length - 1); showSource({ file: failure[0], line: failure[1] }); });
      actions.appendChild(li);
    }
    const end = el("div", { class: "mark end", id: "failing-mark" });
    if (current.failing !== null) {
      end.title = `differs from the golden trace at event ${current.failing}`;
      end.style.left = `${(current.failing / Math.max(t.steps.length - 1, 1)) * 100}%`;
      marks.appendChild(end);
    } else if (test.status === "failed" && t.steps.length > 0) {
      end.title = `fails after event ${t.steps.length - 1}`;
      end.style.left = "100%";
      marks.appendChild(end);
    }
    if (cause) {
      const mark = el("div", { class: "mark cause", id: "cause-mark", title: `the likely cause: ${cause.method} at ${cause.file}:${cause.line}` });
      mark.style.left = `${((cause.first + cause.events - 1) / Math.max(t.steps.length - 1, 1)) * 100}%`;
      marks.appendChild(mark);
    }
    $("legend").textContent = (golden ? "dashed pink: the golden trace's cards · red outline: a card that differs · " : "")
      + "orange: fingers, and a drag's translation from where it went down · hover a card for its numbers · wheel to zoom, drag to pan, double-click to fit";
    showMetadata(test, t);
    // A golden failure opens where the frames first differ (the first differing event may differ
    // in its input only); an expectation at its likely cause; else at the end.
    let at = current.failing !== null ? firstFrameDifference(t, golden, current.failing)
      : cause ? cause.first + cause.events - 1 : Math.max(t.steps.length - 1, 0);
    if (test.status !== "failed") at = 0;
    if (moment && moment.event !== undefined && moment.event < t.steps.length) at = moment.event;
    else if (moment && moment.t !== undefined) at = eventAt(t, moment.t);
    showEvent(at);
    document.body.dataset.ready = "true";
  }

  /** The metadata panel: the run's rows, the test's seed and the screen's settings. */
  function showMetadata(test, t) {
    const table = $("metadata-table");
    table.replaceChildren();
    const rows = (run.metadata || []).slice();
    if (test && test.seed !== null && test.seed !== undefined) rows.push(["test seed", String(test.seed)]);
    if (t) {
      const s = t.header.screen;
      rows.push(["trace", `format version ${t.header.version}, recorded by stackplay ${t.header.stackplay}`]);
      rows.push(["screen", `${fmt(s.width)} × ${fmt(s.height)}, ${s.layout_direction}, reduce motion ${s.reduce_motion ? "on" : "off"}, `
        + `dynamic type ${s.dynamic_type}${s.mirror ? ", mirrored" : ""}`]);
      for (const c of t.header.components || []) {
        const opts = Object.entries(c).filter(([k]) => k !== "kind" && k !== "name" && k !== "items")
          .map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : fmt(v)}`).join(", ");
        rows.push([`${c.kind} '${c.name}'`, `${(c.items || []).length} cards${opts ? ", " + opts : ""}`]);
      }
    }
    for (const [k, v] of rows) {
      const tr = table.appendChild(el("tr", { "data-key": k }));
      tr.appendChild(el("th", {}, k));
      tr.appendChild(el("td", {}, v));
    }
  }

  /** An error's traceback with the user's own frames first (the scripts the test's actions name). */
  function userFirst(test) {
    const lines = (test.traceback || "").split("\n");
    const head = lines[0] && lines[0].startsWith("stack traceback") ? [lines.shift()] : [];
    const files = Object.keys(test.sources || {});
    const mine = (l) => files.some((f) => l.trim().startsWith(f + ":"));
    return head.concat(lines.filter(mine), lines.filter((l) => !mine(l))).join("\n");
  }

  /** What kind of failure, in words. */
  function failureKind(test) {
    if (test.status !== "failed") return "";
    const m = test.message || "";
    if (/does not match its golden trace/.test(m)) return "golden trace differs";
    if (test.kind === "failure") return "expectation failed";
    if (/stopped:|budget/.test(m)) return "budget stop";
    if (/crash|signal/i.test(m)) return "crash";
    return "error";
  }

  function select(test, moment) {
    for (const li of $("tests").children) li.classList.toggle("selected", li.testRef === test);
    const verdict = $("verdict");
    verdict.className = `badge ${test.status}`;
    verdict.textContent = test.status === "trace" ? "TRACE" : test.status.toUpperCase() + (failureKind(test) ? ` · ${failureKind(test)}` : "");
    $("title-text").textContent = test.name;
    $("message").textContent = test.message || "";
    const cause = $("cause");
    cause.hidden = !test.cause;
    cause.replaceChildren();
    if (test.cause) {
      cause.appendChild(el("b", {}, "Likely cause: "));
      cause.appendChild(el("span", { id: "cause-text" }, test.cause));
    }
    const details = $("failure-details");
    details.hidden = !(test.traceback || test.dump);
    details.querySelector("summary").textContent = test.traceback ? "Traceback and state when it failed" : "State when it failed";
    details.open = test.kind === "error";
    $("traceback").textContent = test.traceback ? userFirst(test) : "";
    $("traceback").hidden = $("traceback-head").hidden = !test.traceback;
    // The state as the terminal printed it, its long decimals rounded (a copy takes them whole).
    const dump = $("dump");
    dump.textContent = test.dump ? test.dump.replace(/-?\d+\.\d{4,}/g, (x) => fmt(Number(x))) : "(none)";
    if (test.dump && dump.textContent !== test.dump) dump.dataset.full = test.dump; else delete dump.dataset.full;
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
      showMetadata(test, null);
      document.body.dataset.ready = "true";
      $("frame").replaceChildren(el("p", { class: "empty" }, "This test made no screen."));
      for (const id of ["events", "actions", "state", "marks", "frame-before", "source", "modes", "differences"]) $(id).replaceChildren();
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

  /** The wheel zooms the frames about the pointer, a drag pans them, a double-click fits them. */
  function zoomAndPan() {
    for (const id of ["frame", "frame-before"]) {
      const node = $(id);
      node.addEventListener("wheel", (event) => {
        if (!current) return;
        const svgNode = node.querySelector("svg");
        if (!svgNode) return;
        event.preventDefault();
        const z = current.zoom || current.box;
        const r = svgNode.getBoundingClientRect();
        const unit = Math.min(r.width / z.w, r.height / z.h);
        // The user point under the pointer stays under it.
        const ox = (r.width - z.w * unit) / 2, oy = 0;
        const px = z.x + (event.clientX - r.left - ox) / unit, py = z.y + (event.clientY - r.top - oy) / unit;
        const k = Math.exp(Math.sign(event.deltaY) * 0.15);
        const w = Math.min(Math.max(z.w * k, 20), current.box.w * 4), h = z.h * (w / z.w);
        current.zoom = { x: px - (px - z.x) * (w / z.w), y: py - (py - z.y) * (h / z.h), w, h };
        drawFrames();
      }, { passive: false });
      let drag = null;
      node.addEventListener("mousedown", (event) => {
        if (!current || event.button !== 0) return;
        drag = { x: event.clientX, y: event.clientY, zoom: current.zoom || current.box };
      });
      window.addEventListener("mousemove", (event) => {
        if (!drag || !current) return;
        const svgNode = node.querySelector("svg");
        if (!svgNode) return;
        const r = svgNode.getBoundingClientRect();
        const z = drag.zoom, unit = Math.min(r.width / z.w, r.height / z.h);
        const dx = (event.clientX - drag.x) / unit, dy = (event.clientY - drag.y) / unit;
        if (Math.abs(dx) + Math.abs(dy) < 2 / unit) return;
        current.zoom = { x: z.x - dx, y: z.y - dy, w: z.w, h: z.h };
        drawFrames();
      });
      window.addEventListener("mouseup", () => { drag = null; });
      node.addEventListener("dblclick", () => { if (current) { current.zoom = null; drawFrames(); } });
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
    $("action-filter").addEventListener("input", () => {
      const words = $("action-filter").value.toLowerCase().split(/\s+/).filter((w) => w);
      for (const li of $("actions").children) li.hidden = !words.every((w) => li.textContent.toLowerCase().includes(w));
    });
    $("overlay").addEventListener("input", () => { if (current) drawFrames(); });
    $("fit").addEventListener("click", () => { if (current) { current.zoom = null; drawFrames(); } });
    zoomAndPan();
    // A copy of rounded numbers takes their full values.
    document.addEventListener("copy", (event) => {
      const selection = document.getSelection();
      if (!selection || selection.isCollapsed) return;
      const cells = [...document.querySelectorAll("[data-full]")].filter((n) => selection.containsNode(n, true));
      if (cells.length === 0) return;
      let text = selection.toString();
      for (const n of cells) text = text.replace(n.textContent, n.dataset.full);
      event.clipboardData.setData("text/plain", text);
      event.preventDefault();
    });
    let resizing = null;
    window.addEventListener("resize", () => {
      clearTimeout(resizing);
      resizing = setTimeout(() => { if (current) drawFrames(); }, 100);
    });
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
