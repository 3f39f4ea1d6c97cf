import Input

/// The one entry point of the gesture layer: feed it every `InputFrame`, let it run its timers,
/// and the recognizers attached to the view tree report through their actions.
///
/// Time is whatever the frames and `advance(to:)` say it is (ms, the InputFrame clock): there are
/// no threads and no wall-clock timers, so a replayed trace behaves exactly like the live run.
/// The live loop polls with a timeout until `nextDeadline` and then calls `advance(to:)`;
/// headless replay calls `advance(to:)` with virtual time.
///
/// Touch frames and left-button mouse presses become `Touch`es; wheel, keyboard and touchpad
/// frames are not gestures here (the UI handles them) and only move the clock.
public final class GestureSystem {
    /// The root of the view tree; its frame is in window coordinates.
    public let root: GestureView
    /// The time of the last frame or timer, in ms.
    public private(set) var now: Double = 0

    /// Every touch that is down, in touch-down order.
    public private(set) var activeTouches: [Touch] = []
    /// Recognizers that track touches or remember something, deeper views first.
    var participants: [GestureRecognizer] = []
    /// Touches to hand to recognizers once the arena has reset them (see `offerLater`).
    var laterOffers: [(recognizer: GestureRecognizer, serial: UInt64)] = []

    private var nextSerial: UInt64 = 0
    /// Where the pointer is, or nil while it is outside the surface.
    var pointerPosition: Point?
    /// The touch standing for the held left button.
    var mouseSerial: UInt64?
    private var handling = false

    /// The arena trace: when set, every frame's requests, waits, wins and failures are handed
    /// to it as one line each ("412.5 mapTap waits for mapDoubleTap to fail"). Off (nil) it
    /// costs nothing: no line is built. `MERIDIAN_GESTURE_TRACE=1` or `--verbose` prints it.
    public var trace: ((String) -> Void)?
    /// Set while the arena makes a recognizer fail for a reason it has already traced.
    var arenaFailing = false

    public init(root: GestureView) {
        self.root = root
        activeTouches.reserveCapacity(16)
        participants.reserveCapacity(32)
        laterOffers.reserveCapacity(8)
    }

    /// The recognizers the arena is following now (for tests and debugging).
    public var activeRecognizers: [GestureRecognizer] { participants }

    /// Feeds one input frame. Timers due before the frame fire first.
    /// Not reentrant: a frame handed in from inside a gesture action is ignored.
    public func handle(_ frame: InputFrame) {
        guard !handling else { return }
        advance(to: frame.time)
        handling = true
        defer { handling = false }
        switch frame {
        case .touch(let f):
            for change in f.changes {
                switch change {
                case .down(let id, let p): touchDown(id: id, kind: .finger, at: p)
                case .moved(let id, let p): touchMoved(id: id, kind: .finger, to: p)
                case .up(let id, let p): touchUp(id: id, kind: .finger, at: p)
                }
            }
            endFrame()
        case .touchCancel:
            cancelEverything()
        case .pointer(let f):
            handlePointer(f)
            endFrame()
        case .key, .keyboardFocus, .touchpad, .textInput:
            break
        }
    }

    /// The earliest time at which a recognizer's timer or the arena's wait runs out, or nil.
    public var nextDeadline: Double? {
        var next: Double?
        for r in participants {
            if let d = r.deadline, next.map({ d < $0 }) ?? true { next = d }
            if let d = r.graceDeadline, next.map({ d < $0 }) ?? true { next = d }
        }
        return next
    }

    /// Lets time pass to `time`, firing every deadline up to and including it, in order.
    /// Time never goes backwards: an earlier `time` is ignored.
    public func advance(to time: Double) {
        guard !handling else { return }
        handling = true
        defer { handling = false }
        while let d = nextDeadline, d <= time {
            now = max(now, d)
            for r in participants {
                if let g = r.graceDeadline, g <= d { r.graceDeadline = nil }
                if let rd = r.deadline, rd <= d {
                    r.deadline = nil
                    r.timerFired(time: now)
                }
            }
            settle()
        }
        now = max(now, time)
    }

    /// One line of the arena trace, built only when tracing.
    func note(_ line: @autoclosure () -> String) {
        guard let trace else { return }
        trace("\(now) \(line())")
    }

    // MARK: Touches

    func touchDown(id: Int32, kind: TouchKind, at p: Point) {
        if let old = activeTouches.first(where: { $0.id == id && $0.kind == kind }) {
            // A second down for an id that never went up: end the old touch where it was first,
            // so no id is ever owned twice.
            touchUp(id: id, kind: kind, at: old.location)
        }
        nextSerial += 1
        let touch = Touch(serial: nextSerial, id: id, kind: kind, location: p, time: now)
        activeTouches.append(touch)
        guard let hit = root.hitTest(windowPoint: p) else { return }
        var v: GestureView? = hit
        while let view = v {
            for r in view.gestureRecognizers { offer(touch, to: r, hitView: hit) }
            v = view.parent
        }
    }

    /// Gives a new touch to a recognizer on its hit chain, if it wants it.
    private func offer(_ touch: Touch, to r: GestureRecognizer, hitView: GestureView?) {
        guard r.isEnabled, r.view != nil, r.allowedTouchKinds.contains(touch.kind) else { return }
        if r.pending == .ended || r.state.isTerminal {
            // Recognized (or waiting for another to fail before it is) with an earlier touch:
            // this touch may start its next gesture once the arena has reset it. One that failed
            // or was cancelled this frame does not get it: it lost these fingers.
            if r.pending == .ended || r.state == .ended { offerLater(touch, to: r) }
            return
        }
        guard r.accepts(touch), r.shouldReceive?(r, touch) ?? true else { return }
        addParticipant(r)
        if r.touches.isEmpty && r.seenSerials.isEmpty { r.startView = hitView }
        r.touches.append(touch)
        r.seenSerials.append(touch.serial)
        r.touchBegan(touch, time: now)
    }

    func touchMoved(id: Int32, kind: TouchKind, to p: Point) {
        guard let i = activeTouches.firstIndex(where: { $0.id == id && $0.kind == kind }) else { return }
        activeTouches[i].location = p
        activeTouches[i].time = now
        let serial = activeTouches[i].serial
        for r in participants {
            guard let j = r.touches.index(ofSerial: serial) else { continue }
            r.touches[j].location = p
            r.touches[j].time = now
            r.touchMoved(r.touches[j], time: now)
        }
    }

    func touchUp(id: Int32, kind: TouchKind, at p: Point) {
        guard let i = activeTouches.firstIndex(where: { $0.id == id && $0.kind == kind }) else { return }
        var touch = activeTouches.remove(at: i)
        touch.location = p
        touch.time = now
        for r in participants {
            guard let j = r.touches.index(ofSerial: touch.serial) else { continue }
            r.touches.remove(at: j)
            r.lastLocation = p
            r.touchEnded(touch, time: now)
        }
    }

    func touchCancelled(serial: UInt64) {
        guard let i = activeTouches.firstIndex(where: { $0.serial == serial }) else { return }
        let touch = activeTouches.remove(at: i)
        for r in participants {
            guard let j = r.touches.index(ofSerial: serial) else { continue }
            r.touches.remove(at: j)
            r.lastLocation = touch.location
            r.touchCancelled(touch, time: now)
        }
    }

    // MARK: Whole-system events

    /// `wl_touch.cancel`: every running gesture is cancelled, every recognizer reset, every
    /// touch id forgotten (the compositor may reuse them). The held mouse button is forgotten too:
    /// a recognizer may have been tracking it together with fingers.
    public func cancelEverything() {
        let wasHandling = handling
        handling = true
        defer { handling = wasHandling }
        for r in participants where !r.state.isTerminal {
            if let observer = r as? ObserverGestureRecognizer {
                for t in observer.touches { observer.touchCancelled(t, time: now) }
            } else if r.state.isActive {
                r.setState(.cancelled)
            } else {
                r.pending = nil
                r.graceDeadline = nil
                r.setState(.failed)
            }
        }
        for r in participants { r.reset() }
        participants.removeAll(keepingCapacity: true)
        laterOffers.removeAll(keepingCapacity: true)
        activeTouches.removeAll(keepingCapacity: true)
        mouseSerial = nil
    }

    private func endFrame() {
        decideHeldBack()
        for r in participants where r.state == .possible || r.state.isActive {
            r.frameEnded(time: now)
        }
        settle()
    }

    private func addParticipant(_ r: GestureRecognizer) {
        guard !participants.contains(where: { $0 === r }) else { return }
        r.system = self
        r.depth = r.view?.depth ?? 0
        // Deeper views first, then in arrival order: the deeper view decides first.
        var i = participants.count
        while i > 0 && participants[i - 1].depth < r.depth { i -= 1 }
        participants.insert(r, at: i)
    }

    /// Whether a running gesture that may not run with `r` has `touch`: then `r` must not get it.
    private func isOwned(_ touch: Touch, against r: GestureRecognizer) -> Bool {
        for s in participants where s.state.isActive && !s.isObserver
            && s.touches.contains(where: { $0.serial == touch.serial }) && !canRecognizeSimultaneously(r, s) {
            return true
        }
        return false
    }

    /// Runs the hand-over of touches kept for reset recognizers.
    func deliverLaterOffers() -> Bool {
        guard !laterOffers.isEmpty else { return false }
        var delivered = false
        var k = 0
        while k < laterOffers.count {
            let (r, serial) = laterOffers[k]
            k += 1
            guard r.state == .possible, r.pending == nil, r.touches.isEmpty,
                  let touch = activeTouches.first(where: { $0.serial == serial }),
                  let view = r.view, let hit = root.hitTest(windowPoint: touch.startLocation),
                  view.isAncestor(of: hit), !isOwned(touch, against: r) else { continue }
            offer(touch, to: r, hitView: hit)
            if r.touches.contains(where: { $0.serial == serial }) {
                r.frameEnded(time: now)
                delivered = true
            }
        }
        laterOffers.removeAll(keepingCapacity: true)
        return delivered
    }
}
