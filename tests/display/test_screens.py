"""Screenshots of the main moments of a game, compared with the committed references in tests/display/reference/.

A comparison fails when the mean absolute difference or the share of clearly
different pixels passes its tolerance; the new image and a difference map go
to test-output/display/ for review. ``UPDATE_SCREENSHOTS=1`` rewrites the
references (and the README's copies in docs/screenshots/) instead.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import numpy as np
import pygame
import pytest

from display import samples
from display.render import render, render_surface
from display.view import ScoreboardView, ScoreStyle, SeatView, Snapshot, Stage, seats_named
from table.cards import Card, Suit

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = Path(__file__).with_name("reference")
OUTPUT = ROOT / "test-output" / "display"
DOCS = ROOT / "docs" / "screenshots"
UPDATE = os.environ.get("UPDATE_SCREENSHOTS") == "1"

MAX_MEAN_ABS_DIFF = 1.5  # per channel, 0-255
MAX_DIFFERENT_FRACTION = 0.004  # pixels off by more than PIXEL_THRESHOLD in some channel
PIXEL_THRESHOLD = 40

CASES = [
    ("bidding-round-1", (800, 480)),
    ("bidding-round-2", (800, 480)),
    ("play-mid-trick", (800, 480)),
    ("renege-alert", (800, 480)),
    ("hand-scored", (800, 480)),
    ("hand-review", (800, 480)),
    ("game-won", (800, 480)),
    ("irregularity", (800, 480)),
    ("play-mid-trick", (1920, 1080)),
    ("bidding-round-1", (1024, 600)),
]
DOC_COPIES = {
    "bidding-round-1", "play-mid-trick", "renege-alert", "hand-scored", "hand-review", "game-won", "irregularity"
}


def pixels(surface: pygame.Surface) -> np.ndarray:
    return pygame.surfarray.array3d(surface).astype(np.int16)


def difference(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """(mean absolute difference per channel, fraction of pixels clearly different)."""
    if a.shape != b.shape:
        return 255.0, 1.0
    diff = np.abs(a - b)
    return float(diff.mean()), float((diff.max(axis=2) > PIXEL_THRESHOLD).mean())


def check_screenshot(surface: pygame.Surface, name: str) -> None:
    ref_path = REFERENCE / f"{name}.png"
    if UPDATE:
        REFERENCE.mkdir(parents=True, exist_ok=True)
        pygame.image.save(surface, ref_path)
        return
    assert ref_path.exists(), f"no reference {ref_path}: run with UPDATE_SCREENSHOTS=1 and look at it"
    actual = pixels(surface)
    expected = pixels(pygame.image.load(ref_path))
    mean, fraction = difference(actual, expected)
    if mean > MAX_MEAN_ABS_DIFF or fraction > MAX_DIFFERENT_FRACTION:
        OUTPUT.mkdir(parents=True, exist_ok=True)
        pygame.image.save(surface, OUTPUT / f"{name}.png")
        if actual.shape == expected.shape:
            heat = np.clip(np.abs(actual - expected).max(axis=2) * 4, 0, 255).astype(np.uint8)
            pygame.image.save(pygame.surfarray.make_surface(np.stack([heat] * 3, axis=2)), OUTPUT / f"{name}-diff.png")
        pytest.fail(
            f"{name}: differs from {ref_path.name} (mean abs diff {mean:.2f} > {MAX_MEAN_ABS_DIFF} or "
            f"{fraction:.2%} of pixels > {MAX_DIFFERENT_FRACTION:.2%}); see {OUTPUT}"
        )


@pytest.mark.parametrize(("name", "size"), CASES, ids=[f"{n}-{w}x{h}" for n, (w, h) in CASES])
def test_screen_matches_reference(name: str, size: tuple[int, int]) -> None:
    surface = render_surface(samples.SAMPLES[name](), size, t=0.0)
    label = name if size == (800, 480) else f"{name}-{size[0]}x{size[1]}"
    check_screenshot(surface, label)
    if UPDATE and size == (800, 480) and name in DOC_COPIES:
        DOCS.mkdir(parents=True, exist_ok=True)
        pygame.image.save(surface, DOCS / f"{name}.png")


def test_comparison_catches_a_changed_score() -> None:
    base = samples.play_mid_trick()
    a = pixels(render_surface(base))
    b = pixels(render_surface(replace(base, score=(5, 6))))
    mean, fraction = difference(a, b)
    assert fraction > MAX_DIFFERENT_FRACTION or mean > MAX_MEAN_ABS_DIFF


def test_render_is_a_pure_function_of_view_and_time() -> None:
    view = samples.renege_alert()
    first = pixels(render_surface(view, t=1.0))
    render_surface(samples.game_won())  # drawing something else in between changes nothing
    assert np.array_equal(first, pixels(render_surface(view, t=1.0)))


def test_renege_alert_flashes_with_time() -> None:
    view = samples.renege_alert()
    bright, dark, bright_again = (pixels(render_surface(view, t=t)) for t in (0.0, 0.3, 0.5))
    assert not np.array_equal(bright, dark)
    assert np.array_equal(bright, bright_again)


def test_without_a_renege_time_changes_nothing() -> None:
    view = samples.play_mid_trick()
    assert np.array_equal(pixels(render_surface(view, t=0.0)), pixels(render_surface(view, t=0.3)))


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (1920, 1080), (640, 480), (480, 800), (1280, 400)])
@pytest.mark.parametrize("name", sorted(samples.SAMPLES))
def test_every_state_draws_at_every_size(name: str, size: tuple[int, int]) -> None:
    surface = render_surface(samples.SAMPLES[name](), size)
    assert surface.get_size() == size
    assert pixels(surface).std() > 10  # not a blank screen


def test_red_cards_differ_from_black_without_colour() -> None:
    """In grey scale a red card still looks different from a black one: the striped frame."""

    def grey_card(card: str) -> np.ndarray:
        seats = (SeatView("N", card=Card.parse(card)), SeatView("E"), SeatView("S"), SeatView("W"))
        view = ScoreboardView(seats=seats, stage=Stage.PLAYING, trump=Suit.CLUBS)
        px = pixels(render_surface(view)).mean(axis=2)
        return px[376:424, 43:46]  # a strip along the top edge inside North's card (64 px wide from x=368, y=41)

    hearts, spades = grey_card("9h"), grey_card("9s")
    assert spades.std() < 5  # a plain white frame
    assert hearts.std() > 40  # stripes


def test_six_and_four_cards_style_draws_differently() -> None:
    view = samples.play_mid_trick()
    numbers = pixels(render_surface(view))
    cards = pixels(render_surface(replace(view, score_style=ScoreStyle.CARDS)))
    assert not np.array_equal(numbers, cards)


def test_snapshot_from_bytes_and_a_bad_one_is_shown_as_missing(tmp_path: Path) -> None:
    good = samples.renege_alert()
    assert good.renege is not None
    snaps = (Snapshot("no data", (10, 10), b"short"), Snapshot("gone", path=str(tmp_path / "x.png")))
    broken = replace(good, renege=replace(good.renege, snapshots=snaps))
    surface = pygame.Surface((800, 480))
    render(surface, broken, 0.0)  # draws "no picture" placeholders, never raises
    assert not np.array_equal(pixels(surface), pixels(render_surface(good)))


def test_a_new_game_screen_draws_from_a_bare_view() -> None:
    surface = render_surface(ScoreboardView(seats=seats_named()))
    assert pixels(surface).std() > 10


def test_preview_writes_every_sample(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from display.__main__ import main

    assert main(["--out", str(tmp_path), "--size", "1024x600"]) == 0
    assert sorted(p.stem for p in tmp_path.glob("*.png")) == sorted(samples.SAMPLES)
    assert pygame.image.load(tmp_path / "game-won.png").get_size() == (1024, 600)
    assert capsys.readouterr().out.strip().endswith("size=1024x600")
