// A player's seat (issue 23): records through the seat API, never judges a rule itself (the
// server offers only the legal next steps and refuses the rest, with the rule and its page).
// Text from a game is only ever written as text (textContent), never as HTML.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const game = document.body.dataset.game;
  const KEY = "ktlog-seat-" + game;
  if (location.hash.length > 1) {
    sessionStorage.setItem(KEY, location.hash.slice(1));
    history.replaceState(null, "", location.pathname); // the token leaves the address bar
  }
  const token = sessionStorage.getItem(KEY);
  let view = null;
  let online = false;
  let waiting = null; // a tap made offline: {body}, sent with its expected_seq on reconnect
  let asking = null;
  let fixing = null;

  const ABOUT_EVENTS = ["EventDisputed", "DisputeResolved", "EventCorrected", "EventVoided", "Annotation"]; // no correction of these
  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  const problem = (text) => {
    $("problem").textContent = text || "";
    $("problem").hidden = !text;
  };
  const net = (state) => {
    online = state;
    $("net").textContent = state ? "online" : waiting ? "offline: 1 tap waiting" : "offline";
    $("net").className = "net " + (state ? "on" : "off");
  };

  async function api(path, body) {
    const options = { headers: { authorization: "Bearer " + token }, cache: "no-store" };
    if (body) {
      options.method = "POST";
      options.headers["content-type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch(`/api/games/${game}${path}`, options);
    const data = await response.json();
    return { status: response.status, data };
  }

  // One request for the seat's view at a time: events arriving meanwhile ask for one more after it.
  let loading = null;
  let again = false;
  async function load() {
    if (!token) return problem("This link has no seat token: ask the table for your link (ktlog seat GAME PLAYER).");
    if (loading) {
      again = true;
      return loading;
    }
    loading = (async () => {
      try {
        const { status, data } = await api("/seat");
        if (status !== 200) return problem(data.error);
        view = data;
        render();
      } catch (err) {
        net(false);
      }
    })();
    await loading;
    loading = null;
    if (again) {
      again = false;
      await load();
    }
  }

  // A write: sent now with the seq the page last saw, kept if the network is down, never lost.
  async function send(body) {
    if (!view) return;
    body.expected_seq = body.expected_seq || view.seq + 1;
    if (!online) {
      waiting = body;
      net(false);
      return;
    }
    try {
      const { status, data } = await api("/events", body);
      if (status === 201) problem("");
      else if (status === 409) problem("Not recorded: the game moved on (seq " + data.seq + "). " + data.error);
      else problem(data.error);
      await load();
    } catch (err) {
      waiting = body;
      net(false);
    }
  }

  function render() {
    const me = view.player;
    $("who").textContent = me + "'s seat";
    const state = view.state;
    const score = $("score");
    score.replaceChildren();
    for (const p of state.players) {
      const line = el("p", `${p.name}: ${p.vp.total} VP, ${p.cp} CP`, p.name === me ? "me" : "");
      if (p.secrets)
        for (const [k, s] of Object.entries(p.secrets)) line.append(el("span", ` · ${k} ${s.choice === null ? "none" : s.choice}`, "secret"));
      score.append(line);
    }
    const disputes = state.open_disputes || [];
    $("provisional").hidden = !disputes.length;
    $("provisional").textContent = disputes.length ? "Provisional: " + disputes.map((d) => `seq ${d.target} disputed by ${d.by}: ${d.reason}`).join("; ") : "";
    $("next").textContent = view.next || "The game is over.";
    const moves = $("moves");
    moves.replaceChildren();
    for (const move of view.moves) {
      const b = el("button", move.text, "move");
      b.dataset.kind = move.kind;
      b.addEventListener("click", () => (move.asks ? ask(move) : send({ line: move.line })));
      moves.append(b);
    }
    $("undo").disabled = view.undoable === null;
    $("signers").textContent = view.signers.length ? "Signed at seq " + view.seq + " by " + view.signers.join(", ") : "";
    const log = $("log");
    log.replaceChildren();
    for (const row of view.log.slice().reverse()) {
      const li = el("li", `${row.seq} ${row.text}`, row.undone_by ? "undone" : "");
      li.value = row.seq;
      li.append(el("small", " · " + row.by));
      if (row.by === me && !row.undone_by && !ABOUT_EVENTS.includes(row.type)) li.append(button("Correct", () => fix("correct", row)));
      if (row.by !== me && row.seq > 1 && !row.undone_by) li.append(button("Dispute", () => fix("dispute", row)));
      for (const d of disputes)
        if (d.seq === row.seq && d.by === me) {
          li.append(button("Accept", () => send({ line: `DisputeResolved dispute=${d.seq} outcome=accepted` })));
          li.append(button("Withdraw", () => send({ line: `DisputeResolved dispute=${d.seq} outcome=withdrawn` })));
        }
      log.append(li);
    }
  }

  const button = (text, action) => {
    const b = el("button", text, "small");
    b.addEventListener("click", action);
    return b;
  };

  // The dice pad: a shot's attack dice then its defence dice, a roll-off's roll per player.
  function ask(move) {
    const steps = move.asks.includes("rolls") ? move.players.map((p) => ({ name: p + "'s roll", field: p, one: true })) : move.asks.map((a) => ({ name: a, field: a, one: a === "roll" }));
    asking = { move, steps, at: 0, values: {} , typed: "" };
    showAsk();
  }
  function showAsk() {
    const step = asking.steps[asking.at];
    $("ask").hidden = false;
    $("ask-what").textContent = `${asking.move.text}: ${step.name}`;
    $("typed").textContent = asking.typed || "–";
  }
  function tap(die) {
    if (!asking) return;
    const step = asking.steps[asking.at];
    if (die === "cancel") return closeAsk();
    if (die === "back") asking.typed = asking.typed.slice(0, -1);
    else if (die === "ok") {
      asking.values[step.field] = asking.typed;
      asking.typed = "";
      asking.at += 1;
      if (asking.at === asking.steps.length) return finishAsk();
    } else if (!step.one || asking.typed.length === 0) asking.typed += die;
    showAsk();
  }
  function finishAsk() {
    const { move, values } = asking;
    let line = move.line;
    if (move.asks.includes("rolls")) line += " rolls=" + move.players.map((p) => `${p}:${values[p]}`).join(",");
    else for (const [k, v] of Object.entries(values)) line += ` ${k}=${v}`;
    closeAsk();
    send({ line });
  }
  function closeAsk() {
    asking = null;
    $("ask").hidden = true;
  }

  // A line of text: a correction (the old event's fields filled in), a dispute's reason, a note.
  function fix(kind, row) {
    fixing = { kind, row };
    $("fix").hidden = false;
    $("fix-what").textContent = kind === "correct" ? `Correct seq ${row.seq}` : kind === "dispute" ? `Why is seq ${row.seq} wrong?` : `Note on seq ${row.seq}`;
    $("fix-line").value = kind === "correct" ? row.line : "";
    $("fix-line").focus();
  }
  function fixSend() {
    const text = $("fix-line").value.trim();
    const { kind, row } = fixing;
    $("fix").hidden = true;
    fixing = null;
    if (!text) return;
    const quoted = '"' + text.replace(/["\\]/g, "") + '"';
    if (kind === "correct") send({ correct: row.seq, line: text });
    else if (kind === "dispute") send({ line: `EventDisputed target=${row.seq} reason=${quoted}` });
    else send({ line: `Annotation target=${row.seq} text=${quoted}` });
  }

  // Signing: an Ed25519 key made here (WebCrypto), its private part never leaving the browser.
  async function keyPair() {
    const db = await new Promise((ok, fail) => {
      const open = indexedDB.open("ktlog-seat", 1);
      open.onupgradeneeded = () => open.result.createObjectStore("keys");
      open.onsuccess = () => ok(open.result);
      open.onerror = () => fail(open.error);
    });
    const read = (k) => new Promise((ok) => { const r = db.transaction("keys").objectStore("keys").get(k); r.onsuccess = () => ok(r.result); });
    let pair = await read(KEY);
    if (!pair) {
      pair = await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]);
      await new Promise((ok) => { const t = db.transaction("keys", "readwrite"); t.objectStore("keys").put(pair, KEY); t.oncomplete = ok; });
    }
    return pair;
  }
  const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
  async function sign() {
    try {
      const pair = await keyPair();
      const publicKey = hex(await crypto.subtle.exportKey("raw", pair.publicKey));
      if (view.public_key !== publicKey) {
        const { status, data } = await api("/seat/key", { public_key: publicKey });
        if (status !== 200) return problem(data.error);
      }
      const head = view.head_hash;
      const message = new TextEncoder().encode(`ktlog game signature v1\n${game}\n${view.seq}\n${head}`);
      const signature = hex(await crypto.subtle.sign({ name: "Ed25519" }, pair.privateKey, message));
      const { status, data } = await api("/seat/signature", { head_seq: view.seq, signature });
      problem(status === 201 ? "" : data.error);
      await load();
    } catch (err) {
      problem("This browser cannot sign (WebCrypto Ed25519): " + err);
    }
  }

  // The game's event stream: each new event reloads the seat's view; a stream the browser gave
  // up on (offline) is opened again, and the tap waiting meanwhile is sent first.
  let stream = null;
  function follow() {
    if (!view) return setTimeout(follow, 200);
    if (stream) stream.close();
    stream = new EventSource(`/api/games/${game}/events?after=${view.seq}`);
    stream.onopen = () => {
      net(true);
      if (!waiting) return load();
      const body = waiting;
      waiting = null;
      send(body);
    };
    stream.onmessage = (e) => {
      if (!view || Number(e.lastEventId) > view.seq) load(); // the view already holds what a tap's own reload fetched
    };
    stream.onerror = () => {
      net(false);
      if (stream.readyState === EventSource.CLOSED) setTimeout(follow, 1000);
    };
  }

  document.querySelectorAll(".pad button").forEach((b) => b.addEventListener("click", () => tap(b.dataset.die)));
  $("fix-send").addEventListener("click", fixSend);
  $("fix-cancel").addEventListener("click", () => { $("fix").hidden = true; fixing = null; });
  $("undo").addEventListener("click", () => send({ undo: true }));
  $("note").addEventListener("click", () => view && view.log.length && fix("note", view.log[view.log.length - 1]));
  $("sign").addEventListener("click", sign);
  window.addEventListener("offline", () => net(false));
  window.addEventListener("online", () => follow());
  load().then(follow);
})();
