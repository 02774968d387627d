"""The main loop end to end with a scripted camera: frames -> tracker -> session -> screenshots, log and EGN."""

from __future__ import annotations

import dataclasses
import json
import os
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from companion.buttons_script import ButtonScript, parse_buttons  # noqa: E402
from companion.egn_writer import EgnWriter, write_atomically  # noqa: E402
from companion.runner import App, AppParts, HeadlessRecorder, resume_point, whole_frame_calibration  # noqa: E402
from companion.session import LogWriter, SyncLogWriter, TableSession, ThreadedLogWriter  # noqa: E402
from display.speech import FakeSpeaker  # noqa: E402
from table.cards import Card  # noqa: E402
from table.inputs import OrderUp, Play, ReviseCard, UpCard  # noqa: E402
from table.log import MatchLog, read_log  # noqa: E402
from table.rules import Rules  # noqa: E402
from vision.detection import CardDetection  # noqa: E402
from vision.sources import FakeSource, Frame  # noqa: E402
from vision.tracker import Tracker  # noqa: E402
from vision.zones import TableLayout  # noqa: E402

W, H = 640, 480
C = Card.parse
# Mat-coordinate centres of the zones of the default layout (rotation 0: seat 0 at the bottom, clockwise).
CENTRES = {"kitty": (0.78, 0.22), 0: (0.50, 0.77), 1: (0.23, 0.50), 2: (0.50, 0.23), 3: (0.77, 0.50)}


def _box(zone: object) -> tuple[float, float, float, float]:
    x, y = CENTRES[zone]  # type: ignore[index]
    return (x * W - 20, y * H - 28, x * W + 20, y * H + 28)


class ScriptedDetector:
    """Reports, at each frame, the cards the script says lie on the table then."""

    def __init__(self, timeline: list[tuple[int, int, object, str]]) -> None:
        self.timeline = timeline  # (from_frame, to_frame, zone, card)
        self.calls = 0

    def detect(self, frame_bgr: npt.NDArray[np.uint8], frame: int = 0) -> list[CardDetection]:
        self.calls += 1
        return [
            CardDetection(C(card), 0.95, _box(zone), frame)
            for start, end, zone, card in self.timeline
            if start <= frame < end
        ]


TIMELINE = [
    (0, 30, "kitty", "9h"),
    (40, 90, 1, "Ah"),
    (50, 90, 2, "Kh"),
    (60, 90, 3, "Qh"),
    (70, 90, 0, "Th"),
    (100, 140, 1, "Jh"),
]
BUTTONS = '{"frame": 20, "action": "call"}\n'


def _app(
    tmp_path: Path, frames: int = 140, writer: Callable[[MatchLog], LogWriter] = ThreadedLogWriter
) -> tuple[App, FakeSource, FakeSpeaker]:
    path = tmp_path / "match.jsonl"
    match_log = MatchLog.open_or_create(path, Rules.preset("north_american"), first_dealer=0)
    session = TableSession(match_log, writer(match_log))
    last_frame, done = resume_point(session)
    source = FakeSource(count=frames, size=(W, H))
    source.open()
    speaker = FakeSpeaker()
    parts = AppParts(
        session=session,
        names=("North", "East", "South", "West"),
        source=source,
        detector=ScriptedDetector(TIMELINE),
        tracker=Tracker(whole_frame_calibration(W, H), TableLayout()),
        buttons=ButtonScript(parse_buttons(BUTTONS), done=done),
        speaker=speaker,
        recorder=HeadlessRecorder(tmp_path),
        egn_path=tmp_path / "game.egn",
        resume_frame=last_frame,
    )
    return App(parts), source, speaker


def test_a_scripted_table_becomes_a_logged_announced_trick(tmp_path: Path) -> None:
    app, _, speaker = _app(tmp_path)
    app.run_headless(lambda: 0.0)
    inputs = read_log(tmp_path / "match.jsonl").inputs
    assert inputs[0] == UpCard(C("9h"), 0.95)
    assert inputs[1] == OrderUp(1, False)
    plays = [i for i in inputs if isinstance(i, Play)]
    assert [(p.seat, str(p.card)) for p in plays] == [(1, "Ah"), (2, "Kh"), (3, "Qh"), (0, "Th"), (1, "Jh")]
    assert any("East takes the trick" in text for text, _ in speaker.said)
    screens = sorted(p.name for p in (tmp_path / "screens").glob("*.png"))
    assert any("TrumpMade" in s for s in screens) and any("TrickWon" in s for s in screens)
    egn = json.loads((tmp_path / "game.egn").read_text())
    assert egn["deals"][0]["initialState"]["upCard"] == "9h"


def test_a_restart_resumes_without_playing_a_card_twice(tmp_path: Path) -> None:
    first, _, _ = _app(tmp_path, frames=68)  # stopped after three cards of the trick landed
    first.run_headless(lambda: 0.0)
    assert sum(isinstance(i, Play) for i in read_log(tmp_path / "match.jsonl").inputs) == 3

    second, _, _ = _app(tmp_path, frames=140)
    second.run_headless(lambda: 0.0)
    inputs = read_log(tmp_path / "match.jsonl").inputs
    assert sum(isinstance(i, OrderUp) for i in inputs) == 1
    plays = [(p.seat, str(p.card)) for p in inputs if isinstance(p, Play)]
    assert plays == [(1, "Ah"), (2, "Kh"), (3, "Qh"), (0, "Th"), (1, "Jh")]


def test_a_lost_camera_is_shown_and_play_continues_when_it_returns(tmp_path: Path) -> None:
    from vision.sources import ResilientSource

    app, fake, _ = _app(tmp_path)
    now = [0.0]

    def sleep(seconds: float) -> None:
        now[0] += seconds

    source = ResilientSource(fake, clock=lambda: now[0], sleep=sleep, report=lambda line: None)
    app.p.source = source
    while app.frames < 45:
        app.tick(now[0])
    fake.unplug()
    for _ in range(20):
        now[0] += 0.1
        app.tick(now[0])
    assert app.view is not None and app.view.camera_ok is False
    played_while_lost = sum(isinstance(i, Play) for i in app.p.session.match.history)
    fake.plug_in()
    while not app.finished:
        now[0] += 0.1
        app.tick(now[0])
    app.finish()
    app.p.session.close()
    assert app.view is not None and app.view.camera_ok is True
    plays = [(p.seat, str(p.card)) for p in read_log(tmp_path / "match.jsonl").inputs if isinstance(p, Play)]
    assert played_while_lost >= 1
    assert plays == [(1, "Ah"), (2, "Kh"), (3, "Qh"), (0, "Th"), (1, "Jh")]


class ReadingDetector:
    """Like ``ScriptedDetector``, with each reading's own confidence: (from, to, zone, card, confidence)."""

    def __init__(self, timeline: list[tuple[int, int, object, str, float]]) -> None:
        self.timeline = timeline

    def detect(self, frame_bgr: npt.NDArray[np.uint8], frame: int = 0) -> list[CardDetection]:
        return [
            CardDetection(C(card), conf, _box(zone), frame)
            for start, end, zone, card, conf in self.timeline
            if start <= frame < end
        ]


# South's card is first read as the king of diamonds, doubtfully, then clearly as the king of hearts:
# it lands uncertain and is revised. A restart must rebuild that history, or it cannot revise the card.
MISREAD = [
    (0, 30, "kitty", "9h", 0.95),
    (40, 130, 1, "Ah", 0.95),
    (50, 58, 2, "Kd", 0.55),
    (58, 130, 2, "Kh", 0.95),
    (64, 130, 3, "Qh", 0.95),
    (74, 130, 0, "Th", 0.95),
]


# South's king read only doubtfully, never surely: it lands to be checked, and stays so until the table answers.
DOUBTFUL = [(50, 130, 2, "Kd", 0.55) if c == "Kd" else (a, b, z, c, p) for a, b, z, c, p in MISREAD if c != "Kh"]


def _misread_app(tmp_path: Path, frames: int) -> App:
    app, _, _ = _app(tmp_path, frames=frames)
    app.p.detector = ReadingDetector(MISREAD)
    return app


def test_a_restart_at_any_frame_ends_with_the_log_of_an_uninterrupted_run(tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    whole.mkdir()
    _misread_app(whole, 140).run_headless(lambda: 0.0)
    expected = read_log(whole / "match.jsonl").inputs
    assert any(isinstance(i, ReviseCard) for i in expected), expected  # the case this test is about
    for stop in (52, 57, 60, 63, 66, 70, 80):
        for lose_tail in (False, True):
            folder = tmp_path / f"stop{stop}-{lose_tail}"
            folder.mkdir()
            _misread_app(folder, stop).run_headless(lambda: 0.0)
            if lose_tail:  # the power went before the last input reached the disk
                path = folder / "match.jsonl"
                lines = path.read_text().splitlines(keepends=True)
                if len(lines) > 2:
                    path.write_text("".join(lines[:-1]))
            _misread_app(folder, 140).run_headless(lambda: 0.0)
            assert read_log(folder / "match.jsonl").inputs == expected, (stop, lose_tail)


def test_a_recording_judged_differently_after_a_restart_keeps_the_log_as_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _misread_app(tmp_path, 66).run_headless(lambda: 0.0)
    before = read_log(tmp_path / "match.jsonl").inputs
    assert sum(isinstance(i, Play) for i in before) >= 2
    # The same folder resumed with another reading of the recording: the replay differs from the log.
    second, _, _ = _app(tmp_path, frames=140)
    second.p.detector = ReadingDetector([(a, b, z, "Qs" if c == "Ah" else c, p) for a, b, z, c, p in MISREAD])
    second.run_headless(lambda: 0.0)
    after = read_log(tmp_path / "match.jsonl").inputs
    assert after[: len(before)] == before  # nothing that was logged is lost or changed
    assert sum(isinstance(i, OrderUp) for i in after) == 1  # the scripted call is not pressed again
    assert "resume:" in capsys.readouterr().err


def test_a_button_press_is_answered_on_the_screen(tmp_path: Path) -> None:
    from display.actions import Action, ButtonAction

    app, _, _ = _app(tmp_path, frames=140)
    while app.frames < 12:  # the up-card is down and bidding has begun (the call comes at frame 20)
        app.tick(0.0)
    app.p.actions.put(Action(ButtonAction.ALONE))
    app.tick(0.0)
    assert app.view is not None and app.view.announcement == "alone: armed for the next call"
    app.p.session.close()


def test_a_scored_hand_keeps_its_trick_stills_for_the_review(tmp_path: Path) -> None:
    from table.announcements import HandScored, TrickWon

    app, _, _ = _app(tmp_path, frames=10)
    app.last_image = np.full((H, W, 3), 60, np.uint8)
    app._announce([TrickWon(1, C("Ah"), 0)])
    app.last_image = np.full((H, W, 3), 120, np.uint8)
    app._announce([TrickWon(2, C("Kh"), 1), HandScored((1, 0), (3, 2), 0, "made", (1, 0))])
    assert [s.caption for s in app.review] == ["trick 1", "trick 2"]
    assert app.snapshots.by_trick == {}  # the next hand starts with none
    app.p.session.close()


def _run_with_a_press(
    folder: Path, frames: int, press_at: int | None, press: str = "next_reading", doubtful: bool = False
) -> App:
    """The misread table (``doubtful``: South's king read only doubtfully, never surely), with a player pressing
    ``press`` ("next_reading" or "call": an answer to the check then) at ``press_at`` (a press no script holds)."""
    from display.actions import Action, ButtonAction

    app = _misread_app(folder, frames)
    if doubtful:
        app.p.detector = ReadingDetector(DOUBTFUL)
    while not app.finished:
        if press_at is not None and app.frames == press_at:
            if press == "call":
                assert app.p.session.checked_landing() is not None  # the press answers a check
            app.p.actions.put(Action(ButtonAction.CALL if press == "call" else ButtonAction.NEXT_READING))
        app.tick(0.0)
    app.finish()
    app.p.session.close()
    return app


def test_a_players_press_survives_a_restart_in_its_place(tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    whole.mkdir()
    _run_with_a_press(whole, 140, press_at=70)
    expected = read_log(whole / "match.jsonl").inputs
    presses = [i for i in expected if isinstance(i, ReviseCard)]
    assert len(presses) >= 2, expected  # the camera's revision and the player's
    cut = tmp_path / "cut"
    cut.mkdir()
    _run_with_a_press(cut, 85, press_at=70)  # the power goes after the press
    resumed = _run_with_a_press(cut, 140, press_at=None)  # the restart replays the press from the log
    assert resumed.p.session.replay_note == ""  # judged again exactly, the press in its place
    assert read_log(cut / "match.jsonl").inputs == expected


def test_mute_from_the_m_key_or_a_button_silences_the_speaker_and_shows_on_the_screen(tmp_path: Path) -> None:
    import pygame
    from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

    from display.buttons import ButtonPanel, PanelConfig, buttons_from_pins
    from display.scoreboard import Scoreboard
    from table.announcements import TrickWon

    app, _, speaker = _app(tmp_path, frames=140)
    board = Scoreboard(pygame.Surface((800, 480)), app.p.actions, clock=lambda: 0.0)
    app.p.scoreboard = board
    app.tick(0.0)
    assert board.view is not None and not board.view.muted
    board.step(0.0, events=[pygame.event.Event(pygame.KEYDOWN, key=pygame.K_m, mod=0, unicode="m")])
    app.tick(0.0)
    assert app.muted and speaker.muted
    assert board.view is not None and board.view.muted  # the MUTED indicator is drawn from this
    app._announce([TrickWon(1, C("Ah"), 0)])
    assert speaker.said == []
    factory = MockFactory()
    panel = ButtonPanel(PanelConfig(buttons=buttons_from_pins({"mute": 8})), app.p.actions, pin_factory=factory)
    try:
        factory.pin(8).drive_low()
        factory.pin(8).drive_high()
        app.tick(0.0)
    finally:
        panel.close()
    assert not app.muted and not speaker.muted and app.view is not None and not app.view.muted
    app._announce([TrickWon(1, C("Ah"), 0)])
    assert speaker.said == [("East takes the trick", False)]
    app.p.session.close()


def test_the_configs_mute_and_score_style_reach_the_screen(tmp_path: Path) -> None:
    from companion.builder import score_style
    from companion.config import parse_config
    from display.view import ScoreStyle

    config = parse_config("[display]\nscore_style = 'six_and_four'\n[sound]\nmute = true\n")
    assert score_style(config) is ScoreStyle.CARDS and score_style(parse_config("")) is ScoreStyle.NUMBERS
    app, _, speaker = _app(tmp_path, frames=140)
    app = App(dataclasses.replace(app.p, muted=config.sound.mute, score_style=score_style(config)))
    app.tick(0.0)
    assert app.view is not None and app.view.score_style is ScoreStyle.CARDS and app.view.muted
    assert speaker.muted
    app.p.session.close()


class GatedWrite:
    """A disk that takes as long as the test says: each write waits for ``gate``."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.started = threading.Event()

    def __call__(self, path: Path, text: str) -> None:
        self.started.set()
        assert self.gate.wait(10.0)
        write_atomically(path, text)


def test_a_scored_hand_does_not_write_the_egn_on_the_loop(tmp_path: Path) -> None:
    from table.announcements import HandScored

    app, _, _ = _app(tmp_path, frames=10)
    disk = GatedWrite()  # a disk that answers only when the test says
    assert app.egn is not None
    app.egn = EgnWriter(app.egn.path, write=disk)
    app._announce([HandScored((1, 0), (3, 2), 0, "made", (1, 0))])  # returns with the disk still busy
    assert disk.started.wait(5.0)
    assert not (tmp_path / "game.egn").exists()
    disk.gate.set()
    app.finish()  # flushes: the final export is on disk when it returns
    app.close()
    assert "deals" in json.loads((tmp_path / "game.egn").read_text())
    assert not (tmp_path / "game.egn.tmp").exists()


# ---- the misdeal: the key or a panel button, asked once, then voided; it survives a restart ----


def _misdeal_logged(folder: Path, app: App | None = None) -> list[object]:
    """The Misdeal inputs in the log on disk; with ``app``, after its log writer has caught up (it writes on a
    thread of its own, so reading straight after a tick would race it)."""
    from table.inputs import Misdeal

    if app is not None:
        assert app.p.session.writer.flush()  # type: ignore[attr-defined]
    return [i for i in read_log(folder / "match.jsonl").inputs if isinstance(i, Misdeal)]


def _ticks_until(app: App, frames: int, now: float = 0.0) -> None:
    while app.frames < frames:
        app.tick(now)


def test_the_misdeal_key_asks_then_voids_the_deal_and_the_same_dealer_deals_again(tmp_path: Path) -> None:
    import pygame

    from display.scoreboard import Scoreboard
    from display.view import Banner, BannerKind, Stage

    app, _, speaker = _app(tmp_path, frames=140)
    board = Scoreboard(pygame.Surface((800, 480)), app.p.actions, clock=lambda: 0.0)
    app.p.scoreboard = board
    _ticks_until(app, 24)  # East ordered up at frame 20; North dealt
    v_key = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_v, mod=0, unicode="v")
    board.step(10.0, events=[v_key])
    app.tick(10.0)
    question = "Misdeal? Press again to void North's deal, anything else to play on"
    assert board.view is not None and board.view.banner == Banner(BannerKind.INFO, question)
    assert _misdeal_logged(tmp_path, app) == []
    board.step(12.0, events=[v_key])
    app.tick(12.0)
    assert len(_misdeal_logged(tmp_path, app)) == 1
    app.tick(12.0)  # its announcements are released once it is on disk
    view = board.view
    said = "Misdeal: North's deal is void; North deals again"
    assert view is not None and view.banner == Banner(BannerKind.IRREGULARITY, said)
    assert view.stage is Stage.HAND_OVER and view.dealer == 0 and view.score == (0, 0)
    assert view.history[-1].note == "misdeal" and view.history[-1].points == (0, 0)
    assert (said, False) in speaker.said
    app.p.session.close()


def test_the_misdeal_question_lapses_from_the_screen(tmp_path: Path) -> None:
    from display.actions import Action, ButtonAction

    app, _, _ = _app(tmp_path, frames=140)
    _ticks_until(app, 24, now=10.0)
    app.p.actions.put(Action(ButtonAction.MISDEAL))
    app.tick(10.0)
    assert app.view is not None and app.view.banner is not None and app.view.banner.text.startswith("Misdeal?")
    app.tick(16.0)  # no second press within five seconds: the question goes, the deal goes on
    assert app.view is not None and app.view.banner is None
    app.p.actions.put(Action(ButtonAction.MISDEAL))
    app.tick(16.5)  # a press now only asks again
    assert _misdeal_logged(tmp_path, app) == [] and not app.p.session.match.deals[-1].finished
    app.p.session.close()


def test_a_misdeal_button_on_the_panel_voids_the_deal_when_pressed_twice(tmp_path: Path) -> None:
    from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

    from companion.builder import panel_config
    from companion.config import parse_config
    from display.buttons import ButtonPanel

    app, _, _ = _app(tmp_path, frames=140)
    _ticks_until(app, 24)
    t = [0.0]
    factory = MockFactory()
    config = panel_config(parse_config("[buttons]\npass = 5\nmisdeal = 25\n"))
    panel = ButtonPanel(config, app.p.actions, pin_factory=factory, clock=lambda: t[0])
    try:
        for press_at in (1.0, 2.0):
            t[0] = press_at
            factory.pin(25).drive_low()
            t[0] += 0.1
            factory.pin(25).drive_high()
            app.tick(press_at)
            assert len(_misdeal_logged(tmp_path, app)) == (press_at == 2.0)
    finally:
        panel.close()
        factory.reset()
    assert app.p.session.match.deals[-1].reason == "misdeal" and app.p.session.match.dealer == 0
    app.p.session.close()


def _run_with_misdeal(folder: Path, frames: int, press_at: int | None) -> App:
    """The scripted table, with a player pressing Misdeal twice at ``press_at`` (presses no script holds)."""
    from display.actions import Action, ButtonAction

    app, _, _ = _app(folder, frames=frames)
    while not app.finished:
        if press_at is not None and app.frames == press_at:
            app.p.actions.put(Action(ButtonAction.MISDEAL))
            app.p.actions.put(Action(ButtonAction.MISDEAL))
        app.tick(0.0)
    app.finish()
    app.p.session.close()
    return app


def test_a_misdeal_survives_a_restart_in_its_place(tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    whole.mkdir()
    _run_with_misdeal(whole, 140, press_at=25)
    expected = read_log(whole / "match.jsonl").inputs
    assert len(_misdeal_logged(whole)) == 1, expected
    cut = tmp_path / "cut"
    cut.mkdir()
    _run_with_misdeal(cut, 35, press_at=25)  # the power goes after the misdeal
    resumed = _run_with_misdeal(cut, 140, press_at=None)  # the restart replays it from the log
    assert resumed.p.session.replay_note == ""  # judged again exactly, the misdeal in its place
    assert read_log(cut / "match.jsonl").inputs == expected
    match = resumed.p.session.match
    assert [(d.dealer, d.reason) for d in match.deals] == [(0, "misdeal")]
    assert resumed.view is not None and resumed.view.prompt == "North deals: turn up the top card of the kitty"


def test_the_trick_stills_are_captioned_in_the_tables_language() -> None:
    from companion.runner import TrickSnapshots
    from display.i18n import using

    stills = TrickSnapshots()
    with using("da"):
        stills.record(3, np.zeros((H, W, 3), np.uint8))
    assert stills.by_trick[3].caption == "stik 4"


def test_a_start_notice_stays_on_the_screen_until_the_first_news(tmp_path: Path) -> None:
    """What the table must fix (a deck to enrol) is shown from the start, as a button's answer is, till news comes."""
    notice = "The Benny is read only from an enrolled deck"
    app, _, _ = _app(tmp_path, frames=140)
    app = App(dataclasses.replace(app.p, start_notice=notice))
    shown: list[str] = []
    try:
        while not app.finished:
            app.tick(0.0)
            assert app.view is not None
            shown.append(app.view.announcement)
        app.finish()  # the news still being written is released here
        shown.append(app.view.announcement)
    finally:
        app.close()
    news = next(i for i, words in enumerate(shown) if words != notice)
    assert news > 0 and notice not in shown[news:]
    assert shown[-1] == "East takes it with A\u2665"  # the trick the scripted table plays


class HeldLogWriter(SyncLogWriter):
    """A disk slower than the table: nothing is acknowledged until the run's end flushes it (a busy card)."""

    def __init__(self, match_log: MatchLog) -> None:
        super().__init__(match_log)
        self.flushed = False

    @property
    def durable(self) -> int:
        return self._durable if self.flushed else 0

    def flush(self) -> bool:
        self.flushed = True
        return True


def test_news_first_released_at_the_end_still_replaces_the_start_notice(tmp_path: Path) -> None:
    """When the log writer acknowledges nothing till the end, the notice gives way to the news at the end."""
    notice = "The Benny is read only from an enrolled deck"
    app, _, speaker = _app(tmp_path, frames=140, writer=HeldLogWriter)
    app = App(dataclasses.replace(app.p, start_notice=notice))
    try:
        while not app.finished:
            app.tick(0.0)
            assert app.view is not None and app.view.announcement == notice  # nothing is on disk, so nothing is news
        assert speaker.said == []
        app.finish()
    finally:
        app.close()
    assert app.view is not None and app.view.announcement == "East takes it with A\u2665"


class MainStreamSource(FakeSource):
    """A camera with a second stream twice the size, as the Pi camera's ``main`` beside its ``lores``."""

    def read(self) -> Frame | None:
        frame = super().read()
        if frame is None:
            return None
        big = np.repeat(np.repeat(frame.image_bgr, 2, axis=0), 2, axis=1)
        return dataclasses.replace(frame, display_bgr=big)


class DetailScriptedDetector(ScriptedDetector):
    """The scripted detector, noting the detail picture it is given with each frame."""

    reads_detail = True

    def __init__(self, timeline: list[tuple[int, int, object, str]]) -> None:
        super().__init__(timeline)
        self.details: list[tuple[int, ...] | None] = []

    def detect(
        self, frame_bgr: npt.NDArray[np.uint8], frame: int = 0, detail_bgr: npt.NDArray[np.uint8] | None = None
    ) -> list[CardDetection]:
        self.details.append(None if detail_bgr is None else detail_bgr.shape)
        return super().detect(frame_bgr, frame)


@pytest.mark.parametrize("main_stream_crops", [True, False])
def test_the_reader_gets_the_cameras_larger_stream_where_the_config_asks(
    tmp_path: Path, main_stream_crops: bool
) -> None:
    app, _, _ = _app(tmp_path)
    source = MainStreamSource(count=140, size=(W, H))
    source.open()
    detector = DetailScriptedDetector(TIMELINE)
    app.p.source, app.p.detector, app.p.main_stream_crops = source, detector, main_stream_crops
    app.run_headless(lambda: 0.0)
    assert detector.calls > 100
    assert set(detector.details) == ({(2 * H, 2 * W, 3)} if main_stream_crops else {None})
    plays = [i for i in read_log(tmp_path / "match.jsonl").inputs if isinstance(i, Play)]
    assert len(plays) == 5  # the game goes on as with one stream


def test_a_card_to_check_is_answered_with_call_through_the_app(tmp_path: Path) -> None:
    """South's king is read only doubtfully: the speaker asks once, Call confirms it, the banner comes down."""
    from display.actions import Action, ButtonAction
    from display.view import BannerKind
    from table.announcements import IrregularityKind

    app, _, speaker = _app(tmp_path, frames=140)
    app.p.detector = ReadingDetector(DOUBTFUL)
    checked = False
    while not app.finished:
        app.tick(0.0)
        session = app.p.session
        banner = app.view.banner if app.view is not None else None
        if not checked and banner is not None and banner.kind is BannerKind.CHECK_CARD:
            assert session.checked_landing() is not None and app.view is not None
            assert any(o.action == Action(ButtonAction.CALL) for o in app.view.offers)
            app.p.actions.put(Action(ButtonAction.CALL))
            app.tick(0.0)
            assert app.view.banner is None or app.view.banner.kind is not BannerKind.CHECK_CARD
            checked = True
    app.finish()
    session = app.p.session
    session.close()
    assert checked
    inputs = read_log(tmp_path / "match.jsonl").inputs
    revision = next(i for i in inputs if isinstance(i, ReviseCard))
    assert revision.card == C("Kd") and revision.confidence == 1.0  # the player's word: sure
    assert sum("Check this card" in text for text, _ in speaker.said) == 1
    checks = [i for d in session.match.deals for i in d.irregularities if i.kind is IrregularityKind.CHECK_CARD]
    assert checks == []  # answered: the deal no longer holds it as a card to check


def test_a_check_answered_with_call_survives_a_restart_in_its_place(tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    whole.mkdir()
    _run_with_a_press(whole, 140, press_at=70, press="call", doubtful=True)
    expected = read_log(whole / "match.jsonl").inputs
    assert any(isinstance(i, ReviseCard) and i.card == C("Kd") for i in expected), expected
    cut = tmp_path / "cut"
    cut.mkdir()
    _run_with_a_press(cut, 85, press_at=70, press="call", doubtful=True)  # the power goes after the press
    resumed = _run_with_a_press(cut, 140, press_at=None, doubtful=True)  # the restart replays the press from the log
    assert resumed.p.session.replay_note == ""
    assert read_log(cut / "match.jsonl").inputs == expected
