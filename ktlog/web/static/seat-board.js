// The board on a seat's form (issue 44): where a set-up or a move ends, tapped on the killzone's
// map. Loaded by seat.js only when a form needs it (a game with a layout). The server draws the
// board (the replay's SVG, escaped) and judges every spot (ktlog.play.placing through the seat's
// /seat/place): the inches the move counts there, what is left, the levels under it, the rules'
// refusal with its page. This page only draws where the operative is and where it started, and
// sends the spot; it never judges one. Text from a game is only written as text.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const QUARTER = 4; // a tap is taken to the nearest quarter inch (the terminal's Shift+arrow)

const el = (tag, text, cls) => {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
};
const shape = (tag, attrs) => {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
};
const inches = (v) => String(Math.round(v * 100) / 100);

// The board for a form's move: `ask(body)` sends a spot to the server ({status, data}); `move` is
// {event, answers} (the form's event without a position); `moved()` is called on each new spot
// (a refusal of the last Record is no longer about it). Returns {part, spot()}: the element to
// show, and the latest spot the server judged (null until it answered).
export function placeBoard(ask, move, moved) {
  const part = el("div", undefined, "place");
  part.dataset.field = "position";
  part.append(el("p", "Where does it end? Tap the board", "what"));
  const holder = el("div", undefined, "board-holder");
  const where = el("p", "…", "where");
  const verdict = el("p", "", "verdict");
  const levels = el("div", undefined, "segmented levels");
  const tools = el("div", undefined, "row");
  part.append(holder, where, verdict, levels, tools);
  let spot = null;
  let board = null;
  let asked = 0; // the latest request: an answer to an older one is dropped
  let marker = null;

  async function judge(extra) {
    const mine = ++asked;
    let answer;
    try {
      answer = await ask({ event: move.event, answers: move.answers, ...extra });
    } catch (err) {
      verdict.textContent = "Offline: the server judges every spot, so the board waits for the network; tap again once online";
      verdict.className = "verdict refused";
      return;
    }
    const { status, data } = answer;
    if (mine !== asked) return;
    if (status !== 200) {
      verdict.textContent = data.error;
      verdict.className = "verdict refused";
      return;
    }
    if (data.board) draw(data.board);
    spot = data;
    show();
    moved();
  }

  function draw(b) {
    board = b;
    const parsed = new DOMParser().parseFromString(b.svg, "image/svg+xml").documentElement;
    const svg = document.importNode(parsed, true);
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("class", "board");
    const s = b.scale;
    const overlay = shape("g", { "pointer-events": "none" });
    if (b.start) overlay.append(shape("circle", { cx: b.start[0] * s, cy: b.start[1] * s, r: b.radius * s, fill: "none", stroke: "#111", "stroke-width": 2, "stroke-dasharray": "4 3", class: "started" }));
    const line = shape("line", { stroke: "#e67e22", "stroke-width": 3 });
    const ring = shape("circle", { r: b.radius * s, fill: "#fff", "fill-opacity": 0.8, stroke: "#e67e22", "stroke-width": 5, class: "placed" });
    const name = shape("text", { "font-size": 13, "text-anchor": "middle", "font-weight": "bold", fill: "#111" });
    name.textContent = b.operative;
    overlay.append(line, ring, name);
    svg.append(overlay);
    marker = { line, ring, name };
    svg.addEventListener("click", (e) => {
      const at = new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse());
      const clamp = (v, most) => Math.min(most, Math.max(0, Math.round((v / s) * QUARTER) / QUARTER));
      judge({ x: clamp(at.x, b.width), y: clamp(at.y, b.depth), z: spot ? spot.z : 0 });
    });
    holder.replaceChildren(svg);
    tools.replaceChildren();
    if (b.start) {
      const far = el("button", "As far as allowed", "small");
      far.type = "button";
      far.dataset.action = "furthest";
      far.addEventListener("click", () => spot && judge({ x: spot.x, y: spot.y, z: spot.z, furthest: true }));
      tools.append(far);
    }
  }

  function show() {
    const s = board.scale;
    marker.ring.setAttribute("cx", spot.x * s);
    marker.ring.setAttribute("cy", spot.y * s);
    marker.name.setAttribute("x", spot.x * s);
    marker.name.setAttribute("y", (spot.y - board.radius - 0.15) * s);
    const from = board.start || [spot.x, spot.y];
    for (const [k, v] of [["x1", from[0] * s], ["y1", from[1] * s], ["x2", spot.x * s], ["y2", spot.y * s]]) marker.line.setAttribute(k, v);
    const level = spot.z ? ` z=${inches(spot.z)}` : "";
    where.textContent = `${board.operative} at x=${inches(spot.x)} y=${inches(spot.y)}${level} · ${spot.distance}`;
    part.dataset.x = spot.x;
    part.dataset.y = spot.y;
    verdict.textContent = spot.problem ? "Not here: " + spot.problem : "Legal here: Record records it";
    verdict.className = "verdict " + (spot.problem ? "refused" : "legal");
    levels.replaceChildren();
    if (spot.levels.length > 1)
      for (const z of spot.levels) {
        const b = el("button", z ? `on top, ${inches(z)}"` : "floor", "segment");
        b.type = "button";
        b.setAttribute("aria-pressed", String(z === spot.z));
        b.addEventListener("click", () => judge({ x: spot.x, y: spot.y, z }));
        levels.append(b);
      }
  }

  judge({ draw: true });
  return { part, spot: () => spot };
}
