/// Input as the rest of Meridian sees it: one value per protocol frame, whether it came live
/// from the compositor or from a trace file. Times are milliseconds on one monotonic clock.

/// One change to one touch point inside a `wl_touch.frame`.
public enum TouchChange: Sendable, Equatable {
    case down(id: Int32, at: Point)
    case moved(id: Int32, to: Point)
    /// The point lifted; `at` is its last known position.
    case up(id: Int32, at: Point)

    public var id: Int32 {
        switch self {
        case .down(let id, _), .moved(let id, _), .up(let id, _): return id
        }
    }

    public var location: Point {
        switch self {
        case .down(_, let p), .moved(_, let p), .up(_, let p): return p
        }
    }
}

/// Everything that happened to the touch points between two `wl_touch.frame` events, in
/// protocol order. Several motions of one id within a frame are folded into the last one;
/// a down and an up of the same id inside one frame are both kept.
public struct TouchFrame: Sendable, Equatable {
    public var time: Double
    public var changes: [TouchChange]

    public init(time: Double, changes: [TouchChange]) {
        self.time = time
        self.changes = changes
    }
}

public enum PointerButton: Sendable, Equatable, Hashable {
    case left, right, middle
    /// Any other evdev button code.
    case other(UInt32)

    /// The Linux evdev code (`BTN_LEFT` = 0x110 …).
    public var code: UInt32 {
        switch self {
        case .left: return 0x110
        case .right: return 0x111
        case .middle: return 0x112
        case .other(let c): return c
        }
    }

    public init(code: UInt32) {
        switch code {
        case 0x110: self = .left
        case 0x111: self = .right
        case 0x112: self = .middle
        default: self = .other(code)
        }
    }
}

public enum AxisOrientation: Sendable, Equatable, Hashable { case vertical, horizontal }

/// Where scroll values come from (`wl_pointer.axis_source`).
public enum AxisSource: Sendable, Equatable { case wheel, finger, continuous, wheelTilt }

/// One axis value of a pointer frame. `value` is in the units of `wl_pointer.axis`
/// (roughly logical pixels); `discrete` counts wheel detents when the compositor sent them
/// (`axis_discrete`, or `axis_value120 / 120`).
public struct AxisEvent: Sendable, Equatable {
    public var orientation: AxisOrientation
    public var value: Double
    public var discrete: Int32?
    /// `axis_value120` when the compositor sent it: detents in 120ths, so a high-resolution
    /// wheel's fractions of a detent add up instead of being cut to whole steps.
    public var value120: Int32?

    public init(orientation: AxisOrientation, value: Double, discrete: Int32? = nil, value120: Int32? = nil) {
        self.orientation = orientation
        self.value = value
        self.discrete = discrete
        self.value120 = value120
    }

    /// Wheel detents, fractions included: value120 / 120, else the discrete count, else nil.
    public var detents: Double? {
        if let v = value120 { return Double(v) / 120 }
        return discrete.map(Double.init)
    }
}

/// Everything between two `wl_pointer.frame` events.
public struct PointerFrame: Sendable, Equatable {
    public var time: Double
    /// Set when the pointer entered the surface in this frame.
    public var entered: Point?
    /// Set when the pointer left the surface in this frame.
    public var left: Bool
    /// The new position when the pointer moved in this frame.
    public var moved: Point?
    public var buttons: [(button: PointerButton, pressed: Bool)]
    public var axisSource: AxisSource?
    public var axes: [AxisEvent]
    public var axisStops: [AxisOrientation]

    public init(time: Double, entered: Point? = nil, left: Bool = false, moved: Point? = nil,
                buttons: [(button: PointerButton, pressed: Bool)] = [], axisSource: AxisSource? = nil,
                axes: [AxisEvent] = [], axisStops: [AxisOrientation] = []) {
        self.time = time
        self.entered = entered
        self.left = left
        self.moved = moved
        self.buttons = buttons
        self.axisSource = axisSource
        self.axes = axes
        self.axisStops = axisStops
    }

    public var isEmpty: Bool {
        entered == nil && !left && moved == nil && buttons.isEmpty && axisSource == nil && axes.isEmpty
            && axisStops.isEmpty
    }

    public static func == (a: PointerFrame, b: PointerFrame) -> Bool {
        a.time == b.time && a.entered == b.entered && a.left == b.left && a.moved == b.moved
            && a.buttons.map(\.button) == b.buttons.map(\.button) && a.buttons.map(\.pressed) == b.buttons.map(\.pressed)
            && a.axisSource == b.axisSource && a.axes == b.axes && a.axisStops == b.axisStops
    }
}

/// Keyboard modifiers in effect after an event.
public struct Modifiers: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let shift = Modifiers(rawValue: 1)
    public static let control = Modifiers(rawValue: 2)
    public static let alt = Modifiers(rawValue: 4)
    public static let logo = Modifiers(rawValue: 8)
}

/// A key press, release or repeat. `keysym` is the xkb keysym name (`Control_L`, `plus`, `Up`).
public struct KeyEvent: Sendable, Equatable {
    public enum State: Sendable, Equatable { case pressed, released, repeated }
    public var time: Double
    public var keysym: String
    public var state: State
    public var modifiers: Modifiers
    /// What the key types, as xkbcommon says (the keymap's level, compose and dead keys
    /// applied): "" while a compose sequence is under way, nil when not known (a trace gives
    /// only keysyms; the headless runner composes them the same way, `KeyComposer`).
    public var text: String?

    public init(time: Double, keysym: String, state: State, modifiers: Modifiers = [], text: String? = nil) {
        self.time = time
        self.keysym = keysym
        self.state = state
        self.modifiers = modifiers
        self.text = text
    }
}

/// Touchpad gestures from `zwp_pointer_gestures_v1`.
public enum TouchpadGesture: Sendable, Equatable {
    case pinchBegin(fingers: UInt32)
    /// `dx`/`dy` move the centre in logical px; `scale` is relative to the start of the gesture;
    /// `rotation` is in degrees since the last update.
    case pinchUpdate(dx: Double, dy: Double, scale: Double, rotation: Double)
    case pinchEnd(cancelled: Bool)
    case swipeBegin(fingers: UInt32)
    case swipeUpdate(dx: Double, dy: Double)
    case swipeEnd(cancelled: Bool)
    case holdBegin(fingers: UInt32)
    case holdEnd(cancelled: Bool)
}

/// The one kind of value the rest of the program sees of input.
public enum InputFrame: Sendable, Equatable {
    case touch(TouchFrame)
    /// `wl_touch.cancel`: every active touch point is cancelled and its id forgotten.
    case touchCancel(time: Double)
    case pointer(PointerFrame)
    case key(KeyEvent)
    /// `wl_keyboard.enter` (true) or `leave` (false): keyboard focus came or went. A leave
    /// releases every held key and modifier (the compositor sends no releases for them).
    case keyboardFocus(time: Double, entered: Bool)
    case touchpad(time: Double, TouchpadGesture)
    /// `zwp_text_input_v3`: an on-screen keyboard's focus, and its changes at each `done`.
    case textInput(time: Double, TextInputEvent)

    public var time: Double {
        switch self {
        case .touch(let f): return f.time
        case .touchCancel(let t): return t
        case .pointer(let f): return f.time
        case .key(let k): return k.time
        case .keyboardFocus(let t, _): return t
        case .touchpad(let t, _): return t
        case .textInput(let t, _): return t
        }
    }
}
