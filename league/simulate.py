"""``euchre-table league simulate``: a league night on N simulated tables, end to end, checked against the EGNs.

Each table is a thread that plays the night's games with perfect readings: ``table.sim`` deals and
plays seeded games and the rules engine folds their inputs, deal by deal, as the camera's readings
would arrive. After each deal the table hands its events to its own ``LeaguePublisher`` (the class
``run`` uses, with its outbox on disk), which sends them to a local broker (``league.broker``); the
board's ``BoardListener`` keeps them in a ``LeagueStore``. The seats come from the night's rotation.
With ``--restart-broker`` the broker is killed (SIGKILL) once about half the deals are played and
started again a moment later.

At the end every table's outbox must drain, and the board is checked against the EGN files the tables
wrote: ``lost`` counts the events the EGNs imply that the board does not hold, and ``standings_match``
is 1 when the standings folded from the EGNs (replayed through the rules engine) equal the board's.
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from companion.errors import UserError
from companion.league_publish import LeagueEvent, LeaguePublisher, PublisherSettings, match_events, parse_broker_url
from companion.summary import summary_line
from league.broker import LocalBroker, mosquitto_path
from league.listener import BoardListener
from league.records import Standings, fold
from league.rotation import make_rotation
from league.store import LeagueStore
from table.egn import dumps_egn, export_egn, load_egn, replay_egn
from table.match import Match
from table.rules import Rules
from table.sim import BiddingOdds, simulate_game

DEAL_PAUSE_S = 0.02  # between deals at a table: spreads the night over a few seconds, so a restart lands mid-night
DRAIN_TIMEOUT_S = 90.0
RENEGE_RATE = 0.02  # a few reneges a night, half of them penalised, so the records have some
ODDS = BiddingOdds(accept_penalty=0.5)


def played_deals(rules: Rules, seed: int, first_dealer: int = 0) -> Iterator[Match]:
    """A seeded game fed to the engine input by input; yields the match after each deal is over."""
    game = simulate_game(rules, seed, first_dealer=first_dealer, renege_rate=RENEGE_RATE, odds=ODDS)
    match = Match(rules, first_dealer)
    for deal in game.deals:
        for inp in deal.inputs:
            match.apply(inp)
        yield match


def game_name(table: int, round_number: int, seed: int) -> str:
    return f"s{seed}-t{table}-g{round_number}"


@dataclass
class TableResult:
    table: str
    egn_files: list[Path] = field(default_factory=list)
    games: int = 0
    deals: int = 0
    error: str = ""


def play_table(
    number: int,
    publisher: LeaguePublisher,
    seatings: list[tuple[str, str, str, str]],
    seed: int,
    folder: Path,
    progress: list[int],
    rules: Rules,
) -> TableResult:
    """One table's night: each game played deal by deal, published after every deal, its EGN written."""
    table = str(number)
    result = TableResult(table)
    for round_number, seats in enumerate(seatings, start=1):
        game = game_name(number, round_number, seed)
        match: Match | None = None
        for match in played_deals(rules, seed * 1000 + number * 31 + round_number, first_dealer=round_number % 4):
            publisher.submit(match_events(table, game, seats, match))
            result.deals += 1
            progress[0] += 1
            time.sleep(DEAL_PAUSE_S)
        assert match is not None
        path = folder / f"table-{table}-game-{round_number}.egn"
        path.write_text(dumps_egn(export_egn(match, players=list(seats))), encoding="utf-8")
        result.egn_files.append(path)
        result.games += 1
    return result


def expected_events(folder: Path, seed: int) -> list[LeagueEvent]:
    """The events the tables' EGN files in ``folder`` imply, replayed through the rules engine."""
    out: list[LeagueEvent] = []
    for path in sorted(folder.glob("table-*-game-*.egn")):
        _, table, _, round_number = path.stem.split("-")
        replay = replay_egn(load_egn(path))
        seats = [str(p) for p in replay.game.players]
        out.extend(match_events(table, game_name(int(table), int(round_number), seed), seats, replay.match))
    return out


def egn_standings(folder: Path, seed: int) -> Standings:
    """The night's standings as the tables' EGN files tell them."""
    return fold(e.body for e in expected_events(folder, seed))


@dataclass
class NightResult:
    tables: int
    games: int
    deals: int
    published: int
    applied: int
    duplicates: int
    lost: int
    standings_match: bool
    restarts: int

    def line(self) -> str:
        return summary_line(
            tables=self.tables, games=self.games, deals=self.deals, published=self.published,
            applied=self.applied, duplicates=self.duplicates, lost=self.lost,
            standings_match=int(self.standings_match),
        )


def simulate_night(
    tables: int, seed: int, games: int, restart_broker: bool, folder: Path, broker_kind: str = "auto"
) -> NightResult:
    """The whole night (see the module docstring)."""
    rules = Rules()
    players = [f"Player {i + 1:02d}" for i in range(4 * tables)]
    rotation = make_rotation(players, seed=seed, rounds=games)
    if len(rotation.rounds) < games:
        raise UserError(f"--games {games}: {len(players)} players' rotation has {len(rotation.rounds)} games")
    kind = None if broker_kind == "auto" else broker_kind
    if kind == "mosquitto" and mosquitto_path() is None:
        raise UserError("--broker mosquitto: mosquitto is not installed")
    broker = LocalBroker(kind)  # type: ignore[arg-type]
    broker.start()
    store = LeagueStore(folder / "league.sqlite")
    # the rotation's own order: the board makes the same rotation from it
    store.new_night(f"League night (simulated: {tables} tables, seed {seed})", rotation.players)
    listener = BoardListener(store, parse_broker_url(broker.url), client_id=f"euchre-league-board-sim-{seed}")
    publishers: list[LeaguePublisher] = []
    try:
        listener.start()
        if not listener.connected.wait(15):
            raise UserError(f"the board could not connect to the {broker.kind} broker at {broker.url}")
        url = parse_broker_url(broker.url)
        for t in range(1, tables + 1):
            (folder / f"table-{t}").mkdir(exist_ok=True)
            settings = PublisherSettings(url, str(t), resend_s=3.0, client_id=f"euchre-table-sim-{seed}-{t}")
            publishers.append(LeaguePublisher(settings, folder / f"table-{t}" / "league-outbox.sqlite").start())
        progress = [0]
        results: list[TableResult] = [TableResult(str(t + 1)) for t in range(tables)]

        def table_thread(t: int) -> None:
            seatings = [r.tables[t].seats for r in rotation.rounds]
            try:
                results[t] = play_table(t + 1, publishers[t], seatings, seed, folder, progress, rules)
            except Exception as exc:  # noqa: BLE001 (reported in the summary, never a silent thread death)
                results[t].error = f"{type(exc).__name__}: {exc}"

        threads = [threading.Thread(target=table_thread, args=(t,), name=f"table-{t + 1}") for t in range(tables)]
        for th in threads:
            th.start()
        if restart_broker:
            # about half the night: each table plays about 9 deals a game
            half = max(1, tables * games * 9 // 2)
            while progress[0] < half and any(th.is_alive() for th in threads):
                time.sleep(0.01)
            broker.kill()
            time.sleep(1.0)
            broker.start()
        for th in threads:
            th.join()
        errors = [f"table {r.table}: {r.error}" for r in results if r.error]
        if errors:
            raise UserError("; ".join(errors))
        for p in publishers:
            p.drained(DRAIN_TIMEOUT_S)
        expected = expected_events(folder, seed)
        expected_ids = {e.id for e in expected}
        end = time.monotonic() + 15
        while time.monotonic() < end and not expected_ids <= {e["id"] for e in store.events()}:
            time.sleep(0.1)
        held = {e["id"] for e in store.events()}
        board = store.standings()
        from_egn = fold(e.body for e in expected)
        return NightResult(
            tables=tables,
            games=sum(r.games for r in results),
            deals=sum(r.deals for r in results),
            published=sum(p.stats.queued for p in publishers),
            applied=store.count("applied"),
            duplicates=store.count("duplicates"),
            lost=len(expected_ids - held),
            standings_match=board.as_dict() == from_egn.as_dict() and board.partnerships == from_egn.partnerships,
            restarts=broker.starts - 1,
        )
    finally:
        for p in publishers:
            p.close()
        listener.stop()
        store.close()
        broker.close()


def shoot(folder: Path, seed: int, path: Path) -> None:
    """Serve the night's board, load it in Chromium, check the standings shown and save a screenshot."""
    from league.board import Board, serve_in_thread
    from league.broker import free_port
    from league.browser import Page

    store = LeagueStore(folder / "league.sqlite")
    server, thread = serve_in_thread(Board(store, admin_password=None), free_port())
    try:
        with Page(f"http://127.0.0.1:{server.config.port}/", height=1000) as page:
            shown = page.standings()
            page.screenshot(path)
    finally:
        server.should_exit = True
        thread.join(10)
        store.close()
    same = shown == egn_standings(folder, seed).as_dict()
    print(f"screenshot: {path} (the standings on the page {'match' if same else 'DO NOT match'} the EGNs)")


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.tables <= 8:
        raise UserError(f"--tables must be 1-8, not {args.tables}")
    if not 1 <= args.games <= 15:
        raise UserError(f"--games must be 1-15, not {args.games}")
    with tempfile.TemporaryDirectory(prefix="euchre-league-") as tmp:
        folder = args.out if args.out is not None else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        result = simulate_night(args.tables, args.seed, args.games, args.restart_broker, folder, args.broker)
        if args.screenshot is not None:
            shoot(folder, args.seed, args.screenshot)
    if result.restarts:
        print(f"the broker was killed and restarted {result.restarts} time(s) mid-night")
    print(result.line())
    return 0 if result.lost == 0 and result.standings_match else 1
