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
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

# Frames judged (each with a sure card) before the table may read its deck as dark.
SETTLE = 8
# The verdicts kept: the last this many frames judged.
WINDOW = 16
# The share of the verdicts kept that must say "dark" for the deck to be read as dark.
DARK_SHARE = 0.5
# Once :data:`WINDOW` verdicts are kept, one frame in this many is judged.
RECHECK_EVERY = 10


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
        self._verdicts: deque[bool] = deque(maxlen=window)
        self._since_judged = 0

    @property
    def dark(self) -> bool:
        """Whether the deck is read as dark now."""
        n = len(self._verdicts)
        return n >= self.settle and sum(self._verdicts) >= self.share * n

    @property
    def judged(self) -> int:
        """How many verdicts are kept."""
        return len(self._verdicts)

    def due(self) -> bool:
        """Whether the next frame is to be judged: every frame until the window is full, then one in
        :attr:`recheck_every`."""
        return len(self._verdicts) < (self._verdicts.maxlen or 0) or self._since_judged + 1 >= self.recheck_every

    def look(self, verdict: Callable[[], bool | None]) -> bool:
        """One frame: judge it where :meth:`due` (``verdict``: dark or not, None where the frame cannot say, as
        one without a sure card), then say whether the deck is read as dark."""
        if self.due():
            said = verdict()
            if said is None:
                self._since_judged += 1
            else:
                self._verdicts.append(said)
                self._since_judged = 0
        else:
            self._since_judged += 1
        return self.dark

    def reset(self) -> None:
        """Forget every verdict (a new deck on the table)."""
        self._verdicts.clear()
        self._since_judged = 0
