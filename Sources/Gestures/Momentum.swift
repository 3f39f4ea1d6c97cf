import Input
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The glide after a fling: speed decays exponentially, v(t) = v0·e^(−t/τ), until it falls to
/// `GestureConstants.minimumFlingVelocity`.
///
/// Everything is a closed-form function of elapsed time, never integrated frame by frame, so the
/// content is in the same place at the same time whether frames come at 60 Hz, 120 Hz or
/// irregularly. Velocities in px/s, times in ms, offsets in px.
public struct Momentum: Sendable, Equatable {
    /// The velocity at release, after clamping to `maximumFlingVelocity`.
    public let initialVelocity: Point
    /// ms (the InputFrame clock) of the release.
    public let startTime: Double
    /// τ in ms.
    public let timeConstant: Double
    /// ms from release until the glide stops.
    public let duration: Double

    /// A glide for a release at `velocity`, or nil when it is too slow to fling.
    public init?(velocity: Point, at time: Double,
                 timeConstant: Double = GestureConstants.momentumTimeConstant,
                 minimumVelocity: Double = GestureConstants.minimumFlingVelocity,
                 maximumVelocity: Double = GestureConstants.maximumFlingVelocity) {
        let speed = velocity.length
        guard speed.isFinite, speed >= minimumVelocity, speed > 0, timeConstant > 0 else { return nil }
        let capped = min(speed, maximumVelocity)
        initialVelocity = velocity * (capped / speed)
        startTime = time
        self.timeConstant = timeConstant
        duration = timeConstant * log(capped / max(minimumVelocity, 1e-9))
    }

    public var endTime: Double { startTime + duration }

    /// Displacement from the release position at `time` (ms); constant after `endTime`.
    public func offset(at time: Double) -> Point {
        let t = min(max(time - startTime, 0), duration)
        let travelled = timeConstant / 1000 * (1 - exp(-t / timeConstant))
        return initialVelocity * travelled
    }

    /// The total displacement of the glide.
    public var totalOffset: Point { offset(at: endTime) }

    /// The velocity at `time` in px/s; zero once the glide has stopped.
    public func velocity(at time: Double) -> Point {
        let t = time - startTime
        guard t < duration else { return .zero }
        return initialVelocity * exp(-max(t, 0) / timeConstant)
    }

    public func isFinished(at time: Double) -> Bool { time >= endTime }
}
