import FileWatch
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

/// What `preview` shows: the list (or the lists of a folder, or the pasted one) in the state the
/// page asks for, drawn by the command line's ``PreviewDrawing`` from the words of a `render`
/// command, one picture per request.
public final class PreviewLists: PreviewContent, @unchecked Sendable {
  /// The list file or folder as given.
  public let target: String
  /// Whether ``target`` is a folder of lists.
  public let isFolder: Bool
  /// The options of the page's state and of the whole run.
  public let options: PreviewOptions
  /// The folder of the pasted list (`pasted.md`), made at start and removed at the end.
  public let temporaryFolder: String
  /// The files the pictures were drawn from (icons, tokens, fonts), for the watch.
  public let noted = Locked<Set<String>>([])
  private let drawing: any PreviewDrawing
  private let generation = Locked(0)

  /// The folder previewed when none is given: the snapshot catalogue's cases.
  public static let defaultFolder = "Snapshots/cases"
  /// The most lists a folder offers (a design system's catalogue fits); the page and standard
  /// error say how many more a folder holds.
  public static let maximumLists = 10_000
  /// The name of the pasted list, in messages and the command line.
  public static let pastedName = "pasted.md"

  /// Shows `target` (a list file, or a folder of lists with `isFolder`) with `options`, drawn by
  /// `drawing`, and makes the pasted list's folder.
  /// - Throws: ``PreviewError`` when the temporary folder cannot be made.
  public init(
    target: String, isFolder: Bool, options: PreviewOptions, drawing: any PreviewDrawing
  ) throws(PreviewError) {
    self.target = target
    self.isFolder = isFolder
    self.options = options
    self.drawing = drawing
    let base =
      ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    Self.removeLeftovers(in: base)
    var template = Array((base + "/ouds-preview.\(getpid()).XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else {
      throw PreviewError(
        description:
          "preview: cannot make a folder for pasted lists in \(MessageText.path(base)): \(String(cString: strerror(errno)))"
      )
    }
    temporaryFolder = String(cString: made)
  }

  /// The list file or folder `given` names (``defaultFolder`` when nil and there is one here),
  /// and whether it is a folder.
  /// - Throws: ``PreviewServer/PreviewFailure``, a usage mistake: a path that is neither a list
  ///   file nor a folder, or none given without a default folder.
  public static func target(_ given: String?) throws(PreviewFailure) -> (
    path: String, isFolder: Bool
  ) {
    let target: String
    if let given {
      target = given
    } else if UserFile.type(atPath: defaultFolder) == .directory {
      target = defaultFolder
    } else {
      throw PreviewFailure(
        "no <list|folder> given and no \(defaultFolder)/ here: give a list file or a folder of lists"
      )
    }
    switch UserFile.type(atPath: target) {
    case .directory?: return (target, true)
    case .regular?: return (target, false)
    case nil: throw PreviewFailure("\(MessageText.path(target)): no such file or folder")
    default:
      throw PreviewFailure("\(MessageText.path(target)): not a list file or a folder of lists")
    }
  }

  /// What to watch: the list file (its folder must be watchable) or the folder of lists.
  public var watchTargets: WatchTargets {
    var targets = WatchTargets()
    if isFolder {
      targets.insert(folder: target)
    } else {
      targets.insert(file: target, required: true)
    }
    return targets
  }

  /// `{"changed":"…"}`: the data of an update event.
  public static func changeData(_ changed: String) -> String {
    "{\"changed\":\(JSONText.string(changed))}"
  }

  /// Removes the `ouds-preview.<pid>.*` folders in `base` that this user's previews left when
  /// they died (killed, the machine stopped): the process `<pid>` no longer runs.
  static func removeLeftovers(in base: String) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: base) else { return }
    for name in names where name.hasPrefix("ouds-preview.") {
      let parts = name.split(separator: ".")
      guard parts.count == 3, let pid = Int32(parts[1]), pid > 0, pid != getpid() else { continue }
      let folder = base + "/" + name
      var status = stat()
      guard lstat(folder, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR,
        status.st_uid == geteuid()
      else { continue }
      // Alive (or another user's process, which this user cannot signal): left alone.
      if kill(pid, 0) == 0 || errno != ESRCH { continue }
      unlink(folder + "/" + Self.pastedName)
      rmdir(folder)
    }
  }

  /// Removes the pasted list's folder.
  public func removeTemporaryFolder() {
    unlink(temporaryFolder + "/" + Self.pastedName)
    rmdir(temporaryFolder)
  }

  /// Starts a new generation: the next picture reads the tokens again.
  public func invalidate() { generation.withLock { $0 += 1 } }

  // MARK: PreviewContent

  /// The list, the source, and the state options' keys.
  public var stateKeys: [String] { ["list", "source"] + options.state.map(\.key) }

  /// A list file's limit.
  public var maximumPasteBytes: Int { UserFileKind.list.maximumBytes }

  /// The lists of the folder offered (sorted file names, the first ``maximumLists``), or none
  /// for a list file.
  public func listNames() -> [String] { Array(allListNames().prefix(Self.maximumLists)) }

  /// Every list of the folder (sorted file names), or none for a list file.
  private func allListNames() -> [String] {
    guard isFolder else { return [] }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: target)) ?? []
    return names.filter { name in
      !name.hasPrefix(".")
        && ["json", "md", "markdown"].contains(PathText.pathExtension(name).lowercased())
        && UserFile.type(atPath: target + "/" + name) == .regular
    }.sorted()
  }

  /// How many lists of the folder are not offered, and why in one line (nil when all are).
  public func leftOut() -> (count: Int, reason: String)? {
    let count = allListNames().count
    guard count > Self.maximumLists else { return nil }
    let more = count - Self.maximumLists
    return (
      more,
      "\(more) list\(more == 1 ? "" : "s") of \(MessageText.path(target)) left out: the preview offers the first \(Self.maximumLists) of its \(count) lists (by name); preview a smaller folder to see the others"
    )
  }

  /// The page's controls, its lists and the state it opens with, as one JSON object.
  public func configuration() -> String {
    let state = options.startingState.sorted { $0.key < $1.key }.map {
      "\(JSONText.string($0.key)):\(JSONText.string($0.value))"
    }
    let name = isFolder ? target + "/" : target
    let controls = PreviewControl.page(every: options.everyValue).map(\.json)
      .joined(separator: ",")
    let left = leftOut()
    return
      "{\"name\":\(JSONText.string(name)),\"lists\":\(JSONText.array(listNames())),\"leftOut\":\(left?.count ?? 0),\"leftOutReason\":\(JSONText.string(left?.reason ?? "")),\"generation\":\(generation.withLock { $0 }),\"scale\":\(options.pixelScale),\"controls\":[\(controls)],\"state\":{\(state.joined(separator: ","))}}"
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
      if allListNames().contains(name) {
        throw PreviewFailure(
          "list \(MessageText.quoted(name)): not offered: the preview offers the first \(Self.maximumLists) lists of \(MessageText.path(target)) by name, and this one comes after them; preview a smaller folder"
        )
      }
      throw PreviewFailure(
        "list \(MessageText.quoted(name)): no such list in \(MessageText.path(target))")
    }
    return target.hasSuffix("/") ? target + name : target + "/" + name
  }

  /// The command-line words of `state`'s options, in table order.
  private func stateWords(_ state: [String: String]) -> [String] {
    var words: [String] = []
    for option in options.state {
      guard let value = state[option.key], !value.isEmpty else { continue }
      if option.isFlag {
        if value == "1" { words.append(option.name) }
      } else {
        words += [option.name, value]
      }
    }
    return words
  }

  /// The options of the whole run for `state`: a pasted list is Markdown whatever the list
  /// format option says of the list files.
  private func fixedWords(_ state: [String: String]) -> [String] {
    guard state["source"] == "pasted", let format = options.listFormatOption,
      let index = options.fixedWords.firstIndex(of: format)
    else { return options.fixedWords }
    let words = options.fixedWords
    return Array(words[..<index] + words[min(words.count, index + 2)...])
  }

  /// Checks the options the page opens with as a picture would (a usage mistake ends the command
  /// now, exit 2, rather than showing in every picture).
  /// - Throws: what ``PreviewDrawing/checkPicture(_:)`` throws.
  public func checkStartingState() throws {
    var state = options.startingState
    state["theme"] = nil
    state["mode"] = nil
    if state["platform"] == options.everyValue { state["platform"] = nil }
    try drawing.checkPicture([target] + options.fixedWords + stateWords(state))
  }

  /// The PNG picture of the list `state` names in `state`'s options, or why not (one line).
  public func picture(for state: [String: String]) -> Result<[UInt8], PreviewFailure> {
    do {
      let path = try listPath(state)
      let current = generation.withLock { $0 }
      let picture = try drawing.picture(
        words: [path] + fixedWords(state) + stateWords(state), generation: current
      ) { files in noted.withLock { $0.formUnion(files) } }
      return .success(picture)
    } catch let failure as PreviewFailure {
      return .failure(failure)
    } catch {
      return .failure(PreviewFailure(readable("\(error)")))
    }
  }

  /// The docs view of the list `state` names, in `state`'s themes, modes and platforms (each may
  /// be `all`), or why not (one line).
  public func docs(for state: [String: String]) -> Result<String, PreviewFailure> {
    do {
      let path = try listPath(state)
      let current = generation.withLock { $0 }
      let json = try drawing.docs(
        words: [path] + fixedWords(state) + stateWords(state),
        listName: state["source"] == "pasted" ? Self.pastedName : path, generation: current
      ) { files in noted.withLock { $0.formUnion(files) } }
      return .success(json)
    } catch let failure as PreviewFailure {
      return .failure(failure)
    } catch {
      return .failure(PreviewFailure(readable("\(error)")))
    }
  }

  /// A message with the pasted list's folder left out: `pasted.md: line 3: …`.
  private func readable(_ message: String) -> String {
    MessageText.line(message.replacingEvery(temporaryFolder + "/", with: ""))
  }

  /// The `ouds-render render …` line that draws what the page shows in `state`, writing
  /// `preview.png` (or the folder `preview/` for several pictures).
  public func command(for state: [String: String]) -> Result<String, PreviewFailure> {
    let list: String
    do {
      list =
        state["source"] == "pasted"
        ? Self.pastedName : try listPath(state)
    } catch {
      return .failure(error)
    }
    let words = [list] + stateWords(state) + fixedWords(state)
    let every = options.everyValue
    let matrix = [state["theme"], state["mode"], state["platform"]].contains(every)
    let output = ["-o", matrix ? "preview/" : "preview.png"]
    if let problem = drawing.checkCommand(words + output) {
      return .failure(PreviewFailure(problem))
    }
    let line = (["ouds-render", "render"] + words + output).map(shellQuote).joined(separator: " ")
    guard state["source"] == "pasted" else { return .success(line) }
    // The pasted list is in no file of the user's: the command writes it to pasted.md first
    // (a quoted here-document: nothing in it is expanded), so that it runs as it is.
    let path = temporaryFolder + "/" + Self.pastedName
    guard let data = try? UserFile.read(path, kind: .list) else {
      return .failure(PreviewFailure("nothing pasted yet: paste a Markdown list below"))
    }
    let text = String(decoding: data, as: UTF8.self)
    var end = "END_OF_LIST"
    while text.split(separator: "\n", omittingEmptySubsequences: false).contains(Substring(end)) {
      end += "_"
    }
    let body = text.hasSuffix("\n") ? text : text + "\n"
    return .success("cat > \(Self.pastedName) <<'\(end)'\n\(body)\(end)\n\(line)")
  }

  /// Keeps `text` as the pasted list (`pasted.md`), or says why not: too large, or not written.
  public func paste(_ text: [UInt8], oversized: Int?) -> PreviewFailure? {
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

/// The preview could not start: one line, exit 1.
public struct PreviewError: Error, CustomStringConvertible {
  /// The message.
  public var description: String

  /// The error saying `description`.
  public init(description: String) { self.description = description }
}
