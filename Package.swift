// swift-tools-version:6.0
import PackageDescription

/// The executables people run and time link the Swift runtime and Foundation statically in
/// release builds, so that no toolchain library is loaded and relocated at start
/// (docs/decisions.md#static-swift-runtime-in-release-builds). `-static-stdlib` links the
/// runtime; the Foundation archives are named because the library modules that import Foundation
/// are compiled against the shared toolchain, whose modules name only their shared libraries.
/// Release only: a debug build's test bundle links the executables' modules too, and XCTest has
/// no static library.
let staticSwiftRuntime: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-static-stdlib", "-lFoundation", "-lFoundationInternationalization", "-lFoundationEssentials",
            "-lCoreFoundation", "-l_FoundationICU", "-l_FoundationCShims", "-l_FoundationCollections",
            "-lswiftSynchronization", "-lswiftDispatch",
        ],
        .when(platforms: [.linux], configuration: .release))
]

let package = Package(
    name: "ddkpi",
    products: [
        .executable(name: "ddkpi", targets: ["ddkpi"]),
        .executable(name: "ddkpi-bench", targets: ["ddkpi-bench"]),
        .executable(name: "ddkpi-bench-read", targets: ["ddkpi-bench-read"]),
        .library(name: "SheetStream", targets: ["SheetStream"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/JohnSundell/Plot", from: "0.14.0"),
    ],
    targets: [
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Intel ISA-L: zip entries' inflate and CRC-32 (docs/decisions.md#inflating-with-isa-l).
        .systemLibrary(name: "CISAL", pkgConfig: "libisal", providers: [.apt(["libisal-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // libpq is loaded with dlopen on first use (see its shim), so it has no pkg-config link flags.
        .systemLibrary(name: "CLibPQ", providers: [.apt(["libpq-dev"])]),
        // libcurl: SMTP and HTTP for alerts and packs (SPEC section 24).
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CXLSXWriter", pkgConfig: "xlsxwriter", providers: [.apt(["libxlsxwriter-dev"])]),
        // The civil calendar every layer shares: dates, ranges, months, today.
        .target(name: "CivilCalendar"),
        // A closure or computation on its own thread (pthreads), a producer-consumer pipeline, for any layer.
        .target(name: "Threads"),
        .target(
            name: "SheetStream",
            dependencies: ["CivilCalendar", "Threads", "CISAL", "CLibXML2"]
        ),
        // Text output every layer may use: a buffered sink, JSON string and CSV field quoting.
        .target(name: "OutputText"),
        // `ddkpi dump`'s CSV and JSON form of sheet rows.
        .target(name: "SheetDump", dependencies: ["SheetStream", "OutputText"]),
        // The hand-written streaming XLSX and zip writer that makes benchmark and test workbooks.
        .target(name: "SheetFixtures", dependencies: ["SheetStream", "CZlib"]),
        .target(name: "Feeds", dependencies: ["CivilCalendar", "Threads", "SheetStream"]),
        // Wrong-data checks (SPEC section 18): pure detectors over series the warehouse loads.
        .target(name: "Checks", dependencies: ["CivilCalendar", "OutputText", "Threads", "Feeds"]),
        // The libpq connection the PostgreSQL backend talks through (SPEC section 14).
        .target(name: "PostgresClient", dependencies: ["CLibPQ", .product(name: "Logging", package: "swift-log")]),
        .target(
            name: "Warehouse",
            dependencies: [
                "CivilCalendar", "Threads", "Feeds", "Checks", "CCrypto", "PostgresClient",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // One file into the warehouse (open, locate feed and header, read in one transaction); the cron inbox.
        .target(name: "Ingest", dependencies: ["SheetStream", "Feeds", "Checks", "Warehouse"]),
        .target(name: "KPI", dependencies: ["CivilCalendar", "Threads", "Warehouse", "Feeds"]),
        .target(
            name: "Reports",
            dependencies: [
                "CivilCalendar", "OutputText", "Threads", "Feeds", "Checks", "Warehouse", "KPI", "CXLSXWriter", "Plot",
            ]),
        .target(
            name: "Publishing",
            dependencies: [
                "CivilCalendar", "OutputText", "Feeds", "Warehouse", "KPI", "Reports", "CCrypto", "TOMLKit",
            ]),
        // Alert rules (SPEC section 24): parsing, evaluation with kpi's engine, the alerts' output.
        .target(
            name: "Alerts",
            dependencies: [
                "CivilCalendar", "OutputText", "Feeds", "Checks", "Warehouse", "KPI", "Reports", "TOMLKit",
            ]),
        // The outbox's delivery (SPEC section 24): mail and webhooks through libcurl, with backoff.
        .target(name: "Delivery", dependencies: ["Warehouse", "CCurl"]),
        .executableTarget(
            name: "ddkpi",
            dependencies: [
                "CivilCalendar",
                "OutputText",
                "SheetStream",
                "SheetDump",
                "Feeds",
                "Checks",
                "Warehouse",
                "Ingest",
                "KPI",
                "Reports",
                "Publishing",
                "Alerts",
                "Delivery",
                "TOMLKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            linkerSettings: staticSwiftRuntime
        ),
        .executableTarget(
            name: "ddkpi-bench",
            dependencies: [
                "CivilCalendar",
                "OutputText",
                "SheetStream",
                "SheetFixtures",
                "Feeds",
                "Checks",
                "Warehouse",
                "Ingest",
                "PostgresClient",
                "KPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "ddkpi-bench-read",
            dependencies: ["SheetStream", "CLibXML2"],
            // The per-cell counting closure should not pay dynamic exclusivity checks. Only this
            // executable carries the flag: SheetStream is a versioned product, so it may carry no
            // unsafe flags, and keeps its hot buffers out of checked class storage instead.
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"])],
            linkerSettings: staticSwiftRuntime
        ),
        // libFuzzer targets (docs/fuzzing.md): built normally they only say how to build them.
        .target(name: "FuzzSupport"),
        .executableTarget(name: "fuzz-xlsx", dependencies: ["FuzzSupport", "SheetStream"]),
        .executableTarget(name: "fuzz-xmlscanner", dependencies: ["FuzzSupport", "SheetStream"]),
        .executableTarget(name: "fuzz-csv", dependencies: ["FuzzSupport", "SheetStream"]),
        .executableTarget(name: "fuzz-xml-differential", dependencies: ["FuzzSupport", "SheetStream"]),
        .target(
            name: "TestSupport",
            dependencies: [
                "Warehouse", "Ingest", "PostgresClient", "Feeds", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Tests/TestSupport"),
        .testTarget(name: "CivilCalendarTests", dependencies: ["CivilCalendar"]),
        .testTarget(name: "ThreadsTests", dependencies: ["Threads"]),
        .testTarget(name: "OutputTextTests", dependencies: ["OutputText"]),
        .testTarget(
            name: "PostgresClientTests",
            dependencies: [
                "PostgresClient", "Warehouse", "TestSupport", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "SheetStreamTests",
            dependencies: ["SheetStream", "SheetDump", "OutputText", "SheetFixtures", "TestSupport", "Threads"]
        ),
        .testTarget(name: "SheetFixturesTests", dependencies: ["SheetFixtures", "SheetStream", "TestSupport"]),
        .testTarget(name: "ChecksTests", dependencies: ["CivilCalendar", "Checks", "Feeds", "SheetFixtures"]),
        .testTarget(name: "PublishingTests", dependencies: ["CivilCalendar", "Feeds", "KPI", "Publishing"]),
        .testTarget(
            name: "FeedsTests", dependencies: ["CivilCalendar", "Feeds", "SheetStream", "SheetFixtures", "TestSupport"]
        ),
        .testTarget(
            name: "WarehouseTests",
            dependencies: [
                "CivilCalendar", "SheetStream", "Feeds", "Checks", "Warehouse", "Ingest", "PostgresClient",
                "TestSupport", "SheetFixtures", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "IngestTests", dependencies: ["Feeds", "Warehouse", "Ingest", "TestSupport"]),
        .testTarget(
            name: "KPITests",
            dependencies: [
                "CivilCalendar", "SheetStream", "Feeds", "Warehouse", "KPI", "Reports", "SheetFixtures", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "ReportsTests",
            dependencies: ["CivilCalendar", "OutputText", "Reports", "KPI", "SheetStream", "TestSupport"]
        ),
        .testTarget(
            name: "AlertsTests",
            dependencies: ["CivilCalendar", "Alerts", "KPI", "Warehouse", "TestSupport", "TOMLKit"]
        ),
        .testTarget(
            name: "DeliveryTests",
            dependencies: ["Delivery", "Warehouse", "TestSupport"]
        ),
        .testTarget(
            name: "ddkpiTests",
            // Depends on the executable so that `swift test` builds the binary it runs.
            dependencies: [
                "ddkpi", "CivilCalendar", "SheetStream", "Feeds", "Warehouse", "PostgresClient", "TestSupport",
                "SheetFixtures", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ]
)

// Compiler settings shared by every Swift target.
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v5))
    target.swiftSettings = settings
}
