"""The match: a phase machine over the inputs a table produces, with score, dealer rotation and game end.

``Match.apply(input)`` is the single entry point; it returns the announcements
for the table. The state is a pure fold over the effective inputs, so ``Undo``
and ``ReviseCard`` rebuild it by replaying (``Match.replay`` does the same
from a log).

The engine accepts what really happened (DESIGN.md): a table event that breaks
the rules (a renege, a card out of turn, a duplicate, a forbidden bid) is
recorded and announced, never raised. Only a programming error -- a seat that
does not exist, an input type the engine does not know, a ``ReviseCard`` of an
input that is not there -- raises ``EngineError``.

How the turn continues after a card out of turn: the card counts as that
seat's card in the trick; the first card of a trick is its lead whoever played
it; the next expected seat is the first active seat clockwise from the actual
leader that has not played yet.

What the camera missed, the engine works out from what came after, each time
with an announcement that asks the table to check: the winner of a trick
leading again, with one card of the trick not seen, closes that trick
(``CARD_UNSEEN``); the next deal's up-card, read surely while a hand is still
being played, closes that hand (``HAND_UNFINISHED``); and cards played while
the engine waited for an up-card mean a whole deal went by unseen, recorded
without points so the deal passes on to the right dealer (``DEAL_UNSEEN``).
``up_card_seen`` and ``play_seen`` are the one place that turns what the
camera sees into inputs, for the app and the simulated table alike.

Speed (``euchre-table bench --rules``). A card played in turn -- the common
input, 17 or so per deal -- takes an inline path (``apply``, ``_play_fast``):
a few checks, the appends the deal record needs, the renege bookkeeping, and
the winner so far, the next seat and the prompt from precomputed tables, with
no Python call beyond the method itself; every other case goes through
``_play`` and the phase handlers, which state the rules in full. Where the time
goes now (about 6,000 bytecodes and 310,000 machine instructions a deal, a
third of before): the common card is some 225 bytecodes, the last card of a
trick some 330 (the trick won), of the hand some 650 (scoring); the up-card
(with a new ``DealState``), a bid and the discard cost 200-500 each. It is the
interpreter's own cost per attribute, append and call that remains: halving it
again would take fewer Python operations per card than the record itself
needs. ``Match`` holds no reference to itself (handlers are looked up in
``_HANDLERS``), so a finished game is freed at once rather than left to the
cyclic garbage collector, which otherwise cost a sixth of the benchmark.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

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
from table.cards import Card, Rank, Suit, deck
from table.deal import DealRecord, DealState, Phase, hand_points
from table.inputs import (
    AcceptPenalty,
    Discard,
    DismissRenege,
    Exchange,
    GoAlone,
    Input,
    Misdeal,
    NameTrump,
    NewGame,
    OrderUp,
    Pass,
    Play,
    ReviseCard,
    Undo,
    UpCard,
)
from table.renege import CHECK_CONFIDENCE, ShowOut
from table.rules import BennyTurnedUp, DefenderAlone, LonerLead, RenegePenalty, Rules
from table.trump import PlayFacts, effective_table, is_trump
from table.view import HandRow, MatchView

__all__ = ["CHECK_CONFIDENCE", "DealRecord", "EngineError", "Match", "MatchView", "Phase"]

EXCHANGE_KINDS = ("call_for_best", "farmers_hand", "nines_and_tens")
_SEATED = (Pass, OrderUp, NameTrump, GoAlone, Discard, Exchange, Play)
_BIDS = (Pass, OrderUp, NameTrump)
_KIND = IrregularityKind


# Phases and prompts as module constants: reading ``Phase.PLAY`` goes through the enum's metaclass and costs
# several times a global, and the engine reads phases on every input.
_PH_UP_CARD = Phase.UP_CARD
_PH_BID_ROUND_1 = Phase.BID_ROUND_1
_PH_BID_ROUND_2 = Phase.BID_ROUND_2
_PH_NAME_TRUMP_BLIND = Phase.NAME_TRUMP_BLIND
_PH_DISCARD = Phase.DISCARD
_PH_GO_ALONE = Phase.GO_ALONE
_PH_PLAY = Phase.PLAY
_PH_RENEGE_DECISION = Phase.RENEGE_DECISION
_PH_HAND_OVER = Phase.HAND_OVER
_BIDDING_PHASES = (Phase.BID_ROUND_1, Phase.BID_ROUND_2, Phase.NAME_TRUMP_BLIND)
# A deal stuck in bidding takes a new up-card as the next deal's once this many cards were played regardless
# (by at least PLAYERS_BEFORE_RESYNC seats: one player laying down a hand is not a hand being played); as many
# cards played while the engine waits for an up-card mean a whole deal went by unseen.
PLAYS_BEFORE_RESYNC = 4
PLAYERS_BEFORE_RESYNC = 3
# The most cards one deal can put on the table: four players, five tricks.
_PLAYS_PER_DEAL = 20
_PH_GAME_OVER = Phase.GAME_OVER
_EX_NEW_GAME = Expect.NEW_GAME
_EX_UP_CARD = Expect.UP_CARD
_EX_BID_ROUND_1 = Expect.BID_ROUND_1
_EX_BID_ROUND_2 = Expect.BID_ROUND_2
_EX_NAME_TRUMP_BLIND = Expect.NAME_TRUMP_BLIND
_EX_DISCARD = Expect.DISCARD
_EX_GO_ALONE = Expect.GO_ALONE
_EX_LEAD = Expect.LEAD
_EX_FOLLOW = Expect.FOLLOW
_EX_RENEGE_DECISION = Expect.RENEGE_DECISION


# Prompts are small values that repeat all game: one instance per value (positional arguments only).
_P = functools.cache(Prompt)
_LEAD_PROMPT = tuple(_P(s, _EX_LEAD) for s in range(4))
# (As 1-tuples: what ``last_announcements`` holds after a card that only passes the turn on.)
_FOLLOW_PROMPT = tuple({t: (_P(s, _EX_FOLLOW, t),) for t in (*Suit, None)} for s in range(4))
_UP_CARD_PROMPT = tuple(_P(s, _EX_UP_CARD) for s in range(4))
# Prompts that show the up-card, by seat and the card's id (the prompt keeps its card alive).
_BID_1_PROMPTS: dict[tuple[int, int], Prompt] = {}
_BID_2_PROMPTS: dict[tuple[int, int], Prompt] = {}
_DISCARD_PROMPTS: dict[tuple[int, int], Prompt] = {}


def _card_prompt(table: dict[tuple[int, int], Prompt], seat: int, expect: Expect, card: Card | None) -> Prompt:
    """``_P(seat, expect, None, card)``, from ``table`` when it was asked before."""
    key = (seat, id(card))
    prompt = table.get(key)
    if prompt is None:
        prompt = _P(seat, expect, None, card)
        if len(table) < 1024:  # 4 seats x 33 cards (a malformed card may be asked once and not kept)
            table[key] = prompt
    return prompt


# Announcements that repeat are shared too: a trick won, trump made (few values, unlike a hand scored).
# (By trick, seat, then the card's id: an int hashes in C, a Card in Python; the TrickWon keeps its card alive.)
_TRICK_WON: tuple[tuple[dict[int, TrickWon], ...], ...] = tuple(tuple({} for _ in range(4)) for _ in range(5))


def _played_like_a_hand(seats: Sequence[int | None]) -> bool:
    """Whether cards played by ``seats`` (out of their time) look like a hand being played."""
    return len(seats) >= PLAYS_BEFORE_RESYNC and len(set(seats)) >= PLAYERS_BEFORE_RESYNC


def _trick_won(seat: int, card: Card, trick: int) -> TrickWon:
    by_card = _TRICK_WON[trick][seat]
    won = by_card.get(id(card))
    if won is None:
        won = TrickWon(seat, card, trick)
        if len(by_card) < 64:  # the 33 shared cards, and a few others (a malformed card is not kept)
            by_card[id(card)] = won
    return won


_TRUMP_MADE = functools.cache(TrumpMade)

# _NEXT_FREE[seat][busy]: the first seat after ``seat`` clockwise whose bit is clear in ``busy`` (-1: none).
_NEXT_FREE = tuple(
    tuple(next((n % 4 for n in range(s + 1, s + 4) if not busy >> (n % 4) & 1), -1) for busy in range(16))
    for s in range(4)
)


class EngineError(ValueError):
    """A programming error: an input the engine cannot interpret at all (names the input and the phase)."""


@functools.cache
def _deck_set(size: int) -> frozenset[Card]:
    return frozenset(deck(size))


def _card_of(inp: Input) -> Card | None:
    if isinstance(inp, UpCard | Play | Discard):
        return inp.card
    return None


class DealProgress(NamedTuple):
    """Where a deal stands (``Match.last_progress``): the few facts an importer checks after each card."""

    number: int
    dealer: int
    up_card: Card | None
    finished: bool
    tricks_closed: int
    alone_seats: tuple[int, ...]


class Match:
    """One game of Euchre at one table, as a fold over its inputs."""

    def __init__(self, rules: Rules, first_dealer: int = 0, score: tuple[int, int] = (0, 0)) -> None:
        if not isinstance(rules, Rules):
            raise EngineError(f"Match needs a Rules record, not {rules!r}")
        if first_dealer not in range(4):
            raise EngineError(f"first_dealer must be a seat 0-3, not {first_dealer!r}")
        self.rules = rules
        self._deck = _deck_set(rules.deck_size)
        self._first_dealer = first_dealer
        self._initial_score = (int(score[0]), int(score[1]))
        self._history: list[Input] = []
        # The effective inputs, as indices into _history (ReviseCard entries included; an undo pops the last
        # one): those listed in _effective, then every one from _tail on. An ordinary input only extends the
        # tail; a correction writes the tail out into the list first.
        self._effective: list[int] = []
        self._tail = 0
        self._last: tuple[Announcement, ...] = ()
        self._reset(first_dealer, self._initial_score)

    def _reset(self, first_dealer: int, score: tuple[int, int]) -> None:
        self.score: tuple[int, int] = score
        self.dealer = first_dealer
        self.phase = _PH_UP_CARD
        self.game_over = False
        self.winner: int | None = None
        self._deals: list[DealState] = []
        self._cur: DealState | None = None
        self._deals_played = 0
        self._orphans: list[Irregularity] = []  # irregularities before the first deal
        self._waiting_plays: list[int] = []  # seats of the cards played while the engine waited for an up-card

    # ----------------------------------------------------------------- public API

    @classmethod
    def replay(
        cls, rules: Rules, inputs: Iterable[Input], first_dealer: int = 0, score: tuple[int, int] = (0, 0)
    ) -> Match:
        """A match with ``inputs`` applied in order."""
        m = cls(rules, first_dealer, score)
        for inp in inputs:
            m.apply(inp)
        return m

    @property
    def history(self) -> tuple[Input, ...]:
        """Every input applied, undos and revisions included."""
        return tuple(self._history)

    @property
    def effective_inputs(self) -> tuple[Input, ...]:
        """The inputs the state is a fold of: undone ones dropped, revised cards substituted."""
        return tuple(self._fold_inputs())

    @property
    def deals(self) -> list[DealRecord]:
        """Every deal of this game so far, the one in progress last."""
        return [d.record() for d in self._deals]

    @property
    def deal_count(self) -> int:
        """``len(deals)`` without copying every deal (a replay asks after each input)."""
        return len(self._deals)

    @property
    def play_check(self) -> tuple[bool, int]:
        """(finished, tricks closed) of the last deal ((True, 0) before any): asked before each card an
        importer feeds, so it copies nothing."""
        if not self._deals:
            return True, 0
        d = self._deals[-1]
        return d.finished, len(d.trick_winners)

    @property
    def last_progress(self) -> DealProgress | None:
        """Where the last deal stands, without copying it (``last_deal`` copies its tricks): for importers
        that ask after every card."""
        if not self._deals:
            return None
        d = self._deals[-1]
        return DealProgress(d.number, d.dealer, d.up_card, d.finished, len(d.trick_winners), tuple(d.alone))

    @property
    def played_this_deal(self) -> tuple[tuple[int, Card], ...]:
        """(seat, card) of each card played in the last deal, in play order (the deal being played, or the one
        just finished: its last trick may still lie on the table); without copying the deal."""
        if not self._deals:
            return ()
        return tuple((s, c) for trick in self._deals[-1].tricks for s, c in trick)

    @property
    def last_deal(self) -> DealRecord | None:
        """The deal in progress (or the one just finished); cheaper than ``deals[-1]``."""
        return None if not self._deals else self._deals[-1].record()

    @property
    def expected(self) -> Prompt:
        """Whose turn it is and what is expected now."""
        return self._prompt()

    @property
    def last_announcements(self) -> tuple[Announcement, ...]:
        return self._last

    def apply(self, inp: Input) -> list[Announcement]:
        """Apply one input and return what the table should be told (ending with the new prompt)."""
        if type(inp) is Play and (self.phase is _PH_PLAY or self.phase is _PH_GO_ALONE):
            # The common case, inline: the expected seat plays a reliable reading of a card of the deck not
            # seen yet this deal (or the dealer plays the up-card it took). Anything else (and every rule in
            # full) is _play's; _play_fast must do exactly what _on_go_alone, _play, _renege_check,
            # _finish_trick and _prompt would do for such a card.
            d = self._cur
            assert d is not None
            seat, card, confidence = inp.seat, inp.card, inp.confidence
            expected = d.next_seat
            if expected is None:
                expected = self._play_turn(d)
            # The expected seat is an active one that has not played to this trick (see _next_seat). Seats are
            # small ints, one object each, so ``is`` also rules out a seat that is not an int (for _check to refuse).
            if seat is expected and type(card) is Card and type(confidence) is float and confidence >= CHECK_CONFIDENCE:
                cid = id(card)  # table.deal.card_id when ``card`` is a shared instance (else not in unseen)
                try:
                    d.unseen.remove(cid)  # in the deck and not seen yet: neither a duplicate nor the up-card
                except KeyError:
                    if (
                        card is d.up_card
                        and seat == d.dealer
                        and d.dealer_took_up
                        and not d.up_card_played
                        and (d.discard is None or d.discard != card)
                    ):
                        d.up_card_played = True
                        return self._play_fast(d, inp, seat, card, d.facts[card])
                else:
                    return self._play_fast(d, inp, seat, card, d.facts_by_id[cid])
        cls = type(inp)
        if cls is Undo or cls is ReviseCard:
            assert isinstance(inp, Undo | ReviseCard)
            out = self._apply_correction(inp)
        else:
            self._check(inp)
            self._history.append(inp)
            out = self._step(inp) if isinstance(inp, NewGame) else _HANDLERS[self.phase](self, inp)
        out.append(self._prompt())
        self._last = tuple(out)
        return out

    def view(self) -> MatchView:
        """A plain snapshot for the display."""
        d = self._cur
        rows = tuple(
            HandRow(
                number=x.number,
                dealer=x.dealer,
                trump=x.trump,
                no_trump=x.trump_made and x.trump is None,
                maker_seat=x.maker_seat,
                alone_seats=tuple(x.alone),
                tricks_won=(x.tricks_won[0], x.tricks_won[1]),
                points=x.points,
                reason=x.reason,
                score_after=x.score_after if x.score_after is not None else self.score,
            )
            for x in self._deals
            if x.finished
        )
        trick: tuple[tuple[int, Card], ...] = ()
        if d is not None and d.tricks and not d.finished:
            trick = tuple(d.tricks[-1])
        return MatchView(
            score=self.score,
            target=self.rules.target,
            num_deals=self.rules.num_deals,
            deals_played=self._deals_played,
            dealer=self.dealer,
            phase=self.phase,
            expected=self._prompt(),
            up_card=None if d is None or d.finished else d.up_card,
            trump=None if d is None or d.finished else d.trump,
            trump_made=d is not None and not d.finished and d.trump_made,
            maker_seat=None if d is None or d.finished else d.maker_seat,
            alone_seats=() if d is None or d.finished else tuple(d.alone),
            current_trick=trick,
            tricks_won=(0, 0) if d is None or d.finished else (d.tricks_won[0], d.tricks_won[1]),
            last_announcements=self._last,
            history=rows,
            may_go_alone=self._may_go_alone(),
            pending_renege=None if d is None else d.pending,
            game_over=self.game_over,
            winner=self.winner,
        )

    # ----------------------------------------------------------------- folding, undo, revise

    def _error(self, inp: object, what: str) -> EngineError:
        return EngineError(f"{inp!r}: {what} (phase {self.phase.value})")

    def _check(self, inp: Input) -> None:
        if type(inp) is Play:  # the common case, checked fast
            if type(inp.seat) is not int or not 0 <= inp.seat <= 3:
                raise self._error(inp, "no such seat (seats are 0-3)")
            if type(inp.card) is not Card:
                raise self._error(inp, "card must be a Card")
            return
        # Well-formed inputs of the other common kinds pass quickly; anything else takes the full checks below.
        if (
            type(inp) is UpCard
            and type(inp.card) is Card
            and type(inp.unseen_deals) is int
            and inp.unseen_deals >= 0
            and inp.turned_by is None
        ):
            return
        if (type(inp) is Pass or type(inp) is OrderUp or type(inp) is GoAlone) and (
            type(inp.seat) is int and 0 <= inp.seat <= 3
        ):
            return
        if (
            type(inp) is Discard
            and type(inp.seat) is int
            and 0 <= inp.seat <= 3
            and (inp.card is None or type(inp.card) is Card)
        ):
            return
        if (
            type(inp) is NameTrump
            and type(inp.seat) is int
            and 0 <= inp.seat <= 3
            and (inp.suit is None or type(inp.suit) is Suit)
        ):
            return
        if isinstance(inp, _SEATED):
            if not isinstance(inp.seat, int) or isinstance(inp.seat, bool) or inp.seat not in range(4):
                raise self._error(inp, "no such seat (seats are 0-3)")
        elif not isinstance(inp, NewGame | UpCard | AcceptPenalty | DismissRenege | Misdeal):
            raise self._error(inp, "not an engine input")
        if isinstance(inp, Misdeal) and inp.nines_and_tens is not None:
            claim = inp.nines_and_tens
            if not isinstance(claim, int) or isinstance(claim, bool) or claim not in range(4):
                raise self._error(inp, "nines_and_tens must be a seat 0-3 or None")
        card = _card_of(inp)
        if isinstance(inp, UpCard | Play) and not isinstance(card, Card):
            raise self._error(inp, "card must be a Card")
        if isinstance(inp, UpCard) and (
            not isinstance(inp.unseen_deals, int) or isinstance(inp.unseen_deals, bool) or inp.unseen_deals < 0
        ):
            raise self._error(inp, "unseen_deals must be a whole number, 0 or more")
        turned_by = inp.turned_by if isinstance(inp, UpCard) else None
        if turned_by is not None and (type(turned_by) is not int or turned_by not in range(4)):
            raise self._error(inp, "turned_by must be a seat 0-3 or None")
        if isinstance(inp, Discard) and card is not None and not isinstance(card, Card):
            raise self._error(inp, "card must be a Card or None")
        if isinstance(inp, NameTrump) and inp.suit is not None and not isinstance(inp.suit, Suit):
            raise self._error(inp, "suit must be a Suit or None")
        if isinstance(inp, Exchange) and inp.kind not in EXCHANGE_KINDS:
            raise self._error(inp, f"unknown exchange kind (one of {', '.join(EXCHANGE_KINDS)})")
        if isinstance(inp, NewGame) and inp.first_dealer not in range(4):
            raise self._error(inp, "first_dealer must be a seat 0-3")

    def _apply_correction(self, inp: Undo | ReviseCard) -> list[Announcement]:
        if isinstance(inp, ReviseCard):
            target = self._history[inp.index] if isinstance(inp.index, int) and 0 <= inp.index < len(self) else None
            if target is None:
                raise self._error(inp, f"no input {inp.index} (the history has {len(self)})")
            if _card_of(target) is None and not isinstance(target, Discard):
                raise self._error(inp, f"input {inp.index} ({target!r}) has no card to revise")
            if not isinstance(inp.card, Card):
                raise self._error(inp, "card must be a Card")
            confidence = inp.confidence
            if isinstance(confidence, bool) or not isinstance(confidence, int | float) or not 0.0 <= confidence <= 1.0:
                raise self._error(inp, "confidence must be a number from 0 to 1")
            if inp.rival is not None and not isinstance(inp.rival, Card):
                raise self._error(inp, "rival must be a Card or None")
        index = len(self._history)
        self._effective += range(self._tail, index)
        self._history.append(inp)
        self._tail = len(self._history)
        if isinstance(inp, Undo) and not self._effective:
            return []
        # Tell the table only what changed: announcements the corrected history makes that the old one did not.
        # (Corrections are rare, so the old fold is replayed here rather than every announcement kept.)
        before = Counter(self._refold())
        if isinstance(inp, Undo):
            self._effective.pop()
        else:
            self._effective.append(index)
        after = Counter(self._refold())
        return _restatements_marked(list((after - before).elements()), before - after)

    def _refold(self) -> list[Announcement]:
        """Rebuild the state from the effective inputs; every announcement of the fold."""
        out: list[Announcement] = []
        self._reset(self._first_dealer, self._initial_score)
        for x in self._fold_inputs():
            out += self._step(x)
        return out

    def __len__(self) -> int:
        return len(self._history)

    def _fold_inputs(self) -> list[Input]:
        revised: dict[int, ReviseCard] = {}
        history = self._history
        effective = [*self._effective, *range(self._tail, len(history))]
        for i in effective:
            x = history[i]
            if isinstance(x, ReviseCard):
                revised[x.index] = x
        out: list[Input] = []
        for i in effective:
            x = history[i]
            if isinstance(x, ReviseCard):
                continue
            r = revised.get(i)
            if r is not None:
                # The revision's own confidence: a camera's revision to a reading still in doubt stays to be checked.
                if isinstance(x, UpCard | Play):
                    x = dataclasses.replace(x, card=r.card, confidence=r.confidence, rival=r.rival)
                elif isinstance(x, Discard):
                    x = dataclasses.replace(x, card=r.card)
            out.append(x)
        return out

    def _step(self, inp: Input) -> list[Announcement]:
        if isinstance(inp, NewGame):
            self._reset(inp.first_dealer, (int(inp.score[0]), int(inp.score[1])))
            return []
        return _HANDLERS[self.phase](self, inp)

    # ----------------------------------------------------------------- helpers

    def _irr(
        self, kind: IrregularityKind, detail: str, seat: int | None = None, card: Card | None = None
    ) -> Irregularity:
        return self._record(Irregularity(kind, detail, seat, card))

    def _record(self, irr: Irregularity) -> Irregularity:
        """Keep ``irr`` with the deal it happened in (or before the first deal) and return it."""
        (self._cur.irregularities if self._cur is not None else self._orphans).append(irr)
        return irr

    def _prompt(self) -> Prompt:
        # (The shared prompts from tables where there is one: hashing an Expect for _P's cache is Python code.)
        d, ph = self._cur, self.phase
        if ph is _PH_UP_CARD or ph is _PH_HAND_OVER:
            return _UP_CARD_PROMPT[self.dealer]
        if ph is _PH_GAME_OVER:
            return _P(None, _EX_NEW_GAME)
        assert d is not None
        if ph is _PH_BID_ROUND_1:
            return _card_prompt(_BID_1_PROMPTS, d.turn, _EX_BID_ROUND_1, d.up_card)
        if ph is _PH_BID_ROUND_2:
            return _card_prompt(_BID_2_PROMPTS, d.turn, _EX_BID_ROUND_2, d.up_card)
        if ph is _PH_NAME_TRUMP_BLIND:
            return _P(d.dealer, _EX_NAME_TRUMP_BLIND, None, d.up_card)
        if ph is _PH_DISCARD:
            return _card_prompt(_DISCARD_PROMPTS, d.dealer, _EX_DISCARD, d.up_card)
        if ph is _PH_RENEGE_DECISION:
            # The seat is who plays next if the table plays on (None once the hand is over).
            return _P(None if d.finished else self._play_turn(d), _EX_RENEGE_DECISION)
        trick = d.tricks[-1] if d.tricks else []
        if not trick:
            return _LEAD_PROMPT[self._play_turn(d)]
        return _FOLLOW_PROMPT[self._play_turn(d)][d.led_suit][0]

    def _play_turn(self, d: DealState) -> int:
        if d.next_seat is None:
            d.next_seat = self._next_seat(d)
        return d.next_seat

    def _next_seat(self, d: DealState) -> int:
        trick = d.tricks[-1] if d.tricks else []
        start = trick[0][0] if trick else d.leader
        out = d.sitting_out
        s = start
        for _ in range(4):
            if s not in out:
                for played, _card in trick:
                    if played == s:
                        break
                else:
                    return s
            s = (s + 1) % 4
        return start

    def _first_leader(self, d: DealState) -> int:
        if d.alone and self.rules.loner_lead is LonerLead.LEFT_OF_LONER:
            if len(d.alone) == 2:
                # Two loners: the defender leads (British rule).
                return next(s for s in d.alone if s % 2 != d.makers)
            return (d.alone[0] + 1) % 4
        first = _NEXT_FREE[d.dealer][d.out_mask]  # the first active seat left of the dealer
        if first >= 0:
            return first
        out = d.sitting_out
        return next(s for s in ((d.dealer + k) % 4 for k in range(1, 5)) if s not in out)

    def _card_checks(
        self, d: DealState, card: Card, seat: int | None, source: CardSource
    ) -> tuple[bool, list[Announcement]]:
        """Deck and duplicate checks for a card that appears on the table; returns (usable as evidence, news)."""
        if id(card) in d.unseen:
            # The shared instance of a card of the deck not seen yet this deal (unseen holds their ids, and
            # those instances live for ever): none of the checks below can fail.
            return True, []
        what, size = source.value, self.rules.deck_size
        if card not in self._deck:
            detail = f"{what} {card} is not in a {size}-card deck"
            irr = Irregularity(_KIND.NOT_IN_DECK, detail, seat, card, source=source, deck_size=size)
        elif card == d.up_card and not d.dealer_took_up and not d.is_unseen(card):
            detail = f"{what} {card} is the up-card that was turned down"
            irr = Irregularity(_KIND.UP_CARD_PLAYED, detail, seat, card, source=source, up_card_taken=False)
        elif not d.is_unseen(card):
            detail = f"{what} {card} was already seen this hand"
            irr = Irregularity(_KIND.DUPLICATE_CARD, detail, seat, card, source=source)
        else:
            return True, []
        return False, [self._record(irr)]

    # ----------------------------------------------------------------- phase handlers

    def _on_up_card(self, inp: Input) -> list[Announcement]:
        if not isinstance(inp, UpCard):
            return self._unexpected(inp)
        out: list[Announcement] = []
        if self.phase is _PH_HAND_OVER or self._cur is None or self._cur.finished:
            seen = len(self._waiting_plays)
            for _ in range(inp.unseen_deals):
                out += self._unseen_deal(seen)
                if self.game_over:
                    return out
            self._cur = DealState(len(self._deals), self.dealer, self._deck)
            self._deals.append(self._cur)
        self._waiting_plays = []  # an up-card ends the wait (a Benny set aside too: this deal's cards follow)
        d = self._cur
        card = inp.card
        reliable = inp.confidence >= CHECK_CONFIDENCE
        first = d.up_card is None and not d.set_aside  # the first card turned this deal
        if inp.turned_by is not None and inp.turned_by != d.dealer and reliable and first and self._rotation_sure(inp):
            # Stealing the deal: said, never refused. The deal stands as the dealer's in the rotation; the
            # table may declare a misdeal for the right dealer to deal.
            detail = f"the up-card was turned by seat {inp.turned_by}; it is seat {d.dealer}'s deal"
            irr = Irregularity(
                _KIND.DEAL_OUT_OF_TURN, detail, inp.turned_by, card, dealer=d.dealer, source=CardSource.UP_CARD
            )
            out.append(self._record(irr))
        if not reliable:
            detail = f"check the up-card: read as {card} with low confidence{_perhaps(inp.rival)}"
            irr = Irregularity(_KIND.CHECK_CARD, detail, None, card, source=CardSource.UP_CARD, rival=inp.rival)
            out.append(self._record(irr))
        ok, news = self._card_checks(d, card, None, CardSource.UP_CARD)
        out += news
        if card.is_benny and (not self.rules.has_benny or self.rules.benny_turned_up is BennyTurnedUp.SET_ASIDE):
            # The Benny is put aside and the next card turned up (or a stray joker in a deck without one).
            d.set_aside.append(card)
            d.mark_seen(card)
            self.phase = _PH_UP_CARD  # the same deal goes on with the next card turned up
            return out
        d.up_card = card
        d.up_reliable = reliable and ok
        d.up_rival = inp.rival if not d.up_reliable else None
        d.mark_seen(card)  # taken up, it becomes the dealer's card (see _play)
        if card.is_benny:
            self.phase = _PH_NAME_TRUMP_BLIND
        else:
            self.phase = _PH_BID_ROUND_1
            d.turn = (d.dealer + 1) % 4
        return out

    def _rotation_sure(self, inp: UpCard) -> bool:
        """Whether the engine's dealer is surely the table's: no deal went by unseen or unfinished just
        before this up-card (then a seat seen turning it says nothing against the rotation)."""
        if inp.unseen_deals or inp.next_deal:
            return False
        prev = self._deals[-2] if len(self._deals) >= 2 else None
        return prev is None or (prev.finished and prev.reason not in ("unseen", "unfinished"))

    def _unseen_deal(self, cards: int) -> list[Announcement]:
        """Record a deal the table played before the camera saw its up-card: no points, the deal moves on."""
        u = DealState(len(self._deals), self.dealer, self._deck)
        self._deals.append(u)
        self._cur = u
        played = f"{cards} cards were played before an up-card was seen" if cards else "no up-card was seen"
        detail = f"{played}: seat {u.dealer}'s deal went by unseen; not scored: check the score"
        irr = Irregularity(_KIND.DEAL_UNSEEN, detail, u.dealer, dealer=u.dealer, cards_played=cards)
        return [self._record(irr), *self._close(u, (0, 0), "unseen")]

    def _out_of_turn_bid(self, d: DealState, inp: Pass | OrderUp | NameTrump) -> Irregularity:
        detail = f"seat {inp.seat} bid out of turn (seat {d.turn} to bid)"
        return self._record(Irregularity(_KIND.BID_OUT_OF_TURN, detail, inp.seat, turn=d.turn))

    def _on_bid_round_1(self, inp: Input) -> list[Announcement]:
        d = self._cur
        assert d is not None and d.up_card is not None and d.up_card.suit is not None
        if isinstance(inp, NameTrump) and inp.suit is d.up_card.suit:
            inp = OrderUp(inp.seat, inp.alone)  # naming the up-card's suit in round 1 is ordering it up
        if isinstance(inp, Pass):
            if inp.seat != d.turn:
                return [self._out_of_turn_bid(d, inp)]  # ignored: the turn stays where it was
            d.calls.append(inp)
            d.passed[1].add(inp.seat)
            if inp.seat == d.dealer:
                self.phase = _PH_BID_ROUND_2
            d.turn = (inp.seat + 1) % 4
            return []
        if isinstance(inp, OrderUp):
            out: list[Announcement] = []
            if inp.seat != d.turn:
                out.append(self._out_of_turn_bid(d, inp))  # accepted: trump is made as the table says
            d.calls.append(inp)
            alone = inp.alone
            partner = (d.dealer + 2) % 4
            if self.rules.dealer_partner_must_go_alone and inp.seat == partner and not alone:
                alone = True
                out.append(self._irr(_KIND.NOT_ALLOWED, "the dealer's partner who orders up must play alone", inp.seat))
            out += self._make_trump(d, inp.seat, d.up_card.suit, alone, 1)
            return out
        if isinstance(inp, NameTrump):
            return [self._irr(_KIND.NOT_ALLOWED, "round 1: only the up-card's suit can be made trump", inp.seat)]
        if isinstance(inp, GoAlone) and self._blind_lone_allowed(d, inp.seat):
            d.blind = True
            d.calls.append(OrderUp(inp.seat, True))
            return self._make_trump(d, inp.seat, d.up_card.suit, True, 1)
        return self._unexpected(inp)

    def _blind_lone_allowed(self, d: DealState, seat: int) -> bool:
        return (
            self.rules.blind_lone
            and seat == d.dealer
            and not d.calls
            and d.up_card is not None
            and d.up_card.rank is Rank.JACK
        )

    def _on_bid_round_2(self, inp: Input) -> list[Announcement]:
        d = self._cur
        assert d is not None and d.up_card is not None
        if isinstance(inp, Pass):
            if inp.seat != d.turn:
                return [self._out_of_turn_bid(d, inp)]
            if inp.seat == d.dealer and self.rules.stick_the_dealer:
                return [self._irr(_KIND.NOT_ALLOWED, "stick the dealer: the dealer must name a suit", inp.seat)]
            d.calls.append(inp)
            d.passed[2].add(inp.seat)
            if inp.seat == d.dealer:
                return self._throw_in(d)
            d.turn = (inp.seat + 1) % 4
            return []
        if isinstance(inp, NameTrump):
            out: list[Announcement] = []
            if inp.seat != d.turn:
                out.append(self._out_of_turn_bid(d, inp))
            if inp.suit is not None and inp.suit is d.up_card.suit:
                out.append(
                    self._irr(_KIND.NOT_ALLOWED, f"{inp.suit.noun} was turned down and cannot be named", inp.seat)
                )
            if inp.suit is None and not self.rules.no_trump:
                out.append(self._irr(_KIND.NOT_ALLOWED, "no trump is not played at this table", inp.seat))
            d.calls.append(inp)
            return out + self._make_trump(d, inp.seat, inp.suit, inp.alone, 2)
        if isinstance(inp, OrderUp):
            return [self._irr(_KIND.NOT_ALLOWED, "round 2: the up-card was turned down; name a suit", inp.seat)]
        return self._unexpected(inp)

    def _on_name_trump_blind(self, inp: Input) -> list[Announcement]:
        d = self._cur
        assert d is not None
        if isinstance(inp, NameTrump):
            if inp.seat != d.dealer:
                return [self._irr(_KIND.BID_OUT_OF_TURN, "a Benny was turned up: the dealer names trump", inp.seat)]
            out: list[Announcement] = []
            if inp.suit is None and not self.rules.no_trump:
                out.append(self._irr(_KIND.NOT_ALLOWED, "no trump is not played at this table", inp.seat))
            d.calls.append(inp)
            return out + self._make_trump(d, inp.seat, inp.suit, inp.alone, 0)
        if isinstance(inp, Pass | OrderUp):
            return [self._irr(_KIND.NOT_ALLOWED, "a Benny was turned up: the dealer must name trump", inp.seat)]
        return self._unexpected(inp)

    def _make_trump(self, d: DealState, seat: int, suit: Suit | None, alone: bool, rnd: int) -> list[Announcement]:
        d.set_trump(suit)
        if rnd == 1 and not d.up_reliable and suit is not None:
            # Ordered up on an up-card read to be checked: trump may be the suit of the card it really is.
            rival = d.up_rival.suit if d.up_rival is not None else None
            others = tuple(other for other in Suit if other is not suit)
            d.trump_doubt = (rival,) if rival is not None and rival is not suit else others
        d.trump_made, d.maker_seat, d.round_made = True, seat, rnd
        if alone:
            d.add_alone(seat)
        if rnd in (0, 1):  # the up-card (or the Benny) goes to the dealer unless the dealer sits out
            d.dealer_took_up = d.dealer not in d.sitting_out
        # (Shared instances only for plain values: an int seat and a bool, as the cache keys them.)
        made = TrumpMade if type(seat) is not int or type(alone) is not bool else _TRUMP_MADE
        out: list[Announcement] = [made(seat, suit, alone, rnd)]
        if d.dealer_took_up:
            self.phase = _PH_DISCARD
        else:
            self._open_window(d)
        return out

    def _open_window(self, d: DealState) -> None:
        self.phase = _PH_GO_ALONE
        if not d.tricks:
            d.new_trick()
        d.leader = self._first_leader(d)
        d.next_seat = None

    def _on_discard(self, inp: Input) -> list[Announcement]:
        d = self._cur
        assert d is not None
        if isinstance(inp, Discard):
            out = self._discard(d, inp)
            if inp.seat == d.dealer:
                self._open_window(d)
            return out
        if isinstance(inp, Play):
            self._open_window(d)  # the discard went unseen and play began
            return self._on_go_alone(inp)
        return self._unexpected(inp)

    def _discard(self, d: DealState, inp: Discard) -> list[Announcement]:
        if inp.seat != d.dealer:
            return [self._irr(_KIND.NOT_ALLOWED, "only the dealer discards", inp.seat)]
        if d.discard_given:
            return [self._irr(_KIND.NOT_ALLOWED, "the dealer has already discarded", inp.seat)]
        d.discard_given = True
        out: list[Announcement] = []
        if inp.card is None:
            return out
        card = inp.card
        if card == d.up_card:
            if not self.rules.dealer_may_discard_upcard:
                out.append(self._irr(_KIND.NOT_ALLOWED, "the dealer may not discard the up-card", inp.seat, card))
        else:
            _, news = self._card_checks(d, card, inp.seat, CardSource.DISCARD)
            out += news
        d.discard = card
        d.mark_seen(card)
        return out

    def _on_go_alone(self, inp: Input) -> list[Announcement]:
        d = self._cur
        assert d is not None
        if isinstance(inp, Play):
            self.phase = _PH_PLAY
            return self._play(d, inp)
        if isinstance(inp, Discard) and d.dealer_took_up:
            return self._discard(d, inp)  # a late report of the discard, before the lead
        return self._unexpected(inp)

    def _go_alone(self, d: DealState, seat: int) -> list[Announcement]:
        why = self._alone_refusal(d, seat)
        if why is not None:
            return [self._irr(_KIND.NOT_ALLOWED, why, seat)]
        if seat in d.alone:
            return []
        d.add_alone(seat)
        defender = seat % 2 != d.makers
        if d.dealer in d.sitting_out:
            d.dealer_took_up = False
            if self.phase is _PH_DISCARD:
                self._open_window(d)
        if self.phase is _PH_GO_ALONE:
            d.leader = self._first_leader(d)
            d.next_seat = None
        return [WentAlone(seat, defender)]

    def _may_go_alone(self) -> tuple[int, ...]:
        d = self._cur
        if d is None or self.phase not in (_PH_DISCARD, _PH_GO_ALONE):
            return ()
        return tuple(s for s in range(4) if s not in d.alone and self._alone_refusal(d, s) is None)

    def _alone_refusal(self, d: DealState, seat: int) -> str | None:
        """Why ``seat`` may not go alone now, or None if it may."""
        if self.phase not in (_PH_DISCARD, _PH_GO_ALONE) or d.play_started:
            return "going alone is declared after trump is made and before the first lead"
        if seat in d.sitting_out:
            return f"seat {seat}'s partner is already alone"
        if seat in d.alone:
            return None
        if self.rules.passed_player_may_not_go_alone and d.round_made in d.passed and seat in d.passed[d.round_made]:
            return f"seat {seat} passed in the round trump was made and may not go alone"
        makers_alone = any(s % 2 == d.makers for s in d.alone)
        rule = self.rules.defender_may_go_alone
        if seat % 2 == d.makers:
            if seat != d.maker_seat and rule is not DefenderAlone.ALWAYS:
                return "only the maker may go alone"
            return None
        if rule is DefenderAlone.NEVER:
            return "defenders may not go alone at this table"
        if rule is DefenderAlone.AGAINST_LONE_MAKER and not makers_alone:
            return "a defender may go alone only against a lone maker"
        return None

    def _on_play(self, inp: Input) -> list[Announcement]:
        d = self._cur
        assert d is not None
        if isinstance(inp, Play):
            return self._play(d, inp)
        if isinstance(inp, UpCard):
            return self._abandon(d, inp)
        return self._unexpected(inp)

    def up_card_seen(
        self, card: Card, confidence: float, turned_by: int | None = None, *, bidding: bool = False,
        rival: Card | None = None,
    ) -> UpCard | None:
        """The input a face-up card the camera sees on the kitty makes now, or None when it tells nothing new.

        ``UpCard`` while the engine waits for one (or for the decision on a renege proven by a hand's last
        card: the next deal plays on), with ``unseen_deals`` from :meth:`deals_gone_unseen`;
        ``UpCard(next_deal=True)`` when :meth:`is_next_up_card` takes it for the next deal's mid-hand;
        else None (the up-card seen again, or turned down). ``turned_by``: the seat the camera saw turn it.
        ``bidding``: the table has pressed a bid since the card was seen, none played (see :meth:`is_next_up_card`).
        ``rival``: the camera's likeliest other reading (``UpCard.rival``), kept only for a card read with low
        confidence (under :data:`CHECK_CONFIDENCE`), the one a check names.
        """
        rival = rival if confidence < CHECK_CONFIDENCE else None
        e = self.expected
        if e.expected is _EX_UP_CARD or (e.expected is Expect.RENEGE_DECISION and e.seat is None):
            return UpCard(card, confidence, unseen_deals=self.deals_gone_unseen(), turned_by=turned_by, rival=rival)
        if self.is_next_up_card(card, confidence, bidding=bidding):
            return UpCard(card, confidence, next_deal=True, turned_by=turned_by, rival=rival)
        return None

    def taken_back(self, card: Card, seat: int | None) -> bool:
        """Whether ``card``, gone from the table, may have been taken back: the camera saw it lifted from a
        seat's zone (``seat``) or from the trick pile (None) while it is the last play recorded and its
        trick is still being played. The caller applies ``Undo`` once that seat lays another card in its
        place, and only then: a card the camera merely lost sight of (the reader missing it for a few
        frames where it lies) stays played. (A card lifted from the kitty is never a play: the kitty's
        face-down cards can read as a card for a moment, and lifting them undoes nothing.)
        """
        last = self._history[-1] if self._history else None
        if not isinstance(last, Play) or last.card != card or (seat is not None and last.seat != seat):
            return False
        d = self._cur
        return d is not None and self.phase is _PH_PLAY and bool(d.tricks) and (last.seat, card) in d.tricks[-1]

    def up_card_in_doubt(self) -> tuple[int, Card, Card | None] | None:
        """While a deal is played on an up-card read to be checked: the index of its ``UpCard`` input, the card and
        the camera's other reading (for the table to answer: ``ReviseCard`` of that input); else None."""
        d = self._cur
        if d is None or d.finished or d.up_card is None or d.up_reliable:
            return None
        history = self._history
        # The newest input in effect first (``_effective_inputs``' order, without building it: this is asked each
        # time the screen is drawn while the up-card is in doubt).
        for i in itertools.chain(range(len(history) - 1, self._tail - 1, -1), reversed(self._effective)):
            if isinstance(history[i], UpCard):
                return i, d.up_card, d.up_rival
        return None

    def up_card_revised(self, card: Card, confidence: float) -> int | None:
        """The index of the up-card input that a reading of ``card`` on the kitty now corrects; else None.

        Before anyone has bid, a sure reading (``confidence`` at least :data:`CHECK_CONFIDENCE`) of another
        card of the deck not seen this deal, surer than the up-card was read, is the up-card: the first
        reading was a misread (the face-down deck read as a card while it was dealt, or the up-card misread
        as it was turned). The caller applies ``ReviseCard`` to that input. Once a bid is made the up-card
        stands (an ``Undo`` can still take it back), and a revised up-card is not revised again.
        """
        d = self._cur
        if d is None or d.finished or self.phase is not _PH_BID_ROUND_1 or d.up_card is None or card == d.up_card:
            return None
        if d.calls or d.passed[1] or confidence < CHECK_CONFIDENCE or card not in self._deck or not d.is_unseen(card):
            return None
        history = self._history
        effective, revised = self._effective_inputs()
        for i in reversed(effective):
            up = history[i]
            if isinstance(up, UpCard):
                return i if i not in revised and up.card == d.up_card and confidence > up.confidence else None
        return None

    @property
    def in_play(self) -> bool:
        """Whether a hand is being played (or its renege awaits a decision).

        A press that opens a new deal's bidding (a pass, or an order-up) is refused then, as the bidding
        is over; it says the table has dealt again. The caller then asks :meth:`up_card_seen` again, with
        ``bidding``, about a card it saw face up on the kitty since the last card was played, before it
        applies the press.
        """
        return self.phase in (_PH_PLAY, _PH_RENEGE_DECISION)

    def play_seen(
        self, card: Card, confidence: float, seat: int | None, *, pile: bool = False, rival: Card | None = None
    ) -> Play | None:
        """The input a card the camera sees land in play makes now, or None when it tells nothing new.

        ``seat``: whose card it is (the seat whose zone it landed in; for the shared trick pile, the
        seat the tracker took it for, or None: the next player's). None when the engine already holds
        it: the same seat's card seen again (after a hand passed over it, or a restart; the last deal
        counts until the next up-card, as its last trick may still lie on the table), or, with
        ``pile``, a card anyone played this deal (a trick pushed together or gathered, seen again).
        Also None when no seat is given and nobody is due to play. ``rival``: as :meth:`up_card_seen`'s.

        A reading to be checked (under :data:`CHECK_CONFIDENCE`) of a card this deal has shown surely (another
        seat played it, or it is the up-card and the seat could not hold it: :meth:`_shown`), whose rival is a
        card of the deck not seen yet this deal, is played as the rival, the card read becoming its rival: one
        card is not played twice, so the reading is wrong, and the reader's likeliest other reading is the
        likeliest card (a king of diamonds printed like the king of spades, read as the king of spades once that
        king is out). It stays a card to check.
        """
        deals = self._deals
        played = [(s, c) for trick in deals[-1].tricks for s, c in trick] if deals else []
        if pile and any(c == card for _, c in played):
            return None
        if seat is None:
            seat = self.expected.seat
            if seat is None:
                return None
        if (seat, card) in played:
            return None
        if confidence >= CHECK_CONFIDENCE:
            return Play(seat, card, confidence)
        if rival is not None and self._shown(card, seat) and self._unseen(rival):
            card, rival = rival, card
        return Play(seat, card, confidence, rival)

    def _unseen(self, card: Card) -> bool:
        """``card`` is a card of the deck not seen yet in the deal being played."""
        d = self._cur
        return d is not None and not d.finished and card in self._deck and d.is_unseen(card)

    def _shown(self, card: Card, seat: int) -> bool:
        """``card``, a card of the deck, was seen surely in the deal being played where ``seat`` cannot play it
        now: played by another seat (read surely, or put there by a revision), or the up-card, read surely, unless
        ``seat`` is the dealer who took it up and has not played it. Two readings to be checked of one card say
        one of them is wrong, not which."""
        d = self._cur
        if d is None or d.finished or card not in self._deck or d.is_unseen(card):
            return False
        earlier = next((s for trick in d.tricks for s, c in trick if c == card), None)
        if earlier is None:
            if card != d.up_card or not d.up_reliable:
                return False
            return not (seat == d.dealer and d.dealer_took_up and not d.up_card_played)
        recorded = self._recorded_play(earlier, card)
        return earlier != seat and (recorded is None or recorded[1].confidence >= CHECK_CONFIDENCE)

    def _effective_inputs(self) -> tuple[list[int], set[int]]:
        """The indices of the inputs in effect, in order, and those of them a ``ReviseCard`` in effect names."""
        history = self._history
        effective = [*self._effective, *range(self._tail, len(history))]
        return effective, {x.index for i in effective if isinstance(x := history[i], ReviseCard)}

    def _recorded_play(self, seat: int, card: Card) -> tuple[int, Play] | None:
        """The input index and ``Play`` that recorded ``seat``'s ``card`` in the deal being played, where no
        revision changed it since; None where none did (a revision put the card there)."""
        history = self._history
        effective, revised = self._effective_inputs()
        for i in reversed(effective):
            x = history[i]
            if isinstance(x, UpCard):  # the deal's start
                return None
            if isinstance(x, Play) and x.seat == seat and x.card == card and i not in revised:
                return i, x
        return None

    def doubted_duplicate(self, card: Card, confidence: float, seat: int) -> tuple[int, Card] | None:
        """Where a sure reading (``confidence`` from :data:`CHECK_CONFIDENCE`) of ``card`` at ``seat`` meets a
        play of that card by another seat earlier this deal that was read to be checked, with a rival not seen
        yet this deal: that play's input index and its rival; else None.

        The card cannot have been played twice, and the earlier reading was the unsure one: the caller revises
        it to its rival (``ReviseCard``) before playing this one. Without that, the sure reading is a duplicate,
        and the earlier card's trick keeps a card nobody played. Only where the earlier play's reading is
        still the camera's (not revised since) and its rival is a card of the deck not seen yet this deal.
        """
        d = self._cur
        if d is None or d.finished or self.phase is not _PH_PLAY or confidence < CHECK_CONFIDENCE:
            return None
        earlier = next((s for trick in d.tricks for s, c in trick if c == card and s != seat), None)
        recorded = self._recorded_play(earlier, card) if earlier is not None else None
        if recorded is None:
            return None
        i, p = recorded
        if p.confidence >= CHECK_CONFIDENCE or p.rival is None or not self._unseen(p.rival):
            return None
        return i, p.rival

    def misread_corrected(self, card: Card, confidence: float, seat: int) -> Card | None:
        """The card ``seat``'s play to the trick being played was recorded as, where a reading of ``card``
        at that seat now corrects it; else None.

        A card recorded at a seat that another seat already played this hand (a duplicate: one of the
        two readings is wrong, and the earlier one stood uncontested) is corrected by a sure reading
        (``confidence`` at least :data:`CHECK_CONFIDENCE`) of a card of the deck not seen yet this hand,
        at the same seat while that trick is being played: the card was misread as it came to rest (a
        Joker whose corner read as a jack before its face was known). The caller applies ``ReviseCard``
        to that play; without it the new reading is a second card from one seat in one trick, and the
        whole hand's play is out of order.
        """
        d = self._cur
        if d is None or d.finished or self.phase is not _PH_PLAY or confidence < CHECK_CONFIDENCE:
            return None
        if card not in self._deck or not d.is_unseen(card) or not d.tricks:
            return None
        old = next((c for s, c in d.tricks[-1] if s == seat), None)
        if old is None or not any(c == old and s != seat for trick in d.tricks for s, c in trick):
            return None
        return old

    def is_next_up_card(self, card: Card, confidence: float, *, bidding: bool = False) -> bool:
        """Whether a face-up card seen on the kitty now is the next deal's up-card, mid-hand.

        Cards of this hand went unseen and the table has dealt again. Only a sure reading
        (``confidence`` at least :data:`CHECK_CONFIDENCE`) of a card this deal has not shown, once the
        hand is visibly being played. While the engine sees the hand being played (its bidding over),
        only with ``bidding``: the table pressed a bid after the card was seen and before any card was
        played, as it does on a new deal. A card read on the kitty alone is not enough there: the kitty
        lies face down beside the play, and a card back or a card passing over it can be misread as a
        card for a few frames; taken for the next up-card, that would end a hand the table is still
        playing. With the bidding never finished here (bids not entered, or refused while the up-card
        went unseen), at least :data:`PLAYS_BEFORE_RESYNC` cards played regardless are enough.
        Never the up-card itself, the known discard, a card of the trick still being played (it lies face
        up at the seats; with ``bidding``, unless it is the hand's last trick, which the table gathered with
        the deck), nor one played before the bidding ended. A card of an earlier trick can be the
        next up-card, the last trick won included: its trick was gathered face down, or the table would
        not be bidding, and the table has dealt the deck again. (A hand is stuck most often in its last
        tricks, when most of the deck has been played.) Applied as ``UpCard(card, next_deal=True)``, such
        a card closes the hand (see ``_abandon``).
        """
        d = self._cur
        if confidence < CHECK_CONFIDENCE or d is None or d.finished or d.up_card is None:
            return False
        early = [i for i in d.irregularities if i.kind is _KIND.PLAY_BEFORE_BIDDING_ENDED]
        if self.phase in _BIDDING_PHASES:
            if not _played_like_a_hand([i.seat for i in early]):
                return False
        elif self.phase not in (_PH_PLAY, _PH_RENEGE_DECISION) or not bidding:
            return False
        lying = d.tricks[-1] if d.tricks and len(d.tricks[-1]) < len(d.active) else []
        if bidding and len(d.tricks) == 5:
            # The hand's last trick, a card of it unseen: the table gathered it with the deck and is bidding on
            # a new deal, so its cards no longer lie at the seats (else the whole next deal would go unseen).
            lying = []
        shown = {c for _, c in lying} | set(d.set_aside) | {d.up_card, d.discard}
        return card not in shown and all(card != i.card for i in early)

    def deals_gone_unseen(self) -> int:
        """How many whole deals the table played, unseen, while the engine waited for an up-card.

        None unless the cards played meanwhile look like a hand being played: at least
        :data:`PLAYS_BEFORE_RESYNC` of them, from at least :data:`PLAYERS_BEFORE_RESYNC` seats (a
        player showing a hand after it ended is one seat). Then one deal per twenty cards or part of
        twenty, the most one deal can put on the table. The up-card that ends the wait carries the
        count (``UpCard.unseen_deals``), and the engine moves the deal on a seat for each.
        """
        seats = self._waiting_plays
        if self.phase not in (_PH_UP_CARD, _PH_HAND_OVER, _PH_RENEGE_DECISION) or not _played_like_a_hand(seats):
            return 0
        return -(-len(seats) // _PLAYS_PER_DEAL)

    def _abandon(self, d: DealState, inp: UpCard) -> list[Announcement]:
        """The next deal's up-card while deal ``d`` is still being played: the table has moved on.

        Cards went unseen (a misread, a card played out of the camera's view), so the engine closes
        the hand with what it saw: the points where the tricks seen already decide them whatever the
        rest did (a euchre, a blind loner made), else none, with an irregularity asking the table to
        check the score. Then the up-card starts the next deal, so one lost card costs one hand, not
        the rest of the game. (An ``Undo`` takes the up-card back and reopens the hand.)
        """
        seen = len(d.trick_winners)
        outcomes: set[tuple[tuple[int, int], str]] = set()  # the possible results; none without trump made
        if d.maker_seat is not None:
            makers = d.maker_seat % 2
            maker_alone = any(s % 2 == makers for s in d.alone)
            defender_alone = any(s % 2 != makers for s in d.alone)
            for k in range(5 - seen + 1):  # every way the unseen tricks could have gone
                won = list(d.tricks_won)
                won[makers] += k
                won[1 - makers] += 5 - seen - k
                outcomes.add(hand_points(self.rules, makers, (won[0], won[1]), maker_alone, defender_alone, d.blind))
        d.pending = None
        points, reason = outcomes.pop() if len(outcomes) == 1 else ((0, 0), "unfinished")
        when = f"after {seen} of 5 tricks" if d.maker_seat is not None else "before the bidding ended"
        what = "not scored: check the score" if reason == "unfinished" else "the tricks seen decide the points"
        out: list[Announcement] = [self._irr(_KIND.HAND_UNFINISHED, f"the next up-card came {when}; {what}")]
        out += self._close(d, points, reason)
        if self.phase is _PH_GAME_OVER:
            return out
        self.phase = _PH_HAND_OVER
        return out + self._on_up_card(inp)

    def _on_renege_decision(self, inp: Input) -> list[Announcement]:
        d = self._cur
        assert d is not None
        if isinstance(inp, Play) and not d.finished:
            d.pending = None  # the table played on: an implicit dismissal (the renege stays on record)
            self.phase = _PH_PLAY
            return self._play(d, inp)
        if isinstance(inp, UpCard) and d.finished:
            d.pending = None
            self.phase = _PH_HAND_OVER
            return self._on_up_card(inp)
        if isinstance(inp, UpCard):
            return self._abandon(d, inp)  # the renege stays on record; its decision lapses with the hand
        return self._unexpected(inp)

    def _on_game_over(self, inp: Input) -> list[Announcement]:
        if isinstance(inp, AcceptPenalty | DismissRenege):
            return self._unexpected(inp)
        return [
            self._irr(_KIND.NOT_ALLOWED, f"the game is over; {type(inp).__name__} ignored", getattr(inp, "seat", None))
        ]

    def _unexpected(self, inp: Input) -> list[Announcement]:
        """Inputs valid in several phases, and the table events that do not fit the current one."""
        d, ph = self._cur, self.phase
        if isinstance(inp, AcceptPenalty):
            return self._accept_penalty()
        if isinstance(inp, DismissRenege):
            if d is not None and d.pending is not None:
                d.dismissed.add(len(d.reneges) - 1)  # the table let this one go: it can no longer be penalised
                d.pending = None
                self.phase = _PH_PLAY if not d.finished else self._settled_phase()
            return []
        if isinstance(inp, Misdeal):
            return self._misdeal(d, inp)
        seat = getattr(inp, "seat", None)
        before_play = ph in (
            _PH_BID_ROUND_1,
            _PH_BID_ROUND_2,
            _PH_NAME_TRUMP_BLIND,
            _PH_DISCARD,
            _PH_GO_ALONE,
        )
        if isinstance(inp, GoAlone):
            if d is not None and ph in (_PH_DISCARD, _PH_GO_ALONE):
                return self._go_alone(d, inp.seat)
            return [
                self._irr(
                    _KIND.NOT_ALLOWED, "going alone is declared after trump is made and before the first lead", seat
                )
            ]
        if isinstance(inp, Exchange):
            if d is None or not before_play:
                return [
                    self._irr(_KIND.NOT_ALLOWED, f"{inp.kind}: cards change hands only before the first lead", seat)
                ]
            return self._exchange(d, inp)
        if isinstance(inp, Play):
            before_up_card = ph in (_PH_UP_CARD, _PH_HAND_OVER, _PH_RENEGE_DECISION)
            if before_up_card:
                detail = "a card was played before the up-card was turned"
                self._waiting_plays.append(inp.seat)
            else:
                detail = "a card was played before bidding ended"
            early = Irregularity(_KIND.PLAY_BEFORE_BIDDING_ENDED, detail, seat, inp.card, before_up_card=before_up_card)
            return [self._record(early)]
        if isinstance(inp, UpCard):
            if d is not None and inp.next_deal and not d.finished and d.up_card is not None:
                return self._abandon(d, inp)  # the table dealt again before this deal got to play
            return [
                self._irr(
                    _KIND.NOT_ALLOWED, f"an up-card ({inp.card}) while the deal is in phase {ph.value}", None, inp.card
                )
            ]
        if isinstance(inp, _BIDS):
            if ph in (_PH_UP_CARD, _PH_HAND_OVER):
                detail = "a bid before the up-card was turned"
                return [self._record(Irregularity(_KIND.BID_OUT_OF_TURN, detail, seat, before_up_card=True))]
            return [self._irr(_KIND.NOT_ALLOWED, "bidding is over", seat)]
        if isinstance(inp, Discard):
            return [
                self._irr(_KIND.NOT_ALLOWED, "a discard now (only the dealer, after taking up, before the lead)", seat)
            ]
        raise self._error(inp, "not an input the engine knows")

    def _misdeal(self, d: DealState | None, inp: Misdeal) -> list[Announcement]:
        """The table declares deal ``d`` void: no points, not counted in a fixed number of deals, same dealer.

        A nines-and-tens claim voids the deal only where the rules allow it and before the first lead;
        otherwise it is refused and the deal goes on.
        """
        claim = inp.nines_and_tens
        if d is None or d.finished:
            detail = f"a misdeal, but no deal is in progress: seat {self.dealer} deals next"
            return [self._irr(_KIND.NOT_ALLOWED, detail, claim)]
        if claim is not None and not self.rules.nines_and_tens:
            return [self._irr(_KIND.NOT_ALLOWED, "a hand of nines and tens is not redealt at this table", claim)]
        if claim is not None and d.play_started:
            return [self._irr(_KIND.NOT_ALLOWED, "a hand of nines and tens is declared before the first lead", claim)]
        why = "the table declared a misdeal" if claim is None else f"seat {claim} declared a hand of nines and tens"
        detail = f"{why}: seat {d.dealer}'s deal is void and seat {d.dealer} deals again"
        d.pending = None
        # The seat is that of a nines-and-tens claim, else None.
        irr = self._record(Irregularity(_KIND.MISDEAL, detail, claim, dealer=d.dealer))
        return [irr, *self._close(d, (0, 0), "misdeal", voided=True)]

    def _exchange(self, d: DealState, inp: Exchange) -> list[Announcement]:
        out: list[Announcement] = []
        allowed = {
            "call_for_best": self.rules.call_for_best and (inp.seat in d.alone or inp.seat in d.sitting_out),
            "farmers_hand": self.rules.farmers_hand,
            "nines_and_tens": self.rules.nines_and_tens,
        }[inp.kind]
        if not allowed:
            out.append(self._irr(_KIND.NOT_ALLOWED, f"{inp.kind} is not allowed here", inp.seat))
        # Recorded either way: unseen cards changed hands, so what a seat provably holds is no longer known.
        d.exchanges.append(inp)
        d.exchanged.add(inp.seat)
        if inp.kind == "call_for_best":
            d.exchanged.add((inp.seat + 2) % 4)
        return out

    # ----------------------------------------------------------------- play

    def _play(self, d: DealState, p: Play) -> list[Announcement]:
        seat, card = p.seat, p.card
        trick = d.tricks[-1]
        n = len(d.tricks) - 1
        if seat in d.sitting_out:
            return [self._irr(_KIND.LONE_PARTNER_PLAYED, f"seat {seat}'s partner is alone; card ignored", seat, card)]
        for s, recorded in trick:
            if s == seat:
                missed = self._missed_card_seat(d, seat, card)
                if missed is None and self._rival_reading(d, recorded, card):
                    # The seat's card read two ways, in one suit: a misread, not a card out of order.
                    # The card kept is the one recorded (the screen asks to check it); the detail names both.
                    detail = f"check seat {seat}'s card in trick {n + 1}: read as {recorded} and as {card}"
                    irr = Irregularity(
                        _KIND.CHECK_CARD, detail, seat, recorded, source=CardSource.PLAY, other_reading=card
                    )
                    return [self._record(irr)]
                d.out_of_order |= p.confidence < 1.0
                if missed is not None:
                    # The trick's winner leads the next one: the camera missed the last card of this one.
                    detail = (
                        f"seat {missed}'s card in trick {n + 1} went unseen; "
                        f"seat {seat} leads the next trick, so took this one"
                    )
                    unseen = Irregularity(_KIND.CARD_UNSEEN, detail, missed, trick=n, leader=seat)
                    closing = [self._record(unseen), *self._finish_trick(d)]
                    return closing + self._play(d, p)
                detail = f"seat {seat} already played to trick {n + 1}; card ignored"
                return [self._record(Irregularity(_KIND.OUT_OF_TURN, detail, seat, card, trick=n))]
        out: list[Announcement] = []
        reliable = p.confidence >= CHECK_CONFIDENCE
        if not reliable:
            shown = p.rival is not None and self._shown(p.rival, seat)  # the camera's other card is out already
            if shown:
                detail = f"check seat {seat}'s card: taken as {card}, as {p.rival} was already seen this deal"
            else:
                detail = f"check seat {seat}'s card: read as {card} with low confidence{_perhaps(p.rival)}"
            irr = Irregularity(
                _KIND.CHECK_CARD, detail, seat, card, source=CardSource.PLAY, rival=p.rival, rival_shown=shown or None
            )
            out.append(self._record(irr))
        if card == d.up_card and d.dealer_took_up and not d.up_card_played and d.discard != card:
            if seat == d.dealer:
                d.up_card_played = True
            elif not d.exchanges:
                reliable = False
                detail = f"{card} is the up-card the dealer took"
                out.append(self._record(Irregularity(_KIND.UP_CARD_PLAYED, detail, seat, card, up_card_taken=True)))
        elif not d.is_unseen(card):
            _, news = self._card_checks(d, card, seat, CardSource.PLAY)
            reliable = False
            out += news
        expected = self._play_turn(d)
        if seat != expected:
            d.out_of_order |= p.confidence < 1.0
            detail = f"seat {seat} played out of turn (seat {expected} to play)"
            out.append(self._record(Irregularity(_KIND.OUT_OF_TURN, detail, seat, card, turn=expected)))
        trick.append((seat, card))
        d.busy |= 1 << seat
        d.next_seat = None
        d.mark_seen(card)
        suit, as_trump, when_led = d.facts[card]
        if len(trick) == 1:
            d.led_suit, d.lead_ok, d.best, d.best_power = suit, reliable, 0, as_trump or when_led
        else:
            power = as_trump or (when_led if suit is d.led_suit else 0)
            if power > d.best_power:  # strictly: of two identical cards the first played wins
                d.best, d.best_power = len(trick) - 1, power
        if seat == d.dealer:
            d.dealer_cards.append((card, reliable))
        if reliable:
            out += self._renege_check(d, seat, card, n)
        if len(trick) == len(d.active):
            out += self._finish_trick(d)
        return out

    def _rival_reading(self, d: DealState, recorded: Card, card: Card) -> bool:
        """Whether ``card``, read at a seat whose card in the trick being played was recorded as ``recorded``,
        is another reading of that same card: a card of the deck not seen this deal, of the same suit as
        it plays under this deal's trump (a 9 of clubs read a moment later as the 10). Which reading is
        right changes no evidence of a renege, only perhaps who took the trick, and a wrong winner shows
        as the next lead coming out of turn; so the hand's play stays in order, and the table is asked to
        check the card. A card of another suit could be another seat's card in the wrong place: that one
        leaves the hand out of order."""
        return card != recorded and card in self._deck and d.is_unseen(card) and d.eff[card] == d.eff[recorded]

    def _missed_card_seat(self, d: DealState, seat: int, card: Card) -> int | None:
        """The seat whose card in the current trick went unseen, when ``seat`` plays again to lead the next.

        Only where nothing else explains it: one active seat has not played to the trick, the trick's
        lead came from its leader, ``seat`` holds the best card seen in it (so it took the trick unless
        the unseen card beat it, and then it would not lead), the trick is not the last, and ``card`` is
        new this deal (not the same card read twice).
        """
        trick = d.tricks[-1]
        if (
            len(d.tricks) >= 5
            or len(trick) != d.n_active - 1
            or trick[0][0] != d.leader
            or trick[d.best][0] != seat
            or not d.is_unseen(card)
        ):
            return None
        played = {s for s, _ in trick}
        missing = [s for s in d.active if s not in played]
        return missing[0] if len(missing) == 1 else None

    def _play_fast(self, d: DealState, inp: Play, seat: int, card: Card, facts: PlayFacts) -> list[Announcement]:
        """``apply`` for the common play (its conditions checked, and the card marked seen, by the caller)."""
        self._history.append(inp)
        self.phase = _PH_PLAY
        tricks = d.tricks
        trick = tricks[-1]
        trick.append((seat, card))
        k = len(trick)
        if seat == d.dealer:
            d.dealer_cards.append((card, True))
        suit, as_trump, when_led = facts
        if k == 1:
            led_suit = suit
            d.led_suit, d.lead_ok, d.best, d.best_power = suit, True, 0, as_trump or when_led
        else:
            led_suit = d.led_suit
            power = as_trump or (when_led if suit is led_suit else 0)
            if power > d.best_power:  # strictly: of two identical cards the first played wins
                d.best, d.best_power = k - 1, power
        # RenegeTracker.on_play, inline: a card of a suit this seat showed out of proves a renege; failing to
        # follow a reliably read lead records a show-out (a lead has its own suit, so it never shows out).
        seat_out = d.shown_out[seat]
        evidence = new_out = None
        if seat_out and suit is not None:
            so = seat_out.pop(suit, None)
            if so is not None:
                evidence = RenegeEvidence(seat, suit, so.trick, so.card, so.led, len(tricks) - 1, card)
        if suit is not led_suit and d.lead_ok and led_suit is not None and led_suit not in seat_out:
            seat_out[led_suit] = ShowOut(len(tricks) - 1, card, trick[0][1])
            new_out = led_suit
        busy = d.busy = d.busy | 1 << seat
        if k != d.n_active:
            # The expected seat played, so every seat from the leader to it is done: the next one is the
            # first free seat after it.
            nxt = d.next_seat = _NEXT_FREE[seat][busy]
            if evidence is None and (new_out is None or seat != d.dealer):
                last = self._last = _FOLLOW_PROMPT[nxt][led_suit]  # the common case
                return [last[0]]
        out: list[Announcement] = []
        if evidence is not None or (new_out is not None and seat == d.dealer):
            out = self._renege_news(d, seat, card, len(tricks) - 1, evidence, new_out)
        if k == d.n_active:
            winner, best = trick[d.best]
            d.trick_winners.append(winner)
            d.tricks_won[winner % 2] += 1
            won = _TRICK_WON[len(tricks) - 1][winner].get(id(best))  # _trick_won, inline
            out.append(won if won is not None else _trick_won(winner, best, len(tricks) - 1))
            if len(d.trick_winners) == 5:
                d.next_seat = None
                out += self._score_hand(d)
            else:
                d.new_trick()
                d.leader = d.next_seat = winner
                if self.phase is _PH_PLAY:
                    prompt = _LEAD_PROMPT[winner]
                    out.append(prompt)
                    self._last = tuple(out)
                    return out
        out.append(self._prompt())
        self._last = tuple(out)
        return out

    def _renege_check(self, d: DealState, seat: int, card: Card, n: int) -> list[Announcement]:
        trick = d.tricks[-1]
        led = trick[0][1] if len(trick) > 1 and d.lead_ok else None
        evidence, new_out = d.tracker.on_play(seat, card, led, n, d.eff)
        return self._renege_news(d, seat, card, n, evidence, new_out)

    def _renege_news(
        self, d: DealState, seat: int, card: Card, n: int, evidence: RenegeEvidence | None, new_out: Suit | None
    ) -> list[Announcement]:
        """What a reliable play's renege bookkeeping (``RenegeTracker.on_play``) means for the table."""
        out: list[Announcement] = []
        if evidence is not None:
            out += self._proven(d, evidence)
        up = d.up_card
        if (
            new_out is not None
            and seat == d.dealer
            and d.dealer_took_up
            and up is not None
            and not d.up_card_played
            and d.eff[up] is new_out
            and d.discard != up
        ):
            # The dealer took the up-card: still holding it is proof only if the discard is known (or may
            # not be the up-card) and no unseen exchange could have moved it.
            provable = (
                d.up_reliable
                and seat not in d.exchanged
                and (d.discard is not None or not self.rules.dealer_may_discard_upcard)
            )
            held = d.tracker.prove_held(seat, new_out, n, up) if provable else None
            if held is not None:
                out += self._proven(d, held)
            elif not provable:
                detail = f"the dealer showed out of {new_out.noun} and may still hold the up-card {up} (unproven)"
                out.append(self._irr(_KIND.SUSPECTED_RENEGE, detail, seat, card))
        return out

    def _proven(self, d: DealState, evidence: RenegeEvidence) -> list[Announcement]:
        unproven = None
        if d.trump_doubt and not all(_renege_under(evidence, trump) for trump in d.trump_doubt):
            # A card to be checked proves nothing, and trump rests on one: proven only where it holds whichever
            # suit the up-card really is.
            unproven = f"trump was made on an up-card to be checked ({d.up_card}{_perhaps(d.up_rival)})"
        elif d.out_of_order:
            unproven = "the play was out of order this hand (a card read out of turn, or one the camera missed)"
        if unproven is not None:
            detail = (
                f"seat {evidence.seat} may have reneged in {evidence.suit.noun} (trick {evidence.showed_out_trick + 1}"
                f", then {evidence.proof_card} in trick {evidence.proof_trick + 1}); unproven: {unproven}"
            )
            return [self._irr(_KIND.SUSPECTED_RENEGE, detail, evidence.seat, evidence.proof_card)]
        d.reneges.append(evidence)
        d.pending = evidence
        self.phase = _PH_RENEGE_DECISION
        return [RenegeProven(evidence.seat, evidence)]

    def _finish_trick(self, d: DealState) -> list[Announcement]:
        seat, card = d.tricks[-1][d.best]  # the winner, kept as the trick was played (table.trump.trick_winner)
        d.trick_winners.append(seat)
        d.tricks_won[seat % 2] += 1
        out: list[Announcement] = [_trick_won(seat, card, len(d.tricks) - 1)]
        if len(d.trick_winners) == 5:
            out += self._score_hand(d)
        else:
            d.new_trick()
            d.leader = seat
            d.next_seat = None
        return out

    # ----------------------------------------------------------------- scoring and game end

    def _score_hand(self, d: DealState) -> list[Announcement]:
        assert d.maker_seat is not None
        makers = d.maker_seat % 2
        out: list[Announcement] = self._natural_trump_check(d) if self.rules.natural_trump_to_pick_up else []
        maker_alone = defender_alone = False
        for s in d.alone:
            if s % 2 == makers:
                maker_alone = True
            else:
                defender_alone = True
        points, reason = hand_points(
            self.rules, makers, (d.tricks_won[0], d.tricks_won[1]), maker_alone, defender_alone, d.blind
        )
        return out + self._close(d, points, reason)

    def _natural_trump_check(self, d: DealState) -> list[Announcement]:
        """natural_trump_to_pick_up: the dealer who took up without a natural trump (left bower not counted)."""
        up = d.up_card
        if (
            not self.rules.natural_trump_to_pick_up
            or d.round_made != 1
            or d.maker_seat != d.dealer
            or up is None
            or d.dealer in d.exchanged
            or len(d.dealer_cards) != 5
            or not all(ok for _, ok in d.dealer_cards)
        ):
            return []
        played = [c for c, _ in d.dealer_cards]
        if d.up_card_played:
            if d.discard is None:
                return []  # the unseen discard may have been the natural trump: no claim
            original = [c for c in played if c != up] + [d.discard]
        else:
            original = played  # the up-card was discarded: the five played are the dealt hand
        if any(c.is_benny or (c.suit is d.trump and is_trump(c, d.trump)) for c in original):
            return []
        return [self._irr(_KIND.NOT_ALLOWED, "the dealer took up the card without holding a natural trump", d.dealer)]

    def _throw_in(self, d: DealState) -> list[Announcement]:
        d.thrown_in = True
        return [ThrownIn(d.dealer), *self._close(d, (0, 0), "thrown_in")]

    def _close(self, d: DealState, points: tuple[int, int], reason: str, voided: bool = False) -> list[Announcement]:
        """Finish (or re-finish, after a late penalty) deal ``d`` with ``points``."""
        if d.finished:
            self.score = (self.score[0] - d.points[0], self.score[1] - d.points[1])
            if not d.voided:
                self._deals_played -= 1
        d.finished, d.points, d.reason, d.voided = True, points, reason, voided
        self.score = (self.score[0] + points[0], self.score[1] + points[1])
        d.score_after = self.score
        if not voided:
            self._deals_played += 1
        self.dealer = d.dealer if voided else (d.dealer + 1) % 4
        out: list[Announcement] = []
        if not d.thrown_in:
            out.append(HandScored(points, (d.tricks_won[0], d.tricks_won[1]), d.makers or 0, reason, self.score))
        out += self._check_game_over()
        self.phase = self._settled_phase()
        return out

    def _settled_phase(self) -> Phase:
        d = self._cur
        if d is not None and d.pending is not None:
            return _PH_RENEGE_DECISION
        return _PH_GAME_OVER if self.game_over else _PH_HAND_OVER

    def _check_game_over(self) -> list[Announcement]:
        r, (a, b) = self.rules, self.score
        over, winner = False, None
        if r.target > 0:
            lead_team = 0 if a > b else 1 if b > a else None
            if lead_team is not None and max(a, b) >= r.target and (not r.win_by_two or abs(a - b) >= 2):
                over, winner = True, lead_team
        if not over and r.num_deals > 0 and self._deals_played >= r.num_deals:
            over, winner = True, (0 if a > b else 1 if b > a else None)
        was = self.game_over
        self.game_over, self.winner = over, winner
        if not over or was:
            return []
        return [GameWon(winner, self.score) if winner is not None else GameDrawn(self.score)]

    def _accept_penalty(self) -> list[Announcement]:
        d = self._cur
        if d is not None and d.penalty_accepted:
            return [self._irr(_KIND.NOT_ALLOWED, "the penalty for this hand was already applied")]
        # The pending renege, else the most recent one the table did not dismiss outright (playing on is
        # not a dismissal: an established renege can be claimed until the next deal).
        open_ = [] if d is None else [e for i, e in enumerate(d.reneges) if i not in d.dismissed]
        if d is None or not open_:
            return [self._irr(_KIND.NOT_ALLOWED, "no proven renege to penalise")]
        evidence = open_[-1]
        d.pending = None
        d.penalty_accepted = True
        offenders = evidence.seat % 2
        rule = self.rules.renege_penalty
        points = [0, 0]
        if rule is RenegePenalty.TWO_OR_FOUR:
            points[1 - offenders] = 4 if d.alone else 2
        elif rule is RenegePenalty.DEDUCT:
            points[offenders] = -2
        pts = (points[0], points[1])
        if self.game_over:
            self.game_over, self.winner = False, None  # the late penalty may change the result
        voided = rule is RenegePenalty.REPLAY
        return [
            PenaltyApplied(evidence.seat, pts),
            *self._close(d, pts, "renege_replay" if voided else "renege", voided),
        ]


# One handler per phase. (Functions, not bound methods kept on the instance: those would make every Match a
# reference cycle, freed only by the cyclic garbage collector, with all its deals.)
_HANDLERS: dict[Phase, Callable[[Match, Input], list[Announcement]]] = {
    Phase.UP_CARD: Match._on_up_card,
    Phase.HAND_OVER: Match._on_up_card,
    Phase.BID_ROUND_1: Match._on_bid_round_1,
    Phase.BID_ROUND_2: Match._on_bid_round_2,
    Phase.NAME_TRUMP_BLIND: Match._on_name_trump_blind,
    Phase.DISCARD: Match._on_discard,
    Phase.GO_ALONE: Match._on_go_alone,
    Phase.PLAY: Match._on_play,
    Phase.RENEGE_DECISION: Match._on_renege_decision,
    Phase.GAME_OVER: Match._on_game_over,
}


def apply_all(match: Match, inputs: Sequence[Input]) -> list[Announcement]:
    """Apply several inputs; all their announcements in order (a convenience for tests and importers)."""
    out: list[Announcement] = []
    for inp in inputs:
        out += match.apply(inp)
    return out


def _renege_under(evidence: RenegeEvidence, trump: Suit) -> bool:
    """Whether ``evidence`` (a renege proven under the deal's trump) is one under ``trump`` too: the led card, the
    card that failed to follow it and the card that proves it keep their effective suits (only the bowers move).
    (A proof by the up-card the dealer still holds needs an up-card read surely, so trump is never in doubt there.)"""
    eff = effective_table(trump)
    return (
        eff[evidence.led_card] is evidence.suit
        and eff[evidence.showed_out_card] is not evidence.suit
        and eff[evidence.proof_card] is evidence.suit
    )


def _question(irr: Irregularity) -> tuple[int | None, CardSource | None, frozenset[Card | None]] | None:
    """What a check asks, for telling a check said again apart from a new one: its seat, where the card appeared,
    and the two readings in doubt (None for anything but a check)."""
    if irr.kind is not _KIND.CHECK_CARD:
        return None
    return irr.seat, irr.source, frozenset((irr.card, irr.rival if irr.rival is not None else irr.other_reading))


def _restatements_marked(new: list[Announcement], gone: Counter[Announcement]) -> list[Announcement]:
    """``new`` (what a correction's history announces that the old one did not), each check that asks what a check
    the correction took away asked (the card read by turns as either of its two readings) marked ``restated``: the
    screen shows it, the speaker does not say it again."""
    asked = Counter(q for a in gone.elements() if isinstance(a, Irregularity) and (q := _question(a)) is not None)
    out: list[Announcement] = []
    for a in new:
        if isinstance(a, Irregularity) and (q := _question(a)) is not None and asked[q] > 0:
            asked[q] -= 1
            out.append(dataclasses.replace(a, restated=True))
        else:
            out.append(a)
    return out


def _perhaps(rival: Card | None) -> str:
    """A low-confidence reading's detail names the camera's likeliest other reading, where it gave one."""
    return f", perhaps {rival}" if rival is not None else ""
