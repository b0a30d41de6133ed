import BulletListRenderer
import Graphics
import PreviewServer
import Primitives
import SafeInput
import StrictJSON
import Threads

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `preview` shows: the list (or the lists of a folder, or the pasted one), drawn through
/// ``ListJob`` with `render`'s options, one picture per request.
final class PreviewLists: PreviewContent, @unchecked Sendable {
  /// The list file or folder as given.
  let target: String
  /// Whether ``target`` is a folder of lists.
  let isFolder: Bool
  /// The options that hold for the whole run, as words of a command line.
  let fixedWords: [String]
  /// The state the page opens with, by key.
  let startingState: [String: String]
  /// The folder of the pasted list (`pasted.md`), made at start and removed at the end.
  let temporaryFolder: String
  /// The files the pictures were drawn from (icons, tokens, fonts), for the watch.
  let noted = Locked<Set<String>>([])
  private let generation = Locked(0)
  // The render thread's own: the renderer of the current generation, the lines printed.
  private var renderer: (generation: Int, renderer: BulletListRenderer)?
  private var printed: Set<String> = []

  /// The most lists a folder may offer.
  static let maximumLists = 500
  /// The folder previewed when none is given: the snapshot catalogue's cases.
  static let defaultFolder = "Snapshots/cases"
  /// The name of the pasted list, in messages and the command line.
  static let pastedName = "pasted.md"

  /// Checks the list or folder argument and the options, and makes the pasted list's folder.
  /// - Throws: ``UsageError`` for a path that is neither a list file nor a folder,
  ///   ``PreviewError`` when the temporary folder cannot be made.
  init(_ arguments: ParsedArguments) throws {
    if let given = arguments.positionals.first {
      target = given
    } else if UserFile.type(atPath: Self.defaultFolder) == .directory {
      target = Self.defaultFolder
    } else {
      throw UsageError(
        "no <list|folder> given and no \(Self.defaultFolder)/ here: give a list file or a folder of lists"
      )
    }
    switch UserFile.type(atPath: target) {
    case .directory?: isFolder = true
    case .regular?: isFolder = false
    case nil: throw UsageError("\(MessageText.path(target)): no such file or folder")
    default:
      throw UsageError("\(MessageText.path(target)): not a list file or a folder of lists")
    }
    fixedWords = PreviewCommand.fixedOptions.flatMap { option in
      arguments.givenText(option).map { [option.key, $0] } ?? []
    }
    var state: [String: String] = [:]
    for option in PreviewCommand.stateOptions {
      let key = Self.stateKey(option)
      if case .flag = option.value {
        if arguments.has(option) { state[key] = "1" }
      } else if let text = arguments.givenText(option) {
        state[key] = text
      }
    }
    if state["theme"] == nil { state["theme"] = Vocabulary.all }
    if state["mode"] == nil { state["mode"] = Vocabulary.all }
    startingState = state
    let base =
      ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array((base + "/ouds-preview.XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else {
      throw PreviewError(
        description:
          "preview: cannot make a folder for pasted lists in \(MessageText.path(base)): \(String(cString: strerror(errno)))"
      )
    }
    temporaryFolder = String(cString: made)
  }

  /// The key of an option in the page's state and URL: its name without the dashes.
  static func stateKey(_ option: OptionSpec) -> String { String(option.key.dropFirst(2)) }

  /// `{"changed":"…"}`: the data of an update event.
  static func changeData(_ changed: String) -> String {
    "{\"changed\":\(JSONText.string(changed))}"
  }

  /// Removes the pasted list's folder.
  func removeTemporaryFolder() {
    unlink(temporaryFolder + "/" + Self.pastedName)
    rmdir(temporaryFolder)
  }

  /// Starts a new generation: the next picture reads the tokens again.
  func invalidate() { generation.withLock { $0 += 1 } }

  // MARK: PreviewContent

  /// The list, the source, and the state options' keys.
  var stateKeys: [String] { ["list", "source"] + PreviewCommand.stateOptions.map(Self.stateKey) }

  /// A list file's limit.
  var maximumPasteBytes: Int { UserFileKind.list.maximumBytes }

  /// The lists of the folder (sorted file names), or none for a list file.
  func listNames() -> [String] {
    guard isFolder else { return [] }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: target)) ?? []
    return Array(
      names.filter { name in
        !name.hasPrefix(".")
          && ["json", "md", "markdown"].contains(PathText.pathExtension(name).lowercased())
          && UserFile.type(atPath: target + "/" + name) == .regular
      }.sorted().prefix(Self.maximumLists))
  }

  func configuration() -> String {
    var controls: [String] = []
    func choices(
      _ key: String, _ label: String, _ values: [String], unset: String = "", value: String
    ) {
      controls.append(
        "{\"key\":\(JSONText.string(key)),\"label\":\(JSONText.string(label)),\"choices\":\(JSONText.array(values)),\"unset\":\(JSONText.string(unset)),\"value\":\(JSONText.string(value))}"
      )
    }
    let all = Vocabulary.all
    choices("theme", "theme", [all] + Vocabulary.themes.names, value: all)
    choices("mode", "mode", [all] + Vocabulary.modes.names, value: all)
    choices(
      "platform", "platform", [""] + Vocabulary.platforms.names + [all], unset: "the list's",
      value: "")
    let widths = Vocabulary.canvasWidths
    controls.append(
      "{\"key\":\"width\",\"label\":\"width\",\"range\":[\(ParsedArguments.numberText(widths.lowerBound)),\(ParsedArguments.numberText(widths.upperBound))],\"value\":\(JSONText.string(ParsedArguments.numberText(Vocabulary.standardCanvasWidth)))}"
    )
    let scales = [0.85, 1, 1.15, 1.3, 1.5, 1.8, 2].filter { FontScale.supported.contains($0) }
    choices(
      "font-scale", "font scale (Android)", [""] + scales.map(ParsedArguments.numberText),
      unset: "the list's", value: "")
    choices(
      "content-size", "content size (iOS)", [""] + Vocabulary.contentSizes.names,
      unset: "the list's", value: "")
    choices(
      "direction", "direction", [""] + Vocabulary.directions.names, unset: "from the locale",
      value: "")
    choices(
      "text-style", "text style", [""] + Vocabulary.textStyles.names, unset: "the list's", value: ""
    )
    controls.append(
      "{\"key\":\"accessibility\",\"label\":\"accessibility overlay\",\"flag\":true,\"value\":\"\"}"
    )
    let state = startingState.sorted { $0.key < $1.key }.map {
      "\(JSONText.string($0.key)):\(JSONText.string($0.value))"
    }
    let name = isFolder ? target + "/" : target
    return
      "{\"name\":\(JSONText.string(name)),\"lists\":\(JSONText.array(listNames())),\"generation\":\(generation.withLock { $0 }),\"controls\":[\(controls.joined(separator: ","))],\"state\":{\(state.joined(separator: ","))}}"
  }

  /// The list file `state` names: the list, a list of the folder, or the pasted one.
  private func listPath(_ state: [String: String]) throws(PreviewFailure) -> String {
    if state["source"] == "pasted" {
      let path = temporaryFolder + "/" + Self.pastedName
      guard UserFile.type(atPath: path) != nil else {
        throw PreviewFailure("nothing pasted yet: paste a Markdown list below")
      }
      return path
    }
    if let source = state["source"], !source.isEmpty {
      throw PreviewFailure("source \(MessageText.quoted(source)): only 'pasted' is known")
    }
    guard isFolder else { return target }
    let names = listNames()
    guard let name = state["list"] ?? names.first else {
      throw PreviewFailure("\(MessageText.path(target)) holds no list (.json, .md or .markdown)")
    }
    guard names.contains(name) else {
      throw PreviewFailure(
        "list \(MessageText.quoted(name)): no such list in \(MessageText.path(target))")
    }
    return target.hasSuffix("/") ? target + name : target + "/" + name
  }

  /// The command-line words of `state`'s options, in table order.
  private func stateWords(_ state: [String: String]) -> [String] {
    var words: [String] = []
    for option in PreviewCommand.stateOptions {
      guard let value = state[Self.stateKey(option)], !value.isEmpty else { continue }
      if case .flag = option.value {
        if value == "1" { words.append(option.key) }
      } else {
        words += [option.key, value]
      }
    }
    return words
  }

  /// Checks the options the page opens with as a picture would (a usage mistake ends the command
  /// now, exit 2, rather than showing in every picture).
  func checkStartingState() throws {
    var state = startingState
    state["theme"] = nil
    state["mode"] = nil
    if state["platform"] == Vocabulary.all { state["platform"] = nil }
    _ = try ParsedArguments(
      [target] + fixedWords + stateWords(state), spec: PreviewCommand.pictureSpec,
      command: "render")
  }

  func picture(for state: [String: String]) -> Result<[UInt8], PreviewFailure> {
    heldErrorLines.withLock { $0 = [] }
    defer {
      let lines = heldErrorLines.withLock { held in
        defer { held = nil }
        return held ?? []
      }
      for line in lines where printed.insert(line).inserted { printError(line) }
    }
    do {
      let path = try listPath(state)
      // a pasted list is Markdown whatever --input-format says of the list files
      let fixed =
        state["source"] == "pasted"
        ? Self.removing(ListOptions.inputFormat, from: fixedWords) : fixedWords
      let arguments = try ParsedArguments(
        [path] + fixed + stateWords(state), spec: PreviewCommand.pictureSpec,
        command: "render")
      if ListJob.isMatrix(arguments) {
        throw PreviewFailure("one picture per request: give one theme, mode and platform")
      }
      let current = generation.withLock { $0 }
      let cached = renderer?.generation == current ? renderer?.renderer : nil
      let job = try ListJob(arguments: arguments, renderer: cached)
      renderer = (current, job.renderer)
      noted.withLock { $0.formUnion(job.inputFiles.paths) }
      let picture = try job.attributingErrors {
        try job.renderer.render(
          job.document.list, theme: job.themes.first ?? .orange, mode: job.modes.first ?? .light,
          options: job.options, format: .png(scale: job.scale(arguments)))
      }
      return .success([UInt8](picture.data))
    } catch let failure as PreviewFailure {
      return .failure(failure)
    } catch {
      return .failure(PreviewFailure(readable("\(error)")))
    }
  }

  /// `words` without `option` and its value.
  static func removing(_ option: OptionSpec, from words: [String]) -> [String] {
    guard let index = words.firstIndex(of: option.key) else { return words }
    return Array(words[..<index] + words[min(words.count, index + 2)...])
  }

  /// A message with the pasted list's folder left out: `pasted.md: line 3: …`.
  private func readable(_ message: String) -> String {
    MessageText.line(message.replacingEvery(temporaryFolder + "/", with: ""))
  }

  func command(for state: [String: String]) -> Result<String, PreviewFailure> {
    let list: String
    do {
      list =
        state["source"] == "pasted"
        ? Self.pastedName : try listPath(state)
    } catch {
      return .failure(error)
    }
    let fixed =
      state["source"] == "pasted"
      ? Self.removing(ListOptions.inputFormat, from: fixedWords) : fixedWords
    let words = [list] + stateWords(state) + fixed
    let matrix = [state["theme"], state["mode"], state["platform"]].contains(Vocabulary.all)
    let output = ["-o", matrix ? "preview/" : "preview.png"]
    do {
      _ = try ParsedArguments(words + output, spec: RenderCommand.spec, command: "render")
    } catch {
      return .failure(PreviewFailure(error.description))
    }
    return .success(
      (["ouds-render", "render"] + words + output).map(shellQuote).joined(separator: " "))
  }

  func paste(_ text: [UInt8], oversized: Int?) -> PreviewFailure? {
    if let oversized {
      return PreviewFailure(
        UserFileError(
          path: Self.pastedName, kind: .list,
          problem: .tooLarge(bytes: oversized, limit: maximumPasteBytes)
        ).description)
    }
    do {
      try AtomicFile.write(
        Data(text), to: temporaryFolder + "/" + Self.pastedName, protecting: InputFiles())
    } catch {
      return PreviewFailure(readable(error.description))
    }
    return nil
  }
}

/// JSON text of strings, for the page's configuration.
enum JSONText {
  /// `text` as a JSON string that may sit in the page (`<` escaped too).
  static func string(_ text: String) -> String { JSONStringLiteral.quoted(text, forHTML: true) }

  /// `["a","b"]`.
  static func array(_ texts: [String]) -> String {
    "[" + texts.map(string).joined(separator: ",") + "]"
  }
}
