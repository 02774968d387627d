"""Fetch real card artwork from package registries and render every Euchre face to a PNG, with a manifest.

Run it once on a fresh machine (it needs the Debian, npm and PyPI clients and
``rsvg-convert`` from apt ``librsvg2-bin``):

    python -m lab.synth.fetch_art --out work-data/art

It downloads the packages named in ``ref/card-art.md`` with the ordinary
clients (``apt-get download`` + ``dpkg -x``, ``npm pack``, ``pip download
--no-deps``), renders the 33 Euchre faces (7..A of four suits and the Joker
where a deck has one) of every deck with English indices and two colours,
keeps each deck's native aspect ratio, gives opaque-cornered decks rounded
transparent corners, and writes ``manifest.csv`` (see ``lab/synth/README.md``).
The artwork stays out of git: ``work-data/`` is ignored.
"""

from __future__ import annotations

import argparse
import csv
import glob
import gzip
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

FACE_HEIGHT = 400  # pixels; scenes draw cards at most ~300 px tall, crops come from this too.

SUITS = "cdhs"
RANKS = "789TJQKA"
EUCHRE_CARDS = [r + s for s in SUITS for r in RANKS] + ["B"]  # "B" is the Joker (Benny)

# GNOME aisleriot themes with English indices and two colours (ref/card-art.md).
GNOME_THEMES = [
    "anglo", "gnomangelo", "anglo_modern", "anglo_poker", "atlasnye", "bellot", "bonded", "dondorf",
    "neoclassical", "orell", "paris", "plastic", "simplistic", "tigullio", "ornamental", "tango", "tango_nuevo",
]
GNOME_PIPS_ONLY = {"guyenne-classic"}  # its courts carry no rank letter
GNOME_MASK_CORNERS = {"plastic"}
# KDE decks with English indices (checked by eye); the others use German/French indices or four colours.
KDE_DECKS = {
    "standard": "svg-standard/standard.svgz",
    "ancient-egyptians": "svg-ancient-egyptians/Ancient_Egyptians.svgz",
    "jolly-royal": "svg-jolly-royal/jolly-royal.svgz",
    "penguins": "svg-penguins/penguins.svgz",
    "tigullio-international": "svg-tigullio-international/tigullio-international.svgz",
    "nicu-white": "svg-nicu-white/white.svgz",
    "oxygen": "svg-oxygen/oxygen.svgz",
    "oxygen-white": "svg-oxygen-white/oxygen-white.svgz",
    "oxygen-air": "svg-oxygen-air/oxygen-air.svgz",
}
# konqi-modern's element ids do not render with rsvg-convert; left out.
KDE_MASK_CORNERS: set[str] = set()
KDE_RANK = {"7": "7", "8": "8", "9": "9", "T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "1"}
KDE_SUIT = {"c": "club", "d": "diamond", "h": "heart", "s": "spade"}

def deck_names() -> frozenset[str]:
    """Every deck name this script can produce (whether or not it has been fetched here)."""
    return frozenset(
        [f"gnome-{t}" for t in [*GNOME_THEMES, *GNOME_PIPS_ONLY]]
        + [f"kde-{d}" for d in KDE_DECKS]
        + ["cardsjs", "kennard-2color", "kennard-2color-bf", "younestouati", "bjgui"]
    )


LICENCES = {
    "gnome": "GPL-3+ (some decks LGPL); Debian gnome-cards-data/aisleriot",
    "kde": "GPL-2+; Debian kdegames-card-data-kf5",
    "cardsjs": "LGPL-3+; npm cardsJS 1.1.1",
    "kennard": "CC0; npm @heruka_urgyen/react-playing-cards 0.5.0 (Adrian Kennard)",
    "bjgui": "MIT (Byron Knoll); PyPI blackjack-gui 1.8.1",
    "younestouati": "LGPL-3.0; npm @younestouati/playing-cards-standard-deck",
}


@dataclass
class Face:
    deck: str
    card: str
    image: np.ndarray  # BGRA, FACE_HEIGHT tall
    family: str
    source: str


def run(cmd: list[str], cwd: Path | None = None) -> None:
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL)


def fetch(src: Path) -> Path:
    """Download every package into ``src`` and unpack it under ``src/x``; return the unpack root."""
    src.mkdir(parents=True, exist_ok=True)
    x = src / "x"
    if (x / ".done").exists():
        return x
    run(["apt-get", "download", "gnome-cards-data", "aisleriot", "kdegames-card-data-kf5"], cwd=src)
    for pkg in ["cardsJS@1.1.1", "@heruka_urgyen/react-playing-cards@0.5.0",
                "@younestouati/playing-cards-standard-deck@3.0.0"]:
        run(["npm", "pack", pkg], cwd=src)
    run([sys.executable, "-m", "pip", "download", "--no-deps", "blackjack-gui==1.8.1", "-d", str(src)])
    x.mkdir(exist_ok=True)
    for deb in src.glob("*.deb"):
        run(["dpkg", "-x", str(deb), str(x / "deb")])
    for tgz in src.glob("*.tgz"):
        dest = x / tgz.name[: -len(".tgz")]
        dest.mkdir(exist_ok=True)
        run(["tar", "xzf", str(tgz), "-C", str(dest)])
    for whl in src.glob("blackjack_gui*.whl"):
        with zipfile.ZipFile(whl) as zf:
            zf.extractall(x / "bj")
    (x / ".done").write_text("ok\n")
    return x


def rsvg(path: Path, width: int | None = None, height: int | None = None, export_id: str | None = None) -> np.ndarray:
    """Render an SVG (or SVGZ) with rsvg-convert to a BGRA array."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "o.png"
        cmd = ["rsvg-convert", "-o", str(out)]
        if width:
            cmd += ["-w", str(width)]
        if height:
            cmd += ["-h", str(height)]
        if export_id:
            cmd += [f"--export-id={export_id}"]
        cmd.append(str(path))
        subprocess.run(cmd, check=True, stderr=subprocess.DEVNULL)
        img = cv2.imread(str(out), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise RuntimeError(f"rsvg-convert produced nothing for {path} {export_id or ''}")
    return to_bgra(img)


def to_bgra(img: np.ndarray) -> np.ndarray:
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGRA)
    elif img.shape[2] == 3:
        img = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
    return img


def trim_and_scale(img: np.ndarray, mask_corners: bool = False) -> np.ndarray:
    """Trim to the opaque card, scale to FACE_HEIGHT, keep aspect; optionally cut rounded corners."""
    alpha = img[:, :, 3]
    ys, xs = np.nonzero(alpha > 40)
    if len(xs) == 0:
        raise RuntimeError("empty face")
    img = img[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]
    h, w = img.shape[:2]
    new_w = max(1, round(w * FACE_HEIGHT / h))
    img = cv2.resize(img, (new_w, FACE_HEIGHT), interpolation=cv2.INTER_AREA)
    if mask_corners:
        img = img.copy()
        img[:, :, 3] = np.minimum(img[:, :, 3], rounded_rect_mask(new_w, FACE_HEIGHT))
    return img


def rounded_rect_mask(w: int, h: int, radius_frac: float = 0.05) -> np.ndarray:
    """A 0/255 mask of a card with rounded corners (radius ~5% of the width, as real cards)."""
    r = max(2, round(radius_frac * w))
    m = np.zeros((h, w), np.uint8)
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in [(r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)]:
        cv2.circle(m, (cx, cy), r, 255, -1, lineType=cv2.LINE_AA)
    return m


def gnome_faces(x: Path) -> list[Face]:
    faces: list[Face] = []
    cols = {"A": 0, "7": 6, "8": 7, "9": 8, "T": 9, "J": 10, "Q": 11, "K": 12}
    rows = {"c": 0, "d": 1, "h": 2, "s": 3}
    themes = [(t, False) for t in GNOME_THEMES] + [(t, True) for t in sorted(GNOME_PIPS_ONLY)]
    for theme, pips_only in themes:
        path = x / "deb/usr/share/aisleriot/cards" / f"{theme}.svgz"
        if not path.exists():
            print(f"skip {theme}: not found", file=sys.stderr)
            continue
        sheet = rsvg(path, width=13 * 330)
        h, w = sheet.shape[:2]
        cw, ch = w / 13, h / 5
        for card in [*EUCHRE_CARDS, "back"]:
            if card == "back":
                r, c = 4, 2
            elif card == "B":
                r, c = 4, 0  # joker_black
            else:
                if pips_only and card[0] in "JQK":
                    continue
                r, c = rows[card[1]], cols[card[0]]
            cell = sheet[round(r * ch): round((r + 1) * ch), round(c * cw): round((c + 1) * cw)]
            if cell[:, :, 3].max() < 40:
                continue
            img = trim_and_scale(cell, theme in GNOME_MASK_CORNERS)
            faces.append(Face(f"gnome-{theme}", card, img, "gnome", f"aisleriot/cards/{theme}.svgz"))
    return faces


def kde_faces(x: Path) -> list[Face]:
    faces: list[Face] = []
    for deck, rel in KDE_DECKS.items():
        path = x / "deb/usr/share/carddecks" / rel
        if not path.exists():
            continue
        with gzip.open(path) as fh:
            text = fh.read().decode("utf-8", "replace")
        for card in EUCHRE_CARDS:
            if card == "B":
                ids = [i for i in ("black_joker", "joker", "red_joker") if f'id="{i}"' in text]
                if not ids:
                    continue
                eid = ids[0]
            else:
                eid = f"{KDE_RANK[card[0]]}_{KDE_SUIT[card[1]]}"
            try:
                img = rsvg(path, height=FACE_HEIGHT * 2, export_id=eid)
                img = trim_and_scale(img, deck in KDE_MASK_CORNERS)
            except (RuntimeError, subprocess.CalledProcessError) as exc:
                print(f"skip kde {deck} {card}: {exc}", file=sys.stderr)
                continue
            faces.append(Face(f"kde-{deck}", card, img, "kde", f"carddecks/{rel}#{eid}"))
    return faces


def file_faces(x: Path) -> list[Face]:
    """The per-file sources: cardsJS, Kennard (two-colour styles), younestouati, blackjack-gui."""
    faces: list[Face] = []
    rank_num = {"7": "7", "8": "8", "9": "9", "T": "10", "J": "11", "Q": "12", "K": "13", "A": "1"}
    bj_rank = {"7": "7", "8": "8", "9": "9", "T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
    bj_suit = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
    cjs = x / "cardsJS-1.1.1/package/cards"
    ken = x / "heruka_urgyen-react-playing-cards-0.5.0/package/src/images"
    you = next(iter(glob.glob(str(x / "younestouati-playing-cards-standard-deck-*/package/cards"))), None)
    bj = x / "bj/blackjack_gui/images"
    for card in EUCHRE_CARDS:
        jobs: list[tuple[str, str, Path, bool]] = []
        if card != "B":
            jobs.append(("cardsjs", "cardsjs", cjs / f"{card[0]}{card[1].upper()}.svg", False))
        for style in ("2color", "2color-bf"):
            name = "2J.svg" if card == "B" else f"{card[0]}{card[1].upper()}.svg"
            jobs.append((f"kennard-{style}", "kennard", ken / style / name, False))
        if you:
            name = "joker.svg" if card == "B" else f"{rank_num[card[0]]}{card[1]}.svg"
            jobs.append(("younestouati", "younestouati", Path(you) / name, True))
        if card == "B":
            jobs.append(("bjgui", "bjgui", bj / "black_joker.png", False))
        else:
            stem = f"{bj_rank[card[0]]}_of_{bj_suit[card[1]]}"
            two = bj / f"{stem}2.png"
            jobs.append(("bjgui", "bjgui", two if two.exists() else bj / f"{stem}.png", False))
        for deck, family, path, mask in jobs:
            if not path.exists():
                print(f"skip {deck} {card}: {path.name} missing", file=sys.stderr)
                continue
            if path.suffix == ".svg":
                img = rsvg(path, height=FACE_HEIGHT * 2)
            else:
                raw = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
                if raw is None:
                    raise RuntimeError(f"{path}: not a readable image")
                img = to_bgra(raw)
            img = trim_and_scale(img, mask)
            faces.append(Face(deck, card, img, family, str(path.relative_to(x))))
    return faces


def write(faces: list[Face], out: Path) -> Path:
    faces_dir = out / "faces"
    if faces_dir.exists():
        shutil.rmtree(faces_dir)
    rows = []
    for f in faces:
        d = faces_dir / f.deck
        d.mkdir(parents=True, exist_ok=True)
        p = d / f"{f.card}.png"
        cv2.imwrite(str(p), f.image)
        h, w = f.image.shape[:2]
        rows.append({"deck": f.deck, "card": f.card, "path": str(p.relative_to(out)), "width": w, "height": h,
                     "family": f.family, "licence": LICENCES[f.family], "source": f.source})
    manifest = out / "manifest.csv"
    with open(manifest, "w", newline="") as fh:
        wr = csv.DictWriter(fh, fieldnames=list(rows[0]))
        wr.writeheader()
        wr.writerows(rows)
    return manifest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="work-data/art", help="where faces/ and manifest.csv go")
    ap.add_argument("--src", default=None, help="where packages are downloaded (default OUT/../art-src)")
    args = ap.parse_args(argv)
    out = Path(args.out)
    src = Path(args.src) if args.src else out.parent / "art-src"
    if shutil.which("rsvg-convert") is None:
        print("rsvg-convert is missing: apt-get install librsvg2-bin", file=sys.stderr)
        return 2
    x = fetch(src)
    faces = gnome_faces(x) + kde_faces(x) + file_faces(x)
    manifest = write(faces, out)
    decks = sorted({f.deck for f in faces})
    print(f"decks={len(decks)} faces={len(faces)} manifest={manifest}")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sys.exit(main())
