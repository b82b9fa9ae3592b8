#!/usr/bin/env bash
# Real GEDCOM clients for the interoperability tests (issue #8), installed idempotently:
#   - Gramps 6 from PyPI in a venv on Debian's python3, which brings PyGObject and the GTK
#     typelibs (Gramps' CLI imports Gtk even headless; pip cannot build those);
#   - the `gedcom7` validator into the project venv (.venv).
# Prints the path of the gramps executable on its last line (export it as SLEUTH_GRAMPS).
set -euo pipefail
GRAMPS_VERSION=6.0.8
GEDCOM7_VERSION=1.2.0
VENV=${GRAMPS_VENV:-/opt/gramps-venv}
ROOT=$(cd "$(dirname "$0")/.." && pwd)

need=()
/usr/bin/python3 -c 'import gi; gi.require_version("Gtk", "3.0"); from gi.repository import Gtk' \
  >/dev/null 2>&1 || need+=(python3-gi gir1.2-gtk-3.0)
/usr/bin/python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || need+=(python3-venv)
if ((${#need[@]})); then
  SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    "${need[@]}" gir1.2-pango-1.0 librsvg2-common >&2
fi
if ! "$VENV/bin/gramps" --version 2>/dev/null | grep -q "$GRAMPS_VERSION"; then
  /usr/bin/python3 -m venv --system-site-packages "$VENV" >&2
  "$VENV/bin/pip" install -q "gramps==$GRAMPS_VERSION" >&2
fi
if [ -x "$ROOT/.venv/bin/pip" ] && ! "$ROOT/.venv/bin/python" -c 'import gedcom7' 2>/dev/null; then
  "$ROOT/.venv/bin/pip" install -q "gedcom7==$GEDCOM7_VERSION" >&2
fi
echo "$VENV/bin/gramps"
