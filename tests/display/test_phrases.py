"""Announcement wording shared by the screen and the speaker: literal cases."""

from __future__ import annotations

import pytest

from display import phrases
from display.phrases import Voice
from display.typeface import SUIT_SYMBOLS
from table.announcements import (
    Announcement,
    Expect,
    GameWon,
    HandScored,
    Irregularity,
    IrregularityKind,
    PenaltyApplied,
    Prompt,
    RenegeEvidence,
    RenegeProven,
    ThrownIn,
    TrickWon,
    TrumpMade,
    WentAlone,
)
from table.cards import BENNY, Card, Suit

NAMES = ("North", "East", "South", "West")
C = Card.parse
EVIDENCE = RenegeEvidence(
    seat=3,
    suit=Suit.HEARTS,
    showed_out_trick=1,
    showed_out_card=C("Ac"),
    led_card=C("Kh"),
    proof_trick=3,
    proof_card=C("Th"),
)


@pytest.mark.parametrize(
    ("card", "trump", "text"),
    [
        ("Jh", Suit.HEARTS, "North takes it with the right bower"),
        ("Jd", Suit.HEARTS, "North takes it with the left bower"),
        ("Jd", Suit.SPADES, "North takes it with J\u2666"),
        ("Th", Suit.SPADES, "North takes it with 10\u2665"),
    ],
)
def test_trick_winner(card: str, trump: Suit, text: str) -> None:
    assert phrases.announcement_text(TrickWon(0, C(card), 2), NAMES, trump=trump) == text


def test_benny_wins_by_name() -> None:
    assert phrases.announcement_text(TrickWon(2, BENNY, 0), NAMES, trump=Suit.CLUBS) == "South takes it with the Benny"


def test_renege_evidence_counts_tricks_from_one() -> None:
    text = "West showed out of hearts in trick 2, played 10\u2665 in trick 4"
    assert phrases.renege_evidence_text(EVIDENCE, NAMES) == text
    assert phrases.announcement_text(RenegeProven(3, EVIDENCE), NAMES) == f"Renege! {text}"
    spoken = phrases.speech_text(RenegeProven(3, EVIDENCE), NAMES)
    assert spoken == "Renege! West showed out of hearts in trick 2, played the ten of hearts in trick 4"


@pytest.mark.parametrize(
    ("prompt", "text"),
    [
        (Prompt(0, Expect.BID_ROUND_1, up_card=C("Jd")), "North: pass or order up J\u2666?"),
        (Prompt(2, Expect.BID_ROUND_2, up_card=C("Jd")), "South: pass or name trump (not \u2666)?"),
        (Prompt(3, Expect.DISCARD, up_card=C("Jd")), "West: pick up J\u2666 and discard a card"),
        (Prompt(1, Expect.LEAD), "East to lead"),
        (Prompt(1, Expect.FOLLOW, suit=Suit.SPADES), "East to play (\u2660 led)"),
        (Prompt(None, Expect.NEW_GAME), "Press New game to start"),
        (Prompt(None, Expect.RENEGE_DECISION), "Renege: accept the penalty or dismiss it"),
    ],
)
def test_prompts(prompt: Prompt, text: str) -> None:
    assert phrases.prompt_text(prompt, NAMES) == text


def test_every_expectation_has_words() -> None:
    for e in Expect:
        assert phrases.prompt_text(Prompt(0, e, up_card=C("9c"), suit=Suit.CLUBS), NAMES, dealer=3)


@pytest.mark.parametrize(
    ("made", "dealer", "text"),
    [
        (TrumpMade(0, Suit.DIAMONDS, False, 1), 3, "North orders it up: diamonds are trump"),
        (TrumpMade(3, Suit.DIAMONDS, True, 1), 3, "West picks it up and goes alone: diamonds are trump"),
        (TrumpMade(1, Suit.SPADES, False, 2), 3, "East names \u2660 spades"),
        (TrumpMade(1, None, False, 2), 3, "East names no trump"),
    ],
)
def test_trump_made(made: TrumpMade, dealer: int, text: str) -> None:
    assert phrases.announcement_text(made, NAMES, dealer=dealer) == text


@pytest.mark.parametrize(
    ("scored", "text"),
    [
        (HandScored((1, 0), (3, 2), 0, "made", (5, 2)), "North–South make it: North–South score 1"),
        (HandScored((0, 2), (2, 3), 0, "euchre", (4, 8)), "Euchred! East–West stop North–South: East–West score 2"),
        (
            HandScored((4, 0), (5, 0), 0, "lone_march", (8, 2)),
            "Lone march! North–South take all five: North–South score 4",
        ),
    ],
)
def test_hand_results(scored: HandScored, text: str) -> None:
    assert phrases.hand_result_text(scored, NAMES) == text


def test_irregularities_name_the_kind_the_seat_and_the_card() -> None:
    irr = Irregularity(IrregularityKind.CHECK_CARD, "read at 41% confidence", seat=1, card=C("Qs"))
    assert phrases.irregularity_text(irr, NAMES) == "Check this card: East Q\u2660 \u2014 read at 41% confidence"
    assert phrases.irregularity_text(Irregularity(IrregularityKind.OUT_OF_TURN, "South was to play"), NAMES) == (
        "Out of turn: South was to play"
    )
    for kind in IrregularityKind:
        assert phrases.irregularity_text(Irregularity(kind, ""), NAMES)


def test_the_engines_seat_numbers_read_as_the_tables_names() -> None:
    irr = Irregularity(IrregularityKind.CARD_UNSEEN, "seat 3's card in trick 1 went unseen; seat 1 leads", seat=3)
    assert phrases.irregularity_text(irr, NAMES) == (
        "A card went unseen: West \u2014 West's card in trick 1 went unseen; East leads"
    )
    assert phrases.with_seat_names("seat 0 played out of turn (seat 2 to play); seats 4", NAMES) == (
        "North played out of turn (South to play); seats 4"
    )


ALL: list[Announcement] = [
    Prompt(0, Expect.BID_ROUND_1, up_card=C("Jd")),
    TrumpMade(0, Suit.HEARTS, True, 1),
    WentAlone(1, defender=True),
    ThrownIn(dealer=3),
    TrickWon(2, C("Ah"), 1),
    RenegeProven(3, EVIDENCE),
    PenaltyApplied(3, (2, 0)),
    Irregularity(IrregularityKind.CHECK_CARD, "", seat=1, card=C("Qs")),
    HandScored((0, 2), (2, 3), 0, "euchre", (4, 8)),
    GameWon(1, (7, 10)),
]


@pytest.mark.parametrize("a", ALL, ids=lambda a: type(a).__name__)
def test_every_announcement_has_screen_words_and_speech_has_no_symbols(a: Announcement) -> None:
    assert phrases.announcement_text(a, NAMES, trump=Suit.HEARTS, dealer=3)
    spoken = phrases.speech_text(a, NAMES, trump=Suit.HEARTS, dealer=3)
    assert spoken is None or not set(spoken) & set(SUIT_SYMBOLS + "\u2013")
    assert not set(phrases.announcement_text(a, NAMES, voice=Voice.SPEECH, trump=Suit.HEARTS)) & set(SUIT_SYMBOLS)


def test_speech_says_the_moments_that_matter_and_keeps_quiet_about_the_rest() -> None:
    spoken = {type(a).__name__ for a in ALL if phrases.speech_text(a, NAMES, trump=Suit.HEARTS) is not None}
    assert {"TrickWon", "RenegeProven", "HandScored", "GameWon", "Irregularity", "TrumpMade"} <= spoken
    assert "Prompt" not in spoken
    plain = HandScored((1, 0), (3, 2), 0, "made", (5, 2))
    assert phrases.speech_text(plain, NAMES) is None
    assert phrases.speech_text(GameWon(1, (7, 10)), NAMES) == "East and West win the game, 10 to 7"
