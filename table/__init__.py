"""The Euchre rules engine: cards, trump, the rules record, the deal phase machine and the match.

Standard library only. The engine knows what a table shows -- the up-card, the
bids (buttons) and each card as it is played -- never the hands still held.
It accepts what really happened: reneges, cards out of turn, duplicates and
forbidden bids are recorded and announced, never raised (``table.match``).

Modules: ``cards`` (Card/Suit/Rank, EGN notation, decks), ``trump`` (effective
suit, trick winner, legal plays), ``rules`` (the ``Rules`` record, presets,
switches), ``deal`` (deal state, ``DealRecord``, hand scoring), ``renege``
(show-out evidence), ``match`` (``Match``: phases, score, game end), ``view``
(``MatchView`` for the display), ``inputs``/``announcements`` (the contract).

Implemented (as in OpenSpiel's euchre.h, a list of what is played):

- 4 players in two partnerships; decks of 24, 25 (with the Benny), 28, 32 and
  33 cards; Benny > right bower > left bower > A K Q T 9 8 7 in trump; the left
  bower is a trump for every purpose; no trump: natural order, aces high (the
  Benny, if any, is then the best card and belongs to no suit).
- Bidding: round 1 order up / assist / take up, round 2 name another suit,
  thrown-in hands; ``stick_the_dealer`` (the dealer's pass is refused and
  announced); ``no_trump`` (round 2 may name no trump); ``benny_turned_up``
  (the dealer names trump blind, or the Benny is set aside and another card
  turned up); ``blind_lone`` (a dealer who turns up a jack goes alone before any
  bid: 5 if made, 1 to the defenders if euchred).
- The dealer's discard (seen or unseen); ``dealer_may_discard_upcard``;
  ``natural_trump_to_pick_up`` (checked when the hand ends: a dealer who took up
  and provably held no natural trump is announced; the left bower does not count).
- Going alone: with the bid or after trump is made and before the first lead;
  ``dealer_partner_must_go_alone`` (Canadian loner: ordering up means alone);
  ``defender_may_go_alone`` (never / against a lone maker / always -- "always"
  also lets the maker's partner go alone, the British "any player");
  ``passed_player_may_not_go_alone``; the first lead per ``loner_lead`` (of
  two loners the defender leads under LEFT_OF_LONER).
- Unseen exchanges as the ``Exchange`` input: ``call_for_best``,
  ``farmers_hand``, ``nines_and_tens`` (the swap with the kitty). They clear
  what a seat provably held; they never create proof.
- A misdeal declared at the table (the ``Misdeal`` input), at any point of a
  deal: the deal is void, scores nothing, does not count towards
  ``num_deals``, and the same dealer deals again (RULES.md names no other
  dealer; this is the usual law, as for the ``replay`` renege penalty). The
  ``nines_and_tens`` redeal is a ``Misdeal`` naming the claiming seat, taken
  only where the switch is on and before the first lead (else refused, and
  the deal goes on).
- Scoring: made 1, march 2, lone march ``loner_march_points``, euchre 2, lone
  maker euchred ``loner_euchred_points``, lone defender per
  ``lone_defender_scoring``, ``super_euchre``; game to ``target`` (with
  ``win_by_two``) or after ``num_deals`` deals (a level score is a draw).
- Reneges proven from the play (and from the up-card the dealer provably
  holds: the discard was seen, or discarding the up-card is not allowed), at
  exactly the first card that proves them; a second failure to follow the same
  suit is proven on its own. Cards read below ``renege.CHECK_CONFIDENCE``, and
  duplicates or cards outside the deck, never create or prove one ("check this
  card" instead). ``renege_penalty`` two-or-four / replay / deduct, applied by
  ``AcceptPenalty`` to the pending renege or the latest one not dismissed,
  until the next up-card; playing on is not a dismissal.
- Irregularities announced: out of turn, the lone player's partner playing, a
  card seen twice (the turned-down up-card included), a card outside the deck,
  a play before bidding ended, a bid out of turn, a call the rules forbid, a
  misdeal, and a deal out of turn ("stealing the deal": the up-card turned by
  another seat than the dealer, as ``UpCard.turned_by`` says; announced, the
  deal stands as the dealer's until the table declares a ``Misdeal``).

Not implemented (refused by ``Rules.validate`` with ``UnsupportedRule``):
``setback_scoring`` (needs a choice input). Not modelled: three-handed,
six-handed and two-handed euchre.
"""
