"""The enrolment's two screens for the README: a question the players answer, and the contact sheet.

    python -m lab.enrol_screens [--deck kennard-2color-bf] [--rules british] [--seed 0] [--question-after N] --out DIR

Enrols the deck of the rules in play at the simulated table (``lab.sim_enrol``: the rendered mat, the app's
reader and ``display.enrolment``, a scripted player on the panel) and saves, as ``enrol-question.png``, the
screen at the first question asked once :data:`QUESTION_AFTER` cards are in (the camera's view, the deck
filling in, the candidates), and as ``enrol-contact-sheet.png`` the screen the enrolment ends on. Needs the
artwork (``scripts/fetch-art``); ``--deck procedural`` draws plain faces instead.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path

QUESTION_AFTER = 8  # cards enrolled before the question shown: a third of the deck filled in
SCREEN = (800, 480)
# Adrian Kennard's cards, CC0 (lab.synth.fetch_art): the README's pictures show no artwork under a licence of its own.
DOC_DECK = "kennard-2color-bf"


@dataclass
class EnrolScreens:
    question: Path | None  # None: no question was asked once question_after cards were in
    question_after: int
    contact_sheet: Path
    enrolled: int  # cards in the profile
    deck: int  # cards of the rules in play
    seconds: float  # of video, laying and taking away included


def enrol_screens(
    out: Path, deck_style: str, rules_preset: str, seed: int, art: Path, question_after: int | None = None
) -> EnrolScreens:
    """Enrol ``deck_style`` at the simulated table and save the two screens into ``out`` (``question_after``:
    default :data:`QUESTION_AFTER`)."""
    after = QUESTION_AFTER if question_after is None else question_after
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from display.enrol_screen import render_enrolment
    from display.enrolment import Enrolment
    from lab import simtable as st
    from lab.sim_enrol import onnx_enrolment, simulate_enrolment
    from table.cards import deck
    from table.rules import Rules
    from vision.errors import UserError
    from vision.models import default_model_path
    from vision.onnx_detector import OnnxDetector

    rules = Rules.preset(rules_preset)
    faces, back, drawn = st.load_deck(deck_style, art, rules.deck_size)
    if deck_style != "procedural" and drawn != deck_style:
        raise UserError(f"--deck {deck_style}: no artwork for it in {art} (scripts/fetch-art fetches it)")
    cards = list(deck(rules.deck_size))
    detector = OnnxDetector(default_model_path(), threads=1)
    out.mkdir(parents=True, exist_ok=True)
    surface = pygame.Surface(SCREEN)
    question: Path | None = None

    def on_frame(frame: int, image: st.Image, e: Enrolment) -> None:
        nonlocal question
        if question is None and e.question is not None and len(e.enrolled) >= after:
            render_enrolment(surface, e, image, "house")
            question = out / "enrol-question.png"
            pygame.image.save(surface, str(question))

    run = simulate_enrolment(cards, faces, back, onnx_enrolment(detector, cards), rules, seed=seed, on_frame=on_frame)
    e = run.enrolment
    if not e.done:
        e.finish()
    render_enrolment(surface, e, None, "house")
    sheet = out / "enrol-contact-sheet.png"
    pygame.image.save(surface, str(sheet))
    return EnrolScreens(question, after, sheet, len(e.enrolled), len(cards), run.seconds)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument(
        "--deck", default=DOC_DECK, help=f"a deck of the fetched artwork, or 'procedural' (default {DOC_DECK})"
    )
    ap.add_argument("--rules", default="british", help="the rules' preset, whose deck is laid (default british: 25)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--art", type=Path, default=Path("work-data/art"))
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument(
        "--question-after",
        type=int,
        default=None,
        help=f"cards in before the question shown (default {QUESTION_AFTER})",
    )
    args = ap.parse_args(argv)
    from vision.errors import UserError

    try:
        shots = enrol_screens(args.out, args.deck, args.rules, args.seed, args.art, args.question_after)
    except UserError as exc:
        print(f"enrol_screens: {exc}", file=sys.stderr)
        return 2
    if shots.question is None:
        print(
            f"enrol_screens: no question asked after {shots.question_after} cards; only the contact sheet saved",
            file=sys.stderr,
        )
    print(f"enrol_screens: {shots.enrolled} of {shots.deck} cards in {shots.seconds:.1f} s of video -> {args.out}")
    return 0 if shots.question is not None else 1


if __name__ == "__main__":
    sys.exit(main())
