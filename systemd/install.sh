#!/usr/bin/env bash
# Installs euchre-table on Raspberry Pi OS (Bookworm or Trixie) as a service that starts at boot.
# Run from a checkout as root: sudo systemd/install.sh [--no-enable]
set -euo pipefail

PREFIX=/opt/euchre-table
CONF_DIR=/etc/euchre-table
SERVICE_USER=euchre
UNIT=/etc/systemd/system/euchre-table.service
ENABLE=1

for arg in "$@"; do
  case "$arg" in
    --no-enable) ENABLE=0 ;;
    -h|--help) sed -n '2,3p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option: $arg" >&2; exit 2 ;;
  esac
done

if [ "$(id -u)" -ne 0 ]; then
  echo "install.sh: run as root (sudo $0)" >&2
  exit 2
fi

src="$(cd "$(dirname "$0")/.." && pwd)"
codename="unknown"
if [ -r /etc/os-release ]; then
  # shellcheck disable=SC1091
  . /etc/os-release
  codename="${VERSION_CODENAME:-unknown}"
fi
case "$codename" in
  bookworm|trixie) ;;
  *) echo "install.sh: warning: tested on Raspberry Pi OS bookworm and trixie, this is '$codename'" >&2 ;;
esac

echo "== apt packages"
apt-get update
# picamera2's libcamera bindings come only from apt; lgpio is the pin factory that works on a Pi 5.
apt-get install -y --no-install-recommends \
  python3-venv python3-pip python3-picamera2 python3-lgpio \
  fonts-dejavu-core espeak-ng rsync

echo "== service user"
if ! id "$SERVICE_USER" >/dev/null 2>&1; then
  useradd --system --create-home --home-dir /var/lib/euchre-table --shell /usr/sbin/nologin "$SERVICE_USER"
fi
for group in video render input gpio audio; do
  if getent group "$group" >/dev/null; then
    usermod -a -G "$group" "$SERVICE_USER"
  fi
done

echo "== program files in $PREFIX"
mkdir -p "$PREFIX"
rsync -a --delete --exclude .git --exclude .venv --exclude .venv-train --exclude work-data "$src/" "$PREFIX/"

echo "== virtual environment (with system site packages, for picamera2)"
python3 -m venv --system-site-packages "$PREFIX/.venv"
"$PREFIX/.venv/bin/python" -m pip install --upgrade pip
if [ "$codename" = "bookworm" ]; then
  # Bookworm's picamera2 and simplejpeg are built against numpy 1.24: numpy 2 breaks them,
  # and opencv-python 4.12+ requires numpy 2.
  "$PREFIX/.venv/bin/python" -m pip install "numpy<2" "opencv-python-headless<4.12"
fi
# Editable, so the installed program finds its models/ and demo recording beside it.
"$PREFIX/.venv/bin/python" -m pip install -e "${PREFIX}[pi]"

echo "== configuration in $CONF_DIR"
mkdir -p "$CONF_DIR"
if [ ! -f "$CONF_DIR/config.toml" ]; then
  cp "$PREFIX/companion/config.example.toml" "$CONF_DIR/config.toml"
fi
mkdir -p /var/lib/euchre-table/ultralytics
chown -R "$SERVICE_USER:$SERVICE_USER" /var/lib/euchre-table

echo "== systemd unit"
install -m 0644 "$PREFIX/systemd/euchre-table.service" "$UNIT"
systemctl daemon-reload
if [ "$ENABLE" -eq 1 ]; then
  systemctl enable euchre-table.service
  echo "installed; start now with: systemctl start euchre-table"
else
  echo "installed (not enabled)"
fi
