// A player's seat (issues 23, 39): records through the seat API, never judges a rule itself. The
// server describes the legal next steps that are the seat's to record (ktlog.play.questions'
// moves, as the terminal UI and `ktlog event --types` ask them): this page asks each move's
// questions as a form and sends the answers; the server makes the event and refuses what the
// rules refuse, naming the question the rule is about. Text from a game is only ever written as
// text (textContent), never as HTML.
//
// The form: the questions that need a choice (which target, which operative) one at a time, a tap
// each; then everything else on one sheet (toggles with their defaults, dice on the pad, numbers,
// the rare details folded), one tap to record. A refused move keeps its answers and marks the
// question the rule names.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const game = document.body.dataset.game;
  const COOKIE = "ktlog_seat";
  const DAY_S = 86400;
  const where = location.pathname;

  // The seat's token: the link's fragment (never sent to a server), then a cookie of this page's
  // path only (SameSite=Strict), so the seat survives a closed tab or a restarted browser. The
  // server reads it only to draw this page with its view; every write sends it as a bearer token.
  const keepToken = (t) => {
    const secure = location.protocol === "https:" ? "; secure" : "";
    document.cookie = `${COOKIE}=${t}; path=${where}; max-age=${t ? 30 * DAY_S : 0}; samesite=strict${secure}`;
  };
  const keptToken = () => {
    const found = document.cookie.split("; ").find((c) => c.startsWith(COOKIE + "="));
    return found ? found.slice(COOKIE.length + 1) || null : null;
  };
  const fromLink = () => {
    if (location.hash.length < 2) return false;
    keepToken(location.hash.slice(1));
    history.replaceState(null, "", where); // the token leaves the address bar
    return true;
  };
  fromLink();
  window.addEventListener("hashchange", () => fromLink() && location.reload()); // a new link opened on this page: its seat
  let token = keptToken();

  let view = null;
  let online = false;
  let waiting = null; // a tap made offline: {body}, sent with its expected_seq on reconnect
  let pending = []; // rows the stream brought after the view's seq, shown until the view catches up
  let form = null; // the move being asked (see start)
  let fixing = null; // a line being typed: {kind, row}

  const ABOUT_EVENTS = ["EventDisputed", "DisputeResolved", "EventCorrected", "EventVoided", "Annotation"]; // no correction of these
  const CHOOSE = ["player", "operative", "target", "operatives", "option"];
  const POSITION = ["x", "y", "z"]; // where a set-up or a move ends (a game with a layout)
  const FIRST = ["fight", "charge", "dash", "reposition", "end_activation", "shoot"]; // the common moves, first (above the fold); a shot's targets a row each
  const BY_CHOICE = ["operative", "player"]; // a move that starts with one of these is a button for each choice (Shoot: each target)
  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  const button = (text, action, cls) => {
    const b = el("button", text, cls || "small");
    b.type = "button";
    b.addEventListener("click", action);
    return b;
  };
  const upper = (text) => text.charAt(0).toUpperCase() + text.slice(1);
  const problem = (text) => {
    $("problem").textContent = text || "";
    $("problem").hidden = !text;
    if (text) $("problem").scrollIntoView({ block: "nearest" });
  };
  const net = (state) => {
    online = state;
    $("net").textContent = state ? "online" : waiting ? "offline: 1 tap waiting" : "offline";
    $("net").className = "net " + (state ? "on" : "off");
  };
  const operative = (id) => view && view.state.operatives.find((o) => o.id === id);

  async function api(path, body) {
    const options = { headers: { authorization: "Bearer " + token }, cache: "no-store" };
    if (body) {
      options.method = "POST";
      options.headers["content-type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch(`/api/games/${game}${path}`, options);
    const data = await response.json();
    if (response.status === 401) {
      keepToken(""); // a link that was ended (a new one made, or revoked) is forgotten here too
      token = null;
      data.error = "This seat's link was ended (a new link was made for it, or it was revoked): ask the table for your new link.";
    }
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
    if (!token) return problem("This page has no seat: open your seat's link (the table prints it: ktlog seat GAME PLAYER).");
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
    if (!view || sending) return false; // a second tap while the first is on its way is not a second event
    body.expected_seq = body.expected_seq || view.seq + 1;
    body.view = true;
    if (!online) {
      waiting = body;
      net(false);
      return true;
    }
    sending = write(body);
    document.body.dataset.busy = "sending"; // a tap made meanwhile is not a second event
    const done = await sending;
    sending = null;
    delete document.body.dataset.busy;
    return done;
  }
  async function write(body) {
    try {
      const { status, data } = await api("/events", body);
      if (status === 201) {
        problem("");
        show(data.view);
        return true;
      }
      if (status === 422 && form && body.answers) return refused(data); // the form stays, its answers kept
      if (form && body.answers) close();
      if (status === 409) problem("Not recorded: the game moved on (seq " + data.seq + "). " + (data.sentence || data.error));
      else problem(data.sentence || data.error);
      if (token) await load(); // (an ended link: nothing more to ask)
      return false;
    } catch (err) {
      waiting = body;
      net(false);
      return true;
    }
  }

  // --- the game as the seat sees it -----------------------------------------------------------

  function render() {
    if (!performance.getEntriesByName("ktlog-seat-drawn").length) performance.mark("ktlog-seat-drawn"); // the page's first view, for benchmarks/seat_*.py
    const me = view.player;
    const state = view.state;
    document.body.dataset.seq = view.seq;
    $("who").textContent = me + "'s seat";
    const score = $("score");
    score.replaceChildren();
    for (const p of state.players) {
      const line = el("p", `${p.name}: ${p.vp.total} VP, ${p.cp} CP`, p.name === me ? "me" : "");
      if (p.secrets)
        for (const [k, s] of Object.entries(p.secrets)) line.append(el("span", ` · ${k.replace(/_/g, " ")}: ${s.choice === null ? "none" : s.choice}`, "secret"));
      score.append(line);
    }
    if (state.turning_point) score.append(el("p", `Turning point ${state.turning_point}`, "tp"));
    const disputes = state.open_disputes || [];
    $("provisional").hidden = !disputes.length;
    $("provisional").textContent = disputes.length ? "Provisional: " + disputes.map((d) => `seq ${d.target} disputed by ${d.by}: ${d.reason}`).join("; ") : "";
    renderEnd(disputes);
    $("next").textContent = view.result ? "" : view.next ? "Next: " + view.next : "";
    renderActive();
    renderMoves();
    $("undo").disabled = view.undoable === null;
    renderLog(disputes);
  }

  function renderEnd(disputes) {
    const over = view.result !== null;
    $("end").hidden = !over;
    if (!over) return;
    const signers = view.signers;
    $("result").textContent = upper(view.result);
    const vp = $("end-vp");
    vp.replaceChildren();
    for (const p of view.state.players) {
      const ops = Object.entries(p.vp).filter(([op]) => op !== "total").map(([op, n]) => `${op} ${n}`);
      vp.append(el("li", `${p.name}: ${p.vp.total} VP` + (ops.length ? ` (${ops.join(", ")})` : "")));
    }
    $("end-disputes").textContent = disputes.length ? `${disputes.length} open dispute${disputes.length > 1 ? "s" : ""}: the result is provisional and cannot be signed yet` : "No open dispute.";
    const unsigned = view.state.players.map((p) => p.name).filter((n) => !signers.includes(n));
    $("end-signed").textContent = (signers.length ? `Signed by ${signers.join(", ")}` : "Not signed yet") + (signers.length && unsigned.length ? `; waiting for ${unsigned.join(", ")}` : unsigned.length ? "" : ": final");
    $("sign").hidden = signers.includes(view.player) || disputes.length > 0;
  }

  function renderActive() {
    const active = operative(view.state.active_operative);
    $("active").hidden = !active;
    $("active").replaceChildren();
    if (!active) return;
    $("active").append(el("span", `Active: ${active.id} · ${active.name} · ${Math.max(active.wounds, 0)}/${active.max_wounds} W · ${active.order}`), button("Card", () => card(active.id)));
  }

  function renderMoves() {
    const moves = $("moves");
    const more = $("more-moves");
    moves.replaceChildren();
    more.replaceChildren();
    const rank = (m) => (FIRST.includes(m.kind) ? FIRST.indexOf(m.kind) : FIRST.length);
    const common = view.moves.filter((m) => !m.more).map((m, i) => [rank(m), i, m]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2]);
    for (const move of common) moves.append(...moveButtons(move));
    for (const move of view.moves.filter((m) => m.more)) more.append(moveButton(move));
  }

  // A move that starts by choosing one of the player's operatives (activate, set up ...), a player
  // (who has initiative) or a shot's target is a button for each: the first tap is the choice.
  function moveButtons(move) {
    const first = (move.questions || [])[0];
    const byChoice = first && (BY_CHOICE.includes(first.kind) || (first.kind === "target" && move.kind === "shoot"));
    if (!byChoice || first.optional || first.choices.some((c) => Object.keys(c.when || {}).length)) return [moveButton(move)];
    return first.choices.map((c) => {
      const covered = first.kind === "target" && view.cover[c.value] ? " · in cover when last shot" : "";
      const b = moveButton(move, [[first.field, c.value]], `${move.title || move.label}: ${c.label}${covered}`);
      b.dataset.value = c.value;
      return b;
    });
  }

  function moveButton(move, answers, label) {
    const b = button(label || move.title || move.label, () => start(move, answers), "move");
    b.dataset.kind = move.kind;
    return b;
  }

  function renderLog(disputes) {
    const me = view.player;
    const log = $("log");
    log.replaceChildren();
    for (const row of pending.slice().reverse()) log.append(logItem(row, "pending"));
    for (const row of view.log.slice().reverse()) {
      const li = logItem(row, row.undone_by ? "undone" : "");
      if (row.by === me && !row.undone_by && !ABOUT_EVENTS.includes(row.type)) li.append(button("Correct", () => correct(row)));
      const disputed = disputes.some((d) => d.target === row.seq); // one open dispute an event
      if (row.by !== me && row.seq > 1 && !row.undone_by && !disputed && row.type !== "EventDisputed") li.append(button("Dispute", () => fix("dispute", row)));
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
    li.append(el("small", " · " + (row.by ? (row.by === "table" ? "the table" : row.by) : "…")));
    return li;
  }

  // --- a datacard, one tap away ---------------------------------------------------------------

  function card(id) {
    const op = operative(id);
    const dc = op && view.datacards[op.name];
    if (!dc) return;
    $("card-name").textContent = `${op.id}: ${dc.name} (${op.player})`;
    const body = $("card-body");
    body.replaceChildren();
    body.append(el("p", `APL ${dc.apl} · Move ${dc.move}" · Save ${dc.save}+ · Wounds ${Math.max(op.wounds, 0)}/${dc.wounds}` + (dc.invulnerable_save ? ` · Invulnerable ${dc.invulnerable_save}+` : ""), "stats"));
    body.append(el("p", `${upper(op.order)} order, ${op.status}` + (op.injured ? ", injured" : ""), "hint"));
    const table = el("table", undefined, "weapons");
    const head = el("tr");
    for (const h of ["Weapon", "ATK", "HIT", "DMG"]) head.append(el("th", h));
    table.append(head);
    for (const w of dc.weapons || []) {
      const row = el("tr");
      row.append(el("td", w.name + ((w.rules || []).length ? " · " + w.rules.join(", ") : "")), el("td", String(w.atk)), el("td", w.hit + "+"), el("td", `${w.normal_dmg}/${w.crit_dmg}`));
      table.append(row);
    }
    body.append(table);
    for (const rule of dc.rules || []) body.append(el("p", rule, "rule"));
    for (const action of dc.unique_actions || []) body.append(el("p", `${action.name} (${action.ap} AP)`, "rule"));
    $("card").hidden = false;
    $("card").scrollTop = 0;
  }

  // --- a move's questions ---------------------------------------------------------------------

  // An earlier answer is a value, or holds it among several (a multi-select: A,B), as rules/questions.py's _holds.
  const holds = (answer, value) => answer === value || (typeof answer === "string" && answer.includes(",") && answer.split(",").includes(value));
  const legal = (q, so) => (q.choices || []).filter((c) => Object.entries(c.when || {}).every(([f, values]) => values.some((v) => holds(so[f], v))));
  const diceFor = (q, so) => (q.dice || []).filter((g) => Object.entries(g.when || {}).every(([f, v]) => holds(so[f], v)));
  const weaponKey = (so) => `ktlog-weapon-${game}-${so.operative}`;

  // form: {move, answers: {field: value, or the digits of each dice group}, at: the dice being
  // typed [field, group], correcting: a seq, marked: the question a refusal named, why: its sentence}
  function start(move, answers, correcting) {
    if (sending) return;
    const questions = move.questions || [];
    form = { move, answers: {}, at: null, correcting: correcting || null, marked: null, why: "", confirm: !!move.more && !questions.length, board: null, kept: [] };
    for (const [field, value] of answers || []) {
      const i = questions.findIndex((q, n) => q.field === field && !(n in form.answers)); // a field asked twice (two NPOs) answers each in turn
      if (i < 0 && POSITION.includes(field)) form.kept.push([field, value]); // a corrected move keeps where it ended
      if (i < 0) continue; // a fixed field
      form.answers[i] = questions[i].kind === "dice" ? value.split(",").map((part) => part.split(":").pop()) : value;
    }
    if (!questions.length && !form.confirm && !onBoard()) return record();
    draw(false);
  }

  // Which questions apply with the answers given (each choice legal only with the earlier answers
  // it was legal with), their defaults filled in, and the first choice still to make.
  function plan() {
    const so = { ...(form.move.fixed || {}) };
    const items = [];
    let next = null;
    for (const [i, q] of (form.move.questions || []).entries()) {
      const choices = legal(q, so);
      const groups = q.kind === "dice" ? diceFor(q, so) : [];
      if ((CHOOSE.includes(q.kind) && !choices.length && !q.other) || (q.kind === "dice" && !groups.length)) {
        delete form.answers[i]; // ruled out by the earlier answers: it does not apply
        continue;
      }
      let value = form.answers[i];
      if (CHOOSE.includes(q.kind) && value !== undefined && value !== null && !q.many && !q.other && !choices.some((c) => c.value === value)) value = undefined;
      const preset = CHOOSE.includes(q.kind) ? defaultFor(q, choices, so) : null;
      if (value === undefined && preset !== null) value = preset;
      if (value === undefined && CHOOSE.includes(q.kind) && choices.length === 1 && !q.optional && !q.other && !q.many) value = choices[0].value;
      if (value === undefined) delete form.answers[i];
      else form.answers[i] = value;
      const step = CHOOSE.includes(q.kind) && q.shape !== "BOOL" && !q.optional && preset === null && (choices.length > 1 || q.other || q.many);
      items.push({ i, q, choices, groups, step });
      if (step && value === undefined) {
        next = items[items.length - 1];
        break; // the questions after it may depend on it
      }
      if (q.kind !== "dice" && value !== undefined && value !== null && !(q.field in so)) so[q.field] = value;
    }
    return { items, next, so };
  }

  function defaultFor(q, choices, so) {
    const has = (v) => v !== null && v !== undefined && choices.some((c) => c.value === v);
    if (q.field === "weapon" && has(localStorage.getItem(weaponKey(so)))) return localStorage.getItem(weaponKey(so)); // remembered per operative
    if (q.field === "cover" && view.cover && so.target in view.cover) return view.cover[so.target] ? "true" : "false"; // as when it was last shot
    if (q.field === "target_weapon" && choices.length) return choices[0].value; // the target's first melee weapon: another is one tap
    return has(q.default) ? q.default : null;
  }

  function draw(scroll = true) {
    const { items, next } = plan();
    const sheet = items.filter((i) => !i.step);
    if (!next && !sheet.length && !form.marked && !form.correcting && !form.confirm && !onBoard()) return record(); // the last choice made: nothing else to ask
    $("form").hidden = false;
    $("form-what").textContent = form.correcting ? `Correct seq ${form.correcting}: ${form.move.label}` : form.move.label;
    $("form-problem").textContent = form.why;
    const answered = $("form-answered");
    answered.replaceChildren();
    for (const { i, q, choices } of items.filter((x) => x.step && x !== next)) {
      const chosen = choices.find((c) => c.value === form.answers[i]);
      const chip = button(`${upper(q.label)}: ${chosen ? chosen.label : form.answers[i]}`, () => {
        delete form.answers[i];
        if (form.marked === q.field) form.marked = null;
        draw();
      }, "chip" + (form.marked === q.field ? " marked" : ""));
      chip.dataset.field = q.field;
      answered.append(chip);
    }
    const body = $("form-body");
    body.replaceChildren();
    $("pad").hidden = true;
    form.taking = null;
    $("form-ok").hidden = !!next && !next.q.other && !next.q.many;
    $("form-ok").textContent = form.correcting ? "Correct it" : "Record";
    if (next) body.append(askChoice(next));
    else if (form.confirm) body.append(el("p", `${form.move.label}: are you sure? It is recorded at once, for both players.`, "what"));
    else drawSheet(sheet, body);
    if (!next && onBoard()) showBoard(body);
    else if (!next && form.kept.length) body.append(el("p", `Where it ended is kept (${form.kept.map(([f, v]) => f + "=" + v).join(" ")}): to change it, undo the move and tap it again`, "hint"));
    if (form.confirm) $("form-ok").textContent = `Yes: ${form.move.label}`;
    const said = form.marked && body.querySelector(`[data-field='${form.marked}'] .why`); // said where the question is asked, else at the top
    $("form-problem").hidden = !form.why || !!said;
    if (scroll) $("form").scrollTop = 0;
  }

  function title(q) {
    return q.label[0] === q.label[0].toLowerCase() ? upper(q.label) : q.label;
  }

  // One choice to make: a button each (an operative's datacard beside it), a tap answers it.
  function askChoice({ i, q, choices }) {
    const part = el("div", undefined, "step");
    part.dataset.field = q.field;
    part.dataset.question = i;
    part.append(el("p", title(q), "what"));
    if (q.hint) part.append(el("p", q.hint, "hint"));
    const list = el("div", undefined, "choices");
    const picked = new Set();
    for (const c of choices) {
      const row = el("div", undefined, "choice-row");
      const label = q.field === "target" && view.cover[c.value] ? c.label + " · in cover when last shot" : c.label;
      const b = button(label, () => {
        if (!q.many) return choose(i, q, c.value);
        picked.has(c.value) ? picked.delete(c.value) : picked.add(c.value);
        b.classList.toggle("picked");
      }, "choice");
      b.dataset.value = c.value;
      row.append(b);
      if (operative(c.value)) row.append(button("Card", () => card(c.value), "card-button"));
      list.append(row);
    }
    part.append(list);
    if (q.other || q.many) { // the typed or picked values are taken by Record, which records unless something needed is left
      const typed = el("input");
      typed.placeholder = q.other ? "or type another" : "";
      typed.autocomplete = "off";
      if (q.other) part.append(typed);
      form.taking = () => {
        const values = [...picked, ...(typed.value.trim() ? [typed.value.trim()] : [])];
        if (values.length) form.answers[i] = values.join(",");
        return values.length > 0;
      };
    }
    if (form.marked === q.field) part.append(el("p", form.why, "why"));
    return part;
  }

  function choose(i, q, value) {
    form.answers[i] = value;
    if (form.marked === q.field) form.marked = null;
    draw();
  }

  // Everything else on one sheet: toggles, options, dice on the pad, numbers, text; the rare
  // details (re-rolls, the damage alone ...) folded under "More details".
  function drawSheet(items, body) {
    const extra = el("details", undefined, "extra");
    extra.append(el("summary", "More details"));
    const slots = [];
    for (const item of items) {
      const { q } = item;
      const part = el("div", undefined, "question" + (form.marked === q.field ? " marked" : ""));
      part.dataset.field = q.field;
      part.dataset.question = item.i;
      if (q.shape === "BOOL") part.append(toggle(item));
      else if (CHOOSE.includes(q.kind)) part.append(...options(item));
      else if (q.kind === "dice") part.append(...diceSlots(item, slots));
      else part.append(...typedAnswer(item));
      if (form.marked === q.field) part.append(el("p", form.why, "why"));
      const structured = q.kind === "text" && q.shape && q.shape !== "TEXT"; // re-rolls (2=5/balanced): about the dice, beside them
      const rare = q.optional && (q.kind === "number" || q.kind === "text") && !structured && !form.move.questions.every((x) => x.optional);
      if (rare) {
        extra.append(part);
        if (form.answers[item.i] || form.marked === q.field) extra.open = true;
      } else body.append(part);
    }
    if (form.correcting) extra.append(button("Edit as a line instead", () => lineFallback(), "small"));
    if (extra.children.length > 1) body.append(extra);
    $("pad").hidden = !slots.length;
    if (slots.length && (!form.at || !slots.some(([n, g]) => n === form.at[0] && g === form.at[1]))) form.at = slots.find(([n, g]) => !full(n, g)) || slots[0];
    markTyping();
  }

  function toggle({ i, q }) {
    const on = form.answers[i] === "true";
    const b = button(upper(q.label), () => {
      form.answers[i] = on ? "false" : "true";
      if (form.marked === q.field) form.marked = null;
      draw(false);
    }, "toggle");
    b.setAttribute("aria-pressed", String(on));
    b.dataset.field = q.field;
    return b;
  }

  function options({ i, q, choices }) {
    if (q.many) return picks({ i, q, choices });
    const values = q.optional && !choices.some((c) => c.value === q.default) ? [...choices, { value: null, label: "none" }] : choices;
    const row = el("div", undefined, "segmented");
    for (const c of values) {
      const b = button(c.label, () => {
        form.answers[i] = c.value;
        if (form.marked === q.field) form.marked = null;
        draw(false);
      }, "segment");
      b.dataset.value = c.value === null ? "" : c.value;
      b.setAttribute("aria-pressed", String((form.answers[i] ?? null) === c.value));
      row.append(b);
    }
    return [el("p", title(q), "what"), row];
  }

  // Several of the choices (a Blast weapon's further targets, the operatives a Devastating x"
  // weapon reaches): a toggle each, the answer the picked values in the choices' order.
  function picks({ i, q, choices }) {
    const picked = new Set((form.answers[i] || "").split(",").filter((v) => choices.some((c) => c.value === v)));
    form.answers[i] = choices.filter((c) => picked.has(c.value)).map((c) => c.value).join(",");
    const row = el("div", undefined, "segmented");
    for (const c of choices) {
      const b = button(c.label, () => {
        picked.has(c.value) ? picked.delete(c.value) : picked.add(c.value);
        form.answers[i] = choices.filter((x) => picked.has(x.value)).map((x) => x.value).join(",");
        if (form.marked === q.field) form.marked = null;
        draw(false);
      }, "segment");
      b.dataset.value = c.value;
      b.setAttribute("aria-pressed", String(picked.has(c.value)));
      row.append(b);
    }
    return [el("p", title(q), "what"), row];
  }

  // A dice question's groups (a shot's attack dice, each player's roll-off die ...), each saying
  // exactly how many dice the rules expect for the answers given; the pad types into the one
  // being typed, and moves on once it holds them all.
  function diceSlots({ i, q, groups }, slots) {
    const digits = form.answers[i] || [];
    form.answers[i] = groups.map((_, n) => digits[n] || "");
    const parts = [el("p", title(q), "what")];
    groups.forEach((g, n) => {
      const size = g.hint || (g.count != null ? `${g.count} ${g.count === 1 ? "die" : "dice"}` : g.most != null ? `up to ${g.most} dice` : "");
      const slot = button("", () => {
        form.at = [i, n];
        markTyping();
      }, "dice");
      slot.dataset.field = q.field;
      slot.dataset.question = i;
      slot.dataset.group = n;
      slot.append(el("span", (groups.length > 1 ? g.label + ": " : "") + size, "size"), el("output", form.answers[i][n] || "–"));
      parts.push(slot);
      slots.push([i, n]);
    });
    return parts;
  }

  function full(i, n) {
    const item = plan().items.find((x) => x.i === i);
    const g = item && item.groups[n];
    const typed = (form.answers[i] || [])[n] || "";
    return !!g && ((g.count != null && typed.length >= g.count) || (g.count == null && g.most != null && typed.length >= g.most));
  }

  const slotAt = (slot) => [Number(slot.dataset.question), Number(slot.dataset.group)];

  function markTyping() {
    for (const slot of document.querySelectorAll("#form-body .dice")) {
      const [i, n] = slotAt(slot);
      slot.classList.toggle("typing", !!form.at && form.at[0] === i && form.at[1] === n);
      slot.querySelector("output").textContent = (form.answers[i] || [])[n] || "–";
    }
  }

  function tap(die) {
    if (!form || !form.at) return;
    const [i, n] = form.at;
    const digits = form.answers[i];
    digits[n] = die === "back" ? digits[n].slice(0, -1) : digits[n] + die;
    const field = form.move.questions[i].field;
    if (form.marked === field) {
      form.marked = null;
      document.querySelector(`#form-body .question[data-field='${field}']`)?.classList.remove("marked");
    }
    if (die !== "back" && full(i, n)) {
      const slots = [...document.querySelectorAll("#form-body .dice")].map(slotAt);
      const at = slots.findIndex(([x, g]) => x === i && g === n);
      const next = slots.slice(at + 1).find(([x, g]) => !full(x, g));
      if (next) form.at = next;
    }
    markTyping();
  }

  function typedAnswer({ i, q }) {
    const input = el("input");
    input.autocomplete = "off";
    input.value = form.answers[i] ?? q.default ?? "";
    if (q.kind === "number") {
      input.inputMode = "numeric";
      input.pattern = "[+-]?[0-9]*";
      input.placeholder = q.hint || "a number";
      input.addEventListener("input", () => {
        input.value = input.value.replace(/[^0-9+-]/g, "").replace(/(?!^)[+-]/g, ""); // digits only, a sign first
        form.answers[i] = input.value;
      });
    } else {
      input.placeholder = q.hint || "";
      input.addEventListener("input", () => (form.answers[i] = input.value));
    }
    if (input.value) form.answers[i] = input.value;
    input.dataset.field = q.field;
    const parts = [el("label", title(q), "what"), input];
    if (q.kind === "number" && /-\d/.test(q.hint || "")) {
      parts.push(button("±", () => {
        input.value = input.value.startsWith("-") ? input.value.slice(1) : "-" + input.value.replace(/^\+/, "");
        form.answers[i] = input.value;
      }, "small"));
    }
    return parts;
  }

  // The answers, checked for what the page can say before anything is sent (a die too many, a
  // word in a number); the rules are the server's.
  function answersOf() {
    const { items } = plan();
    const answers = Object.entries(form.move.fixed || {});
    for (const { i, q, groups } of items) {
      const value = form.answers[i];
      if (q.kind === "dice") {
        const typed = value || [];
        if (!q.optional || typed.some((d) => d)) {
          for (const [gi, g] of groups.entries()) {
            const n = (typed[gi] || "").length;
            const wrong = g.count != null ? n !== g.count : g.most != null && n > g.most;
            if (wrong) return mark(q.field, `${upper(q.label)}${groups.length > 1 ? " (" + g.label + ")" : ""}: ${g.hint || (g.count != null ? g.count + " dice" : "at most " + g.most + " dice")}, ${n} typed`);
          }
          answers.push([q.field, groups.map((g, n) => (groups.length > 1 ? `${g.label}:${typed[n]}` : typed[n])).join(",")]);
        }
        continue;
      }
      if (value === undefined || value === null) {
        if (!q.optional && q.kind !== "number" && q.kind !== "text") return mark(q.field, `${upper(q.label)}: choose one`);
        if (!q.optional) return mark(q.field, `${upper(q.label)}: it is needed`);
        continue;
      }
      if (q.kind === "number" && value !== "" && !/^[+-]?\d+$/.test(value)) return mark(q.field, `${upper(q.label)}: a whole number, digits only`);
      if (value === "" && !q.field.includes(".")) {
        if (!q.optional) return mark(q.field, `${upper(q.label)}: it is needed`);
        continue;
      }
      answers.push([q.field, value]);
    }
    return answers;
  }

  function mark(field, why) {
    form.marked = field;
    form.why = why;
    draw(false);
    document.querySelector(`#form [data-field='${field}']`)?.scrollIntoView({ block: "nearest" });
    return null;
  }

  async function record() {
    if (form.taking && !form.taking()) return mark(plan().next.q.field, "Choose one, or type one");
    const answers = form.move.questions && form.move.questions.length ? answersOf() : Object.entries(form.move.fixed || {});
    if (!answers) return;
    if (onBoard()) {
      const spot = form.board && form.board.spot();
      if (!spot) return mark("position", "Tap the board where it ends");
      answers.push(["x", String(spot.x)], ["y", String(spot.y)], ...(spot.z ? [["z", String(spot.z)]] : []));
    } else answers.push(...form.kept);
    const asked = form;
    $("form-ok").disabled = true;
    const body = { event: asked.move.event, answers };
    if (asked.correcting) body.correct = asked.correcting;
    const done = await send(body);
    $("form-ok").disabled = false;
    if (!done || form !== asked) return;
    const shooter = (answers.find(([f]) => f === "operative") || [])[1];
    const weapon = (answers.find(([f]) => f === "weapon") || [])[1];
    if (shooter && weapon) localStorage.setItem(weaponKey({ operative: shooter }), weapon);
    close();
  }

  // The rules refused it: the form stays as it was, the question the rule names marked with the
  // rule's sentence.
  function refused(data) {
    form.marked = data.field || null;
    form.why = "Not recorded: " + (data.sentence || data.error);
    draw(false);
    const at = form.marked && document.querySelector(`#form [data-field='${form.marked}']`);
    (at || $("form-problem")).scrollIntoView({ block: "nearest" });
    return false;
  }

  // A set-up or a move that ends somewhere, in a game with a layout: the board, its script loaded
  // the first time a form needs it (seat-board.js), kept while the form is open and its answers
  // (a Charge's target) stay as they were.
  const onBoard = () => !!form.move.place && !form.correcting;
  let boardScript = null;
  function showBoard(body) {
    const given = plan().items.filter(({ i, q }) => q.kind !== "dice" && typeof form.answers[i] === "string" && form.answers[i] !== "");
    const answers = Object.entries(form.move.fixed || {}).concat(given.map(({ i, q }) => [q.field, form.answers[i]]));
    const key = JSON.stringify(answers);
    if (form.board && form.board.key === key) return body.append(form.board.part);
    form.board = null;
    const holder = el("div", "Loading the board…", "place");
    body.append(holder);
    const asked = form;
    boardScript = boardScript || import(document.body.dataset.board);
    boardScript.then(({ placeBoard }) => {
      if (form !== asked || !holder.isConnected) return;
      const moved = () => {
        if (form !== asked || !form.why) return;
        form.marked = null;
        form.why = "";
        $("form-problem").hidden = true;
      };
      form.board = { key, ...placeBoard((spot) => api("/seat/place", spot), { event: form.move.event, answers }, moved) };
      holder.replaceWith(form.board.part);
    }, () => {
      boardScript = null; // asked again the next time
      holder.textContent = "The board could not be loaded (offline?): close the form and open it again once online.";
    });
  }

  function close() {
    form = null;
    $("form").hidden = true;
    $("form-body").replaceChildren();
    $("form-problem").hidden = true;
  }

  // --- corrections, disputes, notes, lines ----------------------------------------------------

  // Correct one of the seat's own events through its move's form, its answers filled in; an event
  // no form asks is edited as its line.
  async function correct(row) {
    const { status, data } = await api(`/seat/correction?seq=${row.seq}`);
    if (status !== 200) return problem(data.error);
    if (!data.move) return fix("correct", row, data.line);
    start(data.move, data.answers, row.seq);
    form.line = data.line;
  }

  function lineFallback() {
    const row = { seq: form.correcting };
    const line = form.line;
    close();
    fix("correct", row, line);
  }

  function fix(kind, row, line) {
    fixing = { kind, row };
    $("fix").hidden = false;
    const what = {
      correct: `Correct seq ${row && row.seq} as a line`,
      dispute: `Why is seq ${row && row.seq} wrong?`,
      note: `Note on seq ${row && row.seq}`,
      line: "An event, as a line",
    };
    const hints = {
      correct: "The event as ktlog event takes it: change a value, keep the rest.",
      dispute: `${row && row.text}. Its recorder corrects it, or you withdraw the dispute.`,
      note: row && row.text,
      line: "TYPE FIELD=VALUE ..., e.g. Shot operative=gunner weapon=Bolter target=warrior-1 dice=6542 saves=31",
    };
    $("fix-what").textContent = what[kind];
    $("fix-hint").textContent = hints[kind] || "";
    $("fix-line").value = line || "";
    $("fix-line").focus();
  }
  async function fixSend() {
    const text = $("fix-line").value.trim();
    const { kind, row } = fixing;
    $("fix").hidden = true;
    fixing = null;
    if (!text) return;
    const quoted = '"' + text.replace(/["\\]/g, "") + '"';
    if (kind === "correct") await send({ correct: row.seq, line: text });
    else if (kind === "line") await send({ line: text });
    else if (kind === "dispute") await send({ line: `EventDisputed target=${row.seq} reason=${quoted}` });
    else await send({ line: `Annotation target=${row.seq} text=${quoted}` });
  }

  // Signing: an Ed25519 key made here (WebCrypto), its private part never leaving the browser.
  async function keyPair() {
    const db = await new Promise((ok, fail) => {
      const open = indexedDB.open("ktlog-seat", 1);
      open.onupgradeneeded = () => open.result.createObjectStore("keys");
      open.onsuccess = () => ok(open.result);
      open.onerror = () => fail(open.error);
    });
    const KEY = "ktlog-seat-" + game;
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
      const message = new TextEncoder().encode(`ktlog game signature v1\n${game}\n${view.seq}\n${view.head_hash}`);
      const signature = hex(await crypto.subtle.sign({ name: "Ed25519" }, pair.privateKey, message));
      const { status, data } = await api("/seat/signature", { head_seq: view.seq, signature });
      problem(status === 201 || status === 200 ? "" : data.error);
      await load();
    } catch (err) {
      problem("This browser cannot sign here (it needs WebCrypto's Ed25519, which browsers give only over https or on the machine itself): sign at the table with ktlog export --sign.");
    }
  }

  // The game's event stream: a new event's row (as a spectator words it) is shown at once, and
  // the seat's view (its moves, its own secrets) asked for after it; a signature kept is told by
  // name; a stream the browser gave up on (offline) is opened again, and the tap waiting
  // meanwhile is sent first.
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
    stream.addEventListener("signed", () => load());
    stream.onerror = () => {
      net(false);
      if (stream.readyState === EventSource.CLOSED) setTimeout(follow, 1000);
    };
  }

  document.querySelectorAll(".pad button").forEach((b) => b.addEventListener("click", () => tap(b.dataset.die)));
  $("form-ok").addEventListener("click", () => record());
  $("form-cancel").addEventListener("click", close);
  $("fix-send").addEventListener("click", fixSend);
  $("fix-cancel").addEventListener("click", () => { $("fix").hidden = true; fixing = null; });
  $("card-close").addEventListener("click", () => ($("card").hidden = true));
  $("undo").addEventListener("click", () => send({ undo: true }));
  $("note").addEventListener("click", () => view && view.log.length && fix("note", view.log[view.log.length - 1]));
  $("type-line").addEventListener("click", () => fix("line", null));
  $("sign").addEventListener("click", sign);
  window.addEventListener("offline", () => net(false));
  window.addEventListener("online", () => follow());
  // The view the page came with (a reopened seat): the server drew its first screen in the page;
  // it is drawn again here, with its handlers and the log, once the browser has shown the page
  // (after its next frame).
  const drawn = $("seat-view");
  const attach = () => {
    show(JSON.parse(drawn.textContent));
    follow();
  };
  if (drawn && token) document.visibilityState === "visible" ? requestAnimationFrame(() => setTimeout(attach)) : attach();
  else load().then(follow);
})();
