import CWaylandClient

/// A `wl_output`: we only need its integer scale (the fallback when fractional scaling is not
/// offered) and to notice when it goes away.
final class Output {
    let globalName: UInt32
    let version: UInt32
    let proxy: OpaquePointer
    private(set) var scale: Int32 = 1
    private var pendingScale: Int32 = 1
    var onChange: (() -> Void)?

    init(globalName: UInt32, version: UInt32, proxy: OpaquePointer) {
        self.globalName = globalName
        self.version = version
        self.proxy = proxy
        wl_output_add_listener(proxy, Output.listener.pointer, opaque(self))
    }

    func destroy() {
        if version >= 3 { wl_output_release(proxy) } else { wl_output_destroy(proxy) }
    }

    static let listener = ListenerTable(wl_output_listener(
        geometry: { _, _, _, _, _, _, _, _, _, _ in },
        mode: { _, _, _, _, _, _ in },
        done: { data, _ in
            guard let o = owner(data, as: Output.self) else { return }
            if o.scale != o.pendingScale {
                o.scale = o.pendingScale
                o.onChange?()
            }
        },
        scale: { data, _, factor in
            guard let o = owner(data, as: Output.self) else { return }
            // A compositor sending 0 or a negative scale is broken; treat it as 1 rather than divide by it.
            o.pendingScale = max(1, min(factor, 16))
            if o.version < 2 { o.scale = o.pendingScale }
        },
        name: { _, _, _ in },
        description: { _, _, _ in }
    ))
}
