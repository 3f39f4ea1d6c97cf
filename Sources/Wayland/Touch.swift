import CProtocols
import CWaylandClient
import Input

/// `wl_touch`: events are folded into one `TouchFrame` per frame by `TouchFrameAssembler`,
/// which also copes with compositors that send no frame after the last up.
///
/// Some compositors never send `wl_touch.frame` at all (cage 0.1.4). Until this seat has sent
/// one, the loop calls `endOfBatch()` after dispatching each read from the socket, and what
/// arrived in that read is one frame: a compositor writes the events of one input frame in one
/// flush. Once a frame has been seen the seat is trusted to frame its events, and a batch that
/// ends mid-frame (the rest still in the socket) is left open.
final class TouchDevice {
    let proxy: OpaquePointer
    unowned let seat: Seat
    private var assembler = TouchFrameAssembler()
    /// Ids that went down on the title bar we draw ourselves; their events are not the app's.
    private var decorationTouches: Set<Int32> = []
    /// This seat has sent a `wl_touch.frame`: its frames are trusted.
    private(set) var sendsFrames = false
    /// Whether a finger is on the screen (down on our surface, not yet up or cancelled).
    var isTouching: Bool { !assembler.active.isEmpty }
    /// Frames closed at the end of a batch because the compositor sent none.
    private(set) var framesClosedAtBatchEnd = 0
    /// `zwp_input_timestamps_v1` for this wl_touch, where the compositor offers it.
    private var timestamps: OpaquePointer?
    /// The high-resolution time the compositor sent for the next touch event, if any.
    private var pendingStamp: PreciseTime.Stamp?

    init(proxy: OpaquePointer, seat: Seat) {
        self.proxy = proxy
        self.seat = seat
        wl_touch_add_listener(proxy, TouchDevice.listener.pointer, opaque(self))
        if let manager = seat.client.inputTimestamps,
           let t = zwp_input_timestamps_manager_v1_get_touch_timestamps(manager.proxy, proxy) {
            timestamps = t
            zwp_input_timestamps_v1_add_listener(t, TouchDevice.stampListener.pointer, opaque(self))
        }
    }

    func destroy() {
        if !assembler.active.isEmpty {
            assembler.cancel()
            seat.deliver(.touchCancel(time: monotonicMilliseconds()))
        }
        if let timestamps { zwp_input_timestamps_v1_destroy(timestamps) }
        timestamps = nil
        if seat.version >= 3 { wl_touch_release(proxy) } else { wl_touch_destroy(proxy) }
    }

    /// An event's time on our clock: its whole ms (`EventClock`), and the fraction of a ms from
    /// the high-resolution stamp that came for it. Every event takes the pending stamp, so one
    /// meant for an event we ignore is never given to the next.
    private func time(_ raw: UInt32) -> Double {
        let base = seat.clock.time(fromCompositor: raw)
        defer { pendingStamp = nil }
        return pendingStamp.flatMap { PreciseTime.refine(base, raw: raw, stamp: $0) } ?? base
    }

    private func down(time raw: UInt32, serial: UInt32, surface: OpaquePointer?, id: Int32, x: wl_fixed_t, y: wl_fixed_t) {
        let t = time(raw)
        // NULL or someone else's surface: not ours to handle (the id's later events are dropped as unknown).
        guard let surface, let window = seat.client.window, surface == window.surface else { return }
        let p = Point(x: fixedToDouble(x), y: fixedToDouble(y))
        if Double(window.titleBarHeight) > p.y {
            decorationTouches.insert(id)
            seat.client.titleBarPressed(at: p, seat: seat, serial: serial)
            return
        }
        assembler.down(id: id + seat.idOffset, at: offset(p), time: t)
    }

    private func offset(_ p: Point) -> Point {
        Point(x: p.x, y: p.y - Double(seat.client.window?.titleBarHeight ?? 0))
    }

    private func motion(time raw: UInt32, id: Int32, x: wl_fixed_t, y: wl_fixed_t) {
        let t = time(raw)
        guard !decorationTouches.contains(id) else { return }
        assembler.motion(id: id + seat.idOffset, to: offset(Point(x: fixedToDouble(x), y: fixedToDouble(y))), time: t)
    }

    private func up(time raw: UInt32, id: Int32) {
        let t = time(raw)
        if decorationTouches.remove(id) != nil { return }
        if let f = assembler.up(id: id + seat.idOffset, time: t) {
            seat.deliver(.touch(f))
        }
    }

    private func frame() {
        sendsFrames = true
        if let f = assembler.frame() { seat.deliver(.touch(f)) }
    }

    /// Everything read from the socket has been dispatched: close the frame of a seat that
    /// does not send frames.
    func endOfBatch() {
        guard !sendsFrames, assembler.hasPending, let f = assembler.frame() else { return }
        framesClosedAtBatchEnd += 1
        seat.deliver(.touch(f))
    }

    private func cancel() {
        decorationTouches.removeAll()
        assembler.cancel()
        seat.deliver(.touchCancel(time: monotonicMilliseconds()))
    }

    static let listener = ListenerTable(wl_touch_listener(
        down: { data, _, serial, time, surface, id, x, y in
            owner(data, as: TouchDevice.self)?.down(time: time, serial: serial, surface: surface, id: id, x: x, y: y)
        },
        up: { data, _, _, time, id in owner(data, as: TouchDevice.self)?.up(time: time, id: id) },
        motion: { data, _, time, id, x, y in owner(data, as: TouchDevice.self)?.motion(time: time, id: id, x: x, y: y) },
        frame: { data, _ in owner(data, as: TouchDevice.self)?.frame() },
        cancel: { data, _ in owner(data, as: TouchDevice.self)?.cancel() },
        shape: { _, _, _, _, _ in },
        orientation: { _, _, _, _ in }
    ))

    static let stampListener = ListenerTable(zwp_input_timestamps_v1_listener(
        timestamp: { data, _, hi, lo, nsec in
            owner(data, as: TouchDevice.self)?.pendingStamp = PreciseTime.Stamp(secondsHigh: hi, secondsLow: lo, nanoseconds: nsec)
        }
    ))
}

/// `zwp_input_timestamps_v1`: an input event's time to the nanosecond, sent just before the
/// event, "in the same clock domain" as the event's own whole-ms time (which is that stamp
/// truncated). Used for its fraction of a millisecond only: the whole ms go through
/// `EventClock` as every event's do, so a compositor on another clock is handled the same way.
enum PreciseTime {
    struct Stamp: Equatable {
        /// Whole ms since the clock's epoch (nil: out of range), and the fraction of a ms.
        var wholeMilliseconds: UInt64?
        var fraction: Double

        init(secondsHigh: UInt32, secondsLow: UInt32, nanoseconds: UInt32) {
            let seconds = UInt64(secondsHigh) << 32 | UInt64(secondsLow)
            let (ms, overflow) = seconds.multipliedReportingOverflow(by: 1000)
            let (whole, over) = ms.addingReportingOverflow(UInt64(nanoseconds / 1_000_000))
            // Nanoseconds past a whole second are not a valid timestamp.
            wholeMilliseconds = overflow || over || nanoseconds > 999_999_999 ? nil : whole
            fraction = Double(nanoseconds % 1_000_000) / 1_000_000
        }
    }

    /// `base` (the event's whole-ms time on our clock) plus the stamp's fraction of a ms, when
    /// the stamp is this event's: its whole ms, cut to 32 bits, are the event's `raw` time.
    /// Nil when it is not (a stamp the compositor sent for something else, or a damaged one).
    static func refine(_ base: Double, raw: UInt32, stamp: Stamp) -> Double? {
        guard let whole = stamp.wholeMilliseconds, UInt32(truncatingIfNeeded: whole) == raw else { return nil }
        return base + stamp.fraction
    }
}
