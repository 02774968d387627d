"""Per-frame readings at the simulated table, with the index crops cut from the small stream or the large one.

    python -m lab.stream_study --deck gnome-orell [--seeds 0,1] [--hands 2] [--every 6] [--profile]

The Pi camera gives the finder its 640x480 ``lores`` stream and the same view at 1280x960 (``main``); the
reader can cut the classifier's index crops from either (``vision.detector.detect_frame``). This renders
games of the held-out deck ``--deck`` with ``lab.simtable.TableRenderer(detail=2)`` and reads every
``--every``-th frame both ways, on the very same pixels: the finder always on the small frame, the crops
from the small frame or from the large one. ``--profile``: also with the deck enrolled first
(``lab.sim_enrol``: the same code as ``euchre-table enrol``), once from each stream, and read with it.

The readers take turns on each frame (one ONNX Runtime thread each), so their times per frame (the
median is printed) share the machine's noise. Scored per frame as ``eval-vision`` scores a photo: a
reading is right when its card lies face up in the frame (a deck holds each card once), and the cards to
find are those at least :data:`MIN_VISIBLE` in sight. A red-suit swap is a wrong reading whose twin
(same rank, other red suit) lies in the frame.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from table.cards import Card
from table.renege import CHECK_CONFIDENCE
from vision.detection import CardDetection

MIN_VISIBLE = 0.5  # a card this much in sight is one the reader should name


@dataclass
class FrameTally:
    """Readings scored over frames: right, wrong, red-suit swaps, cards to find and found."""

    right: int = 0
    wrong: int = 0
    red_swaps: int = 0
    to_find: int = 0
    found: int = 0
    wrong_cards: list[tuple[int, str]] = field(default_factory=list)  # (frame, card read)
    to_check: int = 0  # readings under the engine's check line: not scored (sure_cards)
    # Of those, scored apart (score_checks): the card in the frame; not, and the reading's rival is (the card
    # the check names); not, and its twin is (the card the check named before the rival was kept).
    check_right: int = 0
    check_rival_right: int = 0
    check_twin_right: int = 0
    seconds: list[float] = field(default_factory=list)  # the reader's time on each frame
    looks: dict[str, int] = field(default_factory=dict)  # the reader's later looks run, and named (frame_study)

    @property
    def precision(self) -> float:
        return self.right / max(1, self.right + self.wrong)

    @property
    def recall(self) -> float:
        return self.found / max(1, self.to_find)

    def line(self) -> str:
        text = (
            f"P {self.precision:.3f} R {self.recall:.3f} readings {self.right + self.wrong} wrong {self.wrong} "
            f"red-suit swaps {self.red_swaps} cards {self.to_find} to check {self.to_check}"
        )
        if self.check_right or self.check_rival_right or self.check_twin_right:
            text += (
                f" (right {self.check_right}; wrong with the card in sight named by the rival "
                f"{self.check_rival_right}, by the twin {self.check_twin_right})"
            )
        if self.seconds:
            text += f" ms/frame {1000 * statistics.median(self.seconds):.1f} (median of {len(self.seconds)})"
        if self.looks:
            text += " looks " + " ".join(f"{k}={v}" for k, v in self.looks.items())
        return text


def _twin(card: Card) -> str | None:
    text = str(card)
    if len(text) != 2 or text[1] not in "hd":
        return None
    return text[0] + ("d" if text[1] == "h" else "h")


def sure_cards(tally: FrameTally, found: Iterable[CardDetection]) -> list[Card]:
    """The cards of one frame's readings from the engine's check line up (``table.renege.CHECK_CONFIDENCE``),
    the ones it relies on; those under it ("check this card") are counted in ``tally.to_check`` only."""
    sure = []
    for d in found:
        if d.confidence >= CHECK_CONFIDENCE:
            sure.append(d.card)
        else:
            tally.to_check += 1
    return sure


def score_checks(tally: FrameTally, found: Iterable[CardDetection], in_sight: Sequence[tuple[Card, float]]) -> None:
    """Score one frame's readings under the engine's check line (which :func:`sure_cards` only counts): the
    card in the frame (``check_right``), or not, where the reading's rival lies in it (the card the check
    names: ``check_rival_right``) and where its twin does (``check_twin_right``)."""
    present = {str(c) for c, _ in in_sight}
    for d in found:
        if d.confidence >= CHECK_CONFIDENCE:
            continue
        if str(d.card) in present:
            tally.check_right += 1
            continue
        tally.check_rival_right += d.rival is not None and str(d.rival) in present
        tally.check_twin_right += d.card.twin is not None and str(d.card.twin) in present


def score_frame(
    tally: FrameTally, frame: int, read: Iterable[Card], in_sight: Sequence[tuple[Card, float]]
) -> None:
    """Add one frame: the cards read, and each face-up card in it with the share of it in sight."""
    present = {str(c) for c, _ in in_sight}
    wanted = {str(c) for c, share in in_sight if share >= MIN_VISIBLE}
    named = {str(c) for c in read}
    for card in read:
        if str(card) in present:
            tally.right += 1
        else:
            tally.wrong += 1
            tally.wrong_cards.append((frame, str(card)))
            if _twin(card) in present:
                tally.red_swaps += 1
    tally.to_find += len(wanted)
    tally.found += len(wanted & named)


def study(deck: str, seeds: Sequence[int], hands: int, every: int, profile: bool, art: Path, model: Path) -> None:
    from lab import simtable as st
    from lab.sim_enrol import onnx_enrolment, simulate_enrolment
    from table.cards import deck as deck_of
    from table.rules import Rules
    from vision.detector import detect_frame
    from vision.onnx_detector import OnnxDetector

    rules = Rules()
    faces, back, name = st.load_deck(deck, art, rules.deck_size)
    if name != deck:
        raise SystemExit(f"--deck {deck}: no artwork for it in {art}")
    readers: dict[str, tuple[OnnxDetector, bool]] = {
        "lores crops": (OnnxDetector(model, threads=1), False),
        "main crops": (OnnxDetector(model, threads=1), True),
    }
    if profile:
        cards = deck_of(rules.deck_size)
        for label, uses_main in (("lores crops, profile", False), ("main crops, profile", True)):
            # Enrolled on the same two-stream frames as the game is read on, from the stream it reads.
            reader = OnnxDetector(model, threads=1)
            run = simulate_enrolment(
                cards, faces, back, onnx_enrolment(reader, cards), rules, seed=0, detail=2, read_detail=uses_main
            )
            assert reader.classifier is not None
            reader.classifier.use_profile(run.enrolment.build("study"))
            missing = " ".join(str(c) for c in run.enrolment.missing) or "none"
            print(f"{deck}: {label}: enrolled {len(run.enrolment.enrolled)} of {len(cards)} cards "
                  f"({run.asked} named on the panel; missing: {missing})", flush=True)  # fmt: skip
            readers[label] = (reader, uses_main)
    tallies = {label: FrameTally() for label in readers}
    for seed in seeds:
        script = st.build_script(seed, hands, 0.3, rules=rules)
        renderer = st.TableRenderer(script, faces, back, seed=seed, detail=2)
        for n in range(0, script.frames, every):
            small, big = renderer.render_pair(n)
            in_sight = [(c.card, c.visible) for c in renderer.visible(n)]
            for label, (reader, uses_main) in readers.items():
                t0 = time.perf_counter()
                found = detect_frame(reader, small, n, big if uses_main else None)
                tallies[label].seconds.append(time.perf_counter() - t0)
                score_frame(tallies[label], n, sure_cards(tallies[label], found), in_sight)
    for label, tally in tallies.items():
        print(f"{deck} seeds {','.join(map(str, seeds))}: {label}: {tally.line()}", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--deck", required=True, help="a held-out deck (lab.synth.faces.HELD_OUT_DECKS)")
    ap.add_argument("--seeds", default="0", help="games' seeds, comma-separated (default 0)")
    ap.add_argument("--hands", type=int, default=2, help="hands per game (default 2)")
    ap.add_argument("--every", type=int, default=6, help="read every Nth frame (default 6)")
    ap.add_argument("--profile", action="store_true", help="also enrol the deck (from each stream) and read with it")
    ap.add_argument("--art", type=Path, default=Path("work-data/art"))
    ap.add_argument("--model", type=Path, default=Path("models/card-obb.onnx"))
    args = ap.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    study(args.deck, seeds, args.hands, max(1, args.every), args.profile, args.art, args.model)
    return 0


if __name__ == "__main__":
    sys.exit(main())
