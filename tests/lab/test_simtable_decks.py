"""The simulated table deals and draws the deck of the rules in play: 7s and 8s, the Joker as the Benny."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import numpy as np
import pytest

from companion.cli import main
from display.actions import Action, ButtonAction
from lab import simtable as st
from table.announcements import HandScored
from table.cards import BENNY, Card, Rank, deck
from table.inputs import NameTrump, UpCard
from table.rules import BennyTurnedUp, Rules
from vision.observations import KITTY

BRITISH = Rules.preset("british")
RULES = {
    24: Rules(),
    25: BRITISH,
    28: Rules().replace(deck_size=28),
    32: Rules().replace(deck_size=32),
    33: BRITISH.replace(deck_size=33),
}
ART = Path(__file__).resolve().parents[2] / "work-data" / "art"
BENNY_SEED = 15  # british rules, 2 hands: the first deal turns up the Benny


def _all_cards(script: st.TableScript) -> set[Card]:
    out: set[Card] = set()
    for d in script.deals:
        out.update(c for hand in d.hands for c in hand)
        out.update((d.up_card, *d.set_aside, *d.kitty))
    return out


@pytest.mark.parametrize("size", sorted(RULES))
def test_the_script_deals_only_the_deck_in_play_and_draws_every_card_of_it(size: int) -> None:
    script = st.build_script(0, hands=12, rules=RULES[size])
    cards = set(deck(size))
    assert _all_cards(script) == cards
    drawn = {r.card for r in script.rests}  # every card that came to rest face up on the table
    assert drawn == cards
    assert all(s.card in cards for s in script.sprites if s.card is not None)
    for d in script.deals:
        assert len({c for hand in d.hands for c in hand} | {d.up_card, *d.set_aside, *d.kitty}) == size


@pytest.mark.parametrize("size", sorted(RULES))
def test_procedural_faces_cover_exactly_the_deck(size: int) -> None:
    faces, _back, name = st.load_deck("procedural", None, size)
    assert name == "procedural-2" and set(faces) == set(deck(size))


def stand_in_art(folder: Path) -> Path:
    """An artwork folder as ``lab.synth.fetch_art`` writes it (faces/DECK/CARD.png and manifest.csv), its faces
    drawn procedurally: one deck with a Joker (gnome-neoclassical) and one without (kde-jolly-royal), as
    the fetched artwork has them."""
    import csv

    import cv2

    from lab.synth.faces import procedural_face

    rows = []
    for name, with_joker, style in (("gnome-neoclassical", True, 0), ("kde-jolly-royal", False, 1)):
        (folder / "faces" / name).mkdir(parents=True)
        for card in [str(c) for c in deck(32)] + (["B"] if with_joker else []):
            face = procedural_face(card, style, height=120)
            rel = f"faces/{name}/{card}.png"
            cv2.imwrite(str(folder / rel), face)
            rows.append([name, card, rel, face.shape[1], face.shape[0], "test", "test", "procedural"])
    with open(folder / "manifest.csv", "w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["deck", "card", "path", "width", "height", "family", "licence", "source"])
        writer.writerows(rows)
    return folder


def test_fetched_decks_bring_their_7s_8s_and_joker_and_a_deck_without_a_joker_gets_one_drawn(
    tmp_path: Path,
) -> None:
    art = ART if (ART / "manifest.csv").is_file() else stand_in_art(tmp_path / "art")
    faces, _back, name = st.load_deck("gnome-neoclassical", art, 33)
    assert name == "gnome-neoclassical" and set(faces) == set(deck(33))
    assert not st.joker_stand_in("gnome-neoclassical", art)
    faces, _back, _ = st.load_deck("kde-jolly-royal", art, 33)
    assert set(faces) == set(deck(33))
    assert st.joker_stand_in("kde-jolly-royal", art)
    seven, joker = faces[Card.parse("7h")], faces[BENNY]
    assert joker.shape == seven.shape and joker.dtype == np.uint8  # at the deck's own size
    assert set(st.load_deck("kde-jolly-royal", art, 24)[0]) == set(deck(24))


def test_a_stand_in_artwork_folder_is_read_like_the_fetched_one(tmp_path: Path) -> None:
    art = stand_in_art(tmp_path / "art")
    faces, _back, name = st.load_deck("kde-jolly-royal", art, 33)
    assert name == "kde-jolly-royal" and set(faces) == set(deck(33)) and st.joker_stand_in("kde-jolly-royal", art)


def _unwarp(image: np.ndarray, corners: tuple[tuple[float, float], ...], size: tuple[int, int]) -> np.ndarray:
    import cv2

    w, h = size
    src = np.array(corners, np.float32)
    m = cv2.getPerspectiveTransform(src, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32))
    return np.asarray(cv2.warpPerspective(image, m, (w, h)), np.float32)


def _face_at_camera_scale(face: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    import cv2

    small = cv2.resize(face, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    alpha = small[:, :, 3:4] / 255.0
    return np.asarray(small[:, :, :3] * alpha + 128 * (1 - alpha), np.float32)


def _drawn_as(image: np.ndarray, seen: st.SeenCard, faces: dict[Card, np.ndarray]) -> Card:
    """Which face the pixels inside ``seen``'s corners look most like (colour, contrast-normalised)."""
    size = (56, 80)
    crop = _unwarp(image, seen.corners, size)[4:-4, 4:-4]
    crop = (crop - crop.mean()) / (crop.std() + 1e-6)
    best: tuple[float, Card] | None = None
    for card, face in faces.items():
        ref = _face_at_camera_scale(face, size)[4:-4, 4:-4]
        ref = (ref - ref.mean()) / (ref.std() + 1e-6)
        d = float(np.abs(crop - ref).mean())
        if best is None or d < best[0]:
            best = (d, card)
    assert best is not None
    return best[1]


def test_a_benny_up_card_is_drawn_as_the_joker_and_the_dealer_names_trump_blind() -> None:
    script = st.build_script(BENNY_SEED, hands=2, rules=BRITISH)
    deal = script.deals[0]
    assert deal.up_card == BENNY and not deal.thrown_in
    # RULES.md: the dealer's side are the makers; the dealer names trump before looking (round 0).
    assert deal.maker_seat == deal.dealer and deal.round_made == 0
    presses = [b.action for b in script.buttons]
    named = presses[0]
    assert isinstance(named, NameTrump) and named.seat == deal.dealer and named.suit is not None
    assert script.buttons[0].panel[-1] == Action(ButtonAction.SUIT, named.suit)  # the dealer's suit button
    rest = next(r for r in script.rests if r.kind == "up_card" and r.deal == 0)
    assert rest.card == BENNY and rest.zone == KITTY
    faces, back, _ = st.load_deck("procedural", None, 25)
    renderer = st.TableRenderer(script, faces, back, seed=BENNY_SEED, noise=0.0)
    image = renderer.render(rest.frame + 1)
    seen = next(s for s in renderer.visible(rest.frame + 1) if s.card == BENNY)
    assert seen.visible > 0.9
    assert _drawn_as(image, seen, faces) == BENNY


def test_7s_and_8s_are_drawn_with_their_own_faces() -> None:
    rules = RULES[32]
    script = st.build_script(3, hands=2, rules=rules)
    faces, back, _ = st.load_deck("procedural", None, 32)
    renderer = st.TableRenderer(script, faces, back, seed=3, noise=0.0)
    low = [r for r in script.rests if r.card.rank in (Rank.SEVEN, Rank.EIGHT) and r.kind == "play"][:4]
    assert len(low) == 4
    for rest in low:
        frame = rest.frame + 1
        seen = next(s for s in renderer.visible(frame) if s.card == rest.card)
        if seen.visible < 0.9:
            continue
        assert _drawn_as(renderer.render(frame), seen, faces) == rest.card


@pytest.mark.parametrize(("size", "seed"), [(25, BENNY_SEED), (25, 0), (32, 1), (33, 2)])
def test_a_perfect_detector_plays_the_house_deck_through_the_engine(size: int, seed: int) -> None:
    rules = RULES[size]
    script = st.build_script(seed, hands=4, renege_rate=0.3, rules=rules)
    faces, back, _ = st.load_deck("procedural", None, size)
    renderer = st.TableRenderer(script, faces, back, seed=seed)
    run = st.run_simulation(script, renderer, st.OracleDetector(renderer), "procedural-2", render=False)
    s = run.score
    assert run.pipeline.match.rules == rules
    assert s.hands == 4 and s.trick_winner_accuracy == 1.0 and s.hands_exact == 4
    assert s.reneges_proven == s.reneges_injected and s.false_renege_alerts == 0 and s.cards_missed == 0
    if seed == BENNY_SEED:
        per_deal = st.announcements_by_deal(script, run.pipeline.announcements)
        scored = [a for a in per_deal[0] if isinstance(a, HandScored)]
        assert scored and scored[-1].points == script.deals[0].points


def test_a_set_aside_benny_is_shown_then_moved_off_and_the_next_card_is_bid_on() -> None:
    rules = BRITISH.replace(benny_turned_up=BennyTurnedUp.SET_ASIDE)
    scripts = (st.build_script(seed, hands=2, rules=rules) for seed in range(40))
    script = next(s for s in scripts if any(d.set_aside for d in s.deals))
    k = next(i for i, d in enumerate(script.deals) if d.set_aside)
    ups = [r for r in script.rests if r.kind == "up_card" and r.deal == k]
    assert [r.card for r in ups] == [BENNY, script.deals[k].up_card]
    faces, back, _ = st.load_deck("procedural", None, 25)
    renderer = st.TableRenderer(script, faces, back, seed=script.seed)
    run = st.run_simulation(script, renderer, st.OracleDetector(renderer), "procedural-2", render=False)
    assert run.score.hands_exact == run.score.hands == 2 and run.score.cards_missed == 0
    assert [x.card for x in script.deals[k].inputs if isinstance(x, UpCard)] == [BENNY, script.deals[k].up_card]
    landed = [x.card for x in run.pipeline.landings if x.kind == "up_card"]
    assert landed.count(BENNY) >= 1 and script.deals[k].up_card in landed


def test_look_alikes_stay_in_the_deck_in_play() -> None:
    rng = random.Random(3)
    cards = deck(32)
    got = {st._look_alike(Card.parse("7h"), rng, cards) for _ in range(60)}
    assert got <= set(cards) and Card.parse("8h") in got and Card.parse("7d") in got
    assert st._look_alike(BENNY, rng, deck(33)) == BENNY


@pytest.mark.parametrize("rules", [BRITISH, RULES[32], BRITISH.replace(deck_size=33, target=15)])
def test_a_clip_names_its_rules_and_is_rebuilt_with_them(rules: Rules, tmp_path: Path) -> None:
    script = st.build_script(5, hands=1, rules=rules)
    truth = st.ground_truth(script, "procedural-2", st.DEFAULT_FPS, st.FRAME_SIZE)
    assert st.rules_from_truth(json.loads(json.dumps(truth["rules"]))) == rules
    (tmp_path / st.ClipRecorder.TRUTH).write_text(json.dumps(truth), encoding="utf-8")
    rebuilt, _ = st.load_clip(tmp_path)
    assert rebuilt.rules == rules and rebuilt.frames == script.frames
    assert st.rules_for_truth(Rules()) == "north_american"


def test_the_sim_source_plays_the_rules_it_is_given() -> None:
    from companion.builder import _config_for_sim
    from companion.config import parse_config
    from companion.errors import UserError
    from vision.sources import open_source

    source = open_source("sim:2", rules=BRITISH, deck_style="procedural")
    assert isinstance(source, st.SimTableSource)
    assert source.rules == BRITISH and source.buttons_script.rules == BRITISH
    assert {r.card for r in source.buttons_script.rests} <= set(deck(25))
    config = parse_config("[rules]\npreset = 'british'\n")
    sim_config = _config_for_sim(config, source, "sim:2")
    assert sim_config.rules() == BRITISH and sim_config.seats.first_dealer == source.first_dealer
    with pytest.raises(UserError):
        _config_for_sim(parse_config(""), source, "sim:2")
    assert st.SimTableSource(hands=1).rules == Rules()


def test_simulate_rules_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from lab.commands.simulate import table_rules

    config = tmp_path / "nz.toml"
    config.write_text("[rules]\ndeck_size = 32\n", encoding="utf-8")
    ns = dataclasses.make_dataclass("Args", [("preset", object), ("config", object)])
    assert table_rules(ns(None, None)) == Rules()
    assert table_rules(ns("british", None)) == BRITISH
    assert table_rules(ns(None, config)) == RULES[32]
    assert table_rules(ns("british", config)) == BRITISH.replace(deck_size=32)
    assert main(["simulate", "--hands", "1", "--rules", "nowhere", "--detector", "oracle"]) == 2
    assert "no preset 'nowhere'" in capsys.readouterr().err
    assert main(["simulate", "--hands", "1", "--enrol", "--detector", "oracle"]) == 2
    assert "--enrol builds a deck profile for the model detector" in capsys.readouterr().err
    assert main(["simulate", "--clip", str(tmp_path), "--rules", "british"]) == 2
    assert "takes no --rules" in capsys.readouterr().err


def test_a_simulated_table_playing_the_benny_enrols_its_deck_unless_told_not_to() -> None:
    from lab.commands.simulate import enrols_first

    # The reader names a Joker only from the deck's profile, so a Benny table enrols first by default.
    assert enrols_first(None, BRITISH) and not enrols_first(None, Rules())
    assert enrols_first(True, Rules()) and not enrols_first(False, BRITISH)


@pytest.mark.slow
def test_simulate_command_plays_british_rules_end_to_end(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--hands", "1", "--seed", str(BENNY_SEED), "--rules", "british", "--detector", "oracle",
            "--deck-style", "procedural", "--size", "320x240"]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr()
    assert "rules british (25 cards)" in out.err
    values = dict(kv.split("=") for kv in out.out.strip().splitlines()[-1].split())
    assert values["hands"] == "1" and values["trick_winner_accuracy"] == "1" and values["hands_scored_exactly"] == "1"
