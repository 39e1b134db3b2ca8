#!/bin/sh
# Installs Debian's nginx for the cluster tests when it is not there yet. scripts/cluster.sh
# runs it unprivileged with a config of its own; the package's system service is not used.
set -e
command -v nginx >/dev/null 2>&1 && exit 0
[ -x /usr/sbin/nginx ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && SUDO="sudo"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q nginx-light
