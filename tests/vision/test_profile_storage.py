"""A deck profile on a full disk and through a power cut: every file it writes is fsynced, a save that
fails keeps the profile the table had (and no half-written copy), and a power cut between the two renames
that put a new profile in place is finished on the next load."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from test_deck_profile import tiny_profile  # noqa: E402

import table.durable as durable  # noqa: E402
from companion.commands.enrol import CONTACT_SHEET, save_deck  # noqa: E402
from display.enrolment import EnrolAction, Enrolled, Enrolment, Step  # noqa: E402
from table.cards import Card  # noqa: E402
from vision.deck_profile import (  # noqa: E402
    PROFILE_FILE,
    DeckProfile,
    configured_profile,
    load_profile,
    profile_folder,
    replacing_folders,
    save_profile,
)
from vision.errors import UserError  # noqa: E402

DECK = [Card.parse(c) for c in ("Qh", "Qd", "B")]


def _named(profile: DeckProfile, name: str) -> DeckProfile:
    profile.name = name
    return profile


def _saved(data: Path, created: str) -> Path:
    profile = _named(tiny_profile(), "house")
    profile.created = created
    return save_deck(profile, data, DECK, {}, f"made {created}")


def _spy_on_fsync(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The path of every file and folder fsynced from now on, in order."""
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return synced


def _full(path: Path, data: bytes) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


def test_every_file_of_a_profile_is_fsynced_before_it_counts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced = _spy_on_fsync(monkeypatch)
    folder = save_profile(tiny_profile(), tmp_path / "tiny").parent
    files = {str(p) for p in folder.rglob("*") if p.is_file()}
    # profile.json was fsynced under its temporary name, then renamed, and the folders after the rename.
    names = {s.replace(PROFILE_FILE + ".tmp", PROFILE_FILE) for s in synced}
    assert files <= names, sorted(files - names)
    assert {str(folder), str(folder / "crops")} <= names
    assert synced.index(str(folder / (PROFILE_FILE + ".tmp"))) > max(
        synced.index(str(p)) for p in (folder / "crops").iterdir()
    ), "the JSON, which makes the profile count, is written after its crops"


def test_the_contact_sheet_and_the_swap_are_synced_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced = _spy_on_fsync(monkeypatch)
    folder = _saved(tmp_path, "first")
    fresh, _old = replacing_folders(folder)
    assert str(fresh / CONTACT_SHEET) in synced  # written by pygame, synced before the swap
    assert synced[-1] == str(folder.parent)  # the renames that put it in place


def test_a_full_disk_keeps_the_tables_profile_and_no_half_written_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _saved(tmp_path, "first")
    assert (folder / CONTACT_SHEET).is_file()
    real = durable.write_synced
    writes = 0

    def filling(path: Path, data: bytes) -> None:
        nonlocal writes
        writes += 1
        if writes > 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(path, data)

    monkeypatch.setattr(durable, "write_synced", filling)
    with pytest.raises(UserError) as err:
        _saved(tmp_path, "second")
    assert str(folder) in str(err.value) and "No space left on device" in str(err.value)
    assert load_profile(folder).created == "first"
    fresh, old = replacing_folders(folder)
    assert not fresh.exists() and not old.exists()
    assert sorted(p.name for p in folder.parent.iterdir()) == ["house"]


@pytest.mark.parametrize("new_written_whole", [True, False])
def test_a_power_cut_between_the_renames_is_finished_on_the_next_load(tmp_path: Path, new_written_whole: bool) -> None:
    folder = profile_folder(tmp_path, "house")
    fresh, old = replacing_folders(folder)
    _saved(tmp_path, "old").rename(old)  # the first rename done: the old profile moved aside
    new = _named(tiny_profile(), "house")
    new.created = "new"
    save_profile(new, fresh)
    if not new_written_whole:
        (fresh / PROFILE_FILE).unlink()  # cut before its JSON, which is written last
    assert not folder.exists()
    profile = configured_profile(tmp_path, "house")
    assert profile is not None and profile.created == ("new" if new_written_whole else "old")
    assert folder.is_dir() and not old.exists()
    # A later save starts clean either way.
    assert load_profile(_saved(tmp_path, "later")).created == "later"
    assert sorted(p.name for p in folder.parent.iterdir()) == ["house"]


class _Builds:
    """An enrolment builder stand-in: the tiny profile, named as asked."""

    def build(self, name: str) -> DeckProfile:
        return _named(tiny_profile(), name)


def _ended(enrolled: dict[Card, bool]) -> Enrolment:
    """An enrolment that has ended with these cards in (each: whether the players named it)."""
    e = Enrolment(DECK, reader=None, builder=_Builds(), clock=lambda: 5.0)  # type: ignore[arg-type]
    e.enrolled = {card: Enrolled(card, by_players, 0, k) for k, (card, by_players) in enumerate(enrolled.items())}
    e.finish()
    return e


def test_a_save_on_a_full_disk_keeps_the_enrolment_and_saves_when_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.commands.enrol import _finish, _saver

    e = _ended({card: False for card in DECK})
    save = _saver(e, "house", tmp_path)
    real = durable.write_synced
    monkeypatch.setattr(durable, "write_synced", _full)
    save()
    assert e.saved is None and e.unsaved is not None and "No space left on device" in e.unsaved
    assert not profile_folder(tmp_path, "house").exists()
    assert "No space left on device" in capsys.readouterr().err
    monkeypatch.setattr(durable, "write_synced", real)  # space freed; Call on the contact sheet tries again
    e.act(Step(EnrolAction.CONFIRM))
    assert e.wants_saving and not e.quit
    save()
    assert e.saved == str(profile_folder(tmp_path, "house")) and e.unsaved is None
    assert _finish(e, "house", save) == 0
    assert load_profile(profile_folder(tmp_path, "house")).name == "house"
    assert "enrol: deck house: 3 of 3 cards" in capsys.readouterr().out


def test_leaving_after_a_failed_save_says_the_deck_was_not_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.commands.enrol import _finish, _saver

    e = _ended({DECK[0]: True})
    save = _saver(e, "house", tmp_path)
    monkeypatch.setattr(durable, "write_synced", _full)
    save()
    e.act(Step(EnrolAction.QUIT))
    with pytest.raises(UserError, match="deck house was not saved .*No space left on device.*enrol again"):
        _finish(e, "house", save)


class _BuildsOneInk:
    """An enrolment builder stand-in: the queens of diamonds and spades enrolled alike (one ink), with crops."""

    def build(self, name: str) -> DeckProfile:
        import numpy as np

        from vision.deck_profile import CardPrototypes, Prototype

        rng = np.random.default_rng(1)
        cards, images = {}, {}
        for card, lean in (("Qd", 0.0), ("Qs", 0.05)):
            rel = f"crops/{card}-TL.png"
            images[rel] = rng.integers(0, 255, (64, 48, 3), dtype=np.uint8)
            cards[Card.parse(card)] = CardPrototypes([Prototype("TL", rel, np.array([1.0, lean, 0.0], np.float32))])
        return DeckProfile(name=name, cards=cards, features=3, images=images)


def test_a_saved_enrolment_of_a_deck_printing_suits_alike_says_so_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.commands.enrol import ALIKE_SCREEN_NOTE, _finish, _saver

    e = Enrolment(DECK, reader=None, builder=_BuildsOneInk(), clock=lambda: 5.0)  # type: ignore[arg-type]
    e.enrolled = {card: Enrolled(card, True, 0, k) for k, card in enumerate(DECK)}
    e.finish()
    save = _saver(e, "gold", tmp_path)
    _finish(e, "gold", save)
    assert e.note == ALIKE_SCREEN_NOTE  # the contact sheet's line
    err = capsys.readouterr().err
    assert err.count("prints some suits alike") == 1 and "Q♦ Q♠" in err
    plain = _ended({card: False for card in DECK})  # the tiny profile: no cousins at all
    _finish(plain, "house", _saver(plain, "house", tmp_path))
    assert plain.note is None and "alike" not in capsys.readouterr().err
