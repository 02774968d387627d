"""EGN 1.4 (Euchre Game Notation) import and export: files in, engine inputs out, and a match back to EGN.

Import is two steps. :func:`parse_egn` checks the JSON against the spec and
turns it into plain records (rules, deals, calls, cards, annotations); any
problem raises :class:`EgnError` naming the file, the JSON path
(``deals[2].phases[1].tricks[3][1]``) and what is wrong. :func:`replay_egn`
then feeds each deal to the engine as inputs; the seat of every card comes
from the engine's ``expected.seat``, exactly as EGN's "deterministic
minimalism" intends (the file never says who played a card).

Decisions where the spec leaves room (kept here so readers and writers agree):

- **ruleset**: ``std`` (default true, per the spec) is stick-the-dealer unless a
  ``stick_the_dealer`` key says otherwise; ``canadian`` is
  ``dealer_partner_must_go_alone``; ``loner_lead``; ``winning_score`` (default
  10) and ``num_deals`` (``winning_score`` 0 or omitted with ``num_deals`` N =
  N fixed deals; both set, or neither, is an error); ``loner_march_score``,
  ``loner_euchred_score``; ``defend_alone`` = a defender may go alone against a
  lone maker and scores 4 for 3 or more tricks; ``min_rank`` 9/8/7 and
  ``joker`` pick the deck; ``allow_no_trump``; ``farmers`` and ``go_under``
  (both the farmer's hand swap), ``partners_best`` (call for best);
  ``num_players`` must be 4. ``fast_break`` and ``four_trick_tokens`` change
  the score and this engine does not play them: true is an error, false is
  fine. Any key that is a field of :class:`table.rules.Rules`
  (``win_by_two``, ``super_euchre``...) sets that switch: this is how an
  exported file carries rules EGN has no key for, and it wins over the EGN
  keys. Any other key is unknown: a warning, never an error (it cannot be
  scored, but the rest of the game can).
- **calls**: ``"Pass"``; in round 1 ``"Order"`` (also ``"PickUp"``,
  ``"Call"``, ``"Assist"``; ``"Alone"`` = order up alone); in round 2 a suit
  letter (``"n"`` = no trump where allowed). ``isAlone`` means the maker went
  alone, ``aloneDefender`` (seat, -1 = none) that a defender did.
- **cards**: ``9c``/``Nc``, ``B`` for the Benny, ``R``/``L`` (or ``Rh``/``Lh``
  naming the trump suit) for the bowers once trump is known. Partly known
  cards (``Xc``, ``Jx``) and generic suits (``t``, ``n``, ``g``; ``h`` always
  means hearts) are refused: a card the engine cannot identify cannot be
  scored. The wholly unknown card ``Xx`` is read in two places only, where
  the companion saw that a card was there but never read it: as the
  ``upCard`` of a deal with no phases (a deal the table played while the
  camera missed its up-card: recorded, not scored, and the rotation moves on
  past it), and in a trick, with ``playSeats`` saying whose it was (the trick
  its winner's next lead closed; the replay skips the card, as the engine
  never had it).
- **discard**: when the dealer took up, a Discard input with the card, or
  ``None`` when not recorded (an unseen discard still opens the play). A
  discard next to the dealer's partner going alone means the partner declared
  alone after the discard, and is replayed in that order.
- **annotations** are commentary and are kept as they are; the engine decides
  reneges itself from the cards. Export writes each proven renege and each
  irregularity as a ``playAnnotations`` entry at the card that proved it.
- **a misdeal**: EGN lets annotations record "events like reneges or misdeals"
  but gives them no fixed form. Here an annotation of a deal (bidding or play,
  any index) whose text, after an optional label tag, begins with the word
  ``Misdeal`` marks the deal void: what it records is replayed, then a
  ``Misdeal`` input; it scores nothing and the same dealer deals the next deal.
  ``Misdeal (nines and tens, seat 2)`` is a redeal claimed for seat 2's hand of
  nines and tens. Export writes ``[?]Misdeal: seat 0's deal is void; seat 0
  deals again`` (with the claim in brackets after ``Misdeal``) at the last call
  or card before it. A deal that was played out or thrown in stays as played
  (EGN's replayer notes call a hand everyone passed a "misdeal/all-pass").
- **a proven renege**: the engine waits for the table's decision. A file this
  module wrote says ``penalty accepted`` in the renege annotation; any other
  file played on, which is a dismissal (that is what every other EGN
  replayer scores).
- **dealer**: each deal's ``initialState.dealer`` must be the dealer the
  rotation gives: the next seat, or the same seat again after a misdeal (a deal
  not seen counts in the rotation). EGN has no notation for a deal out of turn,
  so any other dealer is an error.
- **game over**: deals after the game is won are not replayed (a warning);
  ``metadata.finalScore``, when present, is checked against the replay.
- **extensions** this module writes only where plain EGN cannot say what the
  table did, and reads back (other readers ignore them): ``callSeats`` (a bid
  out of turn), ``aloneSeats`` (lone players other than the maker and one
  defender, in order), ``unseenExchanges`` (call for best, farmer's hand) in
  the bidding phase; ``playSeats`` (a card out of turn, or one not seen) in the trick play;
  ``setAside`` (Bennies turned up and put aside before the up-card) in
  ``initialState``; ``blindLone`` (the dealer alone on a turned-up jack
  before looking, Robson rules) in the bidding phase.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from table.announcements import Expect, IrregularityKind, Prompt, RenegeEvidence
from table.cards import BENNY, Card, CardParseError, Rank, Suit
from table.deal import DealRecord
from table.inputs import (
    AcceptPenalty,
    Discard,
    Exchange,
    GoAlone,
    Input,
    Misdeal,
    NameTrump,
    OrderUp,
    Pass,
    Play,
    UpCard,
)
from table.limits import LimitError, loads_json, paused_gc, read_limited
from table.match import DealProgress, Match
from table.rules import DefenderAlone, LoneDefenderScoring, LonerLead, Rules, RulesError

__all__ = [
    "EGN_FILE_TYPE",
    "EGN_VERSION",
    "EgnDeal",
    "EgnError",
    "EgnGame",
    "EgnReplay",
    "dumps_egn",
    "export_egn",
    "import_egn",
    "load_egn",
    "loads_egn",
    "misdeal_in_note",
    "misdeal_note",
    "parse_egn",
    "parse_egn_card",
    "renege_note",
    "replay_egn",
    "rules_from_ruleset",
    "ruleset_from_rules",
]

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


# ---------------------------------------------------------------- cards


_EGN_CARDS: dict[tuple[str, Suit | None, bool], Card] = {}  # every card text read so far (a few hundred at most)
# The same, by trump and whether the deck has a Benny, then by text (a trick's cards are looked up in one go).
_CARD_TABLES: dict[tuple[Suit | None, bool], dict[str, Card]] = {}


def _card_table(trump: Suit | None, allow_benny: bool) -> dict[str, Card]:
    table = _CARD_TABLES.get((trump, allow_benny))
    if table is None:
        table = _CARD_TABLES[trump, allow_benny] = {}
    return table


def parse_egn_card(text: Any, trump: Suit | None = None, *, allow_benny: bool = True) -> Card:
    """One EGN card: ``"9c"``, ``"Nc"``, ``"B"``, ``"R"``/``"L"`` (or with the trump letter) given trump.

    Raises ``ValueError`` with the reason for ``X``, generic suits, or anything else.
    """
    if type(text) is str:
        known = _EGN_CARDS.get((text, trump, allow_benny))
        if known is not None:
            return known  # a long game names the same few cards thousands of times
    card = _parse_egn_card(text, trump, allow_benny)
    if len(_EGN_CARDS) < 4096:
        _EGN_CARDS[text, trump, allow_benny] = card
        _card_table(trump, allow_benny)[text] = card
    return card


def _parse_egn_card(text: Any, trump: Suit | None, allow_benny: bool) -> Card:
    if not isinstance(text, str):
        raise ValueError(f'a card must be a string such as "Jd", not {json.dumps(text)}')
    s = text.strip()
    if s in ("B", "b"):
        if not allow_benny:
            raise ValueError('"B" (the Benny) is not in this deck; set "joker": true in the ruleset')
        return BENNY
    if "X" in s or "x" in s:
        raise ValueError(f"{s!r} is an unknown card (X); unknown cards cannot be scored")
    if s[:1] in ("R", "L"):
        rest = s[1:]
        if trump is None:
            raise ValueError(f"{s!r} names a bower, but trump is not known here")
        if rest not in ("", trump.value) and not (s[0] == "L" and rest == trump.partner.value):
            raise ValueError(f"{s!r} does not name a bower when {trump.noun} are trump")
        return Card.of(Rank.JACK, trump if s[0] == "R" else trump.partner)
    if len(s) == 2 and s[1] in ("t", "n", "g"):
        raise ValueError(f"{s!r} uses a generic suit (t/n/g); cards with generic suits cannot be scored")
    try:
        return Card.parse(s)
    except CardParseError as exc:
        raise ValueError(f"{s!r} is not a card ({exc})") from None


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


# ---------------------------------------------------------------- parsing


def _seat(source: str, path: str, value: Any, *, allow_none: bool = False) -> int | None:
    if allow_none and (value is None or value == -1):
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise _fail(source, path, f"must be a seat 0-3, not {json.dumps(value)}")
    return int(value)


def _req_seat(source: str, path: str, value: Any) -> int:
    seat = _seat(source, path, value)
    assert seat is not None
    return seat


def _annotations(source: str, path: str, value: Any) -> dict[int, list[str]]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _fail(source, path, "must be an object mapping an index to a list of strings")
    out: dict[int, list[str]] = {}
    for key, notes in value.items():
        if not (isinstance(key, str) and key.isdigit()):
            raise _fail(source, f"{path}[{json.dumps(key)}]", "keys must be 0-based indexes written as strings")
        if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
            raise _fail(source, f"{path}[{json.dumps(key)}]", "must be a list of strings")
        out[int(key)] = list(notes)
    return out


def _parse_calls(source: str, path: str, raw: Any, up_card: Card, rules: Rules) -> list[str]:
    if not isinstance(raw, list):
        raise _fail(source, path, "must be a list of calls")
    calls: list[str] = []
    made = False
    for k, call in enumerate(raw):
        if call == "Pass" and not made:
            calls.append("Pass")  # (the common call, as the lines below would read it)
            continue
        if not isinstance(call, str):
            raise _fail(source, f"{path}[{k}]", f"a call must be a string, not {json.dumps(call)}")
        if made:
            raise _fail(source, f"{path}[{k}]", f"{call!r} comes after trump was already made")
        word = call.strip()
        if word.lower() == "pass":
            calls.append("Pass")
            continue
        made = True
        blind = up_card.is_benny and k == 0
        if word.lower() in ROUND_1_WORDS and not blind:
            if k >= 4:
                problem = f"{word!r} orders up the up-card, which only round 1 (calls 0-3) can do"
                raise _fail(source, f"{path}[{k}]", problem)
            calls.append("OrderAlone" if ROUND_1_WORDS[word.lower()] else "Order")
        elif word in ("c", "d", "h", "s"):
            if k < 4 and not blind:
                raise _fail(source, f"{path}[{k}]", f"naming a suit ({word!r}) is a round-2 call (calls 4-7)")
            calls.append(word)
        elif word == "n":
            if not rules.no_trump:
                raise _fail(source, f"{path}[{k}]", '"n" (no trump) needs "allow_no_trump": true in the ruleset')
            calls.append("n")
        else:
            problem = f"unknown call {word!r} (expected Pass, Order, or a suit letter c d h s)"
            raise _fail(source, f"{path}[{k}]", problem)
    if len(calls) > 8:
        raise _fail(source, path, f"{len(calls)} calls; bidding has at most 8")
    return calls


_NO_CARDS: list[Any] = []  # (a default never written to: no list built per deal)


def _parse_deal(source: str, path: str, raw: Any, number: int, rules: Rules, warnings: list[str]) -> EgnDeal:
    if not isinstance(raw, dict):
        if isinstance(raw, str):
            raise _fail(source, path, "a condensed (bit-packed) deal; only JSON EGN is supported, convert it first")
        raise _fail(source, path, "a deal must be an object")
    state = raw.get("initialState")
    if not isinstance(state, dict):
        raise _fail(source, f"{path}.initialState", "missing or not an object")
    dealer = state.get("dealer")
    if type(dealer) is not int or not 0 <= dealer <= 3:
        dealer = _req_seat(source, f"{path}.initialState.dealer", dealer)
    phases = raw.get("phases", [])
    if not isinstance(phases, list):
        raise _fail(source, f"{path}.phases", "must be a list")
    if state.get("upCard") == UNKNOWN_CARD:
        # A deal the companion saw played but never saw dealt: its dealer, and nothing else to replay.
        if phases or set(state) - {"dealer", "upCard"}:
            raise _fail(
                source,
                f"{path}.initialState.upCard",
                f"an unknown up-card ({UNKNOWN_CARD}) is accepted only for a deal with no phases (a deal not seen)",
            )
        return EgnDeal(number=number, dealer=dealer, up_card=None, path=path)
    try:
        up_card = parse_egn_card(state.get("upCard"), allow_benny=rules.has_benny)
    except ValueError as exc:
        raise _fail(source, f"{path}.initialState.upCard", str(exc)) from None
    deal = EgnDeal(number=number, dealer=dealer, up_card=up_card, path=path)
    aside = state.get("setAside", _NO_CARDS)
    if not isinstance(aside, list):
        raise _fail(source, f"{path}.initialState.setAside", "must be a list of cards")
    for k, text in enumerate(aside):
        try:
            deal.set_aside.append(parse_egn_card(text, allow_benny=rules.has_benny))
        except ValueError as exc:
            raise _fail(source, f"{path}.initialState.setAside[{k}]", str(exc)) from None
    hands = state.get("playerCards")
    if isinstance(hands, list) and any(hands):
        parsed: list[list[Card]] = []
        for s, hand in enumerate(hands):
            if not isinstance(hand, list):
                raise _fail(source, f"{path}.initialState.playerCards[{s}]", "must be a list of cards")
            cards = []
            for c, text in enumerate(hand):
                try:
                    cards.append(parse_egn_card(text, allow_benny=rules.has_benny))
                except ValueError as exc:
                    raise _fail(source, f"{path}.initialState.playerCards[{s}][{c}]", str(exc)) from None
            parsed.append(cards)
        deal.player_cards = parsed
    seen: set[str] = set()
    for p, phase in enumerate(phases):
        ppath = f"{path}.phases[{p}]"
        if not isinstance(phase, dict):
            raise _fail(source, ppath, "a phase must be an object")
        kind = phase.get("type")
        if kind not in (BIDDING, TRICK_PLAY):
            raise _fail(source, f"{ppath}.type", f"unknown phase type {kind!r} (expected {BIDDING} or {TRICK_PLAY})")
        if kind in seen:
            raise _fail(source, ppath, f"a second {kind} phase in one deal")
        seen.add(kind)
        if kind == BIDDING:
            if TRICK_PLAY in seen:
                raise _fail(source, ppath, "the bidding phase comes after the trick play")
            _parse_bidding(source, ppath, phase, deal, rules)
        else:
            if BIDDING not in seen:
                raise _fail(source, ppath, "trick play without a bidding phase before it")
            _parse_tricks(source, ppath, phase, deal, rules)
    if deal.call_annotations or deal.play_annotations:
        for notes in (*deal.call_annotations.values(), *deal.play_annotations.values()):
            for note in notes:
                if deal.misdeal is None:
                    deal.misdeal = misdeal_in_note(note)
    if "cardExchanges" in raw or any([isinstance(ph, dict) and ph.get("cardExchanges") for ph in phases]):
        warnings.append(f"{source}: {path}: cardExchanges are not replayed (cards swapped unseen)")
    alt = raw.get("alternativeLines", [])
    if not isinstance(alt, list):
        raise _fail(source, f"{path}.alternativeLines", "must be a list")
    deal.alternative_lines = alt
    return deal


def _parse_bidding(source: str, path: str, phase: dict[str, Any], deal: EgnDeal, rules: Rules) -> None:
    assert deal.up_card is not None  # a deal not seen has no phases
    deal.calls = _parse_calls(source, f"{path}.calls", phase.get("calls", []), deal.up_card, rules)
    if "callSeats" in phase:
        seats = phase["callSeats"]
        if not isinstance(seats, list) or len(seats) != len(deal.calls):
            raise _fail(source, f"{path}.callSeats", "must list one seat per call")
        deal.call_seats = [_req_seat(source, f"{path}.callSeats[{k}]", v) for k, v in enumerate(seats)]
    blind = phase.get("blindLone", False)
    if not isinstance(blind, bool) or (blind and (deal.calls or deal.up_card.rank is not Rank.JACK)):
        raise _fail(source, f"{path}.blindLone", "only the dealer, on a turned-up jack and before any call")
    deal.blind = blind
    alone = phase.get("isAlone", False)
    if not isinstance(alone, bool):
        raise _fail(source, f"{path}.isAlone", f"must be true or false, not {json.dumps(alone)}")
    deal.is_alone = alone or "OrderAlone" in deal.calls
    defender = phase.get("aloneDefender")
    if defender is not None:
        deal.alone_defender = _seat(source, f"{path}.aloneDefender", defender, allow_none=True)
    if deal.alone_defender is not None:
        k = deal.maker_call_index
        if k is None:
            raise _fail(source, f"{path}.aloneDefender", "a defender went alone but no one made trump")
        maker = deal.call_seat(k)
        if deal.alone_defender % 2 == maker % 2:
            raise _fail(source, f"{path}.aloneDefender", f"seat {deal.alone_defender} is on the makers' side")
    if phase.get("discard") is not None:
        try:
            deal.discard = parse_egn_card(phase["discard"], deal.trump, allow_benny=rules.has_benny)
        except ValueError as exc:
            raise _fail(source, f"{path}.discard", str(exc)) from None
    notes = phase.get("callAnnotations")
    if notes is not None:
        deal.call_annotations = _annotations(source, f"{path}.callAnnotations", notes)
    if "aloneSeats" in phase:
        seats = phase["aloneSeats"]
        if not isinstance(seats, list) or len(seats) > 2:
            raise _fail(source, f"{path}.aloneSeats", "must list at most two seats")
        deal.alone_seats = [_req_seat(source, f"{path}.aloneSeats[{k}]", v) for k, v in enumerate(seats)]
    exchanges = phase.get("unseenExchanges", [])
    if not isinstance(exchanges, list):
        raise _fail(source, f"{path}.unseenExchanges", "must be a list")
    for k, ex in enumerate(exchanges):
        where = f"{path}.unseenExchanges[{k}]"
        if not isinstance(ex, dict) or ex.get("kind") not in ("call_for_best", "farmers_hand", "nines_and_tens"):
            raise _fail(source, where, 'must be {"seat": 0-3, "kind": "call_for_best" | "farmers_hand" | ...}')
        deal.exchanges.append((_req_seat(source, f"{where}.seat", ex.get("seat")), str(ex["kind"])))


def _parse_tricks(source: str, path: str, phase: dict[str, Any], deal: EgnDeal, rules: Rules) -> None:
    if deal.maker_call_index is None and not deal.blind:
        raise _fail(source, path, "cards were played but no one made trump")
    tricks = phase.get("tricks", [])
    if not isinstance(tricks, list):
        raise _fail(source, f"{path}.tricks", "must be a list of tricks")
    if len(tricks) > 5:
        raise _fail(source, f"{path}.tricks", f"{len(tricks)} tricks; a hand has 5")
    trump = deal.trump
    benny = rules.has_benny
    active = 4 - len(set(deal.all_alone))
    known = _card_table(trump, benny).get
    for t, trick in enumerate(tricks):
        if not isinstance(trick, list):
            raise _fail(source, f"{path}.tricks[{t}]", "a trick must be a list of cards")
        if len(trick) > active:
            problem = f"{len(trick)} cards, but only {active} players are in this hand"
            raise _fail(source, f"{path}.tricks[{t}]", problem)
        # Cards read before under this trump, in one go; anything else (a new text, "Xx", not a string) alone.
        try:
            cards: list[Card | None] = list(map(known, trick))
        except TypeError:  # a list or an object where a card belongs (not hashable)
            cards = [None]
        if not all(cards):
            cards = []
            for c, text in enumerate(trick):
                if text == UNKNOWN_CARD:
                    cards.append(None)  # played, but not seen: the replay skips it
                    continue
                try:
                    cards.append(parse_egn_card(text, trump, allow_benny=benny))
                except ValueError as exc:
                    raise _fail(source, f"{path}.tricks[{t}][{c}]", str(exc)) from None
        deal.tricks.append(cards)
    notes = phase.get("playAnnotations")
    if notes is not None:
        deal.play_annotations = _annotations(source, f"{path}.playAnnotations", notes)
    if "playSeats" in phase:
        seats = phase["playSeats"]
        if not isinstance(seats, list) or [len(x) if isinstance(x, list) else -1 for x in seats] != [
            len(t) for t in deal.tricks
        ]:
            raise _fail(source, f"{path}.playSeats", "must list one seat per card, trick by trick")
        deal.play_seats = [
            [_req_seat(source, f"{path}.playSeats[{t}][{c}]", v) for c, v in enumerate(row)]
            for t, row in enumerate(seats)
        ]


def _players(source: str, raw: Any) -> list[str]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise _fail(source, "metadata.players", "must be a list")
    names = []
    for k, p in enumerate(raw):
        if isinstance(p, str):
            names.append(p)
        elif isinstance(p, dict) and isinstance(p.get("name"), str):
            names.append(p["name"])
        else:
            raise _fail(source, f"metadata.players[{k}]", 'must be a name or an object with a "name"')
    return names


def _score(source: str, path: str, raw: Any) -> tuple[int, int]:
    if not isinstance(raw, list) or len(raw) != 2 or any(isinstance(v, bool) or not isinstance(v, int) for v in raw):
        raise _fail(source, path, f"must be a list of two integers, not {json.dumps(raw)}")
    return (raw[0], raw[1])


def parse_egn(obj: Any, source: str = "<egn>") -> EgnGame:
    """Check an EGN JSON value and turn it into an :class:`EgnGame`; raises :class:`EgnError`."""
    if not isinstance(obj, dict):
        raise _fail(source, "", "not EGN: the top level must be a JSON object")
    file_type = obj.get("fileType")
    if file_type == "Euchre Match Notation":
        raise _fail(source, "fileType", "an EMN match file; replay its games one EGN file at a time")
    if file_type != EGN_FILE_TYPE:
        raise _fail(source, "fileType", f'not EGN (expected "{EGN_FILE_TYPE}", found {json.dumps(file_type)})')
    version = obj.get("version")
    warnings: list[str] = []
    if isinstance(version, int | float) and not isinstance(version, bool):
        raise _fail(
            source, "version", f'must be a string such as "{EGN_VERSION}", not the number {json.dumps(version)}'
        )
    if not isinstance(version, str) or not version.startswith("1."):
        raise _fail(source, "version", f"EGN version {json.dumps(version)} is not supported (expected 1.x)")
    if version != EGN_VERSION:
        warnings.append(f"{source}: version: EGN {version}, read as {EGN_VERSION}")
    meta = obj.get("metadata", {})
    if not isinstance(meta, dict):
        raise _fail(source, "metadata", "must be an object")
    rules, rule_warnings = rules_from_ruleset(meta.get("ruleset", {}), source=source)
    warnings += rule_warnings
    score = _score(source, "metadata.initialScore", meta.get("initialScore", [0, 0]))
    final = meta.get("finalScore")
    final_score = None if final is None else _score(source, "metadata.finalScore", final)
    deals_raw = obj.get("deals")
    if not isinstance(deals_raw, list):
        raise _fail(source, "deals", "missing or not a list")
    deals = []
    for d, raw in enumerate(deals_raw):
        deals.append(_parse_deal(source, f"deals[{d}]", raw, d, rules, warnings))
    return EgnGame(
        source=source,
        rules=rules,
        first_dealer=deals[0].dealer if deals else 0,
        initial_score=score,
        deals=deals,
        players=_players(source, meta.get("players")),
        metadata=dict(meta),
        final_score=final_score,
        warnings=warnings,
    )


# A long night of 3,000 deals exports to about 6 MB; an archive's game is far smaller.
MAX_EGN_BYTES = 64 * 1024 * 1024


def load_egn(path: str | os.PathLike[str]) -> EgnGame:
    """Read and parse an EGN file; every problem is an :class:`EgnError` naming the file."""
    p = Path(path)
    try:
        text = read_limited(p, MAX_EGN_BYTES).decode("utf-8-sig")  # a byte-order mark from Windows is fine
    except LimitError as exc:
        raise EgnError(f"{p}: {exc}") from None
    except FileNotFoundError:
        raise EgnError(f"{p}: no such file") from None
    except UnicodeDecodeError:
        raise EgnError(f"{p}: not a text file (a binary .egnb file? convert it to JSON EGN first)") from None
    except OSError as exc:
        raise EgnError(f"{p}: cannot read: {exc.strerror or exc}") from None
    return loads_egn(text, str(p))


def loads_egn(text: str, source: str = "<egn>") -> EgnGame:
    with paused_gc():  # (the JSON of a long night is some 200,000 lists and objects)
        try:
            obj = loads_json(text, max_bytes=MAX_EGN_BYTES)
        except LimitError as exc:
            raise EgnError(f"{source}: {exc}") from None
        except ValueError as exc:
            raise EgnError(f"{source}: not JSON ({exc})") from None
        return parse_egn(obj, source)


# ---------------------------------------------------------------- replay through the engine


@dataclass
class EgnReplay:
    """A parsed game folded through the engine: the match, the inputs of each deal, and all warnings."""

    game: EgnGame
    match: Match
    deal_inputs: list[list[Input]]
    warnings: list[str]

    @property
    def inputs(self) -> list[Input]:
        return [inp for deal in self.deal_inputs for inp in deal]


def _call_input(call: str, seat: int, alone: bool) -> Input:
    if call == "Pass":
        return Pass(seat)
    if call in ("Order", "OrderAlone"):
        return OrderUp(seat, alone=alone)
    return NameTrump(seat, None if call == "n" else Suit(call), alone=alone)


def _penalty_accepted(deal: EgnDeal) -> bool:
    return any(
        note.startswith(RENEGE_TAG) and note.rstrip(".").endswith(PENALTY_ACCEPTED)
        for notes in deal.play_annotations.values()
        for note in notes
    )


def replay_egn(game: EgnGame) -> EgnReplay:
    """Feed every deal of ``game`` to a new :class:`Match`; raises :class:`EgnError` where the file and the
    engine disagree on the shape of the game (a dealer out of rotation, a trick with too many cards...).
    """
    with paused_gc():
        return _replay_egn(game)


def _replay_egn(game: EgnGame) -> EgnReplay:
    src = game.source
    match = Match(game.rules, game.first_dealer, game.initial_score)
    warnings = list(game.warnings)
    all_inputs: list[list[Input]] = []

    prompt: list[Prompt | None] = [None]  # the prompt after the last input fed (apply returns it last)
    # Inputs are immutable: one instance of each, shared by every deal that feeds it.
    plays: list[dict[int, Play]] = [{}, {}, {}, {}]  # by seat, then by the card's id (the Play keeps it alive)
    up_cards: dict[int, UpCard] = {}
    bids: dict[tuple[str, int, bool], Input] = {}
    discards: dict[tuple[int, int], Discard] = {}  # by seat and the card's id (id(None) for one not seen)
    apply = match.apply
    lead, follow, prompt_type = _LEAD, _FOLLOW, Prompt

    def feed(inp: Input, into: list[Input]) -> None:
        said = apply(inp)
        into.append(inp)
        last = said[-1] if said else None
        prompt[0] = last if isinstance(last, Prompt) else None

    unseen = 0  # deals not seen since the last one replayed: the next up-card records them
    for deal in game.deals:
        if match.game_over:
            warnings.append(
                f"{src}: {deal.path}: the game was already over at {match.score[0]}-{match.score[1]}; "
                f"{len(game.deals) - deal.number} deal(s) from here not replayed"
            )
            break
        # A deal left unfinished is one the table moved on from: this deal's up-card closes it.
        # (match.last_progress, never match.deals[-1]: that copies every deal so far, for each card.)
        last = match.last_progress
        unfinished = last is not None and not last.finished and last.up_card is not None
        inputs: list[Input] = []
        all_inputs.append(inputs)
        expected_dealer = ((last.dealer + 1) % 4 if last is not None and unfinished else match.dealer) + unseen
        if deal.dealer != expected_dealer % 4:
            again = last is not None and deal.dealer == last.dealer
            hint = " (the same dealer deals again only after a deal annotated as a misdeal)" if again else ""
            raise _fail(
                src,
                f"{deal.path}.initialState.dealer",
                f"seat {deal.dealer} deals, but the rotation gives seat {expected_dealer % 4}{hint}",
            )
        if deal.up_card is None:
            unseen += 1
            continue
        for k, card in enumerate([*deal.set_aside, deal.up_card]):
            if k or not (unfinished or unseen):
                up = up_cards.get(id(card))  # (keyed like plays: the UpCard keeps its card alive)
                if up is None:
                    up = up_cards[id(card)] = UpCard(card)
            else:
                up = UpCard(card, next_deal=unfinished, unseen_deals=unseen)
            feed(up, inputs)
            if (unfinished or unseen) and match.game_over:
                break  # the unfinished hand's points, or the deals not seen, ended the game
        if match.game_over and (unfinished or unseen):
            before = "the unfinished deal before it" if unfinished else "the deals not seen before it"
            warnings.append(
                f"{src}: {deal.path}: {before} ended the game at "
                f"{match.score[0]}-{match.score[1]}; {len(game.deals) - deal.number} deal(s) from here not replayed"
            )
            break
        unseen = 0
        if deal.blind:
            feed(GoAlone(deal.dealer), inputs)
        alone = deal.all_alone
        maker_k = deal.maker_call_index
        # A discard while the dealer's partner is alone: the partner declared alone after the dealer had
        # taken up and discarded (a late declaration), so declare it after the discard, as it happened.
        late = (
            deal.discard is not None
            and maker_k is not None
            and deal.calls[maker_k] in ("Order", "OrderAlone")
            and deal.call_seat(maker_k) == (deal.dealer + 2) % 4
        )
        plain_seats = deal.call_seats is None and not deal.up_card.is_benny  # calls go round from the dealer
        for k, call in enumerate(deal.calls):
            seat = (deal.dealer + 1 + k) % 4 if plain_seats else deal.call_seat(k)
            key = (call, seat, k == maker_k and seat in alone and not late)
            bid = bids.get(key)
            if bid is None:
                bid = bids[key] = _call_input(*key)
            said = apply(bid)
            inputs.append(bid)
            told = said[-1] if said else None
            prompt[0] = told if type(told) is Prompt else None
        void_before_discard = deal.misdeal is not None and deal.discard is None and not deal.tricks
        due = prompt[0]  # (what match.expected would say: apply ends with the prompt)
        if (due if due is not None else match.expected).expected is Expect.DISCARD and not void_before_discard:
            # The dealer took up: the discard, seen or not (None), opens the play and its lead.
            discard = discards.get((deal.dealer, id(deal.discard)))
            if discard is None:
                discard = discards[deal.dealer, id(deal.discard)] = Discard(deal.dealer, deal.discard)
            feed(discard, inputs)
        elif deal.discard is not None:
            warnings.append(f"{src}: {deal.path}: a discard is recorded, but the dealer did not take up; ignored")
        for seat in alone:
            if seat not in _progress(match).alone_seats:
                feed(GoAlone(seat), inputs)
        for seat, kind in deal.exchanges:
            feed(Exchange(seat, kind), inputs)
        last_trick = len(deal.tricks) - 1
        append = inputs.append
        for t, trick in enumerate(deal.tricks):
            seats = None if deal.play_seats is None else deal.play_seats[t]
            short = False
            due = prompt[0]
            for c, played in enumerate(trick):
                if played is None:
                    short = True
                    continue  # a card not seen: the next trick's lead closes this one
                # A card the engine asks for (the lead of a new trick, or a card to follow the one open): the
                # hand is not over and no trick closed early. Anything else is checked in full.
                if due is None or due.expected is not (follow if c else lead):
                    finished, closed = match.play_check
                    if finished:
                        where = f"{deal.path}.phases[1].tricks[{t}][{c}]"
                        raise _fail(src, where, f"a card after the hand ended ({_last(match).reason})")
                    if closed > t:
                        players = 4 - len(_out(_progress(match).alone_seats))
                        where = f"{deal.path}.phases[1].tricks[{t}]"
                        raise _fail(src, where, f"{len(trick)} cards, but only {players} players are in this hand")
                if seats is not None:
                    seat = seats[c]
                else:
                    next_seat = due.seat if due is not None else match.expected.seat
                    if next_seat is None:
                        raise _fail(src, f"{deal.path}.phases[1].tricks[{t}][{c}]", "no one is due to play here")
                    seat = next_seat
                # One (immutable) Play per seat and card, shared by every deal; keyed by the card's identity,
                # which the Play itself keeps alive.
                by_card = plays[seat]
                play = by_card.get(id(played))
                if play is None:
                    play = by_card[id(played)] = Play(seat, played)
                said = apply(play)
                append(play)
                told = said[-1] if said else None
                due = told if type(told) is prompt_type else None
            prompt[0] = due
            if t < last_trick and not short:
                finished, closed = match.play_check
                if not finished and closed != t + 1:
                    players = 4 - len(_out(_progress(match).alone_seats))
                    where = f"{deal.path}.phases[1].tricks[{t}]"
                    raise _fail(src, where, f"{len(trick)} cards, but {players} players are in this hand")
        if deal.misdeal is not None:
            record = _last(match)
            if not record.finished:
                feed(deal.misdeal, inputs)
            elif not record.thrown_in:
                warnings.append(
                    f"{src}: {deal.path}: annotated as a misdeal, but the hand was played to its end; scored as played"
                )
        if deal.play_annotations and _penalty_accepted(deal):
            feed(AcceptPenalty(), inputs)
    if unseen and not match.game_over:
        warnings.append(
            f"{src}: the last {unseen} deal(s) were not seen and no deal follows them; they are not replayed"
        )
    if game.final_score is not None and game.final_score != match.score:
        warnings.append(
            f"{src}: metadata.finalScore: the file says {game.final_score[0]}-{game.final_score[1]}, "
            f"the replay ends {match.score[0]}-{match.score[1]}"
        )
    return EgnReplay(game, match, all_inputs, warnings)


_LEAD = Expect.LEAD
_FOLLOW = Expect.FOLLOW


def _last(match: Match) -> DealRecord:
    """The deal being replayed (one is, once its up-card is fed)."""
    record = match.last_deal
    assert record is not None
    return record


def _progress(match: Match) -> DealProgress:
    """Where the deal being replayed stands (cheap enough to ask after every card)."""
    progress = match.last_progress
    assert progress is not None
    return progress


def _out(alone_seats: Sequence[int]) -> set[int]:
    return {(s + 2) % 4 for s in alone_seats}


def import_egn(path: str | os.PathLike[str]) -> EgnReplay:
    """Load, check and replay an EGN file."""
    return replay_egn(load_egn(path))


# ---------------------------------------------------------------- export


def _call_text(call: Pass | OrderUp | NameTrump) -> str:
    if isinstance(call, Pass):
        return "Pass"
    if isinstance(call, OrderUp):
        return "Order"
    return "n" if call.suit is None else call.suit.value


def renege_note(e: RenegeEvidence, accepted: bool = False) -> str:
    """The annotation for a proven renege, e.g. ``[??]Renege: seat 3 showed out of hearts in trick 2 ...``."""
    text = (
        f"{RENEGE_TAG}seat {e.seat} showed out of {e.suit.noun} in trick {e.showed_out_trick + 1} "
        f"(played {e.showed_out_card} to {e.led_card}), "
    )
    if e.proof == "held_up_card":
        text += f"while holding the up-card {e.proof_card}"
    else:
        text += f"played {e.proof_card} in trick {e.proof_trick + 1}"
    return text + (f"; {PENALTY_ACCEPTED}" if accepted else "")


def _play_index(tricks: list[list[tuple[int, Card]]], trick: int, seat: int, card: Card | None) -> int | None:
    k = 0
    for t, plays in enumerate(tricks):
        for s, c in plays:
            if t == trick and s == seat and (card is None or c == card):
                return k
            k += 1
    return None


def _generated(note: str) -> bool:
    return note.startswith((RENEGE_TAG, IRREGULARITY_TAG)) or _MISDEAL_WRITTEN.fullmatch(note) is not None


def _merge(into: dict[str, list[str]], key: int, note: str) -> None:
    into.setdefault(str(key), []).append(note)


def _export_deal(record: DealRecord, number: int, source: EgnDeal | None) -> dict[str, Any] | None:
    if record.reason == "unseen":
        return {"dealNumber": number, "initialState": {"dealer": record.dealer, "upCard": UNKNOWN_CARD}, "phases": []}
    if record.up_card is None:
        return None  # a Benny set aside and no up-card yet: nothing EGN can say
    # A blind lone is the dealer's declaration before any call: "blindLone" says it, not the calls.
    calls = [] if record.blind else [_call_text(c) for c in record.calls]
    bidding: dict[str, Any] = {"phaseNumber": 0, "type": BIDDING, "calls": calls}
    maker = record.maker_seat
    alone = list(record.alone_seats)
    maker_alone = maker is not None and maker in alone
    bidding["isAlone"] = maker_alone
    defenders = [s for s in alone if maker is not None and s % 2 != maker % 2]
    if defenders:
        bidding["aloneDefender"] = defenders[0]
    # What isAlone and aloneDefender say, in the order the importer declares them; anything else is spelt out.
    expressible = ([maker] if maker is not None and maker_alone else []) + defenders[:1]
    if alone != expressible:
        bidding["aloneSeats"] = alone
    if record.blind:
        bidding["blindLone"] = True
    if record.discard is not None:
        bidding["discard"] = str(record.discard)
    kinds = {i.kind for i in record.irregularities}
    if IrregularityKind.BID_OUT_OF_TURN in kinds and record.calls:
        bidding["callSeats"] = [c.seat for c in record.calls]
    if record.exchanges:
        bidding["unseenExchanges"] = [{"seat": e.seat, "kind": e.kind} for e in record.exchanges]
    call_notes: dict[str, list[str]] = {}
    play_notes: dict[str, list[str]] = {}
    if source is not None:
        for index, notes in source.call_annotations.items():
            for note in notes:
                if not _generated(note):
                    _merge(call_notes, index, note)
        for index, notes in source.play_annotations.items():
            for note in notes:
                if not _generated(note):
                    _merge(play_notes, index, note)
    accepted = record.reneges[-1] if record.penalty_accepted and record.reneges else None
    k: int | None
    for e in record.reneges:
        if e.proof == "held_up_card":
            k = _play_index(record.tricks, e.showed_out_trick, e.seat, e.showed_out_card)
        else:
            k = _play_index(record.tricks, e.proof_trick, e.seat, e.proof_card)
        _merge(play_notes, k if k is not None else 0, renege_note(e, e is accepted))
    last_call = max(len(calls) - 1, 0)
    # A misdeal goes after the last call or card before it, unless the source's own words already say it.
    said = any(misdeal_in_note(n) is not None for notes in (*call_notes.values(), *play_notes.values()) for n in notes)
    plays = sum(len(trick) for trick in record.tricks)
    for irr in record.irregularities:
        if irr.kind is IrregularityKind.MISDEAL:
            if not said:
                _merge(
                    play_notes if plays else call_notes,
                    plays - 1 if plays else last_call,
                    misdeal_note(record.dealer, irr.seat),
                )
            continue
        note = f"{IRREGULARITY_TAG}{irr.kind.value}: {irr.detail}"
        k = None
        if irr.card is not None and irr.seat is not None:
            k = next(
                (n for n, (s, c) in enumerate(p for t in record.tricks for p in t) if s == irr.seat and c == irr.card),
                None,
            )
        if k is not None:
            _merge(play_notes, k, note)
        else:
            _merge(call_notes, last_call, note)
    if call_notes:
        bidding["callAnnotations"] = call_notes
    phases: list[dict[str, Any]] = [bidding]
    if record.tricks:
        play: dict[str, Any] = {
            "phaseNumber": 1,
            "type": TRICK_PLAY,
            "tricks": [[str(c) for _, c in trick] for trick in record.tricks],
        }
        if IrregularityKind.OUT_OF_TURN in kinds or IrregularityKind.CARD_UNSEEN in kinds:
            play["playSeats"] = [[s for s, _ in trick] for trick in record.tricks]
        if IrregularityKind.CARD_UNSEEN in kinds:
            # A trick its winner's next lead closed with one card not seen: that card as "Xx", last.
            active = [s for s in range(4) if s not in _out(record.alone_seats)]
            for t, trick in enumerate(record.tricks[: len(record.trick_winners)]):
                missing = [s for s in active if all(s != p for p, _ in trick)]
                play["tricks"][t] += [UNKNOWN_CARD] * len(missing)
                play["playSeats"][t] += missing
        if play_notes:
            play["playAnnotations"] = play_notes
        phases.append(play)
    elif play_notes:
        bidding.setdefault("callAnnotations", {}).setdefault(str(last_call), []).extend(
            n for notes in play_notes.values() for n in notes
        )
    state: dict[str, Any] = {"dealer": record.dealer, "upCard": str(record.up_card)}
    if record.set_aside:
        state["setAside"] = [str(c) for c in record.set_aside]
    out: dict[str, Any] = {"dealNumber": number, "initialState": state, "phases": phases}
    if source is not None and source.alternative_lines:
        out["alternativeLines"] = source.alternative_lines
    return out


def export_egn(
    match: Match,
    *,
    metadata: Mapping[str, Any] | None = None,
    players: Sequence[str] | None = None,
    source: EgnGame | None = None,
) -> dict[str, Any]:
    """The current game of ``match`` (finished or not) as an EGN 1.4 object.

    ``metadata`` adds fields such as ``title`` and ``date``; ``source`` (a game
    this match was imported from) carries over its metadata, commentary and
    alternative lines. Reneges and irregularities become annotations.
    """
    records = match.deals
    initial = (
        match.score[0] - sum(r.points[0] for r in records),
        match.score[1] - sum(r.points[1] for r in records),
    )
    meta: dict[str, Any] = {}
    if source is not None:
        meta.update({k: v for k, v in source.metadata.items() if k not in ("ruleset", "initialScore", "finalScore")})
    if metadata:
        meta.update(metadata)
    if players is not None:
        meta["players"] = list(players)
    meta["initialScore"] = [initial[0], initial[1]]
    meta["ruleset"] = ruleset_from_rules(match.rules)
    if match.game_over:
        meta["finalScore"] = [match.score[0], match.score[1]]
    deals: list[dict[str, Any]] = []
    for n, record in enumerate(records):
        src_deal = source.deals[n] if source is not None and n < len(source.deals) else None
        exported = _export_deal(record, len(deals), src_deal)
        if exported is not None:
            deals.append(exported)
    return {"fileType": EGN_FILE_TYPE, "version": EGN_VERSION, "metadata": meta, "deals": deals}


def dumps_egn(obj: Mapping[str, Any]) -> str:
    """EGN text as the spec's examples write it (two-space indent, UTF-8 kept readable)."""
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"
