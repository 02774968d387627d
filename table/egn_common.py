"""EGN's shared vocabulary: the constants, the error, the parsed records, the misdeal annotations, the ruleset mapping.

The reader (:mod:`table.egn_read`) and the writer (:mod:`table.egn_write`) both build on these;
:mod:`table.egn` is the public face and tells the decisions where the spec leaves room.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from table.cards import Card, Suit
from table.inputs import (
    Misdeal,
)
from table.rules import DefenderAlone, LoneDefenderScoring, LonerLead, Rules, RulesError

EGN_FILE_TYPE = "Euchre Game Notation"
EGN_VERSION = "1.4"

BIDDING = "EUCHRE_BIDDING"
TRICK_PLAY = "TRICK_PLAY"
ROUND_1_WORDS = {"order": False, "pickup": False, "call": False, "assist": False, "alone": True}
RENEGE_TAG = "[??]Renege: "
IRREGULARITY_TAG = "[?]Irregularity: "
PENALTY_ACCEPTED = "penalty accepted"
MISDEAL_TAG = "[?]Misdeal"
# Annotation label tags, longer first (the spec: "[??]" must be tried before "[?]").
LABEL_TAGS = ("[??]", "[?!]", "[!?]", "[!!]", "[?]", "[!]")
_MISDEAL_WORDS = re.compile(r"misdeal\b(?:\s*\(nines and tens, seat ([0-3])\))?", re.IGNORECASE)
_MISDEAL_WRITTEN = re.compile(
    re.escape(MISDEAL_TAG) + r"(?: \(nines and tens, seat [0-3]\))?: seat [0-3]'s deal is void; seat [0-3] deals again"
)
# EGN's unknown card: the up-card of a deal the companion saw played but not dealt (no phases follow), or a
# card the companion saw no reading of in a trick that its winner's next lead closed (with "playSeats").
UNKNOWN_CARD = "Xx"


class EgnError(ValueError):
    """A file that is not valid EGN, or that this engine cannot replay: names the file, the JSON path and why."""


def _fail(source: str, path: str, problem: str) -> EgnError:
    where = f"{source}: {path}" if path else source
    return EgnError(f"{where}: {problem}")


@dataclass
class EgnDeal:
    """One deal as the file states it (cards parsed, seats not yet known)."""

    number: int
    dealer: int
    up_card: Card | None  # None: "Xx", a deal played while the companion did not see its up-card
    calls: list[str] = field(default_factory=list)  # "Pass", "Order", "OrderAlone", or a suit letter / "n"
    is_alone: bool = False
    alone_defender: int | None = None
    discard: Card | None = None
    tricks: list[list[Card | None]] = field(default_factory=list)  # None: "Xx", a card not seen
    call_annotations: dict[int, list[str]] = field(default_factory=dict)
    play_annotations: dict[int, list[str]] = field(default_factory=dict)
    player_cards: list[list[Card]] | None = None
    alternative_lines: list[Any] = field(default_factory=list)  # kept raw: analysis, never replayed
    path: str = ""  # "deals[3]" in the source file, for messages
    # euchre-table extensions, written only where plain EGN cannot say what happened:
    call_seats: list[int] | None = None  # "callSeats": a bid out of turn
    alone_seats: list[int] | None = None  # "aloneSeats": every lone player in order (e.g. the maker's partner)
    exchanges: list[tuple[int, str]] = field(default_factory=list)  # "unseenExchanges": call for best...
    play_seats: list[list[int]] | None = None  # "playSeats": a card out of turn
    set_aside: list[Card] = field(default_factory=list)  # "setAside": Bennies turned up and put aside first
    blind: bool = False  # "blindLone": the dealer went alone on a turned-up jack before looking (Robson rules)
    misdeal: Misdeal | None = None  # an annotation declared this deal a misdeal (see misdeal_in_note)

    @property
    def all_alone(self) -> list[int]:
        """Every seat that went alone, the maker first."""
        if self.alone_seats is not None:
            return list(self.alone_seats)
        k = self.maker_call_index
        out = [self.dealer] if self.blind else [] if k is None or not self.is_alone else [self.call_seat(k)]
        if self.alone_defender is not None:
            out.append(self.alone_defender)
        return out

    def call_seat(self, k: int) -> int:
        """The seat that made call ``k``."""
        if self.call_seats is not None:
            return self.call_seats[k]
        if self.up_card is not None and self.up_card.is_benny:
            return self.dealer  # a turned-up Benny: the dealer names trump
        return (self.dealer + 1 + k) % 4

    @property
    def trump(self) -> Suit | None:
        """The suit the calls make trump (None: no call yet, or no trump)."""
        up = self.up_card
        if self.blind and up is not None:
            return up.suit
        for call in self.calls:
            if call in ("Order", "OrderAlone") and up is not None:
                return up.suit
            if call in ("c", "d", "h", "s"):
                return Suit(call)
        return None

    @property
    def maker_call_index(self) -> int | None:
        for k, call in enumerate(self.calls):
            if call != "Pass":
                return k
        return None


@dataclass
class EgnGame:
    """A parsed EGN file: the rules, where the game starts, the deals, and what was kept as metadata."""

    source: str
    rules: Rules
    first_dealer: int
    initial_score: tuple[int, int]
    deals: list[EgnDeal]
    players: list[str] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)
    final_score: tuple[int, int] | None = None
    warnings: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- misdeal annotations


def misdeal_in_note(note: str) -> Misdeal | None:
    """The misdeal an annotation declares (``"[?]Misdeal: ..."``, ``"Misdeal (nines and tens, seat 2)"``), or None."""
    text = note.lstrip()
    for tag in LABEL_TAGS:
        if text.startswith(tag):
            text = text[len(tag) :].lstrip()
            break
    found = _MISDEAL_WORDS.match(text)
    if found is None:
        return None
    return Misdeal(None if found.group(1) is None else int(found.group(1)))


def misdeal_note(dealer: int, nines_and_tens: int | None = None) -> str:
    """The annotation export writes for a misdeal, e.g. ``[?]Misdeal: seat 0's deal is void; seat 0 deals again``."""
    claim = "" if nines_and_tens is None else f" (nines and tens, seat {nines_and_tens})"
    return f"{MISDEAL_TAG}{claim}: seat {dealer}'s deal is void; seat {dealer} deals again"


# ---------------------------------------------------------------- rules

_EGN_BOOL_KEYS = (
    "std",
    "canadian",
    "defend_alone",
    "farmers",
    "partners_best",
    "go_under",
    "joker",
    "allow_no_trump",
    "fast_break",
    "four_trick_tokens",
    "stick_the_dealer",
)
_EGN_INT_KEYS = ("min_rank", "winning_score", "num_deals", "loner_march_score", "loner_euchred_score", "num_players")
_UNPLAYABLE = ("fast_break", "four_trick_tokens")
_RULES_FIELDS = {f.name for f in fields(Rules)}
_DECKS = {(9, False): 24, (9, True): 25, (8, False): 28, (7, False): 32, (7, True): 33}


def rules_from_ruleset(
    ruleset: Mapping[str, Any], *, source: str = "<egn>", path: str = "metadata.ruleset"
) -> tuple[Rules, list[str]]:
    """The rules record an EGN ``ruleset`` describes, and warnings for keys it does not know."""
    warnings: list[str] = []
    if not isinstance(ruleset, Mapping):
        raise _fail(source, path, "must be an object")
    for key in _EGN_BOOL_KEYS:
        if key in ruleset and not isinstance(ruleset[key], bool):
            raise _fail(source, f"{path}.{key}", f"must be true or false, not {json.dumps(ruleset[key])}")
    for key in _EGN_INT_KEYS:
        value = ruleset.get(key)
        if key in ruleset and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise _fail(source, f"{path}.{key}", f"must be a non-negative integer, not {json.dumps(value)}")
    for key in _UNPLAYABLE:
        if ruleset.get(key):
            raise _fail(source, f"{path}.{key}", "changes the score and is not supported by this engine")
    if ruleset.get("num_players", 4) != 4:
        raise _fail(source, f"{path}.num_players", "only 4-player games are supported")

    changes: dict[str, Any] = {}
    changes["stick_the_dealer"] = bool(ruleset.get("stick_the_dealer", ruleset.get("std", True)))
    changes["dealer_partner_must_go_alone"] = bool(ruleset.get("canadian", False))
    lead = ruleset.get("loner_lead", "LEFT_OF_DEALER")
    try:
        changes["loner_lead"] = LonerLead(str(lead).lower())
    except ValueError:
        problem = f'must be "LEFT_OF_DEALER" or "LEFT_OF_LONER", not {lead!r}'
        raise _fail(source, f"{path}.loner_lead", problem) from None
    num_deals = ruleset.get("num_deals", 0)
    winning = ruleset.get("winning_score", 0 if num_deals else 10)
    if winning and num_deals:
        raise _fail(source, path, "winning_score and num_deals are both set; EGN allows one completion condition")
    if not winning and not num_deals:
        raise _fail(source, path, "winning_score and num_deals are both 0; the game would never end")
    changes["target"] = winning
    changes["num_deals"] = num_deals
    changes["loner_march_points"] = ruleset.get("loner_march_score", 4)
    changes["loner_euchred_points"] = ruleset.get("loner_euchred_score", 2)
    if ruleset.get("defend_alone", False):
        changes["defender_may_go_alone"] = DefenderAlone.AGAINST_LONE_MAKER
        changes["lone_defender_scoring"] = LoneDefenderScoring.FOUR_FOR_THREE_PLUS
    min_rank = ruleset.get("min_rank", 9)
    joker = bool(ruleset.get("joker", False))
    if (min_rank, joker) not in _DECKS:
        raise _fail(source, f"{path}.min_rank", f"no supported deck has min_rank {min_rank} (joker {joker})")
    changes["deck_size"] = _DECKS[(min_rank, joker)]
    changes["no_trump"] = bool(ruleset.get("allow_no_trump", False))
    changes["farmers_hand"] = bool(ruleset.get("farmers", False) or ruleset.get("go_under", False))
    changes["call_for_best"] = bool(ruleset.get("partners_best", False))

    known = set(_EGN_BOOL_KEYS) | set(_EGN_INT_KEYS) | {"loner_lead"}
    extension: dict[str, Any] = {}
    for key, value in ruleset.items():
        if key in known:
            continue
        if key in _RULES_FIELDS:
            extension[key] = value
        else:
            warnings.append(f"{source}: {path}.{key}: unknown ruleset key, ignored")
    try:
        rules = Rules.preset("north_american").replace(**changes)
        if extension:
            rules = Rules.from_dict(extension, base=rules)
    except RulesError as exc:
        raise _fail(source, path, str(exc)) from None
    return rules, warnings


def ruleset_from_rules(rules: Rules) -> dict[str, Any]:
    """An EGN ``ruleset`` for ``rules``: the EGN keys, plus each switch EGN cannot say, by its field name."""
    out: dict[str, Any] = {
        "std": rules.stick_the_dealer,
        "canadian": rules.dealer_partner_must_go_alone,
        "loner_lead": rules.loner_lead.value.upper(),
    }
    if rules.num_deals:
        # EGN allows one completion condition; a target as well is carried by its field name below.
        out["winning_score"] = 0
        out["num_deals"] = rules.num_deals
    else:
        out["winning_score"] = rules.target
    if rules.loner_march_points != 4:
        out["loner_march_score"] = rules.loner_march_points
    if rules.loner_euchred_points != 2:
        out["loner_euchred_score"] = rules.loner_euchred_points
    if rules.defender_may_go_alone is not DefenderAlone.NEVER:
        out["defend_alone"] = True
    min_rank = {24: 9, 25: 9, 28: 8, 32: 7, 33: 7}[rules.deck_size]
    if min_rank != 9:
        out["min_rank"] = min_rank
    if rules.has_benny:
        out["joker"] = True
    if rules.no_trump:
        out["allow_no_trump"] = True
    if rules.farmers_hand:
        out["farmers"] = True
    if rules.call_for_best:
        out["partners_best"] = True
    # Whatever the EGN keys do not pin down exactly goes by field name (read back by rules_from_ruleset).
    implied, _ = rules_from_ruleset(out)
    for f in fields(Rules):
        mine, theirs = getattr(rules, f.name), getattr(implied, f.name)
        if mine != theirs and f.name not in out:
            out[f.name] = mine.value if hasattr(mine, "value") else mine
    return out


# ---------------------------------------------------------------- seats


def _out(alone_seats: Sequence[int]) -> set[int]:
    """The partners who sit out while these seats play alone."""
    return {(s + 2) % 4 for s in alone_seats}
