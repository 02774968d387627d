"""The documented broker setup (systemd/mosquitto-league.acl) on a real Mosquitto: accounts and the ACL hold.

A table publishes its own topic and nothing else; a wrong password gets no connection, and the table
says so; the board reads every table. Needs the Debian package mosquitto (.ci/run installs it).
"""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import game_rounds

from companion.league_publish import LeaguePublisher, PublisherSettings, events_topic, parse_broker_url
from league.broker import LocalBroker, mosquitto_path
from league.listener import BoardListener
from league.store import LeagueStore

ROOT = Path(__file__).resolve().parents[2]
ACL = ROOT / "systemd" / "mosquitto-league.acl"
PASSWD = shutil.which("mosquitto_passwd")
pytestmark = pytest.mark.skipif(mosquitto_path() is None or PASSWD is None,
                                reason="mosquitto is not installed (apt-get install mosquitto)")
ACCOUNTS = {"board": "board-pw", "3": "table-3-pw", "4": "table-4-pw"}


@pytest.fixture
def secured(tmp_path: Path) -> Iterator[LocalBroker]:
    passwd = tmp_path / "passwd"
    passwd.touch()
    for user, password in ACCOUNTS.items():
        assert PASSWD is not None
        subprocess.run([PASSWD, "-b", str(passwd), user, password], check=True, capture_output=True)
    acl = tmp_path / "acl"
    acl.write_text(ACL.read_text(encoding="utf-8"), encoding="utf-8")
    conf = f"allow_anonymous false\npassword_file {passwd}\nacl_file {acl}\n"
    broker = LocalBroker("mosquitto", mosquitto_conf=conf).start()
    yield broker
    broker.close()


def table(broker: LocalBroker, folder: Path, name: str, password: str) -> LeaguePublisher:
    settings = PublisherSettings(parse_broker_url(broker.url), name, username=name, password=password,
                                 client_id=f"acl-table-{name}")
    return LeaguePublisher(settings, folder / f"outbox-{name}.sqlite").start()


def test_a_table_publishes_its_own_topic_only_and_a_wrong_password_is_refused(
    secured: LocalBroker, tmp_path: Path
) -> None:
    store = LeagueStore(tmp_path / "league.sqlite")
    board = BoardListener(store, parse_broker_url(secured.url), username="board", password=ACCOUNTS["board"],
                          client_id="acl-board").start()
    three = table(secured, tmp_path, "3", ACCOUNTS["3"])
    stranger = table(secured, tmp_path, "4", "not-the-password")
    try:
        assert board.connected.wait(15)
        three.submit(game_rounds(seed=9, table="3")[-1])
        assert three.drained(30)  # the board confirmed every event: the ACL lets the confirmations through
        kept = {e["table"] for e in store.events()}
        assert kept == {"3"}
        # table 3 writing on table 4's topic: the broker drops it (MQTT 3.1.1 cannot say so to the sender)
        forged = game_rounds(seed=9, table="4")[-1][0].text()
        three._client.publish(events_topic("4"), '{"v":1,"outbox":"x","q":1,"event":' + forged + "}", qos=1)
        three.submit(game_rounds(seed=11, table="3", game="g2")[-1])  # after the forgery, in order: when these
        assert three.drained(30)  # are on the board, the forgery would have been too
        stranger.submit(game_rounds(seed=10, table="4")[-1])
        end = time.monotonic() + 3
        while time.monotonic() < end and not stranger.stats.errors:
            time.sleep(0.05)
        assert any("refused the table" in e for e in stranger.stats.errors)
        assert not stranger.connected
        assert {e["table"] for e in store.events()} == {"3"}
    finally:
        three.close()
        stranger.close()
        board.stop()
        store.close()
