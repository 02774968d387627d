"""Words for the table: announcements, prompts and renege evidence as text for the screen and for speech.

Pure functions of engine values and seat names, shared by the scoreboard and
the speaker so both say the same thing. `Voice.SCREEN` writes cards with suit
symbols ("10♥"); `Voice.SPEECH` spells them out ("the ten of hearts") for
espeak-ng, which reads symbols badly. Tricks are 0-based in the engine and
1-based here, as players count them.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Sequence

from table.announcements import (
    Announcement,
    Expect,
    GameDrawn,
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
from table.cards import Card, Suit
from table.trump import is_left_bower, is_right_bower


class Voice(enum.Enum):
    SCREEN = "screen"
    SPEECH = "speech"


def team_name(names: Sequence[str], team: int) -> str:
    """ "North–South" for team 0 with the default names."""
    return f"{names[team]}\u2013{names[team + 2]}"


def _team_spoken(names: Sequence[str], team: int) -> str:
    return f"{names[team]} and {names[team + 2]}"


def _team(names: Sequence[str], team: int, voice: Voice) -> str:
    return team_name(names, team) if voice is Voice.SCREEN else _team_spoken(names, team)


def card_text(card: Card, voice: Voice = Voice.SCREEN) -> str:
    """ "J♦" on screen, "the jack of diamonds" spoken."""
    if voice is Voice.SCREEN:
        return card.label
    return card.name if card.is_benny else f"the {card.name}"


def suit_text(suit: Suit | None, voice: Voice = Voice.SCREEN) -> str:
    if suit is None:
        return "no trump"
    return f"{suit.symbol} {suit.noun}" if voice is Voice.SCREEN else suit.noun


def trick_card_text(card: Card, trump: Suit | None, voice: Voice = Voice.SCREEN) -> str:
    """A winning card as players name it: the bowers and the Benny by their names."""
    if card.is_benny:
        return "the Benny"
    if is_right_bower(card, trump):
        return "the right bower"
    if is_left_bower(card, trump):
        return "the left bower"
    return card_text(card, voice)


def prompt_text(prompt: Prompt, names: Sequence[str], dealer: int | None = None, voice: Voice = Voice.SCREEN) -> str:
    """Whose turn and what is expected: "North: pass or order up J♦?"."""
    who = names[prompt.seat] if prompt.seat is not None else "Table"
    up = card_text(prompt.up_card, voice) if prompt.up_card is not None else "the up-card"
    e = prompt.expected
    if e is Expect.NEW_GAME:
        return "Press New game to start"
    if e is Expect.UP_CARD:
        deals = f"{names[dealer]} deals" if dealer is not None else "Deal"
        return f"{deals}: turn up the top card of the kitty"
    if e is Expect.BID_ROUND_1:
        return f"{who}: pass or order up {up}?"
    if e is Expect.BID_ROUND_2:
        turned_down = prompt.up_card.suit if prompt.up_card is not None else None
        if turned_down is None:
            return f"{who}: pass or name trump?"
        not_this = turned_down.symbol if voice is Voice.SCREEN else turned_down.noun
        return f"{who}: pass or name trump (not {not_this})?"
    if e is Expect.NAME_TRUMP_BLIND:
        return f"{who}: the Benny is up, name trump"
    if e is Expect.DISCARD:
        return f"{who}: pick up {up} and discard a card"
    if e is Expect.GO_ALONE:
        return f"Anyone going alone? Then {who} leads" if prompt.seat is not None else "Anyone going alone?"
    if e is Expect.LEAD:
        return f"{who} to lead"
    if e is Expect.FOLLOW:
        led = ""
        if prompt.suit is not None:
            led = f" ({prompt.suit.symbol if voice is Voice.SCREEN else prompt.suit.noun} led)"
        return f"{who} to play{led}"
    if e is Expect.RENEGE_DECISION:
        return "Renege: accept the penalty or dismiss it"
    return who


def renege_evidence_text(evidence: RenegeEvidence, names: Sequence[str], voice: Voice = Voice.SCREEN) -> str:
    """ "West showed out of hearts in trick 2, played 10♥ in trick 4"."""
    return (
        f"{names[evidence.seat]} showed out of {evidence.suit.noun} in trick {evidence.showed_out_trick + 1}, "
        f"played {card_text(evidence.proof_card, voice)} in trick {evidence.proof_trick + 1}"
    )


_IRREGULARITY_TITLE = {
    IrregularityKind.OUT_OF_TURN: "Out of turn",
    IrregularityKind.LONE_PARTNER_PLAYED: "Lone player's partner",
    IrregularityKind.DUPLICATE_CARD: "Duplicate card",
    IrregularityKind.NOT_IN_DECK: "Card not in this deck",
    IrregularityKind.PLAY_BEFORE_BIDDING_ENDED: "Too early",
    IrregularityKind.BID_OUT_OF_TURN: "Bid out of turn",
    IrregularityKind.NOT_ALLOWED: "Not allowed",
    IrregularityKind.CHECK_CARD: "Check this card",
    IrregularityKind.UP_CARD_PLAYED: "Up-card",
    IrregularityKind.SUSPECTED_RENEGE: "Possible renege",
    IrregularityKind.HAND_UNFINISHED: "Hand not seen to the end",
    IrregularityKind.DEAL_UNSEEN: "A deal went by unseen",
    IrregularityKind.CARD_UNSEEN: "A card went unseen",
    IrregularityKind.MISDEAL: "Misdeal",
}

_DID = {"card": "played", "discard": "discarded"}  # the engine's name for where a card appeared -> the verb


def _up_card_or_play(what: str, who: str, card: str) -> str:
    """ "the up-card 9♥" / "West played 9♥" / "West discarded 9♥" (``what``: the engine's up-card, card, discard)."""
    if what == "up-card":
        return f"the up-card {card}"
    return f"{who or 'a player'} {_DID.get(what, 'played')} {card}"


# The engine's details, reworded per kind so that the banner says each thing once: (kind, the detail's
# pattern, the words). The words get the match, the seat names, and who and which card (``who``, ``card``,
# in the voice asked for); a detail that no pattern fits is shown as the engine wrote it.
_Words = Callable[[re.Match[str], Sequence[str], str, str], str]
_SEAT = r"seat ([0-3])"
_CODE = r"\S+"  # a card as the engine writes it ("Qs"); the words use the Irregularity's own card
_REWORDED: tuple[tuple[IrregularityKind, re.Pattern[str], _Words], ...] = tuple(
    (kind, re.compile(pattern), words)
    for kind, pattern, words in (
        (
            IrregularityKind.OUT_OF_TURN,
            rf"{_SEAT} played out of turn \({_SEAT} to play\)",
            lambda m, n, who, card: f"Out of turn: {n[int(m[1])]} played {card} ({n[int(m[2])]} to play)",
        ),
        (
            IrregularityKind.OUT_OF_TURN,
            rf"{_SEAT} already played to trick (\d+); card ignored",
            lambda m, n, who, card: f"Out of turn: {n[int(m[1])]} already played to trick {m[2]}; {card} ignored",
        ),
        (
            IrregularityKind.LONE_PARTNER_PLAYED,
            rf"{_SEAT}'s partner is alone; card ignored",
            lambda m, n, who, card: (
                f"Lone player's partner: {n[int(m[1])]} played {card} while {n[(int(m[1]) + 2) % 4]} is alone; "
                "card ignored"
            ),
        ),
        (
            IrregularityKind.DUPLICATE_CARD,
            rf"(up-card|card|discard) {_CODE} was already seen this hand",
            lambda m, n, who, card: f"Duplicate card: {_up_card_or_play(m[1], who, card)}, already seen this hand",
        ),
        (
            IrregularityKind.NOT_IN_DECK,
            rf"(up-card|card|discard) {_CODE} is not in an? (\d+)-card deck",
            lambda m, n, who, card: f"Not in this {m[2]}-card deck: {_up_card_or_play(m[1], who, card)}",
        ),
        (
            IrregularityKind.UP_CARD_PLAYED,
            rf"(card|discard) {_CODE} is the up-card that was turned down",
            lambda m, n, who, card: f"Up-card: {_up_card_or_play(m[1], who, card)}, which was turned down",
        ),
        (
            IrregularityKind.UP_CARD_PLAYED,
            rf"{_CODE} is the up-card the dealer took",
            lambda m, n, who, card: f"Up-card: {who or 'a player'} played {card}, which the dealer took",
        ),
        (
            IrregularityKind.PLAY_BEFORE_BIDDING_ENDED,
            r"a card was played before (?:the )?(up-card was turned|bidding ended)",
            lambda m, n, who, card: f"Too early: {who or 'a player'} played {card} before the {m[1]}",
        ),
        (
            IrregularityKind.BID_OUT_OF_TURN,
            rf"{_SEAT} bid out of turn \({_SEAT} to bid\)",
            lambda m, n, who, card: f"Out of turn: {n[int(m[1])]} bid ({n[int(m[2])]} to bid)",
        ),
        (
            IrregularityKind.BID_OUT_OF_TURN,
            r"a bid before the up-card was turned",
            lambda m, n, who, card: f"Too early: {who or 'a player'} bid before the up-card was turned",
        ),
        (
            IrregularityKind.CHECK_CARD,
            rf"check {_SEAT}'s card: read as {_CODE} with low confidence",
            lambda m, n, who, card: f"Check {n[int(m[1])]}'s card: read as {card} with low confidence",
        ),
        (
            IrregularityKind.CHECK_CARD,
            rf"check the up-card: read as {_CODE} with low confidence",
            lambda m, n, who, card: f"Check the up-card: read as {card} with low confidence",
        ),
        (
            IrregularityKind.CARD_UNSEEN,
            rf"{_SEAT}'s card in trick (\d+) went unseen; (.*)",
            lambda m, n, who, card: f"{n[int(m[1])]}'s card in trick {m[2]} went unseen; {with_seat_names(m[3], n)}",
        ),
        (
            IrregularityKind.DEAL_UNSEEN,
            rf"(.*): {_SEAT}'s deal went by unseen; (.*)",
            lambda m, n, who, card: (
                f"{n[int(m[2])]}'s deal went by unseen: {with_seat_names(m[1], n)}; {with_seat_names(m[3], n)}"
            ),
        ),
        (
            IrregularityKind.MISDEAL,
            rf"the table declared a misdeal: {_SEAT}'s deal is void and {_SEAT} deals again",
            lambda m, n, who, card: f"Misdeal: {n[int(m[1])]}'s deal is void; {n[int(m[2])]} deals again",
        ),
        (
            IrregularityKind.MISDEAL,
            rf"{_SEAT} declared a hand of nines and tens: {_SEAT}'s deal is void and {_SEAT} deals again",
            lambda m, n, who, card: (
                f"Misdeal: {n[int(m[1])]} declared a hand of nines and tens; {n[int(m[2])]}'s deal is void, "
                f"{n[int(m[3])]} deals again"
            ),
        ),
    )
)


def irregularity_text(irr: Irregularity, names: Sequence[str], voice: Voice = Voice.SCREEN) -> str:
    """One sentence that says each thing once: "Out of turn: West played Q♠ (South to play)".

    The engine's detail for the kind is reworded with the seats' names and the card as players write
    it. A detail no rewording knows is shown after the kind's title, with who and which card where the
    detail does not already name them: "Not allowed: East — bidding is over".
    """
    who = names[irr.seat] if irr.seat is not None else ""
    card = card_text(irr.card, voice) if irr.card is not None else ""
    for kind, pattern, words in _REWORDED:
        found = pattern.fullmatch(irr.detail) if kind is irr.kind else None
        if found is not None:
            return words(found, names, who, card or "a card")
    title = _IRREGULARITY_TITLE.get(irr.kind, irr.kind.value.replace("_", " ").capitalize())
    detail = with_seat_names(irr.detail, names)
    if irr.card is not None:
        detail = re.sub(rf"\b{re.escape(str(irr.card))}\b", card, detail)
    missing = " ".join(part for part in (who, card) if part and part not in detail)
    if missing and detail:
        return f"{title}: {missing} \u2014 {detail}"
    return f"{title}: {missing or detail}" if missing or detail else title


_SEAT_NUMBER = re.compile(r"\bseat ([0-3])\b")


def with_seat_names(detail: str, names: Sequence[str]) -> str:
    """The engine's detail with its "seat 2" written as the table calls that seat ("South")."""
    return _SEAT_NUMBER.sub(lambda m: names[int(m.group(1))], detail)


_HAND_RESULT = {
    "made": "{makers} make it",
    "march": "March! {makers} take all five",
    "lone_march": "Lone march! {makers} take all five",
    "blind_lone": "Blind lone march! {makers} take all five",
    "euchre": "Euchred! {defenders} stop {makers}",
    "lone_euchre": "Euchred! {defenders} stop the lone hand",
    "blind_lone_euchre": "Euchred! {defenders} stop the blind lone hand",
    "lone_defender": "Lone defender! {defenders} stop {makers}",
    "super_euchre": "Super euchre! {defenders} take all five",
    "renege": "Renege penalty",
    "renege_replay": "Renege: the hand is played again",
    "unfinished": "Hand not seen to the end: not scored, check the score",
    "unseen": "A deal went by unseen: not scored, check the score",
    "misdeal": "Misdeal: the deal is void, not scored",
}
EUCHRE_REASONS = frozenset({"euchre", "lone_euchre", "blind_lone_euchre", "lone_defender", "super_euchre"})
MARCH_REASONS = frozenset({"march", "lone_march", "blind_lone"})


def hand_result_text(scored: HandScored, names: Sequence[str], voice: Voice = Voice.SCREEN) -> str:
    """ "Euchred! East–West stop North–South: East–West score 2"."""
    makers = _team(names, scored.makers, voice)
    defenders = _team(names, 1 - scored.makers, voice)
    head = _HAND_RESULT.get(scored.reason, "{makers} score").format(makers=makers, defenders=defenders)
    gains = [f"{_team(names, t, voice)} score {scored.points[t]}" for t in (0, 1) if scored.points[t]]
    return f"{head}: {', '.join(gains)}" if gains else head


def trump_made_text(
    made: TrumpMade, names: Sequence[str], dealer: int | None = None, voice: Voice = Voice.SCREEN
) -> str:
    who = names[made.seat]
    alone = " and goes alone" if made.alone else ""
    if made.round == 0:
        return f"{who} names {suit_text(made.suit, voice)}{alone}"
    if made.round == 1:
        verb = "picks it up" if dealer == made.seat else "orders it up"
        trump = f": {made.suit.noun} are trump" if made.suit is not None else ""
        return f"{who} {verb}{alone}{trump}"
    return f"{who} names {suit_text(made.suit, voice)}{alone}"


def announcement_text(
    a: Announcement,
    names: Sequence[str],
    *,
    trump: Suit | None = None,
    dealer: int | None = None,
    voice: Voice = Voice.SCREEN,
) -> str:
    """One line for an announcement; `trump` names the bowers, `dealer` says "picks it up"."""
    if isinstance(a, Prompt):
        return prompt_text(a, names, dealer, voice)
    if isinstance(a, TrumpMade):
        return trump_made_text(a, names, dealer, voice)
    if isinstance(a, WentAlone):
        return f"{names[a.seat]} {'defends' if a.defender else 'goes'} alone"
    if isinstance(a, ThrownIn):
        return f"Everyone passed: thrown in. {names[(a.dealer + 1) % 4]} deals next"
    if isinstance(a, TrickWon):
        return f"{names[a.seat]} takes it with {trick_card_text(a.card, trump, voice)}"
    if isinstance(a, RenegeProven):
        return f"Renege! {renege_evidence_text(a.evidence, names, voice)}"
    if isinstance(a, PenaltyApplied):
        gains = [f"{_team(names, t, voice)} score {a.points[t]}" for t in (0, 1) if a.points[t]]
        return f"Renege penalty on {names[a.offender_seat]}: {', '.join(gains) or 'no points'}"
    if isinstance(a, Irregularity):
        return irregularity_text(a, names, voice)
    if isinstance(a, HandScored):
        return hand_result_text(a, names, voice)
    if isinstance(a, GameWon):
        hi, lo = a.score[a.team], a.score[1 - a.team]
        return f"{_team(names, a.team, voice)} win the game, {hi} to {lo}"
    if isinstance(a, GameDrawn):
        return f"The game ends level, {a.score[0]} all"
    raise TypeError(f"announcement_text: not an announcement: {a!r}")


def misdeal_question(dealer: int, names: Sequence[str]) -> str:
    """What the screen asks after one press of Misdeal, before ``dealer``'s deal is voided."""
    return f"Misdeal? Press again to void {names[dealer]}'s deal, anything else to play on"


_SPOKEN_REASONS = EUCHRE_REASONS | MARCH_REASONS | {"renege", "renege_replay"}


def speech_text(
    a: Announcement, names: Sequence[str], *, trump: Suit | None = None, dealer: int | None = None
) -> str | None:
    """What the speaker says for an announcement, or None for those it keeps quiet about.

    Spoken: trump made, trick winners, reneges, euchres, marches, the game won, a misdeal (like a
    hand replayed for a renege, the deal is void and who deals again matters), and "check this card"
    (it needs someone to look at the table).
    """
    if isinstance(a, TrickWon):
        return f"{names[a.seat]} takes the trick"
    if isinstance(a, RenegeProven):
        return f"Renege! {renege_evidence_text(a.evidence, names, Voice.SPEECH)}"
    if isinstance(a, HandScored):
        return hand_result_text(a, names, Voice.SPEECH) if a.reason in _SPOKEN_REASONS else None
    if isinstance(a, Irregularity):
        if a.kind is IrregularityKind.MISDEAL:
            return irregularity_text(a, names, Voice.SPEECH)
        if a.kind is not IrregularityKind.CHECK_CARD:
            return None
        return f"Check this card, {names[a.seat]}" if a.seat is not None else "Check this card"
    if isinstance(a, TrumpMade | GameWon | GameDrawn | WentAlone):
        return announcement_text(a, names, trump=trump, dealer=dealer, voice=Voice.SPEECH)
    return None
