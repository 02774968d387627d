"""The simulator's optional declarations (``BiddingOdds.blind_lone``, ``benny_up``) score as the engine does."""

from __future__ import annotations

import random

from table.announcements import HandScored
from table.cards import Rank
from table.inputs import GoAlone, UpCard
from table.match import Match
from table.rules import Rules
from table.sim import BiddingOdds, simulate_deal

ROBSON = Rules.preset("british").replace(blind_lone=True, super_euchre=True)


def test_blind_lones_and_turned_up_bennies_score_as_the_engine_scores_them() -> None:
    odds = BiddingOdds(blind_lone=1.0, benny_up=0.3)
    rng = random.Random(5)
    blind = benny = 0
    for n in range(400):
        d = simulate_deal(ROBSON, rng, n % 4, number=n, odds=odds)
        m = Match(ROBSON, n % 4)
        scored = [a for x in d.inputs for a in m.apply(x) if isinstance(a, HandScored)]
        assert (scored[-1].points if scored else (0, 0)) == d.points, d
        first_bid = next((x for x in d.inputs if not isinstance(x, UpCard)), None)
        if isinstance(first_bid, GoAlone):
            blind += 1
            assert d.up_card.rank is Rank.JACK and d.maker_seat == d.dealer and d.alone_seats[0] == d.dealer
            assert d.reason in ("blind_lone", "blind_lone_euchre", "lone_defender", "renege")
        benny += d.up_card.is_benny
    assert blind >= 20 and 90 <= benny <= 150  # every jack turned up, and the Benny about 30% of the time


def test_off_by_default_so_a_seed_deals_as_it_always_did() -> None:
    a = [simulate_deal(ROBSON, random.Random(s), 0) for s in range(50)]
    b = [simulate_deal(ROBSON, random.Random(s), 0, odds=BiddingOdds(blind_lone=0.0, benny_up=0.0)) for s in range(50)]
    assert a == b
    assert not any(isinstance(next(x for x in d.inputs if not isinstance(x, UpCard)), GoAlone) for d in a)
