"""The league night: many tables, one board.

Tables publish their games over MQTT (``companion.league_publish``); this package is the other end and
what surrounds it: the board that subscribes, keeps the league in SQLite and serves the page
(``league.board``, ``league.store``), the partner rotation for the night (``league.rotation``), a broker
to run where Mosquitto is not installed (``league.broker``), and ``euchre-table league simulate``
(``league.simulate``). It sits above ``companion`` and is reached by the command line through the
``euchre_table.commands`` entry point, like the lab.
"""
