"""A tiny script language for engine tests: literal bids and plays, one short line each.

``run(match, "up 9h; 1 pass; 2 order; 0 discard ?; play Qh Th 9d Jh; 1:As~0.3")``

- ``up 9h`` (``up 9h~0.3``: read with confidence 0.3)
- ``<seat> pass | order [alone] | name <s|n> [alone] | alone | discard <card|?> | xchg <kind>``
- ``play C C C ...``: cards played by whoever the engine expects next
- ``<seat>:<card>[~conf]``: a card played by that seat (several per line allowed)
- ``accept``, ``dismiss``, ``undo``, ``revise <index> <card>``, ``newgame <dealer>``
"""

from __future__ import annotations

from table.announcements import Announcement, Irregularity, IrregularityKind
from table.cards import Card, Suit
from table.inputs import (
    AcceptPenalty,
    Discard,
    DismissRenege,
    Exchange,
    GoAlone,
    Input,
    NameTrump,
    NewGame,
    OrderUp,
    Pass,
    Play,
    ReviseCard,
    Undo,
    UpCard,
)
from table.match import Match


def _card(tok: str) -> tuple[Card, float]:
    text, _, conf = tok.partition("~")
    return Card.parse(text), float(conf) if conf else 1.0


def parse_line(line: str, m: Match) -> list[Input]:
    """Inputs for one line; ``play`` resolves seats against ``m`` as it goes, so apply them one by one."""
    w = line.split()
    if not w:
        return []
    head = w[0]
    if head == "up":
        c, conf = _card(w[1])
        return [UpCard(c, conf)]
    if head == "accept":
        return [AcceptPenalty()]
    if head == "dismiss":
        return [DismissRenege()]
    if head == "undo":
        return [Undo()]
    if head == "revise":
        return [ReviseCard(int(w[1]), Card.parse(w[2]))]
    if head == "newgame":
        return [NewGame(int(w[1]))]
    if ":" in head:
        out: list[Input] = []
        for tok in w:
            seat, _, rest = tok.partition(":")
            c, conf = _card(rest)
            out.append(Play(int(seat), c, conf))
        return out
    seat, verb, args = int(head), w[1], w[2:]
    alone = "alone" in args
    if verb == "pass":
        return [Pass(seat)]
    if verb == "order":
        return [OrderUp(seat, alone)]
    if verb == "name":
        return [NameTrump(seat, None if args[0] == "n" else Suit.parse(args[0]), alone)]
    if verb == "alone":
        return [GoAlone(seat)]
    if verb == "discard":
        return [Discard(seat, None if args[0] == "?" else Card.parse(args[0]))]
    if verb == "xchg":
        return [Exchange(seat, args[0])]
    raise ValueError(f"bad script line {line!r}")


def run(m: Match, script: str) -> list[Announcement]:
    """Apply every input of ``script`` (lines or ``;``-separated); all announcements in order."""
    out: list[Announcement] = []
    for line in script.replace(";", "\n").splitlines():
        w = line.split()
        if w and w[0] == "play":
            for tok in w[1:]:
                c, conf = _card(tok)
                seat = m.expected.seat
                assert seat is not None, f"no seat expected for {tok} in phase {m.phase}"
                out += m.apply(Play(seat, c, conf))
            continue
        for inp in parse_line(line, m):
            out += m.apply(inp)
    return out


def of_type(out: list[Announcement], cls: type) -> list[Announcement]:
    return [a for a in out if isinstance(a, cls)]


def irregular(out: list[Announcement]) -> list[IrregularityKind]:
    return [a.kind for a in out if isinstance(a, Irregularity)]


# A complete legal deal (dealer 0, up-card 9h, 24 cards), used by several test files:
#   seat 0: Jh Jd Ah Kh 9c (takes up 9h, discards 9c)   seat 1: Qh As Ks Qs Js
#   seat 2: Th Ac Kc Qc Jc                                 seat 3: Ad Kd Qd Td 9d
# With hearts trump and seat 0's side making it, team 0 takes all five tricks.
MARCH_PLAY = "play Qh Th 9d Jh; play Jd As Ac Td; play Ah Ks Kc Qd; play Kh Qs Qc Kd; play 9h Js Jc Ad"


# Cards for scripted tricks with hearts trump: tricks 0-3 are all-follow tricks of clubs, spades, diamonds and
# hearts (nobody shows out, so nothing can look like a renege); trick 4 uses leftovers. Kh is never played:
# use it as the up-card (and the dealer's known discard).
_FOLLOW = ["Ac Kc Qc Jc", "As Ks Qs Js", "Ad Kd Qd Td", "Jh Qh Th 9h"]
_LAST_TRUMPS = ("Jd", "Ah")
_LEFTOVERS = "Tc 9c Ts 9s 9d"


def tricks_script(leader: int, winners: list[int], active: tuple[int, ...] = (0, 1, 2, 3)) -> str:
    """Explicit ``seat:card`` plays for five tricks (hearts trump) won by ``winners``, starting at ``leader``."""
    assert len(winners) == 5 and all(w in active for w in winners)
    lines = []
    lead = leader
    for k, winner in enumerate(winners):
        order = [s for s in ((lead + i) % 4 for i in range(4)) if s in active]
        if k < 4:
            cards = _FOLLOW[k].split()
            others = iter(cards[1:])
            plays = [f"{s}:{cards[0] if s == winner else next(others)}" for s in order]
        else:
            spare = iter(_LEFTOVERS.split())
            plays = []
            for s in order:
                if s == winner:
                    plays.append(f"{s}:{_LAST_TRUMPS[0] if s == lead else _LAST_TRUMPS[1]}")
                else:
                    plays.append(f"{s}:{next(spare)}")
        lines.append(" ".join(plays))
        lead = winner
    return "; ".join(lines)
