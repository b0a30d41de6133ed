import Dispatch
import SafeInput
import Testing
import Threads

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Locked: the one lock helper")
struct LockedTests {
  @Test(
    "read-modify-write from many threads loses no update, and withLock returns the body's value")
  func concurrentUpdates() {
    let counter = Locked(0)
    let seen = Locked<[Int]>([])
    DispatchQueue.concurrentPerform(iterations: 8) { worker in
      for _ in 0..<10_000 {
        let value = counter.withLock { value -> Int in
          value += 1
          return value
        }
        if value % 10_000 == 0 { seen.withLock { $0.append(worker) } }
      }
    }
    #expect(counter.withLock { $0 } == 80_000)
    #expect(
      seen.withLock { $0.count } == 8, "each multiple of 10 000 is returned to exactly one caller")
  }

  @Test("an error thrown by the body reaches the caller with its type, and the lock is released")
  func typedThrow() {
    struct Refused: Error, Equatable {}
    let value = Locked("before")
    #expect(throws: Refused()) {
      try value.withLock { (text: inout String) throws(Refused) in
        text = "changed"
        throw Refused()
      }
    }
    // Released: this would deadlock otherwise.
    #expect(value.withLock { $0 } == "changed")
  }

  @Test("a ThreadGroup's wait returns once every body has run, on threads of their own")
  func threadGroup() {
    let group = ThreadGroup()
    let done = Locked<Set<Int>>([])
    let threads = Locked<Set<pthread_t>>([])
    for index in 0..<6 {
      group.start {
        usleep(UInt32(2_000 * (6 - index)))
        threads.withLock { _ = $0.insert(pthread_self()) }
        done.withLock { _ = $0.insert(index) }
      }
    }
    group.wait()
    #expect(done.withLock { $0 } == Set(0..<6))
    #expect(!threads.withLock { $0 }.contains(pthread_self()))
    group.wait()  // nothing left: returns at once
    // work another thread runs, counted with enter and leave
    group.enter()
    let late = Locked(false)
    startThread {
      usleep(5_000)
      late.withLock { $0 = true }
      group.leave()
    }
    group.wait()
    #expect(late.withLock { $0 })
  }
}

@Suite("TabSeparatedText: the caches' lines and fields")
struct TabSeparatedTextTests {
  @Test("lines end with a line feed and split at tabs, keeping empty fields; other text is nil")
  func lines() {
    #expect(
      TabSeparatedText.lines(Array("a\tb\n\tc\t\n\n".utf8))
        == [["a", "b"], ["", "c", ""], [""]])
    #expect(TabSeparatedText.lines(Array("é\tñ\u{1F600}\n".utf8)) == [["é", "ñ\u{1F600}"]])
    #expect(TabSeparatedText.lines(Array("no line feed".utf8)) == nil)
    #expect(TabSeparatedText.lines([0x61, 0xFF, 0x0A]) == nil, "not UTF-8")
    #expect(TabSeparatedText.lines([UInt8]()) == nil)
  }
}
