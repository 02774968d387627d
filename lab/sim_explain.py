"""Why a simulated run fell short (``euchre-table simulate --explain``): per deal, each shortfall in words.

Built from the same judgement as the score (:func:`lab.simtable.check_deal` per deal,
:func:`lab.simtable.match_landings` for the cards), so the explanation always agrees with it: the
reneges listed as not proven are exactly ``reneges_injected - reneges_proven``, the cards never reported
exactly ``cards_missed``. Deals that went right are left out. Seats are numbers and tricks count from 1,
as players count them; deals are the script's indices (``CardRest.deal``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from display.phrases import irregularity_text, renege_evidence_text
from lab.simtable import (
    MATCH_FRAMES,
    REST_SLACK,
    CardRest,
    DealAt,
    DealCheck,
    Landing,
    TableScript,
    announcements_by_deal,
    check_deal,
    match_landings,
)
from table.announcements import Announcement, HandScored, Irregularity, IrregularityKind
from table.cards import Card
from table.sim import InjectedRenege, SimDeal

SEATS = tuple(f"seat {s}" for s in range(4))


@dataclass(frozen=True)
class Row:
    """One line of a deal's cards in frame order: a rest and the landing that reported it, or either alone."""

    rest: CardRest | None
    landing: Landing | None

    @property
    def frame(self) -> int:
        if self.rest is not None:
            return self.rest.frame
        assert self.landing is not None
        return self.landing.frame


@dataclass(frozen=True)
class DealShortfall:
    """What went wrong in one deal of the script (``check`` None: a thrown-in deal, judged on its cards only)."""

    deal: int
    script: SimDeal
    game: int
    check: DealCheck | None
    irregularities: tuple[Irregularity, ...]
    missed: tuple[CardRest, ...]  # rests no landing reported
    rows: tuple[Row, ...]
    stolen_by: int | None = None  # the seat that dealt it out of turn (the script's), None: the dealer
    said_out_of_turn: bool = False  # whether the engine said it was dealt out of turn

    @property
    def steal_wrong(self) -> bool:
        """A deal out of turn said of an honest deal (a false alarm), or a stolen deal not said."""
        return self.said_out_of_turn != (self.stolen_by is not None)

    @property
    def engine_short(self) -> bool:
        """Whether the engine got any of the hand wrong (not just a card unreported)."""
        c = self.check
        return c is not None and bool(
            len(c.covered) < len(self.script.reneges) or c.false_alerts or c.wrong_tricks or not c.exact
        )

    @property
    def unproven(self) -> list[InjectedRenege]:
        if self.check is None:
            return []
        return [r for k, r in enumerate(self.script.reneges) if k not in self.check.covered]


@dataclass(frozen=True)
class Explanation:
    deals: tuple[DealShortfall, ...]
    deal_count: int

    def lines(self) -> list[str]:
        """The explanation as text (nothing at all when no deal fell short)."""
        if not self.deals:
            return []
        out: list[str] = []
        for d in self.deals:
            out.extend(_deal_lines(d))
        unproven = sum(len(d.unproven) for d in self.deals)
        false_alerts = sum(len(d.check.false_alerts) for d in self.deals if d.check is not None)
        tricks = sum(len(d.check.wrong_tricks) for d in self.deals if d.check is not None)
        hands = sum(1 for d in self.deals if d.check is not None and not d.check.exact)
        missed = sum(len(d.missed) for d in self.deals)
        out.append(
            f"explain: {len(self.deals)} of {self.deal_count} deals fell short: {unproven} renege(s) not proven, "
            f"{false_alerts} false alert(s), {tricks} trick(s) wrong, {hands} hand(s) not scored exactly, "
            f"{missed} card(s) never reported"
        )
        return out


def explain(
    script: TableScript, announcements: Sequence[tuple[int, Announcement]], landings: Sequence[Landing]
) -> Explanation:
    """The shortfalls of a run: the same inputs as :func:`lab.simtable.score_run`, judged the same way."""
    per_deal = announcements_by_deal(script, announcements)
    matches = match_landings(script.rests, landings)
    reported = {k for _, k in matches if k is not None}
    deal_at = DealAt.of(script)
    rows: list[list[Row]] = [[] for _ in script.deals]
    for k, unreported in enumerate(script.rests):
        if k not in reported and 0 <= unreported.deal < len(rows):
            rows[unreported.deal].append(Row(unreported, None))
    for landing, index in matches:
        rest = script.rests[index] if index is not None else None
        # a landing that reports no rest: the deal at the table then (it may land before the script's rest)
        deal = rest.deal if rest is not None else deal_at(landing.frame + REST_SLACK)
        if 0 <= deal < len(rows):
            rows[deal].append(Row(rest, landing))
    found: list[DealShortfall] = []
    for i, d in enumerate(script.deals):
        check = None if d.thrown_in else check_deal(d, per_deal[i])
        missed = tuple(r.rest for r in rows[i] if r.rest is not None and r.landing is None)
        irregularities = tuple(a for a in per_deal[i] if isinstance(a, Irregularity))
        ordered = tuple(sorted(rows[i], key=lambda r: r.frame))
        said = any(irr.kind is IrregularityKind.DEAL_OUT_OF_TURN for irr in irregularities)
        stolen = script.stolen.get(i)
        shortfall = DealShortfall(i, d, script.deal_games[i], check, irregularities, missed, ordered, stolen, said)
        if shortfall.engine_short or missed or shortfall.steal_wrong:
            found.append(shortfall)
    return Explanation(tuple(found), len(script.deals))


# ---------------------------------------------------------------- words


def _deal_lines(d: DealShortfall) -> list[str]:
    s = d.script
    if s.thrown_in:
        about = "thrown in"
    else:
        trump = "no trump" if s.trump is None else f"{s.trump.noun} trump"
        about = f"{trump} made by seat {s.maker_seat}"
    out = [f"explain: deal {d.deal} (game {d.game}, dealer seat {s.dealer}, up-card {s.up_card}, {about}):"]
    check = d.check
    if check is not None:
        for r in d.unproven:
            out.append(f"  renege not proven: {_renege_text(r)}")
        for alert in check.false_alerts:
            out.append(f"  false renege alert: {renege_evidence_text(alert.evidence, SEATS)}")
        out.extend(_trick_lines(check))
        if not check.exact:
            out.append(f"  hand scored: the engine {_scored_text(check.scored)}, the script {s.points} ({s.reason})")
        if d.engine_short:
            out.extend(_irregularity_lines(d.irregularities))
    if d.steal_wrong and d.stolen_by is None:
        out.append(f"  false alarm: a deal out of turn said, but seat {s.dealer} dealt it")
    elif d.steal_wrong:
        out.append(f"  deal out of turn not said: seat {d.stolen_by} dealt it (who turned the up-card was not clear)")
    for rest in d.missed:
        out.append(f"  never reported: {rest.card} in {rest.zone} at frame {rest.frame} ({rest.kind})")
    out.append("  cards by frame: the script's rests | the tracker's landings")
    tricks = {card: k for k, trick in enumerate(s.tricks) for _, card in trick.plays}
    out.extend(f"    {_row_text(row, d.rows, tricks)}" for row in d.rows)
    return out


def _trick_lines(check: DealCheck) -> list[str]:
    """A line per trick the engine gave the wrong winner, one for the tricks it named no winner of (the last)."""
    named = len(check.winners)
    out = [
        f"  trick {k + 1}: the engine said seat {check.winners[k]}, the script seat {check.want[k]}"
        for k in check.wrong_tricks
        if k < named
    ]
    unnamed = [k for k in check.wrong_tricks if k >= named]
    if unnamed:
        which = f"trick {unnamed[0] + 1}" if len(unnamed) == 1 else f"tricks {unnamed[0] + 1}-{unnamed[-1] + 1}"
        seats = " ".join(str(check.want[k]) for k in unnamed)
        out.append(f"  {which}: the engine named no winner, the script seat{'s' if len(unnamed) > 1 else ''} {seats}")
    return out


def _renege_text(r: InjectedRenege) -> str:
    held = " ".join(str(c) for c in r.held)
    words = f"seat {r.seat} played {r.card} on {r.led} in trick {r.trick + 1} (held {r.suit.noun}: {held})"
    if r.proof_card is None or r.proof_trick is None:
        return f"{words}; never provable in this hand"
    how = "" if r.proof == "played" else f", {r.proof.replace('_', ' ')}"
    return f"{words}; provable by {r.proof_card} in trick {r.proof_trick + 1}{how}"


def _scored_text(scored: HandScored | None) -> str:
    return "never scored it" if scored is None else f"{scored.points} ({scored.reason})"


def _irregularity_lines(irregularities: Sequence[Irregularity]) -> list[str]:
    if not irregularities:
        return ["  the engine raised no irregularity in this deal"]
    counts: dict[str, int] = {}
    for irr in irregularities:
        text = irregularity_text(irr, SEATS)
        counts[text] = counts.get(text, 0) + 1
    lines = ["  the engine's irregularities in this deal:"]
    lines.extend(f"    {text}" + (f" (x{n})" if n > 1 else "") for text, n in counts.items())
    return lines


_LEFT = 28  # the width of the script's column


def _row_text(row: Row, rows: Sequence[Row], tricks: Mapping[Card, int]) -> str:
    rest, landing = row.rest, row.landing
    left = ""
    if rest is not None:
        what = f"trick {tricks[rest.card] + 1}" if rest.kind == "play" and rest.card in tricks else rest.kind
        left = f"{rest.frame:>6} {rest.card} {rest.zone} {what}"
    if landing is None:
        return f"{left:<{_LEFT}}|   --  <- never reported"
    right = f"{landing.frame:>6} {landing.card} {landing.zone}"
    if rest is not None:
        return f"{left:<{_LEFT}}| {right}  ({landing.frame - rest.frame:+d})"
    return f"{left:<{_LEFT}}| {right}  <- {_why_unmatched(landing, rows)}"


def _why_unmatched(landing: Landing, rows: Sequence[Row]) -> str:
    """A landing that reports no rest: a card at rest elsewhere nearby (misread here, or read in the wrong
    zone: the frames alone cannot tell), or a misread of a card no other zone holds."""
    for row in rows:
        rest = row.rest
        if rest is not None and rest.card == landing.card and abs(rest.frame - landing.frame) <= MATCH_FRAMES:
            if rest.zone != landing.zone:
                return f"no rest matches: {rest.card} rested in {rest.zone} (a misread here, or the wrong zone)"
            return f"no rest matches: {landing.card} in {landing.zone} was reported already"
    return "no rest matches: a misread (no such card at rest nearby)"
