"""The table's screen, buttons and voice: a pygame-ce scoreboard, the GPIO button panel, keyboard and speech.

- `display.view`: the view model, a frozen snapshot of what the screen shows;
  `display.adapter.build_view` makes one from the engine's `MatchView`.
- `display.render.render(surface, view, t)`: draws it, a pure function; it returns the drawn buttons
  (the renege alert's accept and dismiss) that taps on the touchscreen press.
- `display.scoreboard.Scoreboard`: the loop (events, update, draw on change).
- `display.buttons` / `display.keyboard`: player requests as `display.actions.Action`.
- `display.speech`: espeak-ng phrases with a chime; `display.phrases`: the words.

Importing this package imports no pygame or gpiozero; its modules do.
"""
