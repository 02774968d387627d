"""The panel guide: one picture per phase of a deal, the screen above and the button panel below, each button
labelled with what it does then; and the page that shows them.

``python -m display.panel_guide --out docs/panel-guide`` writes the pictures into that folder and the page
(``docs/panel-guide.md``, beside the folder unless ``--page`` says where). The screens are the samples of
`display.samples`; what the session offers at each moment is held to them by the tests.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import pygame
import pygame.freetype

from display import samples
from display.view import ScoreboardView, Stage, seats_named

SCREEN = (800, 480)
PANEL_H = 280
SIZE = (SCREEN[0], SCREEN[1] + PANEL_H)

# The standard panel, row by row: (config name, the label on the button).
ROWS: tuple[tuple[tuple[str, str], ...], ...] = (
    (("pass", "Pass"), ("order_up", "Call"), ("alone", "Alone")),
    (("clubs", "\u2663"), ("diamonds", "\u2666"), ("hearts", "\u2665"), ("spades", "\u2660")),
    (("undo", "Undo"), ("new_game", "New game")),
)
KEYS = {
    "pass": "P",
    "order_up": "K",
    "alone": "A (hold: E)",
    "clubs": "C",
    "diamonds": "D",
    "hearts": "H",
    "spades": "S",
    "undo": "U",
    "new_game": "N",
}

_HOLD_ALONE = "hold: declare (misdeal)"
_SEAT_OF = {"clubs": "North", "diamonds": "East", "hearts": "South", "spades": "West"}


@dataclass(frozen=True)
class Phase:
    """One picture of the guide: its file name, its title, the screen, and what each button does then."""

    name: str
    title: str
    screen: Callable[[], ScoreboardView]
    buttons: dict[str, str]
    note: str = ""

    def does(self, name: str) -> str:
        """What button ``name`` does in this phase ("" for nothing); New game always starts a new game."""
        return self.buttons.get(name, "a new game" if name == "new_game" else "")


def _dealing() -> ScoreboardView:
    view = samples.hand_scored()
    return replace(
        view,
        stage=Stage.DEALING,
        seats=seats_named(),
        result="",
        prompt="North deals: turn up the top card",
        trump=None,
        maker=None,
        tricks=(0, 0),
        dealer=0,
    )


PHASES: tuple[Phase, ...] = (
    Phase(
        "deal",
        "Dealing: waiting for the up-card",
        _dealing,
        {"undo": "take back the last input", "alone": _HOLD_ALONE},
        "The camera sees the up-card turned; nothing to press.",
    ),
    Phase(
        "bidding-round-1",
        "Bidding, round 1",
        samples.bidding_round_1,
        {
            "pass": "pass",
            "order_up": "order up (the dealer: pick it up)",
            "clubs": "the up-card's suit: order up",
            "diamonds": "the up-card's suit: order up",
            "hearts": "the up-card's suit: order up",
            "spades": "the up-card's suit: order up",
            "alone": "alone with the next call; hold: declare",
            "undo": "take back the last bid",
        },
        "Alone, then Call: order up alone. Where the dealer's partner must go alone, Call does. "
        "Blind lone (the dealer turned up a jack, before any bid): hold Alone, then the suit beside it.",
    ),
    Phase(
        "check-up-card",
        "An up-card to check, while the table bids",
        samples.check_up_card,
        {
            "pass": "pass",
            "order_up": "order up, as always",
            **{suit: "the up-card is this suit (the rank as read)" for suit in _SEAT_OF if suit != "diamonds"},
            "diamonds": "the up-card's suit: order up",
            "alone": "alone with the next call; hold: declare",
            "undo": "take back the last input",
        },
        "The camera was unsure of the up-card. Call and its suit still bid (the up-card is confirmed once the hand "
        "is played); in round 1 another suit's button names it, and in either round Next reading (R) steps it "
        "through its likely readings. The bids made stand.",
    ),
    Phase(
        "bidding-round-2",
        "Bidding, round 2",
        samples.bidding_round_2,
        {
            "pass": "pass (the dealer: thrown in)",
            "order_up": "the suit chosen with Tab; none: no trump? (again: yes)",
            "clubs": "name clubs",
            "diamonds": "name diamonds",
            "hearts": "name hearts",
            "spades": "name spades",
            "alone": "alone with the next call; hold: declare",
            "undo": "take back the last bid",
        },
        "The turned-down suit cannot be named. No trump only where the rules play it; Alone, Call, Call: "
        "no trump alone.",
    ),
    Phase(
        "benny-up",
        "The Benny turned up (British)",
        samples.benny_up,
        {
            "order_up": "no trump? (again: yes)",
            "clubs": "the dealer names clubs",
            "diamonds": "the dealer names diamonds",
            "hearts": "the dealer names hearts",
            "spades": "the dealer names spades",
            "alone": "alone with the naming; hold: declare",
            "undo": "take back the last input",
        },
        "The dealer's side are the makers; the dealer names trump before looking.",
    ),
    Phase(
        "going-alone",
        "After trump, before the lead: who goes alone",
        samples.alone_question,
        {
            "pass": "nobody goes alone",
            "order_up": "declare the player asked",
            **{suit: f"{seat} goes alone? (again: yes)" for suit, seat in _SEAT_OF.items()},
            "alone": "who goes alone? the maker first; again: the next",
            "undo": "leave the question",
        },
        "Where only one player may go alone (the maker, at a North American table), Alone declares it at "
        "once. Else Alone, Call: the maker alone. Alone, the player's suit, Call: anyone the rules allow, a defender "
        "while the maker plays with a partner, or the maker's partner. Only the players who may are listed; "
        "on the screen, tap a player, then tap again.",
    ),
    Phase(
        "declare",
        "The declarations menu (hold Alone, or E)",
        samples.declare_menu,
        {
            "pass": "back",
            "order_up": "the fifth item",
            **{suit: f"the item beside it; then: {seat}" for suit, seat in _SEAT_OF.items()},
            "alone": "back, and Alone",
            "undo": "back",
        },
        "Only what the rules and the moment allow is listed: blind lone, call for best, farmer's hand "
        "(going under), nines and tens (a redeal naming who claims it, or a swap), misdeal. The menu is "
        "the misdeal's confirmation.",
    ),
    Phase(
        "play",
        "The play",
        samples.play_mid_trick,
        {"undo": "take back the last card", "alone": _HOLD_ALONE},
        "The camera reads the cards; a card lifted before the trick is turned is taken back too.",
    ),
    Phase(
        "check",
        "A card to check",
        samples.check_card,
        {
            "order_up": "the card is as read",
            **{suit: "it is this suit (the rank as read)" for suit in _SEAT_OF},
            "undo": "take back the last input",
            "alone": _HOLD_ALONE,
        },
        "The camera was unsure of a card: it proves nothing until the table answers, while its trick is on the "
        "table. Next reading (R) steps it through its likely readings, the camera's other one first. A card "
        "answered for counts as sure, and the camera's later doubts leave it so. An up-card to check is answered "
        "the same way once the hand is played. The last trick's card is answered in the hand's result box, while "
        "that trick lies on the table.",
    ),
    Phase(
        "renege",
        "A renege proven",
        samples.renege_alert,
        {"order_up": "accept the penalty", "pass": "dismiss: play on", "undo": "take back the last input"},
        "Or tap the gold or the white button on the screen.",
    ),
    Phase(
        "hand-scored",
        "The hand scored",
        samples.hand_scored,
        {"undo": "take back the last input"},
        "The next dealer turns up the next up-card.",
    ),
    Phase(
        "game-won",
        "The game won",
        samples.game_won,
        {"undo": "take back the last input; hold: a new game"},
    ),
)


def draw(phase: Phase) -> pygame.Surface:
    """The phase's picture: the screen above, the labelled panel below."""

    from display.canvas import GOLD, INK, WHITE, Canvas
    from display.render import BG, DIM, PANEL, PANEL_EDGE, render

    surface = pygame.Surface(SIZE)
    surface.fill(BG)
    render(surface.subsurface((0, 0, *SCREEN)), phase.screen())
    c = Canvas(surface)  # 800 units wide: one unit a pixel
    top = float(SCREEN[1])
    c.fill((0.0, top, c.width, PANEL_H), (30, 30, 36))
    c.text(phase.title, 19, GOLD, (14, top + 18), anchor="midleft", bold=True, max_width=c.width - 28)
    row_h, y = 78.0, top + 34
    for row in ROWS:
        gap = 8.0
        w = (c.width - 28 - gap * (len(row) - 1)) / len(row)
        for k, (name, label) in enumerate(row):
            box = (14 + k * (w + gap), y, w, row_h - 6)
            words = phase.does(name)
            c.fill(box, PANEL if words else (44, 44, 52), radius=10)
            c.fill(box, GOLD if words else PANEL_EDGE, radius=10, width=2)
            red = label in ("\u2666", "\u2665")
            cap = (box[0] + 8, box[1] + 8, max(40.0, c.text_size(label, 15, True)[0] + 16), 24)
            c.fill(cap, WHITE if words else (90, 90, 98), radius=6)
            c.text(label, 15 if len(label) > 1 else 19, (200, 16, 32) if red else INK,
                   (cap[0] + cap[2] / 2, cap[1] + cap[3] / 2), bold=True, max_width=cap[2] - 4)
            c.text(KEYS[name], 12, DIM, (box[0] + box[2] - 8, box[1] + 20), anchor="midright")
            lines = c.wrap(words or "\u2014", 13, box[2] - 16, max_lines=2)
            for i, line in enumerate(lines):
                c.text(line, 13, WHITE if words else DIM, (box[0] + 8, box[1] + 43 + i * 16), anchor="midleft")
        y += row_h
    return surface


def page(folder: str = "panel-guide") -> str:
    """The guide's Markdown page, its pictures in ``folder`` (relative to the page)."""
    out = [
        "# The button panel, phase by phase",
        "",
        "One panel serves the table: Pass, Call, the four suits, Alone, Undo and New game (optional buttons:",
        "Misdeal, Declare, Next reading, Mute). The keyboard does the same (the key is in each button's corner;",
        "E is holding Alone), and each choice on the screen is a button a finger can tap. Where a declaration",
        "needs a player, each player has a suit: \u2663 North (seat 0), \u2666 East, \u2665 South, \u2660 West.",
        "What may be declared now is shown across the table; a refused declaration is announced with the",
        "rules' reason. Score cards (F): a six and a four up to 10, a six and a five for games to 11 (as",
        "British pubs keep it), numerals for 15 and a fixed number of deals: no pair of spare cards counts to",
        "15, and a 32-card game plays the eight and the seven.",
        "",
        "These pictures are made by `python -m display.panel_guide --out docs/panel-guide` and checked",
        "by `tests/display/test_panel_guide.py`.",
        "",
    ]
    for phase in PHASES:
        out += [f"## {phase.title}", "", f"![{phase.title}]({folder}/{phase.name}.png)", ""]
        if phase.note:
            out += [phase.note, ""]
        rows = [
            (label, KEYS[name], phase.does(name)) for row in ROWS for name, label in row if phase.does(name)
        ]
        out += ["| button | key | does |", "|---|---|---|"]
        out += [f"| {label} | {key} | {words} |" for label, key, words in rows]
        out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m display.panel_guide", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/panel-guide"), help="folder for the pictures")
    parser.add_argument("--page", type=Path, default=None, help="the Markdown page (default: beside the folder)")
    args = parser.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # pictures only: no window
    pygame.display.init()  # left open: the caller may draw on (the process's end closes it)
    pygame.freetype.init()
    args.out.mkdir(parents=True, exist_ok=True)
    for phase in PHASES:
        pygame.image.save(draw(phase), args.out / f"{phase.name}.png")
    page_path = args.page or args.out.with_suffix(".md")
    folder = os.path.relpath(args.out, page_path.parent)
    page_path.write_text(page(folder) + "\n", encoding="utf-8")
    print(f"pictures={len(PHASES)} out={args.out} page={page_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
