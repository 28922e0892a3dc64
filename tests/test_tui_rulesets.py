"""Every ruleset recorded by keys: Approved Ops' secret choices, Multiplayer Ops' roll-offs for
player order, Joint Ops' reinforcements, sabotage and escape, KT21's Normal Move, Pass,
Overwatch and VP, and any event typed as `ktlog event` takes it."""

from __future__ import annotations

import msgspec
from conftest import blade, card, expend_all, gun
from tui_support import answer, message, press, tui_test

from ktlog import events as ev
from ktlog.play.builder import GameBuilder
from ktlog.rulesets.approved.events import PrimaryOpSelected, ScoutingRevealed, ScoutingSelected, TacOpScored, TacOpSelected
from ktlog.rulesets.joint.events import MarkerSabotaged, OperativeEscaped, ReinforcementsArrived
from ktlog.rulesets.kt21.events import MissionVPScored, NormalMoved, OverwatchFired, Passed
from ktlog.storage.store import Store
from ktlog.tui.app import make_app


def stored(store: Store, g: GameBuilder) -> str:
    return store.new_game(g.events[0], g.events[1:])


def recorded(store: Store, game_id: str, n: int) -> list[ev.Event]:
    """The last `n` events stored."""
    return [e.payload for e in store.events(game_id)][-n:]


def players(g: GameBuilder, ops: dict[str, int], **joined) -> GameBuilder:
    """Players named in `ops`, each with that many operatives (a1, a2 ... for Alice, b1 ... for Bob)."""
    for name, count in ops.items():
        g.add(ev.PlayerJoined(player=name, kill_team=f"{name}'s team", **joined.get(name, {})))
        g.add(*(ev.OperativeAdded(player=name, operative=f"{name[0].lower()}{i}", datacard=card()) for i in range(1, count + 1)))
    return g


# --- KT24 Approved Ops -------------------------------------------------------------------------


def approved_selected() -> GameBuilder:
    """Approved Ops, set up to the equipment: tac ops come next (002 step 2)."""
    g = players(
        GameBuilder(ruleset="kt24-approved"), {"Alice": 2, "Bob": 2}, Alice={"archetypes": ("Security", "Recon")}, Bob={"archetypes": ("Seek & Destroy",)}
    )
    g.add(ev.RolledOff(purpose="setup", rolls={"Alice": 6, "Bob": 1}), ev.InitiativeDecided(player="Alice"))
    g.add(*(ev.ObjectiveMarkerSetUp(marker=m, player=p) for m, p in (("centre", "Bob"), ("north", "Alice"), ("south", "Bob"))))
    return g.add(
        ev.CritOpRolled(roll=1),
        ev.DropZoneChosen(player="Alice", drop_zone="A"),
        ev.DropZoneChosen(player="Bob", drop_zone="B"),
        ev.EquipmentSelected(player="Alice"),
        ev.EquipmentSelected(player="Bob"),
    )


@tui_test
async def test_approved_ops_tac_ops_scouting_primary_ops_and_tac_op_vp(store):
    gid = stored(store, approved_selected())
    app = make_app(store, screen="record", game_id=gid)
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "T", "1", "2")  # Alice, her second archetype
        await answer(pilot, "Flank")  # the card's name
        assert "Alice selects a tac op (hidden)" in message(app) and "Flank" not in message(app)  # not echoed
        assert "tac op Flank (Recon) (secret)" in str(app.screen.query_one("ScoreBoard").render())  # the players' view
        await press(pilot, "T")  # Bob is the only one left, with one archetype: no picks
        await answer(pilot, "Overrun")
        await press(pilot, "U", "S", "1", "e", "S", "p")  # every operative set up; scouting: Alice Equip, Bob Ploy
        await press(pilot, "R", "1")  # reveal: the scouting options first
        assert "scouting options revealed" in message(app)
        await press(pilot, "t", "1")  # TP1: no roll-off, Equip beats Ploy so Alice decides
        await press(pilot, "G", "k", "G", "c", "p", "p")  # primary ops as gambits, then both pass
        await press(pilot, "V", "1")
        await answer(pilot, "2 Flank: both flanks held")
        assert "Alice scores 2VP" in message(app)
    assert recorded(store, gid, 10)[:3] == [
        ScoutingSelected(player="Alice", option="equip"),
        ScoutingSelected(player="Bob", option="ploy"),
        ScoutingRevealed(),
    ]
    events = [e.payload for e in store.events(gid)]
    assert TacOpSelected(player="Alice", tac_op="Flank", archetype="Recon") in events
    assert TacOpSelected(player="Bob", tac_op="Overrun", archetype="Seek & Destroy") in events
    assert events[-6:-3] == [
        ev.InitiativeDecided(player="Alice"),
        PrimaryOpSelected(player="Alice", op="kill"),
        PrimaryOpSelected(player="Bob", op="crit"),
    ]
    assert events[-1] == TacOpScored(player="Alice", vp=2, reason="Flank: both flanks held")


# --- KT24 Multiplayer Ops ----------------------------------------------------------------------


@tui_test
async def test_multiplayer_roll_off_then_each_tied_group_again(store):
    gid = stored(store, players(GameBuilder(ruleset="kt24-multiplayer"), {"Ana": 1, "Ben": 1, "Cleo": 1, "Dan": 1}))
    async with make_app(store, screen="record", game_id=gid).run_test(size=(100, 30)) as pilot:
        screen = pilot.app.screen
        await press(pilot, "o", *"6622", "enter")  # two ties: Ana and Ben for 1st, Cleo and Dan for 3rd
        assert "to roll again: Ana and Ben; Cleo and Dan" in str(screen.query_one("GameHeader").render())
        await press(pilot, *"14", "enter", *"53", "enter")  # the dialog opens again for each tied group
        assert "set-up order Ben › Ana › Cleo › Dan" in str(screen.query_one("GameHeader").render())
        assert len(screen.query("OperativeTable")) == 4
    assert [e.rolls for e in recorded(store, gid, 3)] == [{"Ana": 6, "Ben": 6, "Cleo": 2, "Dan": 2}, {"Ana": 1, "Ben": 4}, {"Cleo": 5, "Dan": 3}]
    assert store.state(gid).order == ["Ben", "Ana", "Cleo", "Dan"]


# --- KT24 Joint Ops ----------------------------------------------------------------------------


def joint(mission: str) -> GameBuilder:
    """Alice (a1-a2) against four NPOs, set up; TP1 with Alice to activate."""
    g = players(GameBuilder(ruleset="kt24-joint", mission=mission), {"Alice": 2})
    g.add(ev.PlayerJoined(player="NPOs", kill_team="NPOs", npo=True))
    g.add(*(ev.OperativeAdded(player="NPOs", operative=f"n{i}", datacard=card(wounds=7)) for i in range(1, 5)))
    g.add(ev.RolledOff(purpose="setup", rolls={"Alice": 6, "NPOs": 1}), ev.InitiativeDecided(player="Alice"))
    g.add(
        ev.ObjectiveMarkerSetUp(marker="m1", player="Alice"),
        ev.DropZoneChosen(player="Alice", drop_zone="south"),
        ev.DropZoneChosen(player="NPOs", drop_zone="north"),
    )
    return g.equipment_and_operatives(None).turning_point(1, {"Alice": 5, "NPOs": 2}, "Alice")


@tui_test
async def test_joint_ops_reinforcements_then_sabotage(store):
    g = joint("sabotage")
    g.add(*(ev.DamageInflicted(operative=n, damage=7, source="other") for n in ("n1", "n2")))
    expend_all(g).end_turning_point().add(ev.TurningPointStarted(turning_point=2))
    g.add(ev.RolledOff(purpose="initiative", rolls={"Alice": 5, "NPOs": 2}), ev.InitiativeDecided(player="Alice"))
    gid = stored(store, g)
    app = make_app(store, screen="record", game_id=gid)
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "p", "G", "1", "1")  # Alice passes; the NPOs' gambit: n1, then the second one (n2)
        assert "reinforcements: n1, n2 return" in message(app)
        await press(pilot, "p", "p", "a", "1", "e", "m")  # both pass; a1 activates and sabotages the only marker
        assert "a1: Sabotage on m1" in message(app)
        assert "mission 02 Sabotage" in str(app.screen.query_one("GameHeader").render())
        assert "markers sabotaged 1" in str(app.screen.query_one("ScoreBoard").render())
    events = [e.payload for e in store.events(gid)]
    assert ReinforcementsArrived(operatives=("n1", "n2")) in events and events[-1] == MarkerSabotaged(operative="a1", marker="m1")


@tui_test
async def test_joint_ops_an_operative_escapes_after_its_move(store):
    gid = stored(store, joint("escape"))
    async with make_app(store, screen="record", game_id=gid).run_test(size=(100, 30)) as pilot:
        await press(pilot, "E")
        assert "Escape is not a step of this moment" in message(pilot.app)
        await press(pilot, "a", "1", "e", "r", "E")
        assert "a1 escapes" in message(pilot.app)
    assert recorded(store, gid, 2) == [ev.Repositioned(operative="a1"), OperativeEscaped(operative="a1")]


# --- KT21 ------------------------------------------------------------------------------------


def kt21_overwatch_next() -> GameBuilder:
    """KT21 under the dataslate: Alice's a1 (Engage) and Bob's b1 have activated; Alice has no
    ready operative left and Bob has two, so it is Alice's turn and a1 may perform Overwatch."""
    g = players(GameBuilder(ruleset="kt21", killzone="octarius", dataslate="Balance Dataslate Q1 2023"), {"Alice": 1, "Bob": 3})
    g.setup(rolloff={"Alice": 6, "Bob": 1}, initiative="Alice", markers=[("m1", "Bob")])
    g.turning_point(1, {"Alice": 5, "Bob": 2}, "Alice")
    return g.activate("a1", "engage").activate("b1", "conceal")


@tui_test
async def test_kt21_normal_move_pass_overwatch_and_vp(store):
    g = players(GameBuilder(ruleset="kt21", killzone="octarius"), {"Alice": 1, "Bob": 1})
    g.setup(rolloff={"Alice": 6, "Bob": 1}, initiative="Alice", markers=[("m1", "Bob")])
    gid = stored(store, g.turning_point(1, {"Alice": 5, "Bob": 2}, "Alice"))
    async with make_app(store, screen="record", game_id=gid).run_test(size=(100, 30)) as pilot:
        await press(pilot, "a", "e", "v", "w")  # a1: Normal Move, Pass
        assert "a1: Pass" in message(pilot.app)
    assert recorded(store, gid, 2) == [NormalMoved(operative="a1"), Passed(operative="a1")]

    gid = stored(store, kt21_overwatch_next())
    async with make_app(store, screen="record", game_id=gid).run_test(size=(100, 30)) as pilot:
        await press(pilot, "O", "2", *"5444", *"111", "enter")  # a1 is the only one: the target b2, the dice
        assert "a1 performs Overwatch with Gun at b2" in message(pilot.app)
        await press(pilot, "V", "1")  # Alice is player 1 in every list (issue 24 #15), whoever is to activate
        await answer(pilot, "3 controls two markers")
        await press(pilot, "m")
        assert "Alice scores 3VP" in message(pilot.app)
    overwatch, scored = recorded(store, gid, 2)
    assert isinstance(overwatch, OverwatchFired) and overwatch.attacks[0].attack_dice.rolls == (5, 4, 4, 4)
    assert store.state(gid).operatives["b2"].wounds == 7  # BS 5+: one hit of 3 damage (001 Overwatch)
    assert scored == MissionVPScored(player="Alice", vp=3, category="mission", reason="controls two markers")


@tui_test
async def test_kt21_shot_against_an_invulnerable_save(store):
    """`i` in the shoot dialog: the defender uses its invulnerable save, so AP2 takes no dice
    away (004): all three are typed, and 4 4 1 against 4+ leaves the critical's 4 damage."""
    g = GameBuilder(ruleset="kt21", killzone="octarius")
    g.add(ev.PlayerJoined(player="Alice", kill_team="Alice's team"), ev.PlayerJoined(player="Bob", kill_team="Bob's team"))
    g.add(
        ev.OperativeAdded(player="Alice", operative="a1", datacard=card(weapons=(gun("Gun", 4, 4, (3, 4), "AP2"), blade()))),
        ev.OperativeAdded(player="Bob", operative="b1", datacard=msgspec.structs.replace(card(save=5, wounds=20), invulnerable_save=4)),
    )
    g.setup(rolloff={"Alice": 6, "Bob": 1}, initiative="Alice", markers=[("m1", "Bob")])
    gid = stored(store, g.turning_point(1, {"Alice": 5, "Bob": 2}, "Alice"))
    async with make_app(store, screen="record", game_id=gid).run_test(size=(100, 30)) as pilot:
        await press(pilot, "a", "e", "s")
        assert "invulnerable 4+" in str(pilot.app.screen.query_one("#target-0").render())
        assert "i invulnerable save" in str(pilot.app.screen.query_one("#options").render())
        await press(pilot, "i", *"6541", *"441", "enter")
    (shot,) = recorded(store, gid, 1)
    assert shot.attacks[0].invulnerable and shot.attacks[0].defence_dice.rolls == (4, 4, 1)
    assert store.state(gid).operatives["b1"].wounds == 16


@tui_test
async def test_any_event_typed_as_the_cli_takes_it(store):
    gid = stored(store, kt21_overwatch_next())
    said = []
    async with make_app(store, screen="record", game_id=gid).run_test(size=(100, 30)) as pilot:
        for typed in ('MissionVPScored player=Bob vp=2 category=tac reason="Recon sweep"', "Dashed operative=nobody", "Flew operative=a1"):
            await press(pilot, "full_stop", "e")
            await answer(pilot, typed)
            said.append(message(pilot.app))
    assert "Bob scores 2VP" in said[0] and "nobody" in said[1] and "unknown event type 'Flew'" in said[2]
    assert recorded(store, gid, 1) == [MissionVPScored(player="Bob", vp=2, category="tac", reason="Recon sweep")]


def test_the_cli_and_the_record_screen_read_an_event_alike():
    from ktlog.text.event_text import parse_event

    assert parse_event('TacOpScored player=Ana vp=2 reason="Flank: both flanks held"') == TacOpScored(player="Ana", vp=2, reason="Flank: both flanks held")
    assert parse_event('Charged operative=a1 targets=b1,b2 override="Kill team rule"').override == "Kill team rule"


def test_a_step_of_another_ruleset_says_so():
    from ktlog.tui.steps import Steps

    steps = Steps(kt21_overwatch_next().add(ev.OperativeActivated(operative="b2", order="engage")).state)
    assert steps.legal("normal_move") and not steps.legal("reposition")
    assert steps.why_not("reposition") == "Reposition is not part of KT21"
