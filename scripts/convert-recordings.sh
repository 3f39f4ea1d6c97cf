#!/bin/sh
# Regenerates data/recordings/*.trace from a fetched copy of github.com/whot/evemu-devices
# (data/recordings/SOURCES.md): every recording of real fingers on a touch surface in it.
# usage: scripts/convert-recordings.sh EVEMU_GIT_DIR [COMMIT]
set -eu
git_dir=${1:?usage: scripts/convert-recordings.sh EVEMU_GIT_DIR [COMMIT]}
commit=${2:-3fa30580b542017098a48ec3c8a65bc2a5ba67b3}
here=$(cd "$(dirname "$0")/.." && pwd)
out=$here/data/recordings
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# convert NAME RECORDING DESCRIPTION|- [converter options...]
convert() {
    name=$1 rec=$2 desc=$3
    shift 3
    git --git-dir="$git_dir" show "$commit:$rec" > "$tmp/r.events"
    set -- --area 16,184,768,560 --source "github.com/whot/evemu-devices@$(echo "$commit" | cut -c1-12) $rec (MIT, Red Hat)" "$@"
    if [ "$desc" != - ]; then
        git --git-dir="$git_dir" show "$commit:$desc" > "$tmp/d.desc"
        set -- --desc "$tmp/d.desc" "$@"
    fi
    "$here/scripts/evemu-to-trace.py" "$tmp/r.events" "$@" > "$out/$name.trace"
}

T=touchscreens W=tablets
convert atmel-maxtouch-2-finger-tap "$T/Atmel maXTouch Touchscreen.2-fingers-touch-release.events" -
convert atmel-maxtouch-4-finger-drag "$T/Atmel maXTouch Touchscreen.4-finger-drag-down.events" -
convert atmel-maxtouch-fast-taps "$T/Atmel maXTouch Touchscreen.1-finger-fast-taps.events" -
convert atmel-maxtouch-1-finger-drag "$T/Atmel maXTouch Touchscreen.1-finger-drag-up-down.events" -
convert ep0430m09-2-finger-drag "$T/EP0430M09.2-finger-scroll-down.events" -
convert ep0430m09-2-finger-tap "$T/EP0430M09.2-fingers-touch-release.events" -
convert ep0430m09-4-finger-drag "$T/EP0430M09.4-finger-drag-down.events" -
convert ep0430m09-1-finger-drag "$T/EP0430M09.1-finger-drag-up-down.events" -
convert elan-cando-1-finger-drag "$T/ELAN CANDO Windows7.1-finger-drag-up-down.events" "$T/ELAN CANDO Windows7.desc"
# Protocol A (anonymous contacts).
convert ntrig-1-finger-drag "$T/N-Trig MultiTouch.1-finger-drag-NW-SE.events" "$T/N-Trig MultiTouch.desc"
convert ntrig-2-finger-hold "$T/N-Trig MultiTouch.2-fingers-touch-release.events" "$T/N-Trig MultiTouch.desc"
convert quanta-1-finger-strokes "$T/QUANTA OpticalTouchScreen.events" "$T/QUANTA OpticalTouchScreen.desc"
convert quanta-touch-on-left "$T/QUANTA OpticalTouchScreen.touch-on-left.events" "$T/QUANTA OpticalTouchScreen.desc"
for g in 2fg-double-tap 2fg-tap double-center-circle double-center-scroll double-tap-center double-top-swipe \
         single-center-circle single-center-scroll single-tap-center single-top-swipe; do
    convert "isdv4-e6-$g" "$W/Wacom ISDv4 E6 Finger.$g.events" "$W/Wacom ISDv4 E6 Finger.desc"
done
for g in double-center-circle double-center-scroll double-tap single-center-scroll; do
    convert "bamboo-16fg-$g" "$W/Wacom Bamboo 16FG 4x5 Finger $g.events" "$W/Wacom Bamboo 16FG 4x5 Finger.desc"
    convert "intuos5-touch-m-$g" "$W/Wacom Intuos5 touch M Finger $g.events" "$W/Wacom Intuos5 touch M Finger.desc"
done
convert cintiq-13hd-touch-short-drag "$W/Wacom Cintiq 13HD touch Finger.events" -
convert empia-pcap-tap "$W/eGalax_eMPIA Technology Inc. PCAP MultiTouch Controller.tap.events" \
    "$W/eGalax_eMPIA Technology Inc. PCAP MultiTouch Controller.desc"
# A single-touch controller reporting its position on ABS_Z/ABS_RX.
convert egalax-usb-tap-and-drag "$W/eGalax Inc. USB TouchController.events" "$W/eGalax Inc. USB TouchController.desc" --xy 2,3
# Long recordings: only their gesture parts.
convert dth2242-ten-finger-churn "$W/Wacom DTH2242 Finger.events" - --from 9600 --to 13300
convert dth2242-taps "$W/Wacom DTH2242 Finger.events" - --from 0 --to 5500
# True size (a 21.5-inch 16:9 panel, 476 mm wide: 4648 units / 476 mm = 9.76 per mm).
convert dth2242-slow-double-tap "$W/Wacom DTH2242 Finger.events" - --from 21950 --to 23000 \
    --px-per-mm 6 --units-per-mm 9.76 --at 400,400
convert dell-canvas-2-finger-tap "$W/dell_canvas_touch.evemu" - --from 0 --to 1000
convert dell-canvas-5-finger-gestures "$W/dell_canvas_touch.evemu" - --from 9700 --to 14000
