"""How long ``Tracker.update`` takes per frame, on a synthetic table of about ten cards (for ``euchre-table bench``).

Run it alone with ``python -m lab.tracker_bench``; it prints one
``key=value`` line.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from table.cards import ALL_CARDS, deck
from vision.detection import CardDetection
from vision.observations import CardRevised
from vision.tracker import Tracker
from vision.zones import Calibration


@dataclass(frozen=True)
class TrackerBench:
    """The result: microseconds per ``update`` and what was fed in.

    Wall-clock mean, median and 99th percentile, and the CPU time per update.
    On a busy machine the wall-clock mean and tail include time the process
    was not running; the CPU time and the median are the steadier figures.
    """

    us_per_update: float
    median_us: float
    p99_us: float
    cpu_us_per_update: float
    frames: int
    detections_per_frame: float
    events: int
    confirmations: int = 0  # of the events, uncertain landings later read surely (``CardRevised`` to the same card)


# Where the cards lie, in a 1280 x 960 picture of a square table filling it.
_SPOTS = [(0.50, 0.77), (0.23, 0.50), (0.50, 0.23), (0.77, 0.50), (0.78, 0.22)]
_PILE = [(0.46, 0.46), (0.54, 0.46), (0.46, 0.54), (0.54, 0.54), (0.50, 0.50)]


def bench_tracker(frames: int = 2000, cards: int = 10, seed: int = 0) -> TrackerBench:
    """Feed ``frames`` frames of ``cards`` jittering cards, with misreads, dropouts and two corner boxes.

    Every 40 frames the cards are gathered and new ones dealt, so landing,
    lifting and clearing all happen, not just the steady state.
    """
    spots = _SPOTS + _PILE
    if not 1 <= cards <= len(spots):
        raise ValueError(f"the synthetic table has room for 1 to {len(spots)} cards, not {cards}")
    rng = random.Random(seed)
    width, height = 1280.0, 960.0
    calibration = Calibration.from_corners([(0, 0), (width, 0), (width, height), (0, height)])
    tracker = Tracker(calibration)
    cards_in_play = deck(24)
    timings: list[float] = []
    cpu = 0.0
    events = confirmations = 0
    total_detections = 0
    layout: list[tuple[int, tuple[float, float]]] = []
    for frame in range(frames):
        if frame % 40 == 0:
            chosen = rng.sample(range(len(cards_in_play)), cards)
            layout = [(c, spots[i]) for i, c in enumerate(chosen)]
        detections: list[CardDetection] = []
        if frame % 40 < 32:  # the last frames of each round: the table is empty (a gathered trick)
            for card_index, (u, v) in layout:
                if rng.random() < 0.05:
                    continue  # a dropout
                card = cards_in_play[card_index]
                if rng.random() < 0.03:
                    card = rng.choice(ALL_CARDS)  # a misread
                x = u * width + rng.gauss(0, 2)
                y = v * height + rng.gauss(0, 2)
                conf = rng.uniform(0.5, 0.99)
                detections.append(CardDetection(card, conf, (x - 30, y - 45, x + 30, y + 45), frame))
                if rng.random() < 0.3:  # the card's other corner index
                    detections.append(CardDetection(card, conf * 0.9, (x, y, x + 40, y + 60), frame))
        total_detections += len(detections)
        start, start_cpu = time.perf_counter(), time.process_time()
        out = tracker.update(detections, frame, expected_seat=frame % 4)
        cpu += time.process_time() - start_cpu
        timings.append(time.perf_counter() - start)
        events += len(out)
        confirmations += sum(1 for e in out if isinstance(e, CardRevised) and e.new == e.old)
    timings.sort()
    mean_us = sum(timings) / len(timings) * 1e6
    p99_us = timings[min(len(timings) - 1, int(0.99 * len(timings)))] * 1e6
    median_us = timings[len(timings) // 2] * 1e6
    cpu_us = cpu / frames * 1e6
    return TrackerBench(mean_us, median_us, p99_us, cpu_us, frames, total_detections / frames, events, confirmations)


def main() -> None:
    from companion.summary import summary_line

    result = bench_tracker()
    print(
        summary_line(
            tracker_us_per_frame=result.us_per_update,
            tracker_median_us=result.median_us,
            tracker_p99_us=result.p99_us,
            tracker_cpu_us_per_frame=result.cpu_us_per_update,
            frames=result.frames,
            detections_per_frame=result.detections_per_frame,
            events=result.events,
        )
    )


if __name__ == "__main__":
    main()
