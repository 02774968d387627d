"""The night's partner rotation: who partners whom, at which table and seat, game by game.

The construction is the round robin's circle method (a 1-factorisation of the complete graph): with an
even count m of places, place m-1 stays put and the rest turn one step a round; round r pairs place
m-1 with r, and r+k with r-k (mod m-1). Every two places are paired exactly once in m-1 rounds. Here a
pair is a partnership, so partners change every game and nobody partners anyone twice.

- An odd number of players gets a "bye" place: whoever it pairs with sits the game out.
- When the partnerships of a round are odd in number, one of them sits out too: the one whose players
  have sat out least so far (so the sitting is shared).
- The partnerships of a round meet at tables two by two, each matched against the one it has faced
  least (so opponents vary as well); the first pair sits at seats 0 and 2, the second at 1 and 3.

Hence each round seats ``n // 4`` tables and sits ``n % 4`` players out, and where ``n % 4`` is 0 or 1
(8, 9, 12, 13, 16 players) every two players partner exactly once over the ``m - 1`` rounds. With
10, 11, 14 or 15 the partnerships that sat out never play together: the numbers do not allow it.
"""

from __future__ import annotations

import html
import random
from collections.abc import Sequence
from dataclasses import dataclass

MIN_PLAYERS = 4
MAX_PLAYERS = 64


class RotationError(ValueError):
    """A list of players no rotation can be made for (too few, too many, a name twice)."""


@dataclass(frozen=True)
class Seating:
    """One table in one round: the four players by seat (0 and 2 are partners, as are 1 and 3)."""

    table: int  # 1-based
    seats: tuple[str, str, str, str]

    @property
    def partnerships(self) -> tuple[tuple[str, str], tuple[str, str]]:
        s = self.seats
        return (s[0], s[2]), (s[1], s[3])


@dataclass(frozen=True)
class Round:
    number: int  # 1-based: the night's game number
    tables: tuple[Seating, ...]
    sitting_out: tuple[str, ...]


@dataclass(frozen=True)
class Rotation:
    players: tuple[str, ...]
    rounds: tuple[Round, ...]

    def table_of(self, round_number: int, table: int) -> Seating:
        return self.rounds[round_number - 1].tables[table - 1]


def _circle(m: int) -> list[list[tuple[int, int]]]:
    rounds = []
    for r in range(m - 1):
        pairs = [(m - 1, r)]
        for k in range(1, m // 2):
            pairs.append(((r + k) % (m - 1), (r - k) % (m - 1)))
        rounds.append(pairs)
    return rounds


def make_rotation(players: Sequence[str], seed: int | None = None, rounds: int | None = None) -> Rotation:
    """The rotation for ``players`` (shuffled by ``seed`` when given); ``rounds`` keeps only the first ones."""
    names = [str(p).strip() for p in players]
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise RotationError(f"a rotation needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)}")
    if any(not n for n in names):
        raise RotationError("a player's name is empty")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise RotationError(f"named twice: {', '.join(twice)}")
    if seed is not None:
        random.Random(seed).shuffle(names)
    m = len(names) + len(names) % 2
    sat: dict[str, int] = dict.fromkeys(names, 0)
    faced: dict[frozenset[str], int] = {}
    out: list[Round] = []
    for number, pairs in enumerate(_circle(m), start=1):
        partnerships = [(names[a], names[b]) for a, b in pairs if a < len(names) and b < len(names)]
        sitting = [names[i] for a, b in pairs for i in (a, b) if max(a, b) >= len(names) and i < len(names)]
        if len(partnerships) % 2:
            out_pair = min(partnerships, key=lambda p: (sat[p[0]] + sat[p[1]], max(sat[p[0]], sat[p[1]])))
            partnerships.remove(out_pair)
            sitting.extend(out_pair)
        for name in sitting:
            sat[name] += 1
        tables: list[Seating] = []
        while partnerships:
            first = partnerships.pop(0)
            rival = min(partnerships, key=lambda p: faced.get(frozenset((*first, *p)), 0))
            partnerships.remove(rival)
            key = frozenset((*first, *rival))
            faced[key] = faced.get(key, 0) + 1
            tables.append(Seating(len(tables) + 1, (first[0], rival[0], first[1], rival[1])))
        out.append(Round(number, tuple(tables), tuple(sorted(sitting))))
    if rounds is not None:
        out = out[: max(0, rounds)]
    return Rotation(tuple(names), tuple(out))


def format_text(rotation: Rotation) -> str:
    """The printable rotation: one block a game, a line a table (seats 0-3 clockwise), then who sits out."""
    lines = [f"Partner rotation: {len(rotation.players)} players, {len(rotation.rounds)} games"]
    for r in rotation.rounds:
        lines.append("")
        lines.append(f"Game {r.number}")
        for t in r.tables:
            (a, c), (b, d) = t.partnerships
            lines.append(f"  Table {t.table}: {a} & {c}  v  {b} & {d}   (seats 0-3: {', '.join(t.seats)})")
        if r.sitting_out:
            lines.append(f"  Sitting out: {', '.join(r.sitting_out)}")
    return "\n".join(lines) + "\n"


def format_html(rotation: Rotation) -> str:
    """The rotation as an HTML table (the board's page and its printable view)."""
    rows = []
    for r in rotation.rounds:
        cells = "".join(
            f"<td><b>{html.escape(t.seats[0])} &amp; {html.escape(t.seats[2])}</b> v "
            f"<b>{html.escape(t.seats[1])} &amp; {html.escape(t.seats[3])}</b></td>"
            for t in r.tables
        )
        rest = html.escape(", ".join(r.sitting_out)) or "&ndash;"
        rows.append(f"<tr><th>Game {r.number}</th>{cells}<td class='out'>{rest}</td></tr>")
    width = max((len(r.tables) for r in rotation.rounds), default=0)
    head = "".join(f"<th>Table {i + 1}</th>" for i in range(width))
    return (
        f"<table class='rotation'><thead><tr><th></th>{head}<th>Sitting out</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
