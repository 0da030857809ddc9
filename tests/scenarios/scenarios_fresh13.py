"""Fresh scenarios, batch 13: ten agent sessions on stacks no earlier batch covered —
a Julia package, a Spring Boot service on Gradle's Kotlin DSL with checked-in OpenAPI
sources, a Go monorepo with sqlc, an Elixir umbrella, a MkDocs site, a Vue 3 + Vite app
with Pinia, Terraform modules, a Dart shelf server, a Perl/CPAN distribution and a
Fortran/CMake solver.

Written blind, after the twelfth batch, without looking at the advisor's rules: each
label is what a careful reviewer says reading the intent and the diff. Across the batch:
renames through ``git mv`` (one with edits, in scope; one without, drift), deleted files
(drift and in scope), names with a space and with non-ASCII letters, binary assets, the
user's own hand edits, empty memory (every change in scope, nothing drift), a stale
intent, a generated flood, lock files moving with and without a reason, build output
tracked by mistake, and checkpoints before the work, mid-session, after a drift, several
and none. The safe point is always the newest checkpoint none of the drift has reached
(the commit when there is none, or when the only clean checkpoints would undo committed
work).
"""

from __future__ import annotations

from collections.abc import Mapping
from hashlib import sha256

from scenario_kit import ELF, PNG, Scenario, Scene, lines
from vibflow_testing.git import run_git
from vibflow_testing.repo import write

#: A WebP (RIFF/WEBP, VP8L chunk) and some bytes: an illustration a web app ships.
WEBP = b"RIFF\x5a\x01\x00\x00WEBPVP8L\x4d\x01\x00\x00\x2f\x3f\xc0\x0f" + bytes(range(3, 250, 4))
#: A Terraform plan file is a zip archive (``terraform plan -out=tfplan``).
TFPLAN = b"PK\x03\x04\x14\x00\x08\x00\x08\x00" + b"\x00" * 18 + b"tfplan" + bytes(range(80))
#: A compiled BEAM module (``FOR1`` IFF container), as ElixirLS leaves them.
BEAM = b"FOR1\x00\x00\x05\xa8BEAMAtU8\x00\x00\x01\x1c" + bytes(range(0, 200, 2))
#: A gzip stream: what MkDocs writes as ``sitemap.xml.gz``.
GZIP = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + bytes(range(30, 130))
#: An ICO header and some bytes.
ICO = b"\x00\x00\x01\x00\x01\x00\x10\x10\x00\x00\x01\x00 \x00" + bytes(range(60))


def _by_hand(s: Scene, files: Mapping[str, str | bytes]) -> None:
    """The user's own edit in the work tree: no agent turn, no hook sees it."""
    for rel, text in files.items():
        write(s.root, rel, text)


def _staged(s: Scene, *paths: str) -> None:
    """What ``git mv`` leaves besides the move: the index records it (both sides)."""
    run_git(s.root, "add", "-A", "--", *paths)


def _read(s: Scene, rel: str) -> str:
    return (s.root / rel).read_text(encoding="utf-8")


# -- 1. Julia package ----------------------------------------------------------------------------

_JL_PKGS = {
    # Each package: its uuid and its own dependencies.
    "Adapt": ("79e6a3ab-5dfb-504d-930d-738a2a938a0e", '["LinearAlgebra", "Requires"]'),
    "OffsetArrays": ("6fe1bfb0-de20-5000-8ca7-80f57d26f881", ""),
    "PrecompileTools": ("aea7be01-6a6a-4083-8856-8a6e6704d82a", '["Preferences"]'),
    "Preferences": ("21216c6a-2e73-6563-6e65-726566657250", '["TOML"]'),
    "Requires": ("ae029012-a4dd-5104-9daa-d747884805df", '["UUIDs"]'),
    "StaticArrays": (
        "90137ffa-7385-5640-81b9-e52037218182",
        '["LinearAlgebra", "PrecompileTools", "Random", "StaticArraysCore"]',
    ),
    "StaticArraysCore": ("1e83bf80-4336-4d27-bf5d-d5a4f845583c", ""),
}

_JL_STDLIBS = {
    "LinearAlgebra": "37e2e46d-f89d-539d-b4ee-838fcccc9c8e",
    "Random": "9a3f8284-a2c9-5f02-9a11-845980a1fd5c",
    "TOML": "fa267f1f-6049-4f14-aa54-33bafae1ed76",
    "UUIDs": "cf7118a7-6976-5b1a-9a39-7adc72f591a4",
}


def _jl_manifest(versions: Mapping[str, tuple[str, str]], julia: str) -> str:
    """Manifest.toml as Pkg writes it; ``versions``: name -> (version, git-tree-sha1)."""
    out = [
        "# This file is machine-generated - editing it directly is not advised",
        "",
        f'julia_version = "{julia}"',
        'manifest_format = "2.0"',
        'project_hash = "3c1d8e2f0a5b7c9d1e3f5a7b9c0d2e4f6a8b0c1d"',
    ]
    for name, (uuid, deps) in _JL_PKGS.items():
        version, sha = versions[name]
        out += ["", f"[[deps.{name}]]"]
        if deps:
            out.append(f"deps = {deps}")
        out += [f'git-tree-sha1 = "{sha}"', f'uuid = "{uuid}"', f'version = "{version}"']
    for std, uuid in _JL_STDLIBS.items():
        out += ["", f"[[deps.{std}]]", f'uuid = "{uuid}"']
    return lines(*out)


_JL_OLD = {
    "Adapt": ("4.0.1", "cde29ddf7e5726c9fb511f340244ea3481267608"),
    "OffsetArrays": ("1.12.10", "2ac17d29c523ce1cd38e27785a7d23024853a4bb"),
    "PrecompileTools": ("1.2.0", "03b4c25b43cb84cee5c90aa9b5ea0a78fd848d2f"),
    "Preferences": ("1.4.1", "00805cd429dcb4870060ff49ef443486c262e38e"),
    "Requires": ("1.3.0", "838a3a4188e2ded87a4f9f184b4b0d78a1e91cb7"),
    "StaticArrays": ("1.9.0", "5ef59aea6f18c25168842bded46b16662141ab87"),
    "StaticArraysCore": ("1.4.2", "36b3d696ce6366023a0ea192b4cd442268995a0f"),
}
_JL_NEW = {
    **_JL_OLD,
    "Adapt": ("4.0.4", "6a55b747d1812e699320963ffde36f1ebdda4099"),
    "OffsetArrays": ("1.14.0", "e64b4f5ea6b7389f6f046d13d4896a8f9c1ba71e"),
    "StaticArrays": ("1.9.3", "bf074c045d3d5ffd956fa0a461da38a44685d6b2"),
    "StaticArraysCore": ("1.4.3", "192954ef1208c7019899fbf8049e717f92959682"),
}

_JL_PCHIP = lines(
    '"""',
    "    pchip(x, y)",
    "",
    "Piecewise cubic Hermite interpolation (Fritsch-Carlson): monotone data stays monotone.",
    '"""',
    "function pchip(x::AbstractVector, y::AbstractVector)",
    "    checkgrid(x, y)",
    "    n = length(x)",
    "    h = diff(x); δ = diff(y) ./ h",
    "    d = similar(y, float(eltype(y)))",
    "    d[1] = δ[1]; d[n] = δ[n-1]",
    "    for k in 2:n-1",
    "        if sign(δ[k-1]) != sign(δ[k]) || δ[k-1] == 0 || δ[k] == 0",
    "            d[k] = 0",
    "        else",
    "            w1 = 2h[k] + h[k-1]; w2 = h[k] + 2h[k-1]",
    "            d[k] = (w1 + w2) / (w1/δ[k-1] + w2/δ[k])",
    "        end",
    "    end",
    "    return HermiteSpline(x, y, d)",
    "end",
)

# JuliaFormatter with the repository's own .JuliaFormatter.toml (style = "blue") over a
# file the Akima work never touches.
_JL_PCHIP_FORMATTED = lines(
    '"""',
    "    pchip(x, y)",
    "",
    "Piecewise cubic Hermite interpolation (Fritsch-Carlson): monotone data stays monotone.",
    '"""',
    "function pchip(x::AbstractVector, y::AbstractVector)",
    "    checkgrid(x, y)",
    "    n = length(x)",
    "    h = diff(x)",
    "    δ = diff(y) ./ h",
    "    d = similar(y, float(eltype(y)))",
    "    d[1] = δ[1]",
    "    d[n] = δ[n - 1]",
    "    for k in 2:(n - 1)",
    "        if sign(δ[k - 1]) != sign(δ[k]) || δ[k - 1] == 0 || δ[k] == 0",
    "            d[k] = 0",
    "        else",
    "            w1 = 2h[k] + h[k - 1]",
    "            w2 = h[k] + 2h[k - 1]",
    "            d[k] = (w1 + w2) / (w1 / δ[k - 1] + w2 / δ[k])",
    "        end",
    "    end",
    "    return HermiteSpline(x, y, d)",
    "end",
)

_JL_AKIMA = lines(
    '"""',
    "    akima(x, y)",
    "",
    "Akima's 1970 spline: local slopes from a weighted average of neighbouring secants,",
    "so an outlier does not ripple through the whole curve as with a cubic spline.",
    '"""',
    "function akima(x::AbstractVector, y::AbstractVector)",
    "    checkgrid(x, y)",
    "    n = length(x)",
    '    n >= 5 || throw(ArgumentError("akima needs at least 5 points, got $n"))',
    "    m = OffsetVector(zeros(float(eltype(y)), n + 3), -1:n+1)",
    "    for k in 1:n-1",
    "        m[k] = (y[k+1] - y[k]) / (x[k+1] - x[k])",
    "    end",
    "    m[0] = 2m[1] - m[2]; m[-1] = 2m[0] - m[1]",
    "    m[n] = 2m[n-1] - m[n-2]; m[n+1] = 2m[n] - m[n-1]",
    "    d = similar(y, float(eltype(y)))",
    "    for k in 1:n",
    "        w1 = abs(m[k+1] - m[k]); w2 = abs(m[k-1] - m[k-2])",
    "        d[k] = w1 + w2 == 0 ? (m[k-1] + m[k]) / 2 : (w1 * m[k-1] + w2 * m[k]) / (w1 + w2)",
    "    end",
    "    return HermiteSpline(x, y, d)",
    "end",
)


def _jl_cov(src: str) -> str:
    """A Julia coverage file (``Pkg.test(coverage=true)``): each line with its count,
    ``-`` for lines that run no code (docstrings, comments, ``end``, signatures)."""
    out = []
    in_doc = False
    for line in src.splitlines():
        bare = line.strip()
        if bare.startswith('"""'):
            in_doc = not in_doc
            silent = True
        else:
            silent = in_doc or not bare or bare.startswith(("#", "end", "function"))
        out.append(("        - " if silent else "        7 ") + line)
    return lines(*out)


def _julia_files() -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        # The PkgTemplates ignore file of 2021, before it learnt the coverage files.
        ".gitignore": lines("/docs/build/", "/docs/Manifest.toml"),
        ".JuliaFormatter.toml": lines('style = "blue"', "margin = 92"),
        "Project.toml": lines(
            'name = "SplineKit"',
            'uuid = "6f1c8a52-3e0b-4d7e-9a41-2b7c9d0e5f13"',
            'authors = ["Ines Okafor <ines.okafor@example.org>"]',
            'version = "0.6.2"',
            "",
            "[deps]",
            'LinearAlgebra = "37e2e46d-f89d-539d-b4ee-838fcccc9c8e"',
            'OffsetArrays = "6fe1bfb0-de20-5000-8ca7-80f57d26f881"',
            'StaticArrays = "90137ffa-7385-5640-81b9-e52037218182"',
            "",
            "[compat]",
            'OffsetArrays = "1.12"',
            'StaticArrays = "1.6"',
            'julia = "1.9"',
            "",
            "[extras]",
            'Test = "8dfed614-e22c-5e08-85e1-65c5234f0b40"',
            "",
            "[targets]",
            'test = ["Test"]',
        ),
        # Checked in on purpose: the lab's figures must rebuild with the same packages.
        "Manifest.toml": _jl_manifest(_JL_OLD, "1.10.2"),
        "src/SplineKit.jl": lines(
            "module SplineKit",
            "",
            "using LinearAlgebra",
            "using OffsetArrays",
            "using StaticArrays",
            "",
            'include("types.jl")',
            'include("utils.jl")',
            'include("linear.jl")',
            'include("cubic.jl")',
            'include("pchip.jl")',
            'include("hermite.jl")',
            'include("extrapolation.jl")',
            'include("derivatives.jl")',
            'include("integrate.jl")',
            "",
            "export linear, cubic, pchip, derivative, integrate, Flat, Linear, Throw",
            "",
            "end # module",
        ),
        "src/types.jl": lines(
            "abstract type AbstractSpline{T} end",
            "",
            "struct HermiteSpline{T,V<:AbstractVector{T}} <: AbstractSpline{T}",
            "    x::V",
            "    y::V",
            "    d::V",
            "end",
            "",
            "struct PiecewiseLinear{T,V<:AbstractVector{T}} <: AbstractSpline{T}",
            "    x::V",
            "    y::V",
            "end",
        ),
        "src/utils.jl": lines(
            "function checkgrid(x, y)",
            '    length(x) == length(y) || throw(DimensionMismatch("x and y differ in length"))',
            '    issorted(x; lt=<=) || throw(ArgumentError("x must be strictly increasing"))',
            "    return nothing",
            "end",
            "",
            "interval(x, t) = clamp(searchsortedlast(x, t), 1, length(x) - 1)",
        ),
        "src/linear.jl": lines(
            "linear(x, y) = (checkgrid(x, y); PiecewiseLinear(x, y))",
            "",
            "function (s::PiecewiseLinear)(t)",
            "    k = interval(s.x, t)",
            "    θ = (t - s.x[k]) / (s.x[k+1] - s.x[k])",
            "    return (1 - θ) * s.y[k] + θ * s.y[k+1]",
            "end",
        ),
        "src/cubic.jl": lines(
            '"""',
            "    cubic(x, y; bc=:natural)",
            "",
            "Cubic spline through the data, natural or not-a-knot end conditions.",
            '"""',
            "function cubic(x::AbstractVector, y::AbstractVector; bc=:natural)",
            "    checkgrid(x, y)",
            "    h = diff(x)",
            "    A = SymTridiagonal(2 .* (h[1:end-1] .+ h[2:end]), h[2:end-1])",
            "    r = 6 .* diff(diff(y) ./ h)",
            "    M = [0; A \\ r; 0]",
            "    d = diff(y) ./ h .- h .* (2 .* M[1:end-1] .+ M[2:end]) ./ 6",
            "    return HermiteSpline(x, y, [d; d[end] + h[end] * (M[end-1] + M[end]) / 2])",
            "end",
        ),
        "src/pchip.jl": _JL_PCHIP,
        "src/hermite.jl": lines(
            "function (s::HermiteSpline)(t)",
            "    k = interval(s.x, t)",
            "    h = s.x[k+1] - s.x[k]",
            "    θ = (t - s.x[k]) / h",
            "    h00 = (1 + 2θ) * (1 - θ)^2; h10 = θ * (1 - θ)^2",
            "    h01 = θ^2 * (3 - 2θ); h11 = θ^2 * (θ - 1)",
            "    return h00 * s.y[k] + h10 * h * s.d[k] + h01 * s.y[k+1] + h11 * h * s.d[k+1]",
            "end",
        ),
        "src/extrapolation.jl": lines(
            "abstract type Extrapolation end",
            "struct Flat <: Extrapolation end",
            "struct Linear <: Extrapolation end",
            "struct Throw <: Extrapolation end",
        ),
        "src/derivatives.jl": lines(
            "function derivative(s::HermiteSpline, t)",
            "    k = interval(s.x, t)",
            "    h = s.x[k+1] - s.x[k]; θ = (t - s.x[k]) / h",
            "    return (6θ^2 - 6θ) * (s.y[k] - s.y[k+1]) / h + (3θ^2 - 4θ + 1) * s.d[k] +",
            "           (3θ^2 - 2θ) * s.d[k+1]",
            "end",
        ),
        "src/integrate.jl": lines(
            "function integrate(s::HermiteSpline)",
            "    h = diff(s.x)",
            "    return sum(h .* (s.y[1:end-1] .+ s.y[2:end]) ./ 2 .+",
            "               h .^ 2 .* (s.d[1:end-1] .- s.d[2:end]) ./ 12)",
            "end",
        ),
        "test/runtests.jl": lines(
            "using SplineKit",
            "using Test",
            "",
            '@testset "SplineKit" begin',
            '    include("test_linear.jl")',
            '    include("test_cubic.jl")',
            '    include("test_pchip.jl")',
            '    include("test_derivatives.jl")',
            '    include("test_integrate.jl")',
            '    include("test_grid.jl")',
            "end",
        ),
        "docs/Project.toml": lines(
            "[deps]",
            'Documenter = "e30172f5-a6a5-5a46-863b-614d45cd2de4"',
            'SplineKit = "6f1c8a52-3e0b-4d7e-9a41-2b7c9d0e5f13"',
        ),
        "docs/make.jl": lines(
            "using Documenter, SplineKit",
            'makedocs(sitename="SplineKit.jl", modules=[SplineKit],',
            '         pages=["Home" => "index.md", "Methods" => "methods.md",',
            '                "Tutorial" => "tutorial.md", "API" => "api.md"])',
            'deploydocs(repo="github.com/okafor-lab/SplineKit.jl.git")',
        ),
        "docs/src/index.md": lines("# SplineKit.jl", "", "One-dimensional interpolation."),
        "docs/src/methods.md": lines(
            "# Methods",
            "",
            "## Linear",
            "Straight segments between samples.",
            "",
            "## Cubic",
            "Twice differentiable; overshoots near steps.",
            "",
            "## PCHIP",
            "Monotone where the data are.",
        ),
        "docs/src/tutorial.md": lines(
            "# Tutorial", "", "```julia", "s = pchip(x, y)", "s(0.5)", "```"
        ),
        "docs/src/api.md": lines(
            "# API",
            "",
            "```@docs",
            "linear",
            "cubic",
            "pchip",
            "derivative",
            "integrate",
            "```",
        ),
        "benchmark/benchmarks.jl": lines(
            "using BenchmarkTools, SplineKit",
            "const SUITE = BenchmarkGroup()",
            "x = range(0, 1, length=1000); y = sin.(2π .* x)",
            'SUITE["pchip"] = @benchmarkable pchip($x, $y)',
            'SUITE["cubic"] = @benchmarkable cubic($x, $y)',
        ),
        "benchmark/Project.toml": lines(
            "[deps]", 'BenchmarkTools = "6e4b80f9-dd63-53aa-95a3-0cdb28fa8baf"'
        ),
        ".github/workflows/CI.yml": lines(
            "name: CI",
            "on:",
            "  push:",
            "    branches: [main]",
            "  pull_request:",
            "jobs:",
            "  test:",
            "    runs-on: ${{ matrix.os }}",
            "    strategy:",
            "      matrix:",
            "        version: ['1.9', '1']",
            "        os: [ubuntu-latest, macos-latest]",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - uses: julia-actions/setup-julia@v1",
            "        with:",
            "          version: ${{ matrix.version }}",
            "      - uses: julia-actions/julia-buildpkg@v1",
            "      - uses: julia-actions/julia-runtest@v1",
        ),
        ".github/workflows/TagBot.yml": lines(
            "name: TagBot",
            "on:",
            "  issue_comment:",
            "    types: [created]",
            "jobs:",
            "  TagBot:",
            "    runs-on: ubuntu-latest",
            "    steps:",
            "      - uses: JuliaRegistries/TagBot@v1",
            "        with:",
            "          token: ${{ secrets.GITHUB_TOKEN }}",
        ),
        ".github/workflows/CompatHelper.yml": lines(
            "name: CompatHelper",
            "on:",
            "  schedule:",
            "    - cron: 0 0 * * *",
            "jobs:",
            "  CompatHelper:",
            "    runs-on: ubuntu-latest",
            "    steps:",
            "      - run: julia -e 'using Pkg; Pkg.add(\"CompatHelper\")'",
            "      - run: julia -e 'using CompatHelper; CompatHelper.main()'",
        ),
        ".github/workflows/Documenter.yml": lines(
            "name: Documentation",
            "on:",
            "  push:",
            "    branches: [main]",
            "jobs:",
            "  build:",
            "    runs-on: ubuntu-latest",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - uses: julia-actions/setup-julia@v1",
            "      - run: julia --project=docs docs/make.jl",
        ),
        "README.md": lines(
            "# SplineKit.jl",
            "",
            "[![CI](https://github.com/okafor-lab/SplineKit.jl/actions/workflows/CI.yml/badge.svg)]"
            "(https://github.com/okafor-lab/SplineKit.jl/actions)",
            "",
            "Linear, cubic and PCHIP interpolation on one-dimensional grids.",
        ),
        "CITATION.bib": lines(
            "@misc{SplineKit,",
            "  author = {Okafor, Ines},",
            "  title = {SplineKit.jl},",
            "  year = {2023}",
            "}",
        ),
        "LICENSE": lines("MIT License", "", "Copyright (c) 2023 Ines Okafor"),
    }
    for name, body in {
        "linear": "@test linear([0.0, 1.0], [0.0, 2.0])(0.25) ≈ 0.5",
        "cubic": "@test cubic(0:0.5:2, (0:0.5:2) .^ 2)(1.0) ≈ 1.0 atol = 1e-2",
        "pchip": "@test issorted(pchip(0:4, [0, 1, 1, 2, 5]).(0:0.1:4))",
        "derivatives": "@test derivative(pchip(0:3, [0, 1, 2, 3]), 1.5) ≈ 1.0",
        "integrate": "@test integrate(pchip(0:2, [1, 1, 1])) ≈ 2.0",
        "grid": "@test_throws ArgumentError linear([1.0, 0.0], [0.0, 1.0])",
    }.items():
        files[f"test/test_{name}.jl"] = lines(f'@testset "{name}" begin', f"    {body}", "end")
    for name, call in {
        "01_basics": "s = linear(x, y)",
        "02_monotone": "s = pchip(x, y)",
        "03_natural_cubic": "s = cubic(x, y; bc=:natural)",
        "04_derivatives": "ds = derivative.(Ref(pchip(x, y)), xs)",
        "05_area": "A = integrate(pchip(x, y))",
        "06_extrapolation": "s = pchip(x, y); s(-0.1)",
    }.items():
        files[f"examples/{name}.jl"] = lines(
            "using SplineKit", "x = [0.0, 0.4, 1.1, 1.9, 3.0]; y = [1.0, 0.7, 0.9, 2.4, 2.5]", call
        )
    return files


def _julia(s: Scene) -> None:
    s.commit("SplineKit: linear, cubic and pchip", _julia_files(), days_ago=120)
    s.commit(
        "hermite: evaluation shared by cubic and pchip",
        {"docs/src/tutorial.md": _read(s, "docs/src/tutorial.md") + "Derivatives too.\n"},
        days_ago=40,
    )
    s.commit(
        "CI: test on macOS too",
        {"README.md": _read(s, "README.md") + "\nTested on Linux and macOS.\n"},
        days_ago=9,
    )
    s.intent(
        "Add Akima spline interpolation: akima(x, y), exported, with tests and a section in "
        "the docs",
        {"src/SplineKit.jl": "the module: includes and exports"},
        hours_ago=3,
    )
    s.checkpoint("before akima")
    s.agent(
        {
            "src/akima.jl": _JL_AKIMA,
            "src/SplineKit.jl": _read(s, "src/SplineKit.jl")
            .replace('include("pchip.jl")\n', 'include("pchip.jl")\ninclude("akima.jl")\n')
            .replace("export linear, cubic, pchip,", "export linear, cubic, pchip, akima,"),
            "test/test_akima.jl": lines(
                '@testset "akima" begin',
                "    x = [0.0, 1, 2, 3, 4, 5]; y = [0.0, 0, 0, 1, 1, 1]",
                "    s = akima(x, y)",
                "    @test s.(x) ≈ y",
                "    @test all(0 .<= s.(0:0.1:5) .<= 1)  # no overshoot at the step",
                "    @test_throws ArgumentError akima(0:3, 0:3)",
                "end",
            ),
            "test/runtests.jl": _read(s, "test/runtests.jl").replace(
                '    include("test_pchip.jl")\n',
                '    include("test_pchip.jl")\n    include("test_akima.jl")\n',
            ),
        }
    )
    mid = s.checkpoint("akima passes its tests")
    s.agent(
        {
            "docs/src/methods.md": _read(s, "docs/src/methods.md")
            + lines("", "## Akima", "Local slopes; an outlier does not ripple through the curve."),
            "docs/src/api.md": _read(s, "docs/src/api.md").replace("pchip\n", "pchip\nakima\n"),
            # `Pkg.update()` "while at it": every dependency moved, and Akima needs no
            # new package. The lab pins the Manifest so its figures rebuild exactly.
            "Manifest.toml": _jl_manifest(_JL_NEW, "1.10.4"),
            "src/pchip.jl": _JL_PCHIP_FORMATTED,
            ".github/workflows/CI.yml": _read(s, ".github/workflows/CI.yml")
            .replace("julia-actions/setup-julia@v1", "julia-actions/setup-julia@v2")
            .replace("version: ['1.9', '1']", "version: ['1.10', '1']"),
            # `Pkg.test(coverage=true)`: the 2021 ignore file predates these.
            "src/akima.jl.48213.cov": _jl_cov(_JL_AKIMA),
            "src/SplineKit.jl.48213.cov": _jl_cov(_read(s, "src/SplineKit.jl")),
            "src/pchip.jl.48213.cov": _jl_cov(_JL_PCHIP),
        }
    )
    s.checkpoint("docs written")
    s.fine(
        "src/akima.jl",
        "src/SplineKit.jl",
        "test/test_akima.jl",
        "test/runtests.jl",
        "docs/src/methods.md",
        "docs/src/api.md",
    )
    # Manifest.toml is written by Pkg, but it is the project's pinned environment, not
    # a build product: an unasked `Pkg.update()` is a change a reviewer undoes.
    s.drift("Manifest.toml", "src/pchip.jl", ".github/workflows/CI.yml")
    s.excluded("src/akima.jl.48213.cov", "src/SplineKit.jl.48213.cov", "src/pchip.jl.48213.cov")
    s.safe_checkpoint(mid)
    s.note = "three checkpoints: before, mid (clean) and after the drift; the mid one is safe"


# -- 2. Spring Boot, Gradle Kotlin DSL, checked-in OpenAPI sources --------------------------------

_OA_OLD = "2024-04-02T14:07:51.482317+02:00[Europe/Berlin]"
_OA_NEW = "2024-05-21T09:41:12.904183+02:00[Europe/Berlin]"
_OA_GEN = "generated/src/main/java/com/acme/orders/api"
_OA_APP = "src/main/java/com/acme/orders"

#: The spec's schemas: name -> (field, Java type) pairs.
_OA_MODELS: dict[str, list[tuple[str, str]]] = {
    "Address": [("line1", "String"), ("city", "String"), ("postcode", "String")],
    "AuditEntry": [("at", "OffsetDateTime"), ("actor", "String"), ("action", "String")],
    "CreateCustomerRequest": [("name", "String"), ("email", "String")],
    "CreateOrderRequest": [("customerId", "UUID"), ("lines", "List<OrderLine>")],
    "CreateProductRequest": [("sku", "String"), ("name", "String"), ("price", "Money")],
    "Currency": [("code", "String")],
    "Customer": [("id", "UUID"), ("name", "String"), ("email", "String")],
    "CustomerPage": [("items", "List<Customer>"), ("meta", "PageMeta")],
    "Discount": [("code", "String"), ("percent", "Integer")],
    "Invoice": [("id", "UUID"), ("orderId", "UUID"), ("total", "Money")],
    "InvoiceLine": [("description", "String"), ("amount", "Money")],
    "Money": [("amount", "BigDecimal"), ("currency", "Currency")],
    "Note": [("text", "String"), ("author", "String")],
    "Order": [("id", "UUID"), ("customerId", "UUID"), ("status", "OrderStatus")],
    "OrderLine": [("sku", "String"), ("quantity", "Integer"), ("price", "Money")],
    "OrderPage": [("items", "List<Order>"), ("meta", "PageMeta")],
    "OrderStatus": [("value", "String")],
    "PageMeta": [("page", "Integer"), ("size", "Integer"), ("total", "Long")],
    "PaymentMethod": [("kind", "String"), ("last4", "String")],
    "PaymentStatus": [("value", "String")],
    "Problem": [("type", "URI"), ("title", "String"), ("status", "Integer")],
    "Product": [("id", "UUID"), ("sku", "String"), ("name", "String")],
    "ProductPage": [("items", "List<Product>"), ("meta", "PageMeta")],
    "Refund": [("id", "UUID"), ("orderId", "UUID"), ("amount", "Money")],
    "RefundRequest": [("amount", "Money"), ("reason", "String")],
    "TaxLine": [("rate", "BigDecimal"), ("amount", "Money")],
    "UpdateCustomerRequest": [("name", "String"), ("email", "String")],
    "UpdateOrderRequest": [("status", "OrderStatus"), ("note", "Note")],
    "ValidationError": [("field", "String"), ("message", "String")],
}
_OA_SHIPMENT: dict[str, list[tuple[str, str]]] = {
    "Shipment": [("id", "UUID"), ("carrier", "String"), ("trackingCode", "String")],
    "ShipmentStatus": [("value", "String")],
}
_OA_APIS = {
    "OrdersApi": ("orders", ["listOrders", "getOrder", "createOrder", "updateOrder"]),
    "CustomersApi": ("customers", ["listCustomers", "getCustomer", "createCustomer"]),
    "ProductsApi": ("products", ["listProducts", "getProduct", "createProduct"]),
    "RefundsApi": ("refunds", ["createRefund", "getRefund"]),
}


def _oa_model(name: str, fields: list[tuple[str, str]], date: str) -> str:
    """A model as openapi-generator's `spring` generator writes it (trimmed)."""
    body = []
    for field, kind in fields:
        body += [
            f"  private {kind} {field};",
            "",
            f'  @Schema(name = "{field}", requiredMode = Schema.RequiredMode.NOT_REQUIRED)',
            f'  @JsonProperty("{field}")',
            f"  public {kind} get{field[0].upper()}{field[1:]}() {{",
            f"    return {field};",
            "  }",
            "",
        ]
    return lines(
        "package com.acme.orders.api.model;",
        "",
        "import java.net.URI;",
        "import java.util.Objects;",
        "import com.fasterxml.jackson.annotation.JsonProperty;",
        "import jakarta.validation.Valid;",
        "import jakarta.validation.constraints.*;",
        "import io.swagger.v3.oas.annotations.media.Schema;",
        "",
        "",
        "import java.util.*;",
        "import jakarta.annotation.Generated;",
        "",
        "/**",
        f" * {name}",
        " */",
        "",
        f'@Generated(value = "org.openapitools.codegen.languages.SpringCodegen", date = "{date}", comments = "Generator version: 7.4.0")',  # noqa: E501
        f"public class {name} {{",
        "",
        *body,
        "}",
    )


def _oa_api(name: str, tag: str, ops: list[str], date: str) -> str:
    """An API interface as the `spring` generator writes it with interfaceOnly."""
    methods = []
    for op in ops:
        methods += [
            "    @Operation(",
            f'        operationId = "{op}",',
            f'        tags = {{ "{tag}" }}',
            "    )",
            f"    ResponseEntity<?> {op}(@Valid NativeWebRequest request);",
            "",
        ]
    return lines(
        "/**",
        " * NOTE: This class is auto generated by OpenAPI Generator (https://openapi-generator.tech) (7.4.0).",  # noqa: E501
        " * https://openapi-generator.tech",
        " * Do not edit the class manually.",
        " */",
        "package com.acme.orders.api;",
        "",
        "import com.acme.orders.api.model.*;",
        "import io.swagger.v3.oas.annotations.Operation;",
        "import io.swagger.v3.oas.annotations.tags.Tag;",
        "import org.springframework.http.ResponseEntity;",
        "import org.springframework.validation.annotation.Validated;",
        "import org.springframework.web.context.request.NativeWebRequest;",
        "import jakarta.annotation.Generated;",
        "import jakarta.validation.Valid;",
        "",
        f'@Generated(value = "org.openapitools.codegen.languages.SpringCodegen", date = "{date}", comments = "Generator version: 7.4.0")',  # noqa: E501
        "@Validated",
        f'@Tag(name = "{tag}", description = "the {tag} API")',
        f"public interface {name} {{",
        "",
        *methods,
        "}",
    )


def _oa_generated(date: str, *, shipments: bool) -> dict[str, str]:
    models = {**_OA_MODELS, **(_OA_SHIPMENT if shipments else {})}
    out = {f"{_OA_GEN}/model/{m}.java": _oa_model(m, f, date) for m, f in models.items()}
    for api, (tag, ops) in _OA_APIS.items():
        extra = ["listShipments"] if shipments and api == "OrdersApi" else []
        out[f"{_OA_GEN}/{api}.java"] = _oa_api(api, tag, [*ops, *extra], date)
    out["generated/.openapi-generator/FILES"] = lines(
        ".openapi-generator-ignore",
        *sorted(p.removeprefix("generated/") for p in out),
    )
    return out


def _spring_files() -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        ".gitignore": lines(
            "HELP.md",
            ".gradle",
            "build/",
            "!gradle/wrapper/gradle-wrapper.jar",
            ".idea",
            "*.iml",
            "out/",
        ),
        "settings.gradle.kts": 'rootProject.name = "orders-service"\n',
        "build.gradle.kts": lines(
            "plugins {",
            "    java",
            '    id("org.springframework.boot") version "3.2.5"',
            '    id("io.spring.dependency-management") version "1.1.4"',
            '    id("org.openapi.generator") version "7.4.0"',
            "}",
            "",
            'group = "com.acme"',
            'version = "0.9.0-SNAPSHOT"',
            "",
            "java { toolchain { languageVersion = JavaLanguageVersion.of(21) } }",
            "",
            "repositories { mavenCentral() }",
            "",
            "dependencies {",
            '    implementation("org.springframework.boot:spring-boot-starter-web")',
            '    implementation("org.springframework.boot:spring-boot-starter-data-jpa")',
            '    implementation("org.springframework.boot:spring-boot-starter-validation")',
            '    implementation("org.springdoc:springdoc-openapi-starter-webmvc-ui:2.5.0")',
            '    implementation("org.flywaydb:flyway-core")',
            '    runtimeOnly("org.postgresql:postgresql")',
            '    testImplementation("org.springframework.boot:spring-boot-starter-test")',
            '    testImplementation("org.testcontainers:postgresql")',
            "}",
            "",
            "// The generated interfaces are checked in so that IDEs without a Gradle sync",
            "// and the API review see them; `./gradlew openApiGenerate` refreshes them.",
            "openApiGenerate {",
            '    generatorName = "spring"',
            '    inputSpec = "$projectDir/src/main/resources/openapi/orders.yaml"',
            '    outputDir = "$projectDir/generated"',
            '    apiPackage = "com.acme.orders.api"',
            '    modelPackage = "com.acme.orders.api.model"',
            '    configOptions = mapOf("interfaceOnly" to "true", "useSpringBoot3" to "true")',
            "}",
            "",
            'sourceSets { main { java { srcDir("generated/src/main/java") } } }',
            "",
            "tasks.withType<Test> { useJUnitPlatform() }",
        ),
        "gradle/wrapper/gradle-wrapper.properties": lines(
            "distributionBase=GRADLE_USER_HOME",
            "distributionPath=wrapper/dists",
            "distributionUrl=https\\://services.gradle.org/distributions/gradle-8.7-bin.zip",
            "zipStoreBase=GRADLE_USER_HOME",
            "zipStorePath=wrapper/dists",
        ),
        "gradlew": lines("#!/bin/sh", "# Gradle start up script for POSIX", 'exec java -jar "$0"'),
        "gradlew.bat": lines("@rem Gradle startup script for Windows", "@echo off"),
        "generated/.openapi-generator-ignore": lines(
            "# OpenAPI Generator Ignore", "pom.xml", "README.md", "**/ApiUtil.java"
        ),
        "generated/.openapi-generator/VERSION": "7.4.0\n",
        "src/main/resources/application.yml": lines(
            "spring:",
            "  application:",
            "    name: orders-service",
            "  datasource:",
            "    url: ${DB_URL:jdbc:postgresql://localhost:5432/orders}",
            "  jpa:",
            "    open-in-view: false",
            "logging:",
            "  level:",
            "    root: INFO",
        ),
        "src/main/resources/application-local.yml": lines(
            "spring:", "  datasource:", "    username: orders", "    password: orders"
        ),
        "src/main/resources/openapi/orders.yaml": lines(
            "openapi: 3.0.3",
            "info:",
            "  title: Orders API",
            "  version: 1.6.0",
            "paths:",
            "  /orders:",
            "    get:",
            "      operationId: listOrders",
            "      tags: [orders]",
            "  /orders/{orderId}:",
            "    get:",
            "      operationId: getOrder",
            "      tags: [orders]",
            "components:",
            "  schemas:",
            "    Order:",
            "      type: object",
            "      properties:",
            "        id: {type: string, format: uuid}",
            "        customerId: {type: string, format: uuid}",
            "        status: {$ref: '#/components/schemas/OrderStatus'}",
        ),
        f"{_OA_APP}/OrdersApplication.java": lines(
            "package com.acme.orders;",
            "",
            "import org.springframework.boot.SpringApplication;",
            "import org.springframework.boot.autoconfigure.SpringBootApplication;",
            "",
            "@SpringBootApplication",
            "public class OrdersApplication {",
            "    public static void main(String[] args) {",
            "        SpringApplication.run(OrdersApplication.class, args);",
            "    }",
            "}",
        ),
        f"{_OA_APP}/web/OrdersController.java": lines(
            "package com.acme.orders.web;",
            "",
            "import com.acme.orders.api.OrdersApi;",
            "import com.acme.orders.service.OrderService;",
            "import org.springframework.http.ResponseEntity;",
            "import org.springframework.web.bind.annotation.RestController;",
            "import org.springframework.web.context.request.NativeWebRequest;",
            "",
            "@RestController",
            "public class OrdersController implements OrdersApi {",
            "    private final OrderService orders;",
            "",
            "    public OrdersController(OrderService orders) {",
            "        this.orders = orders;",
            "    }",
            "",
            "    @Override",
            "    public ResponseEntity<?> listOrders(NativeWebRequest request) {",
            "        return ResponseEntity.ok(orders.page(request));",
            "    }",
            "}",
        ),
        f"{_OA_APP}/web/CustomersController.java": lines(
            "package com.acme.orders.web;",
            "",
            "import com.acme.orders.api.CustomersApi;",
            "import com.acme.orders.service.CustomerService;",
            "import org.springframework.http.ResponseEntity;",
            "import org.springframework.web.bind.annotation.RestController;",
            "import org.springframework.web.context.request.NativeWebRequest;",
            "",
            "@RestController",
            "public class CustomersController implements CustomersApi {",
            "    private final CustomerService customers;",
            "",
            "    public CustomersController(CustomerService customers) {",
            "        this.customers = customers;",
            "    }",
            "",
            "    @Override",
            "    public ResponseEntity<?> listCustomers(NativeWebRequest request) {",
            "        var page = customers.page(request);",
            "        return ResponseEntity.ok(page);",
            "    }",
            "}",
        ),
        f"{_OA_APP}/web/ProblemHandler.java": lines(
            "package com.acme.orders.web;",
            "",
            "import org.springframework.web.bind.annotation.RestControllerAdvice;",
            "import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;",  # noqa: E501
            "",
            "@RestControllerAdvice",
            "public class ProblemHandler extends ResponseEntityExceptionHandler {}",
        ),
        "src/test/java/com/acme/orders/OrdersApplicationTests.java": lines(
            "package com.acme.orders;",
            "",
            "import org.junit.jupiter.api.Test;",
            "import org.springframework.boot.test.context.SpringBootTest;",
            "",
            "@SpringBootTest",
            "class OrdersApplicationTests {",
            "    @Test",
            "    void contextLoads() {}",
            "}",
        ),
        "src/test/java/com/acme/orders/web/OrdersControllerTest.java": lines(
            "package com.acme.orders.web;",
            "",
            "import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;",  # noqa: E501
            "import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;",  # noqa: E501
            "",
            "import org.junit.jupiter.api.Test;",
            "import org.springframework.beans.factory.annotation.Autowired;",
            "import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;",
            "import org.springframework.test.web.servlet.MockMvc;",
            "",
            "@WebMvcTest(OrdersController.class)",
            "class OrdersControllerTest {",
            "    @Autowired MockMvc mvc;",
            "",
            "    @Test",
            "    void listsOrders() throws Exception {",
            '        mvc.perform(get("/orders")).andExpect(status().isOk());',
            "    }",
            "}",
        ),
        "Dockerfile": lines(
            "FROM eclipse-temurin:21-jre",
            "COPY build/libs/orders-service.jar /app.jar",
            'ENTRYPOINT ["java", "-jar", "/app.jar"]',
        ),
        "docker-compose.yml": lines(
            "services:",
            "  db:",
            "    image: postgres:16",
            "    environment:",
            "      POSTGRES_DB: orders",
            "      POSTGRES_USER: orders",
            "      POSTGRES_PASSWORD: orders",
        ),
        ".github/workflows/build.yml": lines(
            "name: build",
            "on: [push]",
            "jobs:",
            "  build:",
            "    runs-on: ubuntu-latest",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - uses: actions/setup-java@v4",
            "        with: {distribution: temurin, java-version: 21}",
            "      - uses: gradle/actions/setup-gradle@v3",
            "      - run: ./gradlew build",
        ),
        "README.md": lines(
            "# orders-service",
            "",
            "The Orders API. The contract is `src/main/resources/openapi/orders.yaml`;",
            "run `./gradlew openApiGenerate` after editing it and commit `generated/`.",
        ),
    }
    for entity, table in {
        "Order": "orders",
        "OrderLine": "order_lines",
        "Customer": "customers",
        "Product": "products",
        "Refund": "refunds",
    }.items():
        files[f"{_OA_APP}/domain/{entity}Entity.java"] = lines(
            "package com.acme.orders.domain;",
            "",
            "import jakarta.persistence.*;",
            "import java.util.UUID;",
            "",
            "@Entity",
            f'@Table(name = "{table}")',
            f"public class {entity}Entity {{",
            "    @Id UUID id;",
            "}",
        )
        files[f"{_OA_APP}/repo/{entity}Repository.java"] = lines(
            "package com.acme.orders.repo;",
            "",
            f"import com.acme.orders.domain.{entity}Entity;",
            "import java.util.UUID;",
            "import org.springframework.data.jpa.repository.JpaRepository;",
            "",
            f"public interface {entity}Repository extends JpaRepository<{entity}Entity, UUID> {{}}",
        )
    for service in ("Order", "Customer", "Product", "Refund"):
        files[f"{_OA_APP}/service/{service}Service.java"] = lines(
            "package com.acme.orders.service;",
            "",
            f"import com.acme.orders.repo.{service}Repository;",
            "import org.springframework.stereotype.Service;",
            "import org.springframework.web.context.request.NativeWebRequest;",
            "",
            "@Service",
            f"public class {service}Service {{",
            f"    private final {service}Repository repo;",
            "",
            f"    public {service}Service({service}Repository repo) {{",
            "        this.repo = repo;",
            "    }",
            "",
            "    public Object page(NativeWebRequest request) {",
            "        return repo.findAll();",
            "    }",
            "}",
        )
    for n, (name, sql) in enumerate(
        [
            ("customers", "create table customers (id uuid primary key, name text, email text);"),
            (
                "products",
                "create table products (id uuid primary key, sku text unique, name text);",
            ),
            ("orders", "create table orders (id uuid primary key, customer_id uuid, status text);"),
            ("order_lines", "create table order_lines (id uuid primary key, order_id uuid);"),
            (
                "refunds",
                "create table refunds (id uuid primary key, order_id uuid, amount numeric);",
            ),
            ("order_notes", "alter table orders add column note text;"),
        ],
        start=1,
    ):
        files[f"src/main/resources/db/migration/V{n}__{name}.sql"] = sql + "\n"
    files.update(_oa_generated(_OA_OLD, shipments=False))
    return files


def _spring(s: Scene) -> None:
    s.commit("orders-service: the Orders API on Spring Boot", _spring_files(), days_ago=90)
    s.commit(
        "refunds: POST /refunds",
        {"README.md": _read(s, "README.md") + "\nRefunds are partial or full.\n"},
        days_ago=12,
    )
    s.intent(
        "Shipment tracking: GET /orders/{orderId}/shipments in the OpenAPI spec, regenerate, "
        "and implement it (table, repository, service, controller, test)",
        {"src/main/resources/openapi/orders.yaml": "the API contract"},
        hours_ago=2,
    )
    spec = _read(s, "src/main/resources/openapi/orders.yaml")
    controller = _read(s, f"{_OA_APP}/web/OrdersController.java")
    generated = _oa_generated(_OA_NEW, shipments=True)
    s.agent(
        {
            "src/main/resources/openapi/orders.yaml": spec.replace(
                "components:\n",
                lines(
                    "  /orders/{orderId}/shipments:",
                    "    get:",
                    "      operationId: listShipments",
                    "      tags: [orders]",
                    "components:",
                ),
            )
            + lines(
                "    Shipment:",
                "      type: object",
                "      properties:",
                "        id: {type: string, format: uuid}",
                "        carrier: {type: string}",
                "        trackingCode: {type: string}",
                "    ShipmentStatus:",
                "      type: string",
                "      enum: [LABEL_CREATED, IN_TRANSIT, DELIVERED]",
            ),
            # `./gradlew openApiGenerate`: the generator stamps the date into every
            # @Generated annotation, so all 33 interfaces and models change, two are new.
            **generated,
            f"{_OA_APP}/web/OrdersController.java": controller.replace(
                "    private final OrderService orders;\n",
                "    private final OrderService orders;\n    private final ShipmentService shipments;\n",  # noqa: E501
            )
            .replace(
                "    public OrdersController(OrderService orders) {\n        this.orders = orders;\n",  # noqa: E501
                "    public OrdersController(OrderService orders, ShipmentService shipments) {\n"
                "        this.orders = orders;\n        this.shipments = shipments;\n",
            )
            .replace(
                "import com.acme.orders.service.OrderService;\n",
                "import com.acme.orders.service.OrderService;\n"
                "import com.acme.orders.service.ShipmentService;\n",
            )
            .removesuffix("}\n")
            + lines(
                "",
                "    @Override",
                "    public ResponseEntity<?> listShipments(NativeWebRequest request) {",
                '        var orderId = java.util.UUID.fromString(request.getParameter("orderId"));',
                "        return ResponseEntity.ok(shipments.forOrder(orderId));",
                "    }",
                "}",
            ),
            f"{_OA_APP}/domain/ShipmentEntity.java": lines(
                "package com.acme.orders.domain;",
                "",
                "import jakarta.persistence.*;",
                "import java.util.UUID;",
                "",
                "@Entity",
                '@Table(name = "shipments")',
                "public class ShipmentEntity {",
                "    @Id UUID id;",
                "    UUID orderId;",
                "    String carrier;",
                "    String trackingCode;",
                "}",
            ),
            f"{_OA_APP}/repo/ShipmentRepository.java": lines(
                "package com.acme.orders.repo;",
                "",
                "import com.acme.orders.domain.ShipmentEntity;",
                "import java.util.List;",
                "import java.util.UUID;",
                "import org.springframework.data.jpa.repository.JpaRepository;",
                "",
                "public interface ShipmentRepository extends JpaRepository<ShipmentEntity, UUID> {",
                "    List<ShipmentEntity> findByOrderId(UUID orderId);",
                "}",
            ),
            f"{_OA_APP}/service/ShipmentService.java": lines(
                "package com.acme.orders.service;",
                "",
                "import com.acme.orders.domain.ShipmentEntity;",
                "import com.acme.orders.repo.ShipmentRepository;",
                "import java.util.List;",
                "import java.util.UUID;",
                "import org.springframework.stereotype.Service;",
                "",
                "@Service",
                "public class ShipmentService {",
                "    private final ShipmentRepository repo;",
                "",
                "    public ShipmentService(ShipmentRepository repo) {",
                "        this.repo = repo;",
                "    }",
                "",
                "    public List<ShipmentEntity> forOrder(UUID orderId) {",
                "        return repo.findByOrderId(orderId);",
                "    }",
                "}",
            ),
            "src/main/resources/db/migration/V7__shipments.sql": lines(
                "create table shipments (",
                "  id uuid primary key,",
                "  order_id uuid not null references orders(id),",
                "  carrier text not null,",
                "  tracking_code text",
                ");",
                "create index shipments_order_id on shipments(order_id);",
            ),
            "src/test/java/com/acme/orders/web/OrdersControllerTest.java": _read(
                s, "src/test/java/com/acme/orders/web/OrdersControllerTest.java"
            ).removesuffix("}\n")
            + lines(
                "",
                "    @Test",
                "    void listsShipmentsOfAnOrder() throws Exception {",
                '        mvc.perform(get("/orders/7f0c1d5e-0000-4000-8000-000000000001/shipments"))',  # noqa: E501
                "            .andExpect(status().isOk());",
                "    }",
                "}",
            ),
            # Unasked: a Spring Boot minor upgrade "since we're regenerating anyway".
            "build.gradle.kts": _read(s, "build.gradle.kts").replace(
                'version "3.2.5"', 'version "3.3.0"'
            ),
            # Left on from debugging the test: SQL logging and DEBUG everywhere.
            "src/main/resources/application.yml": _read(
                s, "src/main/resources/application.yml"
            ).replace(
                "    open-in-view: false\nlogging:\n  level:\n    root: INFO\n",
                "    open-in-view: false\n    show-sql: true\nlogging:\n  level:\n    root: DEBUG\n",  # noqa: E501
            ),
            # A neighbouring controller "tidied" (inlined a local): not this endpoint.
            f"{_OA_APP}/web/CustomersController.java": _read(
                s, f"{_OA_APP}/web/CustomersController.java"
            ).replace(
                "        var page = customers.page(request);\n        return ResponseEntity.ok(page);\n",  # noqa: E501
                "        return ResponseEntity.ok(customers.page(request));\n",
            ),
        }
    )
    s.fine(
        "src/main/resources/openapi/orders.yaml",
        f"{_OA_APP}/web/OrdersController.java",
        f"{_OA_APP}/domain/ShipmentEntity.java",
        f"{_OA_APP}/repo/ShipmentRepository.java",
        f"{_OA_APP}/service/ShipmentService.java",
        "src/main/resources/db/migration/V7__shipments.sql",
        "src/test/java/com/acme/orders/web/OrdersControllerTest.java",
    )
    s.drift(
        "build.gradle.kts",
        "src/main/resources/application.yml",
        f"{_OA_APP}/web/CustomersController.java",
    )
    # Every generated interface and model (the two new ones too), and the generator's
    # file list: machine-made, even though they are tracked.
    s.excluded(*generated)
    s.note = "generated flood (36 files, dates restamped); no checkpoint: restore from the commit"


# -- 3. Go monorepo, sqlc -------------------------------------------------------------------------

_SQLC_OLD = "v1.25.0"
_SQLC_NEW = "v1.26.0"


def _sqlc_head(version: str, source: str | None = None) -> str:
    head = ["// Code generated by sqlc. DO NOT EDIT.", "// versions:", f"//   sqlc {version}"]
    if source:
        head.append(f"// source: {source}")
    return lines(*head, "", "package db")


def _sqlc_db(version: str) -> str:
    return _sqlc_head(version) + lines(
        "",
        "import (",
        '\t"context"',
        "",
        '\t"github.com/jackc/pgx/v5"',
        '\t"github.com/jackc/pgx/v5/pgconn"',
        ")",
        "",
        "type DBTX interface {",
        "\tExec(context.Context, string, ...interface{}) (pgconn.CommandTag, error)",
        "\tQuery(context.Context, string, ...interface{}) (pgx.Rows, error)",
        "\tQueryRow(context.Context, string, ...interface{}) pgx.Row",
        "}",
        "",
        "func New(db DBTX) *Queries {",
        "\treturn &Queries{db: db}",
        "}",
        "",
        "type Queries struct {",
        "\tdb DBTX",
        "}",
    )


def _sqlc_query(version: str, source: str, queries: list[tuple[str, str, str]]) -> str:
    """A ``<file>.sql.go``: each query (name, kind, SQL) as sqlc writes it (trimmed)."""
    body = []
    for name, kind, sql in queries:
        const = name[0].lower() + name[1:]
        body += [
            "",
            f"const {const} = `-- name: {name} :{kind}",
            sql,
            "`",
            "",
            f"func (q *Queries) {name}(ctx context.Context, arg {name}Params) error {{",
            f"\t_, err := q.db.Exec(ctx, {const}, arg)",
            "\treturn err",
            "}",
        ]
    return _sqlc_head(version, source) + lines("", "import (", '\t"context"', ")", *body)


def _sqlc_models(version: str, models: dict[str, list[str]]) -> str:
    body = []
    for name, fields in models.items():
        body += ["", f"type {name} struct {{", *(f"\t{f}" for f in fields), "}"]
    return _sqlc_head(version) + lines(
        "", "import (", '\t"github.com/jackc/pgx/v5/pgtype"', ")", *body
    )


def _sqlc_querier(version: str, methods: list[str]) -> str:
    return _sqlc_head(version) + lines(
        "",
        "import (",
        '\t"context"',
        ")",
        "",
        "type Querier interface {",
        *(f"\t{m}(ctx context.Context, arg {m}Params) error" for m in methods),
        "}",
        "",
        "var _ Querier = (*Queries)(nil)",
    )


_INVOICE_QUERIES = [
    (
        "GetInvoice",
        "one",
        "SELECT id, customer_id, amount_cents, due_on, paid_at FROM invoices\nWHERE id = $1",
    ),
    (
        "ListInvoicesByCustomer",
        "many",
        "SELECT id, customer_id, amount_cents, due_on, paid_at FROM invoices\nWHERE customer_id = $1 ORDER BY due_on",  # noqa: E501
    ),
    (
        "CreateInvoice",
        "one",
        "INSERT INTO invoices (customer_id, amount_cents, due_on)\nVALUES ($1, $2, $3) RETURNING id",  # noqa: E501
    ),
    ("MarkInvoicePaid", "exec", "UPDATE invoices SET paid_at = now() WHERE id = $1"),
]
_OVERDUE = (
    "ListOverdueInvoices",
    "many",
    "SELECT id, customer_id, amount_cents, due_on, paid_at FROM invoices\n"
    "WHERE paid_at IS NULL AND due_on < $1 ORDER BY due_on",
)


def _sql_file(queries: list[tuple[str, str, str]]) -> str:
    return "\n".join(f"-- name: {n} :{k}\n{q};\n" for n, k, q in queries)


def _go_generated(version: str, *, overdue: bool) -> dict[str, str]:
    inv = [*_INVOICE_QUERIES, *([_OVERDUE] if overdue else [])]
    cus = [
        ("GetCustomer", "one", "SELECT id, name, email FROM customers WHERE id = $1"),
        (
            "CreateCustomer",
            "one",
            "INSERT INTO customers (name, email) VALUES ($1, $2) RETURNING id",
        ),
    ]
    pay = [
        (
            "RecordPayment",
            "exec",
            "INSERT INTO payments (invoice_id, amount_cents) VALUES ($1, $2)",
        ),
        (
            "ListPayments",
            "many",
            "SELECT id, invoice_id, amount_cents FROM payments WHERE invoice_id = $1",
        ),
    ]
    users = [
        ("GetUserByEmail", "one", "SELECT id, email, password_hash FROM users WHERE email = $1"),
        (
            "CreateUser",
            "one",
            "INSERT INTO users (email, password_hash) VALUES ($1, $2) RETURNING id",
        ),
    ]
    sessions = [
        (
            "CreateSession",
            "one",
            "INSERT INTO sessions (user_id, expires_at) VALUES ($1, $2) RETURNING token",
        ),
        ("DeleteSession", "exec", "DELETE FROM sessions WHERE token = $1"),
    ]
    b, a = "services/billing/internal/db", "services/accounts/internal/db"
    return {
        f"{b}/db.go": _sqlc_db(version),
        f"{b}/models.go": _sqlc_models(
            version,
            {
                "Customer": ["ID    int64", "Name  string", "Email string"],
                "Invoice": [
                    "ID          int64",
                    "CustomerID  int64",
                    "AmountCents int64",
                    "DueOn       pgtype.Date",
                    "PaidAt      pgtype.Timestamptz",
                ],
                "Payment": ["ID          int64", "InvoiceID   int64", "AmountCents int64"],
            },
        ),
        f"{b}/querier.go": _sqlc_querier(version, [n for n, _, _ in [*cus, *inv, *pay]]),
        f"{b}/invoices.sql.go": _sqlc_query(version, "invoices.sql", inv),
        f"{b}/customers.sql.go": _sqlc_query(version, "customers.sql", cus),
        f"{b}/payments.sql.go": _sqlc_query(version, "payments.sql", pay),
        f"{a}/db.go": _sqlc_db(version),
        f"{a}/models.go": _sqlc_models(
            version,
            {
                "Session": ["Token     string", "UserID    int64", "ExpiresAt pgtype.Timestamptz"],
                "User": ["ID           int64", "Email        string", "PasswordHash string"],
            },
        ),
        f"{a}/querier.go": _sqlc_querier(version, [n for n, _, _ in [*sessions, *users]]),
        f"{a}/users.sql.go": _sqlc_query(version, "users.sql", users),
        f"{a}/sessions.sql.go": _sqlc_query(version, "sessions.sql", sessions),
    }


def _go_mod(module: str, *requires: str) -> str:
    return lines(
        f"module github.com/northwind/platform/{module}",
        "",
        "go 1.21",
        "",
        "require (",
        *(f"\t{r}" for r in requires),
        ")",
    )


def _go_handler(pkg: str, name: str, body: list[str]) -> str:
    return lines(
        f"package {pkg}",
        "",
        "import (",
        '\t"net/http"',
        "",
        '\t"github.com/northwind/platform/pkg/httpx"',
        ")",
        "",
        f"func (s *Server) {name}(w http.ResponseWriter, r *http.Request) {{",
        *body,
        "}",
    )


def _go_files() -> dict[str, str | bytes]:
    pgx = "github.com/jackc/pgx/v5 v5.5.5"
    chi = "github.com/go-chi/chi/v5 v5.0.12"
    files: dict[str, str | bytes] = {
        ".gitignore": lines("bin/", "*.out", ".env"),
        "go.work": lines(
            "go 1.21",
            "",
            "use (",
            "\t./pkg",
            "\t./services/accounts",
            "\t./services/billing",
            ")",
        ),
        "sqlc.yaml": lines(
            'version: "2"',
            "sql:",
            '  - engine: "postgresql"',
            '    queries: "services/billing/queries"',
            '    schema: "services/billing/migrations"',
            "    gen:",
            "      go:",
            '        package: "db"',
            '        out: "services/billing/internal/db"',
            '        sql_package: "pgx/v5"',
            "        emit_interface: true",
            '  - engine: "postgresql"',
            '    queries: "services/accounts/queries"',
            '    schema: "services/accounts/migrations"',
            "    gen:",
            "      go:",
            '        package: "db"',
            '        out: "services/accounts/internal/db"',
            '        sql_package: "pgx/v5"',
            "        emit_interface: true",
        ),
        "Makefile": lines(
            ".PHONY: generate test lint",
            "generate:",
            "\tsqlc generate",
            "test:",
            "\tgo test ./pkg/... ./services/...",
            "lint:",
            "\tgolangci-lint run ./...",
        ),
        ".golangci.yml": lines(
            "linters:",
            "  enable: [errcheck, govet, staticcheck, revive, gofumpt]",
            "issues:",
            "  exclude-dirs: [services/billing/internal/db, services/accounts/internal/db]",
        ),
        ".github/workflows/ci.yml": lines(
            "name: ci",
            "on: [push, pull_request]",
            "jobs:",
            "  test:",
            "    runs-on: ubuntu-latest",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - uses: actions/setup-go@v5",
            "        with: {go-version: '1.21'}",
            "      - run: make test",
        ),
        "docker-compose.yml": lines(
            "services:",
            "  postgres:",
            "    image: postgres:16",
            "    ports: ['5432:5432']",
            "    environment: {POSTGRES_PASSWORD: dev}",
        ),
        "README.md": lines(
            "# platform",
            "",
            "Go services sharing `pkg/`. Queries live in `services/*/queries`;",
            "`make generate` runs sqlc and rewrites `internal/db` (never edit it).",
        ),
        "pkg/go.mod": lines("module github.com/northwind/platform/pkg", "", "go 1.21"),
        "pkg/money/money.go": lines(
            "package money",
            "",
            'import "fmt"',
            "",
            "// Cents formats an amount in cents as euros.",
            "func Cents(c int64) string {",
            '\treturn fmt.Sprintf("€%d.%02d", c/100, c%100)',
            "}",
        ),
        "pkg/money/money_test.go": lines(
            "package money",
            "",
            'import "testing"',
            "",
            "func TestCents(t *testing.T) {",
            '\tif got := Cents(12345); got != "€123.45" {',
            "\t\tt.Fatal(got)",
            "\t}",
            "}",
        ),
        "pkg/httpx/respond.go": lines(
            "package httpx",
            "",
            'import (\n\t"encoding/json"\n\t"net/http"\n)',
            "",
            "func JSON(w http.ResponseWriter, status int, v any) {",
            '\tw.Header().Set("Content-Type", "application/json")',
            "\tw.WriteHeader(status)",
            "\t_ = json.NewEncoder(w).Encode(v)",
            "}",
        ),
        "pkg/httpx/respond_test.go": lines(
            "package httpx",
            "",
            'import (\n\t"net/http/httptest"\n\t"testing"\n)',
            "",
            "func TestJSON(t *testing.T) {",
            "\trec := httptest.NewRecorder()",
            '\tJSON(rec, 201, map[string]int{"a": 1})',
            "\tif rec.Code != 201 {",
            "\t\tt.Fatal(rec.Code)",
            "\t}",
            "}",
        ),
        "pkg/logging/logging.go": lines(
            "package logging",
            "",
            'import (\n\t"log/slog"\n\t"os"\n)',
            "",
            "func New(service string) *slog.Logger {",
            '\treturn slog.New(slog.NewJSONHandler(os.Stdout, nil)).With("service", service)',
            "}",
        ),
        "pkg/pgxutil/pool.go": lines(
            "package pgxutil",
            "",
            'import (\n\t"context"\n\t"os"\n\n\t"github.com/jackc/pgx/v5/pgxpool"\n)',
            "",
            "func Pool(ctx context.Context) (*pgxpool.Pool, error) {",
            '\treturn pgxpool.New(ctx, os.Getenv("DATABASE_URL"))',
            "}",
        ),
    }
    for svc in ("billing", "accounts"):
        root = f"services/{svc}"
        files[f"{root}/go.mod"] = _go_mod(svc, chi, pgx)
        files[f"{root}/go.sum"] = lines(
            "github.com/go-chi/chi/v5 v5.0.12 h1:9euLV5sTrTNTRUU9POmDUvfxyj6LAABLUcEWO+JJb4s=",
            "github.com/go-chi/chi/v5 v5.0.12/go.mod h1:DslCQbL2OYiznFReuXYUmQ2hGd1aDpCnlMNITLSKoi8=",  # noqa: E501
            "github.com/jackc/pgx/v5 v5.5.5 h1:amBjrZVmksIdNjxGu/UR5dSGqsH7oKBrVFa6KGtoO0w=",
            "github.com/jackc/pgx/v5 v5.5.5/go.mod h1:ez9gk+OAat140fv9ErkZDYFWmXLfV+++K0uAOiwgm1A=",
        )
        files[f"{root}/cmd/{svc}/main.go"] = lines(
            "package main",
            "",
            "import (",
            '\t"context"',
            '\t"net/http"',
            "",
            f'\tapi "github.com/northwind/platform/{svc}/internal/'
            + ("http" if svc == "billing" else "handler")
            + '"',
            '\t"github.com/northwind/platform/pkg/logging"',
            '\t"github.com/northwind/platform/pkg/pgxutil"',
            ")",
            "",
            "func main() {",
            f'\tlog := logging.New("{svc}")',
            "\tpool, err := pgxutil.Pool(context.Background())",
            "\tif err != nil {",
            '\t\tlog.Error("db", "err", err)',
            "\t\treturn",
            "\t}",
            '\t_ = http.ListenAndServe(":8080", api.NewServer(pool).Routes())',
            "}",
        )
        files[f"{root}/Dockerfile"] = lines(
            "FROM golang:1.21 AS build",
            "WORKDIR /src",
            "COPY . .",
            f"RUN go build -o /out/{svc} ./services/{svc}/cmd/{svc}",
            "FROM gcr.io/distroless/base",
            f"COPY --from=build /out/{svc} /{svc}",
            f'ENTRYPOINT ["/{svc}"]',
        )
    b = "services/billing"
    files.update(
        {
            f"{b}/queries/invoices.sql": _sql_file(_INVOICE_QUERIES),
            f"{b}/queries/customers.sql": lines(
                "-- name: GetCustomer :one",
                "SELECT id, name, email FROM customers WHERE id = $1;",
                "",
                "-- name: CreateCustomer :one",
                "INSERT INTO customers (name, email) VALUES ($1, $2) RETURNING id;",
            ),
            f"{b}/queries/payments.sql": lines(
                "-- name: RecordPayment :exec",
                "INSERT INTO payments (invoice_id, amount_cents) VALUES ($1, $2);",
                "",
                "-- name: ListPayments :many",
                "SELECT id, invoice_id, amount_cents FROM payments WHERE invoice_id = $1;",
            ),
            f"{b}/migrations/0001_customers.up.sql": "CREATE TABLE customers (id bigserial PRIMARY KEY, name text NOT NULL, email text NOT NULL);\n",  # noqa: E501
            f"{b}/migrations/0001_customers.down.sql": "DROP TABLE customers;\n",
            f"{b}/migrations/0002_invoices.up.sql": lines(
                "CREATE TABLE invoices (",
                "  id bigserial PRIMARY KEY,",
                "  customer_id bigint NOT NULL REFERENCES customers(id),",
                "  amount_cents bigint NOT NULL,",
                "  due_on date NOT NULL,",
                "  paid_at timestamptz",
                ");",
            ),
            f"{b}/migrations/0002_invoices.down.sql": "DROP TABLE invoices;\n",
            f"{b}/migrations/0003_payments.up.sql": "CREATE TABLE payments (id bigserial PRIMARY KEY, invoice_id bigint NOT NULL REFERENCES invoices(id), amount_cents bigint NOT NULL);\n",  # noqa: E501
            f"{b}/migrations/0003_payments.down.sql": "DROP TABLE payments;\n",
            f"{b}/internal/http/server.go": lines(
                "package http",
                "",
                "import (",
                '\t"net/http"',
                "",
                '\t"github.com/go-chi/chi/v5"',
                '\t"github.com/jackc/pgx/v5/pgxpool"',
                '\t"github.com/northwind/platform/billing/internal/db"',
                ")",
                "",
                "type Server struct{ q *db.Queries }",
                "",
                "func NewServer(pool *pgxpool.Pool) *Server { return &Server{q: db.New(pool)} }",
                "",
                "func (s *Server) Routes() http.Handler {",
                "\tr := chi.NewRouter()",
                '\tr.Get("/healthz", s.health)',
                '\tr.Get("/invoices/{id}", s.getInvoice)',
                '\tr.Post("/invoices/{id}/payments", s.recordPayment)',
                "\treturn r",
                "}",
            ),
            f"{b}/internal/http/invoices.go": _go_handler(
                "http",
                "getInvoice",
                [
                    '\tinv, err := s.q.GetInvoice(r.Context(), chi.URLParam(r, "id"))',
                    "\tif err != nil {",
                    "\t\thttpx.JSON(w, http.StatusNotFound, nil)",
                    "\t\treturn",
                    "\t}",
                    "\thttpx.JSON(w, http.StatusOK, inv)",
                ],
            ),
            f"{b}/internal/http/payments.go": _go_handler(
                "http", "recordPayment", ["\thttpx.JSON(w, http.StatusCreated, nil)"]
            ),
            f"{b}/internal/http/health.go": _go_handler(
                "http", "health", ['\thttpx.JSON(w, http.StatusOK, map[string]string{"ok": "yes"})']
            ),
            f"{b}/internal/http/invoices_test.go": lines(
                "package http",
                "",
                'import (\n\t"net/http/httptest"\n\t"testing"\n)',
                "",
                "func TestGetInvoiceNotFound(t *testing.T) {",
                "\ts := newTestServer(t)",
                "\trec := httptest.NewRecorder()",
                '\ts.Routes().ServeHTTP(rec, httptest.NewRequest("GET", "/invoices/999", nil))',
                "\tif rec.Code != 404 {",
                "\t\tt.Fatal(rec.Code)",
                "\t}",
                "}",
            ),
        }
    )
    a = "services/accounts"
    files.update(
        {
            f"{a}/queries/users.sql": lines(
                "-- name: GetUserByEmail :one",
                "SELECT id, email, password_hash FROM users WHERE email = $1;",
                "",
                "-- name: CreateUser :one",
                "INSERT INTO users (email, password_hash) VALUES ($1, $2) RETURNING id;",
            ),
            f"{a}/queries/sessions.sql": lines(
                "-- name: CreateSession :one",
                "INSERT INTO sessions (user_id, expires_at) VALUES ($1, $2) RETURNING token;",
                "",
                "-- name: DeleteSession :exec",
                "DELETE FROM sessions WHERE token = $1;",
            ),
            f"{a}/migrations/0001_users.up.sql": "CREATE TABLE users (id bigserial PRIMARY KEY, email text UNIQUE NOT NULL, password_hash text NOT NULL);\n",  # noqa: E501
            f"{a}/migrations/0001_users.down.sql": "DROP TABLE users;\n",
            f"{a}/migrations/0002_sessions.up.sql": "CREATE TABLE sessions (token uuid PRIMARY KEY DEFAULT gen_random_uuid(), user_id bigint NOT NULL REFERENCES users(id), expires_at timestamptz NOT NULL);\n",  # noqa: E501
            f"{a}/migrations/0002_sessions.down.sql": "DROP TABLE sessions;\n",
            f"{a}/internal/handler/router.go": lines(
                "package handler",
                "",
                'import (\n\t"net/http"\n\n\t"github.com/go-chi/chi/v5"\n)',
                "",
                "func (s *Server) Routes() http.Handler {",
                "\tr := chi.NewRouter()",
                '\tr.Post("/users", s.createUser)',
                '\tr.Post("/sessions", s.createSession)',
                '\tr.Delete("/sessions/{token}", s.deleteSession)',
                "\treturn r",
                "}",
            ),
            f"{a}/internal/handler/user_handler.go": _go_handler(
                "handler",
                "createUser",
                [
                    "\tvar in struct{ Email, Password string }",
                    "\tif err := httpx.Decode(r, &in); err != nil {",
                    "\t\thttpx.JSON(w, http.StatusBadRequest, nil)",
                    "\t\treturn",
                    "\t}",
                    "\thttpx.JSON(w, http.StatusCreated, nil)",
                ],
            ),
            f"{a}/internal/handler/session_handler.go": _go_handler(
                "handler", "createSession", ["\thttpx.JSON(w, http.StatusCreated, nil)"]
            ),
            f"{a}/internal/handler/user_handler_test.go": lines(
                "package handler",
                "",
                'import (\n\t"net/http/httptest"\n\t"strings"\n\t"testing"\n)',
                "",
                "func TestCreateUserRejectsBadJSON(t *testing.T) {",
                "\trec := httptest.NewRecorder()",
                '\tnewTestServer(t).Routes().ServeHTTP(rec, httptest.NewRequest("POST", "/users", strings.NewReader("{")))',  # noqa: E501
                "\tif rec.Code != 400 {",
                "\t\tt.Fatal(rec.Code)",
                "\t}",
                "}",
            ),
        }
    )
    files.update(_go_generated(_SQLC_OLD, overdue=False))
    return files


def _go_sqlc(s: Scene) -> None:
    s.commit("platform: billing and accounts services", _go_files(), days_ago=60)
    s.commit(
        "billing: payments endpoint",
        {"README.md": _read(s, "README.md") + "\nBilling listens on :8080.\n"},
        days_ago=14,
    )
    s.intent(
        "billing: GET /invoices/overdue lists unpaid invoices past their due date, through a "
        "new sqlc query ListOverdueInvoices",
        {"services/billing/queries/invoices.sql": "the invoice queries"},
        hours_ago=1,
    )
    old, new = (
        "services/accounts/internal/handler/user_handler.go",
        "services/accounts/internal/handler/users.go",
    )
    # The agent's first move: `git mv` of an accounts handler to drop the `_handler`
    # suffix ("Go style"), unchanged inside. Nothing to do with billing.
    s.agent(rename={old: new})
    _staged(s, old, new)
    s.checkpoint("after the agent's first turn")
    b = "services/billing"
    generated = _go_generated(_SQLC_NEW, overdue=True)
    s.agent(
        {
            f"{b}/queries/invoices.sql": _sql_file([*_INVOICE_QUERIES, _OVERDUE]),
            # `sqlc generate` with a newer sqlc: every generated file of both services
            # gets the new version line; billing's also gain the query.
            **generated,
            f"{b}/internal/http/invoices.go": _read(s, f"{b}/internal/http/invoices.go")
            + lines(
                "",
                "func (s *Server) listOverdue(w http.ResponseWriter, r *http.Request) {",
                "\tinvs, err := s.q.ListOverdueInvoices(r.Context(), pgtype.Date{Time: time.Now(), Valid: true})",  # noqa: E501
                "\tif err != nil {",
                "\t\thttpx.JSON(w, http.StatusInternalServerError, nil)",
                "\t\treturn",
                "\t}",
                "\thttpx.JSON(w, http.StatusOK, invs)",
                "}",
            ),
            f"{b}/internal/http/server.go": _read(s, f"{b}/internal/http/server.go").replace(
                '\tr.Get("/invoices/{id}", s.getInvoice)\n',
                '\tr.Get("/invoices/overdue", s.listOverdue)\n\tr.Get("/invoices/{id}", s.getInvoice)\n',  # noqa: E501
            ),
            f"{b}/internal/http/invoices_test.go": _read(s, f"{b}/internal/http/invoices_test.go")
            + lines(
                "",
                "func TestListOverdueSkipsPaid(t *testing.T) {",
                "\ts := newTestServer(t)",
                '\tseedInvoice(t, s, "2024-01-01", true)',
                '\tseedInvoice(t, s, "2024-01-02", false)',
                "\trec := httptest.NewRecorder()",
                '\ts.Routes().ServeHTTP(rec, httptest.NewRequest("GET", "/invoices/overdue", nil))',
                '\tif !strings.Contains(rec.Body.String(), "2024-01-02") || strings.Contains(rec.Body.String(), "2024-01-01") {',  # noqa: E501
                "\t\tt.Fatal(rec.Body.String())",
                "\t}",
                "}",
            ),
            # Unasked: the service's Go version raised, out of step with go.work, CI and
            # the Dockerfile's golang:1.21 image.
            f"{b}/go.mod": _read(s, f"{b}/go.mod").replace(
                "go 1.21\n", "go 1.22.3\n\ntoolchain go1.22.3\n"
            ),
        }
    )
    s.fine(
        f"{b}/queries/invoices.sql",
        f"{b}/internal/http/invoices.go",
        f"{b}/internal/http/server.go",
        f"{b}/internal/http/invoices_test.go",
    )
    # Both sides of the unasked rename, and the go directive.
    s.drift(old, new, f"{b}/go.mod")
    # Every sqlc output file (accounts' too: only their version line moved).
    s.excluded(*generated)
    s.safe_commit()
    s.note = "the only checkpoint came after the rename drift: restore from the commit"


# -- 4. Elixir umbrella ---------------------------------------------------------------------------

_EX_ORDERS = lines(
    "defmodule Shop.Orders do",
    '  @moduledoc "Orders and their line items."',
    "  import Ecto.Query",
    "  alias Shop.Repo",
    "  alias Shop.Orders.{Order, LineItem}",
    "",
    "  def get_order!(id), do: Repo.get!(Order, id) |> Repo.preload(:line_items)",
    "",
    "  def place_order(user, items) do",
    "    Repo.transaction(fn ->",
    "      order = Repo.insert!(%Order{user_id: user.id, status: :placed})",
    "      Enum.each(items, fn {product, qty} ->",
    "        Repo.insert!(%LineItem{order_id: order.id, product_id: product.id, quantity: qty,",
    "                               unit_price: product.price})",
    "      end)",
    "      order",
    "    end)",
    "  end",
    "",
    "  def list_orders(user) do",
    "    from(o in Order, where: o.user_id == ^user.id, order_by: [desc: o.inserted_at])",
    "    |> Repo.all()",
    "  end",
    "end",
)


def _ex_schema(module: str, table: str, fields: list[str]) -> str:
    cast = [f.split(",")[0].split(":", 1)[1] for f in fields if f.startswith("field :")]
    return lines(
        f"defmodule {module} do",
        "  use Ecto.Schema",
        "  import Ecto.Changeset",
        "",
        f'  schema "{table}" do',
        *(f"    {f}" for f in fields),
        "    timestamps()",
        "  end",
        "",
        "  def changeset(struct, attrs) do",
        "    struct",
        "    |> cast(attrs, [" + ", ".join(f":{c}" for c in cast) + "])",
        "  end",
        "end",
    )


def _elixir_files() -> dict[str, str | bytes]:
    web = "apps/shop_web"
    files: dict[str, str | bytes] = {
        ".gitignore": lines(
            "/_build/",
            "/cover/",
            "/deps/",
            "/doc/",
            "erl_crash.dump",
            "*.ez",
            "/tmp/",  # noqa: S108
            "/apps/shop_web/priv/static/assets/",
            "/apps/shop_web/assets/node_modules/",
        ),
        ".formatter.exs": lines(
            "[", '  inputs: ["mix.exs", "config/*.exs"],', '  subdirectories: ["apps/*"]', "]"
        ),
        ".tool-versions": lines("erlang 26.2.4", "elixir 1.15.7-otp-26"),
        "mix.exs": lines(
            "defmodule ShopUmbrella.MixProject do",
            "  use Mix.Project",
            "",
            "  def project do",
            '    [apps_path: "apps", version: "0.1.0", start_permanent: Mix.env() == :prod,',
            "     deps: [], aliases: aliases()]",
            "  end",
            "",
            '  defp aliases, do: [setup: ["cmd mix setup"]]',
            "end",
        ),
        "mix.lock": lines(
            "%{",
            '  "bandit": {:hex, :bandit, "1.5.2", "ed0a41c43a9e529c670d0fd48371db4027e7b80d43b1942893e17deb8bed0540", [:mix], [], "hexpm", "35ddbdce7e8a2a3c6b5093f7299d70832a43ed2f4a1852885a61d334cab1b4ad"},',  # noqa: E501
            '  "ecto": {:hex, :ecto, "3.11.2", "e1d26be989db350a633667c5cda9c3d115ae779b66da567c68c80cfb26a8c9ee", [:mix], [], "hexpm", "c38bca2c6f8d8023f2145326cc8a80100c3ffe4dcbd9842ff867f7fc6156c65"},',  # noqa: E501
            '  "ecto_sql": {:hex, :ecto_sql, "3.11.1", "e9abf28ae27ef3916b43545f9578b4750956ccea444853606472089e7d169470", [:mix], [], "hexpm", "ce14063ab3514424276e7e360108ad6c2308f6d88164a076aac8a387e1fea634"},',  # noqa: E501
            '  "phoenix": {:hex, :phoenix, "1.7.12", "1cc589e0eab99f593a8aa38ec45f15d25297dd6187ee801c8de8947090b5a9d3", [:mix], [], "hexpm", "d646192fbade9f485b01bc9920c139bfdd19d0f8df3d73fd8eaf2dfbe0d2837c"},',  # noqa: E501
            '  "phoenix_live_view": {:hex, :phoenix_live_view, "0.20.14", "70fa101aa0539e81bed4238777498f6215e9dda3461bdaa067cad6908110c364", [:mix], [], "hexpm", "82f6d006c5264f979ed5eb75593d808bbe39020f20df2e78426f4f2d570e2402"},',  # noqa: E501
            '  "postgrex": {:hex, :postgrex, "0.17.5", "0483d054938a8dc069b21bdd636bf56c487404c241ce6c319c1f43588246b281", [:mix], [], "hexpm", "50b8b11afbb2c4095a3ba675b4f055c416d0f3d7de6633a595fc131a828a67eb"},',  # noqa: E501
            "}",
        ),
        "README.md": lines(
            "# Shop",
            "",
            "An umbrella: `apps/shop` (domain, Ecto) and `apps/shop_web` (Phoenix).",
            "",
            "    mix setup && mix phx.server",
        ),
        ".github/workflows/ci.yml": lines(
            "name: ci",
            "on: [push]",
            "jobs:",
            "  test:",
            "    runs-on: ubuntu-latest",
            "    services:",
            "      postgres: {image: 'postgres:16', env: {POSTGRES_PASSWORD: postgres}, ports: ['5432:5432']}",  # noqa: E501
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - uses: erlef/setup-beam@v1",
            "        with: {version-file: .tool-versions, version-type: strict}",
            "      - run: mix deps.get && mix test",
        ),
        "config/config.exs": lines(
            "import Config",
            "config :shop, ecto_repos: [Shop.Repo]",
            'config :shop_web, ShopWeb.Endpoint, url: [host: "localhost"], render_errors: [formats: [html: ShopWeb.ErrorHTML, json: ShopWeb.ErrorJSON]]',  # noqa: E501
            'config :esbuild, version: "0.17.11"',
            'config :tailwind, version: "3.4.0"',
            'import_config "#{config_env()}.exs"',
        ),
        "config/dev.exs": lines(
            "import Config",
            "",
            "config :shop, Shop.Repo,",
            '  username: "postgres",',
            '  password: "postgres",',
            '  hostname: "localhost",',
            '  database: "shop_dev",',
            "  pool_size: 10",
            "",
            'config :shop_web, ShopWeb.Endpoint, http: [port: 4000], debug_errors: true, secret_key_base: "dev-only-0c0f2b3a"',  # noqa: E501
        ),
        "config/test.exs": lines(
            "import Config",
            'config :shop, Shop.Repo, database: "shop_test#{System.get_env("MIX_TEST_PARTITION")}", pool: Ecto.Adapters.SQL.Sandbox',  # noqa: E501
            "config :shop_web, ShopWeb.Endpoint, server: false",
        ),
        "config/prod.exs": lines("import Config", "config :logger, level: :info"),
        "config/runtime.exs": lines(
            "import Config",
            "if config_env() == :prod do",
            '  config :shop, Shop.Repo, url: System.fetch_env!("DATABASE_URL")',
            "end",
        ),
        # -- apps/shop
        "apps/shop/mix.exs": lines(
            "defmodule Shop.MixProject do",
            "  use Mix.Project",
            "  def project do",
            '    [app: :shop, version: "0.1.0", build_path: "../../_build", deps_path: "../../deps",',  # noqa: E501
            '     lockfile: "../../mix.lock", elixir: "~> 1.15", deps: deps()]',
            "  end",
            "  def application, do: [mod: {Shop.Application, []}, extra_applications: [:logger]]",
            "  defp deps do",
            '    [{:ecto_sql, "~> 3.10"}, {:postgrex, ">= 0.0.0"}]',
            "  end",
            "end",
        ),
        "apps/shop/.formatter.exs": lines(
            "[",
            "  import_deps: [:ecto, :ecto_sql],",
            '  inputs: ["{lib,test,priv}/**/*.{ex,exs}"]',
            "]",
        ),
        "apps/shop/lib/shop.ex": lines(
            "defmodule Shop do",
            '  @moduledoc "The shop\'s domain: catalog, orders, accounts."',
            "end",
        ),
        "apps/shop/lib/shop/application.ex": lines(
            "defmodule Shop.Application do",
            "  use Application",
            "  def start(_type, _args) do",
            "    Supervisor.start_link([Shop.Repo], strategy: :one_for_one, name: Shop.Supervisor)",
            "  end",
            "end",
        ),
        "apps/shop/lib/shop/repo.ex": lines(
            "defmodule Shop.Repo do",
            "  use Ecto.Repo, otp_app: :shop, adapter: Ecto.Adapters.Postgres",
            "end",
        ),
        "apps/shop/lib/shop/catalog.ex": lines(
            "defmodule Shop.Catalog do",
            '  @moduledoc "Products and categories."',
            "  import Ecto.Query",
            "  alias Shop.Repo",
            "  alias Shop.Catalog.Product",
            "",
            "  def list_products do",
            "    from(p in Product, where: p.active, order_by: p.name) |> Repo.all()",
            "  end",
            "",
            "  def get_product!(id), do: Repo.get!(Product, id)",
            "",
            "  def create_product(attrs) do",
            "    %Product{} |> Product.changeset(attrs) |> Repo.insert()",
            "  end",
            "end",
        ),
        "apps/shop/lib/shop/orders.ex": _EX_ORDERS,
        "apps/shop/lib/shop/accounts.ex": lines(
            "defmodule Shop.Accounts do",
            "  alias Shop.Repo",
            "  alias Shop.Accounts.User",
            "  def get_user!(id), do: Repo.get!(User, id)",
            "  def get_user_by_email(email), do: Repo.get_by(User, email: email)",
            "end",
        ),
        "apps/shop/lib/shop/mailer.ex": lines(
            "defmodule Shop.Mailer do", "  use Swoosh.Mailer, otp_app: :shop", "end"
        ),
        "apps/shop/lib/shop/catalog/product.ex": _ex_schema(
            "Shop.Catalog.Product",
            "products",
            [
                "field :name, :string",
                "field :price, :decimal",
                "field :active, :boolean, default: true",
                "belongs_to :category, Shop.Catalog.Category",
            ],
        ),
        "apps/shop/lib/shop/catalog/category.ex": _ex_schema(
            "Shop.Catalog.Category", "categories", ["field :name, :string"]
        ),
        "apps/shop/lib/shop/orders/order.ex": _ex_schema(
            "Shop.Orders.Order",
            "orders",
            [
                "field :status, Ecto.Enum, values: [:placed, :paid, :shipped]",
                "field :user_id, :id",
                "has_many :line_items, Shop.Orders.LineItem",
            ],
        ),
        "apps/shop/lib/shop/orders/line_item.ex": _ex_schema(
            "Shop.Orders.LineItem",
            "line_items",
            [
                "field :quantity, :integer",
                "field :unit_price, :decimal",
                "field :product_id, :id",
                "belongs_to :order, Shop.Orders.Order",
            ],
        ),
        "apps/shop/lib/shop/accounts/user.ex": _ex_schema(
            "Shop.Accounts.User",
            "users",
            ["field :email, :string", "field :hashed_password, :string, redact: true"],
        ),
        "apps/shop/priv/repo/seeds.exs": lines(
            'Shop.Catalog.create_product(%{name: "Oak bowl", price: "34.00"})',
            'Shop.Catalog.create_product(%{name: "Linen apron", price: "22.50"})',
        ),
        "apps/shop/test/test_helper.exs": lines(
            "ExUnit.start()", "Ecto.Adapters.SQL.Sandbox.mode(Shop.Repo, :manual)"
        ),
        "apps/shop/test/support/data_case.ex": lines(
            "defmodule Shop.DataCase do",
            "  use ExUnit.CaseTemplate",
            "  using do",
            "    quote do",
            "      alias Shop.Repo",
            "      import Shop.Fixtures",
            "    end",
            "  end",
            "  setup tags do",
            "    pid = Ecto.Adapters.SQL.Sandbox.start_owner!(Shop.Repo, shared: not tags[:async])",
            "    on_exit(fn -> Ecto.Adapters.SQL.Sandbox.stop_owner(pid) end)",
            "  end",
            "end",
        ),
        "apps/shop/test/support/fixtures.ex": lines(
            "defmodule Shop.Fixtures do",
            "  def product_fixture(attrs \\\\ %{}) do",
            '    {:ok, p} = attrs |> Enum.into(%{name: "Oak bowl", price: "34.00"}) |> Shop.Catalog.create_product()',  # noqa: E501
            "    p",
            "  end",
            "end",
        ),
        "apps/shop/test/shop/catalog_test.exs": lines(
            "defmodule Shop.CatalogTest do",
            "  use Shop.DataCase, async: true",
            "  alias Shop.Catalog",
            "",
            '  test "list_products/0 returns active products by name" do',
            '    product_fixture(%{name: "Zinc tray"})',
            '    product_fixture(%{name: "Ash spoon"})',
            '    assert ["Ash spoon", "Zinc tray"] == Enum.map(Catalog.list_products(), & &1.name)',
            "  end",
            "end",
        ),
        "apps/shop/test/shop/orders_test.exs": lines(
            "defmodule Shop.OrdersTest do",
            "  use Shop.DataCase, async: true",
            '  test "place_order/2 stores line items at the current price" do',
            "    assert true",
            "  end",
            "end",
        ),
        "apps/shop/test/shop/accounts_test.exs": lines(
            "defmodule Shop.AccountsTest do",
            "  use Shop.DataCase, async: true",
            '  test "get_user_by_email/1 is nil for strangers" do',
            '    assert Shop.Accounts.get_user_by_email("nobody@example.com") == nil',
            "  end",
            "end",
        ),
        # -- apps/shop_web
        f"{web}/mix.exs": lines(
            "defmodule ShopWeb.MixProject do",
            "  use Mix.Project",
            "  def project do",
            '    [app: :shop_web, version: "0.1.0", build_path: "../../_build", deps_path: "../../deps",',  # noqa: E501
            '     lockfile: "../../mix.lock", elixir: "~> 1.15", deps: deps()]',
            "  end",
            "  defp deps do",
            '    [{:phoenix, "~> 1.7.12"}, {:phoenix_live_view, "~> 0.20.2"}, {:bandit, "~> 1.2"},',
            "     {:shop, in_umbrella: true}]",
            "  end",
            "end",
        ),
        f"{web}/.formatter.exs": lines(
            "[",
            "  import_deps: [:phoenix],",
            "  plugins: [Phoenix.LiveView.HTMLFormatter],",
            '  inputs: ["*.{heex,ex,exs}", "{lib,test}/**/*.{heex,ex,exs}"]',
            "]",
        ),
        f"{web}/lib/shop_web.ex": lines(
            "defmodule ShopWeb do",
            "  def controller do",
            "    quote do",
            "      use Phoenix.Controller, formats: [:html, :json], layouts: [html: ShopWeb.Layouts]",  # noqa: E501
            "      import Plug.Conn",
            "    end",
            "  end",
            "  defmacro __using__(which) when is_atom(which), do: apply(__MODULE__, which, [])",
            "end",
        ),
        f"{web}/lib/shop_web/endpoint.ex": lines(
            "defmodule ShopWeb.Endpoint do",
            "  use Phoenix.Endpoint, otp_app: :shop_web",
            '  plug Plug.Static, at: "/", from: :shop_web, only: ShopWeb.static_paths()',
            "  plug ShopWeb.Router",
            "end",
        ),
        f"{web}/lib/shop_web/router.ex": lines(
            "defmodule ShopWeb.Router do",
            "  use Phoenix.Router",
            "  pipeline :browser do",
            '    plug :accepts, ["html"]',
            "    plug :fetch_session",
            "    plug :protect_from_forgery",
            "  end",
            '  scope "/", ShopWeb do',
            "    pipe_through :browser",
            '    get "/", PageController, :home',
            '    resources "/products", ProductController, only: [:index, :show]',
            '    resources "/orders", OrderController, only: [:index, :show, :create]',
            "  end",
            "end",
        ),
        f"{web}/lib/shop_web/telemetry.ex": lines(
            "defmodule ShopWeb.Telemetry do",
            "  use Supervisor",
            "  def start_link(arg), do: Supervisor.start_link(__MODULE__, arg, name: __MODULE__)",
            "  def init(_arg), do: Supervisor.init([], strategy: :one_for_one)",
            "end",
        ),
        f"{web}/lib/shop_web/gettext.ex": lines(
            "defmodule ShopWeb.Gettext do", "  use Gettext, otp_app: :shop_web", "end"
        ),
        f"{web}/lib/shop_web/controllers/page_controller.ex": lines(
            "defmodule ShopWeb.PageController do",
            "  use ShopWeb, :controller",
            "  def home(conn, _params), do: render(conn, :home)",
            "end",
        ),
        f"{web}/lib/shop_web/controllers/page_html.ex": lines(
            "defmodule ShopWeb.PageHTML do",
            "  use Phoenix.Component",
            '  embed_templates "page_html/*"',
            "end",
        ),
        f"{web}/lib/shop_web/controllers/page_html/home.html.heex": lines(
            '<section class="hero">', "  <h1>Handmade, slowly.</h1>", "</section>"
        ),
        f"{web}/lib/shop_web/controllers/product_controller.ex": lines(
            "defmodule ShopWeb.ProductController do",
            "  use ShopWeb, :controller",
            "  alias Shop.Catalog",
            "",
            "  def index(conn, _params) do",
            "    render(conn, :index, products: Catalog.list_products())",
            "  end",
            "",
            '  def show(conn, %{"id" => id}) do',
            "    render(conn, :show, product: Catalog.get_product!(id))",
            "  end",
            "end",
        ),
        f"{web}/lib/shop_web/controllers/product_html.ex": lines(
            "defmodule ShopWeb.ProductHTML do",
            "  use Phoenix.Component",
            '  embed_templates "product_html/*"',
            "end",
        ),
        f"{web}/lib/shop_web/controllers/product_html/index.html.heex": lines(
            "<h1>Products</h1>",
            '<ul class="products">',
            '  <li :for={p <- @products}><a href={~p"/products/#{p}"}>{p.name}</a> {p.price}</li>',
            "</ul>",
        ),
        f"{web}/lib/shop_web/controllers/product_html/show.html.heex": lines(
            "<h1>{@product.name}</h1>", '<p class="price">{@product.price}</p>'
        ),
        f"{web}/lib/shop_web/controllers/order_controller.ex": lines(
            "defmodule ShopWeb.OrderController do",
            "  use ShopWeb, :controller",
            "  alias Shop.Orders",
            "  def index(conn, _params) do",
            "    json(conn, %{orders: Orders.list_orders(conn.assigns.current_user)})",
            "  end",
            "end",
        ),
        f"{web}/lib/shop_web/controllers/order_json.ex": lines(
            "defmodule ShopWeb.OrderJSON do",
            "  def index(%{orders: orders}), do: %{data: Enum.map(orders, &%{id: &1.id, status: &1.status})}",  # noqa: E501
            "end",
        ),
        f"{web}/lib/shop_web/controllers/error_html.ex": lines(
            "defmodule ShopWeb.ErrorHTML do",
            "  use Phoenix.Component",
            "  def render(template, _assigns), do: Phoenix.Controller.status_message_from_template(template)",  # noqa: E501
            "end",
        ),
        f"{web}/lib/shop_web/controllers/error_json.ex": lines(
            "defmodule ShopWeb.ErrorJSON do",
            "  def render(template, _assigns),",
            "    do: %{errors: %{detail: Phoenix.Controller.status_message_from_template(template)}}",  # noqa: E501
            "end",
        ),
        f"{web}/lib/shop_web/components/core_components.ex": lines(
            "defmodule ShopWeb.CoreComponents do",
            "  use Phoenix.Component",
            '  attr :type, :string, default: "button"',
            "  slot :inner_block, required: true",
            "  def button(assigns) do",
            '    ~H"""',
            '    <button type={@type} class="btn">{render_slot(@inner_block)}</button>',
            '    """',
            "  end",
            "end",
        ),
        f"{web}/lib/shop_web/components/layouts.ex": lines(
            "defmodule ShopWeb.Layouts do",
            "  use Phoenix.Component",
            '  embed_templates "layouts/*"',
            "end",
        ),
        f"{web}/lib/shop_web/components/layouts/root.html.heex": lines(
            "<!DOCTYPE html>",
            '<html lang="en">',
            '  <head><title>Shop</title><link rel="stylesheet" href="/assets/app.css" /></head>',
            "  <body>{@inner_content}</body>",
            "</html>",
        ),
        f"{web}/lib/shop_web/components/layouts/app.html.heex": lines(
            '<header class="site-header">',
            '  <a href="/" class="brand">Shop</a>',
            '  <nav><a href="/products">Products</a> <a href="/orders">Orders</a></nav>',
            "</header>",
            "<main>{@inner_content}</main>",
        ),
        f"{web}/assets/js/app.js": lines(
            'import "phoenix_html"',
            'import {Socket} from "phoenix"',
            'import {LiveSocket} from "phoenix_live_view"',
        ),
        f"{web}/assets/css/app.css": lines(
            '@import "tailwindcss/base";',
            '@import "tailwindcss/components";',
            '@import "tailwindcss/utilities";',
        ),
        f"{web}/assets/tailwind.config.js": lines(
            "module.exports = {", '  content: ["./js/**/*.js", "../lib/shop_web/**/*.*ex"],', "}"
        ),
        f"{web}/priv/gettext/errors.pot": lines('msgid "can\'t be blank"', 'msgstr ""'),
        f"{web}/priv/gettext/en/LC_MESSAGES/errors.po": lines(
            'msgid "can\'t be blank"', 'msgstr ""'
        ),
        f"{web}/test/test_helper.exs": "ExUnit.start()\n",
        f"{web}/test/support/conn_case.ex": lines(
            "defmodule ShopWeb.ConnCase do",
            "  use ExUnit.CaseTemplate",
            "  using do",
            "    quote do",
            "      import Plug.Conn",
            "      import Phoenix.ConnTest",
            "      import Shop.Fixtures",
            "      @endpoint ShopWeb.Endpoint",
            "    end",
            "  end",
            "  setup _tags, do: {:ok, conn: Phoenix.ConnTest.build_conn()}",
            "end",
        ),
        f"{web}/test/shop_web/controllers/product_controller_test.exs": lines(
            "defmodule ShopWeb.ProductControllerTest do",
            "  use ShopWeb.ConnCase",
            '  test "GET /products lists products", %{conn: conn} do',
            '    product_fixture(%{name: "Oak bowl"})',
            '    assert html_response(get(conn, ~p"/products"), 200) =~ "Oak bowl"',
            "  end",
            "end",
        ),
        f"{web}/test/shop_web/controllers/page_controller_test.exs": lines(
            "defmodule ShopWeb.PageControllerTest do",
            "  use ShopWeb.ConnCase",
            '  test "GET /", %{conn: conn} do',
            '    assert html_response(get(conn, ~p"/"), 200) =~ "Handmade"',
            "  end",
            "end",
        ),
    }
    for stamp, name, body in [
        (
            "20240102101500",
            "create_categories",
            "create table(:categories) do\n      add :name, :string\n      timestamps()\n    end",
        ),
        (
            "20240102101600",
            "create_products",
            "create table(:products) do\n      add :name, :string\n      add :price, :decimal\n      add :active, :boolean, default: true\n      add :category_id, references(:categories)\n      timestamps()\n    end",  # noqa: E501
        ),
        (
            "20240110143000",
            "create_users",
            "create table(:users) do\n      add :email, :citext, null: false\n      add :hashed_password, :string\n      timestamps()\n    end",  # noqa: E501
        ),
        (
            "20240215090000",
            "create_orders",
            "create table(:orders) do\n      add :status, :string\n      add :user_id, references(:users)\n      timestamps()\n    end\n    create table(:line_items) do\n      add :order_id, references(:orders)\n      add :product_id, references(:products)\n      add :quantity, :integer\n      add :unit_price, :decimal\n      timestamps()\n    end",  # noqa: E501
        ),
    ]:
        module = "".join(w.capitalize() for w in name.split("_"))
        files[f"apps/shop/priv/repo/migrations/{stamp}_{name}.exs"] = lines(
            f"defmodule Shop.Repo.Migrations.{module} do",
            "  use Ecto.Migration",
            "  def change do",
            f"    {body}",
            "  end",
            "end",
        )
    return files


def _elixir(s: Scene) -> None:
    s.commit("shop: umbrella with the domain and the Phoenix app", _elixir_files(), days_ago=75)
    s.commit(
        "orders: list a user's orders newest first",
        {"README.md": _read(s, "README.md") + "\nOrders are JSON-only for now.\n"},
        days_ago=10,
    )
    s.intent(
        "Product search: Shop.Catalog.search_products/1 (case-insensitive name match) and a "
        "?q= search box on /products",
        {"apps/shop/lib/shop/catalog.ex": "the catalog context"},
        hours_ago=2,
    )
    # The user's own edit before handing over: their Postgres runs on 5433 with their
    # own role. Theirs, and in the checkpoint they take right after.
    _by_hand(
        s,
        {
            "config/dev.exs": _read(s, "config/dev.exs")
            .replace(
                '  username: "postgres",\n  password: "postgres",\n',
                '  username: "mila",\n  password: "",\n',
            )
            .replace('  hostname: "localhost",\n', '  hostname: "localhost",\n  port: 5433,\n'),
        },
    )
    before = s.checkpoint("before product search")
    web = "apps/shop_web"
    s.agent(
        {
            "apps/shop/lib/shop/catalog.ex": _read(s, "apps/shop/lib/shop/catalog.ex").replace(
                "  def get_product!(id)",
                lines(
                    '  @doc "Active products whose name contains `term`, any case."',
                    '  def search_products(term) when is_binary(term) and term != "" do',
                    '    pattern = "%" <> escape_like(term) <> "%"',
                    "    from(p in Product, where: p.active and ilike(p.name, ^pattern), order_by: p.name)",  # noqa: E501
                    "    |> Repo.all()",
                    "  end",
                    "",
                    "  def search_products(_), do: list_products()",
                    "",
                    '  defp escape_like(t), do: String.replace(t, ["\\\\", "%", "_"], &("\\\\" <> &1))',  # noqa: E501
                    "",
                )
                + "  def get_product!(id)",
            ),
            "apps/shop/priv/repo/migrations/20240521093012_add_products_name_trgm_index.exs": lines(
                "defmodule Shop.Repo.Migrations.AddProductsNameTrgmIndex do",
                "  use Ecto.Migration",
                "  def up do",
                '    execute "CREATE EXTENSION IF NOT EXISTS pg_trgm"',
                '    execute "CREATE INDEX products_name_trgm ON products USING gin (name gin_trgm_ops)"',  # noqa: E501
                "  end",
                '  def down, do: execute("DROP INDEX products_name_trgm")',
                "end",
            ),
            f"{web}/lib/shop_web/controllers/product_controller.ex": _read(
                s, f"{web}/lib/shop_web/controllers/product_controller.ex"
            ).replace(
                "  def index(conn, _params) do\n    render(conn, :index, products: Catalog.list_products())\n",  # noqa: E501
                "  def index(conn, params) do\n"
                '    q = Map.get(params, "q", "")\n'
                "    render(conn, :index, products: Catalog.search_products(q), q: q)\n",
            ),
            f"{web}/lib/shop_web/controllers/product_html/index.html.heex": lines(
                "<h1>Products</h1>",
                '<form action={~p"/products"} method="get" class="search">',
                '  <input type="search" name="q" value={@q} placeholder="Search products" />',
                "</form>",
                '<p :if={@products == []} class="empty">No products match “{@q}”.</p>',
                '<ul class="products">',
                '  <li :for={p <- @products}><a href={~p"/products/#{p}"}>{p.name}</a> {p.price}</li>',  # noqa: E501
                "</ul>",
            ),
            "apps/shop/test/shop/catalog_test.exs": _read(
                s, "apps/shop/test/shop/catalog_test.exs"
            ).removesuffix("end\n")
            + lines(
                "",
                '  test "search_products/1 matches any case and escapes wildcards" do',
                '    product_fixture(%{name: "Oak Bowl"})',
                '    product_fixture(%{name: "100% linen apron"})',
                '    assert ["Oak Bowl"] == Enum.map(Catalog.search_products("bowl"), & &1.name)',
                '    assert ["100% linen apron"] == Enum.map(Catalog.search_products("0%"), & &1.name)',  # noqa: E501
                "  end",
                "end",
            ),
            f"{web}/test/shop_web/controllers/product_controller_test.exs": _read(
                s, f"{web}/test/shop_web/controllers/product_controller_test.exs"
            ).removesuffix("end\n")
            + lines(
                "",
                '  test "GET /products?q= filters", %{conn: conn} do',
                '    product_fixture(%{name: "Oak bowl"})',
                '    product_fixture(%{name: "Linen apron"})',
                '    html = html_response(get(conn, ~p"/products?q=apron"), 200)',
                '    assert html =~ "Linen apron"',
                '    refute html =~ "Oak bowl"',
                "  end",
                "end",
            ),
            # An untouched context rewritten around `with` and Ecto.Multi: orders are not
            # part of search.
            "apps/shop/lib/shop/orders.ex": _EX_ORDERS.replace(
                "  def place_order(user, items) do\n"
                "    Repo.transaction(fn ->\n"
                "      order = Repo.insert!(%Order{user_id: user.id, status: :placed})\n",
                "  def place_order(user, items) do\n"
                "    Ecto.Multi.new()\n"
                "    |> Ecto.Multi.insert(:order, %Order{user_id: user.id, status: :placed})\n"
                "    |> Repo.transaction()\n"
                "    |> case do\n"
                "      {:ok, %{order: order}} -> add_items(order, items)\n"
                "      {:error, _, reason, _} -> {:error, reason}\n"
                "    end\n"
                "  end\n"
                "\n"
                "  defp add_items(order, items) do\n"
                "    Repo.transaction(fn ->\n",
            ),
            ".tool-versions": lines("erlang 26.2.5", "elixir 1.16.3-otp-26"),
            # The brand in the shared layout renamed: not the products page.
            f"{web}/lib/shop_web/components/layouts/app.html.heex": _read(
                s, f"{web}/lib/shop_web/components/layouts/app.html.heex"
            ).replace('class="brand">Shop</a>', 'class="brand">Shop · Handmade Goods</a>'),
            # ElixirLS builds into .elixir_ls/ at the root; the ignore file never knew it.
            ".elixir_ls/build/test/lib/shop/ebin/Elixir.Shop.Catalog.beam": BEAM,
            ".elixir_ls/build/test/lib/shop/ebin/Elixir.Shop.Orders.beam": BEAM + b"\x01",
            ".elixir_ls/build/test/lib/shop/.mix/compile.elixir": b"\x83h\x04d\x00\x02v2"
            + bytes(40),
            ".elixir_ls/build/test/lib/shop_web/ebin/Elixir.ShopWeb.ProductController.beam": BEAM
            + b"\x02",
        }
    )
    s.fine(
        "apps/shop/lib/shop/catalog.ex",
        # A trigram index so ILIKE '%term%' does not scan: part of making search work.
        "apps/shop/priv/repo/migrations/20240521093012_add_products_name_trgm_index.exs",
        f"{web}/lib/shop_web/controllers/product_controller.ex",
        f"{web}/lib/shop_web/controllers/product_html/index.html.heex",
        "apps/shop/test/shop/catalog_test.exs",
        f"{web}/test/shop_web/controllers/product_controller_test.exs",
        "config/dev.exs",  # the user's own edit
    )
    s.drift(
        "apps/shop/lib/shop/orders.ex",
        ".tool-versions",
        f"{web}/lib/shop_web/components/layouts/app.html.heex",
    )
    s.excluded(
        ".elixir_ls/build/test/lib/shop/ebin/Elixir.Shop.Catalog.beam",
        ".elixir_ls/build/test/lib/shop/ebin/Elixir.Shop.Orders.beam",
        ".elixir_ls/build/test/lib/shop/.mix/compile.elixir",
        ".elixir_ls/build/test/lib/shop_web/ebin/Elixir.ShopWeb.ProductController.beam",
    )
    s.safe_checkpoint(before)
    s.note = "checkpoint before the work holds the user's own dev.exs edit"


# -- 5. MkDocs, stale memory, site/ tracked by mistake --------------------------------------------

_MK_PAGES: dict[str, tuple[str, str]] = {
    # docs path -> (title, first paragraph)
    "index.md": ("Lumen API", "Lumen stores and searches your team's events."),
    "getting-started/installation.md": (
        "Installation",
        "Install the CLI with `pipx install lumen`.",
    ),
    "getting-started/quickstart.md": ("Quickstart", "Create a project and send your first event."),
    "getting-started/configuration.md": ("Configuration", "Settings come from `lumen.toml`."),
    "api/overview.md": ("API overview", "A JSON API over HTTPS, versioned in the path."),
    "api/authentication.md": ("Authentication", "Send a bearer token with every request."),
    "api/errors.md": ("Errors", "Errors are RFC 9457 problem documents."),
    "api/pagination.md": ("Pagination", "Lists are cursor-paginated."),
    "api/rate-limits.md": ("Rate limits", "600 requests per minute per token."),
    "api/webhooks.md": ("Webhooks", "Lumen signs every webhook with HMAC-SHA256."),
    "api/endpoints/projects.md": ("Projects", "`GET /v2/projects` lists your projects."),
    "api/endpoints/users.md": ("Users", "`GET /v2/users/me` returns the caller."),
    "api/endpoints/tokens.md": ("Tokens", "`POST /v2/tokens` creates an API token."),
    "api/endpoints/events.md": ("Events", "`POST /v2/events` ingests a batch."),
    "how-to/invite-teammates.md": ("Invite teammates", "Owners invite from Settings → Team."),
    "how-to/export-data.md": ("Export data", "Exports are NDJSON, one event per line."),
    "how-to/set-up-sso.md": ("Set up SSO", "SAML 2.0 with Okta, Entra ID or Google."),
    "reference/cli.md": ("CLI reference", "`lumen events tail` follows a project."),
    "reference/environment-variables.md": (
        "Environment variables",
        "`LUMEN_TOKEN` overrides the config file.",
    ),
    "changelog.md": ("Changelog", "All notable changes since 2023."),
    "changelog-2022.md": ("Changelog 2022", "Changes before 3.0, kept for old integrations."),
}
_MK_NAV = [p for p in _MK_PAGES if p != "changelog-2022.md"]
_MK_NEW = "how-to/rotate-api-keys.md"
_MK_OLD_GEN = "mkdocs-1.5.3, mkdocs-material-9.5.3"
_MK_NEW_GEN = "mkdocs-1.6.0, mkdocs-material-9.5.27"
_MK_OLD_ASSETS = ("main.50c56a3b.min.css", "bundle.1e8ae164.min.js")
_MK_NEW_ASSETS = ("main.6543a935.min.css", "bundle.ad660dcc.min.js")


def _mk_url(page: str) -> str:
    return "" if page == "index.md" else page.removesuffix(".md") + "/"


def _mk_site_page(title: str, para: str, nav: list[str], gen: str, assets: tuple[str, str]) -> str:
    """A page as mkdocs-material renders it (trimmed to what changes between builds)."""
    titles = {**{p: t for p, (t, _) in _MK_PAGES.items()}, _MK_NEW: "Rotate API keys"}
    return lines(
        "<!doctype html>",
        '<html lang="en" class="no-js">',
        "  <head>",
        '    <meta charset="utf-8">',
        '    <meta name="viewport" content="width=device-width,initial-scale=1">',
        '    <link rel="icon" href="/assets/favicon.ico">',
        f'    <meta name="generator" content="{gen}">',
        f"    <title>{title} - Lumen Docs</title>",
        f'    <link rel="stylesheet" href="/assets/stylesheets/{assets[0]}">',
        '    <link rel="stylesheet" href="/stylesheets/extra.css">',
        "  </head>",
        "  <body>",
        '    <nav class="md-nav md-nav--primary"><ul class="md-nav__list">',
        *(
            f'      <li class="md-nav__item"><a href="/{_mk_url(p)}" class="md-nav__link">{titles[p]}</a></li>'  # noqa: E501
            for p in nav
        ),
        "    </ul></nav>",
        f'    <article class="md-content__inner md-typeset"><h1>{title}</h1><p>{para}</p></article>',  # noqa: E501
        f'    <script src="/assets/javascripts/{assets[1]}"></script>',
        "  </body>",
        "</html>",
    )


def _mk_site(
    pages: Mapping[str, tuple[str, str]],
    nav: list[str],
    gen: str,
    assets: tuple[str, str],
    css: str,
    day: str,
) -> dict[str, str | bytes]:
    """What `mkdocs build` leaves in site/ (the parts that were ever committed)."""
    out: dict[str, str | bytes] = {}
    for page, (title, para) in pages.items():
        out[f"site/{_mk_url(page)}index.html"] = _mk_site_page(title, para, nav, gen, assets)
    out["site/404.html"] = _mk_site_page("404 - Not found", "Nothing here.", nav, gen, assets)
    out["site/sitemap.xml"] = lines(
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        *(
            f"    <url><loc>https://docs.lumen.example/{_mk_url(p)}</loc><lastmod>{day}</lastmod></url>"
            for p in pages
        ),
        "</urlset>",
    )
    out["site/sitemap.xml.gz"] = GZIP + day.encode() + str(len(pages)).encode()
    out["site/search/search_index.json"] = (
        '{"config":{"lang":["en"],"separator":"[\\\\s\\\\-]+"},"docs":['
        + ",".join(
            f'{{"location":"{_mk_url(p)}","title":"{t}","text":"{x}"}}'
            for p, (t, x) in pages.items()
        )
        + "]}\n"
    )
    out["site/stylesheets/extra.css"] = css
    out[f"site/assets/stylesheets/{assets[0]}"] = f"/* {gen} */\n.md-typeset{{font-size:.8rem}}\n"
    out[f"site/assets/javascripts/{assets[1]}"] = f'/* {gen} */\n"use strict";(()=>{{}})();\n'
    out["site/assets/logo.png"] = PNG + b"lumen"
    out["site/assets/favicon.ico"] = ICO
    return out


_MK_CSS = lines(
    ":root { --md-primary-fg-color: #3b2f8f; --md-accent-fg-color: #f0a020; }",
    ".md-typeset .admonition.deprecated { border-color: #b00; }",
    ".md-header__title { font-weight: 700; }",
)
_MK_CSS_FORMATTED = lines(
    ":root {",
    "  --md-primary-fg-color: #3b2f8f;",
    "  --md-accent-fg-color: #f0a020;",
    "}",
    "",
    ".md-typeset .admonition.deprecated {",
    "  border-color: #b00;",
    "}",
    "",
    ".md-header__title {",
    "  font-weight: 700;",
    "}",
)


def _mk_yml(nav: list[str]) -> str:
    titles = {**{p: t for p, (t, _) in _MK_PAGES.items()}, _MK_NEW: "Rotate API keys"}
    sections: dict[str, list[str]] = {}
    for page in nav:
        head = page.split("/")[0] if "/" in page else ""
        sections.setdefault(head, []).append(page)
    names = {
        "": None,
        "getting-started": "Getting started",
        "api": "API",
        "how-to": "How-to guides",
        "reference": "Reference",
    }
    out = [
        "site_name: Lumen Docs",
        "site_url: https://docs.lumen.example/",
        "repo_url: https://github.com/lumen-hq/docs",
        "theme:",
        "  name: material",
        "  custom_dir: overrides",
        "  logo: assets/logo.png",
        "  favicon: assets/favicon.ico",
        "  features: [navigation.sections, search.suggest, content.code.copy]",
        "extra_css: [stylesheets/extra.css]",
        "markdown_extensions: [admonition, toc, pymdownx.superfences]",
        "nav:",
    ]
    for head, pages in sections.items():
        if names[head] is None:
            out += [f"  - {titles[p]}: {p}" for p in pages]
        else:
            out.append(f"  - {names[head]}:")
            out += [f"      - {titles[p]}: {p}" for p in pages]
    return lines(*out)


def _mkdocs_files() -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        ".gitignore": lines(".venv/", "__pycache__/"),
        "mkdocs.yml": _mk_yml(_MK_NAV),
        "requirements-docs.txt": lines(
            "mkdocs==1.5.3", "mkdocs-material==9.5.3", "pymdown-extensions==10.7"
        ),
        "overrides/main.html": lines(
            '{% extends "base.html" %}',
            "{% block announce %}Lumen 3.4 is out — see the changelog.{% endblock %}",
        ),
        "README.md": lines(
            "# Lumen docs",
            "",
            "    pip install -r requirements-docs.txt",
            "    mkdocs serve",
            "",
            "Publishing runs `mkdocs gh-deploy` in CI; never commit site/.",
        ),
        ".github/workflows/docs.yml": lines(
            "name: docs",
            "on:",
            "  push:",
            "    branches: [main]",
            "jobs:",
            "  deploy:",
            "    runs-on: ubuntu-latest",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - uses: actions/setup-python@v5",
            "        with: {python-version: '3.12'}",
            "      - run: pip install -r requirements-docs.txt",
            "      - run: mkdocs gh-deploy --force",
        ),
        "docs/assets/logo.png": PNG + b"lumen",
        "docs/assets/favicon.ico": ICO,
        "docs/stylesheets/extra.css": _MK_CSS,
    }
    for page, (title, para) in _MK_PAGES.items():
        files[f"docs/{page}"] = lines(f"# {title}", "", para)
    # The first `mkdocs build` was committed with everything else (`git add .`).
    files.update(_mk_site(_MK_PAGES, _MK_NAV, _MK_OLD_GEN, _MK_OLD_ASSETS, _MK_CSS, "2023-11-02"))
    return files


def _mkdocs(s: Scene) -> None:
    s.commit("docs: Lumen API docs on MkDocs Material", _mkdocs_files(), days_ago=200)
    # site/ added to the ignore file, but never `git rm --cached`: still tracked.
    s.commit(
        "ignore site/ (built by CI now)",
        {".gitignore": lines(".venv/", "__pycache__/", "site/")},
        days_ago=150,
    )
    s.intent(
        "Document API token authentication: bearer tokens, scopes and expiry",
        {"docs/api/authentication.md": "the authentication page"},
        hours_ago=24 * 22,
    )
    # A checkpoint from that old session, three commits ago.
    s.checkpoint("before token docs")
    auth = lines(
        "# Authentication",
        "",
        "Send a bearer token with every request:",
        "",
        "    Authorization: Bearer lmn_live_…",
        "",
        "## Scopes",
        "",
        "`events:write`, `events:read`, `projects:admin`.",
        "",
        "## Expiry",
        "",
        "Tokens expire after 90 days unless created with `expires_in: null`.",
    )
    s.commit(
        "api: tokens, scopes and expiry",
        {
            "docs/api/authentication.md": auth,
            # Whoever committed this ran `mkdocs build` and `git commit -a`.
            "site/api/authentication/index.html": _read(
                s, "site/api/authentication/index.html"
            ).replace(
                "Send a bearer token with every request.", "Send a bearer token with every request:"
            ),
        },
        days_ago=20,
    )
    s.commit(
        "webhooks: retry policy",
        {
            "docs/api/webhooks.md": _read(s, "docs/api/webhooks.md")
            + "\nRetries back off for 24 hours.\n"
        },
        days_ago=6,
    )
    s.commit(
        "changelog: 3.4",
        {"docs/changelog.md": _read(s, "docs/changelog.md") + "\n## 3.4\n\n- Token expiry.\n"},
        days_ago=1,
    )
    today = s.checkpoint("start of today's session")
    # Memory still says "token docs" (shipped twenty days ago). Today, in the chat: "add a
    # how-to on rotating API keys, with a screenshot of the keys page".
    nav = [*_MK_NAV]
    nav.insert(nav.index("how-to/set-up-sso.md") + 1, _MK_NEW)
    texts = {
        **_MK_PAGES,
        "api/authentication.md": ("Authentication", "Send a bearer token with every request:"),
        _MK_NEW: ("Rotate API keys", "Create the new key, deploy it, then revoke the old one."),
    }
    pages = {p: texts[p] for p in nav}
    site = _mk_site(pages, nav, _MK_NEW_GEN, _MK_NEW_ASSETS, _MK_CSS_FORMATTED, "2024-05-21")
    old_site = {p for p in _mkdocs_files() if p.startswith("site/")}
    # `mkdocs build` (it cleans site/ first): every tracked page rewritten for the new nav
    # and generator, the deleted page's HTML and the old hashed assets gone. New files it
    # writes are ignored now; only the tracked ones show.
    rebuilt = {
        p: v
        for p, v in site.items()
        if p in old_site and (s.root / p).read_bytes() != (v.encode() if isinstance(v, str) else v)
    }
    gone = sorted(old_site - set(site))
    s.agent(
        {
            f"docs/{_MK_NEW}": lines(
                "# Rotate API keys",
                "",
                "1. Open **Settings → API keys** and create a key with the same scopes.",
                "",
                "   ![The API keys page](<../assets/screenshots/API keys page.png>)",
                "",
                "2. Deploy it everywhere the old key is used.",
                "3. Revoke the old key; requests with it fail with `401` at once.",
            ),
            "docs/assets/screenshots/API keys page.png": PNG + b"settings/api-keys 1440x900",
            "mkdocs.yml": _mk_yml(nav),
            "docs/api/authentication.md": auth
            + "\nSee [Rotate API keys](../how-to/rotate-api-keys.md).\n",
            "docs/stylesheets/extra.css": _MK_CSS_FORMATTED,
            "requirements-docs.txt": lines(
                "mkdocs==1.6.0", "mkdocs-material==9.5.27", "pymdown-extensions==10.8.1"
            ),
            **rebuilt,
        },
        # "Not in the nav, looks orphaned": old integrators still follow its links.
        delete=["docs/changelog-2022.md", *gone],
    )
    s.fine(
        f"docs/{_MK_NEW}",
        "docs/assets/screenshots/API keys page.png",
        "mkdocs.yml",  # only the nav entry for the new page
        # A "see also" from the page the new how-to is about: part of adding it.
        "docs/api/authentication.md",
    )
    s.drift("docs/changelog-2022.md", "docs/stylesheets/extra.css", "requirements-docs.txt")
    # site/ is build output that was committed by mistake; rebuilt, still machine-made.
    s.excluded(*rebuilt, *gone)
    s.safe_checkpoint(today)
    s.note = (
        "stale memory; the old checkpoint predates three commits, today's is clean and safe; "
        "tracked site/ rebuilt"
    )


# -- 6. Vue 3 + Vite + Pinia ----------------------------------------------------------------------

_VUE_COMPONENTS = [
    "AppFooter",
    "AppHeader",
    "CartLine",
    "PriceTag",
    "ProductCard",
    "ProductGrid",
    "QuantityStepper",
    "SearchBox",
]


def _components_dts(names: list[str]) -> str:
    """components.d.ts as unplugin-vue-components writes it on every dev/build run."""
    return lines(
        "/* eslint-disable */",
        "// @ts-nocheck",
        "// Generated by unplugin-vue-components",
        "// Read more: https://github.com/vuejs/core/pull/3399",
        "export {}",
        "",
        "/* prettier-ignore */",
        "declare module 'vue' {",
        "  export interface GlobalComponents {",
        *(f"    {n}: typeof import('./src/components/{n}.vue')['default']" for n in sorted(names)),
        "    RouterLink: typeof import('vue-router')['RouterLink']",
        "    RouterView: typeof import('vue-router')['RouterView']",
        "  }",
        "}",
    )


def _pnpm_lock(*, persisted: bool) -> str:
    deps = [
        "      pinia:",
        "        specifier: ^2.1.7",
        "        version: 2.1.7(typescript@5.4.5)(vue@3.4.27(typescript@5.4.5))",
    ]
    if persisted:
        deps += [
            "      pinia-plugin-persistedstate:",
            "        specifier: ^3.2.1",
            "        version: 3.2.1(pinia@2.1.7(typescript@5.4.5)(vue@3.4.27(typescript@5.4.5)))",
        ]
    deps += [
        "      vue:",
        "        specifier: ^3.4.27",
        "        version: 3.4.27(typescript@5.4.5)",
        "      vue-router:",
        "        specifier: ^4.3.2",
        "        version: 4.3.2(vue@3.4.27(typescript@5.4.5))",
    ]
    packages = [
        "  pinia@2.1.7:",
        "    resolution: {integrity: sha512-+C2AHFtcFqjPih0zpYuvof37SFxMQ7OEG2zV9jRI12i9BOy3YQVAHwdKtyyc8pDcDyIc33WCIsZaCFWU7WWxGQ==}",  # noqa: E501
        "    peerDependencies:",
        "      '@vue/composition-api': ^1.4.0",
        "      typescript: '>=4.4.4'",
        "      vue: ^2.6.14 || ^3.3.0",
    ]
    if persisted:
        packages += [
            "",
            "  pinia-plugin-persistedstate@3.2.1:",
            "    resolution: {integrity: sha512-MK++8LRUsGF7r45PjBFES82ISnPzyO6IZx3CH5vyPseFLZCk1g2kgx6l/nW8pEBKxxd4do0P6bJw+mUSZIEZUQ==}",  # noqa: E501
            "    peerDependencies:",
            "      pinia: ^2.0.0",
        ]
    packages += [
        "",
        "  vue-router@4.3.2:",
        "    resolution: {integrity: sha512-hKQJ1vDAZ5LVkKEnHhmm1f9pMiWIBNGF5AwU67PdH7TyXCj/a4hTccuUuYCAMgJK6rO/NVYtQIEN3yL8CECa7Q==}",  # noqa: E501
        "    peerDependencies:",
        "      vue: ^3.2.0",
        "",
        "  vue@3.4.27:",
        "    resolution: {integrity: sha512-8s/56uK6r01r1icG/aEOHqyMVxd1bkYcSe9j8HcKtr/xTOFWvnzIVTehNW+5Yt89f+DLBe4A569pnZLS5HzAMA==}",  # noqa: E501
        "    peerDependencies:",
        "      typescript: '*'",
    ]
    return lines(
        "lockfileVersion: '9.0'",
        "",
        "settings:",
        "  autoInstallPeers: true",
        "  excludeLinksFromLockfile: false",
        "",
        "importers:",
        "",
        "  .:",
        "    dependencies:",
        *deps,
        "    devDependencies:",
        "      '@vitejs/plugin-vue':",
        "        specifier: ^5.0.4",
        "        version: 5.0.4(vite@5.2.11)(vue@3.4.27(typescript@5.4.5))",
        "      unplugin-vue-components:",
        "        specifier: ^0.27.0",
        "        version: 0.27.0(vue@3.4.27(typescript@5.4.5))",
        "      vite:",
        "        specifier: ^5.2.11",
        "        version: 5.2.11",
        "      vitest:",
        "        specifier: ^1.6.0",
        "        version: 1.6.0(jsdom@24.0.0)",
        "",
        "packages:",
        "",
        *packages,
    )


def _vue_sfc(name: str, template: str, script: str = "") -> str:
    return lines(
        '<script setup lang="ts">',
        *([script] if script else []),
        "</script>",
        "",
        "<template>",
        f"  {template}",
        "</template>",
        "",
        "<style scoped>",
        f".{name.lower()} {{ display: block; }}",
        "</style>",
    )


_VUE_CHECKOUT = lines(
    '<script setup lang="ts">',
    "import { useCartStore } from '@/stores/cart'",
    "import { useOrdersApi } from '@/api/orders'",
    "const cart = useCartStore()",
    "const { placeOrder } = useOrdersApi()",
    "</script>",
    "",
    "<template>",
    '  <section class="checkout">',
    "    <h1>Checkout</h1>",
    '    <CartLine v-for="line in cart.lines" :key="line.sku" :line="line" />',
    '    <PriceTag :cents="cart.totalCents" />',
    '    <button class="pay" @click="placeOrder(cart.lines)">Pay now</button>',
    "  </section>",
    "</template>",
    "",
    "<style scoped>",
    ".checkout { max-width: 40rem; margin: 0 auto; }",
    ".pay { margin-top: 1rem; }",
    "</style>",
)


def _vue_files() -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        ".gitignore": lines(
            "node_modules",
            "dist",
            "dist-ssr",
            "coverage",
            "*.local",
            ".vscode/*",
            "!.vscode/extensions.json",
        ),
        ".vscode/extensions.json": '{ "recommendations": ["Vue.volar"] }\n',
        "package.json": lines(
            "{",
            '  "name": "fika-shop",',
            '  "private": true,',
            '  "type": "module",',
            '  "scripts": {',
            '    "dev": "vite",',
            '    "build": "vue-tsc -b && vite build",',
            '    "test:unit": "vitest"',
            "  },",
            '  "dependencies": {',
            '    "pinia": "^2.1.7",',
            '    "vue": "^3.4.27",',
            '    "vue-router": "^4.3.2"',
            "  },",
            '  "devDependencies": {',
            '    "@vitejs/plugin-vue": "^5.0.4",',
            '    "unplugin-vue-components": "^0.27.0",',
            '    "vite": "^5.2.11",',
            '    "vitest": "^1.6.0"',
            "  }",
            "}",
        ),
        "pnpm-lock.yaml": _pnpm_lock(persisted=False),
        "vite.config.ts": lines(
            "import { fileURLToPath, URL } from 'node:url'",
            "import { defineConfig } from 'vite'",
            "import vue from '@vitejs/plugin-vue'",
            "import Components from 'unplugin-vue-components/vite'",
            "",
            "export default defineConfig({",
            "  plugins: [vue(), Components({ dts: 'components.d.ts' })],",
            "  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },",
            "  server: { port: 5173, proxy: { '/api': 'http://localhost:8000' } },",
            "})",
        ),
        "vitest.config.ts": lines(
            "import { mergeConfig, defineConfig } from 'vitest/config'",
            "import viteConfig from './vite.config'",
            "export default mergeConfig(viteConfig, defineConfig({ test: { environment: 'jsdom' } }))",  # noqa: E501
        ),
        "tsconfig.json": '{ "files": [], "references": [{ "path": "./tsconfig.app.json" }, { "path": "./tsconfig.node.json" }] }\n',  # noqa: E501
        "tsconfig.app.json": lines(
            "{",
            '  "extends": "@vue/tsconfig/tsconfig.dom.json",',
            '  "include": ["env.d.ts", "src/**/*", "src/**/*.vue", "components.d.ts"],',
            '  "compilerOptions": { "paths": { "@/*": ["./src/*"] } }',
            "}",
        ),
        "tsconfig.node.json": '{ "include": ["vite.config.*", "vitest.config.*"] }\n',
        "env.d.ts": '/// <reference types="vite/client" />\n',
        "index.html": lines(
            "<!DOCTYPE html>",
            '<html lang="sv">',
            '  <head><meta charset="UTF-8" /><link rel="icon" href="/favicon.ico" /><title>Fika</title></head>',  # noqa: E501
            '  <body><div id="app"></div><script type="module" src="/src/main.ts"></script></body>',
            "</html>",
        ),
        "components.d.ts": _components_dts(_VUE_COMPONENTS),
        "public/favicon.ico": ICO,
        "public/img/hero.webp": WEBP + b"hero",
        "src/main.ts": lines(
            "import './assets/main.css'",
            "",
            "import { createApp } from 'vue'",
            "import { createPinia } from 'pinia'",
            "",
            "import App from './App.vue'",
            "import router from './router'",
            "",
            "const app = createApp(App)",
            "",
            "app.use(createPinia())",
            "app.use(router)",
            "",
            "app.mount('#app')",
        ),
        "src/App.vue": _vue_sfc("app", "<AppHeader /><RouterView /><AppFooter />"),
        "src/router/index.ts": lines(
            "import { createRouter, createWebHistory } from 'vue-router'",
            "import HomeView from '../views/HomeView.vue'",
            "",
            "export default createRouter({",
            "  history: createWebHistory(import.meta.env.BASE_URL),",
            "  routes: [",
            "    { path: '/', name: 'home', component: HomeView },",
            "    { path: '/p/:slug', name: 'product', component: () => import('../views/ProductView.vue') },",  # noqa: E501
            "    { path: '/cart', name: 'cart', component: () => import('../views/CartView.vue') },",  # noqa: E501
            "    { path: '/checkout', name: 'checkout', component: () => import('../views/CheckoutView.vue') },",  # noqa: E501
            "    { path: '/account', name: 'account', component: () => import('../views/AccountView.vue') },",  # noqa: E501
            "    { path: '/:rest(.*)*', component: () => import('../views/NotFoundView.vue') },",
            "  ],",
            "})",
        ),
        "src/stores/cart.ts": lines(
            "import { defineStore } from 'pinia'",
            "import { computed, ref } from 'vue'",
            "",
            "export interface CartLine { sku: string; name: string; priceCents: number; qty: number }",  # noqa: E501
            "",
            "export const useCartStore = defineStore('cart', () => {",
            "  const lines = ref<CartLine[]>([])",
            "  const totalCents = computed(() => lines.value.reduce((n, l) => n + l.priceCents * l.qty, 0))",  # noqa: E501
            "  function add(line: Omit<CartLine, 'qty'>) {",
            "    const found = lines.value.find((l) => l.sku === line.sku)",
            "    if (found) found.qty++",
            "    else lines.value.push({ ...line, qty: 1 })",
            "  }",
            "  function remove(sku: string) {",
            "    lines.value = lines.value.filter((l) => l.sku !== sku)",
            "  }",
            "  return { lines, totalCents, add, remove }",
            "})",
        ),
        "src/stores/catalog.ts": lines(
            "import { defineStore } from 'pinia'",
            "import { fetchProducts, type Product } from '@/api/products'",
            "",
            "export const useCatalogStore = defineStore('catalog', {",
            "  state: () => ({ products: [] as Product[], loading: false }),",
            "  actions: {",
            "    async load() {",
            "      this.loading = true",
            "      this.products = await fetchProducts()",
            "      this.loading = false",
            "    },",
            "  },",
            "})",
        ),
        "src/stores/user.ts": lines(
            "import { defineStore } from 'pinia'",
            "export const useUserStore = defineStore('user', { state: () => ({ name: '' as string, loggedIn: false }) })",  # noqa: E501
        ),
        "src/stores/ui.ts": lines(
            "import { defineStore } from 'pinia'",
            "export const useUiStore = defineStore('ui', { state: () => ({ menuOpen: false }) })",
        ),
        "src/stores/__tests__/cart.spec.ts": lines(
            "import { setActivePinia, createPinia } from 'pinia'",
            "import { beforeEach, describe, expect, it } from 'vitest'",
            "import { useCartStore } from '../cart'",
            "",
            "describe('cart', () => {",
            "  beforeEach(() => setActivePinia(createPinia()))",
            "",
            "  it('adds the same sku once with a quantity', () => {",
            "    const cart = useCartStore()",
            "    cart.add({ sku: 'k1', name: 'Kanelbulle', priceCents: 3500 })",
            "    cart.add({ sku: 'k1', name: 'Kanelbulle', priceCents: 3500 })",
            "    expect(cart.lines).toHaveLength(1)",
            "    expect(cart.totalCents).toBe(7000)",
            "  })",
            "})",
        ),
        "src/stores/__tests__/catalog.spec.ts": lines(
            "import { setActivePinia, createPinia } from 'pinia'",
            "import { it, expect, vi } from 'vitest'",
            "vi.mock('@/api/products', () => ({ fetchProducts: async () => [{ slug: 'bulle' }] }))",
            "import { useCatalogStore } from '../catalog'",
            "it('loads products', async () => {",
            "  setActivePinia(createPinia())",
            "  const s = useCatalogStore()",
            "  await s.load()",
            "  expect(s.products).toHaveLength(1)",
            "})",
        ),
        "src/api/client.ts": lines(
            "export async function api<T>(path: string, init?: RequestInit): Promise<T> {",
            "  const res = await fetch(`/api${path}`, init)",
            "  if (!res.ok) throw new Error(`${res.status} ${path}`)",
            "  return res.json() as Promise<T>",
            "}",
        ),
        "src/api/products.ts": lines(
            "import { api } from './client'",
            "export interface Product { slug: string; name: string; priceCents: number }",
            "export const fetchProducts = () => api<Product[]>('/products')",
        ),
        "src/api/orders.ts": lines(
            "import { api } from './client'",
            "import type { CartLine } from '@/stores/cart'",
            "export function useOrdersApi() {",
            "  const placeOrder = (lines: CartLine[]) => api('/orders', { method: 'POST', body: JSON.stringify(lines) })",  # noqa: E501
            "  return { placeOrder }",
            "}",
        ),
        "src/composables/useCurrency.ts": lines(
            "const fmt = new Intl.NumberFormat('sv-SE', { style: 'currency', currency: 'SEK' })",
            "export const useCurrency = () => ({ format: (cents: number) => fmt.format(cents / 100) })",  # noqa: E501
        ),
        "src/assets/main.css": lines(
            "@import './base.css';", "#app { max-width: 72rem; margin: 0 auto; }"
        ),
        "src/assets/base.css": lines(
            ":root { --brand: #7a4b2a; }", "body { font-family: system-ui; }"
        ),
        "src/assets/logo.svg": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><circle cx="12" cy="12" r="10" fill="#7a4b2a"/></svg>\n',  # noqa: E501
        "src/views/HomeView.vue": _vue_sfc("home", "<ProductGrid />"),
        "src/views/ProductView.vue": _vue_sfc(
            "product", '<ProductCard :slug="$route.params.slug" />'
        ),
        "src/views/CartView.vue": lines(
            '<script setup lang="ts">',
            "import { useCartStore } from '@/stores/cart'",
            "const cart = useCartStore()",
            "</script>",
            "",
            "<template>",
            '  <section class="cart">',
            "    <h1>Varukorg</h1>",
            '    <CartLine v-for="line in cart.lines" :key="line.sku" :line="line" />',
            '    <PriceTag :cents="cart.totalCents" />',
            '    <RouterLink to="/checkout">Till kassan</RouterLink>',
            "  </section>",
            "</template>",
        ),
        "src/views/CheckoutView.vue": _VUE_CHECKOUT,
        "src/views/AccountView.vue": _vue_sfc("account", "<h1>Mitt konto</h1>"),
        "src/views/NotFoundView.vue": _vue_sfc("notfound", "<h1>Sidan finns inte</h1>"),
        ".github/workflows/ci.yml": lines(
            "name: ci",
            "on: [push, pull_request]",
            "jobs:",
            "  test:",
            "    runs-on: ubuntu-latest",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - uses: pnpm/action-setup@v2",
            "        with: {version: 8}",
            "      - uses: actions/setup-node@v4",
            "        with: {node-version: 18, cache: pnpm}",
            "      - run: pnpm install --frozen-lockfile",
            "      - run: pnpm test:unit --run",
        ),
        ".github/workflows/deploy.yml": lines(
            "name: deploy",
            "on:",
            "  push:",
            "    branches: [main]",
            "jobs:",
            "  deploy:",
            "    runs-on: ubuntu-latest",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - uses: pnpm/action-setup@v2",
            "        with: {version: 8}",
            "      - uses: actions/setup-node@v4",
            "        with: {node-version: 18, cache: pnpm}",
            "      - run: pnpm install --frozen-lockfile && pnpm build",
            "      - uses: actions/upload-pages-artifact@v3",
            "        with: {path: dist}",
        ),
        "README.md": lines(
            "# fika-shop",
            "",
            "Vue 3 + Vite + Pinia storefront.",
            "",
            "    pnpm install",
            "    pnpm dev",
        ),
    }
    for name in _VUE_COMPONENTS:
        files[f"src/components/{name}.vue"] = _vue_sfc(
            name, f'<div class="{name.lower()}"><slot /></div>'
        )
    for name in ("CartLine", "ProductCard", "PriceTag"):
        files[f"src/components/__tests__/{name}.spec.ts"] = lines(
            "import { mount } from '@vue/test-utils'",
            "import { it, expect } from 'vitest'",
            f"import {name} from '../{name}.vue'",
            f"it('renders {name}', () => {{",
            f"  expect(mount({name}).exists()).toBe(true)",
            "})",
        )
    return files


def _vue(s: Scene) -> None:
    s.commit("fika-shop: storefront on Vue 3 + Vite + Pinia", _vue_files(), days_ago=50)
    s.commit(
        "checkout: pay button calls the orders API",
        {"README.md": _read(s, "README.md") + "\nThe API runs on :8000 (proxied at /api).\n"},
        days_ago=5,
    )
    s.intent(
        "Keep the cart across page reloads (pinia-plugin-persistedstate on the cart store) and "
        "show an empty-cart illustration on the cart page",
        {"src/stores/cart.ts": "the cart store"},
        hours_ago=1,
    )
    s.agent(
        {
            "package.json": _read(s, "package.json").replace(
                '    "pinia": "^2.1.7",\n',
                '    "pinia": "^2.1.7",\n    "pinia-plugin-persistedstate": "^3.2.1",\n',
            ),
            # `pnpm add pinia-plugin-persistedstate`: the lock file follows the one
            # dependency the intent names.
            "pnpm-lock.yaml": _pnpm_lock(persisted=True),
            "src/main.ts": _read(s, "src/main.ts")
            .replace(
                "import { createPinia } from 'pinia'\n",
                "import { createPinia } from 'pinia'\n"
                "import piniaPluginPersistedstate from 'pinia-plugin-persistedstate'\n",
            )
            .replace(
                "app.use(createPinia())\n",
                "const pinia = createPinia()\npinia.use(piniaPluginPersistedstate)\napp.use(pinia)\n",  # noqa: E501
            ),
            "src/stores/cart.ts": _read(s, "src/stores/cart.ts").replace(
                "  return { lines, totalCents, add, remove }\n})\n",
                "  return { lines, totalCents, add, remove }\n"
                "}, {\n"
                "  persist: { key: 'fika-cart', paths: ['lines'] },\n"
                "})\n",
            ),
            "src/stores/__tests__/cart.spec.ts": _read(s, "src/stores/__tests__/cart.spec.ts")
            .replace(
                "import { setActivePinia, createPinia } from 'pinia'\n",
                "import { setActivePinia, createPinia } from 'pinia'\n"
                "import piniaPluginPersistedstate from 'pinia-plugin-persistedstate'\n",
            )
            .replace(
                "  beforeEach(() => setActivePinia(createPinia()))\n",
                "  beforeEach(() => {\n"
                "    localStorage.clear()\n"
                "    const pinia = createPinia()\n"
                "    pinia.use(piniaPluginPersistedstate)\n"
                "    setActivePinia(pinia)\n"
                "  })\n",
            )
            .removesuffix("})\n")
            + lines(
                "",
                "  it('writes the lines to localStorage', () => {",
                "    useCartStore().add({ sku: 'k1', name: 'Kanelbulle', priceCents: 3500 })",
                "    expect(JSON.parse(localStorage.getItem('fika-cart')!).lines).toHaveLength(1)",
                "  })",
                "})",
            ),
        }
    )
    mid = s.checkpoint("cart persists")
    s.agent(
        {
            "src/components/EmptyCart.vue": lines(
                '<script setup lang="ts">',
                "import illustration from '@/assets/illustrations/empty-cart.webp'",
                "</script>",
                "",
                "<template>",
                '  <figure class="empty-cart">',
                '    <img :src="illustration" alt="" width="240" height="180" />',
                "    <figcaption>Varukorgen är tom.</figcaption>",
                '    <RouterLink to="/">Fortsätt handla</RouterLink>',
                "  </figure>",
                "</template>",
            ),
            "src/assets/illustrations/empty-cart.webp": WEBP + b"empty-cart 480x360",
            "src/views/CartView.vue": _read(s, "src/views/CartView.vue").replace(
                "    <h1>Varukorg</h1>\n",
                '    <h1>Varukorg</h1>\n    <EmptyCart v-if="cart.lines.length === 0" />\n',
            ),
            # The dev server regenerated the component typings for EmptyCart.
            "components.d.ts": _components_dts([*_VUE_COMPONENTS, "EmptyCart"]),
            # The neighbouring checkout screen "fixed" while the cart view was open:
            # a sticky pay bar and the button relabelled.
            "src/views/CheckoutView.vue": _VUE_CHECKOUT.replace(
                '    <button class="pay" @click="placeOrder(cart.lines)">Pay now</button>\n',
                '    <div class="paybar">\n'
                '      <button class="pay" @click="placeOrder(cart.lines)">Betala</button>\n'
                "    </div>\n",
            ).replace(
                ".pay { margin-top: 1rem; }\n",
                ".paybar { position: sticky; bottom: 0; background: white; }\n"
                ".pay { width: 100%; }\n",
            ),
            "vite.config.ts": _read(s, "vite.config.ts").replace(
                "server: { port: 5173,", "server: { port: 3000, open: true,"
            ),
            ".github/workflows/deploy.yml": _read(s, ".github/workflows/deploy.yml")
            .replace("pnpm/action-setup@v2", "pnpm/action-setup@v4")
            .replace("{version: 8}", "{version: 9}")
            .replace("node-version: 18", "node-version: 20"),
        }
    )
    s.fine(
        "package.json",
        "pnpm-lock.yaml",
        "src/main.ts",
        "src/stores/cart.ts",
        "src/stores/__tests__/cart.spec.ts",
        "src/components/EmptyCart.vue",
        "src/assets/illustrations/empty-cart.webp",
        "src/views/CartView.vue",
    )
    s.drift("src/views/CheckoutView.vue", "vite.config.ts", ".github/workflows/deploy.yml")
    s.excluded("components.d.ts")
    s.safe_checkpoint(mid)
    s.note = "mid-session checkpoint after the persistence work, before any drift"


# -- 7. Terraform modules, empty memory -----------------------------------------------------------


def _tf_lock(aws: str, aws_hashes: list[str], *, random: bool) -> str:
    """.terraform.lock.hcl as `terraform init` writes it."""
    out = [
        '# This file is maintained automatically by "terraform init".',
        "# Manual edits may be lost in future updates.",
        "",
        'provider "registry.terraform.io/hashicorp/aws" {',
        f'  version     = "{aws}"',
        '  constraints = "~> 5.0"',
        "  hashes = [",
        *(f'    "{h}",' for h in aws_hashes),
        "  ]",
        "}",
    ]
    if random:
        out += [
            "",
            'provider "registry.terraform.io/hashicorp/random" {',
            '  version     = "3.6.2"',
            '  constraints = "~> 3.6"',
            "  hashes = [",
            '    "h1:R5qdQjKzOU16TziCN1vR3Exr/B+8WGK80glLTT4ZCPk=",',
            '    "zh:0ef01a4f81147b32c1bea3429974d4d104bbc4be2ba3cfa667031a8183ef88ec",',
            "  ]",
            "}",
        ]
    return lines(*out)


_TF_AWS_OLD = (
    "5.40.0",
    [
        "h1:KEqMoJwLw6Z9bTO4K8nPVvQQa6YiM+bvz89Sw7pNFHE=",
        "zh:11f177a2385703740bd26d0652d3dba08575101d7639f386ce5637bdb0e29a13",
    ],
)
_TF_AWS_NEW = (
    "5.54.1",
    [
        "h1:+aq386lQKbFwBNDtC1pkPYGSlq3b0ahnvzKdkKbZlbI=",
        "zh:37c09b9a0a0a2f7854fe52c6adb15f71593810b458a8283ed71d68036af7ba3a",
    ],
)


def _tf_module(
    name: str,
    resources: list[str],
    variables: list[tuple[str, str, str]],
    outputs: list[tuple[str, str]],
) -> dict[str, str]:
    m = f"modules/{name}"
    return {
        f"{m}/main.tf": lines(*resources),
        f"{m}/variables.tf": "\n".join(
            lines(f'variable "{v}" {{', f"  type        = {t}", f'  description = "{d}"', "}")
            for v, t, d in variables
        ),
        f"{m}/outputs.tf": "\n".join(
            lines(f'output "{o}" {{', f"  value = {v}", "}") for o, v in outputs
        ),
        f"{m}/versions.tf": lines(
            "terraform {",
            '  required_version = ">= 1.5"',
            "  required_providers {",
            '    aws = { source = "hashicorp/aws", version = "~> 5.0" }',
            "  }",
            "}",
        ),
        f"{m}/README.md": lines(
            f"# {name}",
            "",
            "<!-- BEGIN_TF_DOCS -->",
            "## Inputs",
            "",
            "| Name | Description | Type |",
            "|------|-------------|------|",
            *(f"| {v} | {d} | `{t}` |" for v, t, d in variables),
            "<!-- END_TF_DOCS -->",
        ),
    }


_TF_S3_MAIN = [
    'resource "aws_s3_bucket" "this" {',
    "  bucket = var.name",
    "  tags   = var.tags",
    "}",
    "",
    'resource "aws_s3_bucket_versioning" "this" {',
    "  bucket = aws_s3_bucket.this.id",
    "  versioning_configuration {",
    '    status = var.versioning ? "Enabled" : "Suspended"',
    "  }",
    "}",
    "",
    'resource "aws_s3_bucket_public_access_block" "this" {',
    "  bucket                  = aws_s3_bucket.this.id",
    "  block_public_acls       = true",
    "  block_public_policy     = true",
    "  ignore_public_acls      = true",
    "  restrict_public_buckets = true",
    "}",
]
_TF_S3_VARS = [
    ("name", "string", "Bucket name"),
    ("versioning", "bool", "Keep object versions"),
    ("tags", "map(string)", "Tags for every resource"),
]


def _tf_env(env: str, cidr: str) -> dict[str, str]:
    e = f"envs/{env}"
    return {
        f"{e}/backend.tf": lines(
            "terraform {",
            '  backend "s3" {',
            '    bucket         = "northwind-tfstate"',
            f'    key            = "{env}/terraform.tfstate"',
            '    region         = "eu-north-1"',
            '    dynamodb_table = "tf-locks"',
            "  }",
            "}",
        ),
        f"{e}/providers.tf": lines(
            "terraform {",
            "  required_providers {",
            '    aws = { source = "hashicorp/aws", version = "~> 5.0" }',
            "  }",
            "}",
            "",
            'provider "aws" {',
            '  region = "eu-north-1"',
            f'  default_tags {{ tags = {{ env = "{env}", owner = "platform" }} }}',
            "}",
        ),
        f"{e}/main.tf": lines(
            'module "vpc" {',
            '  source = "../../modules/vpc"',
            f'  name   = "{env}"',
            f'  cidr   = "{cidr}"',
            "}",
            "",
            'module "db" {',
            '  source     = "../../modules/rds"',
            f'  name       = "{env}-app"',
            "  subnet_ids = module.vpc.private_subnet_ids",
            "}",
            "",
            'module "uploads" {',
            '  source     = "../../modules/s3-bucket"',
            f'  name       = "northwind-{env}-uploads"',
            "  versioning = true",
            '  tags       = { app = "uploads" }',
            "}",
        ),
        f"{e}/variables.tf": lines(
            'variable "db_password" {', "  type      = string", "  sensitive = true", "}"
        ),
        f"{e}/outputs.tf": lines('output "vpc_id" {', "  value = module.vpc.vpc_id", "}"),
        f"{e}/.terraform.lock.hcl": _tf_lock(*_TF_AWS_OLD, random=False),
    }


def _terraform_files() -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        # github/gitignore's Terraform.gitignore: no plan files in it.
        ".gitignore": lines(
            "**/.terraform/*",
            "*.tfstate",
            "*.tfstate.*",
            "crash.log",
            "crash.*.log",
            "*.tfvars",
            "*.tfvars.json",
            "override.tf",
            "override.tf.json",
            "*_override.tf",
            "*_override.tf.json",
            ".terraformrc",
            "terraform.rc",
        ),
        ".pre-commit-config.yaml": lines(
            "repos:",
            "  - repo: https://github.com/antonbabenko/pre-commit-terraform",
            "    rev: v1.89.1",
            "    hooks:",
            "      - id: terraform_fmt",
            "      - id: terraform_tflint",
            "      - id: terraform_docs",
        ),
        ".tflint.hcl": lines(
            'plugin "aws" {',
            "  enabled = true",
            '  version = "0.31.0"',
            '  source  = "github.com/terraform-linters/tflint-ruleset-aws"',
            "}",
        ),
        ".github/workflows/terraform.yml": lines(
            "name: terraform",
            "on: [pull_request]",
            "jobs:",
            "  plan:",
            "    runs-on: ubuntu-latest",
            "    strategy:",
            "      matrix: {env: [staging, prod]}",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - uses: hashicorp/setup-terraform@v3",
            "      - run: terraform -chdir=envs/${{ matrix.env }} init -lockfile=readonly",
            "      - run: terraform -chdir=envs/${{ matrix.env }} plan -no-color",
        ),
        "Makefile": lines(
            "ENV ?= staging",
            "plan:",
            "\tterraform -chdir=envs/$(ENV) plan -out=tfplan",
            "docs:",
            "\tterraform-docs markdown table --output-file README.md --output-mode inject modules/*",  # noqa: E501
        ),
        "README.md": lines(
            "# infra",
            "",
            "Reusable modules in `modules/`, one root configuration per environment in `envs/`.",
            "Lock files are committed; run `terraform init -upgrade` only in a dedicated PR.",
        ),
        "docs/adr/0001-one-state-per-env.md": lines("# One state per environment", "", "Accepted."),
        "docs/adr/0002-s3-native-locking.md": lines("# DynamoDB locks for now", "", "Accepted."),
        "examples/complete/main.tf": lines(
            'module "bucket" {',
            '  source     = "../../modules/s3-bucket"',
            '  name       = "example-complete"',
            "  versioning = true",
            "  tags       = {}",
            "}",
        ),
        "examples/complete/outputs.tf": lines('output "arn" {', "  value = module.bucket.arn", "}"),
    }
    files.update(
        _tf_module(
            "vpc",
            [
                'resource "aws_vpc" "this" {',
                "  cidr_block           = var.cidr",
                "  enable_dns_hostnames = true",
                "  tags                 = { Name = var.name }",
                "}",
                "",
                'resource "aws_subnet" "private" {',
                "  count             = 3",
                "  vpc_id            = aws_vpc.this.id",
                "  cidr_block        = cidrsubnet(var.cidr, 4, count.index)",
                "  availability_zone = data.aws_availability_zones.this.names[count.index]",
                "}",
                "",
                'data "aws_availability_zones" "this" {}',
            ],
            [("name", "string", "Name prefix"), ("cidr", "string", "VPC CIDR block")],
            [("vpc_id", "aws_vpc.this.id"), ("private_subnet_ids", "aws_subnet.private[*].id")],
        )
    )
    files.update(
        _tf_module(
            "s3-bucket",
            _TF_S3_MAIN,
            _TF_S3_VARS,
            [("arn", "aws_s3_bucket.this.arn"), ("id", "aws_s3_bucket.this.id")],
        )
    )
    files.update(
        _tf_module(
            "rds",
            [
                'resource "aws_db_subnet_group" "this" {',
                "  name       = var.name",
                "  subnet_ids = var.subnet_ids",
                "}",
                "",
                'resource "aws_db_instance" "this" {',
                "  identifier           = var.name",
                '  engine               = "postgres"',
                '  engine_version       = "16.2"',
                '  instance_class       = "db.t4g.medium"',
                "  allocated_storage    = 50",
                "  db_subnet_group_name = aws_db_subnet_group.this.name",
                "  skip_final_snapshot  = false",
                "}",
            ],
            [
                ("name", "string", "Instance identifier"),
                ("subnet_ids", "list(string)", "Private subnets"),
            ],
            [("endpoint", "aws_db_instance.this.endpoint")],
        )
    )
    files.update(
        _tf_module(
            "iam-role",
            [
                'resource "aws_iam_role" "this" {',
                "  name               = var.name",
                "  assume_role_policy = var.assume_role_policy",
                "}",
            ],
            [
                ("name", "string", "Role name"),
                ("assume_role_policy", "string", "Trust policy JSON"),
            ],
            [("arn", "aws_iam_role.this.arn")],
        )
    )
    files.update(_tf_env("staging", "10.20.0.0/16"))
    files.update(_tf_env("prod", "10.30.0.0/16"))
    return files


def _terraform(s: Scene) -> None:
    s.commit(
        "infra: vpc, rds, s3-bucket and iam-role modules; staging and prod",
        _terraform_files(),
        days_ago=90,
    )
    s.commit(
        "adr: revisit state locking later",
        {
            "docs/adr/0002-s3-native-locking.md": _read(s, "docs/adr/0002-s3-native-locking.md")
            + "Revisit with Terraform 1.10.\n"
        },
        days_ago=8,
    )
    # Nobody set an intent. In the chat: "give staging a build-artifacts bucket that drops
    # old versions after 30 days — add lifecycle rules to the s3-bucket module, and give
    # the bucket a random suffix so names never collide".
    s.intent(None)
    m, e = "modules/s3-bucket", "envs/staging"
    s.agent(
        {
            f"{m}/main.tf": lines(
                *_TF_S3_MAIN,
                "",
                'resource "aws_s3_bucket_lifecycle_configuration" "this" {',
                "  count  = var.noncurrent_version_expiration_days == null ? 0 : 1",
                "  bucket = aws_s3_bucket.this.id",
                "  rule {",
                '    id     = "expire-noncurrent"',
                '    status = "Enabled"',
                "    filter {}",
                "    noncurrent_version_expiration {",
                "      noncurrent_days = var.noncurrent_version_expiration_days",
                "    }",
                "  }",
                "}",
            ),
            f"{m}/variables.tf": _read(s, f"{m}/variables.tf")
            + lines(
                "",
                'variable "noncurrent_version_expiration_days" {',
                "  type        = number",
                "  default     = null",
                '  description = "Delete noncurrent object versions after this many days"',
                "}",
            ),
            # terraform-docs (pre-commit) refreshed the table between its markers.
            f"{m}/README.md": _read(s, f"{m}/README.md").replace(
                "<!-- END_TF_DOCS -->",
                "| noncurrent_version_expiration_days | Delete noncurrent object versions after "
                "this many days | `number` |\n<!-- END_TF_DOCS -->",
            ),
            f"{e}/main.tf": _read(s, f"{e}/main.tf")
            + lines(
                "",
                'resource "random_id" "artifacts" {',
                "  byte_length = 3",
                "}",
                "",
                'module "artifacts" {',
                '  source                             = "../../modules/s3-bucket"',
                '  name                               = "northwind-staging-artifacts-${random_id.artifacts.hex}"',  # noqa: E501
                "  versioning                         = true",
                "  noncurrent_version_expiration_days = 30",
                '  tags                               = { app = "ci" }',
                "}",
            ),
            f"{e}/providers.tf": _read(s, f"{e}/providers.tf").replace(
                '    aws = { source = "hashicorp/aws", version = "~> 5.0" }\n',
                '    aws    = { source = "hashicorp/aws", version = "~> 5.0" }\n'
                '    random = { source = "hashicorp/random", version = "~> 3.6" }\n',
            ),
            # `terraform init -upgrade` for the new random provider also moved aws.
            f"{e}/.terraform.lock.hcl": _tf_lock(*_TF_AWS_NEW, random=True),
            # `terraform plan -out=tfplan` and `terraform show -json tfplan > plan.json`.
            f"{e}/tfplan": TFPLAN,
            f"{e}/plan.json": '{"format_version":"1.2","terraform_version":"1.8.4","planned_values":{"root_module":{}},"resource_changes":[{"address":"module.artifacts.aws_s3_bucket.this","change":{"actions":["create"]}}]}\n',  # noqa: E501
        }
    )
    # Empty memory: nothing says what the session was for, so every change a person
    # made or asked for is in scope — the aws provider upgrade in the lock file too
    # (a reviewer may question it, but nothing here marks it as unasked).
    s.fine(
        f"{m}/main.tf",
        f"{m}/variables.tf",
        f"{m}/README.md",
        f"{e}/main.tf",
        f"{e}/providers.tf",
        f"{e}/.terraform.lock.hcl",
    )
    s.excluded(f"{e}/tfplan", f"{e}/plan.json")
    s.safe_commit()
    s.note = "empty memory: everything in scope, nothing drift; plan files excluded; no checkpoint"


# -- 8. Dart server (shelf) -----------------------------------------------------------------------


def _dart_model(name: str, fields: list[tuple[str, str]]) -> str:
    snake = "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")
    return lines(
        "import 'package:json_annotation/json_annotation.dart';",
        "",
        f"part '{snake}.g.dart';",
        "",
        "@JsonSerializable()",
        f"class {name} {{",
        *(f"  final {t} {f};" for f, t in fields),
        "",
        f"  const {name}({{" + ", ".join(f"required this.{f}" for f, _ in fields) + "});",
        "",
        f"  factory {name}.fromJson(Map<String, dynamic> json) => _${name}FromJson(json);",
        f"  Map<String, dynamic> toJson() => _${name}ToJson(this);",
        "}",
    )


def _dart_g(name: str, fields: list[tuple[str, str]]) -> str:
    """The part file json_serializable writes through build_runner."""
    snake = "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")

    def read(f: str, t: str) -> str:
        if t == "DateTime":
            return f"DateTime.parse(json['{f}'] as String)"
        if t in ("int", "double"):
            return f"(json['{f}'] as num).to{t.capitalize()}()"
        return f"json['{f}'] as {t}"

    def write_(f: str, t: str) -> str:
        return f"instance.{f}.toIso8601String()" if t == "DateTime" else f"instance.{f}"

    return lines(
        "// GENERATED CODE - DO NOT MODIFY BY HAND",
        "",
        f"part of '{snake}.dart';",
        "",
        "// **************************************************************************",
        "// JsonSerializableGenerator",
        "// **************************************************************************",
        "",
        f"{name} _${name}FromJson(Map<String, dynamic> json) => {name}(",
        *(f"      {f}: {read(f, t)}," for f, t in fields),
        "    );",
        "",
        f"Map<String, dynamic> _${name}ToJson({name} instance) => <String, dynamic>{{",
        *(f"      '{f}': {write_(f, t)}," for f, t in fields),
        "    };",
    )


_DART_MODELS: dict[str, list[tuple[str, str]]] = {
    "Agency": [("id", "String"), ("name", "String"), ("timezone", "String")],
    "Stop": [("id", "String"), ("name", "String"), ("lat", "double"), ("lon", "double")],
    "Route": [("id", "String"), ("shortName", "String"), ("agencyId", "String")],
    "Departure": [("tripId", "String"), ("routeId", "String"), ("scheduled", "DateTime")],
}
_DART_DEPARTURE_NEW = [
    *_DART_MODELS["Departure"],
    ("platform", "String?"),
    ("delaySeconds", "int"),
]

_DART_LOCK_PKGS = {
    "args": ("2.5.0", "direct dev"),
    "async": ("2.11.0", "transitive"),
    "build_runner": ("2.4.9", "direct dev"),
    "collection": ("1.18.0", "transitive"),
    "http": ("1.2.1", "direct main"),
    "json_annotation": ("4.9.0", "direct main"),
    "json_serializable": ("6.8.0", "direct dev"),
    "lints": ("3.0.0", "direct dev"),
    "shelf": ("1.4.1", "direct main"),
    "shelf_router": ("1.1.4", "direct main"),
    "test": ("1.25.2", "direct dev"),
}


def _pubspec_lock(versions: Mapping[str, tuple[str, str]], sdk: str) -> str:
    out = ["# Generated by pub", "# See https://dart.dev/tools/pub/glossary#lockfile", "packages:"]
    for name, (version, dep) in sorted(versions.items()):
        out += [
            f"  {name}:",
            f"    dependency: {dep!r}".replace("'", '"'),
            "    description:",
            f"      name: {name}",
            f'      sha256: "{sha256(f"{name}@{version}".encode()).hexdigest()}"',
            '      url: "https://pub.dev"',
            "    source: hosted",
            f'    version: "{version}"',
        ]
    out += ["sdks:", f'  dart: "{sdk}"']
    return lines(*out)


def _dart_files() -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        ".gitignore": lines(
            "# https://dart.dev/guides/libraries/private-files", ".dart_tool/", "build/", ".env"
        ),
        "pubspec.yaml": lines(
            "name: transit_api",
            "description: Timetable and realtime departures for Swiss stops.",
            "version: 0.8.0",
            "publish_to: none",
            "",
            "environment:",
            "  sdk: ^3.3.0",
            "",
            "dependencies:",
            "  http: ^1.2.1",
            "  json_annotation: ^4.9.0",
            "  shelf: ^1.4.1",
            "  shelf_router: ^1.1.4",
            "",
            "dev_dependencies:",
            "  args: ^2.5.0",
            "  build_runner: ^2.4.9",
            "  json_serializable: ^6.8.0",
            "  lints: ^3.0.0",
            "  test: ^1.25.2",
        ),
        "analysis_options.yaml": lines(
            "include: package:lints/recommended.yaml", "", "analyzer:", "  exclude: ['**/*.g.dart']"
        ),
        "build.yaml": lines(
            "targets:",
            "  $default:",
            "    builders:",
            "      json_serializable:",
            "        options:",
            "          explicit_to_json: true",
        ),
        "Dockerfile": lines(
            "FROM dart:3.3 AS build",
            "WORKDIR /app",
            "COPY pubspec.* ./",
            "RUN dart pub get",
            "COPY . .",
            "RUN dart compile exe bin/server.dart -o bin/server",
            "FROM scratch",
            "COPY --from=build /runtime/ /",
            "COPY --from=build /app/bin/server /app/bin/",
            'CMD ["/app/bin/server"]',
        ),
        ".dockerignore": lines(".dart_tool/", "build/", ".git/"),
        "README.md": lines(
            "# transit_api",
            "",
            "A shelf server in front of the GTFS timetable and the realtime feed.",
            "",
            "    dart pub get",
            "    dart run build_runner build -d",
            "    dart run bin/server.dart",
        ),
        "CHANGELOG.md": lines(
            "## 0.8.0", "", "- Routes by agency.", "", "## 0.7.0", "", "- Stops near a point."
        ),
        ".github/workflows/dart.yml": lines(
            "name: dart",
            "on: [push]",
            "jobs:",
            "  test:",
            "    runs-on: ubuntu-latest",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - uses: dart-lang/setup-dart@v1",
            "        with: {sdk: '3.3'}",
            "      - run: dart pub get",
            "      - run: dart analyze --fatal-infos",
            "      - run: dart test",
        ),
        "bin/server.dart": lines(
            "import 'dart:io';",
            "",
            "import 'package:shelf/shelf.dart';",
            "import 'package:shelf/shelf_io.dart' as io;",
            "import 'package:transit_api/transit_api.dart';",
            "",
            "Future<void> main() async {",
            "  final config = Config.fromEnvironment();",
            "  final handler = const Pipeline()",
            "      .addMiddleware(logRequests())",
            "      .addMiddleware(cors())",
            "      .addHandler(buildRouter(await Timetable.load(config.gtfsPath)).call);",
            "  final port = int.parse(Platform.environment['PORT'] ?? '8080');",
            "  await io.serve(handler, InternetAddress.anyIPv4, port);",
            "}",
        ),
        "lib/transit_api.dart": lines(
            "library transit_api;",
            "",
            "export 'src/config.dart';",
            "export 'src/middleware/cors.dart';",
            "export 'src/routes/router.dart';",
            "export 'src/services/timetable.dart';",
        ),
        "lib/src/config.dart": lines(
            "import 'dart:io';",
            "",
            "class Config {",
            "  final String gtfsPath;",
            "  final Uri realtimeFeed;",
            "  const Config(this.gtfsPath, this.realtimeFeed);",
            "  factory Config.fromEnvironment() => Config(",
            "        Platform.environment['GTFS_PATH'] ?? 'data/gtfs',",
            "        Uri.parse(Platform.environment['GTFS_RT_URL'] ?? 'https://api.opentransportdata.swiss/gtfsrt2020'),",
            "      );",
            "}",
        ),
        "lib/src/db.dart": lines(
            "import 'dart:io';",
            "",
            "/// Reads a GTFS text file into rows keyed by column name.",
            "Future<List<Map<String, String>>> readGtfs(String dir, String name) async {",
            "  final lines = await File('$dir/$name.txt').readAsLines();",
            "  final head = lines.first.split(',');",
            "  return [for (final l in lines.skip(1)) Map.fromIterables(head, l.split(','))];",
            "}",
        ),
        "lib/src/middleware/cors.dart": lines(
            "import 'package:shelf/shelf.dart';",
            "",
            "Middleware cors() => (inner) => (request) async {",
            "      final response = await inner(request);",
            "      return response.change(headers: {'access-control-allow-origin': '*'});",
            "    };",
        ),
        "lib/src/middleware/logging.dart": lines(
            "import 'package:shelf/shelf.dart';",
            "",
            "/// Request logging without query strings (API keys travel there sometimes).",
            "Middleware quietLogs() => logRequests(logger: (msg, isError) => print(msg.split('?').first));",  # noqa: E501
        ),
        "test/middleware_test.dart": lines(
            "import 'package:shelf/shelf.dart';",
            "import 'package:test/test.dart';",
            "import 'package:transit_api/src/middleware/cors.dart';",
            "",
            "void main() {",
            "  test('cors adds the header', () async {",
            "    final h = cors()((_) => Response.ok('x'));",
            "    final r = await h(Request('GET', Uri.parse('http://x/')));",
            "    expect(r.headers['access-control-allow-origin'], '*');",
            "  });",
            "}",
        ),
        "lib/src/middleware/auth.dart": lines(
            "import 'package:shelf/shelf.dart';",
            "",
            "Middleware apiKey(String key) => (inner) => (request) {",
            "      if (request.headers['x-api-key'] != key) return Response.forbidden('bad key');",
            "      return inner(request);",
            "    };",
        ),
        "lib/src/routes/router.dart": lines(
            "import 'package:shelf_router/shelf_router.dart';",
            "",
            "import '../services/timetable.dart';",
            "import 'agencies.dart';",
            "import 'health.dart';",
            "import 'routes.dart';",
            "import 'stops.dart';",
            "",
            "Router buildRouter(Timetable timetable) => Router()",
            "  ..get('/healthz', health)",
            "  ..mount('/agencies', agenciesRouter(timetable).call)",
            "  ..mount('/routes', routesRouter(timetable).call)",
            "  ..mount('/stops', stopsRouter(timetable).call);",
        ),
        "lib/src/routes/health.dart": lines(
            "import 'package:shelf/shelf.dart';",
            "",
            "Response health(Request request) => Response.ok('ok');",
        ),
        "lib/src/routes/stops.dart": lines(
            "import 'dart:convert';",
            "",
            "import 'package:shelf/shelf.dart';",
            "import 'package:shelf_router/shelf_router.dart';",
            "",
            "import '../services/timetable.dart';",
            "",
            "Router stopsRouter(Timetable timetable) => Router()",
            "  ..get('/<id>', (Request request, String id) {",
            "    final stop = timetable.stop(id);",
            "    if (stop == null) return Response.notFound('no stop $id');",
            "    return Response.ok(jsonEncode(stop.toJson()),",
            "        headers: {'content-type': 'application/json'});",
            "  });",
        ),
        "lib/src/services/timetable.dart": lines(
            "import '../db.dart';",
            "import '../models/departure.dart';",
            "import '../models/stop.dart';",
            "",
            "class Timetable {",
            "  final Map<String, Stop> _stops;",
            "  final List<Departure> _departures;",
            "  Timetable(this._stops, this._departures);",
            "",
            "  static Future<Timetable> load(String dir) async {",
            "    final stops = await readGtfs(dir, 'stops');",
            "    return Timetable({",
            "      for (final s in stops)",
            "        s['stop_id']!: Stop(id: s['stop_id']!, name: s['stop_name']!,",
            "            lat: double.parse(s['stop_lat']!), lon: double.parse(s['stop_lon']!)),",
            "    }, []);",
            "  }",
            "",
            "  Stop? stop(String id) => _stops[id];",
            "}",
        ),
        "lib/src/services/realtime_client.dart": lines(
            "import 'package:http/http.dart' as http;",
            "",
            "class RealtimeClient {",
            "  final Uri feed;",
            "  final http.Client _http;",
            "  RealtimeClient(this.feed, [http.Client? client]) : _http = client ?? http.Client();",
            "  Future<List<int>> fetch() async => (await _http.get(feed)).bodyBytes;",
            "}",
        ),
        "lib/src/services/gtfs_loader.dart": lines(
            "import 'dart:io';",
            "",
            "/// Unzips a GTFS feed into [dir] (used by tool/seed.dart).",
            "Future<void> unpack(File zip, Directory dir) async {",
            "  await Process.run('unzip', ['-o', zip.path, '-d', dir.path]);",
            "}",
        ),
        "tool/seed.dart": lines(
            "import 'dart:io';",
            "import 'package:transit_api/src/services/gtfs_loader.dart';",
            "Future<void> main(List<String> args) => unpack(File(args.first), Directory('data/gtfs'));",  # noqa: E501
        ),
        "test/health_test.dart": lines(
            "import 'package:shelf/shelf.dart';",
            "import 'package:test/test.dart';",
            "import 'package:transit_api/src/routes/health.dart';",
            "",
            "void main() {",
            "  test('healthz', () async {",
            "    final r = health(Request('GET', Uri.parse('http://x/healthz')));",
            "    expect(r.statusCode, 200);",
            "  });",
            "}",
        ),
        "test/fixtures/bern_stops.json": '[{"id": "8507000", "name": "Bern", "lat": 46.9488, "lon": 7.4391}]\n',  # noqa: E501
        "test/fixtures/geneva_routes.json": '[{"id": "91-12-j24-1", "shortName": "12", "agencyId": "881"}]\n',  # noqa: E501
        "test/fixtures/basel_departures.json": '[{"tripId": "t1", "routeId": "8", "scheduled": "2024-05-21T08:04:00+02:00"}]\n',  # noqa: E501
    }
    for name in ("agencies", "routes"):
        files[f"lib/src/routes/{name}.dart"] = lines(
            "import 'package:shelf/shelf.dart';",
            "import 'package:shelf_router/shelf_router.dart';",
            "",
            "import '../services/timetable.dart';",
            "",
            f"Router {name}Router(Timetable timetable) => Router()",
            "  ..get('/', (Request request) => Response.ok('[]'));",
        )
        files[f"test/{name}_test.dart"] = lines(
            "import 'package:test/test.dart';",
            "",
            "void main() {",
            f"  test('{name} list is JSON', () {{",
            "    expect('[]', startsWith('['));",
            "  });",
            "}",
        )
    for name, fields in _DART_MODELS.items():
        snake = "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")
        files[f"lib/src/models/{snake}.dart"] = _dart_model(name, fields)
        files[f"lib/src/models/{snake}.g.dart"] = _dart_g(name, fields)
    files["pubspec.lock"] = _pubspec_lock(_DART_LOCK_PKGS, ">=3.3.0 <4.0.0")
    files["test/stops_test.dart"] = lines(
        "import 'dart:convert';",
        "import 'dart:io';",
        "",
        "import 'package:test/test.dart';",
        "import 'package:transit_api/src/models/stop.dart';",
        "",
        "void main() {",
        "  test('fixture stops parse', () {",
        "    final raw = jsonDecode(File('test/fixtures/bern_stops.json').readAsStringSync()) as List;",  # noqa: E501
        "    expect(Stop.fromJson(raw.first as Map<String, dynamic>).name, 'Bern');",
        "  });",
        "}",
    )
    return files


def _dart(s: Scene) -> None:
    s.commit("transit_api: shelf server over GTFS", _dart_files(), days_ago=64)
    s.commit(
        "routes by agency",
        {"CHANGELOG.md": "## Unreleased\n\n- Departures (planned).\n\n" + _read(s, "CHANGELOG.md")},
        days_ago=3,
    )
    s.intent(
        "Departures endpoint: GET /stops/<id>/departures returning the next departures with "
        "platform and delay",
        {"lib/src/routes/stops.dart": "the stops routes"},
        hours_ago=2,
    )
    s.agent(
        {
            "lib/src/models/departure.dart": _dart_model("Departure", _DART_DEPARTURE_NEW),
            # `dart run build_runner build -d`: the checked-in part file.
            "lib/src/models/departure.g.dart": _dart_g("Departure", _DART_DEPARTURE_NEW),
            "lib/src/services/timetable.dart": _read(s, "lib/src/services/timetable.dart").replace(
                "  Stop? stop(String id) => _stops[id];\n",
                "  Stop? stop(String id) => _stops[id];\n"
                "\n"
                "  /// The next [limit] departures from [stopId] after [now].\n"
                "  List<Departure> departuresFrom(String stopId, DateTime now, {int limit = 10}) =>\n"  # noqa: E501
                "      (_departures.where((d) => d.scheduled.isAfter(now)).toList()\n"
                "            ..sort((a, b) => a.scheduled.compareTo(b.scheduled)))\n"
                "          .take(limit)\n"
                "          .toList();\n",
            ),
            "lib/src/routes/stops.dart": _read(s, "lib/src/routes/stops.dart").replace(
                "  });\n",
                "  })\n"
                "  ..get('/<id>/departures', (Request request, String id) {\n"
                "    if (timetable.stop(id) == null) return Response.notFound('no stop $id');\n"
                "    final next = timetable.departuresFrom(id, DateTime.now());\n"
                "    return Response.ok(jsonEncode([for (final d in next) d.toJson()]),\n"
                "        headers: {'content-type': 'application/json'});\n"
                "  });\n",
            ),
        }
    )
    mid = s.checkpoint("departures endpoint compiles")
    # The user, trying it locally, makes the port default match their other services.
    _by_hand(
        s,
        {
            "bin/server.dart": _read(s, "bin/server.dart").replace(
                "Platform.environment['PORT'] ?? '8080'", "Platform.environment['PORT'] ?? '8081'"
            )
        },
    )
    s.agent(
        {
            "test/fixtures/zürich_departures.json": lines(
                "[",
                '  {"tripId": "ch:1:sjyid:100001:5", "routeId": "S3", "scheduled": "2024-05-21T08:04:00+02:00", "platform": "41/42", "delaySeconds": 120},',  # noqa: E501
                '  {"tripId": "ch:1:sjyid:100001:9", "routeId": "IC5", "scheduled": "2024-05-21T08:02:00+02:00", "platform": "8", "delaySeconds": 0}',  # noqa: E501
                "]",
            ),
            "test/departures_test.dart": lines(
                "import 'dart:convert';",
                "import 'dart:io';",
                "",
                "import 'package:test/test.dart';",
                "import 'package:transit_api/src/models/departure.dart';",
                "",
                "void main() {",
                "  test('platform and delay parse from the Zürich HB fixture', () {",
                "    final raw = jsonDecode(File('test/fixtures/zürich_departures.json').readAsStringSync()) as List;",  # noqa: E501
                "    final d = Departure.fromJson(raw.first as Map<String, dynamic>);",
                "    expect(d.platform, '41/42');",
                "    expect(d.delaySeconds, 120);",
                "  });",
                "}",
            ),
            # `dart pub upgrade --major-versions` "to get the latest shelf_router": the
            # endpoint needs nothing new.
            "pubspec.yaml": _read(s, "pubspec.yaml")
            .replace("  shelf_router: ^1.1.4", "  shelf_router: ^1.1.5")
            .replace("  lints: ^3.0.0", "  lints: ^4.0.0")
            .replace("  sdk: ^3.3.0", "  sdk: ^3.4.0"),
            "pubspec.lock": _pubspec_lock(
                {
                    **_DART_LOCK_PKGS,
                    "shelf_router": ("1.1.5", "direct main"),
                    "lints": ("4.0.0", "direct dev"),
                    "http": ("1.2.2", "direct main"),
                    "collection": ("1.19.0", "transitive"),
                },
                ">=3.4.0 <4.0.0",
            ),
            "analysis_options.yaml": lines(
                "include: package:lints/recommended.yaml",
                "",
                "analyzer:",
                "  exclude: ['**/*.g.dart']",
                "  language:",
                "    strict-casts: true",
                "    strict-raw-types: true",
            ),
        }
    )
    s.fine(
        "lib/src/models/departure.dart",
        "lib/src/services/timetable.dart",
        "lib/src/routes/stops.dart",
        "test/fixtures/zürich_departures.json",
        "test/departures_test.dart",
        "bin/server.dart",  # the user's own edit
    )
    # The lock file moved only because of the unasked upgrade: it goes with pubspec.yaml.
    s.drift("pubspec.yaml", "pubspec.lock", "analysis_options.yaml")
    s.excluded("lib/src/models/departure.g.dart")
    s.safe_checkpoint(mid)
    s.note = "mid checkpoint safe; the user's own bin/server.dart edit came after it"


# -- 9. Perl / CPAN distribution ------------------------------------------------------------------

_PL_LOCALES = {
    "de": ("ä", "ae", "ö", "oe", "ü", "ue", "ß", "ss"),
    "fr": ("œ", "oe", "æ", "ae"),
    "es": ("ñ", "n"),
    "pl": ("ł", "l", "ż", "z"),
    "tr": ("ı", "i", "ğ", "g", "ş", "s"),  # noqa: RUF001
    "cs": ("ř", "r", "ě", "e"),
    "it": ("à", "a"),
    "nl": ("ĳ", "ij"),
    "sv": ("å", "a", "ä", "a", "ö", "o"),
    "da": ("ø", "o", "å", "aa", "æ", "ae"),
}

_PL_UTIL = lines(
    "package Text::Slugify::Util;",
    "use strict;",
    "use warnings;",
    "use utf8;",
    "use Exporter 'import';",
    "use Unicode::Normalize qw(NFKD);",
    "",
    "our $VERSION = '1.07';",
    "our @EXPORT_OK = qw(to_ascii);",
    "",
    "sub to_ascii {",
    "    my ($text, $table) = @_;",
    "    $text =~ s/$_/$table->{$_}/g for keys %{ $table || {} };",
    "    $text = NFKD($text);",
    "    $text =~ s/\\p{Mn}//g;",
    "    return $text;",
    "}",
    "",
    "1;",
    "__END__",
    "",
    "=head1 NAME",
    "",
    "Text::Slugify::Util - helpers for Text::Slugify",
    "",
    "=head1 FUNCTIONS",
    "",
    "=head2 to_ascii($text, \\%table)",
    "",
    "Applies the locale table, then strips combining marks.",
    "",
    "=cut",
)

_PL_OPTIONS = lines(
    "package Text::Slugify::Options;",
    "use strict;",
    "use warnings;",
    "",
    "our $VERSION = '1.07';",
    "",
    "my %DEFAULTS = ( separator => '-', max_length => 0, lowercase => 1, locale => undef );",
    "",
    "sub new {",
    "    my ($class, %args) = @_;",
    "    for my $k (keys %args) { die \"unknown option '$k'\\n\" unless exists $DEFAULTS{$k} }",
    "    return bless { %DEFAULTS, %args }, $class;",
    "}",
    "",
    "sub separator  { $_[0]{separator} }",
    "sub max_length { $_[0]{max_length} }",
    "sub lowercase  { $_[0]{lowercase} }",
    "sub locale     { $_[0]{locale} }",
    "",
    "1;",
)

# perltidy with the repository's own .perltidyrc (-l=100 -i=4 -ci=4): a module the
# rename never touches.
_PL_OPTIONS_TIDY = lines(
    "package Text::Slugify::Options;",
    "use strict;",
    "use warnings;",
    "",
    "our $VERSION = '1.07';",
    "",
    "my %DEFAULTS = (",
    "    separator  => '-',",
    "    max_length => 0,",
    "    lowercase  => 1,",
    "    locale     => undef",
    ");",
    "",
    "sub new {",
    "    my ( $class, %args ) = @_;",
    "    for my $k ( keys %args ) {",
    "        die \"unknown option '$k'\\n\" unless exists $DEFAULTS{$k};",
    "    }",
    "    return bless { %DEFAULTS, %args }, $class;",
    "}",
    "",
    "sub separator  { $_[0]{separator} }",
    "sub max_length { $_[0]{max_length} }",
    "sub lowercase  { $_[0]{lowercase} }",
    "sub locale     { $_[0]{locale} }",
    "",
    "1;",
)


def _pl_manifest(util: str, util_test: str) -> str:
    return lines(
        "bin/slugify",
        "Changes",
        "cpanfile",
        "eg/batch.pl",
        "eg/filenames.pl",
        "eg/urls.pl",
        "lib/Text/Slugify.pm",
        "lib/Text/Slugify/Locale.pm",
        *(f"lib/Text/Slugify/Locale/{loc}.pm" for loc in sorted(_PL_LOCALES)),
        "lib/Text/Slugify/Options.pm",
        f"lib/Text/Slugify/{util}.pm",
        "LICENSE",
        "Makefile.PL",
        "MANIFEST\t\t\tThis list of files",
        "README.pod",
        "t/00-load.t",
        "t/01-basic.t",
        "t/02-options.t",
        f"t/{util_test}",
        "t/04-locale-de.t",
        "t/05-locale-fr.t",
        "t/06-unicode.t",
        "t/07-max-length.t",
        "t/08-cli.t",
        "META.yml\t\t\tModule YAML meta-data (added by MakeMaker)",
        "META.json\t\t\tModule JSON meta-data (added by MakeMaker)",
    )


def _pl_makefile() -> str:
    """The Makefile `perl Makefile.PL` writes (its real header, the rest trimmed)."""
    return lines(
        "# This Makefile is for the Text::Slugify extension to perl.",
        "#",
        "# It was generated automatically by MakeMaker version",
        "# 7.70 (Revision: 77000) from the contents of",
        "# Makefile.PL. Don't edit this file, edit Makefile.PL instead.",
        "#",
        "#       ANY CHANGES MADE HERE WILL BE LOST!",
        "#",
        "#   MakeMaker ARGV: ()",
        "#",
        "",
        "PERL_MM_USE_DEFAULT = 1",
        "NAME = Text::Slugify",
        "VERSION = 1.08",
        "VERSION_FROM = lib/Text/Slugify.pm",
        "",
        "all :: pure_all manifypods",
        "\t$(NOECHO) $(NOOP)",
    )


def _perl_files() -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        # Older than MakeMaker's MYMETA files: only the build dir and tarballs.
        ".gitignore": lines("blib/", "*.tar.gz", "Text-Slugify-*/"),
        ".perltidyrc": lines("-l=100", "-i=4", "-ci=4", "-pt=2", "-nolq"),
        ".perlcriticrc": lines("severity = 4", "[-Subroutines::ProhibitExplicitReturnUndef]"),
        "Makefile.PL": lines(
            "use strict;",
            "use warnings;",
            "use ExtUtils::MakeMaker;",
            "",
            "WriteMakefile(",
            "    NAME             => 'Text::Slugify',",
            "    AUTHOR           => 'Ágnes Kovács <agnes@cpan.example>',",
            "    VERSION_FROM     => 'lib/Text/Slugify.pm',",
            "    ABSTRACT_FROM    => 'lib/Text/Slugify.pm',",
            "    LICENSE          => 'perl_5',",
            "    MIN_PERL_VERSION => '5.014',",
            "    EXE_FILES        => ['bin/slugify'],",
            "    PREREQ_PM        => { 'Unicode::Normalize' => 0 },",
            "    TEST_REQUIRES    => { 'Test::More' => '0.98' },",
            ");",
        ),
        "cpanfile": lines(
            "requires 'Unicode::Normalize';",
            "on test => sub { requires 'Test::More', '0.98'; };",
            "on develop => sub {",
            "    requires 'Test::Pod', '1.41';",
            "    requires 'Test::Pod::Coverage', '1.08';",
            "    requires 'Test::Perl::Critic';",
            "};",
        ),
        "MANIFEST": _pl_manifest("Util", "03-util.t"),
        "MANIFEST.SKIP": lines(
            "^blib/", "^MYMETA", "^Makefile$", "^pm_to_blib$", "^\\.git", "^xt/"
        ),
        "Changes": lines(
            "Revision history for Text-Slugify",
            "",
            "1.07  2024-02-11",
            "    - Danish and Swedish locale tables.",
            "",
            "1.06  2023-10-30",
            "    - max_length never cuts inside a word.",
        ),
        "LICENSE": lines(
            "This software is copyright (c) 2019 by Ágnes Kovács.", "", "Same terms as Perl 5."
        ),
        "README.pod": lines(
            "=head1 Text::Slugify",
            "",
            "  use Text::Slugify qw(slugify);",
            "  slugify('Füße über Straßen', locale => 'de');   # fuesse-ueber-strassen",
            "",
            "=cut",
        ),
        "lib/Text/Slugify.pm": lines(
            "package Text::Slugify;",
            "use strict;",
            "use warnings;",
            "use utf8;",
            "use Exporter 'import';",
            "use Text::Slugify::Options;",
            "use Text::Slugify::Locale qw(table_for);",
            "use Text::Slugify::Util qw(to_ascii);",
            "",
            "our $VERSION = '1.07';",
            "our @EXPORT_OK = qw(slugify);",
            "",
            "sub slugify {",
            "    my ($text, %args) = @_;",
            "    my $o = Text::Slugify::Options->new(%args);",
            "    my $s = to_ascii($text, table_for($o->locale));",
            "    $s = lc $s if $o->lowercase;",
            "    my $sep = quotemeta $o->separator;",
            "    $s =~ s/[^A-Za-z0-9]+/$o->separator/ge;",
            "    $s =~ s/^$sep+|$sep+$//g;",
            "    $s = _cut($s, $o->max_length, $o->separator) if $o->max_length;",
            "    return $s;",
            "}",
            "",
            "sub _cut {",
            "    my ($s, $max, $sep) = @_;",
            "    return $s if length $s <= $max;",
            "    my $cut = substr $s, 0, $max + 1;",
            "    $cut =~ s/\\Q$sep\\E[^\\Q$sep\\E]*$//;",
            "    return $cut;",
            "}",
            "",
            "1;",
            "__END__",
            "",
            "=head1 NAME",
            "",
            "Text::Slugify - URL slugs from any text, with locale-aware transliteration",
            "",
            "=cut",
        ),
        "lib/Text/Slugify/Options.pm": _PL_OPTIONS,
        "lib/Text/Slugify/Util.pm": _PL_UTIL,
        "lib/Text/Slugify/Locale.pm": lines(
            "package Text::Slugify::Locale;",
            "use strict;",
            "use warnings;",
            "use Exporter 'import';",
            "",
            "our $VERSION = '1.07';",
            "our @EXPORT_OK = qw(table_for);",
            "",
            "sub table_for {",
            "    my ($locale) = @_;",
            "    return {} unless $locale;",
            '    my $class = "Text::Slugify::Locale::$locale";',
            '    eval "require $class; 1" or die "unknown locale \'$locale\'\\n";',
            "    return $class->table;",
            "}",
            "",
            "1;",
        ),
        "bin/slugify": lines(
            "#!/usr/bin/env perl",
            "use strict;",
            "use warnings;",
            "use Getopt::Long;",
            "use Text::Slugify qw(slugify);",
            "",
            "GetOptions('locale=s' => \\my $locale, 'max=i' => \\my $max) or exit 2;",
            "binmode STDIN, ':encoding(UTF-8)';",
            'print slugify($_, locale => $locale, max_length => $max || 0), "\\n" while <STDIN>;',
        ),
        "t/00-load.t": lines(
            "use strict;",
            "use Test::More;",
            "use_ok($_) for qw(Text::Slugify Text::Slugify::Options Text::Slugify::Locale Text::Slugify::Util);",  # noqa: E501
            "done_testing;",
        ),
        "t/03-util.t": lines(
            "use strict;",
            "use utf8;",
            "use Test::More;",
            "use Text::Slugify::Util qw(to_ascii);",
            "",
            "is to_ascii('Crème brûlée'), 'Creme brulee', 'combining marks stripped';",
            "is to_ascii('Straße', { 'ß' => 'ss' }), 'Strasse', 'table applied first';",
            "done_testing;",
        ),
        "xt/release-pod-syntax.t": lines(
            "use Test::More;",
            "use Test::Pod 1.41;",
            "all_pod_files_ok();",
        ),
        "xt/release-pod-coverage.t": lines(
            "use Test::More;",
            "use Test::Pod::Coverage 1.08;",
            "all_pod_coverage_ok({ also_private => [qr/^_/] });",
        ),
        "xt/author-critic.t": lines(
            "use Test::More;",
            "use Test::Perl::Critic (-profile => '.perlcriticrc');",
            "all_critic_ok('lib');",
        ),
        ".github/workflows/ci.yml": lines(
            "name: ci",
            "on: [push, pull_request]",
            "jobs:",
            "  test:",
            "    runs-on: ubuntu-latest",
            "    strategy:",
            "      matrix:",
            "        perl: ['5.14', '5.16', '5.26', '5.36', '5.38']",
            "    container: perl:${{ matrix.perl }}",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - run: cpanm --installdeps --notest .",
            "      - run: perl Makefile.PL && make test",
        ),
    }
    for loc, pairs in _PL_LOCALES.items():
        table = ", ".join(f"'{a}' => '{b}'" for a, b in zip(pairs[::2], pairs[1::2], strict=True))
        files[f"lib/Text/Slugify/Locale/{loc}.pm"] = lines(
            f"package Text::Slugify::Locale::{loc};",
            "use strict;",
            "use warnings;",
            "use utf8;",
            "",
            f"sub table {{ return {{ {table} }} }}",
            "",
            "1;",
        )
    for name, body in {
        "01-basic.t": "is slugify('Hello, World!'), 'hello-world';",
        "02-options.t": "is slugify('A B', separator => '_'), 'a_b';",
        "04-locale-de.t": "is slugify('Füße', locale => 'de'), 'fuesse';",
        "05-locale-fr.t": "is slugify('Œuvre', locale => 'fr'), 'oeuvre';",
        "06-unicode.t": "is slugify('Ελληνικά'), '', 'no Latin letters left';",
        "07-max-length.t": "is slugify('one two three', max_length => 8), 'one-two';",
        "08-cli.t": "like `echo 'Á b' | $^X -Ilib bin/slugify`, qr/^a-b$/m;",
    }.items():
        files[f"t/{name}"] = lines(
            "use strict;",
            "use utf8;",
            "use Test::More;",
            "use Text::Slugify qw(slugify);",
            body,
            "done_testing;",
        )
    for name, body in {
        "batch.pl": 'print slugify($_), "\\n" for @ARGV;',
        "filenames.pl": "rename $_, slugify($_) for glob '*';",
        "urls.pl": 'printf "/blog/%s\\n", slugify(shift, max_length => 60);',
    }.items():
        files[f"eg/{name}"] = lines("use strict;", "use Text::Slugify qw(slugify);", body)
    return files


def _perl(s: Scene) -> None:
    s.commit("Text-Slugify 1.07", _perl_files(), days_ago=100)
    s.commit(
        "Changes: start 1.08",
        {"Changes": _read(s, "Changes").replace("\n1.07", "\n1.08  (unreleased)\n\n1.07", 1)},
        days_ago=7,
    )
    s.intent(
        "Rename Text::Slugify::Util to Text::Slugify::Transliterate (all it does is "
        "transliterate) and update every use, its test and the MANIFEST",
        {"lib/Text/Slugify/Util.pm": "the module to rename"},
        hours_ago=1,
    )
    before = s.checkpoint("before the rename")
    # First turn: the agent ran the author tests, saw pod-coverage complain, deleted the
    # test and ran perltidy over the module it complained about.
    s.agent(
        {"lib/Text/Slugify/Options.pm": _PL_OPTIONS_TIDY},
        delete=["xt/release-pod-coverage.t"],
    )
    s.checkpoint("agent's first turn")
    util, translit = "lib/Text/Slugify/Util.pm", "lib/Text/Slugify/Transliterate.pm"
    t_old, t_new = "t/03-util.t", "t/03-transliterate.t"
    s.agent(
        {
            # `git mv`, then the package name and POD follow the new name.
            translit: _PL_UTIL.replace("Text::Slugify::Util", "Text::Slugify::Transliterate")
            .replace("qw(to_ascii)", "qw(transliterate)")
            .replace("sub to_ascii {", "sub transliterate {")
            .replace("helpers for Text::Slugify", "locale tables and mark stripping")
            .replace("=head2 to_ascii(", "=head2 transliterate("),
            t_new: _read(s, t_old)
            .replace(
                "Text::Slugify::Util qw(to_ascii)", "Text::Slugify::Transliterate qw(transliterate)"
            )
            .replace("is to_ascii(", "is transliterate("),
            "lib/Text/Slugify.pm": _read(s, "lib/Text/Slugify.pm")
            .replace(
                "use Text::Slugify::Util qw(to_ascii);",
                "use Text::Slugify::Transliterate qw(transliterate);",
            )
            .replace("my $s = to_ascii(", "my $s = transliterate("),
            "t/00-load.t": _read(s, "t/00-load.t").replace(
                "Text::Slugify::Util)", "Text::Slugify::Transliterate)"
            ),
            "MANIFEST": _pl_manifest("Transliterate", "03-transliterate.t"),
            "Changes": _read(s, "Changes").replace(
                "1.08  (unreleased)\n",
                "1.08  (unreleased)\n    - Text::Slugify::Util is now Text::Slugify::Transliterate;\n"  # noqa: E501
                "      to_ascii() is transliterate().\n",
            ),
            # Unasked: the two oldest Perls dropped from CI (MIN_PERL_VERSION is still 5.014).
            ".github/workflows/ci.yml": _read(s, ".github/workflows/ci.yml").replace(
                "perl: ['5.14', '5.16', '5.26', '5.36', '5.38']", "perl: ['5.26', '5.36', '5.38']"
            ),
            # `perl Makefile.PL && make test`; the ignore file only knows blib/.
            "Makefile": _pl_makefile(),
            "MYMETA.json": lines(
                "{",
                '   "abstract" : "URL slugs from any text, with locale-aware transliteration",',
                '   "dynamic_config" : 0,',
                '   "generated_by" : "ExtUtils::MakeMaker version 7.70, CPAN::Meta::Converter version 2.150010",',  # noqa: E501
                '   "license" : ["perl_5"],',
                '   "name" : "Text-Slugify",',
                '   "version" : "1.07"',
                "}",
            ),
            "MYMETA.yml": lines(
                "---",
                "abstract: 'URL slugs from any text, with locale-aware transliteration'",
                "dynamic_config: 0",
                "generated_by: 'ExtUtils::MakeMaker version 7.70, CPAN::Meta::Converter version 2.150010'",  # noqa: E501
                "license: perl",
                "name: Text-Slugify",
                "version: '1.07'",
            ),
            "pm_to_blib": "",
        },
        rename={util: translit, t_old: t_new},
    )
    _staged(s, util, translit, t_old, t_new)
    s.fine(
        util,
        translit,
        t_old,
        t_new,
        "lib/Text/Slugify.pm",
        "t/00-load.t",
        # MakeMaker can write MANIFEST (`make manifest`), but it is the hand-kept list of
        # what ships: renaming the module means changing it.
        "MANIFEST",
        "Changes",
    )
    s.drift("xt/release-pod-coverage.t", "lib/Text/Slugify/Options.pm", ".github/workflows/ci.yml")
    s.excluded("Makefile", "MYMETA.json", "MYMETA.yml", "pm_to_blib")
    s.safe_checkpoint(before)
    s.note = "checkpoints before the work and after the first (drifting) turn: the first is safe"


# -- 10. Fortran / CMake --------------------------------------------------------------------------

_F_MODULES = [
    "kinds",
    "constants",
    "grid",
    "tridiag",
    "stencil",
    "boundary",
    "diffusion_coeffs",
    "heat1d",
    "heat2d",
    "norms",
    "io_csv",
    "timers",
    "solver_config",
]

_F_HEAT1D = lines(
    "module heat1d",
    "  use kinds, only: dp",
    "  use tridiag, only: thomas",
    "  implicit none",
    "  private",
    "  public :: step_implicit",
    "contains",
    "  !> One backward-Euler step of u_t = alpha u_xx with Dirichlet ends.",
    "  subroutine step_implicit(u, alpha, dt, dx)",
    "    real(dp), intent(inout) :: u(:)",
    "    real(dp), intent(in) :: alpha, dt, dx",
    "    real(dp), allocatable :: a(:), b(:), c(:)",
    "    real(dp) :: r",
    "    integer :: n",
    "    n = size(u)",
    "    r = alpha * dt / dx**2",
    "    allocate(a(n), b(n), c(n))",
    "    a = -r; b = 1.0_dp + 2.0_dp * r; c = -r",
    "    a(1) = 0.0_dp; c(n) = 0.0_dp",
    "    call thomas(a, b, c, u)",
    "  end subroutine step_implicit",
    "end module heat1d",
)

_F_HEAT2D = lines(
    "module heat2d",
    "  use kinds, only: dp",
    "  use stencil, only: laplacian5",
    "  implicit none",
    "  private",
    "  public :: step_explicit",
    "contains",
    "  !> Forward-Euler step on a uniform grid; caller keeps dt below dx**2/(4 alpha).",
    "  subroutine step_explicit(u, alpha, dt, dx)",
    "    real(dp), intent(inout) :: u(:,:)",
    "    real(dp), intent(in) :: alpha, dt, dx",
    "    real(dp) :: lap(size(u,1),size(u,2))",
    "    call laplacian5(u, dx, lap)",
    "    u(2:size(u,1)-1,2:size(u,2)-1) = u(2:size(u,1)-1,2:size(u,2)-1) + alpha*dt*lap(2:size(u,1)-1,2:size(u,2)-1)",  # noqa: E501
    "  end subroutine step_explicit",
    "end module heat2d",
)

# fprettify with its defaults (not the repository's .fprettify.rc, which keeps the
# compact style): whitespace and line continuations throughout an untouched module.
_F_HEAT2D_PRETTY = lines(
    "module heat2d",
    "   use kinds, only: dp",
    "   use stencil, only: laplacian5",
    "   implicit none",
    "   private",
    "   public :: step_explicit",
    "contains",
    "   !> Forward-Euler step on a uniform grid; caller keeps dt below dx**2/(4 alpha).",
    "   subroutine step_explicit(u, alpha, dt, dx)",
    "      real(dp), intent(inout) :: u(:, :)",
    "      real(dp), intent(in) :: alpha, dt, dx",
    "      real(dp) :: lap(size(u, 1), size(u, 2))",
    "      call laplacian5(u, dx, lap)",
    "      u(2:size(u, 1) - 1, 2:size(u, 2) - 1) = u(2:size(u, 1) - 1, 2:size(u, 2) - 1) + &",
    "                                              alpha*dt*lap(2:size(u, 1) - 1, 2:size(u, 2) - 1)",  # noqa: E501
    "   end subroutine step_explicit",
    "end module heat2d",
)


def _f_module(name: str) -> str:
    bodies = {
        "kinds": ["  integer, parameter :: dp = selected_real_kind(15, 307)"],
        "constants": [
            "  use kinds, only: dp",
            "  real(dp), parameter :: pi = 4.0_dp * atan(1.0_dp)",
        ],
        "grid": [
            "  use kinds, only: dp",
            "contains",
            "  pure function linspace(a, b, n) result(x)",
            "    real(dp), intent(in) :: a, b",
            "    integer, intent(in) :: n",
            "    real(dp) :: x(n)",
            "    integer :: i",
            "    x = [(a + (b - a) * (i - 1) / real(n - 1, dp), i = 1, n)]",
            "  end function linspace",
        ],
        "tridiag": [
            "  use kinds, only: dp",
            "contains",
            "  !> Thomas algorithm; overwrites d with the solution.",
            "  subroutine thomas(a, b, c, d)",
            "    real(dp), intent(in) :: a(:), c(:)",
            "    real(dp), intent(inout) :: b(:), d(:)",
            "    integer :: i, n",
            "    real(dp) :: w",
            "    n = size(d)",
            "    do i = 2, n",
            "      w = a(i) / b(i-1)",
            "      b(i) = b(i) - w * c(i-1)",
            "      d(i) = d(i) - w * d(i-1)",
            "    end do",
            "    d(n) = d(n) / b(n)",
            "    do i = n - 1, 1, -1",
            "      d(i) = (d(i) - c(i) * d(i+1)) / b(i)",
            "    end do",
            "  end subroutine thomas",
        ],
        "stencil": [
            "  use kinds, only: dp",
            "contains",
            "  subroutine laplacian5(u, dx, lap)",
            "    real(dp), intent(in) :: u(:,:), dx",
            "    real(dp), intent(out) :: lap(:,:)",
            "    lap = 0",
            "    lap(2:size(u,1)-1,2:size(u,2)-1) = (u(1:size(u,1)-2,2:size(u,2)-1) + u(3:,2:size(u,2)-1) &",  # noqa: E501
            "      + u(2:size(u,1)-1,1:size(u,2)-2) + u(2:size(u,1)-1,3:) - 4*u(2:size(u,1)-1,2:size(u,2)-1)) / dx**2",  # noqa: E501
            "  end subroutine laplacian5",
        ],
        "boundary": [
            "  use kinds, only: dp",
            "contains",
            "  subroutine dirichlet(u, left, right)",
            "    real(dp), intent(inout) :: u(:)",
            "    real(dp), intent(in) :: left, right",
            "    u(1) = left; u(size(u)) = right",
            "  end subroutine dirichlet",
        ],
        "diffusion_coeffs": [
            "  use kinds, only: dp",
            "  real(dp), parameter :: alpha_copper = 1.11e-4_dp, alpha_steel = 1.2e-5_dp",
        ],
        "norms": [
            "  use kinds, only: dp",
            "contains",
            "  pure real(dp) function l2(u, dx)",
            "    real(dp), intent(in) :: u(:), dx",
            "    l2 = sqrt(sum(u**2) * dx)",
            "  end function l2",
        ],
        "io_csv": [
            "  use kinds, only: dp",
            "contains",
            "  subroutine write_profile(path, x, u)",
            "    character(*), intent(in) :: path",
            "    real(dp), intent(in) :: x(:), u(:)",
            "    integer :: f, i",
            "    open(newunit=f, file=path, status='replace')",
            "    write(f, '(a)') 'x,u'",
            "    do i = 1, size(x)",
            "      write(f, '(es23.15,\",\",es23.15)') x(i), u(i)",
            "    end do",
            "    close(f)",
            "  end subroutine write_profile",
        ],
        "timers": [
            "  use iso_fortran_env, only: int64",
            "contains",
            "  real function seconds_since(t0)",
            "    integer(int64), intent(in) :: t0",
            "    integer(int64) :: t, rate",
            "    call system_clock(t, rate)",
            "    seconds_since = real(t - t0) / real(rate)",
            "  end function seconds_since",
        ],
        "solver_config": [
            "  use kinds, only: dp",
            "  type :: config_t",
            "    integer :: nx = 101, nsteps = 1000",
            "    real(dp) :: alpha = 1.0e-4_dp, dt = 0.1_dp, length = 1.0_dp",
            "    character(len=256) :: output = 'profile.csv'",
            "  end type config_t",
            "contains",
            "  subroutine read_config(path, cfg)",
            "    character(*), intent(in) :: path",
            "    type(config_t), intent(out) :: cfg",
            "    integer :: nx, nsteps, f",
            "    real(dp) :: alpha, dt, length",
            "    character(len=256) :: output",
            "    namelist /heat/ nx, nsteps, alpha, dt, length, output",
            "    open(newunit=f, file=path, status='old')",
            "    read(f, nml=heat)",
            "    close(f)",
            "    cfg = config_t(nx, nsteps, alpha, dt, length, output)",
            "  end subroutine read_config",
        ],
    }
    body = bodies[name]
    head = [f"module {name}"]
    uses = [b for b in body if b.startswith("  use ")]
    rest = [b for b in body if not b.startswith("  use ")]
    return lines(*head, *uses, "  implicit none", *rest, f"end module {name}")


def _f_test(name: str, uses: str, check: str) -> str:
    return lines(
        f"program test_{name}",
        "  use kinds, only: dp",
        f"  use {uses}",
        "  use test_utils, only: assert_close",
        "  implicit none",
        f"  {check}",
        f"  print '(a)', 'test_{name}: ok'",
        f"end program test_{name}",
    )


_F_TESTS = {
    "tridiag": (
        "tridiag, only: thomas",
        "block; real(dp) :: b(3) = 2, d(3) = [1, 0, 1]; call thomas([0._dp, -1._dp, -1._dp], b, [-1._dp, -1._dp, 0._dp], d); call assert_close(d(2), 1._dp, 1e-12_dp); end block",  # noqa: E501
    ),
    "heat1d": (
        "heat1d, only: step_implicit",
        "block; real(dp) :: u(5) = 0; call step_implicit(u, 1._dp, 0.1_dp, 0.25_dp); call assert_close(sum(u), 0._dp, 1e-12_dp); end block",  # noqa: E501
    ),
    "heat2d": (
        "heat2d, only: step_explicit",
        "block; real(dp) :: u(4,4) = 1; call step_explicit(u, 1._dp, 0.01_dp, 0.5_dp); call assert_close(u(2,2), 1._dp, 1e-12_dp); end block",  # noqa: E501
    ),
    "grid": (
        "grid, only: linspace",
        "call assert_close(linspace(0._dp, 1._dp, 5)(2), 0.25_dp, 1e-15_dp)",
    ),
    "boundary": (
        "boundary, only: dirichlet",
        "block; real(dp) :: u(3) = 0; call dirichlet(u, 1._dp, 2._dp); call assert_close(u(3), 2._dp, 0._dp); end block",  # noqa: E501
    ),
    "norms": ("norms, only: l2", "call assert_close(l2([3._dp, 4._dp], 1._dp), 5._dp, 1e-12_dp)"),
    "io_csv": ("io_csv, only: write_profile", "call write_profile('t.csv', [0._dp], [1._dp])"),
}


def _f_tests_cmake(names: list[str]) -> str:
    return lines(
        "add_library(test_utils OBJECT test_utils.f90)",
        "target_link_libraries(test_utils PUBLIC heatcore)",
        f"foreach(t {' '.join(names)})",
        "  add_executable(test_${t} test_${t}.f90)",
        "  target_link_libraries(test_${t} PRIVATE heatcore test_utils)",
        "  add_test(NAME ${t} COMMAND test_${t})",
        "endforeach()",
    )


def _f_src_cmake(modules: list[str], lapack: bool) -> str:
    return lines(
        "add_library(heatcore",
        *(f"  {m}.f90" for m in modules),
        ")",
        *(["target_link_libraries(heatcore PUBLIC LAPACK::LAPACK)"] if lapack else []),
        "add_executable(heat main.f90)",
        "target_link_libraries(heat PRIVATE heatcore)",
    )


def _fortran_files() -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        ".gitignore": lines("build/", "*.csv.tmp"),
        ".fprettify.rc": lines(
            "indent = 2", "whitespace = 1", "line-length = 132", "enable-replacements = False"
        ),
        "CMakeLists.txt": lines(
            "cmake_minimum_required(VERSION 3.20)",
            "project(heatsolve VERSION 0.4.0 LANGUAGES Fortran)",
            "include(cmake/CompilerFlags.cmake)",
            "add_subdirectory(src)",
            "enable_testing()",
            "add_subdirectory(tests)",
        ),
        "cmake/CompilerFlags.cmake": lines(
            'if(CMAKE_Fortran_COMPILER_ID STREQUAL "GNU")',
            "  add_compile_options(-Wall -Wextra -std=f2018 $<$<CONFIG:Debug>:-fcheck=all -g>)",
            "  add_compile_options($<$<CONFIG:Release>:-O2>)",
            "endif()",
        ),
        "src/CMakeLists.txt": _f_src_cmake(_F_MODULES, lapack=False),
        "src/main.f90": lines(
            "program heat",
            "  use kinds, only: dp",
            "  use solver_config, only: config_t, read_config",
            "  use heat1d, only: step_implicit",
            "  use grid, only: linspace",
            "  use io_csv, only: write_profile",
            "  implicit none",
            "  type(config_t) :: cfg",
            "  character(len=256) :: path",
            "  real(dp), allocatable :: u(:), x(:)",
            "  integer :: n",
            "  call get_command_argument(1, path)",
            "  call read_config(trim(path), cfg)",
            "  x = linspace(0.0_dp, cfg%length, cfg%nx)",
            "  u = sin(3.141592653589793_dp * x / cfg%length)",
            "  do n = 1, cfg%nsteps",
            "    call step_implicit(u, cfg%alpha, cfg%dt, x(2) - x(1))",
            "  end do",
            "  call write_profile(trim(cfg%output), x, u)",
            "end program heat",
        ),
        "src/heat1d.f90": _F_HEAT1D,
        "src/heat2d.f90": _F_HEAT2D,
        "tests/CMakeLists.txt": _f_tests_cmake(list(_F_TESTS)),
        "tests/test_utils.f90": lines(
            "module test_utils",
            "  use kinds, only: dp",
            "  implicit none",
            "contains",
            "  subroutine assert_close(got, want, tol)",
            "    real(dp), intent(in) :: got, want, tol",
            "    if (abs(got - want) > tol) error stop 'assert_close failed'",
            "  end subroutine assert_close",
            "end module test_utils",
        ),
        "examples/rod.nml": lines(
            "&heat",
            "  nx = 201",
            "  nsteps = 5000",
            "  alpha = 1.11e-4",
            "  dt = 0.05",
            "  length = 1.0",
            "  output = 'rod.csv'",
            "/",
        ),
        "examples/plate.nml": lines(
            "&heat",
            "  nx = 65",
            "  nsteps = 2000",
            "  alpha = 1.2e-5",
            "  dt = 0.5",
            "  output = 'plate.csv'",
            "/",
        ),
        "examples/rod_insulated.nml": lines(
            "&heat", "  nx = 101", "  nsteps = 1000", "  output = 'rod_insulated.csv'", "/"
        ),
        "data/reference/rod_t100.csv": lines(
            "x,u", "0.0,0.0", "0.25,0.6321", "0.5,0.8940", "0.75,0.6321", "1.0,0.0"
        ),
        "data/reference/plate_t50.csv": lines("x,u", "0.0,0.0", "0.5,0.4471", "1.0,0.0"),
        "docs/theory.md": lines(
            "# Theory",
            "",
            "Backward Euler in 1-D gives a tridiagonal system per step, solved with the",
            "Thomas algorithm (`src/tridiag.f90`). 2-D uses explicit five-point stencils.",
        ),
        "docs/usage.md": lines(
            "# Usage",
            "",
            "    cmake -B build && cmake --build build",
            "    build/src/heat examples/rod.nml",
        ),
        "scripts/plot_profile.py": lines(
            "import sys",
            "import matplotlib.pyplot as plt",
            "import numpy as np",
            "",
            "x, u = np.loadtxt(sys.argv[1], delimiter=',', skiprows=1, unpack=True)",
            "plt.plot(x, u)",
            "plt.savefig(sys.argv[1].replace('.csv', '.png'))",
        ),
        "scripts/run_convergence.sh": lines(
            "#!/bin/sh",
            "set -e",
            "for nx in 51 101 201 401; do",
            '  sed "s/nx = .*/nx = $nx/" examples/rod.nml > /tmp/rod_$nx.nml',
            "  build/src/heat /tmp/rod_$nx.nml",
            "done",
        ),
        ".github/workflows/ci.yml": lines(
            "name: ci",
            "on: [push, pull_request]",
            "jobs:",
            "  build:",
            "    runs-on: ubuntu-22.04",
            "    steps:",
            "      - uses: actions/checkout@v4",
            "      - run: sudo apt-get install -y gfortran cmake",
            "      - run: cmake -B build -DCMAKE_BUILD_TYPE=Debug && cmake --build build",
            "      - run: ctest --test-dir build --output-on-failure",
        ),
        "README.md": lines(
            "# heatsolve",
            "",
            "The heat equation in 1-D (implicit) and 2-D (explicit), in modern Fortran.",
            "",
            "Requirements: gfortran ≥ 10, CMake ≥ 3.20.",
            "",
            "    cmake -B build && cmake --build build && ctest --test-dir build",
        ),
        "LICENSE": lines("BSD 3-Clause License", "", "Copyright (c) 2022, Tomás Ferreira"),
        "CITATION.cff": lines(
            "cff-version: 1.2.0",
            "title: heatsolve",
            "authors:",
            "  - family-names: Ferreira",
            "    given-names: Tomás",
        ),
    }
    for m in _F_MODULES:
        if m not in ("heat1d", "heat2d"):
            files[f"src/{m}.f90"] = _f_module(m)
    for name, (uses, check) in _F_TESTS.items():
        files[f"tests/test_{name}.f90"] = _f_test(name, uses, check)
    return files


def _fortran(s: Scene) -> None:
    s.commit(
        "heatsolve: 1-D implicit and 2-D explicit heat solvers", _fortran_files(), days_ago=300
    )
    s.commit(
        "examples: insulated rod",
        {
            "docs/usage.md": _read(s, "docs/usage.md")
            + "    build/src/heat examples/rod_insulated.nml\n"
        },
        days_ago=16,
    )
    s.intent(
        "Use LAPACK's dgtsv for the implicit 1-D step instead of our own Thomas solver, and "
        "remove tridiag.f90 and its test",
        {"src/heat1d.f90": "the implicit 1-D step"},
        hours_ago=2,
    )
    modules = [m for m in _F_MODULES if m != "tridiag"]
    tests = [t for t in _F_TESTS if t != "tridiag"]
    s.agent(
        {
            "CMakeLists.txt": _read(s, "CMakeLists.txt").replace(
                "include(cmake/CompilerFlags.cmake)\n",
                "include(cmake/CompilerFlags.cmake)\nfind_package(LAPACK REQUIRED)\n",
            ),
            "src/CMakeLists.txt": _f_src_cmake(modules, lapack=True),
            "src/heat1d.f90": _F_HEAT1D.replace("  use tridiag, only: thomas\n", "")
            .replace("    integer :: n\n", "    integer :: n, info\n")
            .replace(
                "    call thomas(a, b, c, u)\n",
                "    call dgtsv(n, 1, a(2:), b, c(:n-1), u, n, info)\n"
                "    if (info /= 0) error stop 'dgtsv: singular system'\n",
            ),
            "tests/CMakeLists.txt": _f_tests_cmake(tests),
            "docs/theory.md": _read(s, "docs/theory.md").replace(
                "Thomas algorithm (`src/tridiag.f90`)", "LAPACK's `dgtsv`"
            ),
            "README.md": _read(s, "README.md").replace(
                "Requirements: gfortran ≥ 10, CMake ≥ 3.20.",
                "Requirements: gfortran ≥ 10, CMake ≥ 3.20, LAPACK (e.g. liblapack-dev).",
            ),
            ".github/workflows/ci.yml": _read(s, ".github/workflows/ci.yml").replace(
                "gfortran cmake", "gfortran cmake liblapack-dev"
            ),
        },
        delete=["src/tridiag.f90", "tests/test_tridiag.f90"],
    )
    mid = s.checkpoint("dgtsv in, ctest green")
    s.agent(
        {
            "src/heat2d.f90": _F_HEAT2D_PRETTY,
            # "Faster runs": aggressive flags that change results bit for bit.
            "cmake/CompilerFlags.cmake": _read(s, "cmake/CompilerFlags.cmake").replace(
                "$<$<CONFIG:Release>:-O2>", "$<$<CONFIG:Release>:-O3 -march=native -ffast-math>"
            ),
            # The example the reference data was made from, made "quicker".
            "examples/rod.nml": _read(s, "examples/rod.nml")
            .replace("  nx = 201", "  nx = 101")
            .replace("  nsteps = 5000", "  nsteps = 500"),
            # `cmake . && make && ctest` in the source tree: only build/ is ignored.
            "CMakeCache.txt": lines(
                "# This is the CMakeCache file.",
                "# For build in directory: /home/tomas/src/heatsolve",
                "# It was generated by CMake: /usr/bin/cmake",
                "CMAKE_BUILD_TYPE:STRING=",
                "CMAKE_Fortran_COMPILER:FILEPATH=/usr/bin/gfortran",
                "LAPACK_lapack_LIBRARY:FILEPATH=/usr/lib/x86_64-linux-gnu/liblapack.so",
            ),
            "CMakeFiles/3.28.3/CMakeFortranCompiler.cmake": lines(
                'set(CMAKE_Fortran_COMPILER "/usr/bin/gfortran")',
                'set(CMAKE_Fortran_COMPILER_ID "GNU")',
                'set(CMAKE_Fortran_COMPILER_VERSION "13.2.0")',
            ),
            "CMakeFiles/CMakeConfigureLog.yaml": lines(
                "",
                "---",
                "events:",
                "  -",
                '    kind: "message-v1"',
                "    message: |",
                "      The Fortran compiler identification is GNU 13.2.0",
            ),
            "Makefile": lines(
                "# CMAKE generated file: DO NOT EDIT!",
                '# Generated by "Unix Makefiles" Generator, CMake Version 3.28',
                "",
                "default_target: all",
                ".PHONY : default_target",
            ),
            "cmake_install.cmake": lines(
                "# Install script for directory: /home/tomas/src/heatsolve",
                "if(NOT DEFINED CMAKE_INSTALL_PREFIX)",
                '  set(CMAKE_INSTALL_PREFIX "/usr/local")',
                "endif()",
            ),
            "CTestTestfile.cmake": lines(
                "# CMake generated Testfile for ",
                "# Source directory: /home/tomas/src/heatsolve",
                'subdirs("src")',
                'subdirs("tests")',
            ),
            "src/Makefile": lines(
                "# CMAKE generated file: DO NOT EDIT!",
                '# Generated by "Unix Makefiles" Generator, CMake Version 3.28',
            ),
            "src/heat": ELF,
            "src/heat1d.mod": b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03GFORTRAN module version '15'",  # noqa: E501
            "src/libheatcore.a": b"!<arch>\n/               0           0     0     0       44        `\n",  # noqa: E501
            "tests/test_heat1d": ELF + b"test_heat1d",
            "Testing/Temporary/LastTest.log": lines(
                "Start testing: May 21 10:02 CEST",
                "----------------------------------------------------------",
                "1/6 Testing: heat1d",
                "Test Passed.",
            ),
        }
    )
    s.checkpoint("agent done")
    s.fine(
        "CMakeLists.txt",
        "src/CMakeLists.txt",
        "src/heat1d.f90",
        "src/tridiag.f90",  # deleted, as asked
        "tests/test_tridiag.f90",  # deleted, as asked
        "tests/CMakeLists.txt",
        "docs/theory.md",
        "README.md",
        # CI must install LAPACK now that the build needs it.
        ".github/workflows/ci.yml",
    )
    s.drift("src/heat2d.f90", "cmake/CompilerFlags.cmake", "examples/rod.nml")
    s.excluded(
        "CMakeCache.txt",
        "CMakeFiles/3.28.3/CMakeFortranCompiler.cmake",
        "CMakeFiles/CMakeConfigureLog.yaml",
        "Makefile",
        "cmake_install.cmake",
        "CTestTestfile.cmake",
        "src/Makefile",
        "src/heat",
        "src/heat1d.mod",
        "src/libheatcore.a",
        "tests/test_heat1d",
        "Testing/Temporary/LastTest.log",
    )
    s.safe_checkpoint(mid)
    s.note = "mid checkpoint (in-scope deletions done, no drift) safe; the later one holds drift"


FRESH13: list[Scenario] = [
    Scenario(
        name="b13_julia_akima_spline",
        build=_julia,
        held_out=False,
        about="Julia package: Akima spline with include/export, test, runtests and docs; an "
        "unasked Pkg.update of the pinned Manifest.toml, JuliaFormatter over pchip.jl and a "
        "setup-julia bump drift; .cov files excluded; checkpoints before, mid and after — mid safe",
        fresh=True,
        batch=13,
    ),
    Scenario(
        name="b13_spring_openapi_shipments",
        build=_spring,
        held_out=False,
        about="Spring Boot on Gradle Kotlin DSL: shipments endpoint (spec, migration, entity, "
        "repository, service, controller, test); a Boot upgrade, DEBUG/show-sql config and a "
        "tidied neighbour controller drift; 36 checked-in generated OpenAPI files restamped "
        "(flood) excluded; no checkpoint",
        fresh=True,
        batch=13,
    ),
    Scenario(
        name="b13_go_sqlc_overdue_invoices",
        build=_go_sqlc,
        held_out=False,
        about="Go monorepo with sqlc: overdue-invoices query, handler, route and test; an "
        "unasked git mv (no edits) in another service and a go directive bump drift; sqlc "
        "output of both services (new version header) excluded; the one checkpoint came "
        "after the rename",
        fresh=True,
        batch=13,
    ),
    Scenario(
        name="b13_elixir_umbrella_product_search",
        build=_elixir,
        held_out=False,
        about="Elixir umbrella: product search in the context, controller, template, trigram "
        "migration and tests; the user's own dev.exs edit before the checkpoint; an Orders "
        "rewrite, .tool-versions bump and layout brand drift; .elixir_ls/ excluded",
        fresh=True,
        batch=13,
    ),
    Scenario(
        name="b13_mkdocs_stale_rotate_keys",
        build=_mkdocs,
        held_out=False,
        about="MkDocs, stale memory: a new how-to with a spaced-name screenshot, its nav entry "
        "and a cross-link; a deleted page, CSS reformat and requirements bump drift; site/ "
        "tracked by mistake and rebuilt, excluded; an old checkpoint before three commits, "
        "today's clean one safe",
        fresh=True,
        batch=13,
    ),
    Scenario(
        name="b13_vue_pinia_persist_cart",
        build=_vue,
        held_out=False,
        about="Vue 3 + Vite + Pinia: persisted cart store (dependency, pnpm-lock, plugin, test) "
        "and an empty-cart WebP illustration component; the checkout screen, dev-server port "
        "and deploy workflow drift; components.d.ts excluded; mid checkpoint safe",
        fresh=True,
        batch=13,
    ),
    Scenario(
        name="b13_terraform_empty_memory_lifecycle",
        build=_terraform,
        held_out=False,
        about="Terraform modules, empty memory: S3 lifecycle rules, terraform-docs table, a "
        "staging artifacts bucket with a random provider and the lock file; all in scope; "
        "tfplan and plan.json excluded; no checkpoint",
        fresh=True,
        batch=13,
    ),
    Scenario(
        name="b13_dart_shelf_departures",
        build=_dart,
        held_out=False,
        about="Dart shelf server: departures endpoint, model, timetable query, test and a "
        "non-ASCII fixture; the user's own port edit after the mid checkpoint; pub upgrade "
        "(pubspec.yaml and pubspec.lock) and stricter analysis options drift; .g.dart excluded",
        fresh=True,
        batch=13,
    ),
    Scenario(
        name="b13_perl_cpan_rename_module",
        build=_perl,
        held_out=False,
        about="Perl/CPAN: git mv of Util.pm to Transliterate.pm and its test, with edits, in "
        "scope with the use lines, MANIFEST and Changes; a deleted pod-coverage test, perltidy "
        "of Options.pm and a CI matrix cut drift; Makefile/MYMETA/pm_to_blib excluded; "
        "checkpoints before and after the first drifting turn",
        fresh=True,
        batch=13,
    ),
    Scenario(
        name="b13_fortran_cmake_dgtsv",
        build=_fortran,
        held_out=False,
        about="Fortran/CMake: LAPACK dgtsv replaces the Thomas solver (deleted module and test "
        "in scope, CMake, docs, CI package); fprettify of heat2d, -ffast-math flags and a "
        "shrunk example drift; an in-source CMake build excluded; mid checkpoint safe",
        fresh=True,
        batch=13,
    ),
]
