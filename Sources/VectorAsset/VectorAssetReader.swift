import Primitives

/// The two file formats a marker shape may be written in.
public enum VectorAssetFormat: String, Sendable, CaseIterable {
  /// SVG, a strict subset: `<svg viewBox>` with `<path d fill-rule>` children (`.svg`).
  case svg
  /// An Android VectorDrawable: `<vector android:viewportWidth/Height>` with
  /// `<path android:pathData android:fillColor android:fillType>` children (`.xml`).
  case vectorDrawable

  /// The format a file name's extension stands for (`.svg`, `.xml`, any case), or nil.
  public init?(fileName: String) {
    let lower = fileName.lowercased()
    if lower.hasSuffix(".svg") {
      self = .svg
    } else if lower.hasSuffix(".xml") {
      self = .vectorDrawable
    } else {
      return nil
    }
  }
}

/// Reads marker shapes from SVG and VectorDrawable files, in pure Swift, from the file's bytes.
///
/// Only filled paths are accepted. Everything else such a file may hold (strokes, gradients,
/// groups and transforms, external references, images, text, styles, scripts, a DOCTYPE or
/// entities) is refused with a one-line ``VectorAssetError`` naming the element or attribute and
/// its line. Nothing but the given bytes is read.
public enum VectorAssetReader {
  /// The SVG namespace, the only one an `.svg` asset may declare.
  public static let svgNamespace = "http://www.w3.org/2000/svg"
  /// The Android namespace, the only one a VectorDrawable asset may declare.
  public static let androidNamespace = "http://schemas.android.com/apk/res/android"

  /// Reads the file at `path` (format from its extension, `.svg` or `.xml`).
  /// - Throws: `VectorAssetError` for a file that cannot be read (see ``AssetFile``), another
  ///   extension, or content outside the subset.
  public static func outline(contentsOf path: String) throws(VectorAssetError) -> VectorOutline {
    guard let format = VectorAssetFormat(fileName: path) else {
      throw VectorAssetError(message: "is neither .svg nor .xml (a VectorDrawable)")
    }
    return try outline(of: try AssetFile.read(path: path), format: format)
  }

  /// Reads an asset from its bytes.
  /// - Throws: `VectorAssetError` naming the line and the element or attribute at fault.
  public static func outline(of bytes: [UInt8], format: VectorAssetFormat) throws(VectorAssetError)
    -> VectorOutline
  {
    let root = try StrictXML.parse(bytes)
    switch format {
    case .svg: return try svg(root, nearItsBox: true)
    case .vectorDrawable: return try vectorDrawable(root)
    }
  }

  /// How far past its view box a marker's outline may reach, in view box sides: a point or
  /// control point may lie at most one width left or right of the box and one height above or
  /// below it. A shape drawn in a row then stays within three boxes of it, so a bitmap drawn in
  /// bands draws each row in a few bands (an outline reaching a million boxes away would be
  /// drawn in every band, and Cairo would flatten curves of that size each time).
  public static let markerReach = 1.0

  /// Refuses `commands` when a point or control point lies past ``markerReach`` of `viewBox`.
  private static func checkReach(
    _ commands: [VectorPath.Command], of attribute: XMLAttribute, on element: XMLElement,
    viewBox: Rect
  ) throws(VectorAssetError) {
    let reach = markerReach
    let xs = (viewBox.x - reach * viewBox.width)...(viewBox.x + (1 + reach) * viewBox.width)
    let ys = (viewBox.y - reach * viewBox.height)...(viewBox.y + (1 + reach) * viewBox.height)
    for command in commands {
      let points: [VectorPath.Point]
      switch command {
      case .move(let p), .line(let p): points = [p]
      case .curve(let p, let c1, let c2): points = [p, c1, c2]
      case .close: points = []
      }
      for point in points where !xs.contains(point.x) || !ys.contains(point.y) {
        let box = [viewBox.x, viewBox.y, viewBox.width, viewBox.height].map(Echo.number)
        throw VectorAssetError(
          line: attribute.line,
          message:
            "<\(element.name)> \(attribute.name) reaches (\(Echo.number(point.x)), \(Echo.number(point.y))), more than one box side outside the view box \(box.joined(separator: " ")): a marker's outline must stay near its box"
        )
      }
    }
  }

  // MARK: SVG

  /// Reads an SVG asset; with `nearItsBox` (a marker) its outline may not reach past
  /// ``markerReach`` of its view box.
  static func svg(_ root: XMLElement, nearItsBox: Bool) throws(VectorAssetError) -> VectorOutline {
    guard root.name == "svg" else {
      throw VectorAssetError(
        line: root.line,
        message: "the root element is <\(Echo.value(root.name))>; an .svg asset starts with <svg>")
    }
    var viewBox: Rect?
    var inheritedFill = true
    var inheritedRule = VectorPath.FillRule.nonZero
    for attribute in root.attributes {
      switch attribute.name {
      case "xmlns":
        guard attribute.value == svgNamespace else {
          throw invalid(attribute, on: root, "the namespace must be \(svgNamespace)")
        }
      case "viewBox":
        viewBox = try parseViewBox(attribute, on: root)
      case "width", "height", "version", "id":
        break
      case "fill":
        inheritedFill = try svgPaints(attribute, on: root)
      case "fill-rule":
        inheritedRule = try svgFillRule(attribute, on: root)
      default:
        throw refused(
          attribute, on: root,
          allowed: "<svg>: xmlns, viewBox, width, height, version, id, fill, fill-rule")
      }
    }
    guard let viewBox else {
      throw VectorAssetError(
        line: root.line,
        message: "<svg> has no viewBox (the shape's coordinate box, e.g. viewBox=\"0 0 24 24\")")
    }
    var paths: [VectorPath] = []
    for element in root.children {
      guard element.name == "path" else { throw refused(element, in: .svg) }
      if let child = element.children.first { throw refused(child, in: .svg) }
      try refuseText(element)
      var data: XMLAttribute?
      var fills = inheritedFill
      var rule = inheritedRule
      for attribute in element.attributes {
        switch attribute.name {
        case "d": data = attribute
        case "id": break
        case "fill": fills = try svgPaints(attribute, on: element)
        case "fill-rule": rule = try svgFillRule(attribute, on: element)
        default: throw refused(attribute, on: element, allowed: "<path>: d, fill, fill-rule, id")
        }
      }
      guard let data else {
        throw VectorAssetError(
          line: element.line, message: "<path> has no d attribute (its path data)")
      }
      let commands = try pathCommands(data, on: element)
      if nearItsBox { try checkReach(commands, of: data, on: element, viewBox: viewBox) }
      if fills { paths.append(VectorPath(commands: commands, fillRule: rule)) }
    }
    try refuseText(root)
    guard !paths.isEmpty else {
      throw VectorAssetError(
        line: root.line, message: "draws nothing: no filled <path> inside <svg>")
    }
    return VectorOutline(viewBox: viewBox, paths: paths)
  }

  /// Whether an SVG `fill` value paints (`none` does not); paint servers (`url(…)`) are refused.
  private static func svgPaints(_ attribute: XMLAttribute, on element: XMLElement)
    throws(VectorAssetError) -> Bool
  {
    let value = attribute.value.trimmed
    if value == "none" { return false }
    if value.lowercased().contains("url(") {
      throw refused(
        attribute, on: element,
        reason: "gradients, patterns and external references (url(…)) are not supported")
    }
    guard isColour(value) || value == "currentColor" || value == "inherit" else {
      throw invalid(
        attribute, on: element,
        "expected a colour or none (the colour itself is replaced by the tint)")
    }
    return true
  }

  private static func svgFillRule(_ attribute: XMLAttribute, on element: XMLElement)
    throws(VectorAssetError)
    -> VectorPath.FillRule
  {
    switch attribute.value.trimmed {
    case "nonzero": return .nonZero
    case "evenodd": return .evenOdd
    default: throw invalid(attribute, on: element, "expected nonzero or evenodd")
    }
  }

  /// `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, a colour keyword, or `rgb(…)`/`rgba(…)` with numbers.
  private static func isColour(_ value: String) -> Bool {
    if value.hasPrefix("#") {
      let digits = value.dropFirst()
      return [3, 4, 6, 8].contains(digits.count) && digits.allSatisfy(\.isHexDigit)
    }
    if value.hasPrefix("rgb(") || value.hasPrefix("rgba(") {
      return value.hasSuffix(")")
        && value.drop(while: { $0 != "(" }).dropFirst().dropLast()
          .allSatisfy { $0.isNumber || " ,.%".contains($0) }
    }
    return !value.isEmpty && value.count <= 30 && value.allSatisfy { $0.isASCII && $0.isLetter }
  }

  private static func parseViewBox(_ attribute: XMLAttribute, on element: XMLElement)
    throws(VectorAssetError) -> Rect
  {
    let parts = attribute.value.split(whereSeparator: { $0 == " " || $0 == "," })
    let numbers = parts.compactMap { Double($0) }
    guard parts.count == 4, numbers.count == 4,
      numbers.allSatisfy({ $0.isFinite && abs($0) <= PathData.coordinateLimit }),
      numbers[2] > 0, numbers[3] > 0
    else {
      throw invalid(
        attribute, on: element,
        "expected four numbers: min-x min-y width height, with a positive width and height")
    }
    return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
  }

  // MARK: VectorDrawable

  private static func vectorDrawable(_ root: XMLElement) throws(VectorAssetError) -> VectorOutline {
    guard root.name == "vector" else {
      throw VectorAssetError(
        line: root.line,
        message:
          "the root element is <\(Echo.value(root.name))>; an .xml asset is an Android <vector>")
    }
    var width: Double?
    var height: Double?
    for attribute in root.attributes {
      switch attribute.name {
      case "xmlns:android":
        guard attribute.value == androidNamespace else {
          throw invalid(attribute, on: root, "the namespace must be \(androidNamespace)")
        }
      case "android:viewportWidth": width = try positive(attribute, on: root)
      case "android:viewportHeight": height = try positive(attribute, on: root)
      case "android:width", "android:height", "android:name":
        break
      default:
        throw refused(
          attribute, on: root,
          allowed:
            "<vector>: xmlns:android, android:width, android:height, android:viewportWidth, android:viewportHeight, android:name"
        )
      }
    }
    guard let width, let height else {
      throw VectorAssetError(
        line: root.line, message: "<vector> needs android:viewportWidth and android:viewportHeight")
    }
    var paths: [VectorPath] = []
    for element in root.children {
      guard element.name == "path" else { throw refused(element, in: .vectorDrawable) }
      if let child = element.children.first { throw refused(child, in: .vectorDrawable) }
      try refuseText(element)
      var data: XMLAttribute?
      var colour: XMLAttribute?
      var rule = VectorPath.FillRule.nonZero
      for attribute in element.attributes {
        switch attribute.name {
        case "android:pathData": data = attribute
        case "android:name": break
        case "android:fillColor": colour = attribute
        case "android:fillType":
          switch attribute.value.trimmed {
          case "nonZero": rule = .nonZero
          case "evenOdd": rule = .evenOdd
          default: throw invalid(attribute, on: element, "expected nonZero or evenOdd")
          }
        default:
          throw refused(
            attribute, on: element,
            allowed: "<path>: android:pathData, android:fillColor, android:fillType, android:name")
        }
      }
      guard let data else {
        throw VectorAssetError(line: element.line, message: "<path> has no android:pathData")
      }
      guard let colour else {
        throw VectorAssetError(
          line: element.line, message: "<path> has no android:fillColor (Android would not draw it)"
        )
      }
      let value = colour.value.trimmed
      if value.hasPrefix("@") || value.hasPrefix("?") {
        throw refused(
          colour, on: element,
          reason: "resource references are not supported (write a colour such as #000000)")
      }
      guard value.hasPrefix("#"), [3, 4, 6, 8].contains(value.count - 1),
        value.dropFirst().allSatisfy(\.isHexDigit)
      else {
        throw invalid(colour, on: element, "expected a colour #RGB, #ARGB, #RRGGBB or #AARRGGBB")
      }
      let commands = try pathCommands(data, on: element)
      try checkReach(
        commands, of: data, on: element, viewBox: Rect(x: 0, y: 0, width: width, height: height))
      paths.append(VectorPath(commands: commands, fillRule: rule))
    }
    try refuseText(root)
    guard !paths.isEmpty else {
      throw VectorAssetError(line: root.line, message: "draws nothing: no <path> inside <vector>")
    }
    return VectorOutline(viewBox: Rect(x: 0, y: 0, width: width, height: height), paths: paths)
  }

  private static func positive(_ attribute: XMLAttribute, on element: XMLElement)
    throws(VectorAssetError) -> Double
  {
    guard let value = Double(attribute.value.trimmed), value.isFinite, value > 0,
      value <= PathData.coordinateLimit
    else {
      throw invalid(attribute, on: element, "expected a positive number")
    }
    return value
  }

  // MARK: Shared

  /// Refuses text directly inside an element of the subset.
  private static func refuseText(_ element: XMLElement) throws(VectorAssetError) {
    if let text = element.text {
      throw VectorAssetError(
        line: text.line,
        message:
          "text \(Echo.quoted(text.excerpt)) is not allowed (an asset file holds only elements)")
    }
  }

  private static func pathCommands(_ attribute: XMLAttribute, on element: XMLElement)
    throws(VectorAssetError)
    -> [VectorPath.Command]
  {
    do {
      return try PathData.parse(attribute.value)
    } catch {
      throw VectorAssetError(
        line: attribute.line,
        message:
          "<\(element.name)> \(attribute.name): \(error.message) (character \(error.position))")
    }
  }

  /// An attribute outside the subset.
  private static func refused(_ attribute: XMLAttribute, on element: XMLElement, allowed: String)
    -> VectorAssetError
  {
    let local = attribute.name.split(separator: ":").last.map(String.init) ?? attribute.name
    let reason: String
    if local.hasPrefix("stroke") {
      reason =
        "strokes are not supported (a marker is a filled outline: convert the stroke to a path)"
    } else if local == "href" || attribute.name == "xml:base" || local == "src" {
      reason = "external references are not supported"
    } else if local.hasPrefix("on") && attribute.name.hasPrefix("on") {
      reason = "scripts are not supported"
    } else if local == "style" || local == "class" {
      reason = "styles are not supported (use the fill and fill-rule attributes)"
    } else if local == "transform" {
      reason = "transforms are not supported (apply them to the path data)"
    } else if ["opacity", "fill-opacity", "fillAlpha", "alpha", "tint", "tintMode"].contains(local)
    {
      reason = "opacity and tints are not supported (the renderer tints the marker with one colour)"
    } else if ["clip-path", "clip-rule", "mask", "filter"].contains(local) {
      reason = "clipping, masks and filters are not supported"
    } else if local.hasPrefix("trimPath") {
      reason = "trimmed paths are not supported"
    } else if local == "autoMirrored" {
      reason = "mirroring is not supported (OUDS markers are never mirrored)"
    } else if attribute.name.hasPrefix("xmlns") {
      reason = "no other namespace may be declared"
    } else {
      reason = "it is not part of the marker subset (\(allowed))"
    }
    return refused(attribute, on: element, reason: reason)
  }

  private static func refused(_ attribute: XMLAttribute, on element: XMLElement, reason: String)
    -> VectorAssetError
  {
    VectorAssetError(
      line: attribute.line,
      message:
        "attribute \(Echo.value(attribute.name)) on <\(Echo.value(element.name))> is not allowed: \(reason)"
    )
  }

  private static func invalid(
    _ attribute: XMLAttribute, on element: XMLElement, _ expectation: String
  ) -> VectorAssetError {
    VectorAssetError(
      line: attribute.line,
      message:
        "attribute \(Echo.value(attribute.name)) on <\(Echo.value(element.name))> has the value \(Echo.quoted(attribute.value)): \(expectation)"
    )
  }

  /// An element outside the subset.
  private static func refused(_ element: XMLElement, in format: VectorAssetFormat)
    -> VectorAssetError
  {
    let local = element.name.split(separator: ":").last.map(String.init) ?? element.name
    let reason: String
    switch local {
    case "linearGradient", "radialGradient", "meshgradient", "gradient", "pattern", "stop":
      reason = "gradients and patterns are not supported"
    case "image", "use", "feImage", "include", "foreignObject", "iframe", "a", "font-face-uri",
      "tref", "audio", "video":
      reason = "external references are not supported"
    case "script", "handler", "listener":
      reason = "scripts are not supported"
    case "text", "tspan", "textPath", "title", "desc", "font", "glyph":
      reason = "text is not supported"
    case "style":
      reason = "styles are not supported (use the fill and fill-rule attributes)"
    case "g", "group":
      reason = "groups are not supported (put the paths directly in the root element)"
    case "clipPath", "clip-path", "mask", "filter":
      reason = "clipping, masks and filters are not supported"
    case "attr":
      reason = "inline resources (aapt:attr, e.g. gradients) are not supported"
    case "animate", "animateMotion", "animateTransform", "set":
      reason = "animations are not supported"
    default:
      reason =
        format == .svg
        ? "an .svg asset holds only <path> elements inside <svg>"
        : "a VectorDrawable asset holds only <path> elements inside <vector>"
    }
    return VectorAssetError(
      line: element.line, message: "element <\(Echo.value(element.name))> is not allowed: \(reason)"
    )
  }
}

extension String {
  /// The string without leading and trailing ASCII white space.
  var trimmed: String {
    let space: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    return String(drop(while: space).reversed().drop(while: space).reversed())
  }
}
