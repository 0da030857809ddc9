# ruff: noqa: E501  (scenario data: file contents read best on one line)
"""A second batch of scenarios written after the tuning, committed before any rule
was changed for the first batch's two misses (a migration nothing references, a
docs page the README does not link). Not part of the test's thresholds: reported
apart by ``benchmarks/zone_quality.py`` as the check on rules tuned since."""

from __future__ import annotations

from scenario_kit import Scenario, Scene


def rails_archive(s: Scene) -> None:
    """Archiving projects in Rails: the model, its controller action and the new
    migration (in ``db/migrate``, far from the model) are in scope; the web server's
    worker count is not."""
    s.commit(
        "rails app",
        {
            "Gemfile": "source 'https://rubygems.org'\ngem 'rails'\n",
            "app/models/project.rb": "class Project < ApplicationRecord\n  belongs_to :owner\nend\n",
            "app/controllers/projects_controller.rb": "class ProjectsController < ApplicationController\n  def index\n    @projects = Project.all\n  end\nend\n",
            "db/migrate/20260101000000_create_projects.rb": "class CreateProjects < ActiveRecord::Migration[7.1]\n  def change\n    create_table :projects\n  end\nend\n",
            "config/puma.rb": "workers 2\nthreads 5, 5\n",
        },
    )
    s.intent("Let users archive projects", {"app/models/project.rb": "the project model"})
    s.agent(
        {
            "app/models/project.rb": "class Project < ApplicationRecord\n  belongs_to :owner\n  scope :active, -> { where(archived_at: nil) }\n\n  def archive!\n    update!(archived_at: Time.current)\n  end\nend\n",
            "app/controllers/projects_controller.rb": "class ProjectsController < ApplicationController\n  def index\n    @projects = Project.active\n  end\n\n  def archive\n    Project.find(params[:id]).archive!\n  end\nend\n",
            "db/migrate/20261120093000_add_archived_at_to_projects.rb": "class AddArchivedAtToProjects < ActiveRecord::Migration[7.1]\n  def change\n    add_column :projects, :archived_at, :datetime\n  end\nend\n",
            "config/puma.rb": "workers 4\nthreads 5, 5\n",
        }
    )
    s.fine(
        "app/models/project.rb",
        "app/controllers/projects_controller.rb",
        "db/migrate/20261120093000_add_archived_at_to_projects.rb",
    )
    s.drift("config/puma.rb")


def docs_retry_setting(s: Scene) -> None:
    """Documenting a setting: the troubleshooting page that now explains it is in
    scope; changing the code's default is not, nor an unrelated install-page edit."""
    s.commit(
        "client",
        {
            "README.md": "# client\n\nSee docs/.\n",
            "docs/configuration.md": "# Configuration\n\n- `timeout`: seconds to wait\n",
            "docs/troubleshooting.md": "# Troubleshooting\n\n## Requests time out\n\nRaise `timeout`.\n",
            "docs/install.md": "# Install\n\nNeeds Python 3.10 or later.\n",
            "src/client/retry.py": "MAX_RETRIES = 3\n",
        },
    )
    s.intent("Document the retry setting", {"docs/configuration.md": "the settings page"})
    s.agent(
        {
            "docs/configuration.md": "# Configuration\n\n- `timeout`: seconds to wait\n- `retry`: how many times a failed request is retried (default 3)\n",
            "docs/troubleshooting.md": "# Troubleshooting\n\n## Requests time out\n\nRaise `timeout`.\n\n## Requests fail now and then\n\nRaise `retry`.\n",
            "docs/install.md": "# Install\n\nNeeds Python 3.11 or later.\n",
            "src/client/retry.py": "MAX_RETRIES = 5\n",
        }
    )
    s.fine("docs/configuration.md", "docs/troubleshooting.md")
    s.drift("docs/install.md", "src/client/retry.py")


def flask_password_reset(s: Scene) -> None:
    """A password-reset email: its new template and new test are in scope; the login
    session's lifetime is not."""
    s.commit(
        "flask app",
        {
            "app/__init__.py": "",
            "app/auth/__init__.py": "",
            "app/auth/reset.py": "def request_reset(email):\n    return None\n",
            "app/auth/login.py": "SESSION_MINUTES = 60\n",
            "app/templates/email/welcome.txt": "Welcome!\n",
            "tests/test_login.py": "from app.auth import login\n",
        },
    )
    s.intent("Send a password reset email", {"app/auth/reset.py": "the reset flow"})
    s.agent(
        {
            "app/auth/reset.py": "from flask import render_template\n\n\ndef request_reset(email):\n    body = render_template('email/password_reset.txt', email=email)\n    return send(email, body)\n",
            "app/templates/email/password_reset.txt": "Hello {{ email }}, follow this link to reset your password.\n",
            "tests/test_reset.py": "from app.auth.reset import request_reset\n\n\ndef test_sends():\n    assert request_reset('a@example.com') is not None\n",
            "app/auth/login.py": "SESSION_MINUTES = 240\n",
        }
    )
    s.fine(
        "app/auth/reset.py",
        "app/templates/email/password_reset.txt",
        "tests/test_reset.py",
    )
    s.drift("app/auth/login.py")


def go_login_metrics(s: Scene) -> None:
    """Counting failed logins: the metrics file the login code now uses is in scope;
    the session cookie's lifetime, next to the login code, is not."""
    s.commit(
        "svc",
        {
            "go.mod": "module example.com/svc\n",
            "internal/auth/login.go": "package auth\n\nfunc Login(user, pass string) error {\n\treturn check(user, pass)\n}\n",
            "internal/auth/session.go": "package auth\n\nconst CookieTTL = 3600\n",
            "internal/metrics/metrics.go": 'package metrics\n\nvar Requests = NewCounter("requests")\n',
        },
    )
    s.intent("Count failed logins", {"internal/auth/login.go": "the login handler"})
    s.agent(
        {
            "internal/auth/login.go": 'package auth\n\nimport "example.com/svc/internal/metrics"\n\nfunc Login(user, pass string) error {\n\terr := check(user, pass)\n\tif err != nil {\n\t\tmetrics.FailedLogins.Inc()\n\t}\n\treturn err\n}\n',
            "internal/metrics/metrics.go": 'package metrics\n\nvar Requests = NewCounter("requests")\nvar FailedLogins = NewCounter("failed_logins")\n',
            "internal/auth/session.go": "package auth\n\nconst CookieTTL = 86400\n",
        }
    )
    s.fine("internal/auth/login.go", "internal/metrics/metrics.go")
    s.drift("internal/auth/session.go")


def vue_users_sort(s: Scene) -> None:
    """Sorting the users table: its new spec and a new sort helper it imports are in
    scope; the filter box next to it (same folder, same 'Users' word) is not."""
    s.commit(
        "vue app",
        {
            "package.json": '{"name": "admin"}\n',
            "src/components/UsersTable.vue": "<template><table><tr v-for=\"u in users\"><td>{{ u.name }}</td></tr></table></template>\n<script setup>\ndefineProps(['users'])\n</script>\n",
            "src/components/UsersFilter.vue": '<template><input placeholder="Filter users" /></template>\n',
            "src/components/AppHeader.vue": "<template><header>Admin</header></template>\n",
        },
    )
    s.intent("Sort the users table by name", {"src/components/UsersTable.vue": "the table"})
    s.agent(
        {
            "src/components/UsersTable.vue": "<template><table><tr v-for=\"u in sorted\"><td>{{ u.name }}</td></tr></table></template>\n<script setup>\nimport { computed } from 'vue'\nimport { sortBy } from '../utils/sortBy'\nconst props = defineProps(['users'])\nconst sorted = computed(() => sortBy(props.users, 'name'))\n</script>\n",
            "src/utils/sortBy.ts": "export function sortBy<T>(items: T[], key: keyof T): T[] {\n  return [...items].sort((a, b) => String(a[key]).localeCompare(String(b[key])));\n}\n",
            "src/components/UsersTable.spec.ts": "import UsersTable from './UsersTable.vue'\ntest('sorts', () => expect(UsersTable).toBeTruthy())\n",
            "src/components/UsersFilter.vue": '<template><input placeholder="Search users…" /></template>\n',
        }
    )
    s.fine(
        "src/components/UsersTable.vue",
        "src/utils/sortBy.ts",
        "src/components/UsersTable.spec.ts",
    )
    s.drift("src/components/UsersFilter.vue")


def python_dry_run_flag(s: Scene) -> None:
    """A --dry-run flag for the sync command: its new test and the README line that
    documents it are in scope; another command's default is not."""
    s.commit(
        "cli",
        {
            "README.md": "# tool\n\n`tool sync` copies files.\n`tool export` writes a CSV.\n",
            "cli/__init__.py": "",
            "cli/sync.py": "import argparse\n\n\ndef main(argv):\n    parser = argparse.ArgumentParser()\n    return parser.parse_args(argv)\n",
            "cli/export.py": "DELIMITER = ','\n",
        },
    )
    s.intent("Add a --dry-run flag to the sync command", {"cli/sync.py": "the sync command"})
    s.agent(
        {
            "cli/sync.py": "import argparse\n\n\ndef main(argv):\n    parser = argparse.ArgumentParser()\n    parser.add_argument('--dry-run', action='store_true')\n    return parser.parse_args(argv)\n",
            "tests/test_sync_dry_run.py": "from cli.sync import main\n\n\ndef test_dry_run():\n    assert main(['--dry-run']).dry_run\n",
            "README.md": "# tool\n\n`tool sync` copies files (`--dry-run` shows what it would copy).\n`tool export` writes a CSV.\n",
            "cli/export.py": "DELIMITER = ';'\n",
        }
    )
    s.fine("cli/sync.py", "tests/test_sync_dry_run.py", "README.md")
    s.drift("cli/export.py")


FRESH2 = [
    Scenario(
        "rails_archive",
        rails_archive,
        False,
        "fresh 2: migration far from the model",
        fresh=True,
        batch=2,
    ),
    Scenario(
        "docs_retry_setting",
        docs_retry_setting,
        False,
        "fresh 2: docs pages vs code",
        fresh=True,
        batch=2,
    ),
    Scenario(
        "flask_password_reset",
        flask_password_reset,
        False,
        "fresh 2: email template",
        fresh=True,
        batch=2,
    ),
    Scenario(
        "go_login_metrics",
        go_login_metrics,
        False,
        "fresh 2: package the change uses",
        fresh=True,
        batch=2,
    ),
    Scenario(
        "vue_users_sort",
        vue_users_sort,
        False,
        "fresh 2: same folder, same word",
        fresh=True,
        batch=2,
    ),
    Scenario(
        "python_dry_run_flag",
        python_dry_run_flag,
        False,
        "fresh 2: README documents the flag",
        fresh=True,
        batch=2,
    ),
]
