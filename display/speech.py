"""Spoken announcements: espeak-ng phrases rendered to WAV once, played with a chime through pygame.mixer.

`open_speaker` gives a working `EspeakSpeaker`, or a `NullSpeaker` (with one
log line) where sound is off, espeak-ng is missing or there is no audio
device, so the caller never checks. `say` only queues: a worker thread
renders (once per phrase, into a cache directory) and plays, so the main loop
never waits on a subprocess or a sound. `FakeSpeaker` records for tests.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import math
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
import wave
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

log = logging.getLogger(__name__)

SAMPLE_RATE = 22050


class Speaker(Protocol):
    """Says things at the table; never blocks, never raises for lack of sound."""

    def say(self, text: str, *, chime: bool = False) -> None: ...

    def set_muted(self, muted: bool) -> None: ...

    def close(self) -> None: ...


def _default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "euchre-table" / "speech"


@dataclass(frozen=True)
class SpeechConfig:
    """Sound settings (the app reads them from its TOML config)."""

    enabled: bool = True
    muted: bool = False
    volume: float = 0.8  # 0.0-1.0
    voice: str = "en"
    words_per_minute: int = 150
    chime: bool = True
    cache_dir: Path = field(default_factory=_default_cache_dir)
    espeak: str = "espeak-ng"


class NullSpeaker:
    """No sound: every call does nothing."""

    def say(self, text: str, *, chime: bool = False) -> None:
        pass

    def set_muted(self, muted: bool) -> None:
        pass

    def close(self) -> None:
        pass


class FakeSpeaker:
    """Records what would be said, for tests: ``said`` holds (text, chime) pairs, muted ones left out."""

    def __init__(self) -> None:
        self.said: list[tuple[str, bool]] = []
        self.muted = False
        self.closed = False

    def say(self, text: str, *, chime: bool = False) -> None:
        if not self.muted:
            self.said.append((text, chime))

    def set_muted(self, muted: bool) -> None:
        self.muted = muted

    def close(self) -> None:
        self.closed = True


Renderer = Callable[[str, Path], None]  # writes the WAV for a phrase at the path


class Player(Protocol):
    """Plays WAV files one after another."""

    def play(self, path: Path, volume: float) -> None: ...

    def busy(self) -> bool: ...

    def stop(self) -> None: ...


class MixerPlayer:
    """pygame.mixer playback; sounds are loaded once and kept (a phrase set is small)."""

    def __init__(self) -> None:
        import pygame.mixer

        self._mixer = pygame.mixer
        self._sounds: dict[Path, pygame.mixer.Sound] = {}
        self._channel: pygame.mixer.Channel | None = None

    def play(self, path: Path, volume: float) -> None:
        sound = self._sounds.get(path)
        if sound is None:
            sound = self._sounds[path] = self._mixer.Sound(str(path))
        sound.set_volume(volume)
        self._channel = sound.play()

    def busy(self) -> bool:
        return self._channel is not None and self._channel.get_busy()

    def stop(self) -> None:
        self._mixer.stop()


def espeak_renderer(config: SpeechConfig) -> Renderer:
    """Renders a phrase with espeak-ng (``-w file.wav``); a stuck espeak is killed after 20 s."""

    def render(text: str, path: Path) -> None:
        cmd = [config.espeak, "-v", config.voice, "-s", str(config.words_per_minute), "-w", str(path), text]
        subprocess.run(cmd, check=True, timeout=20, capture_output=True)

    return render


def phrase_path(cache_dir: Path, text: str, voice: str = "", words_per_minute: int = 0) -> Path:
    """Where a phrase's WAV is cached: named by a hash of the words and the voice settings."""
    key = hashlib.sha1(f"{voice}|{words_per_minute}|{text}".encode()).hexdigest()[:16]
    return cache_dir / f"phrase-{key}.wav"


def write_chime(path: Path, notes: Iterable[float] = (1318.5, 1046.5), seconds: float = 0.22) -> None:
    """A two-note chime (E6 then C6, bell-like decay) as a 16-bit mono WAV, synthesised with numpy."""
    import numpy as np

    t = np.arange(int(SAMPLE_RATE * seconds)) / SAMPLE_RATE
    parts = []
    for freq in notes:
        tone = np.sin(2 * math.pi * freq * t) + 0.3 * np.sin(4 * math.pi * freq * t)
        parts.append(tone * np.exp(-t * 9.0))
    wave_data = np.concatenate(parts)
    pcm = (wave_data / np.max(np.abs(wave_data)) * 0.6 * 32767).astype("<i2")
    _atomic_write_wav(path, pcm.tobytes())


def _atomic_write_wav(path: Path, frames: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    os.close(fd)
    try:
        with wave.open(tmp, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(SAMPLE_RATE)
            w.writeframes(frames)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


_STOP = object()


class EspeakSpeaker:
    """Speaks through a worker thread: render a phrase once (cached on disk), chime, then play it."""

    def __init__(self, config: SpeechConfig, *, render: Renderer, player: Player, max_pending: int = 16) -> None:
        self.config = config
        self._render = render
        self._player = player
        self._muted = config.muted
        self._jobs: queue.Queue[object] = queue.Queue(maxsize=max_pending)
        self._failed: set[str] = set()
        self._thread = threading.Thread(target=self._work, name="speech", daemon=True)
        self._thread.start()

    def say(self, text: str, *, chime: bool = False) -> None:
        if self._muted or not text.strip():
            return
        try:
            self._jobs.put_nowait((text, chime, True))
        except queue.Full:
            log.info("speech: too much queued, dropped %r", text)

    def prepare(self, texts: Iterable[str]) -> None:
        """Render phrases ahead of time (at start-up), so the first renege is heard at once."""
        for text in texts:
            with contextlib.suppress(queue.Full):
                self._jobs.put_nowait((text, False, False))

    def set_muted(self, muted: bool) -> None:
        self._muted = muted
        if muted:
            self._player.stop()

    def close(self, timeout: float = 2.0) -> None:
        """Stop the worker (what is queued is dropped) and wait for it briefly."""
        while True:
            try:
                self._jobs.get_nowait()
            except queue.Empty:
                break
        with contextlib.suppress(queue.Full):
            self._jobs.put_nowait(_STOP)
        self._thread.join(timeout)
        self._player.stop()

    def path_for(self, text: str) -> Path:
        return phrase_path(self.config.cache_dir, text, self.config.voice, self.config.words_per_minute)

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is _STOP:
                return
            assert isinstance(job, tuple)
            text, chime, play = job
            try:
                self._speak(text, chime, play)
            except Exception:  # a bad phrase or a sound error must not end the worker
                log.warning("speech: could not say %r", text, exc_info=True)

    def _speak(self, text: str, chime: bool, play: bool) -> None:
        path = self._ensure(text)
        if not play or self._muted or path is None:
            return
        if chime and self.config.chime:
            chime_path = self.config.cache_dir / "chime.wav"
            if not chime_path.exists():
                write_chime(chime_path)
            self._play_and_wait(chime_path)
        self._play_and_wait(path)

    def _ensure(self, text: str) -> Path | None:
        path = self.path_for(text)
        if path.exists() or text in self._failed:
            return path if path.exists() else None
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".part.wav")
        try:
            self._render(text, tmp)
            os.replace(tmp, path)
        except (OSError, subprocess.SubprocessError) as e:
            self._failed.add(text)
            log.warning("speech: rendering %r failed (%s); it stays silent", text, e)
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            return None
        return path

    def _play_and_wait(self, path: Path, limit_s: float = 15.0) -> None:
        """Play and wait in this worker thread (not the loop's), so phrases never talk over each other."""
        self._player.play(path, max(0.0, min(1.0, self.config.volume)))
        deadline = time.monotonic() + limit_s
        while self._player.busy() and time.monotonic() < deadline and not self._muted:
            time.sleep(0.02)


def open_speaker(config: SpeechConfig) -> Speaker:
    """An `EspeakSpeaker`, or a `NullSpeaker` with one log line saying why there is no sound."""
    if not config.enabled:
        log.info("speech: off in the config")
        return NullSpeaker()
    if shutil.which(config.espeak) is None:
        log.warning("speech: %s not found, announcements stay silent (install the espeak-ng package)", config.espeak)
        return NullSpeaker()
    import pygame

    try:
        if not pygame.mixer.get_init():
            pygame.mixer.init(frequency=SAMPLE_RATE, channels=1)
    except (pygame.error, NotImplementedError) as e:  # no audio device, or pygame built without a mixer
        log.warning("speech: no audio device (%s), announcements stay silent", e)
        return NullSpeaker()
    return EspeakSpeaker(config, render=espeak_renderer(config), player=MixerPlayer())
