"""The adapter from the engine's MatchView to the scoreboard's view, on a real match driven by literal inputs."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from display.adapter import build_view
from display.render import render_surface
from display.view import BannerKind, Snapshot, Stage
from table.announcements import Irregularity, IrregularityKind
from table.cards import Card, Suit
from table.inputs import AcceptPenalty, Discard, Input, Misdeal, NameTrump, OrderUp, Pass, Play, UpCard
from table.match import Match
from table.rules import Rules

NAMES = ("Ann", "Bob", "Cat", "Dan")
C = Card.parse


def match_after(*inputs: Input) -> Match:
    m = Match(Rules(), first_dealer=3)
    for inp in inputs:
        m.apply(inp)
    return m


ROUND_2 = (UpCard(C("Jd")), Pass(0), Pass(1), Pass(2), Pass(3))
HEARTS_BY_ANN = (*ROUND_2, NameTrump(0, Suit.HEARTS))
TRICK_1 = (Play(0, C("As")), Play(1, C("9s")), Play(2, C("Ac")), Play(3, C("Ts")))


def test_bidding_round_1() -> None:
    v = build_view(match_after(UpCard(C("Jd"))).view(), NAMES)
    assert (v.stage, v.bid_round, v.turn, v.dealer) == (Stage.BIDDING, 1, 0, 3)
    assert v.up_card == C("Jd") and not v.up_card_turned_down
    assert v.prompt == "Ann: pass or order up J\u2666?"
    assert [s.name for s in v.seats] == list(NAMES)


def test_bidding_round_2_turns_the_card_down() -> None:
    v = build_view(match_after(*ROUND_2).view(), NAMES)
    assert (v.stage, v.bid_round, v.turn) == (Stage.BIDDING, 2, 0)
    assert v.up_card_turned_down
    assert v.prompt == "Ann: pass or name trump (not \u2666)?"


def test_mid_trick_shows_each_card_at_its_seat_and_who_is_winning() -> None:
    m = match_after(*HEARTS_BY_ANN, Play(0, C("Ks")), Play(1, C("9s")), Play(2, C("Jd")))
    v = build_view(m.view(), NAMES)
    assert v.stage is Stage.PLAYING
    assert (v.trump, v.maker, v.turn, v.trick_number) == (Suit.HEARTS, 0, 3, 1)
    assert [s.card for s in v.seats] == [C("Ks"), C("9s"), C("Jd"), None]
    assert [s.winning for s in v.seats] == [False, False, True, False]  # the left bower
    assert v.seats[0].led
    assert v.announcement == ""  # a play announces nothing new: the app passes the previous line on
    kept = build_view(m.view(), NAMES, fallback_announcement="Ann names \u2665 hearts")
    assert kept.announcement == "Ann names \u2665 hearts"
    made = build_view(match_after(*HEARTS_BY_ANN).view(), NAMES)
    assert made.announcement == "Ann names \u2665 hearts"


def test_trick_won_is_announced_and_counted() -> None:
    v = build_view(match_after(*HEARTS_BY_ANN, *TRICK_1).view(), NAMES)
    assert v.announcement == "Ann takes it with A\u2660"
    assert v.tricks == (1, 0) and v.trick_number == 2


def test_renege_alert_with_evidence_and_snapshots() -> None:
    m = match_after(*HEARTS_BY_ANN, *TRICK_1, Play(0, C("Ks")), Play(1, C("Qs")), Play(2, C("Js")))
    snap = Snapshot("Trick 1", (2, 1), bytes(6))
    v = build_view(m.view(), NAMES, renege_snapshots=(snap,))
    assert v.renege is not None
    assert v.renege.offender == "Cat"
    assert v.renege.evidence == "Cat showed out of spades in trick 1, played J\u2660 in trick 2"
    assert v.renege.snapshots == (snap,)
    assert "Renege" in v.announcement
    m.apply(AcceptPenalty())
    after = build_view(m.view(), NAMES)
    assert after.renege is None


def test_hand_scored_and_history() -> None:
    m = match_after(UpCard(C("9c")), OrderUp(0), Discard(3))  # Dan picks it up and discards unseen
    tricks = [
        ("Jc", "9h", "Js", "Th"),
        ("Ac", "9d", "Kc", "Td"),
        ("Ah", "Qh", "Kh", "Jh"),
        ("Ad", "Qd", "Kd", "Jd"),
        ("As", "Qs", "Ks", "Ts"),
    ]
    for cards in tricks:
        lead = m.view().expected.seat
        assert lead is not None
        for i, card in enumerate(cards):
            m.apply(Play((lead + i) % 4, C(card)))
    v = build_view(m.view(), NAMES)
    assert v.stage is Stage.HAND_OVER
    assert v.score == (2, 0) and v.tricks == (5, 0)
    assert v.result.startswith("March! Ann\u2013Cat take all five")
    assert v.trump is Suit.CLUBS and v.maker == 0
    assert len(v.history) == 1
    row = v.history[0]
    assert (row.number, row.maker, row.points, row.score, row.note) == (1, "Ann", (2, 0), (2, 0), "march")
    assert v.turn is None


def test_a_misdeal_is_a_history_row_without_trump_maker_or_points() -> None:
    m = match_after(*HEARTS_BY_ANN, *TRICK_1, Misdeal())
    v = build_view(m.view(), NAMES)
    assert v.stage is Stage.HAND_OVER and v.score == (0, 0) and v.dealer == 3  # Dan deals again
    assert (v.trump, v.maker, v.alone, v.tricks) == (None, None, (), (0, 0))
    row = v.history[-1]
    assert (row.trump, row.maker, row.alone, row.points, row.note) == (None, "", False, (0, 0), "misdeal")
    assert v.result == "Misdeal: the deal is void, not scored"
    assert v.banner is not None and v.banner.text == "Misdeal: Dan's deal is void; Dan deals again"
    assert v.prompt == "Dan deals: turn up the top card of the kitty"


def test_irregularity_becomes_a_banner() -> None:
    m = match_after(UpCard(C("Jd")))
    irr = Irregularity(IrregularityKind.CHECK_CARD, "read at 40%", seat=1, card=C("Qs"))
    v = build_view(m.view(), NAMES, announcements=[irr])
    assert v.banner is not None and v.banner.kind is BannerKind.CHECK_CARD
    assert v.banner.text.startswith("Check this card: Bob Q\u2660")


def test_camera_mute_and_names_pass_through() -> None:
    v = build_view(match_after().view(), NAMES, camera_ok=False, muted=True)
    assert (v.camera_ok, v.muted, v.stage) == (False, True, Stage.DEALING)
    with pytest.raises(ValueError, match="four seat names"):
        build_view(match_after().view(), NAMES[:3])


@pytest.mark.parametrize(
    "inputs",
    [(), (UpCard(C("Jd")),), ROUND_2, HEARTS_BY_ANN, (*HEARTS_BY_ANN, *TRICK_1)],
    ids=["start", "round-1", "round-2", "trump-made", "after-trick"],
)
def test_every_engine_state_renders(inputs: tuple[Input, ...]) -> None:
    surface = render_surface(build_view(match_after(*inputs).view(), NAMES))
    assert pygame.surfarray.array3d(surface).astype(np.int16).std() > 10
