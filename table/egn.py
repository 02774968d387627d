"""EGN 1.4 (Euchre Game Notation) import and export: files in, engine inputs out, and a match back to EGN.

This module is the public face; the work is in :mod:`table.egn_read` (parse, load, replay),
:mod:`table.egn_write` (export) and :mod:`table.egn_common` (what both share).

Import is two steps. :func:`parse_egn` checks the JSON against the spec and
turns it into plain records (rules, deals, calls, cards, annotations); any
problem raises :class:`EgnError` naming the file, the JSON path
(``deals[2].phases[1].tricks[3][1]``) and what is wrong. :func:`replay_egn`
then feeds each deal to the engine as inputs; the seat of every card comes
from the engine's ``expected.seat``, exactly as EGN's "deterministic
minimalism" intends (the file never says who played a card).

Decisions where the spec leaves room (kept here so readers and writers agree):

- **ruleset**: ``std`` (default true, per the spec) is stick-the-dealer unless a
  ``stick_the_dealer`` key says otherwise; ``canadian`` is
  ``dealer_partner_must_go_alone``; ``loner_lead``; ``winning_score`` (default
  10) and ``num_deals`` (``winning_score`` 0 or omitted with ``num_deals`` N =
  N fixed deals; both set, or neither, is an error); ``loner_march_score``,
  ``loner_euchred_score``; ``defend_alone`` = a defender may go alone against a
  lone maker and scores 4 for 3 or more tricks; ``min_rank`` 9/8/7 and
  ``joker`` pick the deck; ``allow_no_trump``; ``farmers`` and ``go_under``
  (both the farmer's hand swap), ``partners_best`` (call for best);
  ``num_players`` must be 4. ``fast_break`` and ``four_trick_tokens`` change
  the score and this engine does not play them: true is an error, false is
  fine. Any key that is a field of :class:`table.rules.Rules`
  (``win_by_two``, ``super_euchre``...) sets that switch: this is how an
  exported file carries rules EGN has no key for, and it wins over the EGN
  keys. Any other key is unknown: a warning, never an error (it cannot be
  scored, but the rest of the game can).
- **calls**: ``"Pass"``; in round 1 ``"Order"`` (also ``"PickUp"``,
  ``"Call"``, ``"Assist"``; ``"Alone"`` = order up alone); in round 2 a suit
  letter (``"n"`` = no trump where allowed). ``isAlone`` means the maker went
  alone, ``aloneDefender`` (seat, -1 = none) that a defender did.
- **cards**: ``9c``/``Nc``, ``B`` for the Benny, ``R``/``L`` (or ``Rh``/``Lh``
  naming the trump suit) for the bowers once trump is known. Partly known
  cards (``Xc``, ``Jx``) and generic suits (``t``, ``n``, ``g``; ``h`` always
  means hearts) are refused: a card the engine cannot identify cannot be
  scored. The wholly unknown card ``Xx`` is read in two places only, where
  the companion saw that a card was there but never read it: as the
  ``upCard`` of a deal with no phases (a deal the table played while the
  camera missed its up-card: recorded, not scored, and the rotation moves on
  past it), and in a trick, with ``playSeats`` saying whose it was (the trick
  its winner's next lead closed; the replay skips the card, as the engine
  never had it).
- **discard**: when the dealer took up, a Discard input with the card, or
  ``None`` when not recorded (an unseen discard still opens the play). A
  discard next to the dealer's partner going alone means the partner declared
  alone after the discard, and is replayed in that order.
- **annotations** are commentary and are kept as they are; the engine decides
  reneges itself from the cards. Export writes each proven renege and each
  irregularity as a ``playAnnotations`` entry at the card that proved it.
- **a misdeal**: EGN lets annotations record "events like reneges or misdeals"
  but gives them no fixed form. Here an annotation of a deal (bidding or play,
  any index) whose text, after an optional label tag, begins with the word
  ``Misdeal`` marks the deal void: what it records is replayed, then a
  ``Misdeal`` input; it scores nothing and the same dealer deals the next deal.
  ``Misdeal (nines and tens, seat 2)`` is a redeal claimed for seat 2's hand of
  nines and tens. Export writes ``[?]Misdeal: seat 0's deal is void; seat 0
  deals again`` (with the claim in brackets after ``Misdeal``) at the last call
  or card before it. A deal that was played out or thrown in stays as played
  (EGN's replayer notes call a hand everyone passed a "misdeal/all-pass").
- **a proven renege**: the engine waits for the table's decision. A file this
  module wrote says ``penalty accepted`` in the renege annotation; any other
  file played on, which is a dismissal (that is what every other EGN
  replayer scores).
- **dealer**: each deal's ``initialState.dealer`` must be the dealer the
  rotation gives: the next seat, or the same seat again after a misdeal (a deal
  not seen counts in the rotation). EGN has no notation for a deal out of turn,
  so any other dealer is an error.
- **game over**: deals after the game is won are not replayed (a warning);
  ``metadata.finalScore``, when present, is checked against the replay.
- **extensions** this module writes only where plain EGN cannot say what the
  table did, and reads back (other readers ignore them): ``callSeats`` (a bid
  out of turn), ``aloneSeats`` (lone players other than the maker and one
  defender, in order), ``unseenExchanges`` (call for best, farmer's hand) in
  the bidding phase; ``playSeats`` (a card out of turn, or one not seen) in the trick play;
  ``setAside`` (Bennies turned up and put aside before the up-card) in
  ``initialState``; ``blindLone`` (the dealer alone on a turned-up jack
  before looking, Robson rules) in the bidding phase.
"""

from __future__ import annotations

from table.egn_common import (
    EGN_FILE_TYPE,
    EGN_VERSION,
    EgnDeal,
    EgnError,
    EgnGame,
    misdeal_in_note,
    misdeal_note,
    rules_from_ruleset,
    ruleset_from_rules,
)
from table.egn_read import (
    MAX_EGN_BYTES,
    EgnReplay,
    import_egn,
    load_egn,
    loads_egn,
    parse_egn,
    parse_egn_card,
    replay_egn,
)
from table.egn_write import dumps_egn, export_egn, renege_note

__all__ = [
    "EGN_FILE_TYPE",
    "EGN_VERSION",
    "EgnDeal",
    "EgnError",
    "EgnGame",
    "EgnReplay",
    "MAX_EGN_BYTES",
    "dumps_egn",
    "export_egn",
    "import_egn",
    "load_egn",
    "loads_egn",
    "misdeal_in_note",
    "misdeal_note",
    "parse_egn",
    "parse_egn_card",
    "renege_note",
    "replay_egn",
    "rules_from_ruleset",
    "ruleset_from_rules",
]
