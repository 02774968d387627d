#!/usr/bin/env bash
# Installs euchre-table on Raspberry Pi OS (Bookworm or Trixie) as a service that starts at boot.
# Run from a checkout as root: sudo systemd/install.sh [--no-enable] [--no-start] | --dry-run | --uninstall [--purge]
# Safe to run again (an update). pip runs as the service user, into the program's own venv, never as root.
# --no-start does everything but start or restart the service (for an SD-card image or a chroot; nothing
# touches the camera or the GPIO pins at install time anyway). --dry-run prints the plan and changes nothing.
# --uninstall removes the service and the program; the scores (/var/lib/euchre-table) and the config
# (/etc/euchre-table) stay unless --purge is given too.
set -euo pipefail

PREFIX=/opt/euchre-table
CONF_DIR=/etc/euchre-table
SERVICE_USER=euchre
UNIT=/etc/systemd/system/euchre-table.service
DATA_DIR=/var/lib/euchre-table
ENABLE=1
START=1
DRY_RUN=0
UNINSTALL=0
PURGE=0
# What the plan is made from. The --dry-run tests point these at a made-up machine:
#   EUCHRE_INSTALL_OS_RELEASE   an os-release file (default /etc/os-release)
#   EUCHRE_INSTALL_APT_PACKAGES the packages apt can install, space-separated (default: ask apt-cache)
#   EUCHRE_INSTALL_ARCH         the machine (default: uname -m)
#   EUCHRE_INSTALL_PYTHON       the Python version apt's python3 is, X.Y (default: ask it, else from the release)
OS_RELEASE="${EUCHRE_INSTALL_OS_RELEASE:-/etc/os-release}"
ARCH="${EUCHRE_INSTALL_ARCH:-$(uname -m)}"

for arg in "$@"; do
  case "$arg" in
    --no-enable) ENABLE=0 ;;
    --no-start) START=0 ;;
    --dry-run) DRY_RUN=1 ;;
    --uninstall) UNINSTALL=1 ;;
    --purge) PURGE=1 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option: $arg (see --help)" >&2; exit 2 ;;
  esac
done

src="$(cd "$(dirname "$0")/.." && pwd)"
CONSTRAINTS_NAME=systemd/constraints-pi.txt

# ---- the plan: which release, which Python, whether the Raspberry Pi OS archive is there ----
id_name="unknown"
codename="unknown"
if [ -r "$OS_RELEASE" ]; then
  # Read in a subshell, so the file's variables (NAME, VERSION...) do not land in this script.
  # shellcheck disable=SC1090
  id_name="$(. "$OS_RELEASE" >/dev/null 2>&1; echo "${ID:-unknown}")"
  # shellcheck disable=SC1090
  codename="$(. "$OS_RELEASE" >/dev/null 2>&1; echo "${VERSION_CODENAME:-unknown}")"
fi

apt_has() {  # apt_has PACKAGE: apt can install it (it has a candidate version)
  if [ -n "${EUCHRE_INSTALL_APT_PACKAGES+set}" ]; then
    case " $EUCHRE_INSTALL_APT_PACKAGES " in *" $1 "*) return 0 ;; *) return 1 ;; esac
  fi
  command -v apt-cache >/dev/null 2>&1 || return 1
  local candidate
  candidate="$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: *//p' | head -n 1)"
  [ -n "$candidate" ] && [ "$candidate" != "(none)" ]
}

python_version() {  # X.Y of the python3 the venv is made from
  if [ -n "${EUCHRE_INSTALL_PYTHON:-}" ]; then
    echo "$EUCHRE_INSTALL_PYTHON"
  elif [ "$DRY_RUN" -eq 0 ] && command -v python3 >/dev/null 2>&1; then
    python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])'
  else
    case "$codename" in bookworm) echo 3.11 ;; trixie) echo 3.13 ;; *) echo unknown ;; esac
  fi
}

make_plan() {
  # Sets PI_ARCHIVE, APT_PACKAGES, GPIO (apt-lgpio | pip-lgpio | native | none) and PYVER, and says why.
  PYVER="$(python_version)"
  APT_PACKAGES="python3-venv python3-pip fonts-dejavu-core espeak-ng rsync"
  if apt_has python3-picamera2; then
    PI_ARCHIVE=1
    # picamera2's libcamera bindings come only from the Raspberry Pi OS archive (system site packages).
    APT_PACKAGES="$APT_PACKAGES python3-picamera2"
    echo "camera: the Pi camera through python3-picamera2 from the Raspberry Pi OS archive"
  else
    PI_ARCHIVE=0
    echo "install.sh: note: the Raspberry Pi OS archive is not available here (apt has no python3-picamera2):" \
      "installing without the Pi camera; a USB webcam (source camera:0) still works." \
      "On Raspberry Pi OS, check /etc/apt/sources.list.d/raspi.* and run this again." >&2
  fi
  if apt_has python3-lgpio; then
    GPIO=apt-lgpio  # the pin factory that works on a Pi 5
    APT_PACKAGES="$APT_PACKAGES python3-lgpio"
    echo "buttons: gpiozero with lgpio from the Raspberry Pi OS archive"
  elif [ "$ARCH" != "aarch64" ]; then
    GPIO=none
    echo "buttons: not an arm64 Pi ($ARCH): no GPIO library; gpiozero's mock or keyboard input only"
  else
    case "$PYVER" in
      3.11)
        # PyPI's lgpio is a manylinux_2_34 wheel for Python 3.11 only.
        GPIO=pip-lgpio
        echo "buttons: gpiozero with lgpio from PyPI (a wheel for Python $PYVER)"
        ;;
      *)
        # Elsewhere PyPI has lgpio's source only (its build needs swig and the lg library): never build it.
        GPIO=native
        echo "install.sh: note: no lgpio for Python $PYVER without the Raspberry Pi OS archive:" \
          "gpiozero uses its native pin factory (works on a Pi 4 and older; a Pi 5 needs python3-lgpio" \
          "from the Raspberry Pi OS archive)." >&2
        ;;
    esac
  fi
}

if [ "$DRY_RUN" -eq 1 ]; then
  if [ "$UNINSTALL" -eq 1 ] || [ "$PURGE" -eq 1 ]; then
    echo "install.sh: --dry-run plans an install; it does not go with --uninstall or --purge" >&2
    exit 2
  fi
  make_plan
  echo "plan: os=$id_name release=$codename arch=$ARCH python=$PYVER pi_archive=$PI_ARCHIVE gpio=$GPIO" \
    "apt=\"$APT_PACKAGES\" constraints=$CONSTRAINTS_NAME enable=$ENABLE start=$START"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install.sh: run as root (sudo $0)" >&2
  exit 2
fi

# systemd is not running in a chroot or an image being prepared: nothing to reload or start there.
systemd_running=0
if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
  systemd_running=1
fi

if [ "$UNINSTALL" -eq 1 ]; then
  echo "== removing the service"
  if [ -f "$UNIT" ]; then
    if [ "$systemd_running" -eq 1 ]; then
      systemctl disable --now euchre-table.service || true
    elif command -v systemctl >/dev/null 2>&1; then
      systemctl disable euchre-table.service || true
    fi
    rm -f "$UNIT"
    if [ "$systemd_running" -eq 1 ]; then
      systemctl daemon-reload
    fi
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

case "$codename" in
  bookworm|trixie) ;;
  *) echo "install.sh: warning: tested on Raspberry Pi OS bookworm and trixie, this is '$codename'" >&2 ;;
esac
if [ ! -f "$src/$CONSTRAINTS_NAME" ] || [ ! -f "$src/pyproject.toml" ]; then
  echo "install.sh: run it from a whole checkout of euchre-table ($src has no $CONSTRAINTS_NAME or pyproject.toml)" >&2
  exit 2
fi

echo "== apt packages"
if ! apt-get update; then
  echo "install.sh: apt-get update failed: is the network up and /etc/apt/sources.list(.d) right?" >&2
  exit 1
fi
make_plan
# shellcheck disable=SC2086  # a list of package names
if ! apt-get install -y --no-install-recommends $APT_PACKAGES; then
  echo "install.sh: apt-get could not install: $APT_PACKAGES" >&2
  exit 1
fi
PYVER="$(python_version)"

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
CONSTRAINTS="$PREFIX/$CONSTRAINTS_NAME"

as_service_user() {
  runuser -u "$SERVICE_USER" -- env HOME="$DATA_DIR" PIP_DISABLE_PIP_VERSION_CHECK=1 "$@"
}

echo "== virtual environment (with system site packages, for picamera2), as $SERVICE_USER"
if [ ! -x "$PREFIX/.venv/bin/python" ]; then
  as_service_user python3 -m venv --system-site-packages "$PREFIX/.venv"
fi
# Known-good versions for the Pi (systemd/constraints-pi.txt), wheels only: nothing is compiled on the Pi.
as_service_user "$PREFIX/.venv/bin/python" -m pip install --upgrade -c "$CONSTRAINTS" pip
if [ "$codename" = "bookworm" ]; then
  # Bookworm's picamera2 and simplejpeg are built against numpy 1.24: numpy 2 breaks them,
  # and opencv-python 4.12+ requires numpy 2.
  as_service_user "$PREFIX/.venv/bin/python" -m pip install -c "$CONSTRAINTS" --only-binary :all: \
    "numpy<2" "opencv-python-headless<4.12"
fi
# Editable, so the installed program finds its models/ and demo recording beside it. The [pi] extra is not
# asked for: the GPIO library is chosen below, so pip never builds lgpio from source.
as_service_user "$PREFIX/.venv/bin/python" -m pip install -c "$CONSTRAINTS" --only-binary :all: \
  --no-binary euchre-table -e "$PREFIX"
if [ "$GPIO" = "pip-lgpio" ]; then
  as_service_user "$PREFIX/.venv/bin/python" -m pip install -c "$CONSTRAINTS" --only-binary :all: lgpio || {
    GPIO=native
    echo "install.sh: note: no lgpio wheel for this Python ($PYVER): gpiozero uses its native pin factory" >&2
  }
fi

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
if [ "$systemd_running" -eq 1 ]; then
  systemctl daemon-reload
fi
if [ "$START" -eq 1 ] && [ "$systemd_running" -eq 1 ] && systemctl is-active --quiet euchre-table.service; then
  systemctl restart euchre-table.service  # an update: the running table picks up the new program
fi
if [ "$ENABLE" -eq 1 ] && command -v systemctl >/dev/null 2>&1; then
  systemctl enable euchre-table.service  # works offline too: it only links the unit into multi-user.target
  if [ "$START" -eq 1 ] && [ "$systemd_running" -eq 1 ]; then
    echo "installed; start now with: systemctl start euchre-table"
  else
    echo "installed and enabled (not started: it starts at the next boot)"
  fi
elif [ "$ENABLE" -eq 1 ]; then
  echo "installed (not enabled: this system has no systemctl)"
else
  echo "installed (not enabled)"
fi
echo "install: release=$codename python=$PYVER pi_archive=$PI_ARCHIVE gpio=$GPIO"
