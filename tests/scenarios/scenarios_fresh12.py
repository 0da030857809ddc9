"""Fresh scenarios, batch 12: ten agent sessions on stacks no earlier batch covered —
Zig, Erlang/OTP with rebar3, Scala Play on sbt, CMake C++ with vcpkg, a Jekyll blog,
Kustomize overlays deployed by Argo CD, a Python gRPC service with checked-in stubs, a
LÖVE game, a Prisma + tRPC API and a Gleam service.

Written without looking at the advisor's rules: each label is what a careful reviewer
says reading the intent and the diff. Across the batch: a rename, deleted files, names
with a space and non-ASCII letters, binary assets, the user's own hand edits, empty and
stale memory, and checkpoints before the work, mid-session, after a drift, several, a
stale one, and none. The safe point is always the newest checkpoint none of the drift
has reached (the commit when there is none, or when the only checkpoints would undo
committed work).
"""

from __future__ import annotations

from collections.abc import Mapping

from scenario_kit import ELF, PNG, Scenario, Scene, lines
from vibflow_testing.repo import write

#: A RIFF/WAVE header and a few samples: a sound effect as a game keeps it.
WAV = b"RIFF\x24\x08\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00\x44\xac\x00\x00" + bytes(
    range(0, 256, 3)
)
#: An Ogg Vorbis page header and some bytes: a music track.
OGG = b"OggS\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00" + bytes(range(7, 200, 5))
#: A JPEG's first bytes (SOI, APP0/JFIF) and some data: a photo in a blog post.
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00" + bytes(
    range(90, 250)
)
#: A zip local-file header: what ``zip -9 -r game.love .`` leaves.
ZIP = b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + b"\x00" * 20 + b"main.lua" + bytes(range(60))


def _by_hand(s: Scene, files: Mapping[str, str]) -> None:
    """The user's own edit in the work tree: no agent turn, no hook sees it."""
    for rel, text in files.items():
        write(s.root, rel, text)


# -- 1. Zig ----------------------------------------------------------------------------------

_ZIG_FORMAT = lines(
    'const std = @import("std");',
    "",
    "/// Human-readable byte counts for the `stats` command.",
    "pub fn bytes(writer: anytype, n: u64) !void {",
    '    const units = [_][]const u8{ "B", "KiB", "MiB", "GiB" };',
    "    var v: f64 = @floatFromInt(n);",
    "    var i: usize = 0;",
    "    while (v >= 1024 and i + 1 < units.len) : (i += 1) v /= 1024;",
    '    try writer.print("{d:.1} {s}", .{ v, units[i] });',
    "}",
)


def _zig(s: Scene) -> None:
    s.commit(
        "ringtool: a fixed-capacity ring buffer and a small CLI around it",
        {
            ".gitignore": lines("zig-cache/", "zig-out/"),
            "build.zig": lines(
                'const std = @import("std");',
                "",
                "pub fn build(b: *std.Build) void {",
                "    const target = b.standardTargetOptions(.{});",
                "    const optimize = b.standardOptimizeOption(.{});",
                '    const lib = b.addModule("ringtool", .{ .root_source_file = b.path("src/root.zig") });',  # noqa: E501
                '    const exe = b.addExecutable(.{ .name = "ringtool", .root_source_file = b.path("src/main.zig"), .target = target, .optimize = optimize });',  # noqa: E501
                '    exe.root_module.addImport("ringtool", lib);',
                "    b.installArtifact(exe);",
                '    const test_step = b.step("test", "Run unit tests");',
                '    for ([_][]const u8{"tests/parser_test.zig"}) |path| {',
                "        const t = b.addTest(.{ .root_source_file = b.path(path), .target = target });",  # noqa: E501
                '        t.root_module.addImport("ringtool", lib);',
                "        test_step.dependOn(&b.addRunArtifact(t).step);",
                "    }",
                "}",
            ),
            "build.zig.zon": lines(
                ".{",
                '    .name = "ringtool",',
                '    .version = "0.3.0",',
                '    .minimum_zig_version = "0.13.0",',
                "    .dependencies = .{},",
                '    .paths = .{ "build.zig", "build.zig.zon", "src", "tests" },',
                "}",
            ),
            "src/root.zig": lines(
                'pub const RingBuffer = @import("ring_buffer.zig").RingBuffer;',
                'pub const parser = @import("parser.zig");',
                'pub const format = @import("format.zig");',
            ),
            "src/ring_buffer.zig": lines(
                "/// A fixed-capacity FIFO over a caller-owned slice.",
                "pub fn RingBuffer(comptime T: type) type {",
                "    return struct {",
                "        items: []T,",
                "        head: usize = 0,",
                "        len: usize = 0,",
                "        const Self = @This();",
                "        pub fn push(self: *Self, v: T) error{Full}!void {",
                "            if (self.len == self.items.len) return error.Full;",
                "            self.items[(self.head + self.len) % self.items.len] = v;",
                "            self.len += 1;",
                "        }",
                "        pub fn pop(self: *Self) ?T {",
                "            if (self.len == 0) return null;",
                "            const v = self.items[self.head];",
                "            self.head = (self.head + 1) % self.items.len;",
                "            self.len -= 1;",
                "            return v;",
                "        }",
                "    };",
                "}",
            ),
            "src/parser.zig": lines(
                'const std = @import("std");',
                "pub fn parseCount(text: []const u8) !usize {",
                "    return std.fmt.parseInt(usize, text, 10);",
                "}",
            ),
            "src/format.zig": lines(
                'const std = @import("std");',
                "",
                "/// Human-readable byte counts for the `stats` command.",
                "pub fn bytes(writer: anytype, n: u64) !void {",
                '    const units = [_][]const u8{"B", "KiB", "MiB", "GiB"};',
                "    var v: f64 = @floatFromInt(n);",
                "    var i: usize = 0;",
                "    while (v >= 1024 and i + 1 < units.len) : (i += 1) v /= 1024;",
                '    try writer.print("{d:.1} {s}", .{v, units[i]});',
                "}",
            ),
            "src/main.zig": lines(
                'const std = @import("std");',
                'const ringtool = @import("ringtool");',
                "pub fn main() !void {",
                "    var storage: [64]u32 = undefined;",
                "    var rb = ringtool.RingBuffer(u32){ .items = &storage };",
                "    try rb.push(1);",
                '    std.debug.print("{any}\\n", .{rb.pop()});',
                "}",
            ),
            "tests/parser_test.zig": lines(
                'const std = @import("std");',
                'const parser = @import("ringtool").parser;',
                'test "decimal counts" {',
                '    try std.testing.expectEqual(@as(usize, 42), try parser.parseCount("42"));',
                "}",
            ),
            ".github/workflows/ci.yml": lines(
                "name: ci",
                "on: [push, pull_request]",
                "jobs:",
                "  test:",
                "    runs-on: ubuntu-latest",
                "    steps:",
                "      - uses: actions/checkout@v4",
                "      - uses: mlugg/setup-zig@v1",
                "        with:",
                "          version: 0.13.0",
                "      - run: zig build test",
            ),
            "README.md": lines(
                "# ringtool",
                "",
                "A fixed-capacity ring buffer for Zig, plus a tiny CLI.",
                "",
                "- `push(v)` appends, `error.Full` when full",
                "- `pop()` removes the oldest item",
            ),
        },
        days_ago=70,
    )
    s.commit(
        "ring buffer: tests for push/pop and wrap-around",
        {
            "tests/ring_buffer_test.zig": lines(
                'const std = @import("std");',
                'const RingBuffer = @import("ringtool").RingBuffer;',
                'test "push then pop wraps" {',
                "    var storage: [2]u8 = undefined;",
                "    var rb = RingBuffer(u8){ .items = &storage };",
                "    try rb.push(1);",
                "    try rb.push(2);",
                "    try std.testing.expectEqual(@as(?u8, 1), rb.pop());",
                "    try rb.push(3);",
                "    try std.testing.expectError(error.Full, rb.push(4));",
                "}",
            ),
            "build.zig": (s.root / "build.zig")
            .read_text()
            .replace(
                '"tests/parser_test.zig"}', '"tests/parser_test.zig", "tests/ring_buffer_test.zig"}'
            ),
        },
        days_ago=45,
    )
    s.commit(
        "parser: accept 0x hex counts",
        {
            "src/parser.zig": lines(
                'const std = @import("std");',
                "pub fn parseCount(text: []const u8) !usize {",
                '    if (std.mem.startsWith(u8, text, "0x")) return std.fmt.parseInt(usize, text[2..], 16);',  # noqa: E501
                "    return std.fmt.parseInt(usize, text, 10);",
                "}",
            ),
            "tests/parser_test.zig": (s.root / "tests/parser_test.zig").read_text()
            + lines(
                'test "hex counts" {',
                '    try std.testing.expectEqual(@as(usize, 255), try parser.parseCount("0xff"));',
                "}",
            ),
        },
        days_ago=21,
    )
    s.commit(
        "ring buffer: pop() on an empty buffer returns null, not garbage",
        {
            "src/ring_buffer.zig": (s.root / "src/ring_buffer.zig")
            .read_text()
            .replace("        pub fn pop(", "        /// null when empty.\n        pub fn pop("),
            "tests/ring_buffer_test.zig": (s.root / "tests/ring_buffer_test.zig").read_text()
            + lines(
                'test "pop on empty" {',
                "    var storage: [1]u8 = undefined;",
                "    var rb = RingBuffer(u8){ .items = &storage };",
                "    try std.testing.expectEqual(@as(?u8, null), rb.pop());",
                "}",
            ),
        },
        days_ago=6,
    )
    s.intent(
        "Add peek() and a wrap-around iterator to RingBuffer",
        {"src/ring_buffer.zig": "the ring buffer type"},
        hours_ago=1,
    )
    ring = (s.root / "src/ring_buffer.zig").read_text()
    s.agent(
        {
            "src/ring_buffer.zig": ring.replace(
                "    };\n}\n",
                lines(
                    "        pub fn peek(self: *const Self) ?T {",
                    "            return if (self.len == 0) null else self.items[self.head];",
                    "        }",
                    "        pub const Iterator = struct {",
                    "            rb: *const Self,",
                    "            i: usize = 0,",
                    "            pub fn next(it: *Iterator) ?T {",
                    "                if (it.i == it.rb.len) return null;",
                    "                defer it.i += 1;",
                    "                return it.rb.items[(it.rb.head + it.i) % it.rb.items.len];",
                    "            }",
                    "        };",
                    "        pub fn iterator(self: *const Self) Iterator {",
                    "            return .{ .rb = self };",
                    "        }",
                    "    };",
                    "}",
                ),
            ),
            "tests/ring_buffer_test.zig": (s.root / "tests/ring_buffer_test.zig").read_text()
            + lines(
                'test "peek and iterate across the wrap" {',
                "    var storage: [3]u8 = undefined;",
                "    var rb = RingBuffer(u8){ .items = &storage };",
                "    try rb.push(1);",
                "    try rb.push(2);",
                "    _ = rb.pop();",
                "    try rb.push(3);",
                "    try rb.push(4);",
                "    try std.testing.expectEqual(@as(?u8, 2), rb.peek());",
                "    var it = rb.iterator();",
                "    try std.testing.expectEqual(@as(?u8, 2), it.next());",
                "}",
            ),
            # Re-exporting the iterator type from the package root: part of the API the
            # intent adds.
            "src/root.zig": (s.root / "src/root.zig").read_text()
            + "pub const RingIterator = RingBuffer(u8).Iterator;\n",
            "README.md": (s.root / "README.md").read_text()
            + lines(
                "- `peek()` returns the oldest item without removing it",
                "- `iterator()` walks oldest to newest across the wrap",
            ),
            # `zig fmt` run over the whole tree: an untouched module reformatted.
            "src/format.zig": _ZIG_FORMAT,
            "build.zig.zon": (s.root / "build.zig.zon").read_text().replace('"0.3.0"', '"0.4.0"'),
            ".github/workflows/ci.yml": (s.root / ".github/workflows/ci.yml")
            .read_text()
            .replace("0.13.0", "0.14.0"),
            # Zig 0.13 renamed its cache to `.zig-cache/`; the old ignore file only
            # knows `zig-cache/`, so `zig build test` left these untracked.
            ".zig-cache/h/timestamp": b"\x00" * 16,
            ".zig-cache/o/3b1f0c9e2d7a4e5f9a1c/test": ELF,
            ".zig-cache/c/8d2e41f07a9b3c55/dependencies.zig": lines(
                "pub const packages = struct {};",
                "pub const root_deps: []const struct { []const u8, []const u8 } = &.{};",
            ),
        }
    )
    s.fine("src/ring_buffer.zig", "tests/ring_buffer_test.zig", "src/root.zig", "README.md")
    s.drift("src/format.zig", "build.zig.zon", ".github/workflows/ci.yml")
    s.excluded(
        ".zig-cache/h/timestamp",
        ".zig-cache/o/3b1f0c9e2d7a4e5f9a1c/test",
        ".zig-cache/c/8d2e41f07a9b3c55/dependencies.zig",
    )
    s.note = "no checkpoint: restore drift from the commit"


# -- 2. Erlang/OTP, rebar3 ----------------------------------------------------------------------

_LIMITER = lines(
    "-module(gk_rate_limiter).",
    "-behaviour(gen_server).",
    "-export([start_link/0, allow/1]).",
    "-export([init/1, handle_call/3, handle_cast/2, handle_info/2]).",
    "",
    "start_link() -> gen_server:start_link({local, ?MODULE}, ?MODULE, [], []).",
    "",
    "allow(Key) -> gen_server:call(?MODULE, {allow, Key}).",
    "",
    "init([]) ->",
    "    {ok, Limit} = application:get_env(gatekeeper, requests_per_minute),",
    "    {ok, #{limit => Limit, buckets => #{}}}.",
    "",
    "handle_call({allow, Key}, _From, S = #{limit := Limit, buckets := B}) ->",
    "    Minute = erlang:system_time(second) div 60,",
    "    N = maps:get({Key, Minute}, B, 0),",
    "    case N < Limit of",
    "        true -> {reply, true, S#{buckets := B#{{Key, Minute} => N + 1}}};",
    "        false -> {reply, false, S}",
    "    end.",
    "",
    "handle_cast(_Msg, S) -> {noreply, S}.",
    "handle_info(_Msg, S) -> {noreply, S}.",
)


def _rebar3(s: Scene) -> None:
    s.commit(
        "gatekeeper: an OTP app that rate-limits the HTTP front door",
        {
            # Kept from the erlang.mk days: knows ebin/ and *.beam, not rebar3's _build/.
            ".gitignore": lines("ebin/", "*.beam", ".eunit/", "erl_crash.dump"),
            "rebar.config": lines(
                "{erl_opts, [debug_info]}.",
                '{deps, [{cowboy, "2.12.0"}]}.',
                '{relx, [{release, {gatekeeper, "1.4.0"}, [gatekeeper, sasl]},',
                '        {sys_config, "config/sys.config"}, {vm_args, "config/vm.args"}]}.',
                '{ct_opts, [{sys_config, ["config/sys.config"]}]}.',
            ),
            "rebar.lock": lines(
                '{"1.2.0",',
                '[{<<"cowboy">>,{pkg,<<"cowboy">>,<<"2.12.0">>},0},',
                ' {<<"cowlib">>,{pkg,<<"cowlib">>,<<"2.13.0">>},1},',
                ' {<<"ranch">>,{pkg,<<"ranch">>,<<"1.8.0">>},1}]}.',
            ),
            "apps/gatekeeper/src/gatekeeper.app.src": lines(
                "{application, gatekeeper,",
                ' [{description, "Rate-limiting HTTP front door"},',
                '  {vsn, "1.4.0"},',
                "  {registered, [gk_rate_limiter]},",
                "  {mod, {gatekeeper_app, []}},",
                "  {applications, [kernel, stdlib, cowboy]},",
                "  {env, []}]}.",
            ),
            "apps/gatekeeper/src/gatekeeper_app.erl": lines(
                "-module(gatekeeper_app).",
                "-behaviour(application).",
                "-export([start/2, stop/1]).",
                "start(_Type, _Args) ->",
                "    Dispatch = cowboy_router:compile([{'_', [{\"/[...]\", gk_http_handler, []}]}]),",  # noqa: E501
                "    {ok, _} = cowboy:start_clear(http, [{port, 8080}], #{env => #{dispatch => Dispatch}}),",  # noqa: E501
                "    gatekeeper_sup:start_link().",
                "stop(_State) -> ok.",
            ),
            "apps/gatekeeper/src/gatekeeper_sup.erl": lines(
                "-module(gatekeeper_sup).",
                "-behaviour(supervisor).",
                "-export([start_link/0, init/1]).",
                "start_link() -> supervisor:start_link({local, ?MODULE}, ?MODULE, []).",
                "init([]) ->",
                "    Limiter = #{id => gk_rate_limiter, start => {gk_rate_limiter, start_link, []}},",  # noqa: E501
                "    {ok, {#{strategy => one_for_one}, [Limiter]}}.",
            ),
            "apps/gatekeeper/src/gk_rate_limiter.erl": _LIMITER,
            "apps/gatekeeper/src/gk_http_handler.erl": lines(
                "-module(gk_http_handler).",
                "-export([init/2]).",
                "init(Req, State) ->",
                "    Key = cowboy_req:peer(Req),",
                "    case gk_rate_limiter:allow(Key) of",
                "        true -> {ok, cowboy_req:reply(204, Req), State};",
                "        false -> {ok, cowboy_req:reply(429, Req), State}",
                "    end.",
            ),
            "apps/gatekeeper/src/gk_metrics.erl": lines(
                "-module(gk_metrics).",
                "-export([incr/1]).",
                "incr(Name) -> counters:add(persistent_term:get({?MODULE, Name}), 1, 1).",
            ),
            "apps/gatekeeper/test/gk_rate_limiter_SUITE.erl": lines(
                "-module(gk_rate_limiter_SUITE).",
                '-include_lib("common_test/include/ct.hrl").',
                "-export([all/0, init_per_suite/1, end_per_suite/1, limits_per_key/1]).",
                "all() -> [limits_per_key].",
                "init_per_suite(C) -> {ok, _} = application:ensure_all_started(gatekeeper), C.",
                "end_per_suite(_C) -> application:stop(gatekeeper).",
                "limits_per_key(_C) ->",
                "    [true = gk_rate_limiter:allow(a) || _ <- lists:seq(1, 5)],",
                "    false = gk_rate_limiter:allow(a).",
            ),
            "apps/gatekeeper/test/gk_http_handler_tests.erl": lines(
                "-module(gk_http_handler_tests).",
                '-include_lib("eunit/include/eunit.hrl").',
                "rejects_with_429_test() ->",
                "    meck:new(gk_rate_limiter),",
                "    meck:expect(gk_rate_limiter, allow, fun(_) -> false end),",
                "    ?assertMatch({ok, _, _}, gk_http_handler:init(fake_req(), [])),",
                "    meck:unload(gk_rate_limiter).",
                "fake_req() -> #{peer => {{127, 0, 0, 1}, 5000}}.",
            ),
            "config/sys.config": lines(
                "[{gatekeeper, [{requests_per_minute, 5}]},",
                " {kernel, [{logger_level, info}]}].",
            ),
            "config/vm.args": lines(
                "-name gatekeeper@127.0.0.1",
                "-setcookie gatekeeper_cookie",
                "+K true",
                "+P 1048576",
            ),
            "README.md": lines(
                "# gatekeeper",
                "",
                "Rate limits requests per client.",
                "",
                "Settings (`config/sys.config`): `requests_per_minute`.",
            ),
        },
        days_ago=90,
    )
    s.commit(
        "rate limiter: per-peer keys, common test suite for the limit",
        {
            "apps/gatekeeper/src/gk_rate_limiter.erl": _LIMITER.replace(
                "allow(Key) ->",
                "%% Key is the peer {IP, Port}; callers pass it as is.\nallow(Key) ->",
            ),
            "apps/gatekeeper/test/gk_rate_limiter_SUITE.erl": (
                s.root / "apps/gatekeeper/test/gk_rate_limiter_SUITE.erl"
            )
            .read_text()
            .replace("allow(a)", "allow(peer_a)"),
            "config/sys.config": lines(
                "[{gatekeeper, [{requests_per_minute, 5}]},",
                " {kernel, [{logger_level, notice}]}].",
            ),
        },
        days_ago=33,
    )
    s.commit(
        "metrics: count rejected requests",
        {
            "apps/gatekeeper/src/gk_metrics.erl": (
                s.root / "apps/gatekeeper/src/gk_metrics.erl"
            ).read_text()
            + "rejected() -> incr(rejected).\n",
        },
        days_ago=12,
    )
    s.intent(
        "Switch gk_rate_limiter from fixed one-minute buckets to a sliding window; "
        "the window length comes from sys.config (window_ms)",
        {"apps/gatekeeper/src/gk_rate_limiter.erl": "the limiter gen_server"},
        hours_ago=2,
    )
    # First turn: the agent ran `rebar3 do eunit, ct`, the handler's eunit test failed
    # (meck is not a test dependency), and it "fixed" that by deleting the test and
    # then "tuned" the VM flags. The user checkpoints here without having looked.
    s.agent(
        {
            "config/vm.args": lines(
                "-sname gatekeeper",
                "-setcookie gatekeeper_cookie",
                "+K true",
                "+P 262144",
            ),
        },
        delete=["apps/gatekeeper/test/gk_http_handler_tests.erl"],
    )
    s.checkpoint("agent halfway through the sliding window")
    s.agent(
        {
            "apps/gatekeeper/src/gk_rate_limiter.erl": lines(
                "-module(gk_rate_limiter).",
                "-behaviour(gen_server).",
                "-export([start_link/0, allow/1]).",
                "-export([init/1, handle_call/3, handle_cast/2, handle_info/2]).",
                "",
                "start_link() -> gen_server:start_link({local, ?MODULE}, ?MODULE, [], []).",
                "",
                "allow(Key) -> gen_server:call(?MODULE, {allow, Key}).",
                "",
                "init([]) ->",
                "    {ok, Limit} = application:get_env(gatekeeper, requests_per_minute),",
                "    Window = application:get_env(gatekeeper, window_ms, 60000),",
                "    {ok, #{limit => Limit, window => Window, seen => #{}}}.",
                "",
                "%% Sliding window: keep each key's request times inside the last Window ms.",
                "handle_call({allow, Key}, _From, S = #{limit := L, window := W, seen := Seen}) ->",
                "    Now = erlang:monotonic_time(millisecond),",
                "    Recent = [T || T <- maps:get(Key, Seen, []), T > Now - W],",
                "    case length(Recent) < L of",
                "        true -> {reply, true, S#{seen := Seen#{Key => [Now | Recent]}}};",
                "        false -> {reply, false, S#{seen := Seen#{Key => Recent}}}",
                "    end.",
                "",
                "handle_cast(_Msg, S) -> {noreply, S}.",
                "handle_info(_Msg, S) -> {noreply, S}.",
            ),
            "config/sys.config": lines(
                "[{gatekeeper, [{requests_per_minute, 5}, {window_ms, 60000}]},",
                " {kernel, [{logger_level, notice}]}].",
            ),
            "apps/gatekeeper/test/gk_rate_limiter_SUITE.erl": lines(
                "-module(gk_rate_limiter_SUITE).",
                '-include_lib("common_test/include/ct.hrl").',
                "-export([all/0, init_per_suite/1, end_per_suite/1]).",
                "-export([limits_per_key/1, window_slides/1]).",
                "all() -> [limits_per_key, window_slides].",
                "init_per_suite(C) ->",
                "    application:set_env(gatekeeper, window_ms, 200),",
                "    {ok, _} = application:ensure_all_started(gatekeeper), C.",
                "end_per_suite(_C) -> application:stop(gatekeeper).",
                "limits_per_key(_C) ->",
                "    [true = gk_rate_limiter:allow(peer_a) || _ <- lists:seq(1, 5)],",
                "    false = gk_rate_limiter:allow(peer_a).",
                "window_slides(_C) ->",
                "    [true = gk_rate_limiter:allow(peer_b) || _ <- lists:seq(1, 5)],",
                "    timer:sleep(250),",
                "    true = gk_rate_limiter:allow(peer_b).",
            ),
            "README.md": lines(
                "# gatekeeper",
                "",
                "Rate limits requests per client.",
                "",
                "Settings (`config/sys.config`): `requests_per_minute`, and `window_ms`,",
                "the length of the sliding window (default 60000).",
            ),
            # Nobody asked for a release.
            "apps/gatekeeper/src/gatekeeper.app.src": (
                s.root / "apps/gatekeeper/src/gatekeeper.app.src"
            )
            .read_text()
            .replace('"1.4.0"', '"1.5.0"'),
            # rebar3's build tree: common test logs and fetched dependency sources.
            "_build/test/logs/index.html": "<html><body><h1>Test Runs</h1></body></html>\n",
            "_build/test/logs/ct_run.nonode@nohost.2024-05-20_10.11.12/"
            "gatekeeper.gk_rate_limiter_SUITE.logs/run.2024-05-20_10.11.13/suite.log": lines(
                "=case          limits_per_key", "=result        ok"
            ),
            "_build/default/lib/cowlib/src/cow_http.erl": lines(
                "%% Copyright (c) Loïc Hoguin <essen@ninenines.eu>",
                "-module(cow_http).",
            ),
            "_build/default/lib/cowlib/hex_metadata.config": lines(
                '{<<"name">>,<<"cowlib">>}.', '{<<"version">>,<<"2.13.0">>}.'
            ),
        }
    )
    s.fine(
        "apps/gatekeeper/src/gk_rate_limiter.erl",
        "config/sys.config",
        "apps/gatekeeper/test/gk_rate_limiter_SUITE.erl",
        "README.md",
    )
    s.drift(
        "apps/gatekeeper/test/gk_http_handler_tests.erl",
        "config/vm.args",
        "apps/gatekeeper/src/gatekeeper.app.src",
    )
    s.excluded(
        "_build/test/logs/index.html",
        "_build/test/logs/ct_run.nonode@nohost.2024-05-20_10.11.12/"
        "gatekeeper.gk_rate_limiter_SUITE.logs/run.2024-05-20_10.11.13/suite.log",
        "_build/default/lib/cowlib/src/cow_http.erl",
        "_build/default/lib/cowlib/hex_metadata.config",
    )
    # The only checkpoint already holds the deleted test and the VM flags: restoring
    # from it would bring neither back. The commit is the safe point.
    s.note = "the one checkpoint came after the drift: restore from the commit"


# -- 3. Scala Play on sbt ---------------------------------------------------------------------

_PRICING = lines(
    "package services",
    "",
    "import javax.inject.Singleton",
    "",
    "@Singleton",
    "class PricingService {",
    "  def quote(net: BigDecimal, vatRate: BigDecimal): BigDecimal =",
    "    (net * (1 + vatRate)).setScale(2, BigDecimal.RoundingMode.HALF_UP)",
    "}",
)


def _sbt_play(s: Scene) -> None:
    s.commit(
        "orders service: Play 3 skeleton, orders and quotes endpoints",
        {
            ".gitignore": lines("/target/", "/.bsp/", "/.idea/", "logs/"),
            "build.sbt": lines(
                'name := "orders-service"',
                'ThisBuild / scalaVersion := "2.13.12"',
                'lazy val root = (project in file(".")).enablePlugins(PlayScala)',
                "libraryDependencies ++= Seq(",
                "  guice,",
                '  "org.scalatestplus.play" %% "scalatestplus-play" % "7.0.1" % Test',
                ")",
            ),
            "project/build.properties": "sbt.version=1.9.9\n",
            "project/plugins.sbt": 'addSbtPlugin("org.playframework" % "sbt-plugin" % "3.0.2")\n',
            "conf/application.conf": lines(
                'play.http.secret.key = "changeme"',
                "play.http.secret.key = ${?APPLICATION_SECRET}",
                "orders.db.pool-size = 8",
            ),
            "conf/routes": lines(
                "GET     /health          controllers.HealthController.check()",
                "GET     /orders          controllers.OrdersController.list()",
                "GET     /orders/:id      controllers.OrdersController.show(id: Long)",
                "POST    /quotes          controllers.QuotesController.create()",
            ),
            "conf/logback.xml": lines(
                "<configuration>",
                '  <appender name="STDOUT" class="ch.qos.logback.core.ConsoleAppender">',
                "    <encoder><pattern>%level %logger - %message%n</pattern></encoder>",
                "  </appender>",
                '  <root level="INFO"><appender-ref ref="STDOUT"/></root>',
                "</configuration>",
            ),
            "app/models/Order.scala": lines(
                "package models",
                "",
                "final case class Order(id: Long, customer: String, totalCents: Long)",
            ),
            "app/services/OrderRepository.scala": lines(
                "package services",
                "",
                "import javax.inject.Singleton",
                "import models.Order",
                "",
                "@Singleton",
                "class OrderRepository {",
                '  private val rows = (1L to 250L).map(i => Order(i, s"c$i", i * 100))',
                "  def all(): Seq[Order] = rows",
                "  def find(id: Long): Option[Order] = rows.find(_.id == id)",
                "}",
            ),
            "app/services/PricingService.scala": _PRICING,
            "app/controllers/OrdersController.scala": lines(
                "package controllers",
                "",
                "import javax.inject._",
                "import play.api.libs.json._",
                "import play.api.mvc._",
                "import services.OrderRepository",
                "",
                "@Singleton",
                "class OrdersController @Inject() (cc: ControllerComponents, repo: OrderRepository)",  # noqa: E501
                "    extends AbstractController(cc) {",
                "  private implicit val orderWrites: OWrites[models.Order] = Json.writes",
                "  def list(): Action[AnyContent] = Action(Ok(Json.toJson(repo.all())))",
                "  def show(id: Long): Action[AnyContent] = Action {",
                "    repo.find(id).fold(NotFound: Result)(o => Ok(Json.toJson(o)))",
                "  }",
                "}",
            ),
            "app/controllers/QuotesController.scala": lines(
                "package controllers",
                "",
                "import javax.inject._",
                "import play.api.libs.json._",
                "import play.api.mvc._",
                "import services.PricingService",
                "",
                "@Singleton",
                "class QuotesController @Inject() (cc: ControllerComponents, pricing: PricingService)",  # noqa: E501
                "    extends AbstractController(cc) {",
                "  def create(): Action[JsValue] = Action(parse.json) { req =>",
                '    val net = (req.body \\ "net").as[BigDecimal]',
                '    Ok(Json.obj("gross" -> pricing.quote(net, BigDecimal("0.2"))))',
                "  }",
                "}",
            ),
            "app/controllers/HealthController.scala": lines(
                "package controllers",
                "",
                "import javax.inject._",
                "import play.api.mvc._",
                "",
                "@Singleton",
                "class HealthController @Inject() (cc: ControllerComponents) extends AbstractController(cc) {",  # noqa: E501
                '  def check(): Action[AnyContent] = Action(Ok("ok"))',
                "}",
            ),
            "test/controllers/OrdersControllerSpec.scala": lines(
                "package controllers",
                "",
                "import org.scalatestplus.play._",
                "import org.scalatestplus.play.guice._",
                "import play.api.test._",
                "import play.api.test.Helpers._",
                "",
                "class OrdersControllerSpec extends PlaySpec with GuiceOneAppPerTest {",
                '  "GET /orders/1" should { "return the order" in {',
                '    val res = route(app, FakeRequest(GET, "/orders/1")).get',
                "    status(res) mustBe OK",
                "  } }",
                "}",
            ),
            "test/services/PricingServiceSpec.scala": lines(
                "package services",
                "",
                "import org.scalatestplus.play.PlaySpec",
                "",
                "class PricingServiceSpec extends PlaySpec {",
                '  "quote" should { "add VAT and round half up" in {',
                '    new PricingService().quote(BigDecimal("10.005"), BigDecimal("0.2")) mustBe BigDecimal("12.01")',  # noqa: E501
                "  } }",
                "}",
            ),
        },
        days_ago=60,
    )
    s.commit(
        "orders: 404 for unknown ids, spec for show",
        {
            "app/controllers/OrdersController.scala": (
                s.root / "app/controllers/OrdersController.scala"
            )
            .read_text()
            .replace("def list()", "// Full list; clients filter for now.\n  def list()"),
            "test/controllers/OrdersControllerSpec.scala": (
                s.root / "test/controllers/OrdersControllerSpec.scala"
            )
            .read_text()
            .replace(
                "  } }\n}",
                '  } }\n  "GET /orders/999" should { "404" in {\n'
                '    status(route(app, FakeRequest(GET, "/orders/999")).get) mustBe NOT_FOUND\n'
                "  } }\n}",
            ),
        },
        days_ago=25,
    )
    s.commit(
        "quotes: VAT rate rounding spec",
        {
            "test/services/PricingServiceSpec.scala": (
                s.root / "test/services/PricingServiceSpec.scala"
            ).read_text()
            + "// Rounding: HALF_UP as the finance team books it.\n"
        },
        days_ago=9,
    )
    s.intent(
        "Paginate GET /orders with page and size query parameters; the largest page "
        "size comes from config",
        {
            "app/controllers/OrdersController.scala": "the list endpoint",
            "conf/routes": "the route takes the new parameters",
        },
        hours_ago=3,
    )
    s.checkpoint("before pagination")
    s.agent(
        {
            "conf/routes": (s.root / "conf/routes")
            .read_text()
            .replace(
                "controllers.OrdersController.list()",
                "controllers.OrdersController.list(page: Int ?= 1, size: Int ?= 20)",
            ),
            "app/controllers/OrdersController.scala": lines(
                "package controllers",
                "",
                "import javax.inject._",
                "import play.api.Configuration",
                "import play.api.libs.json._",
                "import play.api.mvc._",
                "import models.Page",
                "import services.OrderRepository",
                "",
                "@Singleton",
                "class OrdersController @Inject() (",
                "    cc: ControllerComponents,",
                "    repo: OrderRepository,",
                "    config: Configuration",
                ") extends AbstractController(cc) {",
                "  private implicit val orderWrites: OWrites[models.Order] = Json.writes",
                '  private val maxSize = config.get[Int]("orders.page.max-size")',
                "  def list(page: Int, size: Int): Action[AnyContent] = Action {",
                "    if (page < 1 || size < 1) BadRequest",
                "    else {",
                "      val p = Page(page, size min maxSize)",
                '      Ok(Json.obj("items" -> repo.slice(p.offset, p.size), "page" -> p.number))',
                "    }",
                "  }",
                "  def show(id: Long): Action[AnyContent] = Action {",
                "    repo.find(id).fold(NotFound: Result)(o => Ok(Json.toJson(o)))",
                "  }",
                "}",
            ),
            "app/models/Page.scala": lines(
                "package models",
                "",
                "final case class Page(number: Int, size: Int) {",
                "  def offset: Int = (number - 1) * size",
                "}",
            ),
            "app/services/OrderRepository.scala": (s.root / "app/services/OrderRepository.scala")
            .read_text()
            .replace(
                "  def all(): Seq[Order] = rows\n",
                "  def all(): Seq[Order] = rows\n"
                "  def slice(offset: Int, limit: Int): Seq[Order] = rows.slice(offset, offset + limit)\n",  # noqa: E501
            ),
            "conf/application.conf": (s.root / "conf/application.conf").read_text()
            + "orders.page.max-size = 100\n",
        }
    )
    mid = s.checkpoint("pagination compiles")
    s.agent(
        {
            "test/controllers/OrdersControllerSpec.scala": (
                s.root / "test/controllers/OrdersControllerSpec.scala"
            )
            .read_text()
            .replace(
                "  } }\n}",
                '  } }\n  "GET /orders?page=2&size=500" should { "cap the page size" in {\n'
                '    val res = route(app, FakeRequest(GET, "/orders?page=2&size=500")).get\n'
                '    (contentAsJson(res) \\ "items").as[Seq[play.api.libs.json.JsValue]].size mustBe 100\n'  # noqa: E501
                "  } }\n}",
                1,
            ),
            # An unrequested rename of the pricing service, with its spec and its one
            # caller following along.
            "app/services/PriceCalculator.scala": _PRICING.replace(
                "class PricingService", "class PriceCalculator"
            ),
            "test/services/PriceCalculatorSpec.scala": (
                s.root / "test/services/PricingServiceSpec.scala"
            )
            .read_text()
            .replace("PricingService", "PriceCalculator"),
            "app/controllers/QuotesController.scala": (
                s.root / "app/controllers/QuotesController.scala"
            )
            .read_text()
            .replace("PricingService", "PriceCalculator"),
            "build.sbt": (s.root / "build.sbt").read_text().replace("2.13.12", "2.13.14"),
            # The root-anchored `/target/` never covered the meta-build's own target.
            "project/target/config-classes/$a1b2c3d4e5f60718.class": b"\xca\xfe\xba\xbe"
            + b"\x00" * 28,
            "project/target/streams/_global/_global/_global/streams/out": lines(
                "[debug] > Exec(reload, None)"
            ),
            "project/target/scala-2.12/sbt-1.0/update/update_cache_2.12/output": '{"cachedDescriptor":"."}\n',  # noqa: E501
            # Written by the Metals language server on import.
            "project/metals.sbt": lines(
                "// format: off",
                "// DO NOT EDIT! This file is auto-generated.",
                "",
                "// This file enables sbt-bloop to create bloop config files.",
                "",
                'addSbtPlugin("ch.epfl.scala" % "sbt-bloop" % "1.5.17")',
                "",
                "// format: on",
            ),
        },
        rename={
            "app/services/PricingService.scala": "app/services/PriceCalculator.scala",
            "test/services/PricingServiceSpec.scala": "test/services/PriceCalculatorSpec.scala",
        },
    )
    s.fine(
        "conf/routes",
        "app/controllers/OrdersController.scala",
        "app/models/Page.scala",
        "app/services/OrderRepository.scala",
        "conf/application.conf",
        "test/controllers/OrdersControllerSpec.scala",
    )
    # Both sides of the rename are drift: the old name must come back, the new one go.
    s.drift(
        "app/services/PricingService.scala",
        "app/services/PriceCalculator.scala",
        "test/services/PricingServiceSpec.scala",
        "test/services/PriceCalculatorSpec.scala",
        "app/controllers/QuotesController.scala",
        "build.sbt",
    )
    s.excluded(
        "project/target/config-classes/$a1b2c3d4e5f60718.class",
        "project/target/streams/_global/_global/_global/streams/out",
        "project/target/scala-2.12/sbt-1.0/update/update_cache_2.12/output",
        "project/metals.sbt",
    )
    s.safe_checkpoint(mid)
    s.note = "two clean checkpoints; the newer one (pagination compiles) predates every drift"


# -- 4. CMake C++ with vcpkg ------------------------------------------------------------------

_DECODE = lines(
    '#include "image/decode.hpp"',
    "#include <png.h>",
    "#include <stdexcept>",
    "",
    "namespace img {",
    "Image decode_png(const std::string& path) {",
    '  FILE* f = std::fopen(path.c_str(), "rb");',
    '  if (!f) throw std::runtime_error("cannot open " + path);',
    "  Image out{};",
    "  // libpng read loop elided for brevity in tests",
    "  std::fclose(f);",
    "  return out;",
    "}",
    "}  // namespace img",
)


def _cmake(s: Scene) -> None:
    presets = lines(
        "{",
        '  "version": 6,',
        '  "configurePresets": [',
        '    {"name": "dev", "binaryDir": "${sourceDir}/build/dev",',
        '     "toolchainFile": "$env{VCPKG_ROOT}/scripts/buildsystems/vcpkg.cmake",',
        '     "cacheVariables": {"CMAKE_BUILD_TYPE": "Debug", "CMAKE_EXPORT_COMPILE_COMMANDS": "ON"}}',  # noqa: E501
        "  ]",
        "}",
    )
    s.commit(
        "imgtool: resize and decode PNGs from the command line",
        {
            # A Visual Studio template's ignore file: out/ and .vs/, not build/.
            ".gitignore": lines("/out/", ".vs/", ".cache/clangd/"),
            ".clang-format": lines("BasedOnStyle: Google", "ColumnLimit: 100"),
            "CMakeLists.txt": lines(
                "cmake_minimum_required(VERSION 3.25)",
                "project(imgtool LANGUAGES CXX)",
                "set(CMAKE_CXX_STANDARD 17)",
                "set(CMAKE_CXX_STANDARD_REQUIRED ON)",
                "find_package(PNG REQUIRED)",
                "add_subdirectory(src)",
                "enable_testing()",
                "add_subdirectory(tests)",
            ),
            "CMakePresets.json": presets,
            "vcpkg.json": lines(
                "{",
                '  "name": "imgtool",',
                '  "version-string": "0.2.0",',
                '  "builtin-baseline": "c8696863d371ab7f46e213d8f5ca923c4aef2a00",',
                '  "dependencies": ["libpng", "catch2"]',
                "}",
            ),
            "src/CMakeLists.txt": lines(
                "add_library(imgcore image/resize.cpp image/decode.cpp)",
                "target_include_directories(imgcore PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})",
                "target_link_libraries(imgcore PUBLIC PNG::PNG)",
                "add_executable(imgtool main.cpp cli/args.cpp)",
                "target_link_libraries(imgtool PRIVATE imgcore)",
            ),
            "src/main.cpp": lines(
                '#include "cli/args.hpp"',
                '#include "image/decode.hpp"',
                '#include "image/resize.hpp"',
                "int main(int argc, char** argv) {",
                "  auto args = cli::parse(argc, argv);",
                "  auto in = img::decode_png(args.input);",
                "  auto out = img::resize(in, args.width, args.height);",
                "  return out.pixels.empty() ? 1 : 0;",
                "}",
            ),
            "src/image/resize.hpp": lines(
                "#pragma once",
                '#include "image/decode.hpp"',
                "namespace img {",
                "Image resize(const Image& in, int width, int height);",
                "}  // namespace img",
            ),
            "src/image/resize.cpp": lines(
                '#include "image/resize.hpp"',
                "namespace img {",
                "// Bilinear: good enough for thumbnails.",
                "Image resize(const Image& in, int width, int height) {",
                "  Image out{width, height, std::vector<uint8_t>(width * height * 4)};",
                "  (void)in;",
                "  return out;",
                "}",
                "}  // namespace img",
            ),
            "src/image/decode.hpp": lines(
                "#pragma once",
                "#include <cstdint>",
                "#include <string>",
                "#include <vector>",
                "namespace img {",
                "struct Image { int width; int height; std::vector<uint8_t> pixels; };",
                "Image decode_png(const std::string& path);",
                "}  // namespace img",
            ),
            "src/image/decode.cpp": _DECODE,
            "src/cli/args.hpp": lines(
                "#pragma once",
                "#include <string>",
                "namespace cli {",
                "struct Args { std::string input; int width = 0; int height = 0; };",
                "Args parse(int argc, char** argv);",
                "}  // namespace cli",
            ),
            "src/cli/args.cpp": lines(
                '#include "cli/args.hpp"',
                "#include <cstdlib>",
                "#include <string_view>",
                "namespace cli {",
                "Args parse(int argc, char** argv) {",
                "  Args a;",
                "  for (int i = 1; i + 1 < argc; i += 2) {",
                "    std::string_view k = argv[i];",
                '    if (k == "--in") a.input = argv[i + 1];',
                '    else if (k == "--width") a.width = std::atoi(argv[i + 1]);',
                '    else if (k == "--height") a.height = std::atoi(argv[i + 1]);',
                "  }",
                "  return a;",
                "}",
                "}  // namespace cli",
            ),
            "tests/CMakeLists.txt": lines(
                "find_package(Catch2 3 REQUIRED)",
                "add_executable(imgtests test_resize.cpp test_decode.cpp)",
                "target_link_libraries(imgtests PRIVATE imgcore Catch2::Catch2WithMain)",
                "add_test(NAME imgtests COMMAND imgtests)",
            ),
            "tests/test_resize.cpp": lines(
                "#include <catch2/catch_test_macros.hpp>",
                '#include "image/resize.hpp"',
                'TEST_CASE("resize keeps the requested size") {',
                "  img::Image in{4, 4, std::vector<uint8_t>(64)};",
                "  auto out = img::resize(in, 2, 2);",
                "  REQUIRE(out.width == 2);",
                "}",
            ),
            "tests/test_decode.cpp": lines(
                "#include <catch2/catch_test_macros.hpp>",
                '#include "image/decode.hpp"',
                'TEST_CASE("missing file throws") {',
                '  REQUIRE_THROWS(img::decode_png("nope.png"));',
                "}",
            ),
            "README.md": lines(
                "# imgtool",
                "",
                "    cmake --preset dev && cmake --build build/dev",
                "    imgtool --in a.png --width 200 --height 100",
            ),
        },
        days_ago=50,
    )
    s.commit(
        "resize: clamp to at least 1x1, test it",
        {
            "src/image/resize.cpp": (s.root / "src/image/resize.cpp")
            .read_text()
            .replace(
                "  Image out{",
                "  width = width < 1 ? 1 : width;\n  height = height < 1 ? 1 : height;\n  Image out{",  # noqa: E501
            ),
            "tests/test_resize.cpp": (s.root / "tests/test_resize.cpp").read_text()
            + lines(
                'TEST_CASE("resize clamps zero to one") {',
                "  img::Image in{4, 4, std::vector<uint8_t>(64)};",
                "  REQUIRE(img::resize(in, 0, 0).width == 1);",
                "}",
            ),
        },
        days_ago=18,
    )
    s.commit(
        "cli: --in is required",
        {
            "src/cli/args.cpp": (s.root / "src/cli/args.cpp")
            .read_text()
            .replace("  return a;", "  if (a.input.empty()) std::exit(2);\n  return a;"),
        },
        days_ago=4,
    )
    s.intent(
        "Add a Lanczos3 resampling filter to the resizer, chosen with --filter lanczos",
        {
            "src/image/resize.cpp": "the resizer",
            "src/image/resize.hpp": "its interface",
        },
        hours_ago=1,
    )
    # The user's own edit before handing over: an ASan preset for their machine.
    _by_hand(
        s,
        {
            "CMakePresets.json": presets.replace(
                '"CMAKE_EXPORT_COMPILE_COMMANDS": "ON"}}',
                '"CMAKE_EXPORT_COMPILE_COMMANDS": "ON"}},\n'
                '    {"name": "dev-asan", "inherits": "dev", "binaryDir": "${sourceDir}/build/asan",\n'  # noqa: E501
                '     "cacheVariables": {"CMAKE_CXX_FLAGS": "-fsanitize=address,undefined"}}',
            )
        },
    )
    before = s.checkpoint("before lanczos")
    s.agent(
        {
            "src/image/resize.hpp": lines(
                "#pragma once",
                '#include "image/decode.hpp"',
                "namespace img {",
                "enum class Filter { Bilinear, Lanczos3 };",
                "Image resize(const Image& in, int width, int height,",
                "             Filter filter = Filter::Bilinear);",
                "}  // namespace img",
            ),
            "src/image/resize.cpp": lines(
                '#include "image/resize.hpp"',
                '#include "image/kernels.hpp"',
                "namespace img {",
                "Image resize(const Image& in, int width, int height, Filter filter) {",
                "  width = width < 1 ? 1 : width;",
                "  height = height < 1 ? 1 : height;",
                "  Image out{width, height, std::vector<uint8_t>(width * height * 4)};",
                "  const auto& kernel = filter == Filter::Lanczos3 ? kernels::lanczos3",
                "                                                    : kernels::bilinear;",
                "  kernels::apply(in, out, kernel);",
                "  return out;",
                "}",
                "}  // namespace img",
            ),
            "src/image/kernels.hpp": lines(
                "#pragma once",
                '#include "image/decode.hpp"',
                "namespace img::kernels {",
                "struct Kernel { double radius; double (*weight)(double); };",
                "extern const Kernel bilinear;",
                "extern const Kernel lanczos3;",
                "void apply(const Image& in, Image& out, const Kernel& k);",
                "}  // namespace img::kernels",
            ),
            "src/image/kernels.cpp": lines(
                '#include "image/kernels.hpp"',
                "#include <cmath>",
                "namespace img::kernels {",
                "namespace {",
                "double sinc(double x) { return x == 0 ? 1 : std::sin(M_PI * x) / (M_PI * x); }",
                "double tri(double x) { return x < 1 ? 1 - x : 0; }",
                "double lz3(double x) { return x < 3 ? sinc(x) * sinc(x / 3) : 0; }",
                "}  // namespace",
                "const Kernel bilinear{1.0, tri};",
                "const Kernel lanczos3{3.0, lz3};",
                "void apply(const Image& in, Image& out, const Kernel& k) { (void)in; (void)out; (void)k; }",  # noqa: E501
                "}  // namespace img::kernels",
            ),
            "src/CMakeLists.txt": (s.root / "src/CMakeLists.txt")
            .read_text()
            .replace(
                "image/resize.cpp image/decode.cpp",
                "image/resize.cpp image/kernels.cpp image/decode.cpp",
            ),
            "src/cli/args.hpp": (s.root / "src/cli/args.hpp")
            .read_text()
            .replace("int height = 0; };", 'int height = 0; std::string filter = "bilinear"; };'),
            "src/cli/args.cpp": (s.root / "src/cli/args.cpp")
            .read_text()
            .replace(
                '    else if (k == "--height")',
                '    else if (k == "--filter") a.filter = argv[i + 1];\n    else if (k == "--height")',  # noqa: E501
            ),
            # main.cpp passes the parsed filter on: the wiring the flag needs.
            "src/main.cpp": (s.root / "src/main.cpp")
            .read_text()
            .replace(
                "img::resize(in, args.width, args.height);",
                "img::resize(in, args.width, args.height,\n"
                '                         args.filter == "lanczos" ? img::Filter::Lanczos3 : img::Filter::Bilinear);',  # noqa: E501
            ),
            "tests/test_resize.cpp": (s.root / "tests/test_resize.cpp").read_text()
            + lines(
                'TEST_CASE("lanczos keeps the requested size") {',
                "  img::Image in{8, 8, std::vector<uint8_t>(256)};",
                "  REQUIRE(img::resize(in, 3, 3, img::Filter::Lanczos3).height == 3);",
                "}",
            ),
            "README.md": (s.root / "README.md").read_text()
            + "    imgtool --in a.png --width 200 --height 100 --filter lanczos\n",
            # clang-format run over a file nobody touched.
            "src/image/decode.cpp": _DECODE.replace(
                '  FILE* f = std::fopen(path.c_str(), "rb");\n'
                '  if (!f) throw std::runtime_error("cannot open " + path);\n',
                '  FILE *f = std::fopen(path.c_str(), "rb");\n'
                "  if (!f)\n"
                '    throw std::runtime_error("cannot open " + path);\n',
            ),
            "CMakeLists.txt": (s.root / "CMakeLists.txt")
            .read_text()
            .replace("CMAKE_CXX_STANDARD 17", "CMAKE_CXX_STANDARD 20"),
            "vcpkg.json": (s.root / "vcpkg.json")
            .read_text()
            .replace(
                "c8696863d371ab7f46e213d8f5ca923c4aef2a00",
                "b02e341c927f16d991edbd915d8ea43eac52096c",
            ),
            # The configured build tree (build/ is not ignored) and the copy of the
            # compilation database clangd reads at the root.
            "build/dev/CMakeCache.txt": lines(
                "# This is the CMakeCache file.",
                "CMAKE_BUILD_TYPE:STRING=Debug",
            ),
            "build/dev/compile_commands.json": '[{"directory": "build/dev", "file": "src/image/resize.cpp"}]\n',  # noqa: E501
            "build/dev/src/imgtool": ELF,
            "build/dev/src/CMakeFiles/imgcore.dir/image/kernels.cpp.o": ELF,
            "build/dev/vcpkg_installed/x64-linux/include/png.h": lines(
                "/* png.h - header file for PNG reference library */"
            ),
            "compile_commands.json": '[{"directory": "build/dev", "file": "src/image/resize.cpp"}]\n',  # noqa: E501
        }
    )
    s.fine(
        # The user's own preset, made before the checkpoint: theirs, keep it.
        "CMakePresets.json",
        "src/image/resize.hpp",
        "src/image/resize.cpp",
        "src/image/kernels.hpp",
        "src/image/kernels.cpp",
        "src/CMakeLists.txt",
        "src/cli/args.hpp",
        "src/cli/args.cpp",
        "src/main.cpp",
        "tests/test_resize.cpp",
        "README.md",
    )
    s.drift("src/image/decode.cpp", "CMakeLists.txt", "vcpkg.json")
    s.excluded(
        "build/dev/CMakeCache.txt",
        "build/dev/compile_commands.json",
        "build/dev/src/imgtool",
        "build/dev/src/CMakeFiles/imgcore.dir/image/kernels.cpp.o",
        "build/dev/vcpkg_installed/x64-linux/include/png.h",
        "compile_commands.json",
    )
    s.safe_checkpoint(before)
    s.note = "checkpoint before the work holds the user's own preset edit"


# -- 5. Jekyll, stale memory --------------------------------------------------------------------

_MAIN_SCSS = lines(
    "---",
    "---",
    '@import "minima";',
    ".post-meta { color: $grey-color; font-size: 0.9rem; }",
    ".reading-time { margin-left: .5em; }",
)


_JEKYLL_MD_CACHE = ".jekyll-cache/Jekyll/Cache/Jekyll--Converters--Markdown/8f/3c2e0d1b7a9f"
_JEKYLL_CACHE = ".jekyll-cache/Jekyll/Cache/Jekyll--Cache/b7/9606fb3afea5bd1609ed40b622142f1c"


def _jekyll(s: Scene) -> None:
    s.commit(
        "blog: Jekyll site with minima",
        {
            # The Jekyll 3 era ignore file: no `.jekyll-cache/` (Jekyll 4 added it).
            ".gitignore": lines("_site", ".sass-cache", ".jekyll-metadata"),
            "Gemfile": lines(
                'source "https://rubygems.org"',
                'gem "jekyll", "~> 4.3"',
                'gem "minima", "~> 2.5"',
                "group :jekyll_plugins do",
                '  gem "jekyll-feed"',
                "end",
            ),
            "Gemfile.lock": lines(
                "GEM",
                "  specs:",
                "    jekyll (4.3.3)",
                "    minima (2.5.1)",
                "BUNDLED WITH",
                "   2.5.6",
            ),
            "_config.yml": lines(
                "title: Slow Coffee",
                "description: Notes on brewing, badly and then better.",
                "url: https://slowcoffee.example",
                "permalink: /:year/:month/:title/",
                "theme: minima",
                "plugins: [jekyll-feed]",
            ),
            "_layouts/default.html": lines(
                "<!doctype html>",
                "<html>{% include head.html %}<body>{% include header.html %}",
                "{{ content }}{% include footer.html %}</body></html>",
            ),
            "_layouts/post.html": lines(
                "---",
                "layout: default",
                "---",
                "<article><h1>{{ page.title }}</h1>",
                '<p class="post-meta">{{ page.date | date: "%-d %B %Y" }}</p>',
                "{{ content }}</article>",
            ),
            "_includes/head.html": "<head><title>{{ page.title }} · {{ site.title }}</title></head>\n",  # noqa: E501
            "_includes/header.html": lines(
                '<header><a href="/">{{ site.title }}</a>',
                '{% for item in site.data.navigation %}<a href="{{ item.url }}">{{ item.title }}</a>{% endfor %}',  # noqa: E501
                "</header>",
            ),
            "_includes/footer.html": '<footer>© {{ site.time | date: "%Y" }} Slow Coffee</footer>\n',  # noqa: E501
            "_data/navigation.yml": lines("- title: About", "  url: /about/"),
            "_data/authors.yml": lines("mara:", "  name: Mara Lind", "  bio: Drinks it black."),
            "_posts/2024-03-04-first-roast.md": lines(
                "---", "title: First roast", "author: mara", "---", "Too dark. Again."
            ),
            "_drafts/espresso-notes.md": lines(
                "---", "title: Espresso notes (draft)", "---", "9 bar? 6 bar? Find out."
            ),
            "assets/css/main.scss": _MAIN_SCSS.replace(
                ".reading-time { margin-left: .5em; }\n", ""
            ),
            "about.md": lines("---", "layout: page", "title: About", "---", "Mara writes here."),
            "index.html": lines("---", "layout: home", "---"),
        },
        days_ago=40,
    )
    s.intent(
        "Show reading time on post pages",
        {"_layouts/post.html": "the post layout"},
        hours_ago=24 * 13,
    )
    # A checkpoint from that old session, before the commits that followed it.
    s.checkpoint("before reading time")
    s.commit(
        "post layout: reading time",
        {
            "_layouts/post.html": (s.root / "_layouts/post.html")
            .read_text()
            .replace("</p>", " {% include reading-time.html %}</p>"),
            "_includes/reading-time.html": lines(
                "{% assign words = content | number_of_words %}",
                '<span class="reading-time">{{ words | divided_by: 200 | plus: 1 }} min read</span>',  # noqa: E501
            ),
            "assets/css/main.scss": _MAIN_SCSS,
        },
        days_ago=11,
    )
    s.commit(
        "post: pour-over ratios",
        {
            "_posts/2024-04-11-pour-over-ratios.md": lines(
                "---", "title: Pour-over ratios", "author: mara", "---", "1:16, then argue."
            )
        },
        days_ago=5,
    )
    s.commit(
        "archive page and nav link; site feed path",
        {
            "_data/navigation.yml": lines(
                "- title: About", "  url: /about/", "- title: Archive", "  url: /archive/"
            ),
            "archive.html": lines(
                "---",
                "layout: page",
                "title: Archive",
                "---",
                '{% for post in site.posts %}<a href="{{ post.url }}">{{ post.title }}</a>{% endfor %}',  # noqa: E501
            ),
            "_config.yml": (s.root / "_config.yml").read_text() + "feed:\n  path: /feed.xml\n",
            "_includes/footer.html": lines(
                '<footer>© {{ site.time | date: "%Y" }} Slow Coffee',
                '· <a href="{{ "/feed.xml" | relative_url }}">RSS</a></footer>',
            ),
        },
        days_ago=2,
    )
    # The memory still says "reading time" (shipped eleven days ago). Today the user
    # asked in the chat for the café crème post with its photo by a guest author; a
    # reviewer reads the diff against that, and the memory cannot tell them anything.
    s.agent(
        {
            "_posts/2024-06-02-café-crème.md": lines(
                "---",
                "title: Café crème, the Swiss way",
                "author: lea",
                "image: /assets/img/café crème.jpg",
                "---",
                "![A café crème](/assets/img/café crème.jpg)",
                "",
                "A long espresso, not a latte.",
            ),
            "assets/img/café crème.jpg": JPEG,
            # The post's front matter names `lea`: the author entry it reads.
            "_data/authors.yml": (s.root / "_data/authors.yml").read_text()
            + lines("lea:", "  name: Léa Favre", "  bio: Guest from Lausanne."),
            # Changing the permalink style moves every existing post's URL.
            "_config.yml": (s.root / "_config.yml")
            .read_text()
            .replace("permalink: /:year/:month/:title/", "permalink: /:categories/:title/"),
            "_includes/footer.html": lines(
                '<footer>© {{ site.time | date: "%Y" }} Slow Coffee Journal',
                '· <a href="{{ "/feed.xml" | relative_url }}">RSS</a></footer>',
            ),
            "assets/css/main.scss": _MAIN_SCSS.replace(
                ".post-meta { color: $grey-color; font-size: 0.9rem; }",
                ".post-meta {\n  color: $grey-color;\n  font-size: 0.9rem;\n}",
            ).replace(
                ".reading-time { margin-left: .5em; }", ".reading-time {\n  margin-left: 0.5em;\n}"
            ),
            # `jekyll build` with Jekyll 4: its cache is not in the old ignore file.
            _JEKYLL_MD_CACHE: b'\x04\bI"\x1a<p>A long espresso</p>\x06:\x06ET',
            _JEKYLL_CACHE: b"\x04\b{\x00",
        },
        delete=["_drafts/espresso-notes.md"],
    )
    s.fine("_posts/2024-06-02-café-crème.md", "assets/img/café crème.jpg", "_data/authors.yml")
    s.drift(
        "_config.yml",
        "_includes/footer.html",
        "assets/css/main.scss",
        # The user's own unfinished draft, deleted.
        "_drafts/espresso-notes.md",
    )
    s.excluded(
        _JEKYLL_MD_CACHE,
        _JEKYLL_CACHE,
    )
    # The checkpoint predates three commits touching _config.yml, the footer and the
    # stylesheet: restoring the drift from it would undo committed work.
    s.safe_commit()
    s.note = "stale memory and a checkpoint older than the last commits: restore from the commit"


# -- 6. Kustomize overlays, Argo CD ---------------------------------------------------------------


def _argo_app(name: str, path: str, namespace: str, extra: str = "") -> str:
    return (
        lines(
            "apiVersion: argoproj.io/v1alpha1",
            "kind: Application",
            "metadata:",
            f"  name: {name}",
            "  namespace: argocd",
            "spec:",
            "  project: platform",
            "  source:",
            "    repoURL: https://git.example.com/platform/deploy.git",
            "    targetRevision: main",
            f"    path: {path}",
            "  destination:",
            "    server: https://kubernetes.default.svc",
            f"    namespace: {namespace}",
        )
        + extra
    )


def _overlay(env: str, extra: str = "") -> str:
    return (
        lines(
            "apiVersion: kustomize.config.k8s.io/v1beta1",
            "kind: Kustomization",
            f"namespace: payments-{env}",
            "resources:",
            "  - ../../base",
            "patches:",
            "  - path: patch-replicas.yaml",
        )
        + extra
    )


def _kustomize(s: Scene) -> None:
    deployment = lines(
        "apiVersion: apps/v1",
        "kind: Deployment",
        "metadata:",
        "  name: payments",
        "spec:",
        "  selector: {matchLabels: {app: payments}}",
        "  template:",
        "    metadata: {labels: {app: payments}}",
        "    spec:",
        "      containers:",
        "        - name: payments",
        "          image: registry.example.com/payments:2.13.0",
        "          envFrom:",
        "            - configMapRef: {name: payments-config}",
    )
    ledger = lines(
        "apiVersion: apps/v1",
        "kind: Deployment",
        "metadata:",
        "  name: ledger",
        "spec:",
        "  template:",
        "    spec:",
        "      containers:",
        "        - name: ledger",
        "          image: registry.example.com/ledger:1.8.2",
    )
    replicas = (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: payments}\nspec: {replicas: %d}\n"
    )
    s.commit(
        "deploy: payments and ledger, overlays per environment, Argo CD apps",
        {
            "apps/payments/base/kustomization.yaml": lines(
                "apiVersion: kustomize.config.k8s.io/v1beta1",
                "kind: Kustomization",
                "resources: [deployment.yaml, service.yaml, configmap.yaml]",
            ),
            "apps/payments/base/deployment.yaml": deployment,
            "apps/payments/base/service.yaml": lines(
                "apiVersion: v1",
                "kind: Service",
                "metadata: {name: payments}",
                "spec: {selector: {app: payments}, ports: [{port: 80, targetPort: 8080}]}",
            ),
            "apps/payments/base/configmap.yaml": lines(
                "apiVersion: v1",
                "kind: ConfigMap",
                "metadata: {name: payments-config}",
                "data:",
                '  LOG_LEVEL: "info"',
            ),
            "apps/payments/overlays/dev/kustomization.yaml": _overlay("dev"),
            "apps/payments/overlays/dev/patch-replicas.yaml": replicas % 1,
            "apps/payments/overlays/staging/kustomization.yaml": _overlay("staging"),
            "apps/payments/overlays/staging/patch-replicas.yaml": replicas % 1,
            "apps/payments/overlays/prod/kustomization.yaml": _overlay(
                "prod", "  - path: patch-resources.yaml\n"
            ),
            "apps/payments/overlays/prod/patch-replicas.yaml": replicas % 6,
            "apps/payments/overlays/prod/patch-resources.yaml": lines(
                "apiVersion: apps/v1",
                "kind: Deployment",
                "metadata: {name: payments}",
                "spec:",
                "  template:",
                "    spec:",
                "      containers:",
                "        - name: payments",
                "          resources: {requests: {cpu: 500m, memory: 512Mi}}",
            ),
            "apps/ledger/base/kustomization.yaml": lines(
                "apiVersion: kustomize.config.k8s.io/v1beta1",
                "kind: Kustomization",
                "resources: [deployment.yaml]",
            ),
            "apps/ledger/base/deployment.yaml": ledger.replace("1.8.2", "1.8.1"),
            "apps/ledger/overlays/prod/kustomization.yaml": lines(
                "apiVersion: kustomize.config.k8s.io/v1beta1",
                "kind: Kustomization",
                "namespace: ledger-prod",
                "resources: [../../base]",
            ),
            "argocd/projects/platform.yaml": lines(
                "apiVersion: argoproj.io/v1alpha1",
                "kind: AppProject",
                "metadata: {name: platform, namespace: argocd}",
                "spec:",
                "  sourceRepos: ['https://git.example.com/platform/deploy.git']",
                "  destinations: [{namespace: '*', server: https://kubernetes.default.svc}]",
            ),
            "argocd/applications/payments-dev.yaml": _argo_app(
                "payments-dev",
                "apps/payments/overlays/dev",
                "payments-dev",
                "  syncPolicy:\n    automated: {prune: true, selfHeal: true}\n",
            ),
            "argocd/applications/payments-staging.yaml": _argo_app(
                "payments-staging",
                "apps/payments/overlays/staging",
                "payements-staging",
                "  syncPolicy:\n    automated: {selfHeal: true}\n",
            ),
            "argocd/applications/payments-prod.yaml": _argo_app(
                "payments-prod", "apps/payments/overlays/prod", "payments-prod"
            ),
            "argocd/applications/ledger-prod.yaml": _argo_app(
                "ledger-prod", "apps/ledger/overlays/prod", "ledger-prod"
            ),
            ".github/workflows/validate.yml": lines(
                "name: validate",
                "on: [pull_request]",
                "jobs:",
                "  kubeconform:",
                "    runs-on: ubuntu-latest",
                "    steps:",
                "      - uses: actions/checkout@v4",
                "      - run: for o in apps/*/overlays/*; do kustomize build $o | kubeconform -strict; done",  # noqa: E501
            ),
            "README.md": lines(
                "# deploy",
                "",
                "Argo CD syncs `argocd/applications/*`; each points at one overlay.",
                "Prod syncs by hand.",
            ),
        },
        days_ago=80,
    )
    s.commit(
        "payments 2.14.0: settlement cutoff setting, staging to 2 replicas",
        {
            "apps/payments/base/configmap.yaml": (
                s.root / "apps/payments/base/configmap.yaml"
            ).read_text()
            + '  SETTLEMENT_CUTOFF: "17:00"\n',
            "apps/payments/base/deployment.yaml": deployment.replace("2.13.0", "2.14.0"),
            "apps/payments/overlays/staging/patch-replicas.yaml": replicas % 2,
        },
        days_ago=30,
    )
    s.commit(
        "ledger 1.8.2",
        {"apps/ledger/base/deployment.yaml": ledger.replace("1.8.1", "1.8.2")},
        days_ago=10,
    )
    s.intent(
        "Turn on FX rates for payments in staging only: FX_RATES_ENABLED=true and "
        "FX_RATES_URL pointing at the staging rates API",
        {"apps/payments/overlays/staging/kustomization.yaml": "the staging overlay"},
        hours_ago=2,
    )
    # The user's own fix first: the staging app synced into a misspelt namespace.
    _by_hand(
        s,
        {
            "argocd/applications/payments-staging.yaml": (
                s.root / "argocd/applications/payments-staging.yaml"
            )
            .read_text()
            .replace("payements-staging", "payments-staging")
        },
    )
    s.checkpoint("before fx")
    s.agent(
        {
            "apps/payments/overlays/staging/kustomization.yaml": _overlay(
                "staging",
                lines(
                    "configMapGenerator:",
                    "  - name: payments-config",
                    "    behavior: merge",
                    "    literals:",
                    "      - FX_RATES_ENABLED=true",
                    "      - FX_RATES_URL=https://rates.staging.example.com/v1",
                ),
            ),
            # A safe default in the base so every environment has the key and only
            # staging turns it on — a reviewer accepts this as part of the change.
            "apps/payments/base/configmap.yaml": (
                s.root / "apps/payments/base/configmap.yaml"
            ).read_text()
            + '  FX_RATES_ENABLED: "false"\n',
        }
    )
    mid = s.checkpoint("staging fx wired")
    s.agent(
        {
            # "For consistency" the agent turned it on in prod as well: the wrong
            # environment, and against the intent's "staging only".
            "apps/payments/overlays/prod/kustomization.yaml": _overlay(
                "prod",
                "  - path: patch-resources.yaml\n"
                + lines(
                    "configMapGenerator:",
                    "  - name: payments-config",
                    "    behavior: merge",
                    "    literals:",
                    "      - FX_RATES_ENABLED=true",
                    "      - FX_RATES_URL=https://rates.example.com/v1",
                ),
            ),
            "argocd/applications/payments-prod.yaml": (
                s.root / "argocd/applications/payments-prod.yaml"
            ).read_text()
            + "  syncPolicy:\n    automated: {prune: true, selfHeal: true}\n",
            "apps/ledger/base/deployment.yaml": ledger.replace("1.8.2", "1.9.0"),
        }
    )
    s.checkpoint("agent done")
    s.fine(
        "argocd/applications/payments-staging.yaml",
        "apps/payments/overlays/staging/kustomization.yaml",
        "apps/payments/base/configmap.yaml",
    )
    s.drift(
        "apps/payments/overlays/prod/kustomization.yaml",
        "argocd/applications/payments-prod.yaml",
        "apps/ledger/base/deployment.yaml",
    )
    s.safe_checkpoint(mid)
    s.note = "three checkpoints: before, mid (clean) and after the drift; the mid one is safe"


# -- 7. Python gRPC with checked-in stubs --------------------------------------------------------


def _pb2(source: str, version: str, body: str) -> str:
    return lines(
        "# -*- coding: utf-8 -*-",
        "# Generated by the protocol buffer compiler.  DO NOT EDIT!",
        "# NO CHECKED-IN PROTOBUF GENCODE",
        f"# source: {source}",
        f"# Protobuf Python Version: {version}",
        '"""Generated protocol buffer code."""',
        "from google.protobuf import descriptor as _descriptor",
        "from google.protobuf import descriptor_pool as _descriptor_pool",
        "from google.protobuf.internal import builder as _builder",
        f"DESCRIPTOR = _descriptor_pool.Default().AddSerializedFile(b'{body}')",
        "_globals = globals()",
        "_builder.BuildMessageAndEnumDescriptors(DESCRIPTOR, _globals)",
    )


def _pb2_grpc(methods: list[str]) -> str:
    out = [
        "# Generated by the gRPC Python protocol compiler plugin. DO NOT EDIT!",
        '"""Client and server classes corresponding to protobuf-defined services."""',
        "import grpc",
        "",
        "from inventory_service._proto.inventory.v1 import inventory_pb2 as inventory__pb2",
        "",
        "class InventoryServicer(object):",
    ]
    for m in methods:
        out += [
            f"    def {m}(self, request, context):",
            "        context.set_code(grpc.StatusCode.UNIMPLEMENTED)",
            "        raise NotImplementedError('Method not implemented!')",
        ]
    return lines(*out)


def _pyi(messages: list[str]) -> str:
    # grpc_tools' --pyi_out writes no "generated" header at all.
    out = [
        "from google.protobuf import descriptor as _descriptor",
        "from google.protobuf import message as _message",
        "from typing import ClassVar as _ClassVar, Optional as _Optional",
        "",
        "DESCRIPTOR: _descriptor.FileDescriptor",
    ]
    for m in messages:
        out += ["", f"class {m}(_message.Message):", "    __slots__ = ()"]
    return lines(*out)


def _grpc(s: Scene) -> None:
    gen = "src/inventory_service/_proto"
    proto = lines(
        'syntax = "proto3";',
        "package inventory.v1;",
        'import "common/v1/money.proto";',
        "message Item { string sku = 1; int32 on_hand = 2; common.v1.Money price = 3; }",
        "message GetItemRequest { string sku = 1; }",
        "service Inventory {",
        "  rpc GetItem(GetItemRequest) returns (Item);",
        "}",
    )
    logging_setup = lines(
        '"""Process-wide logging: one JSON line per record."""',
        "",
        "import logging",
        "",
        "",
        "def configure(level: str = 'INFO') -> None:",
        "    logging.basicConfig(",
        "        level=level,",
        '        format=\'{"level": "%(levelname)s", "msg": "%(message)s"}\',',
        "    )",
    )
    s.commit(
        "inventory service: GetItem over gRPC, stubs generated into the package",
        {
            "pyproject.toml": lines(
                "[project]",
                'name = "inventory-service"',
                'version = "0.6.0"',
                'dependencies = ["grpcio>=1.66", "protobuf>=5.27"]',
                "[project.optional-dependencies]",
                'dev = ["grpcio-tools>=1.66", "pytest"]',
                "[tool.ruff]",
                "line-length = 88",
                'extend-exclude = ["src/inventory_service/_proto"]',
            ),
            "Makefile": lines(
                "protos:",
                "\tpython -m grpc_tools.protoc -Iprotos --python_out=src/inventory_service/_proto \\",  # noqa: E501
                "\t  --pyi_out=src/inventory_service/_proto --grpc_python_out=src/inventory_service/_proto \\",  # noqa: E501
                "\t  protos/inventory/v1/inventory.proto protos/common/v1/money.proto",
            ),
            "protos/inventory/v1/inventory.proto": proto.replace(
                'import "common/v1/money.proto";\n', ""
            ).replace(" common.v1.Money price = 3;", ""),
            "protos/common/v1/money.proto": lines(
                'syntax = "proto3";',
                "package common.v1;",
                "message Money { string currency = 1; int64 units = 2; int32 nanos = 3; }",
            ),
            f"{gen}/__init__.py": "",
            f"{gen}/inventory/v1/inventory_pb2.py": _pb2(
                "inventory/v1/inventory.proto", "5.27.2", "\\n\\x1cinventory/v1/inventory.proto"
            ),
            f"{gen}/inventory/v1/inventory_pb2_grpc.py": _pb2_grpc(["GetItem"]),
            f"{gen}/inventory/v1/inventory_pb2.pyi": _pyi(["Item", "GetItemRequest"]),
            f"{gen}/common/v1/money_pb2.py": _pb2(
                "common/v1/money.proto", "5.27.2", "\\n\\x15common/v1/money.proto"
            ),
            f"{gen}/common/v1/money_pb2.pyi": _pyi(["Money"]),
            "src/inventory_service/__init__.py": "",
            "src/inventory_service/store.py": lines(
                '"""Stock levels, in memory for now."""',
                "",
                "from dataclasses import dataclass",
                "",
                "",
                "@dataclass",
                "class Row:",
                "    sku: str",
                "    on_hand: int",
                "",
                "",
                "class Store:",
                "    def __init__(self, rows: dict[str, Row]) -> None:",
                "        self._rows = rows",
                "",
                "    def get(self, sku: str) -> Row | None:",
                "        return self._rows.get(sku)",
            ),
            "src/inventory_service/servicer.py": lines(
                '"""The Inventory service over the store."""',
                "",
                "import grpc",
                "",
                "from inventory_service._proto.inventory.v1 import inventory_pb2, inventory_pb2_grpc",  # noqa: E501
                "from inventory_service.store import Store",
                "",
                "",
                "class InventoryServicer(inventory_pb2_grpc.InventoryServicer):",
                "    def __init__(self, store: Store) -> None:",
                "        self._store = store",
                "",
                "    def GetItem(self, request, context):",
                "        row = self._store.get(request.sku)",
                "        if row is None:",
                "            context.abort(grpc.StatusCode.NOT_FOUND, request.sku)",
                "        return inventory_pb2.Item(sku=row.sku, on_hand=row.on_hand)",
            ),
            "src/inventory_service/server.py": lines(
                '"""Entry point: serve on :50051."""',
                "",
                "from concurrent import futures",
                "",
                "import grpc",
                "",
                "from inventory_service import logging_setup",
                "",
                "",
                "def serve() -> None:",
                "    logging_setup.configure()",
                "    server = grpc.server(futures.ThreadPoolExecutor(max_workers=10))",
                "    server.add_insecure_port('[::]:50051')",
                "    server.start()",
                "    server.wait_for_termination()",
            ),
            "src/inventory_service/logging_setup.py": logging_setup,
            "tests/conftest.py": lines(
                "import pytest",
                "",
                "from inventory_service.store import Row, Store",
                "",
                "",
                "@pytest.fixture",
                "def store():",
                "    return Store({'A1': Row('A1', 3), 'B2': Row('B2', 0)})",
            ),
            "tests/test_servicer.py": lines(
                "from inventory_service._proto.inventory.v1 import inventory_pb2",
                "from inventory_service.servicer import InventoryServicer",
                "",
                "",
                "def test_get_item(store):",
                "    item = InventoryServicer(store).GetItem(inventory_pb2.GetItemRequest(sku='A1'), None)",  # noqa: E501
                "    assert item.on_hand == 3",
            ),
            "tests/test_store.py": lines(
                "def test_missing_sku(store):",
                "    assert store.get('ZZ') is None",
            ),
            "README.md": lines(
                "# inventory-service",
                "",
                "`make protos` regenerates the stubs under `src/inventory_service/_proto`.",
                "",
                "RPCs: `GetItem`.",
            ),
        },
        days_ago=55,
    )
    s.commit(
        "Item carries its price",
        {
            "protos/inventory/v1/inventory.proto": proto,
            f"{gen}/inventory/v1/inventory_pb2.py": _pb2(
                "inventory/v1/inventory.proto",
                "5.27.2",
                "\\n\\x1cinventory/v1/inventory.proto\\x1a",
            ),
            "src/inventory_service/servicer.py": (s.root / "src/inventory_service/servicer.py")
            .read_text()
            .replace(
                "        return inventory_pb2",
                "        # Price comes with pricing v2.\n        return inventory_pb2",
            ),
            "tests/test_servicer.py": (s.root / "tests/test_servicer.py").read_text()
            + "    assert item.sku == 'A1'\n",
        },
        days_ago=14,
    )
    s.intent(
        "Add a BatchGetItems RPC (up to 100 SKUs per call) to the inventory service",
        {
            "protos/inventory/v1/inventory.proto": "the service contract",
            "src/inventory_service/servicer.py": "the service implementation",
        },
        # What the hooks saw the agent patch earlier in the session — including the
        # logging module, which the reviewer still rejects below.
        patches=[
            "protos/inventory/v1/inventory.proto",
            "src/inventory_service/servicer.py",
            "src/inventory_service/logging_setup.py",
        ],
        hours_ago=1,
    )
    s.agent(
        {
            "protos/inventory/v1/inventory.proto": proto.replace(
                "message GetItemRequest { string sku = 1; }\n",
                "message GetItemRequest { string sku = 1; }\n"
                "message BatchGetItemsRequest { repeated string skus = 1; }\n"
                "message BatchGetItemsResponse { repeated Item items = 1; repeated string missing = 2; }\n",  # noqa: E501
            ).replace(
                "  rpc GetItem(GetItemRequest) returns (Item);\n",
                "  rpc GetItem(GetItemRequest) returns (Item);\n"
                "  rpc BatchGetItems(BatchGetItemsRequest) returns (BatchGetItemsResponse);\n",
            ),
            # `make protos`, with a newer grpcio-tools: every stub is rewritten, the
            # untouched money.proto's too (its version line changed).
            f"{gen}/inventory/v1/inventory_pb2.py": _pb2(
                "inventory/v1/inventory.proto",
                "5.28.1",
                "\\n\\x1cinventory/v1/inventory.proto\\x12\\x0c",
            ),
            f"{gen}/inventory/v1/inventory_pb2_grpc.py": _pb2_grpc(["GetItem", "BatchGetItems"]),
            f"{gen}/inventory/v1/inventory_pb2.pyi": _pyi(
                ["Item", "GetItemRequest", "BatchGetItemsRequest", "BatchGetItemsResponse"]
            ),
            f"{gen}/common/v1/money_pb2.py": _pb2(
                "common/v1/money.proto", "5.28.1", "\\n\\x15common/v1/money.proto"
            ),
            "src/inventory_service/servicer.py": (
                s.root / "src/inventory_service/servicer.py"
            ).read_text()
            + lines(
                "",
                "    def BatchGetItems(self, request, context):",
                "        if len(request.skus) > 100:",
                "            context.abort(grpc.StatusCode.INVALID_ARGUMENT, 'at most 100 SKUs')",
                "        found = self._store.get_many(request.skus)",
                "        return inventory_pb2.BatchGetItemsResponse(",
                "            items=[inventory_pb2.Item(sku=r.sku, on_hand=r.on_hand) for r in found.values()],",  # noqa: E501
                "            missing=[s for s in request.skus if s not in found],",
                "        )",
            ),
            "src/inventory_service/store.py": (
                s.root / "src/inventory_service/store.py"
            ).read_text()
            + lines(
                "",
                "    def get_many(self, skus: list[str]) -> dict[str, Row]:",
                "        return {s: self._rows[s] for s in skus if s in self._rows}",
            ),
        }
    )
    mid = s.checkpoint("rpc wired, stubs regenerated")
    s.agent(
        {
            "tests/test_servicer.py": (s.root / "tests/test_servicer.py").read_text()
            + lines(
                "",
                "",
                "def test_batch_get_items_reports_missing(store):",
                "    req = inventory_pb2.BatchGetItemsRequest(skus=['A1', 'ZZ'])",
                "    res = InventoryServicer(store).BatchGetItems(req, None)",
                "    assert [i.sku for i in res.items] == ['A1']",
                "    assert list(res.missing) == ['ZZ']",
            ),
            "README.md": (s.root / "README.md")
            .read_text()
            .replace("RPCs: `GetItem`.", "RPCs: `GetItem`, `BatchGetItems` (up to 100 SKUs)."),
            # An unasked rewrite of the logging setup.
            "src/inventory_service/logging_setup.py": lines(
                '"""Process-wide logging: one JSON line per record."""',
                "",
                "import json",
                "import logging",
                "",
                "",
                "class _Json(logging.Formatter):",
                "    def format(self, record: logging.LogRecord) -> str:",
                "        return json.dumps({'level': record.levelname, 'msg': record.getMessage()})",  # noqa: E501
                "",
                "",
                "def configure(level: str = 'INFO') -> None:",
                "    handler = logging.StreamHandler()",
                "    handler.setFormatter(_Json())",
                "    logging.basicConfig(level=level, handlers=[handler])",
            ),
            "src/inventory_service/server.py": (s.root / "src/inventory_service/server.py")
            .read_text()
            .replace("max_workers=10", "max_workers=64"),
            "pyproject.toml": (s.root / "pyproject.toml")
            .read_text()
            .replace("line-length = 88", "line-length = 120"),
        }
    )
    s.fine(
        "protos/inventory/v1/inventory.proto",
        "src/inventory_service/servicer.py",
        "src/inventory_service/store.py",
        "tests/test_servicer.py",
        "README.md",
    )
    s.drift(
        "src/inventory_service/logging_setup.py",
        "src/inventory_service/server.py",
        "pyproject.toml",
    )
    s.excluded(
        f"{gen}/inventory/v1/inventory_pb2.py",
        f"{gen}/inventory/v1/inventory_pb2_grpc.py",
        # No header, but protoc wrote it next to its _pb2.py in the same run.
        f"{gen}/inventory/v1/inventory_pb2.pyi",
        f"{gen}/common/v1/money_pb2.py",
    )
    s.safe_checkpoint(mid)
    s.note = "mid-session checkpoint after the RPC and stubs, before any drift"


# -- 8. LÖVE game ---------------------------------------------------------------------------------

_ENEMY = lines(
    "local Enemy = {}",
    "Enemy.__index = Enemy",
    "",
    "function Enemy.new(x, y) return setmetatable({x = x, y = y, dir = 1, speed = 40}, Enemy) end",
    "",
    "function Enemy:update(dt)",
    "  self.x = self.x + self.dir * self.speed * dt",
    "  if self.x < 0 or self.x > 300 then self.dir = -self.dir end",
    "end",
    "",
    "return Enemy",
)


def _love(s: Scene) -> None:
    player = lines(
        'local anim8 = require("lib.anim8")',
        "local Player = {}",
        "Player.__index = Player",
        "",
        "local GRAVITY, JUMP = 900, -340",
        "",
        "function Player.new(x, y)",
        "  local p = setmetatable({x = x, y = y, vy = 0, grounded = false}, Player)",
        '  p.jumpSfx = love.audio.newSource("assets/sfx/jump.wav", "static")',
        "  return p",
        "end",
        "",
        "function Player:jump()",
        "  if self.grounded then",
        "    self.vy, self.grounded = JUMP, false",
        "    self.jumpSfx:play()",
        "  end",
        "end",
        "",
        "function Player:update(dt)",
        "  self.vy = self.vy + GRAVITY * dt",
        "  self.y = self.y + self.vy * dt",
        "end",
        "",
        "return Player",
    )
    conf = lines(
        "function love.conf(t)",
        '  t.identity = "slime-quest"',
        '  t.window.title = "Slime Quest"',
        "  t.window.width, t.window.height = 640, 360",
        "  t.window.vsync = 1",
        "end",
    )
    menu = lines(
        "local menu = {}",
        "function menu.draw()",
        '  love.graphics.printf("Slime Quest", 0, 120, 640, "center")',
        '  love.graphics.printf("press enter", 0, 200, 640, "center")',
        "end",
        "return menu",
    )
    s.commit(
        "Slime Quest: player, slimes, first level",
        {
            ".gitignore": lines("/dist/", ".DS_Store"),
            "main.lua": lines(
                'local Player = require("src.player")',
                'local Enemy = require("src.enemy")',
                'local level = require("src.level")',
                'local hud = require("src.ui.hud")',
                "local player, slimes",
                "function love.load()",
                '  level.load("maps/level1")',
                "  player = Player.new(32, 200)",
                "  slimes = {Enemy.new(200, 300)}",
                "end",
                'function love.keypressed(k) if k == "space" then player:jump() end end',
                "function love.update(dt) player:update(dt); for _, e in ipairs(slimes) do e:update(dt) end end",  # noqa: E501
                "function love.draw() level.draw(); hud.draw(player) end",
            ),
            "conf.lua": conf,
            "src/player.lua": player.replace("JUMP = 900, -340", "JUMP = 900, -320"),
            "src/enemy.lua": _ENEMY.replace(
                "  if self.x < 0 or self.x > 300 then self.dir = -self.dir end\n", ""
            ),
            "src/level.lua": lines(
                "local level = {}",
                "function level.load(name) level.map = require(name) end",
                "function level.draw() end",
                "return level",
            ),
            "src/ui/hud.lua": lines(
                "local hud = {}",
                'function hud.draw(p) love.graphics.print("y " .. math.floor(p.y), 8, 8) end',
                "return hud",
            ),
            "src/ui/menu.lua": menu,
            "src/ui/pause.lua": lines(
                "local pause = {}",
                'function pause.draw() love.graphics.printf("Paused", 0, 160, 640, "center") end',
                "return pause",
            ),
            "lib/anim8.lua": lines(
                "local anim8 = {",
                "  _VERSION     = 'anim8 v2.3.1',",
                "  _DESCRIPTION = 'An animation library for LÖVE',",
                "  _URL         = 'https://github.com/kikito/anim8',",
                "  _LICENSE     = 'MIT LICENSE'",
                "}",
                "return anim8",
            ),
            "maps/level1.lua": lines(
                "return {",
                '  version = "1.10",',
                '  luaversion = "5.1",',
                '  tiledversion = "1.10.2",',
                "  width = 40, height = 12, tilewidth = 16, tileheight = 16,",
                "  layers = {}",
                "}",
            ),
            "assets/sprites/hero.png": PNG,
            "assets/sprites/slime.png": PNG + b"slime",
            "assets/sfx/jump.wav": WAV,
            "assets/music/theme.ogg": OGG,
            "spec/player_spec.lua": lines(
                'package.loaded["lib.anim8"] = {}',
                "_G.love = {audio = {newSource = function() return {play = function() end} end}}",
                'local Player = require("src.player")',
                'describe("Player", function()',
                '  it("jumps only from the ground", function()',
                "    local p = Player.new(0, 0)",
                "    p:jump()",
                "    assert.equals(0, p.vy)",
                "  end)",
                "end)",
            ),
            "Makefile": lines(
                "love:",
                "\tmkdir -p build && zip -9 -r build/slime-quest.love . -x '.git/*' 'build/*'",
            ),
            "README.md": lines(
                "# Slime Quest",
                "",
                "Controls: arrows to move, space to jump.",
            ),
        },
        days_ago=35,
    )
    s.commit(
        "player: coyote-free jump, spec; jump sound",
        {
            "src/player.lua": player,
            "spec/player_spec.lua": (s.root / "spec/player_spec.lua")
            .read_text()
            .replace("jumps only from the ground", "jumps only when grounded"),
            "assets/sfx/jump.wav": WAV + b"\x01\x02",
        },
        days_ago=15,
    )
    s.commit(
        "slimes turn at the screen edge",
        {"src/enemy.lua": _ENEMY},
        days_ago=7,
    )
    s.intent(
        "Add a double jump to the player, with its own sound and a small dust-puff sprite "
        "under the feet",
        {"src/player.lua": "the player controller"},
        hours_ago=2,
    )
    before = s.checkpoint("before double jump")
    s.agent(
        {
            "src/player.lua": player.replace(
                "local p = setmetatable({x = x, y = y, vy = 0, grounded = false}, Player)",
                "local p = setmetatable({x = x, y = y, vy = 0, grounded = false, jumps = 0}, Player)",  # noqa: E501
            )
            .replace(
                '  p.jumpSfx = love.audio.newSource("assets/sfx/jump.wav", "static")\n',
                '  p.jumpSfx = love.audio.newSource("assets/sfx/jump.wav", "static")\n'
                '  p.doubleSfx = love.audio.newSource("assets/sfx/double jump.wav", "static")\n'
                '  p.dust = love.graphics.newImage("assets/sprites/poussière.png")\n',
            )
            .replace(
                "  if self.grounded then\n"
                "    self.vy, self.grounded = JUMP, false\n"
                "    self.jumpSfx:play()\n"
                "  end\n",
                "  if self.grounded then\n"
                "    self.vy, self.grounded, self.jumps = JUMP, false, 1\n"
                "    self.jumpSfx:play()\n"
                "  elseif self.jumps == 1 then\n"
                "    self.vy, self.jumps, self.puff = JUMP * 0.85, 2, 0.25\n"
                "    self.doubleSfx:play()\n"
                "  end\n",
            ),
            "assets/sfx/double jump.wav": WAV + b"\x10\x20\x30",
            "assets/sprites/poussière.png": PNG + b"dust",
            # The title screen retitled: a sibling screen the intent never mentions.
            "src/ui/menu.lua": menu.replace('"Slime Quest"', '"Slime Quest: Double Trouble"'),
        }
    )
    s.checkpoint("agent's first pass")
    s.agent(
        {
            "spec/player_spec.lua": (s.root / "spec/player_spec.lua")
            .read_text()
            .replace(
                "_G.love = {audio = {newSource = function() return {play = function() end} end}}",
                "_G.love = {audio = {newSource = function() return {play = function() end} end},\n"
                "  graphics = {newImage = function() return {} end}}",
            )
            + lines(
                'describe("double jump", function()',
                '  it("allows exactly one jump in mid-air", function()',
                "    local p = Player.new(0, 0)",
                "    p.grounded = true",
                "    p:jump(); p:jump(); local vy = p.vy; p:jump()",
                "    assert.equals(vy, p.vy)",
                "  end)",
                "end)",
            ),
            "README.md": (s.root / "README.md")
            .read_text()
            .replace("space to jump.", "space to jump, space again in mid-air to double jump."),
            "conf.lua": conf.replace("t.window.vsync = 1", "t.window.vsync = 0").replace(
                "640, 360", "1280, 720"
            ),
            "src/enemy.lua": _ENEMY.replace(
                "function Enemy.new(x, y) return setmetatable({x = x, y = y, dir = 1, speed = 40}, Enemy) end",  # noqa: E501
                "function Enemy.new(x, y)\n"
                "  return setmetatable({ x = x, y = y, dir = 1, speed = 40 }, Enemy)\n"
                "end",
            ),
            # `make love` to try it: the packaged game, not source.
            "build/slime-quest.love": ZIP,
        }
    )
    s.fine(
        "src/player.lua",
        "assets/sfx/double jump.wav",
        "assets/sprites/poussière.png",
        "spec/player_spec.lua",
        "README.md",
    )
    s.drift("src/ui/menu.lua", "conf.lua", "src/enemy.lua")
    s.excluded("build/slime-quest.love")
    s.safe_checkpoint(before)
    s.note = "the checkpoint after the agent's first pass already holds the retitled menu"


# -- 9. Prisma + tRPC ------------------------------------------------------------------------------

_GEN_HEADER = (
    "/* !!! This is code generated by Prisma. Do not edit directly. !!! */\n/* eslint-disable */\n"
)


def _prisma(s: Scene) -> None:
    schema = lines(
        "generator client {",
        '  provider = "prisma-client"',
        '  output   = "../src/generated/prisma"',
        "}",
        "datasource db {",
        '  provider = "postgresql"',
        '  url      = env("DATABASE_URL")',
        "}",
        "model User {",
        "  id       String    @id @default(cuid())",
        "  email    String    @unique",
        "  projects Project[]",
        "  teams    Team[]",
        "}",
        "model Project {",
        "  id        String   @id @default(cuid())",
        "  name      String",
        "  owner     User     @relation(fields: [ownerId], references: [id])",
        "  ownerId   String",
        "  createdAt DateTime @default(now())",
        "}",
        "model Team {",
        "  id      String @id @default(cuid())",
        "  name    String",
        "  members User[]",
        "}",
    )
    teams_sql = lines(
        "-- CreateTable",
        'CREATE TABLE "Team" ("id" TEXT NOT NULL, "name" TEXT NOT NULL, CONSTRAINT "Team_pkey" PRIMARY KEY ("id"));',  # noqa: E501
        "-- CreateTable",
        'CREATE TABLE "_TeamToUser" ("A" TEXT NOT NULL, "B" TEXT NOT NULL);',
        "-- CreateIndex",
        'CREATE UNIQUE INDEX "_TeamToUser_AB_unique" ON "_TeamToUser"("A", "B");',
    )
    project_router = lines(
        'import { z } from "zod";',
        'import { router, protectedProcedure } from "../trpc";',
        "",
        "export const projectRouter = router({",
        "  list: protectedProcedure.query(({ ctx }) =>",
        "    ctx.db.project.findMany({ where: { ownerId: ctx.user.id } }),",
        "  ),",
        "  create: protectedProcedure",
        "    .input(z.object({ name: z.string().min(1) }))",
        "    .mutation(({ ctx, input }) =>",
        "      ctx.db.project.create({ data: { name: input.name, ownerId: ctx.user.id } }),",
        "    ),",
        "});",
    )
    team_router = lines(
        'import { z } from "zod";',
        'import { router, protectedProcedure } from "../trpc";',
        "",
        "export const teamRouter = router({",
        "  byId: protectedProcedure",
        "    .input(z.object({ id: z.string() }))",
        "    .query(({ ctx, input }) => ctx.db.team.findUnique({ where: { id: input.id } })),",
        "  mine: protectedProcedure.query(({ ctx }) =>",
        "    ctx.db.team.findMany({ where: { members: { some: { id: ctx.user.id } } } }),",
        "  ),",
        "});",
    )
    client_ts = _GEN_HEADER + lines(
        'import * as runtime from "@prisma/client/runtime/library"',
        'import * as $Class from "./internal/class"',
        "export const PrismaClient = $Class.getPrismaClientClass(__dirname)",
    )
    project_model = _GEN_HEADER + lines(
        "export type ProjectModel = runtime.Types.Result.DefaultSelection<Prisma.$ProjectPayload>",
        "export type ProjectScalarFieldEnum = 'id' | 'name' | 'ownerId' | 'createdAt'",
    )
    s.commit(
        "api: tRPC over Prisma, users and projects",
        {
            ".gitignore": lines("node_modules", ".env", "dist"),
            ".env.example": lines('DATABASE_URL="postgresql://app:app@localhost:5432/app"'),
            "package.json": lines(
                "{",
                '  "name": "projects-api",',
                '  "private": true,',
                '  "scripts": {"dev": "tsx watch src/server/index.ts", "test": "vitest run",',
                '              "db:migrate": "prisma migrate dev"},',
                '  "dependencies": {"@prisma/client": "^6.8.2", "@trpc/server": "^11.1.2", "zod": "^3.24.2"},',  # noqa: E501
                '  "devDependencies": {"prisma": "^6.8.2", "typescript": "^5.8.3", "vitest": "^3.1.2"}',  # noqa: E501
                "}",
            ),
            "pnpm-lock.yaml": lines(
                "lockfileVersion: '9.0'",
                "importers:",
                "  .:",
                "    dependencies:",
                "      '@prisma/client': {specifier: ^6.8.2, version: 6.8.2}",
            ),
            "tsconfig.json": lines(
                "{",
                '  "compilerOptions": {"target": "ES2020", "module": "NodeNext", "strict": true,',
                '                      "outDir": "dist"},',
                '  "include": ["src", "tests"]',
                "}",
            ),
            "prisma/schema.prisma": schema.replace("  teams    Team[]\n", "").split("model Team {")[
                0
            ],
            "prisma/migrations/migration_lock.toml": lines(
                "# Please do not edit this file manually",
                "# It should be added in your version-control system (e.g., Git)",
                'provider = "postgresql"',
            ),
            "prisma/migrations/20240301120000_init/migration.sql": lines(
                "-- CreateTable",
                'CREATE TABLE "User" ("id" TEXT NOT NULL, "email" TEXT NOT NULL, CONSTRAINT "User_pkey" PRIMARY KEY ("id"));',  # noqa: E501
                "-- CreateTable",
                'CREATE TABLE "Project" ("id" TEXT NOT NULL, "name" TEXT NOT NULL, "ownerId" TEXT NOT NULL,',  # noqa: E501
                '  "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP, CONSTRAINT "Project_pkey" PRIMARY KEY ("id"));',  # noqa: E501
            ),
            "src/generated/prisma/client.ts": client_ts,
            "src/generated/prisma/models/Project.ts": project_model,
            "src/server/db.ts": lines(
                'import { PrismaClient } from "../generated/prisma/client";',
                "export const db = new PrismaClient();",
            ),
            "src/server/trpc.ts": lines(
                'import { initTRPC, TRPCError } from "@trpc/server";',
                'import type { Context } from "./context";',
                "const t = initTRPC.context<Context>().create();",
                "export const router = t.router;",
                "export const protectedProcedure = t.procedure.use(({ ctx, next }) => {",
                '  if (!ctx.user) throw new TRPCError({ code: "UNAUTHORIZED" });',
                "  return next({ ctx: { ...ctx, user: ctx.user } });",
                "});",
            ),
            "src/server/context.ts": lines(
                'import { db } from "./db";',
                "export async function createContext({ req }: { req: Request }) {",
                '  const user = req.headers.get("x-user-id") ? { id: req.headers.get("x-user-id")! } : null;',  # noqa: E501
                "  return { db, user };",
                "}",
                "export type Context = Awaited<ReturnType<typeof createContext>>;",
            ),
            "src/server/routers/project.ts": project_router,
            "src/server/routers/_app.ts": lines(
                'import { router } from "../trpc";',
                'import { projectRouter } from "./project";',
                "export const appRouter = router({ project: projectRouter });",
                "export type AppRouter = typeof appRouter;",
            ),
            "src/env.ts": lines(
                'import { z } from "zod";',
                "export const env = z.object({ DATABASE_URL: z.string().url() }).parse(process.env);",  # noqa: E501
            ),
            "tests/project.test.ts": lines(
                'import { describe, expect, it } from "vitest";',
                'import { caller } from "./helpers";',
                'describe("project.list", () => {',
                '  it("returns only my projects", async () => {',
                '    const me = await caller("u1");',
                '    await me.project.create({ name: "mine" });',
                '    expect((await me.project.list()).map((p) => p.name)).toEqual(["mine"]);',
                "  });",
                "});",
            ),
            "tests/helpers.ts": lines(
                'import { appRouter } from "../src/server/routers/_app";',
                'import { db } from "../src/server/db";',
                "export const caller = async (id: string) => appRouter.createCaller({ db, user: { id } });",  # noqa: E501
            ),
            "vitest.config.ts": lines(
                'import { defineConfig } from "vitest/config";',
                'export default defineConfig({ test: { setupFiles: ["tests/setup.ts"] } });',
            ),
            "README.md": lines(
                "# projects-api",
                "",
                "    pnpm db:migrate && pnpm dev",
            ),
        },
        days_ago=75,
    )
    s.commit(
        "teams: model, migration, router",
        {
            "prisma/schema.prisma": schema,
            "prisma/migrations/20240412093000_add_teams/migration.sql": teams_sql,
            "src/generated/prisma/client.ts": client_ts + "// Team\n",
            "src/server/routers/team.ts": team_router,
            "src/server/routers/_app.ts": lines(
                'import { router } from "../trpc";',
                'import { projectRouter } from "./project";',
                'import { teamRouter } from "./team";',
                "export const appRouter = router({ project: projectRouter, team: teamRouter });",
                "export type AppRouter = typeof appRouter;",
            ),
            "tests/team.test.ts": lines(
                'import { expect, it } from "vitest";',
                'import { caller } from "./helpers";',
                'it("mine is empty for a new user", async () => {',
                '  expect(await (await caller("u9")).team.mine()).toEqual([]);',
                "});",
            ),
        },
        days_ago=40,
    )
    s.commit(
        "project.create trims the name",
        {
            "src/server/routers/project.ts": project_router.replace(
                "data: { name: input.name,", "data: { name: input.name.trim(),"
            ),
            "tests/project.test.ts": (s.root / "tests/project.test.ts").read_text()
            + lines(
                'it("trims the name", async () => {',
                '  const me = await caller("u3");',
                '  expect((await me.project.create({ name: "  x " })).name).toBe("x");',
                "});",
            ),
        },
        days_ago=8,
    )
    s.intent(
        "Let projects be archived: an archivedAt column, archive/unarchive procedures, "
        "and project.list hides archived projects",
        {
            "prisma/schema.prisma": "the data model",
            "src/server/routers/project.ts": "the project procedures",
        },
        hours_ago=2,
    )
    before = s.checkpoint("before archiving")
    project_now = (s.root / "src/server/routers/project.ts").read_text()
    s.agent(
        {
            "prisma/schema.prisma": schema.replace(
                "  createdAt DateTime @default(now())\n",
                "  createdAt  DateTime  @default(now())\n  archivedAt DateTime?\n",
            ),
            "prisma/migrations/20240520101500_project_archived_at/migration.sql": lines(
                "-- AlterTable",
                'ALTER TABLE "Project" ADD COLUMN "archivedAt" TIMESTAMP(3);',
            ),
            # `prisma generate` into the checked-in client.
            "src/generated/prisma/client.ts": client_ts + "// Team\n// archivedAt\n",
            "src/generated/prisma/models/Project.ts": project_model.replace(
                "'createdAt'", "'createdAt' | 'archivedAt'"
            ),
            "src/server/routers/project.ts": project_now.replace(
                "where: { ownerId: ctx.user.id } }",
                "where: { ownerId: ctx.user.id, archivedAt: null } }",
            ).replace(
                "});\n",
                lines(
                    "  archive: protectedProcedure",
                    "    .input(z.object({ id: z.string() }))",
                    "    .mutation(({ ctx, input }) =>",
                    "      ctx.db.project.update({ where: { id: input.id, ownerId: ctx.user.id }, data: { archivedAt: new Date() } }),",  # noqa: E501
                    "    ),",
                    "  unarchive: protectedProcedure",
                    "    .input(z.object({ id: z.string() }))",
                    "    .mutation(({ ctx, input }) =>",
                    "      ctx.db.project.update({ where: { id: input.id, ownerId: ctx.user.id }, data: { archivedAt: null } }),",  # noqa: E501
                    "    ),",
                    "});",
                ),
            ),
            "tests/project.test.ts": (s.root / "tests/project.test.ts").read_text()
            + lines(
                'describe("archive", () => {',
                '  it("hides archived projects from list", async () => {',
                '    const me = await caller("u2");',
                '    const p = await me.project.create({ name: "old" });',
                "    await me.project.archive({ id: p.id });",
                "    expect(await me.project.list()).toEqual([]);",
                "  });",
                "});",
            ),
            # Rewriting a migration already applied everywhere: Prisma's checksum
            # check fails on every database that has it.
            "prisma/migrations/20240412093000_add_teams/migration.sql": teams_sql.replace(
                '"_TeamToUser_AB_unique"', '"team_user_unique"'
            ),
            "src/server/routers/team.ts": team_router.replace("  byId:", "  get:").replace(
                "  mine:", "  listMine:"
            ),
            "tsconfig.json": (s.root / "tsconfig.json")
            .read_text()
            .replace('"target": "ES2020"', '"target": "ES2022"'),
        }
    )
    # The user, reading along, adds the shadow database `prisma migrate dev` needs on
    # their machine: their own edit, after the checkpoint.
    _by_hand(
        s,
        {
            ".env.example": (s.root / ".env.example").read_text()
            + 'SHADOW_DATABASE_URL="postgresql://app:app@localhost:5432/app_shadow"\n'
        },
    )
    s.fine(
        "prisma/schema.prisma",
        "prisma/migrations/20240520101500_project_archived_at/migration.sql",
        "src/server/routers/project.ts",
        "tests/project.test.ts",
        ".env.example",
    )
    s.drift(
        "prisma/migrations/20240412093000_add_teams/migration.sql",
        "src/server/routers/team.ts",
        "tsconfig.json",
    )
    s.excluded("src/generated/prisma/client.ts", "src/generated/prisma/models/Project.ts")
    s.safe_checkpoint(before)
    s.note = "checkpoint before the work; the user's own .env.example line came after it"


# -- 10. Gleam, empty memory ---------------------------------------------------------------------

_ANALYTICS = lines(
    "import gleam/dict.{type Dict}",
    "import gleam/result",
    "",
    "pub fn hit(counts: Dict(String, Int), slug: String) -> Dict(String, Int) {",
    "  let n = dict.get(counts, slug) |> result.unwrap(0)",
    "  dict.insert(counts, slug, n+1)",
    "}",
)


def _gleam(s: Scene) -> None:
    p = "shortlink"
    s.commit(
        "shortlink: a Gleam link shortener under the monorepo",
        {
            # The monorepo's root ignore file: `/build` is anchored to the root, so
            # it never covered shortlink/build.
            ".gitignore": lines("/build", "node_modules/"),
            "README.md": lines("# tools", "", "- `shortlink/`: the link shortener (Gleam)"),
            "deploy/fly.toml": lines(
                'app = "shortlink"', "[http_service]", "  internal_port = 8000"
            ),
            f"{p}/gleam.toml": lines(
                'name = "shortlink"',
                'version = "1.2.0"',
                'target = "erlang"',
                "[dependencies]",
                'gleam_stdlib = ">= 0.44.0 and < 2.0.0"',
                'wisp = ">= 1.2.0 and < 2.0.0"',
                "[dev-dependencies]",
                'gleeunit = ">= 1.0.0 and < 2.0.0"',
            ),
            f"{p}/manifest.toml": lines(
                "# This file was generated by Gleam",
                "# You typically do not need to edit this file",
                "",
                "packages = [",
                '  { name = "gleam_stdlib", version = "0.44.0", build_tools = ["gleam"], requirements = [], otp_app = "gleam_stdlib", source = "hex", outer_checksum = "A6E55E309A6778206AAD4038D9C49E15DF71027A1DB13C6ADA06BFDB6CF1260E" },',  # noqa: E501
                '  { name = "wisp", version = "1.2.0", build_tools = ["gleam"], requirements = ["gleam_stdlib"], otp_app = "wisp", source = "hex", outer_checksum = "F71265D2F1DE11426535A2FA1DA3B11D2FFB783B116DF9496BC8C41983EBADB4" },',  # noqa: E501
                "]",
                "",
                "[requirements]",
                'gleam_stdlib = { version = ">= 0.44.0 and < 2.0.0" }',
                'wisp = { version = ">= 1.2.0 and < 2.0.0" }',
            ),
            f"{p}/src/shortlink.gleam": lines(
                "import shortlink/router",
                "import wisp/wisp_mist",
                "pub fn main() {",
                '  router.handle_request |> wisp_mist.handler("secret") |> serve(8000)',
                "}",
            ),
            f"{p}/src/shortlink/router.gleam": lines(
                "import shortlink/store",
                "import shortlink/web/home_page",
                "import wisp.{type Request, type Response}",
                "pub fn handle_request(req: Request) -> Response {",
                "  case wisp.path_segments(req) {",
                "    [] -> home_page.render()",
                "    [slug] -> store.redirect(slug)",
                "    _ -> wisp.not_found()",
                "  }",
                "}",
            ),
            f"{p}/src/shortlink/store.gleam": lines(
                "import gleam/dict.{type Dict}",
                "import shortlink/slug",
                "pub type Store { Store(links: Dict(String, String)) }",
                "pub fn insert(store: Store, url: String) -> #(Store, String) {",
                "  let s = slug.from_url(url)",
                "  #(Store(dict.insert(store.links, s, url)), s)",
                "}",
            ),
            f"{p}/src/shortlink/slug.gleam": lines(
                "import gleam/string",
                "/// The first six characters of the URL's hash.",
                "pub fn from_url(url: String) -> String {",
                "  url |> string.inspect |> string.slice(0, 6)",
                "}",
            ),
            f"{p}/src/shortlink/web/layout.gleam": lines(
                "import gleam/string_tree",
                "pub fn page(body: String) -> string_tree.StringTree {",
                '  string_tree.from_strings(["<title>shortlink</title>", body])',
                "}",
            ),
            f"{p}/src/shortlink/web/home_page.gleam": lines(
                "import shortlink/web/layout",
                "import wisp",
                'pub fn render() { wisp.html_response(layout.page("<form></form>"), 200) }',
            ),
            f"{p}/test/shortlink_test.gleam": lines(
                "import gleeunit",
                "pub fn main() { gleeunit.main() }",
            ),
            f"{p}/test/slug_test.gleam": lines(
                "import gleeunit/should",
                "import shortlink/slug",
                "pub fn six_chars_test() {",
                '  slug.from_url("https://example.com") |> string.length |> should.equal(6)',
                "}",
            ),
            ".github/workflows/shortlink.yml": lines(
                "name: shortlink",
                "on: [push]",
                "jobs:",
                "  test:",
                "    runs-on: ubuntu-latest",
                "    defaults: {run: {working-directory: shortlink}}",
                "    steps:",
                "      - uses: actions/checkout@v4",
                "      - uses: erlef/setup-beam@v1",
                '        with: {otp-version: "26", gleam-version: "1.9.1"}',
                "      - run: gleam test",
            ),
        },
        days_ago=45,
    )
    s.commit(
        "shortlink: count hits per slug",
        {
            f"{p}/src/shortlink/analytics.gleam": _ANALYTICS,
            f"{p}/src/shortlink/router.gleam": (s.root / f"{p}/src/shortlink/router.gleam")
            .read_text()
            .replace(
                "import shortlink/store", "import shortlink/analytics\nimport shortlink/store"
            ),
        },
        days_ago=20,
    )
    s.commit(
        "slug: document the six characters",
        {
            f"{p}/src/shortlink/slug.gleam": (s.root / f"{p}/src/shortlink/slug.gleam")
            .read_text()
            .replace("URL's hash.", "URL's hash; collisions are possible."),
            f"{p}/test/slug_test.gleam": (s.root / f"{p}/test/slug_test.gleam")
            .read_text()
            .replace("import gleeunit/should", "import gleam/string\nimport gleeunit/should"),
        },
        days_ago=3,
    )
    # Nobody set an intent. In the chat the user asked: "slugs collide under load — make
    # them 8 random characters from crypto bytes and retry on a collision".
    s.intent(None)
    s.agent(
        {
            f"{p}/src/shortlink/slug.gleam": lines(
                "import gleam/bit_array",
                "import gleam/crypto",
                "import gleam/string",
                "/// Eight URL-safe characters from random bytes.",
                "pub fn random() -> String {",
                "  crypto.strong_random_bytes(6)",
                "  |> bit_array.base64_url_encode(False)",
                "  |> string.slice(0, 8)",
                "}",
            ),
            f"{p}/src/shortlink/store.gleam": lines(
                "import gleam/dict.{type Dict}",
                "import shortlink/slug",
                "pub type Store { Store(links: Dict(String, String)) }",
                "/// Retries on a collision; a taken slug is never overwritten.",
                "pub fn insert(store: Store, url: String) -> #(Store, String) {",
                "  let s = slug.random()",
                "  case dict.has_key(store.links, s) {",
                "    True -> insert(store, url)",
                "    False -> #(Store(dict.insert(store.links, s, url)), s)",
                "  }",
                "}",
            ),
            f"{p}/test/slug_test.gleam": lines(
                "import gleam/string",
                "import gleeunit/should",
                "import shortlink/slug",
                "pub fn eight_chars_test() {",
                "  slug.random() |> string.length |> should.equal(8)",
                "}",
                "pub fn differs_test() {",
                "  should.not_equal(slug.random(), slug.random())",
                "}",
            ),
            # The dependency the new slug code imports, and the lock file following it.
            f"{p}/gleam.toml": (s.root / f"{p}/gleam.toml")
            .read_text()
            .replace(
                'wisp = ">= 1.2.0 and < 2.0.0"\n',
                'wisp = ">= 1.2.0 and < 2.0.0"\ngleam_crypto = ">= 1.5.0 and < 2.0.0"\n',
            ),
            f"{p}/manifest.toml": (s.root / f"{p}/manifest.toml")
            .read_text()
            .replace(
                "packages = [\n",
                "packages = [\n"
                '  { name = "gleam_crypto", version = "1.5.0", build_tools = ["gleam"], requirements = ["gleam_stdlib"], otp_app = "gleam_crypto", source = "hex", outer_checksum = "917BC8B87DBD584830E3B389CBCAB140FFE7CCE27D5F62F9D5C2A3AA7A7D5DC0" },\n',  # noqa: E501
            )
            + 'gleam_crypto = { version = ">= 1.5.0 and < 2.0.0" }\n',
            # The home page's title changed, unasked.
            f"{p}/src/shortlink/web/layout.gleam": (s.root / f"{p}/src/shortlink/web/layout.gleam")
            .read_text()
            .replace("<title>shortlink</title>", "<title>Shortlink · tiny links</title>"),
            # `gleam format` over a module the fix never touches.
            f"{p}/src/shortlink/analytics.gleam": _ANALYTICS.replace("n+1", "n + 1"),
            ".github/workflows/shortlink.yml": (s.root / ".github/workflows/shortlink.yml")
            .read_text()
            .replace(
                'otp-version: "26", gleam-version: "1.9.1"',
                'otp-version: "27", gleam-version: "1.11.0"',
            ),
            # `gleam test`: compiled Erlang, caches and the downloaded package.
            f"{p}/build/dev/erlang/shortlink/_gleam_artefacts/shortlink@slug.erl": lines(
                "-module(shortlink@slug).",
                "-compile([no_auto_import, nowarn_unused_vars]).",
                "-export([random/0]).",
            ),
            f"{p}/build/dev/erlang/shortlink/_gleam_artefacts/shortlink@slug.cache": b"\x00\x01cache",  # noqa: E501
            f"{p}/build/packages/gleam_crypto/src/gleam/crypto.gleam": lines(
                "pub fn strong_random_bytes(a: Int) -> BitArray"
            ),
            f"{p}/build/packages/packages.toml": lines(
                "[packages]", 'gleam_crypto = "1.5.0"', 'gleam_stdlib = "0.44.0"'
            ),
        }
    )
    s.fine(
        f"{p}/src/shortlink/slug.gleam",
        f"{p}/src/shortlink/store.gleam",
        f"{p}/test/slug_test.gleam",
        f"{p}/gleam.toml",
        # A lock file moving with the one dependency the fix adds.
        f"{p}/manifest.toml",
    )
    s.drift(
        f"{p}/src/shortlink/web/layout.gleam",
        f"{p}/src/shortlink/analytics.gleam",
        ".github/workflows/shortlink.yml",
    )
    s.excluded(
        f"{p}/build/dev/erlang/shortlink/_gleam_artefacts/shortlink@slug.erl",
        f"{p}/build/dev/erlang/shortlink/_gleam_artefacts/shortlink@slug.cache",
        f"{p}/build/packages/gleam_crypto/src/gleam/crypto.gleam",
        f"{p}/build/packages/packages.toml",
    )
    s.note = "empty memory: diff-aware only; no checkpoint, restore from the commit"


FRESH12: list[Scenario] = [
    Scenario(
        name="b12_zig_ring_buffer_peek",
        build=_zig,
        held_out=False,
        about="Zig: peek/iterator on the explicit ring buffer with its test, root re-export and "
        "README line; zig fmt of an untouched module, build.zig.zon and CI version bumps "
        "drift; .zig-cache/ (missed by an old ignore file) excluded; no checkpoint",
        fresh=True,
        batch=12,
    ),
    Scenario(
        name="b12_rebar3_sliding_window",
        build=_rebar3,
        held_out=False,
        about="Erlang/OTP rebar3: sliding-window limiter with its sys.config key, CT suite and "
        "README; a deleted eunit test, vm.args flags and an .app.src vsn bump drift; _build/ "
        "CT logs and dep sources excluded; the only checkpoint came after the drift",
        fresh=True,
        batch=12,
    ),
    Scenario(
        name="b12_play_orders_pagination",
        build=_sbt_play,
        held_out=False,
        about="Scala Play/sbt: paginated /orders (routes, controller, repo helper, Page model, "
        "config key, spec); an unasked service+spec rename with its caller and a scalaVersion "
        "bump drift; project/target and metals.sbt excluded; two clean checkpoints, newer safe",
        fresh=True,
        batch=12,
    ),
    Scenario(
        name="b12_cmake_lanczos_filter",
        build=_cmake,
        held_out=False,
        about="CMake C++/vcpkg: Lanczos3 filter with a new kernels module, CLI flag, wiring and "
        "test; the user's own preset edit before the checkpoint; clang-format of decode.cpp, "
        "C++20 switch and vcpkg baseline bump drift; build/ tree and root compile_commands "
        "excluded",
        fresh=True,
        batch=12,
    ),
    Scenario(
        name="b12_jekyll_stale_cafe_post",
        build=_jekyll,
        held_out=False,
        about="Jekyll, stale memory: a new non-ASCII post with a spaced-name photo and its author "
        "entry; permalink change, footer retitle, SCSS reformat and a deleted draft drift; "
        ".jekyll-cache excluded; a checkpoint older than three commits is not safe",
        fresh=True,
        batch=12,
    ),
    Scenario(
        name="b12_kustomize_staging_fx_flag",
        build=_kustomize,
        held_out=False,
        about="Kustomize/Argo CD: FX flag in the staging overlay plus a base default; the same "
        "flag in prod, prod auto-sync and a ledger image bump drift; the user's namespace fix "
        "by hand; checkpoints before, mid and after — the mid one is safe",
        fresh=True,
        batch=12,
    ),
    Scenario(
        name="b12_grpc_batch_get_items",
        build=_grpc,
        held_out=False,
        about="Python gRPC: BatchGetItems in the proto, servicer, store, test and README; "
        "regenerated _pb2/_pb2_grpc/.pyi stubs (one .pyi without a header) excluded; logging "
        "rewrite (also in observed patches), worker count and ruff line length drift; mid "
        "checkpoint safe",
        fresh=True,
        batch=12,
    ),
    Scenario(
        name="b12_love_double_jump",
        build=_love,
        held_out=False,
        about="LÖVE: double jump with a spaced-name WAV and a non-ASCII PNG, spec and README; "
        "title screen retitled, conf.lua window settings and enemy.lua reformat drift; the "
        "packaged .love excluded; checkpoint after the first pass holds drift, the earlier "
        "one is safe",
        fresh=True,
        batch=12,
    ),
    Scenario(
        name="b12_prisma_trpc_archive_projects",
        build=_prisma,
        held_out=False,
        about="Prisma + tRPC: archivedAt column, new migration, procedures and test; an edited "
        "applied migration, renamed team procedures and tsconfig target drift; the checked-in "
        "generated client excluded; the user's own .env.example line after the checkpoint",
        fresh=True,
        batch=12,
    ),
    Scenario(
        name="b12_gleam_empty_memory_slugs",
        build=_gleam,
        held_out=False,
        about="Gleam in a monorepo subfolder, empty memory: random slugs with retry, test, new "
        "dependency and manifest.toml; a retitled layout, gleam format of analytics and a CI "
        "OTP bump drift; shortlink/build (missed by a root-anchored ignore) excluded",
        fresh=True,
        batch=12,
    ),
]
