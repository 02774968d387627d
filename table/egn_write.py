"""EGN writer: a match back to an EGN 1.4 file (:func:`export_egn`, :func:`dumps_egn`)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from table.announcements import IrregularityKind, RenegeEvidence
from table.cards import Card
from table.deal import DealRecord
from table.egn_common import (
    _MISDEAL_WRITTEN,
    BIDDING,
    EGN_FILE_TYPE,
    EGN_VERSION,
    IRREGULARITY_TAG,
    PENALTY_ACCEPTED,
    RENEGE_TAG,
    TRICK_PLAY,
    UNKNOWN_CARD,
    EgnDeal,
    EgnGame,
    _out,
    misdeal_in_note,
    misdeal_note,
    ruleset_from_rules,
)
from table.inputs import (
    NameTrump,
    OrderUp,
    Pass,
)
from table.match import Match

# ---------------------------------------------------------------- export


def _call_text(call: Pass | OrderUp | NameTrump) -> str:
    if isinstance(call, Pass):
        return "Pass"
    if isinstance(call, OrderUp):
        return "Order"
    return "n" if call.suit is None else call.suit.value


def renege_note(e: RenegeEvidence, accepted: bool = False) -> str:
    """The annotation for a proven renege, e.g. ``[??]Renege: seat 3 showed out of hearts in trick 2 ...``."""
    text = (
        f"{RENEGE_TAG}seat {e.seat} showed out of {e.suit.noun} in trick {e.showed_out_trick + 1} "
        f"(played {e.showed_out_card} to {e.led_card}), "
    )
    if e.proof == "held_up_card":
        text += f"while holding the up-card {e.proof_card}"
    else:
        text += f"played {e.proof_card} in trick {e.proof_trick + 1}"
    return text + (f"; {PENALTY_ACCEPTED}" if accepted else "")


def _play_index(tricks: list[list[tuple[int, Card]]], trick: int, seat: int, card: Card | None) -> int | None:
    k = 0
    for t, plays in enumerate(tricks):
        for s, c in plays:
            if t == trick and s == seat and (card is None or c == card):
                return k
            k += 1
    return None


def _generated(note: str) -> bool:
    return note.startswith((RENEGE_TAG, IRREGULARITY_TAG)) or _MISDEAL_WRITTEN.fullmatch(note) is not None


def _merge(into: dict[str, list[str]], key: int, note: str) -> None:
    into.setdefault(str(key), []).append(note)


def _export_deal(record: DealRecord, number: int, source: EgnDeal | None) -> dict[str, Any] | None:
    if record.reason == "unseen":
        return {"dealNumber": number, "initialState": {"dealer": record.dealer, "upCard": UNKNOWN_CARD}, "phases": []}
    if record.up_card is None:
        return None  # a Benny set aside and no up-card yet: nothing EGN can say
    # A blind lone is the dealer's declaration before any call: "blindLone" says it, not the calls.
    calls = [] if record.blind else [_call_text(c) for c in record.calls]
    bidding: dict[str, Any] = {"phaseNumber": 0, "type": BIDDING, "calls": calls}
    maker = record.maker_seat
    alone = list(record.alone_seats)
    maker_alone = maker is not None and maker in alone
    bidding["isAlone"] = maker_alone
    defenders = [s for s in alone if maker is not None and s % 2 != maker % 2]
    if defenders:
        bidding["aloneDefender"] = defenders[0]
    # What isAlone and aloneDefender say, in the order the importer declares them; anything else is spelt out.
    expressible = ([maker] if maker is not None and maker_alone else []) + defenders[:1]
    if alone != expressible:
        bidding["aloneSeats"] = alone
    if record.blind:
        bidding["blindLone"] = True
    if record.discard is not None:
        bidding["discard"] = str(record.discard)
    kinds = {i.kind for i in record.irregularities}
    if IrregularityKind.BID_OUT_OF_TURN in kinds and record.calls:
        bidding["callSeats"] = [c.seat for c in record.calls]
    if record.exchanges:
        bidding["unseenExchanges"] = [{"seat": e.seat, "kind": e.kind} for e in record.exchanges]
    call_notes: dict[str, list[str]] = {}
    play_notes: dict[str, list[str]] = {}
    if source is not None:
        for index, notes in source.call_annotations.items():
            for note in notes:
                if not _generated(note):
                    _merge(call_notes, index, note)
        for index, notes in source.play_annotations.items():
            for note in notes:
                if not _generated(note):
                    _merge(play_notes, index, note)
    accepted = record.reneges[-1] if record.penalty_accepted and record.reneges else None
    k: int | None
    for e in record.reneges:
        if e.proof == "held_up_card":
            k = _play_index(record.tricks, e.showed_out_trick, e.seat, e.showed_out_card)
        else:
            k = _play_index(record.tricks, e.proof_trick, e.seat, e.proof_card)
        _merge(play_notes, k if k is not None else 0, renege_note(e, e is accepted))
    last_call = max(len(calls) - 1, 0)
    # A misdeal goes after the last call or card before it, unless the source's own words already say it.
    said = any(misdeal_in_note(n) is not None for notes in (*call_notes.values(), *play_notes.values()) for n in notes)
    plays = sum(len(trick) for trick in record.tricks)
    for irr in record.irregularities:
        if irr.kind is IrregularityKind.MISDEAL:
            if not said:
                _merge(
                    play_notes if plays else call_notes,
                    plays - 1 if plays else last_call,
                    misdeal_note(record.dealer, irr.seat),
                )
            continue
        note = f"{IRREGULARITY_TAG}{irr.kind.value}: {irr.detail}"
        k = None
        if irr.card is not None and irr.seat is not None:
            k = next(
                (n for n, (s, c) in enumerate(p for t in record.tricks for p in t) if s == irr.seat and c == irr.card),
                None,
            )
        if k is not None:
            _merge(play_notes, k, note)
        else:
            _merge(call_notes, last_call, note)
    if call_notes:
        bidding["callAnnotations"] = call_notes
    phases: list[dict[str, Any]] = [bidding]
    if record.tricks:
        play: dict[str, Any] = {
            "phaseNumber": 1,
            "type": TRICK_PLAY,
            "tricks": [[str(c) for _, c in trick] for trick in record.tricks],
        }
        if IrregularityKind.OUT_OF_TURN in kinds or IrregularityKind.CARD_UNSEEN in kinds:
            play["playSeats"] = [[s for s, _ in trick] for trick in record.tricks]
        if IrregularityKind.CARD_UNSEEN in kinds:
            # A trick its winner's next lead closed with one card not seen: that card as "Xx", last.
            active = [s for s in range(4) if s not in _out(record.alone_seats)]
            for t, trick in enumerate(record.tricks[: len(record.trick_winners)]):
                missing = [s for s in active if all(s != p for p, _ in trick)]
                play["tricks"][t] += [UNKNOWN_CARD] * len(missing)
                play["playSeats"][t] += missing
        if play_notes:
            play["playAnnotations"] = play_notes
        phases.append(play)
    elif play_notes:
        bidding.setdefault("callAnnotations", {}).setdefault(str(last_call), []).extend(
            n for notes in play_notes.values() for n in notes
        )
    state: dict[str, Any] = {"dealer": record.dealer, "upCard": str(record.up_card)}
    if record.set_aside:
        state["setAside"] = [str(c) for c in record.set_aside]
    out: dict[str, Any] = {"dealNumber": number, "initialState": state, "phases": phases}
    if source is not None and source.alternative_lines:
        out["alternativeLines"] = source.alternative_lines
    return out


def export_egn(
    match: Match,
    *,
    metadata: Mapping[str, Any] | None = None,
    players: Sequence[str] | None = None,
    source: EgnGame | None = None,
) -> dict[str, Any]:
    """The current game of ``match`` (finished or not) as an EGN 1.4 object.

    ``metadata`` adds fields such as ``title`` and ``date``; ``source`` (a game
    this match was imported from) carries over its metadata, commentary and
    alternative lines. Reneges and irregularities become annotations.
    """
    records = match.deals
    initial = (
        match.score[0] - sum(r.points[0] for r in records),
        match.score[1] - sum(r.points[1] for r in records),
    )
    meta: dict[str, Any] = {}
    if source is not None:
        meta.update({k: v for k, v in source.metadata.items() if k not in ("ruleset", "initialScore", "finalScore")})
    if metadata:
        meta.update(metadata)
    if players is not None:
        meta["players"] = list(players)
    meta["initialScore"] = [initial[0], initial[1]]
    meta["ruleset"] = ruleset_from_rules(match.rules)
    if match.game_over:
        meta["finalScore"] = [match.score[0], match.score[1]]
    deals: list[dict[str, Any]] = []
    for n, record in enumerate(records):
        src_deal = source.deals[n] if source is not None and n < len(source.deals) else None
        exported = _export_deal(record, len(deals), src_deal)
        if exported is not None:
            deals.append(exported)
    return {"fileType": EGN_FILE_TYPE, "version": EGN_VERSION, "metadata": meta, "deals": deals}


def dumps_egn(obj: Mapping[str, Any]) -> str:
    """EGN text as the spec's examples write it (two-space indent, UTF-8 kept readable)."""
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"
