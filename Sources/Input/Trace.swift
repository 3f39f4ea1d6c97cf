/// The input trace format, version 1 (contracts.md section 2): parse and write.
///
/// Extensions to the contract, all additive: `pointer enter X Y`, `pointer leave`,
/// `key repeated NAME`, `key enter` / `key leave` (keyboard focus; a leave releases every held
/// key and modifier), `swipe begin N` / `swipe update DX DY` / `swipe end [cancelled]`,
/// `hold begin N` / `hold end [cancelled]`, and an on-screen keyboard's `zwp_text_input_v3`
/// events: `text-input enter` / `text-input leave` and `text-input done [preedit TEXT [CURSOR]]
/// [commit TEXT] [delete BEFORE AFTER]` (TEXT percent-encoded UTF-8, byte counts as the protocol).

/// A parsed trace: the frames in order, and the time the trace lasts (its last event or `wait`).
public struct Trace: Sendable, Equatable {
    public var frames: [InputFrame]
    public var endTime: Double

    public init(frames: [InputFrame], endTime: Double) {
        self.frames = frames
        self.endTime = endTime
    }
}

/// A malformed trace: which file, which line, what is wrong.
public struct TraceError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { "\(file):\(line): \(message)" }
}

public enum TraceFormat {
    public static let header = "meridian-trace 1"

    /// Parses trace text. `file` only names the source in errors.
    public static func parse(_ text: String, file: String = "<trace>") throws(TraceError) -> Trace {
        var parser = TraceParser(file: file)
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            try parser.consume(line: rawLine, number: lineNumber)
        }
        return try parser.finish(lastLine: lineNumber)
    }

    /// The lines that describe one frame (without a trailing newline).
    public static func lines(for frame: InputFrame, startTime: Double = 0) -> [String] {
        let t = number(frame.time - startTime)
        switch frame {
        case .touch(let f):
            var out: [String] = []
            for (i, c) in f.changes.enumerated() {
                // An up that only ends a point because the same id goes down again in this
                // frame is re-created by that second `down` when read back; written out it
                // would lift the last finger and split the frame in two.
                if case .up(let id, _) = c, Self.goesDownAgain(id, after: i, in: f.changes) { continue }
                switch c {
                case .down(let id, let p): out.append("\(t) touch down \(id) \(number(p.x)) \(number(p.y))")
                case .moved(let id, let p): out.append("\(t) touch motion \(id) \(number(p.x)) \(number(p.y))")
                case .up(let id, _): out.append("\(t) touch up \(id)")
                }
            }
            out.append("\(t) touch frame")
            return out
        case .touchCancel:
            return ["\(t) touch cancel"]
        case .pointer(let f):
            var out: [String] = []
            if f.left { out.append("\(t) pointer leave") }
            if let p = f.entered { out.append("\(t) pointer enter \(number(p.x)) \(number(p.y))") }
            if let p = f.moved { out.append("\(t) pointer motion \(number(p.x)) \(number(p.y))") }
            for (b, pressed) in f.buttons {
                out.append("\(t) pointer button \(buttonName(b)) \(pressed ? "pressed" : "released")")
            }
            if let s = f.axisSource { out.append("\(t) pointer axis-source \(sourceName(s))") }
            for a in f.axes {
                var line = "\(t) pointer axis \(orientationName(a.orientation)) \(number(a.value))"
                if let d = a.discrete { line += " discrete \(d)" }
                if let v = a.value120 { line += " value120 \(v)" }
                out.append(line)
            }
            for o in f.axisStops { out.append("\(t) pointer axis-stop \(orientationName(o))") }
            out.append("\(t) pointer frame")
            return out
        case .key(let k):
            let state: String
            switch k.state {
            case .pressed: state = "pressed"
            case .released: state = "released"
            case .repeated: state = "repeated"
            }
            return ["\(t) key \(state) \(k.keysym)"]
        case .keyboardFocus(_, let entered):
            return ["\(t) key \(entered ? "enter" : "leave")"]
        case .touchpad(_, let g):
            switch g {
            case .pinchBegin(let n): return ["\(t) pinch begin \(n)"]
            case .pinchUpdate(let dx, let dy, let s, let r):
                return ["\(t) pinch update \(number(dx)) \(number(dy)) \(number(s)) \(number(r))"]
            case .pinchEnd(let c): return ["\(t) pinch end" + (c ? " cancelled" : "")]
            case .swipeBegin(let n): return ["\(t) swipe begin \(n)"]
            case .swipeUpdate(let dx, let dy): return ["\(t) swipe update \(number(dx)) \(number(dy))"]
            case .swipeEnd(let c): return ["\(t) swipe end" + (c ? " cancelled" : "")]
            case .holdBegin(let n): return ["\(t) hold begin \(n)"]
            case .holdEnd(let c): return ["\(t) hold end" + (c ? " cancelled" : "")]
            }
        case .textInput(_, let e):
            switch e {
            case .focus(let entered): return ["\(t) text-input \(entered ? "enter" : "leave")"]
            case .done(let u):
                var line = "\(t) text-input done"
                if !u.preedit.isEmpty {
                    line += " preedit \(percentEncoded(u.preedit))"
                    if let c = u.preeditCursor { line += " \(c)" }
                }
                if !u.commit.isEmpty { line += " commit \(percentEncoded(u.commit))" }
                if u.deleteBefore != 0 || u.deleteAfter != 0 { line += " delete \(u.deleteBefore) \(u.deleteAfter)" }
                return [line]
            }
        }
    }

    /// Whether the next change for `id` after index `i` is a `down`.
    static func goesDownAgain(_ id: Int32, after i: Int, in changes: [TouchChange]) -> Bool {
        guard let next = changes[(i + 1)...].first(where: { $0.id == id }) else { return false }
        if case .down = next { return true }
        return false
    }

    /// A whole trace as text.
    public static func text(for frames: [InputFrame], startTime: Double = 0) -> String {
        var s = header + "\n"
        for f in frames {
            for l in lines(for: f, startTime: startTime) { s += l + "\n" }
        }
        return s
    }

    /// A decimal that parses back to the same Double, without a trailing ".0" for whole numbers.
    static func number(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return String(v)
    }

    static func buttonName(_ b: PointerButton) -> String {
        switch b {
        case .left: return "left"
        case .right: return "right"
        case .middle: return "middle"
        case .other(let c): return String(c)
        }
    }

    static func sourceName(_ s: AxisSource) -> String {
        switch s {
        case .wheel: return "wheel"
        case .finger: return "finger"
        case .continuous: return "continuous"
        case .wheelTilt: return "wheel-tilt"
        }
    }

    static func orientationName(_ o: AxisOrientation) -> String { o == .vertical ? "vertical" : "horizontal" }

    /// Text for a trace word: bytes other than letters, digits and `-._~` as `%XX`.
    public static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF")
        var out = ""
        for b in text.utf8 {
            switch b {
            case 0x30...0x39, 0x41...0x5a, 0x61...0x7a, 0x2d, 0x2e, 0x5f, 0x7e: out.append(Character(Unicode.Scalar(b)))
            default: out += "%\(hex[Int(b >> 4)])\(hex[Int(b & 15)])"
            }
        }
        return out
    }

    /// The inverse of `percentEncoded`; nil for a bad escape or bytes that are not UTF-8.
    public static func percentDecoded(_ word: String) -> String? {
        var bytes: [UInt8] = []
        var it = Array(word.utf8)[...]
        while let b = it.popFirst() {
            guard b == 0x25 else { bytes.append(b); continue }
            guard it.count >= 2, let v = UInt8(String(decoding: it.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            it = it.dropFirst(2)
            bytes.append(v)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

/// Line-by-line state of a trace being parsed.
struct TraceParser {
    let file: String
    var sawHeader = false
    var frames: [InputFrame] = []
    var lastTime = 0.0
    var touch = TouchFrameAssembler()
    var pointer = PointerFrameAssembler()
    var pressedModifiers: [String: Modifiers] = [:]

    init(file: String) { self.file = file }

    mutating func consume(line raw: Substring, number: Int) throws(TraceError) {
        var content = raw
        if let hash = content.firstIndex(of: "#") { content = content[..<hash] }
        let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        if words.isEmpty { return }
        func fail(_ message: String) -> TraceError { TraceError(file: file, line: number, message: message) }
        guard sawHeader else {
            guard words.count == 2, words[0] == "meridian-trace" else {
                throw fail("expected the header 'meridian-trace 1'")
            }
            guard words[1] == "1" else { throw fail("unsupported trace version '\(words[1])' (this build reads version 1)") }
            sawHeader = true
            return
        }
        guard let time = Double(words[0]), time.isFinite, time >= 0 else {
            throw fail("expected a time in milliseconds, found '\(words[0])'")
        }
        guard time >= lastTime else {
            throw fail("time \(words[0]) goes back before \(TraceFormat.number(lastTime))")
        }
        lastTime = time
        guard words.count >= 2 else { throw fail("expected a device after the time") }
        var args = Arguments(words: Array(words.dropFirst(2)), line: number, file: file)
        let device = words[1]
        switch device {
        case "wait":
            try args.end()
        case "touch":
            try touchEvent(&args, time: time)
        case "pointer":
            try pointerEvent(&args, time: time)
        case "key":
            let state: KeyEvent.State
            switch try args.word("key state") {
            case "pressed": state = .pressed
            case "released": state = .released
            case "repeated": state = .repeated
            case let w where w == "enter" || w == "leave":
                try args.end()
                // Focus gone: nothing is held any more.
                if w == "leave" { pressedModifiers.removeAll() }
                frames.append(.keyboardFocus(time: time, entered: w == "enter"))
                return
            case let w: throw fail("unknown key state '\(w)' (pressed|released|repeated|enter|leave)")
            }
            let name = try args.word("keysym name")
            try args.end()
            if let m = Self.modifier(for: name) {
                if state == .released { pressedModifiers[name] = nil } else { pressedModifiers[name] = m }
            }
            let mods = pressedModifiers.values.reduce(Modifiers()) { $0.union($1) }
            frames.append(.key(KeyEvent(time: time, keysym: name, state: state, modifiers: mods)))
        case "pinch", "swipe", "hold":
            try touchpadEvent(String(device), &args, time: time)
        case "text-input":
            frames.append(.textInput(time: time, try textInputEvent(&args)))
        default:
            throw fail("unknown device '\(device)' (touch|pointer|key|pinch|swipe|hold|text-input|wait)")
        }
    }

    mutating func textInputEvent(_ args: inout Arguments) throws(TraceError) -> TextInputEvent {
        func text(_ what: String) throws(TraceError) -> String {
            let w = try args.word(what)
            guard let t = TraceFormat.percentDecoded(w) else { throw args.error("'\(w)' is not percent-encoded UTF-8") }
            return t
        }
        func count(_ what: String) throws(TraceError) -> Int {
            let v = try args.integer(what)
            guard v >= 0 else { throw args.error("\(what) must not be negative") }
            return Int(v)
        }
        switch try args.word("text-input event") {
        case "enter":
            try args.end()
            return .focus(true)
        case "leave":
            try args.end()
            return .focus(false)
        case "done":
            var u = TextInputUpdate()
            while !args.atEnd {
                switch try args.word("text-input field") {
                case "preedit":
                    u.preedit = try text("pre-edit text")
                    if !args.atEnd, let c = Int(args.words[args.index]) {
                        args.index += 1
                        guard c >= 0 else { throw args.error("the pre-edit cursor must not be negative") }
                        u.preeditCursor = c
                    }
                case "commit": u.commit = try text("commit text")
                case "delete":
                    u.deleteBefore = try count("bytes before")
                    u.deleteAfter = try count("bytes after")
                case let w: throw args.error("unknown text-input field '\(w)' (preedit|commit|delete)")
                }
            }
            return .done(u)
        case let w: throw args.error("unknown text-input event '\(w)' (enter|leave|done)")
        }
    }

    static func modifier(for keysym: String) -> Modifiers? {
        switch keysym {
        case "Shift_L", "Shift_R": return .shift
        case "Control_L", "Control_R": return .control
        case "Alt_L", "Alt_R", "Meta_L", "Meta_R": return .alt
        case "Super_L", "Super_R": return .logo
        default: return nil
        }
    }

    mutating func touchEvent(_ args: inout Arguments, time: Double) throws(TraceError) {
        switch try args.word("touch event") {
        case "down":
            let id = try args.id()
            let p = Point(x: try args.coordinate(), y: try args.coordinate())
            try args.end()
            touch.down(id: id, at: p, time: time)
        case "motion":
            let id = try args.id()
            let p = Point(x: try args.coordinate(), y: try args.coordinate())
            try args.end()
            touch.motion(id: id, to: p, time: time)
        case "up":
            let id = try args.id()
            try args.end()
            if let f = touch.up(id: id, time: time) { frames.append(.touch(f)) }
        case "frame":
            try args.end()
            if let f = touch.frame() { frames.append(.touch(f)) }
        case "cancel":
            try args.end()
            touch.cancel()
            frames.append(.touchCancel(time: time))
        case let w:
            throw args.error("unknown touch event '\(w)' (down|motion|up|frame|cancel)")
        }
    }

    mutating func pointerEvent(_ args: inout Arguments, time: Double) throws(TraceError) {
        switch try args.word("pointer event") {
        case "enter":
            let p = Point(x: try args.coordinate(), y: try args.coordinate())
            try args.end()
            pointer.enter(at: p, time: time)
        case "leave":
            try args.end()
            pointer.leave(time: time)
        case "motion":
            let p = Point(x: try args.coordinate(), y: try args.coordinate())
            try args.end()
            pointer.motion(to: p, time: time)
        case "button":
            let name = try args.word("button")
            let button: PointerButton
            switch name {
            case "left": button = .left
            case "right": button = .right
            case "middle": button = .middle
            default:
                guard let code = UInt32(name) else { throw args.error("unknown button '\(name)' (left|right|middle|CODE)") }
                button = PointerButton(code: code)
            }
            let state = try args.word("button state")
            guard state == "pressed" || state == "released" else {
                throw args.error("unknown button state '\(state)' (pressed|released)")
            }
            try args.end()
            pointer.button(button, pressed: state == "pressed", time: time)
        case "axis-source":
            let s: AxisSource
            switch try args.word("axis source") {
            case "wheel": s = .wheel
            case "finger": s = .finger
            case "continuous": s = .continuous
            case "wheel-tilt": s = .wheelTilt
            case let w: throw args.error("unknown axis source '\(w)' (wheel|finger|continuous|wheel-tilt)")
            }
            try args.end()
            pointer.axisSource(s)
        case "axis":
            let o = try args.orientation()
            let v = try args.coordinate()
            while !args.atEnd {
                switch try args.word("'discrete' or 'value120'") {
                case "discrete": pointer.axisDiscrete(o, steps: try args.integer("discrete steps"))
                case "value120": pointer.axisValue120(o, value120: try args.integer("value120"))
                case let w: throw args.error("expected 'discrete STEPS' or 'value120 N', not '\(w)'")
                }
            }
            try args.end()
            pointer.axis(o, value: v, time: time)
        case "axis-stop":
            let o = try args.orientation()
            try args.end()
            pointer.axisStop(o, time: time)
        case "frame":
            try args.end()
            if let f = pointer.frame() { frames.append(.pointer(f)) }
        case let w:
            throw args.error("unknown pointer event '\(w)' (enter|leave|motion|button|axis-source|axis|axis-stop|frame)")
        }
    }

    mutating func touchpadEvent(_ kind: String, _ args: inout Arguments, time: Double) throws(TraceError) {
        let event = try args.word("\(kind) event")
        let g: TouchpadGesture
        switch (kind, event) {
        case (_, "begin"):
            let n = try args.integer("finger count")
            guard n > 0 else { throw args.error("finger count must be positive") }
            g = kind == "pinch" ? .pinchBegin(fingers: UInt32(n)) : kind == "swipe" ? .swipeBegin(fingers: UInt32(n)) : .holdBegin(fingers: UInt32(n))
        case ("pinch", "update"):
            g = .pinchUpdate(dx: try args.coordinate(), dy: try args.coordinate(), scale: try args.coordinate(),
                             rotation: try args.coordinate())
        case ("swipe", "update"):
            g = .swipeUpdate(dx: try args.coordinate(), dy: try args.coordinate())
        case (_, "end"):
            var cancelled = false
            if !args.atEnd {
                guard try args.word("'cancelled'") == "cancelled" else { throw args.error("expected 'cancelled' or nothing") }
                cancelled = true
            }
            g = kind == "pinch" ? .pinchEnd(cancelled: cancelled) : kind == "swipe" ? .swipeEnd(cancelled: cancelled) : .holdEnd(cancelled: cancelled)
        default:
            throw args.error("unknown \(kind) event '\(event)'")
        }
        try args.end()
        frames.append(.touchpad(time: time, g))
    }

    mutating func finish(lastLine: Int) throws(TraceError) -> Trace {
        guard sawHeader else { throw TraceError(file: file, line: max(lastLine, 1), message: "empty trace: no 'meridian-trace 1' header") }
        // Touch and pointer events after the last frame line still happened.
        if let f = touch.frame() { frames.append(.touch(f)) }
        if let f = pointer.frame() { frames.append(.pointer(f)) }
        // A device's frame carries the time of its events, but it is only complete at its
        // `frame` line (or the end), possibly after another device's later frames. Replay and
        // the writer need time order, so restore it, keeping file order among equal times.
        let ordered = frames.enumerated().sorted { a, b in
            a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
        }
        return Trace(frames: ordered.map(\.element), endTime: lastTime)
    }
}

/// The words after the device, consumed left to right with errors naming the line.
struct Arguments {
    var words: [Substring]
    var index = 0
    let line: Int
    let file: String

    init(words: [Substring], line: Int, file: String) {
        self.words = words
        self.line = line
        self.file = file
    }

    var atEnd: Bool { index >= words.count }

    func error(_ message: String) -> TraceError { TraceError(file: file, line: line, message: message) }

    mutating func word(_ what: String) throws(TraceError) -> String {
        guard index < words.count else { throw error("missing \(what)") }
        defer { index += 1 }
        return String(words[index])
    }

    mutating func coordinate() throws(TraceError) -> Double {
        let w = try word("number")
        guard let v = Double(w), v.isFinite else { throw error("'\(w)' is not a finite number") }
        // Wayland's fixed-point numbers cannot carry more than ±2^23; larger is certainly garbage.
        guard abs(v) <= 8_388_608 else { throw error("'\(w)' is out of range (±8388608)") }
        return v
    }

    mutating func integer(_ what: String) throws(TraceError) -> Int32 {
        let w = try word(what)
        guard let v = Int32(w) else { throw error("'\(w)' is not a valid \(what)") }
        return v
    }

    mutating func id() throws(TraceError) -> Int32 { try integer("touch id") }

    mutating func orientation() throws(TraceError) -> AxisOrientation {
        switch try word("axis orientation") {
        case "vertical": return .vertical
        case "horizontal": return .horizontal
        case let w: throw error("unknown axis '\(w)' (vertical|horizontal)")
        }
    }

    func end() throws(TraceError) {
        guard atEnd else { throw error("unexpected '\(words[index...].joined(separator: " "))' at the end of the line") }
    }
}
