"""The simulated table under British rules: the scripted players make every declaration the rules allow, on
the panel's presses (``companion.session.panel_presses``), and a stolen deal is seen and said."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from companion.session import TableSession  # noqa: E402
from lab import simtable as st  # noqa: E402
from table.announcements import Irregularity, IrregularityKind  # noqa: E402
from table.inputs import Discard, GoAlone, Input, NameTrump, OrderUp, Pass, Play, UpCard  # noqa: E402
from table.log import MatchLog, read_log  # noqa: E402
from table.rules import Rules  # noqa: E402
from table.sim import SimDeal  # noqa: E402
from vision.observations import CardLanded, UpCardShown, Zone  # noqa: E402

BRITISH = Rules.preset("british")
# British play with every optional declaration a table may switch on.
BRITISH_ALL = BRITISH.replace(blind_lone=True, no_trump=True, stick_the_dealer=True, super_euchre=True)


def _declarations(d: SimDeal, rules: Rules) -> set[str]:
    found: set[str] = set()
    calls = [x for x in d.inputs if isinstance(x, Pass | OrderUp | NameTrump | GoAlone)]
    if d.up_card.is_benny:
        found.add("benny_up")
    if calls and isinstance(calls[0], GoAlone):
        found.add("blind_lone")
    if d.maker_seat is not None and any(s % 2 != d.maker_seat % 2 for s in d.alone_seats):
        found.add("defender_alone")
    if d.no_trump:
        found.add("no_trump")
    stuck = d.round_made == 2 and d.maker_seat == d.dealer and sum(isinstance(c, Pass) for c in d.calls) == 7
    if stuck and rules.stick_the_dealer:
        found.add("stick_the_dealer")
    if d.reason == "super_euchre":
        found.add("super_euchre")
    return found


@pytest.mark.parametrize(
    ("rules", "wanted"),
    [
        (BRITISH, {"benny_up", "defender_alone"}),
        (BRITISH_ALL, {"benny_up", "defender_alone", "blind_lone", "no_trump", "stick_the_dealer", "super_euchre"}),
    ],
)
def test_the_scripted_players_make_every_declaration_the_rules_allow(rules: Rules, wanted: set[str]) -> None:
    seen: Counter[str] = Counter()
    for seed in range(3):
        script = st.build_script(seed, hands=24, rules=rules)
        for d in script.deals:
            seen.update(_declarations(d, rules))
    # Every one several times in three 24-hand runs, and nothing the rules do not allow.
    assert set(seen) == wanted, seen
    assert min(seen.values()) >= 2, seen


def test_north_american_rules_keep_the_plain_odds() -> None:
    assert st.odds_for(Rules()) == st._ODDS
    assert st.odds_for(Rules(deck_size=32)) == st._ODDS
    assert st.odds_for(BRITISH) != st._ODDS


def _timeline(script: st.TableScript) -> list[Input]:
    """The table's inputs in order, up to the end of the first game (a new game starts the next)."""
    out: list[Input] = []
    for game, d in zip(script.deal_games, script.deals, strict=True):
        if game > 0:
            break
        out.extend(d.inputs)
    return out


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_panel_presses_through_the_session_give_back_every_scripted_declaration(tmp_path: Path, seed: int) -> None:
    """Each button input's presses, pressed on the session at its moment (the cards coming in as the camera
    reports them), make exactly the script's inputs: bids, alone (maker, partner, defender, blind), no trump."""
    script = st.build_script(seed, hands=8, rules=BRITISH_ALL)
    log = tmp_path / f"s{seed}.jsonl"
    session = TableSession(MatchLog.create(log, BRITISH_ALL, first_dealer=script.deals[0].dealer), clock=lambda: 0.0)
    pending = iter(script.buttons)
    press = next(pending, None)
    timeline = _timeline(script)
    for frame, inp in enumerate(timeline):
        if press is not None and inp is press.action:
            for action in press.panel:
                session.act(action, frame=frame)
            press = next(pending, None)
        elif isinstance(inp, UpCard):
            session.observe(UpCardShown(inp.card, 1.0, frame))
        elif isinstance(inp, Play):
            session.observe(CardLanded(Zone.of_seat(inp.seat), inp.card, 1.0, frame))
    logged = read_log(log).inputs

    def unseen_discard(x: Input) -> bool:
        return isinstance(x, Discard) and x.card is None

    # The unseen discard is the app's inference at the first lead (or the engine's, once a player goes alone
    # while it is awaited); everything else is the script's, in its order, and the deals come out the same.
    assert [x for x in logged if not unseen_discard(x)] == [x for x in timeline if not unseen_discard(x)]
    played = [d for g, d in zip(script.deal_games, script.deals, strict=True) if g == 0]
    got = session.match.deals
    assert [(d.points, d.alone_seats, d.trick_winners) for d in got] == [
        (d.points, tuple(d.alone_seats), list(d.trick_winners)) for d in played
    ]
    assert any(isinstance(x, GoAlone) for x in timeline)  # a declaration after trump among them


def _out_of_turn(run: st.SimRun) -> list[tuple[int | None, int | None]]:
    return [
        (a.seat, a.dealer)
        for _, a in run.pipeline.announcements
        if isinstance(a, Irregularity) and a.kind is IrregularityKind.DEAL_OUT_OF_TURN
    ]


@pytest.mark.parametrize(("seed", "rules"), [(0, Rules()), (2, BRITISH)])
def test_a_stolen_deal_is_said_and_an_up_card_turned_by_its_dealer_is_not(seed: int, rules: Rules) -> None:
    """The staging's geometry (the oracle reads each face-up card where the renderer puts it): an up-card turned
    face up in front of a seat and carried to the kitty names that seat; every deal here is turned that way."""
    honest = st.build_script(seed, hands=3, rules=rules, turned_in_front=1.0)
    thieves = {1: (honest.deals[1].dealer + 1) % 4, 2: (honest.deals[2].dealer + 2) % 4}
    stolen = st.build_script(seed, hands=3, rules=rules, stolen=thieves)
    faces, back, _ = st.load_deck("procedural", None, rules.deck_size)
    runs = []
    for script in (honest, stolen):
        renderer = st.TableRenderer(script, faces, back, seed=seed)
        runs.append(st.run_simulation(script, renderer, st.OracleDetector(renderer), "procedural", render=False))
    assert _out_of_turn(runs[0]) == []
    assert runs[0].score.trick_winner_accuracy == 1.0
    # The thief named, and the dealer whose deal it was; the deals are played and scored as ever.
    assert _out_of_turn(runs[1]) == [(thieves[1], stolen.deals[1].dealer), (thieves[2], stolen.deals[2].dealer)]
    assert runs[1].score.trick_winner_accuracy == 1.0


def test_an_up_card_turned_on_the_kitty_names_nobody() -> None:
    """The usual way: the card is turned where it lies, on the kitty, so the camera cannot tell who turned it."""
    script = st.build_script(0, hands=2)
    faces, back, _ = st.load_deck("procedural", None)
    renderer = st.TableRenderer(script, faces, back, seed=0)
    run = st.run_simulation(script, renderer, st.OracleDetector(renderer), "procedural", render=False)
    ups = [x for x in run.pipeline.match.history if isinstance(x, UpCard)]
    assert len(ups) == len(script.deals) and all(x.turned_by is None for x in ups)


def test_simulate_stages_stolen_deals_and_says_how_many_were_caught(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    argv = ["simulate", "--rules", "british", "--hands", "2", "--seed", "1", "--detector", "oracle", "--steal-rate",
            "1", "--pace", "brisk"]  # fmt: skip
    assert main(argv) == 0
    out, err = capsys.readouterr()
    line = next(x for x in err.splitlines() if "deals out of turn" in x)
    staged = int(line.split("deals out of turn: ")[1].split()[0])
    assert staged >= 2 and line.endswith(f"{staged} staged, {staged} said, 0 said falsely")
    assert "trick_winner_accuracy=1 " in out.splitlines()[-1]
