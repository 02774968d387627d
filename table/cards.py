"""Cards, suits and ranks for every deck the engine supports, in EGN notation.

A card is written rank then suit (``"Jd"``, ``"Ts"``); the Benny (joker) is
``"B"``. Parsing also accepts EGN's ``N`` for the nine and ``10`` for the ten.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass


class CardParseError(ValueError):
    """A card string that is not a card (a programming or file error)."""


class Suit(enum.Enum):
    """The four suits; the value is the EGN letter."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    # Members are singletons: identity hashing is correct and much faster than Enum's name hash
    # (cards are hashed on every play for the duplicate check).
    __hash__ = object.__hash__

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def partner(self) -> Suit:
        """The other suit of the same colour (where the left bower comes from)."""
        return _PARTNER[self]

    @property
    def symbol(self) -> str:
        return _SYMBOL[self]

    @property
    def noun(self) -> str:
        """Plural English name: ``"hearts"``."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Suit:
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise CardParseError(f"not a suit: {text!r} (expected one of c d h s)") from None

    def __str__(self) -> str:
        return self.value


_PARTNER = {
    Suit.CLUBS: Suit.SPADES,
    Suit.SPADES: Suit.CLUBS,
    Suit.DIAMONDS: Suit.HEARTS,
    Suit.HEARTS: Suit.DIAMONDS,
}
_SYMBOL = {Suit.CLUBS: "\u2663", Suit.DIAMONDS: "\u2666", Suit.HEARTS: "\u2665", Suit.SPADES: "\u2660"}


class Rank(enum.IntEnum):
    """Ranks in natural order (ace high); the value orders them."""

    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    __hash__ = int.__hash__  # equal to hash(int(rank)), as an IntEnum must be; C speed instead of Enum's

    @property
    def letter(self) -> str:
        return _RANK_LETTER[self]

    @property
    def noun(self) -> str:
        return _RANK_NOUN[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        key = text.strip().upper()
        if key in _LETTER_RANK:
            return _LETTER_RANK[key]
        raise CardParseError(f"not a rank: {text!r} (expected one of 7 8 9 T J Q K A)")


_RANK_LETTER = {
    Rank.SEVEN: "7",
    Rank.EIGHT: "8",
    Rank.NINE: "9",
    Rank.TEN: "T",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
}
_LETTER_RANK = {v: k for k, v in _RANK_LETTER.items()} | {"N": Rank.NINE, "10": Rank.TEN}
_RANK_NOUN = {
    Rank.SEVEN: "seven",
    Rank.EIGHT: "eight",
    Rank.NINE: "nine",
    Rank.TEN: "ten",
    Rank.JACK: "jack",
    Rank.QUEEN: "queen",
    Rank.KING: "king",
    Rank.ACE: "ace",
}


@dataclass(frozen=True, order=True)
class Card:
    """One card. ``rank`` and ``suit`` are both ``None`` for the Benny."""

    rank: Rank | None
    suit: Suit | None

    def __post_init__(self) -> None:
        if (self.rank is None) != (self.suit is None):
            raise CardParseError(f"a card has both a rank and a suit, or neither (the Benny): {self.rank}, {self.suit}")
        # The engine hashes cards on every play (duplicates, trump tables): compute it once.
        object.__setattr__(self, "_hash", hash((self.rank, self.suit)))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined, no-any-return]

    def __reduce__(self) -> tuple[type[Card], tuple[Rank | None, Suit | None]]:
        # Rebuild through the constructor so the cached hash is computed in the receiving process.
        return (Card, (self.rank, self.suit))

    @property
    def is_benny(self) -> bool:
        return self.rank is None

    @property
    def twin(self) -> Card | None:
        """The same rank in the other suit of its colour (``Suit.partner``: Ah -> Ad), the card a camera most
        often takes it for; None for the Benny."""
        if self.rank is None or self.suit is None:
            return None
        return Card.of(self.rank, self.suit.partner)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse EGN notation: ``Card.parse("Jd")``, ``Card.parse("B")``."""
        if not isinstance(text, str):
            raise CardParseError(f"not a card: {text!r} (expected a string such as 'Jd')")
        known = _PARSED.get(text)
        if known is not None:
            return known  # one shared instance per card text: cheaper to hash and compare
        s = text.strip()
        if s.upper() in ("B", "JOKER"):
            return BENNY
        if len(s) < 2:
            raise CardParseError(f"not a card: {text!r} (expected rank and suit, such as 'Jd', or 'B')")
        card = cls.of(Rank.parse(s[:-1]), Suit.parse(s[-1]))
        if len(_PARSED) < 1000:
            _PARSED[text] = card
        return card

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        """The shared instance of a card (equal to ``Card(rank, suit)``, and faster as a dict key)."""
        return _CANONICAL[rank, suit]

    @property
    def label(self) -> str:
        """Human text with a suit symbol: ``"J♦"``, ``"10♥"``, ``"Benny"``."""
        if self.rank is None or self.suit is None:
            return "Benny"
        rank = "10" if self.rank is Rank.TEN else self.rank.letter
        return f"{rank}{self.suit.symbol}"

    @property
    def name(self) -> str:
        """Spoken name: ``"jack of diamonds"``."""
        if self.rank is None or self.suit is None:
            return "the Benny"
        return f"{self.rank.noun} of {self.suit.noun}"

    def __str__(self) -> str:
        if self.rank is None or self.suit is None:
            return "B"
        return f"{self.rank.letter}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


BENNY = Card(None, None)
_PARSED: dict[str, Card] = {"B": BENNY}
_CANONICAL: dict[tuple[Rank, Suit], Card] = {(r, s): Card(r, s) for s in Suit for r in Rank}


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse ``"Jc Js Ah 9d Td"`` (or a list of strings) into cards."""
    parts = text.split() if isinstance(text, str) else list(text)
    return [Card.parse(p) for p in parts]


_DECK_RANKS = {
    24: (Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE),
    25: (Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE),
    28: (Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE),
    32: tuple(Rank),
    33: tuple(Rank),
}
DECK_SIZES: tuple[int, ...] = tuple(_DECK_RANKS)


def deck(size: int) -> tuple[Card, ...]:
    """Every card of a deck of ``size`` cards (24, 25, 28, 32 or 33), in a fixed order."""
    if size not in _DECK_RANKS:
        raise ValueError(f"no such deck: {size} cards (supported: {', '.join(map(str, DECK_SIZES))})")
    cards = tuple(_CANONICAL[r, s] for s in Suit for r in _DECK_RANKS[size])
    return cards + ((BENNY,) if size in (25, 33) else ())


ALL_CARDS: tuple[Card, ...] = deck(33)
