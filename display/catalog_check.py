"""Checks the translation catalogs against the messages the code asks for.

The messages are read from the code itself (every ``_``, ``ngettext``,
``pgettext`` and ``npgettext`` call with literal strings in the ``display``
package), so a new phrase without its translations fails the check. For each
language's compiled catalog it finds:

- missing: a message the catalog lacks (gettext would fall back to the English words);
- same as English: a translation identical to the English words that `SAME_AS_ENGLISH` does not
  declare (a word a language borrows, like "Benny", is declared; a forgotten one is not);
- placeholders: a translation whose ``{fields}`` differ from the English message's.

``python -m display.catalog_check`` prints ``languages=en,da,id,ro missing=0`` and exits 0 when all is well.
"""

from __future__ import annotations

import ast
import gettext
import string
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from display.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

PACKAGE_DIR = Path(__file__).parent
_KEYWORDS = {"_": (None, 0, None), "ngettext": (None, 0, 1), "pgettext": (0, 1, None), "npgettext": (0, 1, 2)}
_COUNTS = range(0, 1001)  # enough counts to meet every plural form of the languages here

# Translations a language writes as English does, on purpose: the corner indices of the international deck the
# camera reads, the Benny's name, punctuation-only templates, and borrowed words ("jack" in Indonesian, the
# dealer's "D" chip in Romanian and Indonesian).
_SHARED = frozenset({"7", "8", "9", "10", "J", "Q", "K", "A", "Benny", "{declaration}: {who}", "{result}: {points}"})
SAME_AS_ENGLISH: dict[str, frozenset[str]] = {
    "da": _SHARED | {"{who} ({role})"},
    "id": _SHARED | {"{who} ({role})", "D", "jack"},
    "ro": _SHARED | {"{who} ({role})", "D"},
}


@dataclass(frozen=True)
class Message:
    """One message as the code asks for it: its context (or None), the English words, and the plural."""

    context: str | None
    msgid: str
    plural: str | None = None
    where: str = field(default="", compare=False)


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def messages(files: Iterable[Path] | None = None) -> list[Message]:
    """Every message the code of ``files`` (default: the display package) asks gettext for, once each."""
    found: dict[Message, Message] = {}
    for path in sorted(files if files is not None else PACKAGE_DIR.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name not in _KEYWORDS:
                continue
            ctx_i, id_i, plural_i = _KEYWORDS[name]
            args = [_literal(a) for a in node.args]
            if len(args) <= max(i for i in (ctx_i, id_i, plural_i) if i is not None) or args[id_i] is None:
                continue
            msg = Message(
                args[ctx_i] if ctx_i is not None else None,
                args[id_i] or "",
                args[plural_i] if plural_i is not None else None,
                f"{path.name}:{node.lineno}",
            )
            found.setdefault(msg, msg)
    return list(found.values())


class _Misses(gettext.NullTranslations):
    """A fallback that notes every message the catalog in front of it lacked."""

    def __init__(self) -> None:
        super().__init__()
        self.missed = 0

    def gettext(self, message: str) -> str:
        self.missed += 1
        return message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        self.missed += 1
        return msgid1 if n == 1 else msgid2

    def pgettext(self, context: str, message: str) -> str:
        self.missed += 1
        return message

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        self.missed += 1
        return msgid1 if n == 1 else msgid2


def _fields(text: str) -> set[str]:
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError:
        return {"<malformed>"}


def catalog_path(lang: str, suffix: str = ".mo") -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


def _forms(t: gettext.GNUTranslations, m: Message) -> list[str]:
    """What the catalog says for ``m``: one text, or each plural form."""
    if m.plural is None:
        return [t.gettext(m.msgid) if m.context is None else t.pgettext(m.context, m.msgid)]
    seen: dict[str, None] = {}
    for n in _COUNTS:
        text = t.ngettext(m.msgid, m.plural, n) if m.context is None else t.npgettext(m.context, m.msgid, m.plural, n)
        seen.setdefault(text, None)
    return list(seen)


@dataclass
class Report:
    """What is wrong with one language's catalog, message by message."""

    lang: str
    missing: list[Message] = field(default_factory=list)
    same_as_english: list[Message] = field(default_factory=list)
    placeholders: list[tuple[Message, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.missing or self.same_as_english or self.placeholders)

    def lines(self) -> Iterator[str]:
        for m in self.missing:
            yield f"{self.lang}: missing {m.msgid!r} ({m.where})"
        for m in self.same_as_english:
            yield f"{self.lang}: same as English, not declared: {m.msgid!r} ({m.where})"
        for m, text in self.placeholders:
            yield f"{self.lang}: placeholders differ: {m.msgid!r} -> {text!r} ({m.where})"


def check(lang: str, wanted: Iterable[Message] | None = None, mo: Path | None = None) -> Report:
    """Check ``lang``'s compiled catalog (or the ``.mo`` file ``mo``) against ``wanted`` (default: the code's)."""
    with (mo or catalog_path(lang)).open("rb") as f:
        t = gettext.GNUTranslations(f)
    misses = _Misses()
    t.add_fallback(misses)
    report = Report(lang)
    declared = SAME_AS_ENGLISH.get(lang, frozenset())
    for m in wanted if wanted is not None else messages():
        before = misses.missed
        forms = _forms(t, m)
        if misses.missed > before or not all(forms):
            report.missing.append(m)
            continue
        english = _fields(m.msgid) | _fields(m.plural or "")
        for text in forms:
            if _fields(text) != english:
                report.placeholders.append((m, text))
        if lang != "en" and m.msgid in forms and m.msgid not in declared:
            report.same_as_english.append(m)
    return report


def main(argv: list[str] | None = None) -> int:
    wanted = messages()
    reports = [check(lang, wanted) for lang in LANGUAGES]
    for r in reports:
        for line in r.lines():
            print(line, file=sys.stderr)
    missing = sum(len(r.missing) for r in reports)
    summary = f"languages={','.join(LANGUAGES)} missing={missing}"
    undeclared = sum(len(r.same_as_english) for r in reports)
    mismatched = sum(len(r.placeholders) for r in reports)
    if undeclared or mismatched:
        summary += f" same_as_english={undeclared} placeholders={mismatched}"
    print(summary)
    return 0 if all(r.ok for r in reports) else 1


if __name__ == "__main__":
    raise SystemExit(main())
