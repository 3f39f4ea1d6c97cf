import CWaylandClient
import CProtocols
import Input

/// Touchpad pinch, swipe and hold for one pointer (`zwp_pointer_gestures_v1`, where offered).
/// Touchscreens never come this way: they are raw `wl_touch`.
final class TouchpadGestures {
    unowned let seat: Seat
    private var pinch: OpaquePointer?
    private var swipe: OpaquePointer?
    private var hold: OpaquePointer?
    private let version: UInt32

    init?(manager: BoundGlobal, pointer: OpaquePointer, seat: Seat) {
        self.seat = seat
        version = manager.version
        pinch = zwp_pointer_gestures_v1_get_pinch_gesture(manager.proxy, pointer)
        swipe = zwp_pointer_gestures_v1_get_swipe_gesture(manager.proxy, pointer)
        if manager.version >= 3 { hold = zwp_pointer_gestures_v1_get_hold_gesture(manager.proxy, pointer) }
        if let pinch { zwp_pointer_gesture_pinch_v1_add_listener(pinch, TouchpadGestures.pinchListener.pointer, opaque(self)) }
        if let swipe { zwp_pointer_gesture_swipe_v1_add_listener(swipe, TouchpadGestures.swipeListener.pointer, opaque(self)) }
        if let hold { zwp_pointer_gesture_hold_v1_add_listener(hold, TouchpadGestures.holdListener.pointer, opaque(self)) }
    }

    func destroy() {
        // `destroy` requests exist since v1; `release` of the manager is separate.
        if let pinch { zwp_pointer_gesture_pinch_v1_destroy(pinch) }
        if let swipe { zwp_pointer_gesture_swipe_v1_destroy(swipe) }
        if let hold { zwp_pointer_gesture_hold_v1_destroy(hold) }
    }

    private func send(_ time: UInt32, _ g: TouchpadGesture) {
        seat.deliver(.touchpad(time: seat.clock.time(fromCompositor: time), g))
    }

    static let pinchListener = ListenerTable(zwp_pointer_gesture_pinch_v1_listener(
        begin: { data, _, _, time, _, fingers in owner(data, as: TouchpadGestures.self)?.send(time, .pinchBegin(fingers: fingers)) },
        update: { data, _, time, dx, dy, scale, rotation in
            owner(data, as: TouchpadGestures.self)?.send(time, .pinchUpdate(
                dx: fixedToDouble(dx), dy: fixedToDouble(dy), scale: fixedToDouble(scale), rotation: fixedToDouble(rotation)))
        },
        end: { data, _, _, time, cancelled in owner(data, as: TouchpadGestures.self)?.send(time, .pinchEnd(cancelled: cancelled != 0)) }
    ))

    static let swipeListener = ListenerTable(zwp_pointer_gesture_swipe_v1_listener(
        begin: { data, _, _, time, _, fingers in owner(data, as: TouchpadGestures.self)?.send(time, .swipeBegin(fingers: fingers)) },
        update: { data, _, time, dx, dy in
            owner(data, as: TouchpadGestures.self)?.send(time, .swipeUpdate(dx: fixedToDouble(dx), dy: fixedToDouble(dy)))
        },
        end: { data, _, _, time, cancelled in owner(data, as: TouchpadGestures.self)?.send(time, .swipeEnd(cancelled: cancelled != 0)) }
    ))

    static let holdListener = ListenerTable(zwp_pointer_gesture_hold_v1_listener(
        begin: { data, _, _, time, _, fingers in owner(data, as: TouchpadGestures.self)?.send(time, .holdBegin(fingers: fingers)) },
        end: { data, _, _, time, cancelled in owner(data, as: TouchpadGestures.self)?.send(time, .holdEnd(cancelled: cancelled != 0)) }
    ))
}
