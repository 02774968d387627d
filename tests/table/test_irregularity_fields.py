"""Each irregularity carries the values its detail names as typed fields, filled where the engine raises it.

The display words irregularities from these fields (``display.phrases``); the detail stays the engine's
sentence for logs, EGN and ``replay``, so each case pins both.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from table.announcements import CardSource, Irregularity, IrregularityKind
from table.cards import BENNY, Card, Suit
from table.inputs import Discard, Input, Misdeal, NameTrump, OrderUp, Pass, Play, UpCard
from table.match import Match
from table.rules import BennyTurnedUp, Rules

NA = Rules.preset("north_american")
BRITISH = Rules.preset("british")
SET_ASIDE = replace(BRITISH, benny_turned_up=BennyTurnedUp.SET_ASIDE)  # a Benny turned up is put aside
NINES_AND_TENS = replace(NA, nines_and_tens=True)
K = IrregularityKind
C = Card.parse

# Dealer North (seat 0); East (seat 1) bids first. Hearts are trump after _DEALT.
_DEALT = (UpCard(C("9h")), OrderUp(1), Discard(0, C("9c")))
_TURNED_DOWN = (UpCard(C("9h")), Pass(1), Pass(2), Pass(3), Pass(0), NameTrump(1, Suit.SPADES))
_TRICK_1 = (Play(1, C("Ah")), Play(2, C("Kh")), Play(3, C("Qh")), Play(0, C("Th")))  # East takes it
_FIVE_PLAYS = (*_TRICK_1, Play(1, C("As")))

CASES: list[tuple[str, Rules, tuple[Input, ...], Irregularity]] = [
    (
        "play out of turn",
        NA,
        (*_DEALT, Play(1, C("Ah")), Play(3, C("Qs"))),
        Irregularity(K.OUT_OF_TURN, "seat 3 played out of turn (seat 2 to play)", 3, C("Qs"), turn=2),
    ),
    (
        "played twice in trick 2",
        NA,
        (*_DEALT, *_TRICK_1, Play(1, C("As")), Play(1, C("Kd"))),
        Irregularity(K.OUT_OF_TURN, "seat 1 already played to trick 2; card ignored", 1, C("Kd"), trick=1),
    ),
    (
        "read two ways in trick 2",
        NA,
        (*_DEALT, *_TRICK_1, Play(1, C("As")), Play(1, C("Ks"))),
        Irregularity(
            K.CHECK_CARD,
            "check seat 1's card in trick 2: read as As and as Ks",
            1,
            C("As"),
            source=CardSource.PLAY,
            other_reading=C("Ks"),
        ),
    ),
    (
        "card unseen",
        NA,
        (*_DEALT, Play(1, C("Ah")), Play(2, C("Kh")), Play(3, C("Qh")), Play(1, C("As"))),
        Irregularity(
            K.CARD_UNSEEN,
            "seat 0's card in trick 1 went unseen; seat 1 leads the next trick, so took this one",
            0,
            trick=0,
            leader=1,
        ),
    ),
    (
        "duplicate play",
        NA,
        (*_DEALT, Play(1, C("Ah")), Play(2, C("Ah"))),
        Irregularity(K.DUPLICATE_CARD, "card Ah was already seen this hand", 2, C("Ah"), source=CardSource.PLAY),
    ),
    (
        "duplicate up-card",
        SET_ASIDE,
        (UpCard(BENNY), UpCard(BENNY)),
        Irregularity(K.DUPLICATE_CARD, "up-card B was already seen this hand", None, BENNY, source=CardSource.UP_CARD),
    ),
    (
        "duplicate discard",
        SET_ASIDE,
        (UpCard(BENNY), UpCard(C("9h")), OrderUp(1), Discard(0, BENNY)),
        Irregularity(K.DUPLICATE_CARD, "discard B was already seen this hand", 0, BENNY, source=CardSource.DISCARD),
    ),
    (
        "play not in deck",
        NA,
        (*_DEALT, Play(1, C("8h"))),
        Irregularity(
            K.NOT_IN_DECK, "card 8h is not in a 24-card deck", 1, C("8h"), source=CardSource.PLAY, deck_size=24
        ),
    ),
    (
        "up-card not in a 25-card deck",
        BRITISH,
        (UpCard(C("8h")),),
        Irregularity(
            K.NOT_IN_DECK, "up-card 8h is not in a 25-card deck", None, C("8h"), source=CardSource.UP_CARD, deck_size=25
        ),
    ),
    (
        "discard not in deck",
        NA,
        (UpCard(C("9h")), OrderUp(1), Discard(0, C("8h"))),
        Irregularity(
            K.NOT_IN_DECK, "discard 8h is not in a 24-card deck", 0, C("8h"), source=CardSource.DISCARD, deck_size=24
        ),
    ),
    (
        "turned-down up-card played",
        NA,
        (*_TURNED_DOWN, Play(1, C("9h"))),
        Irregularity(
            K.UP_CARD_PLAYED,
            "card 9h is the up-card that was turned down",
            1,
            C("9h"),
            source=CardSource.PLAY,
            up_card_taken=False,
        ),
    ),
    (
        "the dealer's up-card played by another seat",
        NA,
        (*_DEALT, Play(1, C("9h"))),
        Irregularity(K.UP_CARD_PLAYED, "9h is the up-card the dealer took", 1, C("9h"), up_card_taken=True),
    ),
    (
        "play during bidding",
        NA,
        (UpCard(C("9h")), Play(2, C("Ah"))),
        Irregularity(
            K.PLAY_BEFORE_BIDDING_ENDED, "a card was played before bidding ended", 2, C("Ah"), before_up_card=False
        ),
    ),
    (
        "play before the up-card",
        NA,
        (Play(2, C("Ah")),),
        Irregularity(
            K.PLAY_BEFORE_BIDDING_ENDED,
            "a card was played before the up-card was turned",
            2,
            C("Ah"),
            before_up_card=True,
        ),
    ),
    (
        "bid out of turn",
        NA,
        (UpCard(C("9h")), Pass(1), Pass(3)),
        Irregularity(K.BID_OUT_OF_TURN, "seat 3 bid out of turn (seat 2 to bid)", 3, turn=2),
    ),
    (
        "bid before the up-card",
        NA,
        (Pass(1),),
        Irregularity(K.BID_OUT_OF_TURN, "a bid before the up-card was turned", 1, before_up_card=True),
    ),
    (
        "check a played card",
        NA,
        (*_DEALT, Play(1, C("Ah"), 0.3)),
        Irregularity(
            K.CHECK_CARD, "check seat 1's card: read as Ah with low confidence", 1, C("Ah"), source=CardSource.PLAY
        ),
    ),
    (
        "check the up-card",
        NA,
        (UpCard(C("9h"), 0.3),),
        Irregularity(
            K.CHECK_CARD, "check the up-card: read as 9h with low confidence", None, C("9h"), source=CardSource.UP_CARD
        ),
    ),
    (
        "check a played card, naming the camera's other reading",
        NA,
        (*_DEALT, Play(1, C("Ah"), 0.3, rival=C("As"))),
        Irregularity(
            K.CHECK_CARD, "check seat 1's card: read as Ah with low confidence, perhaps As", 1, C("Ah"),
            source=CardSource.PLAY, rival=C("As"),
        ),
    ),
    (
        "check the up-card, naming the camera's other reading",
        NA,
        (UpCard(C("9h"), 0.3, rival=C("Th")),),
        Irregularity(
            K.CHECK_CARD, "check the up-card: read as 9h with low confidence, perhaps Th", None, C("9h"),
            source=CardSource.UP_CARD, rival=C("Th"),
        ),
    ),
    (
        "deal unseen, no card seen",
        NA,
        (UpCard(C("9h"), unseen_deals=1),),
        Irregularity(
            K.DEAL_UNSEEN,
            "no up-card was seen: seat 0's deal went by unseen; not scored: check the score",
            0,
            dealer=0,
            cards_played=0,
        ),
    ),
    (
        "deal unseen after five cards",
        NA,
        (*_FIVE_PLAYS, UpCard(C("9h"), unseen_deals=1)),
        Irregularity(
            K.DEAL_UNSEEN,
            "5 cards were played before an up-card was seen: seat 0's deal went by unseen; not scored: check the score",
            0,
            dealer=0,
            cards_played=5,
        ),
    ),
    (
        "misdeal",
        NA,
        (*_DEALT, Misdeal()),
        Irregularity(K.MISDEAL, "the table declared a misdeal: seat 0's deal is void and seat 0 deals again", dealer=0),
    ),
    (
        "nines and tens",
        NINES_AND_TENS,
        (UpCard(C("9h")), Misdeal(2)),
        Irregularity(
            K.MISDEAL,
            "seat 2 declared a hand of nines and tens: seat 0's deal is void and seat 0 deals again",
            2,
            dealer=0,
        ),
    ),
]


def _last_irregularity(rules: Rules, inputs: tuple[Input, ...], first_dealer: int = 0) -> Irregularity:
    match = Match(rules, first_dealer=first_dealer)
    news = [a for inp in inputs for a in match.apply(inp) if isinstance(a, Irregularity)]
    assert news, "no irregularity"
    return news[-1]


@pytest.mark.parametrize(("rules", "inputs", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_irregularity_carries_its_fields(rules: Rules, inputs: tuple[Input, ...], expected: Irregularity) -> None:
    assert _last_irregularity(rules, inputs) == expected


def test_the_fields_follow_the_table_not_the_defaults() -> None:
    """Another dealer: the seats in the fields move with the deal, as the detail's do."""
    inputs = (UpCard(C("9h")), OrderUp(3), Discard(2, C("9c")), Play(3, C("Ah")), Play(1, C("Qs")))
    assert _last_irregularity(NA, inputs, first_dealer=2).turn == 0
    misdeal = _last_irregularity(NA, (UpCard(C("9h")), Misdeal()), first_dealer=2)
    assert (misdeal.seat, misdeal.dealer) == (None, 2)
    assert _last_irregularity(NA, (UpCard(C("9h"), unseen_deals=1),), first_dealer=3).dealer == 3


def test_the_irregularities_a_deal_keeps_carry_the_same_fields() -> None:
    match = Match(NA, first_dealer=0)
    announced = [a for inp in (*_DEALT, Play(1, C("Ah")), Play(3, C("Qs"))) for a in match.apply(inp)]
    assert match.deals[0].irregularities == [a for a in announced if isinstance(a, Irregularity)]
    assert match.deals[0].irregularities[0].turn == 2
