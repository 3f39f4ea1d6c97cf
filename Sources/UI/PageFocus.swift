/// Keyboard focus: which target Tab has reached, and whether the ring shows (only once the
/// keyboard is in use: a tap sets the focus quietly, a touch hides the ring). The order of
/// stops is the page's (`MeridianPage.focusOrder`), given on each move.
struct PageFocus {
    private(set) var current: TargetID?
    var visible = false

    /// Tab (or Shift+Tab): the next (previous) stop, wrapping; from nothing, the first (last).
    mutating func move(in order: [TargetID], backwards: Bool) {
        visible = true
        guard !order.isEmpty else { return }
        let n = order.count
        if let c = current, let i = order.firstIndex(of: c) {
            current = order[(i + (backwards ? n - 1 : 1)) % n]
        } else {
            current = backwards ? order[n - 1] : order[0]
        }
    }

    /// Focus on `id` quietly (nil: nothing has focus).
    mutating func set(_ id: TargetID?) { current = id }
}
