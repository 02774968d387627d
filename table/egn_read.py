"""EGN reader: a file checked against the spec into plain records (:func:`parse_egn`),
then replayed through the engine (:func:`replay_egn`)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from table.announcements import Expect, Prompt
from table.cards import BENNY, Card, CardParseError, Rank, Suit
from table.deal import DealRecord
from table.egn_common import (
    BIDDING,
    EGN_FILE_TYPE,
    EGN_VERSION,
    PENALTY_ACCEPTED,
    RENEGE_TAG,
    ROUND_1_WORDS,
    TRICK_PLAY,
    UNKNOWN_CARD,
    EgnDeal,
    EgnError,
    EgnGame,
    _fail,
    _out,
    misdeal_in_note,
    rules_from_ruleset,
)
from table.inputs import (
    AcceptPenalty,
    Discard,
    Exchange,
    GoAlone,
    Input,
    NameTrump,
    OrderUp,
    Pass,
    Play,
    UpCard,
)
from table.limits import LimitError, loads_json, paused_gc, read_limited
from table.match import DealProgress, Match
from table.rules import Rules

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


def import_egn(path: str | os.PathLike[str]) -> EgnReplay:
    """Load, check and replay an EGN file."""
    return replay_egn(load_egn(path))
