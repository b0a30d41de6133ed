import Graphics
import Primitives
import SafeInput
import Snapshot

extension SnapshotRunResults {
  /// The results of one folder given to ``merge(_:)``: how to name it in a message, and what it holds.
  public struct Part: Sendable {
    /// The folder as given (on the command line), for messages.
    public var label: String
    /// Its results.
    public var results: SnapshotRunResults

    /// Creates a part.
    public init(label: String, results: SnapshotRunResults) {
      self.label = label
      self.results = results
    }
  }

  /// The results of several runs combined into the results one run over all of their references
  /// would have had.
  ///
  /// Refuses, naming the folders: results of different runs (run ids) or catalogues (digests of
  /// the case files, references and themes folder), results from different environments (render stack, font files
  /// of a theme, token digest, themes folder, recorded `ENVIRONMENT.json`), of different
  /// snapshots folders, filters or catalogues; overlapping shards (two results of the whole
  /// catalogue, shards of different splits, one shard twice, a reference in two results); and an
  /// incomplete set (a shard of the split missing, or fewer references than the catalogue holds
  /// when no filter was given).
  /// - Throws: ``SnapshotError/cannotMerge(reason:)``.
  public static func merge(_ parts: [Part]) throws(SnapshotError) -> SnapshotRunResults {
    guard let first = parts.first else { throw .cannotMerge(reason: "no results folder given") }
    func name(_ part: Part) -> String { MessageText.path(part.label) }
    func differ(_ a: Part, _ b: Part, _ what: String, _ detail: String = "") -> SnapshotError {
      .cannotMerge(
        reason: "\(name(a)) and \(name(b)) come from different \(what)"
          + (detail.isEmpty ? "" : " (\(detail))"))
    }

    // One run, one catalogue, one environment, one snapshots folder, one selection.
    for part in parts.dropFirst() {
      let a = first.results
      let b = part.results
      if a.run?.id != b.run?.id {
        func id(_ part: Part) -> String {
          guard let run = part.results.run else { return "none" }
          return run.source == SnapshotRunResults.RunIdentity.randomSource
            ? "\(run.id) (random)" : "\(run.id) (\(run.source))"
        }
        let random = [a, b].contains {
          $0.run?.source == SnapshotRunResults.RunIdentity.randomSource
        }
        throw differ(
          first, part, "runs",
          "run id \(id(first)) in \(name(first)), \(id(part)) in \(name(part))"
            + (random ? "; give every shard of one run the same --run-id or OUDS_RUN_ID" : ""))
      }
      if a.run?.catalogueSHA256 != b.run?.catalogueSHA256 {
        throw differ(
          first, part, "catalogues",
          "cases, references and themes sha256 \(a.run.map { $0.catalogueSHA256.prefix(12) + "…" } ?? "none") in \(name(first)), \(b.run.map { $0.catalogueSHA256.prefix(12) + "…" } ?? "none") in \(name(part))"
        )
      }
      if a.renderStack != b.renderStack {
        let changed = RenderStackFields.all.filter {
          a.renderStack[keyPath: $0.path] != b.renderStack[keyPath: $0.path]
        }
        .map {
          "\($0.name) \(a.renderStack[keyPath: $0.path]) in \(name(first)), \(b.renderStack[keyPath: $0.path]) in \(name(part))"
        }
        throw differ(first, part, "render stacks", changed.joined(separator: "; "))
      }
      if a.tokensSHA256 != b.tokensSHA256 {
        throw differ(
          first, part, "tokens",
          "sha256 \(a.tokensSHA256.map { $0.prefix(12) + "…" } ?? "none") in \(name(first)), \(b.tokensSHA256.map { $0.prefix(12) + "…" } ?? "none") in \(name(part))"
        )
      }
      if a.themes != b.themes {
        throw differ(
          first, part, "themes folders",
          "\(a.themes.map { "\($0.folder) (\($0.reason))" } ?? "none") in \(name(first)), \(b.themes.map { "\($0.folder) (\($0.reason))" } ?? "none") in \(name(part))"
        )
      }
      if a.snapshots != b.snapshots {
        throw differ(
          first, part, "snapshots folders",
          "\(a.snapshots ?? "none") in \(name(first)), \(b.snapshots ?? "none") in \(name(part))")
      }
      if a.recordedEnvironment != b.recordedEnvironment {
        throw differ(first, part, "references", "their ENVIRONMENT.json differ")
      }
      if a.selection.filter != b.selection.filter {
        throw differ(
          first, part, "selections",
          "--filter \(a.selection.filter.map { MessageText.quoted($0) } ?? "none") in \(name(first)), \(b.selection.filter.map { MessageText.quoted($0) } ?? "none") in \(name(part))"
        )
      }
      if a.selection.catalogueReferences != b.selection.catalogueReferences {
        throw differ(
          first, part, "catalogues",
          "\(a.selection.catalogueReferences) references in \(name(first)), \(b.selection.catalogueReferences) in \(name(part))"
        )
      }
      if a.tolerance != b.tolerance {
        throw differ(
          first, part, "tolerances",
          "\(a.tolerance) in \(name(first)), \(b.tolerance) in \(name(part))")
      }
      if a.acceptOptions != b.acceptOptions {
        throw differ(
          first, part, "command lines",
          "\(MessageText.quoted(a.acceptOptions)) in \(name(first)), \(MessageText.quoted(b.acceptOptions)) in \(name(part))"
        )
      }
    }
    // The font files of a theme, wherever it was rendered.
    var fontsByTheme: [String: (part: Part, fonts: [Font])] = [:]
    for part in parts {
      for theme in Set(part.results.fonts.map(\.theme)) {
        let fonts = part.results.fonts.filter { $0.theme == theme }
        if let earlier = fontsByTheme[theme] {
          if earlier.fonts.map(\.environmentRecord) != fonts.map(\.environmentRecord) {
            throw differ(earlier.part, part, "font files", "theme \(theme)")
          }
        } else {
          fontsByTheme[theme] = (part, fonts)
        }
      }
    }
    let verdicts = parts.filter { $0.results.tokenDifference != nil }
    if let a = verdicts.first,
      let b = verdicts.first(where: { $0.results.tokenDifference != a.results.tokenDifference })
    {
      throw differ(
        a, b, "token checks",
        "\(a.results.tokenDifference ?? "") / \(b.results.tokenDifference ?? "")")
    }
    if let a = verdicts.first,
      let b = verdicts.first(where: { $0.results.tokenCauses != a.results.tokenCauses })
    {
      throw differ(
        a, b, "changed tokens",
        "\(a.results.tokenCauses.count) / \(b.results.tokenCauses.count) token causes")
    }

    // Shards: disjoint and complete.
    if parts.count > 1, let index = parts.firstIndex(where: { $0.results.selection.shard == nil }) {
      let part = parts[index]
      let other = parts[index == 0 ? 1 : 0]
      let what = other.results.selection.shard.map { "is shard \($0)" } ?? "covers it too"
      throw .cannotMerge(
        reason:
          "\(name(part)) covers the whole selection (no --shard) and \(name(other)) \(what): they overlap"
      )
    }
    var byIndex: [Int: Part] = [:]
    if let count = first.results.selection.shard?.count {
      for part in parts {
        guard let shard = part.results.selection.shard else { continue }
        if shard.count != count {
          throw .cannotMerge(
            reason:
              "\(name(first)) is shard \(first.results.selection.shard?.description ?? "") and \(name(part)) shard \(shard): shards of different splits overlap"
          )
        }
        if let earlier = byIndex[shard.index] {
          throw .cannotMerge(reason: "\(name(earlier)) and \(name(part)) are both shard \(shard)")
        }
        byIndex[shard.index] = part
      }
      let missing = (1...count).filter { byIndex[$0] == nil }
      if !missing.isEmpty {
        let list = missing.map { "\($0)/\(count)" }
        throw .cannotMerge(
          reason:
            "incomplete: shard\(missing.count == 1 ? "" : "s") \(list.joined(separator: ", ")) missing (given: \(parts.map(name).joined(separator: ", ")))"
        )
      }
    }
    var owner: [String: Part] = [:]
    var references: [ReferenceResult] = []
    for part in parts {
      for reference in part.results.references {
        if let earlier = owner[reference.id] {
          throw .cannotMerge(
            reason: "\(reference.id) is in both \(name(earlier)) and \(name(part)): they overlap")
        }
        owner[reference.id] = part
        references.append(reference)
      }
    }
    let catalogue = first.results.selection.catalogueReferences
    if first.results.selection.filter == nil, references.count != catalogue {
      throw .cannotMerge(
        reason:
          "incomplete: \(parts.map(name).joined(separator: ", ")) hold \(references.count) references, the catalogue \(catalogue)"
      )
    }

    var fonts: [Font] = []
    for theme in ThemeName.allCases { fonts += fontsByTheme[theme.rawValue]?.fonts ?? [] }
    for theme in fontsByTheme.keys.sorted() where ThemeName(rawValue: theme) == nil {
      fonts += fontsByTheme[theme]?.fonts ?? []
    }
    var merged = SnapshotRunResults(
      snapshots: first.results.snapshots, themes: first.results.themes,
      renderStack: first.results.renderStack,
      tokensSHA256: first.results.tokensSHA256, fonts: fonts,
      recordedEnvironment: first.results.recordedEnvironment,
      tokenDifference: parts.lazy.compactMap(\.results.tokenDifference).first,
      selection: Selection(
        filter: first.results.selection.filter, shard: nil, catalogueReferences: catalogue),
      acceptOptions: first.results.acceptOptions,
      seconds: parts.map(\.results.seconds).reduce(0, +),
      caseErrors: parts.flatMap(\.results.caseErrors), references: references)
    merged.run = first.results.run
    merged.tolerance = first.results.tolerance
    merged.tokenCauses = verdicts.first?.results.tokenCauses ?? []
    return merged
  }
}
