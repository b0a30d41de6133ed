import StrictJSON

/// The token loader's name for a parsed JSON value.
typealias JSON = JSONValue
