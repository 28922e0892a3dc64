// ktlog serve: renders the page's JSON and keeps it up to date from the server's event stream.
// Text from a game is only ever written as text (textContent), never as HTML.
"use strict";

(() => {
  const body = document.body;
  const page = body.dataset.page;

  // A control character is shown as its picture (a bell as \u2407), as the server's pages do.
  const visible = (text) => String(text).replace(/[\x00-\x1f\x7f]/g, (c) => String.fromCharCode(c === "\x7f" ? 0x2421 : 0x2400 + c.charCodeAt(0)));

  function el(tag, className, ...children) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : visible(child));
    }
    return node;
  }

  function scrollTo(li) {
    const log = li?.parentElement;
    if (log) log.scrollTop = li.offsetTop - log.clientHeight / 2;
  }

  function data(id) {
    const node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  function showProblem(text) {
    const banner = document.getElementById("problem");
    banner.textContent = text || "";
    banner.hidden = !text;
  }

  function follow(url, onMessage) {
    const source = new EventSource(url);
    source.onmessage = (e) => onMessage(JSON.parse(e.data));
    source.addEventListener("problem", (e) => showProblem(JSON.parse(e.data).problem));
    source.onopen = () => body.classList.add("live");
    source.onerror = () => body.classList.remove("live");
    return source;
  }

  // --- a game's state -------------------------------------------------------------------------

  function resultText(state) {
    const r = state.result;
    if (r.winners && r.winners.length > 1) return `${r.winners.join(" & ")} won`;
    if (r.winner) return `${r.winner} won` + (r.conceded_by ? ` (${r.conceded_by} conceded)` : "");
    if (r.draw) return "a draw";
    return state.status;
  }

  function renderScoreboard(state, compact) {
    const board = document.getElementById("scoreboard");
    const head = el("div", "moment-line", `TP ${state.turning_point}`, state.phase ? ` · ${state.phase}` : "", ` · ${resultText(state)}`,
      state.provisional ? el("span", "provisional", ` · provisional: ${state.open_disputes.map((d) => `seq ${d.target} disputed by ${d.by}`).join(", ")}`) : null);
    const players = el("div", "players");
    state.players.forEach((p, i) => {
      const ops = Object.entries(p.vp).filter(([op]) => op !== "total").map(([op, vp]) => `${op} ${vp}`).join(" · ");
      const secrets = Object.entries(p.secrets || {}).map(([key, s]) => el("div", "secret", `${key.replace(/_/g, " ")}: `, el("span", s.choice === "hidden" ? "hidden" : "", s.choice === null ? "not chosen" : s.choice)));
      players.append(
        el("div", `player p${i}` + (state.next_player === p.name ? " next" : ""),
          el("div", "name", p.name), el("div", "team", p.kill_team),
          el("div", "vp", el("span", "total", p.vp.total), el("span", "label", " VP")),
          el("div", "ops", ops), el("div", "cp", `${p.cp} CP`),
          compact ? null : el("div", "grade", `kill grade ${p.kill_grade}`), ...secrets));
    });
    board.replaceChildren(head, players);
  }

  function renderOperatives(state) {
    const holder = document.getElementById("operatives");
    if (!holder) return;
    const byPlayer = new Map(state.players.map((p) => [p.name, []]));
    for (const o of state.operatives) (byPlayer.get(o.player) || byPlayer.set(o.player, []).get(o.player)).push(o);
    holder.replaceChildren(...[...byPlayer].map(([player, ops]) => el("table", "ops-table",
      el("caption", null, player),
      ...ops.map((o) => el("tr", `op ${o.status}` + (o.id === state.active_operative ? " active" : ""),
        el("td", null, o.id), el("td", null, o.name), el("td", "n", `${Math.max(0, o.wounds)}/${o.max_wounds}`),
        el("td", null, o.status + (o.injured ? ", injured" : "")), el("td", null, o.order || ""))))));
    const markers = document.getElementById("markers");
    if (markers) {
      markers.replaceChildren(...state.markers.map((m) => el("div", "marker", `${m.id}`,
        m.controlled_by ? ` controlled by ${m.controlled_by}` : "", m.carried_by ? ` carried by ${m.carried_by}` : "")));
    }
    const sub = document.getElementById("sub");
    if (sub) sub.textContent = `${state.ruleset} · ${state.killzone} · ${state.date} · seq ${state.seq}`;
  }

  function renderState(state) {
    renderScoreboard(state, page === "overlay");
    renderOperatives(state);
    body.dataset.seq = state.seq;
  }

  // --- the event log ----------------------------------------------------------------------------

  function rowNode(row) {
    const li = el("li", row.turning_point ? "tp" : "", el("span", "seq", row.seq), el("span", "text", row.text));
    li.dataset.seq = row.seq;
    if (row.override) li.append(el("span", "override", ` [override: ${row.override}]`));
    for (const note of row.notes || []) li.append(el("div", "note", note));
    if (row.undone_by) li.classList.add("undone");
    return li;
  }

  function logRow(seq) {
    return document.querySelector(`#log li[data-seq="${seq}"]`);
  }

  function addRow(row) {
    const log = document.getElementById("log");
    if (row.note) {
      const target = logRow(row.note.target);
      if (target) target.append(el("div", "note", row.note.text));
      return;
    }
    if (row.voids) logRow(row.voids)?.classList.add("undone");
    if (logRow(row.seq) || "past" in log.dataset) return; // an older page of the log gets no new rows
    log.append(rowNode(row));
    scrollTo(log.lastChild);
  }

  function rewrite(texts) {
    for (const [seq, text] of Object.entries(texts || {})) {
      const text_node = logRow(seq)?.querySelector(".text");
      if (text_node) text_node.textContent = visible(text);
    }
  }

  function onGameMessage(message) {
    if (message.event && document.getElementById("log")) addRow(message.event);
    rewrite(message.rewrite);
    if (message.state) renderState(message.state);
    const battle = document.getElementById("battle");
    if (battle && message.state) battle.src = `/api/games/${encodeURIComponent(body.dataset.game)}/board.svg?at=${message.state.seq}`;
    showProblem(null);
  }

  // --- the tables page --------------------------------------------------------------------------

  function tableRow(g) {
    const link = el("a", null, g.labels.table ? `table ${g.labels.table}` : g.id.slice(0, 8));
    link.href = `/games/${encodeURIComponent(g.id)}`;
    const players = g.players.map((p, i) => `${p} (${g.kill_teams[i] || "?"})`).join(" vs ");
    const vp = g.players.map((p) => g.vp[p]).join("–");
    const cp = g.players.map((p) => g.cp[p]).join("–");
    const status = g.result ? (g.result.winner ? `${g.result.winner} won` : g.result.draw ? "a draw" : "finished") : g.status;
    const tr = el("tr", g.status === "finished" ? "finished" : "", el("td", null, link), el("td", null, players),
      el("td", "n", g.turning_point), el("td", "n", vp), el("td", "n", cp), el("td", "last", g.last_event), el("td", null, status));
    tr.dataset.game = g.id;
    return tr;
  }

  function setTableRows(games) {
    const tbody = document.querySelector("#tables tbody");
    for (const g of games) {
      const row = tableRow(g);
      const old = tbody.querySelector(`tr[data-game="${CSS.escape(g.id)}"]`);
      if (old) old.replaceWith(row);
      else tbody.prepend(row);
    }
  }

  // --- a tournament ---------------------------------------------------------------------------

  function outcomeText(r) {
    if (r.result === "open") return r.game_id ? "in play" : "waiting";
    if (r.result === "bye") return "bye";
    if (r.ended_by === "no-show") return `${r.by} did not show`;
    const how = r.ended_by === "concession" ? ` (${r.by} conceded)` : r.ended_by === "report" ? " (reported)" : "";
    return (r.result === "draw" ? "draw" : `${r.winner} won`) + how + (r.flag ? " \u26a0" : "");
  }

  const BREAKERS = { opp_avg: "opponents' average points", sos: "strength of schedule (the opponents' points)", vp_diff: "VP difference", vp_for: "VP scored", h2h: "head-to-head" };

  function rankedBy(t) {
    return `Ranked by points, then ${[...t.tie_breakers.map((b) => BREAKERS[b] || b), "a draw seeded by the event"].join(", then ")}.`;
  }

  function clock(seconds) {
    const s = Math.max(0, Math.round(seconds));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), rest = s % 60;
    return (h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`) + `:${String(rest).padStart(2, "0")}`;
  }

  // The round's timer: counted down from the seconds left when the figures came (no clock skew).
  let timerEnds = null;
  function setTimer(t) {
    timerEnds = t.timer ? Date.now() + t.timer.seconds_left * 1000 : null;
    tickTimer();
  }
  function tickTimer() {
    const node = document.getElementById("timer");
    if (!node) return;
    node.hidden = timerEnds === null;
    if (timerEnds === null) return;
    const left = (timerEnds - Date.now()) / 1000;
    node.textContent = left > 0 ? `${clock(left)} left` : "time";
    node.classList.toggle("over", left <= 0);
  }
  setInterval(tickTimer, 1000);

  function playerCell(name, team) {
    return el("td", null, el("span", "name", name), team ? el("span", "team", ` ${team}`) : null);
  }

  function pairingRow(r, live) {
    const vp = live[r.game_id] || [r.vp_a, r.vp_b];
    const table = r.game_id ? el("a", null, r.table) : r.table;
    if (r.game_id) table.href = `/games/${encodeURIComponent(r.game_id)}`;
    const tr = el("tr", r.result === "open" ? "open" : "ended", el("td", "n", table), playerCell(r.player_a, r.kill_team_a),
      el("td", "n vp", vp[0] ?? ""), el("td", "n vp", r.player_b ? vp[1] ?? "" : ""), playerCell(r.player_b, r.kill_team_b), el("td", "result", outcomeText(r)));
    tr.dataset.game = r.game_id || "";
    return tr;
  }

  function standingRow(s) {
    return el("tr", null, el("td", "n", s.rank), el("td", "name", s.player), el("td", "n points", s.points), el("td", "n", s.sos),
      el("td", "n", s.vp_diff > 0 ? `+${s.vp_diff}` : s.vp_diff), el("td", "n more", s.vp_for), el("td", "n", `${s.wins}-${s.draws}-${s.losses}`),
      el("td", "more team", s.kill_teams));
  }

  function resultRow(r) {
    return el("tr", null, el("td", "n", r.round), el("td", "n", r.table), el("td", null, r.player_a), el("td", null, r.kill_team_a),
      el("td", "n", r.vp_a ?? ""), el("td", "n", r.vp_b ?? ""), el("td", null, r.player_b), el("td", null, r.kill_team_b), el("td", null, outcomeText(r)));
  }

  const liveVp = {};

  function renderTournament(t) {
    const current = t.results.filter((r) => r.round === t.round);
    const open = current.filter((r) => r.result === "open").length;
    document.getElementById("round-line").textContent = !t.round ? `${t.players.length} players registered; round 1 is not paired yet`
      : t.finished ? `Final standings after ${t.rounds} rounds`
      : `Round ${t.round} of ${t.rounds}: ` + (open ? `${open} of ${current.length} tables playing` : "every table has ended");
    document.getElementById("pairings-title").textContent = t.round ? `Round ${t.round} tables` : "Tables";
    document.querySelector("#pairings tbody").replaceChildren(...current.map((r) => pairingRow(r, liveVp)));
    document.querySelector("#standings tbody").replaceChildren(...t.standings.map(standingRow));
    document.querySelector("#results tbody").replaceChildren(...t.results.filter((r) => r.result !== "open").map(resultRow));
    document.getElementById("tie-breakers").textContent = rankedBy(t);
    body.dataset.round = t.round;
    body.dataset.openTables = open;
  }

  // Follows a tournament: `render` again whenever a game moves, and every 15 s (a round paired or a
  // no-show changes no game).
  function followTournament(render) {
    let waiting = null;
    const refresh = () => {
      clearTimeout(waiting);
      waiting = setTimeout(async () => {
        try {
          const response = await fetch(body.dataset.api, { cache: "no-store" });
          if (!response.ok) throw new Error((await response.json()).problem || response.statusText);
          render(await response.json());
          showProblem(null);
        } catch (error) {
          showProblem(`cannot update the tournament: ${error.message}`);
        }
      }, 200);
    };
    render(data("ktlog-tournament"));
    follow(body.dataset.stream, (message) => {
      for (const g of message.games) liveVp[g.id] = g.players.map((p) => g.vp[p]);
      refresh();
    });
    setInterval(refresh, 15000);
  }

  function tournament() {
    followTournament(renderTournament);
  }

  // --- the projector: both panels fill the screen's height; a panel whose rows do not fit shows
  // them a page at a time, turning every data-seconds. ------------------------------------------

  const pageAt = { "tables-panel": 0, "standings-panel": 0 };

  function pagePanel(panel) {
    const rows = [...panel.querySelectorAll("tbody tr")];
    rows.forEach((r) => { r.hidden = false; });
    const tbody = panel.querySelector("tbody");
    const room = panel.getBoundingClientRect().bottom - tbody.getBoundingClientRect().top - 2;
    const height = rows.length ? Math.max(...rows.map((r) => r.offsetHeight)) : 1;
    const per = Math.max(1, Math.floor(room / height));
    const pages = Math.max(1, Math.ceil(rows.length / per));
    const at = pageAt[panel.id] % pages;
    rows.forEach((r, i) => { r.hidden = Math.floor(i / per) !== at; });
    panel.querySelector(".page-of").textContent = pages > 1 ? `page ${at + 1} of ${pages}` : "";
    panel.dataset.pages = pages;
    panel.dataset.page = at + 1;
    panel.dataset.perPage = per;
  }

  // A table on the projector: the winner's name in bold, the result in a word (the names are long enough).
  const ENDED = { battle: "played", concession: "conceded", report: "reported", "no-show": "no-show" };

  function projectorTable(r) {
    const vp = liveVp[r.game_id] || [r.vp_a, r.vp_b];
    const word = r.result === "open" ? (r.game_id ? "playing" : "waiting") : r.result === "bye" ? "bye"
      : (r.result === "draw" ? "draw" : ENDED[r.ended_by] || r.ended_by) + (r.flag ? " \u26a0" : "");
    const name = (player) => el("td", "name" + (player && player === r.winner ? " won" : ""), player || "");
    return el("tr", r.result === "open" ? "open" : "ended", el("td", "n", r.table), name(r.player_a),
      el("td", "n vp", vp[0] ?? ""), el("td", "n vp", r.player_b ? vp[1] ?? "" : ""), name(r.player_b), el("td", "result", word));
  }

  function projectorStanding(s, first) {
    const breaker = s[first];
    return el("tr", null, el("td", "n", s.rank), el("td", "name", s.player), el("td", "n points", s.points),
      el("td", "n", breaker === undefined ? "" : breaker), el("td", "n", s.vp_diff > 0 ? `+${s.vp_diff}` : s.vp_diff), el("td", "n", `${s.wins}-${s.draws}-${s.losses}`));
  }

  function renderProjector(t) {
    const current = t.results.filter((r) => r.round === t.round);
    const open = current.filter((r) => r.result === "open").length;
    document.getElementById("round-line").textContent = !t.round ? `${t.players.length} players · round 1 is not paired yet`
      : t.finished ? `final standings after ${t.rounds} rounds` : `round ${t.round} of ${t.rounds} · ` + (open ? `${open} of ${current.length} tables playing` : "every table has ended");
    document.getElementById("pairings-title").textContent = t.round ? `Round ${t.round} tables` : "Tables";
    const first = t.tie_breakers.find((b) => b !== "h2h") || "vp_for";
    document.getElementById("first-breaker").textContent = { opp_avg: "opp. avg", sos: "SoS", vp_diff: "VP ±", vp_for: "VP" }[first] || first;
    document.querySelector("#pairings tbody").replaceChildren(...current.map(projectorTable));
    document.querySelector("#standings tbody").replaceChildren(...t.standings.map((s) => projectorStanding(s, first)));
    document.getElementById("tie-breakers").textContent = rankedBy(t);
    setTimer(t);
    for (const panel of document.querySelectorAll(".panel")) pagePanel(panel);
    body.dataset.round = t.round;
  }

  function projector() {
    followTournament(renderProjector);
    const seconds = Number(body.dataset.seconds) || 12;
    const turn = () => {
      for (const panel of document.querySelectorAll(".panel")) {
        pageAt[panel.id] += 1;
        pagePanel(panel);
      }
    };
    let turning = setInterval(turn, seconds * 1000);
    document.addEventListener("keydown", (e) => {  // a presenter's remote (page down, the right arrow) turns the pages now
      if (!["ArrowRight", "PageDown", " "].includes(e.key)) return;
      e.preventDefault();
      clearInterval(turning);
      turn();
      turning = setInterval(turn, seconds * 1000);
    });
    window.addEventListener("resize", () => document.querySelectorAll(".panel").forEach(pagePanel));
  }

  // --- the organiser's page: each button posts its operation with the token of the link's
  // fragment (never sent as part of a URL); the answer's view is drawn again. --------------------

  function organiser() {
    const token = decodeURIComponent(location.hash.slice(1));
    const outcome = document.getElementById("outcome");
    let view = data("ktlog-tournament");

    async function act(action, fields = {}) {
      outcome.textContent = "…";
      outcome.className = "outcome";
      try {
        const response = await fetch(body.dataset.api, {
          method: "POST", cache: "no-store",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify({ action, ...fields }),
        });
        const answer = await response.json();
        if (!response.ok) throw new Error(answer.error || response.statusText);
        outcome.textContent = answer.done;
        draw(answer.view);
      } catch (error) {
        outcome.textContent = error.message;
        outcome.className = "outcome refused";
      }
    }

    function button(label, action, fields) {
      const b = el("button", null, label);
      b.addEventListener("click", () => act(action, fields));
      return b;
    }

    function tableRow(r) {
      const score = el("input");
      score.size = 6;
      score.placeholder = "12-9";
      score.setAttribute("aria-label", `table ${r.table} score`);
      const report = el("button", null, "Report");
      report.addEventListener("click", () => act("result", { table: r.table, score: score.value }));
      const tools = r.player_b === null ? [] : r.ended_by === "no-show"
        ? [button(`Undo ${r.by}'s no-show`, "no-show", { player: r.by, undo: true })]
        : [score, report, button(`${r.player_a} absent`, "no-show", { player: r.player_a }), button(`${r.player_b} absent`, "no-show", { player: r.player_b })];
      const tr = el("tr", null, el("td", "n", r.table), el("td", null, r.player_a), el("td", null, r.player_b || "(bye)"),
        el("td", null, r.result === "open" ? "open" : `${r.vp_a ?? ""}-${r.vp_b ?? ""} ${outcomeText(r)}`, r.flag ? el("div", "flag", r.flag) : null),
        el("td", null, ...tools.slice(0, 2)), el("td", null, ...tools.slice(2)));
      tr.dataset.table = r.table;
      return tr;
    }

    function entrantRow(e) {
      const tools = [];
      if (!view.round) tools.push(e.checked_in ? button("Check out", "check-in", { player: e.player, undo: true }) : button("Check in", "check-in", { player: e.player }));
      else if (e.status === "not checked in") tools.push(button("Check in (joins next round)", "check-in", { player: e.player }));
      if (e.status.startsWith("dropped")) tools.push(button("Rejoin", "rejoin", { player: e.player }));
      else if (view.round) tools.push(button("Drop", "drop", { player: e.player }));
      tools.push(button("Remove", "remove", { player: e.player }));
      const tr = el("tr", null, el("td", null, e.player), el("td", null, e.club || ""), el("td", null, e.status + (e.checked_in ? " · checked in" : "")), el("td", null, ...tools));
      tr.dataset.player = e.player;
      return tr;
    }

    function draw(t) {
      view = t;
      const current = t.results.filter((r) => r.round === t.round);
      document.getElementById("round-line").textContent = (t.round ? `round ${t.round} of ${t.rounds}` : `round 1 not paired yet`)
        + ` · ${t.players.length} players` + (t.reopened_round ? ` · round ${t.reopened_round} reopened: pair round ${t.round} again or close the reopening` : "");
      document.querySelector("#round-tables tbody").replaceChildren(...current.map(tableRow));
      document.querySelector("#entrants tbody").replaceChildren(...t.entrants.map(entrantRow));
      const seated = current.flatMap((r) => [r.player_a, r.player_b]).filter((p) => p);
      for (const id of ["swap-a", "swap-b"]) document.getElementById(id).replaceChildren(...seated.map((p) => el("option", null, p)));
      setTimer(t);
    }

    document.getElementById("pair").addEventListener("click", () => act("pair"));
    document.getElementById("re-pair").addEventListener("click", () => act("re-pair"));
    document.getElementById("timer-start").addEventListener("click", () => act("timer", { minutes: Number(document.getElementById("minutes").value) }));
    document.getElementById("timer-stop").addEventListener("click", () => act("timer", { stop: true }));
    document.getElementById("reopen").addEventListener("click", () => act("reopen", { round: view.round - 1 }));
    document.getElementById("reopen-close").addEventListener("click", () => act("reopen", { close: true }));
    document.getElementById("swap").addEventListener("click", () => act("swap", { first: document.getElementById("swap-a").value, second: document.getElementById("swap-b").value }));
    document.getElementById("add").addEventListener("click", () => {
      const names = document.getElementById("add-names").value.split(",").map((n) => n.trim()).filter((n) => n);
      act("add", { players: names });
    });
    draw(view);
  }

  // --- the replay -----------------------------------------------------------------------------

  function replay() {
    const game = body.dataset.game;
    const final = data("ktlog-state");
    const rows = data("ktlog-rows");
    const head = final.seq;
    const scrubber = document.getElementById("scrubber");
    const secrets = final.players.some((p) => p.secrets);
    const tpStarts = rows.filter((r) => r.turning_point).map((r) => [r.seq, r.turning_point]);
    let seq = tpStarts.length ? tpStarts[0][0] : 0;
    let asked = 0;

    document.getElementById("log").replaceChildren(...rows.map(rowNode));
    document.getElementById("tps").replaceChildren(...tpStarts.map(([s, tp]) => {
      const b = el("button", "tp", `TP${tp}`);
      b.addEventListener("click", () => seek(s));
      return b;
    }));
    drawCurve(final, head, tpStarts);
    const evaluation = data("ktlog-winprob");
    const winprob = evaluation && evaluation.fitted ? evaluation : null;

    async function seek(to) {
      seq = Math.max(0, Math.min(head, to));
      const mine = ++asked;
      const at = Math.max(seq, 1); // seq 0 is before the game's creation: the board shows its first state
      const state = await (await fetch(`/api/games/${encodeURIComponent(game)}?at=${at}`)).json();
      if (secrets) {
        const worded = await (await fetch(`/api/games/${encodeURIComponent(game)}/log?at=${at}`)).json();
        if (mine === asked) rewrite(Object.fromEntries(worded.map((r) => [r.seq, r.text])));
      }
      if (mine !== asked) return;
      renderState(state);
      const battle = document.getElementById("battle");
      if (battle) battle.src = `/api/games/${encodeURIComponent(game)}/board.svg?at=${seq}`;
      scrubber.value = seq;
      document.getElementById("at").textContent = `seq ${seq} of ${head}`;
      document.querySelectorAll("#log li.here").forEach((li) => li.classList.remove("here"));
      const here = logRow(seq);
      here?.classList.add("here");
      scrollTo(here);
      document.getElementById("moment").textContent = seq === 0 ? "before the first event" : (here ? `seq ${seq}: ${here.querySelector(".text").textContent}` : `seq ${seq}`);
      const cursor = document.getElementById("cursor");
      if (cursor) cursor.setAttribute("x1", x(seq, head)), cursor.setAttribute("x2", x(seq, head));
      if (winprob) showChance(winprob, seq), drawWinprob(winprob, head, tpStarts, seq);
    }

    const jumps = { ArrowRight: () => seq + 1, ArrowLeft: () => seq - 1, Home: () => 0, End: () => head,
      PageDown: () => (tpStarts.find(([s]) => s > seq) || [head])[0], PageUp: () => ([...tpStarts].reverse().find(([s]) => s < seq) || [0])[0] };
    document.addEventListener("keydown", (e) => {
      if (jumps[e.key] && e.target !== scrubber) { e.preventDefault(); seek(jumps[e.key]()); }
    });
    scrubber.addEventListener("input", () => seek(Number(scrubber.value)));
    document.getElementById("start").addEventListener("click", () => seek(0));
    document.getElementById("back").addEventListener("click", () => seek(seq - 1));
    document.getElementById("step").addEventListener("click", () => seek(seq + 1));
    document.getElementById("end").addEventListener("click", () => seek(head));
    document.getElementById("log").addEventListener("click", (e) => {
      const li = e.target.closest("li");
      if (li) seek(Number(li.dataset.seq));
    });
    seek(seq);
  }

  function x(seq, head) {
    return head ? (600 * seq) / head : 0;
  }

  function drawCurve(final, head, tpStarts) {
    const svg = document.getElementById("curve");
    const ns = "http://www.w3.org/2000/svg";
    const line = (cls, attrs) => {
      const node = document.createElementNS(ns, attrs.points ? "polyline" : "line");
      node.setAttribute("class", cls);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
      return node;
    };
    const top = Math.max(1, ...final.players.map((p) => p.vp.total));
    const y = (vp) => 155 - (150 * vp) / top;
    const parts = tpStarts.map(([s]) => line("tp-line", { x1: x(s, head), x2: x(s, head), y1: 0, y2: 160 }));
    final.players.forEach((p, i) => {
      let total = 0;
      const points = [[0, y(0)]];
      for (const v of [...p.scored].sort((a, b) => a.seq - b.seq)) {
        points.push([x(v.seq, head), y(total)]);
        total += v.vp;
        points.push([x(v.seq, head), y(total)]);
      }
      points.push([600, y(total)]);
      parts.push(line(`vp p${i}`, { points: points.map((pt) => pt.join(",")).join(" ") }));
    });
    const cursor = line("cursor", { x1: 0, x2: 0, y1: 0, y2: 160 });
    cursor.id = "cursor";
    parts.push(cursor);
    svg.replaceChildren(...parts);
  }

  // --- the win probability (issues 28, 41) ---------------------------------------------------

  // A chance as every face shows it: whole percent, but "> 99%" and "< 1%" until the game is decided.
  function percent(p, decided) {
    if (!decided && p > 0.99) return "> 99%";
    if (!decided && p < 0.01) return "< 1%";
    return `${Math.round(100 * p)}%`;
  }

  // Each player's chances after `seq` (level before the battle), and whether the game is decided there.
  function chancesAt(winprob, seq) {
    let at = null;
    for (const point of winprob.curve) if (point[0] <= seq) at = point;
    const n = winprob.players.length;
    return { chances: at ? at[1] : Array(n).fill(1 / n), decided: winprob.decided !== null && seq >= winprob.decided };
  }

  function showChance(winprob, seq) {
    const { chances, decided } = chancesAt(winprob, seq);
    const key = winprob.moments.find((m) => m.seq === seq);
    const text = "win probability: " + winprob.players.map((p, i) => `${p} ${percent(chances[i], decided)}`).join(" · ")
      + (key ? ` · key moment: ${key.player} +${Math.round(100 * key.change)}% (${key.text})` : "");
    document.getElementById("chance").replaceChildren(visible(text));
  }

  // The curve of each player's chance up to the moment shown (what comes after is not told), in
  // the players' colours, with its axes (chance, turning points) and the key moments passed.
  function drawWinprob(winprob, head, tpStarts, seq) {
    const svg = document.getElementById("winprob");
    const ns = "http://www.w3.org/2000/svg";
    const shape = (tag, cls, attrs, text) => {
      const node = document.createElementNS(ns, tag);
      if (cls) node.setAttribute("class", cls);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
      if (text !== undefined) node.textContent = visible(text);
      return node;
    };
    const left = 44, right = 592, top = 8, bottom = 150;
    const sx = (s) => left + (head ? ((right - left) * s) / head : 0);
    const sy = (p) => bottom - (bottom - top) * p;
    const parts = [];
    for (const p of [0, 0.5, 1]) {
      parts.push(shape("line", p === 0.5 ? "tp-line" : "axis", { x1: left, x2: right, y1: sy(p), y2: sy(p) }));
      parts.push(shape("text", "axis-label", { x: left - 4, y: sy(p) + 4, "text-anchor": "end" }, `${100 * p}%`));
    }
    parts.push(shape("line", "axis", { x1: left, x2: left, y1: top, y2: bottom }));
    for (const [s, tp] of tpStarts) {
      parts.push(shape("line", "tp-line", { x1: sx(s), x2: sx(s), y1: top, y2: bottom }));
      parts.push(shape("text", "axis-label", { x: sx(s) + 2, y: bottom + 14 }, `TP${tp}`));
    }
    parts.push(shape("text", "axis-label", { x: right, y: bottom + 28, "text-anchor": "end" }, `seq (of ${head}); chance to win`));
    const shown = winprob.curve.filter(([s]) => s <= seq);
    winprob.players.forEach((player, i) => {
      const points = [];
      shown.forEach(([s, chances], k) => {
        if (k) points.push([sx(s), sy(shown[k - 1][1][i])]);
        points.push([sx(s), sy(chances[i])]);
      });
      if (shown.length) points.push([sx(seq), sy(shown[shown.length - 1][1][i])]);
      const line = shape("polyline", `vp p${i}`, { points: points.map((pt) => pt.join(",")).join(" ") });
      line.append(shape("title", null, {}, player));
      parts.push(line);
    });
    for (const m of winprob.moments.filter((m) => m.seq <= seq)) {
      const i = winprob.players.indexOf(m.player);
      const dot = shape("circle", `key-moment p${i}`, { cx: sx(m.seq), cy: sy(chancesAt(winprob, m.seq).chances[i]), r: 4 });
      dot.append(shape("title", null, {}, `seq ${m.seq}: ${m.player} +${Math.round(100 * m.change)}%: ${m.text}`));
      parts.push(dot);
    }
    parts.push(shape("line", "cursor", { x1: sx(seq), x2: sx(seq), y1: top, y2: bottom }));
    svg.replaceChildren(...parts);
  }

  // --- the overlay's live win probability (issue 28) --------------------------------------------

  function renderLiveChance(chance) {
    const box = document.getElementById("chance");
    if (!box || !chance) return;
    box.hidden = false;
    if (!chance.chances) {  // no model for this ruleset: no bar, and why
      box.querySelector(".bar").replaceChildren();
      box.querySelector(".odds").textContent = "no win probability";
      box.querySelector(".model").replaceChildren(el("span", null, chance.about));
      box.dataset.seq = chance.seq;
      return;
    }
    const bar = box.querySelector(".bar");
    if (bar.children.length !== chance.players.length) bar.replaceChildren(...chance.players.map((_, i) => el("span", `p${i}`)));
    chance.chances.forEach((p, i) => { bar.children[i].style.width = `${100 * p}%`; });
    box.querySelector(".odds").textContent = visible("win probability: " + chance.players.map((p, i) => `${p} ${chance.shown[i]}`).join(" · "));
    box.querySelector(".model").replaceChildren(el("span", null, chance.about), chance.simulated ? el("span", "simulated", " · simulated games") : null);
    box.dataset.seq = chance.seq;
    box.dataset.chances = chance.chances.join(",");
  }

  // The overlay asks for the probability again after each event the stream brings (one request at
  // a time; an event that comes while it asks is asked for when the answer comes, if it moved on).
  function liveChance() {
    let shown = data("ktlog-chance");
    renderLiveChance(shown);
    let asking = false;
    const ask = () => {
      if (!body.dataset.chance || asking || (shown && shown.seq >= Number(body.dataset.seq))) return;
      asking = true;
      fetch(body.dataset.chance, { cache: "no-store" })
        .then(async (response) => {
          const answer = await response.json();
          if (!response.ok) throw new Error(answer.error || response.statusText);
          return answer;
        })
        .then((chance) => {
          asking = false;
          if (chance && (!shown || chance.seq > shown.seq)) {
            renderLiveChance((shown = chance));
            ask();
          }
        }, (error) => {
          asking = false;
          showProblem(`win probability: ${error.message}`);
        });
    };
    if (!shown) ask();  // not two players yet, or the model could not be read: ask, and say why
    return ask;
  }

  // --- start ------------------------------------------------------------------------------------

  if (page === "game" || page === "overlay") {
    renderState(data("ktlog-state"));
    const rows = data("ktlog-rows");
    const log = document.getElementById("log");
    if (rows) {
      log.replaceChildren(...rows.map(rowNode));
      scrollTo(log.lastChild);
    }
    const chance = page === "overlay" ? liveChance() : null;
    follow(body.dataset.stream, (message) => {
      onGameMessage(message);
      if (chance && message.state) chance();
    });
  } else if (page === "tables") {
    setTableRows(data("ktlog-games").reverse());
    follow(body.dataset.stream, (message) => { setTableRows(message.games); showProblem(null); });
  } else if (page === "replay") {
    replay();
  } else if (page === "tournament") {
    tournament();
  } else if (page === "projector") {
    projector();
  } else if (page === "organiser") {
    organiser();
  }
})();
