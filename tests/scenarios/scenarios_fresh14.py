"""Fresh scenarios, batch 14: ten agent sessions on stacks no earlier batch covered —
a Nix flake packaging a Rust CLI, a Crystal shard, a Nim library, a Rails engine gem, a
Svelte component library, a Blazor WebAssembly app with a Kiota client, a Sphinx docs
project, a Solidity Foundry project, a Swift package and an Astro content site.

Written blind, after the thirteenth batch, without looking at the advisor's rules: each
label is what a careful reviewer says reading the intent and the diff. Across the batch:
renames through ``git mv`` (one with edits, in scope; one without, drift), deleted files
(in scope and drift), a name with a space and one with non-ASCII letters, binary assets,
the user's own hand edits, empty memory (every change in scope, nothing drift), a stale
intent, a generated flood (a regenerated Kiota client), lock files moving with and
without a reason, build output tracked by mistake (Foundry's out/ and cache/), symlinks
left by ``nix build`` and nix-direnv, and checkpoints before the work, mid-session, after
a drift, several and none. The safe point is always the newest checkpoint none of the
drift has reached (the commit when there is none, or when the only clean checkpoint
would undo committed work).
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from scenario_kit import ELF, PNG, Scenario, Scene, lines
from vibflow_testing.git import run_git
from vibflow_testing.repo import write

#: A JPEG's first bytes (SOI, APP0/JFIF) and some data: a photo in a recipe.
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x48\x00\x48\x00\x00" + bytes(
    range(17, 251, 3)
)
#: A Mach-O 64-bit executable's first bytes (what ``crystal build`` leaves on a Mac).
MACHO = b"\xcf\xfa\xed\xfe\x07\x00\x00\x01\x03\x00\x00\x00" + b"\x00" * 40 + b"__PAGEZERO"
#: A DWARF debug-info companion as ``crystal build`` writes it next to the binary.
DWARF = b"\xcf\xfa\xed\xfe\x07\x00\x00\x01\x0a\x00\x00\x00" + b"__DWARF\x00" + bytes(range(50))
#: A ``.gem`` is a tar archive (metadata.gz, data.tar.gz, checksums.yaml.gz).
GEM = b"metadata.gz" + b"\x00" * 89 + b"0000444\x00" + b"\x00" * 140 + b"ustar\x0000" + bytes(60)
#: An ICO header and some bytes.
ICO = b"\x00\x00\x01\x00\x01\x00\x10\x10\x00\x00\x01\x00 \x00" + bytes(range(60))
#: A WOFF2 font's first bytes.
WOFF2 = b"wOF2\x00\x01\x00\x00\x00\x00\x1a\x4c\x00\x0b" + bytes(range(0, 200, 3))


def _by_hand(s: Scene, files: Mapping[str, str | bytes]) -> None:
    """The user's own edit in the work tree: no agent turn, no hook sees it."""
    for rel, text in files.items():
        write(s.root, rel, text)


def _staged(s: Scene, *paths: str) -> None:
    """What ``git mv`` leaves besides the move: the index records it (both sides)."""
    run_git(s.root, "add", "-A", "--", *paths)


def _read(s: Scene, rel: str) -> str:
    return (s.root / rel).read_text(encoding="utf-8")


def _link(s: Scene, rel: str, target: str) -> None:
    """A symlink in the work tree, as ``nix build`` and nix-direnv leave them."""
    path = s.root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target)


# -- 1. Nix flake packaging a Rust CLI ------------------------------------------------------------


def _flake_lock(revs: Mapping[str, tuple[int, str, str]]) -> str:
    """flake.lock as ``nix flake lock`` writes it; ``revs``: input -> (lastModified, narHash
    suffix, rev)."""
    owners = {
        "crane": ("ipetkov", "crane"),
        "flake-utils": ("numtide", "flake-utils"),
        "nixpkgs": ("NixOS", "nixpkgs"),
        "rust-overlay": ("oxalica", "rust-overlay"),
        "systems": ("nix-systems", "default"),
    }
    nodes: dict[str, object] = {}
    for name, (owner, repo) in owners.items():
        modified, nar, rev = revs[name]
        node: dict[str, object] = {
            "locked": {
                "lastModified": modified,
                "narHash": f"sha256-{nar}=",
                "owner": owner,
                "repo": repo,
                "rev": rev,
                "type": "github",
            },
            "original": {"owner": owner, "repo": repo, "type": "github"},
        }
        if name == "nixpkgs":
            node["original"] = {**node["original"], "ref": "nixos-23.11"}  # type: ignore[dict-item]
        if name == "flake-utils":
            node["inputs"] = {"systems": "systems"}
        if name == "rust-overlay":
            node["inputs"] = {"nixpkgs": ["nixpkgs"]}
        nodes[name] = node
    nodes["root"] = {
        "inputs": {
            "crane": "crane",
            "flake-utils": "flake-utils",
            "nixpkgs": "nixpkgs",
            "rust-overlay": "rust-overlay",
        }
    }
    return (
        json.dumps({"nodes": nodes, "root": "root", "version": 7}, indent=2, sort_keys=True) + "\n"
    )


_NIX_OLD = {
    "crane": (
        1709610799,
        "1qUPkHBYZu1vYuHXMNOGOnjoTWcqV2YhhuF7bQA0Pt8",
        "81c393c776d5379c030607866afef6406ca1be57",
    ),
    "flake-utils": (
        1709126324,
        "q6EQdSeUZOG26WelxqkmR7kArjgWCdw5sfJVHPH/7j8",
        "d465f4819400de7c8d874d50b982301f28a84605",
    ),
    "nixpkgs": (
        1709703039,
        "6hqgQ8OK6gsMu1VtcGKBxKQInRLHtzulDo9Z5jxHEFY",
        "9df3e30ce24fd28c7b3e2de0d986769db5d6225d",
    ),
    "rust-overlay": (
        1709691047,
        "2Vwp/ZGtIRbHf1IRoIBSbZ2BKCLd8fDYNkyrXwWZXiE",
        "d8a1fb9b68d7e3f4b1a1ef0e2ce7f1f0c3a86e0b",
    ),
    "systems": (
        1681028828,
        "Vy1rq5AaRuLzOxct8nz4T6wlgyUR7zLU309k9mBC768",
        "da67096a3b9bf56a91d16901293e51ba5b49a27e",
    ),
}
_NIX_NEW = {
    **_NIX_OLD,
    "crane": (
        1716156051,
        "TjUX7WWRcrhuUxDHsR8pDR2N7jitqZehgCVSy3kBeS8",
        "7e4586bad4e3f8f97a9271def747cf58c4b68f3c",
    ),
    "flake-utils": (
        1710146030,
        "SZ5L6eA7HJ/nmkzGG7/ISclqe6oZdOZTNoesiInkXPQ",
        "b1d9ab70662946ef0850d488da1c9019f3a9752a",
    ),
    "nixpkgs": (
        1716061101,
        "H0eCta7ahEgloGIwE/ihkyGstOGu+kQwAiHvwVoXaA0",
        "e7cc61784ddf51c81487637b3031a6dd2d6673a2",
    ),
    "rust-overlay": (
        1716257780,
        "R+NjvJzKEkTVCmdrKRfPE4liX/KMGVqGUwwS5H8ET8A",
        "4e5e3d2c5c9b2721bd266f9e43c14e96811b89d2",
    ),
}

_NIX_PACKAGE = lines(
    "{ lib, craneLib, pkg-config, openssl, sqlite, stdenv, darwin }:",
    "let",
    "  src = lib.cleanSourceWith {",
    "    src = craneLib.path ../.;",
    '    filter = path: type: (craneLib.filterCargoSources path type) || (lib.hasInfix "/data/" path);',  # noqa: E501
    "  };",
    "  commonArgs = {",
    "    inherit src;",
    "    strictDeps = true;",
    "    nativeBuildInputs = [ pkg-config ];",
    "    buildInputs = [ openssl sqlite ] ++ lib.optionals stdenv.isDarwin [ darwin.apple_sdk.frameworks.Security ];",  # noqa: E501
    "  };",
    "  cargoArtifacts = craneLib.buildDepsOnly commonArgs;",
    "in craneLib.buildPackage (commonArgs // {",
    "  inherit cargoArtifacts;",
    '  meta = with lib; { description = "Tide tables in the terminal"; license = licenses.mit; mainProgram = "tidepool"; };',  # noqa: E501
    "})",
)

# nixfmt-rfc-style over a file the module work never needs.
_NIX_PACKAGE_FORMATTED = lines(
    "{",
    "  lib,",
    "  craneLib,",
    "  pkg-config,",
    "  openssl,",
    "  sqlite,",
    "  stdenv,",
    "  darwin,",
    "}:",
    "let",
    "  src = lib.cleanSourceWith {",
    "    src = craneLib.path ../.;",
    "    filter =",
    '      path: type: (craneLib.filterCargoSources path type) || (lib.hasInfix "/data/" path);',
    "  };",
    "  commonArgs = {",
    "    inherit src;",
    "    strictDeps = true;",
    "    nativeBuildInputs = [ pkg-config ];",
    "    buildInputs = [",
    "      openssl",
    "      sqlite",
    "    ] ++ lib.optionals stdenv.isDarwin [ darwin.apple_sdk.frameworks.Security ];",
    "  };",
    "  cargoArtifacts = craneLib.buildDepsOnly commonArgs;",
    "in",
    "craneLib.buildPackage (",
    "  commonArgs",
    "  // {",
    "    inherit cargoArtifacts;",
    "    meta = with lib; {",
    '      description = "Tide tables in the terminal";',
    "      license = licenses.mit;",
    '      mainProgram = "tidepool";',
    "    };",
    "  }",
    ")",
)

_NIX_FLAKE = lines(
    "{",
    '  description = "tidepool: tide tables in the terminal";',
    "",
    "  inputs = {",
    '    nixpkgs.url = "github:NixOS/nixpkgs/nixos-23.11";',
    '    flake-utils.url = "github:numtide/flake-utils";',
    '    crane.url = "github:ipetkov/crane";',
    "    rust-overlay = {",
    '      url = "github:oxalica/rust-overlay";',
    '      inputs.nixpkgs.follows = "nixpkgs";',
    "    };",
    "  };",
    "",
    "  outputs = { self, nixpkgs, flake-utils, crane, rust-overlay }:",
    "    flake-utils.lib.eachDefaultSystem (system:",
    "      let",
    "        pkgs = import nixpkgs { inherit system; overlays = [ (import rust-overlay) ]; };",
    "        toolchain = pkgs.rust-bin.fromRustupToolchainFile ./rust-toolchain.toml;",
    "        craneLib = (crane.mkLib pkgs).overrideToolchain toolchain;",
    "        tidepool = pkgs.callPackage ./nix/package.nix { inherit craneLib; };",
    "      in {",
    "        packages.default = tidepool;",
    "        apps.default = flake-utils.lib.mkApp { drv = tidepool; };",
    "        devShells.default = pkgs.callPackage ./nix/devshell.nix { inherit toolchain; };",
    "        checks = { inherit tidepool; };",
    "        formatter = pkgs.nixfmt-rfc-style;",
    "      }) // {",
    "        overlays.default = import ./nix/overlay.nix self;",
    "      };",
    "}",
)

_NIX_RS = {
    "main": [
        "use clap::Parser;",
        "mod cli;",
        "fn main() -> anyhow::Result<()> {",
        "    cli::Cli::parse().run()",
        "}",
    ],
    "cli": [
        "use clap::{Parser, Subcommand};",
        "#[derive(Parser)]",
        "pub struct Cli { #[command(subcommand)] cmd: Cmd }",
        "#[derive(Subcommand)]",
        'enum Cmd { Today { station: String }, Week { station: String }, Serve { #[arg(long, default_value = "127.0.0.1:8640")] listen: String } }',  # noqa: E501
    ],
    "lib": [
        "pub mod harmonics;",
        "pub mod station;",
        "pub mod predict;",
        "pub mod store;",
        "pub mod server;",
        "pub mod render;",
        "pub mod units;",
        "pub mod time;",
        "pub mod error;",
        "pub mod config;",
    ],
    "harmonics": [
        "/// A harmonic constituent: amplitude (m), phase (deg), speed (deg/h).",
        "pub struct Constituent { pub name: &'static str, pub amp: f64, pub phase: f64, pub speed: f64 }",  # noqa: E501
    ],
    "station": [
        "#[derive(serde::Deserialize)]",
        "pub struct Station { pub id: String, pub name: String, pub lat: f64, pub lon: f64, pub datum: f64 }",  # noqa: E501
    ],
    "predict": [
        "use crate::harmonics::Constituent;",
        "pub fn height(cs: &[Constituent], t_hours: f64) -> f64 {",
        "    cs.iter().map(|c| c.amp * (c.speed * t_hours - c.phase).to_radians().cos()).sum()",
        "}",
    ],
    "store": [
        "/// Cached predictions in SQLite (one row per station and day).",
        "pub struct Store { conn: rusqlite::Connection }",
    ],
    "server": [
        "/// `tidepool serve`: a tiny JSON API over the predictions.",
        'pub async fn serve(listen: &str) -> anyhow::Result<()> { todo!("{listen}") }',
    ],
    "render": [
        "pub fn sparkline(heights: &[f64]) -> String {",
        "    heights.iter().map(|h| ['▁','▂','▃','▄','▅','▆','▇','█'][((h + 2.0) * 1.75).clamp(0.0, 7.0) as usize]).collect()",  # noqa: E501
        "}",
    ],
    "units": ["pub fn metres_to_feet(m: f64) -> f64 { m * 3.280_84 }"],
    "time": [
        "pub fn hours_since_epoch(t: chrono::DateTime<chrono::Utc>) -> f64 { t.timestamp() as f64 / 3600.0 }"  # noqa: E501
    ],
    "error": [
        "#[derive(thiserror::Error, Debug)]",
        'pub enum Error { #[error("unknown station {0}")] UnknownStation(String) }',
    ],
    "config": [
        "/// ~/.config/tidepool/config.toml",
        "#[derive(serde::Deserialize, Default)]",
        "pub struct Config { pub default_station: Option<String>, pub feet: bool }",
    ],
}

_NIX_STATIONS = [
    "brest",
    "dover",
    "cuxhaven",
    "den-helder",
    "aberdeen",
    "cobh",
    "santander",
    "lisbon",
    "galway",
    "bergen",
    "esbjerg",
    "la-rochelle",
]


def _nix_files() -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        # Written before `nix build` was part of anyone's routine here.
        ".gitignore": lines("/target", "*.sqlite"),
        ".envrc": lines("use flake"),
        "flake.nix": _NIX_FLAKE,
        "flake.lock": _flake_lock(_NIX_OLD),
        "nix/package.nix": _NIX_PACKAGE,
        "nix/devshell.nix": lines(
            "{ mkShell, toolchain, cargo-nextest, cargo-deny, sqlite, pkg-config, openssl }:",
            "mkShell {",
            "  packages = [ toolchain cargo-nextest cargo-deny sqlite ];",
            "  nativeBuildInputs = [ pkg-config ];",
            "  buildInputs = [ openssl ];",
            '  RUST_LOG = "tidepool=debug";',
            "}",
        ),
        "nix/overlay.nix": lines(
            "self: final: prev: {",
            "  tidepool = self.packages.${final.system}.default;",
            "}",
        ),
        "rust-toolchain.toml": lines(
            "[toolchain]", 'channel = "1.77.2"', 'components = ["clippy", "rustfmt"]'
        ),
        "Cargo.toml": lines(
            "[package]",
            'name = "tidepool"',
            'version = "0.4.0"',
            'edition = "2021"',
            'license = "MIT"',
            "",
            "[dependencies]",
            'anyhow = "1"',
            'chrono = { version = "0.4", features = ["serde"] }',
            'clap = { version = "4.5", features = ["derive"] }',
            'rusqlite = { version = "0.31", features = ["bundled"] }',
            'serde = { version = "1", features = ["derive"] }',
            'thiserror = "1"',
            'tokio = { version = "1", features = ["rt-multi-thread", "macros", "net"] }',
            'toml = "0.8"',
        ),
        "Cargo.lock": lines(
            "# This file is automatically @generated by Cargo.",
            "# It is not intended for manual editing.",
            "version = 3",
            "",
            "[[package]]",
            'name = "anyhow"',
            'version = "1.0.82"',
            'source = "registry+https://github.com/rust-lang/crates.io-index"',
            'checksum = "f538837af36e6f6a9be0faa67f9a314f8119e4e4b5867c6ab40ed60360142519"',
            "",
            "[[package]]",
            'name = "tidepool"',
            'version = "0.4.0"',
        ),
        ".github/workflows/ci.yml": lines(
            "name: ci",
            "on: [push, pull_request]",
            "jobs:",
            "  nix:",
            "    runs-on: ubuntu-22.04",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - uses: cachix/install-nix-action@v25",
            "        with:",
            "          nix_path: nixpkgs=channel:nixos-23.11",
            "      - uses: DeterminateSystems/magic-nix-cache-action@v4",
            "      - run: nix flake check -L",
            "      - run: nix build -L",
        ),
        ".github/workflows/update-flake-lock.yml": lines(
            "name: update-flake-lock",
            "on:",
            "  schedule:",
            "    - cron: '0 6 1 * *'  # monthly, reviewed as its own PR",
            "jobs:",
            "  lockfile:",
            "    runs-on: ubuntu-22.04",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - uses: cachix/install-nix-action@v25",
            "      - uses: DeterminateSystems/update-flake-lock@v21",
        ),
        "README.md": lines(
            "# tidepool",
            "",
            "Tide tables in the terminal, from harmonic constants.",
            "",
            "## Install",
            "",
            "    nix profile install github:wavesmith/tidepool",
            "",
            "## Use",
            "",
            "    tidepool today brest",
            "    tidepool week dover",
        ),
        "LICENSE": lines("MIT License", "", "Copyright (c) 2024 Maren Solberg"),
        "CHANGELOG.md": lines("# Changelog", "", "## 0.4.0", "", "- `tidepool serve`: JSON API."),
        "docs/harmonics.md": lines("# Harmonic prediction", "", "h(t) = Σ A cos(ω t − φ)"),  # noqa: RUF001
        "docs/stations.md": lines("# Stations", "", "One TOML file per station in data/stations/."),
        "docs/api.md": lines("# JSON API", "", "GET /stations/{id}/today"),
        "deny.toml": lines("[licenses]", 'allow = ["MIT", "Apache-2.0", "Unicode-DFS-2016"]'),
        "rustfmt.toml": lines("max_width = 100"),
    }
    for name, body in _NIX_RS.items():
        files[f"src/{name}.rs"] = lines(*body)
    for name in ["predict", "station", "render", "store", "cli", "units"]:
        files[f"tests/{name}.rs"] = lines(
            f"use tidepool::{name if name != 'cli' else 'config'};",
            "#[test]",
            f"fn {name}_works() {{ assert!(true); }}",
        )
    for i, st in enumerate(_NIX_STATIONS):
        files[f"data/stations/{st}.toml"] = lines(
            f'id = "{st}"',
            f'name = "{st.replace("-", " ").title()}"',
            f"lat = {43 + i * 0.9:.2f}",
            f"lon = {-9 + i * 1.3:.2f}",
            "",
            "[[constituent]]",
            f'name = "M2"\namp = {1.2 + i * 0.1:.2f}\nphase = {100 + i * 7}\nspeed = 28.984104',
            "",
            "[[constituent]]",
            f'name = "S2"\namp = {0.4 + i * 0.03:.2f}\nphase = {140 + i * 5}\nspeed = 30.0',
        )
    return files


_NIX_MODULE = lines(
    "self:",
    "{ config, lib, pkgs, ... }:",
    "let",
    "  cfg = config.services.tidepool;",
    "in {",
    "  options.services.tidepool = {",
    '    enable = lib.mkEnableOption "the tidepool JSON API";',
    "    package = lib.mkOption {",
    "      type = lib.types.package;",
    "      default = self.packages.${pkgs.system}.default;",
    '      description = "The tidepool package to run.";',
    "    };",
    "    listen = lib.mkOption {",
    "      type = lib.types.str;",
    '      default = "127.0.0.1:8640";',
    '      description = "Address and port `tidepool serve` listens on.";',
    "    };",
    "  };",
    "",
    "  config = lib.mkIf cfg.enable {",
    "    systemd.services.tidepool = {",
    '      description = "tidepool JSON API";',
    '      wantedBy = [ "multi-user.target" ];',
    '      after = [ "network.target" ];',
    "      serviceConfig = {",
    '        ExecStart = "${lib.getExe cfg.package} serve --listen ${cfg.listen}";',
    "        DynamicUser = true;",
    '        StateDirectory = "tidepool";',
    '        Environment = "XDG_CACHE_HOME=/var/lib/tidepool";',
    '        ProtectSystem = "strict";',
    "      };",
    "    };",
    "  };",
    "}",
)


def _nix(s: Scene) -> None:
    s.commit("tidepool 0.4.0: flake with crane, devshell, overlay", _nix_files(), days_ago=60)
    s.commit(
        "stations: Bergen and Esbjerg",
        {"docs/stations.md": _read(s, "docs/stations.md") + "\nNorth Sea stations added.\n"},
        days_ago=12,
    )
    s.intent(
        "Add a NixOS module: services.tidepool runs `tidepool serve` as a systemd service; "
        "expose it as nixosModules.default and add a VM test to the flake checks",
        {"flake.nix": "the flake outputs"},
        hours_ago=2,
    )
    s.checkpoint("before the NixOS module")
    s.agent(
        {
            "nix/module.nix": _NIX_MODULE,
            "nix/tests/module.nix": lines(
                "{ self, pkgs }:",
                "pkgs.nixosTest {",
                '  name = "tidepool-module";',
                "  nodes.machine = { ... }: {",
                "    imports = [ self.nixosModules.default ];",
                "    services.tidepool.enable = true;",
                "  };",
                "  testScript = ''",
                '    machine.wait_for_unit("tidepool.service")',
                "    machine.wait_for_open_port(8640)",
                '    machine.succeed("curl -sf http://127.0.0.1:8640/stations/brest/today")',
                "  '';",
                "}",
            ),
            "flake.nix": _NIX_FLAKE.replace(
                "        checks = { inherit tidepool; };\n",
                "        checks = {\n"
                "          inherit tidepool;\n"
                "        } // pkgs.lib.optionalAttrs pkgs.stdenv.isLinux {\n"
                "          module = import ./nix/tests/module.nix { inherit self pkgs; };\n"
                "        };\n",
            ).replace(
                "        overlays.default = import ./nix/overlay.nix self;\n",
                "        overlays.default = import ./nix/overlay.nix self;\n"
                "        nixosModules.default = import ./nix/module.nix self;\n",
            ),
        }
    )
    mid = s.checkpoint("module and VM test pass")
    s.agent(
        {
            "README.md": _read(s, "README.md")
            + lines(
                "",
                "## NixOS",
                "",
                "    imports = [ tidepool.nixosModules.default ];",
                "    services.tidepool.enable = true;",
            ),
            # `nix flake update` "to get a newer nixpkgs for the test driver": every input
            # moved; the repository updates its lock in a monthly PR of its own.
            "flake.lock": _flake_lock(_NIX_NEW),
            # `nix fmt` over the whole tree: only the package file changed shape.
            "nix/package.nix": _NIX_PACKAGE_FORMATTED,
            ".github/workflows/ci.yml": _read(s, ".github/workflows/ci.yml")
            .replace("cachix/install-nix-action@v25", "cachix/install-nix-action@v27")
            .replace("magic-nix-cache-action@v4", "magic-nix-cache-action@v7")
            .replace("runs-on: ubuntu-22.04", "runs-on: ubuntu-24.04"),
        }
    )
    # `nix build` and nix-direnv: symlinks into the store and direnv's cache, none of
    # them in the 2024 ignore file.
    _link(s, "result", "/nix/store/8r0xk5n7q6b1m2vjz9a4c3d5f7g8h0j1-tidepool-0.4.0")
    _link(
        s,
        ".direnv/flake-profile-a5d5b61aa8a61b7d9d765e1daf971a9a",
        "flake-profile-1-link",
    )
    _link(
        s,
        ".direnv/flake-profile-1-link",
        "/nix/store/4w7k2l9m0x8c6v5b3n1q2z7y6t5r4e3d-nix-shell-env",
    )
    write(
        s.root,
        ".direnv/bin/nix-direnv-reload",
        lines(
            "#!/usr/bin/env bash",
            "set -e",
            'if [[ ! -d "/home/maren/src/tidepool" ]]; then',
            '  echo "Cannot find source directory; Did you move it?"',
            "  exit 1",
            "fi",
            "# rebuild the cache forcefully",
            '_nix_direnv_force_reload=1 direnv exec "/home/maren/src/tidepool" true',
        ),
    )
    s.checkpoint("agent done")
    s.fine("nix/module.nix", "nix/tests/module.nix", "flake.nix", "README.md")
    s.drift("flake.lock", "nix/package.nix", ".github/workflows/ci.yml")
    s.excluded(
        "result",
        ".direnv/flake-profile-a5d5b61aa8a61b7d9d765e1daf971a9a",
        ".direnv/flake-profile-1-link",
        ".direnv/bin/nix-direnv-reload",
    )
    s.safe_checkpoint(mid)
    s.note = "checkpoints before, mid (clean) and after the drift; mid safe; result symlink"


# -- 2. Crystal shard, empty memory ---------------------------------------------------------------

_CR_LANGS = {
    # language -> (module name, a few of its transliterations)
    "de": ("German", [("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")]),
    "fr": ("French", [("é", "e"), ("è", "e"), ("ç", "c"), ("œ", "oe")]),
    "da": ("Danish", [("æ", "ae"), ("ø", "oe"), ("å", "aa")]),
    "sv": ("Swedish", [("å", "a"), ("ä", "a"), ("ö", "o")]),
    "tr": ("Turkish", [("ı", "i"), ("ğ", "g"), ("ş", "s"), ("ç", "c")]),  # noqa: RUF001
    "cs": ("Czech", [("č", "c"), ("ř", "r"), ("š", "s"), ("ž", "z")]),
    "ru": ("Russian", [("ж", "zh"), ("ч", "ch"), ("ш", "sh"), ("щ", "shch")]),
    "el": ("Greek", [("θ", "th"), ("χ", "ch"), ("ψ", "ps")]),
}


def _cr_table(code: str, name: str, pairs: list[tuple[str, str]]) -> str:
    return lines(
        "module Slugger::Tables",
        f"  # {name}",
        f"  {code.upper()} = {{",
        *[f'    "{a}" => "{b}",' for a, b in pairs],
        "  }",
        "end",
    )


def _shard_lock(shards: Mapping[str, tuple[str, str]]) -> str:
    out = ["version: 2.0", "shards:"]
    for name, (repo, version) in shards.items():
        out += [
            f"  {name}:",
            f"    git: https://github.com/{repo}.git",
            f"    version: {version}",
            "",
        ]
    return lines(*out[:-1])


_CR_LOCK = {"spectator": ("icy-arctic-fox/spectator", "0.12.0")}


def _crystal_files() -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        # The project's own ignore file: older than the bin/ postinstall habit.
        ".gitignore": lines("/docs/", "/lib/", "/.shards/"),
        ".editorconfig": lines(
            "[*.cr]", "charset = utf-8", "indent_style = space", "indent_size = 2"
        ),
        "shard.yml": lines(
            "name: slugger",
            "version: 1.3.1",
            "",
            "authors:",
            "  - Tomasz Wrona <tomasz@wrona.dev>",
            "",
            "description: URL slugs from any text, with per-language transliteration.",
            "",
            "targets:",
            "  slugger:",
            "    main: src/cli.cr",
            "",
            "development_dependencies:",
            "  spectator:",
            "    gitlab: arctic-fox/spectator",
            "    version: ~> 0.12.0",
            "",
            "crystal: '>= 1.9.0'",
            "",
            "license: MIT",
        ),
        "shard.lock": _shard_lock(_CR_LOCK),
        "src/slugger.cr": lines(
            'require "./slugger/version"',
            'require "./slugger/tables/*"',
            'require "./slugger/options"',
            'require "./slugger/transliterate"',
            "",
            "module Slugger",
            "  def self.slug(text : String, lang : String? = nil, sep : Char = '-') : String",
            "    Transliterate.call(text, lang).downcase.gsub(/[^a-z0-9]+/, sep).strip(sep)",
            "  end",
            "end",
        ),
        "src/slugger/version.cr": lines("module Slugger", '  VERSION = "1.3.1"', "end"),
        "src/slugger/options.cr": lines(
            "module Slugger",
            "  record Options, lang : String? = nil, max_length : Int32? = nil",
            "end",
        ),
        "src/slugger/transliterate.cr": lines(
            "module Slugger::Transliterate",
            "  TABLES = {",
            *[f'    "{c}" => Tables::{c.upper()},' for c in _CR_LANGS],
            "  }",
            "",
            "  def self.call(text : String, lang : String?) : String",
            '    table = lang ? TABLES.fetch(lang) { raise ArgumentError.new("no table for #{lang}") } : nil',  # noqa: E501
            "    text.unicode_normalize(:nfc).gsub { |ch| table.try(&.[ch.to_s]?) || ch.to_s }",
            '      .unicode_normalize(:nfkd).gsub(/\\p{Mn}/, "")',
            "  end",
            "end",
        ),
        "src/cli.cr": lines(
            'require "option_parser"',
            'require "./slugger"',
            "",
            "lang = nil",
            "OptionParser.parse do |p|",
            '  p.banner = "Usage: slugger [--lang=xx] TEXT..."',
            '  p.on("-l LANG", "--lang=LANG", "Transliteration table") { |l| lang = l }',
            '  p.on("-h", "--help", "Show help") { puts p; exit }',
            "end",
            "ARGV.each { |t| puts Slugger.slug(t, lang) }",
        ),
        "spec/spec_helper.cr": lines('require "spectator"', 'require "../src/slugger"'),
        "spec/slugger_spec.cr": lines(
            'require "./spec_helper"',
            "Spectator.describe Slugger do",
            '  it "lowercases and joins words" do',
            '    expect(Slugger.slug("Hello World")).to eq("hello-world")',
            "  end",
            "end",
        ),
        "spec/cli_spec.cr": lines(
            'require "./spec_helper"',
            'Spectator.describe "slugger CLI" do',
            '  it "prints one slug per argument" do',
            '    out = `crystal run src/cli.cr -- "A b" "C d"`',
            '    expect(out).to eq("a-b\\nc-d\\n")',
            "  end",
            "end",
        ),
        "README.md": lines(
            "# slugger",
            "",
            "URL slugs from any text.",
            "",
            "```crystal",
            'Slugger.slug("Grüße aus Köln", lang: "de") # => "gruesse-aus-koeln"',
            "```",
            "",
            "Languages: " + ", ".join(_CR_LANGS) + ".",
        ),
        "CHANGELOG.md": lines("# Changelog", "", "## 1.3.1", "", "- Greek table."),
        "LICENSE": lines("The MIT License (MIT)", "", "Copyright (c) 2022 Tomasz Wrona"),
        ".github/workflows/ci.yml": lines(
            "name: CI",
            "on: [push, pull_request]",
            "jobs:",
            "  spec:",
            "    runs-on: ubuntu-latest",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - uses: crystal-lang/install-crystal@v1",
            "      - run: shards install",
            "      - run: crystal spec",
            "      - run: crystal tool format --check",
        ),
        "bench/slug_bench.cr": lines(
            'require "benchmark"',
            'require "../src/slugger"',
            'Benchmark.ips { |x| x.report("de") { Slugger.slug("Straße über Brücken", "de") } }',
        ),
        "examples/filenames.cr": lines(
            'require "../src/slugger"',
            'Dir.glob("*").each { |f| File.rename(f, Slugger.slug(f)) }',
        ),
    }
    for code, (name, pairs) in _CR_LANGS.items():
        files[f"src/slugger/tables/{code}.cr"] = _cr_table(code, name, pairs)
        word, want = {
            "de": ("Grüße", "gruesse"),
            "fr": ("Crème brûlée", "creme-brulee"),
            "da": ("Rødgrød", "roedgroed"),
            "sv": ("Smörgåsbord", "smorgasbord"),
            "tr": ("Işık", "isik"),  # noqa: RUF001
            "cs": ("Řeřicha", "rericha"),
            "ru": ("Щука", "shchuka"),
            "el": ("Θάλασσα", "thalassa"),
        }[code]
        files[f"spec/tables/{code}_spec.cr"] = lines(
            'require "../spec_helper"',
            f'Spectator.describe "{name} table" do',
            f'  it "transliterates {word}" do',
            f'    expect(Slugger.slug("{word}", lang: "{code}")).to eq("{want}")',
            "  end",
            "end",
        )
        files[f"spec/fixtures/{code}.yml"] = lines(f"- in: {word}", f"  out: {want}")
    return files


def _crystal(s: Scene) -> None:
    s.commit("slugger 1.3.1", _crystal_files(), days_ago=140)
    s.commit(
        "readme: examples",
        {"README.md": _read(s, "README.md") + "\nSee examples/.\n"},
        days_ago=21,
    )
    # Nobody set an intent. In the chat: "add Spanish and Polish tables, a --separator
    # option on the CLI, and lint with ameba in CI".
    s.intent(None)
    langs = ", ".join([*_CR_LANGS, "es", "pl"])
    s.agent(
        {
            "src/slugger/tables/es.cr": _cr_table(
                "es", "Spanish", [("ñ", "n"), ("á", "a"), ("é", "e"), ("¿", ""), ("¡", "")]
            ),
            "src/slugger/tables/pl.cr": _cr_table(
                "pl", "Polish", [("ł", "l"), ("ą", "a"), ("ę", "e"), ("ś", "s"), ("ż", "z")]
            ),
            "src/slugger/transliterate.cr": _read(s, "src/slugger/transliterate.cr").replace(
                '    "el" => Tables::EL,\n',
                '    "el" => Tables::EL,\n    "es" => Tables::ES,\n    "pl" => Tables::PL,\n',
            ),
            "src/cli.cr": _read(s, "src/cli.cr")
            .replace("lang = nil\n", "lang = nil\nsep = '-'\n")
            .replace(
                '  p.on("-h",',
                '  p.on("-s SEP", "--separator=SEP", "Word separator") { |v| sep = v[0] }\n'
                '  p.on("-h",',
            )
            .replace("Slugger.slug(t, lang)", "Slugger.slug(t, lang, sep)"),
            # A fixture named for what it holds: Spanish signage, "señales".
            "spec/fixtures/señales.yml": lines(
                "- in: ¿Dónde está la estación?",
                "  out: donde-esta-la-estacion",
                "- in: Año nuevo",
                "  out: ano-nuevo",
            ),
            "spec/tables/es_spec.cr": lines(
                'require "../spec_helper"',
                'Spectator.describe "Spanish table" do',
                '  YAML.parse(File.read("spec/fixtures/señales.yml")).as_a.each do |c|',
                '    it "slugs #{c["in"]}" do',
                '      expect(Slugger.slug(c["in"].as_s, lang: "es")).to eq(c["out"].as_s)',
                "    end",
                "  end",
                "end",
            ),
            "spec/tables/pl_spec.cr": lines(
                'require "../spec_helper"',
                'Spectator.describe "Polish table" do',
                '  it "transliterates Łódź" do',
                '    expect(Slugger.slug("Łódź", lang: "pl")).to eq("lodz")',
                "  end",
                "end",
            ),
            "README.md": _read(s, "README.md").replace(
                "Languages: " + ", ".join(_CR_LANGS) + ".", "Languages: " + langs + "."
            ),
            "shard.yml": _read(s, "shard.yml").replace(
                "    version: ~> 0.12.0\n",
                "    version: ~> 0.12.0\n  ameba:\n    github: crystal-ameba/ameba\n    version: ~> 1.6.1\n",  # noqa: E501
            ),
            "shard.lock": _shard_lock({"ameba": ("crystal-ameba/ameba", "1.6.1"), **_CR_LOCK}),
            ".github/workflows/ci.yml": _read(s, ".github/workflows/ci.yml").replace(
                "      - run: crystal tool format --check\n",
                "      - run: crystal tool format --check\n      - run: bin/ameba\n",
            ),
            # ameba's postinstall builds bin/ameba; the old ignore file has no /bin/.
            "bin/ameba": ELF + b"ameba 1.6.1",
            # `crystal build src/cli.cr -o slugger` on the user's Mac, to try the flag.
            "slugger": MACHO,
            "slugger.dwarf": DWARF,
        }
    )
    # Empty memory: every change a person asked for is in scope, the lock file too (it
    # moved because ameba was asked for).
    s.fine(
        "src/slugger/tables/es.cr",
        "src/slugger/tables/pl.cr",
        "src/slugger/transliterate.cr",
        "src/cli.cr",
        "spec/fixtures/señales.yml",
        "spec/tables/es_spec.cr",
        "spec/tables/pl_spec.cr",
        "README.md",
        "shard.yml",
        "shard.lock",
        ".github/workflows/ci.yml",
    )
    s.excluded("bin/ameba", "slugger", "slugger.dwarf")
    s.safe_commit()
    s.note = "empty memory: everything in scope, nothing drift; binaries excluded; no checkpoint"


# -- 3. Nim library -------------------------------------------------------------------------------

_NIM_MODULES = {
    "lexer": [
        "type",
        "  TokenKind* = enum tkTagOpen, tkTagClose, tkString, tkSymbol, tkInt, tkPeriod,",
        "    tkResult, tkLParen, tkRParen, tkEof",
        "  Token* = object",
        "    kind*: TokenKind",
        "    text*: string",
        "    line*: int",
        "",
        "proc lex*(src: string): seq[Token] =",
        "  ## Splits PGN text into tokens; comments are skipped for now.",
        "  var i = 0",
        "  while i < src.len:",
        "    case src[i]",
        "    of '{':",
        "      while i < src.len and src[i] != '}': inc i",
        "    else: discard",
        "    inc i",
    ],
    "san": [
        "import std/strutils",
        "type San* = object",
        "  piece*: char",
        "  target*: string",
        "  capture*, check*, mate*: bool",
        "",
        "proc parseSan*(s: string): San =",
        "  result.check = s.endsWith('+')",
        "  result.mate = s.endsWith('#')",
        "  result.capture = 'x' in s",
    ],
    "tree": [
        "import san",
        "type",
        "  Node* = ref object",
        "    move*: San",
        "    children*: seq[Node]",
        "  Game* = object",
        "    tags*: seq[(string, string)]",
        "    root*: Node",
        "    result*: string",
    ],
    "parser": [
        "import lexer, tree, san",
        "",
        "proc parseGame*(src: string): Game =",
        "  let toks = lex(src)",
        "  result.root = Node()",
        "  var cur = result.root",
        "  for t in toks:",
        "    case t.kind",
        "    of tkSymbol:",
        "      let n = Node(move: parseSan(t.text))",
        "      cur.children.add n",
        "      cur = n",
        "    else: discard",
    ],
    "writer": [
        "import std/strutils, tree",
        "",
        "proc `$`*(g: Game): string =",
        '  for (k, v) in g.tags: result.add "[" & k & " \\"" & v & "\\"]\\n"',
        '  result.add "\\n"',
        "  var n = g.root; var ply = 0",
        "  while n.children.len > 0:",
        "    n = n.children[0]",
        '    if ply mod 2 == 0: result.add $(ply div 2 + 1) & ". "',
        '    result.add n.move.target & " "',
        "    inc ply",
        "  result.add g.result",
    ],
    "eco": [
        "## ECO opening codes, longest prefix match on the main line.",
        'const Openings* = [("C50", "Italian Game"), ("B20", "Sicilian Defence"),',
        '  ("D06", "Queen\'s Gambit"), ("A04", "Réti Opening")]',
    ],
    "stats": [
        "import tree",
        "proc plyCount*(g: Game): int =",
        "  var n = g.root",
        "  while n.children.len > 0: (n = n.children[0]; inc result)",
    ],
}

# nimpretty over a module the NAG work never opens.
_NIM_WRITER_PRETTY = lines(
    "import std/strutils, tree",
    "",
    "proc `$`*(g: Game): string =",
    "  for (k, v) in g.tags:",
    '    result.add "[" & k & " \\"" & v & "\\"]\\n"',
    '  result.add "\\n"',
    "  var",
    "    n = g.root",
    "    ply = 0",
    "  while n.children.len > 0:",
    "    n = n.children[0]",
    "    if ply mod 2 == 0:",
    '      result.add $(ply div 2 + 1) & ". "',
    '    result.add n.move.target & " "',
    "    inc ply",
    "  result.add g.result",
)

_NIM_GAMES = [
    "morphy_opera",
    "immortal",
    "evergreen",
    "kasparov_topalov",
    "deep_blue_g6",
    "carlsen_anand_g6",
    "fischer_spassky_g6",
    "tal_larsen",
    "rubinstein_rotlewi",
    "byrne_fischer",
    "capablanca_marshall",
    "lasker_bauer",
    "botvinnik_capablanca",
    "short_timman",
]


def _nim_c(module: str, version: str = "2.0.4") -> str:
    """A C file from nimcache/, as the Nim compiler writes it."""
    return lines(
        f"/* Generated by Nim Compiler v{version} */",
        "#define NIM_INTBITS 64",
        "#define NIM_EmulateOverflowChecks",
        "",
        '#include "nimbase.h"',
        "#include <string.h>",
        "#undef LANGUAGE_C",
        "#undef MIPSEB",
        f"N_LIB_PRIVATE N_NIMCALL(void, {module}DatInit000)(void);",
    )


def _nim_files() -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        ".gitignore": lines("*.exe", "/htmldocs/", "testresults/", "outputGotten.txt"),
        "pgnkit.nimble": lines(
            "# Package",
            "",
            'version       = "0.7.0"',
            'author        = "Lior Ben-David"',
            'description   = "Read and write chess games in PGN"',
            'license       = "MIT"',
            'srcDir        = "src"',
            "",
            "# Dependencies",
            "",
            'requires "nim >= 1.6.14"',
            "",
            'task docs, "Build the API docs":',
            '  exec "nim doc --project --index:on --outdir:htmldocs src/pgnkit.nim"',
        ),
        "config.nims": lines(
            "# Keep the C sources next to the project while debugging codegen.",
            'switch("nimcache", "nimcache")',
        ),
        "src/pgnkit.nim": lines(
            "import pgnkit/[lexer, san, tree, parser, writer, eco, stats]",
            "export lexer, san, tree, parser, writer, eco, stats",
        ),
        "tests/config.nims": lines('switch("path", "$projectDir/../src")'),
        "README.md": lines(
            "# pgnkit",
            "",
            "Read and write chess games in PGN (Portable Game Notation).",
            "",
            "```nim",
            "import pgnkit",
            'let g = parseGame(readFile("immortal.pgn"))',
            "echo g.plyCount",
            "```",
        ),
        "CHANGELOG.md": lines("# 0.7.0", "", "- ECO codes for the main line."),
        "LICENSE": lines("MIT License", "", "Copyright (c) 2023 Lior Ben-David"),
        ".github/workflows/test.yml": lines(
            "name: test",
            "on: [push, pull_request]",
            "jobs:",
            "  test:",
            "    runs-on: ubuntu-latest",
            "    strategy:",
            "      matrix:",
            "        nim: ['1.6.20', '2.0.4']",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - uses: jiro4989/setup-nim-action@v1",
            "        with:",
            "          nim-version: ${{ matrix.nim }}",
            "      - run: nimble test -y",
        ),
        "examples/opening_stats.nim": lines(
            "import std/[os, tables], pgnkit",
            "var seen = initCountTable[string]()",
            'for f in walkFiles("tests/games/*.pgn"): seen.inc eco(parseGame(readFile(f)))',
            "echo seen",
        ),
        "docs/format.md": lines("# PGN in short", "", "Seven tag roster, then movetext."),
    }
    for name, body in _NIM_MODULES.items():
        files[f"src/pgnkit/{name}.nim"] = lines(*body)
    for name in ["lexer", "san", "parser", "writer", "eco", "stats", "roundtrip", "nag_legacy"]:
        files[f"tests/t{name}.nim"] = lines(
            "import std/unittest, pgnkit",
            "",
            f'suite "{name}":',
            f'  test "{name} basics":',
            '    check parseGame("1. e4 e5 *").plyCount == 2',
        )
    # The old test of the 0.3 "$n as text" behaviour, skipped since 0.5.
    files["tests/tnag_legacy.nim"] = lines(
        "import std/unittest, pgnkit",
        "",
        'suite "nag legacy":',
        '  test "NAGs kept as raw text (0.3 compatibility)":',
        "    skip()",
    )
    for i, g in enumerate(_NIM_GAMES):
        files[f"tests/games/{g}.pgn"] = lines(
            f'[Event "{g.replace("_", " ").title()}"]',
            '[Site "?"]',
            f'[Date "{1858 + i * 19}.??.??"]',
            '[Result "1-0"]',
            "",
            "1. e4 e5 2. Nf3 d6 3. d4 Bg4 {A weak move} 4. dxe5 $2 Bxf3 5. Qxf3 dxe5 1-0",
        )
    return files


def _nim(s: Scene) -> None:
    s.commit("pgnkit 0.7.0", _nim_files(), days_ago=95)
    s.commit(
        "docs: movetext",
        {"docs/format.md": _read(s, "docs/format.md") + "\nComments go in braces.\n"},
        days_ago=5,
    )
    s.intent(
        "Parse PGN comments {…} and NAGs ($1, $2, …) into the move tree: Node.comment and "
        "Node.nags, written back out by the writer",
        {"src/pgnkit/parser.nim": "where movetext becomes nodes"},
        hours_ago=3,
    )
    before = s.checkpoint("before comments and NAGs")
    s.agent(
        {
            "src/pgnkit/lexer.nim": _read(s, "src/pgnkit/lexer.nim")
            .replace(
                "tkResult, tkLParen, tkRParen, tkEof",
                "tkResult, tkLParen, tkRParen, tkComment, tkNag, tkEof",
            )
            .replace(
                "    of '{':\n      while i < src.len and src[i] != '}': inc i\n",
                "    of '{':\n"
                "      let start = i + 1\n"
                "      while i < src.len and src[i] != '}': inc i\n"
                "      result.add Token(kind: tkComment, text: src[start ..< i])\n"
                "    of '$':\n"
                "      let start = i + 1\n"
                "      while i + 1 < src.len and src[i + 1].isDigit: inc i\n"
                "      result.add Token(kind: tkNag, text: src[start .. i])\n",
            )
            .replace(
                "  ## Splits PGN text into tokens; comments are skipped for now.",
                "  ## Splits PGN text into tokens.",
            ),
            "src/pgnkit/tree.nim": _read(s, "src/pgnkit/tree.nim").replace(
                "    children*: seq[Node]\n",
                "    children*: seq[Node]\n    comment*: string\n    nags*: seq[int]\n",
            ),
            "src/pgnkit/parser.nim": _read(s, "src/pgnkit/parser.nim")
            .replace("import lexer, tree, san\n", "import std/strutils, lexer, tree, san\n")
            .replace(
                "    else: discard\n",
                "    of tkComment: cur.comment = t.text.strip\n"
                "    of tkNag: cur.nags.add parseInt(t.text)\n"
                "    else: discard\n",
            ),
            "tests/tparser.nim": _read(s, "tests/tparser.nim")
            + lines(
                '  test "comments and NAGs land on the move before them":',
                '    let g = parseGame("1. e4 {Best by test} e5 $2 *")',
                '    check g.root.children[0].comment == "Best by test"',
                "    check g.root.children[0].children[0].nags == @[2]",
            ),
        }
    )
    # While the agent works, the user turns on strict parsing for the test run and
    # silences the compiler's hints: their own edit, no agent turn.
    _by_hand(
        s,
        {
            "tests/config.nims": _read(s, "tests/config.nims")
            + lines('switch("define", "pgnStrict")', 'switch("hints", "off")')
        },
    )
    s.agent(
        {
            "src/pgnkit/writer.nim": _NIM_WRITER_PRETTY.replace(
                '    result.add n.move.target & " "\n',
                '    result.add n.move.target & " "\n'
                '    for nag in n.nags: result.add "$" & $nag & " "\n'
                '    if n.comment.len > 0: result.add "{" & n.comment & "} "\n',
            ),
            "CHANGELOG.md": "# Unreleased\n\n- Comments and NAGs in the move tree.\n\n"
            + _read(s, "CHANGELOG.md"),
            # Nim 1.6 dropped: not asked, and CI still tests 1.6.
            "pgnkit.nimble": _read(s, "pgnkit.nimble").replace(
                'requires "nim >= 1.6.14"', 'requires "nim >= 2.0.0"'
            ),
            # `nimble test` with nimcache set to the project: C sources and test binaries.
            "nimcache/@mpgnkit.nim.c": _nim_c("pgnkit"),
            "nimcache/@mpgnkit@slexer.nim.c": _nim_c("pgnkit_lexer"),
            "nimcache/@mpgnkit@sparser.nim.c": _nim_c("pgnkit_parser"),
            "nimcache/@mpgnkit@swriter.nim.c": _nim_c("pgnkit_writer"),
            "nimcache/@mtparser.nim.c": _nim_c("tparser"),
            "nimcache/tparser.json": '{"cacheVersion": 2, "outputFile": "tests/tparser", "compile": [["@mtparser.nim.c", "gcc -c -w -fmax-errors=3 -O3"]], "link": ["@mtparser.nim.c.o"], "linkcmd": "gcc -o tests/tparser"}\n',  # noqa: E501
            "tests/tparser": ELF + b"tparser",
            "tests/twriter": ELF + b"twriter",
        },
        # "Obsolete now that NAGs parse": the 0.3 compatibility it documents is not part
        # of this task, and nobody asked for it to go.
        delete=["tests/tnag_legacy.nim"],
    )
    s.checkpoint("agent done")
    s.fine(
        "src/pgnkit/lexer.nim",
        "src/pgnkit/tree.nim",
        "src/pgnkit/parser.nim",
        "tests/tparser.nim",
        # Writing NAGs and comments back out was asked for; nimpretty reflowed the rest of
        # the proc in the same edit. The file as a whole belongs to the task.
        "src/pgnkit/writer.nim",
        "CHANGELOG.md",
        "tests/config.nims",  # the user's own edit
    )
    s.drift("tests/tnag_legacy.nim", "pgnkit.nimble")
    s.excluded(
        "nimcache/@mpgnkit.nim.c",
        "nimcache/@mpgnkit@slexer.nim.c",
        "nimcache/@mpgnkit@sparser.nim.c",
        "nimcache/@mpgnkit@swriter.nim.c",
        "nimcache/@mtparser.nim.c",
        "nimcache/tparser.json",
        "tests/tparser",
        "tests/twriter",
    )
    s.safe_checkpoint(before)
    s.note = (
        "checkpoint before the work is the newest clean one; the user's own tests/config.nims "
        "edit came after it; a deleted skipped test and a nim>=2.0 bump drift"
    )


# -- 4. Rails engine gem --------------------------------------------------------------------------

_RB_ACCOUNTS = lines(
    "module Ledgerline",
    "  class AccountsController < ApplicationController",
    "    before_action :set_account, only: [:show, :edit, :update]",
    "",
    "    def index",
    "      @accounts = Account.order(:code)",
    "    end",
    "",
    "    def show",
    "      @entries = @account.entries.order(posted_on: :desc).limit(100)",
    "    end",
    "",
    "    def update",
    "      if @account.update(account_params)",
    "        redirect_to @account, notice: 'Account updated.'",
    "      else",
    "        render :edit, status: :unprocessable_entity",
    "      end",
    "    end",
    "",
    "    private",
    "      def set_account",
    "        @account = Account.find(params[:id])",
    "      end",
    "",
    "      def account_params",
    "        params.require(:account).permit(:code, :name, :kind)",
    "      end",
    "  end",
    "end",
)

# `rubocop -a` with rubocop-rails-omakase's neighbour config: quotes, private indentation
# and hash-shorthand, on a controller the CSV work never touches.
_RB_ACCOUNTS_COPPED = lines(
    "module Ledgerline",
    "  class AccountsController < ApplicationController",
    "    before_action :set_account, only: %i[show edit update]",
    "",
    "    def index",
    "      @accounts = Account.order(:code)",
    "    end",
    "",
    "    def show",
    "      @entries = @account.entries.order(posted_on: :desc).limit(100)",
    "    end",
    "",
    "    def update",
    "      if @account.update(account_params)",
    '        redirect_to @account, notice: "Account updated."',
    "      else",
    "        render :edit, status: :unprocessable_entity",
    "      end",
    "    end",
    "",
    "    private",
    "",
    "    def set_account",
    "      @account = Account.find(params[:id])",
    "    end",
    "",
    "    def account_params",
    "      params.require(:account).permit(:code, :name, :kind)",
    "    end",
    "  end",
    "end",
)

_RB_GEMFILE_LOCK = lines(
    "PATH",
    "  remote: .",
    "  specs:",
    "    ledgerline (0.9.0)",
    "      rails (>= 7.1)",
    "",
    "GEM",
    "  remote: https://rubygems.org/",
    "  specs:",
    "    actionpack (7.1.3.2)",
    "    activerecord (7.1.3.2)",
    "    minitest (5.22.3)",
    "    rails (7.1.3.2)",
    "    rubocop (1.63.4)",
    "    simplecov (0.22.0)",
    "    sqlite3 (1.7.3-x86_64-linux)",
    "",
    "PLATFORMS",
    "  x86_64-linux",
    "",
    "DEPENDENCIES",
    "  ledgerline!",
    "  rubocop",
    "  simplecov",
    "  sqlite3",
    "",
    "BUNDLED WITH",
    "   2.5.9",
)


def _rails_files() -> dict[str, str | bytes]:
    e = "ledgerline"
    files: dict[str, str | bytes] = {
        ".gitignore": lines(
            "/.bundle/",
            "/doc/",
            "/log/*.log",
            "/pkg/",
            "/tmp/",  # noqa: S108
            "/test/dummy/db/*.sqlite3",
            "/test/dummy/db/*.sqlite3-*",
            "/test/dummy/log/*.log",
            "/test/dummy/storage/",
            "/test/dummy/tmp/",
        ),
        ".rubocop.yml": lines("inherit_gem:", "  rubocop-rails-omakase: rubocop.yml"),
        "ledgerline.gemspec": lines(
            'require_relative "lib/ledgerline/version"',
            "",
            "Gem::Specification.new do |spec|",
            '  spec.name        = "ledgerline"',
            "  spec.version     = Ledgerline::VERSION",
            '  spec.authors     = ["Ayesha Qureshi"]',
            '  spec.summary     = "Double-entry ledgers and reports as a mountable engine."',
            '  spec.license     = "MIT"',
            '  spec.required_ruby_version = ">= 3.1"',
            "",
            "  spec.files = Dir.chdir(File.expand_path(__dir__)) do",
            '    Dir["{app,config,db,lib}/**/*", "MIT-LICENSE", "Rakefile", "README.md"]',
            "  end",
            "",
            '  spec.add_dependency "rails", ">= 7.1"',
            "end",
        ),
        "Gemfile": lines(
            'source "https://rubygems.org"',
            "gemspec",
            "",
            'gem "sqlite3"',
            'gem "rubocop", require: false',
            'gem "simplecov", require: false',
        ),
        "Gemfile.lock": _RB_GEMFILE_LOCK,
        "Rakefile": lines(
            'require "bundler/setup"',
            'APP_RAKEFILE = File.expand_path("test/dummy/Rakefile", __dir__)',
            'load "rails/tasks/engine.rake"',
            'require "bundler/gem_tasks"',
        ),
        "README.md": lines(
            "# Ledgerline",
            "",
            "Double-entry ledgers as a mountable Rails engine.",
            "",
            "```ruby",
            'mount Ledgerline::Engine, at: "/ledger"',
            "```",
        ),
        "CHANGELOG.md": lines("## 0.9.0", "", "- `LegacyExport` deprecated; removal in 1.0."),
        "MIT-LICENSE": lines(
            "Copyright 2023 Ayesha Qureshi", "", "Permission is hereby granted..."
        ),
        "bin/rails": lines(
            "#!/usr/bin/env ruby",
            'ENGINE_ROOT = File.expand_path("..", __dir__)',
            'ENGINE_PATH = File.expand_path("../lib/ledgerline/engine", __dir__)',
            'require "rails/all"',
            'require "rails/engine/commands"',
        ),
        "lib/ledgerline.rb": lines(
            'require "ledgerline/version"',
            'require "ledgerline/engine"',
            'require "ledgerline/legacy_export"',
            "",
            "module Ledgerline",
            "end",
        ),
        "lib/ledgerline/version.rb": lines("module Ledgerline", '  VERSION = "0.9.0"', "end"),
        "lib/ledgerline/engine.rb": lines(
            "module Ledgerline",
            "  class Engine < ::Rails::Engine",
            "    isolate_namespace Ledgerline",
            "  end",
            "end",
        ),
        "lib/ledgerline/legacy_export.rb": lines(
            "module Ledgerline",
            "  # @deprecated Use Report#to_csv (1.0 removes this).",
            "  class LegacyExport",
            "    def initialize(report) = @report = report",
            "",
            "    def to_tsv",
            '      ActiveSupport::Deprecation.new("1.0", "Ledgerline").warn("LegacyExport is deprecated")',  # noqa: E501
            '      @report.rows.map { |r| r.join("\\t") }.join("\\n")',
            "    end",
            "  end",
            "end",
        ),
        "lib/tasks/ledgerline_tasks.rake": lines(
            "namespace :ledgerline do",
            '  desc "Recompute account balances"',
            "  task rebalance: :environment do",
            "    Ledgerline::Account.find_each(&:rebalance!)",
            "  end",
            "end",
        ),
        f"app/controllers/{e}/application_controller.rb": lines(
            "module Ledgerline",
            "  class ApplicationController < ActionController::Base",
            "  end",
            "end",
        ),
        f"app/controllers/{e}/accounts_controller.rb": _RB_ACCOUNTS,
        f"app/controllers/{e}/entries_controller.rb": lines(
            "module Ledgerline",
            "  class EntriesController < ApplicationController",
            "    def index",
            "      @entries = Entry.includes(:account).order(posted_on: :desc).page(params[:page])",
            "    end",
            "",
            "    def create",
            "      @entry = Entry.new(entry_params)",
            "      @entry.save ? redirect_to(entries_path) : render(:new, status: :unprocessable_entity)",  # noqa: E501
            "    end",
            "",
            "    private",
            "      def entry_params",
            "        params.require(:entry).permit(:account_id, :amount_cents, :posted_on, :memo)",
            "      end",
            "  end",
            "end",
        ),
        f"app/controllers/{e}/reports_controller.rb": lines(
            "module Ledgerline",
            "  class ReportsController < ApplicationController",
            "    def index",
            "      @reports = Report.order(created_at: :desc)",
            "    end",
            "",
            "    def show",
            "      @report = Report.find(params[:id])",
            "    end",
            "  end",
            "end",
        ),
        f"app/models/{e}/application_record.rb": lines(
            "module Ledgerline",
            "  class ApplicationRecord < ActiveRecord::Base",
            "    self.abstract_class = true",
            "  end",
            "end",
        ),
        f"app/models/{e}/account.rb": lines(
            "module Ledgerline",
            "  class Account < ApplicationRecord",
            "    has_many :entries, dependent: :restrict_with_error",
            "    enum :kind, { asset: 0, liability: 1, equity: 2, income: 3, expense: 4 }",
            "    validates :code, presence: true, uniqueness: true",
            "",
            "    def rebalance!",
            "      update!(balance_cents: entries.sum(:amount_cents))",
            "    end",
            "  end",
            "end",
        ),
        f"app/models/{e}/entry.rb": lines(
            "module Ledgerline",
            "  class Entry < ApplicationRecord",
            "    belongs_to :account",
            "    validates :amount_cents, numericality: { other_than: 0 }",
            "  end",
            "end",
        ),
        f"app/models/{e}/report.rb": lines(
            "module Ledgerline",
            "  class Report < ApplicationRecord",
            "    HEADER = %w[account_code account_name debit credit].freeze",
            "",
            "    def rows",
            "      Account.order(:code).map do |a|",
            "        [a.code, a.name, a.debit_cents(period), a.credit_cents(period)]",
            "      end",
            "    end",
            "",
            "    def period = starts_on..ends_on",
            "  end",
            "end",
        ),
        f"app/views/{e}/accounts/index.html.erb": lines(
            "<h1>Accounts</h1>",
            "<table>",
            "  <% @accounts.each do |account| %>",
            "    <tr><td><%= link_to account.code, account %></td><td><%= account.name %></td></tr>",  # noqa: E501
            "  <% end %>",
            "</table>",
        ),
        f"app/views/{e}/accounts/show.html.erb": lines("<h1><%= @account.name %></h1>"),
        f"app/views/{e}/accounts/edit.html.erb": lines("<%= render 'form', account: @account %>"),
        f"app/views/{e}/accounts/_form.html.erb": lines(
            "<%= form_with model: account do |f| %>",
            "  <%= f.text_field :code %> <%= f.text_field :name %> <%= f.submit %>",
            "<% end %>",
        ),
        f"app/views/{e}/entries/index.html.erb": lines("<h1>Entries</h1>"),
        f"app/views/{e}/reports/index.html.erb": lines(
            "<h1>Reports</h1>",
            "<ul><% @reports.each do |r| %><li><%= link_to r.title, r %></li><% end %></ul>",
        ),
        f"app/views/{e}/reports/show.html.erb": lines(
            "<h1><%= @report.title %></h1>",
            "<table>",
            "  <tr><% Ledgerline::Report::HEADER.each do |h| %><th><%= h.humanize %></th><% end %></tr>",  # noqa: E501
            "  <% @report.rows.each do |row| %><tr><% row.each do |c| %><td><%= c %></td><% end %></tr><% end %>",  # noqa: E501
            "</table>",
        ),
        f"app/views/layouts/{e}/application.html.erb": lines(
            "<!DOCTYPE html>",
            "<html><head><title>Ledgerline</title><%= stylesheet_link_tag 'ledgerline/application' %></head>",  # noqa: E501
            "<body><%= yield %></body></html>",
        ),
        f"app/helpers/{e}/application_helper.rb": lines(
            "module Ledgerline",
            "  module ApplicationHelper",
            "    def money(cents) = number_to_currency(cents / 100.0)",
            "  end",
            "end",
        ),
        f"app/assets/stylesheets/{e}/application.css": lines(
            "table { border-collapse: collapse; }"
        ),
        f"app/jobs/{e}/application_job.rb": lines(
            "module Ledgerline", "  class ApplicationJob < ActiveJob::Base", "  end", "end"
        ),
        "config/routes.rb": lines(
            "Ledgerline::Engine.routes.draw do",
            "  resources :accounts, only: %i[index show edit update]",
            "  resources :entries, only: %i[index new create]",
            "  resources :reports, only: %i[index show]",
            "  root to: 'accounts#index'",
            "end",
        ),
        "db/migrate/20230301090000_create_ledgerline_accounts.rb": lines(
            "class CreateLedgerlineAccounts < ActiveRecord::Migration[7.1]",
            "  def change",
            "    create_table :ledgerline_accounts do |t|",
            "      t.string :code, null: false, index: { unique: true }",
            "      t.string :name, null: false",
            "      t.integer :kind, null: false",
            "      t.bigint :balance_cents, null: false, default: 0",
            "      t.timestamps",
            "    end",
            "  end",
            "end",
        ),
        "db/migrate/20230301090100_create_ledgerline_entries.rb": lines(
            "class CreateLedgerlineEntries < ActiveRecord::Migration[7.1]",
            "  def change",
            "    create_table :ledgerline_entries do |t|",
            "      t.references :account, null: false, foreign_key: { to_table: :ledgerline_accounts }",  # noqa: E501
            "      t.bigint :amount_cents, null: false",
            "      t.date :posted_on, null: false",
            "      t.string :memo",
            "      t.timestamps",
            "    end",
            "  end",
            "end",
        ),
        "db/migrate/20230412140000_create_ledgerline_reports.rb": lines(
            "class CreateLedgerlineReports < ActiveRecord::Migration[7.1]",
            "  def change",
            "    create_table :ledgerline_reports do |t|",
            "      t.string :title, null: false",
            "      t.date :starts_on, null: false",
            "      t.date :ends_on, null: false",
            "      t.timestamps",
            "    end",
            "  end",
            "end",
        ),
        "test/test_helper.rb": lines(
            'require "simplecov"',
            "SimpleCov.start 'rails'",
            'ENV["RAILS_ENV"] = "test"',
            'require_relative "../test/dummy/config/environment"',
            'require "rails/test_help"',
            'ActiveSupport::TestCase.fixture_paths = [File.expand_path("fixtures", __dir__)]',
            "ActiveSupport::TestCase.fixtures :all",
        ),
        "test/lib/legacy_export_test.rb": lines(
            'require "test_helper"',
            "",
            "class LegacyExportTest < ActiveSupport::TestCase",
            '  test "tsv rows" do',
            "    tsv = Ledgerline::LegacyExport.new(ledgerline_reports(:q1)).to_tsv",
            '    assert_includes tsv, "1000\\tCash"',
            "  end",
            "end",
        ),
        "test/controllers/ledgerline/reports_controller_test.rb": lines(
            'require "test_helper"',
            "",
            "module Ledgerline",
            "  class ReportsControllerTest < ActionDispatch::IntegrationTest",
            "    include Engine.routes.url_helpers",
            "",
            '    test "show" do',
            "      get report_url(ledgerline_reports(:q1))",
            "      assert_response :success",
            "    end",
            "  end",
            "end",
        ),
        ".github/workflows/ci.yml": lines(
            "name: CI",
            "on: [push, pull_request]",
            "jobs:",
            "  test:",
            "    runs-on: ubuntu-latest",
            "    strategy:",
            "      matrix:",
            "        ruby: ['3.1', '3.2', '3.3']",
            "        rails: ['7.1', '7.2']",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - uses: ruby/setup-ruby@v1",
            "        with:",
            "          ruby-version: ${{ matrix.ruby }}",
            "          bundler-cache: true",
            "      - run: bin/rails db:setup test",
            "  lint:",
            "    runs-on: ubuntu-latest",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - uses: ruby/setup-ruby@v1",
            "        with: { ruby-version: '3.3', bundler-cache: true }",
            "      - run: bundle exec rubocop",
        ),
    }
    for name in ["account", "entry", "report"]:
        files[f"test/models/ledgerline/{name}_test.rb"] = lines(
            'require "test_helper"',
            "module Ledgerline",
            f"  class {name.title()}Test < ActiveSupport::TestCase",
            f'    test "{name} fixtures are valid" do',
            f"      assert ledgerline_{name}s(:one).valid?"
            if name != "entry"
            else "      assert ledgerline_entries(:one).valid?",
            "    end",
            "  end",
            "end",
        )
    files["test/fixtures/ledgerline/accounts.yml"] = lines(
        "one:",
        "  code: 1000",
        "  name: Cash",
        "  kind: asset",
        "two:",
        "  code: 4000",
        "  name: Sales",
        "  kind: income",
    )
    files["test/fixtures/ledgerline/entries.yml"] = lines(
        "one:", "  account: one", "  amount_cents: 12500", "  posted_on: 2024-01-15"
    )
    files["test/fixtures/ledgerline/reports.yml"] = lines(
        "one:",
        "  title: Ad hoc",
        "  starts_on: 2024-01-01",
        "  ends_on: 2024-01-31",
        "q1:",
        "  title: Q1 2024",
        "  starts_on: 2024-01-01",
        "  ends_on: 2024-03-31",
    )
    d = "test/dummy"
    files.update(
        {
            f"{d}/Rakefile": lines(
                'require_relative "config/application"', "Rails.application.load_tasks"
            ),
            f"{d}/config.ru": lines(
                'require_relative "config/environment"', "run Rails.application"
            ),
            f"{d}/bin/rails": lines(
                'APP_PATH = File.expand_path("../config/application", __dir__)',
                'require "rails/commands"',
            ),
            f"{d}/config/application.rb": lines(
                'require_relative "boot"',
                'require "rails/all"',
                "Bundler.require(*Rails.groups)",
                'require "ledgerline"',
                "module Dummy",
                "  class Application < Rails::Application",
                "    config.load_defaults 7.1",
                "  end",
                "end",
            ),
            f"{d}/config/boot.rb": lines(
                'ENV["BUNDLE_GEMFILE"] ||= File.expand_path("../../../Gemfile", __dir__)',
                'require "bundler/setup" if File.exist?(ENV["BUNDLE_GEMFILE"])',
            ),
            f"{d}/config/environment.rb": lines(
                'require_relative "application"', "Rails.application.initialize!"
            ),
            f"{d}/config/database.yml": lines(
                "default: &default",
                "  adapter: sqlite3",
                "  pool: 5",
                "  timeout: 5000",
                "development:",
                "  <<: *default",
                "  database: db/development.sqlite3",
                "test:",
                "  <<: *default",
                "  database: db/test.sqlite3",
            ),
            f"{d}/config/routes.rb": lines(
                "Rails.application.routes.draw do",
                '  mount Ledgerline::Engine => "/ledgerline"',
                "end",
            ),
            f"{d}/config/environments/development.rb": lines(
                'require "active_support/core_ext/integer/time"',
                "Rails.application.configure do",
                "  config.enable_reloading = true",
                "  config.eager_load = false",
                "  config.consider_all_requests_local = true",
                "  config.active_record.migration_error = :page_load",
                "end",
            ),
            f"{d}/config/environments/test.rb": lines(
                "Rails.application.configure do",
                "  config.enable_reloading = false",
                '  config.eager_load = ENV["CI"].present?',
                "  config.action_controller.allow_forgery_protection = false",
                "end",
            ),
            f"{d}/config/environments/production.rb": lines(
                "Rails.application.configure do", "  config.eager_load = true", "end"
            ),
            f"{d}/config/puma.rb": lines(
                'threads_count = ENV.fetch("RAILS_MAX_THREADS", 3)',
                "threads threads_count, threads_count",
            ),
            f"{d}/app/controllers/application_controller.rb": lines(
                "class ApplicationController < ActionController::Base", "end"
            ),
            f"{d}/app/models/application_record.rb": lines(
                "class ApplicationRecord < ActiveRecord::Base", "  primary_abstract_class", "end"
            ),
            f"{d}/app/views/layouts/application.html.erb": lines(
                "<!DOCTYPE html>", "<html><body><%= yield %></body></html>"
            ),
            f"{d}/db/schema.rb": lines(
                "# This file is auto-generated from the current state of the database. Instead",
                "# of editing this file, please use the migrations feature of Active Record to",
                "# incrementally modify your database, and then regenerate this schema definition.",
                "",
                "ActiveRecord::Schema[7.1].define(version: 2023_04_12_140000) do",
                '  create_table "ledgerline_accounts", force: :cascade do |t|',
                '    t.string "code", null: false',
                "  end",
                "end",
            ),
        }
    )
    return files


def _rails(s: Scene) -> None:
    s.commit("ledgerline 0.9.0", _rails_files(), days_ago=110)
    s.commit(
        "changelog: deprecations",
        {"README.md": _read(s, "README.md") + "\nSee CHANGELOG for deprecations.\n"},
        days_ago=14,
    )
    s.intent(
        "CSV export for reports: GET /ledgerline/reports/:id.csv via Report#to_csv; and "
        "remove the deprecated Ledgerline::LegacyExport and its test (1.0 cleanup)",
        {
            "app/models/ledgerline/report.rb": "the report rows",
            "app/controllers/ledgerline/reports_controller.rb": "show action",
        },
        hours_ago=4,
    )
    # The user's own edit before handing over: the test database path from an env var,
    # so their parallel checkout can run tests side by side.
    _by_hand(
        s,
        {
            "test/dummy/config/database.yml": _read(s, "test/dummy/config/database.yml").replace(
                "  database: db/test.sqlite3\n",
                '  database: <%= ENV.fetch("LEDGERLINE_TEST_DB", "db/test.sqlite3") %>\n',
            )
        },
    )
    s.agent(
        {
            "app/models/ledgerline/report.rb": _read(s, "app/models/ledgerline/report.rb")
            .replace(
                "    def period = starts_on..ends_on\n",
                "    def period = starts_on..ends_on\n"
                "\n"
                "    def to_csv\n"
                "      CSV.generate(headers: HEADER, write_headers: true) do |csv|\n"
                "        rows.each { |row| csv << row }\n"
                "      end\n"
                "    end\n",
            )
            .replace("module Ledgerline\n", 'require "csv"\n\nmodule Ledgerline\n'),
            "app/controllers/ledgerline/reports_controller.rb": _read(
                s, "app/controllers/ledgerline/reports_controller.rb"
            ).replace(
                "      @report = Report.find(params[:id])\n",
                "      @report = Report.find(params[:id])\n"
                "      respond_to do |format|\n"
                "        format.html\n"
                "        format.csv do\n"
                "          send_data @report.to_csv, type: :csv,\n"
                '            filename: "#{@report.title.parameterize}.csv"\n'
                "        end\n"
                "      end\n",
            ),
            "test/controllers/ledgerline/reports_controller_test.rb": _read(
                s, "test/controllers/ledgerline/reports_controller_test.rb"
            ).replace(
                "  end\nend\n",
                lines(
                    "",
                    '    test "show as csv" do',
                    "      get report_url(ledgerline_reports(:q1), format: :csv)",
                    '      assert_equal "text/csv", response.media_type',
                    "      assert_match(/\\Aaccount_code,account_name,debit,credit$/, response.body)",  # noqa: E501
                    "    end",
                    "  end",
                    "end",
                ),
            ),
            "lib/ledgerline.rb": _read(s, "lib/ledgerline.rb").replace(
                'require "ledgerline/legacy_export"\n', ""
            ),
            # csv left the default gems in Ruby 3.4: the engine now depends on it.
            "ledgerline.gemspec": _read(s, "ledgerline.gemspec").replace(
                '  spec.add_dependency "rails", ">= 7.1"\n',
                '  spec.add_dependency "rails", ">= 7.1"\n  spec.add_dependency "csv", "~> 3.2"\n',
            ),
            "Gemfile.lock": _RB_GEMFILE_LOCK.replace(
                "      rails (>= 7.1)\n", "      csv (~> 3.2)\n      rails (>= 7.1)\n"
            ).replace(
                "    activerecord (7.1.3.2)\n", "    activerecord (7.1.3.2)\n    csv (3.3.0)\n"
            ),
        },
        delete=["lib/ledgerline/legacy_export.rb", "test/lib/legacy_export_test.rb"],
    )
    mid = s.checkpoint("csv export, legacy export gone, tests green")
    s.agent(
        {
            "app/controllers/ledgerline/accounts_controller.rb": _RB_ACCOUNTS_COPPED,
            # "Simplify the matrix": the gemspec still promises Ruby >= 3.1.
            ".github/workflows/ci.yml": _read(s, ".github/workflows/ci.yml").replace(
                "        ruby: ['3.1', '3.2', '3.3']\n", "        ruby: ['3.3']\n"
            ),
            ".rubocop.yml": _read(s, ".rubocop.yml")
            + lines("", "AllCops:", "  NewCops: enable", "  TargetRubyVersion: 3.3"),
            # `gem build ledgerline.gemspec` to check the file list; SimpleCov's report.
            "ledgerline-0.9.0.gem": GEM,
            "coverage/.last_run.json": lines("{", '  "result": {', '    "line": 96.4', "  }", "}"),
            "coverage/.resultset.json": '{\n  "Minitest": {\n    "coverage": {\n      "/home/ayesha/src/ledgerline/app/models/ledgerline/report.rb": {\n        "lines": [1, 1, 1, null, 1, 2, 2]\n      }\n    },\n    "timestamp": 1716285120\n  }\n}\n',  # noqa: E501
            "coverage/index.html": lines(
                "<!DOCTYPE html>",
                "<html xmlns='http://www.w3.org/1999/xhtml'>",
                "  <head>",
                "    <title>Code coverage for Ledgerline</title>",
                '    <meta http-equiv="content-type" content="text/html; charset=utf-8" />',
                "    <script src='./assets/0.12.3/application.js' type='text/javascript'></script>",
                "  </head>",
                "  <body><div id='footer'>Generated by <a href='https://github.com/simplecov-ruby/simplecov'>simplecov</a> v0.22.0</div></body>",  # noqa: E501
                "</html>",
            ),
        }
    )
    s.fine(
        "app/models/ledgerline/report.rb",
        "app/controllers/ledgerline/reports_controller.rb",
        "test/controllers/ledgerline/reports_controller_test.rb",
        "lib/ledgerline.rb",
        "lib/ledgerline/legacy_export.rb",  # deleted, as asked
        "test/lib/legacy_export_test.rb",  # deleted, as asked
        "ledgerline.gemspec",
        # Written by Bundler, but it moved for the csv dependency the export needs.
        "Gemfile.lock",
        "test/dummy/config/database.yml",  # the user's own edit
    )
    s.drift(
        "app/controllers/ledgerline/accounts_controller.rb",
        ".github/workflows/ci.yml",
        ".rubocop.yml",
    )
    s.excluded(
        "ledgerline-0.9.0.gem",
        "coverage/.last_run.json",
        "coverage/.resultset.json",
        "coverage/index.html",
    )
    s.safe_checkpoint(mid)
    s.note = "mid checkpoint (in-scope deletions done, no drift) safe; user's database.yml edit"


# -- 5. Svelte component library ------------------------------------------------------------------

_SV_COMPONENTS = {
    # name -> (props, markup)
    "Avatar": (
        "export let src: string;\n  export let alt = '';",
        '<img class="avatar" {src} {alt} />',
    ),
    "Badge": (
        "export let tone: 'info' | 'warn' | 'ok' = 'info';",
        '<span class="badge {tone}"><slot /></span>',
    ),
    "Button": (
        "export let variant: 'primary' | 'ghost' = 'primary';\n  export let disabled = false;",
        "<button class={variant} {disabled} on:click><slot /></button>",
    ),
    "Card": ("export let padded = true;", '<article class="card" class:padded><slot /></article>'),
    "Checkbox": (
        "export let checked = false;\n  export let label: string;",
        '<label><input type="checkbox" bind:checked /> {label}</label>',
    ),
    "Dialog": (
        "export let open = false;\n  export let title: string;",
        '<dialog {open} aria-labelledby="dlg-title"><h2 id="dlg-title">{title}</h2><slot /></dialog>',  # noqa: E501
    ),
    "Select": (
        "export let value: string;\n  export let options: string[] = [];",
        "<select bind:value>{#each options as o}<option>{o}</option>{/each}</select>",
    ),
    "Spinner": (
        "export let size = 16;",
        '<span class="spinner" style:width="{size}px" role="status" aria-label="Loading" />',
    ),
    "Switch": (
        "export let on = false;",
        '<button role="switch" aria-checked={on} on:click={() => (on = !on)} />',
    ),
    "Tab": ("export let id: string;", '<button role="tab" id="tab-{id}"><slot /></button>'),
    "Tabs": ("export let active = 0;", '<div role="tablist"><slot {active} /></div>'),
    "Toast": (
        "export let message: string;\n  export let timeout = 4000;",
        '<div class="toast" role="status">{message}</div>',
    ),
    "Tooltip": (
        "export let text: string;",
        '<span class="tooltip-anchor" on:mouseenter={() => (shown = true)} on:mouseleave={() => (shown = false)}>\n'  # noqa: E501
        '  <slot />\n  {#if shown}<span role="tooltip" class="tooltip">{text}</span>{/if}\n</span>',
    ),
}


def _sv_component(name: str, props: str, markup: str) -> str:
    extra = "\n  let shown = false;" if name == "Tooltip" else ""
    return f'<script lang="ts">\n  {props}{extra}\n</script>\n\n{markup}\n'


def _sv_dts(name: str, props: list[str], slots: str = "default: {};") -> str:
    """What svelte2tsx (through svelte-package) writes next to each component."""
    return lines(
        'import { SvelteComponent } from "svelte";',
        "declare const __propDef: {",
        "    props: {",
        *[f"        {p};" for p in props],
        "    };",
        "    events: {",
        "        [evt: string]: CustomEvent<any>;",
        "    };",
        "    slots: {",
        f"        {slots}",
        "    };",
        "};",
        f"export type {name}Props = typeof __propDef.props;",
        f"export type {name}Events = typeof __propDef.events;",
        f"export type {name}Slots = typeof __propDef.slots;",
        f"export default class {name} extends SvelteComponent<{name}Props, {name}Events, {name}Slots> {{",  # noqa: E501
        "}",
        "export {};",
    )


_SV_PRETTIERRC = lines(
    "{",
    '  "useTabs": true,',
    '  "singleQuote": true,',
    '  "trailingComma": "none",',
    '  "printWidth": 100,',
    '  "plugins": ["prettier-plugin-svelte"],',
    '  "overrides": [{ "files": "*.svelte", "options": { "parser": "svelte" } }]',
    "}",
)


def _sv_index(names: list[str]) -> str:
    return lines(*[f"export {{ default as {n} }} from './components/{n}.svelte';" for n in names])


def _svelte_files() -> dict[str, str | bytes]:
    names = sorted(_SV_COMPONENTS)
    files: dict[str, str | bytes] = {
        # @sveltejs/package 2 writes dist/ by default; this library kept `-o package` for
        # its 1.x consumers, and the ignore file only learnt the new default.
        ".gitignore": lines(
            ".DS_Store",
            "node_modules",
            "/build",
            "/dist",
            "/.svelte-kit",
            ".env",
            ".env.*",
            "!.env.example",
        ),
        ".prettierrc": _SV_PRETTIERRC,
        ".prettierignore": lines("package", ".svelte-kit", "pnpm-lock.yaml"),
        ".eslintrc.cjs": lines(
            "module.exports = {",
            "  root: true,",
            "  extends: ['eslint:recommended', 'plugin:@typescript-eslint/recommended', 'plugin:svelte/recommended', 'prettier'],",  # noqa: E501
            "  parser: '@typescript-eslint/parser',",
            "};",
        ),
        ".changeset/config.json": lines(
            "{",
            '  "$schema": "https://unpkg.com/@changesets/config@3.0.0/schema.json",',
            '  "changelog": "@changesets/cli/changelog",',
            '  "access": "public",',
            '  "baseBranch": "main"',
            "}",
        ),
        ".changeset/README.md": lines("# Changesets", "", "Add one with `pnpm changeset`."),
        "package.json": lines(
            "{",
            '  "name": "@fjordkit/ui",',
            '  "version": "2.6.0",',
            '  "scripts": {',
            '    "dev": "vite dev",',
            '    "package": "svelte-kit sync && svelte-package -o package && publint ./package",',
            '    "test": "vitest run",',
            '    "lint": "prettier --check . && eslint ."',
            "  },",
            '  "exports": { ".": { "types": "./package/index.d.ts", "svelte": "./package/index.js" } },',  # noqa: E501
            '  "files": ["package"],',
            '  "peerDependencies": { "svelte": "^4.0.0" },',
            '  "devDependencies": {',
            '    "@sveltejs/kit": "^2.5.7",',
            '    "@sveltejs/package": "^2.3.1",',
            '    "@testing-library/svelte": "^5.1.0",',
            '    "svelte": "^4.2.15",',
            '    "vitest": "^1.6.0"',
            "  }",
            "}",
        ),
        "svelte.config.js": lines(
            "import adapter from '@sveltejs/adapter-static';",
            "import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';",
            "export default { preprocess: vitePreprocess(), kit: { adapter: adapter() } };",
        ),
        "vite.config.ts": lines(
            "import { sveltekit } from '@sveltejs/kit/vite';",
            "import { defineConfig } from 'vitest/config';",
            "export default defineConfig({ plugins: [sveltekit()], test: { environment: 'jsdom' } });",  # noqa: E501
        ),
        "tsconfig.json": lines(
            '{ "extends": "./.svelte-kit/tsconfig.json", "compilerOptions": { "strict": true } }'
        ),
        "README.md": lines(
            "# @fjordkit/ui",
            "",
            "Accessible Svelte components: " + ", ".join(names) + ".",
        ),
        "CHANGELOG.md": lines("# @fjordkit/ui", "", "## 2.6.0", "", "- Toast gains `timeout`."),
        "LICENSE": lines("MIT License", "", "Copyright (c) 2022 Fjordkit"),
        "src/app.html": lines(
            "<!doctype html>",
            '<html lang="en"><head><meta charset="utf-8" />%sveltekit.head%</head>',
            '<body><div style="display: contents">%sveltekit.body%</div></body></html>',
        ),
        "src/app.d.ts": lines("declare global { namespace App {} }", "export {};"),
        "src/lib/index.ts": _sv_index(names),
        "src/lib/actions/clickOutside.ts": lines(
            "export function clickOutside(node: HTMLElement, cb: () => void) {",
            "  const h = (e: MouseEvent) => !node.contains(e.target as Node) && cb();",
            "  document.addEventListener('click', h, true);",
            "  return { destroy: () => document.removeEventListener('click', h, true) };",
            "}",
        ),
        "src/lib/actions/portal.ts": lines(
            "export function portal(node: HTMLElement, target = document.body) {",
            "  target.appendChild(node);",
            "  return { destroy: () => node.remove() };",
            "}",
        ),
        "src/lib/styles/tokens.css": lines(
            ":root {", "  --fk-radius: 6px;", "  --fk-accent: #0b6e4f;", "}"
        ),
        "src/routes/+layout.svelte": lines(
            "<script>",
            "  import '$lib/styles/tokens.css';",
            "</script>",
            "<nav>",
            *[f'  <a href="/docs/{n.lower()}">{n}</a>' for n in names],
            "</nav>",
            "<main><slot /></main>",
        ),
        "src/routes/+page.svelte": lines("<h1>@fjordkit/ui</h1>", "<p>Pick a component.</p>"),
        "static/favicon.png": PNG + b"fjordkit",
        ".github/workflows/ci.yml": lines(
            "name: CI",
            "on: [push, pull_request]",
            "jobs:",
            "  test:",
            "    runs-on: ubuntu-latest",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - uses: pnpm/action-setup@v3",
            "        with: { version: 8 }",
            "      - uses: actions/setup-node@v4",
            "        with: { node-version: 18, cache: pnpm }",
            "      - run: pnpm install --frozen-lockfile",
            "      - run: pnpm lint && pnpm test && pnpm package",
        ),
        ".github/workflows/release.yml": lines(
            "name: Release",
            "on:",
            "  push:",
            "    branches: [main]",
            "jobs:",
            "  release:",
            "    runs-on: ubuntu-latest",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - uses: changesets/action@v1",
            "        with: { publish: pnpm release }",
        ),
    }
    for name, (props, markup) in _SV_COMPONENTS.items():
        files[f"src/lib/components/{name}.svelte"] = _sv_component(name, props, markup)
        files[f"src/lib/components/{name}.test.ts"] = lines(
            "import { render, screen } from '@testing-library/svelte';",
            "import { describe, expect, it } from 'vitest';",
            f"import {name} from './{name}.svelte';",
            "",
            f"describe('{name}', () => {{",
            "  it('renders', () => {",
            f"    const {{ container }} = render({name}, {{ props: {{}} }});",
            "    expect(container.firstChild).toBeTruthy();",
            "  });",
            "});",
        )
        files[f"src/routes/docs/{name.lower()}/+page.svelte"] = lines(
            "<script>",
            f"  import {{ {name} }} from '$lib';",
            "</script>",
            "",
            f"<h1>{name}</h1>",
            f"<{name} />",
        )
    return files


_SV_POPOVER = lines(
    '<script lang="ts">',
    "  import { clickOutside } from '../actions/clickOutside';",
    "",
    "  export let placement: 'top' | 'bottom' | 'left' | 'right' = 'bottom';",
    "  export let open = false;",
    "  const id = `fk-popover-${Math.random().toString(36).slice(2, 8)}`;",
    "</script>",
    "",
    '<span class="popover-anchor" use:clickOutside={() => (open = false)}>',
    "  <button aria-expanded={open} aria-controls={id} on:click={() => (open = !open)}>",
    '    <slot name="trigger" />',
    "  </button>",
    "  {#if open}",
    '    <div {id} role="dialog" class="popover {placement}">',
    "      <slot />",
    "    </div>",
    "  {/if}",
    "</span>",
)


def _svelte(s: Scene) -> None:
    s.commit("@fjordkit/ui 2.6.0", _svelte_files(), days_ago=80)
    s.commit(
        "docs: tokens",
        {"README.md": _read(s, "README.md") + "\nTheme with the --fk-* custom properties.\n"},
        days_ago=6,
    )
    s.intent(
        "Rename Tooltip to Popover (it holds interactive content now): component, export, "
        "docs page and tests; open on click, not hover, with a `placement` prop",
        {"src/lib/components/Tooltip.svelte": "the component to rename"},
        hours_ago=1,
    )
    c = "src/lib/components"
    old_c, new_c = f"{c}/Tooltip.svelte", f"{c}/Popover.svelte"
    old_t, new_t = f"{c}/Tooltip.test.ts", f"{c}/Popover.test.ts"
    old_d, new_d = "src/routes/docs/tooltip/+page.svelte", "src/routes/docs/popover/+page.svelte"
    # `git mv` of the three, then the edits.
    s.agent(rename={old_c: new_c, old_t: new_t, old_d: new_d})
    _staged(s, old_c, new_c, old_t, new_t, old_d, new_d)
    names = sorted([n for n in _SV_COMPONENTS if n != "Tooltip"] + ["Popover"])
    s.agent(
        {
            new_c: _SV_POPOVER,
            new_t: lines(
                "import { fireEvent, render, screen } from '@testing-library/svelte';",
                "import { describe, expect, it } from 'vitest';",
                "import Popover from './Popover.svelte';",
                "",
                "describe('Popover', () => {",
                "  it('opens on click and closes outside', async () => {",
                "    render(Popover, { props: { placement: 'top' } });",
                "    await fireEvent.click(screen.getByRole('button'));",
                "    expect(screen.getByRole('dialog').classList).toContain('top');",
                "    await fireEvent.click(document.body);",
                "    expect(screen.queryByRole('dialog')).toBeNull();",
                "  });",
                "});",
            ),
            new_d: lines(
                "<script>",
                "  import { Popover, Button } from '$lib';",
                "</script>",
                "",
                "<h1>Popover</h1>",
                "<p>Formerly <code>Tooltip</code>. Opens on click; holds links and buttons.</p>",
                '<Popover placement="right">',
                '  <span slot="trigger">Share</span>',
                "  <Button>Copy link</Button>",
                "</Popover>",
            ),
            "src/lib/index.ts": _sv_index(names),
            # "While I was in there": the Dialog gets an Escape handler and a new prop.
            f"{c}/Dialog.svelte": _sv_component(
                "Dialog",
                "export let open = false;\n  export let title: string;\n  export let closeOnEscape = true;",  # noqa: E501
                "<svelte:window on:keydown={(e) => closeOnEscape && e.key === 'Escape' && (open = false)} />\n"  # noqa: E501
                '<dialog {open} aria-labelledby="dlg-title" aria-modal="true"><h2 id="dlg-title">{title}</h2><slot /></dialog>',  # noqa: E501
            ),
        }
    )
    s.checkpoint("popover renamed")
    props = {
        "Popover": ['placement?: "top" | "bottom" | "left" | "right"', "open?: boolean"],
        "Dialog": ["open?: boolean", "title: string", "closeOnEscape?: boolean"],
    }
    built: dict[str, str | bytes] = {
        "package/index.js": _sv_index(names).replace(".svelte';", ".svelte';"),
        "package/index.d.ts": _sv_index(names),
        "package/actions/clickOutside.js": _read(s, "src/lib/actions/clickOutside.ts")
        .replace("node: HTMLElement, cb: () => void", "node, cb")
        .replace("(e: MouseEvent)", "(e)")
        .replace("e.target as Node", "e.target"),
        "package/actions/clickOutside.d.ts": lines(
            "export declare function clickOutside(node: HTMLElement, cb: () => void): {",
            "    destroy: () => void;",
            "};",
        ),
        "package/styles/tokens.css": _read(s, "src/lib/styles/tokens.css"),
    }
    for n in names:
        built[f"package/components/{n}.svelte"] = _read(s, f"{c}/{n}.svelte").replace(
            '<script lang="ts">', "<script>"
        )
        built[f"package/components/{n}.svelte.d.ts"] = _sv_dts(
            n, props.get(n, ["[x: string]: any"])
        )
    s.agent(
        {
            "src/routes/+layout.svelte": _read(s, "src/routes/+layout.svelte")
            .replace('  <a href="/docs/tooltip">Tooltip</a>\n', "")
            .replace(
                '  <a href="/docs/select">',
                '  <a href="/docs/popover">Popover</a>\n  <a href="/docs/select">',
            ),
            ".changeset/brave-owls-swim.md": lines(
                "---",
                '"@fjordkit/ui": major',
                "---",
                "",
                "`Tooltip` is now `Popover`: it opens on click and takes a `placement` prop.",
            ),
            ".github/workflows/ci.yml": _read(s, ".github/workflows/ci.yml")
            .replace("pnpm/action-setup@v3", "pnpm/action-setup@v4")
            .replace("version: 8", "version: 9")
            .replace("node-version: 18", "node-version: 22"),
            ".prettierrc": _SV_PRETTIERRC.replace('"printWidth": 100', '"printWidth": 120').replace(
                '"trailingComma": "none"', '"trailingComma": "all"'
            ),
            **built,
        }
    )
    s.fine(old_c, new_c, old_t, new_t, old_d, new_d)
    s.fine(
        "src/lib/index.ts",
        "src/routes/+layout.svelte",  # the docs nav entry for the renamed page
        ".changeset/brave-owls-swim.md",  # the release note for the breaking rename
    )
    s.drift(f"{c}/Dialog.svelte", ".github/workflows/ci.yml", ".prettierrc")
    s.excluded(*built)
    s.safe_commit()
    s.note = (
        "git mv with edits in scope; the only checkpoint came after the Dialog drift, so "
        "the safe point is the commit; package/ output excluded"
    )


# -- 6. Blazor WebAssembly with a checked-in Kiota client (generated flood) -----------------------

_KI_NS = "Harbor.Web.Client"
#: The description's schemas: name -> (property, C# type) pairs.
_KI_MODELS: dict[str, list[tuple[str, str]]] = {
    "Address": [("Line1", "string"), ("City", "string"), ("Country", "string")],
    "Berth": [("Id", "Guid?"), ("Code", "string"), ("LengthMetres", "double?")],
    "BerthPage": [("Items", "List<Berth>"), ("Meta", "PageMeta")],
    "BerthStatus": [("Value", "string")],
    "Booking": [("Id", "Guid?"), ("BerthId", "Guid?"), ("VesselId", "Guid?")],
    "BookingPage": [("Items", "List<Booking>"), ("Meta", "PageMeta")],
    "BookingRequest": [("BerthId", "Guid?"), ("VesselId", "Guid?"), ("Arrival", "DateTimeOffset?")],
    "Contact": [("Name", "string"), ("Email", "string"), ("Phone", "string")],
    "Customer": [("Id", "Guid?"), ("Name", "string"), ("Contact", "Contact")],
    "CustomerPage": [("Items", "List<Customer>"), ("Meta", "PageMeta")],
    "CustomerRequest": [("Name", "string"), ("Contact", "Contact")],
    "Money": [("Amount", "decimal?"), ("Currency", "string")],
    "PageMeta": [("Page", "int?"), ("Size", "int?"), ("Total", "long?")],
    "Port": [("Code", "string"), ("Name", "string")],
    "ProblemDetails": [("Type", "string"), ("Title", "string"), ("Status", "int?")],
    "Tariff": [("Code", "string"), ("PerMetreDay", "Money")],
    "Vessel": [("Id", "Guid?"), ("Name", "string"), ("Imo", "string"), ("LengthMetres", "double?")],
    "VesselPage": [("Items", "List<Vessel>"), ("Meta", "PageMeta")],
    "VesselRequest": [("Name", "string"), ("Imo", "string")],
    "VesselType": [("Value", "string")],
}
_KI_INVOICE_MODELS: dict[str, list[tuple[str, str]]] = {
    "Invoice": [
        ("Id", "Guid?"),
        ("Number", "string"),
        ("Total", "Money"),
        ("Status", "InvoiceStatus"),
    ],
    "InvoicePage": [("Items", "List<Invoice>"), ("Meta", "PageMeta")],
    "InvoiceStatus": [("Value", "string")],
}
#: Request builders: path in the client -> (class, URL template).
_KI_BUILDERS = {
    "Berths/BerthsRequestBuilder.cs": ("BerthsRequestBuilder", "/berths{?page*,size*}"),
    "Berths/Item/WithBerthItemRequestBuilder.cs": (
        "WithBerthItemRequestBuilder",
        "/berths/{berthId}",
    ),
    "Bookings/BookingsRequestBuilder.cs": ("BookingsRequestBuilder", "/bookings{?page*,size*}"),
    "Bookings/Item/WithBookingItemRequestBuilder.cs": (
        "WithBookingItemRequestBuilder",
        "/bookings/{bookingId}",
    ),
    "Customers/CustomersRequestBuilder.cs": ("CustomersRequestBuilder", "/customers{?page*,size*}"),
    "Customers/Item/WithCustomerItemRequestBuilder.cs": (
        "WithCustomerItemRequestBuilder",
        "/customers/{customerId}",
    ),
    "Ports/PortsRequestBuilder.cs": ("PortsRequestBuilder", "/ports"),
    "Tariffs/TariffsRequestBuilder.cs": ("TariffsRequestBuilder", "/tariffs"),
    "Vessels/VesselsRequestBuilder.cs": ("VesselsRequestBuilder", "/vessels{?page*,size*}"),
    "Vessels/Item/WithVesselItemRequestBuilder.cs": (
        "WithVesselItemRequestBuilder",
        "/vessels/{vesselId}",
    ),
}
_KI_INVOICE_BUILDERS = {
    "Customers/Item/Invoices/InvoicesRequestBuilder.cs": (
        "InvoicesRequestBuilder",
        "/customers/{customerId}/invoices{?page*,size*,status*}",
    ),
}


def _ki_model(name: str, props: list[tuple[str, str]], version: str) -> str:
    body = []
    for prop, kind in props:
        body += [
            f"        /// <summary>The {prop[0].lower()}{prop[1:]} property</summary>",
            f"        public {kind} {prop} {{ get; set; }}",
        ]
    return lines(
        "// <auto-generated/>",
        "#pragma warning disable CS0618",
        "using Microsoft.Kiota.Abstractions.Extensions;",
        "using Microsoft.Kiota.Abstractions.Serialization;",
        "using System.Collections.Generic;",
        "using System.IO;",
        "using System;",
        f"namespace {_KI_NS}.Models",
        "{",
        f'    [global::System.CodeDom.Compiler.GeneratedCode("Kiota", "{version}")]',
        "    #pragma warning disable CS1591",
        f"    public partial class {name} : IAdditionalDataHolder, IParsable",
        "    #pragma warning restore CS1591",
        "    {",
        "        /// <summary>Stores additional data not described in the OpenAPI description found when deserializing. Can be used for serialization as well.</summary>",  # noqa: E501
        "        public IDictionary<string, object> AdditionalData { get; set; }",
        *body,
        "        /// <summary>",
        "        /// Creates a new instance of the appropriate class based on discriminator value",
        "        /// </summary>",
        f"        public static {name} CreateFromDiscriminatorValue(IParseNode parseNode)",
        "        {",
        "            _ = parseNode ?? throw new ArgumentNullException(nameof(parseNode));",
        f"            return new {name}();",
        "        }",
        "    }",
        "}",
        "#pragma warning restore CS0618",
    )


def _ki_builder(path: str, cls: str, template: str, version: str) -> str:
    ns = ".".join([_KI_NS, *path.split("/")[:-1]])
    return lines(
        "// <auto-generated/>",
        "#pragma warning disable CS0618",
        f"using {_KI_NS}.Models;",
        "using Microsoft.Kiota.Abstractions.Extensions;",
        "using Microsoft.Kiota.Abstractions.Serialization;",
        "using Microsoft.Kiota.Abstractions;",
        "using System.Collections.Generic;",
        "using System.Threading.Tasks;",
        "using System.Threading;",
        "using System;",
        f"namespace {ns}",
        "{",
        "    /// <summary>",
        f"    /// Builds and executes requests for operations under {template.split('{?', maxsplit=1)[0].replace('/', chr(92))}",  # noqa: E501
        "    /// </summary>",
        f'    [global::System.CodeDom.Compiler.GeneratedCode("Kiota", "{version}")]',
        f"    public partial class {cls} : BaseRequestBuilder",
        "    {",
        f'        public {cls}(Dictionary<string, object> pathParameters, IRequestAdapter requestAdapter) : base(requestAdapter, "{{+baseurl}}{template}", pathParameters)',  # noqa: E501
        "        {",
        "        }",
        "    }",
        "}",
        "#pragma warning restore CS0618",
    )


def _ki_client(version: str) -> dict[str, str]:
    out = {
        "HarborClient.cs": lines(
            "// <auto-generated/>",
            "#pragma warning disable CS0618",
            f"using {_KI_NS}.Berths;",
            f"using {_KI_NS}.Bookings;",
            f"using {_KI_NS}.Customers;",
            f"using {_KI_NS}.Ports;",
            f"using {_KI_NS}.Tariffs;",
            f"using {_KI_NS}.Vessels;",
            "using Microsoft.Kiota.Abstractions;",
            "using Microsoft.Kiota.Serialization.Json;",
            f"namespace {_KI_NS}",
            "{",
            "    /// <summary>",
            "    /// The main entry point of the SDK, exposes the configuration and the fluent API.",  # noqa: E501
            "    /// </summary>",
            f'    [global::System.CodeDom.Compiler.GeneratedCode("Kiota", "{version}")]',
            "    public partial class HarborClient : BaseRequestBuilder",
            "    {",
            "        public CustomersRequestBuilder Customers { get => new CustomersRequestBuilder(PathParameters, RequestAdapter); }",  # noqa: E501
            "    }",
            "}",
            "#pragma warning restore CS0618",
        )
    }
    for name, props in _KI_MODELS.items():
        out[f"Models/{name}.cs"] = _ki_model(name, props, version)
    for path, (cls, template) in _KI_BUILDERS.items():
        out[path] = _ki_builder(path, cls, template, version)
    return out


def _ki_lock(version: str, desc_hash: str) -> str:
    return (
        json.dumps(
            {
                "descriptionHash": desc_hash,
                "descriptionLocation": "../../openapi/harbor.yaml",
                "lockFileVersion": "1.0.0",
                "kiotaVersion": version,
                "clientClassName": "HarborClient",
                "clientNamespaceName": _KI_NS,
                "language": "CSharp",
                "usesBackingStore": False,
                "excludeBackwardCompatible": True,
                "includeAdditionalData": True,
                "serializers": [
                    "Microsoft.Kiota.Serialization.Json.JsonSerializationWriterFactory"
                ],
                "deserializers": ["Microsoft.Kiota.Serialization.Json.JsonParseNodeFactory"],
                "structuredMimeTypes": ["application/json"],
                "includePatterns": [],
                "excludePatterns": [],
                "disabledValidationRules": [],
            },
            indent=2,
        )
        + "\n"
    )


_KI_SPEC = lines(
    "openapi: 3.0.3",
    "info:",
    "  title: Harbor API",
    "  version: 2.3.0",
    "paths:",
    "  /customers:",
    "    get:",
    "      operationId: listCustomers",
    "  /customers/{customerId}:",
    "    get:",
    "      operationId: getCustomer",
    "  /vessels:",
    "    get:",
    "      operationId: listVessels",
    "  /berths:",
    "    get:",
    "      operationId: listBerths",
    "  /bookings:",
    "    post:",
    "      operationId: createBooking",
    "components:",
    "  schemas:",
    "    Customer:",
    "      type: object",
)

_BZ_CUSTOMERS = lines(
    '@page "/customers"',
    "@inject HarborClient Api",
    "",
    "<PageTitle>Customers</PageTitle>",
    "<h1>Customers</h1>",
    "",
    "@if (page is null)",
    "{",
    "    <p><em>Loading…</em></p>",
    "}",
    "else",
    "{",
    '    <table class="table">',
    "        @foreach (var c in page.Items!)",
    "        {",
    '            <tr><td><a href="customers/@c.Id">@c.Name</a></td><td>@c.Contact?.Email</td></tr>',
    "        }",
    "    </table>",
    "}",
    "",
    "@code {",
    "    private CustomerPage? page;",
    "    protected override async Task OnInitializedAsync() =>",
    "        page = await Api.Customers.GetAsync(r => r.QueryParameters.Size = 50);",
    "}",
)


def _blazor_files() -> dict[str, str | bytes]:
    w = "Harbor.Web"
    files: dict[str, str | bytes] = {
        ".gitignore": lines("bin/", "obj/", "*.user", ".vs/", "TestResults/"),
        "global.json": lines(
            "{",
            '  "sdk": {',
            '    "version": "8.0.204",',
            '    "rollForward": "latestPatch"',
            "  }",
            "}",
        ),
        "Directory.Build.props": lines(
            "<Project>",
            "  <PropertyGroup>",
            "    <Nullable>enable</Nullable>",
            "    <TreatWarningsAsErrors>true</TreatWarningsAsErrors>",
            "  </PropertyGroup>",
            "</Project>",
        ),
        ".config/dotnet-tools.json": lines(
            "{",
            '  "version": 1,',
            '  "isRoot": true,',
            '  "tools": {',
            '    "microsoft.openapi.kiota": { "version": "1.14.0", "commands": ["kiota"] }',
            "  }",
            "}",
        ),
        "Harbor.sln": lines(
            "Microsoft Visual Studio Solution File, Format Version 12.00",
            "# Visual Studio Version 17",
            'Project("{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}") = "Harbor.Web", "Harbor.Web\\Harbor.Web.csproj", "{6A1B2C3D-4E5F-4A6B-9C7D-8E9F0A1B2C3D}"',  # noqa: E501
            "EndProject",
            'Project("{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}") = "Harbor.Web.Tests", "Harbor.Web.Tests\\Harbor.Web.Tests.csproj", "{7B2C3D4E-5F6A-4B7C-8D9E-0F1A2B3C4D5E}"',  # noqa: E501
            "EndProject",
        ),
        "README.md": lines(
            "# Harbor — berth planning",
            "",
            "Blazor WebAssembly front end for the Harbor API.",
            "",
            "Regenerate the client after the API changes:",
            "",
            "    dotnet kiota update -o Harbor.Web/Client",
        ),
        "openapi/harbor.yaml": _KI_SPEC,
        f"{w}/Harbor.Web.csproj": lines(
            '<Project Sdk="Microsoft.NET.Sdk.BlazorWebAssembly">',
            "  <PropertyGroup>",
            "    <TargetFramework>net8.0</TargetFramework>",
            "    <ImplicitUsings>enable</ImplicitUsings>",
            "  </PropertyGroup>",
            "  <ItemGroup>",
            '    <PackageReference Include="Microsoft.AspNetCore.Components.WebAssembly" Version="8.0.4" />',  # noqa: E501
            '    <PackageReference Include="Microsoft.Kiota.Bundle" Version="1.1.0" />',
            "  </ItemGroup>",
            "</Project>",
        ),
        f"{w}/Program.cs": lines(
            "using Harbor.Web;",
            "using Harbor.Web.Client;",
            "using Microsoft.AspNetCore.Components.Web;",
            "using Microsoft.AspNetCore.Components.WebAssembly.Hosting;",
            "",
            "var builder = WebAssemblyHostBuilder.CreateDefault(args);",
            'builder.RootComponents.Add<App>("#app");',
            'builder.RootComponents.Add<HeadOutlet>("head::after");',
            'builder.Services.AddHarborClient(builder.Configuration["ApiBaseUrl"]!);',
            "await builder.Build().RunAsync();",
        ),
        f"{w}/App.razor": lines(
            '<Router AppAssembly="@typeof(App).Assembly">',
            '    <Found Context="routeData"><RouteView RouteData="@routeData" DefaultLayout="@typeof(MainLayout)" /></Found>',  # noqa: E501
            '    <NotFound><LayoutView Layout="@typeof(MainLayout)"><p>Nothing here.</p></LayoutView></NotFound>',  # noqa: E501
            "</Router>",
        ),
        f"{w}/_Imports.razor": lines(
            "@using System.Net.Http",
            "@using Microsoft.AspNetCore.Components.Routing",
            "@using Microsoft.AspNetCore.Components.Web",
            "@using Harbor.Web.Layout",
            "@using Harbor.Web.Client",
            "@using Harbor.Web.Client.Models",
        ),
        f"{w}/Layout/MainLayout.razor": lines(
            "@inherits LayoutComponentBase",
            '<div class="page"><NavMenu /><main>@Body</main></div>',
        ),
        f"{w}/Layout/NavMenu.razor": lines(
            '<nav class="nav">',
            '    <NavLink href="" Match="NavLinkMatch.All">Home</NavLink>',
            '    <NavLink href="customers">Customers</NavLink>',
            '    <NavLink href="vessels">Vessels</NavLink>',
            '    <NavLink href="berths">Berths</NavLink>',
            "</nav>",
        ),
        f"{w}/Pages/Home.razor": lines(
            '@page "/"', "<PageTitle>Harbor</PageTitle>", "<h1>Today at the quay</h1>"
        ),
        f"{w}/Pages/Customers.razor": _BZ_CUSTOMERS,
        f"{w}/Pages/CustomerDetail.razor": lines(
            '@page "/customers/{Id:guid}"',
            "@inject HarborClient Api",
            "",
            "@if (customer is not null)",
            "{",
            "    <h1>@customer.Name</h1>",
            "    <p>@customer.Contact?.Email · @customer.Contact?.Phone</p>",
            "}",
            "",
            "@code {",
            "    [Parameter] public Guid Id { get; set; }",
            "    private Customer? customer;",
            "    protected override async Task OnParametersSetAsync() =>",
            "        customer = await Api.Customers[Id].GetAsync();",
            "}",
        ),
        f"{w}/Pages/Vessels.razor": lines(
            '@page "/vessels"', "@inject HarborClient Api", "<h1>Vessels</h1>"
        ),
        f"{w}/Pages/Berths.razor": lines(
            '@page "/berths"', "@inject HarborClient Api", "<h1>Berths</h1>"
        ),
        f"{w}/Services/HarborClientExtensions.cs": lines(
            "using Microsoft.Kiota.Abstractions.Authentication;",
            "using Microsoft.Kiota.Http.HttpClientLibrary;",
            "namespace Harbor.Web.Client;",
            "",
            "public static class HarborClientExtensions",
            "{",
            "    public static IServiceCollection AddHarborClient(this IServiceCollection services, string baseUrl) =>",  # noqa: E501
            "        services.AddScoped(_ => new HarborClient(new HttpClientRequestAdapter(",
            "            new AnonymousAuthenticationProvider()) { BaseUrl = baseUrl }));",
            "}",
        ),
        f"{w}/wwwroot/index.html": lines(
            "<!DOCTYPE html>",
            '<html lang="en">',
            "<head>",
            '    <meta charset="utf-8" />',
            "    <title>Harbor</title>",
            '    <base href="/" />',
            '    <link rel="stylesheet" href="css/app.css" />',
            '    <link rel="icon" type="image/x-icon" href="favicon.ico" />',
            "</head>",
            "<body>",
            '    <div id="app">Loading…</div>',
            '    <script src="_framework/blazor.webassembly.js"></script>',
            "</body>",
            "</html>",
        ),
        f"{w}/wwwroot/css/app.css": lines(
            "@font-face { font-family: Inter; src: url('../fonts/inter.woff2') format('woff2'); }",
            "body { font-family: Inter, system-ui, sans-serif; }",
            ".page { display: grid; grid-template-columns: 14rem 1fr; }",
        ),
        f"{w}/wwwroot/fonts/inter.woff2": WOFF2,
        f"{w}/wwwroot/favicon.ico": ICO,
        f"{w}/wwwroot/icon-192.png": PNG + b"harbor-192",
        f"{w}/wwwroot/images/quay.png": PNG + b"quay-illustration",
        f"{w}/wwwroot/appsettings.json": lines(
            "{", '  "ApiBaseUrl": "https://api.harbor.example.com"', "}"
        ),
        f"{w}/wwwroot/appsettings.Development.json": lines(
            "{", '  "ApiBaseUrl": "https://localhost:7080"', "}"
        ),
        f"{w}/Properties/launchSettings.json": lines(
            "{",
            '  "profiles": {',
            '    "https": { "commandName": "Project", "applicationUrl": "https://localhost:7190" }',
            "  }",
            "}",
        ),
        "Harbor.Web.Tests/Harbor.Web.Tests.csproj": lines(
            '<Project Sdk="Microsoft.NET.Sdk.Razor">',
            "  <PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup>",
            "  <ItemGroup>",
            '    <PackageReference Include="bunit" Version="1.28.9" />',
            '    <PackageReference Include="xunit" Version="2.8.0" />',
            '    <ProjectReference Include="..\\Harbor.Web\\Harbor.Web.csproj" />',
            "  </ItemGroup>",
            "</Project>",
        ),
        "Harbor.Web.Tests/NavMenuTests.cs": lines(
            "using Bunit;",
            "using Harbor.Web.Layout;",
            "public class NavMenuTests : TestContext",
            "{",
            "    [Fact]",
            '    public void HasCustomers() => Assert.Contains("Customers", RenderComponent<NavMenu>().Markup);',  # noqa: E501
            "}",
        ),
        ".github/workflows/ci.yml": lines(
            "name: ci",
            "on: [push, pull_request]",
            "jobs:",
            "  build:",
            "    runs-on: ubuntu-latest",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - uses: actions/setup-dotnet@v4",
            "        with: { global-json-file: global.json }",
            "      - run: dotnet test",
            "      - run: dotnet tool restore && dotnet kiota update -o Harbor.Web/Client && git diff --exit-code",  # noqa: E501
        ),
    }
    for rel, text in _ki_client("1.14.0").items():
        files[f"{w}/Client/{rel}"] = text
    files[f"{w}/Client/kiota-lock.json"] = _ki_lock(
        "1.14.0",
        "3F1C2B8E0A7D4C95B6E1F2A3D4C5B6A7E8F9012345678ABCDEF0123456789ABCDEF01234567890ABCDEF0123456789ABCDEF012345678",
    )
    return files


def _blazor(s: Scene) -> None:
    s.commit("harbor web: customers, vessels, berths", _blazor_files(), days_ago=45)
    s.commit(
        "readme: client regeneration",
        {"README.md": _read(s, "README.md") + "\nCI fails if the client is stale.\n"},
        days_ago=4,
    )
    s.intent(
        "Customer invoices page: list a customer's invoices from the new GET "
        "/customers/{id}/invoices endpoint (regenerate the client), linked from the customer "
        "page, with an empty-state illustration",
        {"openapi/harbor.yaml": "the API description, copied from the backend repo"},
        hours_ago=2,
    )
    w = "Harbor.Web"
    # `kiota update` with the agent's globally installed Kiota 1.15.0 (the tool manifest
    # says 1.14.0): every generated file restamped, the invoice ones added.
    regenerated = {f"{w}/Client/{rel}": text for rel, text in _ki_client("1.15.0").items()}
    for name, props in _KI_INVOICE_MODELS.items():
        regenerated[f"{w}/Client/Models/{name}.cs"] = _ki_model(name, props, "1.15.0")
    for path, (cls, template) in _KI_INVOICE_BUILDERS.items():
        regenerated[f"{w}/Client/{path}"] = _ki_builder(path, cls, template, "1.15.0")
    regenerated[f"{w}/Client/kiota-lock.json"] = _ki_lock(
        "1.15.0",
        "9D0E1F2A3B4C5D6E7F8091A2B3C4D5E6F708192A3B4C5D6E7F8091A2B3C4D5E6F708192A3B4C5D6E7F8091A2B3C4D5E6F708192A3B4C5D6",
    )
    s.agent(
        {
            "openapi/harbor.yaml": _KI_SPEC.replace(
                "  /vessels:\n",
                "  /customers/{customerId}/invoices:\n"
                "    get:\n"
                "      operationId: listCustomerInvoices\n"
                "      parameters:\n"
                "        - { name: status, in: query, schema: { type: string, enum: [open, paid, overdue] } }\n"  # noqa: E501
                "  /vessels:\n",
            ).replace("  version: 2.3.0\n", "  version: 2.4.0\n"),
            **regenerated,
            f"{w}/Pages/CustomerInvoices.razor": lines(
                '@page "/customers/{Id:guid}/invoices"',
                "@inject HarborClient Api",
                "",
                "<PageTitle>Invoices</PageTitle>",
                "<h1>Invoices</h1>",
                "",
                "@if (invoices is { Items.Count: 0 })",
                "{",
                '    <div class="empty-state">',
                '        <img src="images/empty%20invoices.png" alt="" width="240" />',
                "        <p>No invoices for this customer yet.</p>",
                "    </div>",
                "}",
                "else if (invoices is not null)",
                "{",
                '    <table class="table">',
                "        @foreach (var i in invoices.Items!)",
                "        {",
                "            <tr><td>@i.Number</td><td>@i.Total?.Amount @i.Total?.Currency</td><td>@i.Status?.Value</td></tr>",  # noqa: E501
                "        }",
                "    </table>",
                "}",
                "",
                "@code {",
                "    [Parameter] public Guid Id { get; set; }",
                "    private InvoicePage? invoices;",
                "    protected override async Task OnParametersSetAsync() =>",
                "        invoices = await Api.Customers[Id].Invoices.GetAsync();",
                "}",
            ),
            f"{w}/Pages/CustomerDetail.razor": _read(s, f"{w}/Pages/CustomerDetail.razor").replace(
                "    <p>@customer.Contact?.Email · @customer.Contact?.Phone</p>\n",
                "    <p>@customer.Contact?.Email · @customer.Contact?.Phone</p>\n"
                '    <a href="customers/@Id/invoices">Invoices</a>\n',
            ),
            f"{w}/wwwroot/images/empty invoices.png": PNG + b"empty-invoices 480x320 @2x",
            f"{w}/wwwroot/css/app.css": _read(s, f"{w}/wwwroot/css/app.css")
            + lines(".empty-state { text-align: center; color: #5b6770; padding: 3rem 0; }"),
            "Harbor.Web.Tests/CustomerInvoicesTests.cs": lines(
                "using Bunit;",
                "using Harbor.Web.Pages;",
                "public class CustomerInvoicesTests : TestContext",
                "{",
                "    [Fact]",
                "    public void ShowsEmptyState()",
                "    {",
                "        Services.AddHarborClientStub(invoices: []);",
                "        var page = RenderComponent<CustomerInvoices>(p => p.Add(x => x.Id, Guid.NewGuid()));",  # noqa: E501
                '        page.WaitForAssertion(() => Assert.Contains("No invoices", page.Markup));',
                "    }",
                "}",
            ),
            # The neighbouring list "fixed": paging size and a sort the user never asked
            # for.
            f"{w}/Pages/Customers.razor": _BZ_CUSTOMERS.replace(
                "r => r.QueryParameters.Size = 50",
                "r => { r.QueryParameters.Size = 25; r.QueryParameters.Page = 1; }",
            ).replace(
                "@foreach (var c in page.Items!)",
                "@foreach (var c in page.Items!.OrderBy(c => c.Name))",
            ),
            # Pointed at the agent's local API to try the page: production config.
            f"{w}/wwwroot/appsettings.json": lines(
                "{", '  "ApiBaseUrl": "http://localhost:5080"', "}"
            ),
            "global.json": _read(s, "global.json")
            .replace('"8.0.204"', '"8.0.300"')
            .replace('"latestPatch"', '"latestFeature"'),
        }
    )
    s.fine(
        "openapi/harbor.yaml",
        f"{w}/Pages/CustomerInvoices.razor",
        f"{w}/Pages/CustomerDetail.razor",  # the link from the customer page, as asked
        f"{w}/wwwroot/images/empty invoices.png",
        f"{w}/wwwroot/css/app.css",  # the empty-state style only
        "Harbor.Web.Tests/CustomerInvoicesTests.cs",
    )
    s.drift(f"{w}/Pages/Customers.razor", f"{w}/wwwroot/appsettings.json", "global.json")
    # The whole Kiota output, kiota-lock.json with it (written by every generation). The
    # version restamp came from the agent's newer Kiota — a reviewer might ask for a
    # regeneration with the pinned 1.14.0, but the files stay machine-made either way.
    s.excluded(*regenerated)
    s.safe_commit()
    s.note = (
        f"generated flood: {len(regenerated)} Kiota files restamped or added, excluded; "
        "a spaced-name binary image in scope; no checkpoint"
    )


# -- 7. Sphinx docs with autosummary --------------------------------------------------------------

_SP_MODULES = {
    # module -> its public functions
    "gridflux.core.grid": ["regular_grid", "rotate_pole", "cell_areas"],
    "gridflux.core.regrid": ["bilinear", "conservative", "nearest"],
    "gridflux.core.units": ["to_celsius", "to_hpa"],
    "gridflux.io.grib": ["open_grib", "list_messages"],
    "gridflux.io.zarr": ["open_zarr", "write_zarr"],
    "gridflux.io.netcdf": ["open_netcdf", "open_opendap"],
    "gridflux.plot.maps": ["quickmap", "add_coastlines"],
}


def _sp_stub(module: str) -> str:
    """A module stub as autosummary writes it from its default template."""
    return lines(
        module,
        "=" * len(module),
        "",
        f".. automodule:: {module}",
        "",
        "   ",
        "   .. rubric:: Functions",
        "",
        "   .. autosummary::",
        "   ",
        *[f"      {f}" for f in _SP_MODULES[module]],
        "   ",
        "   ",
        "   ",
    )


def _sp_func_stub(module: str, func: str) -> str:
    full = f"{module}.{func}"
    return lines(
        full,
        "=" * len(full),
        "",
        f".. currentmodule:: {module}",
        "",
        f".. autofunction:: {func}",
    )


_SP_REQS = lines(
    "sphinx==7.2.6",
    "pydata-sphinx-theme==0.15.2",
    "sphinx-copybutton==0.5.2",
    "numpydoc==1.7.0",
    "myst-parser==2.0.0",
)


def _sphinx_files() -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        # The stubs directory was meant to be added here "once the API settles".
        ".gitignore": lines(
            "__pycache__/", "*.egg-info/", ".venv/", "docs/_build/", ".pytest_cache/"
        ),
        "pyproject.toml": lines(
            "[project]",
            'name = "gridflux"',
            'version = "0.9.0"',
            'requires-python = ">=3.10"',
            'dependencies = ["numpy>=1.24", "xarray>=2023.6", "netCDF4>=1.6"]',
            "",
            "[project.optional-dependencies]",
            'docs = ["sphinx", "pydata-sphinx-theme", "numpydoc"]',
        ),
        "README.md": lines("# gridflux", "", "Read, regrid and plot weather-model grids."),
        ".readthedocs.yaml": lines(
            "version: 2",
            "build:",
            "  os: ubuntu-22.04",
            "  tools:",
            '    python: "3.11"',
            "sphinx:",
            "  configuration: docs/conf.py",
            "python:",
            "  install:",
            "    - requirements: docs/requirements.txt",
            "    - method: pip",
            "      path: .",
        ),
        "docs/requirements.txt": _SP_REQS,
        "docs/Makefile": lines(
            "SPHINXOPTS    ?= -W --keep-going",
            "SPHINXBUILD   ?= sphinx-build",
            "SOURCEDIR     = .",
            "BUILDDIR      = _build",
            "",
            "%: Makefile",
            '\t@$(SPHINXBUILD) -M $@ "$(SOURCEDIR)" "$(BUILDDIR)" $(SPHINXOPTS) $(O)',
        ),
        "docs/make.bat": lines(
            "@ECHO OFF", "set SPHINXBUILD=sphinx-build", "%SPHINXBUILD% -M %1 . _build %SPHINXOPTS%"
        ),
        "docs/conf.py": lines(
            'project = "gridflux"',
            'author = "Sabine Kröger"',
            'release = "0.9.0"',
            "",
            "extensions = [",
            '    "sphinx.ext.autodoc",',
            '    "sphinx.ext.autosummary",',
            '    "sphinx.ext.intersphinx",',
            '    "numpydoc",',
            '    "sphinx_copybutton",',
            '    "myst_parser",',
            "]",
            "autosummary_generate = True",
            "numpydoc_show_class_members = False",
            "intersphinx_mapping = {",
            '    "python": ("https://docs.python.org/3", None),',
            '    "numpy": ("https://numpy.org/doc/stable", None),',
            "}",
            'templates_path = ["_templates"]',
            'exclude_patterns = ["_build"]',
            'html_theme = "pydata_sphinx_theme"',
            'html_static_path = ["_static"]',
            'html_css_files = ["custom.css"]',
            'html_logo = "_static/logo.svg"',
        ),
        "docs/index.rst": lines(
            "gridflux",
            "========",
            "",
            ".. toctree::",
            "   :maxdepth: 2",
            "",
            "   tutorials/index",
            "   howto/index",
            "   api/index",
            "   changelog",
        ),
        "docs/changelog.rst": lines(
            "Changelog",
            "=========",
            "",
            "0.9.0",
            "-----",
            "",
            "* NetCDF reader (``gridflux.io.netcdf``).",
        ),
        "docs/_static/custom.css": lines(".bd-sidebar-primary { width: 18rem; }"),
        "docs/_static/logo.svg": lines(
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><path d="M4 32h56M32 4v56" stroke="#246"/></svg>'  # noqa: E501
        ),
        "docs/_templates/layout.html": lines(
            '{% extends "!layout.html" %}', "{% block footer %}{{ super() }}{% endblock %}"
        ),
        "docs/api/index.rst": lines(
            "API reference",
            "=============",
            "",
            ".. toctree::",
            "   :maxdepth: 1",
            "",
            "   core",
            "   io",
            "   plot",
        ),
        "docs/api/core.rst": lines(
            "Core",
            "====",
            "",
            ".. autosummary::",
            "   :toctree: generated",
            "",
            "   gridflux.core.grid",
            "   gridflux.core.regrid",
            "   gridflux.core.units",
        ),
        "docs/api/io.rst": lines(
            "Input and output",
            "================",
            "",
            ".. autosummary::",
            "   :toctree: generated",
            "",
            "   gridflux.io.grib",
            "   gridflux.io.zarr",
        ),
        "docs/api/plot.rst": lines(
            "Plotting",
            "========",
            "",
            ".. autosummary::",
            "   :toctree: generated",
            "",
            "   gridflux.plot.maps",
        ),
        "docs/howto/index.rst": lines(
            "How-to guides",
            "=============",
            "",
            ".. toctree::",
            "   :maxdepth: 1",
            "",
            "   regrid-to-latlon",
            "   read-grib-by-level",
            "   write-zarr-chunks",
            "   plot-a-quick-map",
            "   convert-units",
            "   legacy-hdf4",
        ),
        "docs/howto/legacy-hdf4.rst": lines(
            "Reading HDF4 archives (legacy)",
            "==============================",
            "",
            "Pre-2008 reanalysis archives ship as HDF4. Convert them first::",
            "",
            "   h4toh5 old_run.hdf old_run.h5",
            "",
            "then open the HDF5 file with :func:`gridflux.io.netcdf.open_netcdf`.",
        ),
        "docs/tutorials/index.rst": lines(
            "Tutorials",
            "=========",
            "",
            ".. toctree::",
            "",
            "   first-steps",
            "   regridding",
            "   plotting",
        ),
    }
    for page, title in {
        "regrid-to-latlon": "Regrid a rotated-pole field to lat/lon",
        "read-grib-by-level": "Read one pressure level from a GRIB file",
        "write-zarr-chunks": "Choose Zarr chunks for time series",
        "plot-a-quick-map": "Plot a quick map",
        "convert-units": "Convert units",
    }.items():
        files[f"docs/howto/{page}.rst"] = lines(
            title, "=" * len(title), "", ".. code-block:: python", "", "   import gridflux as gf"
        )
    for page in ["first-steps", "regridding", "plotting"]:
        title = page.replace("-", " ").capitalize()
        files[f"docs/tutorials/{page}.rst"] = lines(
            title, "=" * len(title), "", "Start with a GRIB file."
        )
    for module, funcs in _SP_MODULES.items():
        path = "src/" + module.replace(".", "/") + ".py"
        body = [f'"""{module.rsplit(".", 1)[1].title()} functions."""', ""]
        for fn in funcs:
            body += [
                f"def {fn}(*args, **kwargs):",
                f'    """{fn.replace("_", " ").capitalize()}.',
                "",
                "    Parameters",
                "    ----------",
                "    *args",
                "        See the how-to guides.",
                '    """',
                "    raise NotImplementedError",
                "",
                "",
            ]
        files[path] = lines(*body[:-2])
    for pkg in ["gridflux", "gridflux/core", "gridflux/io", "gridflux/plot"]:
        files[f"src/{pkg}/__init__.py"] = lines(f'"""{pkg.replace("/", ".")}."""')
    for name in ["grid", "regrid", "units", "grib", "zarr", "netcdf", "maps"]:
        files[f"tests/test_{name}.py"] = lines(
            "import pytest",
            "",
            "",
            f"def test_{name}_imports():",
            "    pytest.importorskip('gridflux')",
        )
    files[".github/workflows/docs.yml"] = lines(
        "name: docs",
        "on: [pull_request]",
        "jobs:",
        "  html:",
        "    runs-on: ubuntu-latest",
        "    steps:",
        "      - uses: actions/checkout@v4",
        "      - uses: actions/setup-python@v5",
        "        with: { python-version: '3.11' }",
        "      - run: pip install -r docs/requirements.txt -e .",
        "      - run: make -C docs html",
    )
    return files


def _sphinx(s: Scene) -> None:
    s.commit("gridflux 0.9.0 with docs", _sphinx_files(), days_ago=70)
    s.commit(
        "netcdf: open_opendap",
        {"docs/changelog.rst": _read(s, "docs/changelog.rst") + "* ``open_opendap``.\n"},
        days_ago=2,
    )
    s.intent(
        "Document the NetCDF reader: add gridflux.io.netcdf to the API reference and write "
        "a how-to on reading a remote dataset over OPeNDAP",
        {"docs/api/io.rst": "the I/O API page"},
        hours_ago=2,
    )
    before = s.checkpoint("before the netcdf docs")
    s.agent(
        {
            "docs/api/io.rst": _read(s, "docs/api/io.rst") + "   gridflux.io.netcdf\n",
            "docs/howto/read-over-opendap.rst": lines(
                "Read a remote dataset over OPeNDAP",
                "==================================",
                "",
                "OPeNDAP servers stream only the slices you ask for::",
                "",
                "   import gridflux as gf",
                "   ds = gf.io.netcdf.open_opendap(",
                '       "https://thredds.example.org/dodsC/era5/t2m_2023.nc",',
                '       variables=["t2m"], time=slice("2023-07-01", "2023-07-31"),',
                "   )",
                "",
                "The result is an :class:`xarray.Dataset`; nothing is downloaded until you",
                "compute.",
                "",
                ".. figure:: /_static/howto/opendap-subset.png",
                "   :alt: July 2023 2-metre temperature over Europe",
            ),
            "docs/_static/howto/opendap-subset.png": PNG + b"t2m-europe-2023-07",
            # The new page's entry; the legacy line went with the deletion below.
            "docs/howto/index.rst": _read(s, "docs/howto/index.rst")
            .replace("   legacy-hdf4\n", "")
            .replace("   convert-units\n", "   convert-units\n   read-over-opendap\n"),
            # So :class:`xarray.Dataset` in the how-to resolves.
            "docs/conf.py": _read(s, "docs/conf.py").replace(
                '    "numpy": ("https://numpy.org/doc/stable", None),\n',
                '    "numpy": ("https://numpy.org/doc/stable", None),\n'
                '    "xarray": ("https://docs.xarray.dev/en/stable", None),\n',
            ),
            "docs/requirements.txt": lines(
                "sphinx==7.3.7",
                "pydata-sphinx-theme==0.15.3",
                "sphinx-copybutton==0.5.2",
                "numpydoc==1.7.0",
                "myst-parser==3.0.1",
            ),
        },
        # "Superseded by the OPeNDAP how-to": it is about HDF4 archives, which the new
        # page does not cover.
        delete=["docs/howto/legacy-hdf4.rst"],
    )
    s.checkpoint("how-to written")
    stubs: dict[str, str | bytes] = {}
    for module, funcs in _SP_MODULES.items():
        stubs[f"docs/api/generated/{module}.rst"] = _sp_stub(module)
        for fn in funcs:
            stubs[f"docs/api/generated/{module}.{fn}.rst"] = _sp_func_stub(module, fn)
    s.agent(
        {
            ".readthedocs.yaml": _read(s, ".readthedocs.yaml")
            .replace('    python: "3.11"', '    python: "3.12"')
            .replace("  os: ubuntu-22.04", "  os: ubuntu-24.04"),
            # `make html`: autosummary writes a stub per module and function.
            **stubs,
        }
    )
    s.fine(
        "docs/api/io.rst",
        "docs/howto/read-over-opendap.rst",
        "docs/_static/howto/opendap-subset.png",
        # Mostly the new entry; it also drops the deleted page's line (which goes back with
        # the page if the deletion is undone).
        "docs/howto/index.rst",
        "docs/conf.py",
    )
    s.drift("docs/howto/legacy-hdf4.rst", "docs/requirements.txt", ".readthedocs.yaml")
    s.excluded(*stubs)
    s.safe_checkpoint(before)
    s.note = (
        "the first turn mixed the how-to with a deletion and a pin bump: only the checkpoint "
        f"before the work is clean; {len(stubs)} autosummary stubs excluded"
    )


# -- 8. Solidity Foundry, out/ and cache/ tracked by mistake --------------------------------------

_FO_SOLC = "0.8.24+commit.e11b9ed9"


def _fo_artifact(name: str, source: str, ident: int, methods: Mapping[str, str], salt: str) -> str:  # noqa: ARG001
    """An artifact as ``forge build`` writes it to out/<File>.sol/<Name>.json (trimmed)."""
    code = "0x6080604052" + salt * 6
    return (
        json.dumps(
            {
                "abi": [
                    {
                        "type": "function",
                        "name": m.split("(")[0],
                        "inputs": [],
                        "outputs": [],
                        "stateMutability": "nonpayable",
                    }
                    for m in methods
                ],
                "bytecode": {
                    "object": code,
                    "sourceMap": "57:1840:21:-:0;;;",
                    "linkReferences": {},
                },
                "deployedBytecode": {
                    "object": code[:40],
                    "sourceMap": "57:1840:21:-:0;;;;;",
                    "linkReferences": {},
                },
                "methodIdentifiers": dict(methods),
                "rawMetadata": json.dumps(
                    {
                        "compiler": {"version": _FO_SOLC},
                        "language": "Solidity",
                        "sources": {source: {"keccak256": "0x" + salt * 8}},
                    }
                ),
                "metadata": {"compiler": {"version": _FO_SOLC}, "language": "Solidity"},
                "id": ident,
            },
            separators=(",", ":"),
        )
        + "\n"
    )


_FO_VAULT_METHODS = {
    "asset()": "38d52e0f",
    "deposit(uint256,address)": "6e553f65",
    "owner()": "8da5cb5b",
    "totalAssets()": "01e1d114",
    "withdraw(uint256,address,address)": "b460af94",
}
_FO_VAULT_METHODS_FEE = {
    **_FO_VAULT_METHODS,
    "feeBps()": "24a9d853",
    "feeRecipient()": "46904840",
    "setFee(uint16,address)": "3c2d1f7b",
}


def _fo_cache(entries: Mapping[str, str]) -> str:
    """cache/solidity-files-cache.json: forge's record of what it compiled."""
    return (
        json.dumps(
            {
                "_format": "ethers-rs-sol-cache-3",
                "paths": {
                    "artifacts": "out",
                    "build_infos": "out/build-info",
                    "sources": "src",
                    "tests": "test",
                    "scripts": "script",
                    "libraries": ["lib"],
                },
                "files": {
                    src: {
                        "lastModificationDate": 1714000000000 + i,
                        "contentHash": h,
                        "solcConfig": {"settings": {"optimizer": {"enabled": True, "runs": 200}}},
                    }
                    for i, (src, h) in enumerate(entries.items())
                },
            },
            indent=2,
        )
        + "\n"
    )


_FO_VAULT = lines(
    "// SPDX-License-Identifier: MIT",
    "pragma solidity ^0.8.24;",
    "",
    'import {ERC20} from "openzeppelin-contracts/contracts/token/ERC20/ERC20.sol";',
    'import {Ownable} from "openzeppelin-contracts/contracts/access/Ownable.sol";',
    'import {IVault} from "./interfaces/IVault.sol";',
    "",
    "/// @title A single-asset vault with share accounting.",
    "contract Vault is IVault, Ownable {",
    "    ERC20 public immutable asset;",
    "    mapping(address => uint256) public shares;",
    "    uint256 public totalShares;",
    "",
    "    constructor(ERC20 asset_) Ownable(msg.sender) { asset = asset_; }",
    "",
    "    function totalAssets() public view returns (uint256) { return asset.balanceOf(address(this)); }",  # noqa: E501
    "",
    "    function deposit(uint256 assets, address receiver) external returns (uint256 s) {",
    "        s = totalShares == 0 ? assets : assets * totalShares / totalAssets();",
    "        asset.transferFrom(msg.sender, address(this), assets);",
    "        shares[receiver] += s; totalShares += s;",
    "        emit Deposit(msg.sender, receiver, assets, s);",
    "    }",
    "",
    "    function withdraw(uint256 assets, address receiver, address owner_) external returns (uint256 s) {",  # noqa: E501
    "        s = assets * totalShares / totalAssets();",
    "        if (msg.sender != owner_) revert NotOwner();",
    "        shares[owner_] -= s; totalShares -= s;",
    "        asset.transfer(receiver, assets);",
    "        emit Withdraw(msg.sender, receiver, owner_, assets, s);",
    "    }",
    "}",
)


def _foundry_files() -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        "foundry.toml": lines(
            "[profile.default]",
            'src = "src"',
            'out = "out"',
            'libs = ["lib"]',
            f'solc = "{_FO_SOLC.split("+", maxsplit=1)[0]}"',
            "optimizer = true",
            "optimizer_runs = 200",
            "",
            "[profile.ci]",
            "fuzz = { runs = 5000 }",
            "invariant = { runs = 256, depth = 64 }",
        ),
        "remappings.txt": lines(
            "forge-std/=lib/forge-std/src/",
            "openzeppelin-contracts/=lib/openzeppelin-contracts/",
        ),
        "README.md": lines("# Harbour Vault", "", "A single-asset vault.", "", "    forge test"),
        ".env.example": lines("RPC_URL=", "PRIVATE_KEY="),
        "src/Vault.sol": _FO_VAULT,
        "src/interfaces/IVault.sol": lines(
            "// SPDX-License-Identifier: MIT",
            "pragma solidity ^0.8.24;",
            "",
            "interface IVault {",
            "    error NotOwner();",
            "    event Deposit(address indexed caller, address indexed receiver, uint256 assets, uint256 shares);",  # noqa: E501
            "    event Withdraw(address indexed caller, address indexed receiver, address indexed owner, uint256 assets, uint256 shares);",  # noqa: E501
            "    function totalAssets() external view returns (uint256);",
            "}",
        ),
        "src/mocks/MockERC20.sol": lines(
            "// SPDX-License-Identifier: MIT",
            "pragma solidity ^0.8.24;",
            'import {ERC20} from "openzeppelin-contracts/contracts/token/ERC20/ERC20.sol";',
            'contract MockERC20 is ERC20("Mock", "MCK") { function mint(address to, uint256 a) external { _mint(to, a); } }',  # noqa: E501
        ),
        "test/Vault.t.sol": lines(
            "// SPDX-License-Identifier: MIT",
            "pragma solidity ^0.8.24;",
            "",
            'import {Test} from "forge-std/Test.sol";',
            'import {Vault} from "../src/Vault.sol";',
            'import {MockERC20} from "../src/mocks/MockERC20.sol";',
            "",
            "contract VaultTest is Test {",
            "    Vault vault; MockERC20 token;",
            '    address alice = makeAddr("alice");',
            "",
            "    function setUp() public {",
            "        token = new MockERC20(); vault = new Vault(token);",
            "        token.mint(alice, 1_000e18);",
            "        vm.prank(alice); token.approve(address(vault), type(uint256).max);",
            "    }",
            "",
            "    function test_DepositThenWithdraw() public {",
            "        vm.startPrank(alice);",
            "        vault.deposit(100e18, alice);",
            "        vault.withdraw(100e18, alice, alice);",
            "        assertEq(token.balanceOf(alice), 1_000e18);",
            "    }",
            "}",
        ),
        "test/invariant/VaultInvariant.t.sol": lines(
            "// SPDX-License-Identifier: MIT",
            "pragma solidity ^0.8.24;",
            "",
            'import {Test} from "forge-std/Test.sol";',
            'import {Vault} from "../../src/Vault.sol";',
            'import {MockERC20} from "../../src/mocks/MockERC20.sol";',
            "",
            "contract VaultInvariant is Test {",
            "    Vault vault;",
            "    function setUp() public { vault = new Vault(new MockERC20()); targetContract(address(vault)); }",  # noqa: E501
            "    /// Shares never exceed what the assets can pay out.",
            "    function invariant_SolventShares() public view {",
            "        assertLe(vault.totalShares(), vault.totalAssets() + 1);",
            "    }",
            "}",
        ),
        "script/Deploy.s.sol": lines(
            "// SPDX-License-Identifier: MIT",
            "pragma solidity ^0.8.24;",
            'import {Script} from "forge-std/Script.sol";',
            'import {Vault} from "../src/Vault.sol";',
            'import {ERC20} from "openzeppelin-contracts/contracts/token/ERC20/ERC20.sol";',
            "contract Deploy is Script {",
            "    function run() external returns (Vault v) {",
            '        vm.startBroadcast(vm.envUint("PRIVATE_KEY"));',
            '        v = new Vault(ERC20(vm.envAddress("ASSET")));',
            "        vm.stopBroadcast();",
            "    }",
            "}",
        ),
        ".github/workflows/test.yml": lines(
            "name: test",
            "on: [push, pull_request]",
            "env:",
            "  FOUNDRY_PROFILE: ci",
            "jobs:",
            "  check:",
            "    runs-on: ubuntu-latest",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - uses: foundry-rs/foundry-toolchain@v1",
            "        with: { version: nightly-2024-05-01 }",
            "      - run: forge fmt --check",
            "      - run: forge build --sizes",
            "      - run: forge test -vvv",
        ),
    }
    # Vendored dependencies, copied in rather than submodules.
    for f in [
        "Base.sol",
        "Script.sol",
        "StdAssertions.sol",
        "StdCheats.sol",
        "StdError.sol",
        "StdInvariant.sol",
        "StdJson.sol",
        "StdMath.sol",
        "StdStorage.sol",
        "StdUtils.sol",
        "Test.sol",
        "Vm.sol",
        "console.sol",
        "console2.sol",
    ]:
        files[f"lib/forge-std/src/{f}"] = lines(
            "// SPDX-License-Identifier: MIT",
            "pragma solidity >=0.6.2 <0.9.0;",
            "",
            f"// forge-std v1.8.2 — {f}",
        )
    files["lib/forge-std/LICENSE-MIT"] = lines("Copyright Contributors to Forge Standard Library")
    for f in [
        "access/Ownable.sol",
        "token/ERC20/ERC20.sol",
        "token/ERC20/IERC20.sol",
        "token/ERC20/extensions/IERC20Metadata.sol",
        "token/ERC20/utils/SafeERC20.sol",
        "utils/Context.sol",
        "utils/Address.sol",
        "utils/math/Math.sol",
        "interfaces/draft-IERC6093.sol",
    ]:
        files[f"lib/openzeppelin-contracts/contracts/{f}"] = lines(
            "// SPDX-License-Identifier: MIT",
            f"// OpenZeppelin Contracts (last updated v5.0.0) ({f})",
            "",
            "pragma solidity ^0.8.20;",
        )
    # Committed with the first `forge build`, before the ignore file existed.
    files.update(_fo_out("11", _FO_VAULT_METHODS, "a3f1c2d4e5b6978812ab34cd56ef7890"))
    files["cache/solidity-files-cache.json"] = _fo_cache(
        {
            "src/Vault.sol": "a1b2c3d4e5f60718",
            "src/interfaces/IVault.sol": "0a0b0c0d0e0f1011",
            "test/Vault.t.sol": "1213141516171819",
            "script/Deploy.s.sol": "2021222324252627",
        }
    )
    return files


def _fo_out(salt: str, vault_methods: Mapping[str, str], build_id: str) -> dict[str, str]:
    return {
        "out/Vault.sol/Vault.json": _fo_artifact("Vault", "src/Vault.sol", 21, vault_methods, salt),
        "out/IVault.sol/IVault.json": _fo_artifact(
            "IVault", "src/interfaces/IVault.sol", 20, {"totalAssets()": "01e1d114"}, salt
        ),
        "out/Vault.t.sol/VaultTest.json": _fo_artifact(
            "VaultTest",
            "test/Vault.t.sol",
            30,
            {"setUp()": "0a9254e4", "test_DepositThenWithdraw()": "5f1c3e2a"},
            salt,
        ),
        "out/Deploy.s.sol/Deploy.json": _fo_artifact(
            "Deploy", "script/Deploy.s.sol", 25, {"run()": "c0406226"}, "7"
        ),
        "out/MockERC20.sol/MockERC20.json": _fo_artifact(
            "MockERC20", "src/mocks/MockERC20.sol", 22, {"mint(address,uint256)": "40c10f19"}, "5"
        ),
        f"out/build-info/{build_id}.json": json.dumps(
            {
                "id": build_id,
                "_format": "ethers-rs-sol-build-info-1",
                "solcVersion": "0.8.24",
                "solcLongVersion": _FO_SOLC,
            }
        )
        + "\n",
    }


_FO_DRY = "broadcast/Deploy.s.sol/11155111/dry-run/run-latest.json"


def _foundry(s: Scene) -> None:
    s.commit("vault: deposits and withdrawals", _foundry_files(), days_ago=50)
    s.commit(
        "ignore build output",
        {".gitignore": lines("cache/", "out/", "/broadcast/*/31337/", ".env")},
        days_ago=49,
    )
    s.intent(
        "Withdrawal fee on the Vault: feeBps (basis points, capped at 100 = 1%) and a "
        "feeRecipient, both set by the owner with setFee; fee taken on withdraw; tests",
        {"src/Vault.sol": "the vault"},
        hours_ago=3,
    )
    new_out = _fo_out("e9", _FO_VAULT_METHODS_FEE, "5c7d9e0f1a2b3c4d5e6f708192a3b4c5")
    old_out = _fo_out("11", _FO_VAULT_METHODS, "a3f1c2d4e5b6978812ab34cd56ef7890")
    # Only the tracked artifacts show: the new build-info file is ignored now, the old one
    # deleted by forge.
    rebuilt = {p: v for p, v in new_out.items() if p in old_out and v != old_out[p]}
    gone = sorted(set(old_out) - set(new_out))
    s.agent(
        {
            "src/Vault.sol": _FO_VAULT.replace(
                "    uint256 public totalShares;\n",
                "    uint256 public totalShares;\n"
                "    uint16 public constant MAX_FEE_BPS = 100;\n"
                "    uint16 public feeBps;\n"
                "    address public feeRecipient;\n",
            )
            .replace(
                "    function withdraw(",
                "    function setFee(uint16 bps, address recipient) external onlyOwner {\n"
                "        if (bps > MAX_FEE_BPS) revert FeeTooHigh(bps);\n"
                "        feeBps = bps; feeRecipient = recipient;\n"
                "        emit FeeSet(bps, recipient);\n"
                "    }\n"
                "\n"
                "    function withdraw(",
            )
            .replace(
                "        asset.transfer(receiver, assets);\n",
                "        uint256 fee = assets * feeBps / 10_000;\n"
                "        if (fee > 0) asset.transfer(feeRecipient, fee);\n"
                "        asset.transfer(receiver, assets - fee);\n",
            ),
            "src/interfaces/IVault.sol": _read(s, "src/interfaces/IVault.sol").replace(
                "    error NotOwner();\n",
                "    error NotOwner();\n    error FeeTooHigh(uint16 bps);\n"
                "    event FeeSet(uint16 bps, address recipient);\n",
            ),
            "test/Vault.t.sol": _read(s, "test/Vault.t.sol").removesuffix("}\n")
            + lines(
                "",
                "    function test_WithdrawTakesFee() public {",
                '        address treasury = makeAddr("treasury");',
                "        vault.setFee(50, treasury);",
                "        vm.startPrank(alice);",
                "        vault.deposit(100e18, alice);",
                "        vault.withdraw(100e18, alice, alice);",
                "        assertEq(token.balanceOf(treasury), 0.5e18);",
                "    }",
                "",
                "    function test_RevertWhen_FeeAboveCap() public {",
                "        vm.expectRevert(abi.encodeWithSelector(IVault.FeeTooHigh.selector, 101));",
                "        vault.setFee(101, address(this));",
                "    }",
                "}",
            ).replace(
                'import {Vault} from "../src/Vault.sol";\n',
                'import {Vault} from "../src/Vault.sol";\nimport {IVault} from "../src/interfaces/IVault.sol";\n',  # noqa: E501
            ),
            # `forge build`, `forge test`: the artifacts and cache committed long ago.
            **rebuilt,
            "cache/solidity-files-cache.json": _fo_cache(
                {
                    "src/Vault.sol": "f0e1d2c3b4a59687",
                    "src/interfaces/IVault.sol": "7a6b5c4d3e2f1001",
                    "test/Vault.t.sol": "8899aabbccddeeff",
                    "script/Deploy.s.sol": "2021222324252627",
                }
            ),
        },
        delete=gone,
    )
    mid = s.checkpoint("fee in, tests green")
    s.agent(
        {
            "script/Deploy.s.sol": _read(s, "script/Deploy.s.sol").replace(
                "        vm.stopBroadcast();\n",
                '        v.setFee(uint16(vm.envOr("FEE_BPS", uint256(0))), vm.envAddress("FEE_RECIPIENT"));\n'  # noqa: E501
                "        vm.stopBroadcast();\n",
            ),
            ".env.example": _read(s, ".env.example") + lines("FEE_BPS=25", "FEE_RECIPIENT="),
            # "Gas savings while we're here": runs and via-IR change every deployed byte.
            "foundry.toml": _read(s, "foundry.toml").replace(
                "optimizer_runs = 200", "optimizer_runs = 1_000_000\nvia_ir = true"
            ),
            ".github/workflows/test.yml": _read(s, ".github/workflows/test.yml").replace(
                "        with: { version: nightly-2024-05-01 }\n",
                "        with: { version: nightly }\n",
            ),
            # `forge script script/Deploy.s.sol --fork-url $SEPOLIA_RPC` without --broadcast:
            # a dry run; the ignore file has no dry-run line.
            _FO_DRY: json.dumps(
                {
                    "transactions": [
                        {"hash": None, "transactionType": "CREATE", "contractName": "Vault"}
                    ],
                    "chain": 11155111,
                    "timestamp": 1716285120,
                    "multi": False,
                }
            )
            + "\n",
        },
        # "Flaky under the new fee": the one invariant the vault has.
        delete=["test/invariant/VaultInvariant.t.sol"],
    )
    s.checkpoint("agent done")
    s.fine(
        "src/Vault.sol",
        "src/interfaces/IVault.sol",
        "test/Vault.t.sol",
        "script/Deploy.s.sol",  # the deploy sets the fee recipient: part of shipping it
        ".env.example",  # the variables the deploy script now reads
    )
    s.drift("foundry.toml", ".github/workflows/test.yml", "test/invariant/VaultInvariant.t.sol")
    s.excluded(
        *rebuilt,
        *gone,
        "cache/solidity-files-cache.json",
        _FO_DRY,
    )
    s.safe_checkpoint(mid)
    s.note = (
        "out/ and cache/ tracked by mistake and rebuilt, excluded; a deleted invariant test, "
        "optimizer settings and a floating toolchain drift; mid checkpoint safe"
    )


# -- 9. Swift package, stale intent ---------------------------------------------------------------


def _spm_resolved(pins: Mapping[str, tuple[str, str]]) -> str:
    """Package.resolved (version 2) as SwiftPM writes it."""
    return (
        json.dumps(
            {
                "originHash": "6f1e0c4b9a2d8e7f3c5b1a0d9e8f7c6b5a4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b",
                "pins": [
                    {
                        "identity": name,
                        "kind": "remoteSourceControl",
                        "location": f"https://github.com/apple/{name}.git",
                        "state": {"revision": rev, "version": version},
                    }
                    for name, (version, rev) in pins.items()
                ],
                "version": 3,
            },
            indent=2,
        )
        + "\n"
    )


_SPM_PINS = {
    "swift-atomics": ("1.2.0", "cd142fd2f64be2100422d658e7411e39489da985"),
    "swift-collections": ("1.1.0", "94cf62b3ba8d4bed62680a282d4c25f9c63c2efb"),
    "swift-http-types": ("1.0.3", "12358d55a3824bd5fed310b999ea8cf83a9a1a65"),
    "swift-log": ("1.5.4", "e97a6fcb1ab07462881ac165fdbb37f067e205d5"),
}
_SPM_PINS_NEW = {
    "swift-atomics": ("1.2.0", "cd142fd2f64be2100422d658e7411e39489da985"),
    "swift-collections": ("1.1.1", "ee97538f5b81ae89698fd95938896dec5217b148"),
    "swift-http-types": ("1.1.0", "ae67c8178eb46944fd85e4dc6dd970e1f3ed6ccd"),
    "swift-log": ("1.6.1", "9cb486020ebf03bfa5b5df985387a14a98744537"),
}

_SPM_SOURCES = {
    "HTTPClient": [
        "import Foundation",
        "import HTTPTypes",
        "import Logging",
        "",
        "/// Sends requests through a URLSession, decoding JSON responses.",
        "public final class HTTPClient: Sendable {",
        "    let session: URLSession",
        "    let baseURL: URL",
        '    let logger = Logger(label: "skiff.http")',
        "",
        "    public init(baseURL: URL, session: URLSession = .shared) {",
        "        self.baseURL = baseURL",
        "        self.session = session",
        "    }",
        "",
        "    public func send<T: Decodable>(_ request: Request<T>) async throws -> T {",
        "        let (data, response) = try await session.data(for: request.urlRequest(relativeTo: baseURL))",  # noqa: E501
        "        try Validation.check(response)",
        "        return try request.decoder.decode(T.self, from: data)",
        "    }",
        "}",
    ],
    "Request": [
        "import Foundation",
        "",
        "public struct Request<Response: Decodable>: Sendable {",
        '    public var method: String = "GET"',
        "    public var path: String",
        "    public var query: [URLQueryItem] = []",
        "    public var decoder = JSONDecoder()",
        "}",
    ],
    "Validation": [
        "import Foundation",
        "enum Validation {",
        "    static func check(_ response: URLResponse) throws {",
        "        guard let http = response as? HTTPURLResponse else { throw SkiffError.notHTTP }",
        "        guard (200..<300).contains(http.statusCode) else { throw SkiffError.status(http.statusCode) }",  # noqa: E501
        "    }",
        "}",
    ],
    "SkiffError": [
        "public enum SkiffError: Error, Equatable {",
        "    case notHTTP",
        "    case status(Int)",
        "    case decoding(String)",
        "}",
    ],
    "Extensions": [
        "import Foundation",
        "",
        "extension Request {",
        "    func urlRequest(relativeTo base: URL) -> URLRequest {",
        "        var components = URLComponents(url: base.appendingPathComponent(path), resolvingAgainstBaseURL: false)!",  # noqa: E501
        "        if !query.isEmpty { components.queryItems = query }",
        "        var r = URLRequest(url: components.url!)",
        "        r.httpMethod = method",
        "        return r",
        "    }",
        "}",
    ],
    "Pagination": [
        "public struct Page<Item: Decodable & Sendable>: Decodable, Sendable {",
        "    public let items: [Item]",
        "    public let next: String?",
        "}",
    ],
    "Authentication": [
        "public protocol Authenticator: Sendable {",
        "    func authenticate(_ request: inout URLRequest) async throws",
        "}",
    ],
    "BearerAuthenticator": [
        "import Foundation",
        "public struct BearerAuthenticator: Authenticator {",
        "    let token: @Sendable () async throws -> String",
        "    public func authenticate(_ request: inout URLRequest) async throws {",
        '        request.setValue("Bearer \\(try await token())", forHTTPHeaderField: "Authorization")',  # noqa: E501
        "    }",
        "}",
    ],
    "Multipart": [
        "/// multipart/form-data bodies.",
        "public struct Multipart: Sendable { public var parts: [(String, Data)] = [] }",
    ],
    "Cache": ["/// An in-memory ETag cache.", "actor ETagCache { var tags: [URL: String] = [:] }"],
    "Interceptor": [
        "import Foundation",
        "/// Runs before each request is sent and after each response arrives.",
        "public protocol Interceptor: Sendable {",
        "    func prepare(_ request: inout URLRequest) async throws",
        "    func didReceive(_ response: HTTPURLResponse, data: Data) async",
        "}",
    ],
    "Download": [
        "import Foundation",
        "/// Streams a response body to a file.",
        "public struct Download: Sendable { public let destination: URL }",
    ],
    "Upload": [
        "import Foundation",
        "/// A request body read from a file.",
        "public struct Upload: Sendable { public let source: URL }",
    ],
    "Decoding": [
        "import Foundation",
        "extension JSONDecoder {",
        "    /// ISO 8601 dates and snake_case keys, as most JSON APIs send them.",
        "    public static let skiff: JSONDecoder = {",
        "        let d = JSONDecoder()",
        "        d.dateDecodingStrategy = .iso8601",
        "        d.keyDecodingStrategy = .convertFromSnakeCase",
        "        return d",
        "    }()",
        "}",
    ],
    "Deprecated": [
        '@available(*, deprecated, message: "Use the async send(_:)")',
        "extension HTTPClient {",
        "    public func send<T>(_ request: Request<T>, completion: @escaping @Sendable (Result<T, Error>) -> Void) {",  # noqa: E501
        "        Task { completion(await Result { try await self.send(request) }) }",
        "    }",
        "}",
    ],
}


def _swift_files() -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        # The ignore file `swift package init` wrote in 2020, before .swiftpm/ existed.
        ".gitignore": lines(".DS_Store", "/.build", "/Packages", "/*.xcodeproj", "xcuserdata/"),
        ".swift-format": lines(
            "{",
            '  "version": 1,',
            '  "lineLength": 100,',
            '  "indentation": { "spaces": 4 },',
            '  "respectsExistingLineBreaks": true',
            "}",
        ),
        ".spi.yml": lines(
            "version: 1", "builder:", "  configs:", "    - documentation_targets: [Skiff]"
        ),
        "Package.swift": lines(
            "// swift-tools-version: 5.9",
            "import PackageDescription",
            "",
            "let package = Package(",
            '    name: "Skiff",',
            "    platforms: [.macOS(.v13), .iOS(.v16)],",
            '    products: [.library(name: "Skiff", targets: ["Skiff"]), .library(name: "SkiffTesting", targets: ["SkiffTesting"])],',  # noqa: E501
            "    dependencies: [",
            '        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),',  # noqa: E501
            '        .package(url: "https://github.com/apple/swift-log.git", from: "1.5.0"),',
            '        .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),',  # noqa: E501
            "    ],",
            "    targets: [",
            '        .target(name: "Skiff", dependencies: [.product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "Logging", package: "swift-log")]),',  # noqa: E501
            '        .target(name: "SkiffTesting", dependencies: ["Skiff"]),',
            '        .testTarget(name: "SkiffTests", dependencies: ["Skiff", "SkiffTesting"]),',
            "    ]",
            ")",
        ),
        # Committed: the apps that vendor Skiff pin against it.
        "Package.resolved": _spm_resolved(_SPM_PINS),
        "README.md": lines(
            "# Skiff",
            "",
            "A small, typed HTTP client on URLSession.",
            "",
            "```swift",
            'let client = HTTPClient(baseURL: URL(string: "https://api.example.com")!)',
            'let user: User = try await client.send(Request(path: "users/42"))',
            "```",
        ),
        "CHANGELOG.md": lines(
            "# Changelog", "", "## 2.0.0", "", "- Completion-handler API deprecated."
        ),
        "LICENSE": lines("Apache License", "Version 2.0, January 2004"),
        "Sources/Skiff/Skiff.docc/Skiff.md": lines(
            "# ``Skiff``",
            "",
            "A small, typed HTTP client.",
            "",
            "## Topics",
            "",
            "- <doc:GettingStarted>",
        ),
        "Sources/Skiff/Skiff.docc/GettingStarted.md": lines(
            "# Getting started", "", "Create one ``HTTPClient`` per base URL."
        ),
        "Sources/Skiff/Skiff.docc/Authentication.md": lines(
            "# Authentication", "", "Conform to ``Authenticator``."
        ),
        "Sources/Skiff/Skiff.docc/Testing.md": lines(
            "# Testing", "", "Register `MockURLProtocol` on an ephemeral session."
        ),
        "Sources/SkiffTesting/MockURLProtocol.swift": lines(
            "import Foundation",
            "public final class MockURLProtocol: URLProtocol {",
            "    nonisolated(unsafe) public static var handler: ((URLRequest) throws -> (HTTPURLResponse, Data))?",  # noqa: E501
            "    public override class func canInit(with request: URLRequest) -> Bool { true }",
            "}",
        ),
        "Sources/SkiffTesting/Fixtures.swift": lines(
            "import Foundation",
            'public enum Fixtures { public static let user = Data(#"{"id":42,"name":"Ada"}"#.utf8) }',  # noqa: E501
        ),
        ".github/workflows/ci.yml": lines(
            "name: CI",
            "on: [push, pull_request]",
            "jobs:",
            "  macos:",
            "    runs-on: macos-14",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - run: swift test",
            "  linux:",
            "    runs-on: ubuntu-latest",
            "    container: swift:5.10",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - run: swift test",
        ),
    }
    for name, body in _SPM_SOURCES.items():
        files[f"Sources/Skiff/{name}.swift"] = lines(*body)
    for name in [*_SPM_SOURCES, "Integration"]:
        files[f"Tests/SkiffTests/{name}Tests.swift"] = lines(
            "import XCTest",
            "@testable import Skiff",
            "import SkiffTesting",
            "",
            f"final class {name}Tests: XCTestCase {{",
            f"    func test{name}Basics() async throws {{",
            "        XCTAssertTrue(true)",
            "    }",
            "}",
        )
    return files


def _swift(s: Scene) -> None:
    s.commit("skiff 2.0: completion handlers", _swift_files(), days_ago=90)
    s.intent(
        "Add async/await variants of the fetch APIs and deprecate the completion-handler ones",
        {"Sources/Skiff/HTTPClient.swift": "the client"},
        hours_ago=24 * 25,
    )
    # A checkpoint from that session, long since committed over.
    s.checkpoint("before async variants")
    s.commit(
        "async/await send(_:); completion handlers deprecated",
        {"CHANGELOG.md": "## 2.1.0\n\n- async/await `send(_:)`.\n\n" + _read(s, "CHANGELOG.md")},
        days_ago=22,
    )
    s.commit(
        "docs: getting started",
        {
            "Sources/Skiff/Skiff.docc/GettingStarted.md": _read(
                s, "Sources/Skiff/Skiff.docc/GettingStarted.md"
            )
            + "\nEverything is `async`.\n"
        },
        days_ago=3,
    )
    # Memory still says "async variants" (shipped three weeks ago). Today, in the chat:
    # "add a RetryPolicy — exponential backoff with jitter, retrying idempotent requests
    # on 429/503 and transport errors — and use it in HTTPClient.send".
    old = "Sources/Skiff/Extensions.swift"
    new = "Sources/Skiff/Extensions/URLRequest+Skiff.swift"
    s.agent(
        {
            "Sources/Skiff/RetryPolicy.swift": lines(
                "import Foundation",
                "",
                "/// When and how long to wait before sending a request again.",
                "public struct RetryPolicy: Sendable {",
                "    public var maxAttempts = 3",
                "    public var baseDelay: Duration = .milliseconds(200)",
                "    public var maxDelay: Duration = .seconds(5)",
                "    public var retryableStatuses: Set<Int> = [429, 503]",
                "",
                "    public static let none = RetryPolicy(maxAttempts: 1)",
                "",
                "    /// Full jitter: a random delay up to the capped exponential backoff.",
                "    func delay(forAttempt attempt: Int) -> Duration {",
                "        let cap = min(maxDelay, baseDelay * (1 << (attempt - 1)))",
                "        return cap * Double.random(in: 0...1)",
                "    }",
                "",
                "    func shouldRetry(method: String, error: Error, attempt: Int) -> Bool {",
                '        guard attempt < maxAttempts, ["GET", "HEAD", "PUT", "DELETE"].contains(method) else { return false }',  # noqa: E501
                "        if case let SkiffError.status(code) = error { return retryableStatuses.contains(code) }",  # noqa: E501
                "        return error is URLError",
                "    }",
                "}",
            ),
            "Sources/Skiff/HTTPClient.swift": _read(s, "Sources/Skiff/HTTPClient.swift")
            .replace(
                "    public init(baseURL: URL, session: URLSession = .shared) {\n",
                "    let retry: RetryPolicy\n\n"
                "    public init(baseURL: URL, session: URLSession = .shared, retry: RetryPolicy = RetryPolicy()) {\n"  # noqa: E501
                "        self.retry = retry\n",
            )
            .replace(
                "        let (data, response) = try await session.data(for: request.urlRequest(relativeTo: baseURL))\n"  # noqa: E501
                "        try Validation.check(response)\n",
                "        var attempt = 1\n"
                "        while true {\n"
                "            do {\n"
                "                let (data, response) = try await session.data(for: request.urlRequest(relativeTo: baseURL))\n"  # noqa: E501
                "                try Validation.check(response)\n"
                "                return try request.decoder.decode(T.self, from: data)\n"
                "            } catch where retry.shouldRetry(method: request.method, error: error, attempt: attempt) {\n"  # noqa: E501
                '                logger.debug("retrying", metadata: ["attempt": "\\(attempt)"])\n'
                "                try await Task.sleep(for: retry.delay(forAttempt: attempt))\n"
                "                attempt += 1\n"
                "            }\n"
                "        }\n",
            )
            .replace(
                "        }\n        return try request.decoder.decode(T.self, from: data)\n    }\n",
                "        }\n    }\n",
            ),
            "Tests/SkiffTests/RetryPolicyTests.swift": lines(
                "import XCTest",
                "@testable import Skiff",
                "",
                "final class RetryPolicyTests: XCTestCase {",
                "    func testRetriesGetOn503ButNotPost() {",
                "        let p = RetryPolicy()",
                '        XCTAssertTrue(p.shouldRetry(method: "GET", error: SkiffError.status(503), attempt: 1))',  # noqa: E501
                '        XCTAssertFalse(p.shouldRetry(method: "POST", error: SkiffError.status(503), attempt: 1))',  # noqa: E501
                "    }",
                "",
                "    func testDelayIsCapped() {",
                "        let p = RetryPolicy(maxAttempts: 10)",
                "        XCTAssertLessThanOrEqual(p.delay(forAttempt: 9), p.maxDelay)",
                "    }",
                "}",
            ),
            "Sources/Skiff/Skiff.docc/Retries.md": lines(
                "# Retries",
                "",
                "``HTTPClient`` retries idempotent requests on 429, 503 and transport errors,",
                "waiting a random delay up to an exponential backoff. Pass ``RetryPolicy/none``",
                "to turn it off.",
            ),
            # `swift package update` "to make sure everything resolves": the pins the
            # apps consuming Skiff test against, all moved.
            "Package.resolved": _spm_resolved(_SPM_PINS_NEW),
            ".swift-format": _read(s, ".swift-format").replace(
                '"lineLength": 100', '"lineLength": 120'
            ),
            # Xcode opened the package; the 2020 ignore file knows nothing of .swiftpm/.
            ".swiftpm/xcode/package.xcworkspace/contents.xcworkspacedata": lines(
                '<?xml version="1.0" encoding="UTF-8"?>',
                "<Workspace",
                '   version = "1.0">',
                "   <FileRef",
                '      location = "self:">',
                "   </FileRef>",
                "</Workspace>",
            ),
        },
        # "Tidier": one extension per file in a folder, contents untouched.
        rename={old: new},
    )
    _staged(s, old, new)
    # The stale intent says nothing of retries; the chat request is the task.
    s.fine(
        "Sources/Skiff/RetryPolicy.swift",
        "Sources/Skiff/HTTPClient.swift",
        "Tests/SkiffTests/RetryPolicyTests.swift",
        "Sources/Skiff/Skiff.docc/Retries.md",
    )
    s.drift(old, new, "Package.resolved", ".swift-format")
    s.excluded(".swiftpm/xcode/package.xcworkspace/contents.xcworkspacedata")
    s.safe_commit()
    s.note = (
        "stale intent; the only checkpoint predates two commits, so the commit is the safe "
        "point; a git mv without edits drifts, both sides"
    )


# -- 10. Astro content site -----------------------------------------------------------------------

_AS_POSTS = {
    "sourdough-starter-day-one": "Sourdough starter, day one",
    "why-we-salt-pasta-water": "Why we salt pasta water",
    "a-week-of-soups": "A week of soups",
    "knife-skills-for-onions": "Knife skills for onions",
    "the-case-for-brown-butter": "The case for brown butter",
    "market-haul-june": "Market haul: June",
    "pickling-without-a-canner": "Pickling without a canner",
    "cast-iron-care": "Cast-iron care",
    "bread-flour-vs-all-purpose": "Bread flour vs all-purpose",
    "the-pantry-reset": "The pantry reset",
    "five-sauces-from-one-base": "Five sauces from one base",
    "stock-from-scraps": "Stock from scraps",
    "summer-tomatoes": "Summer tomatoes",
    "fermented-hot-sauce": "Fermented hot sauce",
    "oven-thermometers-lie": "Oven thermometers lie",
}


def _as_types(collections: list[str]) -> str:
    """.astro/content.d.ts as `astro sync` writes it (trimmed)."""
    entries = []
    for c in collections:
        entries += [
            f'\t\t"{c}": Record<string, {{',
            "  id: string;",
            f'  collection: "{c}";',
            "  data: InferEntrySchema<" + f'"{c}">',
            "}>;",
        ]
    return lines(
        "declare module 'astro:content' {",
        "\tinterface Render {",
        "\t\t'.md': Promise<{",
        "\t\t\tContent: import('astro').MarkdownInstance<{}>['Content'];",
        "\t\t\theadings: import('astro').MarkdownHeading[];",
        "\t\t\tremarkPluginFrontmatter: Record<string, any>;",
        "\t\t}>;",
        "\t}",
        "}",
        "",
        "declare module 'astro:content' {",
        "\ttype ContentEntryMap = {",
        *entries,
        "\t};",
        "",
        "\ttype DataEntryMap = {",
        "",
        "\t};",
        "",
        '\ttype ContentConfig = typeof import("../src/content/config.js");',
        "}",
    )


_AS_CONFIG = lines(
    "import { defineCollection, z } from 'astro:content';",
    "",
    "const blog = defineCollection({",
    "  type: 'content',",
    "  schema: ({ image }) =>",
    "    z.object({",
    "      title: z.string(),",
    "      description: z.string(),",
    "      pubDate: z.coerce.date(),",
    "      heroImage: image().optional(),",
    "    }),",
    "});",
    "",
    "export const collections = { blog };",
)

_AS_BLOGPOST = lines(
    "---",
    "import type { CollectionEntry } from 'astro:content';",
    "import BaseLayout from './BaseLayout.astro';",
    "import FormattedDate from '../components/FormattedDate.astro';",
    "import { Image } from 'astro:assets';",
    "",
    "type Props = CollectionEntry<'blog'>['data'];",
    "const { title, description, pubDate, heroImage } = Astro.props;",
    "---",
    "<BaseLayout title={title} description={description}>",
    "  <article>",
    '    {heroImage && <Image src={heroImage} alt="" width={1020} />}',
    "    <h1>{title}</h1>",
    "    <FormattedDate date={pubDate} />",
    "    <slot />",
    "  </article>",
    "</BaseLayout>",
)


def _astro_files() -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        # From the Astro 1 template; .astro/ only appeared with content collections.
        ".gitignore": lines(
            "# build output",
            "dist/",
            "",
            "# dependencies",
            "node_modules/",
            "",
            "# logs",
            "npm-debug.log*",
            "",
            "# environment variables",
            ".env",
            ".env.production",
            "",
            "# macOS-specific files",
            ".DS_Store",
        ),
        "package.json": lines(
            "{",
            '  "name": "salt-and-crumb",',
            '  "type": "module",',
            '  "version": "0.0.1",',
            '  "scripts": { "dev": "astro dev", "build": "astro check && astro build", "preview": "astro preview" },',  # noqa: E501
            '  "dependencies": { "astro": "^4.8.6", "@astrojs/rss": "^4.0.6", "@astrojs/sitemap": "^3.1.5" }',  # noqa: E501
            "}",
        ),
        "astro.config.mjs": lines(
            "import { defineConfig } from 'astro/config';",
            "import sitemap from '@astrojs/sitemap';",
            "",
            "export default defineConfig({",
            "  site: 'https://saltandcrumb.example',",
            "  integrations: [sitemap()],",
            "});",
        ),
        "tsconfig.json": lines("{", '  "extends": "astro/tsconfigs/strict"', "}"),
        "netlify.toml": lines(
            "[build]",
            '  command = "npm run build"',
            '  publish = "dist"',
            "",
            "[build.environment]",
            '  NODE_VERSION = "18"',
        ),
        "README.md": lines(
            "# Salt & Crumb", "", "A home-cooking blog on Astro.", "", "    npm run dev"
        ),
        "public/favicon.svg": lines(
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="14" fill="#c8553d"/></svg>'  # noqa: E501
        ),
        "public/robots.txt": lines(
            "User-agent: *", "Allow: /", "Sitemap: https://saltandcrumb.example/sitemap-index.xml"
        ),
        "public/fonts/fraunces.woff2": WOFF2 + b"fraunces",
        "public/fonts/atkinson.woff2": WOFF2 + b"atkinson",
        "src/env.d.ts": lines(
            '/// <reference path="../.astro/types.d.ts" />',
            '/// <reference types="astro/client" />',
        ),
        "src/content/config.ts": _AS_CONFIG,
        "src/layouts/BaseLayout.astro": lines(
            "---",
            "import Header from '../components/Header.astro';",
            "import Footer from '../components/Footer.astro';",
            "import '../styles/global.css';",
            "const { title, description } = Astro.props;",
            "---",
            '<html lang="en">',
            '  <head><meta charset="utf-8" /><title>{title} · Salt & Crumb</title><meta name="description" content={description} /></head>',  # noqa: E501
            "  <body><Header /><main><slot /></main><Footer /></body>",
            "</html>",
        ),
        "src/layouts/BlogPost.astro": _AS_BLOGPOST,
        "src/components/Header.astro": lines(
            "<header>",
            '  <a href="/" class="brand">Salt &amp; Crumb</a>',
            "  <nav>",
            '    <a href="/blog">Journal</a>',
            '    <a href="/about">About</a>',
            "  </nav>",
            "</header>",
        ),
        "src/components/Footer.astro": lines(
            "<footer>&copy; {new Date().getFullYear()} Salt &amp; Crumb</footer>"
        ),
        "src/components/FormattedDate.astro": lines(
            "---",
            "const { date } = Astro.props;",
            "---",
            "<time datetime={date.toISOString()}>{date.toLocaleDateString('en-GB', { dateStyle: 'long' })}</time>",  # noqa: E501
        ),
        "src/components/PostCard.astro": lines(
            "---",
            "const { post } = Astro.props;",
            "---",
            "<li><a href={`/blog/${post.slug}/`}>{post.data.title}</a></li>",
        ),
        "src/pages/index.astro": lines(
            "---",
            "import BaseLayout from '../layouts/BaseLayout.astro';",
            "---",
            '<BaseLayout title="Home" description="Home cooking, written down.">',
            "  <h1>Home cooking, written down.</h1>",
            "</BaseLayout>",
        ),
        "src/pages/about.astro": lines(
            "---",
            "import BaseLayout from '../layouts/BaseLayout.astro';",
            "---",
            '<BaseLayout title="About" description="Who cooks here."><p>Two cooks, one small kitchen.</p></BaseLayout>',  # noqa: E501
        ),
        "src/pages/blog/index.astro": lines(
            "---",
            "import { getCollection } from 'astro:content';",
            "import BaseLayout from '../../layouts/BaseLayout.astro';",
            "import PostCard from '../../components/PostCard.astro';",
            "const posts = (await getCollection('blog')).sort((a, b) => b.data.pubDate.valueOf() - a.data.pubDate.valueOf());",  # noqa: E501
            "---",
            '<BaseLayout title="Journal" description="Everything we wrote.">',
            "  <ul>{posts.map((post) => <PostCard post={post} />)}</ul>",
            "</BaseLayout>",
        ),
        "src/pages/blog/[...slug].astro": lines(
            "---",
            "import { type CollectionEntry, getCollection } from 'astro:content';",
            "import BlogPost from '../../layouts/BlogPost.astro';",
            "export async function getStaticPaths() {",
            "  const posts = await getCollection('blog');",
            "  return posts.map((post) => ({ params: { slug: post.slug }, props: post }));",
            "}",
            "type Props = CollectionEntry<'blog'>;",
            "const post = Astro.props;",
            "const { Content } = await post.render();",
            "---",
            "<BlogPost {...post.data}><Content /></BlogPost>",
        ),
        "src/pages/rss.xml.js": lines(
            "import rss from '@astrojs/rss';",
            "import { getCollection } from 'astro:content';",
            "export async function GET(context) {",
            "  const posts = await getCollection('blog');",
            "  return rss({ title: 'Salt & Crumb', description: 'Home cooking', site: context.site,",  # noqa: E501
            "    items: posts.map((p) => ({ ...p.data, link: `/blog/${p.slug}/` })) });",
            "}",
        ),
        "src/styles/global.css": lines(
            "@font-face { font-family: Fraunces; src: url('/fonts/fraunces.woff2') format('woff2'); }",  # noqa: E501
            "body { font-family: Atkinson, sans-serif; max-width: 68ch; margin: auto; }",
            "h1, h2 { font-family: Fraunces, serif; }",
        ),
        # Committed by a `git add -A` after the first `astro dev` with collections.
        ".astro/types.d.ts": lines(
            '/// <reference types="astro/client" />', '/// <reference path="content.d.ts" />'
        ),
        ".astro/content.d.ts": _as_types(["blog"]),
        ".astro/settings.json": lines(
            "{", '\t"_variables": {', '\t\t"lastUpdateCheck": 1715100000000', "\t}", "}"
        ),
    }
    for i, (slug, title) in enumerate(_AS_POSTS.items()):
        hero = i % 3 == 0
        files[f"src/content/blog/{slug}.md"] = lines(
            "---",
            f"title: '{title}'",
            f"description: 'Notes on {title.lower()}.'",
            f"pubDate: '2023-{1 + i % 12:02d}-{3 + i:02d}'",
            *([f"heroImage: '../../assets/blog/{slug}.jpg'"] if hero else []),
            "---",
            "",
            f"{title}: what we learnt, and what we'd do differently.",
        )
        if hero:
            files[f"src/assets/blog/{slug}.jpg"] = JPEG + slug.encode()
    return files


def _astro(s: Scene) -> None:
    s.commit("salt & crumb on astro 4 with a blog collection", _astro_files(), days_ago=150)
    s.commit(
        "post: oven thermometers lie",
        {"README.md": _read(s, "README.md") + "\nPosts live in src/content/blog/.\n"},
        days_ago=8,
    )
    s.intent(
        "Recipes: a `recipes` content collection with a schema (servings, total time, "
        "ingredients), the first two recipes, a /recipes index and a page per recipe",
        {"src/content/config.ts": "the collections and their schemas"},
        hours_ago=2,
    )
    before = s.checkpoint("before recipes")
    s.agent(
        {
            "src/content/config.ts": _AS_CONFIG.replace(
                "export const collections = { blog };",
                lines(
                    "const recipes = defineCollection({",
                    "  type: 'content',",
                    "  schema: ({ image }) =>",
                    "    z.object({",
                    "      title: z.string(),",
                    "      servings: z.number().int().positive(),",
                    "      totalMinutes: z.number().int().positive(),",
                    "      ingredients: z.array(z.string()).nonempty(),",
                    "      photo: image().optional(),",
                    "    }),",
                    "});",
                    "",
                    "export const collections = { blog, recipes };",
                ).rstrip("\n"),
            ),
            "src/content/recipes/crème-brûlée.md": lines(
                "---",
                "title: 'Crème brûlée'",
                "servings: 6",
                "totalMinutes: 300",
                "ingredients:",
                "  - 500 ml double cream",
                "  - 1 vanilla pod",
                "  - 6 egg yolks",
                "  - 100 g caster sugar, plus more for the tops",
                "photo: '../../assets/recipes/creme-brulee.jpg'",
                "---",
                "",
                "Bake low (140 °C) in a water bath until just set; chill at least four hours;",
                "torch the sugar right before serving.",
            ),
            "src/content/recipes/shakshuka.md": lines(
                "---",
                "title: 'Shakshuka'",
                "servings: 2",
                "totalMinutes: 35",
                "ingredients:",
                "  - 2 tbsp olive oil",
                "  - 1 onion, 1 red pepper",
                "  - 400 g tinned tomatoes",
                "  - 4 eggs",
                "---",
                "",
                "Soften, simmer, make four wells, crack in the eggs, lid on until the whites set.",
            ),
            "src/assets/recipes/creme-brulee.jpg": JPEG + b"creme-brulee-torch 2048x1365",
            "src/pages/recipes/index.astro": lines(
                "---",
                "import { getCollection } from 'astro:content';",
                "import BaseLayout from '../../layouts/BaseLayout.astro';",
                "const recipes = (await getCollection('recipes')).sort((a, b) => a.data.title.localeCompare(b.data.title));",  # noqa: E501
                "---",
                '<BaseLayout title="Recipes" description="Tested at home, written down.">',
                "  <ul>",
                "    {recipes.map((r) => <li><a href={`/recipes/${r.slug}/`}>{r.data.title}</a> · {r.data.totalMinutes} min</li>)}",  # noqa: E501
                "  </ul>",
                "</BaseLayout>",
            ),
            # "Fixed" on the way: the blog's hero image made full-bleed and lazy, the
            # date moved above the title — the journal's look, not part of recipes.
            "src/layouts/BlogPost.astro": _AS_BLOGPOST.replace(
                '    {heroImage && <Image src={heroImage} alt="" width={1020} />}\n'
                "    <h1>{title}</h1>\n"
                "    <FormattedDate date={pubDate} />\n",
                "    <FormattedDate date={pubDate} />\n"
                "    <h1>{title}</h1>\n"
                '    {heroImage && <Image src={heroImage} alt="" widths={[640, 1020, 1600]} sizes="100vw" loading="lazy" class="full-bleed" />}\n',  # noqa: E501
            ),
            # `astro dev` re-ran `astro sync`: the tracked generated types.
            ".astro/content.d.ts": _as_types(["blog", "recipes"]),
            ".astro/settings.json": lines(
                "{", '\t"_variables": {', '\t\t"lastUpdateCheck": 1716285120000', "\t}", "}"
            ),
        }
    )
    s.checkpoint("recipes index renders")
    s.agent(
        {
            "src/pages/recipes/[...slug].astro": lines(
                "---",
                "import { type CollectionEntry, getCollection } from 'astro:content';",
                "import { Image } from 'astro:assets';",
                "import BaseLayout from '../../layouts/BaseLayout.astro';",
                "export async function getStaticPaths() {",
                "  const recipes = await getCollection('recipes');",
                "  return recipes.map((r) => ({ params: { slug: r.slug }, props: r }));",
                "}",
                "type Props = CollectionEntry<'recipes'>;",
                "const recipe = Astro.props;",
                "const { Content } = await recipe.render();",
                "const { title, servings, totalMinutes, ingredients, photo } = recipe.data;",
                "---",
                "<BaseLayout title={title} description={`${title}: serves ${servings}.`}>",
                "  {photo && <Image src={photo} alt={title} width={1020} />}",
                "  <h1>{title}</h1>",
                "  <p>Serves {servings} · {totalMinutes} minutes</p>",
                "  <ul>{ingredients.map((i) => <li>{i}</li>)}</ul>",
                "  <Content />",
                "</BaseLayout>",
            ),
            "src/components/Header.astro": _read(s, "src/components/Header.astro").replace(
                '    <a href="/blog">Journal</a>\n',
                '    <a href="/blog">Journal</a>\n    <a href="/recipes">Recipes</a>\n',
            ),
            "netlify.toml": _read(s, "netlify.toml").replace(
                'NODE_VERSION = "18"', 'NODE_VERSION = "22"'
            ),
            "tsconfig.json": lines(
                "{",
                '  "extends": "astro/tsconfigs/strictest",',
                '  "compilerOptions": { "noUncheckedIndexedAccess": true }',
                "}",
            ),
        }
    )
    s.checkpoint("recipe pages done")
    s.fine(
        "src/content/config.ts",
        "src/content/recipes/crème-brûlée.md",
        "src/content/recipes/shakshuka.md",
        "src/assets/recipes/creme-brulee.jpg",
        "src/pages/recipes/index.astro",
        "src/pages/recipes/[...slug].astro",
        "src/components/Header.astro",  # the nav link to the new section
    )
    s.drift("src/layouts/BlogPost.astro", "netlify.toml", "tsconfig.json")
    # .astro/ was committed by mistake (the Astro 1 ignore file lacks it); astro sync
    # rewrote it.
    s.excluded(".astro/content.d.ts", ".astro/settings.json")
    s.safe_checkpoint(before)
    s.note = (
        "three checkpoints; the first turn already held the BlogPost drift, so only the one "
        "before the work is clean; a non-ASCII recipe name; tracked .astro/ excluded"
    )


FRESH14: list[Scenario] = [
    Scenario(
        name="b14_nix_flake_nixos_module",
        build=_nix,
        held_out=False,
        about="Nix flake packaging a Rust CLI: a NixOS module, VM test, flake outputs and a "
        "README section; an unasked `nix flake update`, nixfmt of nix/package.nix and a CI "
        "action bump drift; the result symlink and .direnv/ excluded; checkpoints before, "
        "mid and after — mid safe",
        fresh=True,
        batch=14,
    ),
    Scenario(
        name="b14_crystal_empty_memory_tables",
        build=_crystal,
        held_out=False,
        about="Crystal shard, empty memory: Spanish and Polish tables, a --separator flag, a "
        "non-ASCII fixture, ameba in shard.yml/shard.lock and CI — all in scope; bin/ameba "
        "and a Mac binary with its .dwarf excluded; no checkpoint",
        fresh=True,
        batch=14,
    ),
    Scenario(
        name="b14_nim_pgn_comments_nags",
        build=_nim,
        held_out=False,
        about="Nim library: PGN comments and NAGs through lexer, tree, parser, writer and a "
        "test; the user's own tests/config.nims edit; a deleted skipped test and a nim>=2.0 "
        "bump in the .nimble drift; nimcache/ C files and test binaries excluded; the "
        "checkpoint before the work is safe",
        fresh=True,
        batch=14,
    ),
    Scenario(
        name="b14_rails_engine_csv_export",
        build=_rails,
        held_out=False,
        about="Rails engine gem: CSV export (model, controller, test, csv dependency and "
        "Gemfile.lock) and the deprecated LegacyExport deleted as asked; the user's own "
        "dummy-app database.yml edit; rubocop -a of a neighbour controller, a CI matrix cut "
        "and .rubocop.yml drift; a built .gem and coverage/ excluded; mid checkpoint safe",
        fresh=True,
        batch=14,
    ),
    Scenario(
        name="b14_svelte_tooltip_to_popover",
        build=_svelte,
        held_out=False,
        about="Svelte component library: git mv of Tooltip to Popover (component, test, docs "
        "page) with edits, the export, nav and a changeset in scope; a Dialog 'fix', CI node "
        "bump and .prettierrc drift; svelte-package output in package/ excluded; the only "
        "checkpoint came after the drift — the commit is safe",
        fresh=True,
        batch=14,
    ),
    Scenario(
        name="b14_blazor_kiota_invoices",
        build=_blazor,
        held_out=False,
        about="Blazor WebAssembly: customer invoices page, spec, link, test and a spaced-name "
        "PNG; a neighbouring Customers page, production appsettings.json and global.json "
        "drift; a checked-in Kiota client regenerated by a newer Kiota (generated flood) "
        "excluded; no checkpoint",
        fresh=True,
        batch=14,
    ),
    Scenario(
        name="b14_sphinx_opendap_howto",
        build=_sphinx,
        held_out=False,
        about="Sphinx docs: a NetCDF API entry, an OPeNDAP how-to with a figure, its toctree "
        "entry and an intersphinx mapping; a deleted legacy page, a docs requirements bump "
        "and a Read the Docs image bump drift; autosummary stubs excluded; checkpoints "
        "before and after the first (mixed) turn — before safe",
        fresh=True,
        batch=14,
    ),
    Scenario(
        name="b14_foundry_withdrawal_fee",
        build=_foundry,
        held_out=False,
        about="Solidity Foundry: withdrawal fee in Vault, interface, tests, deploy script and "
        ".env.example; a deleted invariant test, optimizer/via-IR settings and a floating "
        "toolchain drift; out/ and cache/ tracked by mistake and rebuilt, a dry-run "
        "broadcast, excluded; mid checkpoint safe",
        fresh=True,
        batch=14,
    ),
    Scenario(
        name="b14_swift_stale_retry_policy",
        build=_swift,
        held_out=False,
        about="Swift package, stale intent (async variants, committed weeks ago): a retry "
        "policy, its use in HTTPClient, tests and a DocC article in scope; a git mv without "
        "edits, swift package update of Package.resolved and .swift-format drift; "
        ".swiftpm/ excluded; the only checkpoint predates two commits — commit safe",
        fresh=True,
        batch=14,
    ),
    Scenario(
        name="b14_astro_recipes_collection",
        build=_astro,
        held_out=False,
        about="Astro content site: a recipes collection (schema, a non-ASCII recipe, a JPEG, "
        "index and page, nav link); a BlogPost layout 'fix', Netlify Node bump and strictest "
        "tsconfig drift; tracked .astro/ types excluded; three checkpoints — the one before "
        "the work is safe",
        fresh=True,
        batch=14,
    ),
]
