"""lab.deck_report's arguments, its bar, and its one-line error without the artwork (no artwork needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lab.deck_report import DeckScore, main, parse_decks
from lab.synth.faces import HELD_OUT_DECKS


def test_decks_default_to_every_held_out_deck_and_refuse_others() -> None:
    assert parse_decks(None) == sorted(HELD_OUT_DECKS)
    assert parse_decks("gnome-orell, kde-jolly-royal") == ["gnome-orell", "kde-jolly-royal"]
    with pytest.raises(ValueError, match="cardsjs"):
        parse_decks("gnome-orell,cardsjs")
    with pytest.raises(ValueError):
        parse_decks(",")


def test_the_bar_needs_precision_and_few_red_suit_swaps() -> None:
    sure = DeckScore("gnome-orell", True, 540, 0.985, 0.7, 2, 9)
    assert sure.meets_bar()
    assert not DeckScore("gnome-orell", True, 540, 0.975, 0.7, 2, 0).meets_bar()
    assert not DeckScore("gnome-orell", True, 540, 0.985, 0.7, 3, 0).meets_bar()  # 3 > 0.5% of 540
    assert sure.line() == (
        "deck=gnome-orell profile=1 cards=540 precision=0.9850 recall=0.7000 red_suit_swaps=2 black_suit_swaps=9 "
        "to_check=0 to_check_right=0"
    )


def test_without_the_artwork_it_says_so_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--art", str(tmp_path / "no-art"), "--decks", "gnome-orell"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "scripts/fetch-art" in err[0]
    with pytest.raises(SystemExit) as exit_info:
        main(["--decks", "not-a-deck"])
    assert exit_info.value.code == 2


@pytest.mark.parametrize("first", ["-1", "999900"])
def test_a_validation_offset_that_leaves_its_kind_s_seeds_is_refused(first: str) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--first-seed", first, "--count", "200"])
    assert exit_info.value.code == 2


def test_a_scenes_folder_drawn_from_another_offset_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the test scenes (built before the offset was recorded: 0) asked for as a validation draw
    art, tests = tmp_path / "art", tmp_path / "tests"
    art.mkdir()
    (art / "manifest.csv").write_text("", encoding="utf-8")
    (tests / "gnome-orell").mkdir(parents=True)
    (tests / "gnome-orell" / "labels.csv").write_text("image,class,x_center,y_center,width,height\n", "utf-8")
    argv = ["--art", str(art), "--tests", str(tests), "--profiles", str(tmp_path / "profiles"),
            "--decks", "gnome-orell", "--first-seed", "500000"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "gnome-orell" in err[0] and "--first-seed 0, not 500000" in err[0]
