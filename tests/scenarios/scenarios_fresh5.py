# ruff: noqa: E501
"""Fresh scenarios, batch 5: written blind, by someone who had not read the rules,
after the fourth tuning.

Each scenario is a small project in its own ecosystem, with a short dated history,
an intent as a user would type it, the files the user named, and an agent's edits.
The truth says what a careful user would call each change: would they be surprised
to find it in the agent's work for this intent? Surprised means drift.
"""

from __future__ import annotations

from textwrap import dedent

from scenario_kit import ELF, Scenario, Scene


def _t(text: str) -> str:
    return dedent(text).lstrip("\n")


# --------------------------------------------------------------------------------------
# 1. FastAPI + SQLAlchemy + Alembic: soft-delete projects
# --------------------------------------------------------------------------------------

_PB_MAIN = _t("""
    from fastapi import FastAPI

    from app.routers import projects, users

    app = FastAPI(title="Planboard")
    app.include_router(projects.router)
    app.include_router(users.router)
""")

_PB_DB = _t("""
    from sqlalchemy import create_engine
    from sqlalchemy.orm import DeclarativeBase, sessionmaker

    engine = create_engine("sqlite:///./planboard.db", connect_args={"check_same_thread": False})
    SessionLocal = sessionmaker(bind=engine, autoflush=False)


    class Base(DeclarativeBase):
        pass


    def get_db():
        db = SessionLocal()
        try:
            yield db
        finally:
            db.close()
""")

_PB_PROJECT_V1 = _t("""
    from datetime import datetime

    from sqlalchemy import Column, DateTime, ForeignKey, Integer, String

    from app.db import Base


    class Project(Base):
        __tablename__ = "projects"

        id = Column(Integer, primary_key=True)
        name = Column(String(200), nullable=False)
        owner_id = Column(Integer, ForeignKey("users.id"), nullable=False)
        created_at = Column(DateTime, default=datetime.utcnow, nullable=False)
""")

_PB_PROJECT_V2 = _PB_PROJECT_V1 + '    tags = Column(String(500), nullable=False, default="")\n'

_PB_PROJECT_V3 = _PB_PROJECT_V2 + "    archived_at = Column(DateTime, nullable=True, index=True)\n"

_PB_USER = _t("""
    from sqlalchemy import Boolean, Column, Integer, String

    from app.db import Base


    class User(Base):
        __tablename__ = "users"

        id = Column(Integer, primary_key=True)
        email = Column(String(320), unique=True, nullable=False)
        display_name = Column(String(120), nullable=False)
        is_active = Column(Boolean, default=True, nullable=False)
""")

_PB_USER_AGENT = _t("""
    from sqlalchemy import String
    from sqlalchemy.orm import Mapped, mapped_column

    from app.db import Base


    class User(Base):
        __tablename__ = "users"

        id: Mapped[int] = mapped_column(primary_key=True)
        email: Mapped[str] = mapped_column(String(320), unique=True)
        display_name: Mapped[str] = mapped_column(String(120))
        is_active: Mapped[bool] = mapped_column(default=True)
""")

_PB_SCHEMA_V1 = _t("""
    from datetime import datetime

    from pydantic import BaseModel, ConfigDict


    class ProjectIn(BaseModel):
        name: str


    class ProjectOut(BaseModel):
        model_config = ConfigDict(from_attributes=True)

        id: int
        name: str
        owner_id: int
        created_at: datetime
""")

_PB_SCHEMA_V2 = _t("""
    from datetime import datetime

    from pydantic import BaseModel, ConfigDict


    class ProjectIn(BaseModel):
        name: str
        tags: list[str] = []


    class ProjectOut(BaseModel):
        model_config = ConfigDict(from_attributes=True)

        id: int
        name: str
        owner_id: int
        created_at: datetime
        tags: str
""")

_PB_SCHEMA_V3 = _PB_SCHEMA_V2 + "    archived_at: datetime | None = None\n"

_PB_ROUTER_V1 = _t("""
    from fastapi import APIRouter, Depends, HTTPException
    from sqlalchemy.orm import Session

    from app.db import get_db
    from app.models.project import Project
    from app.schemas.project import ProjectIn, ProjectOut

    router = APIRouter(prefix="/projects", tags=["projects"])


    @router.get("", response_model=list[ProjectOut])
    def list_projects(db: Session = Depends(get_db)):
        return db.query(Project).order_by(Project.created_at.desc()).all()


    @router.post("", response_model=ProjectOut, status_code=201)
    def create_project(body: ProjectIn, db: Session = Depends(get_db)):
        project = Project(name=body.name, owner_id=1)
        db.add(project)
        db.commit()
        return project


    @router.delete("/{project_id}", status_code=204)
    def delete_project(project_id: int, db: Session = Depends(get_db)):
        project = db.get(Project, project_id)
        if project is None:
            raise HTTPException(404)
        db.delete(project)
        db.commit()
""")

_PB_ROUTER_V2 = _PB_ROUTER_V1.replace(
    "project = Project(name=body.name, owner_id=1)",
    'project = Project(name=body.name, owner_id=1, tags=",".join(body.tags))',
)

_PB_ROUTER_V3 = (
    _PB_ROUTER_V2.replace(
        "from fastapi import APIRouter",
        "from datetime import datetime\n\nfrom fastapi import APIRouter",
    )
    .replace(
        "return db.query(Project).order_by(Project.created_at.desc()).all()",
        "return (\n        db.query(Project)\n        .filter(Project.archived_at.is_(None))\n        .order_by(Project.created_at.desc())\n        .all()\n    )",
    )
    .replace(
        "    if project is None:\n        raise HTTPException(404)\n    db.delete(project)\n",
        "    if project is None or project.archived_at is not None:\n        raise HTTPException(404)\n    project.archived_at = datetime.utcnow()\n",
    )
)

_PB_USERS_ROUTER = _t("""
    from fastapi import APIRouter, Depends
    from sqlalchemy.orm import Session

    from app.db import get_db
    from app.models.user import User

    router = APIRouter(prefix="/users", tags=["users"])


    @router.get("")
    def list_users(limit: int = 50, db: Session = Depends(get_db)):
        return db.query(User).filter(User.is_active).limit(limit).all()
""")

_PB_MIG_1 = _t('''
    """initial

    Revision ID: 0001
    """
    import sqlalchemy as sa
    from alembic import op

    revision = "0001"
    down_revision = None


    def upgrade():
        op.create_table(
            "users",
            sa.Column("id", sa.Integer, primary_key=True),
            sa.Column("email", sa.String(320), nullable=False, unique=True),
            sa.Column("display_name", sa.String(120), nullable=False),
            sa.Column("is_active", sa.Boolean, nullable=False),
        )
        op.create_table(
            "projects",
            sa.Column("id", sa.Integer, primary_key=True),
            sa.Column("name", sa.String(200), nullable=False),
            sa.Column("owner_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
            sa.Column("created_at", sa.DateTime, nullable=False),
        )


    def downgrade():
        op.drop_table("projects")
        op.drop_table("users")
''')

_PB_MIG_2 = _t('''
    """project tags

    Revision ID: 0002
    Revises: 0001
    """
    import sqlalchemy as sa
    from alembic import op

    revision = "0002"
    down_revision = "0001"


    def upgrade():
        op.add_column("projects", sa.Column("tags", sa.String(500), nullable=False, server_default=""))


    def downgrade():
        op.drop_column("projects", "tags")
''')

_PB_MIG_3 = _t('''
    """soft-delete projects: archived_at

    Revision ID: 0003
    Revises: 0002
    """
    import sqlalchemy as sa
    from alembic import op

    revision = "0003"
    down_revision = "0002"


    def upgrade():
        op.add_column("projects", sa.Column("archived_at", sa.DateTime, nullable=True))
        op.create_index("ix_projects_archived_at", "projects", ["archived_at"])


    def downgrade():
        op.drop_index("ix_projects_archived_at", table_name="projects")
        op.drop_column("projects", "archived_at")
''')

_PB_TESTS_V1 = _t("""
    from fastapi.testclient import TestClient

    from app.main import app

    client = TestClient(app)


    def test_create_and_list():
        created = client.post("/projects", json={"name": "alpha"})
        assert created.status_code == 201
        names = [p["name"] for p in client.get("/projects").json()]
        assert "alpha" in names


    def test_delete_unknown_is_404():
        assert client.delete("/projects/999999").status_code == 404
""")

_PB_TESTS_V2 = _PB_TESTS_V1 + _t("""


    def test_tags_are_stored():
        created = client.post("/projects", json={"name": "beta", "tags": ["ops", "q3"]})
        assert created.json()["tags"] == "ops,q3"
""")

_PB_TESTS_V3 = _PB_TESTS_V2 + _t("""


    def test_delete_archives_and_hides():
        pid = client.post("/projects", json={"name": "gamma"}).json()["id"]
        assert client.delete(f"/projects/{pid}").status_code == 204
        ids = [p["id"] for p in client.get("/projects").json()]
        assert pid not in ids
        assert client.delete(f"/projects/{pid}").status_code == 404
""")

_PB_DOCS_V1 = _t("""
    # Planboard API

    ## Projects

    - `GET /projects` lists projects, newest first.
    - `POST /projects` creates a project (`name`, optional `tags`).
    - `DELETE /projects/{id}` deletes a project and returns 204.

    ## Users

    - `GET /users?limit=50` lists active users.
""")

_PB_DOCS_V2 = _PB_DOCS_V1.replace(
    "- `GET /projects` lists projects, newest first.",
    "- `GET /projects` lists projects that are not archived, newest first.",
).replace(
    "- `DELETE /projects/{id}` deletes a project and returns 204.",
    "- `DELETE /projects/{id}` archives a project (sets `archived_at`) and returns 204;\n  archived projects no longer appear in the list, and a second delete is a 404.",
)

_PB_REQS = "fastapi==0.110.0\nuvicorn[standard]==0.27.1\nsqlalchemy==2.0.27\nalembic==1.13.1\npydantic==2.6.3\nhttpx==0.27.0\npytest==8.0.2\n"


def fastapi_soft_delete_projects(s: Scene) -> None:
    """Soft-delete: the model column, an Alembic migration (another folder, names no
    router), the schema, the router, its tests and the API doc are in scope. Porting
    the User model to ``Mapped[]``, a new default page size in the sibling users
    router and bumped pins in requirements.txt are drift."""
    s.commit(
        "Planboard API: projects and users",
        {
            "app/main.py": _PB_MAIN,
            "app/db.py": _PB_DB,
            "app/models/project.py": _PB_PROJECT_V1,
            "app/models/user.py": _PB_USER,
            "app/schemas/project.py": _PB_SCHEMA_V1,
            "app/routers/projects.py": _PB_ROUTER_V1,
            "app/routers/users.py": _PB_USERS_ROUTER,
            "alembic/versions/0001_initial.py": _PB_MIG_1,
            "tests/test_projects.py": _PB_TESTS_V1,
            "docs/api.md": _PB_DOCS_V1,
            "requirements.txt": _PB_REQS,
        },
        days_ago=64,
    )
    s.commit(
        "Projects can carry tags",
        {
            "app/models/project.py": _PB_PROJECT_V2,
            "app/schemas/project.py": _PB_SCHEMA_V2,
            "app/routers/projects.py": _PB_ROUTER_V2,
            "alembic/versions/0002_project_tags.py": _PB_MIG_2,
            "tests/test_projects.py": _PB_TESTS_V2,
        },
        days_ago=23,
    )
    s.intent(
        "make DELETE /projects/{id} a soft delete: set archived_at instead of removing the row, and hide archived projects from the list",
        {"app/routers/projects.py": "the list and delete endpoints"},
    )
    s.agent(
        {
            "app/routers/projects.py": _PB_ROUTER_V3,
            "app/models/project.py": _PB_PROJECT_V3,
            "app/schemas/project.py": _PB_SCHEMA_V3,
            "alembic/versions/0003_project_archived_at.py": _PB_MIG_3,
            "tests/test_projects.py": _PB_TESTS_V3,
            "docs/api.md": _PB_DOCS_V2,
            "app/models/user.py": _PB_USER_AGENT,
            "app/routers/users.py": _PB_USERS_ROUTER.replace("limit: int = 50", "limit: int = 100"),
            "requirements.txt": _PB_REQS.replace("fastapi==0.110.0", "fastapi==0.111.0").replace(
                "uvicorn[standard]==0.27.1", "uvicorn[standard]==0.29.0"
            ),
        }
    )
    s.fine(
        "app/routers/projects.py",
        "app/models/project.py",
        "app/schemas/project.py",
        "alembic/versions/0003_project_archived_at.py",
        "tests/test_projects.py",
        "docs/api.md",
    )
    s.drift("app/models/user.py", "app/routers/users.py", "requirements.txt")


# --------------------------------------------------------------------------------------
# 2. Go CLI (cobra): `tasker list --json`
# --------------------------------------------------------------------------------------

_TK_MAIN = _t("""
    package main

    import "example.com/tasker/cmd"

    func main() {
    \tcmd.Execute()
    }
""")

_TK_ROOT = _t("""
    package cmd

    import (
    \t"fmt"
    \t"os"
    \t"path/filepath"

    \t"github.com/spf13/cobra"
    )

    var dataFile string

    var rootCmd = &cobra.Command{
    \tUse:   "tasker",
    \tShort: "A tiny task list for the terminal",
    }

    func Execute() {
    \tif err := rootCmd.Execute(); err != nil {
    \t\tfmt.Fprintln(os.Stderr, err)
    \t\tos.Exit(1)
    \t}
    }

    func init() {
    \thome, _ := os.UserHomeDir()
    \trootCmd.PersistentFlags().StringVar(&dataFile, "file", filepath.Join(home, ".tasker.json"), "where tasks are kept")
    }
""")

_TK_LIST_V1 = _t("""
    package cmd

    import (
    \t"fmt"
    \t"os"
    \t"text/tabwriter"

    \t"example.com/tasker/internal/store"
    \t"github.com/spf13/cobra"
    )

    var showDone bool

    var listCmd = &cobra.Command{
    \tUse:   "list",
    \tShort: "List tasks",
    \tRunE: func(cmd *cobra.Command, args []string) error {
    \t\ttasks, err := store.Load(dataFile)
    \t\tif err != nil {
    \t\t\treturn err
    \t\t}
    \t\tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
    \t\tfmt.Fprintln(w, "ID\\tTITLE\\tDUE\\tDONE")
    \t\tfor _, t := range tasks {
    \t\t\tif t.Done && !showDone {
    \t\t\t\tcontinue
    \t\t\t}
    \t\t\tfmt.Fprintf(w, "%d\\t%s\\t%s\\t%v\\n", t.ID, t.Title, t.Due, t.Done)
    \t\t}
    \t\treturn w.Flush()
    \t},
    }

    func init() {
    \tlistCmd.Flags().BoolVar(&showDone, "all", false, "include finished tasks")
    \trootCmd.AddCommand(listCmd)
    }
""")

_TK_LIST_V0 = _TK_LIST_V1.replace('"ID\\tTITLE\\tDUE\\tDONE"', '"ID\\tTITLE\\tDONE"').replace(
    '"%d\\t%s\\t%s\\t%v\\n", t.ID, t.Title, t.Due, t.Done',
    '"%d\\t%s\\t%v\\n", t.ID, t.Title, t.Done',
)

_TK_LIST_V2 = (
    _TK_LIST_V1.replace('import (\n\t"fmt"', 'import (\n\t"encoding/json"\n\t"fmt"')
    .replace("var showDone bool\n", "var (\n\tshowDone bool\n\tasJSON   bool\n)\n")
    .replace(
        "\t\tw := tabwriter.NewWriter",
        '\t\tvisible := tasks[:0]\n\t\tfor _, t := range tasks {\n\t\t\tif t.Done && !showDone {\n\t\t\t\tcontinue\n\t\t\t}\n\t\t\tvisible = append(visible, t)\n\t\t}\n\t\tif asJSON {\n\t\t\tenc := json.NewEncoder(os.Stdout)\n\t\t\tenc.SetIndent("", "  ")\n\t\t\treturn enc.Encode(visible)\n\t\t}\n\t\tw := tabwriter.NewWriter',
    )
    .replace(
        '\tlistCmd.Flags().BoolVar(&showDone, "all", false, "include finished tasks")\n',
        '\tlistCmd.Flags().BoolVar(&showDone, "all", false, "include finished tasks")\n\tlistCmd.Flags().BoolVar(&asJSON, "json", false, "print tasks as a JSON array")\n',
    )
)

_TK_LIST_TEST = _t("""
    package cmd

    import (
    \t"bytes"
    \t"encoding/json"
    \t"os"
    \t"path/filepath"
    \t"testing"
    )

    func TestListJSON(t *testing.T) {
    \tdir := t.TempDir()
    \tfile := filepath.Join(dir, "tasks.json")
    \tos.WriteFile(file, []byte(`[{"id":1,"title":"water plants","done":false}]`), 0o644)

    \tr, w, _ := os.Pipe()
    \tstdout := os.Stdout
    \tos.Stdout = w
    \trootCmd.SetArgs([]string{"list", "--json", "--file", file})
    \terr := rootCmd.Execute()
    \tw.Close()
    \tos.Stdout = stdout
    \tif err != nil {
    \t\tt.Fatal(err)
    \t}
    \tvar buf bytes.Buffer
    \tbuf.ReadFrom(r)
    \tvar got []map[string]any
    \tif err := json.Unmarshal(buf.Bytes(), &got); err != nil {
    \t\tt.Fatalf("not JSON: %v\\n%s", err, buf.String())
    \t}
    \tif len(got) != 1 || got[0]["title"] != "water plants" {
    \t\tt.Fatalf("unexpected output: %v", got)
    \t}
    }
""")

_TK_ADD_V1 = _t("""
    package cmd

    import (
    \t"strings"

    \t"example.com/tasker/internal/store"
    \t"github.com/spf13/cobra"
    )

    var addCmd = &cobra.Command{
    \tUse:   "add [title]",
    \tShort: "Add a task",
    \tArgs:  cobra.MinimumNArgs(1),
    \tRunE: func(cmd *cobra.Command, args []string) error {
    \t\treturn store.Append(dataFile, strings.Join(args, " "), "")
    \t},
    }

    func init() {
    \trootCmd.AddCommand(addCmd)
    }
""")

_TK_ADD_V2 = (
    _TK_ADD_V1.replace("var addCmd", "var due string\n\nvar addCmd")
    .replace('strings.Join(args, " "), "")', 'strings.Join(args, " "), due)')
    .replace(
        "\trootCmd.AddCommand(addCmd)",
        '\taddCmd.Flags().StringVar(&due, "due", "", "due date, YYYY-MM-DD")\n\trootCmd.AddCommand(addCmd)',
    )
)

_TK_VERSION_V1 = _t("""
    package cmd

    import (
    \t"fmt"

    \t"github.com/spf13/cobra"
    )

    var version = "dev"

    var versionCmd = &cobra.Command{
    \tUse:   "version",
    \tShort: "Print the version",
    \tRun: func(cmd *cobra.Command, args []string) {
    \t\tfmt.Println("tasker", version)
    \t},
    }

    func init() {
    \trootCmd.AddCommand(versionCmd)
    }
""")

_TK_VERSION_V2 = _TK_VERSION_V1.replace(
    'var version = "dev"', 'var (\n\tversion = "dev"\n\tcommit  = "none"\n)'
).replace('fmt.Println("tasker", version)', 'fmt.Printf("tasker %s (%s)\\n", version, commit)')

_TK_STORE_V1 = _t("""
    package store

    import (
    \t"encoding/json"
    \t"errors"
    \t"os"
    )

    type Task struct {
    \tID    int
    \tTitle string
    \tDone  bool
    }

    func Load(path string) ([]Task, error) {
    \tdata, err := os.ReadFile(path)
    \tif errors.Is(err, os.ErrNotExist) {
    \t\treturn nil, nil
    \t}
    \tif err != nil {
    \t\treturn nil, err
    \t}
    \tvar tasks []Task
    \treturn tasks, json.Unmarshal(data, &tasks)
    }

    func Append(path, title, due string) error {
    \ttasks, err := Load(path)
    \tif err != nil {
    \t\treturn err
    \t}
    \ttasks = append(tasks, Task{ID: len(tasks) + 1, Title: title})
    \tdata, _ := json.MarshalIndent(tasks, "", "  ")
    \treturn os.WriteFile(path, data, 0o644)
    }
""")

_TK_STORE_V2 = _TK_STORE_V1.replace(
    "\tTitle string\n\tDone  bool\n", "\tTitle string\n\tDue   string\n\tDone  bool\n"
).replace(
    "Task{ID: len(tasks) + 1, Title: title}", "Task{ID: len(tasks) + 1, Title: title, Due: due}"
)

_TK_STORE_V3 = _TK_STORE_V2.replace(
    "\tID    int\n\tTitle string\n\tDue   string\n\tDone  bool\n",
    '\tID    int    `json:"id"`\n\tTitle string `json:"title"`\n\tDue   string `json:"due,omitempty"`\n\tDone  bool   `json:"done"`\n',
)

_TK_STORE_TEST = _t("""
    package store

    import (
    \t"path/filepath"
    \t"testing"
    )

    func TestAppendThenLoad(t *testing.T) {
    \tfile := filepath.Join(t.TempDir(), "tasks.json")
    \tif err := Append(file, "buy milk", "2024-05-01"); err != nil {
    \t\tt.Fatal(err)
    \t}
    \ttasks, err := Load(file)
    \tif err != nil || len(tasks) != 1 || tasks[0].Due != "2024-05-01" {
    \t\tt.Fatalf("got %v, %v", tasks, err)
    \t}
    }
""")

_TK_LEGACY = _t("""
    package store

    // migrateV1 converted the 0.1 line-per-task format. Kept for users upgrading
    // from 0.1; see the 0.2 release notes.
    func migrateV1(lines []string) []Task {
    \tout := make([]Task, 0, len(lines))
    \tfor i, l := range lines {
    \t\tout = append(out, Task{ID: i + 1, Title: l})
    \t}
    \treturn out
    }
""")

_TK_GOMOD = _t("""
    module example.com/tasker

    go 1.22

    require github.com/spf13/cobra v1.7.0

    require (
    \tgithub.com/inconshreveable/mousetrap v1.1.0 // indirect
    \tgithub.com/spf13/pflag v1.0.5 // indirect
    )
""")

_TK_README_V1 = _t("""
    # tasker

    A tiny task list for the terminal.

    ## Usage

        tasker add water the plants
        tasker list          # open tasks
        tasker list --all    # include finished ones
        tasker version

    Tasks live in `~/.tasker.json`; pass `--file` to use another file.
""")

_TK_README_V2 = _TK_README_V1.replace(
    "    tasker add water the plants\n",
    "    tasker add water the plants --due 2024-06-01\n",
)

_TK_README_V3 = _TK_README_V2.replace(
    "    tasker list --all    # include finished ones\n",
    "    tasker list --all    # include finished ones\n    tasker list --json   # a JSON array, for scripts and jq\n",
)

_TK_CI_V1 = _t("""
    name: ci
    on: [push, pull_request]
    jobs:
      test:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v4
          - uses: actions/setup-go@v5
            with:
              go-version: "1.22"
          - run: go test ./...
""")

_TK_CI_V2 = (
    _TK_CI_V1
    + '      - run: go build -ldflags "-X example.com/tasker/cmd.commit=${GITHUB_SHA::7}" -o tasker .\n'
)


def go_cobra_list_json(s: Scene) -> None:
    """``tasker list --json``: the list command, its new test, JSON tags on the Task
    struct (another folder, never names list.go) and the README usage line are in
    scope. A new default data path in root.go (same folder), deleting an old
    migration helper, and a cobra bump in go.mod are drift; the built binary is
    build output."""
    s.commit(
        "tasker: add, list, version",
        {
            "main.go": _TK_MAIN,
            "cmd/root.go": _TK_ROOT,
            "cmd/list.go": _TK_LIST_V0,
            "cmd/add.go": _TK_ADD_V1,
            "cmd/version.go": _TK_VERSION_V1,
            "internal/store/store.go": _TK_STORE_V1,
            "internal/store/migrate_v1.go": _TK_LEGACY,
            "go.mod": _TK_GOMOD,
            "README.md": _TK_README_V1,
            ".github/workflows/ci.yml": _TK_CI_V1,
        },
        days_ago=95,
    )
    s.commit(
        "add: --due flag",
        {
            "cmd/add.go": _TK_ADD_V2,
            "cmd/list.go": _TK_LIST_V1,
            "internal/store/store.go": _TK_STORE_V2,
            "internal/store/store_test.go": _TK_STORE_TEST,
            "README.md": _TK_README_V2,
        },
        days_ago=41,
    )
    s.commit(
        "version: print the commit too",
        {"cmd/version.go": _TK_VERSION_V2, ".github/workflows/ci.yml": _TK_CI_V2},
        days_ago=9,
    )
    s.intent(
        "add a --json flag to `tasker list` so it prints the tasks as a JSON array instead of the table",
        {"cmd/list.go": "the list command"},
    )
    s.agent(
        {
            "cmd/list.go": _TK_LIST_V2,
            "cmd/list_test.go": _TK_LIST_TEST,
            "internal/store/store.go": _TK_STORE_V3,
            "README.md": _TK_README_V3,
            "cmd/root.go": _TK_ROOT.replace(
                'filepath.Join(home, ".tasker.json")',
                'filepath.Join(home, ".config", "tasker", "tasks.json")',
            ),
            "go.mod": _TK_GOMOD.replace("cobra v1.7.0", "cobra v1.8.1").replace(
                "pflag v1.0.5", "pflag v1.0.6"
            ),
            "tasker": ELF,
        },
        delete=["internal/store/migrate_v1.go"],
    )
    s.fine("cmd/list.go", "cmd/list_test.go", "internal/store/store.go", "README.md")
    s.drift("cmd/root.go", "go.mod", "internal/store/migrate_v1.go")
    s.excluded("tasker")


# --------------------------------------------------------------------------------------
# 3. Ruby on Rails: a welcome email after sign-up
# --------------------------------------------------------------------------------------

_RL_APP_CTRL = _t("""
    class ApplicationController < ActionController::Base
      helper_method :current_user

      def current_user
        @current_user ||= User.find_by(id: session[:user_id])
      end
    end
""")

_RL_REG_V1 = _t("""
    class RegistrationsController < ApplicationController
      def new
        @user = User.new
      end

      def create
        @user = User.new(user_params)
        if @user.save
          session[:user_id] = @user.id
          redirect_to root_path, notice: "Welcome aboard!"
        else
          render :new, status: :unprocessable_entity
        end
      end

      private

      def user_params
        params.require(:user).permit(:name, :email, :password, :password_confirmation)
      end
    end
""")

_RL_REG_V2 = _RL_REG_V1.replace(
    "      session[:user_id] = @user.id\n",
    "      session[:user_id] = @user.id\n      UserMailer.with(user: @user).welcome_email.deliver_later\n",
)

_RL_SESS_V1 = _t("""
    class SessionsController < ApplicationController
      def new
      end

      def create
        user = User.find_by(email: params[:email])
        if user && user.authenticate(params[:password])
          session[:user_id] = user.id
          redirect_to root_path
        else
          flash.now[:alert] = "Invalid email or password"
          render :new, status: :unprocessable_entity
        end
      end

      def destroy
        session.delete(:user_id)
        redirect_to root_path
      end
    end
""")

_RL_SESS_AGENT = _t("""
    class SessionsController < ApplicationController
      def new; end

      def create
        user = User.find_by(email: params[:email])
        if user&.authenticate(params[:password])
          session[:user_id] = user.id
          redirect_to root_path
        else
          flash.now[:alert] = "Invalid email or password"
          render :new, status: :unprocessable_entity
        end
      end

      def destroy
        reset_session
        redirect_to root_path, status: :see_other
      end
    end
""")

_RL_USER = _t("""
    class User < ApplicationRecord
      has_secure_password

      validates :name, presence: true
      validates :email, presence: true, uniqueness: { case_sensitive: false }
    end
""")

_RL_USER_AGENT = _t("""
    class User < ApplicationRecord
      has_secure_password

      normalizes :email, with: ->(email) { email.strip.downcase }

      validates :name, presence: true, length: { maximum: 80 }
      validates :email, presence: true, uniqueness: { case_sensitive: false },
                        format: { with: URI::MailTo::EMAIL_REGEXP }
    end
""")

_RL_APP_MAILER = _t("""
    class ApplicationMailer < ActionMailer::Base
      default from: "Potluck <hello@potluck.example>"
      layout "mailer"
    end
""")

_RL_MAILER_LAYOUT = _t("""
    <!DOCTYPE html>
    <html>
      <head>
        <meta http-equiv="Content-Type" content="text/html; charset=utf-8">
      </head>
      <body style="font-family: sans-serif">
        <%= yield %>
        <p style="color:#888">Potluck &middot; plan meals with friends</p>
      </body>
    </html>
""")

_RL_USER_MAILER = _t("""
    class UserMailer < ApplicationMailer
      def welcome_email
        @user = params[:user]
        mail(to: @user.email, subject: "Welcome to Potluck, #{@user.name}!")
      end
    end
""")

_RL_WELCOME_HTML = _t("""
    <h1>Welcome, <%= @user.name %>!</h1>
    <p>Your Potluck account is ready. Start by creating your first event and inviting a few friends.</p>
    <p><%= link_to "Plan an event", new_event_url %></p>
""")

_RL_WELCOME_TEXT = _t("""
    Welcome, <%= @user.name %>!

    Your Potluck account is ready. Start by creating your first event and inviting a few friends:
    <%= new_event_url %>
""")

_RL_MAILER_TEST = _t("""
    require "test_helper"

    class UserMailerTest < ActionMailer::TestCase
      test "welcome_email" do
        user = users(:ada)
        mail = UserMailer.with(user: user).welcome_email
        assert_equal ["ada@example.com"], mail.to
        assert_match "Welcome, Ada", mail.body.encoded
      end
    end
""")

_RL_MAILER_PREVIEW = _t("""
    # Preview at http://localhost:3000/rails/mailers/user_mailer
    class UserMailerPreview < ActionMailer::Preview
      def welcome_email
        UserMailer.with(user: User.first).welcome_email
      end
    end
""")

_RL_REG_TEST_V1 = _t("""
    require "test_helper"

    class RegistrationsControllerTest < ActionDispatch::IntegrationTest
      test "signs up and logs in" do
        post signup_path, params: { user: { name: "Bo", email: "bo@example.com", password: "secret123", password_confirmation: "secret123" } }
        assert_redirected_to root_path
        assert_equal User.find_by(email: "bo@example.com").id, session[:user_id]
      end
    end
""")

_RL_REG_TEST_V2 = _RL_REG_TEST_V1.replace(
    '  test "signs up and logs in" do\n    post',
    '  include ActionMailer::TestHelper\n\n  test "signs up, logs in and gets a welcome email" do\n    assert_enqueued_emails 1 do\n      post',
).replace(
    "    assert_redirected_to root_path\n",
    "    end\n    assert_redirected_to root_path\n",
)

_RL_ROUTES_V1 = _t("""
    Rails.application.routes.draw do
      root "events#index"
      resources :events
    end
""")

_RL_ROUTES_V2 = _t("""
    Rails.application.routes.draw do
      root "events#index"
      resources :events

      get "signup", to: "registrations#new"
      post "signup", to: "registrations#create"
      get "login", to: "sessions#new"
      post "login", to: "sessions#create"
      delete "logout", to: "sessions#destroy"
    end
""")

_RL_LOG = (
    'Started POST "/signup" for 127.0.0.1 at 2024-05-02 10:14:03 +0200\n'
    "Processing by RegistrationsController#create as HTML\n"
    '  User Create (0.4ms)  INSERT INTO "users" ("name", "email") VALUES (?, ?)\n'
    "[ActiveJob] Enqueued ActionMailer::MailDeliveryJob (Job ID: 3f1c) to Async(default)\n"
    "Redirected to http://www.example.com/\n"
    "Completed 302 Found in 41ms\n"
)


def rails_welcome_email(s: Scene) -> None:
    """A welcome email on sign-up: the registrations controller, a new UserMailer with
    its two views (another folder), a mailer test and preview, and the controller test
    are in scope. Restyling the sibling sessions controller (changed together with it
    before) and new validations on User are drift; the test log is output."""
    s.commit(
        "Potluck: events",
        {
            "app/controllers/application_controller.rb": _RL_APP_CTRL,
            "app/models/user.rb": _RL_USER,
            "config/routes.rb": _RL_ROUTES_V1,
        },
        days_ago=120,
    )
    s.commit(
        "Sign up and sign in",
        {
            "app/controllers/registrations_controller.rb": _RL_REG_V1,
            "app/controllers/sessions_controller.rb": _RL_SESS_V1,
            "test/controllers/registrations_controller_test.rb": _RL_REG_TEST_V1,
            "config/routes.rb": _RL_ROUTES_V2,
        },
        days_ago=48,
    )
    s.commit(
        "Mailer layout",
        {
            "app/mailers/application_mailer.rb": _RL_APP_MAILER,
            "app/views/layouts/mailer.html.erb": _RL_MAILER_LAYOUT,
        },
        days_ago=13,
    )
    s.intent(
        "send a welcome email when someone signs up",
        {"app/controllers/registrations_controller.rb": "sign-up happens in create"},
    )
    s.agent(
        {
            "app/controllers/registrations_controller.rb": _RL_REG_V2,
            "app/mailers/user_mailer.rb": _RL_USER_MAILER,
            "app/views/user_mailer/welcome_email.html.erb": _RL_WELCOME_HTML,
            "app/views/user_mailer/welcome_email.text.erb": _RL_WELCOME_TEXT,
            "test/mailers/user_mailer_test.rb": _RL_MAILER_TEST,
            "test/mailers/previews/user_mailer_preview.rb": _RL_MAILER_PREVIEW,
            "test/controllers/registrations_controller_test.rb": _RL_REG_TEST_V2,
        }
    )
    mid = s.checkpoint("welcome email works, tests pass")
    s.agent(
        {
            "app/controllers/sessions_controller.rb": _RL_SESS_AGENT,
            "app/models/user.rb": _RL_USER_AGENT,
            "log/test.log": _RL_LOG,
        }
    )
    s.safe_checkpoint(mid)
    s.fine(
        "app/controllers/registrations_controller.rb",
        "app/mailers/user_mailer.rb",
        "app/views/user_mailer/welcome_email.html.erb",
        "app/views/user_mailer/welcome_email.text.erb",
        "test/mailers/user_mailer_test.rb",
        "test/mailers/previews/user_mailer_preview.rb",
        "test/controllers/registrations_controller_test.rb",
    )
    s.drift("app/controllers/sessions_controller.rb", "app/models/user.rb")
    s.excluded("log/test.log")


# --------------------------------------------------------------------------------------
# 4. Terraform + modules: versioning and expiry on the prod logs bucket
# --------------------------------------------------------------------------------------

_TF_MOD_MAIN_V1 = _t("""
    resource "aws_s3_bucket" "this" {
      bucket = var.name
      tags   = var.tags
    }

    resource "aws_s3_bucket_public_access_block" "this" {
      bucket                  = aws_s3_bucket.this.id
      block_public_acls       = true
      block_public_policy     = true
      ignore_public_acls      = true
      restrict_public_buckets = true
    }
""")

_TF_MOD_MAIN_V2 = _TF_MOD_MAIN_V1 + _t("""

    resource "aws_s3_bucket_server_side_encryption_configuration" "this" {
      bucket = aws_s3_bucket.this.id
      rule {
        apply_server_side_encryption_by_default {
          sse_algorithm     = var.kms_key_arn == null ? "AES256" : "aws:kms"
          kms_master_key_id = var.kms_key_arn
        }
      }
    }
""")

_TF_MOD_MAIN_V3 = _TF_MOD_MAIN_V2 + _t("""

    resource "aws_s3_bucket_versioning" "this" {
      bucket = aws_s3_bucket.this.id
      versioning_configuration {
        status = var.versioning_enabled ? "Enabled" : "Suspended"
      }
    }

    resource "aws_s3_bucket_lifecycle_configuration" "this" {
      count  = var.expiration_days == null ? 0 : 1
      bucket = aws_s3_bucket.this.id

      rule {
        id     = "expire-old-objects"
        status = "Enabled"
        filter {}

        expiration {
          days = var.expiration_days
        }

        noncurrent_version_expiration {
          noncurrent_days = var.expiration_days
        }
      }
    }
""")

_TF_MOD_VARS_V1 = _t("""
    variable "name" {
      type        = string
      description = "Bucket name."
    }

    variable "tags" {
      type    = map(string)
      default = {}
    }
""")

_TF_MOD_VARS_V2 = _TF_MOD_VARS_V1 + _t("""

    variable "kms_key_arn" {
      type        = string
      default     = null
      description = "KMS key for server-side encryption; AES256 when null."
    }
""")

_TF_MOD_VARS_V3 = _TF_MOD_VARS_V2 + _t("""

    variable "versioning_enabled" {
      type        = bool
      default     = false
      description = "Keep old versions of overwritten or deleted objects."
    }

    variable "expiration_days" {
      type        = number
      default     = null
      description = "Expire objects (and old versions) after this many days; never when null."
    }
""")

_TF_MOD_OUT = _t("""
    output "arn" {
      value = aws_s3_bucket.this.arn
    }

    output "id" {
      value = aws_s3_bucket.this.id
    }
""")

_TF_MOD_README_V1 = _t("""
    # s3_bucket

    A private S3 bucket with public access blocked.

    | input         | type        | default | meaning                                  |
    |---------------|-------------|---------|------------------------------------------|
    | `name`        | string      | —       | bucket name                              |
    | `tags`        | map(string) | `{}`    | tags on the bucket                       |
    | `kms_key_arn` | string      | `null`  | KMS key for encryption; AES256 when null |
""")

_TF_MOD_README_V2 = _TF_MOD_README_V1 + (
    "| `versioning_enabled` | bool | `false` | keep old versions of objects |\n"
    "| `expiration_days` | number | `null` | expire objects and old versions after N days |\n"
)

_TF_PROD_MAIN_V1 = _t("""
    module "logs_bucket" {
      source = "../../modules/s3_bucket"
      name   = "acme-prod-logs"
      tags   = { env = "prod", team = "platform" }
    }

    module "assets_bucket" {
      source = "../../modules/s3_bucket"
      name   = "acme-prod-assets"
      tags   = { env = "prod", team = "web" }
    }
""")

_TF_PROD_MAIN_V2 = _TF_PROD_MAIN_V1.replace(
    '  name   = "acme-prod-logs"\n  tags   = { env = "prod", team = "platform" }\n',
    '  name   = "acme-prod-logs"\n  tags   = { env = "prod", team = "platform" }\n\n  kms_key_arn = "arn:aws:kms:eu-west-1:111122223333:key/logs"\n',
)

_TF_PROD_MAIN_V3 = _TF_PROD_MAIN_V2.replace(
    '  kms_key_arn = "arn:aws:kms:eu-west-1:111122223333:key/logs"\n',
    '  kms_key_arn        = "arn:aws:kms:eu-west-1:111122223333:key/logs"\n  versioning_enabled = true\n  expiration_days    = 90\n',
)

_TF_PROD_PROVIDERS_V1 = _t("""
    terraform {
      required_version = ">= 1.5"
      required_providers {
        aws = {
          source  = "hashicorp/aws"
          version = "~> 5.20"
        }
      }
      backend "s3" {
        bucket = "acme-terraform-state"
        key    = "prod/terraform.tfstate"
        region = "eu-west-1"
      }
    }

    provider "aws" {
      region = "eu-west-1"
    }
""")

_TF_PROD_PROVIDERS_V2 = _TF_PROD_PROVIDERS_V1.replace('"~> 5.20"', '"~> 5.31"')

_TF_STAGING_MAIN_V1 = _t("""
    module "logs_bucket" {
      source = "../../modules/s3_bucket"
      name   = "acme-staging-logs"
      tags   = { env = "staging", team = "platform" }
    }
""")

_TF_STAGING_MAIN_V2 = _TF_STAGING_MAIN_V1.replace(
    '  tags   = { env = "staging", team = "platform" }\n',
    '  tags   = { env = "staging", team = "platform" }\n\n  kms_key_arn = "arn:aws:kms:eu-west-1:111122223333:key/staging-logs"\n',
)

_TF_STAGING_MAIN_AGENT = _TF_STAGING_MAIN_V2.replace(
    '  kms_key_arn = "arn:aws:kms:eu-west-1:111122223333:key/staging-logs"\n',
    '  kms_key_arn        = "arn:aws:kms:eu-west-1:111122223333:key/staging-logs"\n  versioning_enabled = true\n  expiration_days    = 30\n',
)

_TF_WORKFLOW = _t("""
    name: terraform
    on:
      pull_request:
        paths: ["envs/**", "modules/**"]
    jobs:
      plan:
        runs-on: ubuntu-latest
        strategy:
          matrix:
            env: [staging, prod]
        steps:
          - uses: actions/checkout@v4
          - uses: hashicorp/setup-terraform@v2
            with:
              terraform_version: 1.6.6
          - run: terraform -chdir=envs/${{ matrix.env }} init -input=false
          - run: terraform -chdir=envs/${{ matrix.env }} plan -input=false -no-color
""")

#: ``terraform plan -out=tfplan`` writes a zip archive.
_TF_PLAN = b"PK\x03\x04\x14\x00\x08\x00\x08\x00" + b"tfplan" + bytes(range(48))


def terraform_prod_logs_bucket(s: Scene) -> None:
    """Versioning and 90-day expiry for the prod logs bucket: the prod env file, the
    module's main.tf and variables.tf (another folder, never names the env) and the
    module README's inputs table are in scope. Turning the same on in staging (the
    user said prod), an AWS provider bump next to the explicit file and a setup-
    terraform bump in CI are drift; the saved plan is output."""
    s.commit(
        "s3_bucket module; prod and staging buckets",
        {
            "modules/s3_bucket/main.tf": _TF_MOD_MAIN_V1,
            "modules/s3_bucket/variables.tf": _TF_MOD_VARS_V1,
            "modules/s3_bucket/outputs.tf": _TF_MOD_OUT,
            "modules/s3_bucket/README.md": _TF_MOD_README_V1.replace(
                "| `kms_key_arn` | string      | `null`  | KMS key for encryption; AES256 when null |\n",
                "",
            ),
            "envs/prod/main.tf": _TF_PROD_MAIN_V1,
            "envs/prod/providers.tf": _TF_PROD_PROVIDERS_V1,
            "envs/staging/main.tf": _TF_STAGING_MAIN_V1,
            ".github/workflows/terraform.yml": _TF_WORKFLOW,
        },
        days_ago=82,
    )
    s.commit(
        "s3_bucket: KMS encryption for the logs buckets",
        {
            "modules/s3_bucket/main.tf": _TF_MOD_MAIN_V2,
            "modules/s3_bucket/variables.tf": _TF_MOD_VARS_V2,
            "modules/s3_bucket/README.md": _TF_MOD_README_V1,
            "envs/prod/main.tf": _TF_PROD_MAIN_V2,
            "envs/staging/main.tf": _TF_STAGING_MAIN_V2,
        },
        days_ago=30,
    )
    s.commit(
        "prod: aws provider ~> 5.31",
        {"envs/prod/providers.tf": _TF_PROD_PROVIDERS_V2},
        days_ago=6,
    )
    s.intent(
        "turn on versioning for the prod logs bucket and expire old objects after 90 days",
        {"envs/prod/main.tf": "the prod logs bucket"},
    )
    s.agent(
        {
            "envs/prod/main.tf": _TF_PROD_MAIN_V3,
            "modules/s3_bucket/main.tf": _TF_MOD_MAIN_V3,
            "modules/s3_bucket/variables.tf": _TF_MOD_VARS_V3,
            "modules/s3_bucket/README.md": _TF_MOD_README_V2,
            "envs/staging/main.tf": _TF_STAGING_MAIN_AGENT,
            "envs/prod/providers.tf": _TF_PROD_PROVIDERS_V2.replace(
                '"~> 5.31"', '"~> 5.60"'
            ).replace('">= 1.5"', '">= 1.7"'),
            ".github/workflows/terraform.yml": _TF_WORKFLOW.replace(
                "setup-terraform@v2", "setup-terraform@v3"
            ).replace("1.6.6", "1.8.5"),
            "envs/prod/tfplan": _TF_PLAN,
        }
    )
    s.fine(
        "envs/prod/main.tf",
        "modules/s3_bucket/main.tf",
        "modules/s3_bucket/variables.tf",
        "modules/s3_bucket/README.md",
    )
    s.drift("envs/staging/main.tf", "envs/prod/providers.tf", ".github/workflows/terraform.yml")
    s.excluded("envs/prod/tfplan")


# --------------------------------------------------------------------------------------
# 5. Next.js app router: a notifications section in settings
# --------------------------------------------------------------------------------------

_NX_ROOT_LAYOUT = _t("""
    export const metadata = { title: "Hearth" };

    export default function RootLayout({ children }: { children: React.ReactNode }) {
      return (
        <html lang="en">
          <body>{children}</body>
        </html>
      );
    }
""")

_NX_SETTINGS_LAYOUT = _t("""
    import SettingsNav from "@/components/SettingsNav";

    export default function SettingsLayout({ children }: { children: React.ReactNode }) {
      return (
        <div className="settings">
          <SettingsNav />
          <section className="settings-body">{children}</section>
        </div>
      );
    }
""")

_NX_NAV_V1 = _t("""
    "use client";

    import Link from "next/link";
    import { usePathname } from "next/navigation";

    const sections = [{ href: "/settings/profile", label: "Profile" }];

    export default function SettingsNav() {
      const pathname = usePathname();
      return (
        <nav aria-label="Settings">
          {sections.map((s) => (
            <Link key={s.href} href={s.href} aria-current={pathname === s.href ? "page" : undefined}>
              {s.label}
            </Link>
          ))}
        </nav>
      );
    }
""")

_NX_NAV_V2 = _NX_NAV_V1.replace(
    'const sections = [{ href: "/settings/profile", label: "Profile" }];',
    'const sections = [\n  { href: "/settings/profile", label: "Profile" },\n  { href: "/settings/notifications", label: "Notifications" },\n];',
)

_NX_AVATAR = _t("""
    import Image from "next/image";

    export default function Avatar({ src, name, size = 32 }: { src?: string; name: string; size?: number }) {
      if (!src) {
        return <span className="avatar-fallback" style={{ width: size, height: size }}>{name[0]}</span>;
      }
      return <Image src={src} alt={name} width={size} height={size} className="avatar" />;
    }
""")

_NX_AVATAR_AGENT = _t("""
    import Image from "next/image";

    type AvatarProps = {
      src?: string;
      name: string;
      size?: number;
    };

    const Avatar = ({ src, name, size = 32 }: AvatarProps) =>
      src ? (
        <Image src={src} alt={name} width={size} height={size} className="avatar" />
      ) : (
        <span className="avatar-fallback" style={{ width: size, height: size }}>
          {name.charAt(0).toUpperCase()}
        </span>
      );

    export default Avatar;
""")

_NX_PROFILE_PAGE = _t("""
    import { getCurrentUser } from "@/lib/session";
    import Avatar from "@/components/Avatar";

    export default async function ProfilePage() {
      const user = await getCurrentUser();
      return (
        <form action="/api/profile" method="post">
          <Avatar src={user.image ?? undefined} name={user.name} size={64} />
          <label>
            Display name
            <input name="name" defaultValue={user.name} maxLength={50} />
          </label>
          <button type="submit">Save</button>
        </form>
      );
    }
""")

_NX_PROFILE_ROUTE = _t("""
    import { NextResponse } from "next/server";
    import { prisma } from "@/lib/db";
    import { getCurrentUser } from "@/lib/session";

    export async function POST(req: Request) {
      const user = await getCurrentUser();
      const form = await req.formData();
      await prisma.user.update({ where: { id: user.id }, data: { name: String(form.get("name")) } });
      return NextResponse.redirect(new URL("/settings/profile", req.url), 303);
    }
""")

_NX_SESSION = _t("""
    import { cookies } from "next/headers";
    import { prisma } from "@/lib/db";

    export async function getCurrentUser() {
      const id = cookies().get("uid")?.value;
      if (!id) throw new Error("not signed in");
      return prisma.user.findUniqueOrThrow({ where: { id } });
    }
""")

_NX_DB = _t("""
    import { PrismaClient } from "@prisma/client";

    const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };

    export const prisma = globalForPrisma.prisma ?? new PrismaClient();
    if (process.env.NODE_ENV !== "production") globalForPrisma.prisma = prisma;
""")

_NX_SCHEMA_V1 = _t("""
    generator client {
      provider = "prisma-client-js"
    }

    datasource db {
      provider = "postgresql"
      url      = env("DATABASE_URL")
    }

    model User {
      id        String   @id @default(cuid())
      email     String   @unique
      name      String
      image     String?
      createdAt DateTime @default(now())
    }
""")

_NX_SCHEMA_V2 = _NX_SCHEMA_V1.replace(
    "  image     String?\n",
    "  image     String?\n  weeklyDigest Boolean @default(true)\n",
)

_NX_MIGRATION = _t("""
    -- AlterTable
    ALTER TABLE "User" ADD COLUMN "weeklyDigest" BOOLEAN NOT NULL DEFAULT true;
""")

_NX_NOTIF_PAGE = _t("""
    import { getCurrentUser } from "@/lib/session";

    export default async function NotificationsPage() {
      const user = await getCurrentUser();
      return (
        <form action="/api/preferences" method="post">
          <h2>Email</h2>
          <label>
            <input type="checkbox" name="weeklyDigest" defaultChecked={user.weeklyDigest} />
            Send me a weekly digest of activity
          </label>
          <button type="submit">Save</button>
        </form>
      );
    }
""")

_NX_PREFS_ROUTE = _t("""
    import { NextResponse } from "next/server";
    import { prisma } from "@/lib/db";
    import { getCurrentUser } from "@/lib/session";

    export async function POST(req: Request) {
      const user = await getCurrentUser();
      const form = await req.formData();
      await prisma.user.update({
        where: { id: user.id },
        data: { weeklyDigest: form.get("weeklyDigest") === "on" },
      });
      return NextResponse.redirect(new URL("/settings/notifications", req.url), 303);
    }
""")

_NX_NEXT_CONFIG = _t("""
    /** @type {import('next').NextConfig} */
    const nextConfig = {
      reactStrictMode: true,
    };

    export default nextConfig;
""")

_NX_NEXT_CONFIG_AGENT = _t("""
    /** @type {import('next').NextConfig} */
    const nextConfig = {
      reactStrictMode: true,
      poweredByHeader: false,
      images: {
        remotePatterns: [{ protocol: "https", hostname: "**.googleusercontent.com" }],
      },
    };

    export default nextConfig;
""")

_NX_PACKAGE = _t("""
    {
      "name": "hearth",
      "private": true,
      "scripts": {
        "dev": "next dev",
        "build": "next build",
        "start": "next start",
        "lint": "next lint"
      },
      "dependencies": {
        "@prisma/client": "5.10.2",
        "next": "14.1.0",
        "react": "18.2.0",
        "react-dom": "18.2.0"
      },
      "devDependencies": {
        "prisma": "5.10.2",
        "typescript": "5.3.3"
      }
    }
""")


def nextjs_notification_settings(s: Scene) -> None:
    """A notifications section in settings: the nav link (explicit), the new page, a
    new API route (another folder, never names the nav), the Prisma field and its
    migration are in scope. Rewriting the Avatar component next to the nav, new image
    settings in next.config and a Next.js bump in package.json are drift."""
    s.commit(
        "Hearth: app shell, prisma",
        {
            "app/layout.tsx": _NX_ROOT_LAYOUT,
            "lib/db.ts": _NX_DB,
            "lib/session.ts": _NX_SESSION,
            "prisma/schema.prisma": _NX_SCHEMA_V1,
            "next.config.mjs": _NX_NEXT_CONFIG,
            "package.json": _NX_PACKAGE,
            "components/Avatar.tsx": _NX_AVATAR,
        },
        days_ago=70,
    )
    s.commit(
        "Settings: profile page",
        {
            "app/settings/layout.tsx": _NX_SETTINGS_LAYOUT,
            "app/settings/profile/page.tsx": _NX_PROFILE_PAGE,
            "app/api/profile/route.ts": _NX_PROFILE_ROUTE,
            "components/SettingsNav.tsx": _NX_NAV_V1,
        },
        days_ago=19,
    )
    s.intent(
        "add a Notifications section under settings where users can switch the weekly email digest on or off",
        {"components/SettingsNav.tsx": "the settings sidebar; the new section needs a link here"},
    )
    s.agent(
        {
            "components/SettingsNav.tsx": _NX_NAV_V2,
            "app/settings/notifications/page.tsx": _NX_NOTIF_PAGE,
            "app/api/preferences/route.ts": _NX_PREFS_ROUTE,
            "prisma/schema.prisma": _NX_SCHEMA_V2,
            "prisma/migrations/20240502101500_weekly_digest/migration.sql": _NX_MIGRATION,
            "components/Avatar.tsx": _NX_AVATAR_AGENT,
            "next.config.mjs": _NX_NEXT_CONFIG_AGENT,
            "package.json": _NX_PACKAGE.replace('"next": "14.1.0"', '"next": "14.2.3"'),
        }
    )
    s.fine(
        "components/SettingsNav.tsx",
        "app/settings/notifications/page.tsx",
        "app/api/preferences/route.ts",
        "prisma/schema.prisma",
        "prisma/migrations/20240502101500_weekly_digest/migration.sql",
    )
    s.drift("components/Avatar.tsx", "next.config.mjs", "package.json")


# --------------------------------------------------------------------------------------
# 6. Kubernetes kustomize: api memory limit and an HPA in prod
# --------------------------------------------------------------------------------------

_K8_BASE_KUST = _t("""
    apiVersion: kustomize.config.k8s.io/v1beta1
    kind: Kustomization
    resources:
      - api-deployment.yaml
      - api-service.yaml
      - worker-deployment.yaml
""")

_K8_API_DEPLOY = _t("""
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: api
    spec:
      replicas: 2
      selector:
        matchLabels: { app: api }
      template:
        metadata:
          labels: { app: api }
        spec:
          containers:
            - name: api
              image: ghcr.io/acme/orders-api:2.3.1
              ports:
                - containerPort: 8080
              readinessProbe:
                httpGet: { path: /healthz, port: 8080 }
""")

_K8_WORKER_DEPLOY = _t("""
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: worker
    spec:
      replicas: 1
      selector:
        matchLabels: { app: worker }
      template:
        metadata:
          labels: { app: worker }
        spec:
          containers:
            - name: worker
              image: ghcr.io/acme/orders-worker:2.3.1
              args: ["--queue", "orders"]
""")

_K8_API_SVC = _t("""
    apiVersion: v1
    kind: Service
    metadata:
      name: api
    spec:
      selector: { app: api }
      ports:
        - port: 80
          targetPort: 8080
""")

_K8_STAGING_KUST = _t("""
    apiVersion: kustomize.config.k8s.io/v1beta1
    kind: Kustomization
    namespace: orders-staging
    resources:
      - ../../base
    patches:
      - path: replicas-patch.yaml
""")

_K8_STAGING_REPLICAS = _t("""
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: api
    spec:
      replicas: 1
""")

_K8_PROD_KUST_V1 = _t("""
    apiVersion: kustomize.config.k8s.io/v1beta1
    kind: Kustomization
    namespace: orders-prod
    resources:
      - ../../base
""")

_K8_PROD_KUST_V2 = _K8_PROD_KUST_V1 + _t("""
    patches:
      - path: api-resources-patch.yaml
      - path: worker-resources-patch.yaml
""")

_K8_PROD_KUST_V3 = _K8_PROD_KUST_V2.replace(
    "  - ../../base\n", "  - ../../base\n  - api-hpa.yaml\n"
)

_K8_API_PATCH_V1 = _t("""
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: api
    spec:
      replicas: 3
      template:
        spec:
          containers:
            - name: api
              resources:
                requests: { cpu: 250m, memory: 256Mi }
                limits: { cpu: "1", memory: 512Mi }
""")

_K8_API_PATCH_V2 = _t("""
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: api
    spec:
      template:
        spec:
          containers:
            - name: api
              resources:
                requests: { cpu: 250m, memory: 512Mi }
                limits: { cpu: "1", memory: 1Gi }
""")

_K8_WORKER_PATCH_V1 = _t("""
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: worker
    spec:
      template:
        spec:
          containers:
            - name: worker
              resources:
                requests: { cpu: 100m, memory: 128Mi }
                limits: { cpu: 500m, memory: 256Mi }
""")

_K8_HPA = _t("""
    apiVersion: autoscaling/v2
    kind: HorizontalPodAutoscaler
    metadata:
      name: api
    spec:
      scaleTargetRef:
        apiVersion: apps/v1
        kind: Deployment
        name: api
      minReplicas: 3
      maxReplicas: 10
      metrics:
        - type: Resource
          resource:
            name: cpu
            target:
              type: Utilization
              averageUtilization: 70
""")

_K8_README_V1 = _t("""
    # orders deploy

    `kubectl apply -k overlays/<env>`

    | env     | namespace      | api replicas | notes                      |
    |---------|----------------|--------------|----------------------------|
    | staging | orders-staging | 1            |                            |
    | prod    | orders-prod    | 3            | resource limits in patches |
""")

_K8_README_V2 = _K8_README_V1.replace(
    "| prod    | orders-prod    | 3            | resource limits in patches |",
    "| prod    | orders-prod    | 3-10 (HPA)   | resource limits in patches; api scales on CPU at 70% |",
)


def kustomize_prod_api_oom(s: Scene) -> None:
    """Prod api OOMs: the api resources patch (explicit), a new HPA and its entry in
    the prod kustomization, and the README's environment table are in scope. Raising
    the worker's limits in the same folder (changed together with the api patch
    before) and bumping staging's replicas are drift."""
    s.commit(
        "orders: base and overlays",
        {
            "base/kustomization.yaml": _K8_BASE_KUST,
            "base/api-deployment.yaml": _K8_API_DEPLOY.replace("2.3.1", "2.2.0"),
            "base/api-service.yaml": _K8_API_SVC,
            "base/worker-deployment.yaml": _K8_WORKER_DEPLOY.replace("2.3.1", "2.2.0"),
            "overlays/staging/kustomization.yaml": _K8_STAGING_KUST,
            "overlays/staging/replicas-patch.yaml": _K8_STAGING_REPLICAS,
            "overlays/prod/kustomization.yaml": _K8_PROD_KUST_V1,
            "README.md": _K8_README_V1.replace(
                " resource limits in patches |", "                            |"
            ),
        },
        days_ago=101,
    )
    s.commit(
        "prod: resource requests and limits for api and worker",
        {
            "overlays/prod/kustomization.yaml": _K8_PROD_KUST_V2,
            "overlays/prod/api-resources-patch.yaml": _K8_API_PATCH_V1,
            "overlays/prod/worker-resources-patch.yaml": _K8_WORKER_PATCH_V1,
            "README.md": _K8_README_V1,
        },
        days_ago=36,
    )
    s.commit(
        "images: 2.3.1",
        {
            "base/api-deployment.yaml": _K8_API_DEPLOY,
            "base/worker-deployment.yaml": _K8_WORKER_DEPLOY,
        },
        days_ago=11,
    )
    s.intent(
        "the api pods in prod keep getting OOMKilled: raise their memory limit to 1Gi and add an HPA so the api scales between 3 and 10 replicas on CPU",
        {"overlays/prod/api-resources-patch.yaml": "prod api resources"},
    )
    s.agent(
        {
            "overlays/prod/api-resources-patch.yaml": _K8_API_PATCH_V2,
            "overlays/prod/api-hpa.yaml": _K8_HPA,
            "overlays/prod/kustomization.yaml": _K8_PROD_KUST_V3,
            "README.md": _K8_README_V2,
            "overlays/prod/worker-resources-patch.yaml": _K8_WORKER_PATCH_V1.replace(
                "requests: { cpu: 100m, memory: 128Mi }", "requests: { cpu: 100m, memory: 256Mi }"
            ).replace(
                "limits: { cpu: 500m, memory: 256Mi }", "limits: { cpu: 500m, memory: 512Mi }"
            ),
            "overlays/staging/replicas-patch.yaml": _K8_STAGING_REPLICAS.replace(
                "replicas: 1", "replicas: 2"
            ),
        }
    )
    s.fine(
        "overlays/prod/api-resources-patch.yaml",
        "overlays/prod/api-hpa.yaml",
        "overlays/prod/kustomization.yaml",
        "README.md",
    )
    s.drift("overlays/prod/worker-resources-patch.yaml", "overlays/staging/replicas-patch.yaml")


# --------------------------------------------------------------------------------------
# 7. Elixir Phoenix LiveView: live search on the products page
# --------------------------------------------------------------------------------------

_PX_MIX = _t("""
    defmodule Shop.MixProject do
      use Mix.Project

      def project do
        [app: :shop, version: "0.4.0", elixir: "~> 1.15", deps: deps()]
      end

      def application do
        [mod: {Shop.Application, []}, extra_applications: [:logger]]
      end

      defp deps do
        [
          {:phoenix, "~> 1.7.10"},
          {:phoenix_live_view, "~> 0.20.1"},
          {:phoenix_ecto, "~> 4.4"},
          {:ecto_sql, "~> 3.10"},
          {:postgrex, ">= 0.0.0"},
          {:floki, ">= 0.30.0", only: :test}
        ]
      end
    end
""")

_PX_DEV = _t("""
    import Config

    config :shop, Shop.Repo,
      username: "postgres",
      password: "postgres",
      hostname: "localhost",
      database: "shop_dev",
      pool_size: 10

    config :shop, ShopWeb.Endpoint,
      http: [ip: {127, 0, 0, 1}, port: 4000],
      check_origin: false,
      code_reloader: true,
      debug_errors: true
""")

_PX_CATALOG_V1 = _t("""
    defmodule Shop.Catalog do
      import Ecto.Query, warn: false
      alias Shop.Repo
      alias Shop.Catalog.Product

      def list_products do
        Repo.all(from p in Product, order_by: p.name)
      end

      def get_product!(id), do: Repo.get!(Product, id)
    end
""")

_PX_CATALOG_V2 = _t("""
    defmodule Shop.Catalog do
      import Ecto.Query, warn: false
      alias Shop.Repo
      alias Shop.Catalog.Product

      @per_page 24

      def list_products(opts \\\\ []) do
        page = Keyword.get(opts, :page, 1)

        from(p in Product, order_by: p.name)
        |> limit(@per_page)
        |> offset(^((page - 1) * @per_page))
        |> Repo.all()
      end

      def get_product!(id), do: Repo.get!(Product, id)
    end
""")

_PX_CATALOG_V3 = _t("""
    defmodule Shop.Catalog do
      import Ecto.Query, warn: false
      alias Shop.Repo
      alias Shop.Catalog.Product

      @per_page 24

      def list_products(opts \\\\ []) do
        page = Keyword.get(opts, :page, 1)

        from(p in Product, order_by: p.name)
        |> filter_by_name(Keyword.get(opts, :search))
        |> limit(@per_page)
        |> offset(^((page - 1) * @per_page))
        |> Repo.all()
      end

      def get_product!(id), do: Repo.get!(Product, id)

      defp filter_by_name(query, nil), do: query
      defp filter_by_name(query, ""), do: query

      defp filter_by_name(query, term) do
        pattern = "%" <> String.replace(term, ~r/[%_\\\\]/, "\\\\\\\\\\\\0") <> "%"
        where(query, [p], ilike(p.name, ^pattern))
      end
    end
""")

_PX_PRODUCT = _t("""
    defmodule Shop.Catalog.Product do
      use Ecto.Schema
      import Ecto.Changeset

      schema "products" do
        field :name, :string
        field :price_cents, :integer
        field :description, :string
        timestamps()
      end

      def changeset(product, attrs) do
        product
        |> cast(attrs, [:name, :price_cents, :description])
        |> validate_required([:name, :price_cents])
      end
    end
""")

_PX_INDEX_V1 = _t("""
    defmodule ShopWeb.ProductLive.Index do
      use ShopWeb, :live_view
      alias Shop.Catalog

      @impl true
      def mount(_params, _session, socket) do
        {:ok, assign(socket, :products, Catalog.list_products())}
      end
    end
""")

_PX_INDEX_V2 = _t("""
    defmodule ShopWeb.ProductLive.Index do
      use ShopWeb, :live_view
      alias Shop.Catalog

      @impl true
      def mount(_params, _session, socket) do
        {:ok, socket}
      end

      @impl true
      def handle_params(params, _uri, socket) do
        page = String.to_integer(params["page"] || "1")
        {:noreply, assign(socket, page: page, products: Catalog.list_products(page: page))}
      end
    end
""")

_PX_INDEX_V3 = _t("""
    defmodule ShopWeb.ProductLive.Index do
      use ShopWeb, :live_view
      alias Shop.Catalog

      @impl true
      def mount(_params, _session, socket) do
        {:ok, assign(socket, :search, "")}
      end

      @impl true
      def handle_params(params, _uri, socket) do
        page = String.to_integer(params["page"] || "1")
        search = params["q"] || ""

        {:noreply,
         assign(socket,
           page: page,
           search: search,
           products: Catalog.list_products(page: page, search: search)
         )}
      end

      @impl true
      def handle_event("search", %{"q" => q}, socket) do
        {:noreply, push_patch(socket, to: ~p"/products?#{[q: q]}")}
      end
    end
""")

_PX_INDEX_HEEX_V1 = _t("""
    <.header>Products</.header>

    <ul class="product-grid">
      <li :for={product <- @products}>
        <.link navigate={~p"/products/#{product}"}><%= product.name %></.link>
      </li>
    </ul>
""")

_PX_INDEX_HEEX_V2 = _PX_INDEX_HEEX_V1 + _t("""

    <nav class="pager">
      <.link :if={@page > 1} patch={~p"/products?#{[page: @page - 1]}"}>Previous</.link>
      <.link patch={~p"/products?#{[page: @page + 1]}"}>Next</.link>
    </nav>
""")

_PX_INDEX_HEEX_V3 = _PX_INDEX_HEEX_V2.replace(
    "<.header>Products</.header>\n",
    '<.header>Products</.header>\n\n<form phx-change="search" phx-submit="search" class="product-search">\n  <input type="search" name="q" value={@search} placeholder="Search products" phx-debounce="300" autocomplete="off" />\n</form>\n',
).replace(
    '<.link :if={@page > 1} patch={~p"/products?#{[page: @page - 1]}"}>Previous</.link>\n  <.link patch={~p"/products?#{[page: @page + 1]}"}>Next</.link>',
    '<.link :if={@page > 1} patch={~p"/products?#{[page: @page - 1, q: @search]}"}>Previous</.link>\n  <.link patch={~p"/products?#{[page: @page + 1, q: @search]}"}>Next</.link>',
)

_PX_SHOW_V1 = _t("""
    defmodule ShopWeb.ProductLive.Show do
      use ShopWeb, :live_view
      alias Shop.Catalog

      @impl true
      def handle_params(%{"id" => id}, _, socket) do
        {:noreply, assign(socket, :product, Catalog.get_product!(id))}
      end
    end
""")

_PX_SHOW_V2 = _t("""
    defmodule ShopWeb.ProductLive.Show do
      use ShopWeb, :live_view
      alias Shop.Catalog

      @impl true
      def handle_params(%{"id" => id}, _, socket) do
        product = Catalog.get_product!(id)
        {:noreply, assign(socket, product: product, price: format_price(product.price_cents))}
      end

      defp format_price(cents), do: :erlang.float_to_binary(cents / 100, decimals: 2)
    end
""")

_PX_SHOW_AGENT = _t("""
    defmodule ShopWeb.ProductLive.Show do
      use ShopWeb, :live_view

      alias Shop.Catalog

      @impl Phoenix.LiveView
      def handle_params(%{"id" => id}, _url, socket) do
        product = Catalog.get_product!(id)

        socket =
          socket
          |> assign(:product, product)
          |> assign(:price, format_price(product.price_cents))
          |> assign(:page_title, product.name)

        {:noreply, socket}
      end

      defp format_price(cents) when is_integer(cents),
        do: :erlang.float_to_binary(cents / 100, decimals: 2)
    end
""")

_PX_SHOW_HEEX = _t("""
    <.header><%= @product.name %></.header>
    <p class="price">€<%= @price %></p>
    <p><%= @product.description %></p>
""")

_PX_CATALOG_TEST_V1 = _t("""
    defmodule Shop.CatalogTest do
      use Shop.DataCase
      alias Shop.Catalog
      import Shop.CatalogFixtures

      test "list_products/1 pages by 24" do
        for i <- 1..30, do: product_fixture(name: "p#{String.pad_leading("#{i}", 2, "0")}")
        assert length(Catalog.list_products(page: 1)) == 24
        assert length(Catalog.list_products(page: 2)) == 6
      end
    end
""")

_PX_CATALOG_TEST_V2 = _PX_CATALOG_TEST_V1.replace(
    "  end\nend\n",
    '  end\n\n  test "list_products/1 filters by name, case-insensitively" do\n    product_fixture(name: "Blue Mug")\n    product_fixture(name: "Red Plate")\n    assert [%{name: "Blue Mug"}] = Catalog.list_products(search: "mug")\n  end\nend\n',
)

_PX_LIVE_TEST_V1 = _t("""
    defmodule ShopWeb.ProductLiveTest do
      use ShopWeb.ConnCase
      import Phoenix.LiveViewTest
      import Shop.CatalogFixtures

      test "lists products", %{conn: conn} do
        product_fixture(name: "Blue Mug")
        {:ok, _view, html} = live(conn, ~p"/products")
        assert html =~ "Blue Mug"
      end
    end
""")

_PX_LIVE_TEST_V2 = _PX_LIVE_TEST_V1.replace(
    "  end\nend\n",
    '  end\n\n  test "search narrows the list as you type", %{conn: conn} do\n    product_fixture(name: "Blue Mug")\n    product_fixture(name: "Red Plate")\n    {:ok, view, _html} = live(conn, ~p"/products")\n    html = view |> element("form.product-search") |> render_change(%{"q" => "plate"})\n    assert html =~ "Red Plate"\n    refute html =~ "Blue Mug"\n  end\nend\n',
)

_PX_CRASH = _t("""
    =erl_crash_dump:0.5
    Thu May  2 10:41:17 2024
    Slogan: init terminating in do_boot ({undef,[{'Elixir.Shop.Release',migrate,[],[]},{init,start_em,1,[]}]})
    System version: Erlang/OTP 26 [erts-14.2.1] [source] [64-bit] [smp:8:8] [ds:8:8:10] [async-threads:1] [jit]
    Taints: erl_tracer,zlib
    Atoms: 15332
    Calling Thread: scheduler:1
    =scheduler:1
    Scheduler Sleep Info Flags:
""")


def phoenix_live_product_search(s: Scene) -> None:
    """Live search on the products page: the LiveView (explicit) and its template, a
    search clause in the Catalog context (another folder, never names the LiveView)
    and both tests are in scope. Restyling the Show LiveView in the same folder, a
    new dev port and a LiveView bump in mix.exs are drift; the crash dump is output."""
    s.commit(
        "Shop: catalog and product pages",
        {
            "mix.exs": _PX_MIX,
            "config/dev.exs": _PX_DEV,
            "lib/shop/catalog.ex": _PX_CATALOG_V1,
            "lib/shop/catalog/product.ex": _PX_PRODUCT,
            "lib/shop_web/live/product_live/index.ex": _PX_INDEX_V1,
            "lib/shop_web/live/product_live/index.html.heex": _PX_INDEX_HEEX_V1,
            "lib/shop_web/live/product_live/show.ex": _PX_SHOW_V1,
            "lib/shop_web/live/product_live/show.html.heex": _PX_SHOW_HEEX.replace(
                "€<%= @price %>", "<%= @product.price_cents %>"
            ),
            "test/shop_web/live/product_live_test.exs": _PX_LIVE_TEST_V1,
        },
        days_ago=88,
    )
    s.commit(
        "products: paginate the index, 24 per page",
        {
            "lib/shop/catalog.ex": _PX_CATALOG_V2,
            "lib/shop_web/live/product_live/index.ex": _PX_INDEX_V2,
            "lib/shop_web/live/product_live/index.html.heex": _PX_INDEX_HEEX_V2,
            "test/shop/catalog_test.exs": _PX_CATALOG_TEST_V1,
        },
        days_ago=39,
    )
    s.commit(
        "show: format prices",
        {
            "lib/shop_web/live/product_live/show.ex": _PX_SHOW_V2,
            "lib/shop_web/live/product_live/show.html.heex": _PX_SHOW_HEEX,
        },
        days_ago=14,
    )
    s.intent(
        "add a search box on the products page that filters the list by name as you type",
        {"lib/shop_web/live/product_live/index.ex": "the products page"},
    )
    s.agent(
        {
            "lib/shop_web/live/product_live/index.ex": _PX_INDEX_V3,
            "lib/shop_web/live/product_live/index.html.heex": _PX_INDEX_HEEX_V3,
            "lib/shop/catalog.ex": _PX_CATALOG_V3,
            "test/shop/catalog_test.exs": _PX_CATALOG_TEST_V2,
            "test/shop_web/live/product_live_test.exs": _PX_LIVE_TEST_V2,
            "lib/shop_web/live/product_live/show.ex": _PX_SHOW_AGENT,
            "config/dev.exs": _PX_DEV.replace("port: 4000", "port: 4001"),
            "mix.exs": _PX_MIX.replace('"~> 0.20.1"', '"~> 0.20.14"').replace(
                '"~> 1.7.10"', '"~> 1.7.12"'
            ),
            "erl_crash.dump": _PX_CRASH,
        }
    )
    s.fine(
        "lib/shop_web/live/product_live/index.ex",
        "lib/shop_web/live/product_live/index.html.heex",
        "lib/shop/catalog.ex",
        "test/shop/catalog_test.exs",
        "test/shop_web/live/product_live_test.exs",
    )
    s.drift("lib/shop_web/live/product_live/show.ex", "config/dev.exs", "mix.exs")
    s.excluded("erl_crash.dump")


# --------------------------------------------------------------------------------------
# 8. PHP Symfony: CSV export of invoices
# --------------------------------------------------------------------------------------

_SY_COMPOSER = _t("""
    {
        "name": "acme/billing",
        "type": "project",
        "require": {
            "php": ">=8.2",
            "doctrine/orm": "^2.17",
            "symfony/framework-bundle": "6.4.*",
            "symfony/twig-bundle": "6.4.*",
            "symfony/runtime": "6.4.*"
        },
        "require-dev": {
            "phpunit/phpunit": "^10.5",
            "symfony/browser-kit": "6.4.*"
        },
        "autoload": {
            "psr-4": { "App\\\\": "src/" }
        }
    }
""")

_SY_COMPOSER_V2 = _SY_COMPOSER.replace(
    '        "doctrine/orm": "^2.17",\n',
    '        "doctrine/orm": "^2.17",\n        "league/csv": "^9.15",\n',
)

_SY_INVOICE_CTRL_V1 = _t("""
    <?php

    namespace App\\Controller;

    use App\\Repository\\InvoiceRepository;
    use Symfony\\Bundle\\FrameworkBundle\\Controller\\AbstractController;
    use Symfony\\Component\\HttpFoundation\\Response;
    use Symfony\\Component\\Routing\\Attribute\\Route;

    class InvoiceController extends AbstractController
    {
        #[Route('/invoices', name: 'invoice_index')]
        public function index(InvoiceRepository $invoices): Response
        {
            return $this->render('invoice/index.html.twig', [
                'invoices' => $invoices->findBy([], ['issuedAt' => 'DESC']),
            ]);
        }
    }
""")

_SY_INVOICE_CTRL_V2 = _t("""
    <?php

    namespace App\\Controller;

    use App\\Repository\\InvoiceRepository;
    use Symfony\\Bundle\\FrameworkBundle\\Controller\\AbstractController;
    use Symfony\\Component\\HttpFoundation\\Request;
    use Symfony\\Component\\HttpFoundation\\Response;
    use Symfony\\Component\\Routing\\Attribute\\Route;

    class InvoiceController extends AbstractController
    {
        #[Route('/invoices', name: 'invoice_index')]
        public function index(Request $request, InvoiceRepository $invoices): Response
        {
            $status = $request->query->get('status');

            return $this->render('invoice/index.html.twig', [
                'invoices' => $invoices->findFiltered($status),
                'status' => $status,
            ]);
        }
    }
""")

_SY_INVOICE_CTRL_V3 = _t("""
    <?php

    namespace App\\Controller;

    use App\\Repository\\InvoiceRepository;
    use App\\Service\\InvoiceCsvExporter;
    use Symfony\\Bundle\\FrameworkBundle\\Controller\\AbstractController;
    use Symfony\\Component\\HttpFoundation\\HeaderUtils;
    use Symfony\\Component\\HttpFoundation\\Request;
    use Symfony\\Component\\HttpFoundation\\Response;
    use Symfony\\Component\\Routing\\Attribute\\Route;

    class InvoiceController extends AbstractController
    {
        #[Route('/invoices', name: 'invoice_index')]
        public function index(Request $request, InvoiceRepository $invoices): Response
        {
            $status = $request->query->get('status');

            return $this->render('invoice/index.html.twig', [
                'invoices' => $invoices->findFiltered($status),
                'status' => $status,
            ]);
        }

        #[Route('/invoices/export', name: 'invoice_export')]
        public function export(Request $request, InvoiceRepository $invoices, InvoiceCsvExporter $exporter): Response
        {
            $status = $request->query->get('status');
            $response = new Response($exporter->export($invoices->findFiltered($status)));
            $response->headers->set('Content-Type', 'text/csv; charset=utf-8');
            $response->headers->set('Content-Disposition', HeaderUtils::makeDisposition(
                HeaderUtils::DISPOSITION_ATTACHMENT,
                sprintf('invoices-%s.csv', date('Y-m-d')),
            ));

            return $response;
        }
    }
""")

_SY_EXPORTER = _t("""
    <?php

    namespace App\\Service;

    use App\\Entity\\Invoice;
    use League\\Csv\\Writer;

    final class InvoiceCsvExporter
    {
        /**
         * @param iterable<Invoice> $invoices
         */
        public function export(iterable $invoices): string
        {
            $csv = Writer::createFromString();
            $csv->insertOne(['number', 'customer', 'issued_at', 'status', 'total']);
            foreach ($invoices as $invoice) {
                $csv->insertOne([
                    $invoice->getNumber(),
                    $invoice->getCustomer()->getName(),
                    $invoice->getIssuedAt()->format('Y-m-d'),
                    $invoice->getStatus(),
                    number_format($invoice->getTotalCents() / 100, 2, '.', ''),
                ]);
            }

            return $csv->toString();
        }
    }
""")

_SY_CUSTOMER_CTRL = _t("""
    <?php

    namespace App\\Controller;

    use App\\Repository\\CustomerRepository;
    use Symfony\\Bundle\\FrameworkBundle\\Controller\\AbstractController;
    use Symfony\\Component\\HttpFoundation\\Response;
    use Symfony\\Component\\Routing\\Attribute\\Route;

    class CustomerController extends AbstractController
    {
        #[Route('/customers', name: 'customer_index')]
        public function index(CustomerRepository $customers): Response
        {
            return $this->render('customer/index.html.twig', [
                'customers' => $customers->findBy([], ['name' => 'ASC']),
            ]);
        }

        #[Route('/customers/{id}', name: 'customer_show')]
        public function show(int $id, CustomerRepository $customers): Response
        {
            $customer = $customers->find($id);
            if (!$customer) {
                throw $this->createNotFoundException();
            }

            return $this->render('customer/show.html.twig', ['customer' => $customer]);
        }
    }
""")

_SY_CUSTOMER_CTRL_AGENT = _t("""
    <?php

    declare(strict_types=1);

    namespace App\\Controller;

    use App\\Entity\\Customer;
    use App\\Repository\\CustomerRepository;
    use Symfony\\Bundle\\FrameworkBundle\\Controller\\AbstractController;
    use Symfony\\Component\\HttpFoundation\\Response;
    use Symfony\\Component\\Routing\\Attribute\\Route;

    final class CustomerController extends AbstractController
    {
        public function __construct(private readonly CustomerRepository $customers)
        {
        }

        #[Route('/customers', name: 'customer_index', methods: ['GET'])]
        public function index(): Response
        {
            return $this->render('customer/index.html.twig', [
                'customers' => $this->customers->findBy([], ['name' => 'ASC']),
            ]);
        }

        #[Route('/customers/{id}', name: 'customer_show', methods: ['GET'])]
        public function show(Customer $customer): Response
        {
            return $this->render('customer/show.html.twig', ['customer' => $customer]);
        }
    }
""")

_SY_REPO_V1 = _t("""
    <?php

    namespace App\\Repository;

    use App\\Entity\\Invoice;
    use Doctrine\\Bundle\\DoctrineBundle\\Repository\\ServiceEntityRepository;
    use Doctrine\\Persistence\\ManagerRegistry;

    class InvoiceRepository extends ServiceEntityRepository
    {
        public function __construct(ManagerRegistry $registry)
        {
            parent::__construct($registry, Invoice::class);
        }
    }
""")

_SY_REPO_V2 = _SY_REPO_V1.replace(
    "        parent::__construct($registry, Invoice::class);\n    }\n",
    "        parent::__construct($registry, Invoice::class);\n    }\n\n"
    "    /** @return Invoice[] */\n"
    "    public function findFiltered(?string $status): array\n"
    "    {\n"
    "        $qb = $this->createQueryBuilder('i')->orderBy('i.issuedAt', 'DESC');\n"
    "        if ($status) {\n"
    "            $qb->andWhere('i.status = :status')->setParameter('status', $status);\n"
    "        }\n\n"
    "        return $qb->getQuery()->getResult();\n"
    "    }\n",
)

_SY_INDEX_TWIG_V1 = _t("""
    {% extends 'base.html.twig' %}

    {% block body %}
    <h1>Invoices</h1>
    <table class="table">
      <thead><tr><th>Number</th><th>Customer</th><th>Issued</th><th>Total</th></tr></thead>
      <tbody>
      {% for invoice in invoices %}
        <tr>
          <td>{{ invoice.number }}</td>
          <td>{{ invoice.customer.name }}</td>
          <td>{{ invoice.issuedAt|date('Y-m-d') }}</td>
          <td>{{ (invoice.totalCents / 100)|number_format(2) }}</td>
        </tr>
      {% endfor %}
      </tbody>
    </table>
    {% endblock %}
""")

_SY_INDEX_TWIG_V2 = _SY_INDEX_TWIG_V1.replace(
    "<h1>Invoices</h1>\n",
    '<h1>Invoices</h1>\n<form method="get" class="filters">\n  <select name="status" onchange="this.form.submit()">\n    <option value="">All</option>\n    {% for s in [\'draft\', \'sent\', \'paid\', \'overdue\'] %}\n      <option value="{{ s }}" {{ s == status ? \'selected\' }}>{{ s|capitalize }}</option>\n    {% endfor %}\n  </select>\n</form>\n',
)

_SY_INDEX_TWIG_V3 = _SY_INDEX_TWIG_V2.replace(
    "</form>\n",
    '</form>\n<a class="btn btn-secondary" href="{{ path(\'invoice_export\', {status: status}) }}">Export CSV</a>\n',
)

_SY_BASE_TWIG = _t("""
    <!DOCTYPE html>
    <html>
        <head>
            <meta charset="UTF-8">
            <title>{% block title %}Billing{% endblock %}</title>
            <link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/bootstrap@5.2.3/dist/css/bootstrap.min.css">
        </head>
        <body class="container py-4">
            {% block body %}{% endblock %}
        </body>
    </html>
""")

_SY_CTRL_TEST_V1 = _t("""
    <?php

    namespace App\\Tests\\Controller;

    use Symfony\\Bundle\\FrameworkBundle\\Test\\WebTestCase;

    class InvoiceControllerTest extends WebTestCase
    {
        public function testIndexFiltersByStatus(): void
        {
            $client = static::createClient();
            $client->request('GET', '/invoices?status=paid');
            $this->assertResponseIsSuccessful();
            $this->assertSelectorExists('option[value=paid][selected]');
        }
    }
""")

_SY_CTRL_TEST_V2 = _SY_CTRL_TEST_V1.replace(
    "        $this->assertSelectorExists('option[value=paid][selected]');\n    }\n",
    "        $this->assertSelectorExists('option[value=paid][selected]');\n    }\n\n"
    "    public function testExportIsACsvDownload(): void\n"
    "    {\n"
    "        $client = static::createClient();\n"
    "        $client->request('GET', '/invoices/export?status=paid');\n"
    "        $this->assertResponseIsSuccessful();\n"
    "        $this->assertResponseHeaderSame('Content-Type', 'text/csv; charset=utf-8');\n"
    "        $this->assertStringStartsWith('number,customer,issued_at,status,total', $client->getResponse()->getContent());\n"
    "    }\n",
)

_SY_DOC_INVOICES_V1 = _t("""
    # Invoices

    The invoices page (`/invoices`) lists all invoices, newest first. Use the status
    drop-down to show only drafts, sent, paid or overdue invoices.
""")

_SY_DOC_INVOICES_V2 = _SY_DOC_INVOICES_V1 + _t("""

    ## Exporting

    **Export CSV** downloads the invoices currently shown (the status filter applies)
    as `invoices-YYYY-MM-DD.csv`, with the columns `number`, `customer`, `issued_at`,
    `status` and `total` (in euros, two decimals).
""")

_SY_DOC_CUSTOMERS = _t("""
    # Customers

    The customers page lists every customer alphabeticaly. Click a name to see
    their adress, VAT number and invoices.
""")

_SY_LOG = (
    '[2024-05-02T09:12:44.118921+00:00] request.INFO: Matched route "invoice_export". {"route":"invoice_export","route_parameters":{"_route":"invoice_export"},"request_uri":"http://localhost:8000/invoices/export?status=paid","method":"GET"} []\n'
    '[2024-05-02T09:12:44.162004+00:00] doctrine.DEBUG: SELECT i0_.id AS id_0, i0_.number AS number_1 FROM invoice i0_ WHERE i0_.status = ? ORDER BY i0_.issued_at DESC {"1":"paid"} []\n'
)


def symfony_invoice_csv_export(s: Scene) -> None:
    """CSV export of the filtered invoices: the controller (explicit), a new exporter
    service, league/csv in composer.json, the button in the twig template (another
    folder), the controller test and the invoices doc are in scope. Modernising the
    sibling CustomerController, a Bootstrap bump in base.html.twig and spelling fixes
    in the customers doc are drift; the dev log is output."""
    s.commit(
        "Billing: invoices and customers",
        {
            "composer.json": _SY_COMPOSER,
            "src/Controller/InvoiceController.php": _SY_INVOICE_CTRL_V1,
            "src/Controller/CustomerController.php": _SY_CUSTOMER_CTRL,
            "src/Repository/InvoiceRepository.php": _SY_REPO_V1,
            "templates/base.html.twig": _SY_BASE_TWIG,
            "templates/invoice/index.html.twig": _SY_INDEX_TWIG_V1,
            "docs/customers.md": _SY_DOC_CUSTOMERS,
        },
        days_ago=77,
    )
    s.commit(
        "invoices: filter by status",
        {
            "src/Controller/InvoiceController.php": _SY_INVOICE_CTRL_V2,
            "src/Repository/InvoiceRepository.php": _SY_REPO_V2,
            "templates/invoice/index.html.twig": _SY_INDEX_TWIG_V2,
            "tests/Controller/InvoiceControllerTest.php": _SY_CTRL_TEST_V1,
        },
        days_ago=29,
    )
    s.commit("docs: invoices page", {"docs/invoices.md": _SY_DOC_INVOICES_V1}, days_ago=8)
    s.intent(
        "add an Export CSV button on the invoices list that downloads the invoices currently shown (respecting the status filter)",
        {"src/Controller/InvoiceController.php": "the invoices list"},
    )
    s.agent(
        {
            "src/Controller/InvoiceController.php": _SY_INVOICE_CTRL_V3,
            "src/Service/InvoiceCsvExporter.php": _SY_EXPORTER,
            "composer.json": _SY_COMPOSER_V2,
            "templates/invoice/index.html.twig": _SY_INDEX_TWIG_V3,
            "tests/Controller/InvoiceControllerTest.php": _SY_CTRL_TEST_V2,
            "docs/invoices.md": _SY_DOC_INVOICES_V2,
            "var/log/dev.log": _SY_LOG,
        }
    )
    mid = s.checkpoint("export works")
    s.agent(
        {
            "src/Controller/CustomerController.php": _SY_CUSTOMER_CTRL_AGENT,
            "templates/base.html.twig": _SY_BASE_TWIG.replace("bootstrap@5.2.3", "bootstrap@5.3.3"),
            "docs/customers.md": _SY_DOC_CUSTOMERS.replace(
                "alphabeticaly", "alphabetically"
            ).replace("adress", "address"),
        }
    )
    s.safe_checkpoint(mid)
    s.fine(
        "src/Controller/InvoiceController.php",
        "src/Service/InvoiceCsvExporter.php",
        "composer.json",
        "templates/invoice/index.html.twig",
        "tests/Controller/InvoiceControllerTest.php",
        "docs/invoices.md",
    )
    s.drift(
        "src/Controller/CustomerController.php", "templates/base.html.twig", "docs/customers.md"
    )
    s.excluded("var/log/dev.log")


# --------------------------------------------------------------------------------------
# 9. Rust (actix-web): a readiness endpoint
# --------------------------------------------------------------------------------------

_RS_CARGO = _t("""
    [package]
    name = "ledgerd"
    version = "0.3.2"
    edition = "2021"

    [dependencies]
    actix-web = "4.4"
    serde = { version = "1", features = ["derive"] }
    sqlx = { version = "0.7", features = ["runtime-tokio", "postgres"] }
    tokio = { version = "1", features = ["macros", "rt-multi-thread"] }
    tracing = "0.1"
""")

_RS_MAIN = _t("""
    mod config;
    mod db;
    mod routes;

    use actix_web::{web, App, HttpServer};

    #[actix_web::main]
    async fn main() -> std::io::Result<()> {
        let cfg = config::Config::from_env();
        let pool = db::connect(&cfg).await;
        HttpServer::new(move || {
            App::new()
                .app_data(web::Data::new(pool.clone()))
                .configure(routes::configure)
        })
        .bind(("0.0.0.0", cfg.port))?
        .run()
        .await
    }
""")

_RS_CONFIG = _t("""
    pub struct Config {
        pub database_url: String,
        pub port: u16,
        pub max_connections: u32,
    }

    impl Config {
        pub fn from_env() -> Self {
            Self {
                database_url: std::env::var("DATABASE_URL").expect("DATABASE_URL"),
                port: std::env::var("PORT").ok().and_then(|p| p.parse().ok()).unwrap_or(8080),
                max_connections: std::env::var("DB_MAX_CONNECTIONS")
                    .ok()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(5),
            }
        }
    }
""")

_RS_DB_V1 = _t("""
    use sqlx::postgres::{PgPool, PgPoolOptions};

    use crate::config::Config;

    pub async fn connect(cfg: &Config) -> PgPool {
        PgPoolOptions::new()
            .max_connections(cfg.max_connections)
            .connect_lazy(&cfg.database_url)
            .expect("valid DATABASE_URL")
    }
""")

_RS_DB_V2 = _RS_DB_V1 + _t("""

    /// True when the pool can hand out a connection and run a trivial query.
    pub async fn ping(pool: &PgPool) -> bool {
        sqlx::query("SELECT 1").execute(pool).await.is_ok()
    }
""")

_RS_ROUTES_MOD_V1 = _t("""
    mod health;
    mod users;

    use actix_web::web;

    pub fn configure(cfg: &mut web::ServiceConfig) {
        cfg.service(health::health)
            .service(users::list_users)
            .service(users::get_user);
    }
""")

_RS_ROUTES_MOD_V2 = _RS_ROUTES_MOD_V1.replace(
    "cfg.service(health::health)\n",
    "cfg.service(health::health)\n        .service(health::ready)\n",
)

_RS_HEALTH_V1 = _t("""
    use actix_web::{get, HttpResponse, Responder};

    /// Liveness: the process is up and serving requests.
    #[get("/health")]
    pub async fn health() -> impl Responder {
        HttpResponse::Ok().body("ok")
    }
""")

_RS_HEALTH_V2 = _t("""
    use actix_web::{get, web, HttpResponse, Responder};
    use sqlx::PgPool;

    use crate::db;

    /// Liveness: the process is up and serving requests.
    #[get("/health")]
    pub async fn health() -> impl Responder {
        HttpResponse::Ok().body("ok")
    }

    /// Readiness: 503 until the database answers, so no traffic is routed here before.
    #[get("/ready")]
    pub async fn ready(pool: web::Data<PgPool>) -> impl Responder {
        if db::ping(pool.get_ref()).await {
            HttpResponse::Ok().body("ready")
        } else {
            HttpResponse::ServiceUnavailable().body("database unavailable")
        }
    }
""")

_RS_USERS = _t("""
    use actix_web::{get, web, HttpResponse, Responder};
    use serde::Deserialize;
    use sqlx::PgPool;

    #[derive(Deserialize)]
    pub struct Page {
        limit: Option<i64>,
    }

    #[get("/users")]
    pub async fn list_users(pool: web::Data<PgPool>, page: web::Query<Page>) -> impl Responder {
        let limit = page.limit.unwrap_or(20).min(100);
        match sqlx::query_as::<_, (i64, String)>("SELECT id, email FROM users ORDER BY id LIMIT $1")
            .bind(limit)
            .fetch_all(pool.get_ref())
            .await
        {
            Ok(rows) => HttpResponse::Ok().json(rows),
            Err(_) => HttpResponse::InternalServerError().finish(),
        }
    }

    #[get("/users/{id}")]
    pub async fn get_user(pool: web::Data<PgPool>, id: web::Path<i64>) -> impl Responder {
        match sqlx::query_as::<_, (i64, String)>("SELECT id, email FROM users WHERE id = $1")
            .bind(id.into_inner())
            .fetch_optional(pool.get_ref())
            .await
        {
            Ok(Some(row)) => HttpResponse::Ok().json(row),
            Ok(None) => HttpResponse::NotFound().finish(),
            Err(_) => HttpResponse::InternalServerError().finish(),
        }
    }
""")

_RS_TEST_HEALTH_V1 = _t("""
    use actix_web::{test, App};

    #[actix_web::test]
    async fn health_is_ok() {
        let app = test::init_service(App::new().configure(ledgerd::routes::configure)).await;
        let resp = test::call_service(&app, test::TestRequest::get().uri("/health").to_request()).await;
        assert!(resp.status().is_success());
    }
""")

_RS_TEST_HEALTH_V2 = _RS_TEST_HEALTH_V1.replace(
    "use actix_web::{test, App};",
    "use actix_web::{http::StatusCode, test, web, App};\nuse sqlx::postgres::PgPoolOptions;",
) + _t("""

    #[actix_web::test]
    async fn ready_is_503_without_a_database() {
        let pool = PgPoolOptions::new()
            .acquire_timeout(std::time::Duration::from_millis(200))
            .connect_lazy("postgres://nobody@127.0.0.1:1/none")
            .unwrap();
        let app = test::init_service(
            App::new().app_data(web::Data::new(pool)).configure(ledgerd::routes::configure),
        )
        .await;
        let resp = test::call_service(&app, test::TestRequest::get().uri("/ready").to_request()).await;
        assert_eq!(resp.status(), StatusCode::SERVICE_UNAVAILABLE);
    }
""")

_RS_DEPLOY_V1 = _t("""
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: ledgerd
    spec:
      replicas: 2
      selector:
        matchLabels: { app: ledgerd }
      template:
        metadata:
          labels: { app: ledgerd }
        spec:
          containers:
            - name: ledgerd
              image: ghcr.io/acme/ledgerd:0.3.2
              ports: [{ containerPort: 8080 }]
              livenessProbe:
                httpGet: { path: /health, port: 8080 }
              readinessProbe:
                httpGet: { path: /health, port: 8080 }
""")

_RS_DEPLOY_V2 = _RS_DEPLOY_V1.replace(
    "          readinessProbe:\n            httpGet: { path: /health, port: 8080 }\n",
    "          readinessProbe:\n            httpGet: { path: /ready, port: 8080 }\n            periodSeconds: 5\n",
)

_RS_CHANGELOG_V1 = _t("""
    # Changelog

    ## Unreleased

    ## 0.3.2

    - `GET /users` caps `limit` at 100.

    ## 0.3.0

    - `GET /users/{id}`.
""")

_RS_CHANGELOG_V2 = _RS_CHANGELOG_V1.replace(
    "## Unreleased\n",
    "## Unreleased\n\n- `GET /ready`: 503 until the database answers; the readiness probe now uses it.\n  `/health` stays a plain liveness check.\n",
)


def rust_actix_ready_endpoint(s: Scene) -> None:
    """A /ready endpoint separate from /health: the health module (explicit), its
    registration, a ``db::ping`` helper (another folder, never names health), the
    integration test, the readiness probe in the deployment and a changelog line are
    in scope. A new users page-size default in the sibling module, a bigger default
    pool in config.rs and an actix-web bump are drift."""
    s.commit(
        "ledgerd: users API",
        {
            "Cargo.toml": _RS_CARGO,
            "src/main.rs": _RS_MAIN,
            "src/config.rs": _RS_CONFIG,
            "src/db.rs": _RS_DB_V1,
            "src/routes/mod.rs": _RS_ROUTES_MOD_V1,
            "src/routes/health.rs": _RS_HEALTH_V1,
            "src/routes/users.rs": _RS_USERS.replace(".unwrap_or(20).min(100)", ".unwrap_or(20)"),
            "tests/health.rs": _RS_TEST_HEALTH_V1,
            "deploy/deployment.yaml": _RS_DEPLOY_V1.replace("0.3.2", "0.3.0"),
            "CHANGELOG.md": _RS_CHANGELOG_V1.replace(
                "## 0.3.2\n\n- `GET /users` caps `limit` at 100.\n\n", ""
            ),
        },
        days_ago=73,
    )
    s.commit(
        "users: cap limit at 100; release 0.3.2",
        {
            "src/routes/users.rs": _RS_USERS,
            "Cargo.toml": _RS_CARGO,
            "deploy/deployment.yaml": _RS_DEPLOY_V1,
            "CHANGELOG.md": _RS_CHANGELOG_V1,
        },
        days_ago=16,
    )
    s.intent(
        "add a /ready endpoint that returns 503 until the database pool can run SELECT 1; /health should stay a plain liveness check",
        {"src/routes/health.rs": "where /health lives"},
    )
    s.agent(
        {
            "src/routes/health.rs": _RS_HEALTH_V2,
            "src/routes/mod.rs": _RS_ROUTES_MOD_V2,
            "src/db.rs": _RS_DB_V2,
            "tests/health.rs": _RS_TEST_HEALTH_V2,
            "deploy/deployment.yaml": _RS_DEPLOY_V2,
            "CHANGELOG.md": _RS_CHANGELOG_V2,
            "src/routes/users.rs": _RS_USERS.replace("unwrap_or(20)", "unwrap_or(50)"),
            "src/config.rs": _RS_CONFIG.replace(".unwrap_or(5)", ".unwrap_or(10)"),
            "Cargo.toml": _RS_CARGO.replace('actix-web = "4.4"', 'actix-web = "4.9"'),
        }
    )
    s.fine(
        "src/routes/health.rs",
        "src/routes/mod.rs",
        "src/db.rs",
        "tests/health.rs",
        "deploy/deployment.yaml",
        "CHANGELOG.md",
    )
    s.drift("src/routes/users.rs", "src/config.rs", "Cargo.toml")


# --------------------------------------------------------------------------------------
# 10. GitHub Actions workflows: move the slow integration tests to a nightly run
# --------------------------------------------------------------------------------------

_GA_CI_V1 = _t("""
    name: ci
    on:
      push:
        branches: [main]
      pull_request:
    jobs:
      test:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v4
          - uses: actions/setup-python@v5
            with:
              python-version: "3.12"
          - run: pip install -e ".[test]"
          - run: pytest
""")

_GA_CI_V2 = _t("""
    name: ci
    on:
      push:
        branches: [main]
      pull_request:
    jobs:
      lint:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v4
          - uses: actions/setup-python@v5
            with:
              python-version: "3.12"
          - run: pip install ruff
          - run: ruff check .
      test:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v4
          - uses: actions/setup-python@v5
            with:
              python-version: "3.12"
          - run: pip install -e ".[test]"
          - run: pytest
""")

_GA_CI_V3 = _GA_CI_V2.replace(
    "      - run: pytest\n",
    '      - run: pytest -m "not integration"\n',
)

_GA_CI_V2_WITH_SECRET = _GA_CI_V2.replace(
    "      - run: pytest\n",
    "      - run: pytest\n        env:\n          BANK_SANDBOX_TOKEN: ${{ secrets.BANK_SANDBOX_TOKEN }}\n",
)

_GA_NIGHTLY = _t("""
    name: nightly
    on:
      schedule:
        - cron: "30 2 * * *"
      workflow_dispatch:
    jobs:
      integration:
        runs-on: ubuntu-latest
        timeout-minutes: 45
        steps:
          - uses: actions/checkout@v4
          - uses: actions/setup-python@v5
            with:
              python-version: "3.12"
          - run: pip install -e ".[test]"
          - run: pytest -m integration
            env:
              BANK_SANDBOX_TOKEN: ${{ secrets.BANK_SANDBOX_TOKEN }}
""")

_GA_RELEASE = _t("""
    name: release
    on:
      push:
        tags: ["v*"]
    jobs:
      publish:
        runs-on: ubuntu-latest
        permissions:
          id-token: write
        steps:
          - uses: actions/checkout@v4
          - uses: actions/setup-python@v4
            with:
              python-version: "3.11"
          - run: pip install build
          - run: python -m build
          - uses: pypa/gh-action-pypi-publish@release/v1
""")

_GA_PYPROJECT_V1 = _t("""
    [project]
    name = "ledger-sync"
    version = "0.6.2"
    requires-python = ">=3.11"
    dependencies = ["httpx>=0.27"]

    [project.optional-dependencies]
    test = ["pytest>=8", "respx>=0.21"]

    [tool.pytest.ini_options]
    testpaths = ["tests"]
""")

_GA_PYPROJECT_V2 = _GA_PYPROJECT_V1.replace(
    'testpaths = ["tests"]\n',
    'testpaths = ["tests"]\nmarkers = ["integration: talks to the bank sandbox (slow, needs BANK_SANDBOX_TOKEN)"]\n',
)

_GA_SYNC = _t("""
    import httpx

    API = "https://sandbox.bank.example/v2"


    def fetch_transactions(token: str, since: str) -> list[dict]:
        resp = httpx.get(
            f"{API}/transactions",
            params={"since": since},
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        )
        resp.raise_for_status()
        return resp.json()["items"]
""")

_GA_UNIT_TEST = _t("""
    import respx
    from httpx import Response

    from ledger_sync.sync import API, fetch_transactions


    @respx.mock
    def test_fetch_transactions_reads_items():
        respx.get(f"{API}/transactions").mock(return_value=Response(200, json={"items": [{"id": 1}]}))
        assert fetch_transactions("t", "2024-01-01") == [{"id": 1}]
""")

_GA_INTEGRATION_TEST = _t("""
    import os

    import pytest

    from ledger_sync.sync import fetch_transactions

    pytestmark = pytest.mark.integration


    def test_sandbox_returns_transactions():
        items = fetch_transactions(os.environ["BANK_SANDBOX_TOKEN"], "2024-01-01")
        assert isinstance(items, list)
""")

_GA_CONTRIB_V1 = _t("""
    # Contributing

    1. `pip install -e ".[test]"`
    2. `pytest` runs everything. The integration tests talk to the bank sandbox and
       need `BANK_SANDBOX_TOKEN`; they take a few minutes.
    3. Open a pull request; CI runs lint and the tests.
""")

_GA_CONTRIB_V2 = _t("""
    # Contributing

    1. `pip install -e ".[test]"`
    2. `pytest -m "not integration"` runs the fast tests. The integration tests
       (`pytest -m integration`) talk to the bank sandbox and need `BANK_SANDBOX_TOKEN`.
    3. Open a pull request; CI runs lint and the fast tests. The integration tests
       run nightly (and on demand from the Actions tab) in the `nightly` workflow.
""")

_GA_COVERAGE = _t("""
    <?xml version="1.0" ?>
    <coverage version="7.4.4" timestamp="1714640000000" lines-valid="14" lines-covered="14" line-rate="1" branches-covered="0" branches-valid="0" branch-rate="0" complexity="0">
    \t<sources>
    \t\t<source>/home/dev/ledger-sync/src/ledger_sync</source>
    \t</sources>
    \t<packages>
    \t\t<package name="." line-rate="1" branch-rate="0" complexity="0">
    \t\t\t<classes>
    \t\t\t\t<class name="sync.py" filename="sync.py" complexity="0" line-rate="1" branch-rate="0"/>
    \t\t\t</classes>
    \t\t</package>
    \t</packages>
    </coverage>
""")


def actions_nightly_integration(s: Scene) -> None:
    """Slow integration tests nightly instead of on every push: the ci workflow
    (explicit), a new nightly workflow and CONTRIBUTING's testing notes are in scope.
    Bumping setup-python and Python in the sibling release workflow (changed with ci
    before) and bumping the package version are drift; coverage.xml is output."""
    s.commit(
        "ledger-sync: fetch transactions",
        {
            "pyproject.toml": _GA_PYPROJECT_V1,
            "src/ledger_sync/__init__.py": "",
            "src/ledger_sync/sync.py": _GA_SYNC,
            "tests/test_sync.py": _GA_UNIT_TEST,
            ".github/workflows/ci.yml": _GA_CI_V1,
            "CONTRIBUTING.md": _GA_CONTRIB_V1.replace(
                " The integration tests talk to the bank sandbox and\n   need `BANK_SANDBOX_TOKEN`; they take a few minutes.",
                "",
            ).replace("CI runs lint and the tests", "CI runs the tests"),
        },
        days_ago=58,
    )
    s.commit(
        "CI: separate lint job; publish to PyPI on tags",
        {".github/workflows/ci.yml": _GA_CI_V2, ".github/workflows/release.yml": _GA_RELEASE},
        days_ago=26,
    )
    s.commit(
        "Integration tests against the bank sandbox",
        {
            "tests/integration/test_bank_api.py": _GA_INTEGRATION_TEST,
            "pyproject.toml": _GA_PYPROJECT_V2,
            ".github/workflows/ci.yml": _GA_CI_V2_WITH_SECRET,
            "CONTRIBUTING.md": _GA_CONTRIB_V1,
        },
        days_ago=7,
    )
    s.intent(
        "CI is too slow: run the integration tests nightly on a schedule instead of on every push and PR",
        {".github/workflows/ci.yml": "the workflow that runs on push"},
    )
    s.agent(
        {
            ".github/workflows/ci.yml": _GA_CI_V3,
            ".github/workflows/nightly.yml": _GA_NIGHTLY,
            "CONTRIBUTING.md": _GA_CONTRIB_V2,
            ".github/workflows/release.yml": _GA_RELEASE.replace(
                "setup-python@v4", "setup-python@v5"
            ).replace('"3.11"', '"3.12"'),
            "pyproject.toml": _GA_PYPROJECT_V2.replace('version = "0.6.2"', 'version = "0.7.0"'),
            "coverage.xml": _GA_COVERAGE,
        }
    )
    s.fine(".github/workflows/ci.yml", ".github/workflows/nightly.yml", "CONTRIBUTING.md")
    s.drift(".github/workflows/release.yml", "pyproject.toml")
    s.excluded("coverage.xml")


FRESH5 = [
    Scenario(
        "fresh5_fastapi_soft_delete",
        fastapi_soft_delete_projects,
        False,
        "fresh 5: FastAPI soft delete — migration in another folder; model/router siblings and pins drift",
        fresh=True,
        batch=5,
    ),
    Scenario(
        "fresh5_go_cobra_list_json",
        go_cobra_list_json,
        False,
        "fresh 5: cobra list --json — struct tags elsewhere and README in scope; root.go default, deleted helper, go.mod drift; binary excluded",
        fresh=True,
        batch=5,
    ),
    Scenario(
        "fresh5_rails_welcome_email",
        rails_welcome_email,
        False,
        "fresh 5: Rails welcome email — mailer and views in scope; co-changed sessions controller and User model drift; checkpoint mid-way",
        fresh=True,
        batch=5,
    ),
    Scenario(
        "fresh5_terraform_prod_logs_bucket",
        terraform_prod_logs_bucket,
        False,
        "fresh 5: Terraform prod bucket versioning — module files in scope; staging, provider bump, CI drift; plan excluded",
        fresh=True,
        batch=5,
    ),
    Scenario(
        "fresh5_nextjs_notification_settings",
        nextjs_notification_settings,
        False,
        "fresh 5: Next.js settings section — API route and Prisma in scope; Avatar, next.config, package.json drift",
        fresh=True,
        batch=5,
    ),
    Scenario(
        "fresh5_kustomize_prod_api_oom",
        kustomize_prod_api_oom,
        False,
        "fresh 5: kustomize api OOM — HPA and README in scope; co-changed worker patch and staging replicas drift",
        fresh=True,
        batch=5,
    ),
    Scenario(
        "fresh5_phoenix_live_search",
        phoenix_live_product_search,
        False,
        "fresh 5: Phoenix live search — context and tests in scope; Show LiveView, dev port, mix.exs drift; crash dump excluded",
        fresh=True,
        batch=5,
    ),
    Scenario(
        "fresh5_symfony_invoice_csv",
        symfony_invoice_csv_export,
        False,
        "fresh 5: Symfony CSV export — service, dependency, template, docs in scope; sibling controller, base twig, other doc drift; checkpoint",
        fresh=True,
        batch=5,
    ),
    Scenario(
        "fresh5_rust_actix_ready",
        rust_actix_ready_endpoint,
        False,
        "fresh 5: actix /ready — db helper, probe, changelog in scope; users default, pool size, actix bump drift",
        fresh=True,
        batch=5,
    ),
    Scenario(
        "fresh5_actions_nightly_integration",
        actions_nightly_integration,
        False,
        "fresh 5: GitHub Actions nightly — new workflow and CONTRIBUTING in scope; release workflow and version bump drift",
        fresh=True,
        batch=5,
    ),
]
