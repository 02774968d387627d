"""Timed button actions read from a file (``--buttons FILE``), so a recording plus its bids is a whole game.

One JSON object a line: ``{"frame": 120, "action": "pass"}``,
``{"frame": 131, "action": "suit", "suit": "h"}``. Actions are the panel's
(``pass``, ``call``, ``suit``, ``suit_cycle``, ``alone``, ``undo``,
``new_game``, ``accept_penalty``, ``dismiss_renege``, ``declare``). Blank lines and lines
starting with ``#`` are skipped; anything else wrong is a ``UserError`` naming
the file and line.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from companion.errors import UserError
from display.actions import Action, ButtonAction
from table.cards import CardParseError, Suit
from table.limits import LimitError, loads_json, read_limited

_GAME_ACTIONS = {
    ButtonAction.PASS,
    ButtonAction.CALL,
    ButtonAction.SUIT,
    ButtonAction.SUIT_CYCLE,
    ButtonAction.ALONE,
    ButtonAction.UNDO,
    ButtonAction.NEW_GAME,
    ButtonAction.ACCEPT_PENALTY,
    ButtonAction.DISMISS_RENEGE,
    ButtonAction.DECLARE,
}


MAX_LINE_BYTES = 4096  # a press is one short line
MAX_BUTTONS_BYTES = 64 * 1024 * 1024  # a long night's presses are well under a megabyte


@dataclass(frozen=True)
class TimedAction:
    """A button pressed at ``frame``; ``number`` is its place in the script (for resuming)."""

    number: int
    frame: int
    action: Action


def parse_buttons(text: str, where: str = "<buttons>") -> list[TimedAction]:
    out: list[TimedAction] = []
    last_frame = -1
    for lineno, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        at = f"{where}: line {lineno}"
        try:
            obj = loads_json(stripped, max_bytes=MAX_LINE_BYTES)
        except LimitError as exc:
            raise UserError(f"{at}: not a button press: {exc}") from None
        except json.JSONDecodeError as exc:
            raise UserError(f"{at}: not JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise UserError(f"{at}: expected an object such as {{\"frame\": 12, \"action\": \"pass\"}}")
        frame = obj.get("frame")
        if not isinstance(frame, int) or isinstance(frame, bool) or frame < 0:
            raise UserError(f"{at}: 'frame' must be a frame number (0 or more), not {frame!r}")
        if frame < last_frame:
            raise UserError(f"{at}: frame {frame} comes before the previous line's frame {last_frame}")
        try:
            kind = ButtonAction(obj.get("action"))
        except ValueError:
            names = ", ".join(sorted(a.value for a in _GAME_ACTIONS))
            raise UserError(f"{at}: unknown action {obj.get('action')!r} (one of {names})") from None
        if kind not in _GAME_ACTIONS:
            raise UserError(f"{at}: {kind.value!r} is not a game action")
        suit: Suit | None = None
        if kind is ButtonAction.SUIT:
            try:
                suit = Suit.parse(str(obj.get("suit", "")))
            except CardParseError as exc:
                raise UserError(f"{at}: {exc}") from None
        elif "suit" in obj:
            raise UserError(f"{at}: only the 'suit' action takes a suit")
        out.append(TimedAction(len(out), frame, Action(kind, suit)))
        last_frame = frame
    return out


def load_buttons(path: Path) -> list[TimedAction]:
    try:
        text = read_limited(path, MAX_BUTTONS_BYTES).decode("utf-8")
    except LimitError as exc:
        raise UserError(f"{path}: not a buttons file: {exc}") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot read the buttons file: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UserError(f"{path}: the buttons file is not UTF-8 text") from None
    return parse_buttons(text, str(path))


def dump_buttons(actions: list[tuple[int, Action]]) -> str:
    """The file text for ``(frame, action)`` pairs (the simulated table writes its bids with it)."""
    lines = []
    for frame, action in actions:
        obj: dict[str, object] = {"frame": frame, "action": action.kind.value}
        if action.suit is not None:
            obj["suit"] = action.suit.value
        lines.append(json.dumps(obj))
    return "\n".join(lines) + ("\n" if lines else "")


class ButtonScript:
    """Hands out the scripted actions due at each frame, in order, skipping those already logged."""

    def __init__(self, actions: list[TimedAction], done: int = 0) -> None:
        self._actions = actions
        self._next = done
        self._done = done

    def rewind(self) -> None:
        """Hand the presses out again from the first (a resumed run judging its recording again)."""
        self._next = 0

    def fast_forward(self) -> None:
        """Skip the presses the log already holds (those done when the script was loaded)."""
        self._next = max(self._next, self._done)

    def due(self, frame: int) -> Iterator[TimedAction]:
        while self._next < len(self._actions) and self._actions[self._next].frame <= frame:
            action = self._actions[self._next]
            self._next += 1
            yield action

    @property
    def remaining(self) -> int:
        return len(self._actions) - self._next
