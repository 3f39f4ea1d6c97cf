import CWaylandClient
import Glibc

/// A C listener table at a stable heap address for the life of the program: libwayland
/// keeps the pointer, so the table must never move (swift-interop.md P6).
final class ListenerTable<T>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<T>

    init(_ value: T) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: value)
    }
}

/// Recovers the Swift owner passed as a listener's `data` pointer.
@inline(__always)
func owner<T: AnyObject>(_ data: UnsafeMutableRawPointer?, as: T.Type) -> T? {
    guard let data else { return nil }
    return Unmanaged<T>.fromOpaque(data).takeUnretainedValue()
}

@inline(__always)
func opaque(_ object: AnyObject) -> UnsafeMutableRawPointer {
    Unmanaged.passUnretained(object).toOpaque()
}

/// Something went wrong talking to the compositor. The description is the one line the
/// program prints before it exits with status 1.
public struct WaylandError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Milliseconds on CLOCK_MONOTONIC, the clock all of Meridian's input and timers use live.
public func monotonicMilliseconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1_000_000
}

/// Maps the compositor's 32-bit millisecond event times onto our monotonic clock. Most
/// compositors already use CLOCK_MONOTONIC; when one does not (or the value wraps), the offset
/// is re-learned so that input never appears to come from the future or the distant past.
///
/// A compositor on CLOCK_MONOTONIC (wlroots, weston, libinput's times) differs from us by whole
/// wraps of 2^32 ms: that offset is taken as soon as an event fits it, read up to 200 ms late.
/// Otherwise each event says `now - raw` = the offset plus how late we read it, so the offset
/// is the smallest of those seen. (Learning it from the first event alone kept that event's
/// delay for good: when the app was busy as the first touch came in, every later event was
/// clamped to the moment it was read, and a double tap read in two bursts became taps 0.1 ms
/// long 10 ms apart, which the double-tap recognizer refused.)
struct EventClock {
    private var offset: Double?

    mutating func time(fromCompositor ms: UInt32, now: Double = monotonicMilliseconds()) -> Double {
        let raw = Double(ms)
        if let offset, raw + offset > now - 1000 {
            let smallest = min(offset, now - raw)
            self.offset = smallest
            return raw + smallest
        }
        if let t = EventClock.monotonic(ms, now: now) {
            offset = t - raw
            return t
        }
        offset = now - raw
        return now
    }

    /// The compositor's 32-bit ms time on our clock when it counts CLOCK_MONOTONIC (it then
    /// differs from ours by whole wraps of 2^32 ms and lies at most 200 ms back); nil otherwise.
    static func monotonic(_ ms: UInt32, now: Double = monotonicMilliseconds()) -> Double? {
        let raw = Double(ms)
        let wrap = 4_294_967_296.0
        let wraps = ((now - raw) / wrap).rounded() * wrap
        guard raw + wraps <= now, raw + wraps > now - 200 else { return nil }
        return raw + wraps
    }
}

func fixedToDouble(_ f: wl_fixed_t) -> Double { wl_fixed_to_double(f) }

/// Writes one line to standard error (stderr itself is not concurrency-safe to name in Swift 6).
public func printError(_ message: String) {
    let line = message + "\n"
    let bytes = Array(line.utf8)
    var written = 0
    while written < bytes.count {
        let n = bytes.withUnsafeBytes { buf -> Int in
            guard let base = buf.baseAddress else { return -1 }
            return write(2, base + written, buf.count - written)
        }
        if n <= 0 { break }
        written += n
    }
}
