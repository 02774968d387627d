"""Speech: phrases rendered once and cached, played in order with a chime, silent where there is no sound."""

from __future__ import annotations

import logging
import shutil
import threading
import time
import wave
from pathlib import Path

import pygame
import pytest

from display import speech
from display.speech import EspeakSpeaker, FakeSpeaker, NullSpeaker, SpeechConfig, open_speaker, write_chime


class RecordingPlayer:
    def __init__(self) -> None:
        self.played: list[tuple[str, float]] = []
        self.stopped = 0

    def play(self, path: Path, volume: float) -> None:
        assert path.exists()
        self.played.append((path.name, volume))

    def busy(self) -> bool:
        return False

    def stop(self) -> None:
        self.stopped += 1


class CountingRenderer:
    """Stands in for espeak-ng: writes a short silent WAV and counts calls."""

    def __init__(self, fail_on: str = "") -> None:
        self.calls: list[str] = []
        self.fail_on = fail_on

    def __call__(self, text: str, path: Path) -> None:
        self.calls.append(text)
        if text == self.fail_on:
            raise OSError("espeak-ng crashed")
        with wave.open(str(path), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(8000)
            w.writeframes(b"\0\0" * 80)


def wait_for(condition: object, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out waiting for the speech worker"
        time.sleep(0.01)


@pytest.fixture
def config(tmp_path: Path) -> SpeechConfig:
    return SpeechConfig(cache_dir=tmp_path / "speech", volume=0.5)


def test_a_phrase_is_rendered_once_and_played_each_time(config: SpeechConfig) -> None:
    render, player = CountingRenderer(), RecordingPlayer()
    s = EspeakSpeaker(config, render=render, player=player)
    try:
        s.say("North takes the trick")
        s.say("North takes the trick")
        wait_for(lambda: len(player.played) == 2)
        assert render.calls == ["North takes the trick"]
        assert s.path_for("North takes the trick").exists()
        assert player.played[0] == (s.path_for("North takes the trick").name, 0.5)
    finally:
        s.close()
    again = EspeakSpeaker(config, render=render, player=player)  # a restart finds the cache
    again.say("North takes the trick")
    wait_for(lambda: len(player.played) == 3)
    again.close()
    assert render.calls == ["North takes the trick"]


def test_chime_comes_first(config: SpeechConfig) -> None:
    player = RecordingPlayer()
    s = EspeakSpeaker(config, render=CountingRenderer(), player=player)
    s.say("Renege!", chime=True)
    wait_for(lambda: len(player.played) == 2)
    s.close()
    assert player.played[0][0] == "chime.wav"


def test_muted_says_nothing_and_prepare_only_renders(config: SpeechConfig) -> None:
    render, player = CountingRenderer(), RecordingPlayer()
    s = EspeakSpeaker(config, render=render, player=player)
    s.prepare(["Renege!", "Euchre!"])
    wait_for(lambda: len(render.calls) == 2)
    s.set_muted(True)
    s.say("North takes the trick")
    s.close()
    assert player.played == []
    assert player.stopped >= 1


def test_a_failing_render_is_logged_not_raised(config: SpeechConfig, caplog: pytest.LogCaptureFixture) -> None:
    render, player = CountingRenderer(fail_on="bad"), RecordingPlayer()
    s = EspeakSpeaker(config, render=render, player=player)
    with caplog.at_level(logging.WARNING, logger="display.speech"):
        s.say("bad")
        s.say("bad")  # not retried
        s.say("good")
        wait_for(lambda: len(player.played) == 1)
    s.close()
    assert render.calls == ["bad", "good"]
    assert sum("failed" in r.getMessage() for r in caplog.records) == 1


def test_say_never_waits(config: SpeechConfig) -> None:
    gate = threading.Event()

    def slow_render(text: str, path: Path) -> None:
        gate.wait(5)
        CountingRenderer()(text, path)

    s = EspeakSpeaker(config, render=slow_render, player=RecordingPlayer(), max_pending=2)
    start = time.monotonic()
    for i in range(10):  # more than the queue holds: the rest are dropped, never waited for
        s.say(f"phrase {i}")
    assert time.monotonic() - start < 0.5
    gate.set()
    s.close()


def test_without_espeak_it_is_silent_and_says_so_once(config: SpeechConfig, caplog: pytest.LogCaptureFixture) -> None:
    cfg = SpeechConfig(cache_dir=config.cache_dir, espeak="no-such-espeak-program")
    with caplog.at_level(logging.INFO, logger="display.speech"):
        s = open_speaker(cfg)
    assert isinstance(s, NullSpeaker)
    s.say("anything", chime=True)
    s.close()
    assert len([r for r in caplog.records if r.name == "display.speech"]) == 1


def test_without_an_audio_device_it_is_silent(
    config: SpeechConfig, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def no_device(*args: object, **kwargs: object) -> None:
        raise pygame.error("ALSA: Couldn't open audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    cfg = SpeechConfig(cache_dir=config.cache_dir, espeak="sh")  # a program that exists
    with caplog.at_level(logging.WARNING, logger="display.speech"):
        assert isinstance(open_speaker(cfg), NullSpeaker)
    assert "no audio device" in caplog.text


def test_sound_off_in_the_config() -> None:
    assert isinstance(open_speaker(SpeechConfig(enabled=False)), NullSpeaker)


def test_chime_is_a_valid_wav_the_mixer_plays(tmp_path: Path) -> None:
    path = tmp_path / "chime.wav"
    write_chime(path)
    with wave.open(str(path)) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, speech.SAMPLE_RATE)
        assert 0.3 < w.getnframes() / w.getframerate() < 1.0
    pygame.mixer.init()  # SDL's dummy audio driver (conftest)
    try:
        player = speech.MixerPlayer()
        player.play(path, 0.5)
        player.stop()
    finally:
        pygame.mixer.quit()


def test_fake_speaker_records() -> None:
    fake = FakeSpeaker()
    fake.say("Renege!", chime=True)
    fake.set_muted(True)
    fake.say("quiet")
    fake.close()
    assert fake.said == [("Renege!", True)] and fake.closed


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed on this machine")
def test_espeak_ng_renders_a_phrase(tmp_path: Path) -> None:
    out = tmp_path / "renege.wav"
    speech.espeak_renderer(SpeechConfig())("Renege!", out)
    with wave.open(str(out)) as w:
        assert w.getnframes() > 1000


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed on this machine")
def test_open_speaker_speaks_through_the_dummy_audio_driver(config: SpeechConfig) -> None:
    s = open_speaker(config)
    try:
        assert isinstance(s, EspeakSpeaker)
        s.say("North takes the trick", chime=True)
        wait_for(lambda: s.path_for("North takes the trick").exists(), timeout=20)
        wait_for(lambda: (config.cache_dir / "chime.wav").exists(), timeout=5)
    finally:
        s.close()
        pygame.mixer.quit()
