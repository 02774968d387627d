"""The house rules of one table: a frozen record with named presets, every switch of RULES.md.

``Rules.preset("north_american")`` and ``Rules.preset("british")`` are the two
baselines; ``rules.replace(stick_the_dealer=True)`` makes a variant. Records
round-trip through JSON-friendly dicts (``to_dict``/``from_dict``; enums by
their lowercase value). A switch the engine cannot honour is refused by
``validate()`` with ``UnsupportedRule`` naming it, never silently ignored.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, fields
from typing import Any

from table.cards import DECK_SIZES

__all__ = [
    "PRESETS",
    "BennyTurnedUp",
    "DefenderAlone",
    "LoneDefenderScoring",
    "LonerLead",
    "RenegePenalty",
    "Rules",
    "RulesError",
    "UnsupportedRule",
]


class RulesError(ValueError):
    """A rules record or dict that names an unknown switch or a bad value."""


class UnsupportedRule(RulesError):
    """A switch the engine cannot honour yet; the message names it."""


class DefenderAlone(enum.Enum):
    """Whether a defender may go alone after trump is made."""

    NEVER = "never"
    AGAINST_LONE_MAKER = "against_lone_maker"
    ALWAYS = "always"  # "any player may go alone" (British): the maker's partner too


class LoneDefenderScoring(enum.Enum):
    """What a lone defender scores for a euchre."""

    FOUR_FOR_THREE_PLUS = "four_for_three_plus"  # 4 for 3 or more tricks
    TWO_OR_FOUR_FOR_MARCH = "two_or_four_for_march"  # 2 for 3-4 tricks, 4 for all 5


class LonerLead(enum.Enum):
    """Who leads the first trick when someone is alone (EGN ``loner_lead``)."""

    LEFT_OF_DEALER = "left_of_dealer"  # the first active player left of the dealer
    LEFT_OF_LONER = "left_of_loner"  # left of the loner; of two loners, the defender leads


class BennyTurnedUp(enum.Enum):
    """What happens when the Benny is the up-card."""

    DEALER_NAMES_BLIND = "dealer_names_blind"  # dealer's side make trump, named before looking
    SET_ASIDE = "set_aside"  # the Benny is put aside and the next card is turned up


class RenegePenalty(enum.Enum):
    """The penalty for a proven renege once the table accepts it."""

    TWO_OR_FOUR = "two_or_four"  # hand ends; non-offenders score 2, or 4 if anyone was alone
    REPLAY = "replay"  # hand voided; the same dealer deals again
    DEDUCT = "deduct"  # hand ends; offenders lose 2


_ENUMS: dict[str, type[enum.Enum]] = {
    "defender_may_go_alone": DefenderAlone,
    "lone_defender_scoring": LoneDefenderScoring,
    "loner_lead": LonerLead,
    "benny_turned_up": BennyTurnedUp,
    "renege_penalty": RenegePenalty,
}

# Switches the engine does not honour yet: validate() refuses them when switched on, saying why.
UNSUPPORTED_SWITCHES: dict[str, str] = {
    "setback_scoring": (
        'setback scoring ("Robson rules": after a 2- or 4-point win a side may take the points off the '
        "opponents' score instead of adding to its own) needs that choice made at the table after each such "
        "hand, and no input records it yet"
    ),
}


@dataclass(frozen=True)
class Rules:
    """One table's rules. Defaults are the North American baseline."""

    deck_size: int = 24
    target: int = 10  # 0: play num_deals deals
    num_deals: int = 0  # 0: play to the target
    win_by_two: bool = False
    stick_the_dealer: bool = False
    dealer_partner_must_go_alone: bool = False  # "Canadian loner"
    defender_may_go_alone: DefenderAlone = DefenderAlone.NEVER
    lone_defender_scoring: LoneDefenderScoring = LoneDefenderScoring.FOUR_FOR_THREE_PLUS
    loner_lead: LonerLead = LonerLead.LEFT_OF_DEALER
    loner_march_points: int = 4
    loner_euchred_points: int = 2
    super_euchre: bool = False
    passed_player_may_not_go_alone: bool = False
    natural_trump_to_pick_up: bool = False
    dealer_may_discard_upcard: bool = True
    no_trump: bool = False
    farmers_hand: bool = False
    call_for_best: bool = False
    benny_turned_up: BennyTurnedUp = BennyTurnedUp.DEALER_NAMES_BLIND
    renege_penalty: RenegePenalty = RenegePenalty.TWO_OR_FOUR
    blind_lone: bool = False
    setback_scoring: bool = False
    nines_and_tens: bool = False  # a hand of only 9s and 10s: swap with the kitty (Exchange) or redeal (Misdeal)

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Raise ``RulesError`` for a bad value, ``UnsupportedRule`` for a switch the engine cannot honour."""
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in _ENUMS:
                if not isinstance(value, _ENUMS[f.name]):
                    raise RulesError(f"rules: {f.name} must be a {_ENUMS[f.name].__name__}, not {value!r}")
            elif f.type in ("int", int):
                if not isinstance(value, int) or isinstance(value, bool):
                    raise RulesError(f"rules: {f.name} must be an integer, not {value!r}")
            elif not isinstance(value, bool):
                raise RulesError(f"rules: {f.name} must be true or false, not {value!r}")
        if self.deck_size not in DECK_SIZES:
            raise RulesError(f"rules: deck_size {self.deck_size} is not a deck (one of {DECK_SIZES})")
        for name in ("target", "num_deals", "loner_march_points", "loner_euchred_points"):
            if getattr(self, name) < 0:
                raise RulesError(f"rules: {name} must not be negative, not {getattr(self, name)}")
        if self.target == 0 and self.num_deals == 0:
            raise RulesError("rules: target and num_deals are both 0: the game would never end")
        for name, why in UNSUPPORTED_SWITCHES.items():
            if getattr(self, name):
                raise UnsupportedRule(f"rules: {name} is not supported by this engine yet: {why}")

    @property
    def has_benny(self) -> bool:
        return self.deck_size in (25, 33)

    @classmethod
    def preset(cls, name: str) -> Rules:
        """A named preset: ``"north_american"`` or ``"british"``."""
        try:
            return PRESETS[name]
        except KeyError:
            raise RulesError(f"rules: no preset {name!r} (known: {', '.join(sorted(PRESETS))})") from None

    def replace(self, **changes: Any) -> Rules:
        """A copy with some switches changed (validated); unknown names raise ``RulesError``."""
        known = {f.name for f in fields(self)}
        for name in changes:
            if name not in known:
                raise RulesError(f"rules: unknown switch {name!r}")
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly: enums by their lowercase value."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = value.value if isinstance(value, enum.Enum) else value
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any], base: Rules | None = None) -> Rules:
        """Build from a dict like ``to_dict``'s; missing switches come from ``base`` (default: the defaults).

        A ``"preset"`` key picks the base by name.
        """
        if not isinstance(d, dict):
            raise RulesError(f"rules: expected a mapping of switches, not {type(d).__name__}")
        d = dict(d)
        if "preset" in d:
            base = cls.preset(str(d.pop("preset")))
        known = {f.name for f in fields(cls)}
        changes: dict[str, Any] = {}
        for name, raw in d.items():
            if name not in known:
                raise RulesError(f"rules: unknown switch {name!r}")
            if name in _ENUMS:
                enum_cls = _ENUMS[name]
                try:
                    changes[name] = enum_cls(str(raw).lower())
                except ValueError:
                    choices = ", ".join(str(m.value) for m in enum_cls)
                    raise RulesError(f"rules: {name} cannot be {raw!r} (one of {choices})") from None
            else:
                changes[name] = raw
        return dataclasses.replace(base if base is not None else cls(), **changes)


PRESETS: dict[str, Rules] = {
    "north_american": Rules(),
    "british": Rules(
        deck_size=25,
        target=11,
        dealer_partner_must_go_alone=True,
        defender_may_go_alone=DefenderAlone.ALWAYS,
        lone_defender_scoring=LoneDefenderScoring.FOUR_FOR_THREE_PLUS,
        loner_lead=LonerLead.LEFT_OF_LONER,
        benny_turned_up=BennyTurnedUp.DEALER_NAMES_BLIND,
    ),
}
