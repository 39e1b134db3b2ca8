#!/bin/sh
# Installs Debian's Chromium for the browser tests when it is not there yet.
# Playwright drives it through executable_path; Playwright's own browser download is not used.
set -e
[ -x /usr/bin/chromium ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && SUDO="sudo"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium
