"""The table session: observations and buttons become the right inputs, announced only once on disk."""

from __future__ import annotations

import os
import queue
import threading
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from companion.session import SyncLogWriter, TableSession, ThreadedLogWriter
from display.actions import Action, ButtonAction
from table.announcements import Expect, Irregularity, IrregularityKind, Prompt, RenegeProven, TrickWon
from table.cards import Card, Suit
from table.deal import Phase
from table.inputs import (
    AcceptPenalty,
    Discard,
    DismissRenege,
    Input,
    Misdeal,
    NameTrump,
    OrderUp,
    Pass,
    Play,
    ReviseCard,
    Undo,
    UpCard,
)
from table.log import MatchLog, read_log
from table.rules import Rules
from vision.observations import KITTY, TRICK, CardLanded, CardLifted, CardRevised, UpCardShown, Zone

C = Card.parse
NA = Rules.preset("north_american")


def _log(tmp_path: Path) -> MatchLog:
    return MatchLog.create(tmp_path / "match.jsonl", NA, first_dealer=0)


def _landed(seat: int, card: str, frame: int, confidence: float = 0.95, uncertain: bool = False) -> CardLanded:
    return CardLanded(Zone.of_seat(seat), C(card), confidence, frame, seat=seat, uncertain=uncertain)


def _bid_to_seat_1_ordering_up(session: TableSession) -> None:
    session.observe(UpCardShown(C("9h"), 0.97, frame=1))
    session.act(Action(ButtonAction.CALL), frame=2)  # seat 1 (left of dealer 0) orders up hearts


def _released_checks(session: TableSession) -> list[Irregularity]:
    """The "check this card" announcements the session releases now."""
    return [a for a in session.release() if isinstance(a, Irregularity) and a.kind is IrregularityKind.CHECK_CARD]


def _logged(tmp_path: Path) -> list[Input]:
    return read_log(tmp_path / "match.jsonl").inputs


class ManualWriter:
    """A writer whose lines become durable only when the test says so."""

    def __init__(self) -> None:
        self.submitted: list[Input] = []
        self._durable = 0

    @property
    def durable(self) -> int:
        return self._durable

    def submit(self, inp: Input, *, frame: int | None, meta: dict[str, Any] | None) -> None:
        self.submitted.append(inp)

    def make_durable(self, n: int) -> None:
        self._durable = n

    def close(self) -> None:
        pass


def test_camera_and_buttons_become_inputs_and_the_discard_is_inferred(tmp_path: Path) -> None:
    session = TableSession(_log(tmp_path))
    _bid_to_seat_1_ordering_up(session)
    session.observe(_landed(1, "Ah", frame=10))
    session.observe(_landed(2, "Jh", frame=20))
    assert _logged(tmp_path) == [
        UpCard(C("9h"), 0.97),
        OrderUp(1, False),
        Discard(0, None),
        Play(1, C("Ah"), 0.95),
        Play(2, C("Jh"), 0.95),
    ]


def test_pass_buttons_follow_the_turn(tmp_path: Path) -> None:
    session = TableSession(_log(tmp_path))
    session.observe(UpCardShown(C("9h"), 0.97, frame=1))
    for frame in (2, 3, 4, 5):
        session.act(Action(ButtonAction.PASS), frame=frame)
    session.act(Action(ButtonAction.SUIT, Suit.SPADES), frame=6)
    inputs = _logged(tmp_path)
    assert inputs[1:5] == [Pass(1), Pass(2), Pass(3), Pass(0)]
    assert type(inputs[5]).__name__ == "NameTrump" and inputs[5].seat == 1  # type: ignore[union-attr]


def test_a_card_seen_again_is_not_played_twice(tmp_path: Path) -> None:
    session = TableSession(_log(tmp_path))
    _bid_to_seat_1_ordering_up(session)
    session.observe(_landed(1, "Ah", frame=10))
    session.observe(_landed(1, "Ah", frame=30))
    assert sum(isinstance(i, Play) for i in _logged(tmp_path)) == 1
    assert not any(isinstance(a, Irregularity) for a in session.release())


def test_announcements_wait_until_their_input_is_durable(tmp_path: Path) -> None:
    writer = ManualWriter()
    session = TableSession(_log(tmp_path), writer)
    _bid_to_seat_1_ordering_up(session)
    for seat, card in ((1, "Ah"), (2, "Kh"), (3, "Qh"), (0, "Th")):
        session.observe(_landed(seat, card, frame=10 + seat))
    assert session.release() == []
    writer.make_durable(len(writer.submitted) - 1)  # all but the last card
    released = session.release()
    assert released and not any(isinstance(a, TrickWon) for a in released)
    writer.make_durable(len(writer.submitted))
    assert any(isinstance(a, TrickWon) and a.seat == 1 for a in session.release())
    assert session.unacknowledged == 0


def _seat_2_shows_out_of_clubs(tmp_path: Path) -> TableSession:
    """Seat 2 shows out of clubs in trick 1; seat 1 leads trick 2 (a club from seat 2 next is a renege)."""
    session = TableSession(_log(tmp_path))
    _bid_to_seat_1_ordering_up(session)
    for seat, card in ((1, "Ac"), (2, "9s"), (3, "Kc"), (0, "Qc")):
        session.observe(_landed(seat, card, frame=10 + seat))
    session.observe(_landed(1, "Ad", frame=30))
    return session


def test_an_uncertain_card_asks_for_a_check_and_never_alarms(tmp_path: Path) -> None:
    session = _seat_2_shows_out_of_clubs(tmp_path)
    session.observe(_landed(2, "Tc", frame=31, confidence=0.9, uncertain=True))  # the camera is unsure of it
    released = session.release()
    assert not any(isinstance(a, RenegeProven) for a in released)
    assert any(isinstance(a, Irregularity) and a.kind is IrregularityKind.CHECK_CARD for a in released)


def test_a_certain_card_proves_the_renege(tmp_path: Path) -> None:
    session = _seat_2_shows_out_of_clubs(tmp_path)
    session.observe(_landed(2, "Tc", frame=31))
    proven = [a for a in session.release() if isinstance(a, RenegeProven)]
    assert len(proven) == 1 and proven[0].seat == 2


def test_an_uncertain_card_confirmed_by_the_camera_proves_the_renege(tmp_path: Path) -> None:
    session = _seat_2_shows_out_of_clubs(tmp_path)
    session.observe(_landed(2, "Tc", frame=31, confidence=0.5, uncertain=True))
    assert not any(isinstance(a, RenegeProven) for a in session.release())
    # Read surely where it lies a few frames later, the card is confirmed: now it proves the renege.
    session.observe(CardRevised(Zone.of_seat(2), C("Tc"), C("Tc"), 0.9, frame=35))
    proven = [a for a in session.release() if isinstance(a, RenegeProven)]
    assert len(proven) == 1 and proven[0].seat == 2


def test_an_uncertain_card_the_camera_revises_to_a_reading_still_unsure_never_alarms(tmp_path: Path) -> None:
    session = _seat_2_shows_out_of_clubs(tmp_path)
    session.observe(_landed(2, "Ts", frame=31, confidence=0.5, uncertain=True))
    # The tracker's vote turns to the ten of clubs, still unsure (a card read by turns as either): still a card
    # to be checked, the ten of spades its rival; before, any revision counted as sure and proved the renege.
    session.observe(CardRevised(Zone.of_seat(2), C("Ts"), C("Tc"), 0.5, frame=35, uncertain=True))
    released = session.release()
    assert not any(isinstance(a, RenegeProven) for a in released)
    assert _logged(tmp_path)[-1] == ReviseCard(len(session.match) - 2, C("Tc"), 0.5, C("Ts"))
    checks = [a for a in released if isinstance(a, Irregularity) and a.kind is IrregularityKind.CHECK_CARD]
    assert [(c.card, c.rival) for c in checks][-1:] == [(C("Tc"), C("Ts"))]


def test_a_revised_reading_revises_the_input_that_recorded_it(tmp_path: Path) -> None:
    session = TableSession(_log(tmp_path))
    _bid_to_seat_1_ordering_up(session)
    session.observe(_landed(1, "Ah", frame=10, confidence=0.5, uncertain=True))
    session.observe(CardRevised(Zone.of_seat(1), C("Ah"), C("Ad"), 0.9, frame=14))
    inputs = _logged(tmp_path)
    play_index = next(i for i, x in enumerate(inputs) if isinstance(x, Play))
    assert inputs[-1] == ReviseCard(play_index, C("Ad"))
    assert session.match.view().current_trick == ((1, C("Ad")),)


def test_a_seats_duplicate_card_is_corrected_by_its_next_sure_reading(tmp_path: Path) -> None:
    # Seat 2's card in trick 2 is first read as the ace of clubs, which seat 1 played in trick 1: a misread.
    # The sure reading of an unseen card at seat 2 that follows corrects it, instead of counting as a
    # second card from seat 2 (which would put the whole hand's play out of order).
    session = TableSession(_log(tmp_path))
    _bid_to_seat_1_ordering_up(session)
    for frame, (seat, card) in enumerate(((1, "Ac"), (2, "Kc"), (3, "Qc"), (0, "Jc"), (1, "As"), (2, "Ac"))):
        session.observe(_landed(seat, card, frame=10 + 10 * frame))
    session.observe(_landed(2, "Ks", frame=80))
    inputs = _logged(tmp_path)
    duplicate = max(i for i, x in enumerate(inputs) if isinstance(x, Play) and x.card == C("Ac"))
    assert inputs[-1] == ReviseCard(duplicate, C("Ks"))
    assert session.match.view().current_trick == ((1, C("As")), (2, C("Ks")))
    session.observe(_landed(3, "Qs", frame=90))
    session.observe(_landed(0, "Js", frame=100))
    kinds = {a.kind for a in session.match.deals[-1].irregularities}
    assert IrregularityKind.OUT_OF_TURN not in kinds and IrregularityKind.DUPLICATE_CARD not in kinds


def test_a_card_taken_back_before_the_trick_is_turned_is_undone(tmp_path: Path) -> None:
    session = TableSession(_log(tmp_path))
    _bid_to_seat_1_ordering_up(session)
    session.observe(_landed(1, "Ah", frame=10))
    session.observe(_landed(2, "9s", frame=12))
    session.observe(CardLifted(Zone.of_seat(2), C("9s"), frame=15))
    session.observe(_landed(2, "Kh", frame=20))  # seat 2 lays another card in its place
    assert _logged(tmp_path)[-2:] == [Undo(), Play(2, C("Kh"), 0.95)]
    assert session.match.view().current_trick == ((1, C("Ah")), (2, C("Kh")))


def test_a_card_the_camera_lost_sight_of_stays_played(tmp_path: Path) -> None:
    session = TableSession(_log(tmp_path))
    _bid_to_seat_1_ordering_up(session)
    session.observe(_landed(1, "Ah", frame=10))
    session.observe(_landed(2, "9s", frame=12))
    session.observe(CardLifted(Zone.of_seat(2), C("9s"), frame=20))  # not read for a few frames where it lies
    session.observe(_landed(3, "Kh", frame=22))  # the next player plays
    assert not any(isinstance(i, Undo) for i in _logged(tmp_path))
    assert session.match.view().current_trick == ((1, C("Ah")), (2, C("9s")), (3, C("Kh")))


def test_a_card_lifted_from_the_kitty_undoes_no_play_of_that_name(tmp_path: Path) -> None:
    session = TableSession(_log(tmp_path))
    _bid_to_seat_1_ordering_up(session)
    session.observe(_landed(1, "Ac", frame=10))
    session.observe(_landed(2, "Jc", frame=20))
    session.observe(CardLifted(KITTY, C("Jc"), frame=25))  # the kitty's back, read as Jc for a moment
    assert session.match.view().current_trick == ((1, C("Ac")), (2, C("Jc")))
    assert not any(isinstance(i, Undo) for i in _logged(tmp_path))


def test_resuming_from_the_log_restores_the_state_and_ignores_cards_seen_again(tmp_path: Path) -> None:
    session = TableSession(_log(tmp_path))
    _bid_to_seat_1_ordering_up(session)
    session.observe(_landed(1, "Ah", frame=10))
    session.observe(_landed(2, "Kh", frame=12))
    before = session.match.view()
    session.close()

    resumed = TableSession(MatchLog.open(tmp_path / "match.jsonl"))
    assert resumed.match.view() == before
    resumed.observe(_landed(1, "Ah", frame=100))  # the camera sees the table again after the restart
    resumed.observe(_landed(2, "Kh", frame=101))
    resumed.observe(_landed(3, "Qh", frame=102))
    assert resumed.match.view().current_trick == ((1, C("Ah")), (2, C("Kh")), (3, C("Qh")))


def test_a_burst_of_presses_on_the_writer_thread_loses_nothing(tmp_path: Path) -> None:
    match_log = _log(tmp_path)
    writer = ThreadedLogWriter(match_log)
    session = TableSession(match_log, writer)
    session.observe(UpCardShown(C("9h"), 0.97, frame=1))
    for i in range(100):
        session.act(Action(ButtonAction.UNDO if i % 2 else ButtonAction.PASS), frame=2 + i)
    assert writer.flush(timeout=60.0)  # 101 fsyncs: more than the default 10 s allows on a busy, slow disk
    session.release()
    assert session.unacknowledged == 0
    session.close()
    inputs = read_log(tmp_path / "match.jsonl").inputs
    assert len(inputs) == 101
    assert isinstance(session.match.expected, Prompt)


def test_a_writer_still_behind_at_close_gives_the_rest_up_without_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A disk so slow that close's wait runs out: the file is closed between two lines, never under one."""
    match_log = _log(tmp_path)
    writer = ThreadedLogWriter(match_log)
    gate = threading.Event()
    plain_append = match_log.append

    def slow_append(*args: Any, **kwargs: Any) -> None:
        gate.wait(5.0)  # the disk answers only when the test says so
        plain_append(*args, **kwargs)

    monkeypatch.setattr(match_log, "append", slow_append)
    # After the first line the writer waits, outside the file's lock, until close has returned: else, on a
    # busy machine, it could take the lock back for each next line before close gets it, and write them all.
    closed = threading.Event()
    real_append = writer._append
    calls: list[int] = []

    def paced_append(*args: Any) -> bool:
        calls.append(1)
        if len(calls) > 1:
            closed.wait(5.0)
        return real_append(*args)

    monkeypatch.setattr(writer, "_append", paced_append)
    crashes: list[threading.ExceptHookArgs] = []
    monkeypatch.setattr(threading, "excepthook", crashes.append)
    for i in range(5):
        writer.submit(Pass(i % 4), frame=i, meta=None)
    threading.Timer(0.3, gate.set).start()  # the first line is being written while close gives up waiting
    writer.close(timeout=0.1)
    closed.set()
    writer._thread.join(10.0)
    assert not writer._thread.is_alive() and crashes == []
    assert writer.durable == 1 and writer.submitted == 5  # the line under way was finished, the rest given up
    assert "closed with" in caplog.text and "not yet written" in caplog.text
    lines = (tmp_path / "match.jsonl").read_text().splitlines()
    assert len(lines) == 1 + writer.durable  # the header, then only whole lines


def test_sync_writer_acknowledges_each_input(tmp_path: Path) -> None:
    match_log = _log(tmp_path)
    writer = SyncLogWriter(match_log)
    session = TableSession(match_log, writer)
    session.observe(UpCardShown(C("9h"), 0.97, frame=1))
    assert writer.durable == 1
    assert session.release() != []


def test_next_reading_steps_the_last_card_through_its_look_alikes_and_back(tmp_path: Path) -> None:
    session = TableSession(_log(tmp_path))
    _bid_to_seat_1_ordering_up(session)
    session.observe(_landed(1, "Ah", frame=10))
    session.observe(_landed(2, "9d", frame=20))
    index = len(session.match.history) - 1
    steps = []
    for frame in range(30, 38):
        session.act(Action(ButtonAction.NEXT_READING), frame=frame)
        steps.append(str(session.match.deals[-1].tricks[-1][-1][1]))
    # the other red nine, the black nines, the neighbouring diamonds (no 8 in a 24-card deck), then back
    assert steps == ["9h", "9c", "9s", "Td", "9d", "9h", "9c", "9s"]
    revisions = [i for i in _logged(tmp_path) if isinstance(i, ReviseCard)]
    assert revisions[0] == ReviseCard(index, C("9h")) and len(revisions) == 8


def test_an_uncertain_card_is_checked_against_the_cameras_other_reading_and_next_reading_steps_to_it(
    tmp_path: Path,
) -> None:
    session = TableSession(_log(tmp_path))
    _bid_to_seat_1_ordering_up(session)
    session.observe(_landed(1, "Ah", frame=10))
    unsure = CardLanded(Zone.of_seat(2), C("Kd"), 0.5, 20, seat=2, uncertain=True, rival=C("Ks"))
    session.observe(unsure)
    [check] = _released_checks(session)
    assert check.rival == C("Ks") and check.detail.endswith("perhaps Ks")  # not the twin, the king of hearts
    assert [i for i in _logged(tmp_path) if isinstance(i, Play)][-1].rival == C("Ks")  # kept in the log
    session.act(Action(ButtonAction.NEXT_READING), frame=30)
    assert str(session.match.deals[-1].tricks[-1][-1][1]) == "Ks"  # the first step: the card the check named
    session.act(Action(ButtonAction.NEXT_READING), frame=31)
    assert str(session.match.deals[-1].tricks[-1][-1][1]) == "Kh"  # then the usual look-alikes
    # A sure card names none, whatever the reader ranked next.
    session.observe(CardLanded(Zone.of_seat(3), C("Qd"), 0.95, 40, seat=3, rival=C("Qh")))
    assert [i for i in _logged(tmp_path) if isinstance(i, Play)][-1].rival is None


def test_a_check_read_as_a_card_already_played_records_its_rival_and_the_cameras_revisions_still_find_it(
    tmp_path: Path,
) -> None:
    session = TableSession(_log(tmp_path))
    _bid_to_seat_1_ordering_up(session)
    session.observe(_landed(1, "Ks", frame=10))
    session.observe(CardLanded(Zone.of_seat(2), C("Ks"), 0.5, 20, seat=2, uncertain=True, rival=C("Kd")))
    assert session.match.deals[-1].tricks[-1][-1] == (2, C("Kd"))  # the king of spades is out: its rival
    [check] = _released_checks(session)
    assert check.card == C("Kd") and check.rival == C("Ks")
    session.act(Action(ButtonAction.NEXT_READING), frame=30)
    assert session.match.deals[-1].tricks[-1][-1] == (2, C("Kh"))  # not what the camera read: seat 1 played it
    # The camera, surer later, names the card it reported there: its revision finds the landing.
    session.observe(CardRevised(Zone.of_seat(2), C("Ks"), C("Qd"), 0.95, 40))
    assert session.match.deals[-1].tricks[-1][-1] == (2, C("Qd"))


def test_a_sure_card_an_earlier_check_was_read_as_revises_that_check_to_its_rival(tmp_path: Path) -> None:
    session = TableSession(_log(tmp_path))
    _bid_to_seat_1_ordering_up(session)
    session.observe(CardLanded(Zone.of_seat(1), C("Ks"), 0.5, 10, seat=1, uncertain=True, rival=C("Kd")))
    session.observe(_landed(2, "9s", frame=20))
    session.observe(_landed(3, "Ks", frame=30))
    assert session.match.deals[-1].tricks[-1] == [(1, C("Kd")), (2, C("9s")), (3, C("Ks"))]
    kinds = {a.kind for a in session.release() if isinstance(a, Irregularity)}
    assert IrregularityKind.DUPLICATE_CARD not in kinds
    assert [i for i in _logged(tmp_path) if isinstance(i, ReviseCard)][-1].card == C("Kd")
    # the camera's own revision of seat 1's card still names what it reported there
    session.observe(CardRevised(Zone.of_seat(1), C("Ks"), C("Qd"), 0.95, 40))
    assert session.match.deals[-1].tricks[-1][0] == (1, C("Qd"))


def test_next_reading_skips_cards_already_on_the_table(tmp_path: Path) -> None:
    session = TableSession(_log(tmp_path))
    _bid_to_seat_1_ordering_up(session)
    session.observe(_landed(1, "Jd", frame=10))
    session.observe(_landed(2, "Jh", frame=20))
    session.act(Action(ButtonAction.NEXT_READING), frame=30)
    assert str(session.match.deals[-1].tricks[-1][-1][1]) == "Jc"  # not the jack of diamonds: seat 1 played it


def test_alone_after_the_call_asks_first_and_call_declares_it(tmp_path: Path) -> None:
    """Alone after trump no longer makes the maker alone at once: it asks whose, so a defender can go alone too."""
    from table.inputs import GoAlone
    from table.rules import DefenderAlone

    rules = NA.replace(defender_may_go_alone=DefenderAlone.ALWAYS)
    session = TableSession(MatchLog.create(tmp_path / "match.jsonl", rules, first_dealer=0))
    session.observe(UpCardShown(C("9h"), 0.97, frame=1))
    session.act(Action(ButtonAction.CALL), frame=2)  # seat 1 orders up
    session.act(Action(ButtonAction.ALONE), frame=3)  # asks: the maker first
    assert session.alone_candidate == 1 and _logged(tmp_path)[-1] == OrderUp(1, False)
    session.act(Action(ButtonAction.ALONE), frame=4)  # the next seat that may: seat 2, the defender on its left
    assert session.alone_candidate == 2
    session.act(Action(ButtonAction.CALL), frame=5)
    assert _logged(tmp_path)[-1] == GoAlone(2) and session.alone_candidate is None


def test_a_new_up_card_during_play_starts_the_next_deal_when_the_table_bids(tmp_path: Path) -> None:
    session = TableSession(_log(tmp_path))
    _bid_to_seat_1_ordering_up(session)
    session.observe(_landed(1, "Ah", frame=10))
    session.observe(_landed(2, "Jh", frame=20))  # seats 3 and 0 went unseen; the table dealt again
    # not the next deal: the up-card itself, a card played this hand, or a reading that is not sure
    refused = (
        UpCardShown(C("9h"), 0.97, frame=30),
        UpCardShown(C("Ah"), 0.97, frame=31),
        UpCardShown(C("Ts"), 0.55, frame=32),
        UpCardShown(C("Ts"), 0.97, frame=33, uncertain=True),
    )
    for frame, obs in enumerate(refused):
        session.observe(obs)
        session.act(Action(ButtonAction.PASS), frame=34 + frame)
    assert len(session.match.deals) == 1 and session.match.phase is Phase.PLAY
    session.observe(UpCardShown(C("Ts"), 0.96, frame=40))
    assert len(session.match.deals) == 1  # on the kitty alone: a card back or a passing card may read so
    session.act(Action(ButtonAction.PASS), frame=45)  # the table bids on it
    assert _logged(tmp_path)[-2:] == [UpCard(C("Ts"), 0.96, next_deal=True), Pass(2)]
    first, second = session.match.deals
    assert first.reason == "unfinished" and second.up_card == C("Ts") and second.dealer == 1
    assert session.match.expected.seat == 3  # round 1 bidding of the new deal, seat 2 has passed


def test_a_bid_pressed_after_a_card_of_the_last_trick_shows_on_the_kitty_starts_the_next_deal(tmp_path: Path) -> None:
    session = TableSession(_log(tmp_path))
    _bid_to_seat_1_ordering_up(session)
    plays = list(zip([1, 2, 3, 0] * 2, ["Ac", "Kc", "Qc", "Jc", "As", "Ks", "Qs", "Js"], strict=True))
    for frame, (seat, card) in enumerate([*plays, (1, "Ad"), (2, "Kd")]):
        session.observe(_landed(seat, card, frame=10 + 10 * frame))  # seats 3 and 0 in trick 3 go unseen
    session.observe(UpCardShown(C("Ks"), 0.96, frame=200))  # of the last trick won: it may lie there still
    assert len(session.match.deals) == 1 and session.match.phase is Phase.PLAY
    session.act(Action(ButtonAction.PASS), frame=210)  # the table bids: it has dealt again
    assert _logged(tmp_path)[-2:] == [UpCard(C("Ks"), 0.96, next_deal=True), Pass(2)]
    first, second = session.match.deals
    assert first.reason == "unfinished" and second.up_card == C("Ks") and session.match.expected.seat == 3
    # A card played between the sighting and the press: the press is no sign of a new deal.
    session = TableSession(MatchLog.create(tmp_path / "other.jsonl", NA, first_dealer=0))
    _bid_to_seat_1_ordering_up(session)
    for frame, (seat, card) in enumerate([*plays, (1, "Ad"), (2, "Kd")]):
        session.observe(_landed(seat, card, frame=10 + 10 * frame))
    session.observe(UpCardShown(C("Ks"), 0.96, frame=200))
    session.observe(_landed(3, "Qd", frame=205))
    session.act(Action(ButtonAction.PASS), frame=210)
    assert len(session.match.deals) == 1 and session.match.phase is Phase.PLAY
    # Nor is a Pass that steps through an open menu (here the declarations, misdeal among them).
    session.observe(UpCardShown(C("Qs"), 0.96, frame=220))
    session.act(Action(ButtonAction.DECLARE), frame=225)
    assert session.pick is not None
    session.act(Action(ButtonAction.PASS), frame=230)
    assert len(session.match.deals) == 1 and session.match.phase is Phase.PLAY


def test_before_anyone_bids_a_surer_reading_of_another_card_on_the_kitty_corrects_the_up_card(tmp_path: Path) -> None:
    session = TableSession(_log(tmp_path))
    session.observe(UpCardShown(C("Jc"), 0.66, frame=10))  # the deck's back, read as a card while dealt
    session.observe(UpCardShown(C("Ts"), 0.99, frame=30))
    assert _logged(tmp_path)[-1] == ReviseCard(0, C("Ts")) and session.match.deals[-1].up_card == C("Ts")
    session.act(Action(ButtonAction.PASS), frame=40)
    session.observe(UpCardShown(C("9s"), 0.999, frame=50))  # after a bid the up-card stands
    assert session.match.deals[-1].up_card == C("Ts") and _logged(tmp_path)[-1] == Pass(1)


def test_a_new_up_card_before_the_first_lead_is_not_a_new_deal(tmp_path: Path) -> None:
    session = TableSession(_log(tmp_path))
    _bid_to_seat_1_ordering_up(session)
    session.observe(UpCardShown(C("Ts"), 0.97, frame=30))  # a card dropped on the kitty before anyone led
    assert len(session.match.deals) == 1 and not any(
        isinstance(i, UpCard) and i.card == C("Ts") for i in _logged(tmp_path)
    )


def test_in_the_trick_pile_a_card_already_played_is_seen_again_and_the_lead_goes_to_the_leader(
    tmp_path: Path,
) -> None:
    session = TableSession(_log(tmp_path))
    _bid_to_seat_1_ordering_up(session)  # the dealer (seat 0) now discards face down
    # The first card pushed into the pile while the discard is awaited: the dealer discarded, seat 1 leads.
    session.observe(CardLanded(TRICK, C("Ah"), 0.95, frame=10, seat=None))
    assert _logged(tmp_path)[-2:] == [Discard(0, None), Play(1, C("Ah"), 0.95)]
    session.observe(_landed(2, "Kh", frame=20))
    # The ace pushed along the pile again, read for the next player: a card seen again, not seat 3's.
    session.observe(CardLanded(TRICK, C("Ah"), 0.95, frame=30, seat=3))
    assert _logged(tmp_path)[-1] == Play(2, C("Kh"), 0.95)
    assert session.match.expected.seat == 3


def _renege_proven(tmp_path: Path) -> TableSession:
    """Seat 2 showed out of clubs in trick 1, then played a club in trick 2: the renege is up for decision."""
    session = TableSession(_log(tmp_path))
    _bid_to_seat_1_ordering_up(session)
    for seat, card in ((1, "Ac"), (2, "9s"), (3, "Kc"), (0, "Qc")):
        session.observe(_landed(seat, card, frame=10 + seat))
    session.observe(_landed(1, "Ad", frame=30))
    session.observe(_landed(2, "Tc", frame=31))
    assert any(isinstance(a, RenegeProven) for a in session.release())
    assert session.match.phase is Phase.RENEGE_DECISION
    return session


def _press(how: str, session: TableSession) -> Action:
    """The action the table's request becomes on its way to the session: a button, a key, or a tap on the screen."""
    import pygame

    from display.adapter import build_view
    from display.keyboard import action_for_key
    from display.scoreboard import Scoreboard

    if how in ("call button", "pass button"):
        return Action(ButtonAction.CALL if how == "call button" else ButtonAction.PASS)
    if how in ("y key", "x key"):
        key = pygame.K_y if how == "y key" else pygame.K_x
        action = action_for_key(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
        assert action is not None
        return action
    pygame.display.init()
    actions: queue.Queue[Action] = queue.Queue()
    board = Scoreboard(pygame.Surface((800, 480)), actions, clock=lambda: 0.0)
    board.show(build_view(session.match.view(), ("North", "East", "South", "West"), rules=session.match.rules))
    board.step(0.0, events=[])
    accept, dismiss = board.buttons
    x, y, w, h = (accept if how.startswith("tap accept") else dismiss).rect
    if how.endswith("finger"):
        event = pygame.event.Event(pygame.FINGERDOWN, x=(x + w / 2) / 800, y=(y + h / 2) / 480, touch_id=1, finger_id=0)
    else:
        event = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(x + w // 2, y + h // 2))
    board.step(0.1, events=[event])
    return actions.get_nowait()


@pytest.mark.parametrize("how", ["call button", "y key", "tap accept (finger)", "tap accept (mouse)"])
def test_a_proven_renege_is_accepted_by_button_key_or_tap(tmp_path: Path, how: str) -> None:
    session = _renege_proven(tmp_path)
    session.act(_press(how, session), frame=40)
    assert _logged(tmp_path)[-1] == AcceptPenalty()
    assert session.match.phase is not Phase.RENEGE_DECISION


@pytest.mark.parametrize("how", ["pass button", "x key", "tap dismiss (finger)"])
def test_a_proven_renege_is_dismissed_by_button_key_or_tap(tmp_path: Path, how: str) -> None:
    session = _renege_proven(tmp_path)
    session.act(_press(how, session), frame=40)
    assert _logged(tmp_path)[-1] == DismissRenege()
    assert session.match.phase is not Phase.RENEGE_DECISION


# ---- the misdeal: asked on the first press, done on the second ----

MISDEAL = Action(ButtonAction.MISDEAL)


def _mid_hand(tmp_path: Path) -> TableSession:
    """Seat 1 ordered up and led; the dealer (seat 0) deals this hand."""
    session = TableSession(_log(tmp_path), clock=lambda: 0.0)
    _bid_to_seat_1_ordering_up(session)
    session.observe(_landed(1, "Ah", frame=10))
    return session


def test_misdeal_pressed_twice_voids_the_deal_and_the_same_dealer_deals_again(tmp_path: Path) -> None:
    session = _mid_hand(tmp_path)
    session.act(MISDEAL, frame=20, now=100.0)
    assert not any(isinstance(i, Misdeal) for i in _logged(tmp_path))  # a first press only asks
    assert session.misdeal_asked(101.0) == 0  # the dealer whose deal a second press voids
    session.act(MISDEAL, frame=21, now=103.0)
    assert _logged(tmp_path)[-1] == Misdeal()
    assert session.misdeal_asked(103.0) is None
    deal = session.match.deals[-1]
    assert deal.finished and deal.reason == "misdeal" and deal.points == (0, 0)
    assert session.match.score == (0, 0) and session.match.dealer == 0
    released = session.release()
    assert any(isinstance(a, Irregularity) and a.kind is IrregularityKind.MISDEAL for a in released)
    session.observe(UpCardShown(C("Ts"), 0.97, frame=40))  # the same dealer turns up the redeal's card
    assert len(session.match.deals) == 2 and session.match.deals[-1].dealer == 0
    assert session.match.expected.seat == 1  # left of the dealer bids first, as before


@pytest.mark.parametrize(
    "other",
    [Action(ButtonAction.PASS), Action(ButtonAction.ALONE), Action(ButtonAction.NEXT_READING)],
    ids=lambda a: str(a),
)
def test_a_single_misdeal_press_then_another_does_not_void_the_deal(tmp_path: Path, other: Action) -> None:
    session = _mid_hand(tmp_path)
    session.act(MISDEAL, frame=20, now=100.0)
    session.act(other, frame=21, now=101.0)
    assert session.misdeal_asked(101.0) is None
    assert "misdeal cancelled: the deal goes on" in session.notes.messages
    session.act(MISDEAL, frame=22, now=102.0)  # a fresh first press: it asks again
    assert session.misdeal_asked(102.0) is not None
    assert not any(isinstance(i, Misdeal) for i in _logged(tmp_path))
    assert not session.match.deals[-1].finished


def test_a_misdeal_question_lapses_after_a_few_seconds(tmp_path: Path) -> None:
    from companion.session import MISDEAL_CONFIRM_S

    session = _mid_hand(tmp_path)
    session.act(MISDEAL, frame=20, now=100.0)
    assert session.misdeal_asked(100.0 + MISDEAL_CONFIRM_S) is not None
    late = 100.0 + MISDEAL_CONFIRM_S + 0.5
    assert session.misdeal_asked(late) is None
    session.act(MISDEAL, frame=21, now=late)  # too late to confirm: it asks again
    assert session.misdeal_asked(late) is not None
    assert not any(isinstance(i, Misdeal) for i in _logged(tmp_path))


def test_a_misdeal_question_ends_with_its_deal(tmp_path: Path) -> None:
    session = _mid_hand(tmp_path)
    session.act(MISDEAL, frame=20, now=100.0)
    # The rest of the hand is played (seat 1 wins the first four tricks, seat 0 the last): the deal is over.
    cards = ["Kh", "Qh", "Th", "As", "Ks", "Qs", "Js", "Ad", "Kd", "Qd"]
    cards += ["9d", "Td", "9c", "Ts", "9s", "Tc", "Jc", "Jd", "Jh"]
    for frame, (seat, card) in enumerate(zip([2, 3, 0] + [1, 2, 3, 0] * 4, cards, strict=True)):
        session.observe(_landed(seat, card, frame=30 + 5 * frame))
    deal = session.match.deals[0]
    assert deal.finished and deal.trick_winners == [1, 1, 1, 1, 0] and not deal.irregularities
    assert session.misdeal_asked(101.0) is None
    session.act(MISDEAL, frame=200, now=101.0)  # so this press asks about no deal, and voids nothing
    assert not any(isinstance(i, Misdeal) for i in _logged(tmp_path))


def test_with_no_deal_in_progress_misdeal_only_says_so(tmp_path: Path) -> None:
    session = TableSession(_log(tmp_path), names=("North", "East", "South", "West"))
    session.act(MISDEAL, frame=1, now=100.0)
    session.act(MISDEAL, frame=2, now=100.5)
    assert _logged(tmp_path) == [] and session.misdeal_asked(100.5) is None
    assert session.notes.messages[-1] == "no deal in progress to void: North deals next"


def test_a_misdeal_survives_a_restart(tmp_path: Path) -> None:
    session = _mid_hand(tmp_path)
    session.act(MISDEAL, frame=20, now=100.0)
    session.act(MISDEAL, frame=21, now=101.0)
    before = session.match.view()
    session.close()

    resumed = TableSession(MatchLog.open(tmp_path / "match.jsonl"))
    assert resumed.match.view() == before
    assert resumed.match.deals[-1].reason == "misdeal" and resumed.match.dealer == 0
    assert resumed.misdeal_asked(101.0) is None  # nothing left to confirm
    resumed.observe(UpCardShown(C("Ts"), 0.97, frame=40))
    assert resumed.match.deals[-1].dealer == 0 and len(resumed.match.deals) == 2


def test_a_misdeal_question_left_unanswered_is_not_in_the_log(tmp_path: Path) -> None:
    session = _mid_hand(tmp_path)
    logged = _logged(tmp_path)
    session.act(MISDEAL, frame=20, now=100.0)
    session.close()  # the power goes while the table is asked
    assert _logged(tmp_path) == logged
    resumed = TableSession(MatchLog.open(tmp_path / "match.jsonl"), clock=lambda: 100.5)
    resumed.act(MISDEAL, frame=30)  # after the restart a press asks afresh
    assert not resumed.match.deals[-1].finished and resumed.misdeal_asked(100.5) is not None


# ---- answering "check this card" ----


def _check_pending(tmp_path: Path, card: str = "Tc", rival: str | None = "Ts") -> TableSession:
    """Seat 2 showed out of clubs in trick 1; in trick 2 its card is read unsure as ``card``: the table is asked."""
    session = _seat_2_shows_out_of_clubs(tmp_path)
    session.release()
    rival_card = C(rival) if rival is not None else None
    session.observe(CardLanded(Zone.of_seat(2), C(card), 0.5, 31, seat=2, uncertain=True, rival=rival_card))
    released = session.release()
    assert not any(isinstance(a, RenegeProven) for a in released)
    assert any(isinstance(a, Irregularity) and a.kind is IrregularityKind.CHECK_CARD for a in released)
    return session


def test_call_confirms_a_card_to_check_as_read_and_it_then_proves_the_renege(tmp_path: Path) -> None:
    session = _check_pending(tmp_path)
    play_index = len(session.match) - 1
    session.act(Action(ButtonAction.CALL), frame=40)
    assert _logged(tmp_path)[-1] == ReviseCard(play_index, C("Tc"))  # a player's word: sure
    proven = [a for a in session.release() if isinstance(a, RenegeProven)]
    assert len(proven) == 1 and proven[0].seat == 2
    assert session.notes.messages[-1] == "seat 2's 10\u2663 confirmed"


def test_a_confirmed_card_is_not_undone_by_the_cameras_later_doubt(tmp_path: Path) -> None:
    session = _check_pending(tmp_path, "Ts", rival="Tc")
    session.act(Action(ButtonAction.CALL), frame=40)  # the players look: it is the ten of spades
    logged = len(_logged(tmp_path))
    # The tracker's vote turns to the ten of clubs, still unsure: the players' answer stands.
    session.observe(CardRevised(Zone.of_seat(2), C("Ts"), C("Tc"), 0.5, frame=45, uncertain=True))
    assert len(_logged(tmp_path)) == logged
    assert session.match.deals[-1].tricks[-1][-1] == (2, C("Ts"))
    # A sure reading of another card there still corrects it, as it corrects a card stepped by hand.
    session.observe(CardRevised(Zone.of_seat(2), C("Ts"), C("Tc"), 0.95, frame=50))
    assert session.match.deals[-1].tricks[-1][-1] == (2, C("Tc"))


def test_a_suit_button_names_the_checked_cards_suit(tmp_path: Path) -> None:
    session = _check_pending(tmp_path, "Ts", rival="Tc")
    play_index = len(session.match) - 1
    session.act(Action(ButtonAction.SUIT, Suit.CLUBS), frame=40)
    assert _logged(tmp_path)[-1] == ReviseCard(play_index, C("Tc"))
    assert session.match.deals[-1].tricks[-1][-1] == (2, C("Tc"))
    assert any(isinstance(a, RenegeProven) for a in session.release())
    assert session.checked_landing() is None  # answered: nothing more to ask


def test_a_suit_naming_a_card_already_played_is_refused_with_a_word(tmp_path: Path) -> None:
    session = _check_pending(tmp_path, "Kd", rival="Ks")
    logged = len(_logged(tmp_path))
    session.act(Action(ButtonAction.SUIT, Suit.CLUBS), frame=40)  # seat 3 played the king of clubs in trick 1
    assert len(_logged(tmp_path)) == logged
    assert session.notes.messages[-1] == "it cannot be K\u2663"
    assert session.checked_landing() is not None  # still to be checked
    session.act(Action(ButtonAction.SUIT, Suit.SPADES), frame=41)
    assert session.match.deals[-1].tricks[-1][-1] == (2, C("Ks"))


def test_next_reading_steps_the_card_to_check_rather_than_the_last_card(tmp_path: Path) -> None:
    session = TableSession(_log(tmp_path))
    _bid_to_seat_1_ordering_up(session)
    session.observe(CardLanded(Zone.of_seat(1), C("Kd"), 0.5, 10, seat=1, uncertain=True, rival=C("Ks")))
    session.observe(_landed(2, "9s", frame=20))  # read surely after it
    session.act(Action(ButtonAction.NEXT_READING), frame=30)
    assert session.match.deals[-1].tricks[-1] == [(1, C("Ks")), (2, C("9s"))]  # the card the check named
    session.act(Action(ButtonAction.NEXT_READING), frame=31)  # pressed again: the same card, its next look-alike
    assert session.match.deals[-1].tricks[-1] == [(1, C("Kh")), (2, C("9s"))]
    session.observe(_landed(3, "Qs", frame=40))
    session.act(Action(ButtonAction.NEXT_READING), frame=50)  # nothing left to check: the last card, as before
    assert session.match.deals[-1].tricks[-1][-1] == (3, C("Qc"))


def test_a_check_is_answered_only_while_its_trick_is_on_the_table(tmp_path: Path) -> None:
    session = TableSession(_log(tmp_path))
    _bid_to_seat_1_ordering_up(session)
    session.observe(CardLanded(Zone.of_seat(1), C("Kd"), 0.5, 10, seat=1, uncertain=True, rival=C("Ks")))
    for frame, (seat, card) in enumerate(((2, "9d"), (3, "Qd"), (0, "Ad")), start=2):
        session.observe(_landed(seat, card, frame=10 * frame))
    assert session.checked_landing() is not None  # the trick is complete, still on the table
    session.observe(_landed(0, "Ac", frame=60))  # the next lead: the first trick was gathered
    assert session.checked_landing() is None
    logged = len(_logged(tmp_path))
    session.act(Action(ButtonAction.CALL), frame=70)  # in play, with nothing to check, Call does nothing
    assert len(_logged(tmp_path)) == logged


def test_the_screen_offers_the_answers_and_takes_the_check_down_once_answered(tmp_path: Path) -> None:
    from display.adapter import build_view
    from display.view import BannerKind

    session = _check_pending(tmp_path, "Ts", rival="Tc")
    names = ("North", "East", "South", "West")
    session.names = list(names)
    check = [a for a in session.match.deals[-1].irregularities if a.kind is IrregularityKind.CHECK_CARD][-1]
    view = session.dress(build_view(session.match.view(), names, announcements=[check], rules=session.match.rules))
    assert view.banner is not None and view.banner.kind is BannerKind.CHECK_CARD
    offered = {(o.label, o.key, o.action) for o in view.offers}
    assert ("10\u2660 is right", "Call", Action(ButtonAction.CALL)) in offered
    assert ("It is 10\u2663", "\u2663", Action(ButtonAction.SUIT, Suit.CLUBS)) in offered
    # On the screen the answers lie between the trick's cards, each a touch button, the cards still drawn.
    import pygame

    from display.scoreboard import Scoreboard

    pygame.display.init()
    actions: queue.Queue[Action] = queue.Queue()
    board = Scoreboard(pygame.Surface((800, 480)), actions, clock=lambda: 0.0)
    board.show(view)
    board.step(0.0, events=[])
    assert {b.action for b in board.buttons} == {Action(ButtonAction.CALL), Action(ButtonAction.SUIT, Suit.CLUBS)}
    x, y, w, h = next(b.rect for b in board.buttons if b.action == Action(ButtonAction.CALL))
    board.step(0.1, events=[pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(x + w // 2, y + h // 2))])
    session.act(actions.get_nowait(), frame=40)
    view = session.dress(build_view(session.match.view(), names, announcements=[check], rules=session.match.rules))
    assert view.banner is None or view.banner.kind is not BannerKind.CHECK_CARD
    assert not any(o.action == Action(ButtonAction.CALL) for o in view.offers)


def test_a_confirmed_check_survives_a_restart(tmp_path: Path) -> None:
    session = _check_pending(tmp_path)
    session.act(Action(ButtonAction.CALL), frame=40)
    before = session.match.view()
    session.close()
    resumed = TableSession(MatchLog.open(tmp_path / "match.jsonl"))
    assert resumed.match.view() == before
    assert resumed.match.view().pending_renege is not None


def _last_trick_checked(tmp_path: Path) -> TableSession:
    """A whole hand played (seat 1 takes every trick with trumps), seat 3's card in the last trick read unsure: the
    hand is scored, its last trick still on the table."""
    session = TableSession(_log(tmp_path))
    _bid_to_seat_1_ordering_up(session)
    hands = {1: ["Jh", "Jd", "Ah", "Kh", "Qh"], 2: ["9s", "Ts", "Js", "Qs", "As"], 3: ["9c", "Tc", "Jc", "Qc", "Kc"],
             0: ["9d", "Td", "Qd", "Kd", "Ad"]}  # fmt: skip
    frame = 10
    for n in range(5):
        for seat in (1, 2, 3, 0):
            unsure = n == 4 and seat == 3
            session.observe(_landed(seat, hands[seat][n], frame=frame, confidence=0.5 if unsure else 0.95,
                                    uncertain=unsure))  # fmt: skip
            frame += 10
    assert session.match.phase is Phase.HAND_OVER
    return session


def test_the_last_tricks_card_to_check_is_answered_after_the_hand_until_the_trick_is_gathered(tmp_path: Path) -> None:
    session = _last_trick_checked(tmp_path)
    checked = session.checked_landing()
    assert checked is not None and checked.card == C("Kc")
    session.act(Action(ButtonAction.SUIT, Suit.HEARTS), frame=249)  # seat 1 played the king of hearts: refused
    assert session.notes.messages[-1] == "it cannot be K\u2665"
    session.act(Action(ButtonAction.SUIT, Suit.SPADES), frame=250)  # it was the king of spades
    assert session.match.deals[-1].tricks[-1][-2] == (3, C("Ks"))
    assert _logged(tmp_path)[-1] == ReviseCard(checked.history_index, C("Ks"))


def test_after_the_hand_a_gathered_trick_or_a_long_wait_leaves_call_to_the_next_deals_bidding(tmp_path: Path) -> None:
    from vision.observations import ZoneCleared

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    session = _last_trick_checked(tmp_path / "a")
    session.observe(ZoneCleared(Zone.of_seat(3), 260, (C("Kc"),)))  # the trick gathered
    assert session.checked_landing() is None
    late = _last_trick_checked(tmp_path / "b")
    assert late.checked_landing() is not None
    late.act(Action(ButtonAction.CALL), frame=220 + 301)  # 20 s on, the trick not seen gathered: a bid, held
    assert late.checked_landing() is None
    assert not isinstance(_logged(tmp_path / "b")[-1], ReviseCard)


def test_with_a_new_card_on_the_kitty_call_is_the_next_deals_bid_not_an_answer(tmp_path: Path) -> None:
    session = TableSession(_log(tmp_path))
    _bid_to_seat_1_ordering_up(session)
    session.observe(_landed(1, "Ah", frame=10))
    session.observe(CardLanded(Zone.of_seat(2), C("Kd"), 0.5, 20, seat=2, uncertain=True, rival=C("Ks")))
    assert session.checked_landing() is not None
    session.observe(UpCardShown(C("Ts"), 0.96, frame=40))  # the rest went unseen; the table dealt again
    session.act(Action(ButtonAction.CALL), frame=45)  # the table bids on it: seat 2 orders up
    assert _logged(tmp_path)[-2:] == [UpCard(C("Ts"), 0.96, next_deal=True), OrderUp(2, False)]


def _played_on_a_doubted_up_card(tmp_path: Path) -> TableSession:
    """The up-card read only in doubt as K♠ (perhaps K♥), ordered up by seat 1 (spades trump as recorded); seat 2
    shows out of spades, then plays the jack of clubs: a spade (the left bower) only if the up-card is K♠."""
    session = TableSession(_log(tmp_path))
    session.observe(UpCardShown(C("Ks"), 0.5, frame=1, uncertain=True, rival=C("Kh")))
    session.act(Action(ButtonAction.CALL), frame=2)
    for frame, (seat, card) in enumerate(((1, "As"), (2, "9h"), (3, "Qs"), (0, "Ts"), (1, "Ad"), (2, "Jc"))):
        session.observe(_landed(seat, card, frame=10 + 10 * frame))
    assert not any(isinstance(a, RenegeProven) for a in session.release())  # trump rests on a card to check
    return session


def test_call_confirms_the_up_card_to_check_and_the_renege_resting_on_it_is_proven(tmp_path: Path) -> None:
    session = _played_on_a_doubted_up_card(tmp_path)
    assert session.checked_landing() is None and session.checked_up_card() is not None
    offered = {(o.label, o.key) for o in session.offers()}
    assert ("K\u2660 is right", "Call") in offered and ("It is K\u2665", "\u2665") in offered
    session.act(Action(ButtonAction.CALL), frame=80)  # the dealer looks at it in their hand: the king of spades
    assert _logged(tmp_path)[-1] == ReviseCard(0, C("Ks"))
    [alert] = [a for a in session.release() if isinstance(a, RenegeProven)]
    assert alert.seat == 2 and alert.evidence.proof_card == C("Jc")
    assert session.checked_up_card() is None and session.notes.messages[-1] == "up-card K\u2660 confirmed"


def test_a_suit_button_names_the_up_cards_suit_and_trump_follows_it(tmp_path: Path) -> None:
    session = _played_on_a_doubted_up_card(tmp_path)
    session.act(Action(ButtonAction.SUIT, Suit.HEARTS), frame=80)  # it was the king of hearts: hearts trump
    assert _logged(tmp_path)[-1] == ReviseCard(0, C("Kh"))
    assert session.match.view().trump is Suit.HEARTS
    assert not any(isinstance(a, RenegeProven) for a in session.release())  # the jack of clubs is a club


def _bidding_on_a_doubted_up_card(tmp_path: Path) -> TableSession:
    """Dealer 0 turns the up-card; the camera reads it only in doubt as K♠ (perhaps K♥): the table bids on it."""
    session = TableSession(_log(tmp_path))
    session.observe(UpCardShown(C("Ks"), 0.5, frame=1, uncertain=True, rival=C("Kh")))
    assert session.match.expected.expected is Expect.BID_ROUND_1
    return session


def _answer_offers(session: TableSession) -> list[tuple[str, str]]:
    """The offers on screen other than the declarations (Alone, the declarations menu)."""
    declarations = (ButtonAction.ALONE, ButtonAction.DECLARE)
    return [(o.label, o.key) for o in session.offers() if o.action.kind not in declarations]


def test_while_the_table_bids_another_suits_button_names_the_up_card_and_bids_nothing(tmp_path: Path) -> None:
    session = _bidding_on_a_doubted_up_card(tmp_path)
    assert _answer_offers(session) == [
        ("It is K\u2665", "\u2665")]  # no "is right" offer: Call orders it up
    session.act(Action(ButtonAction.SUIT, Suit.HEARTS), frame=5)  # the dealer's card is the king of hearts
    assert _logged(tmp_path)[-1] == ReviseCard(0, C("Kh"))
    assert session.match.expected.expected is Expect.BID_ROUND_1 and session.match.expected.seat == 1  # still to bid
    assert session.match.expected.up_card == C("Kh") and session.match.up_card_in_doubt() is None
    assert session.notes.messages[-1] == "up-card taken as K\u2665"
    session.act(Action(ButtonAction.SUIT, Suit.HEARTS), frame=6)  # now the up-card's suit: seat 1 orders it up
    assert _logged(tmp_path)[-1] == OrderUp(1, False) and session.match.view().trump is Suit.HEARTS


def test_the_up_cards_own_suit_and_call_still_order_it_up_while_it_is_to_be_checked(tmp_path: Path) -> None:
    session = _bidding_on_a_doubted_up_card(tmp_path)
    session.act(Action(ButtonAction.SUIT, Suit.SPADES), frame=5)
    assert _logged(tmp_path)[-1] == OrderUp(1, False)
    assert session.match.up_card_in_doubt() is not None  # confirmed only once the hand is played
    (tmp_path / "b").mkdir()
    other = _bidding_on_a_doubted_up_card(tmp_path / "b")
    other.act(Action(ButtonAction.CALL), frame=5)
    assert _logged(tmp_path / "b")[-1] == OrderUp(1, False)


def test_with_the_up_card_sure_another_suit_is_refused_in_the_first_round_as_before(tmp_path: Path) -> None:
    session = TableSession(_log(tmp_path))
    session.observe(UpCardShown(C("Ks"), 0.97, frame=1))
    session.act(Action(ButtonAction.SUIT, Suit.HEARTS), frame=5)
    assert _logged(tmp_path)[-1] == UpCard(C("Ks"), 0.97)
    assert session.notes.messages[-1] == "round 1: only the up-card's suit can be ordered up"
    assert not _answer_offers(session)


def test_next_reading_steps_the_up_card_to_check_while_the_table_bids_and_back(tmp_path: Path) -> None:
    session = _bidding_on_a_doubted_up_card(tmp_path)
    session.act(Action(ButtonAction.PASS), frame=3)
    session.act(Action(ButtonAction.NEXT_READING), frame=4)
    assert _logged(tmp_path)[-1] == ReviseCard(0, C("Kh")) and session.match.expected.up_card == C("Kh")
    session.act(Action(ButtonAction.NEXT_READING), frame=5)  # stepped on past it: the next look-alike
    third = session.match.expected.up_card
    assert third not in (C("Ks"), C("Kh")) and _logged(tmp_path)[-1] == ReviseCard(0, third)
    for frame in range(6, 30):  # round the cycle back to the camera's reading
        if session.match.expected.up_card == C("Ks"):
            break
        session.act(Action(ButtonAction.NEXT_READING), frame=frame)
    assert session.match.expected.up_card == C("Ks") and session.notes.messages[-1] == "up-card K\u2660 confirmed"
    assert session.match.expected.seat == 2  # the bids stand: seat 1's pass


def test_in_the_second_round_the_up_card_to_check_is_stepped_by_next_reading_not_the_suits(tmp_path: Path) -> None:
    session = _bidding_on_a_doubted_up_card(tmp_path)
    for frame in range(2, 6):
        session.act(Action(ButtonAction.PASS), frame=frame)
    assert session.match.expected.expected is Expect.BID_ROUND_2
    assert _answer_offers(session) == [("It is K\u2665", "Next reading")]
    session.act(Action(ButtonAction.NEXT_READING), frame=7)
    assert _logged(tmp_path)[-1] == ReviseCard(0, C("Kh"))
    session.act(Action(ButtonAction.SUIT, Suit.SPADES), frame=8)  # a suit names trump: spades, allowed now
    assert _logged(tmp_path)[-1] == NameTrump(1, Suit.SPADES, False)
