"""A restyled test set records each scene's deck style, and the style report scores each style apart."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from lab import style_report
from lab.evaluate import ImageScore
from lab.synth import build
from lab.synth.faces import procedural_faceset
from lab.synth.scenes import DECK_STYLES, render_scene, restyle_deck
from table.cards import Card
from vision.errors import UserError


def test_a_restyled_test_set_names_each_scenes_deck_style(tmp_path: Path) -> None:
    build.build_test(None, tmp_path, count=6, procs=1, restyle=1.0)
    styles = style_report.read_styles(tmp_path / build.STYLES_FILE)
    assert sorted(styles) == sorted(p.name for p in (tmp_path / "images").iterdir())
    fs = procedural_faceset()
    for k in range(6):
        scene = render_scene(fs, build.SEED_TEST + k, restyle=1.0)
        assert scene.deck_style in DECK_STYLES
        assert styles[f"synth_{k:05d}.jpg"] == scene.deck_style
    assert len(set(styles.values())) > 1  # the dice pick among the styles


def test_a_set_printed_as_drawn_has_no_styles_file_and_its_scenes_no_style(tmp_path: Path) -> None:
    build.build_test(None, tmp_path, count=2, procs=1)
    assert not (tmp_path / build.STYLES_FILE).exists()
    assert render_scene(procedural_faceset(), build.SEED_TEST).deck_style is None
    # a scene the dice leave as drawn is recorded so in a restyled set
    build.build_test(None, tmp_path / "some", count=8, procs=1, restyle=0.3)
    styles = style_report.read_styles(tmp_path / "some" / build.STYLES_FILE)
    assert build.AS_DRAWN in styles.values()


def test_a_set_can_be_restyled_in_chosen_styles_only(tmp_path: Path) -> None:
    build.build_test(None, tmp_path, count=4, procs=1, restyle=1.0, styles=("dark",))
    styles = style_report.read_styles(tmp_path / build.STYLES_FILE)
    assert set(styles.values()) == {"dark"}
    fs = procedural_faceset()
    scene = render_scene(fs, build.SEED_TEST, restyle=1.0, styles=("dark",))
    assert scene.deck_style == "dark"
    # the default draws its style as before the option existed: the dice's first choice among all three
    for seed in range(20):
        assert restyle_deck(np.random.default_rng(seed), []) == str(np.random.default_rng(seed).choice(DECK_STYLES))
    with pytest.raises(SystemExit):
        build.main(["test", "--procedural", "--out", str(tmp_path / "bad"), "--restyle", "1", "--styles", "gold"])


def _score(image: str, labelled: str, reported: str) -> ImageScore:
    lab = frozenset(Card.parse(c) for c in labelled.split())
    rep = frozenset(Card.parse(c) for c in reported.split())
    return ImageScore(image, lab, rep, (), 0, 0, 10.0)


def test_scores_are_grouped_by_style() -> None:
    scores = [
        _score("a.jpg", "Ah Ks", "Ah Ks"),
        _score("b.jpg", "9c Td", "9c Qd"),  # one right, one wrong
        _score("c.jpg", "Jh", ""),
    ]
    groups = style_report.by_style(scores, {"a.jpg": "tinted", "b.jpg": "dark", "c.jpg": "dark"}, Path("s.csv"))
    assert list(groups) == ["dark", "tinted"]
    dark, tinted = groups["dark"], groups["tinted"]
    assert (dark.images, dark.cards, dark.true_positives, dark.false_alarms) == (2, 3, 1, 1)
    assert dark.precision == pytest.approx(0.5) and dark.recall == pytest.approx(1 / 3)
    assert (tinted.precision, tinted.recall) == (1.0, 1.0)
    assert "style=dark images=2 cards=3 precision=0.5000 recall=0.3333" in style_report.style_line("dark", dark)
    with pytest.raises(UserError, match=r"s\.csv: no style for c\.jpg"):
        style_report.by_style(scores, {"a.jpg": "tinted", "b.jpg": "dark"}, Path("s.csv"))


def test_a_bad_styles_file_is_one_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "styles.csv"
    path.write_text("image,deck\nx.jpg,dark\n", encoding="utf-8")
    with pytest.raises(UserError, match="expected the header 'image,style'"):
        style_report.read_styles(path)
    with open(path, "w", newline="") as fh:
        csv.writer(fh).writerows([["image", "style"], ["x.jpg", "dark"], ["y.jpg"]])
    with pytest.raises(UserError, match="line 3"):
        style_report.read_styles(path)
    # a folder without one: a message naming it, no traceback
    (tmp_path / "plain").mkdir()
    assert style_report.main([str(tmp_path / "plain")]) == 2
    err = capsys.readouterr().err
    assert "style_report:" in err and "styles.csv" in err and "Traceback" not in err
