"""Words for the table: announcements, prompts and renege evidence as text for the screen and for speech.

Pure functions of engine values and seat names (and the table's language,
`display.i18n`), shared by the scoreboard and the speaker so both say the same
thing. Every word goes through the gettext catalogs: a message is a
``str.format`` template with named fields, so a translation orders them as
its language wants. `Voice.SCREEN` writes cards with suit symbols ("10♥");
`Voice.SPEECH` spells them out ("the ten of hearts") for espeak-ng, which
reads symbols badly. Tricks are 0-based in the engine and 1-based here, as
players count them.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Sequence

from display.i18n import _, ngettext, pgettext
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
from table.cards import Card, Rank, Suit
from table.trump import is_left_bower, is_right_bower


class Voice(enum.Enum):
    SCREEN = "screen"
    SPEECH = "speech"


# ---- cards, suits, seats and numbers ----

_SEAT_NAMES: tuple[Callable[[], str], ...] = (
    lambda: pgettext("seat", "North"),
    lambda: pgettext("seat", "East"),
    lambda: pgettext("seat", "South"),
    lambda: pgettext("seat", "West"),
)


def seat_names() -> tuple[str, str, str, str]:
    """The four seats' default names in the table's language, seat 0 first: ("North", "East", "South", "West")."""
    n, e, s, w = (name() for name in _SEAT_NAMES)
    return n, e, s, w


_SUIT_NOUN: dict[Suit, Callable[[], str]] = {
    Suit.CLUBS: lambda: pgettext("suit", "clubs"),
    Suit.DIAMONDS: lambda: pgettext("suit", "diamonds"),
    Suit.HEARTS: lambda: pgettext("suit", "hearts"),
    Suit.SPADES: lambda: pgettext("suit", "spades"),
}

_RANK_NOUN: dict[Rank, Callable[[], str]] = {
    Rank.SEVEN: lambda: pgettext("rank", "seven"),
    Rank.EIGHT: lambda: pgettext("rank", "eight"),
    Rank.NINE: lambda: pgettext("rank", "nine"),
    Rank.TEN: lambda: pgettext("rank", "ten"),
    Rank.JACK: lambda: pgettext("rank", "jack"),
    Rank.QUEEN: lambda: pgettext("rank", "queen"),
    Rank.KING: lambda: pgettext("rank", "king"),
    Rank.ACE: lambda: pgettext("rank", "ace"),
}

# The index printed in a card's corner. The detector reads international decks (J Q K A), so the catalogs
# keep those letters unless a language's players write others.
_RANK_INDEX: dict[Rank, Callable[[], str]] = {
    Rank.SEVEN: lambda: pgettext("rank index", "7"),
    Rank.EIGHT: lambda: pgettext("rank index", "8"),
    Rank.NINE: lambda: pgettext("rank index", "9"),
    Rank.TEN: lambda: pgettext("rank index", "10"),
    Rank.JACK: lambda: pgettext("rank index", "J"),
    Rank.QUEEN: lambda: pgettext("rank index", "Q"),
    Rank.KING: lambda: pgettext("rank index", "K"),
    Rank.ACE: lambda: pgettext("rank index", "A"),
}


def suit_noun(suit: Suit) -> str:
    """The suit's name as a sentence uses it: "hearts"."""
    return _SUIT_NOUN[suit]()


def rank_noun(rank: Rank) -> str:
    return _RANK_NOUN[rank]()


def rank_index(rank: Rank) -> str:
    """The rank as a card's corner shows it: "J", "10"."""
    return _RANK_INDEX[rank]()


def number(n: int) -> str:
    """A whole number as the table writes it (digits: espeak-ng reads them in the voice's language)."""
    return str(n)


def team_name(names: Sequence[str], team: int) -> str:
    """ "North–South" for team 0 with the default names."""
    return f"{names[team]}\u2013{names[team + 2]}"


def _team_spoken(names: Sequence[str], team: int) -> str:
    return _("{first} and {second}").format(first=names[team], second=names[team + 2])


def _team(names: Sequence[str], team: int, voice: Voice) -> str:
    return team_name(names, team) if voice is Voice.SCREEN else _team_spoken(names, team)


def card_text(card: Card, voice: Voice = Voice.SCREEN) -> str:
    """ "J♦" on screen, "the jack of diamonds" spoken."""
    if card.rank is None or card.suit is None:
        return pgettext("card", "Benny") if voice is Voice.SCREEN else pgettext("card", "the Benny")
    if voice is Voice.SCREEN:
        return f"{rank_index(card.rank)}{card.suit.symbol}"
    return pgettext("card", "the {rank} of {suit}").format(rank=rank_noun(card.rank), suit=suit_noun(card.suit))


def suit_text(suit: Suit | None, voice: Voice = Voice.SCREEN) -> str:
    if suit is None:
        return _("no trump")
    return f"{suit.symbol} {suit_noun(suit)}" if voice is Voice.SCREEN else suit_noun(suit)


def _suit_short(suit: Suit, voice: Voice) -> str:
    return suit.symbol if voice is Voice.SCREEN else suit_noun(suit)


def trick_card_text(card: Card, trump: Suit | None, voice: Voice = Voice.SCREEN) -> str:
    """A winning card as players name it: the bowers and the Benny by their names."""
    if card.is_benny:
        return pgettext("card", "the Benny")
    if is_right_bower(card, trump):
        return _("the right bower")
    if is_left_bower(card, trump):
        return _("the left bower")
    return card_text(card, voice)


def trick_label(trick: int) -> str:
    """ "trick 3" (1-based): the trick in play, or a camera still's caption."""
    return _("trick {n}").format(n=number(trick))


def score_text(team: str, points: int) -> str:
    """ "North–South score 2"."""
    return ngettext("{team} score {n}", "{team} score {n}", points).format(team=team, n=number(points))


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
    who = names[prompt.seat] if prompt.seat is not None else pgettext("seat", "Table")
    up = card_text(prompt.up_card, voice) if prompt.up_card is not None else _("the up-card")
    e = prompt.expected
    if e is Expect.NEW_GAME:
        return _("Press New game to start")
    if e is Expect.UP_CARD:
        if dealer is None:
            return _("Deal: turn up the top card of the kitty")
        return _("{dealer} deals: turn up the top card of the kitty").format(dealer=names[dealer])
    if e is Expect.BID_ROUND_1:
        if alone:
            return _("{who}: pass or order up {card} alone?").format(who=who, card=up)
        return _("{who}: pass or order up {card}?").format(who=who, card=up)
    if e is Expect.BID_ROUND_2:
        turned_down = prompt.up_card.suit if prompt.up_card is not None else None
        if turned_down is None:
            said = _("{who}: name trump, stuck") if stuck else _("{who}: pass or name trump?")
            return said.format(who=who)
        said = _("{who}: name trump, stuck (not {suit})") if stuck else _("{who}: pass or name trump (not {suit})?")
        return said.format(who=who, suit=_suit_short(turned_down, voice))
    if e is Expect.NAME_TRUMP_BLIND:
        return _("{who}: name trump, unseen").format(who=who)
    if e is Expect.DISCARD:
        return _("{who}: pick up {card} and discard a card").format(who=who, card=up)
    if e is Expect.GO_ALONE:
        if prompt.seat is None:
            return _("Anyone going alone?")
        return _("Anyone going alone? Then {who} leads").format(who=who)
    if e is Expect.LEAD:
        return _("{who} to lead").format(who=who)
    if e is Expect.FOLLOW:
        if prompt.suit is None:
            return _("{who} to play").format(who=who)
        return _("{who} to play ({suit} led)").format(who=who, suit=_suit_short(prompt.suit, voice))
    if e is Expect.RENEGE_DECISION:
        return _("Renege: accept the penalty or dismiss it")
    return who


def renege_evidence_text(evidence: RenegeEvidence, names: Sequence[str], voice: Voice = Voice.SCREEN) -> str:
    """ "West showed out of hearts in trick 2, played 10♥ in trick 4"."""
    return _("{who} showed out of {suit} in trick {showed}, played {card} in trick {proof}").format(
        who=names[evidence.seat],
        suit=suit_noun(evidence.suit),
        showed=number(evidence.showed_out_trick + 1),
        card=card_text(evidence.proof_card, voice),
        proof=number(evidence.proof_trick + 1),
    )


_IRREGULARITY_TITLE: dict[IrregularityKind, Callable[[], str]] = {
    IrregularityKind.OUT_OF_TURN: lambda: pgettext("irregularity", "Out of turn"),
    IrregularityKind.LONE_PARTNER_PLAYED: lambda: pgettext("irregularity", "Lone player's partner"),
    IrregularityKind.DUPLICATE_CARD: lambda: pgettext("irregularity", "Duplicate card"),
    IrregularityKind.NOT_IN_DECK: lambda: pgettext("irregularity", "Card not in this deck"),
    IrregularityKind.PLAY_BEFORE_BIDDING_ENDED: lambda: pgettext("irregularity", "Too early"),
    IrregularityKind.BID_OUT_OF_TURN: lambda: pgettext("irregularity", "Bid out of turn"),
    IrregularityKind.NOT_ALLOWED: lambda: pgettext("irregularity", "Not allowed"),
    IrregularityKind.CHECK_CARD: lambda: pgettext("irregularity", "Check this card"),
    IrregularityKind.UP_CARD_PLAYED: lambda: pgettext("irregularity", "Up-card"),
    IrregularityKind.SUSPECTED_RENEGE: lambda: pgettext("irregularity", "Possible renege"),
    IrregularityKind.HAND_UNFINISHED: lambda: pgettext("irregularity", "Hand not seen to the end"),
    IrregularityKind.DEAL_UNSEEN: lambda: pgettext("irregularity", "A deal went by unseen"),
    IrregularityKind.CARD_UNSEEN: lambda: pgettext("irregularity", "A card went unseen"),
    IrregularityKind.MISDEAL: lambda: pgettext("irregularity", "Misdeal"),
    IrregularityKind.DEAL_OUT_OF_TURN: lambda: pgettext("irregularity", "Deal out of turn"),
}

# Each kind's words, from the values the engine puts in the Irregularity's fields (never from its detail,
# which is for logs and EGN). Each gets the irregularity, the seat names, who and which card in the voice
# asked for, and that voice (for any other card it names); it returns None where a field it needs is absent
# (an Irregularity made with only a detail), and the detail is then shown after the kind's title.
_Words = Callable[[Irregularity, Sequence[str], str, str, Voice], str | None]


def _card_seen(source: CardSource, who: str, card: str) -> str:
    """ "the up-card 9♥" / "West played 9♥" / "West discarded 9♥"."""
    if source is CardSource.UP_CARD:
        return _("the up-card {card}").format(card=card)
    said = _("{who} discarded {card}") if source is CardSource.DISCARD else _("{who} played {card}")
    return said.format(who=who or _("a player"), card=card)


def _out_of_turn(irr: Irregularity, names: Sequence[str], who: str, card: str, voice: Voice) -> str | None:
    if irr.seat is None:
        return None
    if irr.turn is not None:
        return _("Out of turn: {who} played {card} ({turn} to play)").format(who=who, card=card, turn=names[irr.turn])
    if irr.trick is not None:
        return _("Out of turn: {who} already played to trick {trick}; {card} ignored").format(
            who=who, trick=number(irr.trick + 1), card=card
        )
    return None


def _lone_partner(irr: Irregularity, names: Sequence[str], who: str, card: str, voice: Voice) -> str | None:
    if irr.seat is None:
        return None
    return _("Lone player's partner: {who} played {card} while {lone} is alone; card ignored").format(
        who=who, card=card, lone=names[(irr.seat + 2) % 4]
    )


def _duplicate(irr: Irregularity, names: Sequence[str], who: str, card: str, voice: Voice) -> str | None:
    if irr.source is None:
        return None
    return _("Duplicate card: {seen}, already seen this hand").format(seen=_card_seen(irr.source, who, card))


def _not_in_deck(irr: Irregularity, names: Sequence[str], who: str, card: str, voice: Voice) -> str | None:
    if irr.source is None or irr.deck_size is None:
        return None
    return _("Not in this {n}-card deck: {seen}").format(
        n=number(irr.deck_size), seen=_card_seen(irr.source, who, card)
    )


def _up_card_played(irr: Irregularity, names: Sequence[str], who: str, card: str, voice: Voice) -> str | None:
    if irr.up_card_taken:
        return _("Up-card: {who} played {card}, which the dealer took").format(who=who or _("a player"), card=card)
    if irr.up_card_taken is None or irr.source is None or irr.source is CardSource.UP_CARD:
        return None
    return _("Up-card: {seen}, which was turned down").format(seen=_card_seen(irr.source, who, card))


def _too_early(irr: Irregularity, names: Sequence[str], who: str, card: str, voice: Voice) -> str | None:
    if irr.before_up_card is None:
        return None
    if irr.before_up_card:
        said = _("Too early: {who} played {card} before the up-card was turned")
    else:
        said = _("Too early: {who} played {card} before the bidding ended")
    return said.format(who=who or _("a player"), card=card)


def _bid_out_of_turn(irr: Irregularity, names: Sequence[str], who: str, card: str, voice: Voice) -> str | None:
    if irr.seat is not None and irr.turn is not None:
        return _("Out of turn: {who} bid ({turn} to bid)").format(who=who, turn=names[irr.turn])
    if irr.before_up_card:
        return _("Too early: {who} bid before the up-card was turned").format(who=who or _("a player"))
    return None


def _check_card(irr: Irregularity, names: Sequence[str], who: str, card: str, voice: Voice) -> str | None:
    if irr.source is CardSource.PLAY and irr.seat is not None and irr.other_reading is not None:
        other = card_text(irr.other_reading, voice)
        return _("Check {who}'s card: read as {card} and as {other}").format(who=who, card=card, other=other)
    # The camera's likeliest other reading where it named one, else the twin (the likeliest confusion of a
    # corner index): Next reading's first step either way.
    perhaps = irr.rival or (irr.card.twin if irr.card is not None else None)
    if irr.source is CardSource.UP_CARD:
        if perhaps is not None:
            said = _("Check the up-card: read as {card} with low confidence, perhaps {twin}")
            return said.format(card=card, twin=card_text(perhaps, voice))
        return _("Check the up-card: read as {card} with low confidence").format(card=card)
    if irr.source is CardSource.PLAY and irr.seat is not None:
        if irr.rival_shown and irr.rival is not None:
            # The camera's other reading (or its likeliest one, swapped) is a card already seen this deal.
            said = _("Check {who}'s card: taken as {card}, as {rival} was already seen")
            return said.format(who=who, card=card, rival=card_text(irr.rival, voice))
        if perhaps is not None:
            said = _("Check {who}'s card: read as {card} with low confidence, perhaps {twin}")
            return said.format(who=who, card=card, twin=card_text(perhaps, voice))
        return _("Check {who}'s card: read as {card} with low confidence").format(who=who, card=card)
    return None


def _card_unseen(irr: Irregularity, names: Sequence[str], who: str, card: str, voice: Voice) -> str | None:
    if irr.seat is None or irr.trick is None or irr.leader is None:
        return None
    return _("{who}'s card in trick {trick} went unseen; {leader} leads the next trick, so took this one").format(
        who=who, trick=number(irr.trick + 1), leader=names[irr.leader]
    )


def _deal_unseen(irr: Irregularity, names: Sequence[str], who: str, card: str, voice: Voice) -> str | None:
    if irr.dealer is None or irr.cards_played is None:
        return None
    n = irr.cards_played
    if n:
        played = ngettext(
            "{n} card was played before an up-card was seen", "{n} cards were played before an up-card was seen", n
        ).format(n=number(n))
    else:
        played = _("no up-card was seen")
    return _("{dealer}'s deal went by unseen: {played}; not scored: check the score").format(
        dealer=names[irr.dealer], played=played
    )


def _misdeal(irr: Irregularity, names: Sequence[str], who: str, card: str, voice: Voice) -> str | None:
    if irr.dealer is None:
        return None
    dealer = names[irr.dealer]
    if irr.seat is None:
        return _("Misdeal: {dealer}'s deal is void; {dealer} deals again").format(dealer=dealer)
    return _(
        "Misdeal: {who} declared a hand of nines and tens; {dealer}'s deal is void, {dealer} deals again"
    ).format(who=who, dealer=dealer)


def _deal_out_of_turn(irr: Irregularity, names: Sequence[str], who: str, card: str, voice: Voice) -> str | None:
    if irr.seat is None or irr.dealer is None:
        return None
    return _("Deal out of turn: {who} turned the up-card, but it is {dealer}'s deal").format(
        who=who, dealer=names[irr.dealer]
    )


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
    IrregularityKind.DEAL_OUT_OF_TURN: _deal_out_of_turn,
}


def irregularity_title(kind: IrregularityKind) -> str:
    """The kind's title: "Out of turn"."""
    title = _IRREGULARITY_TITLE.get(kind)
    return title() if title is not None else kind.value.replace("_", " ").capitalize()


def irregularity_text(irr: Irregularity, names: Sequence[str], voice: Voice = Voice.SCREEN) -> str:
    """One sentence that says each thing once: "Out of turn: West played Q♠ (South to play)".

    Worded from the irregularity's fields, with the seats' names and the card as players write it.
    Without the fields its kind needs, the engine's detail is shown after the kind's title, with who
    and which card where the detail does not already name them: "Not allowed: East — bidding is over".
    """
    who = names[irr.seat] if irr.seat is not None else ""
    card = card_text(irr.card, voice) if irr.card is not None else ""
    words = _WORDS.get(irr.kind)
    said = words(irr, names, who, card or _("a card"), voice) if words is not None else None
    if said is not None:
        return said
    title = irregularity_title(irr.kind)
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


_HAND_RESULT: dict[str, Callable[[], str]] = {
    "made": lambda: pgettext("hand result", "{makers} make it"),
    "march": lambda: pgettext("hand result", "March! {makers} take all five"),
    "lone_march": lambda: pgettext("hand result", "Lone march! {makers} take all five"),
    "blind_lone": lambda: pgettext("hand result", "Blind lone march! {makers} take all five"),
    "euchre": lambda: pgettext("hand result", "Euchred! {defenders} stop {makers}"),
    "lone_euchre": lambda: pgettext("hand result", "Euchred! {defenders} stop the lone hand"),
    "blind_lone_euchre": lambda: pgettext("hand result", "Euchred! {defenders} stop the blind lone hand"),
    "lone_defender": lambda: pgettext("hand result", "Lone defender! {defenders} stop {makers}"),
    "super_euchre": lambda: pgettext("hand result", "Super euchre! {defenders} take all five"),
    "renege": lambda: pgettext("hand result", "Renege penalty"),
    "renege_replay": lambda: pgettext("hand result", "Renege: the hand is played again"),
    "unfinished": lambda: pgettext("hand result", "Hand not seen to the end: not scored, check the score"),
    "unseen": lambda: pgettext("hand result", "A deal went by unseen: not scored, check the score"),
    "misdeal": lambda: pgettext("hand result", "Misdeal: the deal is void, not scored"),
}
EUCHRE_REASONS = frozenset({"euchre", "lone_euchre", "blind_lone_euchre", "lone_defender", "super_euchre"})
MARCH_REASONS = frozenset({"march", "lone_march", "blind_lone"})


def _gains(names: Sequence[str], points: tuple[int, int], voice: Voice) -> str:
    return ", ".join(score_text(_team(names, t, voice), points[t]) for t in (0, 1) if points[t])


def hand_result_text(scored: HandScored, names: Sequence[str], voice: Voice = Voice.SCREEN) -> str:
    """ "Euchred! East–West stop North–South: East–West score 2"."""
    makers = _team(names, scored.makers, voice)
    defenders = _team(names, 1 - scored.makers, voice)
    words = _HAND_RESULT.get(scored.reason)
    head = (words() if words is not None else _("{makers} score")).format(makers=makers, defenders=defenders)
    gains = _gains(names, scored.points, voice)
    return _("{result}: {points}").format(result=head, points=gains) if gains else head


def trump_made_text(
    made: TrumpMade, names: Sequence[str], dealer: int | None = None, voice: Voice = Voice.SCREEN
) -> str:
    who = names[made.seat]
    if made.round == 1:
        if dealer == made.seat:
            said = _("{who} picks it up and goes alone") if made.alone else _("{who} picks it up")
        else:
            said = _("{who} orders it up and goes alone") if made.alone else _("{who} orders it up")
        said = said.format(who=who)
        if made.suit is None:
            return said
        return _("{said}: {suit} are trump").format(said=said, suit=suit_noun(made.suit))
    said = _("{who} names {suit} and goes alone") if made.alone else _("{who} names {suit}")
    return said.format(who=who, suit=suit_text(made.suit, voice))


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
        said = _("{who} defends alone") if a.defender else _("{who} goes alone")
        return said.format(who=names[a.seat])
    if isinstance(a, ThrownIn):
        return _("Everyone passed: thrown in. {dealer} deals next").format(dealer=names[(a.dealer + 1) % 4])
    if isinstance(a, TrickWon):
        return _("{who} takes it with {card}").format(who=names[a.seat], card=trick_card_text(a.card, trump, voice))
    if isinstance(a, RenegeProven):
        return _("Renege! {evidence}").format(evidence=renege_evidence_text(a.evidence, names, voice))
    if isinstance(a, PenaltyApplied):
        gains = _gains(names, a.points, voice) or _("no points")
        return _("Renege penalty on {who}: {points}").format(who=names[a.offender_seat], points=gains)
    if isinstance(a, Irregularity):
        return irregularity_text(a, names, voice)
    if isinstance(a, HandScored):
        return hand_result_text(a, names, voice)
    if isinstance(a, GameWon):
        hi, lo = a.score[a.team], a.score[1 - a.team]
        return _("{team} win the game, {hi} to {lo}").format(
            team=_team(names, a.team, voice), hi=number(hi), lo=number(lo)
        )
    if isinstance(a, GameDrawn):
        return _("The game ends level, {score} all").format(score=number(a.score[0]))
    raise TypeError(f"announcement_text: not an announcement: {a!r}")


def misdeal_question(dealer: int, names: Sequence[str]) -> str:
    """What the screen asks after one press of Misdeal, before ``dealer``'s deal is voided."""
    return _("Misdeal? Press again to void {dealer}'s deal, anything else to play on").format(dealer=names[dealer])


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
        return _("{who} takes the trick").format(who=names[a.seat])
    if isinstance(a, RenegeProven):
        return _("Renege! {evidence}").format(evidence=renege_evidence_text(a.evidence, names, Voice.SPEECH))
    if isinstance(a, HandScored):
        return hand_result_text(a, names, Voice.SPEECH) if a.reason in _SPOKEN_REASONS else None
    if isinstance(a, Irregularity):
        if a.kind is IrregularityKind.MISDEAL:
            return irregularity_text(a, names, Voice.SPEECH)
        if a.kind is not IrregularityKind.CHECK_CARD or a.restated:
            return None  # (a check restated, its two readings swapped, is shown, not said again)
        other = a.rival if a.rival is not None else a.other_reading
        if a.card is not None and other is not None:
            # The two readings, so the table can answer from where it sits (Call: the first; its suit: the other).
            card, rival = card_text(a.card, Voice.SPEECH), card_text(other, Voice.SPEECH)
            if a.seat is None:
                return _("Check the up-card: {card} or {rival}?").format(card=card, rival=rival)
            return _("Check this card, {who}: {card} or {rival}?").format(who=names[a.seat], card=card, rival=rival)
        if a.seat is None:
            return pgettext("speech", "Check this card")
        return _("Check this card, {who}").format(who=names[a.seat])
    if isinstance(a, TrumpMade | GameWon | GameDrawn | WentAlone):
        return announcement_text(a, names, trump=trump, dealer=dealer, voice=Voice.SPEECH)
    return None


# ---- declarations: the words of the panel's questions and of the menu ----

_DECLARATIONS: dict[str, Callable[[], str]] = {
    "blind_lone": lambda: pgettext("declaration", "Blind lone"),
    "call_for_best": lambda: pgettext("declaration", "Call for best"),
    "farmers_hand": lambda: pgettext("declaration", "Farmer's hand (going under)"),
    "nines_and_tens": lambda: pgettext("declaration", "Nines & tens: redeal"),
    "nines_swap": lambda: pgettext("declaration", "Nines & tens: swap with the kitty"),
    "misdeal": lambda: pgettext("declaration", "Misdeal"),
}


def declaration_words(item: str) -> str:
    """A declarations menu item's words, by the session's name for it: "Blind lone"."""
    words = _DECLARATIONS.get(item)
    return words() if words is not None else item.replace("_", " ").capitalize()


def declaration_label(item: str, names: Sequence[str], seat: int | None = None) -> str:
    """A menu item as the screen shows it: "Blind lone: West" (with the seat that makes it, where known)."""
    words = declaration_words(item)
    return _("{declaration}: {who}").format(declaration=words, who=names[seat]) if seat is not None else words


def alone_option_label(seat: int, maker: int | None, names: Sequence[str]) -> str:
    """A seat in the question "who goes alone?": "North (maker)", "East (defends)", "South (partner)"."""
    if maker is None:
        return names[seat]
    if seat == maker:
        role = pgettext("role", "maker")
    elif seat % 2 == maker % 2:
        role = pgettext("role", "maker's partner")
    else:
        role = pgettext("role", "defends")
    return _("{who} ({role})").format(who=names[seat], role=role)


# ---- the panel: its buttons' names, the offers beside the prompt and the questions over the table ----


def button_name(button: str) -> str:
    """A panel button as the screen names it: "Call", "Alone", "hold Alone", "Pass"."""
    words = _BUTTONS.get(button)
    return words() if words is not None else button


_BUTTONS: dict[str, Callable[[], str]] = {
    "pass": lambda: pgettext("button", "Pass"),
    "call": lambda: pgettext("button", "Call"),
    "alone": lambda: pgettext("button", "Alone"),
    "hold_alone": lambda: pgettext("button", "hold Alone"),
    "undo": lambda: pgettext("button", "Undo"),
    "new_game": lambda: pgettext("button", "New game"),
    "next_reading": lambda: pgettext("button", "Next reading"),
}


def alone_offer(armed: bool = False, who: str | None = None) -> str:
    """The offer to go alone: "Alone", "Alone: on" once pressed, "West alone" where only West may."""
    if who is not None:
        return _("{who} alone").format(who=who)
    return pgettext("offer", "Alone: on") if armed else pgettext("offer", "Alone")


def no_trump_offer() -> str:
    return pgettext("offer", "No trump")


def declare_offer() -> str:
    return pgettext("offer", "Declare\u2026")


def no_trump_option(who: str, alone: bool = False) -> str:
    """The one option of the question "No trump?": "South: no trump"."""
    return (_("{who}: no trump alone") if alone else _("{who}: no trump")).format(who=who)


def choice_title(kind: str) -> str:
    """The title of a question over the table: "Who goes alone?", "Declare", "No trump?"."""
    if kind == "alone":
        return pgettext("question", "Who goes alone?")
    if kind == "menu":
        return pgettext("question", "Declare")
    return pgettext("question", "No trump?")


def alone_hint() -> str:
    return _("Call: confirm \u00b7 Alone: next \u00b7 Pass: nobody")


def menu_hint() -> str:
    return _("Pass: back")


def seat_hint() -> str:
    return _("Whose? Press the player's suit \u00b7 Pass: back")


def no_trump_hint() -> str:
    return _("Call: confirm \u00b7 a suit: name it \u00b7 Pass: pass")


def accept_hint() -> str:
    """The renege alert's accept button."""
    return _("Call / Y: accept penalty")


def dismiss_hint() -> str:
    return _("Pass / X: dismiss")


# ---- the hand-by-hand history and the renege penalty ----

_NOTES: dict[str, Callable[[], str]] = {
    "thrown_in": lambda: pgettext("history", "thrown in"),
    "voided": lambda: pgettext("history", "voided"),
    "march": lambda: pgettext("history", "march"),
    "lone_march": lambda: pgettext("history", "lone march"),
    "blind_lone": lambda: pgettext("history", "blind lone"),
    "euchre": lambda: pgettext("history", "euchre"),
    "lone_euchre": lambda: pgettext("history", "euchre"),
    "blind_lone_euchre": lambda: pgettext("history", "euchre"),
    "lone_defender": lambda: pgettext("history", "lone defender"),
    "super_euchre": lambda: pgettext("history", "super euchre"),
    "renege": lambda: pgettext("history", "renege"),
    "renege_replay": lambda: pgettext("history", "renege"),
    "unfinished": lambda: pgettext("history", "not seen"),
    "unseen": lambda: pgettext("history", "not seen"),
    "misdeal": lambda: pgettext("history", "misdeal"),
}


def history_note(reason: str) -> str:
    """A hand's note in the history, by the engine's reason: "euchre", "thrown in" ("" for a hand made)."""
    if reason in ("made", ""):
        return ""
    words = _NOTES.get(reason)
    return words() if words is not None else reason.replace("_", " ")


def team_loses_text(team: str, points: int) -> str:
    """ "East–West lose 2"."""
    return ngettext("{team} lose {n}", "{team} lose {n}", points).format(team=team, n=number(points))


def hand_replayed_text() -> str:
    return _("the hand is replayed")


def __getattr__(name: str) -> str:
    """The hints under their older constant names (``phrases.ALONE_HINT``), worded in the current language."""
    hints = {"ALONE_HINT": alone_hint, "MENU_HINT": menu_hint, "SEAT_HINT": seat_hint, "NO_TRUMP_HINT": no_trump_hint}
    if name in hints:
        return hints[name]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ---- the panel's answers: what the screen says back to a press that asks or is refused ----


def card_landed_unexpected(card: Card) -> str:
    """A card seen where nobody is due to play: "J♦ landed but nobody is due to play"."""
    return _("{card} landed but nobody is due to play").format(card=card_text(card))


def misdeal_cancelled() -> str:
    return _("misdeal cancelled: the deal goes on")


def suit_chosen(suit: Suit) -> str:
    """The suit the suit-cycle button stepped to: "suit chosen: hearts"."""
    return _("suit chosen: {suit}").format(suit=suit_noun(suit))


def only_up_card_suit() -> str:
    return _("round 1: only the up-card's suit can be ordered up")


def no_trump_question() -> str:
    """Call pressed with no suit chosen where no trump is played."""
    return _("No trump? Call again to name it, or press a suit")


def choose_suit_first() -> str:
    return _("choose a suit first")


def press_held_for_up_card() -> str:
    """A bidding press made before the camera has read the up-card: it waits for it."""
    return _("waiting for the up-card: the press counts once the camera sees it")


def held_presses_dropped() -> str:
    """Presses that waited too long for the up-card were dropped."""
    return _("a press made long before the up-card was seen did not count: press again")


def alone_armed_note(armed: bool) -> str:
    """Alone pressed during the bidding: "alone: armed for the next call", or "alone: off" when pressed again."""
    return _("alone: armed for the next call") if armed else _("alone: off")


def alone_window_note() -> str:
    return _("going alone is declared after trump is made and before the first lead")


def nobody_else_alone(why: str = "") -> str:
    """ "nobody else may go alone now (North — defenders may not go alone at this table)"."""
    if not why:
        return _("nobody else may go alone now")
    return _("nobody else may go alone now ({why})").format(why=why)


def refusal_reason(refusal: str) -> str:
    """The engine's refusal without its "Not allowed: " title, for a sentence that gives its own."""
    return refusal.removeprefix(f"{irregularity_title(IrregularityKind.NOT_ALLOWED)}: ")


def alone_already(who: str) -> str:
    return _("{who} is alone already").format(who=who)


def alone_question(who: str) -> str:
    """The question after Alone picked a seat: "South alone? Call to confirm, Alone for another player"."""
    return _("{who} alone? Call to confirm, Alone for another player").format(who=who)


def question_dropped(kind: str) -> str:
    """A question closed with Pass: "nobody goes alone" for the alone question, else "declaration dropped"."""
    return _("nobody goes alone") if kind == "alone" else _("declaration dropped")


def no_declaration_on_button() -> str:
    return _("no declaration on that button now")


def may_not_declare(who: str, declaration: str) -> str:
    """ "South may not declare that: Nines & tens: redeal"."""
    return _("{who} may not declare that: {declaration}").format(who=who, declaration=declaration)


def no_deal_in_progress(dealer: str) -> str:
    """The declarations menu asked for between deals."""
    return _("no deal in progress: {dealer} deals next").format(dealer=dealer)


def declare_question() -> str:
    return _("Declare what? Press the button beside it")


def whose_question(declaration: str) -> str:
    """ "Nines & tens: redeal: whose? Press that player's suit"."""
    return _("{declaration}: whose? Press that player's suit").format(declaration=declaration)


def no_deal_to_void(dealer: str) -> str:
    return _("no deal in progress to void: {dealer} deals next").format(dealer=dealer)


def no_card_to_correct() -> str:
    return _("no card of this hand to correct")


def card_read_as(who: str, card: Card) -> str:
    """The last card played stepped to another reading: "West's card read as 9♦"."""
    return _("{who}'s card read as {card}").format(who=who, card=card_text(card))


def card_confirmed(who: str, card: Card) -> str:
    """A card the table was asked to check, confirmed as read: "West's 9♦ confirmed"."""
    return _("{who}'s {card} confirmed").format(who=who, card=card_text(card))


def up_card_answered(card: Card, as_read: bool) -> str:
    """The up-card the table was asked to check, answered: "up-card 9♦ confirmed", "up-card taken as 9♥"."""
    if as_read:
        return _("up-card {card} confirmed").format(card=card_text(card))
    return _("up-card taken as {card}").format(card=card_text(card))


def card_not_possible(card: Card) -> str:
    """A check answered with a card that cannot be there (played already this hand, or not in the deck)."""
    return _("it cannot be {card}").format(card=card_text(card))


def check_right_offer(card: Card) -> str:
    """The offer to confirm a card the table is asked to check (the banner says whose): "9♦ is right"."""
    return _("{card} is right").format(card=card_text(card))


def check_other_offer(card: Card | None) -> str:
    """The offer to name another card for one the table is asked to check: "It is 9♥" (None: "Another card")."""
    if card is None:
        return pgettext("offer", "Another card")
    return _("It is {card}").format(card=card_text(card))


def table_name() -> str:
    """Who is asked when no seat is due: "Table"."""
    return pgettext("seat", "Table")


# ---- storage: the alarm that the score is not being saved ----


def decimal(value: float, places: int = 1) -> str:
    """A number with a fraction as the table's language writes it: "20.5", "20,5"."""
    whole, _dot, fraction = f"{value:.{places}f}".partition(".")
    return _("{whole}.{fraction}").format(whole=whole, fraction=fraction) if fraction else whole


def disk_full() -> str:
    return _("the disk is full")


def score_not_saved(reason: str) -> str:
    """The banner while the score cannot be written: "SCORE NOT SAVED: the disk is full"."""
    return _("SCORE NOT SAVED: {reason}").format(reason=reason)


def game_file_not_saved(reason: str) -> str:
    return _("GAME FILE NOT SAVED: {reason}").format(reason=reason)


def disk_almost_full(megabytes: float) -> str:
    """ "DISK ALMOST FULL: 20.0 MB left for the score"."""
    return _("DISK ALMOST FULL: {mb} MB left for the score").format(mb=decimal(megabytes))


def storage_warning(not_saved: bool) -> str:
    """What the speaker says once when saving fails, or when the disk is nearly full."""
    return _("Warning. The score is not being saved.") if not_saved else _("Warning. Disk almost full.")


# ---- the reader: what the table must do before it can read every card the rules play ----


def benny_needs_enrolment() -> str:
    """Shown at start when the rules play the Benny and no deck profile is set: only a profile names the Joker."""
    return _("The Benny is read only from an enrolled deck: run euchre-table enrol, then set [camera] deck")


def benny_not_in_profile() -> str:
    """Shown at start when the rules play the Benny and the configured deck profile holds no Joker."""
    return _("The deck profile has no Joker: enrol the deck again with its Joker")


def deck_read_poorly(enrolled: bool) -> str:
    """Shown once when the camera has missed or doubted many cards of the last hands
    (``companion.reading_watch``): what helps, enrolling the deck, or where it is enrolled, the light and view."""
    if enrolled:
        return _("Many cards go unread even with the deck's profile: check the light and the camera's view of the mat")
    return _("Many cards of this deck go unread: enrol it with euchre-table enrol, then set [camera] deck")
