import Graphics
import PixelDiff
import Primitives
import SafeInput
import Snapshot
import StrictJSON

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `results.json`: the file form of ``SnapshotRunResults``.
///
/// Written with a fixed member order and two-space indentation. Read as hostile input: through
/// ``SafeInput/UserFile`` (a regular file of at most 256 MiB and 8 million values), parsed by the strict JSON parser
/// (duplicate keys refused), and held to the schema: every object has exactly its members, every
/// value its type and range, ids are whole reference ids, and artifact paths stay inside the
/// results folder. A problem is one line naming the file and the JSON path.
extension SnapshotRunResults {
  // MARK: - Writing

  /// The JSON text of the results, ending with a newline.
  public func jsonText() -> String {
    var text = ""
    writeJSON { text += $0 }
    return text
  }

  /// Writes `<folder>/results.json` atomically, never over one of `inputs`.
  ///
  /// The text is streamed reference by reference: at most one reference's JSON is held at a time,
  /// whatever the number of references.
  /// - Returns: the file's path.
  @discardableResult
  public func write(to folder: URL, protecting inputs: InputFiles = InputFiles()) throws -> String {
    let path = folder.appendingPathComponent(Self.fileName).path
    try AtomicFile.write(to: path, createDirectories: true, protecting: inputs) {
      (stream: AtomicFile.Stream) throws(FileWriteError) in
      try writeJSON(stream.write)
    }
    return path
  }

  /// Hands the JSON text to `emit` in pieces: the members before `references` at once, then each
  /// reference. The text is the same as ``JSONText/write(_:indent:)`` of the whole document, as
  /// `references` is the last member of the root object.
  private func writeJSON<Failure: Error>(_ emit: (String) throws(Failure) -> Void) throws(Failure) {
    let head = JSONText.write(.object(rootMembers))
    // `{ … }` without its closing line, then the last member.
    try emit(String(head.dropLast(2)) + ",\n  \"references\": ")
    guard !references.isEmpty else {
      try emit("[]\n}\n")
      return
    }
    try emit("[\n")
    for (index, reference) in references.enumerated() {
      try emit(
        (index == 0 ? "" : ",\n") + "    " + JSONText.write(reference.jsonValue, indent: "    "))
    }
    try emit("\n  ]\n}\n")
  }

  /// The root object's members but the last, `references`.
  private var rootMembers: [(key: String, value: JSONValue)] {
    typealias Members = [(key: String, value: JSONValue)]
    func string(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
    func number(_ value: Int) -> JSONValue { .number(Double(value)) }
    let shard: JSONValue =
      selection.shard.map { .object([("index", number($0.index)), ("count", number($0.count))]) }
      ?? .null
    let selectionMembers: Members = [
      ("filter", string(selection.filter)), ("shard", shard),
      ("catalogueReferences", number(selection.catalogueReferences)),
      ("references", number(references.count)),
    ]
    let themesValue: JSONValue =
      themes.map { .object([("folder", .string($0.folder)), ("reason", .string($0.reason))]) }
      ?? .null
    let fontValues: [JSONValue] = fonts.map { font in
      let members: Members = [
        ("theme", .string(font.theme)), ("role", .string(font.role)),
        ("family", .string(font.family)),
        ("file", .string(font.file)), ("sha256", .string(font.sha256)),
        ("folder", .string(font.folder)),
      ]
      return .object(members)
    }
    let environmentMembers: Members = [
      ("renderStack", Self.json(renderStack)), ("tokensSHA256", string(tokensSHA256)),
      ("fonts", .array(fontValues)),
    ]
    let caseErrorValues: [JSONValue] = caseErrors.map { caseError in
      let members: Members = [
        ("case", .string(caseError.name)), ("file", .string(caseError.file)),
        ("message", .string(caseError.message)),
      ]
      return .object(members)
    }
    let runValue: JSONValue =
      run.map {
        .object([
          ("id", .string($0.id)), ("idSource", .string($0.source)),
          ("catalogueSHA256", .string($0.catalogueSHA256)),
        ])
      } ?? .null
    let members: Members = [
      ("schema", .string(Self.schemaName)),
      ("schemaVersion", number(Self.schemaVersion)),
      ("run", runValue),
      ("snapshots", string(snapshots)),
      ("selection", .object(selectionMembers)),
      ("themes", themesValue),
      ("environment", .object(environmentMembers)),
      ("recordedEnvironment", recordedEnvironment.map(Self.json) ?? .null),
      ("environmentDifferences", .array(environmentDifferences.map(JSONValue.string))),
      ("tokenDifference", string(tokenDifference)),
      (
        "tokenCauses",
        .array(
          tokenCauses.map {
            .object([
              ("context", .string($0.context)), ("token", .string($0.token)),
              ("before", .string($0.before)), ("after", .string($0.after)),
              ("file", .string($0.file)),
            ])
          })
      ),
      ("acceptOptions", .string(acceptOptions)),
      ("tolerance", tolerance.jsonValue),
      ("seconds", .number(Self.rounded(seconds))),
      ("caseErrors", .array(caseErrorValues)),
    ]
    return members
  }

  private static func json(_ stack: RenderStack) -> JSONValue {
    .object(RenderStackFields.all.map { ($0.name, .string(stack[keyPath: $0.path])) })
  }

  private static func json(_ environment: SnapshotEnvironment) -> JSONValue {
    .object([
      ("renderStack", json(environment.renderStack)),
      (
        "fonts",
        .object(
          environment.fonts.keys.sorted().map { theme in
            (
              theme,
              .array(
                (environment.fonts[theme] ?? []).map {
                  .object([
                    ("role", .string($0.role)), ("family", .string($0.family)),
                    ("file", .string($0.file)),
                    ("sha256", .string($0.sha256)),
                  ])
                })
            )
          })
      ),
      ("tokensSHA256", environment.tokensSHA256.map(JSONValue.string) ?? .null),
    ])
  }

  /// Seconds to the microsecond, so the file does not carry noise digits.
  public static func rounded(_ seconds: Double) -> Double {
    (max(0, seconds) * 1e6).rounded() / 1e6
  }

  // MARK: - Reading

  /// The most JSON values `results.json` may hold: an entry of a failure holds about 265 (most of
  /// them its layout diff lines and pixel regions; 2.64 million for 10,000 failures), so 8 million
  /// is some 30,000 failing references, about what the 256 MiB file limit lets in. It bounds what
  /// a file of tiny values (`[0,0,0,…]`) costs: each parsed value takes some 30 bytes, 15 times
  /// its text.
  public static let maxValues = 8_000_000

  /// Reads `<folder>/results.json`.
  /// - Throws: `SnapshotError` naming the file and, for a schema problem, the JSON path.
  public static func read(from folder: URL) throws(SnapshotError) -> SnapshotRunResults {
    let path = folder.appendingPathComponent(fileName).path
    let data: Data
    do {
      data = try UserFile.read(path, kind: .results)
    } catch {
      throw .resultsUnreadable(error)
    }
    let value: JSONValue
    do {
      value = try JSONParser.parse([UInt8](data), maxValues: maxValues)
    } catch {
      throw .resultsInvalid(path: path, reason: error.description)
    }
    return try ResultsReader(file: path).results(value)
  }
}

extension ReferenceResult {
  fileprivate var jsonValue: JSONValue {
    .object([
      ("id", .string(id)),
      ("case", .string(caseName)),
      ("variant", .string(variant)),
      ("theme", .string(theme)),
      ("mode", .string(mode)),
      ("png", .string(imagePath)),
      ("layout", .string(layoutPath)),
      ("status", .string(status.rawValue)),
      ("reason", .string(reason)),
      ("explainedBy", .array(explainedBy.map(JSONValue.string))),
      ("message", message.map(JSONValue.string) ?? .null),
      ("pixels", pixels.map(\.jsonValue) ?? .null),
      ("layoutCompared", .bool(layoutCompared)),
      ("layoutDiff", .array(layoutDiff.map(JSONValue.string))),
      ("tolerance", tolerance.jsonValue),
      ("seconds", .number(SnapshotRunResults.rounded(seconds))),
      (
        "images",
        .object(
          images.keys.sorted().compactMap { image in
            images[image].map { (image.rawValue, $0.jsonValue) }
          })
      ),
      (
        "artifacts",
        .object(
          artifacts.keys.sorted().compactMap { name in artifacts[name].map { (name, .string($0)) } }
        )
      ),
      (
        "artifactsSHA256",
        .object(
          artifactDigests.keys.sorted().compactMap { name in
            artifactDigests[name].map { (name, .string($0)) }
          })
      ),
      (
        "referenceSHA256",
        .object([
          ("png", referenceDigests.png.map(JSONValue.string) ?? .null),
          ("layout", referenceDigests.layout.map(JSONValue.string) ?? .null),
        ])
      ),
    ])
  }
}

extension SnapshotTolerance {
  /// `{"maxDiffPixels": n or null, "maxDiffRatio": r or null}`.
  fileprivate var jsonValue: JSONValue {
    .object([
      ("maxDiffPixels", maxDiffPixels.map { .number(Double($0)) } ?? .null),
      ("maxDiffRatio", maxDiffRatio.map(JSONValue.number) ?? .null),
    ])
  }
}

extension PixelSize {
  fileprivate var jsonValue: JSONValue {
    .object([("width", .number(Double(width))), ("height", .number(Double(height)))])
  }
}

extension PixelComparison {
  /// The `result` word of each case.
  static let words = ["identical", "within-tolerance", "different", "size-mismatch"]

  /// The index of its word in ``words``.
  var wordIndex: Int {
    switch self {
    case .identical: return 0
    case .withinTolerance: return 1
    case .different: return 2
    case .sizeMismatch: return 3
    }
  }

  fileprivate var jsonValue: JSONValue {
    func numbers(_ word: String, _ s: Statistics) -> JSONValue {
      .object([
        ("result", .string(word)),
        ("width", .number(Double(s.size.width))), ("height", .number(Double(s.size.height))),
        ("changedPixels", .number(Double(s.changedPixels))),
        ("ratio", .number(s.changedRatio)),
        ("antiAliasedPixels", .number(Double(s.antiAliasedPixels))),
        (
          "regions",
          .array(
            s.regions.map {
              .object([
                ("x", .number(Double($0.x))), ("y", .number(Double($0.y))),
                ("width", .number(Double($0.width))),
                ("height", .number(Double($0.height))),
                ("changedPixels", .number(Double($0.changedPixels))),
              ])
            })
        ),
        ("omittedRegions", .number(Double(s.omittedRegions))),
      ])
    }
    switch self {
    case .identical: return .object([("result", .string("identical"))])
    case .withinTolerance(let s): return numbers("within-tolerance", s)
    case .different(let s): return numbers("different", s)
    case .sizeMismatch(let expected, let actual):
      return .object([
        ("result", .string("size-mismatch")), ("expected", expected.jsonValue),
        ("actual", actual.jsonValue),
      ])
    }
  }
}

/// The fields of ``RenderStack`` by name, in the order the file lists them.
enum RenderStackFields {
  static var all: [(name: String, path: WritableKeyPath<RenderStack, String>)] {
    [
      ("cairo", \.cairo), ("pango", \.pango), ("harfbuzz", \.harfbuzz), ("freetype", \.freetype),
      ("fontconfig", \.fontconfig), ("librsvg", \.librsvg), ("libspng", \.libspng),
    ]
  }
}

/// A small JSON writer for ``StrictJSON/JSONValue``: members in their order, two-space indentation,
/// whole numbers without a fraction, strings escaped as RFC 8259 requires.
enum JSONText {
  static func write(_ value: JSONValue, indent: String = "") -> String {
    switch value {
    case .null: return "null"
    case .bool(let flag): return flag ? "true" : "false"
    case .number(let number):
      if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
      return "\(number)"
    case .string(let text): return quoted(text)
    case .array(let items):
      guard !items.isEmpty else { return "[]" }
      let inner = indent + "  "
      return "[\n" + items.map { inner + write($0, indent: inner) }.joined(separator: ",\n")
        + "\n\(indent)]"
    case .object(let members):
      guard !members.isEmpty else { return "{}" }
      let inner = indent + "  "
      return "{\n"
        + members.map { inner + quoted($0.key) + ": " + write($0.value, indent: inner) }.joined(
          separator: ",\n")
        + "\n\(indent)}"
    }
  }

  static func quoted(_ text: String) -> String { JSONStringLiteral.quoted(text) }
}
