"""``euchre-table simulate``: render scripted hands at a simulated table, run the real pipeline on them, score it."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.summary import summary_line
from vision.sources.picamera import MAIN_STREAM_SCALE

if TYPE_CHECKING:
    from table.announcements import Announcement


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="render a simulated table video of scripted hands, run the whole pipeline on it and score it",
        description=(
            "Deals N hands with random legal play and a chosen rate of injected reneges, renders them as an "
            "overhead camera video of the printed mat (cards slid into each seat's zone, tricks gathered, arms "
            "passing over, drifting light) in a deck style the detector never saw in training, runs markers -> "
            "detector -> tracker -> engine on every frame (bids come in as button inputs at their frames) and "
            "compares the engine's announcements with the script. Timings per stage go to stderr."
        ),
    )
    parser.add_argument("--hands", type=int, default=None, help="hands to play out (thrown-in deals come on top)")
    parser.add_argument("--game", action="store_true", help="instead of --hands: one whole game to its end")
    parser.add_argument(
        "--clip", type=Path, default=None, metavar="DIR",
        help="instead of rendering: run the pipeline on a recorded clip (such as companion/data/demo) and score it",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and the staging (default 0)")
    parser.add_argument("--renege-rate", type=float, default=0.0, help="chance of a deliberate renege (default 0)")
    parser.add_argument(
        "--rules", "--preset", dest="preset", default=None, metavar="PRESET",
        help="the house rules' preset: north_american (24 cards, the default) or british (25, with the Benny)",
    )  # fmt: skip
    parser.add_argument(
        "--config", type=Path, default=None, metavar="FILE",
        help="play the [rules] of this config file (a 32-card deck: deck_size = 32); --rules picks the base preset",
    )  # fmt: skip
    parser.add_argument(
        "--steal-rate", type=float, default=0.0, metavar="R",
        help="chance that another seat deals a deal (its up-card turned in front of that seat and carried to the "
        "kitty): the deals out of turn said, and any said falsely, go to stderr (default 0)",
    )  # fmt: skip
    parser.add_argument(
        "--turned-in-front", type=float, default=0.0, metavar="R",
        help="chance that the dealer turns the up-card in front of them and carries it to the kitty (default 0: "
        "turned on the kitty)",
    )  # fmt: skip
    parser.add_argument("--deck-style", default=None, help="card deck to draw (default: gnome-neoclassical, held out)")
    parser.add_argument("--art", type=Path, default=None, help="artwork folder (default work-data/art)")
    # The choices are lab.synth.scenes.ALL_STYLES, written out so that the command line does not load the
    # scene renderer to build its help (tests/lab/test_deck_print.py holds them to it).
    parser.add_argument(
        "--deck-print", choices=("dark", "tinted", "four_colour", "one_ink"), default=None,
        help="the deck printed another way, one paper and ink drawn from --seed (lab.synth.scenes.reprint_faces): "
        "dark: light print on dark paper, red kept red; one_ink: every suit in the one ink (default: as drawn)",
    )  # fmt: skip
    parser.add_argument(
        "--detector", choices=("model", "oracle", "noisy"), default="model",
        help="model: the ONNX detector (--model); oracle: perfect readings from the renderer's ground truth; "
        "noisy: the oracle with a detector's faults (10%% of readings missed, 3%% misread, jitter)",
    )  # fmt: skip
    parser.add_argument(
        "--enrol", action=argparse.BooleanOptionalAction, default=None,
        help="first enrol the rendered deck on the rendered mat (as `euchre-table enrol` does, a scripted player "
        "answering on the panel), then read the game with that deck profile (model detector only). Default: "
        "enrol where the rules play the Benny, as such a table must (the reader names a Joker only from the "
        "deck's profile); --no-enrol plays without",
    )  # fmt: skip
    parser.add_argument("--model", type=Path, default=None, help="detector model (default: the shipped models/ one)")
    parser.add_argument("--threads", type=int, default=None, help="CPU threads for the detector")
    parser.add_argument("--size", default="640x480", metavar="WxH", help="frame size (default 640x480, the Pi's)")
    parser.add_argument(
        "--main-stream", action="store_true",
        help="also draw each frame twice as large, as the Pi camera's main stream (1280x960 beside its 640x480 "
        "lores one), and read the cards from it as the app does with a Pi camera: the finder on the small frame, "
        "the index crops (and an enrolment's) from the large one",
    )  # fmt: skip
    parser.add_argument(
        "--pace", choices=("normal", "brisk"), default="normal", help="brisk: fewer frames per move (a shorter video)"
    )
    parser.add_argument("--fps", type=float, default=None, help="frame rate written into a recorded video (15)")
    parser.add_argument(
        "--record", type=Path, default=None, metavar="DIR",
        help="also write the video (table.mp4), its ground truth (ground_truth.json) and bids (buttons.jsonl) to DIR",
    )  # fmt: skip
    parser.add_argument(
        "--detections", type=Path, default=None, metavar="FILE",
        help="record the reader's output and the calibration per frame to FILE; when FILE holds a recording of "
        "this same run, replay it instead of drawing and reading: the tracker and engine at hand, in a minute "
        "(lab/sim_detections.py)",
    )  # fmt: skip
    parser.add_argument(
        "--answer-checks", type=float, nargs="?", const=1.5, default=None, metavar="SECONDS",
        help="the players answer each 'check this card' on the panel SECONDS (default 1.5) after it is said, while "
        "its trick lies there (Call, the suit button, or Next reading), as a table that looks at the card does; the "
        "answers and presses go to stderr (default: nobody answers)",
    )  # fmt: skip
    parser.add_argument(
        "--explain", action="store_true",
        help="before the score line, print each shortfall per deal: reneges not proven, false alerts, wrong "
        "tricks and scores, cards never reported, and the deal's card rests beside the tracker's landings",
    )  # fmt: skip
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from lab import simtable as st
    from vision.errors import UserError

    if args.detections is not None and (args.clip is not None or args.record is not None or args.detector != "model"):
        raise UserError("simulate: --detections records or replays a rendered run read by the model detector; it "
                        "takes no --clip, --record or --detector oracle/noisy")  # fmt: skip
    if args.answer_checks is not None and not 0.0 <= args.answer_checks <= 60.0:
        raise UserError(f"--answer-checks {args.answer_checks}: seconds from 0 to 60")
    if args.clip is not None:
        if args.answer_checks is not None:
            raise UserError("simulate: --clip replays a recording as it was played; it takes no --answer-checks")
        if args.hands is not None or args.game or args.record is not None or args.main_stream:
            raise UserError(
                "simulate: --clip replays a recording; it takes no --hands, --game, --record or --main-stream"
            )
        if args.preset is not None or args.config is not None:
            raise UserError("simulate: --clip plays the rules it was recorded with; it takes no --rules or --config")
        if args.detector != "model":
            raise UserError("simulate: --clip needs the model detector (the oracle reads the renderer, not a video)")
        _script, truth = st.load_clip(args.clip)  # checked before the (slow) model load
        result = st.run_clip(args.clip, _load_model(args))
        script, deck_name = result.script, result.deck
        w, h = truth.get("size", st.FRAME_SIZE)
        size = (int(w), int(h))
    else:
        result, deck_name, size = _render_and_run(args)
        script = result.script
    t, s = result.timings, result.score
    frames = max(1, t.frames)
    render_what = "decode" if args.clip is not None else "render"
    share = (t.tracker + t.engine) / t.pipeline if t.pipeline > 0 else 0.0
    rules = script.rules
    print(
        f"simulate: rules {rules_name(rules)} ({rules.deck_size} cards), {t.frames} frames {size[0]}x{size[1]}"
        f"{main_stream_note(args, size)}, "
        f"deck {deck_name}, "
        f"detector {args.detector}; ms/frame: {render_what} {1000 * t.render / frames:.1f}, markers "
        f"{1000 * t.markers / frames:.2f}, detector {1000 * t.detector / frames:.1f}, tracker "
        f"{1000 * t.tracker / frames:.2f}, engine {1000 * t.engine / frames:.3f}; tracker+engine "
        f"{100 * share:.1f}% of the pipeline; detector alone {frames / t.detector if t.detector else 0:.1f} fps",
        file=sys.stderr,
    )
    print(
        f"simulate: deals {len(script.deals)} ({s.thrown_in} thrown in), engine saw {s.deals_seen} deals end, "
        f"cards {len(script.rests)} ({s.cards_missed} never reported), latency frames "
        f"min {min(s.latencies, default=-1)} max {max(s.latencies, default=-1)}, "
        f"'check this card' said {st.checks_asked(result.pipeline.announcements)} times, "
        f"'many cards unread' said {_watch_said(result.pipeline.announcements)}",
        file=sys.stderr,
    )
    answerer = result.pipeline.answerer
    if answerer is not None:
        print(
            f"simulate: checks answered {answerer.answered} ({answerer.presses} presses), trick gathered first "
            f"{answerer.too_late}, out of the panel's reach {answerer.unreachable}",
            file=sys.stderr,
        )
    if script.stolen or args.turned_in_front > 0:
        staged, said, false = st.deals_out_of_turn(script, result.pipeline.announcements)
        print(f"simulate: deals out of turn: {staged} staged, {said} said, {false} said falsely", file=sys.stderr)
    if args.explain:
        from lab.sim_explain import explain

        for line in explain(script, result.pipeline.announcements, result.pipeline.landings).lines():
            print(line)
    print(
        summary_line(
            hands=s.hands,
            tricks=s.tricks,
            trick_winner_accuracy=round(s.trick_winner_accuracy, 4),
            hands_scored_exactly=s.hands_exact,
            reneges_injected=s.reneges_injected,
            reneges_proven=s.reneges_proven,
            false_renege_alerts=s.false_renege_alerts,
            median_latency_frames=s.median_latency,
            fps=round(t.frames / t.pipeline, 1) if t.pipeline > 0 else 0.0,
        )
    )
    return 0


def _watch_said(announcements: Sequence[tuple[int, Announcement]]) -> str:
    """When the scoreboard's reading watch (``companion.reading_watch``) would have spoken in this run."""
    from companion.reading_watch import ReadingWatch

    watch = ReadingWatch()
    watch.take(a for _, a in announcements)
    return "never" if watch.spoke_after is None else f"after hand {watch.spoke_after}"


def _load_model(args: argparse.Namespace) -> Any:
    from vision.detector import load_detector
    from vision.errors import UserError
    from vision.models import default_model_path

    try:
        model = args.model if args.model is not None else default_model_path()
    except UserError as exc:
        raise UserError(f"{exc}; or --detector oracle to test the tracker and engine without a model") from None
    # Read as the app reads a live table (``companion.builder``): the deck judged over the frames.
    return load_detector(model, threads=args.threads, table=True)


def _render_and_run(args: argparse.Namespace) -> tuple[Any, str, tuple[int, int]]:
    from lab import simtable as st
    from vision.errors import UserError

    if args.enrol and args.detector != "model":
        raise UserError("simulate: --enrol builds a deck profile for the model detector; it takes no --detector "
                        f"{args.detector}")  # fmt: skip
    if (args.hands is None) == (not args.game):
        raise UserError("simulate: give --hands N or --game (one whole game), or --clip DIR")
    if args.hands is not None and not 1 <= args.hands <= 10_000:
        raise UserError(f"--hands {args.hands}: choose 1 to 10000")
    if not 0.0 <= args.renege_rate <= 1.0:
        raise UserError(f"--renege-rate {args.renege_rate}: a probability between 0 and 1")
    for name, rate in (("--steal-rate", args.steal_rate), ("--turned-in-front", args.turned_in_front)):
        if not 0.0 <= rate <= 1.0:
            raise UserError(f"{name} {rate}: a probability between 0 and 1")
    rules = table_rules(args)
    style = args.deck_style if args.deck_style is not None else st.DEFAULT_DECK
    faces, back, deck_name = st.load_deck(style, args.art, rules.deck_size)
    if args.deck_print is not None:
        from lab.synth.scenes import reprint_faces

        faces = reprint_faces(faces, args.deck_print, args.seed)
        print(f"simulate: the deck printed {args.deck_print} (--deck-print)", file=sys.stderr)
    if rules.has_benny and st.joker_stand_in(style, args.art):
        print(f"simulate: {style!r} has no Joker; a plain drawn one stands in for the Benny", file=sys.stderr)
    if deck_name != style and not style.startswith("procedural"):
        print(f"simulate: no artwork for {style!r} here; drawing procedural faces ({deck_name})", file=sys.stderr)
    else:
        from lab.synth.faces import HELD_OUT_DECKS

        if style not in HELD_OUT_DECKS and not style.startswith("procedural"):
            print(f"simulate: note: {style!r} is a training deck, not a held-out one", file=sys.stderr)
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        raise UserError(f"--size {args.size!r}: expected WIDTHxHEIGHT such as 640x480") from None
    if not (160 <= w <= 1920 and 120 <= h <= 1080):
        raise UserError(f"--size {args.size}: choose between 160x120 and 1920x1080")
    hands = None if args.game else args.hands
    script = st.build_script(
        args.seed, hands, args.renege_rate, rules=rules, pace=st.PACES[args.pace],
        turned_in_front=args.turned_in_front, steal_rate=args.steal_rate,
    )  # fmt: skip
    noise = 0.0 if args.record else 3.0  # a recording gets its grain from the video coding
    detail = MAIN_STREAM_SCALE if args.main_stream else 1
    renderer = st.TableRenderer(script, faces, back, frame_size=(w, h), seed=args.seed, noise=noise, detail=detail)
    if args.detections is not None:
        return _with_detections(args, script, renderer, rules, faces, back, deck_name, (w, h))
    detector: Any
    if args.detector == "oracle":
        detector = st.OracleDetector(renderer)
    elif args.detector == "noisy":
        detector = st.NoisyOracle(renderer, seed=args.seed)
    else:
        detector = _load_model(args)
        if args.enrol is None and rules.has_benny:
            print("simulate: these rules play the Benny, which the reader names only from the deck's profile: "
                  "the rendered deck is enrolled first, as at such a table (--no-enrol to play without)",
                  file=sys.stderr)  # fmt: skip
        if enrols_first(args.enrol, rules):
            _enrol(detector, rules, faces, back, deck_name, args.seed, (w, h), detail)
    recorder = st.ClipRecorder(args.record, args.fps or st.DEFAULT_FPS) if args.record else None
    result = st.run_simulation(
        script, renderer, detector, deck_name, recorder.add if recorder else None, answer_checks=args.answer_checks
    )
    if recorder is not None:
        recorder.finish(script, deck_name)
    return result, deck_name, (w, h)


def reader_files(model: Path) -> list[Path]:
    """The files that decide what the reader of finder ``model`` reads: the finder and what lies beside it
    (``vision.models``, ``vision.face_reader``); a recording of detections is another run's if one changes."""
    from vision.face_reader import FACE_READER_NAME
    from vision.models import (
        CLASSES_NAME,
        CLASSIFIER_NAME,
        DARK_CLASSIFIER_NAME,
        DARK_FINDER_NAME,
        NEAR_FINDER_NAME,
        UNENROLLED_CLASSIFIER_NAME,
    )

    beside = (
        CLASSIFIER_NAME, UNENROLLED_CLASSIFIER_NAME, DARK_CLASSIFIER_NAME, DARK_FINDER_NAME, NEAR_FINDER_NAME,
        FACE_READER_NAME, CLASSES_NAME,
    )
    return [model, *(model.parent / name for name in beside)]


def _with_detections(
    args: argparse.Namespace, script: Any, renderer: Any, rules: Any, faces: Any, back: Any, deck_name: str,
    size: tuple[int, int],
) -> tuple[Any, str, tuple[int, int]]:
    """``--detections FILE``: replay the recording in FILE of this very run, or record it there."""
    import hashlib
    import json

    from lab import simtable as st
    from lab.sim_detections import DetectionRecorder, RecordedFrames, run_identity
    from vision.models import default_model_path

    model = args.model if args.model is not None else default_model_path()
    enrol = enrols_first(args.enrol, rules)
    # The script itself (its card rests, deals and score, as a clip's ground truth): a simulator that now
    # stages these arguments otherwise makes the recording another run's.
    truth = json.dumps(st.ground_truth(script, deck_name, st.DEFAULT_FPS, size), sort_keys=True)
    settings = {
        "seed": args.seed, "hands": args.hands, "game": args.game, "renege_rate": args.renege_rate,
        "rules": repr(rules), "deck": deck_name, "size": list(size), "pace": args.pace,
        "turned_in_front": args.turned_in_front, "steal_rate": args.steal_rate, "enrol": enrol,
        "script": hashlib.sha256(truth.encode()).hexdigest(), "detail": renderer.detail,
        "deck_print": args.deck_print,
    }  # fmt: skip
    identity = run_identity(settings, reader_files(model))
    if args.detections.exists():
        frames = RecordedFrames(args.detections, identity, script.frames)
        print(f"simulate: replaying the detections recorded in {args.detections} (nothing drawn or read)",
              file=sys.stderr)  # fmt: skip

        def replay(pipeline: Any) -> None:
            pipeline.refresher = frames

        run = st.run_simulation(
            script, renderer, frames, deck_name, render=False, prepare=replay, answer_checks=args.answer_checks
        )
        return run, deck_name, size
    detector = _load_model(args)
    if enrol:
        _enrol(detector, rules, faces, back, deck_name, args.seed, size, renderer.detail)
    recorders: list[DetectionRecorder] = []

    def record(pipeline: Any) -> None:
        recorder = DetectionRecorder(args.detections, identity, pipeline.detector, pipeline.refresher)
        pipeline.detector = pipeline.refresher = recorder
        recorders.append(recorder)

    result = st.run_simulation(script, renderer, detector, deck_name, prepare=record, answer_checks=args.answer_checks)
    for recorder in recorders:
        recorder.close()
    print(f"simulate: detections recorded in {args.detections}", file=sys.stderr)
    return result, deck_name, size


def main_stream_note(args: argparse.Namespace, size: tuple[int, int]) -> str:
    """`` (cards read from a 1280x960 main stream)`` with ``--main-stream``, else nothing."""
    if not getattr(args, "main_stream", False):
        return ""
    return f" (cards read from a {size[0] * MAIN_STREAM_SCALE}x{size[1] * MAIN_STREAM_SCALE} main stream)"


def enrols_first(enrol: bool | None, rules: Any) -> bool:
    """Whether the model detector enrols the rendered deck before the game: as ``--enrol``/``--no-enrol`` say,
    else where the rules play the Benny (a Joker is named only from the deck's profile, so a table playing
    the Benny enrols its deck first: ``companion.builder.benny_warning``)."""
    return bool(rules.has_benny) if enrol is None else enrol


def _enrol(
    detector: Any, rules: Any, faces: Any, back: Any, deck_name: str, seed: int, size: tuple[int, int], detail: int = 1
) -> None:
    """Enrol the rendered deck on the rendered mat and read with its profile from now on (stderr: how it went);
    ``detail`` 2: from the main stream too (``--main-stream``)."""
    from lab.sim_enrol import onnx_enrolment, simulate_enrolment
    from table.cards import deck
    from vision.errors import UserError
    from vision.onnx_detector import OnnxDetector

    if not isinstance(detector, OnnxDetector) or detector.classifier is None:
        raise UserError("simulate: --enrol needs the two-stage ONNX reader (finder and corner classifier)")
    cards = deck(rules.deck_size)
    run = simulate_enrolment(
        cards, faces, back, onnx_enrolment(detector, cards), rules, seed=seed, frame_size=size, detail=detail
    )
    e = run.enrolment
    profile = e.build("simulated")
    detector.classifier.use_profile(profile)
    missing = " ".join(str(c) for c in e.missing) or "none"
    print(
        f"simulate: enrolled {len(e.enrolled)} of {len(cards)} cards of {deck_name} in {run.seconds:.1f} s of video "
        f"({run.batches} batches, {run.asked} named on the panel in {run.presses} presses, {run.wrong_reads} wrong "
        f"readings undone; missing: {missing})",
        file=sys.stderr,
    )
    from companion.commands.enrol import alike_note

    note = alike_note(profile)
    if note is not None:
        print(f"simulate: {note}", file=sys.stderr)


def table_rules(args: argparse.Namespace) -> Any:
    """The rules to play: ``--config``'s ``[rules]`` (on ``--rules``'s preset, when given), or ``--rules``'s preset."""
    from table.rules import Rules, RulesError
    from vision.errors import UserError

    if args.config is not None:
        import dataclasses

        from companion.config import load_config

        config = load_config(args.config)
        if args.preset is not None:
            config = dataclasses.replace(config, rules_preset=args.preset)
        return config.rules()
    try:
        return Rules.preset(args.preset) if args.preset is not None else Rules()
    except RulesError as exc:
        raise UserError(f"--rules {args.preset}: {exc}") from None


def rules_name(rules: Any) -> str:
    """A preset's name, or "custom" (for the stderr line)."""
    from table.rules import PRESETS

    return next((name for name, preset in PRESETS.items() if preset == rules), "custom")
