"""A whole deal played while the engine waited for its up-card: the table dealt, the camera missed it.

The engine then sees cards played "before the up-card was turned", and the
next up-card it sees belongs to the deal after. Without a record of the
deal in between, the dealer falls a seat behind the table and every bid
after that comes out of turn. The engine counts the deals that went by
(``Match.deals_gone_unseen``), and the up-card carries the count
(``UpCard.unseen_deals``) so the log and EGN replay it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_script import irregular, of_type, run, tricks_script

from table.announcements import HandScored, IrregularityKind
from table.cards import Card
from table.codec import CodecError, input_from_dict, input_to_dict
from table.egn import EgnError, dumps_egn, export_egn, loads_egn, parse_egn, replay_egn
from table.inputs import UpCard
from table.log import MatchLog
from table.match import EngineError, Match, Phase
from table.rules import BennyTurnedUp, Rules

NA = Rules.preset("north_american")
K = IrregularityKind
HAND = "up Kh; 1 order; 0 discard ?; " + tricks_script(1, [1, 0, 1, 1, 1])  # dealer 0; team 1 makes 3: (0, 1)
# The first trick of a deal the camera did not see dealt: seat 2 leads (seat 1 dealt).
UNSEEN_TRICK = "2:9c 3:Tc 0:Qc 1:Kc"


def after_one_hand() -> Match:
    m = Match(NA)
    run(m, HAND)
    assert m.phase is Phase.HAND_OVER and m.dealer == 1
    return m


def test_cards_played_while_waiting_for_the_up_card_count_as_a_deal_not_seen() -> None:
    m = after_one_hand()
    out = run(m, UNSEEN_TRICK)
    assert irregular(out) == [K.PLAY_BEFORE_BIDDING_ENDED] * 4
    assert m.deals_gone_unseen() == 1
    inp = m.up_card_seen(Card.parse("Ts"), 0.97)
    assert inp == UpCard(Card.parse("Ts"), 0.97, unseen_deals=1)
    out = m.apply(inp)
    assert irregular(out) == [K.DEAL_UNSEEN]
    assert [(s.points, s.reason) for s in of_type(out, HandScored)] == [((0, 0), "unseen")]
    first, unseen, third = m.deals
    assert (unseen.dealer, unseen.reason, unseen.finished, unseen.up_card) == (1, "unseen", True, None)
    assert unseen.irregularities[0].detail.startswith("4 cards were played before an up-card was seen")
    assert third.dealer == 2 and third.up_card == Card.parse("Ts")
    assert m.phase is Phase.BID_ROUND_1 and m.expected.seat == 3  # the bids now come in turn
    assert m.score == (0, 1)
    assert m.view().history[-1].reason == "unseen"


def test_without_cards_played_the_up_card_is_simply_the_next_deals() -> None:
    m = after_one_hand()
    assert m.deals_gone_unseen() == 0
    assert m.up_card_seen(Card.parse("Ts"), 0.97) == UpCard(Card.parse("Ts"), 0.97)


@pytest.mark.parametrize(
    ("plays", "why"),
    [
        ("2:9c 3:Tc 0:Qc", "three cards are not yet a hand"),
        ("0:9c 0:Tc 0:Qc 0:Kc 0:Ac", "one player laying down a hand"),
        ("0:9c 2:Tc 0:Qc 2:Kc", "two seats: a pair showing their cards"),
    ],
)
def test_cards_that_do_not_look_like_a_hand_played_move_nothing(plays: str, why: str) -> None:
    m = after_one_hand()
    run(m, plays)
    assert m.deals_gone_unseen() == 0, why
    m.apply(m.up_card_seen(Card.parse("Ts"), 0.97) or UpCard(Card.parse("Ts")))
    assert [d.dealer for d in m.deals] == [0, 1]


def test_more_than_a_deals_worth_of_cards_means_two_deals_went_by() -> None:
    m = after_one_hand()
    seats = [(2 + k) % 4 for k in range(21)]
    for k, seat in enumerate(seats):
        run(m, f"{seat}:{['9c', 'Tc', 'Qc', 'Kc', 'Ac', '9d', 'Td'][k % 7]}")
    assert m.deals_gone_unseen() == 2
    out = m.apply(m.up_card_seen(Card.parse("Ts"), 0.97) or UpCard(Card.parse("Ts")))
    assert irregular(out) == [K.DEAL_UNSEEN, K.DEAL_UNSEEN]
    assert [(d.dealer, d.reason) for d in m.deals] == [(0, "made"), (1, "unseen"), (2, "unseen"), (3, "")]


def test_a_first_deal_played_before_any_up_card_was_seen() -> None:
    m = Match(NA, first_dealer=3)
    run(m, "0:9c 1:Tc 2:Qc 3:Kc")
    m.apply(m.up_card_seen(Card.parse("Ts"), 0.97) or UpCard(Card.parse("Ts")))
    assert [(d.dealer, d.reason) for d in m.deals] == [(3, "unseen"), (0, "")]
    assert m.expected.seat == 1


def test_deals_not_seen_count_towards_a_fixed_number_of_deals() -> None:
    m = Match(NA.replace(target=0, num_deals=2))
    run(m, HAND + "; " + UNSEEN_TRICK)
    out = m.apply(m.up_card_seen(Card.parse("Ts"), 0.97) or UpCard(Card.parse("Ts")))
    assert m.game_over and len(m.deals) == 2 and m.score == (0, 1)
    assert irregular(out) == [K.DEAL_UNSEEN]


def test_undo_takes_back_the_up_card_and_the_deal_not_seen_with_it() -> None:
    m = after_one_hand()
    run(m, UNSEEN_TRICK)
    m.apply(m.up_card_seen(Card.parse("Ts"), 0.97) or UpCard(Card.parse("Ts")))
    run(m, "undo")
    assert len(m.deals) == 1 and m.phase is Phase.HAND_OVER and m.deals_gone_unseen() == 1


def test_the_up_card_a_deal_waits_for_is_never_told_of_unseen_deals_mid_hand() -> None:
    m = Match(NA)
    run(m, "up Kh; 1 order; 0 discard ?; " + UNSEEN_TRICK.replace("2:9c 3:Tc 0:Qc 1:Kc", "1:9c 2:Tc 3:Qc 0:Kc"))
    assert m.phase is Phase.PLAY and m.deals_gone_unseen() == 0


def test_a_malformed_count_is_a_programming_error() -> None:
    m = Match(NA)
    with pytest.raises(EngineError, match="unseen_deals"):
        m.apply(UpCard(Card.parse("Ts"), unseen_deals=-1))


def test_the_count_is_kept_by_the_log_codec_and_written_only_when_set() -> None:
    inp = UpCard(Card.parse("Ts"), 0.9, unseen_deals=2)
    assert input_from_dict(input_to_dict(inp)) == inp
    assert "unseen_deals" not in input_to_dict(UpCard(Card.parse("Ts")))
    with pytest.raises(CodecError, match="unseen_deals"):
        input_from_dict({"type": "UpCard", "card": "Ts", "unseen_deals": -1})


def test_the_log_replays_a_deal_not_seen(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    live = after_one_hand()
    run(live, UNSEEN_TRICK)
    with MatchLog.create(path, NA, first_dealer=0) as log:
        for inp in live.history:
            log.append(inp)
        up = live.up_card_seen(Card.parse("Ts"), 0.97)
        assert up is not None
        live.apply(up)
        log.append(up)
    again, warnings = MatchLog.open(path).match()
    assert warnings == [] and again.view() == live.view()


def exported_with_an_unseen_deal() -> tuple[Match, dict[str, object]]:
    m = after_one_hand()
    run(m, UNSEEN_TRICK)
    m.apply(m.up_card_seen(Card.parse("Ts"), 0.97) or UpCard(Card.parse("Ts")))
    run(m, "3 pass; 0 order; 2 discard ?")
    return m, export_egn(m)


def test_egn_writes_a_deal_not_seen_with_an_unknown_up_card_and_reads_it_back() -> None:
    m, obj = exported_with_an_unseen_deal()
    deals = obj["deals"]
    assert isinstance(deals, list)
    assert deals[1] == {"dealNumber": 1, "initialState": {"dealer": 1, "upCard": "Xx"}, "phases": []}
    again = replay_egn(loads_egn(dumps_egn(obj), "round-trip.egn")).match
    assert [(d.dealer, d.reason, d.points) for d in again.deals] == [(d.dealer, d.reason, d.points) for d in m.deals]
    assert again.deals[1].irregularities[0].detail.startswith("no up-card was seen")  # the file holds no cards
    assert again.phase is m.phase and again.expected == m.expected and again.score == m.score


def test_egn_checks_the_rotation_across_a_deal_not_seen() -> None:
    _, obj = exported_with_an_unseen_deal()
    deals = obj["deals"]
    assert isinstance(deals, list)
    deals[2]["initialState"]["dealer"] = 1
    with pytest.raises(EgnError, match=r"deals\[2\].initialState.dealer.*rotation gives seat 2"):
        replay_egn(parse_egn(obj, "bad.egn"))


def test_egn_refuses_an_unknown_up_card_with_bids_or_tricks() -> None:
    _, obj = exported_with_an_unseen_deal()
    deals = obj["deals"]
    assert isinstance(deals, list)
    deals[1]["phases"] = [{"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": ["Pass"]}]
    with pytest.raises(EgnError, match=r"deals\[1\].initialState.upCard.*no phases"):
        parse_egn(obj, "bad.egn")


def test_egn_warns_of_deals_not_seen_at_the_end_of_a_file() -> None:
    _, obj = exported_with_an_unseen_deal()
    deals = obj["deals"]
    assert isinstance(deals, list)
    del deals[2]
    replay = replay_egn(parse_egn(obj, "tail.egn"))
    assert len(replay.match.deals) == 1
    assert any("not seen and no deal follows" in w for w in replay.warnings)


def test_cards_seen_while_a_set_aside_benny_waits_for_the_real_up_card_are_forgotten_once_it_comes() -> None:
    m = Match(NA.replace(deck_size=25, benny_turned_up=BennyTurnedUp.SET_ASIDE))
    run(m, "up B; 1:9c 2:Tc")  # the Benny is put aside; two stray readings before the next card is turned
    run(m, "up Kh")
    assert m.phase is Phase.BID_ROUND_1
    run(m, "1 order; 0 discard ?; " + tricks_script(1, [1, 0, 1, 1, 1]))
    run(m, "2:Qc 3:Kc")  # two more readings after the hand: four in all, but not one deal's worth now
    assert m.deals_gone_unseen() == 0
