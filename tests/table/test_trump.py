"""Trump logic: effective suits, bowers, the Benny, no trump, trick winners and legal plays."""

from __future__ import annotations

import pytest

from table.cards import BENNY, Card, Suit, parse_cards
from table.trump import effective_suit, is_left_bower, is_right_bower, is_trump, legal_plays, trick_winner

H, D, C, S = Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES


def c(text: str) -> Card:
    return Card.parse(text)


@pytest.mark.parametrize(
    ("card", "trump", "suit"),
    [
        ("Jd", H, H),  # left bower is a heart
        ("Jh", H, H),  # right bower
        ("Jh", D, D),  # left bower the other way round
        ("Jc", S, S),
        ("Js", C, C),
        ("Jc", H, C),  # a jack of the other colour keeps its suit
        ("Ad", H, D),  # same colour, not a jack: still a diamond
        ("Jd", None, D),  # no trump: natural suits
        ("9s", C, S),
        ("B", H, H),  # the Benny is trump
        ("B", C, C),
        ("B", None, None),  # no trump: the Benny belongs to no suit (documented decision)
    ],
)
def test_effective_suit(card: str, trump: Suit | None, suit: Suit | None) -> None:
    assert effective_suit(c(card), trump) is suit


def test_is_trump_and_bowers() -> None:
    assert is_trump(c("Jd"), H) and is_left_bower(c("Jd"), H) and not is_right_bower(c("Jd"), H)
    assert is_trump(c("Jh"), H) and is_right_bower(c("Jh"), H)
    assert is_trump(BENNY, S)
    assert not is_trump(c("Ad"), H)
    assert not is_trump(c("Jh"), None) and not is_trump(BENNY, None)


@pytest.mark.parametrize(
    ("trick", "trump", "winner"),
    [
        ("Ah Kh Qh Jh", H, 3),  # right bower beats the ace
        ("Ah Kh Jd Qh", H, 2),  # left bower beats the ace
        ("Jd Jh 9h Ah", H, 1),  # right beats left
        ("B Jh Jd Ah", H, 0),  # Benny beats everything
        ("Jh B Jd Ah", H, 1),
        ("Ad Kd Jd Qd", H, 2),  # diamond led, Jd is trump (left bower) and wins
        ("Ad Kd Qd Td", H, 0),
        ("Jc Ac Kc Qc", H, 1),  # in a side suit of the other colour the jack ranks between Q and T
        ("Qc Jc Tc 9c", H, 0),
        ("Tc Jc 9c 8c", H, 1),
        ("As 9h Ks Qs", C, 0),  # off-suit hearts don't win with clubs trump
        ("As 9c Ks Qs", C, 1),  # lowest trump beats the ace led
        ("9s Ah Ac Ad", H, 1),  # a trump wins
        ("9s Ac Ad Ts", H, 3),  # nobody trumps: highest spade
        ("8s 7s 9s Ts", H, 3),  # 32-card deck: 8 and 7 rank below the 9
        ("7h 8h 9h Th", D, 3),
        ("7d As Ks Qs", D, 0),  # a seven of trump still beats side aces
        ("Jd Qd Kd Ad", None, 3),  # no trump: natural order, ace high, jack is plain
        ("Jh Jd Ah 9h", None, 2),
        ("9s Ah Ac As", None, 3),  # no trump: only the suit led can win
        ("B Ah As Ac", None, 0),  # a led Benny under no trump wins (no suit to follow)
        ("Ah B As Ac", None, 1),  # and wins wherever it is played
        ("Ah Ah", H, 0),  # two identical cards: the first played wins
    ],
)
def test_trick_winner(trick: str, trump: Suit | None, winner: int) -> None:
    assert trick_winner(parse_cards(trick), trump) == winner


def test_trick_winner_needs_cards() -> None:
    with pytest.raises(ValueError, match="at least one card"):
        trick_winner([], H)


@pytest.mark.parametrize(
    ("hand", "led", "trump", "legal"),
    [
        ("Jd Ad 9c Ts Ks", "Qd", H, "Ad"),  # the left bower does not follow diamonds
        ("Jd 9c Ts Ks Qs", "Qd", H, "Jd 9c Ts Ks Qs"),  # holding only the left bower: void in diamonds
        ("Jd Ad 9c Ts Ks", "9h", H, "Jd"),  # the left bower must follow a trump lead
        ("Jd Ad 9c Ts Ks", "Jd", H, "Jd"),  # a led left bower is a trump lead
        ("Ad 9c Ts Ks Qs", "Jd", H, "Ad 9c Ts Ks Qs"),  # ...so diamonds need not follow it
        ("B Ad 9c Ts Ks", "9h", H, "B"),  # the Benny follows trump
        ("B Ad 9c Ts Ks", "9d", H, "Ad"),  # and not a side suit
        ("Ah Ad 9c Ts Ks", "B", H, "Ah"),  # a led Benny calls for trump
        ("Ah Ad 9c Ts Ks", "B", None, "Ah Ad 9c Ts Ks"),  # under no trump it calls for nothing
        ("Jd Ad 9c Ts Ks", "Qd", None, "Jd Ad"),  # no trump: jacks follow their own suit
        ("Jd Ad 9c Ts Ks", None, H, "Jd Ad 9c Ts Ks"),  # leading: anything
    ],
)
def test_legal_plays(hand: str, led: str | None, trump: Suit | None, legal: str) -> None:
    led_card = None if led is None else c(led)
    assert legal_plays(parse_cards(hand), led_card, trump) == parse_cards(legal)
