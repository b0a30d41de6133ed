import Foundation
import Testing

/// The drawing libraries' loader (`Sources/CGraphicsLoader`) is one portable mechanism: C that
/// compiles for every CPU, reached from a manifest that runs nothing and passes no unsafe flags.
@Suite("The drawing libraries' loader is portable")
struct LoaderTests {
  @Test("no assembly in Sources, and the loader compiles for aarch64 (scripts/check-loader)")
  func compilesForAarch64() throws {
    let sources = repositoryRoot.appendingPathComponent("Sources")
    let files = FileManager.default.enumerator(atPath: sources.path)?.allObjects as? [String] ?? []
    #expect(!files.isEmpty)
    let assembly = files.filter { $0.hasSuffix(".S") || $0.hasSuffix(".s") || $0.hasSuffix(".asm") }
    #expect(assembly.isEmpty, "assembly in Sources: \(assembly)")

    let check = Process()
    let output = Pipe()
    check.executableURL = repositoryRoot.appendingPathComponent("scripts/check-loader")
    check.arguments = ["aarch64-linux-gnu"]
    check.standardOutput = output
    check.standardError = output
    try check.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    check.waitUntilExit()
    #expect(check.terminationStatus == 0, "\(text)")
    #expect(text.hasSuffix("check-loader: the loader compiles for aarch64-linux-gnu\n"), "\(text)")
  }

  @Test("the manifest runs no process and passes no unsafe flags")
  func manifestRunsNothing() throws {
    // A versioned dependency may not use unsafe flags (before SwiftPM 6.2), and a process run
    // by the manifest gave SwiftPM an answer it cached (an empty one, before the -dev packages).
    let manifest = try String(
      contentsOf: repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
    for word in ["unsafeFlags", "Process(", "Pipe(", "posix_spawn", "system("] {
      #expect(!manifest.contains(word), "Package.swift contains \(word)")
    }
  }
}
