"""The up-card at the table: bids pressed a moment before the camera has read it wait for it, and the seat
the camera saw turn it goes to the engine, which says so when that seat is not the dealer (a stolen deal)."""

from __future__ import annotations

from pathlib import Path

from companion.session import HOLD_FRAMES, TableSession
from display import phrases
from display.actions import Action, ButtonAction
from table.announcements import Irregularity, IrregularityKind, TrumpMade
from table.cards import Card, Suit
from table.deal import Phase
from table.inputs import NameTrump, OrderUp, Pass, UpCard
from table.log import MatchLog, read_log
from table.match import Match
from table.rules import Rules
from vision.observations import UpCardShown

C = Card.parse
NAMES = ("North", "East", "South", "West")
A = ButtonAction
BRITISH = Rules.preset("british")


def _session(tmp_path: Path, rules: Rules | None = None) -> TableSession:
    """Seat 0 (North) deals first."""
    log = MatchLog.create(tmp_path / "match.jsonl", rules or Rules(), first_dealer=0)
    return TableSession(log, names=NAMES, clock=lambda: 0.0)


def test_the_dealers_blind_suit_pressed_before_the_benny_is_read_counts_once_it_is(tmp_path: Path) -> None:
    session = _session(tmp_path, BRITISH)
    session.act(Action(A.SUIT, Suit.SPADES), frame=20, script_number=0)
    assert session.match.phase is Phase.UP_CARD  # nothing applied yet, nothing refused
    assert session.notes.messages[-1] == phrases.press_held_for_up_card()
    session.observe(UpCardShown(C("B"), 0.85, frame=23))
    made = [a for a in session.release() if isinstance(a, TrumpMade)]
    assert made and made[0].seat == 0 and made[0].suit is Suit.SPADES
    logged = read_log(tmp_path / "match.jsonl")
    assert logged.inputs == [UpCard(C("B"), 0.85), NameTrump(0, Suit.SPADES, False)]
    assert [e.meta.get("script") for e in logged.entries] == [None, 0]  # a resumed run does not press it again


def test_several_early_presses_count_in_their_order(tmp_path: Path) -> None:
    session = _session(tmp_path)
    session.act(Action(A.PASS), frame=10)
    session.act(Action(A.ALONE), frame=11)
    session.act(Action(A.CALL), frame=12)
    session.observe(UpCardShown(C("9h"), 0.97, frame=14))
    inputs = read_log(tmp_path / "match.jsonl").inputs
    assert inputs == [UpCard(C("9h"), 0.97), Pass(1), OrderUp(2, True)]


def test_a_press_long_before_the_up_card_does_not_count(tmp_path: Path) -> None:
    session = _session(tmp_path)
    session.act(Action(A.CALL), frame=10)
    session.observe(UpCardShown(C("9h"), 0.97, frame=10 + HOLD_FRAMES + 1))
    assert read_log(tmp_path / "match.jsonl").inputs == [UpCard(C("9h"), 0.97)]
    assert session.notes.messages[-1] == phrases.held_presses_dropped()
    assert session.match.phase is Phase.BID_ROUND_1


def test_undo_forgets_the_presses_held_for_the_up_card(tmp_path: Path) -> None:
    session = _session(tmp_path)
    session.act(Action(A.CALL), frame=10)
    session.act(Action(A.UNDO), frame=11)
    session.observe(UpCardShown(C("9h"), 0.97, frame=12))
    assert read_log(tmp_path / "match.jsonl").inputs[-1] == UpCard(C("9h"), 0.97)


def test_an_up_card_turned_by_the_dealer_is_no_irregularity(tmp_path: Path) -> None:
    session = _session(tmp_path)
    session.observe(UpCardShown(C("9h"), 0.97, frame=5, turned_by=0))
    assert not [a for a in session.release() if isinstance(a, Irregularity)]
    assert read_log(tmp_path / "match.jsonl").inputs == [UpCard(C("9h"), 0.97, turned_by=0)]


def test_an_up_card_turned_by_another_seat_is_a_deal_out_of_turn_said_never_refused(tmp_path: Path) -> None:
    session = _session(tmp_path)
    session.observe(UpCardShown(C("9h"), 0.97, frame=5, turned_by=2))
    said = [a for a in session.release() if isinstance(a, Irregularity)]
    assert [(a.kind, a.seat, a.dealer) for a in said] == [(IrregularityKind.DEAL_OUT_OF_TURN, 2, 0)]
    assert phrases.irregularity_text(said[0], NAMES) == (
        "Deal out of turn: South turned the up-card, but it is North's deal"
    )
    # The deal goes on as North's: East bids first, and the log replays to the same announcement.
    assert session.match.phase is Phase.BID_ROUND_1 and session.match.expected.seat == 1
    replayed = Match(Rules(), 0)
    again = [a for inp in read_log(tmp_path / "match.jsonl").inputs for a in replayed.apply(inp)]
    assert [a for a in again if isinstance(a, Irregularity)] == said


def test_an_uncertain_up_card_names_nobody(tmp_path: Path) -> None:
    session = _session(tmp_path)
    session.observe(UpCardShown(C("9h"), 0.5, frame=5, uncertain=True, turned_by=2))
    said = [a for a in session.release() if isinstance(a, Irregularity)]
    assert IrregularityKind.DEAL_OUT_OF_TURN not in [a.kind for a in said]
