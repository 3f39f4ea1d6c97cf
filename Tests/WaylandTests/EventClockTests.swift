import Testing
@testable import Wayland

/// The compositor's event times on our clock: intervals between events are the compositor's,
/// whenever we happened to read them.
@Suite struct EventClockTests {
    /// A first touch read 150 ms late (the app was busy), its lift read at once, then a second
    /// tap read late in one burst: the second tap keeps its 40 ms and the 76 ms before it (with
    /// the offset learned from the first event, it lasted 5 ms and came 189 ms later).
    @Test func aLateFirstEventDoesNotSquashTheIntervalsAfterIt() {
        var clock = EventClock()
        // The compositor's clock is ours minus 5000 ms; events at 10 000, 10 040 (a tap), 10 116
        // and 10 156 (another), read at 15 150 (late), 15 041 (at once), 15 230 and 15 235.
        let down1 = clock.time(fromCompositor: 10_000, now: 15_150)
        let up1 = clock.time(fromCompositor: 10_040, now: 15_041)
        let down2 = clock.time(fromCompositor: 10_116, now: 15_230)
        let up2 = clock.time(fromCompositor: 10_156, now: 15_235)
        #expect(up2 - down2 == 40, "the second tap lasts 40 ms, not \(up2 - down2)")
        #expect(down2 - up1 == 76, "76 ms between the taps, not \(down2 - up1)")
        #expect(down1 == 15_150, "the first event, read late, is placed when it was read")
        #expect(up2 <= 15_235, "never in the future")
    }

    /// A compositor counting CLOCK_MONOTONIC milliseconds, as we do (mod 2^32): its times are
    /// ours exactly, however late the first event is read.
    @Test func aMonotonicCompositorsTimesAreTakenAsTheyAre() {
        var clock = EventClock()
        let base = 3 * 4_294_967_296.0   // our clock has wrapped the compositor's 32 bits three times
        #expect(clock.time(fromCompositor: 70_000, now: base + 70_150.5) == base + 70_000)
        #expect(clock.time(fromCompositor: 70_040, now: base + 70_151) == base + 70_040)
    }

    @Test func noEventIsEverLaterThanItWasRead() {
        var clock = EventClock()
        var now = 1_000.0
        for raw in stride(from: UInt32(100), to: 2_000, by: 7) {
            now += Double(raw % 13)
            #expect(clock.time(fromCompositor: raw, now: now) <= now)
        }
    }

    /// A compositor clock that jumps back (a wrap, another base) is re-learned at once.
    @Test func aClockThatJumpsBackIsRelearned() {
        var clock = EventClock()
        _ = clock.time(fromCompositor: 4_000_000_000, now: 50_000)
        #expect(clock.time(fromCompositor: 10, now: 50_016) == 50_016)
        #expect(clock.time(fromCompositor: 26, now: 50_040) == 50_032)
    }
}
