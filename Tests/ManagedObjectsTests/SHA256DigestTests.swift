import Foundation
import ObjectGraphInternals
import Testing

/// The FIPS 180-4 / NIST example vectors for SHA-256.
@Suite struct SHA256DigestTests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test func emptyMessage() {
        #expect(Self.hex(SHA256Digest.hash([UInt8]()))
            == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func abc() {
        #expect(Self.hex(SHA256Digest.hash("abc".utf8))
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func twoBlockMessage448Bits() {
        let message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(Self.hex(SHA256Digest.hash(message.utf8))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func oneMillionA() {
        var digest = SHA256Digest()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { digest.update(chunk) }
        #expect(Self.hex(digest.finalize())
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func incrementalEqualsOneShotAcrossBlockBoundaries() {
        let message = [UInt8]((0..<200).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        for split in [0, 1, 55, 56, 63, 64, 65, 128, 199, 200] {
            var digest = SHA256Digest()
            digest.update(message[0..<split])
            digest.update(message[split...])
            #expect(digest.finalize() == SHA256Digest.hash(message), "split at \(split)")
        }
    }

    @Test func littleEndianIntegers() {
        var a = SHA256Digest()
        a.update(littleEndian: 0x0102_0304, width: 4)
        #expect(a.finalize() == SHA256Digest.hash([4, 3, 2, 1]))
    }
}
