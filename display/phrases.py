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
    CardSource,
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


def prompt_text(
    prompt: Prompt,
    names: Sequence[str],
    dealer: int | None = None,
    voice: Voice = Voice.SCREEN,
    stuck: bool = False,
    alone: bool = False,
) -> str:
    """Whose turn and what is expected: "North: pass or order up J♦?".

    ``stuck``: the dealer in round 2 under stick the dealer, who may not pass ("West: name trump, stuck (not ♦)").
    ``alone``: the dealer's partner in round 1 where ordering up means playing alone ("pass or order up J♦ alone?").
    """
    who = names[prompt.seat] if prompt.seat is not None else "Table"
    up = card_text(prompt.up_card, voice) if prompt.up_card is not None else "the up-card"
    e = prompt.expected
    if e is Expect.NEW_GAME:
        return "Press New game to start"
    if e is Expect.UP_CARD:
        deals = f"{names[dealer]} deals" if dealer is not None else "Deal"
        return f"{deals}: turn up the top card of the kitty"
    if e is Expect.BID_ROUND_1:
        return f"{who}: pass or order up {up}{' alone' if alone else ''}?"
    if e is Expect.BID_ROUND_2:
        turned_down = prompt.up_card.suit if prompt.up_card is not None else None
        ask = "name trump, stuck" if stuck else "pass or name trump"
        if turned_down is None:
            return f"{who}: {ask}?" if not stuck else f"{who}: {ask}"
        not_this = turned_down.symbol if voice is Voice.SCREEN else turned_down.noun
        return f"{who}: {ask} (not {not_this})" + ("" if stuck else "?")
    if e is Expect.NAME_TRUMP_BLIND:
        return f"{who}: name trump, unseen"
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

# Each kind's words, from the values the engine puts in the Irregularity's fields (never from its detail,
# which is for logs and EGN). Each gets the irregularity, the seat names, and who and which card in the
# voice asked for; it returns None where a field it needs is absent (an Irregularity made with only a
# detail), and the detail is then shown after the kind's title.
_Words = Callable[[Irregularity, Sequence[str], str, str], str | None]


def _card_seen(source: CardSource, who: str, card: str) -> str:
    """ "the up-card 9♥" / "West played 9♥" / "West discarded 9♥"."""
    if source is CardSource.UP_CARD:
        return f"the up-card {card}"
    return f"{who or 'a player'} {'discarded' if source is CardSource.DISCARD else 'played'} {card}"


def _out_of_turn(irr: Irregularity, names: Sequence[str], who: str, card: str) -> str | None:
    if irr.seat is None:
        return None
    if irr.turn is not None:
        return f"Out of turn: {who} played {card} ({names[irr.turn]} to play)"
    if irr.trick is not None:
        return f"Out of turn: {who} already played to trick {irr.trick + 1}; {card} ignored"
    return None


def _lone_partner(irr: Irregularity, names: Sequence[str], who: str, card: str) -> str | None:
    if irr.seat is None:
        return None
    return f"Lone player's partner: {who} played {card} while {names[(irr.seat + 2) % 4]} is alone; card ignored"


def _duplicate(irr: Irregularity, names: Sequence[str], who: str, card: str) -> str | None:
    if irr.source is None:
        return None
    return f"Duplicate card: {_card_seen(irr.source, who, card)}, already seen this hand"


def _not_in_deck(irr: Irregularity, names: Sequence[str], who: str, card: str) -> str | None:
    if irr.source is None or irr.deck_size is None:
        return None
    return f"Not in this {irr.deck_size}-card deck: {_card_seen(irr.source, who, card)}"


def _up_card_played(irr: Irregularity, names: Sequence[str], who: str, card: str) -> str | None:
    if irr.up_card_taken:
        return f"Up-card: {who or 'a player'} played {card}, which the dealer took"
    if irr.up_card_taken is None or irr.source is None or irr.source is CardSource.UP_CARD:
        return None
    return f"Up-card: {_card_seen(irr.source, who, card)}, which was turned down"


def _too_early(irr: Irregularity, names: Sequence[str], who: str, card: str) -> str | None:
    if irr.before_up_card is None:
        return None
    before = "up-card was turned" if irr.before_up_card else "bidding ended"
    return f"Too early: {who or 'a player'} played {card} before the {before}"


def _bid_out_of_turn(irr: Irregularity, names: Sequence[str], who: str, card: str) -> str | None:
    if irr.seat is not None and irr.turn is not None:
        return f"Out of turn: {who} bid ({names[irr.turn]} to bid)"
    if irr.before_up_card:
        return f"Too early: {who or 'a player'} bid before the up-card was turned"
    return None


def _check_card(irr: Irregularity, names: Sequence[str], who: str, card: str) -> str | None:
    if irr.source is CardSource.UP_CARD:
        return f"Check the up-card: read as {card} with low confidence"
    if irr.source is CardSource.PLAY and irr.seat is not None:
        return f"Check {who}'s card: read as {card} with low confidence"
    return None


def _card_unseen(irr: Irregularity, names: Sequence[str], who: str, card: str) -> str | None:
    if irr.seat is None or irr.trick is None or irr.leader is None:
        return None
    return (
        f"{who}'s card in trick {irr.trick + 1} went unseen; {names[irr.leader]} leads the next trick, so took this one"
    )


def _deal_unseen(irr: Irregularity, names: Sequence[str], who: str, card: str) -> str | None:
    if irr.dealer is None or irr.cards_played is None:
        return None
    n = irr.cards_played
    played = f"{n} cards were played before an up-card was seen" if n else "no up-card was seen"
    return f"{names[irr.dealer]}'s deal went by unseen: {played}; not scored: check the score"


def _misdeal(irr: Irregularity, names: Sequence[str], who: str, card: str) -> str | None:
    if irr.dealer is None:
        return None
    dealer = names[irr.dealer]
    if irr.seat is None:
        return f"Misdeal: {dealer}'s deal is void; {dealer} deals again"
    return f"Misdeal: {who} declared a hand of nines and tens; {dealer}'s deal is void, {dealer} deals again"


# Kinds not here (NOT_ALLOWED, SUSPECTED_RENEGE, HAND_UNFINISHED) are said by their detail: it is the sentence.
_WORDS: dict[IrregularityKind, _Words] = {
    IrregularityKind.OUT_OF_TURN: _out_of_turn,
    IrregularityKind.LONE_PARTNER_PLAYED: _lone_partner,
    IrregularityKind.DUPLICATE_CARD: _duplicate,
    IrregularityKind.NOT_IN_DECK: _not_in_deck,
    IrregularityKind.UP_CARD_PLAYED: _up_card_played,
    IrregularityKind.PLAY_BEFORE_BIDDING_ENDED: _too_early,
    IrregularityKind.BID_OUT_OF_TURN: _bid_out_of_turn,
    IrregularityKind.CHECK_CARD: _check_card,
    IrregularityKind.CARD_UNSEEN: _card_unseen,
    IrregularityKind.DEAL_UNSEEN: _deal_unseen,
    IrregularityKind.MISDEAL: _misdeal,
}


def irregularity_text(irr: Irregularity, names: Sequence[str], voice: Voice = Voice.SCREEN) -> str:
    """One sentence that says each thing once: "Out of turn: West played Q♠ (South to play)".

    Worded from the irregularity's fields, with the seats' names and the card as players write it.
    Without the fields its kind needs, the engine's detail is shown after the kind's title, with who
    and which card where the detail does not already name them: "Not allowed: East — bidding is over".
    """
    who = names[irr.seat] if irr.seat is not None else ""
    card = card_text(irr.card, voice) if irr.card is not None else ""
    words = _WORDS.get(irr.kind)
    said = words(irr, names, who, card or "a card") if words is not None else None
    if said is not None:
        return said
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


# ---- declarations: the words of the panel's questions and of the menu ----

DECLARATIONS: dict[str, str] = {
    "blind_lone": "Blind lone",
    "call_for_best": "Call for best",
    "farmers_hand": "Farmer's hand (going under)",
    "nines_and_tens": "Nines & tens: redeal",
    "nines_swap": "Nines & tens: swap with the kitty",
    "misdeal": "Misdeal",
}
"""The declarations menu's items, by the session's name for each."""


def declaration_label(item: str, names: Sequence[str], seat: int | None = None) -> str:
    """A menu item as the screen shows it: "Blind lone: West" (with the seat that makes it, where known)."""
    words = DECLARATIONS.get(item, item.replace("_", " ").capitalize())
    return f"{words}: {names[seat]}" if seat is not None else words


def alone_option_label(seat: int, maker: int | None, names: Sequence[str]) -> str:
    """A seat in the question "who goes alone?": "North (maker)", "East (defends)", "South (partner)"."""
    if maker is None:
        return names[seat]
    if seat == maker:
        role = "maker"
    elif seat % 2 == maker % 2:
        role = "maker's partner"
    else:
        role = "defends"
    return f"{names[seat]} ({role})"


ALONE_HINT = "Call: confirm \u00b7 Alone: next \u00b7 Pass: nobody"
MENU_HINT = "Pass: back"
SEAT_HINT = "Whose? Press the player's suit \u00b7 Pass: back"
NO_TRUMP_HINT = "Call: confirm \u00b7 a suit: name it \u00b7 Pass: pass"
