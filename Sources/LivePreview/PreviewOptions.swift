import Primitives
import StrictJSON

/// What the command line gives a preview: the pictures, drawn from the words of a `render`
/// command line, and the checks of those words.
public protocol PreviewDrawing: AnyObject, Sendable {
  /// The PNG picture of a `render` command line (`words`, the list file first), with the tokens
  /// of `generation` (a new generation reads the themes folder again); `note` is given the files
  /// it reads (the list, its icons, tokens, fonts) as soon as they are known, for the watch.
  /// Called on the render thread only.
  /// - Throws: ``PreviewServer/PreviewFailure`` or the render's error, shown in the page.
  func picture(words: [String], generation: Int, note: ([String]) -> Void) throws -> [UInt8]
  /// The docs view of the list of a `render` command line (`words`, the list file first; a
  /// theme, mode or platform may be `all`) as one JSON object, the list named `listName` on the
  /// page; `generation` and `note` as for ``picture(words:generation:note:)``. Called on the
  /// render thread only.
  /// - Throws: ``PreviewServer/PreviewFailure`` or the error of the list, tokens or layout.
  func docs(words: [String], listName: String, generation: Int, note: ([String]) -> Void) throws
    -> String
  /// Checks the words of a picture's `render` command line as ``picture(words:generation:)``
  /// reads them.
  /// - Throws: the usage error, which ends the command.
  func checkPicture(_ words: [String]) throws
  /// Why `words` (a `render` command line writing with `-o`) is not a good command line, or nil.
  func checkCommand(_ words: [String]) -> String?
}

/// The options of a preview: those the page's controls set, and those of the whole run.
public struct PreviewOptions: Sendable {
  /// The `render` options the page's state sets (`--theme`, `--accessibility`…), in table order.
  public var state: [PreviewOption]
  /// The options that hold for the whole run, as words of a command line (`--scale`, `2`).
  public var fixedWords: [String]
  /// The state the page opens with, by key.
  public var startingState: [String: String]
  /// The option (with its value) a pasted list drops from ``fixedWords`` (`--input-format`): a
  /// pasted list is Markdown.
  public var listFormatOption: String?
  /// The word that selects every theme, mode or platform (`all`).
  public var everyValue: String

  /// Options from their parts (see each property).
  public init(
    state: [PreviewOption], fixedWords: [String],
    startingState: [String: String], listFormatOption: String?, everyValue: String,
    pixelScale: Int = 2
  ) {
    self.state = state
    self.fixedWords = fixedWords
    self.startingState = startingState
    self.listFormatOption = listFormatOption
    self.everyValue = everyValue
    self.pixelScale = pixelScale
  }

  /// The PNG pixels per point of the pictures (`--scale`): the page divides it out to show a
  /// picture at its true size.
  public var pixelScale: Int
}

/// A `render` option of the page's state.
public struct PreviewOption: Sendable {
  /// Its name on the command line: `--theme`.
  public var name: String
  /// Whether it takes no value (`--accessibility`: `1` in the state).
  public var isFlag: Bool

  /// The option `name`, a flag with `isFlag`.
  public init(name: String, isFlag: Bool) {
    self.name = name
    self.isFlag = isFlag
  }

  /// Its key in the page's state and URL: its name without the dashes.
  public var key: String { String(name.dropFirst(2)) }
}

/// One control of the page: a choice among words, a number in a range, or a check box.
public struct PreviewControl: Sendable {
  /// What the control offers.
  public enum Kind: Sendable {
    /// A list of `choices`; `unset` is what the empty choice means (`the list's`).
    case choices([String], unset: String)
    /// A number from `lower` to `upper`, as written on the command line.
    case range(lower: String, upper: String)
    /// A check box.
    case flag
  }

  /// The state key it sets (`theme`).
  public var key: String
  /// Its label in the page.
  public var label: String
  /// What it offers.
  public var kind: Kind
  /// Its value when the page opens with no state.
  public var value: String

  /// A control from its parts.
  public init(key: String, label: String, kind: Kind, value: String) {
    self.key = key
    self.label = label
    self.kind = kind
    self.value = value
  }

  /// The control as the page's script reads it.
  var json: String {
    let head = "{\"key\":\(JSONText.string(key)),\"label\":\(JSONText.string(label)),"
    let value = "\"value\":\(JSONText.string(value))}"
    switch kind {
    case .choices(let choices, let unset):
      return head
        + "\"choices\":\(JSONText.array(choices)),\"unset\":\(JSONText.string(unset)),\(value)"
    case .range(let lower, let upper):
      return head + "\"range\":[\(lower),\(upper)],\(value)"
    case .flag:
      return head + "\"flag\":true,\(value)"
    }
  }
}

extension PreviewControl {
  /// The page's controls: theme, mode, platform, width, text sizes, direction, text style and
  /// the accessibility overlay, with the names and ranges of the value types (as the command
  /// line's); `every` selects every theme, mode or platform.
  public static func page(every: String) -> [PreviewControl] {
    func choices(
      _ key: String, _ label: String, _ values: [String], unset: String = "", value: String = ""
    ) -> PreviewControl {
      PreviewControl(key: key, label: label, kind: .choices(values, unset: unset), value: value)
    }
    // the shortest decimal text, as the command line writes numbers
    let text = FontScale.text
    let widths = CanvasWidth.supported
    let scales = [0.85, 1, 1.15, 1.3, 1.5, 1.8, 2].filter { FontScale.supported.contains($0) }
    return [
      choices("theme", "theme", [every] + ThemeName.names, value: every),
      choices("mode", "mode", [every] + ColorMode.names, value: every),
      choices("platform", "platform", [""] + Platform.names + [every], unset: "the list's"),
      PreviewControl(
        key: "width", label: "width",
        kind: .range(lower: text(widths.lowerBound), upper: text(widths.upperBound)),
        value: text(CanvasWidth.standard)),
      choices(
        "font-scale", "font scale (Android)", [""] + scales.map(text), unset: "the list's"),
      choices(
        "content-size", "content size (iOS)", [""] + ContentSizeCategory.names,
        unset: "the list's"),
      choices("direction", "direction", [""] + LayoutDirection.names, unset: "from the locale"),
      choices("text-style", "text style", [""] + TextStyle.names, unset: "the list's"),
      PreviewControl(key: "accessibility", label: "accessibility overlay", kind: .flag, value: ""),
      PreviewControl(key: "shrink", label: "shrink to content", kind: .flag, value: ""),
    ]
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
