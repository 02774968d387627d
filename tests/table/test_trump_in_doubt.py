"""Trump made by ordering up an up-card read to be checked is itself in doubt: a renege that rests on it (a bower's
suit) is proven only where it holds whichever suit the up-card really is; one that does not rest on it stands."""

from __future__ import annotations

from table.announcements import Irregularity, IrregularityKind, RenegeProven
from table.cards import Card, Suit
from table.inputs import Discard, NameTrump, OrderUp, Pass, Play, ReviseCard, UpCard
from table.match import Match
from table.renege import CHECK_CONFIDENCE
from table.rules import Rules

C = Card.parse
DOUBT = CHECK_CONFIDENCE * 0.99


def _ordered_up(confidence: float, rival: str | None = "Kh") -> Match:
    """The up-card read as K♠ (``confidence``, perhaps ``rival``); seat 1 orders it up: spades trump as recorded."""
    m = Match(Rules.preset("north_american"))
    doubted = rival is not None and confidence < CHECK_CONFIDENCE
    m.apply(UpCard(C("Ks"), confidence, rival=C(rival) if doubted and rival is not None else None))
    m.apply(OrderUp(1))
    m.apply(Discard(0, None))
    return m


def _play(m: Match, plays: list[tuple[int, str]]) -> list[object]:
    out: list[object] = []
    for seat, card in plays:
        out += m.apply(Play(seat, C(card)))
    return out


# Trick 1: seat 1 leads the ace of spades, seat 2 shows out with a heart. Trick 2: seat 2 plays the jack of clubs,
# a spade only where spades are trump (the left bower): with hearts trump it is a club, and no renege.
TRICK_1 = [(1, "As"), (2, "9h"), (3, "Qs"), (0, "Ts")]
BOWER_PROOF = [(1, "Ad"), (2, "Jc")]
PLAIN_PROOF = [(1, "Ad"), (2, "9s")]  # a spade whatever the trump: a renege either way


def _proven(said: list[object]) -> list[RenegeProven]:
    return [a for a in said if isinstance(a, RenegeProven)]


def test_a_renege_that_rests_on_a_doubted_up_cards_suit_is_not_proven() -> None:
    m = _ordered_up(DOUBT)
    said = _play(m, TRICK_1 + BOWER_PROOF)
    assert _proven(said) == []
    suspected = [a for a in said if isinstance(a, Irregularity) and a.kind is IrregularityKind.SUSPECTED_RENEGE]
    assert len(suspected) == 1 and "up-card to be checked (Ks, perhaps Kh)" in suspected[0].detail


def test_the_same_renege_on_a_sure_up_card_is_proven() -> None:
    m = _ordered_up(0.95)
    [alert] = _proven(_play(m, TRICK_1 + BOWER_PROOF))
    assert alert.seat == 2 and alert.evidence.proof_card == C("Jc")


def test_a_renege_that_holds_whatever_the_trump_is_proven_on_a_doubted_up_card() -> None:
    for rival in ("Kh", None):  # without a rival, every other suit may be trump
        m = _ordered_up(DOUBT, rival)
        [alert] = _proven(_play(m, TRICK_1 + PLAIN_PROOF))
        assert alert.seat == 2 and alert.evidence.proof_card == C("9s")


def test_without_a_rival_every_other_suit_is_in_doubt() -> None:
    m = _ordered_up(DOUBT, rival=None)
    assert _proven(_play(m, TRICK_1 + BOWER_PROOF)) == []  # with clubs trump the jack of clubs is a club's right bower


def test_a_player_confirming_the_up_card_makes_the_renege_proven() -> None:
    m = _ordered_up(DOUBT)
    _play(m, TRICK_1 + BOWER_PROOF)
    [alert] = _proven(list(m.apply(ReviseCard(0, C("Ks")))))  # the up-card is input 0: checked and confirmed
    assert alert.evidence.proof_card == C("Jc")


def test_trump_named_in_round_two_is_not_in_doubt() -> None:
    m = Match(Rules.preset("north_american"))
    m.apply(UpCard(C("Kh"), DOUBT, rival=C("Kd")))
    for seat in (1, 2, 3, 0):
        m.apply(Pass(seat))
    m.apply(NameTrump(1, Suit.SPADES))
    [alert] = _proven(_play(m, TRICK_1 + BOWER_PROOF))
    assert alert.evidence.proof_card == C("Jc")
