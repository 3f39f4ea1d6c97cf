import Gestures
import UI

/// The state dump (contracts.md section 3): the page, the map, pins, targets and the log, plus
/// what arrived (`input`), the fingers down (`touches`) and the pointer.
enum StateDump {
    static func rect(_ r: Rect) -> JSON {
        .object([("x", .number(r.minX)), ("y", .number(r.minY)), ("width", .number(r.size.width)), ("height", .number(r.size.height))])
    }

    /// The open places file (contracts.md §3.1), as it is in memory: `dirty` when edits are
    /// not on disk yet.
    static func document(_ session: DocumentSession) -> JSON {
        let d = session.document
        let places: [JSON] = d.places.map { p in
            .object([("id", .string(p.id.rawValue)), ("name", .string(p.name)),
                     ("lat", .number(p.coordinate.latitude)), ("lon", .number(p.coordinate.longitude))])
        }
        return .object([("path", .string(d.path)), ("name", .string(d.name)), ("dirty", .bool(d.isDirty)),
                        ("readOnly", .bool(d.isReadOnly)), ("places", .array(places)),
                        ("notices", .array(d.notices.map { .string($0) }))])
    }

    /// The name field with the keyboard, beyond contracts.md: which place, its text, the caret
    /// (characters) and an input method's pre-edit; null when no field has focus.
    static func editing(_ page: MeridianPage) -> JSON {
        guard let f = page.editing.field else { return .null }
        return .object([("place", .string(f.placeID)), ("text", .string(f.state.text)), ("cursor", .int(f.state.cursor)),
                        ("preedit", .string(f.state.preedit))])
    }

    /// The page's log and the document's, in time order; at equal times the page's entry (the
    /// gesture) comes before the document's (what it did to the file).
    static func mergedLog(_ page: [LogEntry], _ document: [LogEntry]) -> [LogEntry] {
        var out: [LogEntry] = []
        out.reserveCapacity(page.count + document.count)
        var i = 0, j = 0
        while i < page.count || j < document.count {
            if j == document.count || (i < page.count && page[i].time <= document[j].time) {
                out.append(page[i]); i += 1
            } else {
                out.append(document[j]); j += 1
            }
        }
        return out
    }

    /// `map.labels` (contracts.md §3.1): the labels drawn now, in window px. Beside the contract's
    /// fields, `collision` (what each keeps others out of), for text along a line `glyphs`, and
    /// `icon` (image, box, collision) for a label with a sprite icon.
    static func labels(_ core: AppCore, _ s: PageSnapshot) -> [JSON] {
        guard let map = core.renderer.map else { return [] }
        let ox = s.mapFrame.minX, oy = s.mapFrame.minY
        func box(_ b: (x: Double, y: Double, width: Double, height: Double)) -> JSON {
            .object([("x", .number(b.x + ox)), ("y", .number(b.y + oy)), ("width", .number(b.width)), ("height", .number(b.height))])
        }
        // Headless runs draw no frames before the dump: they report what a settled frame shows.
        let labels = core.renderer.synchronousTiles ? map.settledLabels(for: core.page.camera) : map.labels(for: core.page.camera)
        return labels.map { l in
            var members: [(String, JSON)] = [("text", .string(l.text)), ("layer", .string(l.layer)),
                     ("anchor", .object([("x", .number(l.anchor.x + ox)), ("y", .number(l.anchor.y + oy))])),
                     ("angle", .number(l.angle)), ("box", box(l.box)), ("collision", .array(l.collisionBoxes.map(box))),
                     ("glyphs", .array(l.glyphs.map { g in
                         .object([("x", .number(g.x + ox)), ("y", .number(g.y + oy)), ("angle", .number(g.angle))])
                     }))]
            // Additive: the sprite icon drawn with the label; `alone` when its text is not drawn.
            if let icon = l.icon {
                members.append(("icon", .object([("image", .string(icon.image)), ("box", box(icon.box)),
                                                 ("collision", box(icon.collisionBox)), ("alone", .bool(icon.alone))])))
            }
            return .object(members)
        }
    }

    static func json(_ core: AppCore) -> String {
        let s = core.page.snapshot
        let o = core.overlay
        let pins: [JSON] = s.pins.map { p in
            .object([("id", .string(p.id)), ("lat", .number(p.coordinate?.latitude ?? .nan)),
                     ("lon", .number(p.coordinate?.longitude ?? .nan)), ("frame", rect(p.frame)), ("hitFrame", rect(p.hitFrame)),
                     ("selected", .bool(s.selectedPin == p.id))])
        }
        let targets: [JSON] = s.targets.map { t in
            .object([("id", .string(t.id)), ("frame", rect(t.frame)), ("hitFrame", rect(t.hitFrame))])
        }
        let log: [JSON] = mergedLog(core.earlierLog + s.log, core.session?.log ?? []).map { e in
            var fields: [(String, JSON)] = [("t", .number(e.time)), ("kind", .string(e.kind))]
            for (k, v) in e.fields {
                switch v {
                case .number(let d): fields.append((k, .number(d)))
                case .text(let t): fields.append((k, .string(t)))
                }
            }
            return .object(fields)
        }
        let c = o.counts
        let root = JSON.object([
            ("version", .int(1)),
            ("window", .object([("width", .number(core.page.layout.windowWidth)), ("height", .number(core.page.layout.windowHeight)),
                                ("scale", .number(core.scale))])),
            ("page", .object([("scrollY", .number(s.scrollY)), ("contentHeight", .number(s.contentHeight)),
                              ("exactScrollY", .number(s.exactScrollY))])),
            ("map", .object([
                ("frame", rect(s.mapFrame)),
                ("center", .object([("lat", .number(s.center.latitude)), ("lon", .number(s.center.longitude))])),
                ("zoom", .number(s.zoom)),
                ("span", .object([("latDelta", .number(s.span.latitudeDelta)), ("lonDelta", .number(s.span.longitudeDelta))])),
                ("hintVisible", .bool(s.hintVisible)),
                ("observedTaps", .int(s.observedMapTaps)),
                ("errors", .array(core.tileFailures.map { f in
                    .object([("source", .string(f.source)), ("tile", .string(f.tile.description)), ("message", .string(f.message))])
                })),
                ("style", core.mapData.map { d in
                    .object([(d.style.schema == nil ? "path" : "name", .string(d.style.name)),
                             ("schema", d.style.schema.map { .string($0) } ?? .null)])
                } ?? .null),
                ("bearing", .number(s.bearing)),
                ("labels", .array(labels(core, s))),
            ])),
            ("pins", .array(pins)),
            ("targets", .array(targets)),
            ("focus", s.focused.map { .string($0) } ?? .null),
            ("log", .array(log)),
            ("document", core.session.map(document) ?? .null),
            ("editing", editing(core.page)),
            ("touches", .array(o.touches.sorted { $0.key < $1.key }.map { id, p in
                .object([("id", .int(Int(id))), ("x", .number(p.x)), ("y", .number(p.y))])
            })),
            ("pointer", o.pointer.map { .object([("x", .number($0.x)), ("y", .number($0.y))]) } ?? .null),
            ("input", .object([
                ("touchFrames", .int(c.touchFrames)), ("touchDowns", .int(c.touchDowns)), ("touchUps", .int(c.touchUps)),
                ("touchCancels", .int(c.touchCancels)), ("pointerFrames", .int(c.pointerFrames)),
                ("buttonPresses", .int(c.buttonPresses)), ("axisEvents", .int(c.axisEvents)),
                ("keyPresses", .int(c.keyPresses)), ("keyRepeats", .int(c.keyRepeats)), ("touchpadEvents", .int(c.touchpadEvents)),
            ])),
        ])
        return root.text + "\n"
    }
}
