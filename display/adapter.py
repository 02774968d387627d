"""Builds the scoreboard's view model from the engine's snapshot (`table.view.MatchView`) and the seat names.

A pure function: the same snapshot, names and options always give the same
`ScoreboardView`. What the engine does not know (camera state, snapshots of
the renege tricks, mute, the score style) comes in as arguments from the app.
The last announcement and the irregularity banner come from the engine's
most recent announcements (``MatchView.last_announcements`` unless given).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from display import phrases
from display.view import (
    Banner,
    BannerKind,
    HistoryRow,
    RenegeAlert,
    ScoreboardView,
    ScoreStyle,
    SeatView,
    Snapshot,
    Stage,
)
from table.announcements import (
    Announcement,
    Expect,
    GameDrawn,
    GameWon,
    HandScored,
    Irregularity,
    IrregularityKind,
    Prompt,
)
from table.cards import Card, Suit
from table.deal import Phase
from table.rules import RenegePenalty, Rules
from table.trump import trick_winner
from table.view import HandRow, MatchView

_STAGE = {
    Phase.UP_CARD: Stage.DEALING,
    Phase.BID_ROUND_1: Stage.BIDDING,
    Phase.BID_ROUND_2: Stage.BIDDING,
    Phase.NAME_TRUMP_BLIND: Stage.BIDDING,
    Phase.DISCARD: Stage.PLAYING,
    Phase.GO_ALONE: Stage.PLAYING,
    Phase.PLAY: Stage.PLAYING,
    Phase.RENEGE_DECISION: Stage.PLAYING,
    Phase.HAND_OVER: Stage.HAND_OVER,
    Phase.GAME_OVER: Stage.GAME_OVER,
}


# A deal the table declared void: its row says so, with no trump, maker or points (the same dealer deals again).
_VOID_REASONS = frozenset({"misdeal"})


def build_view(
    match: MatchView,
    names: Sequence[str],
    *,
    announcements: Sequence[Announcement] | None = None,
    fallback_announcement: str = "",
    camera_ok: bool = True,
    renege_snapshots: tuple[Snapshot, ...] = (),
    muted: bool = False,
    score_style: ScoreStyle = ScoreStyle.NUMBERS,
    accept_hint: str = "",
    dismiss_hint: str = "",
    rules: Rules | None = None,
) -> ScoreboardView:
    """The screen for ``match``; ``names`` are the seats' names, seat 0 first (clockwise).

    ``rules`` (the match's rules record) words the renege alert's penalty;
    without it the alert shows none.
    """
    if len(names) != 4:
        raise ValueError(f"build_view: four seat names needed, got {list(names)!r}")
    recent = tuple(match.last_announcements if announcements is None else announcements)
    stage = _STAGE[match.phase]
    if match.expected.expected is Expect.NEW_GAME and not match.history:
        stage = Stage.NEW_GAME
    last_row = match.history[-1] if match.history else None
    hand_over = stage is Stage.HAND_OVER and last_row is not None

    trump, no_trump, maker, alone, tricks = _trump_state(match, last_row if hand_over else None)
    return ScoreboardView(
        seats=_seats(match, names, alone),
        score=match.score,
        target=match.target,
        stage=stage,
        bid_round=1 if match.phase is Phase.BID_ROUND_1 else 2,
        dealer=match.dealer,
        turn=match.expected.seat if stage in (Stage.BIDDING, Stage.PLAYING) else None,
        trump=trump,
        no_trump=no_trump,
        maker=maker,
        alone=alone,
        tricks=tricks,
        trick_number=_trick_number(match, alone) if stage is Stage.PLAYING else 0,
        up_card=match.up_card if stage is Stage.BIDDING else None,
        up_card_turned_down=match.phase in (Phase.BID_ROUND_2,),
        prompt=phrases.prompt_text(
            _prompt(match), names, match.dealer, stuck=_stuck(match, rules), alone=_alone_only(match, rules)
        ),
        announcement=_last_words(recent, names, match.trump, match.dealer) or fallback_announcement,
        result=_result(match, recent, names, last_row),
        winner=match.winner,
        history=tuple(_history_row(row, names) for row in match.history),
        renege=_renege(match, names, renege_snapshots, accept_hint, dismiss_hint, rules),
        banner=_banner(recent, names),
        camera_ok=camera_ok,
        muted=muted,
        score_style=score_style,
    )


def _prompt(match: MatchView) -> Prompt:
    """What the engine waits for; before the first lead, while someone may still go alone, that is said first."""
    e = match.expected
    if match.phase is Phase.GO_ALONE and match.may_go_alone and e.expected is Expect.LEAD and not match.current_trick:
        return Prompt(e.seat, Expect.GO_ALONE)
    return e


def _stuck(match: MatchView, rules: Rules | None) -> bool:
    """The dealer bids in round 2 under stick the dealer: passing is not allowed."""
    e = match.expected
    return bool(rules and rules.stick_the_dealer and e.expected is Expect.BID_ROUND_2 and e.seat == match.dealer)


def _alone_only(match: MatchView, rules: Rules | None) -> bool:
    """The dealer's partner bids in round 1 where ordering up means playing alone (the Canadian loner)."""
    e = match.expected
    partner = (match.dealer + 2) % 4
    return bool(rules and rules.dealer_partner_must_go_alone and e.expected is Expect.BID_ROUND_1 and e.seat == partner)


def _trump_state(
    match: MatchView, row: HandRow | None
) -> tuple[Suit | None, bool, int | None, tuple[int, ...], tuple[int, int]]:
    """(trump, no trump, maker, alone seats, tricks): the hand in play, or the hand just scored."""
    if row is not None and row.reason in _VOID_REASONS:
        return None, False, None, (), (0, 0)
    if row is not None:
        return row.trump, row.no_trump, row.maker_seat, row.alone_seats, row.tricks_won
    if not match.trump_made:
        return None, False, None, match.alone_seats, match.tricks_won
    return match.trump, match.trump is None, match.maker_seat, match.alone_seats, match.tricks_won


def _seats(
    match: MatchView, names: Sequence[str], alone: tuple[int, ...]
) -> tuple[SeatView, SeatView, SeatView, SeatView]:
    out_seats = {(s + 2) % 4 for s in alone if (s + 2) % 4 not in alone}
    trick = match.current_trick if _STAGE[match.phase] is Stage.PLAYING else ()
    played: dict[int, Card] = {seat: card for seat, card in trick}
    winner_seat: int | None = None
    if trick and match.trump_made:
        winner_seat = trick[trick_winner([card for _, card in trick], match.trump)][0]
    leader = trick[0][0] if trick else None
    seats = tuple(
        SeatView(
            name=names[s],
            card=played.get(s),
            led=s == leader,
            winning=s == winner_seat and len(trick) > 1,
            sitting_out=s in out_seats,
        )
        for s in range(4)
    )
    return seats[0], seats[1], seats[2], seats[3]


def _trick_number(match: MatchView, alone: tuple[int, ...]) -> int:
    done = sum(match.tricks_won)
    active = 4 - len({(s + 2) % 4 for s in alone if (s + 2) % 4 not in alone})
    complete = len(match.current_trick) >= active
    return min(5, done if complete and done else done + 1)


def _last_words(recent: Sequence[Announcement], names: Sequence[str], trump: Suit | None, dealer: int) -> str:
    """The newest announcement worth a line of its own (prompts have theirs; irregularities get the banner)."""
    for a in reversed(recent):
        if not isinstance(a, Prompt | Irregularity):
            return phrases.announcement_text(a, names, trump=trump, dealer=dealer)
    return ""


def _banner(recent: Sequence[Announcement], names: Sequence[str]) -> Banner | None:
    for a in reversed(recent):
        # A suspicion that rests on a hidden card (the dealer's unseen discard) is kept in the deal's
        # record for review, but never put up on the screen: it is often a legal play.
        if isinstance(a, Irregularity) and a.kind is not IrregularityKind.SUSPECTED_RENEGE:
            kind = BannerKind.CHECK_CARD if a.kind is IrregularityKind.CHECK_CARD else BannerKind.IRREGULARITY
            return Banner(kind, phrases.irregularity_text(a, names))
    return None


def _result(match: MatchView, recent: Sequence[Announcement], names: Sequence[str], row: HandRow | None) -> str:
    for a in reversed(recent):
        if isinstance(a, GameWon | GameDrawn):
            return phrases.announcement_text(a, names)
    if match.game_over and match.winner is not None:
        return phrases.announcement_text(GameWon(match.winner, match.score), names)
    if row is None or row.reason in ("", "thrown_in", "voided"):
        return ""
    makers = row.maker_seat % 2 if row.maker_seat is not None else 0
    scored = HandScored(row.points, row.tricks_won, makers, row.reason, row.score_after)
    return phrases.hand_result_text(scored, names)


def _history_row(row: HandRow, names: Sequence[str]) -> HistoryRow:
    void = row.reason in _VOID_REASONS
    maker = names[row.maker_seat] if row.maker_seat is not None and not void else ""
    return HistoryRow(
        number=row.number + 1,
        trump=None if void else row.trump,
        maker=maker,
        alone=bool(maker) and row.maker_seat in row.alone_seats,
        tricks=row.tricks_won,
        points=row.points,
        score=row.score_after,
        note=phrases.history_note(row.reason),
    )


def _renege(
    match: MatchView,
    names: Sequence[str],
    snapshots: tuple[Snapshot, ...],
    accept_hint: str,
    dismiss_hint: str,
    rules: Rules | None,
) -> RenegeAlert | None:
    evidence = match.pending_renege
    if evidence is None or match.phase is not Phase.RENEGE_DECISION:
        return None
    penalty = ""
    if rules is not None:
        penalty = penalty_text(rules.renege_penalty, evidence.seat, names, alone=bool(match.alone_seats))
    return RenegeAlert(
        offender=names[evidence.seat],
        evidence=phrases.renege_evidence_text(evidence, names),
        penalty=penalty,
        snapshots=snapshots,
        accept_hint=accept_hint,
        dismiss_hint=dismiss_hint,
    )


def penalty_text(penalty: RenegePenalty, offender: int, names: Sequence[str], *, alone: bool) -> str:
    """What accepting a renege by seat ``offender`` does under ``penalty``, worded as the engine scores it.

    ``alone``: someone is playing this hand alone (the two-or-four penalty is then 4).
    "North–South score 2", "North–South score 4", "the hand is replayed", "East–West lose 2".
    """
    if not 0 <= offender <= 3:
        raise ValueError(f"penalty_text: no such seat {offender}")
    offenders = offender % 2
    if penalty is RenegePenalty.TWO_OR_FOUR:
        return phrases.score_text(phrases.team_name(names, 1 - offenders), 4 if alone else 2)
    if penalty is RenegePenalty.DEDUCT:
        return phrases.team_loses_text(phrases.team_name(names, offenders), 2)
    if penalty is RenegePenalty.REPLAY:
        return phrases.hand_replayed_text()
    assert_never(penalty)
