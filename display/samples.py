"""Example scoreboard views of the main moments of a game, for screenshot tests, the README and a preview.

Each is a literal `ScoreboardView`, worded through `display.phrases` as the
adapter words the live game, so the pictures show what players will see.
"""

from __future__ import annotations

from dataclasses import replace

import pygame

from display import phrases
from display.canvas import Canvas, draw_card
from display.view import (
    DEFAULT_SEAT_NAMES,
    Banner,
    BannerKind,
    HistoryRow,
    RenegeAlert,
    ScoreboardView,
    ScoreStyle,
    SeatView,
    Snapshot,
    Stage,
    seats_named,
)
from table.announcements import (
    Expect,
    GameWon,
    HandScored,
    Prompt,
    RenegeEvidence,
    TrickWon,
)
from table.cards import Card, Suit

NAMES = DEFAULT_SEAT_NAMES
C = Card.parse

HISTORY = (
    HistoryRow(1, Suit.SPADES, "North", False, (3, 2), (1, 0), (1, 0)),
    HistoryRow(2, Suit.HEARTS, "East", False, (3, 2), (0, 2), (1, 2), "euchre"),
    HistoryRow(3, None, "", False, (0, 0), (0, 0), (1, 2), "thrown in"),
    HistoryRow(4, Suit.CLUBS, "West", True, (0, 5), (0, 4), (1, 6), "lone march"),
    HistoryRow(5, Suit.DIAMONDS, "South", False, (5, 0), (2, 0), (3, 6), "march"),
    HistoryRow(6, Suit.SPADES, "North", False, (4, 1), (1, 0), (4, 6)),
)


def bidding_round_1() -> ScoreboardView:
    up = C("Jd")
    return ScoreboardView(
        seats=seats_named(NAMES),
        score=(4, 6),
        stage=Stage.BIDDING,
        bid_round=1,
        dealer=3,
        turn=0,
        up_card=up,
        prompt=phrases.prompt_text(Prompt(0, Expect.BID_ROUND_1, up_card=up), NAMES),
        announcement="West deals. J\u2666 is up",
        history=HISTORY,
    )


def bidding_round_2() -> ScoreboardView:
    up = C("Jd")
    return replace(
        bidding_round_1(),
        bid_round=2,
        turn=2,
        up_card_turned_down=True,
        prompt=phrases.prompt_text(Prompt(2, Expect.BID_ROUND_2, up_card=up), NAMES),
        announcement="Everyone passed J\u2666: it is turned down",
    )


def play_mid_trick() -> ScoreboardView:
    seats = (
        SeatView("North", card=C("Ks"), led=True),
        SeatView("East", card=C("9s")),
        SeatView("South", card=C("Jd"), winning=True),
        SeatView("West"),
    )
    last = TrickWon(seat=1, card=C("Jh"), trick=1)
    return ScoreboardView(
        seats=seats,
        score=(4, 6),
        stage=Stage.PLAYING,
        dealer=3,
        turn=3,
        trump=Suit.HEARTS,
        maker=1,
        tricks=(1, 1),
        trick_number=3,
        prompt=phrases.prompt_text(Prompt(3, Expect.FOLLOW, suit=Suit.SPADES), NAMES),
        announcement=phrases.announcement_text(last, NAMES, trump=Suit.HEARTS),
        history=HISTORY,
    )


def _snapshot_rgb(caption: str, cards: tuple[str, ...], size: tuple[int, int] = (320, 200)) -> Snapshot:
    """A stand-in camera still: felt with the trick's cards, drawn so tests need no camera."""
    surf = pygame.Surface(size)
    surf.fill((24, 92, 60))
    canvas = Canvas(surf)
    w = 34.0 / canvas.scale
    for i, text in enumerate(cards):
        x = (size[0] / (len(cards) + 1)) * (i + 1) / canvas.scale
        draw_card(canvas, C(text), (x, size[1] / 2 / canvas.scale), w)
    return Snapshot(caption, size, pygame.image.tobytes(surf, "RGB"))


def renege_alert() -> ScoreboardView:
    evidence = RenegeEvidence(
        seat=3,
        suit=Suit.HEARTS,
        showed_out_trick=1,
        showed_out_card=C("Ac"),
        led_card=C("Kh"),
        proof_trick=3,
        proof_card=C("Th"),
    )
    alert = RenegeAlert(
        offender="West",
        evidence=phrases.renege_evidence_text(evidence, NAMES),
        penalty="North\u2013South score 2",
        snapshots=(
            _snapshot_rgb("Trick 2: West showed out (A\u2663)", ("Kh", "9h", "Qh", "Ac")),
            _snapshot_rgb("Trick 4: West played 10\u2665", ("As", "Th", "9c", "Js")),
        ),
    )
    return replace(play_mid_trick(), renege=alert, prompt="Renege: accept the penalty or dismiss it")


def hand_scored() -> ScoreboardView:
    scored = HandScored(points=(0, 2), tricks=(2, 3), makers=0, reason="euchre", score=(4, 8))
    history = (*HISTORY, HistoryRow(7, Suit.CLUBS, "South", False, (2, 3), (0, 2), (4, 8), "euchre"))
    return ScoreboardView(
        seats=seats_named(NAMES),
        score=scored.score,
        stage=Stage.HAND_OVER,
        dealer=3,
        trump=Suit.CLUBS,
        maker=2,
        tricks=scored.tricks,
        result=phrases.hand_result_text(scored, NAMES),
        announcement=phrases.announcement_text(TrickWon(1, C("Ac"), 4), NAMES, trump=Suit.CLUBS),
        prompt="North deals next: turn up the top card",
        history=history,
    )


def hand_review() -> ScoreboardView:
    tricks = (
        ("Trick 1", ("Jc", "9c", "Ac", "Qc")),
        ("Trick 2", ("Kh", "9h", "Qh", "Jd")),
        ("Trick 3", ("As", "Ts", "9s", "Ks")),
        ("Trick 4", ("Ad", "Kd", "Tc", "9d")),
        ("Trick 5", ("Jh", "Qs", "Th", "Ah")),
    )
    return replace(hand_scored(), review=tuple(_snapshot_rgb(cap, cards) for cap, cards in tricks))


def game_won() -> ScoreboardView:
    won = GameWon(team=1, score=(7, 10))
    history = (
        *HISTORY,
        HistoryRow(7, Suit.CLUBS, "South", False, (2, 3), (0, 2), (4, 8), "euchre"),
        HistoryRow(8, Suit.HEARTS, "North", False, (3, 2), (1, 0), (5, 8)),
        HistoryRow(9, Suit.SPADES, "South", True, (5, 0), (2, 0), (7, 8), "march"),
        HistoryRow(10, Suit.DIAMONDS, "East", False, (1, 4), (0, 2), (7, 10), "march"),
    )
    return ScoreboardView(
        seats=seats_named(NAMES),
        score=won.score,
        stage=Stage.GAME_OVER,
        winner=1,
        announcement=phrases.announcement_text(won, NAMES),
        prompt="Hold Undo or press N for a new game",
        history=history,
    )


def irregularity() -> ScoreboardView:
    """Play with an irregularity banner, the camera lost, sound muted and the 6-and-4 score cards."""
    return replace(
        play_mid_trick(),
        banner=Banner(BannerKind.IRREGULARITY, "Out of turn: West played before South \u2014 put it back?"),
        camera_ok=False,
        muted=True,
        alone=(1,),
        seats=(
            SeatView("North", card=C("Ks"), led=True),
            SeatView("East", card=C("9s"), winning=True),
            SeatView("South"),
            SeatView("West", sitting_out=True),
        ),
        turn=2,
        prompt=phrases.prompt_text(Prompt(2, Expect.FOLLOW, suit=Suit.SPADES), NAMES),
        score_style=ScoreStyle.CARDS,
    )


SAMPLES = {
    "bidding-round-1": bidding_round_1,
    "bidding-round-2": bidding_round_2,
    "play-mid-trick": play_mid_trick,
    "renege-alert": renege_alert,
    "hand-scored": hand_scored,
    "hand-review": hand_review,
    "game-won": game_won,
    "irregularity": irregularity,
}
