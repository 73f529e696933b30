// Shared by every page: the live connection (server-sent events with reconnection), the status badges,
// alerts, and POSTs carrying the CSRF value.
"use strict";

const CSRF = document.querySelector('meta[name="csrf-token"]').content;

function esc(s) {
  return String(s).replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
}

async function post(path, body) {
  const res = await fetch(path, {
    method: "POST",
    headers: {"Content-Type": "application/json", "X-CSRF-Token": CSRF},
    body: JSON.stringify(body || {}),
    credentials: "same-origin",
  });
  let data = {};
  try { data = await res.json(); } catch (e) { data = {error: res.statusText}; }
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

function setBadge(id, text, cls) {
  const el = document.getElementById(id);
  if (!el) return;
  el.textContent = text;
  el.className = "badge " + (cls || "");
}

// The live connection. EventSource reconnects by itself on most failures, but not after the server answered
// with an error or the browser gave up; this wrapper always comes back, with a growing pause, and re-reads
// the whole state on reconnection (every state message is a full snapshot, so nothing is lost meanwhile).
function connectLive(handlers) {
  let delay = 1000;
  let source = null;
  function open() {
    setBadge("conn-badge", "connecting…", "warn");
    source = new EventSource("/api/events");
    source.onopen = () => { delay = 1000; setBadge("conn-badge", "live", "ok"); };
    source.addEventListener("state", ev => handlers.state && handlers.state(JSON.parse(ev.data)));
    source.addEventListener("camera", ev => handlers.camera && handlers.camera(JSON.parse(ev.data)));
    source.onerror = () => {
      setBadge("conn-badge", "reconnecting…", "bad");
      if (source.readyState === EventSource.CLOSED) {
        setTimeout(open, delay);
        delay = Math.min(delay * 2, 8000);
      }
    };
  }
  open();
  window.addEventListener("beforeunload", () => source && source.close());
}

// The demo's two modes are labelled loudly, so a simulated game is never mistaken for a watched one.
const DEMO_DRIVERS = {
  "simulated players": "SIMULATED PLAYERS (no vision)",
  "vision (simulated table)": "DEMO: VISION READS A SIMULATED TABLE",
};

function renderDriver(state) {
  const demo = DEMO_DRIVERS[state.driver];
  setBadge("driver-badge", demo || "moves: " + state.driver, demo ? "sim" : "");
}

function renderCameraBadge(cam) {
  if (!cam) { setBadge("camera-badge", "no camera", ""); return; }
  const cls = cam.state === "live" ? "ok" : (cam.state === "lost" ? "bad" : "warn");
  const text = cam.state === "live" ? `camera live ${cam.fps.toFixed(1)} fps` : `camera ${cam.state.toUpperCase()}`;
  setBadge("camera-badge", text, cls);
}

function renderAlerts(state) {
  const box = document.getElementById("alerts");
  if (!box) return;
  let html = "";
  if (state.alert) {
    const a = state.alert;
    html += `<div class="alert" id="illegal-alert" role="alert"><span class="icon">⚠</span>
      <span>Illegal placement${a.name ? " — " + esc(a.name) : ""}: ${esc(a.reason)}
      <span class="rule">rule: ${esc(a.rule)} · fix the table (or correct the game) to clear this</span></span>
      <button type="button" class="secondary no-print" onclick="post('/api/alert/clear').catch(()=>{})">Dismiss</button></div>`;
  }
  for (const a of state.score_alerts || []) {
    html += `<div class="alert cube" role="alert"><span class="icon">◼</span><span>${esc(a.reason)}</span></div>`;
  }
  box.innerHTML = html;
}
