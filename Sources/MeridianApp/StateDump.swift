/// The state dump (contracts.md section 3). Until the page and map land it reports the
/// window, the placeholder page, the input that arrived and the markers shown.
enum StateDump {
    static func json(scene: Scene, scale: Double) -> String {
        let touches = scene.touches.sorted { $0.key < $1.key }.map { id, p in
            JSON.object([("id", .int(Int(id))), ("x", .number(p.x)), ("y", .number(p.y))])
        }
        let c = scene.counts
        let root = JSON.object([
            ("version", .int(1)),
            ("window", .object([("width", .number(scene.width)), ("height", .number(scene.height)), ("scale", .number(scale))])),
            ("page", .object([("scrollY", .number(0)), ("contentHeight", .number(scene.height))])),
            ("touches", .array(touches)),
            ("pointer", scene.pointer.map { .object([("x", .number($0.x)), ("y", .number($0.y))]) } ?? .null),
            ("input", .object([
                ("touchFrames", .int(c.touchFrames)), ("touchDowns", .int(c.touchDowns)), ("touchUps", .int(c.touchUps)),
                ("touchCancels", .int(c.touchCancels)), ("pointerFrames", .int(c.pointerFrames)),
                ("buttonPresses", .int(c.buttonPresses)), ("axisEvents", .int(c.axisEvents)),
                ("keyPresses", .int(c.keyPresses)), ("keyRepeats", .int(c.keyRepeats)), ("touchpadEvents", .int(c.touchpadEvents)),
            ])),
            ("log", .array([])),
        ])
        return root.text + "\n"
    }
}
