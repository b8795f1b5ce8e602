// swift-tools-version:6.0
// A package that depends on stackplay's StackModel as another project would: a version (1.0.0)
// through a git URL. SwiftPM refuses such a dependency when the product has unsafe build flags (a
// path or branch dependency is allowed them, so it would prove nothing). `make dependent-package`
// commits the working tree into a fresh repository at .build/dependent-package/stackplay, tags it
// 1.0.0, then builds and runs this package against it; `make test` does too.
import Foundation
import PackageDescription

/// The root package's folder, two up from here.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../..").standardizedFileURL
let snapshot = root.appendingPathComponent(".build/dependent-package/stackplay")

let package = Package(
    name: "StackModelUser",
    dependencies: [.package(url: snapshot.absoluteString, from: "1.0.0")],
    targets: [
        .executableTarget(
            name: "StackModelUser", dependencies: [.product(name: "StackModel", package: "stackplay")])
    ],
    swiftLanguageModes: [.v6]
)
