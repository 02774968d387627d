"""The scoreboard's view model: a frozen snapshot of everything the screen shows, in display terms.

The renderer draws only from a `ScoreboardView` (and the time, for flashing),
so every screen is a pure function a test can render to PNG. The view is
built from the engine by `display.adapter`, or by hand in tests and demos.
Seats are 0-3 clockwise as everywhere in the project; team = seat % 2.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from display.actions import Action
from table.cards import Card, Suit
from table.records import Record

SEATS = 4


class Stage(enum.Enum):
    """Which part of the game the table is in: it picks what the centre of the screen shows."""

    NEW_GAME = "new_game"  # waiting for a game to start
    DEALING = "dealing"  # waiting for the up-card
    BIDDING = "bidding"  # round 1 or 2 (see `ScoreboardView.bid_round`)
    PLAYING = "playing"  # discard, going alone, and the five tricks
    HAND_OVER = "hand_over"  # a hand was just scored
    GAME_OVER = "game_over"


class ScoreStyle(enum.Enum):
    """How the scores are drawn: big numerals, or the traditional 6-and-4 cards showing pips."""

    NUMBERS = "numbers"
    CARDS = "cards"


class BannerKind(enum.Enum):
    """An irregularity banner's kind; each has its own colour and icon."""

    IRREGULARITY = "irregularity"  # out of turn, duplicate card, lone partner played...
    CHECK_CARD = "check_card"  # a low-confidence reading that matters: look at the card
    INFO = "info"
    ALARM = "alarm"  # the score is not being saved (a full or failing disk): shown over everything else


@dataclass(frozen=True)
class SeatView:
    """One player as the screen shows them."""

    name: str
    card: Card | None = None  # played to the current trick
    led: bool = False  # this seat led the current trick
    winning: bool = False  # this seat's card is winning the current trick so far
    sitting_out: bool = False  # partner of a lone player


@dataclass(frozen=True)
class HistoryRow:
    """One finished hand (or a thrown-in deal) in the hand-by-hand history."""

    number: int  # 1-based hand number in the game
    trump: Suit | None  # None: no trump, or thrown in
    maker: str  # seat name of the maker, "" when thrown in
    alone: bool
    tricks: tuple[int, int]  # tricks taken by team 0, team 1
    points: tuple[int, int]  # points added to team 0, team 1
    score: tuple[int, int]  # the score after the hand
    note: str = ""  # "euchre", "march", "renege", "thrown in"... ("" with no maker: "thrown in")


@dataclass(frozen=True)
class Snapshot:
    """A camera still for the renege evidence: raw RGB bytes (width * height * 3) or a PNG/JPEG path."""

    caption: str
    size: tuple[int, int] = (0, 0)
    rgb: bytes = b""
    path: str = ""


@dataclass(frozen=True)
class RenegeAlert:
    """A proven renege waiting for the table's decision."""

    offender: str  # seat name
    evidence: str  # "West showed out of hearts in trick 2, played 10♥ in trick 4"
    penalty: str = ""  # "North–South score 2"
    snapshots: tuple[Snapshot, ...] = ()
    accept_hint: str = ""  # "": "Call / Y: accept penalty" in the table's language
    dismiss_hint: str = ""  # "": "Pass / X: dismiss"


@dataclass(frozen=True)
class Banner:
    """A non-blocking notice across the screen: an irregularity or "check this card"."""

    kind: BannerKind
    text: str


@dataclass(frozen=True)
class Offer:
    """A declaration the table may make now, or one option of a question: its words, its key and its action.

    ``key`` names the panel button that gives it ("Alone", "♣", "Call", "hold Alone"); a tap on the screen
    gives ``action``, the same action as that button.
    """

    label: str
    key: str
    action: Action
    selected: bool = False


@dataclass(frozen=True)
class Choice:
    """A question the panel is in the middle of: pick one option (the declarations menu, whose go alone)."""

    title: str
    options: tuple[Offer, ...]
    hint: str = ""  # how to confirm or leave: "Call: confirm · Pass: nobody"


@dataclass(frozen=True)
class ScoreboardView:
    """Everything the scoreboard shows at one moment."""

    seats: tuple[SeatView, SeatView, SeatView, SeatView]
    score: tuple[int, int] = (0, 0)
    target: int = 10
    stage: Stage = Stage.NEW_GAME
    bid_round: int = 1  # 1 or 2 while bidding
    dealer: int | None = None
    turn: int | None = None  # whose turn it is (highlighted)
    trump: Suit | None = None
    no_trump: bool = False  # trump was made and it is "no trump"
    maker: int | None = None  # seat that made trump
    alone: tuple[int, ...] = ()  # seats playing alone (a lone defender too)
    tricks: tuple[int, int] = (0, 0)  # tricks taken this hand by team 0, team 1
    trick_number: int = 0  # 1-5 during play, 0 otherwise
    up_card: Card | None = None
    up_card_turned_down: bool = False  # round 2: the up-card was turned down
    prompt: str = ""  # "North: pass or order up J♦?"
    announcement: str = ""  # the last announcement: "North takes it with the right bower"
    result: str = ""  # headline of a scored hand or a won game: "Euchred! East–West score 2"
    winner: int | None = None  # team that won the game
    history: tuple[HistoryRow, ...] = ()
    renege: RenegeAlert | None = None
    review: tuple[Snapshot, ...] = ()  # a scored hand's tricks as the camera saw them (the hand in review)
    banner: Banner | None = None
    camera_ok: bool = True
    camera_text: str = ""  # "": "camera lost" in the table's language
    muted: bool = False
    score_style: ScoreStyle = ScoreStyle.NUMBERS
    team_names: tuple[str, str] = field(default=("", ""))  # "" = built from the seat names
    offers: tuple[Offer, ...] = ()  # declarations that may be made now (beside the prompt; each a touch button)
    choice: Choice | None = None  # a question the panel is in the middle of (over the table)
    # The won game's records, seat by seat (table.records): shown on the game-won screen when given.
    records: tuple[Record, ...] = ()

    def team_name(self, team: int) -> str:
        """ "North–South": the two partners' names, unless the view names the team."""
        if self.team_names[team]:
            return self.team_names[team]
        return f"{self.seats[team].name}\u2013{self.seats[team + 2].name}"


DEFAULT_SEAT_NAMES: tuple[str, str, str, str] = ("North", "East", "South", "West")


def seats_named(names: tuple[str, str, str, str] = DEFAULT_SEAT_NAMES) -> tuple[SeatView, SeatView, SeatView, SeatView]:
    """Four empty seats with these names (for views built by hand)."""
    return (SeatView(names[0]), SeatView(names[1]), SeatView(names[2]), SeatView(names[3]))
