#!/usr/bin/env bash
# Installs the Debian packages metalcpu needs, when any is missing and we can (as root, or
# through sudo without a password). Called by `make run` and `make test`.
set -euo pipefail

packages=(g++ cmake make ninja-build libtbb-dev libspdlog-dev libfmt-dev libboost-context-dev libgtest-dev libgmock-dev libseccomp-dev pkg-config libopenblas-dev)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "metalcpu: installing ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  sudo=(sudo -n)
else
  echo "metalcpu: please install these Debian packages first: ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq "${missing[@]}"
