// The live dashboard: draws the table, scores, chart, log and camera status from each snapshot.
"use strict";

const WALL = ["blue", "yellow", "red", "black", "white"];
const PENALTY = [-1, -1, -2, -2, -2, -3, -3];
const PLAYER_COLOURS = ["#1e63c7", "#d2362c", "#0f7b6c", "#b26a00"];
let lastState = null;

function wallColour(variant, r, c) { return variant === "colored" ? WALL[((c - r) % 5 + 5) % 5] : null; }

function boardHtml(state, i) {
  const t = state.table.boards[i], b = state.boards[i];
  const current = state.phase === "offer" && state.current_player === i;
  let lines = "";
  for (let r = 0; r < 5; r++) {
    let slots = "";
    // Slot 0 is the rightmost: tiles fill from the right.
    for (let s = r; s >= 0; s--) {
      const tile = t.pattern_lines[r][s];
      slots += tile ? `<div class="slot tile t-${tile}"></div>` : `<div class="slot"></div>`;
    }
    lines += `<div class="row">${slots}</div>`;
  }
  let wall = "";
  for (let r = 0; r < 5; r++) for (let c = 0; c < 5; c++) {
    const tile = t.wall[r][c], printed = wallColour(state.variant, r, c);
    wall += tile ? `<div class="cell tile t-${tile}"></div>`
                 : `<div class="cell printed ${printed ? "t-" + printed : ""}"></div>`;
  }
  let floor = "";
  for (let k = 0; k < 7; k++) {
    const item = t.floor[k];
    floor += `<div class="fspace"><div class="fslot ${item ? "tile t-" + item : ""}"></div>${PENALTY[k]}</div>`;
  }
  const p = b.projected_bonus;
  return `<div class="board ${current ? "current" : ""}" data-player="${i}">
    <div class="head"><span class="name">${esc(b.name)}</span>${current ? '<span class="turn">to play</span>' : ""}
      ${b.holds_first_player ? '<span class="turn" style="background:#555">first player</span>' : ""}
      <span class="score" data-score="${b.score}">${b.score}</span></div>
    <div class="grid"><div class="lines">${lines}</div><div class="wall">${wall}</div></div>
    <div class="floor">${floor}</div>
    <div class="proj">bonus if the game ended now: +${p.points} (${p.rows} rows, ${p.columns} columns, ${p.colours} colours)</div>
  </div>`;
}

function tilesHtml(counts) {
  let html = "";
  for (const colour of WALL) for (let n = 0; n < (counts[colour] || 0); n++) html += `<div class="t t-${colour}"></div>`;
  return html;
}

function renderTable(state) {
  const t = state.table;
  let html = "";
  t.factories.forEach((f, j) => {
    const empty = Object.keys(f).length === 0;
    html += `<div class="factory ${empty ? "empty" : ""}" title="factory display ${j + 1}"><span class="idx">${j + 1}</span>${tilesHtml(f)}</div>`;
  });
  html += `<div class="centre"><span class="label">centre</span>${t.first_player ? '<div class="t t-first_player"></div>' : ""}${tilesHtml(t.center)}</div>`;
  document.getElementById("table").innerHTML = html;
  document.getElementById("boards").innerHTML = state.boards.map((_, i) => boardHtml(state, i)).join("");
  const phase = {deal: "dealing", offer: "factory offer", wall_tiling: "wall tiling", over: "game over"}[state.phase];
  const who = state.phase === "offer" ? ` — ${esc(state.names[state.current_player])} to play` : "";
  document.getElementById("round-title").innerHTML = `Round ${state.round} · ${phase}${who} · ${esc(state.variant)} wall`;
}

function renderScores(state) {
  let html = "<tr><th>Player</th><th>Score</th><th>Bonus</th><th>Projected</th></tr>";
  state.boards.forEach((b, i) => {
    const cur = state.phase === "offer" && state.current_player === i;
    html += `<tr class="${cur ? "current" : ""}"><td><span style="color:${PLAYER_COLOURS[i]}">●</span> ${esc(b.name)}</td>
      <td>${b.score}</td><td>+${b.projected_bonus.points}</td><td>${b.score + b.projected_bonus.points}</td></tr>`;
  });
  document.getElementById("scores").innerHTML = html;
  const tiling = state.last_tiling;
  const box = document.getElementById("tiling");
  if (!tiling) { box.innerHTML = '<span class="muted">No wall tiling yet.</span>'; }
  else {
    box.innerHTML = `<div class="muted">Round ${tiling.round}</div>` + tiling.reports.map(r => {
      const placed = r.placements.map(p => p.column === null
        ? `${p.colour} (row ${p.row + 1}) had no space: to the floor`
        : `${p.colour} → row ${p.row + 1}, column ${p.column + 1}: <b>+${p.points}</b>`).join("; ") || "no tile placed";
      return `<div><b>${esc(r.name)}</b>: ${placed}; floor ${r.floor_items} item(s) <b>−${r.floor_penalty}</b>
        → ${r.score_before} + ${r.wall_points} − ${r.floor_penalty} = <b>${r.score_after}</b></div>`;
    }).join("");
  }
  renderChart(state);
}

function renderChart(state) {
  const hist = state.score_history, svg = document.getElementById("chart");
  const W = 320, H = 170, pad = 24;
  const maxScore = Math.max(10, ...hist.flat());
  const rounds = Math.max(hist.length - 1, 1);
  const x = k => pad + (W - pad - 8) * k / rounds, y = v => H - pad - (H - pad - 18) * v / maxScore;
  let html = `<line x1="${pad}" y1="8" x2="${pad}" y2="${H - pad}" stroke="#bbb"/>
    <line x1="${pad}" y1="${H - pad}" x2="${W - 4}" y2="${H - pad}" stroke="#bbb"/>
    <text x="2" y="22" font-size="10" fill="#777">${maxScore}</text><text x="${W - 60}" y="${H - 6}" font-size="10" fill="#777">round ${rounds}</text>`;
  const placed = [];
  state.boards.forEach((b, i) => {
    const pts = hist.map((row, k) => `${x(k).toFixed(1)},${y(row[i]).toFixed(1)}`).join(" ");
    html += `<polyline fill="none" stroke="${PLAYER_COLOURS[i]}" stroke-width="2.5" points="${pts}"/>`;
    // Names at the line ends, nudged apart when scores are close so none hides another.
    let ly = y(hist[hist.length - 1][i]) - 4;
    while (placed.some(p => Math.abs(p - ly) < 10)) ly -= 10;
    placed.push(ly);
    html += `<text x="${W - 6}" y="${Math.max(10, ly).toFixed(1)}" font-size="10" fill="${PLAYER_COLOURS[i]}" text-anchor="end">${esc(b.name)}</text>`;
  });
  svg.innerHTML = html;
}

function renderLog(state) {
  document.getElementById("log").innerHTML = state.moves.slice().reverse().slice(0, 30)
    .map(m => `<li class="${m.type}" value="${m.index + 1}">${esc(m.text)}</li>`).join("");
  document.getElementById("undo-btn").disabled = state.undoable === 0;
}

function renderFinal(state) {
  const box = document.getElementById("final");
  if (!state.final) { box.hidden = true; return; }
  const winners = state.final.winners.map(i => esc(state.names[i])).join(" and ");
  box.hidden = false;
  box.innerHTML = `<h2>Game over</h2><div class="winner">Winner: ${winners}</div>
    <table class="scores"><tr><th>Player</th><th>Before</th><th>Bonus</th><th>Final</th></tr>
    ${state.final.scores.map(f => `<tr><td>${esc(f.name)}<div class="muted">${f.rows} rows · ${f.columns} columns · ${f.colours} colours</div></td><td>${f.before_bonus}</td><td>+${f.bonus}</td><td><b>${f.score}</b></td></tr>`).join("")}
    </table><div class="row-buttons"><a href="/scoresheet">Printable score sheet</a></div>`;
}

function renderState(state) {
  lastState = state;
  document.body.dataset.version = state.version;
  document.body.dataset.events = state.event_count;
  renderDriver(state);
  renderAlerts(state);
  renderTable(state);
  renderScores(state);
  renderLog(state);
  renderFinal(state);
}

function renderCamera(cam) {
  renderCameraBadge(cam);
  const box = document.getElementById("camera");
  box.classList.toggle("is-lost", cam.state === "lost" || cam.state === "connecting");
  // A camera that has not sent its first frame yet is starting, not lost.
  box.querySelector(".lost").innerHTML = cam.state === "connecting" && !cam.frames ?
    "Camera starting…" : "Camera lost — reconnecting…<br>The game is safe.";
  document.body.dataset.camera = cam.state;
  document.getElementById("camera-text").textContent =
    `${cam.source} · ${cam.state}${cam.state === "live" ? ` · ${cam.fps.toFixed(1)} fps` : ""} · recognition: ${cam.recognition}` +
    (cam.losses ? ` · lost ${cam.losses}×` : "") + (cam.message ? ` · ${cam.message}` : "");
  // The vision demo learns the table from its first frames: say so rather than show a table that never moves.
  const setup = document.getElementById("setting-up");
  const settingUp = cam.recognition.startsWith("setting up");
  setup.textContent = settingUp ? "Setting up" + cam.recognition.slice("setting up".length) : "";
  setup.hidden = !settingUp;
  // What a lamp's reflection hides from the camera: only the players can fix it.
  const lamp = document.getElementById("lamp-text");
  lamp.textContent = cam.lamp || "";
  lamp.hidden = !lamp.textContent;
  // What the move tracker is waiting for: a game that does not advance says why.
  const tracker = document.getElementById("tracker-text");
  tracker.textContent = cam.waiting ? `Tracker: ${cam.waiting}` :
    (cam.committed ? `Tracker: last committed ${cam.committed}` : "");
  tracker.hidden = !tracker.textContent;
  // The MJPEG stream ends when the camera goes away; restart it when frames come back.
  const img = document.getElementById("camera-img");
  if (cam.state === "live" && img.dataset.state !== "live") img.src = "/camera.mjpg?t=" + Date.now();
  img.dataset.state = cam.state;
}

document.getElementById("undo-btn").addEventListener("click", async () => {
  const msg = document.getElementById("log-msg");
  try { await post("/api/undo", {count: 1}); msg.textContent = "Undone."; msg.className = "msg"; }
  catch (e) { msg.textContent = e.message; msg.className = "msg err"; }
});

connectLive({state: renderState, camera: renderCamera});
