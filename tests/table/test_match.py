"""The match as a fold: undo and revise rebuild it, replay reproduces it, the view and records are plain data."""

from __future__ import annotations

import json

from engine_script import MARCH_PLAY, irregular, of_type, run, tricks_script

from table.announcements import Expect, Prompt, RenegeProven, TrickWon
from table.cards import Card, Suit
from table.deal import DealRecord
from table.inputs import NewGame, Pass, Play, ReviseCard, Undo, UpCard
from table.match import Match, Phase
from table.rules import Rules
from table.view import MatchView

NA = Rules.preset("north_american")
FULL_HAND = "up 9h; 1 pass; 2 pass; 3 pass; 0 order; 0 discard 9c; " + MARCH_PLAY


def c(text: str) -> Card:
    return Card.parse(text)


def test_apply_returns_announcements_ending_with_the_prompt() -> None:
    m = Match(NA)
    out = m.apply(UpCard(c("9h")))
    assert out == [Prompt(1, Expect.BID_ROUND_1, up_card=c("9h"))] and m.last_announcements == tuple(out)


def test_replay_reproduces_the_state() -> None:
    m = Match(NA, first_dealer=0)
    run(m, FULL_HAND + "; up Ts; 2 pass")
    r = Match.replay(NA, m.history)
    assert r.deals == m.deals and r.score == m.score and r.expected == m.expected and r.phase is m.phase


def test_undo_removes_the_last_effective_input() -> None:
    m = Match(NA)
    run(m, "up 9h; 1 pass; 2 order")
    run(m, "undo")
    assert m.phase is Phase.BID_ROUND_1 and m.expected.seat == 2
    assert len(m.history) == 4 and isinstance(m.history[-1], Undo)
    run(m, "undo")  # the pass
    assert m.expected.seat == 1
    run(m, "undo; undo")  # the up-card, then nothing left: harmless
    assert m.phase is Phase.UP_CARD and m.deals == []
    assert m.effective_inputs == ()


def test_undo_of_the_last_card_of_a_hand_unscores_it() -> None:
    m = Match(NA)
    run(m, FULL_HAND)
    assert m.score == (2, 0) and m.dealer == 1
    run(m, "undo")
    assert m.score == (0, 0) and m.dealer == 0 and m.phase is Phase.PLAY and m.expected.seat == 3
    run(m, "3:Ad")
    assert m.score == (2, 0)


def test_undo_then_new_input_then_replay_agree() -> None:
    m = Match(NA)
    run(m, "up 9h; 1 pass; undo; 1 order; 0 discard ?; play Ah")
    r = Match.replay(NA, m.history)
    assert r.deals == m.deals and r.expected == m.expected == Prompt(2, Expect.FOLLOW, suit=Suit.HEARTS)


def test_revise_changes_the_trick_winner() -> None:
    m = Match(NA)
    run(m, "up 9h; 1 order; 0 discard ?; 1:Ah 2:Kh 3:Qh 0:Th")
    assert m.deals[0].trick_winners == [1]
    index = m.history.index(Play(0, c("Th")))
    out = m.apply(ReviseCard(index, c("Jh")))  # it was the right bower
    assert m.deals[0].trick_winners == [0]
    assert of_type(out, TrickWon) == [TrickWon(0, c("Jh"), 0)]  # only what changed is announced
    assert m.expected.seat == 0
    run(m, "undo")  # undo takes back the revision
    assert m.deals[0].trick_winners == [1]


def test_revise_an_undone_input_changes_nothing() -> None:
    m = Match(NA)
    run(m, "up 9h; 1 order; 0 discard ?; 1:Ah; undo")
    before = m.deals
    run(m, "revise 3 Kh")  # input 3 was the undone play
    assert m.deals == before


def test_revise_the_up_card() -> None:
    m = Match(NA)
    run(m, "up 9d~0.4; 1 order")
    assert m.deals[0].trump is Suit.DIAMONDS
    run(m, "revise 0 9h")
    assert m.deals[0].trump is Suit.HEARTS and m.deals[0].up_card == c("9h")


def test_new_game_resets_score_and_dealer() -> None:
    m = Match(NA)
    run(m, FULL_HAND)
    m.apply(NewGame(first_dealer=3, score=(4, 5)))
    assert m.score == (4, 5) and m.dealer == 3 and m.deals == [] and m.phase is Phase.UP_CARD
    assert Match.replay(NA, m.history).score == (4, 5)


def test_new_game_after_game_over() -> None:
    m = Match(NA, score=(9, 0))
    run(m, FULL_HAND)
    assert m.game_over and m.expected == Prompt(None, Expect.NEW_GAME)
    m.apply(NewGame())
    assert not m.game_over and m.winner is None and m.expected == Prompt(0, Expect.UP_CARD)


def test_deal_record_fields_and_json() -> None:
    m = Match(NA)
    run(m, FULL_HAND)
    rec = m.deals[0]
    assert isinstance(rec, DealRecord)
    assert (rec.dealer, rec.up_card, rec.trump, rec.maker_seat, rec.alone_seats) == (0, c("9h"), Suit.HEARTS, 0, ())
    assert rec.discard == c("9c") and rec.calls == [Pass(1), Pass(2), Pass(3), rec.calls[3]]
    assert rec.points == (2, 0) and rec.tricks_won == (5, 0) and rec.finished and not rec.thrown_in
    assert rec.reneges == [] and rec.irregularities == []
    j = json.loads(json.dumps(rec.to_json()))
    assert j["trump"] == "h" and j["trick_winners"] == [0] * 5 and j["points"] == [2, 0] and j["maker_seat"] == 0


def test_renege_record_in_json() -> None:
    m = Match(NA)
    run(m, "up 9h; 1 order; 0 discard ?; 1:As 2:Ac 3:Ad 0:Jh; 0:Kc 1:9c 2:Qs")
    j = m.deals[0].to_json()
    assert j["reneges"] == [
        {
            "seat": 2,
            "suit": "s",
            "showed_out_trick": 0,
            "showed_out_card": "Ac",
            "led_card": "As",
            "proof_trick": 1,
            "proof_card": "Qs",
            "proof": "played",
        }
    ]


def test_view_is_a_plain_snapshot() -> None:
    m = Match(NA)
    run(m, "up 9h; 1 order alone; 0 discard ?; 1:Ah 2:Kh")
    v = m.view()
    assert isinstance(v, MatchView)
    assert v.phase is Phase.PLAY and v.trump is Suit.HEARTS and v.maker_seat == 1 and v.makers == 1
    assert v.alone_seats == (1,) and v.current_trick == ((1, c("Ah")), (2, c("Kh")))
    assert v.expected == Prompt(0, Expect.FOLLOW, suit=Suit.HEARTS) and v.up_card == c("9h")
    assert v.score == (0, 0) and v.target == 10 and v.history == () and v.pending_renege is None
    assert v.may_go_alone == ()  # the lead has been played
    run(m, "0:Qh")
    assert m.view().tricks_won == (0, 1) and m.view().current_trick == ()
    hash(m.view().expected)  # the parts are frozen values


def test_view_says_who_may_still_go_alone() -> None:
    m = Match(Rules.preset("british"))
    run(m, "up 9h; 1 pass; 2 pass; 3 order; 0 discard ?")
    assert m.view().may_go_alone == (0, 1, 2, 3)  # any player, before the lead
    run(m, "2 alone")
    assert m.view().may_go_alone == (1, 3)  # seat 0 now sits out
    m = Match(NA)
    run(m, "up 9h; 1 pass; 2 order")
    assert m.view().may_go_alone == (2,)  # only the maker


def test_view_history_rows() -> None:
    m = Match(NA)
    run(m, FULL_HAND)
    run(m, "up 9s" + "; 2 pass; 3 pass; 0 pass; 1 pass" * 2)
    rows = m.view().history
    assert [(r.dealer, r.points, r.reason, r.score_after) for r in rows] == [
        (0, (2, 0), "march", (2, 0)),
        (1, (0, 0), "thrown_in", (2, 0)),
    ]


def test_a_whole_game_of_marches() -> None:
    m = Match(NA)
    for hand in range(5):
        dealer = m.dealer
        assert dealer == hand % 4
        order = [(dealer + k) % 4 for k in range(1, 5)]
        bids = "".join(f"{s} pass; " for s in order[: order.index(0)]) + "0 order"
        out = run(m, f"up Kh; {bids}; {dealer} discard Kh")
        assert m.expected.seat is not None
        out += run(m, tricks_script(m.expected.seat, [0] * 5))
        assert irregular(out) == [] and not of_type(out, RenegeProven), out
        assert m.score == (2 * (hand + 1), 0)
    assert m.game_over and m.winner == 0 and m.phase is Phase.GAME_OVER
