import Dispatch
import SafeInput
import Testing

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
}
