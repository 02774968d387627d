"""The translation catalogs: every message in every language, no silent English, placeholders kept, plurals."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from display import catalog_check, i18n, phrases
from display.catalog_check import Message, catalog_path, check, messages
from display.i18n import LANGUAGES, UnknownLanguage, using
from display.phrases import Voice
from display.typeface import missing_glyphs
from table.announcements import HandScored, TrickWon
from table.cards import BENNY, Card, Suit

C = Card.parse
NAMES = ("North", "East", "South", "West")


def test_the_catalog_check_prints_its_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert catalog_check.main() == 0
    assert capsys.readouterr().out.strip() == "languages=en,da,id,ro missing=0"


def test_the_code_asks_for_the_messages_of_every_kind() -> None:
    found = messages()
    assert len(found) > 150
    assert Message("seat", "North") in found
    assert Message(None, "{team} score {n}", "{team} score {n}") in found
    assert Message("card", "the {rank} of {suit}") in found


def test_the_extractor_reads_each_call_form(tmp_path: Path) -> None:
    source = tmp_path / "words.py"
    source.write_text(
        'a = _("one")\nb = ngettext("{n} cat", "{n} cats", n)\nc = i18n.pgettext("ctx", "two")\n'
        'd = npgettext("ctx", "{n} dog", "{n} dogs", n)\ne = _(name)\n'
    )
    assert messages([source]) == [
        Message(None, "one"),
        Message(None, "{n} cat", "{n} cats"),
        Message("ctx", "two"),
        Message("ctx", "{n} dog", "{n} dogs"),
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_in_every_catalog(lang: str) -> None:
    report = check(lang)
    assert report.missing == [], list(report.lines())
    assert report.placeholders == [], list(report.lines())
    assert report.same_as_english == [], list(report.lines())


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_declared_english_words_are_really_english(lang: str) -> None:
    """A declaration that no longer matches its translation would hide a forgotten one later."""
    t = i18n.translation(lang)
    for msgid in catalog_check.SAME_AS_ENGLISH[lang]:
        said = {t.gettext(m.msgid) if m.context is None else t.pgettext(m.context, m.msgid)
                for m in messages() if m.msgid == msgid}
        assert msgid in said, (lang, msgid, said)


def _mo(tmp_path: Path, lang: str, entries: dict[str, str]) -> Path:
    catalog = Catalog(locale=lang)
    for msgid, msgstr in entries.items():
        catalog.add(msgid, msgstr)
    path = tmp_path / f"{lang}.mo"
    with path.open("wb") as f:
        write_mo(f, catalog)
    return path


def test_the_check_finds_a_missing_message_an_english_one_and_a_lost_placeholder(tmp_path: Path) -> None:
    wanted = [Message(None, "{who} to lead"), Message(None, "Hand over"), Message(None, "{who} takes the trick")]
    mo = _mo(tmp_path, "da", {"Hand over": "Hand over", "{who} takes the trick": "Nogen tager stikket"})
    report = check("da", wanted, mo)
    assert report.missing == [wanted[0]]
    assert report.same_as_english == [wanted[1]]
    assert report.placeholders == [(wanted[2], "Nogen tager stikket")]
    assert not report.ok


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_compiled_catalog_is_its_source_compiled(lang: str) -> None:
    """The shipped .mo is what ``pybabel compile -d display/locale -D euchre_table`` makes of the .po."""
    with catalog_path(lang, ".po").open("rb") as f:
        catalog = read_po(f)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    assert compiled.getvalue() == catalog_path(lang).read_bytes(), f"recompile {catalog_path(lang, '.po')}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_fonts_draw_every_translation(lang: str) -> None:
    letters = "".join(sorted(set(catalog_path(lang, ".po").read_text(encoding="utf-8")) - set(" \n\t")))
    assert missing_glyphs(letters) == [] and missing_glyphs(letters, bold=True) == []


def test_the_fonts_draw_the_letters_of_danish_and_romanian() -> None:
    letters = "ăâîșțĂÂÎȘȚæøåÆØÅ"
    assert missing_glyphs(letters) == [] and missing_glyphs(letters, bold=True) == []
    assert "ț" in catalog_path("ro", ".po").read_text(encoding="utf-8")
    assert "ø" in catalog_path("da", ".po").read_text(encoding="utf-8")


def test_an_unknown_language_is_refused_and_the_language_returns_after_a_block() -> None:
    with pytest.raises(UnknownLanguage):
        i18n.set_language("xx")
    before = i18n.language()
    with using("ro"):
        assert i18n.language() == "ro"
    assert i18n.language() == before


@pytest.mark.parametrize(("lang", "voice"), [("en", "en"), ("da", "da"), ("ro", "ro"), ("id", "id")])
def test_each_language_speaks_with_its_espeak_voice(lang: str, voice: str) -> None:
    assert i18n.voice(lang) == voice


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", ["North–South score 1", "North–South score 2", "North–South score 20"]),
        ("da", ["Nord–Syd får 1 point", "Nord–Syd får 2 point", "Nord–Syd får 20 point"]),
        ("ro", ["Nord–Sud primesc 1 punct", "Nord–Sud primesc 2 puncte", "Nord–Sud primesc 20 de puncte"]),
        ("id", ["Utara–Selatan dapat 1 poin", "Utara–Selatan dapat 2 poin", "Utara–Selatan dapat 20 poin"]),
    ],
)
def test_plural_forms(lang: str, said: list[str]) -> None:
    with using(lang):
        team = phrases.team_name(phrases.seat_names(), 0)
        assert [phrases.score_text(team, n) for n in (1, 2, 20)] == said


@pytest.mark.parametrize(
    ("lang", "jack", "right", "left", "trick"),
    [
        ("en", "the jack of diamonds", "the right bower", "the left bower", "East takes the trick"),
        ("da", "ruder knægt", "højre bonde", "venstre bonde", "Øst tager stikket"),
        ("ro", "valet de caro", "valetul drept", "valetul stâng", "Est ia levata"),
        ("id", "jack wajik", "jack kanan", "jack kiri", "Timur ambil trik"),
    ],
)
def test_cards_bowers_and_seats_in_each_language(lang: str, jack: str, right: str, left: str, trick: str) -> None:
    with using(lang):
        names = phrases.seat_names()
        assert phrases.card_text(C("Jd"), Voice.SPEECH) == jack
        assert phrases.trick_card_text(C("Jd"), Suit.DIAMONDS) == right
        assert phrases.trick_card_text(C("Jd"), Suit.HEARTS) == left
        assert phrases.speech_text(TrickWon(1, C("Ac"), 0), names) == trick
        assert phrases.card_text(C("Td")) == "10\u2666"
        assert phrases.card_text(BENNY) == "Benny"


def test_a_euchre_in_each_language_names_both_teams() -> None:
    scored = HandScored(points=(0, 2), tricks=(2, 3), makers=0, reason="euchre", score=(4, 8))
    said = {}
    for lang in LANGUAGES:
        with using(lang):
            said[lang] = phrases.hand_result_text(scored, phrases.seat_names(), Voice.SPEECH)
    assert said["en"] == "Euchred! East and West stop North and South: East and West score 2"
    assert said["da"] == "Bet! Øst og Vest sætter Nord og Syd bet: Øst og Vest får 2 point"
    assert said["ro"] == "Căzut! Est și Vest îi opresc pe Nord și Sud: Est și Vest primesc 2 puncte"
    assert said["id"] == "Gagal! Timur dan Barat menggagalkan Utara dan Selatan: Timur dan Barat dapat 2 poin"
