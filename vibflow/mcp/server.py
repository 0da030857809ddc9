"""The MCP server's one boundary: every tool call passes here, once.

``vibflow mcp serve`` runs one long-lived process per MCP client (stdio, the
official SDK's low-level server). Its imports and the redaction detectors
are paid once (a warm-up thread builds them while the client connects); each
request builds a fresh :class:`~vibflow.wiring.Project` for the server's own
root and client name and closes it after, so no git process, journal
connection or cached memory outlives the request that used it.

For each ``tools/call``, in order: the input is validated against the tool's
model (unknown fields refused, messages name fields, never values); the
tool-level gate (:func:`~vibflow.steps.grants.capabilities.decide`) allows
it, with the grant that did, or refuses it naming the command that would
allow it; the handler runs in a worker thread (a long apply never blocks the
reads); the answer passes the redaction contract and the fail-closed
absolute-path check; **one** count-only audit row ``mcp.<tool>`` records the
client, result, redaction counts and grant id — written before the answer
is sent, and if it cannot be written the data is not sent either. What only
later readers need (the recorded preview for ``recover feedback``) is written
after that, in order, by one background worker that the server finishes
before it exits. Any
failure is a typed tool error (``is_error`` with ``{"error": {code, kind,
message, hint, ...}}``), never a crash of the server.

A random share (1 % by default) of memory answers is re-scanned afterwards
by the detectors with no cache (:class:`~vibflow.mcp.rescan.Rescanner`): a second scan that
still finds something is a miss of the redaction gate, audited as
``mcp.rescan`` / ``failed`` (P0 gate 3's occurrence), else ``ok``.
"""

from __future__ import annotations

import contextvars
import gc
import random
import re
import sys
import threading
import traceback
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vibflow.engine.errors import ErrorCode, Outcome, VibflowError
from vibflow.mcp.leakcheck import AbsolutePathCheck
from vibflow.mcp.projects import Projects
from vibflow.mcp.rescan import Rescanner

if TYPE_CHECKING:
    import mcp_types as types
    from mcp.server.lowlevel import Server

    from vibflow.steps.grants.capabilities import Decision
    from vibflow.wiring import Project

DEFAULT_RESCAN_RATE = 0.01
#: CPython's own young-generation threshold, for a process that runs for hours.
SERVER_GC_THRESHOLD = 700
#: Answers whose re-scan counts toward the redaction SLO (the memory tools).
RESCANNED = frozenset({"memory_summary_read", "memory_full_read", "memory_write"})
_FIELD = re.compile(r"^[a-z_][a-z0-9_]{0,40}$")


class Denied(VibflowError):
    """The tool-level gate refused: the client has no grant, or the flag is off.

    For want of a grant, ``grant`` says why there is none in force (its last one
    expired or was revoked, when; or never granted) and ``next`` is the user's
    command that grants it again: only the project's owner may.
    """

    def __init__(self, reason: str, grant: dict[str, Any] | None, next_step: dict[str, Any]):
        super().__init__(ErrorCode.GUARD_REFUSED, reason)
        self.grant = grant
        self.next_step = next_step

    def to_json(self) -> dict[str, object]:
        data = super().to_json()
        data["kind"] = "permission_denied"
        data["grant"] = self.grant
        data["next"] = [self.next_step]
        return data


def _schema_problem(tool: str, exc: Exception) -> VibflowError:
    """A validation error as one sentence naming fields and what is wrong, never
    the values (a caller's value may be a path or a secret)."""
    from pydantic import ValidationError

    parts = []
    if isinstance(exc, ValidationError):
        for err in exc.errors()[:5]:
            loc = ".".join(str(p) for p in err["loc"] if _FIELD.fullmatch(str(p)))
            parts.append(f"{loc or 'a field'} ({err['type']})")
    return VibflowError(
        ErrorCode.SCHEMA,
        f"the input does not fit {tool}'s schema: {', '.join(parts) or 'it is not an object'}",
        hint="tools/list shows each tool's input schema.",
    )


def _denied(tool: str, client: str, decision: Decision) -> Denied:
    from vibflow.mcp.hints import user_step
    from vibflow.steps.grants.capabilities import APPLY_FLAG_ENV, grant_command

    reason = decision.reason or f"{tool} is not allowed"
    if decision.lapsed is None:  # granted, but the server's own flag is off
        step = user_step(
            f"{APPLY_FLAG_ENV}=1 vibflow mcp serve --client {client}",
            "restart this MCP server with restoring switched on",
        )
        return Denied(reason, None, step)
    step = user_step(grant_command(tool, client), f"let this client call {tool}")
    return Denied(reason, decision.lapsed.to_json(), step)


def _result_of(err: VibflowError) -> str:
    from vibflow.mcp.apply import ApplyBlocked

    if err.code is ErrorCode.BUSY:
        return "busy"
    if isinstance(err, ApplyBlocked):
        return "blocked"
    if err.code.outcome is Outcome.FAILURE:
        return "failed"
    return "refused"


def _sum_counts(*many: Mapping[str, int] | None) -> dict[str, int]:
    total: dict[str, int] = {}
    for counts in many:
        for key, value in (counts or {}).items():
            total[key] = total.get(key, 0) + int(value)
    return total


class McpApp:
    """The tools of one project for one configured client, and the boundary they share."""

    def __init__(
        self,
        root: Path,
        client: str,
        *,
        env: Mapping[str, str],
        rescan_rate: float = DEFAULT_RESCAN_RATE,
        rng: Callable[[], float] = random.random,
        debug: bool = False,
    ) -> None:
        from vibflow.engine.builtin_guards import flag_enabled
        from vibflow.registry_wiring import RECOVERY_APPLY_FLAG

        self.root = root
        self.client = client
        self.env = dict(env)
        self.apply_flag_on = flag_enabled(self.env, RECOVERY_APPLY_FLAG)
        self.debug = debug
        self._projects = Projects(root, client, self.env)
        self._project = self._projects.project
        self.rescanner = Rescanner(self._project, rate=rescan_rate, rng=rng)
        self._no_absolute_paths = AbsolutePathCheck(root)
        # One worker, so what answers leave behind (a recorded preview) lands in order.
        self._later = ThreadPoolExecutor(1, "vibflow-after")

    # -- the protocol's two requests ---------------------------------------------------

    def tools(self) -> list[types.Tool]:
        import mcp_types as types

        from vibflow.mcp.handlers import TOOLS
        from vibflow.mcp.outputs import output_schema
        from vibflow.steps.grants.capabilities import CAPABILITIES

        listed = []
        for name, (model, _) in TOOLS.items():
            cap = CAPABILITIES[name]
            posture = {
                "allowed": "Allowed by default.",
                "denied": "Denied by default: needs a grant the user makes at a terminal "
                "(`vibflow grant " + name + "`).",
                "gated": "Denied by default: needs a grant the user makes at a terminal "
                "(`vibflow grant recovery_apply`) and VIBFLOW_RECOVERY_APPLY=1 in the "
                "server's environment.",
            }[cap.posture]
            listed.append(
                types.Tool(
                    name=name,
                    description=f"{cap.what[0].upper()}{cap.what[1:]}. {posture}",
                    input_schema=model.model_json_schema(),
                    output_schema=output_schema(name),
                    annotations=types.ToolAnnotations(
                        read_only_hint=name not in _WRITES,
                        destructive_hint=name == "recovery_apply",
                        open_world_hint=False,
                    ),
                )
            )
        return listed

    def call(self, name: str, arguments: Mapping[str, Any] | None) -> types.CallToolResult:
        """One tool call, start to end: always an answer, always one audit row."""
        from vibflow.mcp.handlers import TOOLS

        warnings: list[str] = []
        project: Project | None = None
        facts: dict[str, Any] = {}
        try:
            project = self._project(warnings)
            if name not in TOOLS:
                name = "unknown_tool"
                raise VibflowError(
                    ErrorCode.BAD_INPUT,
                    "there is no such tool",
                    hint="tools/list names the tools this server offers.",
                )
            return self._answer(project, name, arguments or {}, facts, warnings)
        except VibflowError as err:
            return self._fail(project, name, err, facts, arguments)
        except Exception as exc:  # noqa: BLE001 - a request's failure never ends the server
            if self.debug:
                traceback.print_exception(exc, file=sys.stderr)
            internal = VibflowError(
                ErrorCode.INTERNAL,
                f"vibflow hit an internal error ({type(exc).__name__})",
                hint="Start the server with --debug to see it on stderr, and please report it.",
            )
            return self._fail(project, name, internal, facts, arguments)
        finally:
            if project is not None:
                project.close()

    def _answer(
        self,
        project: Project,
        name: str,
        arguments: Mapping[str, Any],
        facts: dict[str, Any],
        warnings: list[str],
    ) -> types.CallToolResult:
        from pydantic import ValidationError

        from vibflow.mcp.calls import Call
        from vibflow.mcp.handlers import TOOLS
        from vibflow.steps.grants.capabilities import decide

        model, handler = TOOLS[name]
        try:
            args = model.model_validate(dict(arguments))
        except ValidationError as exc:
            raise _schema_problem(name, exc) from None
        decision = decide(
            name,
            self.client,
            granted=project.granted,
            apply_flag_on=self.apply_flag_on,
            lapsed=project.grant_lapsed,
        )
        if decision.grant_id is not None:
            facts["capability_grant_id"] = decision.grant_id
        if not decision.allowed:
            raise _denied(name, self.client, decision)
        reply = handler(Call(project, self.client, args, decision.grant_id))
        data = {k: v for k, v in reply.data.items() if k not in reply.redacted}
        if warnings:
            data["warnings"] = warnings
        redacted, counts = project.redact_payload(data)  # the project's own root and memos
        value = {**{k: reply.data[k] for k in reply.redacted if k in reply.data}, **redacted}
        self._no_absolute_paths(value)
        _fits_output(name, value)
        facts.update(reply.facts)
        # Always written, zeros included: the redaction SLO counts these rows as samples.
        facts["redaction"] = _sum_counts(reply.facts.get("redaction"), counts)
        facts.setdefault("result", "ok")
        self._audit(project, name, facts)  # before the answer: no row, no answer
        if reply.after is not None:
            self._later.submit(self._quietly, reply.after)
        if name in RESCANNED:
            self.rescanner.offer(value)
        return _result(value, error=False)

    def _fail(
        self,
        project: Project | None,
        name: str,
        err: VibflowError,
        facts: dict[str, Any],
        arguments: Mapping[str, Any] | None = None,
    ) -> types.CallToolResult:
        from vibflow.mcp.hints import for_error
        from vibflow.steps.redaction.contract import redact_payload

        error = for_error(name, dict(arguments or {}), err.to_json())
        objects = project.object_ids if project is not None else None
        body = redact_payload({"error": error}, root=self.root, objects=objects)
        facts = {k: v for k, v in facts.items() if k == "capability_grant_id"}
        facts["result"] = _result_of(err)
        if any(body.counts.model_dump().values()):
            facts["redaction"] = body.counts.model_dump()
        # The request's project could not be built (its policy cannot be read): the
        # row is written all the same, under the shipped policy.
        writer = project if project is not None else self._projects.for_audit()
        try:
            self._audit(writer, name, facts)
        except Exception:  # noqa: BLE001 - the error still reaches the caller
            if self.debug:
                traceback.print_exc(file=sys.stderr)
        finally:
            if writer is not project:
                writer.close()
        return _result(body.value, error=True)

    def answered_protocol(self, method: str, result: str) -> None:
        """The audit row of an answer outside ``tools/call``'s boundary. The method is
        the caller's word: only the protocol's own names are kept, as identifiers."""
        event = _PROTOCOL_EVENTS.get(method, "unknown_method")
        try:
            project = self._project()
        except VibflowError:  # a policy that cannot be read: the shipped one stands in
            project = self._projects.for_audit()
        try:
            self._audit(project, event, {"result": result})
        finally:
            project.close()

    def _audit(self, project: Project, name: str, facts: dict[str, Any]) -> None:
        row = {k: v for k, v in facts.items() if v is not None}
        project.audit.append(f"mcp.{name}", **row)

    # -- running ------------------------------------------------------------------------

    def warm_up(self) -> None:
        """Pay the imports and the detectors' set-up now, not in the first request."""
        # Imported for their side effect: the modules a request needs, loaded once.
        from vibflow.steps.redaction.contract import redact_text

        redact_text("warm-up: password=correct-horse-battery-staple", root=self.root)

    def server(self) -> Server[Any]:
        import anyio.to_thread
        import mcp_types as types
        from mcp.server.lowlevel import Server

        import vibflow

        listed = self.tools()

        async def list_tools(_ctx: Any, _params: Any) -> types.ListToolsResult:
            return types.ListToolsResult(tools=listed)

        async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> Any:
            answered = _ANSWERED.get()
            result = await anyio.to_thread.run_sync(self.call, params.name, params.arguments)
            if answered is not None:
                answered.append(True)  # call() wrote this answer's row
            return result

        async def audit_every_answer(ctx: Any, call_next: Any) -> Any:
            """One row for each answer the tool boundary does not write itself: the
            handshake, tools/list, ping, an unknown method, a malformed request."""
            if ctx.request_id is None:  # a notification: nothing is answered
                return await call_next(ctx)
            answered: list[bool] = []
            token = _ANSWERED.set(answered)
            try:
                value = await call_next(ctx)
            except anyio.get_cancelled_exc_class():
                raise  # a cancelled request gets no answer
            except Exception as exc:
                if not answered:
                    await anyio.to_thread.run_sync(
                        self.answered_protocol, ctx.method, _protocol_result(exc)
                    )
                raise
            finally:
                _ANSWERED.reset(token)
            if not answered:
                await anyio.to_thread.run_sync(self.answered_protocol, ctx.method, "ok")
            return value

        server: Server[Any] = Server(
            "vibflow",
            version=vibflow.__version__,
            instructions="vibflow's recovery, checkpoints and project memory for this project. "
            "Every answer is redacted; tools denied by default need `vibflow grant TOOL` "
            "from the project's owner.",
            on_list_tools=list_tools,
            on_call_tool=call_tool,
        )
        server.middleware.append(audit_every_answer)
        return server

    def serve_stdio(self) -> None:
        """Serve one client over stdin/stdout until it closes them."""
        import anyio
        from mcp.server.stdio import stdio_server

        server = self.server()
        # The SDK is loaded: what lives for the whole session leaves the collector's
        # sight, and it runs at CPython's pace again for the hours the server serves
        # (vibflow/__main__.py raised its threshold for the start).
        gc.freeze()
        gc.set_threshold(SERVER_GC_THRESHOLD, *gc.get_threshold()[1:])
        threading.Thread(target=self._quiet_warm_up, name="vibflow-warm-up", daemon=True).start()

        async def main() -> None:
            async with stdio_server() as (read, write):
                await server.run(read, write, server.create_initialization_options())

        try:
            anyio.run(main)
        finally:
            self.close()

    def close(self) -> None:
        """Finish what answers left behind and the queued re-scans."""
        self._later.shutdown(wait=True)
        self.rescanner.close()

    def _quietly(self, work: Callable[[], object]) -> None:
        try:
            work()
        except Exception:  # noqa: BLE001 - the answer is sent; this only cost its record
            if self.debug:
                traceback.print_exc(file=sys.stderr)

    def _quiet_warm_up(self) -> None:
        try:
            self.warm_up()
        except Exception:  # noqa: BLE001 - the first request pays it instead
            if self.debug:
                traceback.print_exc(file=sys.stderr)


#: The audit event of each protocol method the server answers itself (``mcp.<event>``);
#: any other method a caller names is ``unknown_method``.
_PROTOCOL_EVENTS = {
    "initialize": "initialize",
    "ping": "ping",
    "tools/list": "tools_list",
    "tools/call": "tools_call",  # refused before the boundary: its params were malformed
    "server/discover": "discover",
}
#: Set per request by the middleware; a tools/call that reached the boundary marks it.
_ANSWERED: contextvars.ContextVar[list[bool] | None] = contextvars.ContextVar(
    "vibflow_mcp_answered", default=None
)


def _protocol_result(exc: Exception) -> str:
    """A refused request (unknown method, malformed params) or the server's failure."""
    from pydantic import ValidationError

    code = getattr(exc, "code", None)
    if isinstance(exc, ValidationError) or code in (-32600, -32601, -32602):
        return "refused"
    return "failed"


def _fits_output(tool: str, value: Any) -> None:
    """Fail closed on an answer that breaks the tool's declared output schema: the
    caller gets a typed internal error, not a document its client would reject."""
    from pydantic import ValidationError

    from vibflow.mcp.outputs import OUTPUTS

    try:
        OUTPUTS[tool].model_validate(value)
    except ValidationError as exc:
        fields = sorted({str(e["loc"][0]) for e in exc.errors() if e["loc"]})[:5]
        raise VibflowError(
            ErrorCode.INTERNAL,
            f"vibflow's {tool} answer does not fit its output schema "
            f"({', '.join(f for f in fields if _FIELD.fullmatch(f)) or 'its shape'})",
            hint="Please report it; the answer was not sent.",
        ) from None


_WRITES = frozenset({"checkpoint_create", "memory_write", "handoff_export", "recovery_apply"})


def _result(value: Any, *, error: bool) -> types.CallToolResult:
    import mcp_types as types

    from vibflow.mcp.wire import wire_form

    value, text = wire_form(value)
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)],
        structured_content=value,
        is_error=error,
    )
