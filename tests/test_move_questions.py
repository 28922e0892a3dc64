"""A move's questions as data (ktlog.play.questions): every legal move of every ruleset, answered
with its first legal values, makes an event line that `ktlog event` reads and the rules accept;
the description is JSON; the dice a shot or a fight takes are the rulebook's numbers."""

from __future__ import annotations

import re

import msgspec
import pytest
from conftest import blade, card, expend_all, game, gun
from test_tui_rulesets import joint

from ktlog import events as ev
from ktlog.data import SAMPLE_GAMES
from ktlog.errors import KtlogError
from ktlog.files.gamelog import read_game_log
from ktlog.play.moves import DiceExpected, Moves, dice_expected
from ktlog.play.questions import KINDS, answers_from, describe_kind, every_kind, kinds, legal_moves, table
from ktlog.play.replay import Replay
from ktlog.play.simulate import simulate_into
from ktlog.rules.questions import Move
from ktlog.rulesets import RULESETS
from ktlog.rulesets.approved.events import TacOpScored
from ktlog.storage.store import Store
from ktlog.text.event_text import answers_line, parse_event
from ktlog.text.event_text import event_line as recorded_line


def first_answers(move: Move) -> list[tuple[str, str]]:
    """Each question answered with its first legal value or its default (dice: 1s, as many as
    it takes); an optional number or text without a default left out."""
    given, so_far = list(move.fixed.items()), dict(move.fixed)
    for q in move.questions:
        if q.optional and q.kind in ("number", "text") and q.default is None:
            continue  # left out: re-rolls, the damage alone, the order of strikes ...
        legal = q.legal(so_far)
        if q.kind == "dice":
            groups = q.dice_for(so_far)
            if q.shape == "NAME:N,NAME:N":
                value = ",".join(f"{g.label}:{i + 1}" for i, g in enumerate(groups))
            else:
                value = "1" * (groups[0].count if groups[0].count is not None else groups[0].most or 0) if groups else ""
        elif legal:
            value = q.default if q.default is not None else legal[0].value
        elif not q.other and q.kind not in ("number", "text"):
            assert q.choices, f"{move.kind}: {q.field} has no choice"
            continue  # ruled out by the earlier answers: it does not apply
        else:
            value = {"number": "1"}.get(q.kind, q.default or "x")
        given.append((q.field, value))
        so_far.setdefault(q.field, value)
    return given


SAMPLES = sorted(p.name[:2] for p in SAMPLE_GAMES.glob("*.jsonl"))


@pytest.mark.slow
@pytest.mark.parametrize("name", SAMPLES)
def test_every_legal_move_answered_makes_an_event_the_rules_accept(name):
    _, sealed = read_game_log(next(SAMPLE_GAMES.glob(f"{name}_*.jsonl")))
    replay = Replay([e for e, _ in sealed])
    seen = set()
    for seq in range(1, replay.head + 1, 9):
        moves = Moves(replay.seek(seq))
        described = legal_moves(moves)
        assert msgspec.json.decode(msgspec.json.encode(described), type=list[Move]) == described
        for move in described:
            line = answers_line(move.event, first_answers(move))
            event = parse_event(line)
            assert moves.trial.refusal(event) is None, f"seq {seq}: {line}"
            assert moves.legal(move.kind)
            seen.add(move.kind)
    assert seen  # the game offered moves


def test_the_shared_kinds_and_a_rulesets_own_all_have_a_label_and_a_key():
    for ruleset in RULESETS.values():
        names = [k.name for k in kinds(ruleset)]
        assert len(names) == len(set(names)), ruleset.name
        assert all(k.key and k.label for k in kinds(ruleset))
    assert [k.name for k in KINDS] == [k.name for k in every_kind() if k in KINDS]
    assert {k.name for k in every_kind()} - {k.name for k in KINDS} == {
        "tac_op",
        "scouting",
        "reveal",
        "primary_op",
        "tac_op_vp",
        "reinforcements",
        "escape",
        "overwatch",
        "normal_move",
        "pass_action",
        "mission_vp",
    }


def test_a_rulesets_kind_is_offered_after_the_kind_it_names():
    order = [k.name for k in kinds(RULESETS["kt24-approved"])]
    assert order[order.index("set_up") + 1 : order.index("set_up") + 4] == ["tac_op", "scouting", "reveal"]
    assert order[order.index("pass") + 1] == "primary_op"
    assert "overwatch" not in order


def test_answers_line_joins_a_field_answered_twice_and_a_markers_holders():
    assert answers_line("ReinforcementsArrived", [("operatives", "n1"), ("operatives", "n2")]) == "ReinforcementsArrived operatives=n1,n2"
    line = answers_line("ObjectivesControlled", [("control.m1", "Alice"), ("control.m2", "")])
    assert line == "ObjectivesControlled control=m1:Alice,m2:"
    assert parse_event(line) == ev.ObjectivesControlled(control={"m1": "Alice", "m2": None})
    assert parse_event(answers_line("TacOpScored", [("player", "Ana"), ("vp", "2"), ("reason", "Flank: both flanks held"), ("note", "")])) == TacOpScored(
        player="Ana", vp=2, reason="Flank: both flanks held"
    )


# --- the dice of an attack (pg 42-45, pg 111) ---------------------------------------------------


def shooting_game(*rules: str, save: int = 4):
    alice = {"a1": card(weapons=(gun("Gun", 4, 4, (3, 4), *rules), blade("Blade", 5)))}
    bob = {"b1": card(save=save, weapons=(gun(), blade("Claws", 3))), "b2": card()}
    return game(alice, bob).add(ev.OperativeActivated(operative="a1", order="engage")).state


@pytest.mark.parametrize(
    ("rules", "accurate", "cover", "expected"),
    [
        ((), 0, False, DiceExpected(4, 3)),  # Atk 4; three defence dice (pg 42-43)
        (("Accurate 1",), 1, False, DiceExpected(3, 3)),  # one retained without rolling (Accurate, pg 111)
        (("Piercing 1",), 0, False, DiceExpected(4, 2)),  # one fewer defence die (Piercing, pg 111)
        ((), 0, True, DiceExpected(4, 2)),  # in cover one save is retained without rolling (pg 43)
        (("Saturate",), 0, True, DiceExpected(4, 3)),  # no cover save against Saturate (pg 111)
    ],
)
def test_the_dice_a_shot_takes(rules, accurate, cover, expected):
    assert dice_expected(shooting_game(*rules), "a1", "Gun", "b1", accurate=accurate, cover=cover) == expected


def test_the_dice_a_fight_takes_are_both_weapons_attacks():
    s = shooting_game()
    assert dice_expected(s, "a1", "Blade", "b1", target_weapon="Claws") == DiceExpected(5, 3)  # pg 44-45
    assert dice_expected(s, "a1", "Blade", "b1") == DiceExpected(5, 0)


def test_a_shots_description_holds_each_weapon_and_targets_dice():
    s = shooting_game("Piercing 1")
    (move,) = describe_kind(Moves(s), "shoot")
    assert move.event == "Shot" and move.fixed == {"operative": "a1", "weapon": "Gun"} and move.player == "Alice"
    target = next(q for q in move.questions if q.field == "target")
    assert [c.value for c in target.choices] == ["b1", "b2"]
    assert [q.field for q in move.questions] == [
        "target",
        "cover",
        "obscured",
        "dice",
        "saves",
        "rerolls",
        "save_rerolls",
        "damage",
    ]  # no Hot roll, no Accurate
    for cover, saves in (("false", 2), ("true", 1)):  # exactly: three less Piercing 1, less one retained in cover (pg 42-43, 111)
        dice = {q.field: q.dice_for({"weapon": "Gun", "target": "b1", "cover": cover}) for q in move.questions if q.kind == "dice"}
        assert dice["dice"][0].count == 4 and dice["saves"][0].count == saves


def test_a_shot_asks_what_its_weapon_and_target_call_for():
    """A Hot weapon's roll after shooting (pg 111), Accurate's retained dice taking attack dice
    away, Piercing Crits' fewer defence dice once a critical is retained, in words; the weapon's
    profile beside its name."""
    s = shooting_game("Hot", "Accurate 1", "Piercing Crits 1")
    (move,) = describe_kind(Moves(s), "shoot")
    asked = {q.field: q for q in move.questions}
    assert asked["hot_roll"].dice_for({"weapon": "Gun"})[0].count == 1 and not asked["hot_roll"].optional
    assert [c.value for c in asked["accurate"].legal({"weapon": "Gun"})] == ["0", "1"]
    assert [asked["dice"].dice_for({"weapon": "Gun", "accurate": n})[0].count for n in ("0", "1")] == [4, 3]
    (saves,) = asked["saves"].dice_for({"weapon": "Gun", "target": "b1", "cover": "false"})
    assert saves.most == 3 and saves.hint == "3 dice, or 2 if a critical hit is retained (Piercing Crits 1)"
    line = answers_line("Shot", [*move.fixed.items(), ("target", "b1"), ("dice", "641"), ("saves", "55"), ("hot_roll", "2"), ("accurate", "1")])
    assert Moves(s).trial.refusal(parse_event(line)) is None
    assert Moves(s).trial.refusal(parse_event(line.replace(" hot_roll=2", ""))).rule == "Hot, pg 111"  # the rules require it
    two = game({"a1": card(weapons=(gun("Gun", 4, 4, (3, 4), "Lethal 5+"), gun("Pistol", 3, 4, (2, 3))))}, 2)
    weapon = next(
        q for q in describe_kind(Moves(two.add(ev.OperativeActivated(operative="a1", order="engage")).state), "shoot")[0].questions if q.field == "weapon"
    )
    assert [c.label for c in weapon.choices] == ["Gun · ATK 4, HIT 4+, DMG 3/4 · Lethal 5+", "Pistol · ATK 3, HIT 4+, DMG 2/3"]


def test_a_choice_is_legal_only_with_the_answers_it_was_legal_with():
    """Joint Ops reinforcements (pg 92, 94): two NPOs that are not Heavy return; the second is
    any other one than the first."""
    (move,) = describe_kind(Moves(reinforcements_due().state), "reinforcements")
    first, second = move.questions
    assert move.player == "NPOs" and [c.value for c in first.choices] == ["n1", "n2"]
    assert [c.value for c in second.legal({"operatives": "n1"})] == ["n2"]
    assert [c.value for c in second.legal({"operatives": "n2"})] == ["n1"]
    line = answers_line(move.event, [("operatives", "n1"), ("operatives", "n2")])
    assert Moves(reinforcements_due().state).trial.refusal(parse_event(line)) is None


def reinforcements_due():
    g = joint("sabotage")
    g.add(*(ev.DamageInflicted(operative=n, damage=7, source="other") for n in ("n1", "n2")))
    expend_all(g).end_turning_point().add(ev.TurningPointStarted(turning_point=2))
    g.add(ev.RolledOff(purpose="initiative", rolls={"Alice": 5, "NPOs": 2}), ev.InitiativeDecided(player="Alice"))
    return g.add(ev.GambitPassed(player="Alice"))


# --- the table ------------------------------------------------------------------------------


def test_the_table_names_the_player_order_and_the_npo_side():
    s = game(to="firefight").state
    assert table(s) == msgspec.convert({"ruleset": "kt24-preliminary", "players": ["Alice", "Bob"]}, type(table(s)))
    _, sealed = read_game_log(next(SAMPLE_GAMES.glob("10_*.jsonl")))
    replay = Replay([e for e, _ in sealed])
    state = replay.seek(replay.head)
    assert list(table(state).players) == state.order and len(state.order) == 3
    assert table(reinforcements_due().state).npo_side == "NPOs"


# --- every recorded event, asked again from its move's questions (issue 39) -------------------

TABLE_EVENTS = (ev.GameCreated, ev.PlayerJoined, ev.OperativeAdded)
ABOUT_EVENTS = (ev.Annotation, ev.EventVoided, ev.EventCorrected, ev.EventDisputed, ev.DisputeResolved)
"""Recorded at the table when a game is made, or about another event (a note, an undo, a
correction, a dispute): no move describes them."""


def walk(envelopes: list[ev.Envelope]) -> tuple[int, list[str]]:
    """Each event of a game that a move describes, asked again: the legal moves of the state
    before it, answered from the event (`answers_from`), must make the same event and the rules
    accept it. (How many were asked, and what went wrong.)"""
    replay = Replay(envelopes)
    timeline = replay.timeline
    asked, wrong = 0, []
    for seq, event in timeline.records:
        if isinstance(event, TABLE_EVENTS + ABOUT_EVENTS) or event.override or seq in timeline.corrected_by:
            continue  # an overridden event is not legal by the rules alone; a corrected one was wrong
        moves = Moves(replay.seek(seq - 1))
        offered = [m for m in offering(moves, type(event)) if m.event == type(event).__name__]
        made = [_made(m.event, answers) for m in offered if (answers := answers_from(m, event)) is not None]
        same = [e for e in made if isinstance(e, ev.Event) and _bare(e) == _bare(event)]
        asked += 1
        if same and not padded(offered, event):
            wrong.append(f"seq {seq}: {recorded_line(event)}: its dice are not all typed on the pad (digits), its re-rolls beside them")
        elif not same:
            wrong.append(
                f"seq {seq}: {recorded_line(event)} was made as {[e if isinstance(e, str) else recorded_line(e) for e in made] or 'nothing: no move offers it'}"
            )
        elif moves.trial.refusal(same[0]) is not None:
            wrong.append(f"seq {seq}: {recorded_line(event)} refused: {moves.trial.refusal(same[0])}")
    return asked, wrong


def offering(moves: Moves, event_type: type) -> list[Move]:
    """The legal moves of the kinds with a candidate of `event_type`, in `legal_moves`' order:
    describing the other kinds (most of them, at every step of a game) would offer other events."""
    return [m for kind in kinds(moves.ruleset) if any(type(c) is event_type for c in moves.candidates(kind.name)) for m in describe_kind(moves, kind.name)]


def padded(offered: list[Move], event: ev.Event) -> bool:
    """Whether a move makes the event with its dice as digits (as a pad types them)."""
    for move in offered:
        answers = dict(answers_from(move, event) or {})
        if all(re.fullmatch(r"([^:,]+:[1-6]+,?)*|[1-6,]*", answers.get(q.field, "")) for q in move.questions if q.kind == "dice"):
            return True
    return False


def _made(event_type: str, answers: list[tuple[str, str]]) -> ev.Event | str:
    line = answers_line(event_type, answers)
    try:
        return parse_event(line)
    except KtlogError as exc:
        return f"{line}: {exc}"


def _bare(e: ev.Event) -> ev.Event:
    return msgspec.structs.replace(e, seat=None)


@pytest.mark.slow
@pytest.mark.parametrize("name", SAMPLES)
def test_every_event_of_a_sample_game_is_asked_again_by_its_moves_questions(name):
    _, sealed = read_game_log(next(SAMPLE_GAMES.glob(f"{name}_*.jsonl")))
    asked, wrong = walk([e for e, _ in sealed])
    assert asked > 20 and wrong == []


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", [name for name, r in RULESETS.items() if r.simulator])
@pytest.mark.parametrize("seed", [1, 2])
def test_every_event_of_a_simulated_game_is_asked_again_by_its_moves_questions(ruleset, seed):
    with Store(":memory:") as store:
        (game_id,) = simulate_into(store, 1, seed, ruleset=ruleset)
        envelopes = store.events(game_id)
    asked, wrong = walk(envelopes)
    assert asked > 20 and wrong == []


def test_a_recorded_shots_answers_say_its_flags_left_at_their_default():
    """A correction's form shows the shot as recorded: not in cover, whatever the page's own
    default (the target's cover when last shot) would be."""
    s = shooting_game()
    (move,) = describe_kind(Moves(s), "shoot")
    shot = parse_event("Shot operative=a1 weapon=Gun target=b1 dice=6541 saves=321")
    answers = dict(answers_from(move, shot))
    assert answers["cover"] == "false" and answers["obscured"] == "false" and answers["dice"] == "6541"
    assert parse_event(answers_line(move.event, list(answers.items()))) == shot


def test_a_fights_rerolls_are_asked_beside_its_dice_and_read_and_write_as_flat_fields():
    """A fight's re-rolled dice, the attacker's and the target's (Balanced, Command Re-roll ...,
    pg 50, 54, 111), are its move's questions as a shot's are: a correction's form holds them, the
    line writes them flat (attack_rerolls=, target_rerolls=) and reads them back; re-rolls
    without their dice, or given twice, are refused saying what to give."""
    s = game({"a1": card(weapons=(blade("Blade", 5),))}, {"b1": card(weapons=(blade("Claws", 3),))})
    s = s.add(ev.OperativeActivated(operative="a1", order="engage")).add(parse_event("Charged operative=a1 targets=b1")).state
    (move,) = describe_kind(Moves(s), "fight")
    fields = [q.field for q in move.questions]
    assert fields.index("attack_rerolls") == fields.index("target_dice") + 1 and "target_rerolls" in fields
    line = "Fought operative=a1 target=b1 weapon=Blade target_weapon=Claws attack_dice=42111 'attack_rerolls=3=6/command 4=5/command' target_dice=531 target_rerolls=1=2/command"
    fight = parse_event(line)
    assert fight.attack_dice.rerolls == (ev.Reroll(die=3, result=6, source="command"), ev.Reroll(die=4, result=5, source="command"))
    assert fight.target_dice == ev.Dice(rolls=(5, 3, 1), rerolls=(ev.Reroll(die=1, result=2, source="command"),))
    assert recorded_line(fight) == line
    answers = dict(answers_from(move, fight))
    assert answers["attack_dice"] == "42111" and answers["attack_rerolls"] == "3=6/command 4=5/command" and answers["target_rerolls"] == "1=2/command"
    assert parse_event(answers_line(move.event, list(answers.items()))) == fight
    assert Moves(s).trial.refusal(fight) is None
    with pytest.raises(KtlogError, match="give attack_dice=DICE with it"):
        parse_event("Fought operative=a1 target=b1 weapon=Blade attack_rerolls=1=6/command")
    with pytest.raises(KtlogError, match="the re-rolls once"):
        parse_event(
            'Fought operative=a1 target=b1 weapon=Blade attack_dice=\'{"rolls": [1], "rerolls": [{"die": 1, "result": 6, "source": "command"}]}\' attack_rerolls=1=6/command'
        )


def test_a_blast_shots_further_targets_read_and_write_as_flat_fields():
    """A Blast or Torrent weapon's further targets in a Shot's line: each with its own dice (ID:DICE,
    or DICE with one), cover and obscured by name; written back the same way; a wrong name said."""
    rolls = lambda text: ev.Dice(rolls=tuple(int(d) for d in text))  # noqa: E731
    shot = ev.Shot(
        operative="g",
        weapon="Frag",
        attacks=(
            ev.ShootingAttack(target="a", attack_dice=rolls("653"), defence_dice=rolls("21"), cover=True),
            ev.ShootingAttack(target="b", attack_dice=rolls("44"), defence_dice=rolls("3"), cover=True),
            ev.ShootingAttack(target="c", attack_dice=rolls("1"), defence_dice=rolls("666"), obscured=True),
        ),
    )
    line = recorded_line(shot)
    assert (
        line
        == "Shot operative=g weapon=Frag target=a dice=653 saves=21 cover=true further=b,c further_dice=b:44,c:1 further_saves=b:3,c:666 further_cover=b further_obscured=c"
    )
    assert parse_event(line) == shot
    one = parse_event("Shot operative=g weapon=Frag target=a dice=653 saves=21 further=b further_dice=44 further_saves=3")
    assert one.attacks[1] == ev.ShootingAttack(target="b", attack_dice=rolls("44"), defence_dice=rolls("3"))
    for wrong, said in (
        ("further=b,c further_dice=44 further_saves=3", "give the dice of each further target as ID:DICE (b:DICE, c:DICE missing)"),
        ("further_dice=44", "further_dice= is about the further targets: name them with further=ID,ID"),
        ("further=b further_dice=44 further_saves=3 further_cover=x", "x is not one of the further targets (b)"),
    ):
        with pytest.raises(KtlogError, match=re.escape(said)):
            parse_event(f"Shot operative=g weapon=Frag target=a dice=653 saves=21 {wrong}")
