import Testing
@testable import Wayland

/// `zwp_input_timestamps_v1` stamps: the fraction of a millisecond they add to a touch event's
/// whole-ms time, only when the stamp is that event's, and nothing from a damaged one.
@Suite struct PreciseTimeTests {
    @Test func aStampAddsItsFractionToTheEventsWholeMilliseconds() throws {
        // 12345.678901234 s: whole ms 12345678, 0.901234 ms over.
        let stamp = PreciseTime.Stamp(secondsHigh: 0, secondsLow: 12345, nanoseconds: 678_901_234)
        #expect(stamp.wholeMilliseconds == 12_345_678)
        let t = try #require(PreciseTime.refine(500.0, raw: 12_345_678, stamp: stamp))
        #expect(abs(t - 500.901234) < 1e-9)
    }

    @Test func aStampForAnotherEventOrDamagedIsNotUsed() {
        let stamp = PreciseTime.Stamp(secondsHigh: 0, secondsLow: 12345, nanoseconds: 678_901_234)
        #expect(PreciseTime.refine(500, raw: 12_345_679, stamp: stamp) == nil, "another event's ms")
        // Nanoseconds past a whole second, and seconds whose ms overflow 64 bits.
        #expect(PreciseTime.refine(500, raw: 12_345_678, stamp: PreciseTime.Stamp(secondsHigh: 0, secondsLow: 12345, nanoseconds: 1_000_000_000)) == nil)
        #expect(PreciseTime.refine(500, raw: 0, stamp: PreciseTime.Stamp(secondsHigh: .max, secondsLow: .max, nanoseconds: 0)) == nil)
        // The last whole second whose ms fit in 64 bits, plus 999 ms that do not.
        let last: UInt64 = UInt64.max / 1000
        #expect(PreciseTime.Stamp(secondsHigh: UInt32(last >> 32), secondsLow: UInt32(truncatingIfNeeded: last), nanoseconds: 999_999_999)
            .wholeMilliseconds == nil)
    }

    /// wl_touch's ms are 32 bits and wrap after 49.7 days; the stamp's seconds do not.
    @Test func theEventsMillisecondsAreTheStampsCutTo32Bits() throws {
        // 5,000,000 s (57.9 days): 5e9 ms, past 2^32.
        let stamp = PreciseTime.Stamp(secondsHigh: 0, secondsLow: 5_000_000, nanoseconds: 250_000)
        let raw = UInt32(truncatingIfNeeded: UInt64(5_000_000_000))
        let t = try #require(PreciseTime.refine(7.0, raw: raw, stamp: stamp))
        #expect(abs(t - 7.25) < 1e-9)
    }
}
