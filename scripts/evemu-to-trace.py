#!/usr/bin/env python3
"""Converts an evemu recording of a multitouch touchscreen into a Meridian trace (version 1).

Reads the recording's axis ranges (`A:` lines) and its events (`E:` lines: seconds, type and
code in hex, value in decimal), follows the kernel's slot protocol (ABS_MT_SLOT,
ABS_MT_TRACKING_ID, ABS_MT_POSITION_X/Y, SYN_REPORT) and writes one `touch frame` per
SYN_REPORT that changed a touch: `down` when a slot gets a tracking id, `motion` when its
position changes, `up` when its tracking id goes to -1. Times keep the recording's
microseconds (relative to its first event, plus --start); positions keep every jitter of the
device, scaled uniformly from the device's axis ranges onto --area (window px, centred), so a
pinch keeps its shape. The slot number is the touch id, as compositors do.

usage: evemu-to-trace.py RECORDING --area X,Y,W,H [--desc DESCRIPTION] [--start MS] [--source TEXT] > out.trace
"""
import argparse
import sys

EV_SYN, EV_ABS = 0x00, 0x03
SYN_REPORT, SYN_DROPPED = 0x00, 0x03
ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0x2F, 0x35, 0x36, 0x39


def number(v):
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def header(lines):
    """The device name and axis ranges (code -> (min, max)) of a recording or description."""
    name, ranges = None, {}
    for raw in lines:
        if raw.startswith("N:"):
            name = raw[2:].strip()
        elif raw.startswith("A:"):
            f = raw[2:].split("#", 1)[0].split()
            if len(f) >= 3:
                ranges[int(f[0], 16)] = (int(f[1]), int(f[2]))
    return name, ranges


def convert(lines, area, start, source, desc_lines=()):
    name, ranges = header(desc_lines)
    own_name, own_ranges = header(lines)
    name = own_name or name or "?"
    ranges.update(own_ranges)
    if ABS_MT_POSITION_X not in ranges or ABS_MT_POSITION_Y not in ranges:
        raise ValueError("no ABS_MT_POSITION_X/Y ranges (A: 35 / A: 36 lines; pass --desc): not a multitouch recording")
    out = ["meridian-trace 1"]
    slots = {}          # slot -> {"id": tracking id or -1, "x", "y", "down": bool}
    slot = 0
    changed = set()     # slots touched since the last SYN_REPORT
    t0 = None
    frames = 0
    body = []
    for n, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0].strip()
        if not line.startswith("E:"):
            continue
        f = line[2:].split()
        if len(f) != 4:
            raise ValueError(f"line {n}: expected 'E: SECONDS TYPE CODE VALUE'")
        t, typ, code, value = float(f[0]), int(f[1], 16), int(f[2], 16), int(f[3])
        if t0 is None:
            t0 = t
        if typ == EV_ABS:
            if code == ABS_MT_SLOT:
                slot = value
            elif code in (ABS_MT_TRACKING_ID, ABS_MT_POSITION_X, ABS_MT_POSITION_Y):
                s = slots.setdefault(slot, {"id": -1, "x": 0, "y": 0, "down": False, "moved": False})
                if code == ABS_MT_TRACKING_ID:
                    s["id"] = value
                elif code == ABS_MT_POSITION_X:
                    s["moved"] = s["moved"] or s["x"] != value
                    s["x"] = value
                else:
                    s["moved"] = s["moved"] or s["y"] != value
                    s["y"] = value
                changed.add(slot)
        elif typ == EV_SYN and code == SYN_REPORT and changed:
            ms = (t - t0) * 1000 + start
            events = []
            for k in sorted(changed):
                s = slots[k]
                if s["id"] >= 0 and not s["down"]:
                    s["down"] = True
                    events.append(("down", k, s))
                elif s["id"] < 0 and s["down"]:
                    s["down"] = False
                    events.append(("up", k, s))
                elif s["down"] and s["moved"]:
                    events.append(("motion", k, s))
                s["moved"] = False
            changed.clear()
            if events:
                for kind, k, s in events:
                    if kind == "up":
                        body.append(f"{number(ms)} touch up {k}")
                    else:
                        x, y = scale(s["x"], s["y"], ranges, area)
                        body.append(f"{number(ms)} touch {kind} {k} {number(x)} {number(y)}")
                body.append(f"{number(ms)} touch frame")
                frames += 1
        elif typ == EV_SYN and code == SYN_DROPPED:
            raise ValueError(f"line {n}: SYN_DROPPED: the recording lost events")
    rx, ry = ranges[ABS_MT_POSITION_X], ranges[ABS_MT_POSITION_Y]
    out.append(f"# converted by scripts/evemu-to-trace.py from {source}")
    out.append(f"# device: {name}; axes x {rx[0]}..{rx[1]}, y {ry[0]}..{ry[1]}; {frames} touch frames")
    out.append(f"# scaled uniformly onto window area {','.join(number(v) for v in area)} (x,y,w,h px)")
    return "\n".join(out + body) + "\n"


def scale(x, y, ranges, area):
    (x0, x1), (y0, y1) = ranges[ABS_MT_POSITION_X], ranges[ABS_MT_POSITION_Y]
    ax, ay, aw, ah = area
    wx, wy = max(1, x1 - x0), max(1, y1 - y0)
    k = min(aw / wx, ah / wy)
    ox = ax + (aw - wx * k) / 2
    oy = ay + (ah - wy * k) / 2
    return ox + (x - x0) * k, oy + (y - y0) * k


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("recording")
    p.add_argument("--area", required=True, help="X,Y,W,H in window px")
    p.add_argument("--start", type=float, default=100.0, help="ms of the first event")
    p.add_argument("--desc", default=None, help="the device description (A: lines) when the recording has none")
    p.add_argument("--source", default=None, help="where the recording came from (written into the trace)")
    a = p.parse_args()
    try:
        area = tuple(float(v) for v in a.area.split(","))
        if len(area) != 4 or area[2] <= 0 or area[3] <= 0:
            raise ValueError
    except ValueError:
        sys.exit("evemu-to-trace: --area must be X,Y,W,H with W and H > 0")
    try:
        desc = []
        if a.desc:
            with open(a.desc, encoding="utf-8", errors="replace") as f:
                desc = f.read().splitlines()
        with open(a.recording, encoding="utf-8", errors="replace") as f:
            text = convert(f.read().splitlines(), area, a.start, a.source or a.recording, desc)
    except (OSError, ValueError) as e:
        sys.exit(f"evemu-to-trace: {a.recording}: {e}")
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
