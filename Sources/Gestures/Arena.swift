/// The arena: who gets a touch when several recognizers want it.
///
/// The rules, and the code below reads like them:
/// 1. Every recognizer on the touched view and its ancestors receives the touch, deeper views
///    first. Recognizers only *ask* to begin (continuous) or to be recognized (discrete).
/// 2. A request is refused — the recognizer fails — when `shouldBegin` says no, when a
///    recognizer it requires to fail has begun or been recognized, or when a gesture that is
///    already running shares one of its touches (down now or lifted since the request's
///    recognizer last reset) and they may not run together. Once a gesture
///    has begun it keeps its touches: nobody takes them over (no flip-flop).
/// 3. A request is held back while a recognizer it requires to fail is still undecided, and
///    while it is an ancestor's gesture and a gesture on a deeper view that shares its touch
///    needs more fingers, for at most `secondFingerGraceWindow` ms after its first touch
///    (a one-finger page scroll waits for the second finger of a map pinch). If that deeper
///    gesture gets its fingers in time, the waiting one fails: the deeper one won the race.
/// 4. When a request goes through, every other recognizer that shares a touch with it and may
///    not run with it fails, and so does every recognizer that required it to fail.
///    Observers neither make others fail nor are made to fail.
/// 5. Two recognizers may run together when either names the other in
///    `recognizeSimultaneously(with:)` or either's `shouldRecognizeSimultaneously` says yes.
/// 6. At the end of every frame and timer, recognizers in a terminal state are reset to
///    `possible` and forget their touches; touches still down are not handed back to them,
///    except that a recognizer that recognized (or was waiting to) gets a touch that landed
///    meanwhile, if no running gesture owns it: a new tap may start with it.
extension GestureSystem {
    /// A recognizer asks to leave `possible` for `target` (`.began` or `.ended`).
    func request(_ r: GestureRecognizer, _ target: GestureState) {
        r.pending = target
        note("\(r) asks to \(target == .began ? "begin" : "be recognized")")
        _ = decide(r)
    }

    /// Refuses `r`'s request, saying why in the trace.
    private func refuse(_ r: GestureRecognizer, _ reason: @autoclosure () -> String) {
        note("\(r) fails: \(reason())")
        arenaFailing = true
        r.fail()
        arenaFailing = false
    }

    /// Decides a held-back request: commits it, refuses it, or keeps holding it.
    /// Returns true when the recognizer's state changed.
    func decide(_ r: GestureRecognizer) -> Bool {
        guard let target = r.pending, r.state == .possible else { return false }
        if let winner = r.requiredToFail.first(where: { $0.state.isActive || $0.state == .ended }) {
            refuse(r, "\(winner), which it requires to fail, \(winner.state == .ended ? "was recognized" : "began")")
            return true
        }
        if !r.isObserver {
            // Lifted touches count too: a tap recognized at its lift is still refused when a
            // running pinch had its finger (no tap in the middle of a pinch).
            for s in participants where s !== r && s.state.isActive && !s.isObserver
                && sharesAnyTouch(r, s) && !canRecognizeSimultaneously(r, s) {
                refuse(r, "\(s) is running with its touch")
                return true
            }
        }
        if let undecided = r.requiredToFail.first(where: { $0.state == .possible && !$0.isIdle }) {
            note("\(r) waits for \(undecided) to fail")
            return false
        }
        if target == .began {
            switch secondFingerWait(for: r) {
            case .wait(let until):
                if r.graceDeadline != until { note("\(r) waits until \(until) for \(r.waitingFor.map { "\($0)" } ?? "?") to get its fingers") }
                r.graceDeadline = until
                return false
            case .yield:
                refuse(r, "\(r.waitingFor.map { "\($0)" } ?? "?") got its fingers in time")
                return true
            case .go:
                break
            }
        }
        // Asked once, at the moment it would really leave `possible` (as UIKit does).
        if let shouldBegin = r.shouldBegin, !shouldBegin(r) {
            refuse(r, "its shouldBegin said no")
            return true
        }
        commit(r, target)
        return true
    }

    /// What the second-finger grace window says about `r` beginning now.
    private enum SecondFingerWait {
        /// Hold back until this time: a deeper gesture on the same finger needs more fingers.
        case wait(until: Double)
        /// The deeper gesture it waited for got its fingers in time: it takes the touches.
        case yield
        case go
    }

    private func secondFingerWait(for r: GestureRecognizer) -> SecondFingerWait {
        guard !r.isObserver, !r.waivesGrace, let first = r.firstTouchTime, let rView = r.view else { return .go }
        let until = first + GestureConstants.secondFingerGraceWindow
        guard now < until else { return .go }
        func competes(_ s: GestureRecognizer) -> Bool {
            guard s !== r, s.state == .possible, !s.isObserver, let sView = s.view, sView !== rView,
                  rView.isAncestor(of: sView) else { return false }
            return sharesCurrentTouch(r, s) && !canRecognizeSimultaneously(r, s)
        }
        if let waited = r.waitingFor, competes(waited), !waited.wantsMoreTouches { return .yield }
        for s in participants where s.wantsMoreTouches && competes(s) {
            r.waitingFor = s
            return .wait(until: until)
        }
        return .go
    }

    private func commit(_ r: GestureRecognizer, _ target: GestureState) {
        r.pending = nil
        r.graceDeadline = nil
        note("\(r) wins: \(target == .began ? "begins" : "is recognized")")
        r.setState(target)
        for s in participants where s !== r && s.state == .possible {
            if s.requiredToFail.contains(where: { $0 === r }) {
                refuse(s, "it requires \(r) to fail")
            } else if !r.isObserver && !s.isObserver && sharesAnyTouch(r, s) && !canRecognizeSimultaneously(r, s) {
                refuse(s, "lost its touch to \(r)")
            }
        }
    }

    /// `r` failed: recognizers held back waiting for exactly that decide at once, before anyone
    /// else in the frame gets to claim their touches.
    func recognizerFailed(_ r: GestureRecognizer) {
        for s in participants where s.pending != nil && s.requiredToFail.contains(where: { $0 === r }) {
            _ = decide(s)
        }
    }

    /// Decides every held-back request until nothing changes.
    func decideHeldBack() {
        var changed = true
        while changed {
            changed = false
            for r in participants where r.pending != nil {
                if decide(r) { changed = true }
            }
        }
    }

    /// Whether a multi-tap gesture sharing a touch with `r` is between or inside its taps:
    /// no long press may fire then (a held second tap is the start of a double-tap-drag).
    func isTapChainInProgress(sharingTouchWith r: GestureRecognizer) -> Bool {
        for s in participants where s !== r && s.state == .possible && s.isInTapChain && sharesCurrentTouch(r, s) {
            return true
        }
        return false
    }

    /// Decides held-back requests until nothing changes, resets finished recognizers, hands
    /// kept touches to them, and forgets idle ones.
    func settle() {
        var rounds = 0
        repeat {
            rounds += 1
            decideHeldBack()
            for r in participants where r.state.isTerminal { r.reset() }
        } while deliverLaterOffers() && rounds < 4
        participants.removeAll { $0.isIdle }
    }

    /// `r` asked to hear about `touch` again after its reset (it restarts with it).
    func offerLater(_ touch: Touch, to r: GestureRecognizer) {
        guard !laterOffers.contains(where: { $0.recognizer === r && $0.serial == touch.serial }) else { return }
        laterOffers.append((r, touch.serial))
    }

    /// A recognizer was disabled or removed from its view: it stops at once.
    func abandon(_ r: GestureRecognizer) {
        guard participants.contains(where: { $0 === r }) else { return }
        if r.state.isActive {
            r.setState(.cancelled)
        } else if r.state == .possible {
            r.pending = nil
            r.graceDeadline = nil
            r.setState(.failed)
        }
        r.reset()
        participants.removeAll { $0 === r }
        laterOffers.removeAll { $0.recognizer === r }
    }

    func canRecognizeSimultaneously(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        if a.isObserver || b.isObserver { return true }
        if a.simultaneousPartners.contains(where: { $0 === b }) { return true }
        if b.simultaneousPartners.contains(where: { $0 === a }) { return true }
        if let f = a.shouldRecognizeSimultaneously, f(a, b) { return true }
        if let f = b.shouldRecognizeSimultaneously, f(b, a) { return true }
        return false
    }

    /// Both track a touch that is down now.
    private func sharesCurrentTouch(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        for t in a.touches where b.touches.contains(where: { $0.serial == t.serial }) { return true }
        return false
    }

    /// Both have tracked the same touch since their last reset (it may have lifted already).
    private func sharesAnyTouch(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        for s in a.seenSerials where b.seenSerials.contains(s) { return true }
        return false
    }
}
