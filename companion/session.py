"""The table session: turns camera observations and button presses into engine inputs, durably.

Every input is applied to the match at once (so the next observation is
judged against the right state) and handed to the log writer; its
announcements are *released* to the screen and speaker only once the writer
says the line is on disk. A power cut can therefore lose an input nobody was
told about, never one that was announced.

The mapping rules, in one place:

- ``UpCardShown`` (or a card landing on the kitty) becomes ``UpCard`` while the
  up-card is awaited, and ``UpCard(next_deal=True)`` when the engine takes a sure
  reading of a new card for the next deal's mid-hand (``Match.up_card_seen``: cards
  of the hand went unseen). While a hand is played, that needs a bid pressed after
  the card was seen and before another card lands: the card is kept until then
  (``_up_card_by_bidding``). Before anyone bids, a surer reading of another card
  on the kitty revises the up-card (``Match.up_card_revised``: the face-down deck
  or a card being turned was misread). Seeing the up-card again later changes nothing. The
  seat the tracker saw turn it (``turned_by``) goes with it, for the engine's
  deal-out-of-turn check.
- Bidding presses made while the engine still waits for the up-card (the camera
  reads it a moment after it is turned) wait for it, and count once it is seen
  if that is within ``HOLD_FRAMES`` frames (``HOLD_SECONDS`` without frames).
- ``CardLanded`` in a seat's zone (or the trick pile, attributed to the seat
  the tracker or the engine names) becomes ``Play``. A card that seat has
  already played this deal is the camera seeing it again (after a hand passed
  over it, or after a restart), not a new play. A first play while the dealer's
  discard is awaited means the dealer discarded face down: an unseen
  ``Discard`` goes first. An uncertain reading is passed on below the engine's
  check threshold, so it can only ever say "check this card".
- ``CardRevised`` becomes ``ReviseCard`` of the input that recorded the old card. So does a sure
  ``CardLanded`` of an unseen card at a seat whose card in the trick being played was a card already
  played this hand (``Match.misread_corrected``): that card was misread, and this reading corrects it.
  A sure ``CardLanded`` of a card another seat's play to be checked was read as, earlier this deal,
  revises that play to its rival first (``Match.doubted_duplicate``): a card is not played twice, and
  ``Match.play_seen`` likewise records a reading to be checked of a card already played as its rival.
- ``CardLifted`` of the last card played, while its trick is still open, is
  a card taken back before the trick was turned: ``Undo``.
- Buttons: Pass, Call (order up / name the chosen suit), a suit, suit-cycle,
  Alone, Undo, New game, and the renege decision (see ``display.actions.in_context``).
  While a card the table is asked to check lies on it (``checked_landing``), Call
  confirms it as read and a suit button names its rank in that suit (a player's
  correction, sure); Next reading steps that card, else the last one played,
  through its look-alikes. Once the hand is played, an up-card the table is asked
  to check is answered the same way (``checked_up_card``). While the table bids on
  it, Call and its suit are bids: in the first round a suit button of another suit
  names its rank in that suit, and in either round Next reading steps it.
- Declarations, each in at most three presses, offered (``offers``) only where the
  rules and the moment allow them:
  - bidding: Alone arms the next call (Alone, Call: order up alone); in round 2
    (or naming trump under a turned-up Benny) Call with no suit chosen asks
    "no trump?" where the rules play it, and Call again names it. The dealer's
    partner who orders up goes alone where the rules say so (Canadian loner).
  - after trump, before the lead: where only one player may go alone, Alone
    declares it at once; else Alone asks who goes alone, the maker first; Alone
    again steps to the next seat allowed, a suit button picks the seat that suit
    stands for (``display.actions.SEAT_SUITS``), Call declares it, Pass drops it.
    So a defender goes alone while the maker plays with a partner.
  - the declarations menu (hold Alone, a Declare button, E): blind lone, call for
    best, farmer's hand (going under), nines and tens (redeal or swap), misdeal;
    a suit button (or Call for the fifth) picks the item, a suit button then picks
    the seat that claims it.
  A declaration the engine would refuse is not logged: the engine's reason is
  said on the screen instead (``_refusal``). ``panel_presses`` gives the presses
  that make a given input, for scripts.
- Misdeal asks first (``misdeal_asked``); pressed again within
  ``MISDEAL_CONFIRM_S`` while the same deal is in progress, it becomes
  ``Misdeal()``: the deal is void and its dealer deals again. Any other press
  in between cancels the question. Only the confirmed input is logged, so a
  restart replays the misdeal and never a question left unanswered.
"""

from __future__ import annotations

import copy
import dataclasses
import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from display import phrases
from display.actions import SEAT_SUITS, SUIT_ORDER, Action, ButtonAction, in_context, next_suit, seat_of_suit
from display.view import BannerKind, Choice, Offer, ScoreboardView
from table.announcements import Announcement, Expect, Irregularity, IrregularityKind
from table.cards import Card, Rank, Suit, deck
from table.deal import DealRecord, Phase
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
    ReviseCard,
    Undo,
)
from table.log import LogEntry, MatchLog
from table.match import CHECK_CONFIDENCE, Match
from vision.observations import (
    CardLanded,
    CardLifted,
    CardRevised,
    Observation,
    UpCardShown,
    Zone,
    ZoneCleared,
    ZoneKind,
)

log = logging.getLogger(__name__)

# An uncertain reading goes to the engine just below its check threshold: it is recorded and
# flagged "check this card", and it can neither prove nor create a renege until it is revised.
_UNCERTAIN_CONFIDENCE = CHECK_CONFIDENCE * 0.99

# Seconds within which a second press of Misdeal confirms the first (a stray press voids nothing).
MISDEAL_CONFIRM_S = 5.0


def revision_in_doubt(
    index: int, card: Card, rival: Card | None, confidence: float = _UNCERTAIN_CONFIDENCE
) -> ReviseCard:
    """A ``ReviseCard`` of input ``index`` to ``card``, a reading still in doubt: just below the engine's check
    line (or ``confidence``, where lower), with ``rival`` for the check to name. The card stays one to be
    checked, which proves no renege; a revision without a confidence counts as a player's correction."""
    return ReviseCard(index, card, min(confidence, _UNCERTAIN_CONFIDENCE), rival)


def camera_revision(index: int, obs: CardRevised) -> ReviseCard:
    """The ``ReviseCard`` of input ``index`` for the tracker's ``obs``: a sure reading (a card misread as it
    slid to rest, or one confirmed) as sure; a vote that turned to a card still unsure (a card read by turns as
    itself and its rival) in doubt, the card it was read as before its rival."""
    if not obs.uncertain:
        return ReviseCard(index, obs.new)
    return revision_in_doubt(index, obs.new, obs.old if obs.old != obs.new else None, obs.confidence)


class LogWriter(Protocol):
    """Makes inputs durable in order; ``durable`` counts how many are on disk so far."""

    @property
    def durable(self) -> int: ...

    def submit(self, inp: Input, *, frame: int | None, meta: dict[str, Any] | None) -> None: ...

    def close(self) -> None: ...


class SyncLogWriter:
    """Appends on the caller's thread: each submit returns once the line is fsynced."""

    def __init__(self, match_log: MatchLog) -> None:
        self._log = match_log
        self._durable = 0

    @property
    def durable(self) -> int:
        return self._durable

    def submit(self, inp: Input, *, frame: int | None, meta: dict[str, Any] | None) -> None:
        self._log.append(inp, frame=frame, meta=meta)
        self._durable += 1

    def close(self) -> None:
        self._log.close()


class ThreadedLogWriter:
    """Appends on a writer thread, so the per-frame loop never waits for the disk.

    A failed write (disk full, card pulled) is kept in ``error`` and the same
    input is tried again every ``retry_s`` seconds, in order: inputs after it
    are never acknowledged meanwhile, so nothing is announced that is not on
    disk, and once space is freed the log catches up with nothing lost.
    ``failures`` counts the failed attempts; ``error`` is cleared by the next
    write that succeeds. On ``close`` whatever could not be written is given
    up (``durable`` then falls short of ``submitted``).
    """

    def __init__(self, match_log: MatchLog, retry_s: float = 1.0) -> None:
        self._log = match_log
        self._queue: queue.Queue[tuple[Input, int | None, dict[str, Any] | None] | None] = queue.Queue()
        self._durable = 0
        self._submitted = 0
        self._lock = threading.Lock()
        self._flushed = threading.Condition(self._lock)
        self._closing = threading.Event()
        # Held while a line is written, so ``close`` never closes the file under a write; ``_stopped`` (set
        # under it) tells a writer still behind after ``close``'s wait to give the rest up.
        self._io = threading.Lock()
        self._stopped = False
        self._retry_s = retry_s
        self.error: OSError | None = None
        self.failures = 0
        self._thread = threading.Thread(target=self._run, name="match-log-writer", daemon=True)
        self._thread.start()

    @property
    def durable(self) -> int:
        with self._lock:
            return self._durable

    @property
    def submitted(self) -> int:
        with self._lock:
            return self._submitted

    @property
    def path(self) -> Any:
        return self._log.path

    def submit(self, inp: Input, *, frame: int | None, meta: dict[str, Any] | None) -> None:
        with self._lock:
            self._submitted += 1
        self._queue.put((inp, frame, meta))

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            inp, frame, meta = item
            while not self._append(inp, frame, meta):
                if self._closing.wait(self._retry_s):
                    return  # closing with the disk still failing: the rest is given up (durable < submitted)

    def _append(self, inp: Input, frame: int | None, meta: dict[str, Any] | None) -> bool:
        try:
            with self._io:
                if self._stopped:
                    return True  # closed while still behind: the rest is given up (durable < submitted)
                self._log.append(inp, frame=frame, meta=meta)
        except OSError as exc:
            with self._lock:
                first = self.error is None
                self.error = exc
                self.failures += 1
                self._flushed.notify_all()
            if first:
                log.error("cannot write the match log %s: %s; trying again", self._log.path, exc.strerror or exc)
            return False
        with self._lock:
            recovered = self.error is not None
            self.error = None
            self._durable += 1
            self._flushed.notify_all()
        if recovered:
            log.warning("the match log %s is being written again", self._log.path)
        return True

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until everything submitted so far is on disk; False if ``timeout`` passed or a write failed
        again while waiting (the disk is still full: the writer goes on trying)."""
        with self._lock:
            tried = self.failures
            self._flushed.wait_for(
                lambda: self._durable >= self._submitted or (self.error is not None and self.failures > tried),
                timeout,
            )
            return self.error is None and self._durable >= self._submitted

    def close(self, timeout: float = 10.0) -> None:
        """Write what is queued (waiting up to ``timeout`` seconds), then close the log; a writer still
        behind then gives the rest up (``durable`` falls short of ``submitted``), said in the journal."""
        self._closing.set()
        self._queue.put(None)
        self._thread.join(timeout)
        with self._io:
            self._stopped = True
            self._log.close()
        behind = self.submitted - self.durable
        if self._thread.is_alive() and behind > 0:
            log.error("the match log %s was closed with %d input(s) not yet written", self._log.path, behind)


@dataclass
class _Landing:
    """Where a played card came from, so a revision or a take-back finds its input."""

    seat: int
    card: Card
    history_index: int
    read_as: Card | None = None  # what the camera first said (the "next reading" button steps from it)
    step: int = 0
    rival: Card | None = None  # the camera's likeliest other reading of a card read with low confidence
    seen: Card | None = None  # the card the camera reports there, where the engine recorded another (its rival)
    trick: int = 0  # the deal's trick it was played to (0-based)
    in_doubt: bool = False  # recorded as a card to check (below the engine's check line), not yet answered
    answered: bool = False  # a player answered for it: confirmed it, or named another card
    frame: int | None = None  # the frame it landed in
    gathered: bool = False  # its trick was seen gathered

    def step_to(self, card: Card) -> None:
        """A player's correction (the "next reading" button, a suit): the card now recorded for this landing."""
        self.read_as = self.read_as or self.card
        self.card = card
        self.step += 1
        self.confirm()

    def confirm(self) -> None:
        """A player answered for this card (as read, or naming another): no longer one to check."""
        self.answered, self.in_doubt = True, False


def trick_in_sight(tricks: Sequence[Sequence[tuple[int, Card]]]) -> int:
    """The newest trick of a deal with cards in it, which still lies on the table: a trick just completed stays
    there until the next card is led (negative before the first card)."""
    return len(tricks) - 1 if tricks and tricks[-1] else len(tricks) - 2


def look_alikes(card: Card, deck_cards: Sequence[Card], rival: Card | None = None) -> list[Card]:
    """The cards a misread ``card`` most likely is, most likely first: the camera's own likeliest other
    reading (``rival``) where it gave one, then the same rank in the other suit of its colour, then in the
    other colour's suits, then its neighbouring ranks in its suit (the corner index's pip and rank are what a
    camera confuses). Only cards of ``deck_cards``."""
    twin = card.twin
    if twin is None or card.rank is None or card.suit is None:
        return [rival] if rival is not None and rival != card and rival in deck_cards else []
    in_deck = set(deck_cards)
    others = [s for s in Suit if s not in (card.suit, twin.suit)]
    out = [twin, *(Card(card.rank, s) for s in others)]
    ranks = [c.rank for c in deck_cards if c.suit is card.suit and c.rank is not None]
    if card.rank in ranks:
        i = ranks.index(card.rank)
        out += [Card(ranks[j], card.suit) for j in (i - 1, i + 1) if 0 <= j < len(ranks)]
    if rival is not None:
        out = [rival, *(c for c in out if c != rival)]
    return [c for c in out if c in in_deck and c != card]


def reading_cycle(card: Card, deck_size: int, rival: Card | None = None, played: Collection[Card] = ()) -> list[Card]:
    """What Next reading steps a card read as ``card`` through, in order (and round again): that reading, then its
    look-alikes (:func:`look_alikes`) in a deck of ``deck_size`` not among ``played``."""
    return [card, *(c for c in look_alikes(card, deck(deck_size), rival) if c not in played)]


def suit_answer(card: Card, other: Card | None) -> Suit | None:
    """The suit button that answers a check of ``card`` with ``other``: ``other``'s suit, where it is ``card``'s rank in
    another suit (a suit button names the rank as read in the suit pressed); else None (the Joker has no suit)."""
    if other is None or other.suit is None or card.suit is None or other.rank != card.rank or other == card:
        return None
    return other.suit


@dataclass
class _Pick:
    """A question the panel is in the middle of: whose go alone, the declarations menu, whose claim, no trump?"""

    kind: str  # "alone", "menu", "seat" (who claims ``item``), "no_trump"
    deal: int  # the deal it is about
    phase: Phase  # the phase it was asked in: it lapses when the deal moves on
    item: str = ""
    seat: int | None = None
    seats: tuple[int, ...] = ()  # the seats that may answer a "seat" question (all four where any may)


# The menu's items are picked by these buttons, in this order.
_MENU_KEYS: tuple[Action, ...] = (*(Action(ButtonAction.SUIT, s) for s in SUIT_ORDER), Action(ButtonAction.CALL))
_WINDOW = (Phase.DISCARD, Phase.GO_ALONE)
# Presses that bid; made while the engine waits for the up-card, they wait for it (TableSession._hold).
_BID_PRESSES = frozenset(
    {ButtonAction.PASS, ButtonAction.CALL, ButtonAction.SUIT, ButtonAction.SUIT_CYCLE, ButtonAction.ALONE}
)
# How long a held press waits for the up-card: 4 seconds (60 frames at the camera's 15 a second).
HOLD_FRAMES = 60
HOLD_SECONDS = 4.0
_BEFORE_LEAD = (Phase.BID_ROUND_1, Phase.BID_ROUND_2, Phase.NAME_TRUMP_BLIND, *_WINDOW)
# After the hand's last card, how long its last trick's card to check may still be answered (20 s at 15 frames a
# second): by then the trick is gathered and the next deal on its way, and Call is held as a bid for its up-card.
CHECK_AFTER_HAND_FRAMES = 300
# Presses that answer "check this card" while the hand is played (``TableSession.checked_landing``): Call confirms
# the card as read, a suit button names its rank in that suit. In play neither bids, so nothing else is lost.
_CHECK_ANSWERS = frozenset({ButtonAction.CALL, ButtonAction.SUIT})
# The bidding on an up-card, when Call and its suit are bids (a check of it is answered otherwise then).
BIDDING_ROUNDS = frozenset({Expect.BID_ROUND_1, Expect.BID_ROUND_2})


def _key_label(action: Action) -> str:
    return action.suit.symbol if action.suit is not None else phrases.button_name(action.kind.value)


def declarations(match: Match) -> list[tuple[str, int | None]]:
    """The declarations menu's items now, in their order: (item, the seat that makes it where only one may).

    Items: "blind_lone" (the dealer who turned up a jack, before any bid), "call_for_best" (a lone
    player, before the lead), "farmers_hand", "nines_and_tens" (a redeal), "nines_swap" (a swap with
    the kitty), all before the first lead and where the rules play them, and "misdeal" (any time in a deal).
    """
    deal = match.last_deal
    if deal is None or deal.finished:
        return []
    rules, phase = match.rules, match.phase
    before_lead = phase in _BEFORE_LEAD and not (deal.tricks and deal.tricks[0])
    items: list[tuple[str, int | None]] = []
    up = deal.up_card
    jack_up = up is not None and up.rank is Rank.JACK
    if rules.blind_lone and phase is Phase.BID_ROUND_1 and not deal.calls and jack_up:
        items.append(("blind_lone", deal.dealer))
    if rules.call_for_best and phase in _WINDOW and deal.alone_seats and before_lead:
        loners = deal.alone_seats
        items.append(("call_for_best", loners[0] if len(loners) == 1 else None))
    if rules.farmers_hand and before_lead:
        items.append(("farmers_hand", None))
    if rules.nines_and_tens and before_lead:
        items += [("nines_and_tens", None), ("nines_swap", None)]
    items.append(("misdeal", None))
    return items


def first_alone_candidate(match: Match) -> int | None:
    """The seat a first press of Alone after trump asks about: the maker where it may, else the next clockwise
    from the maker that may; None where nobody may go alone now."""
    view = match.view()
    allowed = view.may_go_alone
    if not allowed:
        return None
    maker = view.maker_seat if view.maker_seat is not None else 0
    return maker if maker in allowed else next((maker + k) % 4 for k in range(1, 5) if (maker + k) % 4 in allowed)


def panel_presses(match: Match, inp: Input) -> list[Action]:
    """The presses of the standard panel that make ``inp`` now, ``match`` standing just before it (the
    simulated table's scripts are made of these). A declaration the panel cannot make now raises ValueError.

    Bids: Pass; (Alone,) Call; (Alone,) a suit; no trump is (Alone,) Call, Call. Going alone after trump:
    Alone where only that seat may, else Alone, (the seat's suit,) Call. The menu's declarations: hold
    Alone (``DECLARE``), the item's button, then (where it asks) the seat's suit.
    """
    a = ButtonAction
    alone = [Action(a.ALONE)]
    if isinstance(inp, Pass):
        return [Action(a.PASS)]
    if isinstance(inp, OrderUp):
        return [*(alone if inp.alone else []), Action(a.CALL)]
    if isinstance(inp, NameTrump):
        name = [Action(a.CALL), Action(a.CALL)] if inp.suit is None else [Action(a.SUIT, inp.suit)]
        return [*(alone if inp.alone else []), *name]
    if isinstance(inp, GoAlone) and match.phase in _WINDOW:
        allowed = match.view().may_go_alone
        if allowed == (inp.seat,):
            return alone
        if inp.seat not in allowed:
            raise ValueError(f"{inp!r}: that seat may not go alone now")
        first = first_alone_candidate(match)
        return [*alone, *([] if first == inp.seat else [Action(a.SUIT, SEAT_SUITS[inp.seat])]), Action(a.CALL)]
    items = [item for item, _ in declarations(match)]
    item = {
        GoAlone: "blind_lone",
        Exchange: getattr(inp, "kind", "").replace("nines_and_tens", "nines_swap"),
        Misdeal: "misdeal" if getattr(inp, "nines_and_tens", None) is None else "nines_and_tens",
    }.get(type(inp), "")
    if item not in items:
        raise ValueError(f"no panel press makes {inp!r} now")
    presses = [Action(a.DECLARE), _MENU_KEYS[items.index(item)]]
    seat = getattr(inp, "nines_and_tens", None) if isinstance(inp, Misdeal) else getattr(inp, "seat", None)
    if dict(declarations(match))[item] is None and item != "misdeal" and seat is not None:
        presses.append(Action(a.SUIT, SEAT_SUITS[seat]))
    return presses


@dataclass
class SessionNotes:
    """What the session has to say that is not an engine announcement (for the screen's last line)."""

    messages: list[str] = field(default_factory=list)


class TableSession:
    """One match at the table: the engine, its log, and the mapping from the table's events to inputs."""

    def __init__(
        self,
        match_log: MatchLog,
        writer: LogWriter | None = None,
        *,
        first_dealer: int = 0,
        on_release: Callable[[Sequence[Announcement]], None] | None = None,
        names: Sequence[str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.log = match_log
        self.writer: LogWriter = writer if writer is not None else SyncLogWriter(match_log)
        self.first_dealer = first_dealer
        self.names = list(names) if names is not None and len(names) == 4 else [f"seat {s}" for s in range(4)]
        self.on_release = on_release
        self.match, refused = match_log.match()
        self.warnings = [*match_log.warnings, *refused]
        self._refused = bool(refused)
        # A restart that judges the recording again (begin_replay): the logged inputs still to be
        # produced again, and whether a difference was found (then nothing more is taken until
        # end_replay, which falls back on the log as written).
        self._replay: deque[LogEntry] = deque()
        self._replay_diverged = False
        self.replay_note = ""
        self._submitted = 0
        self._pending: list[tuple[int, list[Announcement]]] = []
        self._landings: list[_Landing] = []
        self._deal_number = self.match.deal_count
        self.alone_armed = False
        self.alone_candidate: int | None = None  # a defender picked by Alone after trump, until Call confirms
        self.chosen_suit: Suit | None = None
        self.notes = SessionNotes()
        self._script: int | None = None
        self._clock = clock
        # Misdeal pressed once: (when, the number of the deal it would void), until confirmed, cancelled or stale.
        self._misdeal_asked: tuple[float, int] | None = None
        self._pick: _Pick | None = None
        # Bidding presses made while the engine still waits for the up-card (the camera reads it a moment
        # after it is turned): (press, frame, script number, when), applied once the up-card is seen.
        self._held: list[tuple[Action, int | None, int | None, float]] = []
        # A card seen face up on the kitty that the engine refused while a hand was played, no card played
        # since: (card, confidence, turned_by, frame). A bid pressed next says it was the next deal's up-card.
        self._kitty_seen: tuple[Card, float, int | None, int, Card | None] | None = None
        # The last card played, lifted while its trick is open: (card, seat), until the next card lands.
        self._taken_back: tuple[Card, int] | None = None
        # The table answered a "check this card" since the last one was asked: its banner comes down.
        self._check_answered = False
        self._frame = 0  # the newest frame an observation or a press came with
        self._stepping: _Landing | None = None  # the card Next reading stepped last, until another card lands
        # The up-card Next reading steps while the table bids (input, camera's reading, its rival), for the deal.
        self._up_stepping: tuple[int, Card, Card | None] | None = None

    # ---- the one way in ----

    def submit(
        self, inp: Input, *, frame: int | None = None, source: str = "table", script: int | None = None
    ) -> list[Announcement]:
        """Apply ``inp`` now and queue it for the log; returns its announcements (released later).

        ``source`` says where it came from (camera, button, inferred); ``script`` is the number of
        a scripted button press, so a resumed run does not press it again.
        """
        if self._replay_diverged:
            return []
        if self._replay:
            logged = self._replay[0].input
            if logged != inp:
                self._diverge(f"judging frame {frame} again gave {inp!r} where the log has {logged!r}")
                return []
            self._replay.popleft()
            announcements = self.match.apply(inp)  # already in the log and announced before the restart
            self._deal_bookkeeping()
            return announcements
        announcements = self.match.apply(inp)
        if any(isinstance(a, Irregularity) and a.kind is IrregularityKind.CHECK_CARD for a in announcements):
            self._check_answered = False
        meta: dict[str, Any] = {"src": source}
        if script is not None:
            meta["script"] = script
        self.writer.submit(inp, frame=frame, meta=meta)
        self._submitted += 1
        self._pending.append((self._submitted, announcements))
        self._deal_bookkeeping()
        return announcements

    def _deal_bookkeeping(self) -> None:
        if self.match.deal_count != self._deal_number:
            self._new_hand()

    def _new_hand(self) -> None:
        """Forget what the camera and the panel held for the hand before (the match's deals moved on)."""
        self._deal_number = self.match.deal_count
        self._landings.clear()
        self._stepping = None
        self._up_stepping = None
        self.alone_armed = False
        self.alone_candidate = None
        self.chosen_suit = None
        self._pick = None

    # ---- a restart on a recording: judge it again from the first frame ----

    def begin_replay(self) -> bool:
        """Start the match afresh; the recording's frames, judged again, must produce the logged inputs.

        So a restarted run rebuilds not only the score but everything the camera side remembers
        (which landing each input came from, a card still being voted on) exactly as an uninterrupted
        run has it. Inputs that match the log are applied without being written or announced again.
        Returns False (nothing changes) where the log has nothing to replay or held refused inputs.
        """
        entries = self.log.entries
        if not entries or self._refused:
            return False
        header = self.log.header
        self.match = Match(header.rules, header.first_dealer, header.score)
        self._replay = deque(entries)
        self._replay_diverged = False
        self._new_hand()
        return True

    def replay_manual(self, frame: int) -> None:
        """Apply the logged presses that no script can produce again (a player's buttons), up to ``frame``."""
        while self._replay and not self._replay_diverged:
            entry = self._replay[0]
            meta = entry.meta if isinstance(entry.meta, dict) else {}
            manual = meta.get("src") == "button" and "script" not in meta
            if not (manual or not isinstance(entry.frame, int)):
                return
            if isinstance(entry.frame, int) and entry.frame > frame:
                return
            self._replay.popleft()
            self.match.apply(entry.input)
            if isinstance(entry.input, ReviseCard):  # a player's correction: the landing now holds that card
                for landing in self._landings:
                    if landing.history_index == entry.input.index and entry.input.card == landing.card:
                        landing.confirm()  # a card to check, confirmed as read
                    elif landing.history_index == entry.input.index:
                        landing.step_to(entry.input.card)
            self._deal_bookkeeping()

    def end_replay(self) -> None:
        """The frames judged before the restart are done: what the log holds beyond them is taken as written."""
        if self._replay_diverged or self._replay:
            if not self._replay_diverged:
                self.replay_note = f"{len(self._replay)} logged inputs were not produced again; taken as logged"
            self.match, _refused = self.log.match()
            self._new_hand()
            log.warning("resume: %s", self.replay_note)
        self._replay.clear()
        self._replay_diverged = False

    @property
    def replay_diverged(self) -> bool:
        return self._replay_diverged

    def _diverge(self, why: str) -> None:
        self._replay_diverged = True
        self._replay.clear()
        self.replay_note = why

    def release(self) -> list[Announcement]:
        """Announcements whose inputs are now on disk, in order (call once per loop iteration)."""
        durable = self.writer.durable
        out: list[Announcement] = []
        while self._pending and self._pending[0][0] <= durable:
            out.extend(self._pending.pop(0)[1])
        if out and self.on_release is not None:
            self.on_release(out)
        return out

    @property
    def unacknowledged(self) -> int:
        return len(self._pending)

    # ---- camera ----

    def observe(self, obs: Observation) -> None:
        """Turn one tracker observation into engine inputs (or nothing, when it tells nothing new)."""
        self._frame = max(self._frame, obs.frame)
        if isinstance(obs, UpCardShown):
            self._up_card(obs.card, obs.confidence, obs.uncertain, obs.frame, obs.turned_by, obs.rival)
        elif isinstance(obs, CardLanded):
            if obs.zone.kind is ZoneKind.KITTY:
                self._up_card(obs.card, obs.confidence, obs.uncertain, obs.frame, rival=obs.rival)
                return
            self._kitty_seen = None
            in_pile = obs.zone.kind is not ZoneKind.SEAT
            seat = obs.seat if in_pile else obs.zone.seat
            if self._taken_back is not None:
                self._replaced(seat, obs.card, obs.frame)
            if seat is None and self.match.expected.seat is None:
                self.notes.messages.append(phrases.card_landed_unexpected(obs.card))
                return
            self._play(seat, obs.card, obs.confidence, obs.uncertain, obs.frame, in_pile, obs.rival)
        elif isinstance(obs, CardRevised):
            self._revise(obs)
        elif isinstance(obs, CardLifted):
            self._lifted(obs)
        elif isinstance(obs, ZoneCleared) and obs.zone.kind is not ZoneKind.KITTY:
            # A trick gathered (the engine closed it when its last card landed): its cards are no longer there to
            # be checked.
            for landing in self._landings:
                landing.gathered = True

    def _up_card(
        self, card: Card, confidence: float, uncertain: bool, frame: int, turned_by: int | None = None,
        rival: Card | None = None,
    ) -> None:
        conf = min(confidence, _UNCERTAIN_CONFIDENCE) if uncertain else confidence
        inp = self.match.up_card_seen(card, conf, turned_by, rival=rival)
        self._kitty_seen = (card, conf, turned_by, frame, rival) if inp is None and self.match.in_play else None
        if inp is not None:  # (None: the up-card seen again, or turned down)
            self.submit(inp, frame=frame, source="camera")
            self._apply_held(frame)
            return
        index = self.match.up_card_revised(card, conf)
        if index is not None:  # a surer reading of another card before anyone bid: the up-card was misread
            self.submit(ReviseCard(index, card), frame=frame, source="camera")

    def _up_card_by_bidding(self) -> None:
        """A bid pressed while the engine still plays a hand, after a card was seen face up on the kitty and
        none played since: the table has dealt again, and that card may be the next deal's up-card
        (``Match.up_card_seen`` with ``bidding``). The hand stuck on a card the camera missed then closes
        with what was seen, instead of taking the next deal's cards as its own."""
        seen, self._kitty_seen = self._kitty_seen, None
        if seen is None or not self.match.in_play:
            return
        card, conf, turned_by, frame, rival = seen
        inp = self.match.up_card_seen(card, conf, turned_by, bidding=True, rival=rival)
        if inp is not None:
            self.submit(inp, frame=frame, source="camera")

    def _hold(self, action: Action, frame: int | None, now: float) -> None:
        """Keep a bidding press made before the camera has read the up-card, for when it has."""
        if not self._held:
            self.notes.messages.append(phrases.press_held_for_up_card())
        self._held.append((action, frame, self._script, now))

    def _apply_held(self, frame: int) -> None:
        """The presses held for the up-card, now it is seen: those made a moment ago count, in their order.

        One made longer ago (over ``HOLD_FRAMES`` frames, or ``HOLD_SECONDS`` where a press has no
        frame) was not waiting for this up-card: it is dropped, and the screen says so.
        """
        held, self._held = self._held, []
        now = self._clock()
        fresh = [
            h for h in held
            if (frame - h[1] <= HOLD_FRAMES if h[1] is not None else now - h[3] <= HOLD_SECONDS)
        ]  # fmt: skip
        if len(fresh) < len(held):
            self.notes.messages.append(phrases.held_presses_dropped())
        for action, at, script, when in fresh:
            self.act(action, frame=at, script_number=script, now=when)

    def _play(
        self, seat: int | None, card: Card, confidence: float, uncertain: bool, frame: int, in_pile: bool = False,
        rival: Card | None = None,
    ) -> None:
        if self.match.phase is Phase.DISCARD:
            # The first card on the table while the discard is awaited (no card of this deal is on the table
            # yet, so it is new): the dealer discarded face down, which opens the lead.
            self.submit(Discard(self.match.dealer, None), frame=frame, source="inferred")
        conf = min(confidence, _UNCERTAIN_CONFIDENCE) if uncertain else confidence
        if seat is not None and not in_pile:
            old = self.match.misread_corrected(card, conf, seat)
            if old is not None:
                # The seat's card in this trick was a card already played (a misread): this reading corrects it.
                self._revise(CardRevised(Zone.of_seat(seat), old, card, confidence, frame, uncertain))
                return
            doubted = self.match.doubted_duplicate(card, conf, seat)
            if doubted is not None:
                # Another seat's card read to be checked as this very card was its rival: one card is not
                # played twice. Its landing keeps the card the camera saw, which the camera's revisions name.
                index, rival_there = doubted
                revision = revision_in_doubt(index, rival_there, card)
                self.submit(revision, frame=frame, source="camera")
                for landing in self._landings:
                    if landing.history_index == index:
                        landing.card, landing.seen = rival_there, landing.seen or landing.card
                        landing.rival, landing.in_doubt = revision.rival, True
        play = self.match.play_seen(card, conf, seat, pile=in_pile, rival=rival)
        if play is None:
            return  # the engine holds this card already (seen again)
        self.submit(play, frame=frame, source="camera")
        seen = card if play.card != card else None  # a card already played, recorded as its rival
        trick = self._trick_of(play.seat, play.card)
        self._landings.append(_Landing(
            play.seat, play.card, len(self.match) - 1, rival=play.rival, seen=seen, trick=trick, frame=frame,
            in_doubt=play.confidence < CHECK_CONFIDENCE,
        ))  # fmt: skip
        self._stepping = None

    def _trick_of(self, seat: int, card: Card) -> int:
        """The trick of the deal in progress that holds ``seat``'s ``card`` (the newest such; 0 if none)."""
        deal = self.match.last_deal
        tricks = deal.tricks if deal is not None else []
        return next((n for n in range(len(tricks) - 1, -1, -1) if (seat, card) in tricks[n]), 0)

    def _revise(self, obs: CardRevised) -> None:
        for landing in reversed(self._landings):
            zone_seat = obs.zone.seat if obs.zone.kind is ZoneKind.SEAT else landing.seat
            if (landing.seen or landing.card) == obs.old and landing.seat == zone_seat:
                revision = camera_revision(landing.history_index, obs)
                if landing.answered and revision.confidence < CHECK_CONFIDENCE:
                    return  # a player answered for this card: a camera still in doubt does not undo it
                self.submit(revision, frame=obs.frame, source="camera")
                landing.card, landing.seen = obs.new, None
                landing.rival, landing.in_doubt = revision.rival, revision.confidence < CHECK_CONFIDENCE
                return

    def _lifted(self, obs: CardLifted) -> None:
        """The last card played, lifted before its trick is turned (``Match.taken_back``): kept until the next
        card lands, which undoes it if it is another card from the same seat (``_replaced``)."""
        self._taken_back = None
        if not self._landings or obs.zone.kind is ZoneKind.KITTY:
            return
        last = self._landings[-1]
        seat = obs.zone.seat if obs.zone.kind is ZoneKind.SEAT else None
        if last.history_index == len(self.match) - 1 and self.match.taken_back(obs.card, seat):
            self._taken_back = (obs.card, last.seat)

    def _replaced(self, seat: int | None, card: Card, frame: int) -> None:
        """A card landing after the last card played was lifted: another card from that seat replaces it
        (the lifted one was taken back: ``Undo``); any other landing leaves the lifted card played."""
        lifted, self._taken_back = self._taken_back, None
        if lifted is None or seat != lifted[1] or card == lifted[0] or not self.match.taken_back(*lifted):
            return
        self.submit(Undo(), frame=frame, source="camera")
        self._landings.pop()

    # ---- buttons and keys ----

    def act(
        self, action: Action, frame: int | None = None, script_number: int | None = None, now: float | None = None
    ) -> None:
        """Turn one button or key press into engine inputs, given whose turn it is.

        ``now`` is when it was pressed (the session's clock unless given): it times the misdeal question.
        """
        self._script = script_number
        self._frame = max(self._frame, frame) if frame is not None else self._frame
        now = self._clock() if now is None else now
        if action.kind is ButtonAction.MISDEAL:
            self._pick = None
            self._misdeal(frame, now)
            return
        if self._misdeal_asked is not None:  # any other press: the deal goes on
            asking = self.misdeal_asked(now) is not None
            self._misdeal_asked = None
            if asking:
                self.notes.messages.append(phrases.misdeal_cancelled())
        expected = self.match.expected
        renege_pending = expected.expected is Expect.RENEGE_DECISION
        action = in_context(action, renege_pending)
        if action.kind in _CHECK_ANSWERS and self.pick is None and self._kitty_seen is None:
            # (A card seen on the kitty since the last card played: Call may be the next deal's bid, as before.)
            checked = self.checked_landing()
            if checked is not None:
                self._answer_check(checked, action, frame)
                return
            up_card = self._up_card_to_answer()
            if up_card is not None:
                self._answer_up_card(up_card, action, frame)
                return
        if action.kind is ButtonAction.SUIT and action.suit is not None and self.pick is None:
            # In the first round a suit other than the up-card's orders nothing up: pressed while the up-card is
            # to be checked, it says the up-card is its rank in that suit.
            bid_up = self._up_card_while_bidding()
            if bid_up is not None and expected.expected is Expect.BID_ROUND_1 and action.suit is not bid_up[1].suit:
                self._answer_up_card(bid_up, action, frame)
                return
        if action.kind in (ButtonAction.PASS, ButtonAction.CALL) and self._kitty_seen is not None and self.pick is None:
            self._up_card_by_bidding()
            expected = self.match.expected
        if action.kind is ButtonAction.UNDO:
            self._held.clear()
        elif expected.expected is Expect.UP_CARD and action.kind in _BID_PRESSES and self.pick is None:
            self._hold(action, frame, now)
            return
        if self.pick is not None and self._answer(action, frame):
            return
        self._pick = None
        kind, seat = action.kind, expected.seat
        phase = self.match.phase
        bidding = expected.expected in (Expect.BID_ROUND_1, Expect.BID_ROUND_2, Expect.NAME_TRUMP_BLIND)

        if kind is ButtonAction.UNDO:
            self.submit(Undo(), frame=frame, source="button", script=self._script)
        elif kind is ButtonAction.NEW_GAME:
            self.submit(NewGame(self.first_dealer), frame=frame, source="button", script=self._script)
        elif kind is ButtonAction.ACCEPT_PENALTY:
            if self.match.view().pending_renege is not None:
                self.submit(AcceptPenalty(), frame=frame, source="button", script=self._script)
        elif kind is ButtonAction.DISMISS_RENEGE:
            if self.match.view().pending_renege is not None:
                self.submit(DismissRenege(), frame=frame, source="button", script=self._script)
        elif kind is ButtonAction.DECLARE:
            self._open_menu()
        elif kind is ButtonAction.PASS and bidding and seat is not None:
            self.submit(Pass(seat), frame=frame, source="button", script=self._script)
        elif kind is ButtonAction.CALL and bidding and seat is not None:
            self._call(seat, expected.expected, None, frame)
        elif kind is ButtonAction.SUIT and bidding and seat is not None and action.suit is not None:
            self._call(seat, expected.expected, action.suit, frame)
        elif kind is ButtonAction.SUIT and phase in _WINDOW and action.suit is not None:
            self._pick_alone(seat_of_suit(action.suit))
        elif kind is ButtonAction.SUIT_CYCLE and bidding:
            up = expected.up_card
            skip = up.suit if up is not None and expected.expected is Expect.BID_ROUND_2 else None
            self.chosen_suit = next_suit(self.chosen_suit, skip)
            self.notes.messages.append(phrases.suit_chosen(self.chosen_suit))
        elif kind is ButtonAction.ALONE:
            self._alone(bidding, phase)
        elif kind is ButtonAction.NEXT_READING:
            self._next_reading(frame)

    def _call(self, seat: int, expected: Expect, suit: Suit | None, frame: int | None) -> None:
        alone = self.alone_armed
        if expected is Expect.BID_ROUND_1:
            up = self.match.expected.up_card
            if suit is None or (up is not None and suit is up.suit):
                rules = self.match.rules
                if rules.dealer_partner_must_go_alone and seat == (self.match.dealer + 2) % 4:
                    alone = True  # the Canadian loner: the dealer's partner who orders up plays alone
                self.submit(OrderUp(seat, alone), frame=frame, source="button", script=self._script)
            else:
                self.notes.messages.append(phrases.only_up_card_suit())
                return
        else:
            chosen = suit if suit is not None else self.chosen_suit
            if chosen is None:
                if self.match.rules.no_trump:
                    self._ask("no_trump", phrases.no_trump_question())
                else:
                    self.notes.messages.append(phrases.choose_suit_first())
                return
            self.submit(NameTrump(seat, chosen, alone), frame=frame, source="button", script=self._script)
        self.alone_armed = False
        self.chosen_suit = None

    def _alone(self, bidding: bool, phase: Phase) -> None:
        if bidding:
            self.alone_armed = not self.alone_armed
            self.notes.messages.append(phrases.alone_armed_note(self.alone_armed))
            return
        if phase not in _WINDOW:
            self.notes.messages.append(phrases.alone_window_note())
            return
        view = self.match.view()
        if not view.may_go_alone:
            free = [x for x in range(4) if x not in view.alone_seats and (x + 2) % 4 not in view.alone_seats]
            why = self._refusal(GoAlone(free[0])) if free else None
            self.notes.messages.append(phrases.nobody_else_alone(phrases.refusal_reason(why) if why else ""))
            return
        if len(view.may_go_alone) == 1:  # nobody to choose between: that player goes alone at once
            self.submit(GoAlone(view.may_go_alone[0]), source="button", script=self._script)
            return
        first = first_alone_candidate(self.match)
        if first is not None:
            self._pick_alone(first)

    def _refusal(self, inp: Input) -> str | None:
        """What the engine would say, refusing ``inp`` now ("Not allowed: South — defenders may not go alone
        at this table"), or None where it would take it. Nothing is applied or logged."""
        trial = copy.deepcopy(self.match)
        for a in trial.apply(inp):
            if isinstance(a, Irregularity) and a.kind is IrregularityKind.NOT_ALLOWED:
                return phrases.irregularity_text(a, self.names)
        return None

    def _next_allowed(self, seat: int) -> int:
        """The first seat clockwise after ``seat`` that may go alone now (``seat`` itself if none other may)."""
        allowed = self.match.view().may_go_alone
        for k in range(1, 5):
            if (seat + k) % 4 in allowed:
                return (seat + k) % 4
        return seat

    def _pick_alone(self, seat: int) -> None:
        """Ask whether ``seat`` goes alone (Call declares it); a seat that may not is refused by the engine."""
        view = self.match.view()
        if seat not in view.may_go_alone:
            self.notes.messages.append(self._refusal(GoAlone(seat)) or phrases.alone_already(self.names[seat]))
            self._pick = None
            return
        self.alone_candidate = seat
        self._ask("alone", phrases.alone_question(self.names[seat]), seat=seat)

    # ---- questions: whose go alone, the declarations menu, whose claim, no trump ----

    def _ask(self, kind: str, note: str, **fields: Any) -> None:
        deal = self._deal_in_progress()
        self._pick = _Pick(kind, deal.number if deal is not None else -1, self.match.phase, **fields)
        self.notes.messages.append(note)

    @property
    def pick(self) -> _Pick | None:
        """The question the panel is in the middle of, or None (a question lapses when its deal moves on)."""
        p = self._pick
        if p is None:
            return None
        deal = self._deal_in_progress()
        phase = self.match.phase
        same_phase = phase is p.phase or (phase in _WINDOW and p.phase in _WINDOW)
        if deal is None or deal.number != p.deal or not same_phase:
            return None
        return p

    def _answer(self, action: Action, frame: int | None) -> bool:
        """A press while a question is open: True when it answered (or closed) the question."""
        p = self.pick
        assert p is not None
        kind = action.kind
        if kind in (ButtonAction.PASS, ButtonAction.UNDO) or (kind is ButtonAction.DECLARE and p.kind == "menu"):
            self._pick = None
            self.alone_candidate = None
            self.notes.messages.append(phrases.question_dropped(p.kind))
            return True
        if p.kind == "alone":
            if kind is ButtonAction.ALONE and p.seat is not None:
                self._pick_alone(self._next_allowed(p.seat))
                return True
            same = kind is ButtonAction.SUIT and action.suit is not None and seat_of_suit(action.suit) == p.seat
            if kind is ButtonAction.SUIT and action.suit is not None and not same:
                self._pick_alone(seat_of_suit(action.suit))
                return True
            if (kind is ButtonAction.CALL or same) and p.seat is not None:  # the seat's suit again: a second tap
                self._pick = None
                self.alone_candidate = None
                self.submit(GoAlone(p.seat), frame=frame, source="button", script=self._script)
                return True
            return False
        if p.kind == "menu":
            if action in _MENU_KEYS:
                items = self.declarations()
                i = _MENU_KEYS.index(action)
                if i < len(items):
                    self._choose(items[i][0], frame)
                else:
                    self.notes.messages.append(phrases.no_declaration_on_button())
                return True
            return False
        if p.kind == "seat":
            if kind is ButtonAction.SUIT and action.suit is not None:
                seat = seat_of_suit(action.suit)
                if seat in p.seats:
                    self._pick = None
                    self._declare(p.item, seat, frame)
                else:
                    label = phrases.declaration_label(p.item, self.names)
                    self.notes.messages.append(phrases.may_not_declare(self.names[seat], label))
                return True
            if kind is ButtonAction.DECLARE:
                self._open_menu()
                return True
            return False
        if p.kind == "no_trump" and kind is ButtonAction.CALL:
            turn = self.match.expected.seat
            self._pick = None
            if turn is not None:
                self.submit(NameTrump(turn, None, self.alone_armed), frame=frame, source="button", script=self._script)
            self.alone_armed = False
            return True
        return False

    def declarations(self) -> list[tuple[str, int | None]]:
        """The declarations menu's items now (see `declarations`)."""
        return declarations(self.match)

    def _open_menu(self) -> None:
        items = self.declarations()
        if not items:
            self.notes.messages.append(phrases.no_deal_in_progress(self.names[self.match.dealer]))
            return
        self._ask("menu", phrases.declare_question())

    def _choose(self, item: str, frame: int | None) -> None:
        seat = dict(self.declarations()).get(item)
        if item == "misdeal":
            self._pick = None
            self.submit(Misdeal(), frame=frame, source="button", script=self._script)
        elif seat is not None:
            self._pick = None
            self._declare(item, seat, frame)
        else:
            deal = self._deal_in_progress()
            seats = deal.alone_seats if item == "call_for_best" and deal is not None else (0, 1, 2, 3)
            label = phrases.declaration_label(item, self.names)
            self._ask("seat", phrases.whose_question(label), item=item, seats=tuple(sorted(seats)))

    def _declare(self, item: str, seat: int, frame: int | None) -> None:
        inp: Input
        if item == "blind_lone":
            inp = GoAlone(seat)  # before any bid, the dealer's Alone is the blind lone
        elif item == "nines_and_tens":
            inp = Misdeal(nines_and_tens=seat)
        elif item == "nines_swap":
            inp = Exchange(seat, "nines_and_tens")
        else:
            inp = Exchange(seat, item)
        self.submit(inp, frame=frame, source="button", script=self._script)
        self.notes.messages.append(phrases.declaration_label(item, self.names, seat))

    # ---- what the screen offers ----

    def offers(self) -> tuple[Offer, ...]:
        """The declarations the table may make now, for the prompt line (each a touch button as well)."""
        if self.pick is not None:
            return ()
        e = self.match.expected
        out: list[Offer] = []
        alone_key = phrases.button_name("alone")
        if e.expected in (Expect.BID_ROUND_1, Expect.BID_ROUND_2, Expect.NAME_TRUMP_BLIND) and e.seat is not None:
            label = phrases.alone_offer(self.alone_armed)
            out.append(Offer(label, alone_key, Action(ButtonAction.ALONE), selected=self.alone_armed))
            if e.expected is not Expect.BID_ROUND_1 and self.match.rules.no_trump and self.chosen_suit is None:
                out.append(Offer(phrases.no_trump_offer(), phrases.button_name("call"), Action(ButtonAction.CALL)))
        elif self.match.phase in _WINDOW and self.match.view().may_go_alone:
            allowed = self.match.view().may_go_alone
            label = phrases.alone_offer(who=self.names[allowed[0]] if len(allowed) == 1 else None)
            out.append(Offer(label, alone_key, Action(ButtonAction.ALONE)))
        if self.match.phase in _BEFORE_LEAD and self.declarations():
            out.append(Offer(phrases.declare_offer(), phrases.button_name("hold_alone"), Action(ButtonAction.DECLARE)))
        return (*out, *self._check_offers())

    def _check_offers(self) -> list[Offer]:
        """The answers to "check this card" (a card of the trick in sight, else the up-card) as offers: Call says it
        is right; the camera's other reading by its suit button where only the suit is in doubt, else (a played
        card) by the next-reading button. A tap on one gives the same action as its button."""
        checked = self.checked_landing()
        up = self._up_card_to_answer() if checked is None else None
        if checked is not None:
            card, rival = checked.card, checked.rival
        elif up is not None:
            _index, card, rival = up
        else:
            return self._bidding_check_offers()
        out = [Offer(phrases.check_right_offer(card), phrases.button_name("call"), Action(ButtonAction.CALL))]
        suit = suit_answer(card, rival)
        if suit is not None or checked is not None:
            out.append(self._other_reading_offer(rival, suit))
        return out

    @staticmethod
    def _other_reading_offer(rival: Card | None, suit: Suit | None) -> Offer:
        """The offer of the camera's other reading of a card to check: by ``suit``'s button where one names it
        (:func:`suit_answer`), else by Next reading."""
        other = phrases.check_other_offer(rival)
        if suit is not None:
            return Offer(other, suit.symbol, Action(ButtonAction.SUIT, suit))
        return Offer(other, phrases.button_name("next_reading"), Action(ButtonAction.NEXT_READING))

    def _bidding_check_offers(self) -> list[Offer]:
        """While the table bids on an up-card to check: the camera's other reading, by its suit button in the first
        round where only the suit is in doubt, else by Next reading. No offer confirms it (Call and the up-card's
        suit are bids): it is confirmed once the hand is played."""
        bid_up = self._up_card_while_bidding()
        if bid_up is None:
            return []
        _index, card, rival = bid_up
        first_round = self.match.expected.expected is Expect.BID_ROUND_1
        return [self._other_reading_offer(rival, suit_answer(card, rival) if first_round else None)]

    def choice(self) -> Choice | None:
        """The open question as the screen shows it, or None."""
        p = self.pick
        if p is None:
            return None
        names = self.names
        if p.kind == "alone":
            view = self.match.view()
            options = tuple(
                Offer(
                    phrases.alone_option_label(s, view.maker_seat, names),
                    SEAT_SUITS[s].symbol,
                    Action(ButtonAction.SUIT, SEAT_SUITS[s]),
                    selected=s == p.seat,
                )
                for s in range(4)
                if s in view.may_go_alone
            )
            return Choice(phrases.choice_title("alone"), options, phrases.alone_hint())
        if p.kind == "menu":
            options = tuple(
                Offer(phrases.declaration_label(item, names, seat), _key_label(key), key)
                for (item, seat), key in zip(self.declarations(), _MENU_KEYS, strict=False)
            )
            return Choice(phrases.choice_title("menu"), options, phrases.menu_hint())
        if p.kind == "seat":
            options = tuple(
                Offer(names[s], SEAT_SUITS[s].symbol, Action(ButtonAction.SUIT, SEAT_SUITS[s])) for s in p.seats
            )
            return Choice(phrases.declaration_label(p.item, names), options, phrases.seat_hint())
        seat = self.match.expected.seat
        who = names[seat] if seat is not None else phrases.table_name()
        option = Offer(
            phrases.no_trump_option(who, self.alone_armed), phrases.button_name("call"), Action(ButtonAction.CALL),
            selected=True,
        )
        return Choice(phrases.choice_title("no_trump"), (option,), phrases.no_trump_hint())

    def dress(self, view: ScoreboardView) -> ScoreboardView:
        """``view`` with what the panel offers now and the question it is in the middle of; a "check this card"
        banner the table has answered since is taken down."""
        if view.renege is not None:
            return view
        banner = view.banner
        if self._check_answered and banner is not None and banner.kind is BannerKind.CHECK_CARD:
            banner = None
        return dataclasses.replace(view, offers=self.offers(), choice=self.choice(), banner=banner)

    def _deal_in_progress(self) -> DealRecord | None:
        """The deal being played now, or None between deals (``Match.last_deal``: no copy of every deal)."""
        deal = self.match.last_deal
        return None if deal is None or deal.finished else deal

    def _misdeal(self, frame: int | None, now: float) -> None:
        """Misdeal pressed: the first press asks (see `misdeal_asked`), a second one in time voids the deal."""
        deal = self._deal_in_progress()
        if deal is None:
            self._misdeal_asked = None
            self.notes.messages.append(phrases.no_deal_to_void(self.names[self.match.dealer]))
            return
        if self.misdeal_asked(now) is not None:
            self._misdeal_asked = None
            self.submit(Misdeal(), frame=frame, source="button", script=self._script)
            return
        self._misdeal_asked = (now, deal.number)

    def misdeal_asked(self, now: float) -> int | None:
        """While a first press of Misdeal waits for its confirmation, the dealer of the deal it would void.

        None when nothing is asked: the question lapses after ``MISDEAL_CONFIRM_S``, or when the deal it
        was about is over.
        """
        asked = self._misdeal_asked
        if asked is None:
            return None
        at, number = asked
        deal = self._deal_in_progress()
        if not (0.0 <= now - at <= MISDEAL_CONFIRM_S) or deal is None or deal.number != number:
            return None
        return deal.dealer

    def checked_landing(self) -> _Landing | None:
        """The card the table is asked to check that still lies on it: the newest card recorded in doubt (below
        the engine's check line) and not answered for, in the newest trick with cards, while the hand is played,
        or, for the hand's last trick, for ``CHECK_AFTER_HAND_FRAMES`` frames after its last card. A trick the
        camera saw gathered (``ZoneCleared``) is no longer there to look at. None when there is none."""
        phase = self.match.phase
        if phase is not Phase.PLAY and phase is not Phase.HAND_OVER or not self._landings:
            return None
        last = self._landings[-1]
        if phase is Phase.HAND_OVER and (last.frame is None or self._frame - last.frame > CHECK_AFTER_HAND_FRAMES):
            return None
        deal = self.match.last_deal
        if deal is None or not deal.tricks:
            return None
        in_sight = trick_in_sight(deal.tricks)
        for landing in reversed(self._landings):
            if landing.trick < in_sight or landing.gathered:
                return None
            if landing.in_doubt:
                return landing
        return None

    def checked_up_card(self) -> tuple[int, Card, Card | None] | None:
        """While the hand is played on an up-card read to be checked (``Match.up_card_in_doubt``: its input, the
        card and the camera's other reading), and no card of the trick in sight is to be checked: the up-card, for
        the table to answer (the dealer holds it, or it lies turned down on the kitty); else None."""
        return None if self.checked_landing() is not None else self._up_card_to_answer()

    def _up_card_to_answer(self) -> tuple[int, Card, Card | None] | None:
        """:meth:`checked_up_card` where no card of the trick in sight is to be checked (the caller knows)."""
        return self.match.up_card_in_doubt() if self.match.phase is Phase.PLAY else None

    def _up_card_while_bidding(self) -> tuple[int, Card, Card | None] | None:
        """While the table bids on an up-card read to be checked (either round): its input, the card and the camera's
        other reading; else None. Call and the up-card's suit are bids then, so the table answers it with another
        suit's button in the first round (:meth:`act`) or by stepping it (:meth:`_next_reading`)."""
        return self.match.up_card_in_doubt() if self.match.expected.expected in BIDDING_ROUNDS else None

    def _answer_up_card(self, up: tuple[int, Card, Card | None], action: Action, frame: int | None) -> None:
        """The table's answer to "check the up-card" (``checked_up_card``), as :meth:`_answer_check` takes one for
        a played card: Call says it is as read, a suit button that it is that rank in that suit. The engine plays
        the hand again on it (trump made on it changes with it)."""
        index, card, _rival = up
        answer = self._answer_card(card, action)
        if answer is None:
            return
        self.submit(ReviseCard(index, answer), frame=frame, source="button", script=self._script)
        self._check_answered = True
        self.notes.messages.append(phrases.up_card_answered(answer, answer == card))

    def _answer_card(self, card: Card, action: Action) -> Card | None:
        """The card a check's answer names: ``card`` for Call, that rank in the suit pressed for a suit button; None
        (with a word on the screen) where that card was played this hand or is not in the deck."""
        if action.kind is not ButtonAction.SUIT or action.suit is None or card.is_benny:
            return card
        named = Card(card.rank, action.suit)
        played = {c for _, c in self.match.played_this_deal} - {card}
        if named in played or named not in deck(self.match.rules.deck_size):
            self.notes.messages.append(phrases.card_not_possible(named))
            return None
        return named

    def _answer_check(self, landing: _Landing, action: Action, frame: int | None) -> None:
        """The table's answer to "check this card" (``checked_landing``): Call says the card as read is right, a
        suit button that it is the card of that rank in that suit. Either way the card is recorded as a player's
        correction (sure: it may prove a renege now), and the camera's later doubts leave it as answered."""
        who = self.names[landing.seat]
        card = self._answer_card(landing.card, action)
        if card is None:
            return
        self.submit(ReviseCard(landing.history_index, card), frame=frame, source="button", script=self._script)
        self._check_answered = True
        if card == landing.card:
            landing.confirm()
            self.notes.messages.append(phrases.card_confirmed(who, card))
        else:
            landing.step_to(card)
            self.notes.messages.append(phrases.card_read_as(who, card))

    def _next_reading(self, frame: int | None) -> None:
        """Step a card through its likely misreadings (and back to the camera's): the card the table is asked to
        check (``checked_landing``), else the last card played this hand."""
        up = self._up_card_to_step()
        if up is not None:
            self._step_up_card(up, frame)
            return
        if not self._landings:
            self.notes.messages.append(phrases.no_card_to_correct())
            return
        checked = self.checked_landing()
        landing = checked or self._stepping or self._landings[-1]
        self._stepping = landing  # pressed again, Next goes on stepping this card (until another card lands)
        self._check_answered = self._check_answered or checked is not None
        original = landing.read_as or landing.card
        played = {c for _, c in self.match.played_this_deal} - {landing.card}
        cycle = reading_cycle(original, self.match.rules.deck_size, landing.rival, played)
        new = cycle[(landing.step + 1) % len(cycle)]
        if new == landing.card:
            return
        self.submit(ReviseCard(landing.history_index, new), frame=frame, source="button", script=self._script)
        landing.step_to(new)
        self.notes.messages.append(phrases.card_read_as(self.names[landing.seat], new))

    def _up_card_to_step(self) -> tuple[int, Card, Card | None] | None:
        """While the table bids: the up-card Next reading steps (its input, the camera's reading and its other
        one), where it was read to be checked, or Next stepped it already this deal; else None."""
        if self.match.expected.expected not in BIDDING_ROUNDS:
            return None
        self._up_stepping = self._up_stepping or self.match.up_card_in_doubt()
        return self._up_stepping

    def _step_up_card(self, up: tuple[int, Card, Card | None], frame: int | None) -> None:
        """Next reading while the table bids on an up-card to check: the up-card steps through the camera's
        reading's look-alikes and back to it, each step a player's answer (sure) that the engine bids on."""
        index, original, rival = up
        cycle = reading_cycle(original, self.match.rules.deck_size, rival)
        current = self.match.expected.up_card
        new = cycle[(cycle.index(current) + 1) % len(cycle)] if current in cycle else original
        self.submit(ReviseCard(index, new), frame=frame, source="button", script=self._script)
        self._check_answered = True
        self.notes.messages.append(phrases.up_card_answered(new, new == original))

    # ---- results ----

    def close(self) -> None:
        self.writer.close()
