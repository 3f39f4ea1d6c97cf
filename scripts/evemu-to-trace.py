#!/usr/bin/env python3
"""Converts an evemu recording of a multitouch touchscreen into a Meridian trace (version 1).

Reads the recording's axis ranges (`A:` lines: code, min, max, fuzz, flat, resolution in
units per mm) and its events (`E:` lines: seconds, type and code in hex, value in decimal) and
writes one `touch frame` per SYN_REPORT that changed a touch. Three kernel protocols:

- slots (protocol B: ABS_MT_SLOT, ABS_MT_TRACKING_ID, ABS_MT_POSITION_X/Y): `down` when a slot
  gets a tracking id, `motion` when its position changes, `up` when its tracking id goes to -1;
  the slot number is the touch id, as compositors do;
- anonymous contacts (protocol A, N-Trig and other old drivers: ABS_MT_POSITION_X/Y per contact,
  SYN_MT_REPORT after each, no tracking ids): each frame's contacts are matched to the previous
  frame's by the assignment with the least total distance (what mtdev does); an unmatched
  contact is a `down` with the lowest free id, an unmatched touch an `up`;
- single touch (BTN_TOUCH with ABS_X/ABS_Y, or the codes --xy gives): touch id 0.

Times keep the recording's microseconds (relative to its first event, plus --start);
positions keep every jitter of the device, scaled uniformly from the device's axis ranges onto
--area (window px, centred), so a pinch keeps its shape. --from/--to (ms of the recording)
keep only a part of a long recording: touches down at --from land there, those still down at
--to lift there. The header says how many trace px one mm of the device is, when the device
reports its resolution.

usage: evemu-to-trace.py RECORDING --area X,Y,W,H [--desc DESCRIPTION] [--start MS] [--source TEXT]
                         [--from MS] [--to MS] [--xy XCODE,YCODE] > out.trace
"""
import argparse
import sys

import itertools

EV_SYN, EV_KEY, EV_ABS = 0x00, 0x01, 0x03
SYN_REPORT, SYN_MT_REPORT, SYN_DROPPED = 0x00, 0x02, 0x03
ABS_X, ABS_Y, BTN_TOUCH = 0x00, 0x01, 0x14A
ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0x2F, 0x35, 0x36, 0x39


def number(v):
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def header(lines):
    """The device name, axis ranges (code -> (min, max)) and resolutions (code -> units per mm)
    of a recording or description."""
    name, ranges, res = None, {}, {}
    for raw in lines:
        if raw.startswith("N:"):
            name = raw[2:].strip()
        elif raw.startswith("A:"):
            f = raw[2:].split("#", 1)[0].split()
            if len(f) >= 3:
                ranges[int(f[0], 16)] = (int(f[1]), int(f[2]))
            if len(f) >= 6 and int(f[5]) > 0:
                res[int(f[0], 16)] = int(f[5])
    return name, ranges, res


def match(old, new):
    """Pairs old touches {id: (x, y)} with new contacts [(x, y)]: the pairing with the least
    total distance (every one for up to 6 contacts, greedily nearest-first beyond)."""
    ids = list(old)
    def d(i, j):
        (ax, ay), (bx, by) = old[ids[i]], new[j]
        return ((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5
    n = min(len(ids), len(new))
    if n == 0:
        return {}
    if max(len(ids), len(new)) <= 6:
        best, pairs = None, None
        for oi in itertools.permutations(range(len(ids)), n):
            for nj in itertools.combinations(range(len(new)), n):
                cost = sum(d(i, j) for i, j in zip(oi, nj))
                if best is None or cost < best:
                    best, pairs = cost, list(zip(oi, nj))
    else:
        cand = sorted((d(i, j), i, j) for i in range(len(ids)) for j in range(len(new)))
        used_i, used_j, pairs = set(), set(), []
        for _, i, j in cand:
            if i not in used_i and j not in used_j:
                used_i.add(i); used_j.add(j); pairs.append((i, j))
    return {ids[i]: j for i, j in pairs}


def snapshots(lines, xcode, ycode):
    """(seconds, {touch id: (x, y)}) at every SYN_REPORT: the touches down after it."""
    events = []
    for n, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0].strip()
        if not line.startswith("E:"):
            continue
        f = line[2:].split()
        if len(f) != 4:
            raise ValueError(f"line {n}: expected 'E: SECONDS TYPE CODE VALUE'")
        try:
            events.append((n, float(f[0]), int(f[1], 16), int(f[2], 16), int(f[3])))
        except ValueError:
            raise ValueError(f"line {n}: expected 'E: SECONDS TYPE CODE VALUE' (hex type and code)")
    codes = {(e[2], e[3]) for e in events}
    if (EV_ABS, ABS_MT_SLOT) in codes or (EV_ABS, ABS_MT_TRACKING_ID) in codes:
        protocol = "slots"
    elif (EV_SYN, SYN_MT_REPORT) in codes:
        protocol = "contacts"
    else:
        protocol = "single"
    slots, slot = {}, 0            # protocol B: slot -> [tracking id, x, y]
    state = {}                     # the touches down: id -> (x, y)
    contacts, cx, cy, reported = [], None, None, False   # protocol A, this frame
    touching, pos = False, [0, 0]  # single touch
    for n, t, typ, code, value in events:
        if typ == EV_SYN and code == SYN_DROPPED:
            raise ValueError(f"line {n}: SYN_DROPPED: the recording lost events")
        if protocol == "slots":
            if typ == EV_ABS and code == ABS_MT_SLOT:
                slot = value
            elif typ == EV_ABS and code in (ABS_MT_TRACKING_ID, ABS_MT_POSITION_X, ABS_MT_POSITION_Y):
                s = slots.setdefault(slot, [-1, 0, 0])
                s[{ABS_MT_TRACKING_ID: 0, ABS_MT_POSITION_X: 1, ABS_MT_POSITION_Y: 2}[code]] = value
            elif typ == EV_SYN and code == SYN_REPORT:
                state = {k: (s[1], s[2]) for k, s in slots.items() if s[0] >= 0}
                yield t, protocol, state
        elif protocol == "contacts":
            if typ == EV_ABS and code == ABS_MT_POSITION_X:
                cx = value
            elif typ == EV_ABS and code == ABS_MT_POSITION_Y:
                cy = value
            elif typ == EV_KEY and code == BTN_TOUCH and value == 0:
                reported = True
            elif typ == EV_SYN and code == SYN_MT_REPORT:
                reported = True
                if cx is not None and cy is not None:
                    contacts.append((cx, cy))
                cx = cy = None
            elif typ == EV_SYN and code == SYN_REPORT:
                if reported:
                    pairs = match(state, contacts)
                    new = {k: contacts[j] for k, j in pairs.items()}
                    for j, c in enumerate(contacts):
                        if j not in pairs.values():
                            new[next(i for i in itertools.count() if i not in new and i not in state)] = c
                    state = new
                contacts, cx, cy, reported = [], None, None, False
                yield t, protocol, state
        else:
            if typ == EV_KEY and code == BTN_TOUCH:
                touching = value != 0
            elif typ == EV_ABS and code in (xcode, ycode):
                pos[0 if code == xcode else 1] = value
            elif typ == EV_SYN and code == SYN_REPORT:
                state = {0: tuple(pos)} if touching else {}
                yield t, protocol, state


def convert(lines, area, start, source, desc_lines=(), window=(None, None), xy=None, physical=None):
    name, ranges, res = header(desc_lines)
    own_name, own_ranges, own_res = header(lines)
    name = own_name or name or "?"
    ranges.update(own_ranges)
    res.update(own_res)
    mt = any(l.split("#", 1)[0].split()[2:4] == ["0003", "0035"] for l in lines if l.startswith("E:"))
    xcode, ycode = xy or ((ABS_MT_POSITION_X, ABS_MT_POSITION_Y) if mt else (ABS_X, ABS_Y))
    if xcode not in ranges or ycode not in ranges:
        raise ValueError(f"no ranges for axes {xcode:02x}/{ycode:02x} (A: lines; pass --desc): not a touch recording")
    t0, frames, body, last, protocol = None, 0, [], {}, "?"
    begin, end = window
    snaps = list(snapshots(lines, xcode, ycode))
    if physical:
        # True size: device units per mm (given, or the device's resolution) to px per mm, the
        # first touch of the kept part landing at the given window point.
        px_per_mm, units_per_mm, at = physical
        units_per_mm = units_per_mm or res.get(xcode)
        if not units_per_mm:
            raise ValueError("--px-per-mm: the device reports no resolution; pass --units-per-mm")
        first = next((st for t, _, st in snaps
                      if st and (begin is None or (t - snaps[0][0]) * 1000 >= begin)), None)
        if first is None:
            raise ValueError("no touch in the kept part")
        fx, fy = first[min(first)]
        k = px_per_mm / units_per_mm
        ranges = dict(ranges)
        area = (at[0] - fx * k, at[1] - fy * k, 1, 1)
        place = lambda x, y: (area[0] + x * k, area[1] + y * k)
    else:
        place = lambda x, y: scale(x, y, ranges, area, xcode, ycode)

    def emit(ms, state):
        nonlocal last, frames
        events = []
        for k in sorted(set(last) | set(state)):
            if k in state and k not in last:
                events.append(f"{number(ms)} touch down {k} " + " ".join(number(v) for v in place(*state[k])))
            elif k in last and k not in state:
                events.append(f"{number(ms)} touch up {k}")
            elif k in state and state[k] != last[k]:
                events.append(f"{number(ms)} touch motion {k} " + " ".join(number(v) for v in place(*state[k])))
        if events:
            body.extend(events)
            body.append(f"{number(ms)} touch frame")
            frames += 1
        last = dict(state)

    for t, protocol, state in snaps:
        if t0 is None:
            t0 = t
        ms = (t - t0) * 1000
        if begin is not None and ms < begin:
            continue
        if end is not None and ms > end:
            emit(ms - (begin or 0) + start, {})
            break
        emit(ms - (begin or 0) + start, state)
    rx, ry = ranges[xcode], ranges[ycode]
    out = ["meridian-trace 1"]
    out.append(f"# converted by scripts/evemu-to-trace.py from {source}")
    part = "" if begin is None and end is None else f"; ms {number(begin or 0)}..{'end' if end is None else number(end)} of the recording"
    out.append(f"# device: {name}; axes x {rx[0]}..{rx[1]}, y {ry[0]}..{ry[1]}; protocol {protocol}; {frames} touch frames{part}")
    if physical:
        out.append(f"# true size: {number(physical[0])} px per mm ({number(units_per_mm)} device units per mm), "
                   f"the first touch at {number(physical[2][0])},{number(physical[2][1])}")
    else:
        k = factor(ranges, area, xcode, ycode)
        mm = f"; {number(k * res[xcode])} px per mm of the device" if xcode in res else ""
        out.append(f"# scaled uniformly onto window area {','.join(number(v) for v in area)} (x,y,w,h px){mm}")
    return "\n".join(out + body) + "\n"


def factor(ranges, area, xcode, ycode):
    (x0, x1), (y0, y1) = ranges[xcode], ranges[ycode]
    return min(area[2] / max(1, x1 - x0), area[3] / max(1, y1 - y0))


def scale(x, y, ranges, area, xcode, ycode):
    (x0, x1), (y0, y1) = ranges[xcode], ranges[ycode]
    ax, ay, aw, ah = area
    wx, wy = max(1, x1 - x0), max(1, y1 - y0)
    k = factor(ranges, area, xcode, ycode)
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
    p.add_argument("--from", dest="begin", type=float, default=None, help="ms of the recording to start at")
    p.add_argument("--to", dest="end", type=float, default=None, help="ms of the recording to stop at")
    p.add_argument("--px-per-mm", type=float, default=None,
                   help="keep the true size instead of fitting --area: px per mm of the window")
    p.add_argument("--units-per-mm", type=float, default=None, help="the device's resolution when it reports none")
    p.add_argument("--at", default=None, help="X,Y: where the first touch lands with --px-per-mm (default: the area's centre)")
    p.add_argument("--xy", default=None, help="hex codes of the x and y axes of a single-touch device (default 0,1)")
    a = p.parse_args()
    xy = None
    if a.xy:
        try:
            xy = tuple(int(v, 16) for v in a.xy.split(","))
            if len(xy) != 2:
                raise ValueError
        except ValueError:
            sys.exit("evemu-to-trace: --xy must be XCODE,YCODE in hex")
    try:
        area = tuple(float(v) for v in a.area.split(","))
        if len(area) != 4 or area[2] <= 0 or area[3] <= 0:
            raise ValueError
    except ValueError:
        sys.exit("evemu-to-trace: --area must be X,Y,W,H with W and H > 0")
    physical = None
    if a.px_per_mm:
        try:
            at = tuple(float(v) for v in a.at.split(",")) if a.at else (area[0] + area[2] / 2, area[1] + area[3] / 2)
            if len(at) != 2 or a.px_per_mm <= 0 or (a.units_per_mm is not None and a.units_per_mm <= 0):
                raise ValueError
        except ValueError:
            sys.exit("evemu-to-trace: --at must be X,Y; --px-per-mm and --units-per-mm must be > 0")
        physical = (a.px_per_mm, a.units_per_mm, at)
    try:
        desc = []
        if a.desc:
            with open(a.desc, encoding="utf-8", errors="replace") as f:
                desc = f.read().splitlines()
        with open(a.recording, encoding="utf-8", errors="replace") as f:
            text = convert(f.read().splitlines(), area, a.start, a.source or a.recording, desc,
                           (a.begin, a.end), xy, physical)
    except (OSError, ValueError) as e:
        sys.exit(f"evemu-to-trace: {a.recording}: {e}")
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
