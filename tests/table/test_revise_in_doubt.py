"""A camera's revision of a card to another reading still in doubt keeps it a card to be checked (``ReviseCard``'s
``confidence``): a lead read by turns as K♠ and K♦ never shows who failed to follow it, so proves no renege."""

from __future__ import annotations

from engine_script import run

from table.announcements import RenegeProven
from table.cards import Card
from table.inputs import Play, ReviseCard
from table.match import Match
from table.renege import CHECK_CONFIDENCE
from table.rules import Rules

NA = Rules.preset("north_american")
BID = "up Kh; 1 order; 0 discard ?"  # hearts trump, dealer 0: seat 1 leads
C = Card.parse
DOUBT = CHECK_CONFIDENCE * 0.99


def _led_in_doubt(*revisions: ReviseCard) -> list[RenegeProven]:
    """Seat 1 leads a king read to be checked as K♠ (perhaps K♦); the revisions given; seat 2 trumps it with the
    ten of hearts and, winning, leads the ace of spades: a renege only if the king led was surely a spade."""
    m = Match(NA)
    run(m, BID)
    m.apply(Play(1, C("Ks"), DOUBT, rival=C("Kd")))
    lead = len(m) - 1
    for r in revisions:
        m.apply(ReviseCard(lead, r.card, r.confidence, r.rival))
    out: list[object] = []
    for seat, card in ((2, "Th"), (3, "Qc"), (0, "Jc"), (2, "As")):
        out += m.apply(Play(seat, C(card)))
    return [a for a in out if isinstance(a, RenegeProven)]


def test_a_lead_revised_by_the_camera_to_a_reading_still_in_doubt_proves_no_renege() -> None:
    assert _led_in_doubt() == []  # read to be checked: no show-out recorded
    # The tracker's vote turned to K♦, then back to K♠, each still unsure: still to be checked, still no proof.
    assert _led_in_doubt(ReviseCard(0, C("Kd"), DOUBT, C("Ks")), ReviseCard(0, C("Ks"), DOUBT, C("Kd"))) == []
    # A player's correction (or a sure reading) makes it sure: then seat 2's failure to follow spades is proven.
    [alert] = _led_in_doubt(ReviseCard(0, C("Ks")))
    assert alert.seat == 2 and alert.evidence.proof_card == C("As") and alert.evidence.led_card == C("Ks")


def test_a_check_said_again_with_its_two_readings_swapped_is_marked_restated() -> None:
    from table.announcements import Irregularity, IrregularityKind

    def checks(said: list[object]) -> list[Irregularity]:
        return [a for a in said if isinstance(a, Irregularity) and a.kind is IrregularityKind.CHECK_CARD]

    m = Match(NA)
    run(m, BID)
    [first] = checks(list(m.apply(Play(1, C("Ks"), DOUBT, rival=C("Kd")))))
    assert first.restated is None
    lead = len(m) - 1
    # The camera's vote turns to the other reading, still in doubt: the same question, shown again, not said again.
    [swapped] = checks(list(m.apply(ReviseCard(lead, C("Kd"), DOUBT, C("Ks")))))
    assert (swapped.card, swapped.rival, swapped.restated) == (C("Kd"), C("Ks"), True)
    # Read in doubt as another card altogether: a new question.
    [other] = checks(list(m.apply(ReviseCard(lead, C("Qd"), DOUBT, C("Kd")))))
    assert (other.card, other.restated) == (C("Qd"), None)
    # What the deal records is the check as the engine asks it, without the mark.
    assert all(i.restated is None for i in m.deals[-1].irregularities)
