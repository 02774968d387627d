"""Preview the scoreboard: ``python -m display [--out DIR] [--size WxH] [--language L] [--window]``.

Writes a PNG of each sample state (bidding, play, renege alert, scored hand,
game won, an irregularity) to DIR, or shows them in a window, cycling with
any key, so the screen can be checked on a Pi or a desktop without a game,
in any of the table's languages (with that language's seat names).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from display.i18n import DEFAULT_LANGUAGE, LANGUAGES, set_language


def _size(text: str) -> tuple[int, int]:
    w, _, h = text.lower().partition("x")
    try:
        return int(w), int(h)
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must be WIDTHxHEIGHT, such as 800x480, not {text!r}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m display", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("out/screens"), help="folder for the PNGs")
    parser.add_argument("--size", type=_size, default=(800, 480), help="screen size, WIDTHxHEIGHT")
    parser.add_argument("--window", action="store_true", help="show the states in a window instead")
    parser.add_argument("--language", choices=LANGUAGES, default=DEFAULT_LANGUAGE, help="the screen's language")
    args = parser.parse_args(argv)
    if not args.window:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from display.phrases import seat_names
    from display.render import render, render_surface
    from display.samples import SAMPLES

    set_language(args.language)
    names = seat_names()
    pygame.init()
    try:
        if not args.window:
            args.out.mkdir(parents=True, exist_ok=True)
            for name, make in SAMPLES.items():
                pygame.image.save(render_surface(make(names), args.size), args.out / f"{name}.png")
            print(f"screens={len(SAMPLES)} out={args.out} size={args.size[0]}x{args.size[1]}")
            return 0
        screen = pygame.display.set_mode(args.size)
        views = [make(names) for make in SAMPLES.values()]
        index, clock = 0, pygame.time.Clock()
        while True:
            for event in pygame.event.get():
                if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
                    return 0
                if event.type == pygame.KEYDOWN:
                    index = (index + 1) % len(views)
            render(screen, views[index], pygame.time.get_ticks() / 1000)
            pygame.display.flip()
            clock.tick(20)
    finally:
        pygame.quit()


if __name__ == "__main__":
    sys.exit(main())
