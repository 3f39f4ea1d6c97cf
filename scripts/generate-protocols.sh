#!/usr/bin/env bash
# Regenerates the wayland-scanner glue from protocols/*.xml: the client headers in
# Sources/CProtocols/include, the private code in Sources/CProtocols.
# The XML files are copies of wayland-protocols 1.31 (Debian 12). Run after updating them.
# With --check DIR it writes into DIR instead, so a test can compare the output with what is committed.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Sources/CProtocols
if [ "${1:-}" = "--check" ]; then out=$2; mkdir -p "$out/include"; fi
for xml in protocols/*.xml; do
    name=$(basename "$xml" .xml)
    wayland-scanner client-header "$xml" "$out/include/$name-client-protocol.h"
    wayland-scanner private-code "$xml" "$out/$name-protocol.c"
done
# SwiftPM does not notice new headers in an incremental build (swift-interop.md P12).
[ "${1:-}" = "--check" ] || rm -rf .build/*/debug/ModuleCache .build/*/release/ModuleCache
