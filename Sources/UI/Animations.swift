import Geo
import Gestures

/// Ease-out cubic: fast start, gentle landing.
func easeOut(_ t: Double) -> Double {
    let u = 1 - min(max(t, 0), 1)
    return 1 - u * u * u
}

/// A camera moving from one state to another over a fixed time: zoom around a fixed screen
/// point, and/or the centre gliding to a new place.
struct CameraAnimation {
    var start: MapCamera
    var startTime: Double
    var duration: Double
    var targetZoom: Double
    /// The map point (view coordinates) that stays fixed while zooming.
    var focus: ScreenPoint
    /// Where the centre should end up, when the animation moves the map too.
    var targetCenter: WorldPoint?
    /// The bearing to end at, turning about `focus` the short way round (nil: keep it).
    var targetBearing: Double?

    func camera(at time: Double) -> MapCamera {
        let k = easeOut((time - startTime) / duration)
        var c = start
        if let target = targetCenter {
            // Go the short way round the antimeridian.
            var dx = target.x - start.center.x
            if dx > 128 { dx -= 256 } else if dx < -128 { dx += 256 }
            c.center = WorldPoint(x: start.center.x + dx * k, y: start.center.y + (target.y - start.center.y) * k)
        }
        if let target = targetBearing {
            var turn = (target - start.bearing).truncatingRemainder(dividingBy: 360)
            if turn > 180 { turn -= 360 } else if turn < -180 { turn += 360 }
            // Exactly the target at the end, not a rounding error away from it.
            c.setBearing(k >= 1 ? target : start.bearing + turn * k, around: focus)
        }
        c.setZoom(start.zoom + (targetZoom - start.zoom) * k, around: focus)
        return c
    }

    func isFinished(at time: Double) -> Bool { time >= startTime + duration }
}

/// The page's vertical motion after a finger lets go: a glide that stops at the ends of the
/// content with a short bounce, or a spring back from an overscroll.
enum ScrollMotion {
    case glide(Momentum, from: Double)
    /// From `from` to `to`, easing out, over `duration` ms starting at `startTime`.
    case spring(from: Double, to: Double, startTime: Double, duration: Double)

    /// The scroll offset at `time`, and whether the motion is over.
    func position(at time: Double) -> (y: Double, finished: Bool) {
        switch self {
        case .glide(let m, let from):
            return (from + m.offset(at: time).y, m.isFinished(at: time))
        case .spring(let from, let to, let start, let duration):
            let k = easeOut((time - start) / duration)
            return (from + (to - from) * k, time >= start + duration)
        }
    }
}
