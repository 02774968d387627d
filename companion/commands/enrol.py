"""``euchre-table enrol``: learn the table's own deck once, through the camera, into a deck profile.

The players lay the deck of the rules in play (24, 25 with the Joker, 32 or 33 cards) face up on the
mat, all at once in rows or a few cards at a time. The screen shows each card as read and asks about
the ones the reader cannot name (``display.enrolment``, ``display.enrol_screen``); it ends on a contact
sheet of the enrolled deck. The profile goes to ``<data folder>/decks/<NAME>/`` (``vision.deck_profile``)
with ``contact_sheet.png`` beside it; the config picks it with ``[camera] deck = NAME``. Enrolling a deck
again replaces its profile (the new one is written aside first, then swapped in).

``--from-photos IMAGES LABELS`` builds the profile from labelled photos instead
(``vision.enrol_photos``). ``--headless --out DIR`` runs without a window (a video or a folder of
pictures as ``--source``; ``--buttons FILE`` for the players' presses, as ``run`` reads them): the
profile then goes to ``DIR/decks/NAME`` and screenshots to ``DIR/screens``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import UserError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from display.enrolment import Enrolment
    from table.cards import Card
    from vision.deck_profile import DeckProfile

CONTACT_SHEET = "contact_sheet.png"
DEFAULT_NAME = "house"


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "enrol",
        help="learn the table's own deck once through the camera (a deck profile the reader then uses)",
        description=(
            "Lay the deck face up on the mat, all at once in rows or a few cards at a time. The screen shows each "
            "card as read and asks about the ones it cannot name: Pass steps to the next candidate, a suit button "
            "to the next of that suit, Alone to the Joker, Call confirms, New game leaves a card out (not of this "
            "deck), Undo takes back the last card. It ends on a contact sheet of the deck, saved as PNG beside the "
            "profile. Set [camera] deck = NAME in the config to read with it."
        ),
    )
    p.add_argument("--config", type=Path, help="the TOML config file (default: built-in defaults)")
    p.add_argument("--source", help="camera[:INDEX], picamera, video:PATH or images:DIR (default: the config's)")
    p.add_argument("--name", help=f"the deck's name (default: the config's [camera] deck, else {DEFAULT_NAME!r})")
    p.add_argument(
        "--from-photos", nargs=2, type=Path, metavar=("IMAGES", "LABELS"),
        help="build the profile from labelled photos instead (a folder and its labels CSV, as eval-vision reads)",
    )  # fmt: skip
    p.add_argument("--headless", action="store_true", help="no window: screenshots go to --out DIR/screens")
    p.add_argument("--out", type=Path, help="the data folder to write the profile into (default: the config's)")
    p.add_argument("--buttons", type=Path, help="timed button presses to replay (JSON lines: frame, action)")
    p.add_argument("--model", type=Path, help="the detector model (default: the config's, or the shipped one)")
    p.add_argument("--windowed", action="store_true", help="a window, not full screen")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.config import load_config
    from table.cards import deck
    from vision.deck_profile import check_name

    config = load_config(args.config)
    rules = config.rules()
    name = check_name(args.name or config.camera.deck or DEFAULT_NAME)
    if args.headless and args.out is None and args.from_photos is None:
        raise UserError("--headless needs --out DIR for the screenshots and the profile")
    data = _data_folder(args.out if args.out is not None else Path(config.storage.data_dir))
    cards = deck(rules.deck_size)
    detector = _detector(config, args)
    if args.from_photos is not None:
        return _from_photos(args.from_photos, name, data, cards, detector)
    source = args.source or config.camera.source
    if source.strip().lower().partition(":")[0] == "sim":
        raise UserError(
            f"--source {source}: the simulated table deals a game; to enrol its deck, use "
            "`euchre-table simulate --enrol`"
        )
    return _from_camera(config, args, source, name, data, cards, detector)


def _data_folder(folder: Path) -> Path:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"{folder}: cannot create the data folder: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK):
        raise UserError(f"{folder}: the data folder is not writable")
    return folder


def _detector(config: Any, args: argparse.Namespace) -> Any:
    from vision.detector import load_detector
    from vision.models import default_model_path
    from vision.onnx_detector import OnnxDetector

    model = args.model or (Path(config.model.path) if config.model.path else default_model_path())
    detector = load_detector(model, config.model.backend, threads=1, conf_threshold=config.model.min_confidence)
    if not isinstance(detector, OnnxDetector) or detector.classifier is None:
        raise UserError(f"{model}: enrolment needs the two-stage ONNX reader (finder and corner classifier)")
    return detector


def save_deck(
    profile: DeckProfile,
    data: Path,
    deck_cards: Sequence[Card],
    faces: Mapping[Card, npt.NDArray[np.uint8]],
    summary: str,
    named: frozenset[Card] = frozenset(),
    note: str | None = None,
) -> Path:
    """Write the profile and its contact sheet to ``<data>/decks/<name>``, replacing an older one whole
    (``note``: the sheet's line for the players, :func:`screen_note`)."""
    from display.enrol_screen import save_contact_sheet
    from table.durable import fsync_dir, sync_file
    from vision.deck_profile import finish_replacing, profile_folder, replacing_folders, save_profile

    folder = profile_folder(data, profile.name)
    finish_replacing(folder)  # a replacement a power cut interrupted is finished first
    fresh, old = replacing_folders(folder)
    try:
        shutil.rmtree(fresh, ignore_errors=True)
        save_profile(profile, fresh)
        sheet = save_contact_sheet(
            fresh / CONTACT_SHEET, deck_cards, faces, profile.name, summary, named, note
        )
        sync_file(sheet)
        fsync_dir(fresh)
        shutil.rmtree(old, ignore_errors=True)
        # Two renames put the new profile in place; a power cut between them leaves both beside the missing
        # folder, and vision.deck_profile.finish_replacing completes the change on the next load or save.
        if folder.exists():
            folder.rename(old)
        fresh.rename(folder)
        fsync_dir(folder.parent)
        shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        shutil.rmtree(fresh, ignore_errors=True)  # a full disk keeps no half-written profile
        raise UserError(f"{folder}: cannot save the deck profile: {exc.strerror or exc}") from None
    except UserError:
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    return folder


def _from_photos(photos: Sequence[Path], name: str, data: Path, deck_cards: Sequence[Card], detector: Any) -> int:
    import numpy as np

    from vision.enrol_photos import enrol_from_photos

    images, labels = photos
    result = enrol_from_photos(images, labels, name, detector=detector)
    profile = result.profile
    faces = {
        card: np.asarray(profile.images[entry.face], np.uint8)
        for card, entry in profile.cards.items()
        if entry.face is not None and entry.face in profile.images
    }
    missing = [c for c in deck_cards if c not in profile.cards]
    photo_count = len({image for image, _card in result.added})
    summary = f"{len(profile)} cards from {photo_count} photos"
    if missing:
        summary += "; missing " + " ".join(str(c) for c in missing)
    alike = alike_note(profile)
    folder = save_deck(profile, data, deck_cards, faces, summary, note=screen_note(alike))
    for image, card, why in result.skipped[:10]:
        print(f"enrol: skipped {card} in {image}: {why}", file=sys.stderr)
    if len(result.skipped) > 10:
        print(f"enrol: ... and {len(result.skipped) - 10} more skipped", file=sys.stderr)
    print(f"enrol: deck {name}: {summary} -> {folder}")
    _tell_alike(alike)
    return 0 if not missing else 1


# The contact sheet's line for a deck that prints some suits alike (the command's output names the cards).
ALIKE_SCREEN_NOTE = (
    "This deck prints some suits alike: those cards are told apart by their faces, and a covered one is asked "
    "to be checked"
)


def alike_note(profile: DeckProfile) -> str | None:
    """A line for the players where the deck prints cousins alike (``vision.deck_profile.alike_pairs``: one ink
    for every suit): the reader cannot tell those cards apart by their corners, so it tells them apart by their
    faces, and asks the table to check them where a face does not tell (covered, or not seen); such a reading
    proves no renege. None else."""
    from display.enrol_screen import card_text
    from vision.deck_profile import alike_pairs

    pairs = alike_pairs(profile)
    if not pairs:
        return None
    shown = ", ".join(f"{card_text(a)} {card_text(b)}" for a, b in pairs)
    return (
        f"this deck prints some suits alike ({shown}): those cards are told apart by their faces, and where a "
        "face is covered the table is asked to check the card, which then proves no renege"
    )


def screen_note(alike: str | None) -> str | None:
    """The contact sheet's line for a deck whose :func:`alike_note` is ``alike`` (:data:`ALIKE_SCREEN_NOTE` where
    it prints some suits alike)."""
    return ALIKE_SCREEN_NOTE if alike is not None else None


def _tell_alike(alike: str | None) -> None:
    if alike is not None:
        print(f"enrol: {alike}", file=sys.stderr)


def _from_camera(
    config: Any, args: argparse.Namespace, source_spec: str, name: str, data: Path, deck_cards: Sequence[Card],
    detector: Any,
) -> int:  # fmt: skip
    from display.enrolment import Enrolment, OnnxReader
    from vision.deck_profile import ProfileBuilder
    from vision.sources import open_source

    if source_spec.split(":", 1)[0] == "picamera":
        source = open_source(source_spec, mains_hz=config.camera.mains_hz)
    else:
        source = open_source(source_spec)
    enrolment = Enrolment(deck_cards, OnnxReader(detector), ProfileBuilder.for_detector(detector))
    presses = _presses(args.buttons)
    save = _saver(enrolment, name, data)
    source.open()
    try:
        if args.headless:
            _headless(enrolment, source, presses, args.out / "screens", name, save, config.camera.main_stream_crops)
        else:
            _windowed(enrolment, source, presses, config, args, name, save)
    finally:
        source.close()
    if enrolment.quit and not enrolment.done:
        print("enrol: stopped before the end; nothing saved", file=sys.stderr)
        return 1
    return _finish(enrolment, name, save)


def _presses(path: Path | None) -> dict[int, list[Any]]:
    from companion.buttons_script import load_buttons

    out: dict[int, list[Any]] = {}
    if path is not None:
        for timed in load_buttons(path):
            out.setdefault(timed.frame, []).append(timed.action)
    return out


def _summary(e: Enrolment) -> str:
    from display.enrol_screen import card_text

    named = sum(1 for v in e.enrolled.values() if v.by_players)
    summary = (
        f"{len(e.enrolled)} of {len(e.deck)} cards in {e.elapsed():.0f} s, {named} named by the players "
        f"({e.presses} presses)"
    )
    if e.missing:
        summary += "; missing " + " ".join(card_text(c) for c in e.missing)
    return summary


def _saver(e: Enrolment, name: str, data: Path) -> Callable[[], None]:
    """Saves the ended enrolment's profile (``save_deck``) and tells the enrolment how it went: a failure
    (a full disk) keeps the enrolment, and its contact sheet offers to try again (``Enrolment.save_failed``)."""

    def save() -> None:
        named = frozenset(card for card, v in e.enrolled.items() if v.by_players)
        try:
            profile = e.build(name)
            alike = alike_note(profile)
            folder = save_deck(profile, data, e.deck, e.faces(), _summary(e), named, screen_note(alike))
        except UserError as exc:
            e.save_failed(str(exc))
            print(f"enrol: {exc}", file=sys.stderr)
        else:
            e.save_done(str(folder), screen_note(alike))
            _tell_alike(alike)

    return save


def _finish(e: Enrolment, name: str, save: Callable[[], None]) -> int:
    if not e.done:
        e.finish()
    if not e.enrolled:
        raise UserError("enrol: no card was enrolled (was the deck laid face up under the camera?)")
    if e.wants_saving:
        save()
    if e.saved is None:
        raise UserError(f"enrol: deck {name} was not saved ({e.unsaved}); free some space and enrol again")
    print(f"enrol: deck {name}: {_summary(e)} -> {e.saved}")
    if e.missing:
        print(f"enrol: lay the missing cards and enrol again, or read with {len(e.enrolled)} cards", file=sys.stderr)
    return 0 if e.complete else 1


def _headless(
    e: Enrolment, source: Any, presses: Mapping[int, list[Any]], screens: Path, name: str,
    save: Callable[[], None], main_stream: bool = False,
) -> None:  # fmt: skip
    """Every frame through the enrolment; a screenshot whenever the screen's story moves on; at the end the
    profile saved (``save``: once, nobody is there to try again) and the contact sheet with its outcome.
    ``main_stream``: cards read from each frame's larger picture, where the camera gives one (``[camera]
    main_stream_crops``)."""
    import pygame

    from display.enrol_screen import render_enrolment
    from display.enrolment import enrol_action

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    screens.mkdir(parents=True, exist_ok=True)
    surface = pygame.Surface((800, 480))
    count = len(list(screens.glob("*.png")))
    last: tuple[object, ...] = ()
    video_time = [0.0]
    e.clock = lambda: video_time[0]  # a recording is timed by its frames, not by how fast they are read
    while not e.done and not e.quit:
        frame = source.read()
        if frame is None:
            if source.ended:
                break
            continue
        video_time[0] = frame.timestamp
        e.update(frame.image_bgr, frame.number, frame.display_bgr if main_stream else None)
        for action in presses.get(frame.number, ()):
            step = enrol_action(action, e.has_joker)
            if step is not None:
                e.act(step)
        q = e.question
        now = (len(e.enrolled), q.card_id if q else None, q.index if q else None, e.done)
        if now != last:
            what = "done" if e.done else "question" if q is not None else "enrolled"
            render_enrolment(surface, e, frame.image_bgr, name)
            pygame.image.save(surface, str(screens / f"{count:04d}-{what}.png"))
            count += 1
            last = now
    if not e.done:
        e.finish()
    if e.wants_saving:
        save()
    render_enrolment(surface, e, None, name)
    pygame.image.save(surface, str(screens / f"{count:04d}-contact-sheet.png"))


def _windowed(
    e: Enrolment, source: Any, presses: Mapping[int, list[Any]], config: Any, args: argparse.Namespace, name: str,
    save: Callable[[], None],
) -> None:  # fmt: skip
    """The enrolment screen on the display with the panel and keyboard, until the contact sheet is dismissed.
    The profile is saved (``save``) as the contact sheet comes up, which says how it went; after a failure
    (a full disk), Call tries again."""
    import queue

    import pygame

    from companion.builder import panel_config
    from display.actions import Action
    from display.buttons import open_panel
    from display.enrol_screen import EnrolScreen
    from display.enrolment import enrol_action
    from display.scoreboard import open_display

    surface = open_display((config.display.width, config.display.height),
                           config.display.fullscreen and not args.windowed, title="Euchre: teach the deck")  # fmt: skip
    actions: queue.Queue[Action] = queue.Queue()
    panel = open_panel(panel_config(config), actions)
    screen = EnrolScreen(surface, e, name, actions, flip=True)
    ticker = pygame.time.Clock()
    image = None
    try:
        while not e.quit:
            if not e.done:
                frame = source.read()
                if frame is not None:
                    image = frame.image_bgr
                    e.update(image, frame.number, frame.display_bgr if config.camera.main_stream_crops else None)
                    for action in presses.get(frame.number, ()):
                        step = enrol_action(action, e.has_joker)
                        if step is not None:
                            e.act(step)
                elif source.ended:
                    e.finish()
            if e.wants_saving:
                save()
            if panel is not None:
                panel.poll()
            screen.handle(pygame.event.get())
            screen.draw(image)
            ticker.tick(30)
    finally:
        if panel is not None:
            panel.close()
        pygame.display.quit()
