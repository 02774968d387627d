"""The simulated table's pipeline turns observations into engine inputs as the app's session does."""

from __future__ import annotations

import dataclasses

import numpy as np

from lab.simtable import TablePipeline
from table.announcements import Expect, IrregularityKind, RenegeProven
from table.cards import Card
from table.inputs import OrderUp, Pass, Play, ReviseCard, UpCard
from table.renege import CHECK_CONFIDENCE
from table.rules import Rules
from vision.detection import CardDetection
from vision.observations import KITTY, CardLanded, CardLifted, UpCardShown, Zone

C = Card.parse


def _landed(seat: int, card: str, frame: int) -> CardLanded:
    return CardLanded(Zone.of_seat(seat), C(card), 0.95, frame, seat=seat)


class _NoFrames:
    """The pipeline's detector, never asked here: observations are fed to it directly."""

    def detect(self, frame_bgr: object, frame: int = 0) -> list[CardDetection]:
        raise AssertionError("no frame is read in this test")


def test_a_seats_duplicate_card_is_corrected_by_its_next_sure_reading() -> None:
    pipeline = TablePipeline(Rules.preset("north_american"), detector=_NoFrames())
    pipeline._apply(UpCard(C("9h"), 0.97), 1)
    pipeline._apply(OrderUp(1), 2)  # hearts trump; the dealer (seat 0) discards when the first card lands
    for frame, (seat, card) in enumerate(((1, "Ac"), (2, "Kc"), (3, "Qc"), (0, "Jc"), (1, "As"), (2, "Ac"))):
        pipeline._observe(_landed(seat, card, 10 + 10 * frame))
    pipeline._observe(_landed(2, "Ks", 80))  # seat 2's ace of clubs was seat 1's card: this corrects it
    history = pipeline.match.history
    duplicate = max(i for i, x in enumerate(history) if isinstance(x, Play) and x.card == C("Ac"))
    assert history[-1] == ReviseCard(duplicate, C("Ks"))
    pipeline._observe(_landed(3, "Qs", 90))
    pipeline._observe(_landed(0, "Js", 100))
    kinds = {i.kind for i in pipeline.match.deals[-1].irregularities}
    assert IrregularityKind.OUT_OF_TURN not in kinds and IrregularityKind.DUPLICATE_CARD not in kinds


def test_a_sure_card_an_earlier_check_was_read_as_revises_that_check_to_its_rival_and_reports_it() -> None:
    pipeline = TablePipeline(Rules.preset("north_american"), detector=_NoFrames())
    pipeline._apply(UpCard(C("9h"), 0.97), 1)
    pipeline._apply(OrderUp(1), 2)
    pipeline._observe(CardLanded(Zone.of_seat(1), C("Ks"), 0.5, 10, seat=1, uncertain=True, rival=C("Kd")))
    pipeline._observe(_landed(2, "9s", 20))
    pipeline._observe(_landed(3, "Ks", 30))  # the king of spades is seat 3's: seat 1's check was its rival
    assert pipeline.match.deals[-1].tricks[-1] == [(1, C("Kd")), (2, C("9s")), (3, C("Ks"))]
    assert [(x.frame, str(x.card)) for x in pipeline.landings if x.zone == Zone.of_seat(1)] == [(10, "Ks"), (30, "Kd")]
    kinds = {i.kind for i in pipeline.match.deals[-1].irregularities}
    assert IrregularityKind.DUPLICATE_CARD not in kinds
    # Revised to its rival, seat 1's card stays one to be checked (proving no renege), the king of spades its rival.
    revision = next(x for x in pipeline.match.history if isinstance(x, ReviseCard))
    assert revision.card == C("Kd") and revision.confidence < CHECK_CONFIDENCE and revision.rival == C("Ks")


def test_a_card_the_camera_revises_to_a_reading_still_unsure_stays_to_be_checked() -> None:
    from vision.observations import CardRevised

    pipeline = TablePipeline(Rules.preset("north_american"), detector=_NoFrames())
    pipeline._apply(UpCard(C("9h"), 0.97), 1)
    pipeline._apply(OrderUp(1), 2)  # hearts trump, seat 1 leads
    said = pipeline._observe(CardLanded(Zone.of_seat(1), C("Ks"), 0.5, 10, seat=1, uncertain=True, rival=C("Kd")))
    # Seat 2 trumps the king; the vote on seat 1's card turns to the king of diamonds and back, unsure each time.
    said += pipeline._observe(_landed(2, "Th", 20))
    said += pipeline._observe(CardRevised(Zone.of_seat(1), C("Ks"), C("Kd"), 0.45, 25, uncertain=True))
    said += pipeline._observe(CardRevised(Zone.of_seat(1), C("Kd"), C("Ks"), 0.5, 28, uncertain=True))
    for frame, (seat, card) in enumerate(((3, "Qc"), (0, "Jc"), (2, "As"))):
        said += pipeline._observe(_landed(seat, card, 30 + 10 * frame))
    # Seat 2 led the ace of spades after trumping a king read only in doubt as a spade: no renege proven.
    assert pipeline.match.deals[-1].tricks[-1] == [(2, C("As"))]
    assert not any(isinstance(a, RenegeProven) for a in said)


def _stuck_in_the_fourth_trick(pipeline: TablePipeline) -> None:
    """Hearts trump, seat 1 leads and wins three tricks; seat 0's card in the fourth goes unseen."""
    pipeline._apply(UpCard(C("9h"), 0.97), 1)
    pipeline._apply(OrderUp(1), 2)
    cards = ["Ac", "Kc", "Qc", "Jc", "As", "Ks", "Qs", "Js", "Ad", "Kd", "Qd", "Jd"]
    plays = list(zip([1, 2, 3, 0] * 3, cards, strict=True))
    plays += [(1, "Th"), (2, "Tc"), (3, "Ts")]
    for frame, (seat, card) in enumerate(plays):
        pipeline._observe(_landed(seat, card, 10 + 10 * frame))


def test_a_bid_after_a_card_seen_on_the_kitty_mid_hand_closes_the_stuck_hand() -> None:
    blank = np.zeros((8, 8, 3), np.uint8)
    pipeline = TablePipeline(Rules.preset("north_american"), detector=_NoFrames())
    _stuck_in_the_fourth_trick(pipeline)
    # The king of diamonds, of the last trick won, face up on the kitty: it may be that trick, still lying there.
    assert pipeline._observe(UpCardShown(C("Kd"), 0.95, 200)) == []
    assert pipeline.match.in_play
    pipeline.step(210, blank, [Pass(2)])  # the table bids: it has dealt again, and that card is the up-card
    deals = pipeline.match.deals
    assert len(deals) == 2 and deals[0].reason == "unfinished" and deals[1].up_card == C("Kd")
    assert pipeline.match.history[-1] == Pass(2) and pipeline.match.expected.seat == 3

    # A card played after the sighting: the card on the kitty was not the next up-card, and the bid is refused.
    pipeline = TablePipeline(Rules.preset("north_american"), detector=_NoFrames())
    _stuck_in_the_fourth_trick(pipeline)
    pipeline._observe(UpCardShown(C("Kd"), 0.95, 200))
    pipeline._observe(_landed(0, "Td", 205))
    pipeline.step(210, blank, [Pass(2)])
    assert len(pipeline.match.deals) == 1


def test_a_surer_reading_of_another_card_on_the_kitty_before_the_bidding_corrects_the_up_card() -> None:
    pipeline = TablePipeline(Rules.preset("north_american"), detector=_NoFrames())
    pipeline._observe(UpCardShown(C("Jc"), 0.66, 10))  # the deck's back read as a card while it was dealt
    pipeline._observe(UpCardShown(C("Ts"), 0.99, 30))  # the up-card turned: it is this one
    assert pipeline.match.history[-1] == ReviseCard(0, C("Ts"))
    assert pipeline.match.deals[-1].up_card == C("Ts")
    pipeline.step(40, np.zeros((8, 8, 3), np.uint8), [Pass(1)])
    pipeline._observe(UpCardShown(C("9s"), 0.999, 50))  # after a bid the up-card stands
    assert pipeline.match.deals[-1].up_card == C("Ts") and pipeline.match.history[-1] == Pass(1)


def test_a_card_taken_back_and_replaced_is_undone_but_nothing_lifted_from_the_kitty_is() -> None:
    pipeline = TablePipeline(Rules.preset("north_american"), detector=_NoFrames())
    pipeline._apply(UpCard(C("9h"), 0.97), 1)
    pipeline._apply(OrderUp(1), 2)
    pipeline._observe(_landed(1, "Ac", 10))
    pipeline._observe(_landed(2, "Jc", 20))
    # The kitty's face-down cards read as the jack of clubs for a moment, then gone: no play is undone.
    pipeline._observe(CardLifted(KITTY, C("Jc"), 25))
    assert pipeline.match.view().current_trick == ((1, C("Ac")), (2, C("Jc")))
    pipeline._observe(CardLifted(Zone.of_seat(2), C("Jc"), 30))  # seat 2 takes its card back ...
    assert pipeline.match.view().current_trick == ((1, C("Ac")), (2, C("Jc")))
    pipeline._observe(_landed(2, "Kc", 35))  # ... and lays another in its place
    assert pipeline.match.view().current_trick == ((1, C("Ac")), (2, C("Kc")))
    # Lifted, then the next player's card: the camera had lost sight of it, and it stays played.
    pipeline._observe(CardLifted(Zone.of_seat(2), C("Kc"), 40))
    pipeline._observe(_landed(3, "Qc", 45))
    assert pipeline.match.view().current_trick == ((1, C("Ac")), (2, C("Kc")), (3, C("Qc")))


def test_a_card_revised_after_its_trick_was_won_counts_as_reported_and_its_trick_once() -> None:
    from types import SimpleNamespace
    from typing import cast

    from lab.simtable import SimDeal, check_deal
    from table.announcements import TrickWon
    from vision.observations import CardRevised

    pipeline = TablePipeline(Rules.preset("north_american"), detector=_NoFrames())
    pipeline._apply(UpCard(C("9h"), 0.97), 1)
    pipeline._apply(OrderUp(1), 2)  # hearts trump
    said = []
    for frame, (seat, card) in enumerate(((1, "Ac"), (2, "Kc"), (3, "Qc"), (0, "Jc"))):
        said += pipeline._observe(_landed(seat, card, 10 + 10 * frame))
    # Seat 3's card was the queen of hearts, misread as it slid: trump, so seat 3 took the trick, not seat 1.
    said += pipeline._observe(CardRevised(Zone.of_seat(3), C("Qc"), C("Qh"), 0.95, 50))
    assert [(a.seat, a.trick) for a in said if isinstance(a, TrickWon)] == [(1, 0), (3, 0)]
    assert (pipeline.landings[-1].card, pipeline.landings[-1].zone, pipeline.landings[-1].frame) == (
        C("Qh"), Zone.of_seat(3), 50
    )
    deal = cast(SimDeal, SimpleNamespace(reneges=[], trick_winners=[3], points=(0, 0)))
    assert check_deal(deal, said).winners == (3,)  # the engine's last word on the trick, counted once


def test_the_checks_the_engine_asked_for_are_counted() -> None:
    from lab.simtable import checks_asked
    from table.announcements import Irregularity, TrickWon

    check = Irregularity(IrregularityKind.CHECK_CARD, "check the Qd", seat=1, card=Card.parse("Qd"))
    other = Irregularity(IrregularityKind.DUPLICATE_CARD, "Qd twice", seat=1, card=Card.parse("Qd"))
    said = [(3, check), (4, other), (7, TrickWon(1, Card.parse("Qd"), 0)), (9, check)]
    assert checks_asked(said) == 2  # the duplicate and the trick are not checks
    assert checks_asked([]) == 0
    restated = dataclasses.replace(check, restated=True)  # the same card, its two readings swapped: not asked again
    assert checks_asked([*said, (12, restated)]) == 2


def _check_on_a_renege(delay: int) -> tuple[TablePipeline, list[object]]:
    """Seat 2 shows out of clubs in trick 1; in trick 2 its ten of clubs is read unsure as the ten of spades, and
    the scripted players (``CheckAnswerer``, answering ``delay`` frames on) see the ten of clubs at rest there."""
    from lab.simtable import CardRest, CheckAnswerer

    pipeline = TablePipeline(Rules.preset("north_american"), detector=_NoFrames())
    rests = [CardRest(31, C("Tc"), Zone.of_seat(2), 2, 0, "play")]
    pipeline.answerer = CheckAnswerer(rests, delay=delay)
    pipeline._apply(UpCard(C("9h"), 0.97), 1)
    pipeline._apply(OrderUp(1), 2)
    for frame, (seat, card) in enumerate(((1, "Ac"), (2, "9s"), (3, "Kc"), (0, "Qc"), (1, "Ad"))):
        pipeline._observe(_landed(seat, card, 10 + frame))
    said: list[object] = list(
        pipeline._observe(CardLanded(Zone.of_seat(2), C("Ts"), 0.5, 31, seat=2, uncertain=True, rival=C("Tc")))
    )
    assert not any(isinstance(a, RenegeProven) for a in said)
    return pipeline, said


def test_players_who_answer_a_check_with_the_card_they_see_prove_the_renege() -> None:
    pipeline, _ = _check_on_a_renege(delay=8)
    assert pipeline._answer_checks(38) == []  # not yet: the players are still looking
    said = pipeline._answer_checks(39)
    assert any(isinstance(a, RenegeProven) and a.seat == 2 for a in said)
    play = max(i for i, x in enumerate(pipeline.match.history) if isinstance(x, Play) and x.seat == 2)
    assert pipeline.match.history[-1] == ReviseCard(play, C("Tc"))  # the suit button: one press, a player's word
    assert pipeline.answerer is not None and (pipeline.answerer.answered, pipeline.answerer.presses) == (1, 1)


def test_a_check_whose_trick_is_gathered_first_goes_unanswered() -> None:
    from vision.observations import ZoneCleared

    pipeline, _ = _check_on_a_renege(delay=8)
    pipeline._observe(ZoneCleared(Zone.of_seat(2), 35, (C("Ts"),)))
    assert pipeline._answer_checks(39) == []
    assert pipeline.answerer is not None and (pipeline.answerer.answered, pipeline.answerer.too_late) == (0, 1)


def test_a_check_the_camera_settled_surely_meanwhile_is_not_answered() -> None:
    from vision.observations import CardRevised

    pipeline, _ = _check_on_a_renege(delay=8)
    pipeline._observe(CardRevised(Zone.of_seat(2), C("Ts"), C("Tc"), 0.95, 34))  # read surely: proven by the camera
    logged = len(pipeline.match.history)
    assert pipeline._answer_checks(39) == []
    assert len(pipeline.match.history) == logged
    assert pipeline.answerer is not None and pipeline.answerer.answered == 0


def test_players_answer_a_check_of_the_up_card_once_the_hand_is_played() -> None:
    from lab.simtable import CardRest, CheckAnswerer

    pipeline = TablePipeline(Rules.preset("north_american"), detector=_NoFrames())
    pipeline.answerer = CheckAnswerer([CardRest(1, C("Ks"), KITTY, None, 0, "up_card")], delay=3)
    pipeline._observe(UpCardShown(C("Ks"), 0.5, 1, uncertain=True, rival=C("Kh")))
    pipeline._apply(OrderUp(1), 2)  # spades trump, on an up-card to be checked
    assert pipeline._answer_checks(5) == []  # not yet played: Call and the suits bid now
    for frame, (seat, card) in enumerate(((1, "As"), (2, "9h"), (3, "Qs"), (0, "Ts"), (1, "Ad"), (2, "Jc"))):
        pipeline._observe(_landed(seat, card, 10 + frame))
    assert not any(isinstance(a, RenegeProven) for _, a in pipeline.announcements)  # it rests on the up-card
    said = pipeline._answer_checks(20)
    assert pipeline.match.history[-1] == ReviseCard(0, C("Ks"))
    assert any(isinstance(a, RenegeProven) and a.evidence.proof_card == C("Jc") for a in said)
    assert pipeline.answerer is not None and (pipeline.answerer.answered, pipeline.answerer.presses) == (1, 1)


def test_players_answer_an_up_card_read_wrong_while_they_bid_and_one_read_right_once_it_is_played() -> None:
    from lab.simtable import CardRest, CheckAnswerer

    wrong = TablePipeline(Rules.preset("north_american"), detector=_NoFrames())
    wrong.answerer = CheckAnswerer([CardRest(1, C("Kh"), KITTY, None, 0, "up_card")], delay=3)
    wrong._observe(UpCardShown(C("Ks"), 0.5, 1, uncertain=True, rival=C("Kh")))
    assert wrong._answer_checks(3) == []  # not yet: the players are still looking
    wrong._answer_checks(4)  # the heart button: in the first round another suit bids nothing
    assert wrong.match.history[-1] == ReviseCard(0, C("Kh")) and wrong.match.expected.expected is Expect.BID_ROUND_1
    assert wrong.answerer is not None and (wrong.answerer.answered, wrong.answerer.presses) == (1, 1)

    right = TablePipeline(Rules.preset("north_american"), detector=_NoFrames())
    right.answerer = CheckAnswerer([CardRest(1, C("Ks"), KITTY, None, 0, "up_card")], delay=3)
    right._observe(UpCardShown(C("Ks"), 0.5, 1, uncertain=True, rival=C("Kh")))
    logged = len(right.match.history)
    assert right._answer_checks(10) == [] and len(right.match.history) == logged  # Call would order it up
    right._apply(OrderUp(1), 11)
    right._observe(_landed(1, "As", 12))
    right._answer_checks(13)
    assert right.match.history[-1] == ReviseCard(0, C("Ks"))
    assert right.answerer is not None and (right.answerer.answered, right.answerer.presses) == (1, 1)


def test_in_the_second_round_players_step_an_up_card_read_as_another_rank_with_next_reading() -> None:
    from companion.session import look_alikes
    from lab.simtable import CardRest, CheckAnswerer
    from table.cards import deck

    pipeline = TablePipeline(Rules.preset("north_american"), detector=_NoFrames())
    pipeline.answerer = CheckAnswerer([CardRest(1, C("Tc"), KITTY, None, 0, "up_card")], delay=10)
    pipeline._observe(UpCardShown(C("9c"), 0.5, 1, uncertain=True, rival=C("Tc")))
    for frame, seat in enumerate((1, 2, 3, 0)):
        pipeline._apply(Pass(seat), 2 + frame)
    assert pipeline.match.expected.expected is Expect.BID_ROUND_2
    pipeline._answer_checks(11)
    assert pipeline.match.history[-1] == ReviseCard(0, C("Tc"))
    presses = [C("9c"), *look_alikes(C("9c"), deck(24), C("Tc"))].index(C("Tc"))
    assert pipeline.answerer is not None and (pipeline.answerer.answered, pipeline.answerer.presses) == (1, presses)
