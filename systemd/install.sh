#!/usr/bin/env bash
# Installs euchre-table on Raspberry Pi OS (Bookworm or Trixie) as a service that starts at boot.
# Run from a checkout as root: sudo systemd/install.sh [--no-enable | --uninstall [--purge]]
# Safe to run again (an update). pip runs as the service user, into the program's own venv, never as root.
# --uninstall removes the service and the program; the scores (/var/lib/euchre-table) and the config
# (/etc/euchre-table) stay unless --purge is given too.
set -euo pipefail

PREFIX=/opt/euchre-table
CONF_DIR=/etc/euchre-table
SERVICE_USER=euchre
UNIT=/etc/systemd/system/euchre-table.service
DATA_DIR=/var/lib/euchre-table
ENABLE=1
UNINSTALL=0
PURGE=0

for arg in "$@"; do
  case "$arg" in
    --no-enable) ENABLE=0 ;;
    --uninstall) UNINSTALL=1 ;;
    --purge) PURGE=1 ;;
    -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option: $arg" >&2; exit 2 ;;
  esac
done

if [ "$(id -u)" -ne 0 ]; then
  echo "install.sh: run as root (sudo $0)" >&2
  exit 2
fi

if [ "$UNINSTALL" -eq 1 ]; then
  echo "== removing the service"
  if [ -f "$UNIT" ]; then
    systemctl disable --now euchre-table.service || true
    rm -f "$UNIT"
    systemctl daemon-reload
  fi
  echo "== removing $PREFIX"
  rm -rf "$PREFIX"
  if [ "$PURGE" -eq 1 ]; then
    echo "== removing the scores ($DATA_DIR), the config ($CONF_DIR) and the user $SERVICE_USER"
    rm -rf "$DATA_DIR" "$CONF_DIR"
    if id "$SERVICE_USER" >/dev/null 2>&1; then
      userdel "$SERVICE_USER" || true
    fi
  else
    echo "kept: the scores in $DATA_DIR and the config in $CONF_DIR (--uninstall --purge removes them)"
  fi
  exit 0
fi
if [ "$PURGE" -eq 1 ]; then
  echo "install.sh: --purge goes with --uninstall" >&2
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
  useradd --system --create-home --home-dir "$DATA_DIR" --shell /usr/sbin/nologin "$SERVICE_USER"
fi
for group in video render input gpio audio; do
  if getent group "$group" >/dev/null; then
    usermod -a -G "$group" "$SERVICE_USER"
  fi
done

echo "== program files in $PREFIX"
mkdir -p "$PREFIX"
rsync -a --delete --exclude .git --exclude .venv --exclude .venv-train --exclude work-data "$src/" "$PREFIX/"
# The service user installs into the program's folder (pip writes the editable install's metadata there);
# at run time the unit makes it read-only (ProtectSystem=strict).
chown -R "$SERVICE_USER:$SERVICE_USER" "$PREFIX"

as_service_user() {
  runuser -u "$SERVICE_USER" -- env HOME="$DATA_DIR" PIP_DISABLE_PIP_VERSION_CHECK=1 "$@"
}

echo "== virtual environment (with system site packages, for picamera2), as $SERVICE_USER"
if [ ! -x "$PREFIX/.venv/bin/python" ]; then
  as_service_user python3 -m venv --system-site-packages "$PREFIX/.venv"
fi
as_service_user "$PREFIX/.venv/bin/python" -m pip install --upgrade pip
if [ "$codename" = "bookworm" ]; then
  # Bookworm's picamera2 and simplejpeg are built against numpy 1.24: numpy 2 breaks them,
  # and opencv-python 4.12+ requires numpy 2.
  as_service_user "$PREFIX/.venv/bin/python" -m pip install "numpy<2" "opencv-python-headless<4.12"
fi
# Editable, so the installed program finds its models/ and demo recording beside it.
as_service_user "$PREFIX/.venv/bin/python" -m pip install -e "${PREFIX}[pi]"

echo "== configuration in $CONF_DIR"
mkdir -p "$CONF_DIR"
if [ ! -f "$CONF_DIR/config.toml" ]; then
  cp "$PREFIX/companion/config.example.toml" "$CONF_DIR/config.toml"
fi
mkdir -p "$DATA_DIR/ultralytics"
chown -R "$SERVICE_USER:$SERVICE_USER" "$DATA_DIR"
chmod 0750 "$DATA_DIR"

echo "== systemd unit"
install -m 0644 "$PREFIX/systemd/euchre-table.service" "$UNIT"
systemctl daemon-reload
if systemctl is-active --quiet euchre-table.service; then
  systemctl restart euchre-table.service  # an update: the running table picks up the new program
fi
if [ "$ENABLE" -eq 1 ]; then
  systemctl enable euchre-table.service
  echo "installed; start now with: systemctl start euchre-table"
else
  echo "installed (not enabled)"
fi
