/// Every threshold the gesture layer uses, in logical px and milliseconds, each with the reason
/// for its value. Recognizers copy these as their defaults; change a recognizer's property to
/// tune one instance, change the number here to tune Meridian.
///
/// Sources are named in shared/reference/gestures.md, section 2 (the thresholds table).
/// "Checked against" names the real touchscreen recordings in data/recordings (public evemu
/// recordings, SOURCES.md there) that Tests/AppTests/RealRecordingTests replays with the value.
public enum GestureConstants {
    // MARK: Movement

    /// px a finger may move and still be a tap; the distance a pan must travel before it
    /// begins. One number for both, so every movement is either a tap or a drag, never both and
    /// never neither. Between Android's 8 dp (Flutter raised its 8 to 18 "after complaints that it
    /// was too difficult to hit targets") and Flutter's 18 (sticky when scrolling). The slop is
    /// taken off the first scroll delta, so a larger value delays, never jumps.
    /// Checked against: atmel-maxtouch-fast-taps (nine taps, none moves at all: all taps),
    /// atmel-maxtouch-1-finger-drag, ep0430m09-1-finger-drag, elan-cando-1-finger-drag (the
    /// page follows the finger exactly once past the slop).
    public static let touchSlop: Double = 12

    /// px the mouse may move with the button held and still click, and the distance a mouse
    /// drag travels before it begins. A mouse does not wobble like a fingertip: Flutter uses 2
    /// for a precise pointer's pan slop (kPrecisePointerPanSlop) against 18 for touch. With the
    /// touch slop a mouse drag feels stuck, and a drag of a few px clicks instead of panning.
    public static let mouseSlop: Double = 2

    /// px each finger of a two-finger tap may move: people's two-finger taps settle more than
    /// one finger does (the second finger rolls as it lands), about 2.5–3 mm in recordings,
    /// more than `touchSlop`. The tap also fails once the fingers' spread changes by more than
    /// `scaleSlop`, so a quick pinch is never a two-finger tap. The map's two-finger pan needs
    /// the same distance, so settling fingers stay a tap. Checked against:
    /// atmel-maxtouch-2-finger-tap (the fingers settle 12.9 and 13.1 px: with the 12 px slop
    /// the pan took them and nothing happened; with 20 it is a two-finger tap),
    /// ep0430m09-2-finger-tap (2.2–2.4 px), isdv4-e6-2fg-tap and -2fg-double-tap,
    /// dell-canvas-2-finger-tap, bamboo-16fg-double-tap, intuos5-touch-m-double-tap (all
    /// two-finger taps), and the 2- and 4-finger drags (still drags).
    public static let twoFingerTapSlop: Double = 20
    /// ms a two-finger tap may last, from the first finger landing to the last lifting. The
    /// longest real two-finger tap in data/recordings takes 824 ms (atmel-maxtouch-2-finger-tap;
    /// ep0430m09-2-finger-tap 528 ms, dell-canvas-2-finger-tap 362 ms, the others under 110 ms),
    /// while ntrig-2-finger-hold rests two fingers for 2994 ms: that is a hold, not a tap.
    public static let twoFingerTapMaximumDuration: Double = 1000

    /// px the centroid distance ("span") of two fingers must change before a pinch begins;
    /// Flutter's kScaleSlop is 18 lp. A pinch smaller than this is a two-finger pan.
    /// Checked against: ep0430m09-2-finger-drag (a two-finger drag: no zoom), the 4-finger
    /// drags (their fingers land apart and change the spread: the zoom moves 0.006–0.017 of a
    /// level while the place under the fingers stays under them).
    public static let scaleSlop: Double = 18

    /// Degrees two fingers must twist, net since the second one landed, before the map starts
    /// to turn; `rotationMinimumArc` must be passed too. A pinch or a two-finger pan wobbles the
    /// line between the fingers by a few degrees (a finger drifting 10 px sideways on a 200 px
    /// pinch is 3°), and users of rotating maps complain most about a map that turns when they
    /// only meant to zoom; 12° is four times that wobble and still a small, deliberate twist.
    /// The twist before the threshold is not applied (MapLibre GL JS drops it too), so the map
    /// does not jump when it starts turning. UIKit and Google publish no value.
    public static let rotationThreshold: Double = 12

    /// px the fingers must travel along their circle (twist angle × their mean distance from
    /// the centroid) before a rotation begins. MapLibre GL JS's rotate handler uses 25 px along
    /// the circumference; it makes fingers held close together, whose angle is noisy, twist
    /// further (29° at 100 px apart) while wide fingers need only `rotationThreshold`.
    public static let rotationMinimumArc: Double = 25

    /// px per mm of the window that the millimetre figures below assume: the default 800×1280
    /// window filling a 10.1-inch tablet (WXGA at 149 ppi is 5.9 px/mm; Android's dp, 1/160 in,
    /// is 6.3). The real recordings are replayed at this size where a threshold is about the
    /// size of a finger's slide (`--px-per-mm 6` of scripts/evemu-to-trace.py).
    public static let pixelsPerMillimetre: Double = 6

    /// px the second press of a double tap must travel up or down before it is a drag-zoom
    /// (double-tap-and-drag), and how far that press may slide and still be the second tap of a
    /// double tap: about 6.7 mm at `pixelsPerMillimetre`. A slow double tap's second press
    /// slides: in dth2242-slow-double-tap it slides 5.3 mm (32 px at 6 px/mm, far past
    /// `touchSlop`) and the person meant a double tap; with the touch slop as the limit it became
    /// a drag-zoom of 0.2 levels instead of +1. A deliberate drag-zoom travels centimetres
    /// (one level per 100 px), so 40 px costs it nothing: it starts where the finger is then and
    /// does not jump. A press that slides 40 px sideways first is neither (the page cannot
    /// scroll sideways). The first tap keeps `touchSlop`: a first press that slides is a scroll.
    /// Checked against: dth2242-slow-double-tap (a double tap: +1, once), ep0430m09 and atmel
    /// fast taps (double taps, unchanged).
    public static let quickZoomSlop: Double = 40

    /// px a finger may move before a long press fires (UIKit's allowableMovement is 10 pt).
    public static let longPressAllowableMovement: Double = 10

    // MARK: Multi-tap

    /// ms from one tap's lift to the next tap's touch-down for them to be a double tap.
    /// Flutter and Android use 300 (first up → second down); GTK and Qt's 400 is for mice.
    /// The single tap that has to wait for a double tap to fail waits exactly this long.
    /// Checked against: atmel-maxtouch-fast-taps (lifts to next touch-downs 98–150 ms: nine
    /// fast taps are four double taps and a tap, none lost), isdv4-e6-double-tap-center (140 ms:
    /// a double tap), dth2242-slow-double-tap (52 ms between presses of 364 and 354 ms).
    public static let doubleTapTimeout: Double = 300

    /// ms under which a second touch-down after a lift is touchscreen chatter, not a second tap
    /// (Flutter's kDoubleTapMinTime and Android's DOUBLE_TAP_MIN_TIME, flutter#28749).
    public static let doubleTapMinTime: Double = 40

    /// px between the first and second tap's touch-down for them to be a double tap; Flutter's
    /// kDoubleTapSlop and Android's DOUBLE_TAP_SLOP are 100. Enforced for touch and mouse alike
    /// (GTK4 checks it only for mice, so two distant taps zoom there).
    public static let doubleTapMaxDistance: Double = 100

    // MARK: Press

    /// ms before a press becomes a long press (UIKit 0.5 s, Flutter and GTK 500 ms).
    public static let longPressDuration: Double = 500

    // MARK: Arbitration

    /// ms a one-finger gesture waits for a second finger while a gesture that needs more
    /// fingers shares its touch. Fingers of a two-finger pinch land up to ~100 ms apart; without
    /// the wait the page scroll claims the first finger and the map never sees a pinch
    /// (flutter#133247). MapLibre's ALLOWED_SINGLE_TOUCH_TIME is also 100 ms.
    /// Checked against: fingers of one gesture land 0–83 ms apart in the recordings
    /// (ep0430m09-2-finger-drag 7.5 ms, atmel-maxtouch-2-finger-tap 55 ms,
    /// atmel-maxtouch-4-finger-drag 28, 0 and 83 ms).
    public static let secondFingerGraceWindow: Double = 100

    // MARK: Velocity

    /// ms of history the velocity fit uses (Flutter's VelocityTracker horizon).
    public static let velocityHorizon: Double = 100

    /// ms without motion before lift after which the velocity is zero: the finger stopped, so
    /// a stale flick must not fling (Flutter's _assumePointerMoveStoppedMilliseconds).
    public static let velocityRestTime: Double = 40

    /// Samples kept for the velocity fit (Flutter keeps 20); at 120 Hz that is 166 ms.
    public static let velocitySampleCount = 20

    // MARK: Momentum

    /// px/s below which a lift does not fling, and at which momentum stops (Android and
    /// Flutter's minimum fling velocity is 50).
    public static let minimumFlingVelocity: Double = 50

    /// px/s cap on a fling (Android and Flutter: 8000), so one wild sample cannot throw the page.
    public static let maximumFlingVelocity: Double = 8000

    /// ms of the exponential decay of a fling's speed: v(t) = v0·e^(−t/τ). UIScrollView's
    /// normal deceleration rate keeps 0.998 of the speed per ms, τ = −1/ln 0.998 ≈ 500 ms.
    public static let momentumTimeConstant: Double = 500
}
