// stackplay studio's page. It draws what the server's model answers and sends it the pointer
// events; it holds no model of its own. One WebSocket carries everything (docs/studio.md).
"use strict";
const token = new URLSearchParams(location.search).get("token") || "";
const $ = (id) => document.getElementById(id);
const studio = {
  socket: null, listing: { tests: [], broken: [] }, results: {}, running: new Set(), selected: null,
  frame: null, queue: [], inFlight: false, clockBase: performance.now(), dragging: false, recording: false,
  picking: false, scale: 1, lua: "", nodes: new Map(),
  // Draw times while a finger is down (the browser test reads them: frames per second while dragging).
  stats: { drawTimes: [], roundTrips: [] }, sentAt: 0,
};
window.studio = studio;

function send(message) {
  if (studio.socket && studio.socket.readyState === 1) studio.socket.send(JSON.stringify(message));
}
function now() { return (performance.now() - studio.clockBase) / 1000; }
function flash(text) {
  $("flash").textContent = text;
  clearTimeout(flash.timer);
  flash.timer = setTimeout(() => { $("flash").textContent = ""; }, 6000);
}
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

// MARK: Connection

function connect() {
  const socket = new WebSocket(`ws://${location.host}/ws?token=${encodeURIComponent(token)}`);
  studio.socket = socket;
  socket.onopen = () => {
    $("connection").textContent = "connected"; $("connection").classList.add("on");
    studio.inFlight = false; studio.queue = [];
    send({ op: "list" });
  };
  socket.onclose = () => {
    $("connection").textContent = "reconnecting…"; $("connection").classList.remove("on");
    setTimeout(connect, 1000);
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
}

function receive(message) {
  switch (message.type) {
    case "frame":
      studio.inFlight = false;
      if (studio.sentAt) studio.stats.roundTrips.push(performance.now() - studio.sentAt);
      drawFrame(message);
      pump();
      break;
    case "tests": studio.listing = message.listing || studio.listing;
      studio.roots = message.roots || [];
      for (const result of message.results || []) store(result);
      renderTests(); break;
    case "run-start": for (const file of message.files) studio.running.add(file); renderTests(); break;
    case "results": studio.running.delete(message.file);
      for (const result of message.tests) store(result);
      renderTests(); break;
    case "run-end": studio.running.clear(); renderTests(); break;
    case "changed": flash(`saved: ${message.files.map(shortName).join(", ")}`); break;
    case "lua": showLua(message.text); break;
    case "saved": saved(message); break;
    case "exists":
      if (confirm(`${message.name} exists. Replace it with the recorded scenario?`)) {
        send({ op: "save", name: message.name, overwrite: true });
      }
      break;
    case "error": studio.inFlight = false; flash(message.message); pump(); break;
  }
}

// MARK: Tests pane

function key(file, name) { return file + "\u0000" + name; }
function store(result) { studio.results[key(result.file, result.name)] = result; }

function renderTests() {
  const tree = $("test-tree");
  const filter = $("test-filter").value.trim().toLowerCase();
  tree.replaceChildren();
  const files = [];
  for (const test of studio.listing.tests) if (!files.includes(test.file)) files.push(test.file);
  for (const result of Object.values(studio.results)) if (!files.includes(result.file)) files.push(result.file);
  let passed = 0, failed = 0;
  for (const file of files) {
    const tests = studio.listing.tests.filter((t) => t.file === file);
    for (const result of Object.values(studio.results)) {
      if (result.file === file && !tests.some((t) => t.name === result.name)) tests.push({ file, name: result.name, tags: result.tags || [] });
    }
    const rows = [];
    for (const test of tests) {
      const result = studio.results[key(file, test.name)];
      const status = studio.running.has(file) ? "running" : (result ? result.status : "");
      if (result && result.status === "passed") passed++;
      if (result && result.status === "failed") failed++;
      const words = [file, test.name, status, ...(test.tags || [])].join(" ").toLowerCase();
      const row = el("li", { class: "test", "data-file": file, "data-name": test.name, "data-status": status },
        el("span", { class: `status ${status}` }, { passed: "✓", failed: "✗", skipped: "–", running: "…" }[status] || "·"),
        el("span", { class: "name" }, test.name),
        ...(test.tags || []).map((tag) => el("span", { class: "tag" }, tag)),
        el("button", { class: "run", type: "button", title: "Run this test",
          onclick: (e) => { e.stopPropagation(); send({ op: "run", file, test: test.name }); } }, "▶"));
      row.addEventListener("click", () => select(file, test.name));
      if (studio.selected && studio.selected.file === file && studio.selected.name === test.name) row.classList.add("selected");
      row.hidden = filter !== "" && !words.includes(filter);
      rows.push(row);
    }
    const head = el("li", { class: "file", "data-file": file }, el("span", { class: "name", title: file }, shortName(file)),
      el("button", { class: "run", type: "button", title: "Run this file", onclick: () => send({ op: "run", file }) }, "▶ run"));
    head.hidden = rows.length > 0 && rows.every((r) => r.hidden);
    tree.append(head, ...rows);
  }
  $("run-summary").textContent = files.length ? `${passed} passed, ${failed} failed` : "";
  if (studio.selected) showDetail();
}

// A file as a person names it: inside the folder the studio was given, relative to it.
function shortName(file) {
  for (const root of studio.roots || []) {
    if (file.startsWith(root + "/")) return file.slice(root.length + 1);
  }
  return file.replace(/^\.\//, "");
}

function select(file, name) {
  studio.selected = { file, name };
  renderTests();
}

function showDetail() {
  const { file, name } = studio.selected;
  const result = studio.results[key(file, name)];
  $("test-detail").hidden = false;
  $("detail-name").textContent = `${name}`;
  $("detail-message").textContent = result ? (result.status === "passed" ? "passed" : result.message || result.status) : "not run yet";
  const actions = $("detail-action");
  actions.replaceChildren();
  const screen = result && result.screens && result.screens[0];
  if (screen) {
    screen.actions.forEach((action, index) => {
      const failing = screen.failing === index ? " (where it failed)" : "";
      actions.append(el("option", { value: String(index) }, `line ${action.line}: ${action.source}${failing}`));
    });
    actions.value = String(screen.failing != null ? screen.failing : Math.max(screen.actions.length - 1, 0));
  }
  $("detail-open").disabled = !screen || screen.actions.length === 0;
  $("detail-viewer").disabled = !result;
}

$("test-filter").addEventListener("input", renderTests);
$("run-all").addEventListener("click", () => send({ op: "run" }));
$("detail-viewer").addEventListener("click", () => {
  const { file, name } = studio.selected;
  $("viewer").src = `/viewer?token=${encodeURIComponent(token)}&file=${encodeURIComponent(file)}&test=${encodeURIComponent(name)}`;
  showTab("viewer");
});
$("detail-open").addEventListener("click", () => {
  const { file, name } = studio.selected;
  send({ op: "open", file, test: name, screen: 0, action: Number($("detail-action").value) });
  showTab("live");
});
function showTab(which) {
  $("tab-live").classList.toggle("active", which === "live");
  $("tab-viewer").classList.toggle("active", which === "viewer");
  $("live-view").hidden = which !== "live";
  $("viewer").hidden = which !== "viewer";
}
$("tab-live").addEventListener("click", () => showTab("live"));
$("tab-viewer").addEventListener("click", () => showTab("viewer"));

// MARK: Live screen: sending

// Live operations go one at a time: the next leaves when the last frame is back. Moves coalesce
// (only the latest point waits), so the page asks no more often than it draws.
function enqueue(message) {
  const last = studio.queue[studio.queue.length - 1];
  if (message.op === "move" && last && last.op === "move") studio.queue[studio.queue.length - 1] = message;
  else if (message.op === "frame" && last) return;
  else studio.queue.push(message);
  pump();
}
function pump() {
  if (studio.inFlight || studio.queue.length === 0) return;
  const message = studio.queue.shift();
  message.t = now();
  studio.inFlight = true;
  studio.sentAt = performance.now();
  send(message);
}
// While something moves, one frame asked for at each display frame; at rest, nothing runs.
function tick() {
  studio.ticking = false;
  if (!studio.frame || studio.frame.resting) return;
  if (!studio.inFlight && studio.queue.length === 0) enqueue({ op: "frame" });
  wake();
}
function wake() {
  if (studio.ticking) return;
  studio.ticking = true;
  requestAnimationFrame(tick);
}

function point(event) {
  const box = $("screen").getBoundingClientRect();
  return { x: (event.clientX - box.left) / studio.scale, y: (event.clientY - box.top) / studio.scale };
}
const screenEl = $("screen");
screenEl.addEventListener("pointerdown", (event) => {
  if (event.button !== 0) return;
  screenEl.focus();
  if (studio.picking) { pickAt(event); return; }
  screenEl.setPointerCapture(event.pointerId);
  studio.dragging = true;
  studio.stats.drawTimes = [];
  screenEl.classList.add("dragging");
  enqueue({ op: "down", ...point(event) });
});
screenEl.addEventListener("pointermove", (event) => {
  if (studio.dragging) enqueue({ op: "move", ...point(event) });
});
function release(event) {
  if (!studio.dragging) return;
  studio.dragging = false;
  screenEl.classList.remove("dragging");
  enqueue({ op: "move", ...point(event) });
  enqueue({ op: "up" });
}
screenEl.addEventListener("pointerup", release);
screenEl.addEventListener("pointercancel", release);
// The wheel scrolls as a finger would: the wheel's turns, once they pause, become one drag from
// the pointer by their sum (the model has touches, not wheels).
screenEl.addEventListener("wheel", (event) => {
  event.preventDefault();
  if (studio.dragging || studio.picking) return;
  const at = point(event);
  studio.wheel = studio.wheel || { x: at.x, y: at.y, dy: 0 };
  studio.wheel.dy += event.deltaY / studio.scale;
  clearTimeout(studio.wheelTimer);
  studio.wheelTimer = setTimeout(() => {
    const { x, y, dy } = studio.wheel;
    studio.wheel = null;
    enqueue({ op: "down", x, y });
    for (let step = 1; step <= 6; step++) enqueue({ op: "move", x, y: y - (dy * step) / 6 });
    enqueue({ op: "up" });
  }, 120);
}, { passive: false });
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || /INPUT|SELECT|TEXTAREA/.test(document.activeElement.tagName)) return;
  if (studio.picking) { setPicking(false); return; }
  enqueue({ op: "escape" });
});
$("escape").addEventListener("click", () => enqueue({ op: "escape" }));

const dynamicTypes = ["xSmall", "small", "medium", "large", "xLarge", "xxLarge", "xxxLarge", "AX1", "AX2", "AX3", "AX4", "AX5"];
for (const name of dynamicTypes) $("set-dynamic-type").append(el("option", { value: name }, name));
// The devices the matrix knows (`--matrix device=...`), as the server lists them.
function showDevices(message) {
  const select = $("set-device");
  if (select.options.length !== message.devices.length + 1) {
    select.replaceChildren(el("option", { value: "" }, ""), ...message.devices.map((name) => el("option", { value: name }, name)));
  }
  select.options[0].textContent = "other";
  select.value = message.device || "";
  for (const key of ["width", "height"]) {
    const input = $(`set-${key}`);
    if (document.activeElement !== input) input.value = String(message.settings[key]);
  }
}
$("set-direction").addEventListener("change", (e) => enqueue({ op: "set", key: "layout_direction", value: e.target.value }));
$("set-reduce-motion").addEventListener("change", (e) => enqueue({ op: "set", key: "reduce_motion", value: e.target.checked }));
$("set-dynamic-type").addEventListener("change", (e) => enqueue({ op: "set", key: "dynamic_type", value: e.target.value }));
$("set-device").addEventListener("change", (e) => { if (e.target.value) enqueue({ op: "set", key: "device", value: e.target.value }); });
for (const key of ["width", "height"]) {
  $(`set-${key}`).addEventListener("change", (e) => {
    const value = Number(e.target.value);
    if (value > 0) enqueue({ op: "set", key, value });
  });
}
$("fresh-open").addEventListener("click", () => {
  const kinds = [...document.querySelectorAll('input[name="kind"]:checked')].map((i) => i.value);
  const settings = { layout_direction: $("set-direction").value, reduce_motion: $("set-reduce-motion").checked,
    dynamic_type: $("set-dynamic-type").value };
  if ($("set-device").value) settings.device = $("set-device").value;
  send({ op: "fresh", kinds, items: $("fresh-items").value, dismissible: $("fresh-dismissible").checked, settings });
  $("fresh").open = false;
});

// MARK: Live screen: drawing

function hue(text) { let h = 0; for (const c of text) h = (h * 31 + c.codePointAt(0)) % 360; return h; }

function drawFrame(message) {
  studio.frame = message;
  if (!message.resting) wake();
  if (studio.dragging) studio.stats.drawTimes.push(performance.now());
  const settings = message.settings;
  const available = Math.max(260, $("stage").clientHeight - 50);
  studio.scale = Math.min(1, available / settings.height);
  const s = studio.scale;
  screenEl.style.width = `${settings.width * s}px`;
  screenEl.style.height = `${settings.height * s}px`;
  screenEl.dataset.direction = settings.layout_direction;
  screenEl.dataset.resting = String(message.resting);
  $("set-direction").value = settings.layout_direction;
  $("set-reduce-motion").checked = settings.reduce_motion;
  $("set-dynamic-type").value = settings.dynamic_type;
  showDevices(message);
  $("origin").textContent = message.origin ? `showing ${message.origin}` : "";
  // Nodes are kept by key (a card by its component and id) and updated in place: a card under
  // the pointer stays the same element while it moves.
  const seen = new Set();
  const box = (x, y, w, h) => `left:${x * s}px;top:${y * s}px;width:${w * s}px;height:${h * s}px;`;
  const node = (key, make, style) => {
    seen.add(key);
    let found = studio.nodes.get(key);
    if (!found) { found = make(); studio.nodes.set(key, found); screenEl.append(found); }
    if (found.getAttribute("style") !== style) found.setAttribute("style", style);
    return found;
  };
  for (const component of message.frame.components) {
    node(`c:${component.name}`, () => el("div", { class: "component" }, el("span", { class: "label" }, component.name)),
      box(component.x, component.y, component.width, component.height));
    const kind = component.kind === "wallet_card_stack" ? "wallet" : component.kind === "sticky_stacked_cards" ? "sticky" : "notification";
    for (const card of component.cards) {
      if (!card.visible) continue;
      const style = box(card.x, card.y, card.width, card.height) + `opacity:${card.opacity};z-index:${Math.round(card.z) + 10};` +
        (kind === "wallet" ? `background:linear-gradient(135deg,hsl(${hue(card.id)} 55% 46%),hsl(${(hue(card.id) + 40) % 360} 60% 36%));` : "") +
        (kind === "sticky" ? `background:hsl(${hue(card.id)} 70% 93%);border:1px solid hsl(${hue(card.id)} 40% 80%);` : "") +
        `font-size:${Math.max(9, 14 * s)}px;`;
      const cardNode = node(`k:${component.name}:${card.id}`, () => el("div", { class: `card ${kind}`, "data-id": card.id, "data-component": component.name },
        el("span", { class: "title" }, card.id), el("span", { class: "sub" })), style);
      const sub = `x ${Math.round(card.x)} · ${card.opacity < 1 ? "opacity " + card.opacity.toFixed(2) : "z " + card.z}`;
      if (cardNode.lastChild.textContent !== sub) cardNode.lastChild.textContent = sub;
    }
    for (const part of component.parts) {
      if (part.opacity <= 0 && !part.hittable) continue;
      node(`p:${component.name}:${part.name}`, () => el("div", { class: "part" }, part.name.replace("_", " ")),
        box(part.x, part.y, part.width, part.height) + "z-index:9000;");
    }
  }
  message.guides.forEach((guide, index) => {
    const guideNode = node(`g:${index}:${guide.axis}`, () => el("div", { class: `guide ${guide.axis}` }, el("span", {})),
      guide.axis === "x" ? `left:${guide.at * s}px` : `top:${guide.at * s}px`);
    guideNode.firstChild.textContent = guide.label;
    guideNode.classList.toggle("left", guide.axis === "x" && guide.at > settings.width * 0.55);
  });
  if (message.finger) node("finger", () => el("div", { class: "finger" }), `left:${message.finger.x * s}px;top:${message.finger.y * s}px`);
  for (const [key, old] of studio.nodes) {
    if (!seen.has(key)) { old.remove(); studio.nodes.delete(key); }
  }
  drawState(message.frame);
  studio.recording = message.recording;
  $("record").setAttribute("aria-pressed", String(message.recording));
  $("record").textContent = message.recording ? "■ Stop" : "● Record";
  $("pick").disabled = !message.recording;
  $("state").classList.toggle("recording", message.recording);
  $("state-hint").textContent = message.recording ? "click a row to expect it" : "";
}

function show(value) {
  if (Array.isArray(value)) return "{ " + value.map(show).join(", ") + " }";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") return String(Math.round(value * 1000) / 1000);
  return String(value);
}

function drawState(frame) {
  const tables = [];
  for (const component of frame.components) {
    const rows = Object.entries(component.state).map(([field, value]) =>
      el("tr", { "data-component": component.name, "data-key": field, onclick: () => expectField(component.name, null, field) },
        el("td", { class: "key" }, field), el("td", { class: "value" }, show(value))));
    tables.push(el("table", { "data-component": component.name }, el("caption", {}, `${component.name} (${component.kind.replaceAll("_", " ")})`), ...rows));
  }
  $("state").replaceChildren(...tables);
}

// MARK: Record

$("record").addEventListener("click", () => {
  send({ op: "record", on: !studio.recording });
  setPicking(false);
});
function setPicking(on) {
  studio.picking = on;
  $("pick").setAttribute("aria-pressed", String(on));
  screenEl.classList.toggle("picking", on);
  if (!on) $("pick-menu").hidden = true;
}
$("pick").addEventListener("click", () => setPicking(!studio.picking));

function expectField(component, card, field) {
  if (!studio.recording) return;
  send({ op: "expect", component, card, field });
  setPicking(false);
  flash(`expectation added: ${component}${card ? " card " + card : ""} ${field}`);
}

// A click while picking: the top-most card under the pointer, and what to expect of it.
function pickAt(event) {
  const p = point(event);
  let best = null;
  for (const component of studio.frame.frame.components) {
    for (const card of component.cards) {
      if (!card.visible || p.x < card.x || p.x > card.x + card.width || p.y < card.y || p.y > card.y + card.height) continue;
      if (!best || card.z >= best.card.z) best = { component, card };
    }
  }
  const menu = $("pick-menu");
  menu.replaceChildren();
  if (!best) { flash("no card there: click a card, or a row of the state panel"); return; }
  menu.append(el("div", { class: "head" }, `card ${best.card.id} of ${best.component.name}`));
  for (const field of ["x", "y", "opacity", "scale"]) {
    menu.append(el("button", { type: "button", "data-field": field, onclick: () => expectField(best.component.name, best.card.id, field) },
      `${field} is ${show(best.card[field])}`));
  }
  for (const [field, value] of Object.entries(best.component.state)) {
    if (["ids", "selection", "expanded", "count", "scroll_offset"].includes(field)) {
      menu.append(el("button", { type: "button", "data-field": field, onclick: () => expectField(best.component.name, null, field) },
        `${best.component.name} ${field} is ${show(value)}`));
    }
  }
  menu.style.left = `${event.clientX + 8}px`;
  menu.style.top = `${event.clientY + 8}px`;
  menu.hidden = false;
}

function highlight(text) {
  const escape = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  return text.split("\n").map((line) => {
    const comment = line.indexOf("--");
    const code = comment >= 0 ? line.slice(0, comment) : line;
    const rest = comment >= 0 ? `<span class="com">${escape(line.slice(comment))}</span>` : "";
    return escape(code)
      .replace(/("(?:[^"\\]|\\.)*")/g, '<span class="str">$1</span>')
      .replace(/\b(local|function|end|true|false|nil|return)\b/g, '<span class="kw">$1</span>')
      .replace(/(^|[^\w"])(-?\d+(?:\.\d+)?)/g, '$1<span class="num">$2</span>') + rest;
  }).join("\n");
}
function showLua(text) {
  studio.lua = text;
  $("lua").firstChild.innerHTML = highlight(text);
  $("copy").disabled = $("save").disabled = text === "";
  $("record-hint").hidden = text !== "";
}
$("copy").addEventListener("click", async () => {
  try { await navigator.clipboard.writeText(studio.lua); flash("copied"); } catch (e) {
    const range = document.createRange(); range.selectNodeContents($("lua"));
    getSelection().removeAllRanges(); getSelection().addRange(range); flash("selected: press Ctrl+C");
  }
});
$("save").addEventListener("click", () => send({ op: "save", name: $("save-name").value.trim() }));
function saved(message) {
  const line = (ok, text) => el("div", { class: ok ? "ok" : "bad" }, (ok ? "✓ " : "✗ ") + text);
  $("save-result").replaceChildren(el("div", {}, `saved ${message.path}`),
    line(message.passes, "passes under stackplay"), line(message.passes_mirrored, "passes under stackplay --mirror"));
  if (!message.passes || !message.passes_mirrored) $("save-result").append(el("pre", {}, message.output));
}

connect();
document.body.dataset.ready = "true";
