import Foundation
import SwiftASN1
import X509

/// Certificates and keys read from PEM files, bounded, each problem an error naming the file.
enum PEMFiles {
    /// Larger than any real chain or key; a bigger file is not one.
    static let maximumBytes = 1 << 20

    static func text(at path: String, what: String) throws(TLSSetupError) -> String {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            throw TLSSetupError(path: path, "no such file (the \(what))")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else { throw TLSSetupError(path: path, "not a regular file (the \(what))") }
        guard let size = attributes[.size] as? Int, size <= maximumBytes else {
            throw TLSSetupError(path: path, "larger than \(maximumBytes >> 20) MiB: not a PEM \(what)")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw TLSSetupError(path: path, "cannot be read (the \(what))") }
        guard let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN ") else {
            throw TLSSetupError(path: path, "not PEM (no -----BEGIN line); convert a DER file with `openssl x509 -inform der -in FILE -out FILE.pem`")
        }
        return text
    }

    /// Every `CERTIFICATE` block, in order.
    static func certificates(at path: String) throws(TLSSetupError) -> [Certificate] {
        let text = try text(at: path, what: "certificate")
        let documents: [PEMDocument]
        do {
            documents = try PEMDocument.parseMultiple(pemString: text)
        } catch {
            throw TLSSetupError(path: path, "the PEM text is damaged: \(error)")
        }
        var certificates: [Certificate] = []
        for (index, document) in documents.enumerated() where document.discriminator == "CERTIFICATE" {
            do {
                certificates.append(try Certificate(derEncoded: document.derBytes))
            } catch {
                throw TLSSetupError(path: path, "certificate \(index + 1) cannot be read: \(error)")
            }
        }
        guard !certificates.isEmpty else {
            let kinds = documents.map(\.discriminator).joined(separator: ", ")
            throw TLSSetupError(path: path, "no CERTIFICATE block (found: \(kinds.isEmpty ? "none" : kinds)); is this a key rather than a certificate?")
        }
        return certificates
    }

    /// The one private key in the file.
    static func privateKey(at path: String) throws(TLSSetupError) -> Certificate.PrivateKey {
        let text = try text(at: path, what: "private key")
        let documents = (try? PEMDocument.parseMultiple(pemString: text)) ?? []
        if documents.contains(where: { $0.discriminator == "ENCRYPTED PRIVATE KEY" }) || text.contains("Proc-Type: 4,ENCRYPTED") {
            throw TLSSetupError(path: path, "the key is encrypted; write an unencrypted copy with `openssl pkey -in \(path) -out key.pem`")
        }
        guard let document = documents.first(where: { $0.discriminator.hasSuffix("PRIVATE KEY") }) else {
            throw TLSSetupError(path: path, "no PRIVATE KEY block; is this a certificate rather than its key?")
        }
        do {
            return try Certificate.PrivateKey(pemDocument: document)
        } catch {
            throw TLSSetupError(path: path, "the private key cannot be read (\(document.discriminator)): \(error)")
        }
    }
}
