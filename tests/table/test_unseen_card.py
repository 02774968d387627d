"""A trick with one card the camera never read: the winner's next lead closes it.

The winner of a trick leads the next one, so a seat that already played to
the trick playing again, once every other seat but one has played, shows the
trick is over and that seat took it. The engine says which card went unseen
and plays on, rather than ignoring the rest of the hand as "already played".
"""

from __future__ import annotations

import pytest
from engine_script import irregular, of_type, run

from table.announcements import HandScored, IrregularityKind, TrickWon
from table.egn import dumps_egn, export_egn, loads_egn, replay_egn
from table.match import Match, Phase
from table.rules import Rules

NA = Rules.preset("north_american")
K = IrregularityKind
BID = "up Kh; 1 order; 0 discard ?"  # hearts trump, dealer 0: seat 1 leads


def test_the_winners_next_lead_closes_a_trick_with_a_card_not_seen() -> None:
    m = Match(NA)
    run(m, BID + "; 1:Ac 2:Kc")  # seat 3's card (Qc) is never read
    out = run(m, "0:Jc")
    assert irregular(out) == [K.OUT_OF_TURN]  # seat 3 was to play
    out = run(m, "1:As")
    assert irregular(out) == [K.CARD_UNSEEN]
    assert [(w.seat, str(w.card)) for w in of_type(out, TrickWon)] == [(1, "Ac")]
    d = m.deals[-1]
    assert d.trick_winners == [1] and [(s, str(c)) for s, c in d.tricks[-1]] == [(1, "As")]
    assert m.expected.seat == 2
    run(m, "2:Ks 3:Qs 0:Js; 1:Ad 2:Kd 3:Qd 0:Td; 1:Jh 2:Qh 3:Th 0:9h; 1:Jd 2:Tc 3:9c 0:Ts")
    assert [(s.points, s.reason) for s in of_type(m.last_announcements, HandScored)] == [((0, 2), "march")]
    assert m.deals[0].trick_winners == [1, 1, 1, 1, 1] and m.phase is Phase.HAND_OVER


@pytest.mark.parametrize(
    ("plays", "why"),
    [
        ("1:Kc 2:Ac 0:Jc; 1:As", "seat 1 does not hold the best card seen: it cannot have won"),
        ("1:Ac 2:Kc; 1:As", "two cards not seen: too little to go on"),
        ("1:Ac 2:Kc 0:Jc; 1:Ac", "the same card read again, not a new lead"),
        ("2:Kc 3:Qc 0:Jc; 2:As", "the trick's first card was not its leader's"),
    ],
)
def test_no_card_is_taken_for_unseen_without_the_evidence(plays: str, why: str) -> None:
    m = Match(NA)
    run(m, BID)
    out = run(m, plays)
    assert K.CARD_UNSEEN not in irregular(out), why
    assert m.deals[-1].trick_winners == [], why


def test_a_trick_closed_this_way_replays_from_the_log_and_from_egn() -> None:
    m = Match(NA)
    run(m, BID + "; 1:Ac 2:Kc 0:Jc; 1:As 2:Ks 3:Qs 0:Js")
    again = Match.replay(NA, m.history)
    assert again.view() == m.view()
    obj = export_egn(m)
    play = obj["deals"][0]["phases"][1]
    assert play["tricks"][0] == ["Ac", "Kc", "Jc", "Xx"] and play["playSeats"][0] == [1, 2, 0, 3]
    imported = replay_egn(loads_egn(dumps_egn(obj), "short-trick.egn")).match
    assert imported.deals[0].trick_winners == m.deals[0].trick_winners
    assert imported.deals[0].tricks == m.deals[0].tricks and imported.expected == m.expected
