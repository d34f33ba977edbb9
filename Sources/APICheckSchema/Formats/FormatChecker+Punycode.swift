// Punycode (RFC 3492) for A-labels: decoding into a caller's fixed buffer, and encoding only
// to compare or measure, so nothing is allocated.

extension FormatChecker {
    private static let base: UInt32 = 36
    private static let tMin: UInt32 = 1
    private static let tMax: UInt32 = 26

    /// Decodes the Punycode in `start..<end` (an A-label after `xn--`) into `output`; nil when
    /// malformed or longer than `output`.
    static func decodePunycode(_ bytes: Bytes, _ start: Int, _ end: Int, into output: UnsafeMutableBufferPointer<UInt32>) -> Int? {
        var count = 0
        var delimiter = end
        while delimiter > start, bytes[delimiter - 1] != UInt8(ascii: "-") { delimiter -= 1 }
        var index = start
        if delimiter > start {
            // Basic code points, in lower case as A-labels compare case-insensitively; the last
            // `-` only delimits them.
            for basic in start..<(delimiter - 1) {
                let byte = bytes[basic]
                guard count < output.count, byte < 0x80 else { return nil }
                output[count] = UInt32(isAlpha(byte) ? byte | 0x20 : byte)
                count += 1
            }
            index = delimiter
        }
        var codePoint: UInt32 = 0x80
        var position: UInt32 = 0
        var bias: UInt32 = 72
        while index < end {
            let oldPosition = position
            var weight: UInt32 = 1
            var k = base
            while true {
                guard index < end, let digit = punycodeDigitValue(bytes[index]) else { return nil }
                index += 1
                let (product, productOverflow) = digit.multipliedReportingOverflow(by: weight)
                let (sum, sumOverflow) = position.addingReportingOverflow(product)
                guard !productOverflow, !sumOverflow else { return nil }
                position = sum
                let threshold = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if digit < threshold { break }
                let (nextWeight, weightOverflow) = weight.multipliedReportingOverflow(by: base - threshold)
                guard !weightOverflow else { return nil }
                weight = nextWeight
                k += base
            }
            let length = UInt32(count + 1)
            bias = adaptBias(position - oldPosition, length, firstTime: oldPosition == 0)
            let (next, overflow) = codePoint.addingReportingOverflow(position / length)
            guard !overflow, next <= 0x10FFFF, !(0xD800...0xDFFF).contains(next), count < output.count else { return nil }
            codePoint = next
            position %= length
            // Insert at `position`, shifting the tail right.
            var move = count
            while move > Int(position) {
                output[move] = output[move - 1]
                move -= 1
            }
            output[Int(position)] = codePoint
            count += 1
            position += 1
        }
        return count
    }

    /// Whether encoding `label` gives exactly `start..<end` (case aside): a decoder accepts
    /// spellings an encoder never produces (`xn---9uc`), which are not A-labels.
    static func isCanonicalPunycode(_ label: UnsafeBufferPointer<UInt32>, _ bytes: Bytes, _ start: Int, _ end: Int) -> Bool {
        var index = start
        let matched = encodePunycode(label) { character in
            guard index < end, bytes[index] | (isAlpha(bytes[index]) ? 0x20 : 0) == character else { return false }
            index += 1
            return true
        }
        return matched && index == end
    }

    /// The length of `label`'s Punycode, or nil past 63 characters (already too long).
    static func punycodeLength(_ label: UnsafeBufferPointer<UInt32>) -> Int? {
        var length = 0
        let fits = encodePunycode(label) { _ in
            length += 1
            return length <= 63
        }
        return fits ? length : nil
    }

    /// RFC 3492 section 6.3, handing each output character (lower case) to `emit`, which stops
    /// the encoding by returning false; returns false then.
    private static func encodePunycode(_ label: UnsafeBufferPointer<UInt32>, emit: (UInt8) -> Bool) -> Bool {
        var basicCount: UInt32 = 0
        for codePoint in label where codePoint < 0x80 {
            let byte = UInt8(codePoint)
            guard emit(isAlpha(byte) ? byte | 0x20 : byte) else { return false }
            basicCount += 1
        }
        if basicCount > 0, basicCount < label.count {
            guard emit(UInt8(ascii: "-")) else { return false }
        }
        var codePoint: UInt32 = 0x80
        var delta: UInt32 = 0
        var bias: UInt32 = 72
        var handled = basicCount
        while handled < label.count {
            var next = UInt32.max
            for candidate in label where candidate >= codePoint && candidate < next { next = candidate }
            delta += (next - codePoint) * (handled + 1)
            codePoint = next
            for candidate in label {
                if candidate < codePoint { delta += 1 }
                guard candidate == codePoint else { continue }
                var quotient = delta
                var k = base
                while true {
                    let threshold = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                    if quotient < threshold { break }
                    guard emit(punycodeDigit(threshold + (quotient - threshold) % (base - threshold))) else { return false }
                    quotient = (quotient - threshold) / (base - threshold)
                    k += base
                }
                guard emit(punycodeDigit(quotient)) else { return false }
                bias = adaptBias(delta, handled + 1, firstTime: handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            codePoint += 1
        }
        return true
    }

    private static func adaptBias(_ delta: UInt32, _ length: UInt32, firstTime: Bool) -> UInt32 {
        var delta = firstTime ? delta / 700 : delta / 2
        delta += delta / length
        var k: UInt32 = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + 38)
    }

    private static func punycodeDigitValue(_ byte: UInt8) -> UInt32? {
        if isAlpha(byte) { return UInt32((byte | 0x20) - UInt8(ascii: "a")) }
        if isDigit(byte) { return UInt32(byte - UInt8(ascii: "0")) + 26 }
        return nil
    }

    private static func punycodeDigit(_ value: UInt32) -> UInt8 {
        value < 26 ? UInt8(ascii: "a") + UInt8(value) : UInt8(ascii: "0") + UInt8(value - 26)
    }
}
