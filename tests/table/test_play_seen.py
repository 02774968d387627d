"""``Match.play_seen``: which camera-seen cards are new plays (one rule for the app and the simulated table)."""

from __future__ import annotations

from engine_script import run

from table.cards import Card
from table.inputs import Pass, Play, ReviseCard, UpCard
from table.match import Match
from table.rules import Rules

NA = Rules.preset("north_american")
BID = "up Kh; 1 order; 0 discard ?"  # hearts trump, dealer 0: seat 1 leads
C = Card.parse


def test_a_card_at_a_seat_is_that_seats_play_unless_it_already_holds_it() -> None:
    m = Match(NA)
    run(m, BID + "; 1:Ac")
    assert m.play_seen(C("Kc"), 0.9, 2) == Play(2, C("Kc"), 0.9)
    assert m.play_seen(C("Ac"), 0.9, 1) is None  # seat 1's ace seen again
    assert m.play_seen(C("Ac"), 0.9, 3) == Play(3, C("Ac"), 0.9)  # at another seat: the engine judges it


def test_in_the_pile_a_card_played_this_deal_is_seen_again_not_played() -> None:
    m = Match(NA)
    run(m, BID + "; 1:Ac 2:Kc")
    assert m.play_seen(C("Kc"), 0.9, None, pile=True) is None  # pushed into the pile
    assert m.play_seen(C("Kc"), 0.9, 3, pile=True) is None  # whoever the tracker took it for
    assert m.play_seen(C("Qc"), 0.9, None, pile=True) == Play(3, C("Qc"), 0.9)  # the next player's
    assert m.play_seen(C("Qc"), 0.9, 0, pile=True) == Play(0, C("Qc"), 0.9)


def test_the_last_hands_cards_count_until_the_next_up_card() -> None:
    m = Match(NA)
    run(m, BID + "; 1:Ac 2:Kc 3:Qc 0:Jc; 1:As 2:Ks 3:Qs 0:Js; 1:Ad 2:Kd 3:Qd 0:Td; 1:Jh 2:Qh 3:Th 0:9h")
    run(m, "1:Jd 2:Tc 3:9c 0:Ts")
    assert m.deals[-1].finished
    assert m.play_seen(C("Ts"), 0.9, 0) is None
    assert m.play_seen(C("Jd"), 0.9, None, pile=True) is None
    run(m, "up 9d")
    assert m.play_seen(C("Ts"), 0.9, 0) == Play(0, C("Ts"), 0.9)  # a new deal: a new card


def test_no_seat_and_nobody_due_is_nothing() -> None:
    m = Match(NA.replace(target=1))
    run(m, BID + "; 1:Ac 2:Kc 3:Qc 0:Jc; 1:As 2:Ks 3:Qs 0:Js; 1:Ad 2:Kd 3:Qd 0:Td; 1:Jh 2:Qh 3:Th 0:9h")
    run(m, "1:Jd 2:Tc 3:9c 0:Ts")
    assert m.game_over and m.expected.seat is None
    assert m.play_seen(C("9s"), 0.9, None, pile=True) is None


def test_a_sure_reading_of_an_unseen_card_corrects_a_seats_duplicate_in_the_trick_being_played() -> None:
    m = Match(NA)
    run(m, BID + "; 1:Ac 2:Kc 3:Qc 0:Jc; 1:As 2:Ac")  # seat 2's Ac: seat 1 played it in trick 1, a misread
    assert m.misread_corrected(C("Ks"), 0.9, 2) == C("Ac")
    assert m.misread_corrected(C("Ks"), 0.5, 2) is None  # not sure enough
    assert m.misread_corrected(C("Kc"), 0.9, 2) is None  # a card already played corrects nothing
    assert m.misread_corrected(C("Ks"), 0.9, 1) is None  # seat 1's As is no duplicate
    assert m.misread_corrected(C("Ks"), 0.9, 3) is None  # seat 3 has not played to this trick
    # Revised, the hand is in order again: seat 2 played the king, and nobody played twice.
    m.apply(ReviseCard(len(m) - 1, C("Ks")))
    assert m.view().current_trick == ((1, C("As")), (2, C("Ks")))
    assert m.misread_corrected(C("Qs"), 0.9, 2) is None


def test_a_duplicate_in_a_trick_already_won_is_not_corrected() -> None:
    m = Match(NA)
    run(m, BID + "; 1:Ac 2:Kc 3:Qc 0:Ac")  # the trick closed on the duplicate
    assert m.misread_corrected(C("Js"), 0.9, 0) is None


def test_before_anyone_bids_a_surer_reading_of_another_card_on_the_kitty_corrects_the_up_card() -> None:
    m = Match(NA)
    m.apply(UpCard(C("Jc"), 0.66))  # the face-down deck read as a jack of clubs while it was dealt
    assert m.up_card_revised(C("Ts"), 0.5) is None  # not sure
    assert m.up_card_revised(C("Ts"), 0.65) is None  # no surer than the reading it would replace
    assert m.up_card_revised(C("Jc"), 0.99) is None  # the up-card itself
    assert m.up_card_revised(C("7s"), 0.99) is None  # not a card of this deck
    index = m.up_card_revised(C("Ts"), 0.99)
    assert index == 0
    m.apply(ReviseCard(index, C("Ts")))
    assert m.deals[-1].up_card == C("Ts")
    assert m.up_card_revised(C("9s"), 0.999) is None  # a revised up-card is not revised again
    # Once a bid is made the up-card stands.
    m = Match(NA)
    m.apply(UpCard(C("Jc"), 0.66))
    m.apply(Pass(1))
    assert m.up_card_revised(C("Ts"), 0.99) is None


def test_the_last_play_lifted_while_its_trick_is_open_was_taken_back() -> None:
    m = Match(NA)
    run(m, BID + "; 1:Ac 2:Kc")
    assert m.taken_back(C("Kc"), 2) and m.taken_back(C("Kc"), None)  # from its seat, or from the trick pile
    assert not m.taken_back(C("Kc"), 3)  # not from another seat
    assert not m.taken_back(C("Ac"), 1)  # not the last play
    run(m, "3:Qc 0:Jc; 1:As")
    assert m.taken_back(C("As"), 1)
    m = Match(NA)
    run(m, "up Kh; 1 pass")
    assert not m.taken_back(C("Kh"), None)  # no play at all


def test_the_cards_played_this_deal_for_the_tracker_last_until_the_next_up_card() -> None:
    m = Match(NA)
    assert m.played_this_deal == ()
    run(m, BID + "; 1:Ac 2:Kc 3:Qc 0:Jc; 1:As")
    assert m.played_this_deal == ((1, C("Ac")), (2, C("Kc")), (3, C("Qc")), (0, C("Jc")), (1, C("As")))
    run(m, "2:Ks 3:Qs 0:Js; 1:Ad 2:Kd 3:Qd 0:Td; 1:Jh 2:Qh 3:Th 0:9h; 1:Jd 2:Tc 3:9c 0:Ts")
    assert len(m.played_this_deal) == 20 and m.deals[-1].finished  # the last trick may still lie there
    run(m, "up 9d")
    assert m.played_this_deal == ()


def test_a_reading_to_check_of_a_card_already_played_is_played_as_its_rival() -> None:
    m = Match(NA)
    run(m, BID + "; 1:Ks")
    # Seat 2's king read to be checked as the king of spades, seat 1's card: the reader's rival, unseen, stands.
    assert m.play_seen(C("Ks"), 0.5, 2, rival=C("Kd")) == Play(2, C("Kd"), 0.5, C("Ks"))
    assert m.play_seen(C("Ks"), 0.9, 2, rival=C("Kd")) == Play(2, C("Ks"), 0.9)  # a sure reading: the engine judges
    assert m.play_seen(C("Ks"), 0.5, 2) == Play(2, C("Ks"), 0.5)  # no rival to take
    assert m.play_seen(C("Qs"), 0.5, 2, rival=C("Qd")) == Play(2, C("Qs"), 0.5, C("Qd"))  # not played: as read
    run(m, "2:Kd")
    assert m.play_seen(C("Ks"), 0.5, 3, rival=C("Kd")) == Play(3, C("Ks"), 0.5, C("Kd"))  # the rival is out too


def test_a_sure_reading_of_a_card_an_earlier_check_was_read_as_revises_that_check_to_its_rival() -> None:
    m = Match(NA)
    run(m, BID)
    m.apply(Play(1, C("Ks"), 0.5, C("Kd")))  # seat 1's king of diamonds, read to be checked as the king of spades
    checked = len(m) - 1
    run(m, "2:9s")
    assert m.doubted_duplicate(C("Ks"), 0.9, 3) == (checked, C("Kd"))
    assert m.doubted_duplicate(C("Ks"), 0.5, 3) is None  # not sure: which reading is wrong is not known
    assert m.doubted_duplicate(C("Ks"), 0.9, 1) is None  # seat 1's own card seen again
    assert m.doubted_duplicate(C("Qs"), 0.9, 3) is None  # no earlier play of it
    m.apply(ReviseCard(checked, C("Kd")))
    m.apply(Play(3, C("Ks"), 0.9))
    assert m.view().current_trick == ((1, C("Kd")), (2, C("9s")), (3, C("Ks")))
    assert m.doubted_duplicate(C("Kd"), 0.9, 0) is None  # revised: the card the table now holds there


def test_an_earlier_check_whose_rival_is_out_or_that_was_sure_is_not_revised() -> None:
    m = Match(NA)
    run(m, BID + "; 1:Kd")
    m.apply(Play(2, C("Ks"), 0.5, C("Kd")))  # its rival already played: no other card to take it for
    assert m.doubted_duplicate(C("Ks"), 0.9, 3) is None
    m = Match(NA)
    run(m, BID + "; 1:Ks")  # a sure reading: the later one is the duplicate
    assert m.doubted_duplicate(C("Ks"), 0.9, 2) is None


def test_a_reading_to_check_of_the_up_card_is_played_as_its_rival_unless_the_dealer_took_it_up() -> None:
    m = Match(NA)
    run(m, "up Kh; 1 pass; 2 pass; 3 pass; 0 pass; 1 name s")  # the king of hearts turned down: spades trump
    assert m.play_seen(C("Kh"), 0.5, 1, rival=C("Kd")) == Play(1, C("Kd"), 0.5, C("Kh"))
    m = Match(NA)
    run(m, BID + "; 1:As 2:9s 3:Ts")  # the dealer took the king of hearts up
    assert m.play_seen(C("Kh"), 0.5, 0, rival=C("Kd")) == Play(0, C("Kh"), 0.5, C("Kd"))  # the dealer's to play


def test_two_readings_to_check_of_one_card_leave_both_as_read() -> None:
    """Which of two unsure readings of one card is wrong is not known: the second is played as read."""
    m = Match(NA)
    run(m, BID)
    m.apply(Play(1, C("Ks"), 0.5, C("Kd")))
    assert m.play_seen(C("Ks"), 0.5, 2, rival=C("Kd")) == Play(2, C("Ks"), 0.5, C("Kd"))
    m = Match(NA)
    m.apply(UpCard(C("Kh"), 0.5))  # the up-card itself read unsurely
    run(m, "1 pass; 2 pass; 3 pass; 0 pass; 1 name s")
    assert m.play_seen(C("Kh"), 0.5, 1, rival=C("Kd")) == Play(1, C("Kh"), 0.5, C("Kd"))
