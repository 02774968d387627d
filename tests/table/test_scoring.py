"""Scoring: every row of RULES.md and every scoring switch, as a table and through whole hands; game end."""

from __future__ import annotations

from typing import Any

import pytest
from engine_script import irregular, of_type, run, tricks_script

from table.announcements import GameDrawn, GameWon, HandScored, IrregularityKind
from table.deal import hand_points
from table.match import Match, Phase
from table.rules import DefenderAlone, LoneDefenderScoring, Rules

NA = Rules.preset("north_american")


@pytest.mark.parametrize(
    ("changes", "made", "maker_alone", "defender_alone", "blind", "points", "reason"),
    [
        ({}, 3, False, False, False, 1, "made"),
        ({}, 4, False, False, False, 1, "made"),
        ({}, 5, False, False, False, 2, "march"),
        ({}, 3, True, False, False, 1, "made"),
        ({}, 4, True, False, False, 1, "made"),
        ({}, 5, True, False, False, 4, "lone_march"),
        ({"loner_march_points": 5}, 5, True, False, False, 5, "lone_march"),
        ({"loner_march_points": 3}, 5, True, False, False, 3, "lone_march"),
        ({}, 2, False, False, False, -2, "euchre"),
        ({}, 0, False, False, False, -2, "euchre"),
        ({}, 2, True, False, False, -2, "lone_euchre"),
        ({"loner_euchred_points": 4}, 1, True, False, False, -4, "lone_euchre"),
        ({}, 2, False, True, False, -4, "lone_defender"),  # four for three or more
        ({}, 0, False, True, False, -4, "lone_defender"),
        (
            {"lone_defender_scoring": LoneDefenderScoring.TWO_OR_FOUR_FOR_MARCH},
            2,
            False,
            True,
            False,
            -2,
            "lone_defender",
        ),
        (
            {"lone_defender_scoring": LoneDefenderScoring.TWO_OR_FOUR_FOR_MARCH},
            0,
            False,
            True,
            False,
            -4,
            "lone_defender",
        ),
        ({}, 4, False, True, False, 1, "made"),  # makers beat the lone defender
        ({}, 5, True, True, False, 4, "lone_march"),
        ({"super_euchre": True}, 0, False, False, False, -4, "super_euchre"),
        ({"super_euchre": True}, 1, False, False, False, -2, "euchre"),
        ({"super_euchre": True}, 0, True, False, False, -4, "super_euchre"),
        ({"blind_lone": True}, 3, True, False, True, 5, "blind_lone"),
        ({"blind_lone": True}, 5, True, False, True, 5, "blind_lone"),
        ({"blind_lone": True}, 2, True, False, True, -1, "blind_lone_euchre"),
    ],
)
def test_hand_points(
    changes: dict[str, Any], made: int, maker_alone: bool, defender_alone: bool, blind: bool, points: int, reason: str
) -> None:
    # Makers are team 1 here; a negative ``points`` means that many to the defenders (team 0).
    got, why = hand_points(NA.replace(**changes), 1, (5 - made, made), maker_alone, defender_alone, blind)
    assert got == ((0, points) if points > 0 else (-points, 0))
    assert why == reason


def _hand(m: Match, bids: str, winners: list[int], discard: bool = True) -> list[Any]:
    """Bid (up-card Kh, hearts trump), then five scripted tricks won by ``winners``."""
    out = run(m, f"up Kh; {bids}")
    if m.phase is Phase.DISCARD:
        out += run(m, f"{m.dealer} discard Kh" if discard else f"{m.dealer} discard ?")
    d = m.deals[-1]
    active = tuple(s for s in range(4) if (s + 2) % 4 not in d.alone_seats)
    assert m.expected.seat is not None
    return out + run(m, tricks_script(m.expected.seat, winners, active))


@pytest.mark.parametrize(
    ("bids", "winners", "points", "reason"),
    [
        ("1 order", [1, 1, 1, 0, 0], (0, 1), "made"),
        ("1 order", [1, 1, 1, 3, 0], (0, 1), "made"),
        ("1 order", [1, 3, 1, 3, 1], (0, 2), "march"),
        ("1 order", [0, 0, 1, 1, 0], (2, 0), "euchre"),
        ("1 order alone", [1, 1, 1, 1, 1], (0, 4), "lone_march"),
        ("1 order alone", [1, 0, 0, 2, 2], (2, 0), "lone_euchre"),
        ("1 pass; 2 order", [0, 2, 0, 2, 0], (2, 0), "march"),
    ],
)
def test_whole_hands_score(bids: str, winners: list[int], points: tuple[int, int], reason: str) -> None:
    m = Match(NA)
    out = _hand(m, bids, winners)
    assert irregular(out) == []
    scored = of_type(out, HandScored)
    assert len(scored) == 1 and scored[0].points == points and scored[0].reason == reason  # type: ignore[attr-defined]
    assert m.score == points and m.deals[0].points == points and m.deals[0].trick_winners == winners


def test_lone_defender_through_a_whole_hand() -> None:
    m = Match(NA.replace(defender_may_go_alone=DefenderAlone.ALWAYS))
    run(m, "up Kh; 1 order; 0 discard Kh; 2 alone")
    # Seat 0 sits out (partner of the lone defender); seat 2 takes three tricks.
    out = run(m, tricks_script(m.expected.seat or 0, [2, 2, 2, 1, 3], (1, 2, 3)))
    assert irregular(out) == []
    assert m.score == (4, 0) and of_type(out, HandScored)[0].reason == "lone_defender"  # type: ignore[attr-defined]


def test_super_euchre_through_a_whole_hand() -> None:
    m = Match(NA.replace(super_euchre=True))
    _hand(m, "1 order", [0, 2, 2, 0, 0])
    assert m.score == (4, 0)


def test_game_to_target() -> None:
    m = Match(NA, score=(0, 8))
    out = _hand(m, "1 order", [1, 3, 1, 3, 1])
    assert of_type(out, GameWon) == [GameWon(1, (0, 10))]
    assert m.game_over and m.winner == 1 and m.phase is Phase.GAME_OVER
    out = run(m, "up 9s")
    assert irregular(out) and m.phase is Phase.GAME_OVER


def test_win_by_two() -> None:
    m = Match(NA.replace(win_by_two=True), score=(9, 9))
    out = _hand(m, "1 order", [1, 1, 1, 0, 0])
    assert m.score == (9, 10) and not m.game_over and not of_type(out, GameWon)
    out = _hand(m, "2 order", [2, 2, 2, 1, 1])  # dealer 1 now; seat 2 leads
    assert m.score == (10, 10) and not m.game_over
    _hand(m, "3 order", [3, 3, 1, 3, 1])  # dealer 2: march for team 1
    assert m.score == (10, 12) and m.game_over and m.winner == 1


def test_num_deals_counts_thrown_in_deals_and_may_draw() -> None:
    rules = NA.replace(target=0, num_deals=2)
    m = Match(rules)
    run(m, "up 9h" + "; 1 pass; 2 pass; 3 pass; 0 pass" * 2)
    assert not m.game_over
    out = _hand(m, "2 order", [2, 2, 2, 1, 1])  # dealer 1
    assert m.score == (1, 0) and m.game_over and of_type(out, GameWon) == [GameWon(0, (1, 0))]


def test_num_deals_ending_level_is_a_draw() -> None:
    m = Match(NA.replace(target=0, num_deals=1))
    out = run(m, "up 9h" + "; 1 pass; 2 pass; 3 pass; 0 pass" * 2)
    assert of_type(out, GameDrawn) == [GameDrawn((0, 0))] and m.game_over and m.winner is None


def test_score_beyond_target_does_not_end_a_fixed_deal_game() -> None:
    m = Match(NA.replace(target=0, num_deals=3), score=(20, 0))
    _hand(m, "1 order", [1, 1, 1, 0, 0])
    assert not m.game_over


def test_natural_trump_to_pick_up() -> None:
    rules = NA.replace(natural_trump_to_pick_up=True)
    # The dealer (seat 0) takes up Kh and discards it; it plays Ac As Ad Jd 9s: the left bower is no natural trump.
    plays = "1:Kc 2:Qc 3:Jc 0:Ac; 0:As 1:Ks 2:Qs 3:Js; 0:Ad 1:Kd 2:Qd 3:Td; 0:Jd 1:9h 2:Th 3:Qh; 0:9s 1:Ts 2:Ah 3:9d"
    m = Match(rules)
    out = run(m, f"up Kh; 1 pass; 2 pass; 3 pass; 0 order; 0 discard Kh; {plays}")
    assert irregular(out) == [IrregularityKind.NOT_ALLOWED] and m.score == (2, 0)
    # The same cards with the switch off: nothing to say.
    m = Match(NA)
    assert irregular(run(m, f"up Kh; 1 pass; 2 pass; 3 pass; 0 order; 0 discard Kh; {plays}")) == []
    # Someone else ordering up forces the dealer: no claim.
    m = Match(rules)
    assert irregular(run(m, f"up Kh; 1 order; 0 discard Kh; {plays}")) == []
    # Discard unseen and the up-card not played: the dealer discarded it, so the five played were the hand.
    m = Match(rules)
    out = run(m, f"up Kh; 1 pass; 2 pass; 3 pass; 0 order; 0 discard ?; {plays}")
    assert irregular(out) == [IrregularityKind.NOT_ALLOWED]
