/// A value with a default that the scene's JSON leaves out: `false` for a flag, `even` for the
/// leading. Declared here once, so that a type's `Codable` can be synthesized rather than written
/// member by member.
public protocol CodingDefault: Codable, Hashable, Sendable {
  /// The value a member has when its key is absent, and that is not written.
  static var codingDefault: Self { get }
}

extension Bool: CodingDefault {
  /// `false`: a flag is written only when set.
  public static var codingDefault: Bool { false }
}

extension LeadingDistribution: CodingDefault {
  /// `even`: iOS's leading, and Pango's own.
  public static var codingDefault: LeadingDistribution { .even }
}

/// A member that the JSON leaves out when it holds its ``CodingDefault/codingDefault`` and that
/// is read as that default when its key is absent (or null); any other value is written and read
/// as the value's own `Codable` does.
@propertyWrapper
public struct OmittedWhenDefault<Value: CodingDefault>: Codable, Hashable, Sendable {
  /// The member's value.
  public var wrappedValue: Value

  /// Wraps `wrappedValue`.
  public init(wrappedValue: Value) {
    self.wrappedValue = wrappedValue
  }

  /// Reads the value itself (the keyed container below reads an absent key as the default).
  public init(from decoder: any Decoder) throws {
    wrappedValue = try decoder.singleValueContainer().decode(Value.self)
  }

  /// Writes the value itself (the keyed container below leaves the default out).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(wrappedValue)
  }
}

extension KeyedDecodingContainer {
  /// An absent or null key is the default.
  public func decode<Value>(_ type: OmittedWhenDefault<Value>.Type, forKey key: Key) throws
    -> OmittedWhenDefault<Value>
  {
    OmittedWhenDefault(
      wrappedValue: try decodeIfPresent(Value.self, forKey: key) ?? Value.codingDefault)
  }
}

extension KeyedEncodingContainer {
  /// The default is left out.
  public mutating func encode<Value>(_ value: OmittedWhenDefault<Value>, forKey key: Key) throws {
    if value.wrappedValue != Value.codingDefault { try encode(value.wrappedValue, forKey: key) }
  }
}
