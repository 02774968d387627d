"""Every held-out deck read alone, without and with its rendered enrolment: one command for the per-deck table.

    python -m lab.deck_report [--decks D1,D2] [--model models/card-obb.onnx] [--count 200]

For each deck: its test scenes (``TESTS/<deck>``, built as ``python -m lab.synth.build test --deck D
--count N`` builds them where missing), its profile (``PROFILES/<deck>``, enrolled from rendered frames as
``python -m lab.profile_synth --deck D`` does, where missing; never from the test scenes), then the reader
on the scenes without and with the profile, readings of the cards in the set's ``ignore.csv`` left out (as
``eval-vision --ignore``). One line per deck and reading:

    deck=gnome-orell profile=0 cards=539 precision=0.9333 recall=0.6494 red_suit_swaps=5 black_suit_swaps=6

then the issue's bar with a profile (precision >= 0.98, red-suit swaps <= 0.5% of the cards) per deck.
Needs the artwork (``scripts/fetch-art``).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from lab.synth.faces import HELD_OUT_DECKS

BAR_PRECISION = 0.98
BAR_RED_SWAP_RATE = 0.005


@dataclass(frozen=True)
class DeckScore:
    deck: str
    profile: bool
    cards: int
    precision: float
    recall: float
    red_suit_swaps: int
    black_suit_swaps: int
    to_check: int = 0
    to_check_right: int = 0

    def line(self) -> str:
        return (f"deck={self.deck} profile={int(self.profile)} cards={self.cards} precision={self.precision:.4f} "
                f"recall={self.recall:.4f} red_suit_swaps={self.red_suit_swaps} "
                f"black_suit_swaps={self.black_suit_swaps} to_check={self.to_check} "
                f"to_check_right={self.to_check_right}")

    def meets_bar(self) -> bool:
        return self.precision >= BAR_PRECISION and self.red_suit_swaps <= BAR_RED_SWAP_RATE * self.cards


def parse_decks(text: str | None) -> list[str]:
    """The decks asked for (comma-separated), each a held-out deck; all of them by default."""
    if not text:
        return sorted(HELD_OUT_DECKS)
    decks = [d.strip() for d in text.split(",") if d.strip()]
    unknown = [d for d in decks if d not in HELD_OUT_DECKS]
    if unknown or not decks:
        raise ValueError(f"--decks: not held-out decks: {', '.join(unknown) or text!r} "
                         f"(held out: {', '.join(sorted(HELD_OUT_DECKS))})")
    return decks


def ensure_inputs(
    art: Path, deck: str, tests: Path, profiles: Path, model: Path, count: int, first: int = 0, enrol_seed: int = 0
) -> None:
    """Build the deck's test scenes (from ``first``, ``lab.synth.build.build_test``) and its rendered profile
    (enrolled with ``enrol_seed``) where they are missing."""
    from lab.profile_synth import enrol_deck
    from lab.synth.build import build_test, recorded_first_seed
    from vision.deck_profile import save_profile
    from vision.onnx_detector import OnnxDetector

    folder = tests / deck
    if (folder / "labels.csv").is_file() and recorded_first_seed(folder) != first:
        raise ValueError(f"{folder}: its scenes were drawn from --first-seed {recorded_first_seed(folder)}, not "
                         f"{first}: give another --tests folder (and --profiles) for another draw")
    if not (folder / "labels.csv").is_file():
        build_test(str(art), folder, count, procs=1, deck=deck, first=first)
        print(f"deck_report: built {count} test scenes in {folder}", flush=True)
    if not (profiles / deck / "profile.json").is_file():
        profile, missed = enrol_deck(deck, art, OnnxDetector(model, threads=1), seed=enrol_seed)
        save_profile(profile, profiles / deck)
        print(f"deck_report: enrolled {deck} into {profiles / deck} (never outlined: {' '.join(missed) or '-'})",
              flush=True)


def score_deck(deck: str, tests: Path, profiles: Path, model: Path, with_profile: bool) -> DeckScore:
    from lab.evaluate import evaluate, read_ignore
    from vision.detector import load_detector

    folder = tests / deck
    ignore_path = folder / "ignore.csv"
    ignore = read_ignore(ignore_path) if ignore_path.is_file() else None
    detector = load_detector(model, threads=1, profile=profiles / deck if with_profile else None)
    result = evaluate(detector, folder / "images", folder / "labels.csv", ignore=ignore)
    return DeckScore(deck, with_profile, result.cards, result.precision, result.recall, result.red_suit_swaps,
                     result.black_suit_swaps, result.to_check, result.to_check_right)


def main(argv: list[str] | None = None) -> int:
    from vision.models import default_model_path

    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--decks", default=None, help="comma-separated held-out decks (default: all five)")
    ap.add_argument("--art", type=Path, default=Path("work-data/art"))
    ap.add_argument("--tests", type=Path, default=Path("work-data/synth-test"))
    ap.add_argument("--profiles", type=Path, default=Path("work-data/profiles"))
    ap.add_argument("--model", type=Path, default=None, help="the finder (its classifier beside it)")
    ap.add_argument("--count", type=int, default=200, help="test scenes per deck, where they are built")
    ap.add_argument("--first-seed", type=int, default=0,
                    help="where the scenes are built: offset of their seeds (0: the test sets; another, with "
                    "other --tests and --profiles folders: a validation set kept apart, to choose between models)")
    ap.add_argument("--enrol-seed", type=int, default=0, help="where a profile is built: its enrolment's seed")
    args = ap.parse_args(argv)
    try:
        decks = parse_decks(args.decks)
    except ValueError as exc:
        ap.error(str(exc))
    if args.count < 1:
        ap.error("--count must be at least 1")
    from lab.synth.build import first_seed_error

    problem = first_seed_error(args.first_seed, args.count)
    if problem is not None:
        ap.error(problem)
    if not (args.art / "manifest.csv").is_file():
        print(f"deck_report: {args.art}/manifest.csv not found: fetch the artwork first (scripts/fetch-art)",
              file=sys.stderr)
        return 2
    model = args.model if args.model is not None else default_model_path()
    met = 0
    for deck in decks:
        try:
            ensure_inputs(args.art, deck, args.tests, args.profiles, model, args.count, args.first_seed,
                          args.enrol_seed)
        except ValueError as exc:
            print(f"deck_report: {exc}", file=sys.stderr)
            return 2
        print(score_deck(deck, args.tests, args.profiles, model, with_profile=False).line(), flush=True)
        enrolled = score_deck(deck, args.tests, args.profiles, model, with_profile=True)
        print(enrolled.line(), flush=True)
        met += enrolled.meets_bar()
    print(f"decks={len(decks)} meeting_the_bar_with_a_profile={met} "
          f"(precision >= {BAR_PRECISION}, red-suit swaps <= {BAR_RED_SWAP_RATE:.1%} of the cards)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
