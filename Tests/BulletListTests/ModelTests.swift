import Testing

@testable import BulletList

@Suite("Model and inheritance")
struct ModelTests {
  @Test("defaults follow iOS: unbranded bullets, Body Large, bold")
  func defaults() throws {
    let list = OUDSBulletList { OUDSBulletList.Item("Label 1") }
    #expect(list.type == .unordered(asset: .bullet, isBranded: false))
    #expect(list.textStyle == .bodyLarge)
    #expect(list.isBold)
    // The enum case's own default is branded, as on iOS.
    #expect(OUDSBulletList.ListType.unordered() == .unordered(asset: .bullet, isBranded: true))
  }

  @Test("the result builder supports if, if/else and for")
  func builder() throws {
    let showExtra = true
    let list = OUDSBulletList(type: .ordered) {
      for n in 1...3 { OUDSBulletList.Item("Label \(n)") }
      if showExtra { OUDSBulletList.Item("Extra") }
      if !showExtra { OUDSBulletList.Item("Hidden") } else { OUDSBulletList.Item("Shown") }
    }
    #expect(
      list.items.map(\.label.plainText) == ["Label 1", "Label 2", "Label 3", "Extra", "Shown"])
  }

  @Test("sub-lists inherit type, style and boldness unless the item overrides them")
  func inheritance() throws {
    let list = OUDSBulletList(type: .ordered, textStyle: .bodyMedium, isBold: true) {
      OUDSBulletList.Item("A", subListType: .unordered(asset: .tick), subListHasBoldText: false) {
        OUDSBulletList.Item("A.1") {
          OUDSBulletList.Item("A.1.1")
        }
      }
      OUDSBulletList.Item("B", subListTextStyle: .bodyLarge) {
        OUDSBulletList.Item("B.1")
      }
    }
    let rows = try list.resolvedRows()
    #expect(
      rows.map(\.path) == [
        "items[0]", "items[0].items[0]", "items[0].items[0].items[0]", "items[1]",
        "items[1].items[0]",
      ])
    #expect(rows.map(\.level) == [0, 1, 2, 0, 1])
    #expect(rows[1].listType == .unordered(asset: .tick, isBranded: true))
    #expect(rows[1].isBold == false)
    // inherited from its parent list
    #expect(rows[2].listType == .unordered(asset: .tick, isBranded: true))
    #expect(rows[2].isBold == false)
    #expect(rows[2].textStyle == .bodyMedium)
    #expect(rows[4].listType == .ordered)
    #expect(rows[4].textStyle == .bodyLarge)
    #expect(rows[4].isBold)
    #expect(rows[0].subItemCount == 1)
    #expect(rows[4].index == 0 && rows[3].index == 1)
  }

  @Test("a fourth level is a thrown error naming the item path")
  func fourthLevel() throws {
    let list = OUDSBulletList {
      OUDSBulletList.Item("0")
      OUDSBulletList.Item("1") {
        OUDSBulletList.Item("1.0")
        OUDSBulletList.Item("1.1") {
          OUDSBulletList.Item("1.1.0") {
            OUDSBulletList.Item("too deep")
          }
        }
      }
    }
    #expect(
      throws: BulletListError(
        path: "items[1].items[1].items[0].items[0]",
        message: "a fourth nesting level is forbidden by design (at most 3 levels: 0, 1, 2)")
    ) {
      try list.resolvedRows()
    }
  }

  @Test("rich text in a bold list is an error naming the item")
  func richTextInBold() throws {
    let list = OUDSBulletList(isBold: true) {
      OUDSBulletList.Item(richText: RichText(runs: [.init("x", isStrong: true)]))
    }
    let error = #expect(throws: BulletListError.self) { try list.resolvedRows() }
    #expect(error?.path == "items[0]")
    #expect(error?.message.hasPrefix("rich text is allowed only when the text is not bold") == true)
  }
}
