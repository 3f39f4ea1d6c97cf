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

    init(proxy: OpaquePointer, seat: Seat) {
        self.proxy = proxy
        self.seat = seat
        wl_touch_add_listener(proxy, TouchDevice.listener.pointer, opaque(self))
    }

    func destroy() {
        if !assembler.active.isEmpty {
            assembler.cancel()
            seat.deliver(.touchCancel(time: monotonicMilliseconds()))
        }
        if seat.version >= 3 { wl_touch_release(proxy) } else { wl_touch_destroy(proxy) }
    }

    private func down(time: UInt32, serial: UInt32, surface: OpaquePointer?, id: Int32, x: wl_fixed_t, y: wl_fixed_t) {
        // NULL or someone else's surface: not ours to handle (the id's later events are dropped as unknown).
        guard let surface, let window = seat.client.window, surface == window.surface else { return }
        let p = Point(x: fixedToDouble(x), y: fixedToDouble(y))
        if Double(window.titleBarHeight) > p.y {
            decorationTouches.insert(id)
            seat.client.titleBarPressed(at: p, seat: seat, serial: serial)
            return
        }
        let t = seat.clock.time(fromCompositor: time)
        assembler.down(id: id + seat.idOffset, at: offset(p), time: t)
    }

    private func offset(_ p: Point) -> Point {
        Point(x: p.x, y: p.y - Double(seat.client.window?.titleBarHeight ?? 0))
    }

    private func motion(time: UInt32, id: Int32, x: wl_fixed_t, y: wl_fixed_t) {
        guard !decorationTouches.contains(id) else { return }
        assembler.motion(id: id + seat.idOffset, to: offset(Point(x: fixedToDouble(x), y: fixedToDouble(y))),
                         time: seat.clock.time(fromCompositor: time))
    }

    private func up(time: UInt32, id: Int32) {
        if decorationTouches.remove(id) != nil { return }
        if let f = assembler.up(id: id + seat.idOffset, time: seat.clock.time(fromCompositor: time)) {
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
}
