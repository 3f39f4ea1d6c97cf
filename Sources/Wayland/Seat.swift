import CWaylandClient
import Input

/// One `wl_seat` and the input devices it has right now. Capabilities come and go at run time:
/// a device object is created when its capability appears and released when it goes.
final class Seat {
    let globalName: UInt32
    let version: UInt32
    let proxy: OpaquePointer
    unowned let client: WaylandClient
    /// Touch ids of this seat are offset so that two seats never share an id downstream.
    let idOffset: Int32
    private(set) var touch: TouchDevice?
    private(set) var pointer: PointerDevice?
    private(set) var keyboard: KeyboardDevice?
    /// `zwp_text_input_v3`, when the compositor offers it (on-screen keyboards).
    private(set) var textInput: TextInputDevice?
    var clock = EventClock()

    init(globalName: UInt32, version: UInt32, proxy: OpaquePointer, client: WaylandClient, index: Int) {
        self.globalName = globalName
        self.version = version
        self.proxy = proxy
        self.client = client
        idOffset = Int32(index % 1000) * 1_000_000
        wl_seat_add_listener(proxy, Seat.listener.pointer, opaque(self))
    }

    private func setCapabilities(_ caps: UInt32) {
        let hasTouch = caps & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0
        let hasPointer = caps & WL_SEAT_CAPABILITY_POINTER.rawValue != 0
        let hasKeyboard = caps & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0
        if hasTouch, touch == nil, let t = wl_seat_get_touch(proxy) {
            touch = TouchDevice(proxy: t, seat: self)
        } else if !hasTouch, let t = touch {
            t.destroy()   // cancels every active point first
            touch = nil
        }
        if hasPointer, pointer == nil, let p = wl_seat_get_pointer(proxy) {
            pointer = PointerDevice(proxy: p, seat: self)
        } else if !hasPointer, let p = pointer {
            p.destroy()
            pointer = nil
        }
        if hasKeyboard, keyboard == nil, let k = wl_seat_get_keyboard(proxy) {
            keyboard = KeyboardDevice(proxy: k, seat: self)
        } else if !hasKeyboard, let k = keyboard {
            k.destroy()
            keyboard = nil
        }
    }

    /// The compositor offers text input (the manager may be bound before or after the seat).
    func attachTextInput(manager: OpaquePointer) {
        if textInput == nil { textInput = TextInputDevice(manager: manager, seat: self) }
    }

    func destroy() {
        textInput?.destroy()
        textInput = nil
        touch?.destroy()
        pointer?.destroy()
        keyboard?.destroy()
        touch = nil
        pointer = nil
        keyboard = nil
        if version >= 5 { wl_seat_release(proxy) } else { wl_seat_destroy(proxy) }
    }

    func deliver(_ frame: InputFrame) { client.deliver(frame) }

    static let listener = ListenerTable(wl_seat_listener(
        capabilities: { data, _, caps in owner(data, as: Seat.self)?.setCapabilities(caps) },
        name: { _, _, _ in }
    ))
}
