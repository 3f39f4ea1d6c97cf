import Testing
@testable import JSONText

struct JSONParserTests {
    func syntaxError(_ text: String) -> JSONSyntaxError? {
        do {
            _ = try JSONParser.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func aMissingCommaIsReportedAtItsLineAndColumn() throws {
        let e = try #require(syntaxError("{\n  \"a\": 1\n  \"b\": 2\n}"))
        #expect(e.location == TextPosition(line: 3, column: 3))
        #expect(e.message.contains("','"))
    }

    @Test func columnsCountCharactersNotBytes() throws {
        // "ä" is two bytes; the error is at the 8th character of the line.
        let e = try #require(syntaxError("[\"ää\", x]"))
        #expect(e.location == TextPosition(line: 1, column: 8))
    }

    @Test func whatRFC8259ForbidsIsRefused() {
        for bad in ["[1,]", "{\"a\":1,}", "[01]", "[1.]", "[.5]", "[1e]", "[NaN]", "// c\n[]", "['a']", "[\"a\nb\"]",
                    "[\"\\x\"]", "[\"\\ud800\"]", "[\"\\udc00\"]", "[1] [2]", "", "[", "{\"a\"}", "tru", "[-]"] {
            #expect(syntaxError(bad) != nil, "accepted \(bad)")
        }
    }

    @Test func numbersKeepTheTextTheyWereWrittenWith() throws {
        let v = try JSONParser.parse("[1.50, -0, 1E+3, 2e-7, 12345678901234567890]").value
        #expect(v == .array([.number("1.50"), .number("-0"), .number("1E+3"), .number("2e-7"), .number("12345678901234567890")]))
        #expect(v.text == "[1.50, -0, 1E+3, 2e-7, 12345678901234567890]\n")
    }

    @Test func compactTextIsOneLineAndReadsBackAsTheSameValue() throws {
        let source = "{\n  \"a\": [1.50, {\"b\": null}],\n  \"c\": \"x\\\"y\",\n  \"d\": true\n}"
        let v = try JSONParser.parse(source).value
        #expect(v.compactText == #"{"a":[1.50,{"b":null}],"c":"x\"y","d":true}"#)
        #expect(try JSONParser.parse(v.compactText).value == v)
    }

    @Test func parseOrNilRefusesBadTextAndDeepNesting() {
        #expect(JSONValue.parse(#"{"a": 1}"#, maximumDepth: 4)?["a"] == .number("1"))
        #expect(JSONValue.parse("{\"a\": }", maximumDepth: 4) == nil)
        #expect(JSONValue.parse("[[[[[1]]]]]", maximumDepth: 4) == nil)
        #expect(JSONValue.parse("[[[1]]]", maximumDepth: 4) != nil)
    }

    @Test func escapesAndSurrogatePairsReadAsTheCharactersTheyName() throws {
        let v = try JSONParser.parse(#"["\"\\\/\b\f\n\r\t\u00e4\ud83d\ude00"]"#).value
        #expect(v == .array([.string("\"\\/\u{08}\u{0C}\n\r\tä😀")]))
        // Written back, it reads as the same string.
        #expect(try JSONParser.parse(v.text).value == v)
    }

    @Test func membersKeepTheirOrderAndDuplicates() throws {
        let v = try JSONParser.parse(#"{"z": 1, "a": 2, "z": 3}"#).value
        #expect(v == .object([JSONMember("z", .number("1")), JSONMember("a", .number("2")), JSONMember("z", .number("3"))]))
        #expect(v["z"] == .number("1"))
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let e = try #require(syntaxError(deep))
        #expect(e.message.contains("nested deeper"))
        #expect(syntaxError(String(repeating: "[", count: 500) + String(repeating: "]", count: 500)) == nil)
    }

    @Test func aByteOrderMarkIsSkippedAndBadUTF8Refused() throws {
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)).value == .array([.number("1")]))
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x5B, 0x22, 0xFF, 0x22, 0x5D]) }
    }
}
