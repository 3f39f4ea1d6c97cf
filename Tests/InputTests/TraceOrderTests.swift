import Testing
@testable import Input

/// Found by fuzzing (scripts/fuzz.sh trace): a device's events left unframed while another
/// device's frames went by came out after those later frames, so a recorded trace written back
/// out no longer parsed ("time 60 goes back before 180").
@Suite struct TraceOrderTests {
    @Test func anUnframedPointerMotionStaysInTimeOrderWithLaterFrames() throws {
        let text = """
            meridian-trace 1
            50 pointer enter 10 20
            50 pointer frame
            60 pointer motion 15 2
            101 key pressed plus
            180 hold end
            200 wait
            """
        let trace = try TraceFormat.parse(text)
        let times = trace.frames.map(\.time)
        #expect(times == times.sorted())
        #expect(times == [50, 60, 101, 180])
    }

    @Test func aPointerFrameClosedLateKeepsItsEventsTimeAndOrder() throws {
        let text = """
            meridian-trace 1
            10 pointer motion 1 1
            20 touch down 0 5 5
            20 touch frame
            30 pointer frame
            """
        let trace = try TraceFormat.parse(text)
        #expect(trace.frames.map(\.time) == [10, 20])
    }

    @Test func anyParsedTraceWritesBackToTheSameFrames() throws {
        let text = """
            meridian-trace 1
            0 touch down 0 100 200
            60 pointer motion 15 2
            101 key pressed plus
            120 touch up 0
            180 hold end
            """
        let trace = try TraceFormat.parse(text)
        let again = try TraceFormat.parse(TraceFormat.text(for: trace.frames))
        #expect(again.frames == trace.frames)
    }
}

/// Found by fuzzing: a repeated `down` for an id still down ends the old point in the same
/// frame; written out as `up` then `down`, the `up` lifted the last finger and split the frame.
@Suite struct RepeatedDownRoundTripTests {
    @Test func aRepeatedDownWritesBackAsOneFrame() throws {
        let text = """
            meridian-trace 1
            0 touch down 0 300 600
            0 touch down 0 500 700
            0 touch frame
            16 touch motion 0 280 580
            16 touch frame
            """
        let trace = try TraceFormat.parse(text)
        #expect(trace.frames.count == 2)
        let again = try TraceFormat.parse(TraceFormat.text(for: trace.frames))
        #expect(again.frames == trace.frames)
    }

    @Test func anUpWhileAnotherFingerStaysDownThenTheSameIdDownAgainRoundTrips() throws {
        let text = """
            meridian-trace 1
            0 touch down 0 10 10
            0 touch down 1 20 20
            0 touch frame
            8 touch up 0
            8 touch down 0 30 30
            8 touch frame
            """
        let trace = try TraceFormat.parse(text)
        let again = try TraceFormat.parse(TraceFormat.text(for: trace.frames))
        #expect(again.frames == trace.frames)
    }
}

/// Found by fuzzing: a pointer frame with an enter and then a leave was written out as leave
/// then enter, which reads back as the pointer inside the window instead of outside.
@Suite struct EnterThenLeaveRoundTripTests {
    @Test func anEnterThenLeaveInOneFrameLeavesThePointerOutsideAndWritesBackTheSame() throws {
        let text = """
            meridian-trace 1
            50 pointer enter 10 20
            50 pointer leave
            90 pointer frame
            """
        let trace = try TraceFormat.parse(text)
        guard case .pointer(let frame)? = trace.frames.first else {
            Issue.record("expected one pointer frame, got \(trace.frames)")
            return
        }
        #expect(frame.left)
        #expect(frame.entered == nil)
        let again = try TraceFormat.parse(TraceFormat.text(for: trace.frames))
        #expect(again.frames == trace.frames)
    }
}
