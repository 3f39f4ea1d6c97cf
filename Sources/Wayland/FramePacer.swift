/// When to draw, from presentation feedback: the display's refresh period and phase, and a
/// running estimate of how long a frame takes to draw. A frame that is wanted starts as late as
/// is safe before the vblank it can still make, so the newest input is folded into it; no two
/// commits aim at one vblank; and nothing waits for a frame callback that comes late.
///
/// Without `wp_presentation` (or with `MERIDIAN_FRAME_PACING=callbacks`) the phase comes from
/// the frame callbacks' answers instead (`frameCallbackDone`). Without a learned phase (no frame
/// shown yet, no refresh known) `decide` is nil and the loop paces on frame callbacks alone.
/// Times are monotonic milliseconds.
struct FramePacer {
    /// The refresh period, from the feedback's `refresh` (else the spacing of presentations,
    /// else the output's mode).
    private(set) var period: Double?
    /// The latest vblank seen: the presentation time of the newest presented frame.
    private(set) var vblank: Double?
    /// How long before a vblank a commit must reach the compositor to be shown at it. Grows
    /// when a frame lands a vblank later than it aimed at, shrinks back slowly when frames land.
    private(set) var margin = FramePacer.minimumMargin
    /// The vblank the newest commit aims at.
    private(set) var lastTarget: Double?
    /// The vblank the frame being waited for aims at.
    private var planned: Double?
    /// When the drawing of the newest commit began (nil: not known).
    private var lastDrawStart: Double?
    /// The vblank a second commit was drawn for, replacing the one queued for it (at most one).
    private var replacedTarget: Double?
    /// The most recent drawing times (ms), newest last.
    private var draws: [Double] = []
    /// Arrival times of the most recent input frames, newest last.
    private var inputs: [Double] = []
    /// When the most recent frame callbacks were answered (callback pacing), and the time the
    /// compositor gave each for its frame when that is on our clock; newest last.
    private var answers: [(arrival: Double, stamp: Double?)] = []

    static let minimumMargin = 1.0
    /// The margin a replacement for a queued commit needs (`replacementTarget`): less than
    /// `minimumMargin`, since a replacement that misses its vblank costs nothing (it is shown
    /// at the next one, as the frame drawn after that vblank would have been).
    static let replacementMargin = 0.25
    static let maximumMargin = 4.0
    static let drawWindow = 32
    static let answerWindow = 16
    /// The least time, as a fraction of the period, between a folding frame's start and its vblank.
    static let foldSlack = 0.5

    /// Drawing time to budget: the 85th percentile of the last 32 frames, so that an ordinary
    /// slow frame still makes its vblank while a rare cold one (tiles missing) does not move
    /// every later frame earlier.
    var drawEstimate: Double {
        guard !draws.isEmpty else { return 2 }
        let sorted = draws.sorted()
        let e = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.85))]
        return min(max(e, 0.25), (period ?? 16.7) * 0.75)
    }

    var isActive: Bool { period != nil && vblank != nil }

    /// A frame took `duration` ms from the start of drawing to its commit.
    mutating func drew(duration: Double) {
        guard duration.isFinite, duration >= 0 else { return }
        draws.append(min(duration, 1000))
        if draws.count > FramePacer.drawWindow { draws.removeFirst(draws.count - FramePacer.drawWindow) }
    }

    /// An input frame arrived at `time`.
    mutating func input(at time: Double) {
        inputs.append(time)
        if inputs.count > 9 { inputs.removeFirst(inputs.count - 9) }
    }

    /// Whether input comes faster than the display refreshes, so that a frame started late
    /// shows more of it. When it does not, starting late gains nothing (the frame makes the
    /// same vblank drawn at once) and risks missing it, so frames start at once.
    func foldsInput(now: Double) -> Bool {
        guard let p = period, let gap = inputGap(now: now) else { return false }
        return gap < p * 0.9
    }

    /// The median gap of the recent input frames, nil when fewer than three came or the newest
    /// is over 100 ms old (input that stopped a while ago, an animation running on, says nothing).
    func inputGap(now: Double) -> Double? {
        guard inputs.count >= 3, let newest = inputs.last, now - newest < 100 else { return nil }
        let gaps = zip(inputs.dropFirst(), inputs).map { $0 - $1 }.sorted()
        return gaps[gaps.count / 2]
    }

    /// When the next input frame is due, if the input that is waiting to be drawn arrived
    /// before the latest vblank (so it waited behind a queued commit) and a finger is moving
    /// about once a refresh or faster (median gap of the recent frames under 1.5 periods), and
    /// that time is still to come. Nil otherwise.
    func nextInputExpected(now: Double) -> Double? {
        guard let p = period, let v = vblank, let newest = inputs.last, newest < v,
              let gap = inputGap(now: now), gap < p * 1.5 else { return nil }
        return touchDue(now: now)
    }

    /// The output's mode, used for the period until presentation feedback says better.
    mutating func outputRefresh(milliHertz: Int32) {
        guard period == nil, milliHertz >= 1000, milliHertz <= 1_000_000 else { return }
        period = 1_000_000 / Double(milliHertz)
    }

    /// A frame committed aiming at `target` was shown at `time`; `refresh` is the period the
    /// compositor reports, if any.
    mutating func presented(at time: Double, refresh: Double?, target: Double?) {
        if let refresh {
            period = refresh
        } else if let last = vblank, let p = period, time > last {
            // Unknown refresh: keep the period that best divides the spacing we saw.
            let n = max(1, ((time - last) / p).rounded())
            period = p + ((time - last) / n - p) / 8
        }
        if let vblank, time < vblank { return }   // out of order: keep the newer phase
        vblank = time
        guard let target, let p = period else { return }
        // The newest commit is on screen (perhaps a vblank sooner than aimed: drawn at once, it
        // was ready in time): nothing is queued any more, so the next frame need not wait for
        // the vblank it aimed at.
        if target == lastTarget { lastTarget = time }
        if time > target + p / 2 {
            margin = min(margin + 0.5, FramePacer.maximumMargin)   // we were late for it
        } else {
            margin = max(margin - 0.05, FramePacer.minimumMargin)
        }
    }

    /// Frame-callback pacing (no `wp_presentation`, or `MERIDIAN_FRAME_PACING=callbacks`): the
    /// frame callback of a commit aiming at `target` was answered at `time`, for the frame the
    /// compositor timed at `stamp` (its whole-ms time on our clock, nil when on another clock);
    /// `refresh` is the output mode's period, if it has one. Compositors answer frame callbacks when they
    /// composite (the test compositor and wlroots at the output's frame, weston when it starts a
    /// repaint): the instant a commit has to beat, which is what the pacer needs of a vblank.
    /// Fed only these, the pacer times frames as with presentation feedback, a little later by
    /// the answer's delivery (which the margin absorbs). Before, callback pacing drew whenever a
    /// callback came, right after the vblank, and a touch frame that arrived while that commit
    /// was queued waited for the next callback: with touch about once a refresh, every touch frame
    /// a refresh late (docs/LATENCY.md, "The 60 Hz lock" and "Callback pacing unlocked").
    mutating func frameCallbackDone(at time: Double, stamp: Double? = nil, refresh: Double?, target: Double?) {
        answers.append((time, stamp))
        if answers.count > FramePacer.answerWindow { answers.removeFirst(answers.count - FramePacer.answerWindow) }
        var instant = time
        if let p = refresh ?? period {
            // `x` moved by whole periods to the grid line nearest `reference`.
            func onGrid(_ x: Double, near reference: Double) -> Double {
                x - ((x - reference) / p).rounded() * p
            }
            // An answer comes once the compositor has composited, a varying few ms after the
            // instant it latched at (1.5-6 ms under the test compositor at 1920x1200): of the
            // recent answers put on the period's grid, the earliest is the closest to it.
            instant = answers.map { onGrid($0.arrival, near: time) }.min() ?? time
            // The compositor's own time for the frame (wlroots: the vblank's, weston: the latest
            // presentation's) is that instant in whole ms, truncated: each says it lies in
            // [stamp, stamp + 1) on the grid, and at a period that is no whole number of ms the
            // stamps together pin it to a fraction of a ms. Stamps that do not agree (a
            // compositor that stamps something else) are not used.
            if let newest = stamp {
                let stamps = answers.compactMap(\.stamp)
                let low = stamps.map { onGrid($0, near: newest) }.max() ?? newest
                let high = stamps.map { onGrid($0 + 1, near: newest + 1) }.min() ?? newest + 1
                if low <= high {
                    // The vblank is the grid line at or before the answers (they come after it).
                    var stamped = onGrid((low + high) / 2, near: instant)
                    if stamped > instant + 0.5 { stamped -= p }
                    instant = stamped
                }
            }
        }
        presented(at: instant, refresh: refresh, target: target)
    }

    /// The first vblank at or after `t`.
    func nextVblank(atOrAfter t: Double) -> Double? {
        guard let p = period, let v = vblank else { return nil }
        let n = ((t - v) / p).rounded(.up)
        return v + n * p
    }

    /// The typical (median) drawing time of the recent frames.
    var typicalDraw: Double {
        guard !draws.isEmpty else { return 2 }
        return draws.sorted()[draws.count / 2]
    }

    /// The vblank a frame started at `now` would aim at: the first one a typical frame can still
    /// make, and never one a commit already aims at. (Reachability by the typical time, the start
    /// by the slow one: on a starved machine, whose slow frames take most of a refresh, aiming
    /// by the slow time would push every frame a whole refresh later than drawing at once.)
    func target(startingAt now: Double) -> Double? {
        guard let p = period, var v = nextVblank(atOrAfter: now + typicalDraw + FramePacer.minimumMargin) else { return nil }
        if let last = lastTarget, v < last + p / 2 { v = last + p }
        return v
    }

    /// What the loop should do about a frame that is wanted.
    enum Decision: Equatable {
        /// Draw now, aiming at this vblank.
        case draw(target: Double)
        /// Look again at this time (draw then, unless something newer came first).
        case wait(until: Double)
    }

    /// When the next touch frame of a finger on the screen is due (the newest input plus the
    /// recent frames' median gap), if that is still to come; nil without a recent steady
    /// input (fewer than three frames, or the newest over 100 ms old).
    func touchDue(now: Double) -> Double? {
        guard let gap = inputGap(now: now), let newest = inputs.last else { return nil }
        let next = newest + gap
        return next > now ? next : nil
    }

    /// A frame is wanted at `now`: draw it now, or wait until it is as late as is safe. Nil
    /// when the phase is not known (pace on frame callbacks instead).
    ///
    /// `holdsForTouch`: the frame shows no new input (tiles landing, labels fading) while a
    /// finger is on the screen. Drawn now, it would take the vblank the finger's next touch
    /// frame could make, and that touch frame, arriving while it draws, would wait a whole
    /// refresh behind it (at 120 Hz with 60 Hz touch, most of the frames over the p99 goal:
    /// docs/LATENCY.md, "Frames without input held for the touch"). So when that touch frame
    /// is due before the latest safe start for this vblank, the frame waits for it (the touch
    /// frame, drawn at once, shows both), at the latest until that start.
    mutating func decide(now: Double, holdsForTouch: Bool = false) -> Decision? {
        if planned == nil || now > (planned ?? 0) - drawEstimate / 2 {
            planned = target(startingAt: now)
        }
        guard let v = planned else { return nil }
        // Never later than half a refresh before the vblank: on a loaded machine a wake-up or a
        // frame is often a few ms late, and starting at the budget alone (drawing time + 1–4 ms)
        // missed 14–72 of ~140 refreshes a gesture where callback pacing, which starts right
        // after the vblank, missed 0–18 (docs/LATENCY.md, "Faster input than the display").
        let late = v - max(drawEstimate + margin, period.map { $0 * FramePacer.foldSlack } ?? 0)
        let start: Double
        if foldsInput(now: now) {
            start = late
        } else if let last = lastTarget, now < last {
            // A commit for an earlier vblank is still to be shown: drawing now would replace
            // it (two commits for one refresh). Wait until it is on screen.
            start = min(late, last + 1)
        } else if let next = nextInputExpected(now: now), next <= v - (typicalDraw + margin) {
            // The input this frame shows arrived before the latest vblank: it waited behind a
            // commit queued for that vblank. A finger moving about once a refresh will send its
            // next touch frame before this refresh's vblank, and drawing now would show that a
            // refresh late, and the frame after it, and every one after (each touch frame
            // finding a commit queued: the lock of docs/LATENCY.md, "The 60 Hz lock", 25 ms
            // instead of 10 at 60 Hz). Wait for that touch frame (it wakes the loop, and being
            // newer than the vblank it is drawn at once), at the latest until a typical frame
            // can just make the vblank (as `target` reckons reachability: by the slow frames'
            // budget, a touch frame arriving in the last 5-7 ms of a refresh stayed locked);
            // the touch frame after it finds nothing queued and is drawn at once too.
            start = v - (typicalDraw + margin)
        } else if holdsForTouch, let due = touchDue(now: now), due < v - (drawEstimate + margin) {
            start = min(due + 0.5, v - (drawEstimate + margin))
        } else {
            // Starting late would show nothing more: draw at once, for the vblank it makes.
            start = now
        }
        // The loop's poll sleeps whole milliseconds: within one of the start is on time.
        guard now < start - 1 else { return .draw(target: v) }
        return .wait(until: start)
    }

    /// The vblank to draw a frame for at once, replacing the commit queued for it, or nil. A
    /// commit is queued for a vblank still to come, input arrived after its drawing began (so it
    /// does not show it), input is known to come no faster than the display refreshes (each of
    /// the last three gaps at least 0.9 period; faster input is folded instead; at a gesture's
    /// first frames the rate is not known yet), and a
    /// typical frame started now (+ `replacementMargin`) still makes that vblank. The compositor
    /// then shows the newer commit and discards the queued one (and one that does not make it
    /// is shown at the next vblank, as the frame drawn after that vblank would have been: so the
    /// margin is smaller than a planned frame's; with the full 1 ms, touch at the display's rate
    /// arriving 1-2 ms before each vblank found the commit before it queued there, gesture after
    /// gesture, and was shown a refresh late throughout, 18-20 ms under the test compositor at
    /// 60 Hz, docs/LATENCY.md "Replacing a queued commit closer to its vblank"). Without this the input waited
    /// for that vblank and was drawn for the next: at 120 Hz, touch arriving just after an
    /// animation's frame (labels fading, tiles landing) was committed waited 6-10 ms and was
    /// shown a refresh late, the frames that set the p99 (docs/LATENCY.md, "The 120 Hz tail").
    /// At most one replacement a vblank.
    func replacementTarget(now: Double) -> Double? {
        guard let last = lastTarget, now < last, last != replacedTarget, let newest = inputs.last,
              let drawn = lastDrawStart, newest > drawn, let p = period, inputGap(now: now) != nil, inputs.count >= 4,
              // Each of the last three gaps (a median would still be a pause's at a fast gesture's
              // start, and a late read of a 240 Hz panel makes one long gap).
              zip(inputs.suffix(3), inputs.suffix(4)).allSatisfy({ $0 - $1 >= p * 0.9 }),
              now + typicalDraw + FramePacer.replacementMargin <= last else { return nil }
        return last
    }

    /// No frame is wanted any more: forget the plan.
    mutating func cancelPlan() { planned = nil }

    /// A frame whose drawing began at `drawStart` (nil: not known) was committed aiming at `target`.
    mutating func committed(target: Double?, drawnFrom drawStart: Double? = nil) {
        if let target, target == lastTarget { replacedTarget = target }
        lastTarget = target
        lastDrawStart = drawStart
        planned = nil
    }
}
