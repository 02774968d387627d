"""Whether the camera is reading the table's deck poorly enough to say so: the players' cue to enrol it.

A deck the reader knows is read with a "check this card" now and then: at the simulated table a white
deck asks 0-6 times in 24 hands, and no card goes unseen. A deck it reads poorly (one printed light on
dark paper, say) leaves cards unseen and asks to check them hand after hand: 10 checks and 23 cards never
reported in 24 hands of a dark ``kde-tigullio-international``, 37 and 79 with ``gnome-orell`` printed in one
ink (README, "Where it stands"). Reneges are then missed, and the table should be told why and what helps:
enrolling the deck (``euchre-table enrol``), or where it is enrolled already, the light and the camera's view.

:class:`ReadingWatch` reads only the engine's announcements: per scored hand it counts the signs that the
camera missed or doubted a card (:data:`TROUBLE`), and says so once, the first time the last
:data:`WINDOW_HANDS` hands hold :data:`TROUBLE_LINE` signs or more. It never changes what is recorded or
scored. The same watch runs over a simulated game's announcements (``euchre-table simulate`` prints after
which hand it spoke), which is how its line is measured.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

from table.announcements import Announcement, HandScored, Irregularity, IrregularityKind

# The engine's signs that the camera missed or doubted a card: a reading too unsure to count that mattered,
# a trick closed with one of its cards never seen, a hand the next up-card cut short, a whole deal unseen.
TROUBLE = frozenset(
    {
        IrregularityKind.CHECK_CARD,
        IrregularityKind.CARD_UNSEEN,
        IrregularityKind.HAND_UNFINISHED,
        IrregularityKind.DEAL_UNSEEN,
    }
)
# Hands looked back over, and the signs in them that make the watch speak. A hand plays 20 cards (fewer when
# someone goes alone), so 5 signs in 4 hands is one card in 16 missed or doubted. Measured with ``simulate``
# (2026-12-06): silent through the four white-deck games it was run on (British rules seed 3, the 33-card game
# seed 1, ``gnome-orell`` seed 1 without a profile and seed 2 enrolled: 3, 6, 4 and 4 checks in 24 hands); it
# spoke after hand 5 of the dark ``kde-tigullio-international`` game and after hand 2 of ``gnome-orell`` printed
# in one ink.
WINDOW_HANDS = 4
TROUBLE_LINE = 5


@dataclass
class ReadingWatch:
    """Counts the signs of a poorly read deck per scored hand; :meth:`take` is True the one time it speaks."""

    window: int = WINDOW_HANDS
    line: int = TROUBLE_LINE
    hands: int = 0  # hands scored so far
    spoke_after: int | None = None  # the number of hands scored when it spoke (None: not yet)
    _signs: deque[int] = field(init=False)
    _open: int = field(default=0, init=False)  # signs in the hand being played

    def __post_init__(self) -> None:
        if self.window < 1 or self.line < 1:
            raise ValueError("ReadingWatch: window and line must be 1 or more")
        self._signs = deque(maxlen=self.window)

    @property
    def recent(self) -> tuple[int, ...]:
        """The signs counted in each of the last :attr:`window` scored hands, oldest first."""
        return tuple(self._signs)

    def take(self, released: Iterable[Announcement]) -> bool:
        """Count ``released`` (the engine's announcements, in order); True where, at a hand's score, the
        last :attr:`window` hands first hold :attr:`line` signs or more. It speaks once per run."""
        spoke = False
        for a in released:
            if isinstance(a, Irregularity) and a.kind in TROUBLE and not a.restated:  # (a check said again: one sign)
                self._open += 1
            elif isinstance(a, HandScored):
                self._signs.append(self._open)
                self._open = 0
                self.hands += 1
                if self.spoke_after is None and sum(self._signs) >= self.line:
                    self.spoke_after = self.hands
                    spoke = True
        return spoke
