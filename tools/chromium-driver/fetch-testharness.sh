#!/usr/bin/env bash
# Fetches WPT's testharness.js for the exported tests (`webmcp-sim export`, docs/export.md) from the
# npm registry: the `wpt-runner` package ships a copy of it. Only that one file is kept
# (tools/chromium-driver/testharness/testharness.js, not committed); its checksum is pinned.
set -euo pipefail
cd "$(dirname "$0")"
version=7.0.0
sha256=d2399236c2a09c429804ff2299ad6629e17e2b53f17a74dd341e936adb11ae3e
if [ -f testharness/testharness.js ] && echo "$sha256  testharness/testharness.js" | sha256sum -c --quiet 2>/dev/null; then
    exit 0
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
tarball=$(npm pack "wpt-runner@$version" --pack-destination "$scratch" --silent | tail -1)
tar -xzf "$scratch/$tarball" -C "$scratch" package/testharness/testharness.js
echo "$sha256  $scratch/package/testharness/testharness.js" | sha256sum -c --quiet
mkdir -p testharness
cp "$scratch/package/testharness/testharness.js" testharness/testharness.js
echo "testharness.js from wpt-runner@$version in $(pwd)/testharness/"
