import CWaylandClient
import CWaylandShims
import CProtocols
import Glibc

/// `wp_presentation`: one feedback per commit says when that frame reached the screen (or that
/// it never did), with the display's refresh period. The times drive `FramePacer` and the
/// latency probe. Timestamps on another clock (weston nested in a Wayland session uses
/// CLOCK_MONOTONIC_RAW) are moved onto CLOCK_MONOTONIC by reading both clocks as the feedback
/// arrives; a clock we cannot read makes the times unknown.
final class Presentation {
    let proxy: OpaquePointer
    /// The compositor's presentation clock (`wp_presentation.clock_id`).
    private(set) var clock = UInt32(CLOCK_MONOTONIC)
    private var inFlight: [UInt64: FeedbackRequest] = [:]
    private var nextSequence: UInt64 = 1
    /// Commit `sequence` was shown at `time` (monotonic ms); `refresh` is the period in ms, or
    /// nil when the compositor does not know it.
    var onPresented: ((_ sequence: UInt64, _ time: Double, _ refresh: Double?) -> Void)?
    /// Commit `sequence` was never shown (replaced by a newer one before the display took it,
    /// or the window was hidden).
    var onDiscarded: ((_ sequence: UInt64) -> Void)?

    init(proxy: OpaquePointer) {
        self.proxy = proxy
        wp_presentation_add_listener(proxy, Presentation.listener.pointer, opaque(self))
    }

    /// Asks for feedback on the next commit of `surface`; returns that commit's sequence number.
    func request(for surface: OpaquePointer) -> UInt64? {
        guard let fb = wp_presentation_feedback(proxy, surface) else { return nil }
        let sequence = nextSequence
        nextSequence += 1
        let r = FeedbackRequest(proxy: fb, sequence: sequence, owner: self)
        inFlight[sequence] = r
        wp_presentation_feedback_add_listener(fb, FeedbackRequest.listener.pointer, opaque(r))
        return sequence
    }

    /// Whether the feedback for commit `sequence` is still to come.
    func isPending(_ sequence: UInt64) -> Bool { inFlight[sequence] != nil }

    fileprivate func finished(_ r: FeedbackRequest, presentedAt time: Double?, refresh: Double?) {
        wp_presentation_feedback_destroy(r.proxy)
        inFlight.removeValue(forKey: r.sequence)
        if let time, let t = onOurClock(time) {
            onPresented?(r.sequence, t, refresh)
        } else {
            onDiscarded?(r.sequence)
        }
    }

    /// `time` (ms on the compositor's clock) on CLOCK_MONOTONIC, or nil.
    private func onOurClock(_ time: Double) -> Double? {
        guard clock != UInt32(CLOCK_MONOTONIC) else { return time }
        guard clock < 64 else { return nil }   // not a clock id Linux has
        var theirs = timespec(), ours = timespec()
        guard clock_gettime(clockid_t(Int32(clock)), &theirs) == 0, clock_gettime(CLOCK_MONOTONIC, &ours) == 0 else { return nil }
        let offset = (Double(ours.tv_sec) - Double(theirs.tv_sec)) * 1000 + Double(ours.tv_nsec - theirs.tv_nsec) / 1_000_000
        return time + offset
    }

    func destroy() {
        for r in inFlight.values { wp_presentation_feedback_destroy(r.proxy) }
        inFlight.removeAll()
        wp_presentation_destroy(proxy)
    }

    static let listener = ListenerTable(wp_presentation_listener(
        clock_id: { data, _, clock in owner(data, as: Presentation.self)?.clock = clock }
    ))
}

/// One outstanding `wp_presentation_feedback`.
private final class FeedbackRequest {
    let proxy: OpaquePointer
    let sequence: UInt64
    unowned let presentation: Presentation

    init(proxy: OpaquePointer, sequence: UInt64, owner: Presentation) {
        self.proxy = proxy
        self.sequence = sequence
        self.presentation = owner
    }

    static let listener = ListenerTable(wp_presentation_feedback_listener(
        sync_output: { _, _, _ in },
        presented: { data, _, secHi, secLo, nsec, refresh, _, _, _ in
            guard let r = owner(data, as: FeedbackRequest.self) else { return }
            let seconds = Double(UInt64(secHi) << 32 | UInt64(secLo))
            let time = seconds * 1000 + Double(min(nsec, 999_999_999)) / 1_000_000
            // 0 = unknown; anything outside 1…1000 Hz is nonsense from the compositor.
            let period = Double(refresh) / 1_000_000
            r.presentation.finished(r, presentedAt: time, refresh: (1...1000).contains(period) ? period : nil)
        },
        discarded: { data, _ in
            guard let r = owner(data, as: FeedbackRequest.self) else { return }
            r.presentation.finished(r, presentedAt: nil, refresh: nil)
        }
    ))
}
