"""Cards: parsing and printing in EGN notation, and the decks of every size."""

from __future__ import annotations

import pytest

from table.cards import BENNY, Card, CardParseError, Rank, Suit, deck, parse_cards


@pytest.mark.parametrize("text", ["Jd", "Ts", "9c", "Ah", "7s", "8d", "B"])
def test_round_trip(text: str) -> None:
    card = Card.parse(text)
    assert str(card) == text
    assert eval(repr(card)) == card  # repr pastes back


def test_egn_aliases() -> None:
    assert Card.parse("Nc") == Card(Rank.NINE, Suit.CLUBS)
    assert Card.parse("10h") == Card(Rank.TEN, Suit.HEARTS)
    assert Card.parse("joker") is BENNY


@pytest.mark.parametrize("text", ["", "J", "Xd", "Jx", "1h"])
def test_bad_cards_raise(text: str) -> None:
    with pytest.raises(CardParseError):
        Card.parse(text)


@pytest.mark.parametrize(
    ("size", "has_benny", "lowest"), [(24, False, 9), (25, True, 9), (28, False, 8), (32, False, 7), (33, True, 7)]
)
def test_decks(size: int, has_benny: bool, lowest: int) -> None:
    cards = deck(size)
    assert len(cards) == len(set(cards)) == size
    assert (BENNY in cards) is has_benny
    assert min(int(x.rank) for x in cards if x.rank is not None) == lowest


def test_no_such_deck() -> None:
    with pytest.raises(ValueError, match="no such deck"):
        deck(52)


def test_labels() -> None:
    assert Card.parse("Td").label == "10\u2666"
    assert Card.parse("Jd").name == "jack of diamonds"
    assert BENNY.label == "Benny"
    assert parse_cards("Jc Js") == [Card.parse("Jc"), Card.parse("Js")]


def test_a_card_s_twin_is_its_rank_in_the_other_suit_of_its_colour() -> None:
    assert Card.parse("Ah").twin == Card.parse("Ad") and Card.parse("Ad").twin == Card.parse("Ah")
    assert Card.parse("Jc").twin == Card.parse("Js") and Card.parse("7s").twin == Card.parse("7c")
    assert all(c.twin is not None and c.twin.twin == c for c in deck(32))
    assert BENNY.twin is None
