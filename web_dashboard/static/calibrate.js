// The calibration wizard: clicks on the snapshot become a draft in the calibration file's own shape.
"use strict";

const CORNERS = ["top-left", "top-right", "bottom-right", "bottom-left"];
const FACTORIES = {2: 5, 3: 7, 4: 9};
let clicks = [];
let size = null;

function players() { return +document.getElementById("players").value; }
function needed() { return players() * 4 + FACTORIES[players()] + 4; }
function msg(text, bad) { const m = document.getElementById("cal-msg"); m.textContent = text; m.className = "msg" + (bad ? " err" : ""); }

function target(k) {
  const boards = players() * 4, factories = FACTORIES[players()];
  if (k < boards) return `board ${Math.floor(k / 4) + 1}: its ${CORNERS[k % 4]} corner`;
  if (k < boards + factories) return `factory display ${k - boards + 1}: its centre`;
  if (k < boards + factories + 4) return `the centre of the table: corner ${k - boards - factories + 1} of 4`;
  return null;
}

function draft() {
  const boards = [], factories = [], r = +document.getElementById("radius").value;
  const nb = players() * 4, nf = FACTORIES[players()];
  for (let i = 0; i < players(); i++) boards.push({corners: clicks.slice(i * 4, i * 4 + 4)});
  for (let j = 0; j < nf; j++) factories.push({center: clicks[nb + j], radius: r});
  return {image_size: size, boards, factories, center: clicks.slice(nb + nf, nb + nf + 4)};
}

function redraw() {
  const svg = document.getElementById("marks");
  if (!size) return;
  svg.setAttribute("viewBox", `0 0 ${size[0]} ${size[1]}`);
  const nb = players() * 4;
  svg.innerHTML = clicks.map(([x, y], k) => {
    const colour = k < nb ? "#ffd400" : (k < nb + FACTORIES[players()] ? "#ff8c00" : "#ff00ff");
    return `<circle cx="${x}" cy="${y}" r="${Math.max(4, size[0] / 200)}" fill="${colour}" stroke="#000"/>`;
  }).join("");
  const next = target(clicks.length);
  document.getElementById("progress").textContent = `${clicks.length} of ${needed()} points`;
  document.getElementById("step-title").textContent = next ? "2 · Click the corners and factories" : "3 · Capture, check, save";
  document.getElementById("instruction").textContent = next ? `Click ${next}.`
    : "All points placed: capture the bare table, deal and capture the setup, check the overlay, save.";
}

// Which captures the server holds (it keeps them across snapshots and page reloads).
function showCaptures(captures) {
  for (const [key, done] of Object.entries(captures || {})) {
    const state = document.getElementById(key + "-state");
    state.textContent = done ? "✓ captured" : "not captured";
    state.classList.toggle("done", done);
  }
}

async function loaded(info) {
  size = [info.width, info.height];
  clicks = [];
  const img = document.getElementById("shot");
  img.src = "/calibration/snapshot.jpg?t=" + Date.now();
  img.hidden = false;
  document.getElementById("radius").value = Math.round(info.width / 28);
  showCaptures(info.captures);
  redraw();
}

document.getElementById("snap-btn").addEventListener("click", async () => {
  try { await loaded(await post("/api/calibration/snapshot")); msg("Snapshot taken."); } catch (e) { msg(e.message, true); }
});

document.getElementById("upload").addEventListener("change", async ev => {
  const file = ev.target.files[0];
  if (!file) return;
  const form = new FormData();
  form.append("photo", file);
  const res = await fetch("/api/calibration/upload", {method: "POST", body: form, headers: {"X-CSRF-Token": CSRF}});
  const data = await res.json();
  if (!res.ok) { msg(data.error, true); return; }
  await loaded(data);
  msg("Photo uploaded.");
});

document.getElementById("shot").addEventListener("click", ev => {
  if (!size || clicks.length >= needed()) return;
  const img = ev.currentTarget, rect = img.getBoundingClientRect();
  const x = (ev.clientX - rect.left) * size[0] / rect.width, y = (ev.clientY - rect.top) * size[1] / rect.height;
  clicks.push([Math.round(x * 10) / 10, Math.round(y * 10) / 10]);
  redraw();
});

document.getElementById("undo-click").addEventListener("click", () => { clicks.pop(); redraw(); });
document.getElementById("players").addEventListener("change", () => { clicks = []; redraw(); });

async function capture(path, done) {
  try { showCaptures((await post(path)).captures); msg(done); } catch (e) { msg(e.message, true); }
}

document.getElementById("bare-btn").addEventListener("click", () =>
  capture("/api/calibration/bare", "Bare table captured: now deal the first round and capture the setup."));
document.getElementById("empty-btn").addEventListener("click", () => capture("/api/calibration/empty", "Setup captured."));

document.getElementById("check-btn").addEventListener("click", async () => {
  if (clicks.length < needed()) { msg(`Place all ${needed()} points first (${clicks.length} so far).`, true); return; }
  try {
    await post("/api/calibration/check", {draft: draft()});
    const o = document.getElementById("overlay");
    o.src = "/calibration/overlay.jpg?t=" + Date.now();
    o.hidden = false;
    msg("Overlay drawn below: every green square should sit on a board space.");
  } catch (e) { msg(e.message, true); }
});

document.getElementById("save-btn").addEventListener("click", async () => {
  try {
    const r = await post("/api/calibration/save", {draft: draft()});
    const how = r.learned ? " with the setup learned" + (r.bare_table ? " against the bare table." : ".")
      : r.warning ? " — " + r.warning : ".";
    msg("Saved to " + r.path + how + (r.note ? " Note: " + r.note + "." : ""), !!r.warning);
  }
  catch (e) { msg(e.message, true); }
});

fetch("/api/calibration/captures", {credentials: "same-origin"}).then(r => r.json()).then(d => showCaptures(d.captures))
  .catch(() => {});  // the buttons still work; the marks appear with the first capture
connectLive({camera: renderCameraBadge, state: s => renderDriver(s)});
