"""The routes of `ktlog serve`: the pages, the JSON API and the event streams, each a function
of its own. What a route reads it reads in the source's worker thread (`reads`): the page and
JSON functions take the store and the request and return the response; what they share lives on
`request.app.state` (the source, the follower, the replays, the league worker, the settings)."""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Awaitable, Callable, Iterator

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse

from ..errors import KtlogError
from ..play.database import Store
from ..play.live_tables import labels, table_rows
from ..play.replay import Replay
from ..play.timeline import Timeline
from ..play.tournament import listing as list_tournaments
from ..play.tournament import load as load_tournament
from ..play.tournament import view as tournament_view
from ..state import GameState
from ..text.json_views import score_view, state_view
from . import pages, tournament_pages
from .follower import Viewer
from .game_log import page_of
from .kept import Kept, Made
from .league import FILTERS
from .params import BadRequest, query_number, query_text, whole_number
from .responses import AsciiJSON, refusal
from .views import log_rows

REPLAYS_KEPT = 8
"""Replay cursors kept open (one per game being replayed; the oldest is dropped first)."""
CHANCES_KEPT = 32
"""Overlays' win probabilities kept (one per game, head and stored model)."""

Render = Callable[[Store, Request], Response]


class Replays(Kept[Replay]):
    """The replay cursors of the games being replayed, by game and head."""

    def __init__(self, kept: int = REPLAYS_KEPT):
        super().__init__(kept)

    def of(self, store: Store, game_id: str) -> Replay:
        return self.get((game_id, store.game(game_id).head_seq), lambda: Replay.open(store, game_id))


def reads(render: Render) -> Callable[[Request], Awaitable[Response]]:
    """The endpoint of a route that reads the database: `render(store, request)` in the
    source's worker thread."""

    async def endpoint(request: Request) -> Response:
        return await request.app.state.source.run(lambda store: render(store, request))

    endpoint.__name__ = endpoint.__qualname__ = render.__name__
    endpoint.__doc__ = render.__doc__
    return endpoint


def game_of(store: Store, request: Request) -> tuple[str, str, int]:
    """The game the path names (a prefix of its id), its title and its head's seq."""
    game_id = store.resolve(request.path_params["game"])
    row = store.game(game_id)
    return game_id, " vs ".join(f"{p} ({t})" for p, t in zip(row.players, row.kill_teams)), row.head_seq


def state_at(store: Store, game_id: str, request: Request) -> GameState:
    """The state at `?at=SEQ` or at the end of `?tp=N` (the latest without either)."""
    at, tp = query_number(request, "at"), query_number(request, "tp")
    if at is not None and tp is not None:
        raise BadRequest("give at=SEQ or tp=N, not both")
    if at == 0:
        raise BadRequest("at=0 is before the game was created; the first state is at=1")
    if tp is not None:
        replay = request.app.state.replays.of(store, game_id)
        return replay.seek(replay.timeline.turning_point_end(tp))
    if at is not None:
        head = store.game(game_id).head_seq
        if at > head:
            raise BadRequest(f"at={at} is after the last event of the game (seq {head}); leave out at= for the latest state")
    return store.state(game_id, at)


# --- pages ----------------------------------------------------------------------------------


def tables(store: Store, request: Request) -> Response:
    """The tables page: every game in progress and the latest finished."""
    league, round_ = query_text(request, "league"), query_text(request, "round")
    return HTMLResponse(pages.tables_page(table_rows(store, league, round_), league, round_, labels(store)))


async def game(request: Request) -> Response:
    """A game's page: scoreboard, operatives, markers and the latest rows of the log (`?before=SEQ`:
    the rows before SEQ). Made once for each head of the game (its rows kept and extended from
    head to head, `game_log.py`) and sent as made, straight from the event loop, while the
    database says nothing was committed since (50 viewers cost one rendering and no reads)."""
    before = query_number(request, "before") if request.scope["query_string"] else None
    source = request.app.state.source
    version, made = await source.run(lambda store: (source.version(store), game_page(store, request, before)))
    request.app.state.sent.put(request.scope, version, made)  # sent again by `kept.SendAgain` until the next commit
    return made.response(request)


def game_page(store: Store, request: Request, before: int | None) -> Made:
    """The game page at the game's head, as kept (in the source's worker thread)."""
    game_id, title, head = game_of(store, request)
    if before is not None and not 1 < before <= head:
        raise BadRequest(
            f"before={before} names no page of this game's log: give a seq from 2 to {head} (the last event) "
            "to see the events before it, or leave out before= for the latest"
        )
    source = request.app.state.source

    def made() -> Made:
        log = request.app.state.logs.at(store, game_id, head, source.opened)
        state = state_view(game_id, log.state, spectator=True)
        return Made(pages.game_page(game_id, title, state, page_of(log.rows, before), board=log.state.layout is not None).encode())

    return request.app.state.pages.get(("game", source.opened, game_id, head, before), made)


def overlay(store: Store, request: Request) -> Response:
    """A game's scoreboard alone, for a stream, with the live win probability (two players)."""
    game_id, title, head = game_of(store, request)
    try:
        chance = live_chance(store, request, game_id, head)
    except KtlogError:  # a model file ktlog cannot read: the scoreboard still shows, and the overlay asks /chance, which says why
        chance = None
    return HTMLResponse(pages.overlay_page(game_id, title, state_view(game_id, store.state(game_id), spectator=True), chance))


def api_chance(store: Store, request: Request) -> Response:
    """A game's win probability at its latest moment, as the overlay shows it (null for a game
    of more than two players); worked out once for each head and model."""
    game_id, _, head = game_of(store, request)
    return AsciiJSON(live_chance(store, request, game_id, head))


def live_chance(store: Store, request: Request, game_id: str, head: int) -> dict | None:
    """The overlay's win probability: the model of the game's ruleset reads the board as a
    spectator sees it (`key_moments.Chance`: no secret choice), and says which model it is and
    whether it was fitted on simulated games; a ruleset with no model says why (None: the
    players have not all joined)."""
    from ..analytics.key_moments import chance_now
    from ..analytics.winprob import model_for, model_path, percent

    try:  # a model fitted again is read again
        fitted = model_path(store.path).stat().st_mtime_ns if store.path else None
    except OSError:
        fitted = None

    def made() -> dict | None:
        state = store.state(game_id)
        choice = model_for(store.path, state.ruleset)
        chance = chance_now(state, choice)
        if choice.model is None:
            return {"seq": state.seq, "players": list(state.players), "chances": None, "about": choice.why, "simulated": False}
        if chance is None:
            return None
        return {
            "seq": chance.seq,
            "players": chance.players,
            "chances": chance.chances,
            "shown": [percent(p, chance.decided) for p in chance.chances],
            "decided": chance.decided,
            "features": chance.features,
            "about": choice.why,
            "simulated": choice.model.origin == "default" or choice.model.simulated_games > 0,
        }

    return request.app.state.chances.get((game_id, head, fitted), made)


def replay(store: Store, request: Request) -> Response:
    """A game's replay page, made once for each head of the game (its win-probability curve
    with it) and sent as made until the next event."""
    game_id, title, head = game_of(store, request)

    def made() -> Made:
        cursor = request.app.state.replays.of(store, game_id)
        rows = log_rows(cursor.timeline, cursor.final)
        evaluation = win_probability(store, cursor)
        board = cursor.final.layout is not None
        return Made(pages.replay_page(game_id, title, state_view(game_id, cursor.final, spectator=True), rows, evaluation, board=board).encode())

    return request.app.state.pages.get(("replay", game_id, head), made).response(request)


def win_probability(store: Store, cursor: Replay) -> dict:
    """The replay's win-probability curve and key moments as the page draws them (described as a
    spectator sees them: the model reads the board, nothing secret); or why there is none."""
    from ..analytics.key_moments import analyse
    from ..analytics.winprob import model_for

    result, _ = analyse(cursor.timeline.records, model_for(store.path, cursor.final.ruleset), spectator=True)
    return {
        "players": result.players,
        "fitted": bool(result.curve),
        "curve": result.curve,
        "decided": result.decided,
        "moments": [{"seq": m.seq, "player": m.player, "change": m.change, "text": m.description} for m in result.moments],
        "model": result.model,
    }


async def league(request: Request) -> Response:
    """The league page: `ktlog stats`' standings and kill-team table, worked out in the league
    worker's process (`league.py` says why)."""
    filters = {k: query_text(request, k) for k in FILTERS}
    for day in ("since", "until"):
        if (value := filters[day]) and not _is_day(value):
            raise BadRequest(f"{day} must be a day as YYYY-MM-DD, not {value!r}")
    source = request.app.state.source
    await source.run(lambda store: None)  # a missing, locked or foreign file gets the same page as everywhere else
    message, frames, choices = await request.app.state.league.tables(source.path, filters)
    return HTMLResponse(pages.league_page(filters, choices, frames, message))


# --- JSON -----------------------------------------------------------------------------------


def tournament(store: Store, request: Request) -> Response:
    """A tournament's pairings, tables and live standings, for the hall's screen and a phone."""
    return HTMLResponse(pages.tournament_page(tournament_view(load_tournament(store, request.path_params["name"]))))


def api_tournament(store: Store, request: Request) -> Response:
    """A tournament as `ktlog tournament show --json` gives it: its standings and results together, its round and timer."""
    return AsciiJSON(tournament_view(load_tournament(store, request.path_params["name"])))


def tournaments(store: Store, request: Request) -> Response:
    """Every tournament of the database, with links to its page and its projector view."""
    return HTMLResponse(tournament_pages.tournaments_page(list_tournaments(store)))


def api_tournaments(store: Store, request: Request) -> Response:
    """Every tournament, as `ktlog tournament list --json`."""
    return AsciiJSON(list_tournaments(store))


def projector(store: Store, request: Request) -> Response:
    """A tournament for the hall's projector: the round's tables and the standings, paged to fit the screen."""
    seconds = query_number(request, "seconds")
    view = tournament_view(load_tournament(store, request.path_params["name"]))
    return HTMLResponse(tournament_pages.projector_page(view, seconds or tournament_pages.PAGE_SECONDS))


async def organiser_off(request: Request) -> Response:
    """An organiser's operation to a server started without --organiser (with it, `web.organiser` answers first)."""
    return refusal(403, "organiser_off", "this server does not take the organiser's operations: start it with `ktlog serve --organiser`")


def organiser(store: Store, request: Request) -> Response:
    """The organiser's page (its operations need `ktlog serve --organiser` and the organiser's link)."""
    view = tournament_view(load_tournament(store, request.path_params["name"]))
    return HTMLResponse(tournament_pages.organiser_page(view, request.app.state.settings.organiser))


def api_games(store: Store, request: Request) -> Response:
    """The tables page's list of games."""
    return AsciiJSON(table_rows(store, query_text(request, "league"), query_text(request, "round")))


def api_state(store: Store, request: Request) -> Response:
    """A game's state, as `ktlog show --json --spectator`."""
    game_id, _, _ = game_of(store, request)
    return AsciiJSON(state_view(game_id, state_at(store, game_id, request), spectator=True))


def api_board(store: Store, request: Request) -> Response:
    """A game with positions on its board at `?at=SEQ` (the latest without), as SVG: the
    replay page shows it at every moment (`ktlog chart board`'s drawing)."""
    from ..play.battle import board_view

    game_id, _, head = game_of(store, request)
    at = query_number(request, "at")
    if at is not None and at > head:
        raise BadRequest(f"at={at} is after the last event of the game (seq {head}); leave out at= for the latest board")
    view = board_view(request.app.state.replays.of(store, game_id), head if at is None else at)
    if view is None:
        raise BadRequest(f"game {game_id[:8]} records no positions (it was created without a layout): there is no board to draw")
    return Response(
        view.svg(title=f"after seq {view.seq}"),
        media_type="image/svg+xml",
        headers={"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'"},
    )


def api_score(store: Store, request: Request) -> Response:
    """A game's score, as `ktlog score --json`."""
    game_id, _, _ = game_of(store, request)
    return AsciiJSON(score_view(game_id, state_at(store, game_id, request), spectator=True))


def api_log(store: Store, request: Request) -> Response:
    """A game's log, worded as a spectator sees it at the moment asked."""
    game_id, _, _ = game_of(store, request)
    state = state_at(store, game_id, request)
    return AsciiJSON(log_rows(Timeline(store.events(game_id)), state))


# --- streams --------------------------------------------------------------------------------


async def game_events(request: Request) -> Response:
    """A game's event stream: what the viewer missed after `?after=` (or its Last-Event-ID),
    then each new event."""
    after = query_number(request, "after")
    last = request.headers.get("last-event-id")
    if last:
        after = whole_number(last, "Last-Event-ID")
    follower = request.app.state.follower

    def watch(store: Store) -> tuple[str, Viewer]:
        game_id, _, _ = game_of(store, request)
        return game_id, follower.watch_game(store, game_id, after)

    with _counted(request) as address:
        game_id, viewer = await request.app.state.source.run(watch)
    return _stream(request, address, viewer, lambda: follower.leave_game(game_id, viewer))


async def tables_events(request: Request) -> Response:
    """The tables page's stream: the row of each game that changed."""
    follower = request.app.state.follower
    with _counted(request) as address:
        viewer = follower.watch_tables(query_text(request, "league"), query_text(request, "round"))
    return _stream(request, address, viewer, lambda: follower.leave_tables(viewer))


@contextlib.contextmanager
def _counted(request: Request) -> Iterator[str]:
    """A stream counted against its client's cap (given back if it does not start)."""
    streams = request.app.state.streams
    address = streams.take(request)
    try:
        yield address
    except BaseException:
        streams.give_back(address)
        raise


def _stream(request: Request, address: str, viewer: Viewer, leave: Callable[[], None]) -> StreamingResponse:
    streams = request.app.state.streams

    async def chunks():
        try:
            async for chunk in viewer.chunks():
                yield chunk
        finally:
            leave()
            streams.give_back(address)

    return StreamingResponse(chunks(), media_type="text/event-stream", headers={"cache-control": "no-cache", "x-accel-buffering": "no"})


def _is_day(text: str) -> bool:
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return len(text) == 10
