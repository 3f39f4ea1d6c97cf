import Tiles

/// Which language a label's text is in, told by the property it came from, and the user's
/// choice of a label language (`--language`).
///
/// OpenStreetMap-based tiles carry a feature's name in its own language as `name` and
/// translations as `name:xx` (OpenMapTiles and Protomaps; Shortbread and OpenMapTiles also
/// `name_en`, `name_de`). A label read from `name:sr` is Serbian: shaping asks the font for its
/// Serbian forms (`locl`), and line breaking uses that language's rules. A bare `name` says
/// nothing of its language: the label is shaped as the process's locale says.
public enum LabelLanguage {
    /// The language of a name property: "sr" for `name:sr`, "en" for `name_en`, "zh-Hant" for
    /// `name:zh-Hant`; nil for `name` itself and for properties that hold no one language
    /// (`name:latin`, `name:nonlatin`, `name_int`).
    public static func of(property key: String) -> String? {
        let tag: Substring
        if key.hasPrefix("name:") { tag = key.dropFirst(5) } else if key.hasPrefix("name_") { tag = key.dropFirst(5) } else { return nil }
        guard tag != "int", isTag(tag) else { return nil }
        return String(tag)
    }

    /// Whether `tag` reads as a BCP 47 language tag: a language of two or three ASCII letters,
    /// then subtags of one to eight letters or digits after hyphens ("sr", "sr-Latn", "zh-Hant").
    public static func isTag<S: StringProtocol>(_ tag: S) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { p in (1...8).contains(p.count) && p.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    /// The properties with a language that `field` (a `text-field`) reads, in the order it
    /// tries them.
    static func fields(_ field: Expr?) -> [(key: String, language: String)] {
        guard let field else { return [] }
        return field.propertiesRead.compactMap { key in of(property: key).map { (key, $0) } }
    }

    /// The language of `text` resolved for `f`: that of the first of `fields` whose value is
    /// in the text (`{name:sr} {ref}` is Serbian); nil when none is.
    static func language(of text: String, fields: [(key: String, language: String)], feature f: VectorFeature) -> String? {
        for (key, language) in fields {
            guard let v = f.properties[key].map(Value.init)?.string, !v.isEmpty else { continue }
            if text.contains(v) { return language }
        }
        return nil
    }

    /// `text-field` with every name property it reads (`name`, `name:latin`, `name_en`…)
    /// preferring `name:<tag>` (then `name_<tag>`) when the feature has it.
    static func preferring(_ tag: String, in field: Expr) -> Expr {
        let own = "name:\(tag)", underscored = "name_\(tag)"
        return field.replacingGets { key in
            guard key == "name" || key.hasPrefix("name:") || key.hasPrefix("name_"), key != own, key != underscored else { return nil }
            return .coalesce([.get(own), .get(underscored), .get(key)])
        }
    }
}

extension Style {
    /// The style with its labels in `language` where the data has it: each symbol layer's
    /// `text-field` prefers `name:<language>` to the name it reads (`LabelLanguage.preferring`);
    /// a feature without that translation keeps the style's text.
    public func preferringLanguage(_ language: String) -> Style {
        let rewritten = layers.map { l -> StyleLayer in
            guard l.type == .symbol, let field = l.layout["text-field"] else { return l }
            var l = l
            l.layout["text-field"] = LabelLanguage.preferring(language, in: field)
            return l
        }
        return Style(name: name, schema: schema, sources: sources, layers: rewritten, notes: notes)
    }
}
