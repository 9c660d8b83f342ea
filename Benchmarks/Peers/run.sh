#!/usr/bin/env bash
# The peer comparison (issue 20), one command from a fresh clone:
#
#   Benchmarks/Peers/run.sh [--quick] [--rounds N] [--min-time SECONDS] [--filter TEXT]
#                           [--label TEXT] [--update-docs] [--no-install] [--debug]
#
# Installs GNUstep when it is missing (Debian/Ubuntu: gobjc, gnustep-make, libgnustep-base-dev;
# as root or through passwordless sudo; when that is impossible the report says so and the
# other programs still run), builds the programs (release), runs them in alternating rounds
# (3 by default) and writes .build/peers/report.md (markdown tables) and .build/peers/peers.svg
# (the chart). Every program prints and checks the data set's fingerprint.
#
#   --quick        tiny repetition counts: a smoke run whose figures mean nothing
#   --rounds N     rounds of runs (each program once per round, the order rotating)
#   --min-time S   shortest timed repetition in seconds (0.5)
#   --filter TEXT  only the workloads whose names contain TEXT
#   --label TEXT   a remark about the conditions, printed in the report and chart ("machine busy")
#   --update-docs  also put the report and chart into Docs/Performance.md and Docs/peers.svg
#   --no-install   never install GNUstep
#   --debug        use debug builds (quicker to build; figures mean nothing)
set -euo pipefail
cd "$(dirname "$0")/../.."

configuration=release
install=1
runner_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) runner_args+=(--quick) ;;
        --rounds|--min-time|--filter|--label)
            [ $# -ge 2 ] || { echo "run.sh: $1 needs a value" >&2; exit 2; }
            runner_args+=("$1" "$2"); shift ;;
        --update-docs) runner_args+=(--update-docs Docs) ;;
        --no-install) install=0 ;;
        --debug) configuration=debug ;;
        -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done

out=.build/peers
mkdir -p "$out"
packages="gobjc gnustep-make libgnustep-base-dev"

# Installs the GNUstep packages; prints why not when it cannot.
install_gnustep() {
    if [ "$install" = 0 ]; then echo "gcc's Objective-C or GNUstep Base is missing, and --no-install was given"; return 1; fi
    if ! command -v apt-get > /dev/null; then echo "no apt-get on this machine: install $packages by hand"; return 1; fi
    local sudo=()
    if [ "$(id -u)" != 0 ]; then
        if command -v sudo > /dev/null && sudo -n true 2> /dev/null; then sudo=(sudo -n); else
            echo "installing $packages needs root (run: sudo apt-get install $packages)"; return 1
        fi
    fi
    echo "installing $packages" >&2
    if ! { "${sudo[@]}" apt-get update -qq && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -qq $packages; } > "$out/apt.log" 2>&1; then
        echo "apt-get install $packages failed (see $out/apt.log)"; return 1
    fi
}

# 1. The GNUstep program.
gnustep_args=()
build_gnustep() { Benchmarks/Peers/GNUstep/build.sh "$out/peer-gnustep" > "$out/gnustep-build.log" 2>&1; }
if build_gnustep; then
    gnustep_args=(--gnustep "$out/peer-gnustep")
else
    status=$?
    reason="the Objective-C program did not compile (see $out/gnustep-build.log)"
    if [ "$status" = 3 ]; then
        if reason=$(install_gnustep); then
            if build_gnustep; then gnustep_args=(--gnustep "$out/peer-gnustep")
            elif [ $? = 3 ]; then reason="installed $packages, but gcc's Objective-C or GNUstep Base is still not usable"
            else reason="the Objective-C program did not compile (see $out/gnustep-build.log)"; fi
        fi
    fi
    if [ ${#gnustep_args[@]} = 0 ]; then
        echo "run.sh: GNUstep left out: $reason" >&2
        gnustep_args=(--missing "$reason")
    fi
fi

# 2. The Swift programs.
for product in peer-objectgraph peer-swift peers; do
    echo "run.sh: swift build -c $configuration --product $product" >&2
    if ! swift build -c "$configuration" --product "$product" > "$out/build-$product.log" 2>&1; then
        grep -E "error" "$out/build-$product.log" | head -20 >&2
        echo "run.sh: swift build --product $product failed (see $out/build-$product.log)" >&2
        exit 1
    fi
done
bin=$(swift build -c "$configuration" --show-bin-path)

# 3. The runs, the report and the chart.
"$bin/peers" --bin "$bin" "${gnustep_args[@]}" --out "$out" "${runner_args[@]}"
