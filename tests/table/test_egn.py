"""EGN through the engine: the spec examples replay to hand-checked results; export then import is a round trip."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from table.cards import BENNY, Card, Suit
from table.egn import (
    EgnError,
    dumps_egn,
    export_egn,
    import_egn,
    load_egn,
    parse_egn,
    replay_egn,
)
from table.inputs import AcceptPenalty, Discard, GoAlone, Input, OrderUp, Play, UpCard
from table.match import Match
from table.rules import BennyTurnedUp, DefenderAlone, LonerLead, RenegePenalty, Rules
from table.sim import BiddingOdds, simulate_game

DATA = Path(__file__).parent / "data" / "egn"
STD = Rules.preset("north_american").replace(stick_the_dealer=True)


def C(text: str) -> Card:
    return Card.parse(text)


def deal_json(match: Match) -> list[dict[str, Any]]:
    return [d.to_json() for d in match.deals]


# Worked by hand from the rules (seat of each card, trick winners, points), deal by deal.
# (file, initial score, per deal (trick winners, points), final score, winning team)
DealResult = tuple[list[int], tuple[int, int]]
HAND_CHECKED: list[tuple[str, tuple[int, int], list[DealResult], tuple[int, int], int | None]] = [
    (
        # Dealer 0 turns the Jc; all pass round 1; seat 1 names spades holding none. Seat 3's 9s trumps the
        # heart lead, Js wins trick 2, seat 2's Kd and Ad take two, Qs trumps the club lead: makers 3, 1 point.
        "Custom Scenario.egn",
        (0, 0),
        [([3, 3, 2, 2, 3], (0, 1))],
        (0, 1),
        None,
    ),
    (
        # "Epic 0-7 Comeback": team 0 wins from 0-7, finishing by euchring seat 3's order of the 9h.
        "Epic Comeback.egn",
        (0, 7),
        [
            ([2, 2, 0, 3, 3], (1, 0)),
            ([2, 2, 3, 1, 0], (2, 0)),  # dealer 1 stuck with diamonds; Qs beats Js in spades: euchred
            ([2, 0, 0, 0, 0], (2, 0)),
            ([1, 1, 3, 3, 2], (0, 1)),
            ([2, 1, 0, 3, 2], (1, 0)),
            ([3, 3, 1, 2, 1], (0, 1)),
            ([2, 2, 2, 2, 2], (2, 0)),  # seat 3 orders the Jc; team 0 takes all five: euchred, 2
            ([2, 2, 1, 0, 0], (1, 0)),
            ([0, 3, 2, 0, 3], (2, 0)),
        ],
        (11, 9),
        0,
    ),
    (
        # Ends with two loners by the dealer: seat 3's (Jc, the left bower, takes trick 4: only 3 tricks,
        # 1 point) and seat 0's, a march worth 4: 10-7.
        "Quite the Hustle Annotated.egn",
        (0, 0),
        [
            ([1, 2, 1, 3, 1], (0, 1)),
            ([1, 0, 3, 2, 3], (0, 1)),
            ([2, 0, 0, 0, 0], (2, 0)),
            ([1, 2, 2, 0, 2], (1, 0)),
            ([3, 0, 3, 2, 0], (1, 0)),
            ([1, 1, 0, 3, 2], (0, 1)),
            ([3, 1, 1, 3, 1], (0, 2)),
            ([1, 1, 1, 3, 2], (0, 1)),
            ([2, 0, 2, 0, 0], (2, 0)),
            ([3, 3, 3, 2, 0], (0, 1)),
            ([0, 0, 0, 0, 0], (4, 0)),
        ],
        (10, 7),
        0,
    ),
    (
        # 4-9: seat 2 names hearts alone in round 2 and takes all five (4 points, 8-9), then seat 2 orders
        # the Qd and team 0 marches (2 points): ten points, six of them in two hands.
        "Six Points in Two Hands.egn",
        (4, 9),
        [([2, 2, 2, 2, 2], (4, 0)), ([2, 2, 2, 2, 0], (2, 0))],
        (10, 9),
        0,
    ),
]


@pytest.mark.parametrize(("name", "start", "deals", "final", "winner"), HAND_CHECKED, ids=lambda x: str(x)[:20])
def test_spec_examples_replay_to_the_hand_checked_result(
    name: str,
    start: tuple[int, int],
    deals: list[tuple[list[int], tuple[int, int]]],
    final: tuple[int, int],
    winner: int | None,
) -> None:
    replay = import_egn(DATA / name)
    m = replay.match
    assert replay.game.initial_score == start and replay.warnings == []
    assert [(d.trick_winners, d.points) for d in m.deals] == deals
    assert m.score == final
    assert m.game_over == (winner is not None) and m.winner == winner
    assert all(not d.reneges and not d.irregularities for d in m.deals)


def test_six_points_in_two_hands_details() -> None:
    m = import_egn(DATA / "Six Points in Two Hands.egn").match
    first, second = m.deals
    assert (first.dealer, first.trump, first.maker_seat, first.round_made) == (0, Suit.HEARTS, 2, 2)
    assert first.alone_seats == (2,)
    assert [s for s, _ in first.tricks[0]] == [1, 2, 3]  # the dealer sits out; seat 1 leads
    assert (second.trump, second.maker_seat, second.alone_seats, second.tricks_won) == (Suit.DIAMONDS, 2, (), (5, 0))


@pytest.mark.parametrize("name", [row[0] for row in HAND_CHECKED])
def test_examples_round_trip(name: str) -> None:
    replay = import_egn(DATA / name)
    exported = json.loads(dumps_egn(export_egn(replay.match, source=replay.game)))
    again = replay_egn(parse_egn(exported, "exported"))
    assert deal_json(again.match) == deal_json(replay.match)
    assert again.inputs == replay.inputs
    original = json.loads((DATA / name).read_text(encoding="utf-8"))
    for mine, theirs in zip(exported["deals"], original["deals"], strict=True):
        assert mine["initialState"]["upCard"] == theirs["initialState"]["upCard"]
        assert [p["type"] for p in mine["phases"]] == [p["type"] for p in theirs["phases"]]
        for p_mine, p_theirs in zip(mine["phases"], theirs["phases"], strict=True):
            for key in ("calls", "tricks", "isAlone", "discard", "callAnnotations", "playAnnotations"):
                assert p_mine.get(key) == p_theirs.get(key), key
        assert mine.get("alternativeLines") == theirs.get("alternativeLines")
    assert exported["metadata"]["players"] == original["metadata"]["players"]
    assert exported["metadata"]["title"] == original["metadata"]["title"]


ROUND_TRIP_RULES = [
    STD,
    Rules.preset("british"),
    STD.replace(defender_may_go_alone=DefenderAlone.AGAINST_LONE_MAKER, loner_lead=LonerLead.LEFT_OF_LONER),
    Rules.preset("north_american").replace(no_trump=True, deck_size=32),
    Rules.preset("british").replace(renege_penalty=RenegePenalty.REPLAY, target=0, num_deals=8),
    Rules.preset("north_american").replace(renege_penalty=RenegePenalty.DEDUCT, dealer_may_discard_upcard=False),
]


@pytest.mark.parametrize("rules_index", range(len(ROUND_TRIP_RULES)))
@pytest.mark.parametrize("seed", range(5))
def test_random_simulated_games_round_trip(rules_index: int, seed: int) -> None:
    rules = ROUND_TRIP_RULES[rules_index]
    odds = BiddingOdds(accept_penalty=0.5 if seed % 2 else 0.0)
    game = simulate_game(rules, seed, renege_rate=0.15, odds=odds, max_deals=25)
    m = Match.replay(rules, game.inputs, game.first_dealer)
    text = dumps_egn(export_egn(m))
    again = replay_egn(parse_egn(json.loads(text), f"sim-{rules_index}-{seed}"))
    assert again.game.rules == rules
    assert deal_json(again.match) == deal_json(m)
    assert again.match.score == m.score and again.match.game_over == m.game_over


# ---- reneges, penalties and annotations

# Dealer 0 turns the 9h and seat 1 orders it up. Seat 2 shows out of hearts in trick 1 (9s on the Ah)
# and then trumps trick 2 with the Th: a renege proven at play 5 (0-based, across all tricks).
RENEGE_DEAL: list[Input] = [
    UpCard(C("9h")),
    OrderUp(1),
    Discard(0, None),
    *[Play(s, C(c)) for s, c in [(1, "Ah"), (2, "9s"), (3, "Kh"), (0, "9h")]],
    *[Play(s, C(c)) for s, c in [(1, "Ac"), (2, "Th")]],
]
REST = [
    *[Play(s, C(c)) for s, c in [(3, "Kc"), (0, "Qc")]],
    *[Play(s, C(c)) for s, c in [(2, "As"), (3, "Ks"), (0, "Qs"), (1, "Ts")]],
    *[Play(s, C(c)) for s, c in [(2, "Ad"), (3, "Kd"), (0, "Qd"), (1, "Td")]],
    *[Play(s, C(c)) for s, c in [(2, "Js"), (3, "9c"), (0, "Tc"), (1, "Jc")]],
]
RENEGE_NOTE = "[??]Renege: seat 2 showed out of hearts in trick 1 (played 9s to Ah), played Th in trick 2"


def test_a_renege_played_on_is_annotated_and_found_again_on_import() -> None:
    m = Match.replay(STD, [*RENEGE_DEAL, *REST], 0)
    (deal,) = m.deals
    assert len(deal.reneges) == 1 and deal.points == (2, 0)  # played on: team 0 euchred the makers
    egn = export_egn(m)
    play = egn["deals"][0]["phases"][1]
    assert play["playAnnotations"] == {"5": [RENEGE_NOTE]}
    again = replay_egn(parse_egn(egn))
    assert deal_json(again.match) == deal_json(m)


def test_an_accepted_penalty_is_written_and_replayed() -> None:
    m = Match.replay(STD, [*RENEGE_DEAL, AcceptPenalty()], 0)
    (deal,) = m.deals
    assert deal.penalty_accepted and deal.points == (0, 2) and deal.finished
    egn = export_egn(m)
    play = egn["deals"][0]["phases"][1]
    assert play["tricks"] == [["Ah", "9s", "Kh", "9h"], ["Ac", "Th"]]
    assert play["playAnnotations"] == {"5": [RENEGE_NOTE + "; penalty accepted"]}
    again = replay_egn(parse_egn(egn))
    assert again.inputs[-1] == AcceptPenalty()
    assert deal_json(again.match) == deal_json(m) and again.match.score == (0, 2)


def test_commentary_is_kept_and_generated_notes_are_not_doubled() -> None:
    m = Match.replay(STD, [*RENEGE_DEAL, *REST], 0)
    egn = export_egn(m)
    egn["deals"][0]["phases"][1]["playAnnotations"]["5"].append("[?]Should have followed.")
    egn["deals"][0]["phases"][0]["callAnnotations"] = {"0": ["[!]Bold order."]}
    replay = replay_egn(parse_egn(egn))
    twice = export_egn(replay.match, source=replay.game)
    assert twice["deals"][0]["phases"][1]["playAnnotations"] == {"5": ["[?]Should have followed.", RENEGE_NOTE]}
    assert twice["deals"][0]["phases"][0]["callAnnotations"] == {"0": ["[!]Bold order."]}


def test_irregularities_round_trip_with_the_seats_spelt_out() -> None:
    # Seat 3 plays before seat 2 in trick 1: EGN alone cannot say who played what, so playSeats does.
    inputs: list[Input] = [
        UpCard(C("9h")),
        OrderUp(1),
        Discard(0, None),
        *[Play(s, C(c)) for s, c in [(1, "Ah"), (3, "Kh"), (2, "Qh"), (0, "9h")]],
    ]
    m = Match.replay(STD, inputs, 0)
    assert any(i.kind.value == "out_of_turn" for i in m.deals[0].irregularities)
    egn = export_egn(m)
    play = egn["deals"][0]["phases"][1]
    assert play["playSeats"] == [[1, 3, 2, 0]]
    assert any(n.startswith("[?]Irregularity: out_of_turn") for n in play["playAnnotations"]["1"])
    again = replay_egn(parse_egn(egn))
    assert deal_json(again.match) == deal_json(m)


def test_partial_game_round_trips_to_the_same_prompt() -> None:
    game = simulate_game(STD, 5)
    inputs = list(game.inputs[: len(game.inputs) // 2])
    m = Match.replay(STD, inputs, game.first_dealer)
    egn = export_egn(m)
    assert "finalScore" not in egn["metadata"]
    again = replay_egn(parse_egn(egn)).match
    assert deal_json(again) == deal_json(m) and again.expected == m.expected and again.score == m.score


# ---- rules that change the replay


def example(name: str) -> dict[str, Any]:
    obj: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return obj


def test_fixed_number_of_deals_scores_every_deal() -> None:
    obj = example("Epic Comeback.egn")
    obj["metadata"]["initialScore"] = [9, 9]
    to_ten = replay_egn(parse_egn(copy.deepcopy(obj), "ten.egn"))
    assert len(to_ten.match.deals) == 1 and to_ten.match.winner == 0  # 10-9 after the first deal
    assert to_ten.warnings == ["ten.egn: deals[1]: the game was already over at 10-9; 8 deal(s) from here not replayed"]
    obj["metadata"]["ruleset"].update({"winning_score": 0, "num_deals": 9})
    fixed = replay_egn(parse_egn(obj, "fixed.egn")).match
    assert len(fixed.deals) == 9 and fixed.score == (9 + 11, 9 + 2) and fixed.game_over and fixed.winner == 0


def test_canadian_loner_and_lone_defender() -> None:
    # Dealer 0 turns the Kd; seat 2 (the dealer's partner) orders up, alone under the Canadian rule,
    # and seat 1 defends alone: two players, two cards a trick. Seat 1 takes three (the left bower on the
    # Ad, then the As and Ks): 4 points.
    obj = {
        "fileType": "Euchre Game Notation",
        "version": "1.4",
        "metadata": {"ruleset": {"std": True, "canadian": True, "defend_alone": True}},
        "deals": [
            {
                "initialState": {"dealer": 0, "upCard": "Kd"},
                "phases": [
                    {"type": "EUCHRE_BIDDING", "calls": ["Pass", "Order"], "isAlone": True, "aloneDefender": 1},
                    {
                        "type": "TRICK_PLAY",
                        "tricks": [["Ac", "Jd"], ["Ad", "Jh"], ["As", "9s"], ["Ks", "Kc"], ["Ah", "Qd"]],
                    },
                ],
            }
        ],
    }
    m = replay_egn(parse_egn(obj)).match
    (deal,) = m.deals
    assert deal.alone_seats == (2, 1) and deal.maker_seat == 2
    assert [s for t in deal.tricks for s, _ in t][:2] == [1, 2]  # left of the dealer leads: seat 1
    assert deal.trick_winners == [2, 1, 1, 1, 2] and deal.points == (0, 4)
    assert not deal.irregularities
    again = replay_egn(parse_egn(export_egn(m)))
    assert deal_json(again.match) == deal_json(m)


def test_final_score_in_the_file_is_checked() -> None:
    obj = example("Six Points in Two Hands.egn")
    obj["metadata"]["finalScore"] = [10, 9]
    assert replay_egn(parse_egn(obj, "six.egn")).warnings == []
    obj["metadata"]["finalScore"] = [9, 10]
    assert replay_egn(parse_egn(obj, "six.egn")).warnings == [
        "six.egn: metadata.finalScore: the file says 9-10, the replay ends 10-9"
    ]


# ---- files the engine cannot make sense of


def test_dealer_out_of_rotation() -> None:
    obj = example("Six Points in Two Hands.egn")
    obj["deals"][1]["initialState"]["dealer"] = 3
    with pytest.raises(EgnError, match=r"^six\.egn: deals\[1\]\.initialState\.dealer: seat 3 deals, but the rotation"):
        replay_egn(parse_egn(obj, "six.egn"))


def test_a_short_trick_in_the_middle_of_a_hand() -> None:
    obj = example("Custom Scenario.egn")
    del obj["deals"][0]["phases"][1]["tricks"][1][3]
    with pytest.raises(EgnError, match=r"tricks\[1\]: 3 cards, but 4 players are in this hand"):
        replay_egn(parse_egn(obj, "c.egn"))


def test_too_many_cards_for_a_loner() -> None:
    obj = example("Six Points in Two Hands.egn")
    obj["deals"][0]["phases"][1]["tricks"][2].append("9c")
    with pytest.raises(EgnError, match=r"deals\[0\]\.phases\[1\]\.tricks\[2\]: 4 cards, but only 3 players"):
        replay_egn(parse_egn(obj, "six.egn"))


def test_penalty_accepted_after_playing_on_is_applied_at_the_end_of_the_cards() -> None:
    egn = export_egn(Match.replay(STD, [*RENEGE_DEAL, AcceptPenalty()], 0))
    egn["deals"][0]["phases"][1]["tricks"][1] += ["Kc", "Qc"]  # the table finished the trick, then claimed
    m = replay_egn(parse_egn(egn, "r.egn")).match
    assert m.deals[0].trick_winners == [1, 2] and m.deals[0].points == (0, 2) and m.deals[0].penalty_accepted


def test_load_egn_reads_what_export_writes(tmp_path: Path) -> None:
    m = import_egn(DATA / "Quite the Hustle Annotated.egn").match
    path = tmp_path / "out.egn"
    path.write_text(dumps_egn(export_egn(m, metadata={"title": "Replayed"}, players=["A", "B", "C", "D"])))
    game = load_egn(path)
    assert game.players == ["A", "B", "C", "D"] and game.metadata["title"] == "Replayed"
    assert game.final_score == (10, 7)


def test_a_benny_set_aside_is_kept() -> None:
    rules = Rules.preset("british").replace(benny_turned_up=BennyTurnedUp.SET_ASIDE)
    m = Match.replay(rules, [UpCard(BENNY), UpCard(C("9h")), OrderUp(1, alone=True)], 0)
    egn = export_egn(m)
    assert egn["deals"][0]["initialState"] == {"dealer": 0, "upCard": "9h", "setAside": ["B"]}
    again = replay_egn(parse_egn(egn)).match
    assert again.deals[0].set_aside == [BENNY] and deal_json(again) == deal_json(m)


def test_a_blind_lone_is_kept() -> None:
    rules = STD.replace(blind_lone=True)
    inputs: list[Input] = [UpCard(C("Jh")), GoAlone(0), Discard(0, C("9s")), Play(1, C("Ac")), Play(3, C("Kc"))]
    m = Match.replay(rules, inputs, 0)
    assert m.deals[0].blind and m.deals[0].alone_seats == (0,)
    bidding = export_egn(m)["deals"][0]["phases"][0]
    assert (bidding["calls"], bidding["blindLone"], bidding["isAlone"]) == ([], True, True)
    again = replay_egn(parse_egn(export_egn(m))).match
    assert deal_json(again) == deal_json(m) and again.deals[0].blind and again.expected == m.expected


def test_a_deal_left_during_play_is_closed_by_the_next_one() -> None:
    obj = example("Six Points in Two Hands.egn")
    del obj["deals"][0]["phases"][1]["tricks"][4]
    match = replay_egn(parse_egn(obj, "six.egn")).match
    assert len(match.deals) == 2 and match.deals[0].finished and len(match.deals[0].trick_winners) == 4
    assert match.deals[1].dealer == (match.deals[0].dealer + 1) % 4


def test_a_deal_left_before_play_is_closed_by_the_next_one_too() -> None:
    obj = example("Six Points in Two Hands.egn")
    del obj["deals"][0]["phases"][1]
    match = replay_egn(parse_egn(obj, "six.egn")).match
    assert len(match.deals) == 2 and match.deals[0].reason == "unfinished" and match.deals[0].points == (0, 0)
