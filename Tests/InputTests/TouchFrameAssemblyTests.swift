import Testing
@testable import Input

/// The wl_touch event orders real compositors send (shared/reference/wayland-client.md 2.6),
/// each folded into the frames a user's gestures are built from.
@Suite struct TouchFrameAssemblyTests {
    let a = Point(x: 10, y: 20), b = Point(x: 30, y: 40), c = Point(x: 50, y: 60)

    @Test func twoFingersInOneFrameArriveTogether() {
        var t = TouchFrameAssembler()
        t.down(id: 0, at: a, time: 1)
        t.down(id: 1, at: b, time: 1)
        let f = t.frame()
        #expect(f?.changes == [.down(id: 0, at: a), .down(id: 1, at: b)])
        #expect(t.frame() == nil, "an empty frame is never delivered")
    }

    @Test func oldWlrootsFramePerEventStillGivesEveryChange() {
        var t = TouchFrameAssembler()
        var frames: [TouchFrame] = []
        t.down(id: 0, at: a, time: 1)
        frames += [t.frame()].compactMap { $0 }
        t.down(id: 1, at: b, time: 2)
        frames += [t.frame()].compactMap { $0 }
        t.motion(id: 0, to: c, time: 3)
        frames += [t.frame()].compactMap { $0 }
        if let f = t.up(id: 0, time: 4) { frames.append(f) }
        frames += [t.frame()].compactMap { $0 }
        if let f = t.up(id: 1, time: 5) { frames.append(f) }
        frames += [t.frame()].compactMap { $0 }
        #expect(frames.map(\.changes) == [[.down(id: 0, at: a)], [.down(id: 1, at: b)], [.moved(id: 0, to: c)],
                                          [.up(id: 0, at: c)], [.up(id: 1, at: b)]])
    }

    @Test func westonSendsNoFrameAfterTheLastUpButTheLiftStillArrives() {
        var t = TouchFrameAssembler()
        t.down(id: 0, at: a, time: 1)
        _ = t.frame()
        let lifted = t.up(id: 0, time: 9)
        #expect(lifted?.changes == [.up(id: 0, at: a)])
        #expect(lifted?.time == 9)
        #expect(t.active.isEmpty)
    }

    @Test func liftingOneOfTwoFingersWaitsForTheFrame() {
        var t = TouchFrameAssembler()
        t.down(id: 0, at: a, time: 1)
        t.down(id: 1, at: b, time: 1)
        _ = t.frame()
        #expect(t.up(id: 0, time: 2) == nil)
        #expect(t.frame()?.changes == [.up(id: 0, at: a)])
    }

    @Test func cancelWithoutFrameForgetsEveryPoint() {
        var t = TouchFrameAssembler()
        t.down(id: 0, at: a, time: 1)
        t.down(id: 1, at: b, time: 1)
        _ = t.frame()
        t.motion(id: 0, to: c, time: 2)
        t.cancel()
        #expect(t.active.isEmpty)
        #expect(t.frame() == nil, "changes pending at the cancel are dropped")
        t.motion(id: 0, to: a, time: 3)
        #expect(t.frame() == nil, "a cancelled id is unknown afterwards")
    }

    @Test func idsAreReusableAfterUpAndAfterCancel() {
        var t = TouchFrameAssembler()
        t.down(id: 3, at: a, time: 1)
        _ = t.up(id: 3, time: 2)
        t.down(id: 3, at: b, time: 3)
        #expect(t.frame()?.changes == [.down(id: 3, at: b)])
        t.cancel()
        t.down(id: 3, at: c, time: 4)
        #expect(t.frame()?.changes == [.down(id: 3, at: c)])
    }

    @Test func downAndUpOfOneIdInsideOneFrameIsATapNotANoOp() {
        var t = TouchFrameAssembler()
        t.down(id: 7, at: a, time: 1)
        let f = t.up(id: 7, time: 1)
        #expect(f?.changes == [.down(id: 7, at: a), .up(id: 7, at: a)])
    }

    @Test func upThenDownOfTheSameIdInOneFrameKeepsBothInOrder() {
        var t = TouchFrameAssembler()
        t.down(id: 0, at: a, time: 1)
        t.down(id: 1, at: b, time: 1)
        _ = t.frame()
        _ = t.up(id: 0, time: 2)
        t.down(id: 0, at: c, time: 2)
        #expect(t.frame()?.changes == [.up(id: 0, at: a), .down(id: 0, at: c)])
    }

    @Test func motionForAnUnknownIdIsDroppedAndCounted() {
        var t = TouchFrameAssembler()
        t.motion(id: 5, to: a, time: 1)
        #expect(t.up(id: 5, time: 2) == nil)
        #expect(t.frame() == nil)
        #expect(t.droppedEvents == 2)
    }

    @Test func severalMotionsOfOneFingerInAFrameKeepTheLast() {
        var t = TouchFrameAssembler()
        t.down(id: 0, at: a, time: 1)
        _ = t.frame()
        t.motion(id: 0, to: b, time: 2)
        t.motion(id: 0, to: c, time: 3)
        #expect(t.frame() == TouchFrame(time: 3, changes: [.moved(id: 0, to: c)]))
    }

    @Test func aSecondDownForAnIdStillDownEndsTheOldPointFirst() {
        var t = TouchFrameAssembler()
        t.down(id: 0, at: a, time: 1)
        _ = t.frame()
        t.down(id: 0, at: b, time: 2)
        #expect(t.frame()?.changes == [.up(id: 0, at: a), .down(id: 0, at: b)])
        #expect(t.active == [0: b])
    }
}

@Suite struct PointerFrameAssemblyTests {
    @Test func buttonRightAfterEnterCarriesTheEnterPosition() {
        var p = PointerFrameAssembler()
        p.enter(at: Point(x: 5, y: 6), time: 1)
        p.button(.left, pressed: true, time: 1)
        let f = p.frame()
        #expect(f?.entered == Point(x: 5, y: 6))
        #expect(f?.buttons.first?.button == .left)
        #expect(p.position == Point(x: 5, y: 6))
    }

    @Test func wheelDetentAttachesToItsAxisValue() {
        var p = PointerFrameAssembler()
        p.axisSource(.wheel)
        p.axisDiscrete(.vertical, steps: 1)
        p.axis(.vertical, value: 15, time: 2)
        p.axis(.horizontal, value: 3, time: 2)
        let f = p.frame()
        #expect(f?.axisSource == .wheel)
        #expect(f?.axes == [AxisEvent(orientation: .vertical, value: 15, discrete: 1),
                            AxisEvent(orientation: .horizontal, value: 3, discrete: nil)])
    }

    @Test func emptyFramesAreNotDelivered() {
        var p = PointerFrameAssembler()
        #expect(p.frame() == nil)
        p.axisDiscrete(.vertical, steps: 1)   // a detent with no axis value is not an event
        #expect(p.frame() == nil)
    }

    @Test func leaveForgetsThePosition() {
        var p = PointerFrameAssembler()
        p.enter(at: Point(x: 1, y: 1), time: 1)
        _ = p.frame()
        p.leave(time: 2)
        #expect(p.frame()?.left == true)
        #expect(p.position == nil)
    }
}
