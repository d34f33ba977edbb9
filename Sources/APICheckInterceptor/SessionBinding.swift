import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a request finds the interceptor that answers it, without reading Foundation's private
/// state and the same on every platform.
///
/// Every configuration an interceptor makes gets a `URLProtocol` class of its own:
/// `BoundStubURLProtocol<Number>`, where `Number` spells a never-reused binding number in marker
/// types (`BindingBit1<BindingBit0<BindingEnd>>` is 2), and a generic class is a distinct class for
/// each type argument. A request's protocol instance knows its class, so `type(of: self)` is the
/// key to the binding: the interceptor, weakly, and the configuration's cookie settings. Classes
/// are made at run time in microseconds and cost a few hundred bytes of metadata, which Swift
/// never frees; bindings are removed when their interceptor goes.
///
/// The table is keyed by class identity only and holds nothing strongly: two interceptors, or a
/// second library using its own, cannot see or disturb each other's bindings.
enum SessionBinding {
    struct Binding: @unchecked Sendable {  // weak references, read under the table's lock
        weak var interceptor: StubInterceptor?
        /// The configuration as returned to the caller, so cookie settings made on it afterwards
        /// (before the session copies it) still apply.
        weak var configuration: URLSessionConfiguration?
        /// The cookie settings when the configuration was made, if it has since been released.
        weak var cookieStorage: HTTPCookieStorage?
        var setsCookies: Bool

        /// Where `Set-Cookie` of replies goes, or nil when the configuration stores no cookies.
        var cookieStorageInUse: HTTPCookieStorage? {
            if let configuration {
                return configuration.httpShouldSetCookies ? configuration.httpCookieStorage : nil
            }
            return setsCookies ? cookieStorage : nil
        }
    }

    private static let table = Mutex<[ObjectIdentifier: Binding]>([:])
    private static let lastNumber = Atomic<UInt64>(0)

    /// A protocol class of its own for `configuration`, bound to `interceptor`.
    static func bind(_ configuration: URLSessionConfiguration, to interceptor: StubInterceptor) -> StubURLProtocol.Type {
        let number = lastNumber.wrappingAdd(1, ordering: .relaxed).newValue
        let protocolClass = boundClass(numberType(number))
        let binding = Binding(
            interceptor: interceptor, configuration: configuration, cookieStorage: configuration.httpCookieStorage,
            setsCookies: configuration.httpShouldSetCookies)
        table.withLock { $0[ObjectIdentifier(protocolClass)] = binding }
        return protocolClass
    }

    /// The binding of a protocol class, if it has one.
    static func binding(of protocolClass: AnyClass) -> Binding? {
        table.withLock { $0[ObjectIdentifier(protocolClass)] }
    }

    /// Forgets the bindings of these classes (an interceptor's, when it goes).
    static func unbind(_ classes: [ObjectIdentifier]) {
        table.withLock { table in
            for key in classes { table.removeValue(forKey: key) }
        }
    }

    /// How many bindings exist (for tests: it must not grow with interceptors made and released).
    static var count: Int { table.withLock { $0.count } }

    // MARK: Numbers as types

    /// `number` in binary, least significant bit innermost: distinct numbers give distinct types.
    private static func numberType(_ number: UInt64) -> any BindingNumber.Type {
        var type: any BindingNumber.Type = BindingEnd.self
        var rest = number
        while rest != 0 {
            type = appending(bit: rest & 1 == 1, to: type)
            rest >>= 1
        }
        return type
    }

    private static func appending<Higher: BindingNumber>(bit: Bool, to _: Higher.Type) -> any BindingNumber.Type {
        bit ? BindingBit1<Higher>.self : BindingBit0<Higher>.self
    }

    private static func boundClass<Number: BindingNumber>(_: Number.Type) -> StubURLProtocol.Type {
        BoundStubURLProtocol<Number>.self
    }
}

/// A binding number, spelt in types (see ``SessionBinding``).
protocol BindingNumber {}
enum BindingEnd: BindingNumber {}
enum BindingBit0<Higher: BindingNumber>: BindingNumber {}
enum BindingBit1<Higher: BindingNumber>: BindingNumber {}

/// The protocol class of one configuration: a distinct class per `Number`.
final class BoundStubURLProtocol<Number: BindingNumber>: StubURLProtocol {}
