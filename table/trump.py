"""Trump-aware suit and rank: which suit a card belongs to, who wins a trick, what may be played.

Pure functions of the cards and the trump suit (``None`` = no trump), in the
style of OpenSpiel's ``CardSuit``/``CardRank``.

Orders (highest first):

- trump: Benny, right bower (jack of trump), left bower (the other jack of the
  same colour), then A K Q T 9 8 7 of trump;
- a side suit: A K Q J T 9 8 7; the suit of trump's colour lacks its jack
  (it is the left bower, a trump for every purpose);
- no trump: every suit in natural order, aces high, jacks in their own suits.

The Benny under no trump (a house decision, documented here because no source
settles it): it is the best card in the pack and belongs to no suit. Its
effective suit is ``None``, so it can never be "shown out of", and when it is
led the others may play any card and the Benny wins the trick.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from table.cards import ALL_CARDS, Card, Rank, Suit

__all__ = [
    "PlayFacts",
    "card_power",
    "effective_suit",
    "effective_table",
    "is_left_bower",
    "is_right_bower",
    "is_trump",
    "legal_plays",
    "play_facts",
    "trick_winner",
]


def is_right_bower(card: Card, trump: Suit | None) -> bool:
    return trump is not None and card.rank is Rank.JACK and card.suit is trump


def is_left_bower(card: Card, trump: Suit | None) -> bool:
    return trump is not None and card.rank is Rank.JACK and card.suit is trump.partner


def effective_suit(card: Card, trump: Suit | None) -> Suit | None:
    """The suit ``card`` counts as: the left bower and the Benny are trump.

    With no trump every card keeps its printed suit and the Benny has none.
    """
    return _EFFECTIVE[trump][card]


def _effective_suit(card: Card, trump: Suit | None) -> Suit | None:
    if trump is None:
        return card.suit
    if card.is_benny or is_left_bower(card, trump):
        return trump
    return card.suit


def is_trump(card: Card, trump: Suit | None) -> bool:
    """True for every card of the trump suit, the left bower and the Benny (never under no trump)."""
    return trump is not None and effective_suit(card, trump) is trump


# Powers: only their order matters. Trump beats the suit led, which beats everything else.
_BENNY_POWER = 100
_RIGHT_POWER = 99
_LEFT_POWER = 98
_TRUMP_BASE = 50
_LED_BASE = 20


def card_power(card: Card, led: Suit | None, trump: Suit | None) -> int:
    """How strong ``card`` is in a trick whose led (effective) suit is ``led``; 0 = cannot win."""
    if card.is_benny:
        return _BENNY_POWER  # best card, with trump or without
    assert card.rank is not None
    if trump is not None:
        if is_right_bower(card, trump):
            return _RIGHT_POWER
        if is_left_bower(card, trump):
            return _LEFT_POWER
        if card.suit is trump:
            return _TRUMP_BASE + int(card.rank)
    if card.suit is led:
        return _LED_BASE + int(card.rank)
    return 0


def trick_winner(cards: Sequence[Card], trump: Suit | None) -> int:
    """Index of the card that wins a trick; ``cards[0]`` was led.

    Of two identical cards (a misread or a second deck) the first played wins.
    """
    if not cards:
        raise ValueError("trick_winner: a trick needs at least one card")
    power = _POWER[_EFFECTIVE[trump][cards[0]], trump]
    best, best_power = 0, power[cards[0]]
    for i in range(1, len(cards)):
        p = power[cards[i]]
        if p > best_power:
            best, best_power = i, p
    return best


# Lookup tables over every card there is (the 33-card pack holds all ranks, suits and the Benny): the engine asks
# these questions for every card played, and a dict lookup is several times faster than the rules above.
_TRUMPS: tuple[Suit | None, ...] = (*Suit, None)
_EFFECTIVE: dict[Suit | None, dict[Card, Suit | None]] = {
    t: {c: _effective_suit(c, t) for c in ALL_CARDS} for t in _TRUMPS
}
_POWER: dict[tuple[Suit | None, Suit | None], dict[Card, int]] = {
    (led, t): {c: card_power(c, led, t) for c in ALL_CARDS} for led in _TRUMPS for t in _TRUMPS
}


def effective_table(trump: Suit | None) -> Mapping[Card, Suit | None]:
    """``effective_suit`` for every card at once (a shared read-only mapping; fast for the engine's hot path)."""
    return _EFFECTIVE[trump]


PlayFacts = tuple[Suit | None, int, int]
"""Per card under one trump: (effective suit, power as a trump or 0, power when its effective suit is led)."""


def _play_facts(card: Card, trump: Suit | None) -> PlayFacts:
    eff = _EFFECTIVE[trump][card]
    as_trump = card_power(card, None, trump)  # nonzero only for a trump (and the Benny)
    return eff, as_trump, card_power(card, eff, trump)


_FACTS: dict[Suit | None, dict[Card, PlayFacts]] = {t: {c: _play_facts(c, t) for c in ALL_CARDS} for t in _TRUMPS}


def play_facts(trump: Suit | None) -> Mapping[Card, PlayFacts]:
    """Everything the engine asks of a card played under ``trump``, in one look-up (a shared read-only mapping).

    ``card_power(card, led, trump)`` is ``as_trump or (when_led if eff is led else 0)``: a trump's power does
    not depend on the suit led, and any other card scores only in its own (effective) suit.
    """
    return _FACTS[trump]


def legal_plays(hand: Sequence[Card], led: Card | None, trump: Suit | None) -> list[Card]:
    """The cards of ``hand`` that may be played: those of the led card's effective suit if any, else all.

    ``led=None`` means this play leads. A led Benny under no trump has no suit to follow.
    """
    if led is None:
        return list(hand)
    suit = effective_suit(led, trump)
    if suit is None:
        return list(hand)
    follow = [c for c in hand if effective_suit(c, trump) is suit]
    return follow or list(hand)
