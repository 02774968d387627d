"""Noisy per-frame card detections in, stable table events out ("Jd landed at seat 2").

``Tracker.update`` is pure in the sense the tests need: time is the frame
number passed in, nothing is read from a clock, and the same detection
sequence always gives the same observations.

How it decides, in the order ``update`` works:

1. Each detection is mapped to mat coordinates (the centre of its corner
   points, else of its box); two detections of one card close together (its
   two corner indices, overlapping boxes) become one reading.
2. Readings are matched to tracks: first by identity and distance (so a card
   nudged or pushed along keeps its track and its first zone), then a
   reading of another identity on the very spot of a card counts as a rival
   vote on it (a misread), unless that card has landed and is out of sight
   (then it is a card laid on top of it; an uncertain landing stays open to
   correction while in sight; at a seat or on the kitty, a landed card in
   sight a frame ago takes the vote too). A doubted reading (one with a
   rival) a little off that spot votes on the card nearby that it names
   as its rival, or that was read with it as the rival, where that card
   is not read this frame: a card read by turns as itself and as its
   rival is one card with one vote. Else it starts a track.
3. A hand over the table (an ``occluded`` flag from the detector, or several
   landed cards going out of sight together for more than a flicker)
   suspends judgement: nothing is emitted until the table has been calm (the
   same landed cards in view, no flag) for a few frames, and then the cards
   that did not come back are reported gone together.
4. A track lands once one identity leads a confidence-weighted vote over the
   last ``window`` frames, was seen in at least ``min_frames`` of them and
   the card is at rest in a zone (its last readings close together, or its
   latest two or more on one spot over ``min_frames`` frames): never on a
   first reading. A card at a seat read too seldom for that (a hand still
   over it, the trick gathered a moment later) is judged the same way on
   the readings of the last ``patience`` frames, and lands that way only if
   read surely (a mean confidence from ``patient_confidence`` up, or most of
   its readings from there up) and no other card landed at that seat
   within those frames; on the kitty, only where every one of those
   readings was a doubted one (reported with a rival), and then flagged
   uncertain. A card's doubted readings as its rival count for its
   frames, not for its vote. A weak landing
   is flagged ``uncertain``; if the vote on it later flips, ``CardRevised``, and
   if it later reads as the same card surely, ``CardRevised`` to the same card
   (a confirmation: the engine may then rely on it).
   A card that lands while the same card, already landed, has vanished was
   pushed along (from a seat's zone into the pile, say): no event, and it
   keeps its first zone. At a seat or on the kitty, a card coming to rest on
   the very spot of a landed card that stayed in sight is that card misread:
   no event. Nor is a card of another name coming to rest half over a landed
   card there (within ``overlap_distance``) while that card is read as itself,
   more surely, in every frame of its vote: the finder outlined that card twice.
   At a seat, a card landed a moment ago that vanished as a card read more
   surely came to rest there was that card misread: ``CardRevised``.
   A card at a seat out of turn waits (``wait_for_turn`` frames at most)
   while a card that reached the next player's zone before it is still
   being read, so the engine hears them in the order they were played.
   At a seat, a card another seat has already played this deal (``played``,
   from the engine) cannot be played again: while the track holds readings
   of any other card, its readings of such a card are left out of the vote
   (a Joker whose corner reads now and then as the jack of clubs played a
   trick ago lands as the Joker). A track read only as such a card lands
   ``uncertain``, so a later vote for another card revises it; the engine
   flags the duplicate meanwhile.
5. A landed card missing for ``lost_frames`` is lifted; several cards gone
   at once that empty their zone are a gathered trick: ``ZoneCleared``.
6. Who turned the up-card: the kitty is printed in one place, so where the
   up-card rests says nothing about the dealer. Only a card first seen face
   up on one seat's side of the mat, held there a moment and then carried
   to the kitty, names the seat that turned it (``UpCardShown.turned_by``);
   anything less clear names nobody, so a stolen deal is said only on clear
   evidence.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

from table.cards import Card
from vision.detection import CardDetection
from vision.observations import (
    KITTY,
    TRICK,
    CardLanded,
    CardLifted,
    CardRevised,
    Observation,
    UpCardShown,
    Zone,
    ZoneCleared,
    ZoneKind,
)
from vision.zones import Calibration, Point, TableLayout

# Zones that hold one face-up card at a time: a seat's play zone (one card a trick) and the kitty (the
# up-card). A different card read on the very spot of one lying there, still in sight, is a misreading.
_ONE_CARD_ZONES = frozenset({ZoneKind.SEAT, ZoneKind.KITTY})


@dataclass(frozen=True)
class TrackerConfig:
    """The tracker's thresholds. Distances are in mat units (the mat is 1 x 1); times in frames."""

    min_frames: int = 3  # a card lands after being read as itself in this many frames of the window
    window: int = 5  # frames the vote looks back over
    # A card at rest at a seat that never reaches ``min_frames`` readings in ``window`` frames (a hand still
    # over it, the trick gathered a moment later) lands once read as itself in ``min_frames`` of this many,
    # with a mean confidence from ``patient_confidence`` up (the reader's line for a sure second look), or
    # most of its readings from there up. Not on the kitty, where the face-down deck and the backs are read
    # now and then.
    patience: int = 8
    patient_confidence: float = 0.8
    min_share: float = 0.6  # the leading card's share of the confidence-weighted vote needed to land
    uncertain_below: float = 0.6  # mean confidence under this: the landing is flagged uncertain
    uncertain_share: float = 0.67  # a vote share under this (a contested reading): flagged uncertain too
    lost_frames: int = 6  # a landed card unseen this long is lifted (longer than any flicker)
    merge_distance: float = 0.12  # same-card readings closer than this are one card (two corner indices)
    move_distance: float = 0.25  # how far a card may move between frames and keep its track
    same_spot: float = 0.03  # a different card read this close to a card not seen is a misread of it
    # At a seat, a different card read this close to a landed card (about a card's short side on the A3
    # mat, 63.5 of 420 mm: the two would overlap) while that card is read, more surely, in every frame of
    # its vote is that card outlined twice.
    overlap_distance: float = 0.15
    rest_distance: float = 0.08  # a card whose last readings spread wider than this is still moving
    occlusion_drop: int = 2  # this many landed cards going out of sight together means a hand over the table
    drop_frames: int = 2  # ... when each has been out of sight this long (a one-frame dropout is flicker)
    sweep_frames: int = 3  # ... and went within this many frames of the others (a sweeping hand)
    resume_frames: int = 3  # calm frames after a hand before judging again
    gather_min: int = 2  # cards gone at once, emptying their zone, to call it a gathered trick
    off_table_margin: float = 0.1  # readings further outside the mat than this are ignored
    # A card at another seat than the engine's next player waits, at most this long after it was first
    # seen, while a card that came earlier to the next player's zone is still being read: the table's
    # order, not the order the readings settled in.
    wait_for_turn: int = 10
    # A card that lands at a seat this soon after another landed there, which has not been read since,
    # more surely than that one was, is what that card really was: a card misread as it slid to rest.
    misread_within: int = 8

    def __post_init__(self) -> None:
        if self.min_frames < 2:
            raise ValueError(f"min_frames must be at least 2 (never land on a first reading): {self.min_frames}")
        if self.window < self.min_frames:
            raise ValueError(f"window ({self.window}) must be at least min_frames ({self.min_frames})")
        if self.patience < self.window:
            raise ValueError(f"patience ({self.patience}) must be at least window ({self.window})")
        counts = (self.resume_frames, self.occlusion_drop, self.drop_frames, self.sweep_frames, self.gather_min)
        if self.lost_frames < 2 or min(counts) < 1:
            raise ValueError(f"frame counts must be positive (lost_frames at least 2): {self}")
        if not 0.5 <= self.min_share <= 1.0:
            raise ValueError(f"min_share must be between 0.5 and 1: {self.min_share}")


@dataclass
class _Reading:
    card: Card
    confidence: float
    point: Point
    rival: Card | None = None  # a doubted reading's rival (``CardDetection.rival``)


@dataclass
class _Vote:
    frames: set[int] = field(default_factory=set)
    points: list[Point] = field(default_factory=list)
    confidences: list[float] = field(default_factory=list)  # one per reading, beside its point
    last: int = -1

    @property
    def score(self) -> float:
        """The confidence-weighted vote: the sum of the readings' confidences."""
        return sum(self.confidences)


@dataclass
class _Track:
    id: int
    first_frame: int
    point: Point
    last_seen: int
    identity: Card  # the landed card, or the current leader of a tentative track
    # Per reading: frame, card, confidence, point, and a doubted reading's rival (``CardDetection.rival``).
    readings: deque[tuple[int, Card, float, Point, Card | None]] = field(default_factory=deque)
    zone: Zone | None = None  # set when it lands, and kept while the card is nudged about
    confidence: float = 0.0
    uncertain: bool = False
    landed_at: int = -1  # the frame it landed
    # Per identity read on this track: where it was first read, and how many readings of it lay there.
    origins: dict[Card, tuple[Point, int]] = field(default_factory=dict)

    @property
    def landed(self) -> bool:
        return self.zone is not None


OUT_OF_DECK_SURE = 0.9  # a reading of a card outside the deck in play counts only from this confidence
# Who turned the up-card (Tracker._turned_by): readings this close together count as one spot, where the
# card must be read this many times before it is carried this far to the kitty.
ORIGIN_SPOT = 0.05
ORIGIN_READINGS = 2
ORIGIN_TRAVEL = 0.25


class Tracker:
    """Turns each frame's detections into table events; see the module docstring for the rules."""

    def __init__(
        self,
        calibration: Calibration,
        layout: TableLayout | None = None,
        config: TrackerConfig | None = None,
        cards: Collection[Card] | None = None,
    ):
        self.calibration = calibration
        self.layout = layout if layout is not None else TableLayout()
        self.config = config if config is not None else TrackerConfig()
        # The deck in play: a reading of any other card (a 7 in a 24-card deck, a Joker without the
        # Benny) is taken for a misread unless it is a sure one (OUT_OF_DECK_SURE): a card that really
        # is not in the deck then reaches the engine, which flags it.
        self.cards: frozenset[Card] | None = frozenset(cards) if cards is not None else None
        self._tracks: list[_Track] = []
        self._next_id = 0
        self._frame: int | None = None
        self._suspended = False
        self._calm_since: int | None = None
        self._calm_count = 0
        self._in_view: frozenset[int] = frozenset()
        # Per seat: first and last frame a card not landed yet was read in its zone (see _waits_for_turn).
        self._sighted: dict[int, tuple[int, int]] = {}
        self._played: tuple[tuple[int, Card], ...] = ()  # this frame's (seat, card) played this deal
        self._spent: dict[int, frozenset[Card]] = {}  # per seat, this frame: ``_spent_at``'s answer

    @property
    def suspended(self) -> bool:
        """True while a hand (or anything large) is over the table and no events are emitted."""
        return self._suspended

    def landed_cards(self) -> list[tuple[Zone, Card]]:
        """The cards the tracker believes lie on the table, in arrival order (for the display)."""
        return [(t.zone, t.identity) for t in self._tracks if t.zone is not None]

    def reset(self) -> None:
        """Forget every card (a new deal after the table was cleared by hand)."""
        self._tracks.clear()
        self._in_view = frozenset()
        self._sighted.clear()
        self._suspended = False
        self._calm_since = None
        self._calm_count = 0

    def update(
        self,
        detections: Sequence[CardDetection],
        frame: int,
        expected_seat: int | None = None,
        *,
        occluded: bool = False,
        played: Collection[tuple[int, Card]] = (),
    ) -> list[Observation]:
        """Take one frame's detections; return what changed on the table, in order.

        ``expected_seat`` is the engine's next player, used for cards pushed
        into the shared trick pile. ``occluded`` is the detector's flag for a
        hand or arm over the table. ``played``: (seat, card) of each card the
        engine holds as played this deal; at a seat, another seat's card is
        a misread while the track is read as anything else (step 4).
        """
        if self._frame is not None and frame <= self._frame:
            raise ValueError(f"frame numbers must increase: {frame} after {self._frame}")
        cfg = self.config
        if self.cards is not None:
            detections = [d for d in detections if d.card in self.cards or d.confidence >= OUT_OF_DECK_SURE]
        self._played, self._spent = tuple(played), {}
        self._associate(self._readings(detections), frame)
        resumed_from = self._watch_for_hands(frame, occluded)

        events: list[Observation] = []
        if not self._suspended:
            revisions = self._revise(frame)
            # Landing first finds the cards that were only pushed along, so they are not counted gone.
            landings, new_ids = self._land(frame, expected_seat)
            if resumed_from is not None:
                gone = [t for t in self._tracks if t.landed and t.last_seen < resumed_from]
            else:
                gone = [t for t in self._tracks if t.landed and frame - t.last_seen >= cfg.lost_frames]
            # Reported in table order: what left, what was re-read, what arrived.
            events.extend(self._remove(gone, frame, new_ids))
            events.extend(revisions)
            events.extend(landings)

        self._tracks = [t for t in self._tracks if t.landed or t.last_seen > frame - cfg.window]
        self._frame = frame
        return events

    # ---- step 3: hands over the table ----

    def _watch_for_hands(self, frame: int, occluded: bool) -> int | None:
        """Suspend or resume judgement; on resuming, return the first calm frame.

        A hand shows as the detector's flag, or as several landed cards going
        out of sight within a few frames of each other and staying out for at
        least ``drop_frames`` (independent one-frame dropouts never do that).
        It has gone once, for ``resume_frames`` frames, there is no flag and
        the landed cards in view stay the same (a card counts as in view if
        seen within ``drop_frames``, so flicker does not matter).
        """
        cfg = self.config
        landed = [t for t in self._tracks if t.landed]
        in_view = frozenset(t.id for t in landed if frame - t.last_seen < cfg.drop_frames)
        covered = sum(1 for t in landed if cfg.drop_frames <= frame - t.last_seen < cfg.drop_frames + cfg.sweep_frames)
        changed, self._in_view = in_view != self._in_view, in_view
        resumed_from: int | None = None
        if occluded or (covered >= cfg.occlusion_drop and not self._suspended):
            self._suspended = True
            self._calm_since, self._calm_count = None, 0
        elif self._suspended and changed:
            self._calm_since, self._calm_count = None, 0  # cards still coming and going under a hand
        elif self._suspended:
            if self._calm_since is None:
                self._calm_since = frame
            self._calm_count += 1
            if self._calm_count >= cfg.resume_frames:
                self._suspended = False
                resumed_from = self._calm_since
                self._calm_since, self._calm_count = None, 0
        return resumed_from

    # ---- step 1: detections to readings ----

    def _readings(self, detections: Iterable[CardDetection]) -> list[_Reading]:
        cfg = self.config
        lo, hi = -cfg.off_table_margin, 1.0 + cfg.off_table_margin
        merged: list[_Reading] = []
        for det in sorted(detections, key=lambda d: -d.confidence):
            if det.corners:
                px = sum(p[0] for p in det.corners) / len(det.corners)
                py = sum(p[1] for p in det.corners) / len(det.corners)
            else:
                px, py = det.center
            try:
                point = self.calibration.to_mat(px, py)
            except ZeroDivisionError:
                continue  # on the horizon line of the homography: nowhere on the mat
            if not (lo <= point[0] <= hi and lo <= point[1] <= hi):
                continue
            for r in merged:
                if r.card == det.card and _dist(r.point, point) <= cfg.merge_distance:
                    # One card seen twice: keep the best confidence, centre between the two readings.
                    w = r.confidence + det.confidence
                    r.point = (
                        (r.point[0] * r.confidence + point[0] * det.confidence) / w,
                        (r.point[1] * r.confidence + point[1] * det.confidence) / w,
                    )
                    r.confidence = max(r.confidence, det.confidence)  # the surest's rival stands (sorted)
                    break
            else:
                merged.append(_Reading(det.card, float(det.confidence), point, det.rival))
        return merged

    # ---- step 2: readings to tracks ----

    def _associate(self, readings: list[_Reading], frame: int) -> None:
        cfg = self.config
        by_card: dict[Card, list[int]] = {}
        for ri, r in enumerate(readings):
            by_card.setdefault(r.card, []).append(ri)
        pairs: list[tuple[float, int, int]] = []
        for ti, t in enumerate(self._tracks):
            for ri in by_card.get(t.identity, ()):
                d = _dist(t.point, readings[ri].point)
                if d <= cfg.move_distance:
                    pairs.append((d, ti, ri))
        pairs.sort()
        own: set[int] = set()
        used: set[int] = set()
        for _, ti, ri in pairs:
            if ti in own or ri in used:
                continue
            own.add(ti)
            used.add(ri)
            self._add(self._tracks[ti], readings[ri], frame, move=True)

        for ri, r in enumerate(readings):
            if ri in used:
                continue
            best: _Track | None = None
            best_d = cfg.same_spot
            for ti, t in enumerate(self._tracks):
                # A landed card not read as itself this frame, with a different card on its very
                # spot, has had that card laid on top of it (or was gathered and replaced) - unless
                # it landed uncertain and is still in sight, where the vote may yet be corrected.
                # If it is read as itself, the other reading is a double read of it. At a seat, where
                # each player lays one card a trick, and on the kitty, which shows one up-card a deal, a
                # card in sight a frame ago and now read as another on its very spot was misread: a card
                # laid on it would have been seen coming.
                if (
                    t.landed
                    and ti not in own
                    and not (t.uncertain and frame - t.last_seen < cfg.drop_frames)
                    and not (t.zone is not None and t.zone.kind in _ONE_CARD_ZONES and frame - t.last_seen <= 1)
                ):
                    continue
                d = _dist(t.point, r.point)
                if d <= best_d:
                    best, best_d = t, d
            if best is None:
                best = self._doubted_reading_of(r, frame, own)
            if best is not None:
                self._add(best, r, frame, move=False)
            else:
                track = _Track(self._next_id, frame, r.point, frame, r.card)
                self._next_id += 1
                self._tracks.append(track)
                self._add(track, r, frame, move=True)

        for t in self._tracks:
            while t.readings and t.readings[0][0] <= frame - cfg.patience:
                t.readings.popleft()
            if not t.landed and t.readings:
                t.identity = self._leader(t, frame - cfg.window)[0]

    def _doubted_reading_of(self, reading: _Reading, frame: int, own: set[int]) -> _Track | None:
        """The track a doubted ``reading`` (one with a rival) is a reading of, though on no track's very spot:
        the nearest, within ``merge_distance``, that is not read this frame and whose card is the reading's
        rival, or one whose readings named the reading's card as their rival. A card the reader names by
        turns as itself and as its rival (a one-ink king of diamonds, "K♦, perhaps K♠" and "K♠, perhaps
        K♦"), each outline a little apart, is one card with one vote: two tracks would split it, so that
        neither landed, or the wrong one did and the right one, never landing beside it, could not revise
        it. A landed card takes such a reading only at a seat or on the kitty, which hold one card, and where it
        was in sight a frame ago."""
        if reading.rival is None:
            return None
        cfg = self.config
        best: _Track | None = None
        best_d = cfg.merge_distance
        for ti, t in enumerate(self._tracks):
            if ti in own:
                continue  # read as itself this frame: the doubted reading beside it is another outline
            if t.landed and not (
                t.zone is not None and t.zone.kind in _ONE_CARD_ZONES and frame - t.last_seen <= 1
            ):
                continue  # in the trick pile another card may lie that near: only a seat or the kitty holds one
            if t.identity != reading.rival and not any(r[4] == reading.card for r in t.readings):
                continue
            d = _dist(t.point, reading.point)
            if d <= best_d:
                best, best_d = t, d
        return best

    @staticmethod
    def _add(track: _Track, reading: _Reading, frame: int, move: bool) -> None:
        track.readings.append((frame, reading.card, reading.confidence, reading.point, reading.rival))
        track.last_seen = frame
        if move:
            track.point = reading.point
        origin = track.origins.get(reading.card)
        if origin is None:
            track.origins[reading.card] = (reading.point, 1)
        elif _dist(origin[0], reading.point) <= ORIGIN_SPOT:
            track.origins[reading.card] = (origin[0], origin[1] + 1)

    def _turned_by(self, track: _Track) -> int | None:
        """The seat that turned the up-card ``track`` has just landed on the kitty, where that is clear.

        Clear: the card was first read face up (as the card it landed as) on one seat's side of the mat
        (``TableLayout.seat_side``), read there in at least ``ORIGIN_READINGS`` frames, and carried at
        least ``ORIGIN_TRAVEL`` to the kitty. A card turned on the kitty itself (the usual way) says
        nothing about who turned it: ``None``. So does a card whose track broke on the way (a fast
        push, a hand over it): it is first read nearer the kitty, where no seat's side is clear.
        """
        origin = track.origins.get(track.identity)
        if origin is None or origin[1] < ORIGIN_READINGS or _dist(origin[0], track.point) < ORIGIN_TRAVEL:
            return None
        return self.layout.seat_side(origin[0])

    def _spent_at(self, zone: Zone | None) -> frozenset[Card]:
        """The cards that cannot be newly played in ``zone``: at a seat, those other seats played this deal."""
        if zone is None or zone.seat is None or zone.kind is not ZoneKind.SEAT or not self._played:
            return frozenset()
        spent = self._spent.get(zone.seat)
        if spent is None:
            spent = self._spent[zone.seat] = frozenset(c for s, c in self._played if s != zone.seat)
        return spent

    def _leader(
        self, track: _Track, after: int, spent: frozenset[Card] = frozenset()
    ) -> tuple[Card, _Vote, float]:
        """The leading identity of a track's readings after frame ``after``, its vote, and its share of the total.

        Readings of a card in ``spent`` (played already: see ``_spent_at``) are left out while the track holds
        readings of any other card in those frames.
        """
        votes: dict[Card, _Vote] = {}
        total = 0.0
        readings: Iterable[tuple[int, Card, float, Point, Card | None]] = track.readings
        if spent:
            recent = [r for r in track.readings if r[0] > after]
            readings = [r for r in recent if r[1] not in spent] or recent
        for f, card, conf, point, _ in readings:
            if f <= after:
                continue
            v = votes.setdefault(card, _Vote())
            v.frames.add(f)
            v.points.append(point)
            v.confidences.append(conf)
            v.last = f
            total += conf
        if not votes:
            return track.identity, _Vote(), 0.0
        card, vote = max(votes.items(), key=lambda kv: (kv[1].score, len(kv[1].frames), kv[1].last, str(kv[0])))
        return card, vote, (vote.score / total if total > 0 else 0.0)

    # ---- steps 4 and 5: events ----

    def _judge(self, vote: _Vote, share: float) -> tuple[float, bool]:
        confidence = vote.score / max(1, len(vote.points))
        uncertain = confidence < self.config.uncertain_below or share < self.config.uncertain_share
        return confidence, uncertain

    def _land(self, frame: int, expected_seat: int | None) -> tuple[list[Observation], set[int]]:
        cfg = self.config
        landing: list[tuple[_Track, Zone, float, bool]] = []
        revisions: list[Observation] = []
        moved: set[int] = set()
        self._sighted = {k: v for k, v in self._sighted.items() if frame - v[1] < cfg.wait_for_turn}
        for t in self._tracks:
            if t.landed or t.last_seen != frame or not t.readings:
                continue
            zone = self.layout.zone_at(t.point)
            if zone is not None and zone.seat is not None:
                first = self._sighted.get(zone.seat, (t.first_frame, frame))[0]
                self._sighted[zone.seat] = (min(first, t.first_frame), frame)
            spent = self._spent_at(zone)
            card, vote, share = self._leader(t, frame - cfg.window, spent)
            patient = len(vote.frames) < cfg.min_frames
            if patient:
                # Read too seldom for the window: a card at rest read now and then (a hand over it) is
                # judged on the readings of the longer ``patience``, and lands only if read surely.
                card, vote, share = self._leader(t, frame - cfg.patience, spent)
            # Read in enough frames: as itself, or else also as another card that named it the rival (one card, one
            # vote; looked for only where its own frames fall short).
            seen = vote.frames
            if len(seen) < cfg.min_frames:
                seen = seen | self._doubted_as(t, card, frame - (cfg.patience if patient else cfg.window))
            if len(seen) < cfg.min_frames or share < cfg.min_share:
                continue
            if not self._at_rest(t, vote):
                continue  # still sliding: land where it comes to rest
            if zone is None:
                continue
            confidence, uncertain = self._judge(vote, share)
            if patient and not self._lands_patiently(t, zone, vote, confidence, uncertain, frame):
                continue
            misread = self._landed_as_misread(t, zone, vote, confidence, frame)
            if misread is None:
                twin = self._misread_of_landed(t, zone, frame) or self._second_outline_of(t, zone, vote, confidence)
                if twin is not None:
                    # Another reading of the card lying there, in sight all along: it stays what it landed as.
                    twin.last_seen = frame
                    moved.add(t.id)
                    continue
                outline = self._outline_landed_aside(t, zone, frame)
                if outline is not None:
                    if frame - outline.last_seen < cfg.drop_frames or confidence <= outline.confidence:
                        continue  # held: a few more frames at rest show which of the two lies there
                    misread = outline
            if misread is not None:
                # The card that landed here a moment ago was this one, misread as it slid to rest.
                revisions.append(CardRevised(zone, misread.identity, card, round(confidence, 4), frame, uncertain))
                misread.identity, misread.confidence, misread.uncertain = card, confidence, uncertain
                misread.point, misread.last_seen, misread.readings = t.point, frame, t.readings
                moved.add(t.id)
                continue
            origin = self._moved_from(card, zone, frame)
            if origin is not None:
                # The landed card, pushed along too fast to follow: it keeps its track and first zone.
                origin.point, origin.last_seen, origin.readings = t.point, frame, t.readings
                moved.add(t.id)
                continue
            t.identity = card  # the card judged (over ``patience``, or with played cards left out)
            # A card another seat played this deal lands in doubt, open to revision (``_revise``) by the card
            # it really is.
            landing.append((t, zone, confidence, uncertain or card in spent))
        if moved:
            self._tracks = [t for t in self._tracks if t.id not in moved]

        if expected_seat is not None:
            landing = [x for x in landing if not self._waits_for_turn(x[0], x[1], expected_seat, frame)]
        events: list[Observation] = revisions
        seat_for_pile = expected_seat
        for t, zone, confidence, uncertain in sorted(landing, key=lambda x: (x[0].first_frame, x[0].id)):
            t.zone, t.confidence, t.uncertain, t.landed_at = zone, confidence, uncertain, frame
            conf = round(confidence, 4)
            rival = self._rival_of(t, frame - cfg.patience) if uncertain else None
            if zone == KITTY:
                turned_by = None if uncertain else self._turned_by(t)
                events.append(UpCardShown(t.identity, conf, frame, uncertain, turned_by, rival))
            elif zone == TRICK:
                # Only the first arrival can take the engine's expected seat; the app asks the
                # engine again, in this order, for the others.
                events.append(CardLanded(zone, t.identity, conf, frame, seat_for_pile, uncertain, rival))
                seat_for_pile = None
            else:
                events.append(CardLanded(zone, t.identity, conf, frame, zone.seat, uncertain, rival))
                if zone.seat is not None:
                    self._sighted.pop(zone.seat, None)
        return events, {t.id for t, _, _, _ in landing}

    def _at_rest(self, track: _Track, vote: _Vote) -> bool:
        """Whether the card lies still where it was last read: the leading card's last ``min_frames``
        readings lie within ``rest_distance`` of that spot, or the track's latest readings (of any name, at
        least two) lie on that very spot (``same_spot``) and span ``min_frames`` frames. A card read as it
        slid in, then read twice on one spot with a frame between, has stopped; where it lies is settled by
        where it was read, what it is by the vote."""
        cfg = self.config
        if all(_dist(p, track.point) <= cfg.rest_distance for p in vote.points[-cfg.min_frames :]):
            return True
        still: list[int] = []
        for f, _, _, p, _ in reversed(track.readings):
            if _dist(p, track.point) > cfg.same_spot:
                break
            still.append(f)
        return len(still) >= 2 and still[0] - still[-1] + 1 >= cfg.min_frames

    def _lands_patiently(
        self, track: _Track, zone: Zone, vote: _Vote, confidence: float, uncertain: bool, frame: int
    ) -> bool:
        """Whether a card read too seldom for the window, judged over ``patience``, lands: at a seat, read
        surely and uncontested; on the kitty, only where every reading of it over ``patience`` was a doubted one
        (reported with a rival), and then flagged uncertain. The face-down deck and the card backs are read there
        now and then, and are not let land so; but an up-card read each time as one of two cousins a deck prints
        alike (a one-ink queen of diamonds, "Q♦, perhaps Q♠" and "Q♠, perhaps Q♦", in 5 of 15 frames) is a
        card the reader saw, and without it the whole deal went unseen."""
        if zone.kind is ZoneKind.SEAT:
            return not uncertain and self._read_surely(vote, confidence) and not self._contested(track, zone, frame)
        if zone == KITTY:
            recent = [r for r in track.readings if r[0] > frame - self.config.patience]
            return uncertain and bool(recent) and all(r[4] is not None for r in recent)
        return False

    @staticmethod
    def _doubted_as(track: _Track, card: Card, after: int) -> set[int]:
        """The frames after ``after`` in which ``track`` was read as another card that named ``card`` its rival."""
        return {f for f, other, _, _, rival in track.readings if f > after and other != card and rival == card}

    def _read_surely(self, vote: _Vote, confidence: float) -> bool:
        """Whether a card judged over ``patience`` was read surely: a mean confidence from
        ``patient_confidence`` up, or most of its readings from there up (one reading blurred as the hand
        left drags the mean down without casting doubt on the sure ones)."""
        cfg = self.config
        sure = sum(1 for c in vote.confidences if c >= cfg.patient_confidence)
        return confidence >= cfg.patient_confidence or 2 * sure > len(vote.confidences)

    def _waits_for_turn(self, track: _Track, zone: Zone, expected_seat: int, frame: int) -> bool:
        """Whether a card ready to land at a seat out of turn waits for the next player's card.

        It waits while a card first read in the next player's zone before it was first read has not
        landed there and was read within the last ``wait_for_turn`` frames (read late: a few misread or
        missed frames), and for at most ``wait_for_turn`` frames from its own first sighting. Then the
        engine hears the two in the order they were played.
        """
        if zone.seat is None or zone.seat == expected_seat or frame - track.first_frame >= self.config.wait_for_turn:
            return False
        sighted = self._sighted.get(expected_seat)
        return sighted is not None and sighted[0] < track.first_frame

    def _misread_of_landed(self, track: _Track, zone: Zone, frame: int) -> _Track | None:
        """The landed card at a seat that ``track``, ready to land on its very spot, is a misreading of.

        Each player lays one card a trick at their seat, and the kitty shows one up-card a deal, so a
        card coming to rest on the spot of a card that was still in sight after this one was first read
        (or a moment ago: ``drop_frames``), read as something else, is that card misread (a queen read
        as a ten for a few frames), not a new one. In the shared pile cards do lie on each other, so
        this holds at the seats and the kitty only.
        """
        if zone.kind not in _ONE_CARD_ZONES:
            return None
        cfg = self.config
        for other in self._tracks:
            if (
                other.zone == zone
                and other.identity != track.identity
                and (other.last_seen > track.first_frame or frame - other.last_seen <= cfg.drop_frames)
                and _dist(other.point, track.point) <= cfg.same_spot
            ):
                return other
        return None

    def _second_outline_of(self, track: _Track, zone: Zone, vote: _Vote, confidence: float) -> _Track | None:
        """The landed card at a seat that ``track``, ready to land half over it, is a second outline of.

        The finder sometimes outlines a card twice, the second outline slipped sideways onto the mat, and
        that one may read as a look-alike (a queen's corner as a jack's). A card laid on a landed one
        would cover it, so a reading of another card within ``overlap_distance`` of a landed card at the
        same seat, while that card is read as itself in every frame of the newcomer's vote and more
        surely (its mean confidence over those frames above the newcomer's, ``confidence``), is that card
        outlined twice. Only at the seats and the kitty, where one card lies at a time.
        """
        if zone.kind not in _ONE_CARD_ZONES:
            return None
        for other in self._tracks:
            if other.zone != zone or other.identity == track.identity:
                continue
            if _dist(other.point, track.point) > self.config.overlap_distance:
                continue
            own: dict[int, float] = {}
            for f, card, conf, _, _ in other.readings:
                if card == other.identity:
                    own[f] = max(conf, own.get(f, 0.0))
            if vote.frames <= own.keys() and sum(own[f] for f in vote.frames) / len(vote.frames) > confidence:
                return other
        return None

    def _contested(self, track: _Track, zone: Zone, frame: int) -> bool:
        """Whether another card landed in ``zone`` within ``patience`` frames and was read there since: the
        two may be one card read two ways as it slid, which the window's vote, not patience, settles."""
        since = frame - self.config.patience
        return any(
            other is not track and other.zone == zone and other.landed_at >= since and other.last_seen >= since
            for other in self._tracks
        )

    def _landed_as_misread(
        self, track: _Track, zone: Zone, vote: _Vote, confidence: float, frame: int
    ) -> _Track | None:
        """The card that landed at this seat a moment ago as a misreading of ``track``'s card, if any.

        Each player lays one card a trick at their seat. A card landed there within ``misread_within``
        frames that vanished as this card appeared (read until ``track`` was first read, give or take
        ``drop_frames``, and in no frame of its vote), and read less surely than this card now is
        (``confidence``, its vote's mean), was this card read wrong as it slid to rest (a jack read as
        a ten in the blur). A card that stays in sight while another is read on its spot is the other
        case (:meth:`_misread_of_landed`): it keeps its name.
        """
        if zone.kind is not ZoneKind.SEAT:
            return None
        cfg = self.config
        for other in self._tracks:
            if (
                other.zone == zone
                and other.identity != track.identity
                and frame - other.landed_at <= cfg.misread_within
                and track.first_frame - cfg.drop_frames <= other.last_seen < min(vote.frames)
                and confidence > other.confidence
            ):
                return other
        return None

    def _outline_landed_aside(self, track: _Track, zone: Zone, frame: int) -> _Track | None:
        """The card that landed at this seat a moment ago from a second outline of ``track``'s card, if any.

        The finder sometimes outlines a sliding card twice, the second outline a little aside, and reads it
        as a look-alike (a Joker's picture as a jack). The two tracks move together, and the misread one
        may land first. A card landed at this seat within ``misread_within`` frames, within
        ``overlap_distance`` of ``track``, that was being read when ``track`` was first read, before it
        landed (the two slid in together), may be that outline; one that lay there before ``track`` was
        first read is not. The caller holds ``track`` while it may be. Once the other has gone from sight
        (``drop_frames``) and ``track`` is read more surely than it landed, the other is revised to
        ``track``'s card; held ``misread_within`` frames without that, ``track`` lands as a card of its own,
        as before. One read as itself more surely in every frame of ``track``'s vote keeps its name
        (:meth:`_second_outline_of`, asked first).
        """
        if zone.kind is not ZoneKind.SEAT:
            return None
        cfg = self.config
        for other in self._tracks:
            if (
                other is not track
                and other.zone == zone
                and other.identity != track.identity
                and frame - other.landed_at <= cfg.misread_within
                and track.first_frame <= other.landed_at
                and other.last_seen >= track.first_frame
                and _dist(other.point, track.point) <= cfg.overlap_distance
            ):
                return other
        return None

    def _moved_from(self, card: Card, zone: Zone, frame: int) -> _Track | None:
        """A landed track of ``card`` out of sight for a while (not a flicker): the card is now elsewhere.

        Not for the kitty: a card leaving it was picked up, and one arriving there is a new up-card.
        """
        if zone == KITTY:
            return None
        for t in self._tracks:
            gone_a_while = frame - t.last_seen >= self.config.drop_frames
            if t.landed and t.identity == card and gone_a_while and t.zone != KITTY:
                return t
        return None

    def _revise(self, frame: int) -> list[Observation]:
        cfg = self.config
        events: list[Observation] = []
        for t in self._tracks:
            if t.zone is None or t.last_seen != frame:
                continue
            # A card landed surely is looked at again only at a seat, a moment after it landed.
            if not t.uncertain and (t.zone.kind is not ZoneKind.SEAT or frame - t.landed_at > cfg.misread_within):
                continue
            spent = self._spent_at(t.zone)
            card, vote, share = self._leader(t, frame - cfg.window, spent)
            if len(vote.frames) < cfg.min_frames or share < cfg.min_share:
                continue
            confidence, uncertain = self._judge(vote, share)
            uncertain = uncertain or card in spent  # however surely read, a card played already stays in doubt
            if t.uncertain:
                if card == t.identity and uncertain:
                    continue  # still the card it landed as, still unsure
            elif uncertain or confidence <= t.confidence or self._read_as_itself(t, frame - cfg.window):
                # Landed surely, it is revised only to a card misread as it slid to rest (a Joker read as a jack
                # of clubs while a hand pushed it in, then surely as the Joker once it lay still): read since,
                # on its spot, as another card in ``min_frames`` frames of the window, more surely than it
                # landed, and no longer as itself.
                continue
            # Another card now, or the same card read surely at rest (a card read unsurely as it slid there,
            # such as a Joker): ``CardRevised`` with ``new == old`` confirms the reading.
            events.append(CardRevised(t.zone, t.identity, card, round(confidence, 4), frame, uncertain))
            t.identity, t.confidence, t.uncertain = card, confidence, uncertain
        return events

    @staticmethod
    def _rival_of(track: _Track, after: int) -> Card | None:
        """The card ``track``'s card most likely is instead, from its readings after frame ``after``: of the
        other cards the track was read as, and the rivals its doubted readings of its card named, the one
        with the most confidence behind it (a reading's confidence counts for the card it read, or for its
        rival). None where there is neither."""
        weight: dict[Card, float] = {}
        for f, card, conf, _, rival in track.readings:
            other = card if card != track.identity else rival
            if f > after and other is not None and other != track.identity:
                weight[other] = weight.get(other, 0.0) + conf
        if not weight:
            return None
        return max(weight.items(), key=lambda kv: (kv[1], str(kv[0])))[0]

    @staticmethod
    def _read_as_itself(track: _Track, after: int) -> bool:
        """Whether ``track`` was read as the card it landed as after frame ``after``."""
        return any(f > after and c == track.identity for f, c, _, _, _ in track.readings)

    def _remove(self, gone: list[_Track], frame: int, new_ids: set[int]) -> list[Observation]:
        if not gone:
            return []
        gone_ids = {t.id for t in gone}
        self._tracks = [t for t in self._tracks if t.id not in gone_ids]
        events: list[Observation] = []
        by_zone: dict[Zone, list[_Track]] = {}
        for t in sorted(gone, key=lambda t: (t.first_frame, t.id)):
            assert t.zone is not None
            by_zone.setdefault(t.zone, []).append(t)
        for zone, tracks in by_zone.items():
            # A card laid this very frame (the next lead) does not stop the old trick being gathered.
            emptied = not any(t.zone == zone and t.id not in new_ids for t in self._tracks)
            if len(gone) >= self.config.gather_min and emptied and zone.kind is not ZoneKind.KITTY:
                events.append(ZoneCleared(zone, frame, tuple(t.identity for t in tracks)))
            else:
                events.extend(CardLifted(zone, t.identity, frame) for t in tracks)
        return events


def _dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])
