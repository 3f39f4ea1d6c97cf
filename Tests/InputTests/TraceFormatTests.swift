import Testing
@testable import Input

@Suite struct TraceFormatTests {
    static let contractExample = """
        meridian-trace 1
        # time  device   event ...
        0       touch    down 0 400.0 700.0
        0       touch    frame
        16      touch    motion 0 400.0 680.0
        16      touch    frame
        32      touch    up 0
        32      touch    frame
        40      touch    cancel
        50      pointer  motion 120.5 300.0
        50      pointer  frame
        60      pointer  button left pressed          # left|right|middle  pressed|released
        60      pointer  frame
        70      pointer  axis-source wheel            # wheel|finger|continuous|wheel-tilt
        70      pointer  axis vertical 15.0 discrete 1   # value as wl_pointer.axis; discrete optional
        70      pointer  frame
        80      pointer  axis-stop vertical
        80      pointer  frame
        90      key      pressed Control_L            # xkb keysym names; modifiers follow from presses
        95      key      released Control_L
        100     pinch    begin 2                       # touchpad gestures (zwp_pointer_gestures_v1)
        110     pinch    update 1.0 0.0 1.25 0.0       # dx dy scale rotation
        120     pinch    end                           # or: end cancelled
        500     wait                                   # no event; lets time pass to 500 ms
        """

    @Test func theContractsExampleParsesIntoTheFramesItDescribes() throws {
        let t = try TraceFormat.parse(Self.contractExample)
        #expect(t.endTime == 500)
        #expect(t.frames.count == 13)
        #expect(t.frames[0] == .touch(TouchFrame(time: 0, changes: [.down(id: 0, at: Point(x: 400, y: 700))])))
        #expect(t.frames[2] == .touch(TouchFrame(time: 32, changes: [.up(id: 0, at: Point(x: 400, y: 680))])))
        #expect(t.frames[3] == .touchCancel(time: 40))
        guard case .pointer(let wheel) = t.frames[6] else {
            Issue.record("expected a pointer frame, got \(t.frames[6])")
            return
        }
        #expect(wheel.axes == [AxisEvent(orientation: .vertical, value: 15, discrete: 1)])
        #expect(t.frames[8] == .key(KeyEvent(time: 90, keysym: "Control_L", state: .pressed, modifiers: .control)))
        #expect(t.frames[9] == .key(KeyEvent(time: 95, keysym: "Control_L", state: .released, modifiers: [])))
        #expect(t.frames[10] == .touchpad(time: 100, .pinchBegin(fingers: 2)))
        #expect(t.frames[11] == .touchpad(time: 110, .pinchUpdate(dx: 1, dy: 0, scale: 1.25, rotation: 0)))
        #expect(t.frames[12] == .touchpad(time: 120, .pinchEnd(cancelled: false)))
    }

    @Test func writingAndParsingAgainGivesTheSameFrames() throws {
        let t = try TraceFormat.parse(Self.contractExample)
        let again = try TraceFormat.parse(TraceFormat.text(for: t.frames))
        #expect(again.frames == t.frames)
    }

    @Test func fractionalCoordinatesSurviveTheRoundTrip() throws {
        let f = InputFrame.touch(TouchFrame(time: 12.5, changes: [.down(id: 2, at: Point(x: 0.1 + 0.2, y: 1e-3))]))
        let t = try TraceFormat.parse(TraceFormat.text(for: [f]))
        #expect(t.frames == [f])
    }

    private func error(_ text: String) -> TraceError? {
        do {
            _ = try TraceFormat.parse(text, file: "bad.trace")
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        ("", 1, "header"),
        ("meridian-trace 2\n", 1, "version"),
        ("meridian-trace 1\n0 touch down 0 1\n", 2, "missing"),
        ("meridian-trace 1\n10 touch frame\n5 touch frame\n", 3, "goes back"),
        ("meridian-trace 1\nNaN touch frame\n", 2, "time"),
        ("meridian-trace 1\n0 touch down 0 nan 5\n", 2, "finite"),
        ("meridian-trace 1\n0 touch down 0 inf 5\n", 2, "finite"),
        ("meridian-trace 1\n0 touch down 0 1e300 5\n", 2, "range"),
        ("meridian-trace 1\n0 touch down x 1 2\n", 2, "touch id"),
        ("meridian-trace 1\n0 mouse click\n", 2, "unknown device"),
        ("meridian-trace 1\n0 pointer button left maybe\n", 2, "button state"),
        ("meridian-trace 1\n0 touch frame extra\n", 2, "unexpected"),
        ("# comment\n\nmeridian-trace 1\n1 wait\n2 touch flip\n", 5, "unknown touch event"),
    ])
    func aMalformedTraceNamesTheFileAndLine(text: String, line: Int, words: String) {
        let e = error(text)
        #expect(e?.file == "bad.trace")
        #expect(e?.line == line)
        #expect(e?.message.contains(words) == true, "message was: \(e?.message ?? "none")")
    }

    @Test func eventsAfterTheLastFrameLineStillCount() throws {
        let t = try TraceFormat.parse("meridian-trace 1\n0 touch down 0 5 5\n")
        #expect(t.frames == [.touch(TouchFrame(time: 0, changes: [.down(id: 0, at: Point(x: 5, y: 5))]))])
    }

    @Test func tenThousandSimultaneousTouchIdsParse() throws {
        var text = "meridian-trace 1\n"
        for id in 0..<10_000 { text += "0 touch down \(id) \(id % 800) \(id % 1280)\n" }
        text += "0 touch frame\n"
        let t = try TraceFormat.parse(text)
        guard case .touch(let f) = t.frames.first else {
            Issue.record("no touch frame")
            return
        }
        #expect(f.changes.count == 10_000)
    }
}
