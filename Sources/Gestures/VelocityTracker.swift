import Input

/// Estimates a finger's velocity by a least-squares line through its recent positions.
///
/// Only samples within `GestureConstants.velocityHorizon` ms of the newest count, and only
/// those after the last pause (a gap of more than `velocityRestTime` ms between two samples:
/// a finger that stopped, waited and moved on flings only with what came after the wait). The
/// velocity is zero when the newest sample is older than `velocityRestTime` ms: a finger that
/// stopped before lifting must not fling. Storage is a fixed ring, so adding samples never
/// allocates. Velocities are in px per **second** (like UIKit), positions in px, times in ms.
public struct VelocityTracker: Sendable {
    private var times: [Double]
    private var xs: [Double]
    private var ys: [Double]
    private var next = 0
    private var count = 0

    public init(capacity: Int = GestureConstants.velocitySampleCount) {
        let n = max(capacity, 2)
        times = Array(repeating: 0, count: n)
        xs = Array(repeating: 0, count: n)
        ys = Array(repeating: 0, count: n)
    }

    /// Records where the finger was at `time` (ms). A sample at the same time replaces the last.
    public mutating func add(_ p: Point, at time: Double) {
        let n = times.count
        if count > 0 {
            let last = (next + n - 1) % n
            if times[last] == time {
                xs[last] = p.x
                ys[last] = p.y
                return
            }
        }
        times[next] = time
        xs[next] = p.x
        ys[next] = p.y
        next = (next + 1) % n
        count = min(count + 1, n)
    }

    public mutating func reset() {
        next = 0
        count = 0
    }

    /// The velocity in px/s as of `time` (ms): the slope of the best straight line through the
    /// samples of the last `velocityHorizon` ms, or zero after a rest or with fewer than two samples.
    public func velocity(at time: Double) -> Point {
        guard count >= 2 else { return .zero }
        let n = times.count
        let newest = (next + n - 1) % n
        let tNewest = times[newest]
        guard time - tNewest <= GestureConstants.velocityRestTime else { return .zero }
        // Means over the samples inside the horizon, measured from the newest sample for precision.
        var used = 0
        var st = 0.0, sx = 0.0, sy = 0.0
        var newer = tNewest
        for k in 0..<count {
            let i = (newest + n - k) % n
            let t = times[i] - tNewest
            guard -t <= GestureConstants.velocityHorizon, newer - times[i] <= GestureConstants.velocityRestTime else { break }
            newer = times[i]
            st += t
            sx += xs[i]
            sy += ys[i]
            used += 1
        }
        guard used >= 2 else { return .zero }
        let mt = st / Double(used), mx = sx / Double(used), my = sy / Double(used)
        var stt = 0.0, stx = 0.0, sty = 0.0
        for k in 0..<used {
            let i = (newest + n - k) % n
            let dt = times[i] - tNewest - mt
            stt += dt * dt
            stx += dt * (xs[i] - mx)
            sty += dt * (ys[i] - my)
        }
        guard stt > 0 else { return .zero }
        return Point(x: stx / stt * 1000, y: sty / stt * 1000)
    }
}
