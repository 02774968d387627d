"""Example scoreboard views of the main moments of a game, for screenshot tests, the README and a preview.

Each is a literal `ScoreboardView`, worded through `display.phrases` as the
adapter words the live game, so the pictures show what players will see.
Each takes the four seat names, so tests can draw every screen with long ones.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pygame

from display import phrases
from display.actions import SEAT_SUITS, Action, ButtonAction
from display.canvas import Canvas, draw_card
from display.i18n import _
from display.view import (
    DEFAULT_SEAT_NAMES,
    Banner,
    BannerKind,
    Choice,
    HistoryRow,
    Offer,
    RenegeAlert,
    ScoreboardView,
    ScoreStyle,
    SeatView,
    Snapshot,
    Stage,
    seats_named,
)
from table.announcements import (
    CardSource,
    Expect,
    GameWon,
    HandScored,
    Irregularity,
    IrregularityKind,
    Prompt,
    RenegeEvidence,
    TrickWon,
)
from table.cards import Card, Suit

NAMES = DEFAULT_SEAT_NAMES
Names = tuple[str, str, str, str]
C = Card.parse

# (trump, maker seat or None, alone, tricks, points, score, the engine's reason) of the hands before the samples' moment
_HANDS: tuple[tuple[Suit | None, int | None, bool, tuple[int, int], tuple[int, int], tuple[int, int], str], ...] = (
    (Suit.SPADES, 0, False, (3, 2), (1, 0), (1, 0), ""),
    (Suit.HEARTS, 0, False, (2, 3), (0, 2), (1, 2), "euchre"),
    (None, None, False, (0, 0), (0, 0), (1, 2), "thrown_in"),
    (Suit.CLUBS, 3, True, (0, 5), (0, 4), (1, 6), "lone_march"),
    (Suit.DIAMONDS, 2, False, (5, 0), (2, 0), (3, 6), "march"),
    (Suit.SPADES, 0, False, (4, 1), (1, 0), (4, 6), ""),
    (Suit.CLUBS, 2, False, (2, 3), (0, 2), (4, 8), "euchre"),
    (Suit.HEARTS, 0, False, (3, 2), (1, 0), (5, 8), ""),
    (Suit.SPADES, 2, False, (5, 0), (2, 0), (7, 8), "march"),
    (Suit.DIAMONDS, 1, False, (0, 5), (0, 2), (7, 10), "march"),
)


def history(hands: int, names: Names = NAMES) -> tuple[HistoryRow, ...]:
    """The first ``hands`` rows of the sample game's hand-by-hand history."""
    return tuple(
        HistoryRow(
            i + 1, trump, names[maker] if maker is not None else "", alone, tricks, points, score,
            phrases.history_note(reason),
        )
        for i, (trump, maker, alone, tricks, points, score, reason) in enumerate(_HANDS[:hands])
    )


# The declarations offered beside the prompt, as the table session offers them (tests hold the two together),
# worded in the table's language when a sample is drawn.


def alone_offer(armed: bool = False) -> Offer:
    alone = phrases.button_name("alone")
    return Offer(phrases.alone_offer(armed), alone, Action(ButtonAction.ALONE), selected=armed)


def no_trump_offer() -> Offer:
    return Offer(phrases.no_trump_offer(), phrases.button_name("call"), Action(ButtonAction.CALL))


def declare_offer() -> Offer:
    return Offer(phrases.declare_offer(), phrases.button_name("hold_alone"), Action(ButtonAction.DECLARE))


def bidding_round_1(names: Names = NAMES) -> ScoreboardView:
    up = C("Jd")
    return ScoreboardView(
        seats=seats_named(names),
        score=(4, 6),
        stage=Stage.BIDDING,
        bid_round=1,
        dealer=3,
        turn=0,
        up_card=up,
        prompt=phrases.prompt_text(Prompt(0, Expect.BID_ROUND_1, up_card=up), names),
        announcement=_("{dealer} deals. {card} is up").format(dealer=names[3], card=phrases.card_text(up)),
        history=history(6, names),
        offers=(alone_offer(), declare_offer()),
    )


def bidding_round_2(names: Names = NAMES) -> ScoreboardView:
    up = C("Jd")
    return replace(
        bidding_round_1(names),
        bid_round=2,
        turn=2,
        up_card_turned_down=True,
        prompt=phrases.prompt_text(Prompt(2, Expect.BID_ROUND_2, up_card=up), names),
        announcement=_("Everyone passed {card}: it is turned down").format(card=phrases.card_text(up)),
        offers=(alone_offer(), no_trump_offer(), declare_offer()),
    )


def play_mid_trick(names: Names = NAMES) -> ScoreboardView:
    seats = (
        SeatView(names[0], card=C("Ks"), led=True),
        SeatView(names[1], card=C("9s")),
        SeatView(names[2], card=C("Jd"), winning=True),
        SeatView(names[3]),
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
        prompt=phrases.prompt_text(Prompt(3, Expect.FOLLOW, suit=Suit.SPADES), names),
        announcement=phrases.announcement_text(last, names, trump=Suit.HEARTS),
        history=history(6, names),
    )


def _card(text: str) -> str:
    return phrases.card_text(C(text))


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


def renege_alert(names: Names = NAMES) -> ScoreboardView:
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
        offender=names[3],
        evidence=phrases.renege_evidence_text(evidence, names),
        penalty=phrases.score_text(phrases.team_name(names, 0), 2),
        snapshots=(
            _snapshot_rgb(
                _("Trick {trick}: {who} showed out ({card})").format(trick=2, who=names[3], card=_card("Ac")),
                ("Kh", "9h", "Qh", "Ac"),
            ),
            _snapshot_rgb(
                _("Trick {trick}: {who} played {card}").format(trick=4, who=names[3], card=_card("Th")),
                ("As", "Th", "9c", "Js"),
            ),
        ),
    )
    prompt = phrases.prompt_text(Prompt(None, Expect.RENEGE_DECISION), names)
    return replace(play_mid_trick(names), renege=alert, prompt=prompt)


def hand_scored(names: Names = NAMES) -> ScoreboardView:
    scored = HandScored(points=(0, 2), tricks=(2, 3), makers=0, reason="euchre", score=(4, 8))
    return ScoreboardView(
        seats=seats_named(names),
        score=scored.score,
        stage=Stage.HAND_OVER,
        dealer=3,
        trump=Suit.CLUBS,
        maker=2,
        tricks=scored.tricks,
        result=phrases.hand_result_text(scored, names),
        announcement=phrases.announcement_text(TrickWon(1, C("Ac"), 4), names, trump=Suit.CLUBS),
        prompt=f"{names[0]} deals next: turn up the top card",
        history=history(7, names),
    )


def check_last_trick(names: Names = NAMES) -> ScoreboardView:
    """The hand scored with South's card in its last trick read doubtfully (perhaps the ten of diamonds), that
    trick still on the table: the answers to the check in the result box, as the session dresses the view."""
    banner, answers = _check_of_a_play(2, C("Th"), C("Td"), names)
    return replace(hand_scored(names), banner=banner, offers=answers)


def _check_of_a_play(seat: int, card: Card, rival: Card, names: Names) -> tuple[Banner, tuple[Offer, ...]]:
    """The banner asking to check ``seat``'s ``card`` (perhaps ``rival``, the same rank), and the session's two
    answers to it: Call (it is right) and the rival's suit button."""
    assert rival.suit is not None
    doubtful = Irregularity(
        IrregularityKind.CHECK_CARD, f"check seat {seat}'s card: read as {card} with low confidence, perhaps {rival}",
        seat, card, source=CardSource.PLAY, rival=rival,
    )  # fmt: skip
    answers = (
        Offer(phrases.check_right_offer(card), phrases.button_name("call"), Action(ButtonAction.CALL)),
        Offer(phrases.check_other_offer(rival), rival.suit.symbol, Action(ButtonAction.SUIT, rival.suit)),
    )
    return Banner(BannerKind.CHECK_CARD, phrases.irregularity_text(doubtful, names)), answers


def hand_review(names: Names = NAMES) -> ScoreboardView:
    tricks = (
        ("Jc", "9c", "Ac", "Qc"),
        ("Kh", "9h", "Qh", "Jd"),
        ("As", "Ts", "9s", "Ks"),
        ("Ad", "Kd", "Tc", "9d"),
        ("Jh", "Qs", "Th", "Ah"),
    )
    review = tuple(_snapshot_rgb(_("Trick {trick}").format(trick=i + 1), cards) for i, cards in enumerate(tricks))
    return replace(hand_scored(names), review=review)


def game_won(names: Names = NAMES) -> ScoreboardView:
    won = GameWon(team=1, score=(7, 10))
    return ScoreboardView(
        seats=seats_named(names),
        score=won.score,
        stage=Stage.GAME_OVER,
        winner=1,
        announcement=phrases.announcement_text(won, names),
        prompt=_("Hold Undo or press N for a new game"),
        history=history(10, names),
    )


def irregularity(names: Names = NAMES) -> ScoreboardView:
    """West plays before South, whose turn it is: the banner says so, South is still asked to play.

    Also shows the camera lost, sound muted and the 6-and-4 score cards.
    """
    out_of_turn = Irregularity(
        IrregularityKind.OUT_OF_TURN, "seat 3 played out of turn (seat 2 to play)", 3, C("Qs"), turn=2
    )
    return replace(
        play_mid_trick(names),
        banner=Banner(BannerKind.IRREGULARITY, phrases.irregularity_text(out_of_turn, names)),
        camera_ok=False,
        muted=True,
        seats=(
            SeatView(names[0], card=C("Ks"), led=True, winning=True),
            SeatView(names[1], card=C("9s")),
            SeatView(names[2]),
            SeatView(names[3], card=C("Qs")),
        ),
        turn=2,
        prompt=phrases.prompt_text(Prompt(2, Expect.FOLLOW, suit=Suit.SPADES), names),
        score_style=ScoreStyle.CARDS,
    )


def deal_out_of_turn(names: Names = NAMES) -> ScoreboardView:
    """It was West's deal, but the camera saw North turn the up-card: the banner says so, the bidding goes on
    as West's deal (the declarations menu has the misdeal, for the right dealer to deal again)."""
    stolen = Irregularity(
        IrregularityKind.DEAL_OUT_OF_TURN, "the up-card was turned by seat 0; it is seat 3's deal", 0, C("Jd"),
        dealer=3,
    )  # fmt: skip
    banner = Banner(BannerKind.IRREGULARITY, phrases.irregularity_text(stolen, names))
    return replace(bidding_round_1(names), banner=banner)


def check_card(names: Names = NAMES) -> ScoreboardView:
    """South's card read doubtfully (its twin close behind): the banner asks to look, naming the card it may be
    instead; the offers answer it (Call: it is right; the club button: it is the queen of clubs), as the session
    dresses the view; West is still asked to play."""
    banner, answers = _check_of_a_play(2, C("Qs"), C("Qc"), names)
    return replace(
        play_mid_trick(names),
        banner=banner,
        offers=answers,
        seats=(
            SeatView(names[0], card=C("Ks"), led=True, winning=True),
            SeatView(names[1], card=C("9s")),
            SeatView(names[2], card=C("Qs")),
            SeatView(names[3]),
        ),
    )


def check_up_card(names: Names = NAMES) -> ScoreboardView:
    """The up-card read doubtfully as the jack of diamonds (perhaps the jack of hearts) while the table bids: the
    banner asks to look; the heart button says it is the jack of hearts (in the first round only the up-card's suit
    orders it up, so another suit bids nothing), as the session dresses the view; North is still asked to bid."""
    doubtful = Irregularity(
        IrregularityKind.CHECK_CARD, "check the up-card: read as Jd with low confidence, perhaps Jh", None, C("Jd"),
        source=CardSource.UP_CARD, rival=C("Jh"),
    )  # fmt: skip
    answer = Offer(phrases.check_other_offer(C("Jh")), Suit.HEARTS.symbol, Action(ButtonAction.SUIT, Suit.HEARTS))
    view = bidding_round_1(names)
    return replace(
        view, banner=Banner(BannerKind.CHECK_CARD, phrases.irregularity_text(doubtful, names)),
        offers=(*view.offers, answer),
    )


def _seat_key(seat: int) -> tuple[str, Action]:
    return SEAT_SUITS[seat].symbol, Action(ButtonAction.SUIT, SEAT_SUITS[seat])


def dealing(names: Names = NAMES) -> ScoreboardView:
    """Between deals: the next dealer turns up the up-card."""
    return ScoreboardView(
        seats=seats_named(names),
        score=(4, 8),
        stage=Stage.DEALING,
        dealer=0,
        prompt=phrases.prompt_text(Prompt(0, Expect.UP_CARD), names, 0),
        announcement=phrases.hand_result_text(
            HandScored(points=(0, 2), tricks=(2, 3), makers=0, reason="euchre", score=(4, 8)), names
        ),
        history=history(7, names),
    )


def benny_up(names: Names = NAMES) -> ScoreboardView:
    """British rules: the Benny turned up; the dealer names trump before looking (or no trump, where played)."""
    up = Card(None, None)
    return replace(
        bidding_round_1(names),
        turn=3,
        target=11,
        up_card=up,
        prompt=phrases.prompt_text(Prompt(3, Expect.NAME_TRUMP_BLIND, up_card=up), names),
        announcement=_("{dealer} deals. The Benny is up").format(dealer=names[3]),
        offers=(alone_offer(), no_trump_offer(), declare_offer()),
    )


def alone_question(names: Names = NAMES) -> ScoreboardView:
    """British rules, after East ordered up hearts: Alone asked who goes alone; South, a defender, is picked."""
    options = tuple(Offer(phrases.alone_option_label(s, 1, names), *_seat_key(s), selected=s == 2) for s in range(4))
    return ScoreboardView(
        seats=seats_named(names),
        score=(4, 6),
        target=11,
        stage=Stage.PLAYING,
        dealer=0,
        turn=0,
        trump=Suit.HEARTS,
        maker=1,
        trick_number=1,
        prompt=phrases.prompt_text(Prompt(0, Expect.DISCARD, up_card=C("9h")), names),
        announcement=_("{who} alone? Call to confirm, Alone for another player").format(who=names[2]),
        history=history(6, names),
        choice=Choice(phrases.choice_title("alone"), options, phrases.alone_hint()),
    )


def declare_menu(names: Names = NAMES) -> ScoreboardView:
    """The declarations menu (hold Alone) with every house rule on, East alone before the lead."""
    items = (
        phrases.declaration_label("call_for_best", names, 1),
        phrases.declaration_label("farmers_hand", names),
        phrases.declaration_label("nines_and_tens", names),
        phrases.declaration_label("nines_swap", names),
        phrases.declaration_label("misdeal", names),
    )
    keys = [_seat_key(k) for k in range(4)] + [(phrases.button_name("call"), Action(ButtonAction.CALL))]
    options = tuple(Offer(label, key, action) for label, (key, action) in zip(items, keys, strict=True))
    return replace(
        alone_question(names),
        alone=(1,),
        turn=2,
        seats=(SeatView(names[0]), SeatView(names[1]), SeatView(names[2]), SeatView(names[3], sitting_out=True)),
        prompt=phrases.prompt_text(Prompt(2, Expect.GO_ALONE), names),
        announcement=_("Declare what? Press the button beside it"),
        choice=Choice(phrases.choice_title("menu"), options, phrases.menu_hint()),
    )


def no_trump_question(names: Names = NAMES) -> ScoreboardView:
    """Round 2 where no trump is played: Call with no suit chosen asks first."""
    call = phrases.button_name("call")
    option = Offer(phrases.no_trump_option(names[2]), call, Action(ButtonAction.CALL), selected=True)
    return replace(
        bidding_round_2(names),
        offers=(),
        announcement=_("No trump? Call again to name it, or press a suit"),
        choice=Choice(phrases.choice_title("no_trump"), (option,), phrases.no_trump_hint()),
    )


def whose_claim(names: Names = NAMES) -> ScoreboardView:
    """The declarations menu's nines and tens picked during the bidding: whose hand is it?"""
    options = tuple(Offer(names[s], *_seat_key(s)) for s in range(4))
    label = phrases.declaration_label("nines_and_tens", names)
    return replace(
        bidding_round_1(names),
        offers=(),
        announcement=_("{declaration}: whose? Press that player's suit").format(declaration=label),
        choice=Choice(label, options, phrases.seat_hint()),
    )


def score_cards_11(names: Names = NAMES) -> ScoreboardView:
    """A British game to 11 kept on a six and a five, as pubs do."""
    return replace(play_mid_trick(names), target=11, score=(7, 10), score_style=ScoreStyle.CARDS)


SAMPLES: dict[str, Callable[..., ScoreboardView]] = {
    "bidding-round-1": bidding_round_1,
    "bidding-round-2": bidding_round_2,
    "play-mid-trick": play_mid_trick,
    "renege-alert": renege_alert,
    "hand-scored": hand_scored,
    "hand-review": hand_review,
    "game-won": game_won,
    "irregularity": irregularity,
    "deal-out-of-turn": deal_out_of_turn,
    "check-card": check_card,
    "check-up-card": check_up_card,
    "check-last-trick": check_last_trick,
    "benny-up": benny_up,
    "alone-question": alone_question,
    "declare-menu": declare_menu,
    "no-trump-question": no_trump_question,
    "whose-claim": whose_claim,
    "score-cards-11": score_cards_11,
}
