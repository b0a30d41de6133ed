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

/// Holds a parsed `results.json` to its schema (see ``SnapshotRunResults/read(from:)``): exactly the
/// members each object has, values of their type and range, whole reference ids, artifact paths
/// relative and inside the results folder. Each problem names the file and the JSON path.
struct ResultsReader {
  /// The file, for messages.
  let file: String

  /// The longest text member accepted (a message, a reason, a layout diff line): 64 KiB characters.
  static let textLimit = 1 << 16
  /// The most references (and case errors, fonts, layout diff lines, regions) a file may list.
  static let countLimit = 1 << 20
  /// The largest picture side accepted: 1 << 20 pixels.
  static let sideLimit = 1 << 20

  private func fail(_ path: String, _ reason: String) -> SnapshotError {
    .resultsInvalid(path: file, reason: path.isEmpty ? reason : "\(path): \(reason)")
  }

  // MARK: - The document

  func results(_ value: JSONValue) throws(SnapshotError) -> SnapshotRunResults {
    // The schema first, so that a file of another kind or version says so rather than what it lacks.
    guard case .object = value else {
      throw fail("", "expected a JSON object, found \(value.kindName)")
    }
    guard value["schema"]?.stringValue == SnapshotRunResults.schemaName else {
      throw fail(
        "schema", "not an ouds-render results file (expected \"\(SnapshotRunResults.schemaName)\")")
    }
    let version = value["schemaVersion"]?.numberValue
    guard version == Double(SnapshotRunResults.schemaVersion) else {
      let found = version.map { $0.rounded() == $0 ? String(Int64($0)) : "\($0)" } ?? "none"
      // An older version is refused by name, with what it lacks and what to do.
      let older = version.flatMap { Int(exactly: $0) }.flatMap {
        SnapshotRunResults.olderSchemaVersions[$0]
      }
      throw fail(
        "schemaVersion",
        "schema version \(MessageText.value(found)); this ouds-render reads version \(SnapshotRunResults.schemaVersion)"
          + (older.map {
            " (version \(found) is an older ouds-render's: \($0); run verify again with this one)"
          }
            ?? "")
      )
    }
    let root = try object(
      value, "",
      keys: [
        "schema", "schemaVersion", "run", "snapshots", "selection", "themes", "environment",
        "recordedEnvironment",
        "environmentDifferences", "tokenDifference", "tokenCauses", "acceptOptions", "tolerance",
        "seconds",
        "caseErrors",
        "references",
      ])
    let run = try optional(root["run"], "run") { v, p throws(SnapshotError) in
      let members = try object(v, p, keys: ["id", "idSource", "catalogueSHA256"])
      let id = try line(members["id"], p + ".id", limit: SnapshotRunResults.RunIdentity.idLimit)
      guard SnapshotRunResults.RunIdentity.isValid(id) else {
        throw fail(p + ".id", "\(MessageText.quoted(id)) is not a run id")
      }
      return SnapshotRunResults.RunIdentity(
        id: id, source: try line(members["idSource"], p + ".idSource", limit: 64),
        catalogueSHA256: try digest(members["catalogueSHA256"], p + ".catalogueSHA256"))
    }
    let snapshots = try optional(root["snapshots"], "snapshots") { v, p throws(SnapshotError) in
      try path(v, p)
    }
    let selectionObject = try object(
      root["selection"], "selection",
      keys: ["filter", "shard", "catalogueReferences", "references"])
    let filter = try optional(selectionObject["filter"], "selection.filter") {
      v, p throws(SnapshotError) in
      try text(v, p, limit: 4096)
    }
    let shard = try optional(selectionObject["shard"], "selection.shard") {
      v, p throws(SnapshotError) in
      let members = try object(v, p, keys: ["index", "count"])
      let count = try integer(members["count"], p + ".count", 1...Self.countLimit)
      let index = try integer(members["index"], p + ".index", 1...count)
      do {
        return try SnapshotShard(index: index, count: count)
      } catch {
        throw fail(p, "\(error)")
      }
    }
    let catalogueReferences = try integer(
      selectionObject["catalogueReferences"], "selection.catalogueReferences", 0...Self.countLimit)
    let referenceCount = try integer(
      selectionObject["references"], "selection.references", 0...Self.countLimit)
    let themes = try optional(root["themes"], "themes") { v, p throws(SnapshotError) in
      let members = try object(v, p, keys: ["folder", "reason"])
      return SnapshotRunResults.ThemesFolder(
        folder: try path(members["folder"], p + ".folder"),
        reason: try line(members["reason"], p + ".reason"))
    }
    let environment = try object(
      root["environment"], "environment", keys: ["renderStack", "tokensSHA256", "fonts"])
    let stack = try renderStack(environment["renderStack"], "environment.renderStack")
    let tokens = try optional(environment["tokensSHA256"], "environment.tokensSHA256") {
      v, p throws(SnapshotError) in try digest(v, p)
    }
    let fonts = try array(environment["fonts"], "environment.fonts") { v, p throws(SnapshotError) in
      let members = try object(v, p, keys: ["theme", "role", "family", "file", "sha256", "folder"])
      return SnapshotRunResults.Font(
        theme: try fontSetName(members["theme"], p + ".theme"),
        role: try line(members["role"], p + ".role"),
        family: try line(members["family"], p + ".family"),
        file: try line(members["file"], p + ".file"),
        sha256: try digest(members["sha256"], p + ".sha256"),
        folder: try path(members["folder"], p + ".folder"))
    }
    let recorded = try optional(root["recordedEnvironment"], "recordedEnvironment") {
      v, p throws(SnapshotError) in try recordedEnvironment(v, p)
    }
    let differences = try array(root["environmentDifferences"], "environmentDifferences") {
      v, p throws(SnapshotError) in try line(v, p)
    }
    let tokenDifference = try optional(root["tokenDifference"], "tokenDifference") {
      v, p throws(SnapshotError) in try line(v, p)
    }
    var seenCauses = Set<String>()
    let tokenCauses = try array(root["tokenCauses"], "tokenCauses") {
      v, p throws(SnapshotError) in
      let members = try object(v, p, keys: ["context", "token", "before", "after", "file"])
      let cause = SnapshotEnvironment.TokenCause(
        context: try line(members["context"], p + ".context", limit: 64),
        token: try line(members["token"], p + ".token", limit: 512),
        before: try line(members["before"], p + ".before", limit: 4096),
        after: try line(members["after"], p + ".after", limit: 4096),
        file: try line(members["file"], p + ".file", limit: 4096))
      let parts = cause.context.split(separator: "/", omittingEmptySubsequences: false)
      guard parts.count == 2, ThemeName(rawValue: String(parts[0])) != nil,
        ColorMode(rawValue: String(parts[1])) != nil
      else {
        throw fail(p + ".context", "\(MessageText.quoted(cause.context)) is not <theme>/<mode>")
      }
      guard seenCauses.insert(cause.context + " " + cause.token).inserted else {
        throw fail(p, "\(cause.context) \(cause.token) is listed twice")
      }
      return cause
    }
    if !tokenCauses.isEmpty, tokenDifference == nil {
      throw fail("tokenCauses", "lists changed tokens, but tokenDifference is null")
    }
    let acceptOptions = try line(root["acceptOptions"], "acceptOptions", limit: 16384)
    // They are pasted into every accept command a reviewer copies: only what verify writes.
    guard Self.isAcceptOptions(acceptOptions) else {
      throw fail(
        "acceptOptions",
        "\(MessageText.quoted(acceptOptions)) is not what verify writes: --snapshots, --themes or --font-dir, each with one shell-quoted value"
      )
    }
    let seconds = try number(root["seconds"], "seconds", 0...1e9)
    let caseErrors = try array(root["caseErrors"], "caseErrors") { v, p throws(SnapshotError) in
      let members = try object(v, p, keys: ["case", "file", "message"])
      return SnapshotCaseError(
        name: try line(members["case"], p + ".case", limit: 4096),
        file: try path(members["file"], p + ".file"),
        message: try text(members["message"], p + ".message"))
    }
    var seen = Set<String>()
    let references = try array(root["references"], "references") { v, p throws(SnapshotError) in
      let result = try reference(v, p)
      guard seen.insert(result.id).inserted else {
        throw fail(p + ".id", "\(result.id) is listed twice")
      }
      return result
    }
    guard references.count == referenceCount else {
      throw fail(
        "selection.references",
        "says \(referenceCount), but \(references.count) references are listed")
    }
    var results = SnapshotRunResults(
      snapshots: snapshots, themes: themes, renderStack: stack, tokensSHA256: tokens, fonts: fonts,
      recordedEnvironment: recorded, tokenDifference: tokenDifference,
      selection: SnapshotRunResults.Selection(
        filter: filter, shard: shard, catalogueReferences: catalogueReferences),
      acceptOptions: acceptOptions, seconds: seconds, caseErrors: caseErrors, references: references
    )
    results.run = run
    results.tokenCauses = tokenCauses
    results.tolerance = try tolerance(root["tolerance"], "tolerance")
    // What merge and the summaries show is computed from the environment: a list that says
    // otherwise was edited.
    let expected = recorded?.differences(from: results.environment) ?? []
    guard differences == expected else {
      throw fail(
        "environmentDifferences",
        "\(MessageText.value(differences.joined(separator: "; "), limit: 200)) is not what the environment and recordedEnvironment give (\(MessageText.value(expected.isEmpty ? "none" : expected.joined(separator: "; "), limit: 200)))"
      )
    }
    results.environmentDifferences = differences
    // Each explanation names a changed token of the reference's own theme and mode, or a line of
    // the environment differences: a made-up one would hide a failure among the explained.
    let environmentNames = Set(differences.map(SnapshotEnvironment.differenceName))
    for (index, reference) in results.references.enumerated() {
      let context = "\(reference.theme)/\(reference.mode)"
      for name in reference.explainedBy
      where !seenCauses.contains(context + " " + name) && !environmentNames.contains(name) {
        throw fail(
          "references[\(index)].explainedBy",
          "\(MessageText.quoted(name)) is neither a changed token of \(context) (tokenCauses) nor an environment difference"
        )
      }
    }
    // Likewise the token verdict: verify writes one exactly when the digest it resolved differs
    // from the recorded one. A null verdict over different digests would pass a token change.
    if let recorded, let here = tokens {
      let differ = recorded.tokensSHA256 != here
      if differ != (tokenDifference != nil) {
        throw fail(
          "tokenDifference",
          differ
            ? "is null, but environment.tokensSHA256 (\(here.prefix(12))…) is not recordedEnvironment.tokensSHA256 (\(recorded.tokensSHA256.map { "\($0.prefix(12))…" } ?? "none"))"
            : "says the tokens changed, but environment.tokensSHA256 and recordedEnvironment.tokensSHA256 are the same"
        )
      }
    }
    return results
  }

  /// The options verify writes for accept commands to repeat: `--snapshots`, `--themes` and
  /// `--font-dir`, each at most once, each followed by one value exactly as ``shellQuote(_:)``
  /// writes it, separated by single spaces (or nothing). Anything else could make a copied accept
  /// command run something other than `ouds-render`.
  static func isAcceptOptions(_ text: String) -> Bool {
    let characters = Array(text)
    var index = 0
    var seen = Set<String>()
    while index < characters.count {
      if index > 0 {
        guard characters[index] == " " else { return false }
        index += 1
      }
      guard
        let option = ["--snapshots", "--themes", "--font-dir"].first(where: { option in
          characters[index...].starts(with: option + " ")
        }), seen.insert(option).inserted
      else { return false }
      index += option.count + 1
      // The value as written, up to the space that ends it outside quotes.
      let start = index
      var value = ""
      var quoted = false
      while index < characters.count, quoted || characters[index] != " " {
        let character = characters[index]
        if character == "'" {
          quoted.toggle()
        } else if character == "\\" && !quoted {
          guard index + 1 < characters.count, characters[index + 1] == "'" else { return false }
          value.append("'")
          index += 1
        } else {
          value.append(character)
        }
        index += 1
      }
      guard !quoted, String(characters[start..<index]) == shellQuote(value), !value.isEmpty else {
        return false
      }
    }
    return true
  }

  // MARK: - One reference

  private func reference(_ value: JSONValue, _ p: String) throws(SnapshotError) -> ReferenceResult {
    let m = try object(
      value, p,
      keys: [
        "id", "case", "variant", "theme", "mode", "png", "layout", "status", "reason", "message",
        "pixels",
        "layoutCompared", "layoutDiff", "tolerance", "seconds", "images", "artifacts",
        "explainedBy",
      ],
      // Results written before the digests were kept have none: accept then refuses their renders.
      optionalKeys: ["artifactsSHA256", "referenceSHA256"])
    let id = try line(m["id"], p + ".id", limit: 512)
    guard SnapshotFilter.isWholeID(id) else {
      throw fail(
        p + ".id",
        "\(MessageText.quoted(id)) is not a reference id (<case>/<theme>-<mode>[-<variant>]@<scale>x)"
      )
    }
    let caseName = try line(m["case"], p + ".case", limit: 512)
    let variant = try line(m["variant"], p + ".variant", limit: 512)
    guard id == "\(caseName)/\(variant)" else {
      throw fail(
        p,
        "the id \(MessageText.quoted(id)) is not <case>/<variant> (\(MessageText.quoted(caseName)), \(MessageText.quoted(variant)))"
      )
    }
    guard
      variant.unicodeScalars.allSatisfy({
        $0.isASCII
          && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
            || "-_.@".unicodeScalars.contains($0))
      }),
      !variant.contains("..")
    else {
      throw fail(
        p + ".variant", "\(MessageText.quoted(variant)) holds a character a variant name does not")
    }
    let imagePath = try line(m["png"], p + ".png", limit: 1024)
    guard imagePath == "\(id).png" else {
      throw fail(
        p + ".png",
        "expected \(MessageText.quoted(id + ".png")), found \(MessageText.quoted(imagePath))")
    }
    let layoutPath = try line(m["layout"], p + ".layout", limit: 1024)
    let stem =
      layoutPath.hasPrefix(caseName + "/") && layoutPath.hasSuffix(".layout.json")
      ? layoutPath.dropFirst(caseName.count + 1).dropLast(".layout.json".count) : ""
    guard !stem.isEmpty, variant.hasPrefix(stem + "@") else {
      throw fail(
        p + ".layout",
        "expected <case>/<theme>-<mode>[-<variant>].layout.json of \(id), found \(MessageText.quoted(layoutPath))"
      )
    }
    let statusWord = try line(m["status"], p + ".status")
    guard let status = SnapshotOutcome.Status(rawValue: statusWord) else {
      throw fail(
        p + ".status",
        "expected one of passed, changed, missing, error, recorded, skipped, found \(MessageText.quoted(statusWord))"
      )
    }
    let images = try imageSizes(m["images"], p + ".images")
    let artifacts = try artifactPaths(m["artifacts"], p + ".artifacts")
    var digests: [String: String] = [:]
    if let value = m["artifactsSHA256"] {
      let q = p + ".artifactsSHA256"
      guard case .object(let members) = value else {
        throw fail(q, "expected an object, found \(value.kindName)")
      }
      for (key, member) in members {
        guard artifacts[key] != nil else {
          throw fail(q, "\(MessageText.quoted(key)) is not one of the reference's artifacts")
        }
        digests[key] = try digest(member, q + "." + key)
      }
    }
    for image in images.keys.sorted() where artifacts[image.fileName] == nil {
      throw fail(
        p + ".images", "lists the \(image.rawValue) picture, but artifacts has no \(image.fileName)"
      )
    }
    var result = ReferenceResult(
      caseName: caseName, variant: variant,
      theme: try name(m["theme"], p + ".theme", ThemeName.self),
      mode: try name(m["mode"], p + ".mode", ColorMode.self), imagePath: imagePath,
      layoutPath: layoutPath,
      status: status, reason: try line(m["reason"], p + ".reason"),
      message: try optional(m["message"], p + ".message") { v, q throws(SnapshotError) in
        try text(v, q)
      },
      pixels: try optional(m["pixels"], p + ".pixels") { v, q throws(SnapshotError) in
        try pixels(v, q)
      },
      layoutCompared: try bool(m["layoutCompared"], p + ".layoutCompared"),
      layoutDiff: try array(m["layoutDiff"], p + ".layoutDiff") { v, q throws(SnapshotError) in
        try line(v, q)
      },
      seconds: try number(m["seconds"], p + ".seconds", 0...1e9), images: images,
      artifacts: artifacts, artifactDigests: digests,
      tolerance: try tolerance(m["tolerance"], p + ".tolerance"))
    if let value = m["referenceSHA256"] {
      let q = p + ".referenceSHA256"
      let members = try object(value, q, keys: ["png", "layout"])
      result.referenceDigests = ReferenceDigests(
        png: try optional(members["png"], q + ".png") { v, r throws(SnapshotError) in
          try digest(v, r)
        },
        layout: try optional(members["layout"], q + ".layout") { v, r throws(SnapshotError) in
          try digest(v, r)
        })
    }
    var explained = Set<String>()
    result.explainedBy = try array(m["explainedBy"], p + ".explainedBy") {
      v, q throws(SnapshotError) in
      let name = try line(v, q, limit: 512)
      guard explained.insert(name).inserted else {
        throw fail(q, "\(MessageText.quoted(name)) is listed twice")
      }
      return name
    }
    if !result.explainedBy.isEmpty, result.status != .changed {
      throw fail(
        p + ".explainedBy",
        "only a changed reference is explained by a token or environment difference, not a \(result.status.rawValue) one"
      )
    }
    try checkVerdicts(result, p)
    return result
  }

  /// Refuses a status its pixel and layout verdicts contradict: `passed` (or `recorded`,
  /// `skipped`: statuses that do not fail the run) beside pixels that differ or layout diff
  /// lines, and `changed` with neither.
  ///
  /// Also refuses what verify never writes: `recorded` and `skipped` (statuses of `record`), and
  /// a `passed` entry without its pixel comparison or with a failure's pictures.
  private func checkVerdicts(_ result: ReferenceResult, _ p: String) throws(SnapshotError) {
    if result.status == .recorded || result.status == .skipped {
      throw fail(
        p + ".status",
        "\(result.status.rawValue) is a status of snapshot record, which writes no results.json: the entry was edited"
      )
    }
    let pixelsFail = result.pixels.map { !$0.passes } ?? false
    let pixelWord = result.pixels.map { PixelComparison.words[$0.wordIndex] } ?? "none"
    if !result.isFailure {
      if pixelsFail {
        throw fail(
          p + ".status",
          "\(result.status.rawValue) contradicts pixels.result \(pixelWord): the entry was edited")
      }
      if result.layoutDiffCount > 0 {
        throw fail(
          p + ".status",
          "\(result.status.rawValue) contradicts its \(result.layoutDiffCount) layoutDiff lines: the entry was edited"
        )
      }
    } else if result.status == .changed, !pixelsFail, result.layoutDiffCount == 0 {
      throw fail(
        p + ".status",
        "changed contradicts pixels.result \(pixelWord) and an empty layoutDiff: the entry was edited"
      )
    }
    // The pixel verdict is what the tolerance gives for the counts: within it exactly when the
    // changed pixels are allowed (an edited tolerance or count is refused).
    if let pixels = result.pixels, let counts = pixels.statistics {
      let allowed = result.tolerance.applied(to: DiffOptions()).accepts(
        changedPixels: counts.changedPixels, totalPixels: counts.size.width * counts.size.height)
      let within = pixels.wordIndex == 1
      if within != allowed {
        throw fail(
          p + ".pixels.result",
          "\(PixelComparison.words[pixels.wordIndex]) contradicts \(counts.changedPixels) changed pixels of \(counts.size) with the tolerance \(result.tolerance): the entry was edited"
        )
      }
    }
    if result.status == .passed {
      if result.pixels == nil {
        throw fail(p + ".status", "passed without a pixel comparison: the entry was edited")
      }
      if !result.images.isEmpty || !result.artifacts.isEmpty {
        let names = Set(result.images.keys.map(\.fileName) + result.artifacts.keys).sorted()
        throw fail(
          p + ".status",
          "passed beside a failure's pictures (\(names.joined(separator: ", "))): the entry was edited"
        )
      }
    }
  }

  /// A reference's tolerance: an object with `maxDiffPixels` (a whole number or null) and
  /// `maxDiffRatio` (0…1 or null).
  private func tolerance(_ value: JSONValue?, _ p: String) throws(SnapshotError)
    -> SnapshotTolerance
  {
    let m = try object(value, p, keys: ["maxDiffPixels", "maxDiffRatio"])
    return SnapshotTolerance(
      maxDiffPixels: try optional(m["maxDiffPixels"], p + ".maxDiffPixels") {
        v, q throws(SnapshotError) in
        try integer(v, q, 0...SnapshotTolerance.largestPixelCount)
      },
      maxDiffRatio: try optional(m["maxDiffRatio"], p + ".maxDiffRatio") {
        v, q throws(SnapshotError) in
        try number(v, q, 0...1)
      })
  }

  private func pixels(_ value: JSONValue, _ p: String) throws(SnapshotError) -> PixelComparison {
    guard case .object = value else { throw fail(p, "expected an object, found \(value.kindName)") }
    let word = try line(value["result"], p + ".result")
    switch word {
    case "identical":
      _ = try object(value, p, keys: ["result"])
      return .identical
    case "size-mismatch":
      let m = try object(value, p, keys: ["result", "expected", "actual"])
      return .sizeMismatch(
        expected: try size(m["expected"], p + ".expected"),
        actual: try size(m["actual"], p + ".actual"))
    case "different", "within-tolerance":
      let m = try object(
        value, p,
        keys: [
          "result", "width", "height", "changedPixels", "ratio", "antiAliasedPixels", "regions",
          "omittedRegions",
        ])
      let size = PixelSize(
        width: try integer(m["width"], p + ".width", 1...Self.sideLimit),
        height: try integer(m["height"], p + ".height", 1...Self.sideLimit))
      let total = size.width * size.height
      let regions = try array(m["regions"], p + ".regions") { v, q throws(SnapshotError) in
        let r = try object(v, q, keys: ["x", "y", "width", "height", "changedPixels"])
        return DiffRegion(
          x: try integer(r["x"], q + ".x", 0...size.width - 1),
          y: try integer(r["y"], q + ".y", 0...size.height - 1),
          width: try integer(r["width"], q + ".width", 1...size.width),
          height: try integer(r["height"], q + ".height", 1...size.height),
          changedPixels: try integer(r["changedPixels"], q + ".changedPixels", 0...total))
      }
      let statistics = PixelCounts(
        size: size, changedPixels: try integer(m["changedPixels"], p + ".changedPixels", 0...total),
        antiAliasedPixels: try integer(m["antiAliasedPixels"], p + ".antiAliasedPixels", 0...total),
        regions: regions,
        omittedRegions: try integer(m["omittedRegions"], p + ".omittedRegions", 0...total))
      let ratio = try number(m["ratio"], p + ".ratio", 0...1)
      guard abs(ratio - statistics.changedRatio) <= 1e-9 else {
        throw fail(
          p + ".ratio",
          "\(ratio) is not changedPixels / (width × height) = \(statistics.changedRatio)")
      }
      return word == "different" ? .different(statistics) : .withinTolerance(statistics)
    default:
      throw fail(
        p + ".result",
        "expected one of identical, within-tolerance, different, size-mismatch, found \(MessageText.quoted(word))"
      )
    }
  }

  private func imageSizes(_ value: JSONValue?, _ p: String) throws(SnapshotError)
    -> [ReferenceResult.Image: PixelSize]
  {
    guard let value, case .object(let members) = value else {
      throw fail(p, "expected an object, found \(value?.kindName ?? "nothing")")
    }
    var sizes: [ReferenceResult.Image: PixelSize] = [:]
    for (key, member) in members {
      guard let image = ReferenceResult.Image(rawValue: key) else {
        throw fail(p, "unknown picture \(MessageText.quoted(key)) (expected, actual, diff)")
      }
      sizes[image] = try size(member, p + "." + key)
    }
    return sizes
  }

  private func artifactPaths(_ value: JSONValue?, _ p: String) throws(SnapshotError) -> [String:
    String]
  {
    guard let value, case .object(let members) = value else {
      throw fail(p, "expected an object, found \(value?.kindName ?? "nothing")")
    }
    var paths: [String: String] = [:]
    for (key, member) in members {
      guard SnapshotArtifacts.fileNames.contains(key) else {
        throw fail(
          p,
          "unknown artifact \(MessageText.quoted(key)) (\(SnapshotArtifacts.fileNames.sorted().joined(separator: ", ")))"
        )
      }
      let relative = try line(member, p + "." + key, limit: 4096)
      // Lexically inside the results folder; links are checked when the file is read.
      if case .failure(let problem) = FolderReference.resolve(
        relative, inside: URL(fileURLWithPath: "/"))
      {
        throw fail(
          p + "." + key,
          "\(MessageText.quoted(relative)) \(problem.message(folder: "the results folder"))")
      }
      guard !relative.split(separator: "/").contains("..") else {
        throw fail(
          p + "." + key,
          "\(MessageText.quoted(relative)) \(FolderReference.Problem.climbsOut.message(folder: "the results folder"))"
        )
      }
      paths[key] = relative
    }
    return paths
  }

  private func size(_ value: JSONValue?, _ p: String) throws(SnapshotError) -> PixelSize {
    let m = try object(value, p, keys: ["width", "height"])
    return PixelSize(
      width: try integer(m["width"], p + ".width", 1...Self.sideLimit),
      height: try integer(m["height"], p + ".height", 1...Self.sideLimit))
  }

  // MARK: - Environments

  private func renderStack(_ value: JSONValue?, _ p: String) throws(SnapshotError) -> RenderStack {
    let m = try object(value, p, keys: RenderStackFields.all.map(\.name))
    var stack = RenderStack(
      cairo: "", pango: "", harfbuzz: "", freetype: "", fontconfig: "", librsvg: "", libspng: "")
    for field in RenderStackFields.all {
      stack[keyPath: field.path] = try line(m[field.name], p + "." + field.name, limit: 256)
    }
    return stack
  }

  private func recordedEnvironment(_ value: JSONValue, _ p: String) throws(SnapshotError)
    -> SnapshotEnvironment
  {
    let m = try object(value, p, keys: ["renderStack", "fonts", "tokensSHA256"])
    guard let fontsValue = m["fonts"], case .object(let themes) = fontsValue else {
      throw fail(p + ".fonts", "expected an object, found \(m["fonts"]?.kindName ?? "nothing")")
    }
    var fonts: [String: [SnapshotEnvironment.Font]] = [:]
    for (theme, list) in themes {
      let q = p + ".fonts." + theme
      fonts[theme] = try array(list, q) { v, r throws(SnapshotError) in
        let f = try object(v, r, keys: ["role", "family", "file", "sha256"])
        return SnapshotEnvironment.Font(
          role: try line(f["role"], r + ".role"), family: try line(f["family"], r + ".family"),
          file: try line(f["file"], r + ".file"), sha256: try digest(f["sha256"], r + ".sha256"))
      }
    }
    return SnapshotEnvironment(
      renderStack: try renderStack(m["renderStack"], p + ".renderStack"), fonts: fonts,
      tokensSHA256: try optional(m["tokensSHA256"], p + ".tokensSHA256") {
        v, q throws(SnapshotError) in
        try digest(v, q)
      })
  }

  // MARK: - Values

  /// The members of an object that has exactly `keys`, and perhaps some of `optionalKeys`.
  private func object(
    _ value: JSONValue?, _ p: String, keys: [String], optionalKeys: [String] = []
  ) throws(SnapshotError)
    -> [String: JSONValue]
  {
    guard let value, case .object(let members) = value else {
      throw fail(p, "expected an object, found \(value?.kindName ?? "nothing")")
    }
    var byKey: [String: JSONValue] = [:]
    for (key, member) in members {
      guard keys.contains(key) || optionalKeys.contains(key) else {
        throw fail(p, "unknown member \(MessageText.quoted(key))")
      }
      byKey[key] = member
    }
    if let missing = keys.first(where: { byKey[$0] == nil }) {
      throw fail(p, "missing member \"\(missing)\"")
    }
    return byKey
  }

  private func optional<T>(
    _ value: JSONValue?, _ p: String, _ read: (JSONValue, String) throws(SnapshotError) -> T
  ) throws(SnapshotError) -> T? {
    guard let value else { throw fail(p, "missing") }
    if case .null = value { return nil }
    return try read(value, p)
  }

  private func array<T>(
    _ value: JSONValue?, _ p: String, _ read: (JSONValue, String) throws(SnapshotError) -> T
  ) throws(SnapshotError) -> [T] {
    guard let value, case .array(let items) = value else {
      throw fail(p, "expected an array, found \(value?.kindName ?? "nothing")")
    }
    guard items.count <= Self.countLimit else {
      throw fail(p, "more than \(Self.countLimit) items")
    }
    var result: [T] = []
    result.reserveCapacity(items.count)
    for (index, item) in items.enumerated() { result.append(try read(item, "\(p)[\(index)]")) }
    return result
  }

  /// A string of at most `limit` characters.
  private func text(_ value: JSONValue?, _ p: String, limit: Int = textLimit) throws(SnapshotError)
    -> String
  {
    guard let value, case .string(let string) = value else {
      throw fail(p, "expected a string, found \(value?.kindName ?? "nothing")")
    }
    guard string.unicodeScalars.count <= limit else {
      throw fail(p, "longer than \(limit) characters")
    }
    return string
  }

  /// A string on one line: no control characters.
  private func line(_ value: JSONValue?, _ p: String, limit: Int = textLimit) throws(SnapshotError)
    -> String
  {
    let string = try text(value, p, limit: limit)
    guard !string.unicodeScalars.contains(where: MessageText.needsEscape) else {
      throw fail(p, "\(MessageText.quoted(string)) holds a control character")
    }
    return string
  }

  /// A path as the results write them: one line, not empty.
  private func path(_ value: JSONValue?, _ p: String) throws(SnapshotError) -> String {
    let string = try line(value, p, limit: 4096)
    guard !string.isEmpty else { throw fail(p, "is empty") }
    return string
  }

  /// A SHA-256 in lower-case hex.
  private func digest(_ value: JSONValue?, _ p: String) throws(SnapshotError) -> String {
    let string = try line(value, p, limit: 64)
    guard string.count == 64,
      string.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || ("a"..."f").contains($0) })
    else {
      throw fail(p, "\(MessageText.quoted(string)) is not a SHA-256 (64 lower-case hex digits)")
    }
    return string
  }

  /// One of the names of `T` (exactly as written, not leniently).
  private func name<T: RawRepresentable & CaseIterable>(_ value: JSONValue?, _ p: String, _: T.Type)
    throws(SnapshotError)
    -> String where T.RawValue == String
  {
    let string = try line(value, p, limit: 64)
    guard T(rawValue: string) != nil else {
      throw fail(
        p,
        "expected one of \(T.allCases.map(\.rawValue).joined(separator: ", ")), found \(MessageText.quoted(string))"
      )
    }
    return string
  }

  /// A font set's name: a theme's (`orange`), or `<theme>/android` for Android's fallback.
  private func fontSetName(_ value: JSONValue?, _ p: String) throws(SnapshotError) -> String {
    let string = try line(value, p, limit: 64)
    let parts = string.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    guard (1...2).contains(parts.count), ThemeName(rawValue: parts[0]) != nil,
      parts.count == 1 || parts[1] == Platform.android.rawValue
    else {
      throw fail(
        p,
        "expected a theme (\(ThemeName.allCases.map(\.rawValue).joined(separator: ", "))), or a theme's Android set such as orange/android, found \(MessageText.quoted(string))"
      )
    }
    return string
  }

  private func bool(_ value: JSONValue?, _ p: String) throws(SnapshotError) -> Bool {
    guard let value, case .bool(let flag) = value else {
      throw fail(p, "expected true or false, found \(value?.kindName ?? "nothing")")
    }
    return flag
  }

  private func number(_ value: JSONValue?, _ p: String, _ range: ClosedRange<Double>)
    throws(SnapshotError) -> Double
  {
    guard let value, case .number(let number) = value else {
      throw fail(p, "expected a number, found \(value?.kindName ?? "nothing")")
    }
    guard range.contains(number) else {
      throw fail(p, "\(number) is outside \(range.lowerBound)…\(range.upperBound)")
    }
    return number
  }

  private func integer(_ value: JSONValue?, _ p: String, _ range: ClosedRange<Int>)
    throws(SnapshotError) -> Int
  {
    guard let value, case .number(let number) = value else {
      throw fail(p, "expected a whole number, found \(value?.kindName ?? "nothing")")
    }
    guard number.rounded() == number, number >= Double(range.lowerBound),
      number <= Double(range.upperBound)
    else {
      throw fail(
        p, "expected a whole number in \(range.lowerBound)…\(range.upperBound), found \(number)")
    }
    return Int(number)
  }
}
