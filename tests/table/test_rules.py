"""The rules record: presets, replace, dict round trip, and clear errors for bad or unsupported switches."""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

import pytest

from table.rules import (
    PRESETS,
    BennyTurnedUp,
    DefenderAlone,
    LonerLead,
    RenegePenalty,
    Rules,
    RulesError,
    UnsupportedRule,
)

RULES_MD_SWITCHES = {
    "deck_size", "target", "num_deals", "win_by_two", "stick_the_dealer", "dealer_partner_must_go_alone",
    "defender_may_go_alone", "lone_defender_scoring", "loner_lead", "loner_march_points", "loner_euchred_points",
    "super_euchre", "passed_player_may_not_go_alone", "natural_trump_to_pick_up", "dealer_may_discard_upcard",
    "no_trump", "farmers_hand", "call_for_best", "benny_turned_up", "renege_penalty", "blind_lone",
    "setback_scoring", "nines_and_tens",
}  # fmt: skip


def test_every_switch_is_a_field() -> None:
    assert {f.name for f in fields(Rules)} == RULES_MD_SWITCHES


def test_north_american_preset() -> None:
    r = Rules.preset("north_american")
    assert (r.deck_size, r.target, r.num_deals) == (24, 10, 0)
    assert r.defender_may_go_alone is DefenderAlone.NEVER
    assert r.loner_lead is LonerLead.LEFT_OF_DEALER
    assert r.dealer_may_discard_upcard and not r.stick_the_dealer and not r.has_benny
    assert r.renege_penalty is RenegePenalty.TWO_OR_FOUR


def test_british_preset() -> None:
    r = Rules.preset("british")
    assert (r.deck_size, r.target) == (25, 11) and r.has_benny
    assert r.dealer_partner_must_go_alone
    assert r.defender_may_go_alone is DefenderAlone.ALWAYS
    assert r.loner_lead is LonerLead.LEFT_OF_LONER
    assert r.benny_turned_up is BennyTurnedUp.DEALER_NAMES_BLIND
    assert PRESETS["british"] is r


def test_unknown_preset() -> None:
    with pytest.raises(RulesError, match="no preset 'euchre42'"):
        Rules.preset("euchre42")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_dict_round_trip_through_json(name: str) -> None:
    r = PRESETS[name]
    d = json.loads(json.dumps(r.to_dict()))
    assert d["loner_lead"] == r.loner_lead.value and d["loner_lead"].islower()
    assert Rules.from_dict(d) == r


def test_from_dict_partial_and_preset_base() -> None:
    r = Rules.from_dict({"preset": "british", "target": 15, "renege_penalty": "DEDUCT"})
    assert r.target == 15 and r.deck_size == 25 and r.renege_penalty is RenegePenalty.DEDUCT


def test_replace() -> None:
    r = Rules().replace(stick_the_dealer=True, super_euchre=True)
    assert r.stick_the_dealer and r.super_euchre and not Rules().stick_the_dealer


@pytest.mark.parametrize(
    ("d", "message"),
    [
        ({"stick_dealer": True}, "unknown switch 'stick_dealer'"),
        ({"loner_lead": "left_of_partner"}, "loner_lead cannot be 'left_of_partner'"),
        ({"deck_size": 52}, "deck_size 52"),
        ({"target": "ten"}, "target must be an integer"),
        ({"win_by_two": "yes"}, "win_by_two must be true or false"),
        ({"target": True}, "target must be an integer"),
        ({"target": -1}, "target must not be negative"),
        ({"target": 0, "num_deals": 0}, "never end"),
    ],
)
def test_bad_values_name_the_switch(d: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules.from_dict(d)


def test_replace_unknown_switch() -> None:
    with pytest.raises(RulesError, match="unknown switch 'nope'"):
        Rules().replace(nope=1)


def test_unsupported_switch_is_refused_by_name() -> None:
    with pytest.raises(UnsupportedRule, match="setback_scoring"):
        Rules(setback_scoring=True)
    with pytest.raises(UnsupportedRule, match="setback_scoring"):
        Rules.from_dict({"setback_scoring": True})
    assert issubclass(UnsupportedRule, RulesError) and issubclass(RulesError, ValueError)


def test_fixed_deals() -> None:
    r = Rules(target=0, num_deals=8)
    assert r.num_deals == 8
