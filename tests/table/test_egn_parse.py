"""EGN parsing and validation: rules mapping, card notation, and errors that name the file, the path and the problem."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from table.cards import BENNY, Card, Suit
from table.egn import EgnError, load_egn, parse_egn, parse_egn_card, rules_from_ruleset, ruleset_from_rules
from table.rules import DefenderAlone, LonerLead, Rules

DATA = Path(__file__).parent / "data" / "egn"


def minimal() -> dict[str, Any]:
    """A small valid game: one deal, dealer 0, seat 1 orders up hearts, two tricks played."""
    return {
        "fileType": "Euchre Game Notation",
        "version": "1.4",
        "metadata": {"initialScore": [0, 0], "ruleset": {"std": True, "canadian": False}},
        "deals": [
            {
                "dealNumber": 0,
                "initialState": {"dealer": 0, "upCard": "Th"},
                "phases": [
                    {"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": ["Order"], "isAlone": False},
                    {
                        "phaseNumber": 1,
                        "type": "TRICK_PLAY",
                        "tricks": [["Jh", "9h", "Ah", "Th"], ["Jd", "Qh", "Kh", "9s"]],
                    },
                ],
            }
        ],
    }


def test_minimal_game_parses() -> None:
    game = parse_egn(minimal(), "m.egn")
    (deal,) = game.deals
    assert deal.dealer == 0 and deal.up_card == Card.parse("Th")
    assert deal.calls == ["Order"] and deal.trump is Suit.HEARTS and deal.maker_call_index == 0
    assert deal.tricks[1][0] == Card.parse("Jd")
    assert game.rules.stick_the_dealer and game.rules.target == 10
    assert game.first_dealer == 0 and game.initial_score == (0, 0) and game.warnings == []


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.egn")))
def test_spec_examples_parse(name: str) -> None:
    game = load_egn(DATA / name)
    assert game.deals and game.warnings == []
    assert game.rules.stick_the_dealer  # all four examples set "std": true
    assert all(d.tricks for d in game.deals)


def _set(obj: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(obj)
    node: Any = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return out


TRICKS = ["deals", 0, "phases", 1, "tricks"]
BIDS = ["deals", 0, "phases", 0]


@pytest.mark.parametrize(
    ("path", "value", "where", "problem"),
    [
        (["fileType"], "Chess", "fileType", "not EGN"),
        (["fileType"], "Euchre Match Notation", "fileType", "EMN match file"),
        (["version"], "2.0", "version", "not supported"),
        (["deals"], None, "deals", "missing or not a list"),
        (["deals", 0], "AQIDBA", "deals[0]", "condensed"),
        (["deals", 0, "initialState", "dealer"], 4, "deals[0].initialState.dealer", "seat 0-3"),
        (["deals", 0, "initialState", "upCard"], "Xx", "deals[0].initialState.upCard", "deal with no phases"),
        (["deals", 0, "initialState", "upCard"], "B", "deals[0].initialState.upCard", "joker"),
        (["deals", 0, "phases", 0, "type"], "MISDEAL", "deals[0].phases[0].type", "unknown phase type"),
        (BIDS + ["calls"], ["Pass", "Bid3"], "deals[0].phases[0].calls[1]", "unknown call 'Bid3'"),
        (BIDS + ["calls"], ["Pass", "d"], "deals[0].phases[0].calls[1]", "round-2 call"),
        (BIDS + ["calls"], ["Pass"] * 4 + ["Order"], "deals[0].phases[0].calls[4]", "only round 1"),
        (BIDS + ["calls"], ["Order", "Pass"], "deals[0].phases[0].calls[1]", "after trump was already made"),
        (BIDS + ["calls"], ["Pass"] * 4 + ["n"], "deals[0].phases[0].calls[4]", "allow_no_trump"),
        (BIDS + ["calls"], ["Pass"] * 9, "deals[0].phases[0].calls", "at most 8"),
        (BIDS + ["isAlone"], "yes", "deals[0].phases[0].isAlone", "true or false"),
        (BIDS + ["aloneDefender"], 3, "deals[0].phases[0].aloneDefender", "makers' side"),
        (BIDS + ["discard"], "Qx", "deals[0].phases[0].discard", "unknown card"),
        (BIDS + ["callAnnotations"], {"a": ["x"]}, 'deals[0].phases[0].callAnnotations["a"]', "keys"),
        (TRICKS + [1, 1], "Xc", "deals[0].phases[1].tricks[1][1]", "unknown card (X)"),
        (TRICKS + [1, 3], "At", "deals[0].phases[1].tricks[1][3]", "generic suit"),
        (TRICKS + [0, 2], 7, "deals[0].phases[1].tricks[0][2]", "must be a string"),
        (TRICKS + [1], ["9c"] * 5, "deals[0].phases[1].tricks[1]", "only 4 players"),
        (TRICKS, [["9c"]] * 6, "deals[0].phases[1].tricks", "a hand has 5"),
        (["metadata", "initialScore"], [1], "metadata.initialScore", "two integers"),
        (["metadata", "players"], [1, 2], "metadata.players[0]", "name"),
        (["metadata", "ruleset", "fast_break"], True, "metadata.ruleset.fast_break", "changes the score"),
        (["metadata", "ruleset", "four_trick_tokens"], True, "metadata.ruleset.four_trick_tokens", "changes the"),
        (["metadata", "ruleset", "num_players"], 6, "metadata.ruleset.num_players", "4-player"),
        (["metadata", "ruleset", "winning_score"], 0, "metadata.ruleset", "never end"),
        (["metadata", "ruleset"], {"winning_score": 10, "num_deals": 8}, "metadata.ruleset", "both set"),
        (["metadata", "ruleset", "min_rank"], 6, "metadata.ruleset.min_rank", "no supported deck"),
        (["metadata", "ruleset", "loner_lead"], "ME", "metadata.ruleset.loner_lead", "LEFT_OF_LONER"),
        (["metadata", "ruleset", "std"], "yes", "metadata.ruleset.std", "true or false"),
        (["metadata", "ruleset", "win_by_two"], 3, "metadata.ruleset", "win_by_two"),
    ],
)
def test_malformed_files_name_file_path_and_problem(path: list[Any], value: Any, where: str, problem: str) -> None:
    with pytest.raises(EgnError) as info:
        parse_egn(_set(minimal(), path, value), "games/bad.egn")
    message = str(info.value)
    assert message.startswith(f"games/bad.egn: {where}:"), message
    assert problem in message


def test_trick_play_without_a_maker_is_refused() -> None:
    obj = _set(minimal(), BIDS + ["calls"], ["Pass"] * 8)
    with pytest.raises(EgnError, match=r"deals\[0\]\.phases\[1\]: cards were played but no one made trump"):
        parse_egn(obj, "x.egn")


def test_top_level_must_be_an_object() -> None:
    with pytest.raises(EgnError, match="^x.egn: not EGN"):
        parse_egn([1, 2], "x.egn")


def test_load_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(EgnError, match="nope.egn: no such file"):
        load_egn(tmp_path / "nope.egn")
    bad = tmp_path / "bad.egn"
    bad.write_text("{ not json", encoding="utf-8")
    with pytest.raises(EgnError, match="bad.egn: not JSON"):
        load_egn(bad)
    binary = tmp_path / "game.egnb"
    binary.write_bytes(b"\x01\xff\xfe\x00")
    with pytest.raises(EgnError, match="game.egnb: not a text file"):
        load_egn(binary)


# ---- card notation


@pytest.mark.parametrize(
    ("text", "trump", "card"),
    [
        ("9c", None, "9c"),
        ("Nc", None, "9c"),
        ("Ts", None, "Ts"),
        ("B", None, "B"),
        ("R", Suit.HEARTS, "Jh"),
        ("L", Suit.HEARTS, "Jd"),
        ("Rh", Suit.HEARTS, "Jh"),
        ("Lh", Suit.HEARTS, "Jd"),
        ("Ld", Suit.HEARTS, "Jd"),
        ("L", Suit.CLUBS, "Js"),
    ],
)
def test_card_notation(text: str, trump: Suit | None, card: str) -> None:
    assert parse_egn_card(text, trump) == Card.parse(card)


@pytest.mark.parametrize(
    ("text", "trump", "problem"),
    [
        ("Xc", Suit.HEARTS, "unknown card"),
        ("Jx", Suit.HEARTS, "unknown card"),
        ("Xx", None, "unknown card"),
        ("At", Suit.HEARTS, "generic suit"),
        ("Kn", Suit.HEARTS, "generic suit"),
        ("9g", Suit.HEARTS, "generic suit"),
        ("R", None, "trump is not known"),
        ("Rd", Suit.HEARTS, "does not name a bower"),
        ("Q", None, "not a card"),
        ("", None, "not a card"),
    ],
)
def test_card_notation_refused(text: str, trump: Suit | None, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        parse_egn_card(text, trump)


def test_h_is_always_hearts_never_the_generic_suit() -> None:
    assert parse_egn_card("Ah", Suit.SPADES) == Card.parse("Ah")


def test_bowers_in_tricks_use_the_trump_the_calls_made() -> None:
    obj = _set(minimal(), TRICKS + [1], ["L", "Qh", "Kh", "9s"])
    assert parse_egn(obj).deals[0].tricks[1][0] == Card.parse("Jd")


def test_benny_in_a_joker_deck() -> None:
    obj = _set(minimal(), ["metadata", "ruleset", "joker"], True)
    obj = _set(obj, TRICKS + [1, 0], "B")
    game = parse_egn(obj)
    assert game.rules.deck_size == 25 and game.deals[0].tricks[1][0] == BENNY


# ---- rules


def test_ruleset_mapping() -> None:
    rules, warnings = rules_from_ruleset(
        {
            "std": False,
            "canadian": True,
            "loner_lead": "LEFT_OF_LONER",
            "winning_score": 0,
            "num_deals": 8,
            "loner_march_score": 5,
            "loner_euchred_score": 4,
            "defend_alone": True,
            "min_rank": 7,
            "allow_no_trump": True,
            "fast_break": False,
            "mystery": 1,
        },
        source="r.egn",
    )
    assert not rules.stick_the_dealer and rules.dealer_partner_must_go_alone
    assert rules.loner_lead is LonerLead.LEFT_OF_LONER
    assert (rules.target, rules.num_deals) == (0, 8)
    assert (rules.loner_march_points, rules.loner_euchred_points) == (5, 4)
    assert rules.defender_may_go_alone is DefenderAlone.AGAINST_LONE_MAKER
    assert rules.deck_size == 32 and rules.no_trump
    assert warnings == ["r.egn: metadata.ruleset.mystery: unknown ruleset key, ignored"]


def test_ruleset_defaults_follow_the_spec() -> None:
    rules, warnings = rules_from_ruleset({})
    assert rules.stick_the_dealer  # "std" defaults to true in EGN 1.4
    assert rules.target == 10 and rules.num_deals == 0 and not warnings
    fixed, _ = rules_from_ruleset({"num_deals": 12})  # winning_score omitted: a fixed-deal game
    assert (fixed.target, fixed.num_deals) == (0, 12)
    explicit, _ = rules_from_ruleset({"std": True, "stick_the_dealer": False})
    assert not explicit.stick_the_dealer


@pytest.mark.parametrize(
    "rules",
    [
        Rules.preset("north_american"),
        Rules.preset("british"),
        Rules.preset("north_american").replace(target=0, num_deals=8, super_euchre=True),
        Rules.preset("north_american").replace(target=5, num_deals=12, win_by_two=True, deck_size=33),
        Rules.preset("north_american").replace(loner_march_points=5, farmers_hand=True, call_for_best=True),
    ],
)
def test_rules_round_trip_through_ruleset(rules: Rules) -> None:
    ruleset = json.loads(json.dumps(ruleset_from_rules(rules)))
    assert rules_from_ruleset(ruleset)[0] == rules


def test_exported_ruleset_uses_egn_keys_where_egn_has_them() -> None:
    ruleset = ruleset_from_rules(Rules.preset("north_american").replace(stick_the_dealer=True))
    assert ruleset == {"std": True, "canadian": False, "loner_lead": "LEFT_OF_DEALER", "winning_score": 10}
