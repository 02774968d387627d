"""Announcement wording shared by the screen and the speaker: literal cases."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from display import phrases
from display.i18n import using
from display.phrases import Voice
from display.typeface import SUIT_SYMBOLS
from table.announcements import (
    Announcement,
    CardSource,
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
from table.inputs import Discard, Input, Misdeal, NameTrump, OrderUp, Pass, Play, UpCard
from table.match import Match
from table.rules import BennyTurnedUp, Rules

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
    detail = "seat 3's card in trick 1 went unseen; seat 1 leads the next trick, so took this one"
    irr = Irregularity(IrregularityKind.CARD_UNSEEN, detail, seat=3, trick=0, leader=1)
    assert phrases.irregularity_text(irr, NAMES) == (
        "West's card in trick 1 went unseen; East leads the next trick, so took this one"
    )
    irr = Irregularity(IrregularityKind.NOT_ALLOWED, "seat 2 may not do that with Qs", seat=2, card=C("Qs"))
    assert phrases.irregularity_text(irr, NAMES) == "Not allowed: South may not do that with Q\u2660"
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


def test_a_check_is_said_with_its_two_readings_so_the_table_can_answer_from_its_seats() -> None:
    check = Irregularity(
        IrregularityKind.CHECK_CARD, "check seat 2's card", 2, C("Qs"), source=CardSource.PLAY, rival=C("Qc")
    )
    said = "Check this card, South: the queen of spades or the queen of clubs?"
    assert phrases.speech_text(check, NAMES) == said
    up = Irregularity(IrregularityKind.CHECK_CARD, "check the up-card", None, C("Jd"), source=CardSource.UP_CARD,
                      rival=C("Js"))  # fmt: skip
    assert phrases.speech_text(up, NAMES) == "Check the up-card: the jack of diamonds or the jack of spades?"
    two_ways = replace(check, rival=None, other_reading=C("Ks"))  # read as two cards at one seat
    assert phrases.speech_text(two_ways, NAMES) == "Check this card, South: the queen of spades or the king of spades?"
    assert phrases.speech_text(replace(check, rival=None), NAMES) == "Check this card, South"  # no other reading


def test_a_check_restated_with_its_readings_swapped_is_shown_but_not_said_again() -> None:
    check = Irregularity(
        IrregularityKind.CHECK_CARD, "check seat 2's card: read as Kd with low confidence, perhaps Ks", 2, C("Kd"),
        source=CardSource.PLAY, rival=C("Ks"),
    )  # fmt: skip
    assert phrases.speech_text(check, NAMES) is not None
    restated = replace(check, restated=True)
    assert phrases.speech_text(restated, NAMES) is None
    assert phrases.irregularity_text(restated, NAMES) == phrases.irregularity_text(check, NAMES)


def test_speech_says_the_moments_that_matter_and_keeps_quiet_about_the_rest() -> None:
    spoken = {type(a).__name__ for a in ALL if phrases.speech_text(a, NAMES, trump=Suit.HEARTS) is not None}
    assert {"TrickWon", "RenegeProven", "HandScored", "GameWon", "Irregularity", "TrumpMade"} <= spoken
    assert "Prompt" not in spoken
    plain = HandScored((1, 0), (3, 2), 0, "made", (5, 2))
    assert phrases.speech_text(plain, NAMES) is None
    assert phrases.speech_text(GameWon(1, (7, 10)), NAMES) == "East and West win the game, 10 to 7"


# Each kind of irregularity as the engine raises it at a real table (dealer North; East bids first).
_DEALT = (UpCard(C("9h")), OrderUp(1), Discard(0, C("9c")))
_TURNED_DOWN = (UpCard(C("9h")), Pass(1), Pass(2), Pass(3), Pass(0), NameTrump(1, Suit.SPADES))
ENGINE_IRREGULARITIES: list[tuple[str, tuple[Input, ...], str]] = [
    ("out of turn", (*_DEALT, Play(1, C("Ah")), Play(3, C("Qs"))), "Out of turn: West played Q\u2660 (South to play)"),
    (
        "played twice",
        (*_DEALT, Play(1, C("Ah")), Play(1, C("Ks"))),
        "Out of turn: East already played to trick 1; K\u2660 ignored",
    ),
    (
        "read two ways",
        (*_DEALT, Play(1, C("Ah")), Play(1, C("Kh"), 0.9)),
        "Check East's card: read as A\u2665 and as K\u2665",
    ),
    (
        "lone partner",
        (UpCard(C("9h")), OrderUp(1, True), Discard(0, C("9c")), Play(1, C("Ah")), Play(3, C("Kh"))),
        "Lone player's partner: West played K\u2665 while East is alone; card ignored",
    ),
    (
        "duplicate",
        (*_DEALT, Play(1, C("Ah")), Play(2, C("Ah"))),
        "Duplicate card: South played A\u2665, already seen this hand",
    ),
    ("not in deck", (*_DEALT, Play(1, C("8h"))), "Not in this 24-card deck: East played 8\u2665"),
    (
        "turned-down up-card",
        (*_TURNED_DOWN, Play(1, C("9h"))),
        "Up-card: East played 9\u2665, which was turned down",
    ),
    ("dealer's up-card", (*_DEALT, Play(1, C("9h"))), "Up-card: East played 9\u2665, which the dealer took"),
    (
        "play in bidding",
        (UpCard(C("9h")), Play(2, C("Ah"))),
        "Too early: South played A\u2665 before the bidding ended",
    ),
    ("play before up-card", (Play(2, C("Ah")),), "Too early: South played A\u2665 before the up-card was turned"),
    ("bid out of turn", (UpCard(C("9h")), Pass(3)), "Out of turn: West bid (East to bid)"),
    ("bid before up-card", (Pass(1),), "Too early: East bid before the up-card was turned"),
    (
        "check a card",
        (*_DEALT, Play(1, C("Ah"), 0.3)),
        "Check East's card: read as A\u2665 with low confidence, perhaps A\u2666",
    ),
    (
        "check the up-card",
        (UpCard(C("9h"), 0.3),),
        "Check the up-card: read as 9\u2665 with low confidence, perhaps 9\u2666",
    ),
    (
        "card unseen",
        (*_DEALT, Play(1, C("Ah")), Play(2, C("Kh")), Play(3, C("Qh")), Play(1, C("As"))),
        "North's card in trick 1 went unseen; East leads the next trick, so took this one",
    ),
    (
        "deal unseen",
        (UpCard(C("9h"), unseen_deals=1),),
        "North's deal went by unseen: no up-card was seen; not scored: check the score",
    ),
    (
        "hand unfinished",
        (*_DEALT, Play(1, C("Ah")), UpCard(C("Ts"), next_deal=True)),
        "Hand not seen to the end: the next up-card came after 0 of 5 tricks; not scored: check the score",
    ),
    ("misdeal", (*_DEALT, Misdeal()), "Misdeal: North's deal is void; North deals again"),
    ("not allowed", (UpCard(C("9h")), OrderUp(1), OrderUp(2)), "Not allowed: South \u2014 bidding is over"),
    ("no deal to void", (Misdeal(),), "Not allowed: a misdeal, but no deal is in progress: North deals next"),
]


NA = Rules.preset("north_american")


def _irregularities(inputs: tuple[Input, ...], rules: Rules = NA) -> list[Irregularity]:
    match = Match(rules, first_dealer=0)
    return [a for inp in inputs for a in match.apply(inp) if isinstance(a, Irregularity)]


@pytest.mark.parametrize(
    ("inputs", "text"), [c[1:] for c in ENGINE_IRREGULARITIES], ids=[c[0] for c in ENGINE_IRREGULARITIES]
)
def test_each_irregularity_the_engine_raises_reads_as_one_sentence(inputs: tuple[Input, ...], text: str) -> None:
    [irr] = _irregularities(inputs)
    assert phrases.irregularity_text(irr, NAMES) == text


def _two_word_phrases(text: str) -> list[tuple[str, str]]:
    words = re.findall(r"[\w'\u2660\u2663\u2665\u2666]+", text.lower())
    return list(zip(words, words[1:], strict=False))


@pytest.mark.parametrize("inputs", [c[1] for c in ENGINE_IRREGULARITIES], ids=[c[0] for c in ENGINE_IRREGULARITIES])
def test_an_irregularity_says_each_thing_once(inputs: tuple[Input, ...]) -> None:
    [irr] = _irregularities(inputs)
    text = phrases.irregularity_text(irr, NAMES)
    pairs = _two_word_phrases(text)
    assert len(pairs) == len(set(pairs)), text  # "out of turn ... out of turn" and the like
    assert not re.search(r"\bseat [0-3]\b", text), text
    if irr.card is not None:
        assert text.count(irr.card.label) == 1 and not re.search(rf"\b{irr.card}\b", text), text
    spoken = phrases.irregularity_text(irr, NAMES, Voice.SPEECH)
    assert not set(spoken) & set(SUIT_SYMBOLS), spoken


def test_a_doubtful_card_names_its_twin_in_the_tables_language_and_voice() -> None:
    [irr] = _irregularities((*_DEALT, Play(1, C("Qs"), 0.3)))
    assert phrases.irregularity_text(irr, NAMES, Voice.SPEECH).endswith("perhaps the queen of clubs")
    with using("da"):
        danish = phrases.irregularity_text(irr, NAMES)
    assert danish == "Se efter Easts kort: læst som Q\u2660, men usikkert, måske Q\u2663"


def test_a_doubtful_card_names_the_cameras_other_reading_where_it_gave_one() -> None:
    [irr] = _irregularities((*_DEALT, Play(1, C("Kd"), 0.3, rival=C("Ks"))))
    said = phrases.irregularity_text(irr, NAMES)
    assert said == "Check East's card: read as K\u2666 with low confidence, perhaps K\u2660"  # not the twin, K\u2665
    [irr] = _irregularities((UpCard(C("9h"), 0.3, rival=C("Th")),))
    assert phrases.irregularity_text(irr, NAMES, Voice.SPEECH).endswith("perhaps the ten of hearts")


def test_a_doubtful_card_whose_other_reading_was_already_seen_says_so_not_perhaps() -> None:
    """The engine takes a check of a card already played surely as the camera's other reading (one card is not
    played twice); the sentence says what the card is taken as and why, not "read as ..., perhaps" a card
    that cannot be it."""
    match = Match(NA, first_dealer=0)
    for inp in (*_DEALT, Play(1, C("Ks"))):
        match.apply(inp)
    play = match.play_seen(C("Ks"), 0.3, 2, rival=C("Kd"))  # South's card, read as the king East played
    assert play == Play(2, C("Kd"), 0.3, rival=C("Ks"))
    [irr] = [a for a in match.apply(play) if isinstance(a, Irregularity)]
    assert irr.rival_shown
    assert phrases.irregularity_text(irr, NAMES) == "Check South's card: taken as K\u2666, as K\u2660 was already seen"
    assert phrases.irregularity_text(irr, NAMES, Voice.SPEECH).endswith("as the king of spades was already seen")
    with using("da"):
        danish = phrases.irregularity_text(irr, NAMES)
    assert danish == "Se efter Souths kort: taget som K\u2666, da K\u2660 allerede er set"
    # the same reading where the king of spades is not out yet: as before
    fresh = Match(NA, first_dealer=0)
    for inp in _DEALT:
        fresh.apply(inp)
    [irr] = [a for a in fresh.apply(Play(1, C("Kd"), 0.3, rival=C("Ks"))) if isinstance(a, Irregularity)]
    assert not irr.rival_shown
    assert phrases.irregularity_text(irr, NAMES).endswith("read as K\u2666 with low confidence, perhaps K\u2660")


def test_a_nines_and_tens_redeal_names_the_seat_that_claimed_it() -> None:
    rules = replace(NA, nines_and_tens=True)
    [irr] = _irregularities((UpCard(C("9h")), Misdeal(2)), rules)
    assert phrases.irregularity_text(irr, NAMES) == (
        "Misdeal: South declared a hand of nines and tens; North's deal is void, North deals again"
    )


def test_a_misdeal_scores_nothing_and_is_said_once() -> None:
    announced = Match(NA, first_dealer=0)
    news = [a for inp in (*_DEALT, Misdeal()) for a in announced.apply(inp)]
    [scored] = [a for a in news if isinstance(a, HandScored)]
    assert scored.reason == "misdeal" and scored.points == (0, 0)
    assert phrases.hand_result_text(scored, NAMES) == "Misdeal: the deal is void, not scored"
    spoken = [t for a in news if (t := phrases.speech_text(a, NAMES)) is not None]
    assert spoken == ["East orders it up: hearts are trump", "Misdeal: North's deal is void; North deals again"]


# Where the card came from and the deck size, for the cards the engine checks beyond the table above.
_SET_ASIDE = replace(Rules.preset("british"), benny_turned_up=BennyTurnedUp.SET_ASIDE)
_PLAYS_BEFORE_UP_CARD = (Play(1, C("Ah")), Play(2, C("Kh")), Play(3, C("Qh")), Play(0, C("Th")), Play(1, C("As")))
MORE_ENGINE_IRREGULARITIES: list[tuple[str, Rules, tuple[Input, ...], str]] = [
    (
        "check a Benny up-card (no twin to name)",
        Rules.preset("british"),
        (UpCard(BENNY, 0.3),),
        "Check the up-card: read as Benny with low confidence",
    ),
    (
        "duplicate up-card",
        _SET_ASIDE,
        (UpCard(BENNY), UpCard(BENNY)),
        "Duplicate card: the up-card Benny, already seen this hand",
    ),
    (
        "duplicate discard",
        _SET_ASIDE,
        (UpCard(BENNY), UpCard(C("9h")), OrderUp(1), Discard(0, BENNY)),
        "Duplicate card: North discarded Benny, already seen this hand",
    ),
    (
        "up-card not in deck",
        Rules.preset("british"),
        (UpCard(C("8h")),),
        "Not in this 25-card deck: the up-card 8\u2665",
    ),
    (
        "discard not in deck",
        NA,
        (UpCard(C("9h")), OrderUp(1), Discard(0, C("8h"))),
        "Not in this 24-card deck: North discarded 8\u2665",
    ),
    (
        "deal unseen after five cards",
        NA,
        (*_PLAYS_BEFORE_UP_CARD, UpCard(C("9h"), unseen_deals=1)),
        "North's deal went by unseen: 5 cards were played before an up-card was seen; not scored: check the score",
    ),
]


@pytest.mark.parametrize(
    ("rules", "inputs", "text"),
    [c[1:] for c in MORE_ENGINE_IRREGULARITIES],
    ids=[c[0] for c in MORE_ENGINE_IRREGULARITIES],
)
def test_each_card_the_engine_checks_reads_as_one_sentence(rules: Rules, inputs: tuple[Input, ...], text: str) -> None:
    irr = _irregularities(inputs, rules)[-1]
    assert phrases.irregularity_text(irr, NAMES) == text


_WORDED_BY_DETAIL = {IrregularityKind.NOT_ALLOWED, IrregularityKind.HAND_UNFINISHED}  # the detail is the sentence
_FROM_FIELDS = [(c[0], NA, c[1]) for c in ENGINE_IRREGULARITIES] + [c[:3] for c in MORE_ENGINE_IRREGULARITIES]


@pytest.mark.parametrize(("rules", "inputs"), [c[1:] for c in _FROM_FIELDS], ids=[c[0] for c in _FROM_FIELDS])
def test_the_words_come_from_the_fields_not_the_detail(rules: Rules, inputs: tuple[Input, ...]) -> None:
    irr = _irregularities(inputs, rules)[-1]
    reworded = replace(irr, detail="seat 1 wrote this; nothing here is parsed")
    if irr.kind in _WORDED_BY_DETAIL:  # these kinds have no fields to word: their detail is shown
        assert phrases.irregularity_text(reworded, NAMES) != phrases.irregularity_text(irr, NAMES)
        return
    for voice in Voice:
        assert phrases.irregularity_text(reworded, NAMES, voice) == phrases.irregularity_text(irr, NAMES, voice)
    assert phrases.speech_text(reworded, NAMES) == phrases.speech_text(irr, NAMES)


def test_a_detail_without_the_fields_is_shown_not_parsed() -> None:
    """An Irregularity made with only a detail (older code, a hand-written test) reads as the kind's title and it."""
    irr = Irregularity(IrregularityKind.OUT_OF_TURN, "seat 3 played out of turn (seat 2 to play)", 3, C("Qs"))
    assert (
        phrases.irregularity_text(irr, NAMES) == "Out of turn: Q\u2660 \u2014 West played out of turn (South to play)"
    )
    assert phrases.irregularity_text(replace(irr, turn=2), NAMES) == "Out of turn: West played Q\u2660 (South to play)"
    misdeal = Irregularity(IrregularityKind.MISDEAL, "the table declared a misdeal: seat 0's deal is void")
    assert phrases.irregularity_text(misdeal, NAMES) == "Misdeal: the table declared a misdeal: North's deal is void"
