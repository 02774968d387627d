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
from league_helpers import game_rounds

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


OPENSSL = shutil.which("openssl")


def _certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A league CA and the broker's certificate for 127.0.0.1, signed by it."""
    assert OPENSSL is not None
    ca_key, ca, key, csr, crt = (folder / n for n in ("ca.key", "ca.crt", "league.key", "league.csr", "league.crt"))
    ext = folder / "san.cnf"
    ext.write_text("subjectAltName=IP:127.0.0.1\n", encoding="utf-8")
    for args in (
        ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ca_key, "-out", ca, "-days", "2",
         "-subj", "/CN=League CA"],
        ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr, "-subj", "/CN=127.0.0.1"],
        ["x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial", "-out", crt, "-days", "2",
         "-extfile", ext],
    ):
        subprocess.run([OPENSSL, *map(str, args)], check=True, capture_output=True)
    return ca, crt, key


@pytest.mark.skipif(OPENSSL is None, reason="openssl is not installed")
def test_the_documented_broker_config_serves_tables_over_tls(tmp_path: Path) -> None:
    ca, crt, key = _certificates(tmp_path)
    passwd = tmp_path / "passwd"
    passwd.touch()
    for user, password in ACCOUNTS.items():
        assert PASSWD is not None
        subprocess.run([PASSWD, "-b", str(passwd), user, password], check=True, capture_output=True)
    places = {
        "/etc/mosquitto/certs/league.crt": crt, "/etc/mosquitto/certs/league.key": key,
        "/etc/mosquitto/euchre-league.passwd": passwd, "/etc/mosquitto/euchre-league.acl": ACL,
    }
    conf = (ROOT / "systemd" / "mosquitto-league.conf").read_text(encoding="utf-8")
    for documented, here in places.items():
        assert documented in conf
        conf = conf.replace(documented, str(here))
    # the listener and the persistence are the test broker's own (a free port on 127.0.0.1, nothing kept)
    kept = [line for line in conf.splitlines() if not line.startswith(("listener", "persistence", "per_listener"))]
    broker = LocalBroker("mosquitto", mosquitto_conf="\n".join(kept) + "\n").start()
    url = parse_broker_url(f"mqtts://127.0.0.1:{broker.port}")
    store = LeagueStore(tmp_path / "league.sqlite")
    board = BoardListener(store, url, username="board", password=ACCOUNTS["board"], ca_file=str(ca),
                          client_id="tls-board").start()
    settings = PublisherSettings(url, "3", username="3", password=ACCOUNTS["3"], ca_file=str(ca), client_id="tls-3")
    three = LeaguePublisher(settings, tmp_path / "outbox.sqlite").start()
    try:
        assert board.connected.wait(15)
        events = game_rounds(seed=12, table="3")[-1]
        three.submit(events)
        assert three.drained(30)
        assert {e["id"] for e in store.events()} == {e.id for e in events}
    finally:
        three.close()
        board.stop()
        store.close()
        broker.close()
