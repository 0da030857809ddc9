"""The verifier on in-memory definitions: structural rules and the trusted shape.

Definitions are built with ``FlowDefinition.model_validate`` (the same models a
YAML file becomes) and checked with ``verify`` against the test registry. The
end of the file checks that a project's own ``.vibflow/flows/`` file goes through
exactly the same verifier, through the real CLI and the real catalog.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from vibflow_testing import FLOWS
from vibflow_testing.cli import Cli, as_json
from vibflow_testing.flows import register

from vibflow.engine.catalog import FlowCatalog
from vibflow.engine.definition import FlowDefinition, Mutation
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.loader import parse_flow
from vibflow.engine.registry import GuardFamily, Registry
from vibflow.engine.verifier import APPLY_GUARD_FAMILIES, Problem, verify
from vibflow.registry_wiring import build_registry

# One guard per family, as the test kit registers them.
FAMILY_GUARD: dict[GuardFamily, Any] = {
    GuardFamily.CONFIRMATION: "t_confirm",
    GuardFamily.FEATURE_FLAG: {"feature_flag": "TEST_APPLY"},
    GuardFamily.GRANT: "t_grant",
    GuardFamily.LOCK: "t_lock",
    GuardFamily.SANDWICH: "t_sandwich",
    GuardFamily.PATH_CONTRACT: "t_paths",
}
ALL_GUARDS = [FAMILY_GUARD[f] for f in APPLY_GUARD_FAMILIES]


@pytest.fixture(scope="module")
def reg() -> Registry:
    return build_registry(register)


def flow(states: dict[str, Any], initial: str = "look") -> FlowDefinition:
    return FlowDefinition.model_validate(
        {"flow": "probe", "version": 1, "initial": initial, "states": states}
    )


def trusted(**overrides: Any) -> dict[str, Any]:
    """The smallest correct trusted shape; ``overrides`` replace whole states."""
    states: dict[str, Any] = {
        "look": {"step": "t.noop", "on": {"done": "checkpoint"}},
        "checkpoint": {"step": "t.sandwich", "on": {"done": "confirm"}},
        "confirm": {
            "wait": "confirmation",
            "on": {"confirm": {"target": "apply", "guards": ALL_GUARDS}, "cancel": "end"},
        },
        "apply": {"step": "t.apply", "on": {"done": "end"}},
        "end": {"final": True},
    }
    states.update(overrides)
    return {k: v for k, v in states.items() if v is not None}


def messages(problems: list[Problem]) -> list[str]:
    return [p.message for p in problems]


def only(problems: list[Problem]) -> Problem:
    assert len(problems) == 1, messages(problems)
    return problems[0]


# -- the trusted shape ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["mutating", "guarded_apply"])
def test_correct_trusted_shape_passes(name: str, reg: Registry) -> None:
    """The fixture flows that follow the trusted shape have no problems at all."""
    defn, _ = parse_flow((FLOWS / "valid" / f"{name}.yaml").read_text("utf-8"), f"{name}.yaml")
    assert verify(defn, reg) == []


def test_minimal_trusted_shape_passes(reg: Registry) -> None:
    """look → checkpoint → confirm (wait, six guard families) → apply is accepted."""
    assert verify(flow(trusted()), reg) == []


def test_registry_mutation_is_used_when_yaml_omits_mutates(reg: Registry) -> None:
    """A files-mutating step without `mutates:` in YAML is still held to the trusted shape."""
    states = trusted(
        look={"step": "t.noop", "on": {"done": "apply"}},
        checkpoint=None,
        confirm=None,
    )
    assert "mutates" not in states["apply"]
    problems = verify(flow(states), reg)
    assert {p.path for p in problems} == {("states", "look", "on", "done")}
    assert "'look' is not a 'wait' state" in problems[0].message
    assert "missing: confirmation, feature_flag, grant, lock, sandwich" in problems[1].message


def test_yaml_cannot_declare_a_files_step_harmless(reg: Registry) -> None:
    """Declaring `mutates: none` on a files-mutating step is an error, not a loophole."""
    states = trusted(apply={"step": "t.apply", "mutates": "none", "on": {"done": "end"}})
    problem = only(verify(flow(states), reg))
    assert problem.path == ("states", "apply", "mutates")
    assert "registered as mutates: files" in problem.message


def test_yaml_cannot_fake_a_checkpoint(reg: Registry) -> None:
    """Declaring `mutates: checkpoint_only` on an ordinary step does not make it a sandwich."""
    states = trusted(
        checkpoint={"step": "t.noop", "mutates": "checkpoint_only", "on": {"done": "confirm"}}
    )
    problem = only(verify(flow(states), reg))
    assert problem.path == ("states", "checkpoint", "mutates")
    assert "registered as mutates: none" in problem.message


def test_checkpoint_is_recognised_from_the_registry(reg: Registry) -> None:
    """A `t.sandwich` state counts as the checkpoint with no `mutates:` in the YAML."""
    states = trusted()
    assert "mutates" not in states["checkpoint"]
    assert reg.get_step("t.sandwich").mutates is Mutation.CHECKPOINT_ONLY
    assert verify(flow(states), reg) == []


def test_ordinary_step_in_place_of_checkpoint_is_refused(reg: Registry) -> None:
    """Replacing the sandwich step by a harmless one breaks the checkpoint requirement."""
    states = trusted(checkpoint={"step": "t.noop", "on": {"done": "confirm"}})
    problem = only(verify(flow(states), reg))
    assert problem.path == ("states", "confirm", "on", "confirm")
    assert "without passing a sandwich checkpoint" in problem.message


@pytest.mark.parametrize("family", APPLY_GUARD_FAMILIES, ids=lambda f: f.value)
def test_each_guard_family_is_required(family: GuardFamily, reg: Registry) -> None:
    """Dropping the guard of any one family from the apply transition names that family."""
    guards = [FAMILY_GUARD[f] for f in APPLY_GUARD_FAMILIES if f is not family]
    states = trusted(
        confirm={
            "wait": "confirmation",
            "on": {"confirm": {"target": "apply", "guards": guards}, "cancel": "end"},
        }
    )
    problem = only(verify(flow(states), reg))
    assert problem.path == ("states", "confirm", "on", "confirm")
    assert problem.message.endswith(f"missing: {family.value}")


def test_generic_guards_count_for_no_family(reg: Registry) -> None:
    """A parameterised generic guard cannot stand in for a required family."""
    states = trusted(
        confirm={
            "wait": "confirmation",
            "on": {
                "confirm": {"target": "apply", "guards": [{"t_input_yes": "word"}, "t_broken"]},
                "cancel": "end",
            },
        }
    )
    problem = only(verify(flow(states), reg))
    expected = ", ".join(f.value for f in APPLY_GUARD_FAMILIES)
    assert problem.message.endswith(f"missing: {expected}")


def test_every_entry_into_a_files_state_is_checked(reg: Registry) -> None:
    """A second, unguarded event into the apply state is flagged at its own path."""
    states = trusted(
        confirm={
            "wait": "confirmation",
            "on": {
                "confirm": {"target": "apply", "guards": ALL_GUARDS},
                "force": "apply",
                "cancel": "end",
            },
        }
    )
    problem = only(verify(flow(states), reg))
    assert problem.path == ("states", "confirm", "on", "force")


def test_entry_from_a_pass_through_state_is_refused(reg: Registry) -> None:
    """A pass-through state between the confirmation and apply is not a confirmation."""
    states = trusted(
        confirm={
            "wait": "confirmation",
            "on": {"confirm": {"target": "relay", "guards": ALL_GUARDS}, "cancel": "end"},
        },
        relay={"on": {"done": {"target": "apply", "guards": ALL_GUARDS}}},
    )
    problem = only(verify(flow(states), reg))
    assert problem.path == ("states", "relay", "on", "done")
    assert "'relay' is not a 'wait' state" in problem.message


def test_files_step_in_a_final_state_is_checked(reg: Registry) -> None:
    """`final: true` does not exempt a files-mutating step from the trusted shape."""
    states = trusted(
        look={"step": "t.noop", "on": {"done": "apply"}},
        apply={"step": "t.apply", "final": True},
        checkpoint=None,
        confirm=None,
        end=None,
    )
    problems = verify(flow(states), reg)
    assert problems
    assert {p.path for p in problems} == {("states", "look", "on", "done")}


def test_files_step_as_initial_is_reported_at_initial(reg: Registry) -> None:
    """The initial-state rule points at the `initial` key."""
    states = {"apply": {"step": "t.apply", "on": {"done": "end"}}, "end": {"final": True}}
    problem = only(verify(flow(states, initial="apply"), reg))
    assert problem.path == ("initial",)
    assert "cannot be the initial state" in problem.message


def test_on_blocked_into_files_state_is_refused(reg: Registry) -> None:
    """A refused guard can never divert a run into a files-mutating state."""
    states = trusted()
    states["confirm"] = {**states["confirm"], "on_blocked": "apply"}
    problem = only(verify(flow(states), reg))
    assert problem.path == ("states", "confirm", "on_blocked")


def test_bypass_around_the_checkpoint_is_refused(reg: Registry) -> None:
    """If one path reaches the confirmation without the checkpoint, the apply entry fails."""
    states = trusted(
        look={"wait": "option", "on": {"careful": "checkpoint", "hasty": "confirm"}},
    )
    problem = only(verify(flow(states), reg))
    assert problem.path == ("states", "confirm", "on", "confirm")


def test_memory_and_checkpoint_steps_need_no_trusted_shape(reg: Registry) -> None:
    """Only `files` mutations trigger the shape rule: memory and checkpoint steps run freely."""
    states = {
        "look": {"step": "t.remember", "on": {"done": "snap"}},
        "snap": {"step": "t.sandwich", "on": {"done": "end"}},
        "end": {"final": True},
    }
    assert verify(flow(states), reg) == []


def test_flow_starting_with_the_checkpoint_is_accepted(reg: Registry) -> None:
    """A flow whose first state is the sandwich checkpoint satisfies the trusted shape."""
    states = trusted(look=None)
    assert verify(flow(states, initial="checkpoint"), reg) == []


# -- structural rules ----------------------------------------------------------------


def test_undefined_initial_is_reported_at_initial(reg: Registry) -> None:
    """An initial state that does not exist is reported at `initial` with a suggestion."""
    states = {"start": {"step": "t.noop", "on": {"done": "end"}}, "end": {"final": True}}
    problem = only(verify(flow(states, initial="strat"), reg))
    assert problem.path == ("initial",)
    assert "did you mean 'start'" in problem.message


def test_undefined_target_is_reported_at_the_event(reg: Registry) -> None:
    """A transition to a missing state is reported at its event, with the nearest name."""
    states = {"look": {"step": "t.noop", "on": {"done": "ned"}}, "end": {"final": True}}
    problem = only(verify(flow(states), reg))
    assert problem.path == ("states", "look", "on", "done")
    assert "did you mean 'end'" in problem.message


def test_undefined_on_blocked_suggests_the_nearest_state(reg: Registry) -> None:
    """A misspelled on_blocked target is reported with the nearest state name."""
    states = {
        "look": {"wait": "x", "on": {"go": "end"}, "on_blocked": "retyr"},
        "retry": {"step": "t.noop", "on": {"done": "look"}},
        "end": {"final": True},
    }
    problem = only(verify(flow(states), reg))
    assert "did you mean 'retry'" in problem.message


def test_unreachable_state_is_reported(reg: Registry) -> None:
    """A state no path reaches from the initial state is reported at its name."""
    states = {
        "look": {"step": "t.noop", "on": {"done": "end"}},
        "orphan": {"step": "t.noop", "on": {"done": "end"}},
        "end": {"final": True},
    }
    problem = only(verify(flow(states), reg))
    assert problem.path == ("states", "orphan")


def test_on_blocked_makes_a_state_reachable(reg: Registry) -> None:
    """A state reached only as an on_blocked target counts as reachable."""
    states = {
        "look": {"wait": "x", "on": {"go": {"target": "end", "guards": ["t_grant"]}}},
        "retry": {"step": "t.noop", "on": {"done": "look"}},
        "end": {"final": True},
    }
    states["look"]["on_blocked"] = "retry"
    assert verify(flow(states), reg) == []


def test_every_dead_end_state_is_reported(reg: Registry) -> None:
    """Each state of a cycle with no way out to a final state is a dead end."""
    states = {
        "look": {"wait": "x", "on": {"finish": "end", "spin": "ping"}},
        "ping": {"step": "t.noop", "on": {"done": "pong"}},
        "pong": {"step": "t.noop", "on": {"done": "ping"}},
        "end": {"final": True},
    }
    problems = verify(flow(states), reg)
    assert [p.path for p in problems] == [("states", "ping"), ("states", "pong")]
    assert all("dead end" in m for m in messages(problems))


def test_missing_final_state_is_reported_at_states(reg: Registry) -> None:
    """A flow without any final state is reported once, at `states`."""
    states = {
        "look": {"step": "t.noop", "on": {"done": "again"}},
        "again": {"step": "t.noop", "on": {"done": "look"}},
    }
    problem = only(verify(flow(states), reg))
    assert problem.path == ("states",)


@pytest.mark.parametrize(
    ("state", "fragment"),
    [
        ({"wait": "answer"}, "declares no events"),
        ({"step": "t.noop"}, "runs a step but has no events"),
        ({"on": {"next": "end"}}, "needs exactly one event, 'done'"),
        ({"on": {"done": "end", "other": "end"}}, "needs exactly one event, 'done'"),
    ],
    ids=["wait", "step", "pass-wrong-event", "pass-two-events"],
)
def test_states_without_a_proper_way_out(
    state: dict[str, Any], fragment: str, reg: Registry
) -> None:
    """Waits need events, steps need outcomes, pass-throughs need exactly `done`."""
    states = {"look": {"step": "t.noop", "on": {"done": "mid"}}, "mid": state}
    states["end"] = {"final": True}
    problem = only(verify(flow(states), reg))
    assert problem.path == ("states", "mid")
    assert fragment in problem.message


def test_final_state_with_events_is_reported_at_on(reg: Registry) -> None:
    """A final state must not declare events."""
    states = {"look": {"step": "t.noop", "on": {"done": "end"}}}
    states["end"] = {"final": True, "on": {"done": "look"}}
    problem = only(verify(flow(states), reg))
    assert problem.path == ("states", "end", "on")


def test_registry_problems_suppress_graph_rules(reg: Registry) -> None:
    """An unknown step is reported alone, not echoed by spurious graph problems."""
    states = {
        "look": {"step": "t.nope", "on": {"done": "ned"}},
        "end": {"final": True},
    }
    problems = verify(flow(states), reg)
    assert [p.path for p in problems] == [
        ("states", "look", "on", "done"),
        ("states", "look", "step"),
    ]
    assert "did you mean" in problems[1].message


def test_all_registry_problems_are_listed(reg: Registry) -> None:
    """Every unknown step and guard is reported, not only the first one."""
    states = {
        "look": {
            "wait": "x",
            "on": {"go": {"target": "work", "guards": ["t_lok", {"feature_flag": None}]}},
        },
        "work": {"step": "t.nop", "on": {"done": "end"}},
        "end": {"step": "t.efect", "final": True},
    }
    problems = verify(flow(states), reg)
    paths = [p.path for p in problems]
    assert ("states", "look", "on", "go", "guards", 0) in paths
    assert ("states", "look", "on", "go", "guards", 1) in paths
    assert ("states", "work", "step") in paths
    assert ("states", "end", "step") in paths


@pytest.mark.parametrize(
    ("guard", "fragment"),
    [
        ("feature_flag", "needs a parameter"),
        ({"t_input_yes": None}, "needs a parameter"),
        ({"t_grant": "everything"}, "takes no parameter"),
        ({"t_lock": 1}, "takes no parameter"),
    ],
    ids=["flag-bare", "required-null", "grant-param", "lock-param"],
)
def test_guard_parameters_must_fit(guard: Any, fragment: str, reg: Registry) -> None:
    """A guard's parameter is present exactly when its registration says so."""
    states = {
        "look": {"wait": "x", "on": {"go": {"target": "end", "guards": [guard]}}},
        "end": {"final": True},
    }
    problem = only(verify(flow(states), reg))
    assert problem.path == ("states", "look", "on", "go", "guards", 0)
    assert fragment in problem.message


def test_mutates_on_a_state_without_step_is_reported(reg: Registry) -> None:
    """Only a state that runs a step can mutate anything."""
    states = {"look": {"mutates": "files", "on": {"done": "end"}}, "end": {"final": True}}
    problem = only(verify(flow(states), reg))
    assert problem.path == ("states", "look", "mutates")


# -- project flows go through the same verifier ----------------------------------------

SNEAKY = """\
flow: sneaky
version: 1
description: Applies files straight after looking, and never says it mutates.
initial: look
states:
  look:
    step: t.noop
    on:
      done: apply
  apply: {step: t.apply, on: {done: end}}
  end: {final: true}
"""


def test_project_flow_is_verified_by_flows_validate(cli: Cli, repo: Path) -> None:
    """`flows validate` on a `.vibflow/flows/` file exits 2 and prints file:line:col."""
    path = repo / ".vibflow" / "flows" / "sneaky.yaml"
    path.write_text(SNEAKY, encoding="utf-8")
    proc = cli("flows", "validate", str(path))
    assert proc.returncode == 2, proc.stderr
    assert f"{path}:9:7: state 'apply' changes files" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_project_flow_validate_json(cli: Cli, repo: Path) -> None:
    """`flows validate --json` reports ok false with every located problem."""
    path = repo / ".vibflow" / "flows" / "sneaky.yaml"
    path.write_text(SNEAKY, encoding="utf-8")
    proc = cli("flows", "validate", str(path), "--json")
    assert proc.returncode == 2, proc.stderr
    data = as_json(proc)
    assert data["ok"] is False
    locations = [p["location"] for p in data["problems"]]
    assert locations == [f"{path}:9:7", f"{path}:9:7"]
    assert "not a 'wait' state" in data["problems"][0]["message"]
    assert "missing: confirmation" in data["problems"][1]["message"]


def test_valid_project_flow_validates_ok(cli: Cli, repo: Path) -> None:
    """`flows validate` on a correct trusted shape exits 0 (and --json says ok)."""
    path = repo / ".vibflow" / "flows" / "mutating.yaml"
    proc = cli("flows", "validate", str(path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"{path}: ok"
    proc = cli("flows", "validate", str(path), "--json")
    assert json.loads(proc.stdout) == {"ok": True, "problems": []}


def test_running_a_broken_project_flow_is_refused(cli: Cli, repo: Path) -> None:
    """`vibflow run` on a project flow that breaks the shape exits 2, located, and runs nothing."""
    (repo / ".vibflow" / "flows" / "sneaky.yaml").write_text(SNEAKY, encoding="utf-8")
    proc = cli("run", "sneaky")
    assert proc.returncode == 2, proc.stderr
    assert ".vibflow/flows/sneaky.yaml:9:7:" in proc.stderr
    # Both problems at once, each on its own located line.
    assert "2 problems in .vibflow/flows/sneaky.yaml" in proc.stderr
    assert ".vibflow/flows/sneaky.yaml:9:7: state 'apply' changes files" in proc.stderr
    assert "missing: confirmation" in proc.stderr
    assert not (repo / ".vibflow" / "effects.log").exists()


def test_project_override_of_a_shipped_flow_is_verified(tmp_path: Path, reg: Registry) -> None:
    """A project file overriding a shipped flow is loaded from the project and verified."""
    builtin = tmp_path / "builtin"
    builtin.mkdir()
    (builtin / "mutating.yaml").write_text(
        (FLOWS / "valid" / "mutating.yaml").read_text("utf-8"), encoding="utf-8"
    )
    project = tmp_path / "project_flows"
    project.mkdir()
    (project / "mutating.yaml").write_text(
        SNEAKY.replace("flow: sneaky", "flow: mutating"), encoding="utf-8"
    )
    catalog = FlowCatalog(reg, builtin=builtin, project_dir=project)
    [entry] = catalog.entries()
    assert (entry.origin, entry.overrides_builtin) == ("project", True)
    with pytest.raises(VibflowError) as info:
        catalog.load("mutating")
    assert info.value.code is ErrorCode.FLOW_INVALID
    assert str(info.value.location) == ".vibflow/flows/mutating.yaml:9:7"
    # Without the override, the shipped one loads.
    (project / "mutating.yaml").unlink()
    assert catalog.load("mutating").origin == "builtin"
