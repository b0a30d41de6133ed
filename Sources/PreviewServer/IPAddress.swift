#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// IP address literals, as the server listens on them (no name is looked up).
public enum IPAddress {
  /// `AF_INET` or `AF_INET6` for an address literal, else nil.
  public static func family(_ text: String) -> Int32? {
    var v4 = in_addr()
    var v6 = in6_addr()
    if inet_pton(AF_INET, text, &v4) == 1 { return AF_INET }
    if inet_pton(AF_INET6, text, &v6) == 1 { return AF_INET6 }
    return nil
  }

  /// Whether `text` is a loopback address (127.0.0.0/8, ::1): this machine alone.
  public static func isLoopback(_ text: String) -> Bool {
    var v4 = in_addr()
    if inet_pton(AF_INET, text, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
    return text == "::1"
  }

  /// Whether `text` is 0.0.0.0 or `::` (every interface).
  public static func isUnspecified(_ text: String) -> Bool {
    var v4 = in_addr()
    if inet_pton(AF_INET, text, &v4) == 1 { return v4.s_addr == 0 }
    var v6 = in6_addr()
    guard inet_pton(AF_INET6, text, &v6) == 1 else { return false }
    return withUnsafeBytes(of: &v6) { $0.allSatisfy { $0 == 0 } }
  }

  /// The IPv4 address an IPv4-mapped IPv6 literal (`::ffff:127.0.0.1`, `::ffff:7f00:1`) stands
  /// for, dotted (`127.0.0.1`); nil for any other text. The server listens on IPv6 addresses
  /// alone (`IPV6_V6ONLY`), where a mapped address cannot be bound, so it listens on the IPv4 one.
  public static func unmapped(_ text: String) -> String? {
    var v6 = in6_addr()
    guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
    let bytes = withUnsafeBytes(of: &v6) { Array($0) }
    guard bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF else {
      return nil
    }
    return bytes[12...].map(String.init).joined(separator: ".")
  }
}
