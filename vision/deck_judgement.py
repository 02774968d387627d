"""Whether the deck at a live table is printed light on dark paper, judged over the frames read.

A still photo is judged alone (``OnnxDetector``'s dark-deck look: at least half of its sure cards judged
printed light on dark paper). At the table one deck is played for a whole game, and a frame judged alone
misleads: the first frames of a dark deck name few cards surely (the reader was taught white paper), and a
white deck's frame now and then holds a card judged dark (a court whose picture fills its face, a dim corner).
So the table keeps the last frames' verdicts and reads the deck as dark where at least :data:`DARK_SHARE` of
them say so, once :data:`SETTLE` frames have been judged; until then, and while the verdicts say white, each
frame is read as before. Judging a frame costs a second look at each sure card's paper, so once the verdict
has settled only one frame in :data:`RECHECK_EVERY` is judged (a deck changed mid-evening is still noticed,
within :data:`WINDOW` judged frames).

The table reads a dark deck with the dark-deck look only where the deck is seen to print its red suits red
(:data:`MIN_RED_CARDS`, :data:`RED_SHARE`). A deck printed all in one ink (hearts and diamonds in gold as well)
shows its suits by the pips' shapes alone: with the look the rest of a hand read in order, and a jack of diamonds
the reading took for the jack of spades stood as proof at the simulated table, a false renege alert. Such a deck
is read as before, and is best enrolled (its profile keeps the cousins it prints alike to be checked).

The frame counts and shares were set by judgement, not tuned, and measured as set (models/MODEL_CARD.md, "How a
frame is read", step 14).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import NamedTuple

# Frames judged (each with a sure card) before the table may read its deck as dark.
SETTLE = 8
# The verdicts kept: the last this many frames judged.
WINDOW = 16
# The share of the verdicts kept that must say "dark" for the deck to be read as dark.
DARK_SHARE = 0.5
# Once :data:`WINDOW` verdicts are kept, one frame in this many is judged.
RECHECK_EVERY = 10
# The deck prints red where, of the sure cards of a red suit judged dark in the verdicts kept (this many at least),
# at least :data:`RED_SHARE` show red print in their index corners (``vision.cardcrop.shows_red_print``).
MIN_RED_CARDS = 3
RED_SHARE = 0.5


class FrameVerdict(NamedTuple):
    """What one frame says of the deck."""

    dark: bool  # enough of its sure cards are judged printed light on dark paper
    red_suited: int  # its sure cards of a red suit judged dark
    red_printed: int  # of those, the ones whose index shows red print


class DeckJudgement:
    """The table's running verdict on its deck: dark (printed light on dark paper) or not."""

    def __init__(
        self, settle: int = SETTLE, window: int = WINDOW, share: float = DARK_SHARE, recheck_every: int = RECHECK_EVERY
    ) -> None:
        if not 1 <= settle <= window:
            raise ValueError(f"settle {settle} must lie in 1..window ({window})")
        if recheck_every < 1:
            raise ValueError(f"recheck_every {recheck_every} must be at least 1")
        self.settle = settle
        self.share = share
        self.recheck_every = recheck_every
        self._verdicts: deque[FrameVerdict] = deque(maxlen=window)
        self._since_judged = 0

    @property
    def dark(self) -> bool:
        """Whether the deck is judged printed light on dark paper now."""
        n = len(self._verdicts)
        return n >= self.settle and sum(v.dark for v in self._verdicts) >= self.share * n

    @property
    def prints_red(self) -> bool:
        """Whether the deck is seen to print its red suits red (see the module's note)."""
        suited = sum(v.red_suited for v in self._verdicts)
        return suited >= MIN_RED_CARDS and sum(v.red_printed for v in self._verdicts) >= RED_SHARE * suited

    @property
    def takes_look(self) -> bool:
        """Whether the table reads its frames with the dark-deck look now: the deck is dark and prints red."""
        return self.dark and self.prints_red

    @property
    def judged(self) -> int:
        """How many verdicts are kept."""
        return len(self._verdicts)

    def due(self) -> bool:
        """Whether the next frame is to be judged: every frame until the window is full, then one in
        :attr:`recheck_every`."""
        return len(self._verdicts) < (self._verdicts.maxlen or 0) or self._since_judged + 1 >= self.recheck_every

    def look(self, verdict: Callable[[], FrameVerdict | None]) -> bool:
        """One frame: judge it where :meth:`due` (``verdict``: what the frame says, None where it cannot say, as
        one without a sure card), then say whether the frame takes the dark-deck look (:attr:`takes_look`)."""
        said = verdict() if self.due() else None
        if said is None:
            self._since_judged += 1  # a frame due that cannot say leaves the next one due
        else:
            self._verdicts.append(said)
            self._since_judged = 0
        return self.takes_look

    def reset(self) -> None:
        """Forget every verdict (a new deck on the table)."""
        self._verdicts.clear()
        self._since_judged = 0
