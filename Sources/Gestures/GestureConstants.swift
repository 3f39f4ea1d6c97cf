/// Every threshold the gesture layer uses, in logical px and milliseconds, each with the reason
/// for its value. Recognizers copy these as their defaults; change a recognizer's property to
/// tune one instance, change the number here to tune Meridian.
///
/// Sources are named in shared/reference/gestures.md, section 2 (the thresholds table).
public enum GestureConstants {
    // MARK: Movement

    /// px a finger may move and still be a tap; the distance a pan must travel before it
    /// begins. One number for both, so every movement is either a tap or a drag, never both and
    /// never neither. Between Android's 8 dp (Flutter raised its 8 to 18 "after complaints that it
    /// was too difficult to hit targets") and Flutter's 18 (sticky when scrolling). The slop is
    /// taken off the first scroll delta, so a larger value delays, never jumps.
    public static let touchSlop: Double = 12

    /// px the mouse may move with the button held and still click, and the distance a mouse
    /// drag travels before it begins. A mouse does not wobble like a fingertip: Flutter uses 2
    /// for a precise pointer's pan slop (kPrecisePointerPanSlop) against 18 for touch. With the
    /// touch slop a mouse drag feels stuck, and a drag of a few px clicks instead of panning.
    public static let mouseSlop: Double = 2

    /// px each finger of a two-finger tap may move: people's two-finger taps settle more than
    /// one finger does (the second finger rolls as it lands), about 2.5–3 mm in recordings,
    /// more than `touchSlop`. The tap also fails once the fingers' spread changes by more than
    /// `scaleSlop`, so a quick pinch is never a two-finger tap.
    public static let twoFingerTapSlop: Double = 20

    /// px the centroid distance ("span") of two fingers must change before a pinch begins;
    /// Flutter's kScaleSlop is 18 lp. A pinch smaller than this is a two-finger pan.
    public static let scaleSlop: Double = 18

    /// px a finger may move before a long press fires (UIKit's allowableMovement is 10 pt).
    public static let longPressAllowableMovement: Double = 10

    // MARK: Multi-tap

    /// ms from one tap's lift to the next tap's touch-down for them to be a double tap.
    /// Flutter and Android use 300 (first up → second down); GTK and Qt's 400 is for mice.
    /// The single tap that has to wait for a double tap to fail waits exactly this long.
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
