// A player's seat (issue 23): records through the seat API, never judges a rule itself. The
// server describes the legal next steps that are the seat's to record (ktlog.play.questions'
// moves, as the terminal UI and `ktlog event --types` ask them): this page draws each move's
// questions as a form (choices as buttons, dice on a 1-6 pad, numbers, text) and sends the
// answers; the server makes the line and refuses what the rules refuse, with the rule and page.
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
  let pending = []; // rows the stream brought after the view's seq, shown until the view catches up
  let form = null; // the move being asked: {move, at, answers, so, typed}
  let fixing = null;

  const ABOUT_EVENTS = ["EventDisputed", "DisputeResolved", "EventCorrected", "EventVoided", "Annotation"]; // no correction of these
  const CHOOSE = ["player", "operative", "target", "operatives", "option"];
  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  const button = (text, action, cls) => {
    const b = el("button", text, cls || "small");
    b.addEventListener("click", action);
    return b;
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

  const show = (data) => {
    if (view && data.seq < view.seq) return; // an answer overtaken by a later one
    view = data;
    pending = pending.filter((row) => row.seq > view.seq);
    render();
  };

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
        show(data);
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
  // The answer carries the seat's view after it (no second request).
  let sending = null; // the write under way (to its view drawn): a stream message meanwhile waits for it
  async function send(body) {
    if (!view) return;
    body.expected_seq = body.expected_seq || view.seq + 1;
    body.view = true;
    if (!online) {
      waiting = body;
      net(false);
      return;
    }
    sending = write(body);
    await sending;
    sending = null;
  }
  async function write(body) {
    try {
      const { status, data } = await api("/events", body);
      if (status === 201) {
        problem("");
        return show(data.view);
      }
      if (status === 409) problem("Not recorded: the game moved on (seq " + data.seq + "). " + data.error);
      else problem(data.error);
      await load();
    } catch (err) {
      waiting = body;
      net(false);
    }
  }

  function render() {
    if (!performance.getEntriesByName("ktlog-seat-drawn").length) performance.mark("ktlog-seat-drawn"); // the page's first view, for benchmarks/seat_bench.py
    const me = view.player;
    document.body.dataset.seq = view.seq;
    $("who").textContent = me + "'s seat";
    const state = view.state;
    const score = $("score");
    score.replaceChildren();
    for (const p of state.players) {
      const line = el("p", `${p.name}: ${p.vp.total} VP, ${p.cp} CP`, p.name === me ? "me" : "");
      if (p.secrets)
        for (const [k, s] of Object.entries(p.secrets)) line.append(el("span", ` · ${k.replace(/_/g, " ")} ${s.choice === null ? "none" : s.choice}`, "secret"));
      score.append(line);
    }
    const disputes = state.open_disputes || [];
    $("provisional").hidden = !disputes.length;
    $("provisional").textContent = disputes.length ? "Provisional: " + disputes.map((d) => `seq ${d.target} disputed by ${d.by}: ${d.reason}`).join("; ") : "";
    $("next").textContent = view.next || "The game is over.";
    const moves = $("moves");
    const more = $("more-moves");
    moves.replaceChildren();
    more.replaceChildren();
    for (const move of view.moves) {
      const b = button(move.label, () => start(move), "move");
      b.dataset.kind = move.kind;
      (move.more ? more : moves).append(b);
    }
    $("more").hidden = !more.children.length;
    $("undo").disabled = view.undoable === null;
    $("signers").textContent = view.signers.length ? "Signed at seq " + view.seq + " by " + view.signers.join(", ") : "";
    renderLog(disputes);
  }

  function renderLog(disputes) {
    const me = view.player;
    const log = $("log");
    log.replaceChildren();
    for (const row of pending.slice().reverse()) log.append(logItem(row, "pending"));
    for (const row of view.log.slice().reverse()) {
      const li = logItem(row, row.undone_by ? "undone" : "");
      if (row.by === me && !row.undone_by && !ABOUT_EVENTS.includes(row.type)) li.append(button("Correct", () => fix("correct", row)));
      if (row.by !== me && row.seq > 1 && !row.undone_by) li.append(button("Dispute", () => fix("dispute", row)));
      for (const d of disputes)
        if (d.seq === row.seq && d.by === me) {
          if (d.corrected) li.append(button("Accept", () => send({ line: `DisputeResolved dispute=${d.seq} outcome=accepted` })));
          li.append(button("Withdraw", () => send({ line: `DisputeResolved dispute=${d.seq} outcome=withdrawn` })));
        }
      log.append(li);
    }
  }

  function logItem(row, cls) {
    const li = el("li", `${row.seq} ${row.text}`, cls);
    li.value = row.seq;
    li.append(el("small", " · " + (row.by || "…")));
    return li;
  }

  // --- a move's questions, one at a time -------------------------------------------------------

  const legal = (q, so) => (q.choices || []).filter((c) => Object.entries(c.when || {}).every(([f, values]) => values.includes(so[f])));
  const diceFor = (q, so) => (q.dice || []).filter((g) => Object.entries(g.when || {}).every(([f, v]) => so[f] === v));

  function start(move) {
    form = { move, at: 0, answers: Object.entries(move.fixed || {}), so: { ...(move.fixed || {}) }, picked: [], dice: [], group: 0, typed: "" };
    if (!move.questions || !move.questions.length) {
      if (!move.more) return finish();
      return ask(`${move.label}?`, "", () => finish()); // a rare step (concede ...) is confirmed first
    }
    next();
  }

  function next() {
    const questions = form.move.questions;
    while (form.at < questions.length) {
      const q = questions[form.at];
      const choices = legal(q, form.so);
      if (CHOOSE.includes(q.kind) && !choices.length && !q.other) {
        form.at += 1; // ruled out by the earlier answers: it does not apply
        continue;
      }
      if (CHOOSE.includes(q.kind) && choices.length === 1 && !q.optional && !q.other && !q.many) {
        answer(choices[0].value, false);
        continue;
      }
      return draw(q, choices);
    }
    finish();
  }

  function answer(value, go = true) {
    const q = form.move.questions[form.at];
    if (value !== null && value !== "") {
      form.answers.push([q.field, value]);
      if (!(q.field in form.so)) form.so[q.field] = value;
    }
    form.at += 1;
    form.picked = [];
    form.dice = [];
    form.group = 0;
    form.typed = "";
    if (go) next();
  }

  function finish() {
    const { move, answers } = form;
    close();
    send({ event: move.event, answers });
  }

  function close() {
    form = null;
    $("form").hidden = true;
  }

  // The form's parts: the title, the choices, the pad or the text box, OK / None / Cancel.
  function ask(title, hint, ok) {
    $("form").hidden = false;
    $("form-what").textContent = title;
    $("form-hint").textContent = hint || "";
    $("form-hint").hidden = !hint;
    $("form-choices").replaceChildren();
    $("pad").hidden = true;
    $("typed").hidden = true;
    $("form-text").hidden = true;
    $("form-sign").hidden = true;
    $("form-none").hidden = true;
    $("form-ok").hidden = !ok;
    $("form-ok").onclick = ok;
    $("form").scrollIntoView({ block: "end" });
  }

  function draw(q, choices) {
    const move = form.move;
    const title = q.label[0] === q.label[0].toLowerCase() ? `${move.label}: ${q.label}` : q.label;
    if (q.kind === "dice") return drawDice(q, title);
    const typedOk = () => {
      const text = $("form-text").value.trim();
      if (text || q.optional) answer(text || null);
    };
    if (CHOOSE.includes(q.kind) && (choices.length || !q.other)) {
      ask(title, q.hint, q.many ? () => answer(form.picked.join(",") || null) : q.other ? typedOk : null);
      for (const c of choices) {
        const b = button(c.label, () => {
          if (!q.many) return answer(c.value);
          form.picked = form.picked.includes(c.value) ? form.picked.filter((v) => v !== c.value) : [...form.picked, c.value];
          b.classList.toggle("picked");
        }, "choice" + (c.value === q.default ? " default" : ""));
        b.dataset.value = c.value;
        $("form-choices").append(b);
      }
    } else ask(title, q.hint || q.shape, typedOk);
    if (q.other || !CHOOSE.includes(q.kind)) {
      const input = $("form-text");
      input.hidden = false;
      input.value = q.default || "";
      input.placeholder = q.kind === "number" ? "a number" : q.other ? "or type another" : "";
      input.inputMode = q.kind === "number" ? "numeric" : "text";
      $("form-sign").hidden = q.kind !== "number";
      if (q.kind !== "number" && !q.other) input.focus();
    }
    $("form-none").hidden = !q.optional;
  }

  // Dice on the pad: each group the earlier answers call for (a shot's attack dice for its
  // weapon, each player's roll of a roll-off), joined as the question's shape takes them.
  function drawDice(q, title) {
    const groups = diceFor(q, form.so);
    const group = groups[form.group];
    const size = group ? (group.count != null ? `${group.count} dice` : group.most != null ? `up to ${group.most} dice` : "") : "";
    ask(group && groups.length > 1 ? `${title}: ${group.label}` : title, size || q.hint, () => {
      const digits = form.typed;
      if (group && group.count != null && digits.length !== group.count) return problem(`${group.label}: ${group.count} dice, ${digits.length} typed`);
      if (group && group.most != null && digits.length > group.most) return problem(`${group.label}: at most ${group.most} dice`);
      problem("");
      form.dice.push(groups.length > 1 ? `${group.label}:${digits}` : digits);
      form.typed = "";
      form.group += 1;
      if (form.group < groups.length) return drawDice(q, title);
      answer(form.dice.join(",") || null);
    });
    $("pad").hidden = false;
    $("typed").hidden = false;
    $("typed").textContent = form.typed || "–";
    $("form-none").hidden = !q.optional;
  }

  function tap(die) {
    if (!form) return;
    if (die === "back") form.typed = form.typed.slice(0, -1);
    else form.typed += die;
    $("typed").textContent = form.typed || "–";
  }

  // A line of text: a correction (the old event's fields filled in), a dispute's reason, a note,
  // or any event typed as `ktlog event --file` takes it.
  function fix(kind, row) {
    fixing = { kind, row };
    $("fix").hidden = false;
    const what = { correct: `Correct seq ${row && row.seq}`, dispute: `Why is seq ${row && row.seq} wrong?`, note: `Note on seq ${row && row.seq}`, line: "An event: TYPE FIELD=VALUE ..." };
    $("fix-what").textContent = what[kind];
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
    else if (kind === "line") send({ line: text });
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

  // The game's event stream: a new event's row (as a spectator words it) is shown at once, and
  // the seat's view (its moves, its own secrets) asked for after it; a stream the browser gave up
  // on (offline) is opened again, and the tap waiting meanwhile is sent first.
  let stream = null;
  function follow() {
    if (!view) return setTimeout(follow, 200);
    if (stream) stream.close();
    stream = new EventSource(`/api/games/${game}/events?after=${view.seq}`);
    stream.onopen = () => {
      net(true);
      if (!waiting) return;
      const body = waiting;
      waiting = null;
      send(body);
    };
    stream.onmessage = (e) => {
      if (!view || Number(e.lastEventId) <= view.seq) return; // the view already holds it (a tap's own answer)
      const message = JSON.parse(e.data);
      const seq = Number(e.lastEventId);
      if (message.event && !pending.some((r) => r.seq === message.event.seq)) {
        pending.push(message.event);
        renderLog(view.state.open_disputes || []);
      }
      if (!sending) return load();
      sending.then(() => seq > view.seq && load()); // the write's answer brought the view, most likely with this event
    };
    stream.onerror = () => {
      net(false);
      if (stream.readyState === EventSource.CLOSED) setTimeout(follow, 1000);
    };
  }

  document.querySelectorAll(".pad button").forEach((b) => b.addEventListener("click", () => tap(b.dataset.die)));
  $("form-none").addEventListener("click", () => answer(null));
  $("form-cancel").addEventListener("click", close);
  $("form-sign").addEventListener("click", () => {
    const input = $("form-text");
    input.value = input.value.startsWith("-") ? input.value.slice(1) : "-" + input.value.replace(/^\+/, "");
  });
  $("fix-send").addEventListener("click", fixSend);
  $("fix-cancel").addEventListener("click", () => { $("fix").hidden = true; fixing = null; });
  $("undo").addEventListener("click", () => send({ undo: true }));
  $("note").addEventListener("click", () => view && view.log.length && fix("note", view.log[view.log.length - 1]));
  $("type-line").addEventListener("click", () => fix("line", null));
  $("sign").addEventListener("click", sign);
  window.addEventListener("offline", () => net(false));
  window.addEventListener("online", () => follow());
  load().then(follow);
})();
