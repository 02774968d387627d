"""Per-frame readings at the simulated table, several card readers (finders) on the very same pixels.

    python -m lab.frame_study --deck gnome-orell --models models/card-obb.onnx,DIR/card-obb.onnx \
        [--seeds 0,1,2] [--hands 2] [--every 4] [--restyle dark|tinted|four_colour|one_ink] [--enrol]

Renders games of ``--deck`` as ``euchre-table simulate`` draws them (``lab.simtable.TableRenderer``, one
640x480 stream) and reads every ``--every``-th frame with each model in turn (each with the classifier and
calibration beside it, one ONNX Runtime thread), as the live table reads them (the deck judged over each
game's frames, ``vision.deck_judgement``). Scored per frame as ``lab.stream_study`` scores it (a
reading is right when its card lies face up in the frame; the cards to find are those at least
``stream_study.MIN_VISIBLE`` in sight). ``--restyle`` prints the deck another way before each game
(``lab.synth.scenes.reprint_faces``; its paper and ink drawn from the game's seed): ``dark`` is a
black-and-gold kind of deck at the table, on the mat at the camera's own scale. ``--enrol`` first enrols
the deck as printed for each game, on the rendered mat, as ``simulate --enrol`` does
(``lab.sim_enrol.simulate_enrolment``), and reads that game with its profile. A quicker look than full
games: the tracker and the engine are not run, so a reader that gains here still needs ``simulate``'s full
runs.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from lab.stream_study import FrameTally, score_checks, score_frame, sure_cards
from lab.synth.scenes import ALL_STYLES, reprint_faces

if TYPE_CHECKING:
    from lab.simtable import Image
    from table.cards import Card
    from table.rules import Rules
    from vision.deck_profile import DeckProfile
    from vision.onnx_detector import OnnxDetector

    Faces = dict[Card, Image]


def study(
    deck: str, models: Sequence[Path], seeds: Sequence[int], hands: int, every: int, art: Path | None,
    restyle: str | None = None, enrol: bool = False,
) -> dict[Path, FrameTally]:
    """The tallies per model over the games of ``seeds`` (``deck`` "procedural": drawn faces, no artwork;
    ``restyle``: the deck printed in that style, ``scenes.reprint_faces``), each with how often the reader's later
    looks ran and named cards (``OnnxDetector.looks``). ``enrol``: each game read with the profile of the deck
    as printed for it, enrolled on the rendered mat by each model (stderr: how many cards, how many named)."""
    from lab import simtable as st
    from table.rules import Rules
    from vision.onnx_detector import OnnxDetector

    rules = Rules()
    faces, back, name = st.load_deck(deck, art, rules.deck_size)
    if deck != "procedural" and name != deck:
        raise SystemExit(f"--deck {deck}: no artwork for it in {art}")
    # Each read as the live table reads (``vision.detector.load_detector(table=True)``): the deck judged over the
    # frames, afresh for each game.
    readers = {m: OnnxDetector(m, threads=1, table_deck_look=True) for m in models}
    tallies = {m: FrameTally() for m in models}
    for seed in seeds:
        for reader in readers.values():
            if reader.deck_judgement is not None:
                reader.deck_judgement.reset()
        script = st.build_script(seed, hands, 0.3, rules=rules)
        printed = faces if restyle is None else reprint_faces(faces, restyle, seed)
        if enrol:
            for m, reader in readers.items():
                _enrol(reader, rules, printed, back, seed, m)
        renderer = st.TableRenderer(script, printed, back, seed=seed)
        for n in range(0, script.frames, every):
            image = renderer.render(n)
            in_sight = [(c.card, c.visible) for c in renderer.visible(n)]
            for m, reader in readers.items():
                t0 = time.perf_counter()
                found = reader.detect(image, n)
                tallies[m].seconds.append(time.perf_counter() - t0)
                score_frame(tallies[m], n, sure_cards(tallies[m], found), in_sight)
                score_checks(tallies[m], found, in_sight)
    for m, reader in readers.items():
        tallies[m].looks = dict(sorted(reader.looks.items()))
    return tallies


def _enrol(reader: OnnxDetector, rules: Rules, faces: Faces, back: Image, seed: int, model: Path) -> None:
    """Enrol ``faces`` on the rendered mat with ``reader`` and read with the profile from now on."""
    profile = enrolled_profile(reader, rules, faces, back, seed, model)
    assert reader.classifier is not None
    reader.classifier.use_profile(profile)


def enrolled_profile(
    reader: OnnxDetector, rules: Rules, faces: Faces, back: Image, seed: int, model: Path | None = None
) -> DeckProfile:
    """The profile of ``faces`` enrolled on the rendered mat by ``reader``, read without a profile as ``euchre-table
    enrol`` reads, the way ``simulate --enrol`` enrols (stderr: how many cards, how many named on the panel)."""
    from lab.sim_enrol import onnx_enrolment, simulate_enrolment
    from table.cards import deck

    if reader.classifier is None:
        raise SystemExit(f"--enrol: {model or reader.path} has no corner classifier beside it")
    reader.classifier.use_profile(None)
    cards = deck(rules.deck_size)
    run = simulate_enrolment(cards, faces, back, onnx_enrolment(reader, cards), rules, seed=seed)
    print(f"seed {seed}: {model or reader.path}: enrolled {len(run.enrolment.enrolled)} of {len(cards)} cards, "
          f"{run.asked} named on the panel", file=sys.stderr, flush=True)
    return run.enrolment.build("simulated")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--deck", required=True, help="a deck of the fetched artwork, or 'procedural'")
    ap.add_argument("--models", required=True, help="finder ONNX files, comma-separated (classifier beside each)")
    ap.add_argument("--seeds", default="0", help="games' seeds, comma-separated (default 0)")
    ap.add_argument("--hands", type=int, default=2, help="hands per game (default 2)")
    ap.add_argument("--every", type=int, default=4, help="read every Nth frame (default 4)")
    ap.add_argument("--art", type=Path, default=Path("work-data/art"))
    ap.add_argument("--restyle", choices=ALL_STYLES, default=None,
                    help="print the deck another way (dark: light print on dark paper, red kept red; one_ink: "
                    "every suit in the one ink; default: its artwork)")
    ap.add_argument("--enrol", action="store_true",
                    help="enrol the deck as printed for each game first, and read the game with its profile")
    args = ap.parse_args(argv)
    models = [Path(m) for m in args.models.split(",") if m.strip()]
    for m in models:
        if not m.is_file():
            raise SystemExit(f"--models: {m}: no such file")
    seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    tallies = study(args.deck, models, seeds, args.hands, max(1, args.every), args.art, args.restyle, args.enrol)
    deck = args.deck if args.restyle is None else f"{args.deck} ({args.restyle})"
    deck += ", enrolled" if args.enrol else ""
    for m, tally in tallies.items():
        print(f"{deck} seeds {','.join(map(str, seeds))}: {m}: {tally.line()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
