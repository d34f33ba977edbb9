import Testing

@testable import APICheckServer
