import CWaylandClient
import CWaylandShims

/// The globals Meridian binds, with the highest version whose events our listener tables
/// handle. We always bind `min(advertised, implemented)`: binding higher would let the
/// compositor send events past the end of our listener structs.
enum GlobalKind: String, CaseIterable {
    case compositor = "wl_compositor"
    case shm = "wl_shm"
    case seat = "wl_seat"
    case output = "wl_output"
    case wmBase = "xdg_wm_base"
    case decorationManager = "zxdg_decoration_manager_v1"
    case viewporter = "wp_viewporter"
    case fractionalScaleManager = "wp_fractional_scale_manager_v1"
    case pointerGestures = "zwp_pointer_gestures_v1"
    case presentation = "wp_presentation"
    case textInputManager = "zwp_text_input_manager_v3"
    /// Touch events' times to the nanosecond (the test compositor; weston, as finely as its own
    /// input gives them); wl_touch's own are whole ms.
    case inputTimestamps = "zwp_input_timestamps_manager_v1"

    /// The highest version we implement. Reasons for the caps:
    /// - wl_compositor 4: damage_buffer; v6 preferred_buffer_scale needs libwayland ≥ 1.22 headers (Debian 12 has 1.21).
    /// - wl_seat 8: axis_value120 is in our wl_pointer listener; v9's axis_relative_direction is not (1.21 headers).
    /// - wl_output 4: name and description events.
    /// - xdg_wm_base 6: v5 adds wm_capabilities (in our listener), v6 only adds the `suspended` state, which we honour.
    /// - zwp_pointer_gestures_v1 3: hold gestures.
    var implementedVersion: UInt32 {
        switch self {
        case .compositor: return 4
        case .shm: return 1
        case .seat: return 8
        case .output: return 4
        case .wmBase: return 6
        case .decorationManager, .viewporter, .fractionalScaleManager, .presentation, .textInputManager, .inputTimestamps: return 1
        case .pointerGestures: return 3
        }
    }

    /// Meridian cannot run without these.
    var isRequired: Bool { self == .compositor || self == .shm || self == .wmBase }

    var interface: UnsafePointer<wl_interface> {
        switch self {
        case .compositor: return meridian_wl_compositor_interface()
        case .shm: return meridian_wl_shm_interface()
        case .seat: return meridian_wl_seat_interface()
        case .output: return meridian_wl_output_interface()
        case .wmBase: return meridian_xdg_wm_base_interface()
        case .decorationManager: return meridian_zxdg_decoration_manager_v1_interface()
        case .viewporter: return meridian_wp_viewporter_interface()
        case .fractionalScaleManager: return meridian_wp_fractional_scale_manager_v1_interface()
        case .pointerGestures: return meridian_zwp_pointer_gestures_v1_interface()
        case .presentation: return meridian_wp_presentation_interface()
        case .textInputManager: return meridian_zwp_text_input_manager_v3_interface()
        case .inputTimestamps: return meridian_zwp_input_timestamps_manager_v1_interface()
        }
    }
}

/// One bound global: its registry name, the version we bound and the proxy.
struct BoundGlobal {
    var name: UInt32
    var version: UInt32
    var proxy: OpaquePointer
}
