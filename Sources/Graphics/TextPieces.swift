internal import CGraphics
internal import CGraphicsLoader
import Primitives
import Scene

extension TextLayout {
  /// Makes the PangoLayout of one slice of a paragraph.
  struct PieceBuilder {
    let context: OpaquePointer
    let text: StyledText
    let bytes: [UInt8]
    let language: OpaquePointer?
    let wrapWidth: Double?
    let alignment: TextAlignment
    /// Byte range of every span with inline styling.
    let styled: [(range: Range<Int>, span: TextSpan)]
    let seamCharacters: Int
    /// Android's setting: each word its own item, and no line break after a hyphen.
    let wordByWord: Bool
    /// Android's line growth under a fallback font (``TextLayout/fallbackGrowth``): the height of
    /// every line and the centre of the tallest font's line box relative to the baseline, in
    /// Pango units; nil when the paragraph keeps its text style's line height.
    var growth: (lineHeight: Int32, centre: Int32)?
    /// The range the growth was looked up on and the line heights its runs need: a piece of
    /// that range is laid out once, with them.
    var probed: (range: Range<Int>, overrides: [(range: Range<Int>, lineHeight: Int32)])?

    init(
      context: OpaquePointer, text: StyledText, bytes: [UInt8], language: OpaquePointer?,
      wrapWidth: Double?, alignment: TextAlignment, seamCharacters: Int, wordByWord: Bool
    ) {
      self.seamCharacters = seamCharacters
      self.wordByWord = wordByWord
      self.context = context
      self.text = text
      self.bytes = bytes
      self.language = language
      self.wrapWidth = wrapWidth
      self.alignment = alignment
      var styled: [(range: Range<Int>, span: TextSpan)] = []
      var start = 0
      for span in text.spans {
        let end = start + span.text.utf8.count
        if end > start, span.weight != nil || span.italic || span.color != nil {
          styled.append((start..<end, span))
        }
        start = end
      }
      self.styled = styled
    }

    /// Lays out `range`; keeps every line, or with `droppingLast` every line but the last (when
    /// there are two or more).
    func piece(
      _ range: Range<Int>, top: Int, droppingLast: Bool, laidOut: OpaquePointer? = nil
    ) -> Piece {
      var handle: OpaquePointer
      if let laidOut {
        handle = laidOut
      } else if growth != nil, let probed, probed.range == range {
        handle = layout(range, runLineHeights: probed.overrides)
      } else {
        handle = layout(range)
      }
      if let growth, probed?.range != range {
        let overrides = runLineHeights(handle, growth: growth)
        if !overrides.isEmpty {
          ouds_g_object_unref(UnsafeMutableRawPointer(handle))
          handle = layout(range, runLineHeights: overrides)
        }
      }
      let lineCount = Int(ouds_pango_layout_get_line_count(handle))
      var logical = PangoRectangle()
      ouds_pango_layout_get_extents(handle, nil, &logical)
      guard droppingLast, lineCount > 1, let iterator = ouds_pango_layout_get_iter(handle) else {
        // All lines: the whole slice (a single line longer than a slice is cut at the slice's end).
        return Piece(
          handle: handle, offset: range.lowerBound, keptLines: lineCount, lineCount: lineCount,
          top: top, height: Int(logical.height), nextStart: range.count, drawsWhole: true)
      }
      defer { ouds_pango_layout_iter_free(iterator) }
      var bottom: Int32 = 0
      for _ in 0..<(lineCount - 1) {
        var y0: Int32 = 0
        ouds_pango_layout_iter_get_line_yrange(iterator, &y0, &bottom)
        _ = ouds_pango_layout_iter_next_line(iterator)
      }
      let last = ouds_pango_layout_iter_get_line_readonly(iterator)
      let lastStart = last.map { Int($0.pointee.start_index) } ?? range.count
      return Piece(
        handle: handle, offset: range.lowerBound, keptLines: lineCount - 1, lineCount: lineCount,
        top: top, height: Int(bottom), nextStart: lastStart, drawsWhole: lastStart == range.count)
    }

    /// Pango gives each run a line box of the absolute line height centred on its own font's
    /// ascent and descent, and a line is the union of its runs' boxes: runs in fonts of another
    /// centre would make a grown line taller than its height. Each such run gets a line height
    /// that keeps its box inside the tallest font's: the byte ranges, relative to the layout's
    /// text, and their line heights in Pango units.
    func runLineHeights(
      _ handle: OpaquePointer, growth: (lineHeight: Int32, centre: Int32)
    ) -> [(range: Range<Int>, lineHeight: Int32)] {
      guard let iterator = ouds_pango_layout_get_iter(handle) else { return [] }
      defer { ouds_pango_layout_iter_free(iterator) }
      var overrides: [(range: Range<Int>, lineHeight: Int32)] = []
      // The runs of the current line: their byte ranges and centres.
      var line: [(range: Range<Int>, centre: Int32)] = []
      func close() {
        // Pango halves the leading in whole units: a unit or two is no other centre. A line
        // without the tallest font keeps its first run's centre (and its full height).
        let reference =
          line.contains { abs($0.centre - growth.centre) <= 2 }
          ? growth.centre : line.first?.centre ?? growth.centre
        for run in line {
          let offset = abs(run.centre - reference)
          guard offset > 2 else { continue }
          overrides.append((run.range, max(1, growth.lineHeight - 2 * offset)))
        }
        line = []
      }
      repeat {
        guard let run = ouds_pango_layout_iter_get_run_readonly(iterator),
          let item = run.pointee.item
        else {
          close()  // the end of a line
          continue
        }
        var logical = PangoRectangle()
        ouds_pango_layout_iter_get_run_extents(iterator, nil, &logical)
        let centre = logical.y + logical.height / 2 - ouds_pango_layout_iter_get_baseline(iterator)
        let start = Int(item.pointee.offset)
        line.append((start..<(start + Int(item.pointee.length)), centre))
      } while ouds_pango_layout_iter_next_run(iterator) != 0
      close()
      return overrides
    }

    /// The PangoLayout of the bytes in `range`, with the paragraph's font, attributes and width;
    /// `runLineHeights` (relative to `range`) replace the line height where they are.
    func layout(
      _ range: Range<Int>, runLineHeights: [(range: Range<Int>, lineHeight: Int32)] = []
    ) -> OpaquePointer {
      // pango_layout_new never returns NULL (GObject allocation aborts on failure).
      let handle: OpaquePointer = ouds_pango_layout_new(context)
      let appearance = text.appearance
      ouds_pango_layout_set_auto_dir(handle, 0)

      // The characters go in as plain UTF-8: never through markup.
      bytes.withUnsafeBufferPointer { buffer in
        guard let base = buffer.baseAddress, !range.isEmpty else {
          ouds_pango_layout_set_text(handle, "", 0)
          return
        }
        UnsafeRawPointer(base + range.lowerBound).withMemoryRebound(
          to: CChar.self, capacity: range.count
        ) {
          ouds_pango_layout_set_text(handle, $0, Int32(range.count))
        }
      }

      if let description = TextLayout.fontDescription(appearance) {
        ouds_pango_layout_set_font_description(handle, description)
        ouds_pango_font_description_free(description)
      }

      if let attributes = ouds_pango_attr_list_new() {
        func add(_ attribute: UnsafeMutablePointer<PangoAttribute>?, from start: Int, to end: Int) {
          guard let attribute else { return }
          attribute.pointee.start_index = guint(start)
          attribute.pointee.end_index = guint(end)
          ouds_pango_attr_list_insert(attributes, attribute)
        }
        let whole = Int(UInt32.max)  // PANGO_ATTR_INDEX_TO_TEXT_END
        add(
          ouds_pango_attr_line_height_new_absolute(
            growth?.lineHeight ?? pangoUnits(appearance.lineHeight)), from: 0,
          to: whole
        )
        for (runRange, lineHeight) in runLineHeights {
          add(
            ouds_pango_attr_line_height_new_absolute(lineHeight), from: runRange.lowerBound,
            to: runRange.upperBound)
        }
        add(
          ouds_pango_attr_letter_spacing_new(pangoUnits(appearance.letterSpacing)), from: 0,
          to: whole)
        if let language { add(ouds_pango_attr_language_new(language), from: 0, to: whole) }
        for (spanRange, span) in styledSpans(overlapping: range) {
          let start = max(spanRange.lowerBound, range.lowerBound) - range.lowerBound
          let end = min(spanRange.upperBound, range.upperBound) - range.lowerBound
          if let weight = span.weight {
            add(
              ouds_pango_attr_weight_new(PangoWeight(UInt32(clamping: weight))), from: start,
              to: end)
          }
          if span.italic {
            add(ouds_pango_attr_style_new(PANGO_STYLE_ITALIC), from: start, to: end)
          }
          // Underlines are drawn by `drawUnderlines`, clear of the glyphs, not by Pango.
          if let color = span.color {
            add(
              ouds_pango_attr_foreground_new(
                guint16(color.red) * 257, guint16(color.green) * 257, guint16(color.blue) * 257),
              from: start, to: end)
            add(
              ouds_pango_attr_foreground_alpha_new(guint16(color.alpha) * 257), from: start, to: end
            )
          }
        }
        // Item cuts in long unbreakable runs: an attribute that changes nothing (font fallback is
        // on by default) on every other stretch between cuts makes each cut an item boundary.
        let cuts = seams(in: range)
        var index = 0
        while index + 1 < cuts.count {
          add(ouds_pango_attr_fallback_new(1), from: cuts[index], to: cuts[index + 1])
          index += 2
        }
        if wordByWord {
          // Android shapes word by word: the same no-op attribute on the spaces makes each word
          // an item of its own, shaped alone (no kerning across a space); the spaces keep their
          // own advance.
          for run in spaceRuns(in: range) {
            add(ouds_pango_attr_fallback_new(1), from: run.lowerBound, to: run.upperBound)
          }
          for kept in hyphenRanges(in: range) {
            add(ouds_pango_attr_allow_breaks_new(0), from: kept.lowerBound, to: kept.upperBound)
          }
        }
        ouds_pango_layout_set_attributes(handle, attributes)
        ouds_pango_attr_list_unref(attributes)
      }

      if let wrapWidth {
        ouds_pango_layout_set_width(handle, pangoUnits(wrapWidth))
        ouds_pango_layout_set_wrap(handle, PANGO_WRAP_WORD_CHAR)
      } else {
        ouds_pango_layout_set_width(handle, -1)
      }
      ouds_pango_layout_set_alignment(
        handle, alignment == .right ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT)
      return handle
    }

    /// The styled spans that overlap `range` (binary search: spans are in order and disjoint).
    func styledSpans(overlapping range: Range<Int>) -> ArraySlice<
      (range: Range<Int>, span: TextSpan)
    > {
      var low = 0
      var high = styled.count
      while low < high {
        let middle = (low + high) / 2
        if styled[middle].range.upperBound <= range.lowerBound {
          low = middle + 1
        } else {
          high = middle
        }
      }
      var end = low
      while end < styled.count, styled[end].range.lowerBound < range.upperBound { end += 1 }
      return styled[low..<end]
    }

    /// The length in bytes of the word space (U+0020, U+00A0) at `index`, 0 for another character.
    func spaceLength(at index: Int, before end: Int) -> Int {
      if bytes[index] == 0x20 { return 1 }
      if bytes[index] == 0xC2, index + 1 < end, bytes[index + 1] == 0xA0 { return 2 }
      return 0
    }

    /// Byte ranges, relative to `range`, of the runs of word spaces (U+0020, U+00A0) in `range`.
    func spaceRuns(in range: Range<Int>) -> [Range<Int>] {
      var runs: [Range<Int>] = []
      var index = range.lowerBound
      while index < range.upperBound {
        var end = index
        while end < range.upperBound {
          let length = spaceLength(at: end, before: range.upperBound)
          guard length > 0 else { break }
          end += length
        }
        if end > index {
          runs.append((index - range.lowerBound)..<(end - range.lowerBound))
          index = end
        } else {
          index += 1
        }
      }
      return runs
    }

    /// The length in bytes of the hyphen (U+002D, U+2010) at `index`, 0 for another character.
    func hyphenLength(at index: Int, before end: Int) -> Int {
      if bytes[index] == 0x2D { return 1 }
      if bytes[index] == 0xE2, index + 2 < end, bytes[index + 1] == 0x80, bytes[index + 2] == 0x90 {
        return 3
      }
      return 0
    }

    /// Byte ranges, relative to `range`, where lines must not break, for Android's rule that a
    /// line never breaks after a hyphen (U+002D, U+2010; minikin breaks there only with
    /// hyphenation, which Compose leaves off): each hyphen followed by another character of its
    /// word, with that character. An `allow_breaks` range removes only the opportunities inside
    /// it, so exactly the one after the hyphen; it must start at the hyphen, since Pango keeps
    /// the break after a U+2010 inside a range (not after one that starts it); and it does not cut
    /// Pango's items, so no kerning is lost.
    func hyphenRanges(in range: Range<Int>) -> [Range<Int>] {
      var ranges: [Range<Int>] = []
      var index = range.lowerBound
      while index < range.upperBound {
        let length = hyphenLength(at: index, before: range.upperBound)
        guard length > 0 else {
          index += 1
          continue
        }
        let next = index + length
        if next < range.upperBound, spaceLength(at: next, before: range.upperBound) == 0,
          hyphenLength(at: next, before: range.upperBound) == 0,
          bytes[next] != 0x0A, bytes[next] != 0x0D
        {
          var end = next + 1
          while end < range.upperBound, bytes[end] & 0xC0 == 0x80 { end += 1 }
          ranges.append((index - range.lowerBound)..<(end - range.lowerBound))
        }
        index = next
      }
      return ranges
    }

    /// Pango's break analysis of the characters of `range`: one entry per character and one for
    /// the end.
    func logAttributes(in range: Range<Int>) -> [PangoLogAttr] {
      let count = bytes[range].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
      var attributes = [PangoLogAttr](repeating: PangoLogAttr(), count: count + 1)
      bytes.withUnsafeBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return }
        UnsafeRawPointer(base + range.lowerBound).withMemoryRebound(
          to: CChar.self, capacity: range.count
        ) {
          ouds_pango_get_log_attrs(
            $0, Int32(range.count), text.direction == .rtl ? 1 : 0, language, &attributes,
            Int32(count + 1))
        }
      }
      return attributes
    }

    /// Byte offsets, relative to `range`, where Pango's items are cut: inside every run of more
    /// than ``TextLayout/seamCharacters`` characters with no line-break opportunity, every
    /// ``TextLayout/seamCharacters`` characters at a grapheme boundary; empty for ordinary text.
    func seams(in range: Range<Int>) -> [Int] {
      // Cheap test first: a run that long without a space needs the break analysis.
      var run = 0
      var longRun = false
      for index in range {
        let byte = bytes[index]
        run = byte == 0x20 || byte == 0x09 ? 0 : run + 1
        if run > seamCharacters {
          longRun = true
          break
        }
      }
      guard longRun else { return [] }
      let attributes = logAttributes(in: range)
      let count = attributes.count - 1
      var cuts: [Int] = []
      var sinceBreak = 0
      var character = 0
      var offset = 0
      while character < count {
        let attribute = attributes[character]
        if attribute.is_line_break != 0 || attribute.is_mandatory_break != 0 {
          sinceBreak = 0
        } else if sinceBreak >= seamCharacters, attribute.is_cursor_position != 0 {
          cuts.append(offset)
          sinceBreak = 0
        }
        sinceBreak += 1
        character += 1
        offset += 1
        while offset < range.count, bytes[range.lowerBound + offset] & 0xC0 == 0x80 { offset += 1 }
      }
      // Cuts pair up into attribute stretches; an odd last cut runs to the end.
      if cuts.count % 2 == 1 { cuts.append(range.count) }
      return cuts
    }
  }
}
