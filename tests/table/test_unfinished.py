"""The next up-card while a hand is still being played: the table moved on, so the engine closes the hand.

Cards go unseen at a real table (a misread, a card played out of view). One
lost card must cost one hand, not the rest of the game: the engine scores
what the tricks it saw decide, says so, and starts the next deal.
"""

from __future__ import annotations

from pathlib import Path

from engine_script import irregular, of_type, parse_line, run, tricks_script

from table.announcements import HandScored, IrregularityKind, RenegeProven
from table.cards import Card
from table.codec import input_from_dict, input_to_dict
from table.egn import dumps_egn, export_egn, loads_egn, replay_egn
from table.inputs import UpCard
from table.log import MatchLog
from table.match import Match, Phase
from table.rules import Rules

NA = Rules.preset("north_american")
K = IrregularityKind
BID = "up Kh; 1 order; 0 discard ?"  # hearts trump, dealer 0, seat 1 orders: team 1 makes, seat 1 leads


def first_tricks(winners: list[int], n: int) -> str:
    return "; ".join(tricks_script(1, winners).split("; ")[:n])


def test_an_up_card_mid_hand_closes_it_unscored_and_starts_the_next_deal() -> None:
    m = Match(NA)
    run(m, BID + "; " + first_tricks([1, 0, 1, 1, 1], 2))  # one trick each: nothing decided
    assert m.phase is Phase.PLAY
    out = run(m, "up Ts")
    assert irregular(out) == [K.HAND_UNFINISHED]
    scored = of_type(out, HandScored)
    assert len(scored) == 1 and scored[0].points == (0, 0) and scored[0].reason == "unfinished"
    assert m.score == (0, 0)
    first, second = m.deals
    assert first.finished and first.reason == "unfinished" and len(first.trick_winners) == 2
    assert second.dealer == 1 and second.up_card == Card.parse("Ts")
    assert m.phase is Phase.BID_ROUND_1 and m.expected.seat == 2


def test_tricks_that_decide_the_hand_score_it() -> None:
    m = Match(NA)
    run(m, BID + "; " + first_tricks([0, 2, 0, 1, 1], 3))  # the defenders (team 0) took three: euchred
    out = run(m, "up Ts")
    scored = of_type(out, HandScored)
    assert [(s.points, s.reason) for s in scored] == [((2, 0), "euchre")]
    assert irregular(out) == [K.HAND_UNFINISHED] and m.score == (2, 0)
    # three made tricks do not decide: a march would be worth two
    m = Match(NA)
    run(m, BID + "; " + first_tricks([1, 3, 1, 0, 0], 3))
    assert [s.reason for s in of_type(run(m, "up Ts"), HandScored)] == ["unfinished"]


def test_undo_takes_the_up_card_back_and_reopens_the_hand() -> None:
    m = Match(NA)
    run(m, BID + "; " + first_tricks([1, 0, 1, 1, 1], 2))
    run(m, "up Ts")
    run(m, "undo")
    assert m.phase is Phase.PLAY and len(m.deals) == 1 and not m.deals[0].finished
    rest = tricks_script(1, [1, 0, 1, 1, 1]).split("; ")[2:]
    out = run(m, "; ".join(rest))
    assert [(s.points, s.reason) for s in of_type(out, HandScored)] == [((0, 1), "made")]


def test_a_pending_renege_lapses_with_the_hand_but_stays_on_record() -> None:
    m = Match(NA)
    out = run(m, BID + "; 1:As 2:Ac 3:Ad 0:Jh; 0:Kc 1:9c 2:Qs")  # seat 2 showed out of spades, then plays one
    assert of_type(out, RenegeProven) and m.phase is Phase.RENEGE_DECISION
    run(m, "up Ts")
    assert m.deals[0].finished and len(m.deals[0].reneges) == 1
    assert m.phase is Phase.BID_ROUND_1 and m.view().pending_renege is None


def test_before_the_first_lead_an_up_card_is_still_an_irregularity() -> None:
    m = Match(NA)
    run(m, "up Kh; 1 pass")
    out = run(m, "up Ts")
    assert irregular(out) == [K.NOT_ALLOWED] and len(m.deals) == 1 and m.phase is Phase.BID_ROUND_1


def test_a_closing_hand_that_ends_the_game_ignores_the_up_card() -> None:
    m = Match(NA, score=(8, 3))
    run(m, BID + "; " + first_tricks([0, 2, 0, 1, 1], 3))
    run(m, "up Ts")
    assert m.game_over and m.score == (10, 3) and len(m.deals) == 1


def test_the_log_replays_an_unfinished_hand_to_the_same_state(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    live = Match(NA)
    with MatchLog.create(path, NA, first_dealer=0) as log:
        for line in (BID + "; " + first_tricks([1, 0, 1, 1, 1], 2) + "; up Ts; 2 pass").split("; "):
            for inp in parse_line(line, live):
                live.apply(inp)
                log.append(inp)
    again, warnings = MatchLog.open(path).match()
    assert warnings == [] and again.view() == live.view()
    assert [d.reason for d in again.deals] == ["unfinished", ""]


def test_egn_round_trip_keeps_the_unfinished_hand() -> None:
    m = Match(NA)
    run(m, BID + "; " + first_tricks([1, 0, 1, 1, 1], 2) + "; up Ts; 2 pass; 3 order; 1 discard ?")
    text = dumps_egn(export_egn(m))
    again = replay_egn(loads_egn(text, "round-trip.egn")).match
    assert [(d.reason, d.points, len(d.trick_winners)) for d in again.deals] == [
        (d.reason, d.points, len(d.trick_winners)) for d in m.deals
    ]
    assert again.phase is m.phase and again.score == m.score


def test_a_deal_stuck_in_bidding_while_the_table_plays_is_closed_by_a_next_deal_up_card() -> None:
    m = Match(NA)
    run(m, "up Kh; 1 pass")  # the other bids never reached the engine
    assert not m.is_next_up_card(Card.parse("Ts"), 0.97)  # nothing shows the table has played
    out = run(m, "1:As 2:Ac 3:Ad")
    assert irregular(out) == [K.PLAY_BEFORE_BIDDING_ENDED] * 3
    assert not m.is_next_up_card(Card.parse("Ts"), 0.97)
    run(m, "0:Jh")
    assert m.is_next_up_card(Card.parse("Ts"), 0.97)  # four cards played: a hand is under way
    assert not m.is_next_up_card(Card.parse("As"), 0.97)  # one of them, not a new card
    assert not m.is_next_up_card(Card.parse("Kh"), 0.97)  # the up-card itself
    assert not m.is_next_up_card(Card.parse("Ts"), 0.5)  # not sure enough
    assert irregular(m.apply(UpCard(Card.parse("Ts"), 0.97))) == [K.NOT_ALLOWED]  # not without the flag
    out = m.apply(UpCard(Card.parse("Ts"), 0.97, next_deal=True))
    assert irregular(out)[:1] == [K.HAND_UNFINISHED]
    assert [(s.points, s.reason) for s in of_type(out, HandScored)] == [((0, 0), "unfinished")]
    assert m.deals[1].dealer == 1 and m.phase is Phase.BID_ROUND_1


def test_next_deal_is_kept_by_the_log_codec() -> None:
    inp = UpCard(Card.parse("Ts"), 0.9, next_deal=True)
    assert input_from_dict(input_to_dict(inp)) == inp
    assert "next_deal" not in input_to_dict(UpCard(Card.parse("Ts")))


def test_egn_import_stops_where_an_unfinished_hands_points_end_the_game() -> None:
    m = Match(NA, score=(8, 3))
    run(m, BID + "; " + first_tricks([0, 2, 0, 1, 1], 3))  # the defenders' third trick: a euchre, 10-3
    obj = export_egn(m)
    nxt = {"dealNumber": 1, "initialState": {"dealer": 1, "upCard": "Ts"},
           "phases": [{"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": ["Pass"]}]}
    obj["deals"].append(nxt)
    replay = replay_egn(loads_egn(dumps_egn(obj), "ends.egn"))
    assert replay.match.game_over and replay.match.score == (10, 3) and len(replay.match.deals) == 1
    assert any("ended the game at 10-3" in w for w in replay.warnings)


def test_in_play_a_card_on_the_kitty_is_the_next_up_card_once_the_table_bids() -> None:
    m = Match(NA)
    plays = tricks_script(1, [1, 0, 1, 1, 1]).split("; ")
    run(m, BID + "; " + "; ".join(plays[:4]) + "; " + " ".join(plays[4].split()[:2]))  # trick 5: two cards seen
    first, fourth, fifth = plays[0].split(), plays[3].split(), plays[4].split()
    card = lambda token: Card.parse(token.split(":")[1])  # noqa: E731
    assert m.in_play
    # Seen on the kitty alone, no card is taken for the next up-card while the hand is played: a card back
    # or a card passing over the kitty may read as one for a few frames.
    for token in (first[0], fourth[0]):
        assert not m.is_next_up_card(card(token), 0.97) and m.up_card_seen(card(token), 0.97) is None
    # Once the table bids, a card of an earlier trick can be, the last one won included (it has been gathered).
    assert m.is_next_up_card(card(first[0]), 0.97, bidding=True)
    up = m.up_card_seen(card(fourth[0]), 0.97, bidding=True)
    assert up == UpCard(card(fourth[0]), 0.97, next_deal=True)
    # A card of the hand's last trick, stuck with a card unseen, can be too once the table bids: the table
    # gathered it with the deck to deal again (without the bid it lies face up at its seat).
    assert m.up_card_seen(card(fifth[0]), 0.97, bidding=True) == UpCard(card(fifth[0]), 0.97, next_deal=True)
    assert m.up_card_seen(card(fifth[0]), 0.97) is None
    # Nor is a reading unsure.
    assert m.up_card_seen(card(fourth[0]), 0.5, bidding=True) is None
    assert m.up_card_seen(Card.parse("Kh"), 0.97, bidding=True) is None  # this deal's own up-card
    out = m.apply(up)
    assert irregular(out)[:1] == [K.HAND_UNFINISHED] and m.deals[1].up_card == card(fourth[0])
    assert not m.in_play and m.phase is Phase.BID_ROUND_1


def test_a_card_of_a_trick_still_being_played_before_the_last_is_not_the_next_up_card_though_the_table_bids() -> None:
    """Mid-hand the trick being played lies face up at the seats: a card of it read on the kitty is not the next
    up-card even with a bid pressed (only the hand's last trick is gathered with the deck to deal again)."""
    m = Match(NA)
    plays = tricks_script(1, [1, 0, 1, 1, 1]).split("; ")
    run(m, BID + "; " + "; ".join(plays[:2]) + "; " + " ".join(plays[2].split()[:2]))  # trick 3: two cards seen
    card = lambda token: Card.parse(token.split(":")[1])  # noqa: E731
    third, first = plays[2].split(), plays[0].split()
    assert m.in_play and len(m.deals[-1].tricks) == 3
    assert m.up_card_seen(card(third[0]), 0.97, bidding=True) is None
    assert m.up_card_seen(card(first[0]), 0.97, bidding=True) == UpCard(card(first[0]), 0.97, next_deal=True)
