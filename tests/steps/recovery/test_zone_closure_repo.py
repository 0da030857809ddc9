"""The closure, the dependency rule and the intent's literals read from a real
repository: a new middleware the explicit route imports brings in the settings
key it reads and the library it requires (with a reason chain a user can
follow); an unrelated sibling edit stays drift; a file the user called drift is
no step of the chain."""

from __future__ import annotations

from pathlib import Path

from vibflow_testing.recovery_inputs import changed
from vibflow_testing.repo import init_repo, write

from vibflow.steps.recovery.evidence_read import gather
from vibflow.steps.recovery.zone import MemorySignals, drift, infer_zone
from vibflow.steps.recovery.zone_policy import ZonePolicy
from vibflow.steps.workspace.git import Git

INTENT = "rate-limit POST /auth/login: 5 attempts per 15 minutes"
AUTH = "const config = require('../config');\nrouter.post('/login', login);\n"
CONFIG = "module.exports = {\n  jwtSecret: process.env.JWT_SECRET,\n};\n"
PACKAGE = '{\n  "dependencies": {\n    "express": "^4.18.2"\n  }\n}\n'
USERS = "router.get('/:id', getUser);\n"


def _repo(tmp_path: Path) -> Path:
    root = init_repo(
        tmp_path / "repo",
        {
            "src/routes/auth.js": AUTH,
            "src/config.js": CONFIG,
            "package.json": PACKAGE,
            "src/routes/users.js": USERS,
            "docs/api.md": "# API\n",
        },
    )
    write(
        root,
        "src/routes/auth.js",
        AUTH.replace(
            "router.post('/login', login);",
            "const { loginLimiter } = require('../middleware/rateLimit');\n"
            "router.post('/login', loginLimiter, login);",
        ),
    )
    write(
        root,
        "src/middleware/rateLimit.js",
        "const rateLimit = require('express-rate-limit');\n"
        "const config = require('../config');\n"
        "exports.loginLimiter = rateLimit({ limit: config.loginRateLimit.max });\n",
    )
    write(
        root,
        "src/config.js",
        CONFIG.replace("  jwtSecret:", "  loginRateLimit: { max: 5 },\n  jwtSecret:"),
    )
    write(
        root,
        "package.json",
        PACKAGE.replace('"express"', '"express-rate-limit": "^7",\n    "express"'),
    )
    write(
        root, "src/routes/users.js", "router.get('/:id', async (req, res) => getUser(req, res));\n"
    )
    write(root, "docs/api.md", "# API\n\n`POST /auth/login` answers 429 after five attempts.\n")
    return root


FILES = [
    changed("src/routes/auth.js"),
    changed("src/middleware/rateLimit.js", "untracked"),
    changed("src/config.js"),
    changed("package.json"),
    changed("src/routes/users.js"),
    changed("docs/api.md"),
]
SEEDS = {"src/routes/auth.js": ["src/routes/auth.js"]}


def test_the_closure_brings_in_what_the_new_file_needs(tmp_path: Path) -> None:
    """The middleware (imported by your route's change) is a step: the settings key it
    reads and the library it requires join, each reason naming the step; the sibling
    route stays drift; the docs page writing the intent's route joins by the literal."""
    root = _repo(tmp_path)
    ev = gather(root, Git(root), FILES, SEEDS, INTENT, ZonePolicy(), (), ())
    assert "src/middleware/rateLimit.js" in ev.via
    assert "src/routes/users.js" not in ev.via
    assert ev.literal == {"docs/api.md": "/auth/login"}
    memory = MemorySignals({"src/routes/auth.js": ""}, [], True)
    zone = {z.path: z for z in infer_zone(FILES, memory, {}, (), ev)}
    assert set(zone) == {
        "src/routes/auth.js",
        "src/middleware/rateLimit.js",
        "src/config.js",
        "package.json",
        "docs/api.md",
    }
    assert "'src/middleware/rateLimit.js' (in scope:" in zone["src/config.js"].reason
    assert "'express-rate-limit'" in zone["package.json"].reason
    flagged = drift(FILES, list(zone.values()), memory, {}, ev)
    assert [d.path for d in flagged] == ["src/routes/users.js"]


def test_a_file_you_called_drift_is_no_step(tmp_path: Path) -> None:
    """With the middleware held out by your correction, nothing joins through it."""
    root = _repo(tmp_path)
    held = frozenset({"src/middleware/rateLimit.js"})
    ev = gather(root, Git(root), FILES, SEEDS, INTENT, ZonePolicy(), (), (), held_out=held)
    assert ev.via == {}
    assert "package.json" not in ev.needs


def test_the_closure_and_the_dependency_rule_can_be_turned_off(tmp_path: Path) -> None:
    """closure_hops 0 and dependencies false: the policy knobs a project may tune."""
    root = _repo(tmp_path)
    policy = ZonePolicy(closure_hops=0, dependencies=False, literals=False)
    ev = gather(root, Git(root), FILES, SEEDS, INTENT, policy, (), ())
    assert ev.via == {}
    assert ev.needs == {}
    assert ev.literal == {}


def test_a_documenting_intent_takes_literals_from_pages_only(tmp_path: Path) -> None:
    """When every file you named is documentation, the code writing the flag is what
    the pages document: only the other page joins by the literal."""
    root = init_repo(
        tmp_path / "repo",
        {"README.md": "# tool\n", "docs/cli.md": "# CLI\n", "src/cli.py": "FLAGS = []\n"},
    )
    write(root, "README.md", "# tool\n\nUsage: tool [--verbose]\n")
    write(root, "docs/cli.md", "# CLI\n\n--verbose: more output\n")
    write(root, "src/cli.py", "FLAGS = ['--verbose']\n")
    files = [changed("README.md"), changed("docs/cli.md"), changed("src/cli.py")]
    seeds = {"README.md": ["README.md"]}
    ev = gather(root, Git(root), files, seeds, "Document the new --verbose flag", ZonePolicy())
    assert ev.literal == {"docs/cli.md": "--verbose"}


def test_a_staging_copy_of_the_prod_edit_is_a_mirror(tmp_path: Path) -> None:
    """The same versioning block added to staging, for a prod intent, is read as a
    copy of your prod file's edit; a staging edit of something else is not."""
    bucket = 'module "logs" {\n  source = "../../modules/s3"\n}\n'
    root = init_repo(
        tmp_path / "repo",
        {"envs/prod/main.tf": bucket, "envs/staging/main.tf": bucket, "envs/dev/main.tf": bucket},
    )
    block = "  versioning = true\n  expiration_days = 90\n}\n"
    write(root, "envs/prod/main.tf", bucket.replace("}\n", block))
    write(root, "envs/staging/main.tf", bucket.replace("}\n", block.replace("90", "30")))
    write(root, "envs/dev/main.tf", bucket.replace("}\n", "  force_destroy = true\n}\n"))
    files = [
        changed("envs/prod/main.tf"),
        changed("envs/staging/main.tf"),
        changed("envs/dev/main.tf"),
    ]
    seeds = {"envs/prod/main.tf": ["envs/prod/main.tf"]}
    intent = "turn on versioning for the prod logs bucket"
    ev = gather(root, Git(root), files, seeds, intent, ZonePolicy())
    assert ev.mirrors == {"envs/staging/main.tf": ("envs/prod/main.tf", "prod", "staging")}
