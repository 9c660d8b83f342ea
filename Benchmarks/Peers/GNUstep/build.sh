#!/usr/bin/env bash
# Builds the GNUstep peer program: Benchmarks/Peers/GNUstep/build.sh OUTPUT
# Needs gcc's Objective-C (Debian: gobjc) and GNUstep Base (libgnustep-base-dev, gnustep-make);
# exits with status 3 when they are missing, 1 when the compilation fails. GNUSTEP_CONFIG names
# another gnustep-config (a name that does not exist simulates a machine without GNUstep).
set -euo pipefail
output=${1:?usage: build.sh OUTPUT}
here=$(cd "$(dirname "$0")" && pwd)
config=${GNUSTEP_CONFIG:-gnustep-config}
if ! command -v "$config" > /dev/null || ! command -v gcc > /dev/null; then
    echo "build.sh: gnustep-config or gcc not found (apt-get install gobjc gnustep-make libgnustep-base-dev)" >&2
    exit 3
fi
# shellcheck disable=SC2046  # the flags are meant to split into words
if ! echo '#import <Foundation/Foundation.h>' | gcc $("$config" --objc-flags) -MF /dev/null -x objective-c \
        -fsyntax-only - > /dev/null 2>&1; then
    echo "build.sh: gcc cannot compile Objective-C against GNUstep Base (apt-get install gobjc libgnustep-base-dev)" >&2
    exit 3
fi
mkdir -p "$(dirname "$output")"
# shellcheck disable=SC2046
gcc $("$config" --objc-flags) -O2 -MF /dev/null -o "$output" \
    "$here/peer-gnustep.m" $("$config" --base-libs) || exit 1
