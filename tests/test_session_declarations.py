"""Every declaration a rules switch allows, made at the table: on the GPIO panel (gpiozero's MockFactory), the
keyboard and the touchscreen, each in at most three presses, offered only where the rules and the moment allow it,
and refused with the engine's reason otherwise."""

from __future__ import annotations

import os
import queue
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from companion.session import TableSession
from display import phrases
from display.actions import Action, ButtonAction
from display.adapter import build_view
from display.buttons import DEFAULT_PINS, ButtonPanel, PanelConfig
from display.keyboard import action_for_key
from display.render import render
from display.view import ScoreboardView
from table.announcements import Irregularity, IrregularityKind, TrumpMade, WentAlone
from table.cards import Card, Suit
from table.deal import Phase
from table.inputs import Exchange, GoAlone, Input, Misdeal, NameTrump, OrderUp
from table.log import MatchLog, read_log
from table.rules import DefenderAlone, Rules
from vision.observations import CardLanded, UpCardShown, Zone

C = Card.parse
NA = Rules.preset("north_american")
BRITISH = Rules.preset("british")
NAMES = ("North", "East", "South", "West")
A = ButtonAction


def _session(tmp_path: Path, rules: Rules, up: str = "9h") -> TableSession:
    """Seat 0 (North) deals; ``up`` is turned up, so East (seat 1) bids first."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    session = TableSession(MatchLog.create(tmp_path / "match.jsonl", rules, first_dealer=0), names=NAMES)
    session.observe(UpCardShown(C(up), 0.97, frame=1))
    return session


def _logged(tmp_path: Path) -> list[Input]:
    return read_log(tmp_path / "match.jsonl").inputs


def _refusals(session: TableSession) -> list[str]:
    return [
        phrases.irregularity_text(a, NAMES)
        for a in session.release()
        if isinstance(a, Irregularity) and a.kind is IrregularityKind.NOT_ALLOWED
    ]


def _view(session: TableSession) -> ScoreboardView:
    return session.dress(build_view(session.match.view(), NAMES, rules=session.match.rules))


# ---- three ways in: the GPIO panel, the keyboard, the touchscreen ----


class FakeClock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


class Panel:
    """The standard panel on MockFactory pins: ``press("alone")``, ``hold("alone")``; each press goes to the session."""

    def __init__(self, session: TableSession, factory: MockFactory) -> None:
        self.session = session
        self.factory = factory
        self.clock = FakeClock()
        self.actions: queue.Queue[Action] = queue.Queue()
        self.panel = ButtonPanel(PanelConfig(), self.actions, pin_factory=factory, clock=self.clock)
        self.presses = 0

    def press(self, name: str, seconds: float = 0.15) -> None:
        pin = self.factory.pin(DEFAULT_PINS[name])
        pin.drive_low()
        self.clock.t += seconds
        self.panel.poll()
        pin.drive_high()
        self.clock.t += 0.2
        self.panel.poll()
        self.presses += 1
        while not self.actions.empty():
            self.session.act(self.actions.get_nowait(), now=self.clock.t)

    def hold(self, name: str) -> None:
        self.press(name, seconds=2.2)

    def close(self) -> None:
        self.panel.close()


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.reset()


_KEYS = {"pass": pygame.K_p, "order_up": pygame.K_k, "alone": pygame.K_a, "clubs": pygame.K_c,
         "diamonds": pygame.K_d, "hearts": pygame.K_h, "spades": pygame.K_s, "declare": pygame.K_e}


def _key(session: TableSession, name: str) -> None:
    action = action_for_key(pygame.event.Event(pygame.KEYDOWN, key=_KEYS[name], mod=0, unicode=""))
    assert action is not None
    session.act(action)


def _tap(session: TableSession, label: str) -> None:
    """Tap the drawn button whose words start with ``label`` (an offer beside the prompt, or an option)."""
    drawn = render(pygame.Surface((800, 480)), _view(session))
    texts = [t for t in drawn.texts if t.text.upper().startswith(label.upper())]
    assert texts, f"no {label!r} on the screen: {[t.text for t in drawn.texts]}"
    centres = [(x + w / 2, y + h / 2) for x, y, w, h in (t.rect for t in texts)]
    actions = [a for a in (drawn.action_at(c) for c in centres) if a is not None]
    assert actions, f"{label!r} is not a button"
    session.act(actions[0])


SUIT_BUTTON = {0: "clubs", 1: "diamonds", 2: "hearts", 3: "spades"}


# ---- going alone after trump: the maker, its partner, a defender ----


def _ordered_up_by_east(tmp_path: Path, rules: Rules) -> TableSession:
    session = _session(tmp_path, rules)
    session.act(Action(A.CALL))  # East (seat 1) orders up hearts; North, the dealer, picks it up
    assert session.match.phase is Phase.DISCARD
    return session


def test_a_defender_goes_alone_while_the_maker_plays_with_a_partner_on_the_panel(
    tmp_path: Path, factory: MockFactory
) -> None:
    session = _ordered_up_by_east(tmp_path, BRITISH)
    panel = Panel(session, factory)
    try:
        panel.press("alone")  # who goes alone? East, the maker, first
        panel.press("hearts")  # South, whose suit is hearts
        panel.press("order_up")  # Call: declared
    finally:
        panel.close()
    assert panel.presses == 3
    assert _logged(tmp_path)[-1] == GoAlone(2)
    released = session.release()
    assert WentAlone(2, defender=True) in released
    assert session.match.view().alone_seats == (2,)  # East plays with West; North sits out
    assert session.match.deals[-1].maker_seat == 1


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_every_seat_that_may_go_alone_takes_at_most_three_presses(
    tmp_path: Path, factory: MockFactory, seat: int
) -> None:
    session = _ordered_up_by_east(tmp_path, BRITISH)
    assert session.match.view().may_go_alone == (0, 1, 2, 3)  # British: any player, the maker's partner too
    panel = Panel(session, factory)
    try:
        panel.press("alone")
        if seat != 1:
            panel.press(SUIT_BUTTON[seat])
        panel.press("order_up")
    finally:
        panel.close()
    assert panel.presses <= 3 and _logged(tmp_path)[-1] == GoAlone(seat)
    assert session.match.view().alone_seats == (seat,)


def test_both_a_maker_and_a_defender_go_alone(tmp_path: Path) -> None:
    session = _ordered_up_by_east(tmp_path, BRITISH)
    for name in ("alone", "order_up", "alone", "clubs", "order_up"):  # East alone, then North defends alone
        _key(session, {"order_up": "order_up"}.get(name, name))
    assert session.match.view().alone_seats == (1, 0)


def test_a_defender_goes_alone_by_keys(tmp_path: Path) -> None:
    session = _ordered_up_by_east(tmp_path, BRITISH)
    for name in ("alone", "hearts", "order_up"):
        _key(session, name)
    assert _logged(tmp_path)[-1] == GoAlone(2)


def test_a_defender_goes_alone_by_touch(tmp_path: Path) -> None:
    session = _ordered_up_by_east(tmp_path, BRITISH)
    _tap(session, "Alone")
    choice = _view(session).choice
    assert choice is not None and choice.title == "Who goes alone?"
    assert [o.label for o in choice.options] == [
        "North (defends)", "East (maker)", "South (defends)", "West (maker's partner)"
    ]
    _tap(session, "South (defends)")  # picked
    assert _view(session).choice is not None and session.alone_candidate == 2
    _tap(session, "South (defends)")  # a second tap declares it
    assert _logged(tmp_path)[-1] == GoAlone(2) and _view(session).choice is None


def test_where_defenders_may_not_go_alone_only_the_maker_is_offered_and_a_defender_is_refused(tmp_path: Path) -> None:
    session = _ordered_up_by_east(tmp_path, NA)
    session.release()
    assert [o.label for o in _view(session).offers] == ["East alone", "Declare\u2026"]  # the only one who may
    logged = _logged(tmp_path)
    _key(session, "hearts")  # South, a defender: refused with the engine's reason, and nothing logged
    assert session.notes.messages[-1] == "Not allowed: South \u2014 defenders may not go alone at this table"
    assert _logged(tmp_path) == logged and session.match.view().alone_seats == () and session.pick is None
    _key(session, "alone")  # East, the only one who may: alone at once, one press
    assert _logged(tmp_path)[-1] == GoAlone(1) and session.match.view().alone_seats == (1,)
    _key(session, "alone")  # now nobody else may, and the screen says why
    assert session.notes.messages[-1] == (
        "nobody else may go alone now (North \u2014 defenders may not go alone at this table)"
    )


def test_against_a_lone_maker_a_defender_is_offered_once_the_maker_is_alone(tmp_path: Path) -> None:
    rules = NA.replace(defender_may_go_alone=DefenderAlone.AGAINST_LONE_MAKER)
    session = _ordered_up_by_east(tmp_path, rules)
    _key(session, "alone")
    _key(session, "order_up")  # East alone
    _key(session, "alone")
    choice = _view(session).choice
    assert choice is not None and [o.label for o in choice.options] == ["North (defends)", "South (defends)"]


def test_pass_drops_the_question_and_passes_nothing(tmp_path: Path) -> None:
    session = _ordered_up_by_east(tmp_path, BRITISH)
    before = _logged(tmp_path)
    _key(session, "alone")
    _key(session, "pass")
    assert session.pick is None and _logged(tmp_path) == before
    assert session.notes.messages[-1] == "nobody goes alone"


def test_a_question_lapses_when_the_deal_moves_on(tmp_path: Path) -> None:
    session = _ordered_up_by_east(tmp_path, BRITISH)
    _key(session, "alone")
    assert session.pick is not None
    session.observe(CardLanded(Zone.of_seat(1), C("Ah"), 0.95, 10, seat=1))  # the dealer discarded; East leads
    assert session.pick is None and _view(session).choice is None and _view(session).offers == ()


def test_after_the_first_lead_alone_says_why_not(tmp_path: Path) -> None:
    session = _ordered_up_by_east(tmp_path, BRITISH)
    session.observe(CardLanded(Zone.of_seat(1), C("Ah"), 0.95, 10, seat=1))
    _key(session, "alone")
    assert session.notes.messages[-1] == "going alone is declared after trump is made and before the first lead"


# ---- bidding: alone with the call, the Canadian loner, no trump, blind lone ----


def test_against_a_lone_maker_alone_asks_between_the_two_defenders(tmp_path: Path) -> None:
    rules = NA.replace(defender_may_go_alone=DefenderAlone.AGAINST_LONE_MAKER)
    session = _ordered_up_by_east(tmp_path, rules)
    _key(session, "alone")  # East alone at once (only the maker may, yet)
    assert _logged(tmp_path)[-1] == GoAlone(1) and session.pick is None
    for name in ("alone", "alone", "order_up"):  # South first (clockwise from the maker), then North
        _key(session, name)
    assert _logged(tmp_path)[-1] == GoAlone(0) and session.match.view().alone_seats == (1, 0)


def test_alone_then_call_orders_up_alone_in_two_presses(tmp_path: Path, factory: MockFactory) -> None:
    session = _session(tmp_path, NA)
    panel = Panel(session, factory)
    try:
        panel.press("alone")
        panel.press("order_up")
    finally:
        panel.close()
    assert _logged(tmp_path)[-1] == OrderUp(1, True) and not session.match.deals[-1].blind


def test_the_dealers_partner_who_orders_up_goes_alone_where_the_rules_say_so(tmp_path: Path) -> None:
    session = _session(tmp_path, BRITISH)
    _key(session, "pass")  # East
    assert _view(session).prompt == "South: pass or order up 9\u2665 alone?"
    _key(session, "order_up")  # South, the dealer's partner: "I'll play alone"
    assert _logged(tmp_path)[-1] == OrderUp(2, True)
    assert _refusals(session) == []  # not an irregularity: the panel said it right


def test_no_trump_in_round_two_is_call_twice(tmp_path: Path, factory: MockFactory) -> None:
    session = _session(tmp_path, NA.replace(no_trump=True))
    for _ in range(4):
        session.act(Action(A.PASS))
    assert [o.label for o in _view(session).offers] == ["Alone", "No trump", "Declare\u2026"]
    panel = Panel(session, factory)
    try:
        panel.press("alone")
        panel.press("order_up")  # no suit chosen: "no trump?"
        choice = _view(session).choice
        assert choice is not None and choice.options[0].label == "East: no trump alone"
        panel.press("order_up")
    finally:
        panel.close()
    assert panel.presses == 3 and _logged(tmp_path)[-1] == NameTrump(1, None, True)
    assert session.match.view().trump_made and session.match.view().trump is None


def test_no_trump_by_touch_and_a_suit_instead(tmp_path: Path) -> None:
    session = _session(tmp_path, NA.replace(no_trump=True))
    for _ in range(4):
        session.act(Action(A.PASS))
    _tap(session, "No trump")
    _key(session, "spades")  # a suit answers the question: spades are named
    assert _logged(tmp_path)[-1] == NameTrump(1, Suit.SPADES, False)


def test_no_trump_by_touch(tmp_path: Path) -> None:
    session = _session(tmp_path, NA.replace(no_trump=True))
    for _ in range(4):
        session.act(Action(A.PASS))
    _tap(session, "No trump")
    _tap(session, "East: no trump")
    assert _logged(tmp_path)[-1] == NameTrump(1, None, False)


def test_where_no_trump_is_not_played_it_is_not_offered(tmp_path: Path) -> None:
    session = _session(tmp_path, NA)
    for _ in range(4):
        session.act(Action(A.PASS))
    assert "No trump" not in [o.label for o in _view(session).offers]
    _key(session, "order_up")
    assert session.notes.messages[-1] == "choose a suit first" and session.pick is None


def test_the_dealer_names_no_trump_under_a_turned_up_benny(tmp_path: Path) -> None:
    session = _session(tmp_path, BRITISH.replace(no_trump=True), up="B")
    assert session.match.phase is Phase.NAME_TRUMP_BLIND
    _key(session, "order_up")
    _key(session, "order_up")
    assert _logged(tmp_path)[-1] == NameTrump(0, None, False)


BLIND = NA.replace(blind_lone=True)


@pytest.mark.parametrize("how", ["panel", "keys", "touch"])
def test_blind_lone_by_the_dealer_who_turned_up_a_jack(tmp_path: Path, factory: MockFactory, how: str) -> None:
    session = _session(tmp_path, BLIND, up="Jd")
    assert session.declarations()[0] == ("blind_lone", 0)
    if how == "panel":
        panel = Panel(session, factory)
        try:
            panel.hold("alone")  # the declarations menu
            panel.press("clubs")  # its first item: blind lone, North
        finally:
            panel.close()
        assert panel.presses == 2
    elif how == "keys":
        _key(session, "declare")
        _key(session, "clubs")
    else:
        _tap(session, "Declare")
        _tap(session, "Blind lone: North")
    assert _logged(tmp_path)[-1] == GoAlone(0)
    deal = session.match.deals[-1]
    assert deal.blind and deal.maker_seat == 0 and deal.alone_seats == (0,)
    assert any(isinstance(a, TrumpMade) and a.alone for a in session.release())


def test_blind_lone_is_offered_only_before_any_bid_with_a_jack_up(tmp_path: Path) -> None:
    assert "blind_lone" not in dict(_session(tmp_path / "a", BLIND, up="9h").declarations())
    assert "blind_lone" not in dict(_session(tmp_path / "b", NA, up="Jd").declarations())
    session = _session(tmp_path / "c", BLIND, up="Jd")
    session.act(Action(A.PASS))
    assert "blind_lone" not in dict(session.declarations())


def test_alone_then_call_is_an_ordinary_lone_order_up_not_a_blind_one(tmp_path: Path) -> None:
    session = _session(tmp_path, BLIND, up="Jd")
    _key(session, "alone")
    _key(session, "order_up")
    assert _logged(tmp_path)[-1] == OrderUp(1, True) and not session.match.deals[-1].blind


# ---- the declarations menu: farmer's hand, nines and tens, call for best, misdeal ----

HOUSE = NA.replace(farmers_hand=True, nines_and_tens=True, call_for_best=True)


def test_the_menu_lists_what_the_rules_and_the_moment_allow(tmp_path: Path) -> None:
    assert [i for i, _ in _session(tmp_path / "na", NA).declarations()] == ["misdeal"]
    session = _session(tmp_path / "house", HOUSE)
    assert [i for i, _ in session.declarations()] == ["farmers_hand", "nines_and_tens", "nines_swap", "misdeal"]
    session.act(Action(A.ALONE))
    session.act(Action(A.CALL))  # East orders up alone
    assert [i for i, _ in session.declarations()] == [
        "call_for_best", "farmers_hand", "nines_and_tens", "nines_swap", "misdeal"
    ]
    _key(session, "declare")
    choice = _view(session).choice
    assert choice is not None
    assert [(o.key, o.label) for o in choice.options] == [
        ("\u2663", "Call for best: East"),
        ("\u2666", "Farmer's hand (going under)"),
        ("\u2665", "Nines & tens: redeal"),
        ("\u2660", "Nines & tens: swap with the kitty"),
        ("Call", "Misdeal"),
    ]
    session.observe(CardLanded(Zone.of_seat(2), C("Ah"), 0.95, 10, seat=2))  # the lead: only a misdeal is left
    assert [i for i, _ in session.declarations()] == ["misdeal"]


def _menu(session: TableSession, factory: MockFactory, *buttons: str) -> int:
    panel = Panel(session, factory)
    try:
        panel.hold("alone")
        for name in buttons:
            panel.press(name)
    finally:
        panel.close()
    return panel.presses


def test_farmers_hand_names_the_seat_that_goes_under(tmp_path: Path, factory: MockFactory) -> None:
    session = _session(tmp_path, NA.replace(farmers_hand=True))
    assert _menu(session, factory, "clubs", "spades") == 3  # the menu, farmer's hand, West
    assert _logged(tmp_path)[-1] == Exchange(3, "farmers_hand")
    assert _refusals(session) == [] and session.match.phase is Phase.BID_ROUND_1  # bidding goes on


def test_nines_and_tens_redeal_names_the_claiming_seat(tmp_path: Path, factory: MockFactory) -> None:
    session = _session(tmp_path, NA.replace(nines_and_tens=True))
    assert _menu(session, factory, "clubs", "hearts") == 3
    assert _logged(tmp_path)[-1] == Misdeal(nines_and_tens=2)
    said = [phrases.irregularity_text(a, NAMES) for a in session.release() if isinstance(a, Irregularity)]
    assert said == ["Misdeal: South declared a hand of nines and tens; North's deal is void, North deals again"]
    assert session.match.deals[-1].reason == "misdeal" and session.match.dealer == 0


def test_nines_and_tens_swap_with_the_kitty(tmp_path: Path) -> None:
    session = _session(tmp_path, NA.replace(nines_and_tens=True))
    for name in ("declare", "diamonds", "diamonds"):
        _key(session, name)
    assert _logged(tmp_path)[-1] == Exchange(1, "nines_and_tens") and _refusals(session) == []


def test_farmers_hand_by_touch(tmp_path: Path) -> None:
    session = _session(tmp_path, NA.replace(farmers_hand=True))
    _tap(session, "Declare")
    _tap(session, "Farmer's hand")
    _tap(session, "East")
    assert _logged(tmp_path)[-1] == Exchange(1, "farmers_hand")


def test_call_for_best_by_the_lone_maker(tmp_path: Path, factory: MockFactory) -> None:
    session = _session(tmp_path, NA.replace(call_for_best=True))
    session.act(Action(A.ALONE))
    session.act(Action(A.CALL))  # East orders up alone
    assert _menu(session, factory, "clubs") == 2
    assert _logged(tmp_path)[-1] == Exchange(1, "call_for_best") and _refusals(session) == []


def test_call_for_best_asks_which_loner_when_two_are_alone(tmp_path: Path) -> None:
    rules = BRITISH.replace(call_for_best=True)
    session = _ordered_up_by_east(tmp_path, rules)
    for name in ("alone", "order_up", "alone", "clubs", "order_up"):  # East alone; North defends alone
        _key(session, name)
    for name in ("declare", "clubs"):
        _key(session, name)
    choice = _view(session).choice
    assert choice is not None and [o.label for o in choice.options] == ["North", "East"]
    _key(session, "hearts")  # South sits out: not a loner
    assert session.notes.messages[-1].startswith("South may not declare that")
    _key(session, "diamonds")
    assert _logged(tmp_path)[-1] == Exchange(1, "call_for_best")


def test_misdeal_from_the_menu_on_the_standard_panel(tmp_path: Path, factory: MockFactory) -> None:
    session = _session(tmp_path, NA)
    assert _menu(session, factory, "clubs") == 2  # the only item: misdeal (the menu is its confirmation)
    assert _logged(tmp_path)[-1] == Misdeal() and session.match.deals[-1].reason == "misdeal"


def test_a_menu_key_with_nothing_on_it_says_so_and_pass_leaves(tmp_path: Path) -> None:
    session = _session(tmp_path, NA)
    before = _logged(tmp_path)
    _key(session, "declare")
    _key(session, "spades")
    assert session.notes.messages[-1] == "no declaration on that button now"
    _key(session, "pass")  # leaves the menu; East has not passed
    assert _logged(tmp_path) == before and session.pick is None and session.match.expected.seat == 1


# ---- what the screen offers, moment by moment ----


def _offers(session: TableSession) -> list[str]:
    return [o.label for o in _view(session).offers]


def test_offers_follow_the_moment(tmp_path: Path) -> None:
    session = _session(tmp_path, NA)
    assert _offers(session) == ["Alone", "Declare\u2026"]
    session.act(Action(A.ALONE))
    assert _offers(session) == ["Alone: on", "Declare\u2026"] and _view(session).offers[0].selected
    session.act(Action(A.ALONE))
    session.act(Action(A.CALL))  # East orders up
    assert _offers(session) == ["East alone", "Declare\u2026"]  # the maker may still go alone
    view = _view(session)
    assert view.prompt == "North: pick up 9\u2665 and discard a card"
    session.observe(CardLanded(Zone.of_seat(1), C("Ah"), 0.95, 10, seat=1))
    assert _offers(session) == []  # play: nothing to declare on screen (a misdeal is still in the menu)


def test_the_prompt_asks_who_goes_alone_before_the_lead(tmp_path: Path) -> None:
    session = _session(tmp_path, NA)
    for _ in range(4):
        session.act(Action(A.PASS))
    session.act(Action(A.SUIT, Suit.SPADES))  # East names spades: nobody picks up, the window opens
    view = _view(session)
    assert view.prompt == "Anyone going alone? Then East leads" and [o.label for o in view.offers] == [
        "East alone", "Declare\u2026"
    ]


def test_a_declaration_survives_a_restart(tmp_path: Path) -> None:
    session = _ordered_up_by_east(tmp_path, BRITISH)
    for name in ("alone", "hearts", "order_up"):
        _key(session, name)
    before = session.match.view()
    session.close()
    resumed = TableSession(MatchLog.open(tmp_path / "match.jsonl"), names=NAMES)
    assert resumed.match.view() == before and resumed.match.view().alone_seats == (2,)



# ---- the screenshots' questions and offers are the session's own ----


def test_the_sample_screens_show_what_the_session_offers(tmp_path: Path) -> None:
    from display import samples

    session = TableSession(MatchLog.create(tmp_path / "match.jsonl", NA, first_dealer=3), names=NAMES)
    session.observe(UpCardShown(C("Jd"), 0.97, frame=1))
    assert _view(session).offers == samples.bidding_round_1().offers

    session = TableSession(
        MatchLog.create(tmp_path / "nt.jsonl", NA.replace(no_trump=True), first_dealer=3), names=NAMES
    )
    session.observe(UpCardShown(C("Jd"), 0.97, frame=1))
    for _ in range(6):  # round 1 all pass; in round 2 North and East pass: South to bid
        session.act(Action(A.PASS))
    assert _view(session).offers == samples.bidding_round_2().offers
    session.act(Action(A.CALL))
    assert _view(session).choice == samples.no_trump_question().choice


def test_the_sample_questions_are_the_sessions_own(tmp_path: Path) -> None:
    from display import samples

    session = _ordered_up_by_east(tmp_path / "a", BRITISH)
    _key(session, "alone")
    _key(session, "hearts")
    assert _view(session).choice == samples.alone_question().choice

    rules = BRITISH.replace(call_for_best=True, farmers_hand=True, nines_and_tens=True)
    session = _session(tmp_path / "b", rules)
    for name in ("alone", "order_up", "declare"):  # East orders up alone, then the menu
        _key(session, name)
    assert _view(session).choice == samples.declare_menu().choice

    session = TableSession(
        MatchLog.create(tmp_path / "c.jsonl", NA.replace(nines_and_tens=True), first_dealer=3), names=NAMES
    )
    session.observe(UpCardShown(C("Jd"), 0.97, frame=1))
    for name in ("declare", "clubs"):
        _key(session, name)
    view = _view(session)
    assert view.choice == samples.whose_claim().choice and view.offers == samples.whose_claim().offers
    assert session.notes.messages[-1] == samples.whose_claim().announcement


def test_the_sample_check_shows_the_answers_the_session_offers(tmp_path: Path) -> None:
    from display import samples

    session = _session(tmp_path, NA)  # East bids first and orders up: East leads
    session.act(Action(A.CALL))
    session.observe(CardLanded(Zone.of_seat(1), C("Ks"), 0.95, 10, seat=1))
    session.observe(CardLanded(Zone.of_seat(2), C("Qs"), 0.5, 20, seat=2, uncertain=True, rival=C("Qc")))
    assert _view(session).offers == samples.check_card().offers
    # Without another reading of the camera's, the other answer is Next reading's.
    session.observe(CardLanded(Zone.of_seat(3), C("Ts"), 0.5, 30, seat=3, uncertain=True))
    assert [(o.label, o.action) for o in _view(session).offers] == [
        ("10\u2660 is right", Action(A.CALL)), ("Another card", Action(A.NEXT_READING))
    ]


def test_setback_scoring_is_refused_with_its_reason_in_the_rules_words() -> None:
    from companion.config import parse_config
    from companion.errors import UserError

    config = parse_config('[rules]\npreset = "british"\nsetback_scoring = true\n', path="table.toml")
    with pytest.raises(UserError) as refused:
        config.rules()
    message = str(refused.value)
    assert message.startswith("table.toml: [rules]: rules: setback_scoring is not supported")
    assert "after a 2- or 4-point win a side may take the points off the opponents' score" in message


# ---- the presses that make an input: what scripts (the simulated table) press ----


def _presses_case(rules: Rules, up: str, before: list[Action], wanted: Input, tmp_path: Path) -> None:
    from companion.session import panel_presses

    session = _session(tmp_path, rules, up=up)
    for action in before:
        session.act(action)
    presses = panel_presses(session.match, wanted)
    assert len(presses) <= 3, presses
    for action in presses:
        session.act(action)
    assert _logged(tmp_path)[-1] == wanted, (presses, _logged(tmp_path)[-3:])


_ALL_ON = BRITISH.replace(
    no_trump=True, farmers_hand=True, nines_and_tens=True, call_for_best=True, blind_lone=True, deck_size=24
)
_PASS4 = [Action(A.PASS)] * 4


@pytest.mark.parametrize(
    ("rules", "up", "before", "wanted"),
    [
        (NA, "9h", [], OrderUp(1, True)),
        (NA, "9h", _PASS4, NameTrump(1, Suit.SPADES, True)),
        (_ALL_ON, "9h", _PASS4, NameTrump(1, None, True)),
        (_ALL_ON, "Jh", [], GoAlone(0)),  # blind lone
        (NA, "9h", [Action(A.CALL)], GoAlone(1)),
        (_ALL_ON, "9h", [Action(A.CALL)], GoAlone(1)),
        (_ALL_ON, "9h", [Action(A.CALL)], GoAlone(2)),
        (_ALL_ON, "9h", [Action(A.CALL)], GoAlone(3)),
        (_ALL_ON, "9h", [Action(A.CALL)], GoAlone(0)),
        (_ALL_ON, "9h", [], Exchange(3, "farmers_hand")),
        (_ALL_ON, "9h", [], Exchange(0, "nines_and_tens")),
        (_ALL_ON, "9h", [], Misdeal(nines_and_tens=2)),
        (_ALL_ON, "9h", [Action(A.ALONE), Action(A.CALL)], Exchange(1, "call_for_best")),
        (NA, "9h", [], Misdeal()),
    ],
    ids=lambda v: repr(v) if isinstance(v, Input.__args__) else None,  # type: ignore[attr-defined]
)
def test_panel_presses_make_each_declaration_in_at_most_three(
    tmp_path: Path, rules: Rules, up: str, before: list[Action], wanted: Input
) -> None:
    _presses_case(rules, up, before, wanted, tmp_path)


def test_panel_presses_refuse_what_the_panel_cannot_make_now(tmp_path: Path) -> None:
    from companion.session import panel_presses

    session = _session(tmp_path, NA)
    with pytest.raises(ValueError, match="no panel press"):
        panel_presses(session.match, Exchange(1, "farmers_hand"))
    session.act(Action(A.CALL))
    with pytest.raises(ValueError, match="may not go alone"):
        panel_presses(session.match, GoAlone(2))


def test_a_buttons_file_can_hold_the_declarations_menu(tmp_path: Path) -> None:
    from companion.buttons_script import parse_buttons

    session = _session(tmp_path, NA.replace(farmers_hand=True))
    text = '{"frame": 5, "action": "declare"}\n{"frame": 6, "action": "suit", "suit": "c"}\n'
    text += '{"frame": 7, "action": "suit", "suit": "h"}\n'
    for timed in parse_buttons(text, "buttons.jsonl"):
        session.act(timed.action, frame=timed.frame, script_number=timed.number)
    assert _logged(tmp_path)[-1] == Exchange(2, "farmers_hand")


def test_under_stick_the_dealer_the_dealers_prompt_says_stuck_and_a_pass_is_refused(tmp_path: Path) -> None:
    session = _session(tmp_path, NA.replace(stick_the_dealer=True))
    for _ in range(7):
        session.act(Action(A.PASS))
    assert _view(session).prompt == "North: name trump, stuck (not \u2665)"
    session.release()
    session.act(Action(A.PASS))
    assert _refusals(session) == ["Not allowed: North \u2014 stick the dealer: the dealer must name a suit"]
    session.act(Action(A.PASS))  # refused again: still the dealer to name trump
    assert session.match.expected.seat == 0


def test_the_panel_speaks_the_tables_language(tmp_path: Path) -> None:
    """In Danish the offers, their keys, the questions and the panel's answers are Danish, like the samples."""
    from display import samples
    from display.i18n import using

    names = ("Nord", "Øst", "Syd", "Vest")
    with using("da"):
        session = TableSession(
            MatchLog.create(tmp_path / "match.jsonl", NA.replace(no_trump=True), first_dealer=0), names=names
        )
        session.observe(UpCardShown(C("9h"), 0.97, frame=1))
        view = session.dress(build_view(session.match.view(), names, rules=session.match.rules))
        assert [(o.label, o.key) for o in view.offers] == [("Alene", "Alene"), ("Meld\u2026", "hold Alene")]
        _key(session, "spades")  # round 1: only hearts may be ordered up
        assert session.notes.messages[-1] == "runde 1: kun vendekortets kulør kan bestilles"
        _key(session, "alone")
        assert session.notes.messages[-1] == "alene: gælder næste melding"
        _key(session, "alone")
        for _ in range(4):
            session.act(Action(A.PASS))
        _key(session, "order_up")  # round 2, no suit chosen: no trump?
        assert session.notes.messages[-1] == "Sans? Tryk Meld igen for at melde den, eller en kulør"
        choice = session.dress(build_view(session.match.view(), names, rules=session.match.rules)).choice
        assert choice is not None and choice.title == "Sans?" and choice.options[0].label == "Øst: sans"
        assert choice.hint == phrases.no_trump_hint() and choice.options[0].key == "Meld"
        _key(session, "pass")
        assert session.notes.messages[-1] == "meldingen er opgivet"

    with using("ro"):
        session = _ordered_up_by_east(tmp_path / "b", BRITISH)
        _key(session, "alone")
        _key(session, "hearts")
        choice = _view(session).choice
        assert choice == samples.alone_question(NAMES).choice
        assert choice is not None and choice.title == "Cine joacă singur?"


def test_the_sample_up_card_check_shows_the_banner_and_answer_the_session_gives_while_bidding(tmp_path: Path) -> None:
    from display import samples

    session = TableSession(MatchLog.create(tmp_path / "match.jsonl", NA, first_dealer=3), names=NAMES)
    session.observe(UpCardShown(C("Jd"), 0.5, frame=1, uncertain=True, rival=C("Jh")))
    [check] = [a for a in session.release() if isinstance(a, Irregularity) and a.kind is IrregularityKind.CHECK_CARD]
    sample = samples.check_up_card()
    assert sample.banner is not None and phrases.irregularity_text(check, NAMES) == sample.banner.text
    assert _view(session).offers == sample.offers
