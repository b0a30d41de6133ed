import Foundation
import Primitives
import Testing

@testable import VectorAsset

@Suite("A marker's outline stays near its view box")
struct MarkerReachTests {
  @Test("control points a million units out in a 10⁻⁶ box are refused with the path's line")
  func farOutlineRefused() {
    let text = """
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 0.000001 0.000001">
      <path d="M0 0 C1000000 1000000 -1000000 -1000000 0.0000005 0.0000005 Z"/>
      </svg>
      """
    #expect(throws: VectorAssetError.self) {
      try VectorAssetReader.outline(of: Array(text.utf8), format: .svg)
    }
    do {
      _ = try VectorAssetReader.outline(of: Array(text.utf8), format: .svg)
    } catch {
      #expect(
        error.description
          == "line 2: <path> d reaches (1000000, 1000000), more than one box side outside the view box 0 0 1e-06 1e-06: a marker's outline must stay near its box"
      )
    }
  }

  @Test("a VectorDrawable path past its viewport is refused too")
  func vectorDrawableRefused() {
    let text = """
      <vector xmlns:android="http://schemas.android.com/apk/res/android"
          android:viewportWidth="24" android:viewportHeight="24">
      <path android:fillColor="#000000" android:pathData="M0 0 L12 12 L12 49 Z"/>
      </vector>
      """
    do {
      _ = try VectorAssetReader.outline(of: Array(text.utf8), format: .vectorDrawable)
      Issue.record("accepted")
    } catch {
      #expect(
        error.description
          == "line 3: <path> android:pathData reaches (12, 49), more than one box side outside the view box 0 0 24 24: a marker's outline must stay near its box"
      )
    }
  }

  @Test("an outline within one box side of its view box is read; icons are not held to it")
  func nearOutlineRead() throws {
    let near = """
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">
      <path d="M-24 -24 C48 48 0 24 24 0 Z"/>
      </svg>
      """
    let outline = try VectorAssetReader.outline(of: Array(near.utf8), format: .svg)
    #expect(outline.paths.count == 1)
    let far = near.replacingOccurrences(of: "C48 48", with: "C480 48")
    #expect(VectorAssetReader.iconOutline(of: Array(far.utf8)) != nil)
  }
}
