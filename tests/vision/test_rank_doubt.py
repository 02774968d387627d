"""A card read with a deck profile and named with another rank of its suit close behind is doubted
(``cardcrop.RANK_DOUBT``), as a card split with its twin is; a split with a card of another suit is not, and
a reading without a profile is not."""

from __future__ import annotations

import numpy as np
import pytest

from table.cards import Card
from vision import cardcrop
from vision.deck_profile import CardPrototypes, DeckProfile, ProfileMatcher, Prototype

NAMES = ("9h", "Th", "8h", "9d", "Ks", "B")


def test_rank_rivals_are_the_other_ranks_of_the_suit() -> None:
    rivals = cardcrop.rank_rival_indices(NAMES)
    assert rivals[0] == (1, 2)  # 9h: Th, 8h
    assert rivals[3] == ()  # 9d: no other diamond among the names
    assert rivals[4] == ()  # Ks: alone in spades
    assert rivals[5] == ()  # the Joker has no suit


def shares(mix: list[float], evidence: list[float] | None = None) -> tuple[int, float, float]:
    m = np.asarray(mix, np.float32)
    e = None if evidence is None else np.asarray(evidence, np.float32)
    best, share, before = cardcrop.weighed_shares(
        m, e, 5, cardcrop.twin_indices(NAMES), cardcrop.rank_rival_indices(NAMES)
    )
    return best, float(share), float(before)


@pytest.mark.parametrize("evidence", [None, [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]])
def test_a_split_between_two_ranks_of_a_suit_is_doubted(
    monkeypatch: pytest.MonkeyPatch, evidence: list[float] | None
) -> None:
    mix = [0.22, 0.69, 0.07, 0.01, 0.01, 0.0]  # the ten of hearts, with its nine close behind
    monkeypatch.setattr(cardcrop, "RANK_DOUBT", 0.0)
    best0, share0, before0 = shares(mix, evidence)
    assert best0 == 1 and share0 == pytest.approx(before0)
    monkeypatch.setattr(cardcrop, "RANK_DOUBT", 0.5)
    best, share, before = shares(mix, evidence)
    assert best == 1 and before == pytest.approx(before0)  # the card and its share before the doubt are kept
    assert share == pytest.approx(0.69 * (1.0 - 0.22 / 0.69) ** 0.5, rel=1e-5)


def test_a_split_with_another_suit_is_not_doubted_by_rank(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cardcrop, "RANK_DOUBT", 0.5)
    mix = [0.62, 0.0, 0.0, 0.0, 0.38, 0.0]  # 9h with the king of spades close behind, no other heart
    best, share, before = shares(mix)
    assert best == 0 and share == pytest.approx(before) == pytest.approx(0.62)


def test_the_twin_and_rank_doubts_both_apply(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cardcrop, "RANK_DOUBT", 0.5)
    monkeypatch.setattr(cardcrop, "TWIN_DOUBT", 1.0)
    mix = [0.5, 0.2, 0.0, 0.3, 0.0, 0.0]  # 9h, its twin 9d at 0.3 and its ten at 0.2
    _, share, before = shares(mix)
    assert before == pytest.approx(0.5)
    assert share == pytest.approx(0.5 * (1.0 - 0.3 / 0.5) * (1.0 - 0.2 / 0.5) ** 0.5, rel=1e-5)


def _matcher(names: list[str], classes: list[str]) -> ProfileMatcher:
    eye = np.eye(4, dtype=np.float32)
    cards = {Card.parse(c): CardPrototypes([Prototype("TL", f"crops/{c}-TL.png", eye[i])]) for i, c in enumerate(names)}
    return ProfileMatcher(DeckProfile(name="t", cards=cards, features=4), classes)


def test_only_a_reading_with_a_profile_is_doubted_by_rank(monkeypatch: pytest.MonkeyPatch) -> None:
    """The classifier's corners split between the ten and the nine of hearts: read with a profile, the share is
    doubted and the share before the doubt kept; read without one, the rank doubt does not apply."""
    classes = ["9h", "Th", "Ks", "none"]
    logits = np.array([[0.0, 1.2, -4.0, -6.0]], np.float32)  # Th over 9h
    feats = np.full((1, 4), 0.5, np.float32)  # as like every prototype
    m = _matcher(["9h", "Th", "Ks"], classes)
    monkeypatch.setattr(cardcrop, "RANK_DOUBT", 0.0)
    name0, share0, before0, _ = m.shares(logits, feats)
    plain0 = cardcrop.corner_shares(logits, classes)
    monkeypatch.setattr(cardcrop, "RANK_DOUBT", 0.5)
    name, share, before, rival = m.shares(logits, feats)
    assert name == name0 == "Th" and before == pytest.approx(before0) == pytest.approx(share0)
    assert share < 0.9 * share0  # the nine of hearts weighs a third of the ten: (1 - 1/3) ** 0.5 = 0.82
    assert rival == "9h"  # the rank the doubt weighed it against: the one a check names
    assert cardcrop.corner_shares(logits, classes) == pytest.approx(plain0)
