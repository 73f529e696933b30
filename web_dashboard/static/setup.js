// Setup & log page: new game, manual moves, corrections, undo, the full log.
"use strict";

let current = null;

function nameFields() {
  const n = +document.getElementById("players").value;
  const box = document.getElementById("name-fields");
  const old = [...box.querySelectorAll("input")].map(i => i.value);
  box.innerHTML = "";
  for (let i = 0; i < n; i++) {
    box.innerHTML += `<label>Player ${i + 1} <input name="name${i}" maxlength="24" value="${esc(old[i] || "")}" placeholder="Player ${i + 1}"></label>`;
  }
}

function show(id, text, bad) { const m = document.getElementById(id); m.textContent = text; m.className = "msg" + (bad ? " err" : ""); }

function moveFromForm() {
  const src = document.getElementById("m-source").value;
  const line = document.getElementById("m-line").value;
  return {
    source: src === "center" ? "center" : "factory",
    factory: src === "center" ? null : +src,
    color: document.getElementById("m-colour").value,
    line: line === "floor" ? "floor" : +line,
  };
}

function renderSetup(state) {
  current = state;
  renderDriver(state);
  renderAlerts(state);
  const sel = document.getElementById("m-source"), keep = sel.value;
  sel.innerHTML = state.table.factories.map((_, j) => `<option value="${j}">factory display ${j + 1}</option>`).join("")
    + '<option value="center">the centre</option>';
  if (keep) sel.value = keep;
  document.getElementById("full-log").innerHTML = state.moves
    .map(m => `<li class="${m.type}" value="${m.index + 1}">${esc(m.text)}</li>`).join("");
  document.getElementById("sim-panel").hidden = state.driver !== "simulated players";
}

document.getElementById("players").addEventListener("change", nameFields);
nameFields();

document.getElementById("new-game").addEventListener("submit", async ev => {
  ev.preventDefault();
  const n = +document.getElementById("players").value;
  const names = [...document.querySelectorAll("#name-fields input")].slice(0, n).map(i => i.value);
  try {
    await post("/api/game/new", {players: n, variant: document.getElementById("variant").value, names});
    show("new-msg", "New game started.");
  } catch (e) { show("new-msg", e.message, true); }
});

document.getElementById("play-btn").addEventListener("click", async () => {
  try { await post("/api/move", moveFromForm()); show("move-msg", "Move played."); }
  catch (e) { show("move-msg", e.message, true); }
});

document.getElementById("replace-btn").addEventListener("click", async () => {
  // A correction of the last move in force, for the same player; it goes into the log with the reason.
  const reason = document.getElementById("m-reason").value || "corrected by hand";
  try {
    await post("/api/correct/last-move", {move: moveFromForm(), reason});
    show("move-msg", "Last move corrected.");
  } catch (e) { show("move-msg", e.message, true); }
});

document.getElementById("undo-btn").addEventListener("click", async () => {
  try { await post("/api/undo", {count: 1}); show("move-msg", "Undone."); } catch (e) { show("move-msg", e.message, true); }
});
document.getElementById("pause-btn").addEventListener("click", () => post("/api/players", {action: "pause"}));
document.getElementById("resume-btn").addEventListener("click", () => post("/api/players", {action: "resume"}));

connectLive({state: renderSetup, camera: renderCameraBadge});
