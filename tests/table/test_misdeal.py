"""A misdeal declared at the table: the deal is void, scores nothing, and the same dealer deals again.

Covered here: the engine input (``Misdeal``) in every phase, the match log,
EGN export and import of the misdeal annotation (round trips, files other
writers made, the redeal that used to read as a dealer out of rotation), and
``euchre-table replay``.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from engine_script import MARCH_PLAY, irregular, of_type, run

from table.announcements import Expect, GameWon, HandScored, Irregularity, IrregularityKind, Prompt
from table.egn import (
    EgnError,
    dumps_egn,
    export_egn,
    loads_egn,
    misdeal_in_note,
    misdeal_note,
    parse_egn,
    replay_egn,
)
from table.inputs import Misdeal, Undo
from table.log import MatchLog, load_match
from table.match import EngineError, Match, Phase
from table.rules import Rules

NA = Rules.preset("north_american")
K = IrregularityKind
DATA = Path(__file__).parent / "data" / "egn"
MARCH = "up 9h; 1 pass; 2 order; 0 discard 9c; " + MARCH_PLAY  # dealer 0; team 0 marches (2 points)


def deal_json(match: Match) -> list[dict[str, Any]]:
    return [d.to_json() for d in match.deals]


def example(name: str) -> dict[str, Any]:
    obj: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return obj


# ---- the engine


def test_a_misdeal_in_the_bidding_voids_the_deal_and_the_dealer_deals_again() -> None:
    m = Match(NA)
    run(m, "up 9h; 1 pass; 2 order")
    out = m.apply(Misdeal())
    irr = [a for a in out if isinstance(a, Irregularity)]
    assert [(i.kind, i.seat) for i in irr] == [(K.MISDEAL, None)]
    assert irr[0].detail == "the table declared a misdeal: seat 0's deal is void and seat 0 deals again"
    assert of_type(out, HandScored) == [HandScored((0, 0), (0, 0), 0, "misdeal", (0, 0))]
    assert out[-1] == Prompt(0, Expect.UP_CARD)
    (deal,) = m.deals
    assert (deal.finished, deal.voided, deal.reason, deal.points) == (True, True, "misdeal", (0, 0))
    assert deal.irregularities == irr
    run(m, MARCH)
    assert [d.dealer for d in m.deals] == [0, 0] and m.score == (2, 0) and m.dealer == 1


def test_a_misdeal_during_play_drops_the_tricks_points_and_a_pending_renege() -> None:
    m = Match(NA)
    run(m, "up 9h; 1 order; 0 discard ?; 1:As 2:Ac 3:Ad 0:Jh; 0:Kc 1:9c 2:Qs")
    assert m.phase is Phase.RENEGE_DECISION  # seat 2 showed out of spades in trick 1, then played the Qs
    out = m.apply(Misdeal())
    assert irregular(out) == [K.MISDEAL] and m.phase is Phase.HAND_OVER
    (deal,) = m.deals
    assert deal.voided and deal.points == (0, 0) and m.score == (0, 0) and m.dealer == 0
    assert len(deal.reneges) == 1 and not deal.penalty_accepted  # on record, never penalised
    assert m.view().pending_renege is None


def test_a_misdeal_does_not_count_towards_a_fixed_number_of_deals() -> None:
    m = Match(NA.replace(target=0, num_deals=1))
    run(m, "up 9h; 1 pass")
    m.apply(Misdeal())
    assert not m.game_over and m.view().deals_played == 0
    out = run(m, MARCH)
    assert of_type(out, GameWon) == [GameWon(0, (2, 0))]


def test_with_no_deal_in_progress_a_misdeal_changes_nothing() -> None:
    m = Match(NA)
    out = m.apply(Misdeal())  # before the first up-card: the dealer simply deals
    assert irregular(out) == [K.NOT_ALLOWED] and m.deals == [] and m.dealer == 0
    run(m, MARCH)
    out = m.apply(Misdeal())  # after a hand was scored: it stands
    assert irregular(out) == [K.NOT_ALLOWED]
    assert m.score == (2, 0) and m.dealer == 1 and m.deals[0].reason == "march"


def test_a_misdeal_after_the_game_is_over_is_ignored() -> None:
    m = Match(NA.replace(target=2))
    run(m, MARCH)
    assert m.game_over
    out = m.apply(Misdeal())
    assert [(a.kind, a.detail) for a in out if isinstance(a, Irregularity)] == [
        (K.NOT_ALLOWED, "the game is over; Misdeal ignored")
    ]
    assert m.score == (2, 0)


def test_undo_takes_a_misdeal_back() -> None:
    m = Match(NA)
    run(m, "up 9h; 1 pass")
    m.apply(Misdeal())
    m.apply(Undo())
    assert m.phase is Phase.BID_ROUND_1 and not m.deals[0].finished and m.expected.seat == 2


def test_a_malformed_misdeal_raises() -> None:
    with pytest.raises(EngineError, match="nines_and_tens must be a seat 0-3 or None"):
        Match(NA).apply(Misdeal(nines_and_tens=4))


def test_a_misdeal_goes_through_the_match_log(tmp_path: Path) -> None:
    m = Match(NA)
    run(m, "up 9h; 1 pass; 2 order")
    m.apply(Misdeal())
    run(m, MARCH)
    path = tmp_path / "m.jsonl"
    with MatchLog.create(path, NA) as log:
        for inp in m.history:
            log.append(inp)
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]
    assert [x for x in lines if x["type"] == "Misdeal"] == [{"i": 3, "type": "Misdeal", "nines_and_tens": None}]
    loaded, warnings = load_match(path)
    assert warnings == [] and Misdeal() in loaded.history
    assert deal_json(loaded) == deal_json(m) and loaded.score == (2, 0)


# ---- EGN


@pytest.mark.parametrize(
    ("note", "found"),
    [
        ("[?]Misdeal: seat 0's deal is void; seat 0 deals again", Misdeal()),
        ("Misdeal - the dealer turned a card over while dealing.", Misdeal()),
        ("[??] misdeal", Misdeal()),
        ("[!]Misdeal (nines and tens, seat 2): seat 1's deal is void", Misdeal(nines_and_tens=2)),
        ("Misdealing is a mistake", None),
        ("[?]Irregularity: not_allowed: a misdeal, but no deal is in progress", None),
        ("A misdeal would have been better", None),
    ],
)
def test_which_annotations_declare_a_misdeal(note: str, found: Misdeal | None) -> None:
    assert misdeal_in_note(note) == found


def round_trip(m: Match) -> tuple[dict[str, Any], Match]:
    exported = export_egn(m)
    again = replay_egn(loads_egn(dumps_egn(exported)))
    assert again.warnings == []
    assert deal_json(again.match) == deal_json(m) and again.match.score == m.score
    assert export_egn(again.match, source=again.game) == exported
    return exported, again.match


def test_a_misdeal_in_the_bidding_round_trips() -> None:
    m = Match(NA)
    run(m, "up 9h; 1 pass; 2 order")
    m.apply(Misdeal())
    run(m, MARCH)
    exported, _ = round_trip(m)
    void, redeal = exported["deals"]
    assert (void["initialState"]["dealer"], redeal["initialState"]["dealer"]) == (0, 0)
    (bidding,) = void["phases"]
    assert bidding["calls"] == ["Pass", "Order"]
    assert "discard" not in bidding  # the dealer never discarded: none is made up on the way back
    assert bidding["callAnnotations"] == {"1": ["[?]Misdeal: seat 0's deal is void; seat 0 deals again"]}


def test_a_misdeal_before_any_bid_and_one_during_play_round_trip() -> None:
    m = Match(NA)
    run(m, "up Ts")
    m.apply(Misdeal())
    run(m, "up 9h; 1 order; 0 discard 9c; 1:As 2:Ac 3:Ad 0:Jh; 0:Kc")
    m.apply(Misdeal())
    run(m, MARCH)
    exported, again = round_trip(m)
    first, second, _ = exported["deals"]
    assert first["phases"][0]["calls"] == [] and first["phases"][0]["callAnnotations"] == {"0": [misdeal_note(0)]}
    assert second["phases"][1]["playAnnotations"] == {"4": [misdeal_note(0)]}  # at the fifth card, the Kc
    assert [d.reason for d in again.deals] == ["misdeal", "misdeal", "march"]


def test_a_nines_and_tens_redeal_round_trips() -> None:
    m = Match(NA.replace(nines_and_tens=True))
    run(m, "up 9h; 1 pass")
    m.apply(Misdeal(nines_and_tens=2))
    run(m, MARCH)
    exported, again = round_trip(m)
    assert exported["metadata"]["ruleset"]["nines_and_tens"] is True
    assert exported["deals"][0]["phases"][0]["callAnnotations"] == {
        "0": ["[?]Misdeal (nines and tens, seat 2): seat 0's deal is void; seat 0 deals again"]
    }
    assert [(i.kind, i.seat) for i in again.deals[0].irregularities] == [(K.MISDEAL, 2)]


def six_points_with_a_misdeal(note: str | None) -> dict[str, Any]:
    """The spec's "Six Points in Two Hands" with a void deal by seat 1 before its deal that counts."""
    obj = example("Six Points in Two Hands.egn")
    bidding: dict[str, Any] = {"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": ["Pass"], "isAlone": False}
    if note is not None:
        bidding["callAnnotations"] = {"0": [note]}
    void = {"dealNumber": 1, "initialState": {"dealer": 1, "upCard": "9c"}, "phases": [bidding]}
    obj["deals"].insert(1, void)
    obj["deals"][2]["dealNumber"] = 2
    return obj


def test_a_file_with_a_misdeal_and_the_redeal_by_the_same_dealer() -> None:
    note = "Misdeal - seat 3 was dealt six cards."
    replay = replay_egn(parse_egn(six_points_with_a_misdeal(note), "six.egn"))
    assert replay.warnings == []
    m = replay.match
    assert [(d.dealer, d.reason) for d in m.deals] == [(0, "lone_march"), (1, "misdeal"), (1, "march")]
    assert m.score == (10, 9) and m.game_over and m.winner == 0  # as the file without the void deal
    assert [i.kind for i in m.deals[1].irregularities] == [K.MISDEAL]
    # Exported again, the file's own words stand for the misdeal (none are added), and it reads back the same.
    exported = export_egn(m, source=replay.game)
    assert exported["deals"][1]["phases"][0]["callAnnotations"] == {"0": [note]}
    again = replay_egn(parse_egn(exported))
    assert deal_json(again.match) == deal_json(m)


def test_the_same_dealer_again_without_a_misdeal_is_still_out_of_rotation() -> None:
    with pytest.raises(
        EgnError,
        match=r"^six\.egn: deals\[2\]\.initialState\.dealer: seat 1 deals, but the rotation gives seat 2 "
        r"\(the same dealer deals again only after a deal annotated as a misdeal\)$",
    ):
        replay_egn(parse_egn(six_points_with_a_misdeal("Seat 1 passes."), "six.egn"))


def test_a_misdeal_note_on_a_hand_played_out_or_thrown_in_leaves_it_as_played() -> None:
    obj = example("Custom Scenario.egn")
    obj["deals"][0]["phases"][1]["playAnnotations"] = {"19": ["[?]Misdeal?"]}
    replay = replay_egn(parse_egn(obj, "c.egn"))
    assert replay.warnings == [
        "c.egn: deals[0]: annotated as a misdeal, but the hand was played to its end; scored as played"
    ]
    assert replay.match.deals[0].points == (0, 1) and not replay.match.deals[0].voided
    # EGN's replayer notes call a hand everyone passed a "misdeal/all-pass": that is a thrown-in hand.
    m = Match(NA)
    run(m, "up 9h; 1 pass; 2 pass; 3 pass; 0 pass; 1 pass; 2 pass; 3 pass; 0 pass")
    exported = copy.deepcopy(export_egn(m))
    exported["deals"][0]["phases"][0]["callAnnotations"] = {"7": ["Misdeal/all-pass"]}
    replay = replay_egn(parse_egn(exported))
    assert replay.warnings == [] and replay.match.deals[0].thrown_in and replay.match.dealer == 1


def test_replay_shows_the_misdeal(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from companion.cli import main

    path = tmp_path / "misdeal.egn"
    path.write_text(json.dumps(six_points_with_a_misdeal("[?]Misdeal")), encoding="utf-8")
    assert main(["replay", str(path), "--json"]) == 0
    out, err = capsys.readouterr()
    obj = json.loads(out)
    void = obj["deals"][1]
    keys = {"dealer", "trump", "maker_seat", "alone_seats", "trick_winners", "tricks_won", "points", "reneges"}
    assert keys | {"irregularities"} <= set(void)
    assert (void["dealer"], void["points"], void["reason"], void["voided"]) == (1, [0, 0], "misdeal", True)
    assert [i["kind"] for i in void["irregularities"]] == ["misdeal"]
    assert obj["final_score"] == [10, 9] and "irregularities=1" in err.splitlines()[-1]
    assert main(["replay", str(path)]) == 0
    text = capsys.readouterr().out
    said = "  irregularity (misdeal): the table declared a misdeal: seat 1's deal is void and seat 1 deals again"
    assert said in text.splitlines()
    assert "  tricks 0-0; points 0-0 (misdeal); score 8-9" in text
