import CWaylandClient
import CXKBCommon
import Glibc
import Input

/// `wl_keyboard` through xkbcommon: keymaps (replaceable at any time), modifiers, and key
/// repeat driven by a deadline on the main loop's poll — no thread, no wakeup while idle.
final class KeyboardDevice {
    let proxy: OpaquePointer
    unowned let seat: Seat
    private let context: OpaquePointer?
    private var keymap: OpaquePointer?
    private var state: OpaquePointer?
    private var repeatRate: Int32 = 25
    private var repeatDelay: Int32 = 600
    private var repeating: (key: UInt32, keysym: String, text: String, next: Double)?
    /// Dead keys and the Compose key, as the locale's compose table says.
    private let composer = KeyComposer()

    init(proxy: OpaquePointer, seat: Seat) {
        self.proxy = proxy
        self.seat = seat
        context = xkb_context_new(XKB_CONTEXT_NO_FLAGS)
        wl_keyboard_add_listener(proxy, KeyboardDevice.listener.pointer, opaque(self))
    }

    func destroy() {
        repeating = nil
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        if let context { xkb_context_unref(context) }
        if seat.version >= 3 { wl_keyboard_release(proxy) } else { wl_keyboard_destroy(proxy) }
    }

    /// When the next key repeat is due, in monotonic ms.
    var nextDeadline: Double? { repeating?.next }

    func fireRepeats(now: Double) {
        guard var r = repeating, repeatRate > 0 else { return }
        let interval = 1000 / Double(repeatRate)
        while r.next <= now {
            seat.deliver(.key(KeyEvent(time: r.next, keysym: r.keysym, state: .repeated, modifiers: modifiers, text: r.text)))
            r.next += interval
        }
        repeating = r
    }

    private var modifiers: Modifiers {
        guard let state else { return [] }
        var m = Modifiers()
        func active(_ name: String) -> Bool {
            xkb_state_mod_name_is_active(state, name, XKB_STATE_MODS_EFFECTIVE) > 0
        }
        if active(XKB_MOD_NAME_SHIFT) { m.insert(.shift) }
        if active(XKB_MOD_NAME_CTRL) { m.insert(.control) }
        if active(XKB_MOD_NAME_ALT) { m.insert(.alt) }
        if active(XKB_MOD_NAME_LOGO) { m.insert(.logo) }
        return m
    }

    private func keymap(format: UInt32, fd: Int32, size: UInt32) {
        defer { close(fd) }
        guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, size > 0, let context else { return }
        // From wl_keyboard v7 the fd must be mapped MAP_PRIVATE.
        guard let map = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else {
            printError("meridian: cannot map the keymap from the compositor: \(String(cString: strerror(errno)))")
            return
        }
        defer { munmap(map, Int(size)) }
        let text = map.assumingMemoryBound(to: CChar.self)
        guard let newKeymap = xkb_keymap_new_from_buffer(context, text, strnlen(text, Int(size)),
                                                         XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS),
              let newState = xkb_state_new(newKeymap)
        else {
            printError("meridian: the compositor sent a keymap xkbcommon cannot compile; keeping the previous one")
            return
        }
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        keymap = newKeymap
        state = newState
        repeating = nil
    }

    /// Keyboard focus came or went. On leave nothing is held any more: key repeat stops and
    /// the modifiers are cleared (the compositor sends the state again with the next enter).
    private func focus(entered: Bool) {
        if !entered {
            repeating = nil
            if let state { xkb_state_update_mask(state, 0, 0, 0, 0, 0, 0) }
        }
        seat.deliver(.keyboardFocus(time: monotonicMilliseconds(), entered: entered))
    }

    private func key(time: UInt32, key: UInt32, pressed: Bool) {
        guard let state, let keymap else { return }
        let code = key + 8   // evdev → xkb keycode
        let sym = xkb_state_key_get_one_sym(state, code)
        let name = KeyboardDevice.name(of: sym)
        let t = seat.clock.time(fromCompositor: time)
        // The text: the keymap's for this key at its level, unless a compose sequence takes it.
        let text = pressed ? composer.press(sym) {
            var buffer = [CChar](repeating: 0, count: 64)
            let n = xkb_state_key_get_utf8(state, code, &buffer, buffer.count)
            return n > 0 ? KeyComposer.string(buffer) : ""
        } : nil
        seat.deliver(.key(KeyEvent(time: t, keysym: name, state: pressed ? .pressed : .released, modifiers: modifiers, text: text)))
        if pressed, repeatRate > 0, xkb_keymap_key_repeats(keymap, code) != 0 {
            repeating = (key, name, text ?? "", t + Double(repeatDelay))
        } else if !pressed, repeating?.key == key {
            repeating = nil
        }
    }

    static func name(of sym: xkb_keysym_t) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let n = xkb_keysym_get_name(sym, &buffer, buffer.count)
        guard n > 0 else { return "NoSymbol" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static let listener = ListenerTable(wl_keyboard_listener(
        keymap: { data, _, format, fd, size in
            guard let k = owner(data, as: KeyboardDevice.self) else { close(fd); return }
            k.keymap(format: format, fd: fd, size: size)
        },
        // Keys already down at enter are not replayed as presses.
        enter: { data, _, _, _, _ in owner(data, as: KeyboardDevice.self)?.focus(entered: true) },
        leave: { data, _, _, _ in owner(data, as: KeyboardDevice.self)?.focus(entered: false) },
        key: { data, _, _, time, key, state in
            owner(data, as: KeyboardDevice.self)?.key(time: time, key: key, pressed: state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue)
        },
        modifiers: { data, _, _, depressed, latched, locked, group in
            guard let k = owner(data, as: KeyboardDevice.self), let state = k.state else { return }
            xkb_state_update_mask(state, depressed, latched, locked, 0, 0, group)
        },
        repeat_info: { data, _, rate, delay in
            guard let k = owner(data, as: KeyboardDevice.self) else { return }
            k.repeatRate = max(0, min(rate, 1000))
            k.repeatDelay = max(0, delay)
            if rate <= 0 { k.repeating = nil }
        }
    ))
}
