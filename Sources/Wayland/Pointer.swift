import CWaylandClient
import Input

/// `wl_pointer`: events are folded into one `PointerFrame` per `wl_pointer.frame`.
final class PointerDevice {
    let proxy: OpaquePointer
    unowned let seat: Seat
    private var assembler = PointerFrameAssembler()
    private var onOurSurface = false
    private var position = Point.zero
    /// A press that landed on the title bar; its release is not the app's either.
    private var decorationPress = false
    private var hasFrames: Bool { seat.version >= 5 }
    private var gestures: TouchpadGestures?

    init(proxy: OpaquePointer, seat: Seat) {
        self.proxy = proxy
        self.seat = seat
        wl_pointer_add_listener(proxy, PointerDevice.listener.pointer, opaque(self))
        if let manager = seat.client.pointerGestures {
            gestures = TouchpadGestures(manager: manager, pointer: proxy, seat: seat)
        }
    }

    func destroy() {
        gestures?.destroy()
        gestures = nil
        if onOurSurface {
            assembler.leave(time: monotonicMilliseconds())
            flush()
        }
        if seat.version >= 3 { wl_pointer_release(proxy) } else { wl_pointer_destroy(proxy) }
    }

    private var titleBarHeight: Double { Double(seat.client.window?.titleBarHeight ?? 0) }

    private func content(_ p: Point) -> Point { Point(x: p.x, y: p.y - titleBarHeight) }

    /// Pointer versions before 5 have no frame event: each event is a frame of its own.
    private func eventDone() { if !hasFrames { flush() } }

    private func flush() {
        if let f = assembler.frame() { seat.deliver(.pointer(f)) }
    }

    private func time(_ t: UInt32) -> Double { seat.clock.time(fromCompositor: t) }

    private func enter(serial: UInt32, surface: OpaquePointer?, x: wl_fixed_t, y: wl_fixed_t) {
        guard let surface, surface == seat.client.window?.surface else { return }
        onOurSurface = true
        position = Point(x: fixedToDouble(x), y: fixedToDouble(y))
        // The cursor image is undefined on enter until we set one, with this enter's serial.
        seat.client.cursor?.apply(to: proxy, serial: serial, scale: seat.client.cursorScale)
        assembler.enter(at: content(position), time: monotonicMilliseconds())
        eventDone()
    }

    private func leave() {
        guard onOurSurface else { return }
        onOurSurface = false
        decorationPress = false
        assembler.leave(time: monotonicMilliseconds())
        eventDone()
    }

    private func motion(time t: UInt32, x: wl_fixed_t, y: wl_fixed_t) {
        guard onOurSurface else { return }
        position = Point(x: fixedToDouble(x), y: fixedToDouble(y))
        assembler.motion(to: content(position), time: time(t))
        eventDone()
    }

    private func button(serial: UInt32, time t: UInt32, button: UInt32, state: UInt32) {
        guard onOurSurface else { return }
        let pressed = state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue
        // Button positions come from the last enter/motion: a press may follow enter directly.
        if pressed, position.y < titleBarHeight {
            decorationPress = true
            seat.client.titleBarPressed(at: position, seat: seat, serial: serial)
            return
        }
        if !pressed, decorationPress {
            decorationPress = false
            return
        }
        assembler.button(PointerButton(code: button), pressed: pressed, time: time(t))
        eventDone()
    }

    private static func orientation(_ axis: UInt32) -> AxisOrientation {
        axis == WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue ? .horizontal : .vertical
    }

    static let listener = ListenerTable(wl_pointer_listener(
        enter: { data, _, serial, surface, x, y in
            owner(data, as: PointerDevice.self)?.enter(serial: serial, surface: surface, x: x, y: y)
        },
        leave: { data, _, _, _ in owner(data, as: PointerDevice.self)?.leave() },
        motion: { data, _, time, x, y in owner(data, as: PointerDevice.self)?.motion(time: time, x: x, y: y) },
        button: { data, _, serial, time, button, state in
            owner(data, as: PointerDevice.self)?.button(serial: serial, time: time, button: button, state: state)
        },
        axis: { data, _, time, axis, value in
            guard let p = owner(data, as: PointerDevice.self), p.onOurSurface else { return }
            p.assembler.axis(orientation(axis), value: fixedToDouble(value), time: p.time(time))
            p.eventDone()
        },
        frame: { data, _ in
            guard let p = owner(data, as: PointerDevice.self) else { return }
            p.flush()
        },
        axis_source: { data, _, source in
            guard let p = owner(data, as: PointerDevice.self), p.onOurSurface else { return }
            let s: AxisSource
            switch source {
            case WL_POINTER_AXIS_SOURCE_FINGER.rawValue: s = .finger
            case WL_POINTER_AXIS_SOURCE_CONTINUOUS.rawValue: s = .continuous
            case WL_POINTER_AXIS_SOURCE_WHEEL_TILT.rawValue: s = .wheelTilt
            default: s = .wheel
            }
            p.assembler.axisSource(s)
        },
        axis_stop: { data, _, time, axis in
            guard let p = owner(data, as: PointerDevice.self), p.onOurSurface else { return }
            p.assembler.axisStop(orientation(axis), time: p.time(time))
        },
        axis_discrete: { data, _, axis, discrete in
            guard let p = owner(data, as: PointerDevice.self), p.onOurSurface else { return }
            p.assembler.axisDiscrete(orientation(axis), steps: discrete)
        },
        axis_value120: { data, _, axis, value120 in
            guard let p = owner(data, as: PointerDevice.self), p.onOurSurface else { return }
            // High-resolution wheels send fractions of a detent; a detent count of 0 would be a lie.
            // The exact value goes along, so fractions add up in the page (AxisEvent.detents).
            let steps = value120 / 120
            if steps != 0 { p.assembler.axisDiscrete(orientation(axis), steps: steps) }
            p.assembler.axisValue120(orientation(axis), value120: value120)
        }
    ))
}
