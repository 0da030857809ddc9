# ruff: noqa: E501
"""The fourth fresh batch of zone scenarios.

Written blind, after the third tuning, by someone who had not read the rules: only
the scenario kit was read. Each scenario is a small project in its own ecosystem, an
intent as a user would type it, the files the user named, and the agent's edits —
labelled by asking "would a careful user be surprised to find this change in the
agent's work for this intent?" (surprised → drift).
"""

from __future__ import annotations

from scenario_kit import CLASS, ELF, Scenario, Scene

# -- 1. Django REST: filter the orders list ---------------------------------------------------

DRF_SETTINGS = """from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
SECRET_KEY = "dev-only-not-secret"
DEBUG = True
ALLOWED_HOSTS: list[str] = []

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "orders",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
]

ROOT_URLCONF = "shop.urls"
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3"}}

REST_FRAMEWORK = {
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
}

STATIC_URL = "static/"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
"""

DRF_MODELS = """from django.conf import settings
from django.db import models


class Order(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"
        PAID = "paid"
        SHIPPED = "shipped"
        CANCELLED = "cancelled"

    customer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="orders")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    total = models.DecimalField(max_digits=10, decimal_places=2)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Order #{self.pk} ({self.status})"
"""

DRF_SERIALIZERS = """from rest_framework import serializers

from .models import Order


class OrderSerializer(serializers.ModelSerializer):
    class Meta:
        model = Order
        fields = "__all__"
"""

DRF_VIEWS_1 = """from rest_framework import viewsets

from .models import Order
from .serializers import OrderSerializer


class OrderViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Order.objects.select_related("customer").order_by("-created_at")
    serializer_class = OrderSerializer
"""

DRF_VIEWS_2 = """from rest_framework import permissions, viewsets

from .models import Order
from .serializers import OrderSerializer


class OrderViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Order.objects.select_related("customer").order_by("-created_at")
    serializer_class = OrderSerializer
    permission_classes = [permissions.IsAdminUser]
"""

DRF_TESTS_1 = """import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from orders.models import Order


@pytest.fixture
def staff_client(db):
    staff = User.objects.create_user("staff", password="x", is_staff=True)
    client = APIClient()
    client.force_authenticate(staff)
    return client


def test_lists_orders(staff_client):
    customer = User.objects.create_user("ann")
    Order.objects.create(customer=customer, total="12.50")
    response = staff_client.get("/api/orders/")
    assert response.status_code == 200
    assert response.json()["count"] == 1
"""

DRF_TESTS_2 = (
    DRF_TESTS_1
    + """

def test_customers_cannot_list_orders(db):
    customer = User.objects.create_user("bob")
    client = APIClient()
    client.force_authenticate(customer)
    assert client.get("/api/orders/").status_code == 403
"""
)

DRF_README = """# shop

Back office API for the shop.

## Running

    pip install -r requirements.txt
    python manage.py migrate
    python manage.py runserver

## API

- `GET /api/orders/` — all orders, newest first, 50 per page (staff only).
- `GET /api/orders/<id>/` — one order.
"""

DRF_DEPLOY = """# Deploying

The API runs under gunicorn behind nginx.

    gunicorn shop.wsgi --workers 3 --timeout 30

Run `python manage.py migrate` before switching traffic.
"""


def drf_orders_filter(scene: Scene) -> None:
    """Filtering the staff orders list by status and date: the view, a new FilterSet,
    the django-filter app in settings and requirements, tests and the README's API
    section are in scope; reshaping the serializer's fields next to the view and
    rewriting the deploy guide are not."""
    scene.commit(
        "Orders API",
        {
            "manage.py": '#!/usr/bin/env python\nimport os\nimport sys\n\nif __name__ == "__main__":\n    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shop.settings")\n    from django.core.management import execute_from_command_line\n\n    execute_from_command_line(sys.argv)\n',
            "shop/settings.py": DRF_SETTINGS,
            "shop/urls.py": 'from django.contrib import admin\nfrom django.urls import include, path\n\nurlpatterns = [\n    path("admin/", admin.site.urls),\n    path("api/", include("orders.urls")),\n]\n',
            "orders/models.py": DRF_MODELS,
            "orders/serializers.py": DRF_SERIALIZERS,
            "orders/views.py": DRF_VIEWS_1,
            "orders/urls.py": 'from rest_framework.routers import DefaultRouter\n\nfrom .views import OrderViewSet\n\nrouter = DefaultRouter()\nrouter.register("orders", OrderViewSet)\nurlpatterns = router.urls\n',
            "orders/migrations/0001_initial.py": 'from django.conf import settings\nfrom django.db import migrations, models\n\n\nclass Migration(migrations.Migration):\n    initial = True\n    dependencies = [migrations.swappable_dependency(settings.AUTH_USER_MODEL)]\n\n    operations = [\n        migrations.CreateModel(\n            name="Order",\n            fields=[\n                ("id", models.BigAutoField(primary_key=True, serialize=False)),\n                ("status", models.CharField(default="pending", max_length=16)),\n                ("total", models.DecimalField(decimal_places=2, max_digits=10)),\n                ("created_at", models.DateTimeField(auto_now_add=True)),\n                ("customer", models.ForeignKey(on_delete=models.PROTECT, related_name="orders", to=settings.AUTH_USER_MODEL)),\n            ],\n        ),\n    ]\n',
            "orders/tests/test_views.py": DRF_TESTS_1,
            "requirements.txt": "Django==4.2.11\ndjangorestframework==3.15.1\npytest-django==4.8.0\n",
            "README.md": DRF_README,
            "docs/deploy.md": DRF_DEPLOY,
        },
        days_ago=90,
    )
    scene.commit(
        "Orders: staff only",
        {"orders/views.py": DRF_VIEWS_2, "orders/tests/test_views.py": DRF_TESTS_2},
        days_ago=18,
    )
    scene.intent(
        "let staff filter the orders list by status and by created date range, like /api/orders/?status=paid&created_after=2024-01-01",
        {"orders/views.py": "the orders viewset"},
    )
    scene.agent(
        {
            "orders/views.py": DRF_VIEWS_2.replace(
                "from rest_framework import permissions, viewsets\n",
                "from django_filters.rest_framework import DjangoFilterBackend\nfrom rest_framework import permissions, viewsets\n\nfrom .filters import OrderFilter\n",
            ).replace(
                "    permission_classes = [permissions.IsAdminUser]\n",
                "    permission_classes = [permissions.IsAdminUser]\n    filter_backends = [DjangoFilterBackend]\n    filterset_class = OrderFilter\n",
            ),
            "orders/filters.py": 'import django_filters\n\nfrom .models import Order\n\n\nclass OrderFilter(django_filters.FilterSet):\n    status = django_filters.ChoiceFilter(choices=Order.Status.choices)\n    created_after = django_filters.DateFilter(field_name="created_at", lookup_expr="date__gte")\n    created_before = django_filters.DateFilter(field_name="created_at", lookup_expr="date__lte")\n\n    class Meta:\n        model = Order\n        fields = ["status", "created_after", "created_before"]\n',
            "shop/settings.py": DRF_SETTINGS.replace(
                '    "rest_framework",\n', '    "rest_framework",\n    "django_filters",\n'
            ),
            "requirements.txt": "Django==4.2.11\ndjangorestframework==3.15.1\ndjango-filter==24.2\npytest-django==4.8.0\n",
            "orders/tests/test_views.py": DRF_TESTS_2
            + """

def test_filters_by_status_and_date(staff_client):
    customer = User.objects.create_user("cy")
    Order.objects.create(customer=customer, total="5.00", status=Order.Status.PAID)
    Order.objects.create(customer=customer, total="7.00", status=Order.Status.PENDING)
    response = staff_client.get("/api/orders/", {"status": "paid", "created_after": "2000-01-01"})
    assert [o["status"] for o in response.json()["results"]] == ["paid"]


def test_rejects_unknown_status(staff_client):
    assert staff_client.get("/api/orders/", {"status": "lost"}).status_code == 400
""",
            "README.md": DRF_README.replace(
                "- `GET /api/orders/<id>/` — one order.\n",
                "  Filters: `status` (pending, paid, shipped, cancelled), `created_after` and\n  `created_before` (dates, inclusive), e.g. `/api/orders/?status=paid&created_after=2024-01-01`.\n- `GET /api/orders/<id>/` — one order.\n",
            ),
            # Unasked: the serializer's field list spelled out and a customer e-mail added.
            "orders/serializers.py": DRF_SERIALIZERS.replace(
                '        fields = "__all__"\n',
                '        fields = ["id", "customer", "customer_email", "status", "total", "created_at"]\n\n    customer_email = serializers.EmailField(source="customer.email", read_only=True)\n',
            ),
            # Unasked: the deploy guide rewritten with a different worker count.
            "docs/deploy.md": """# Deploying

The API runs under gunicorn behind nginx. Use `2 * CPU + 1` workers:

    gunicorn shop.wsgi --workers 5 --timeout 60 --access-logfile -

## Checklist

1. `python manage.py migrate`
2. `python manage.py collectstatic --noinput`
3. Switch traffic.
""",
        }
    )
    scene.fine(
        "orders/views.py",
        "orders/filters.py",
        "shop/settings.py",
        "requirements.txt",
        "orders/tests/test_views.py",
        "README.md",
    )
    scene.drift("orders/serializers.py", "docs/deploy.md")


# -- 2. Node/Express: rate-limit the login route -----------------------------------------------

EXP_PACKAGE_1 = """{
  "name": "notes-api",
  "version": "1.4.0",
  "private": true,
  "main": "src/app.js",
  "scripts": {
    "start": "node src/app.js",
    "test": "jest --runInBand",
    "lint": "eslint src test"
  },
  "dependencies": {
    "express": "^4.18.2",
    "jsonwebtoken": "^9.0.2",
    "pg": "^8.11.3"
  },
  "devDependencies": {
    "eslint": "^8.55.0",
    "jest": "^29.7.0",
    "supertest": "^6.3.3"
  }
}
"""

EXP_PACKAGE_2 = EXP_PACKAGE_1.replace(
    '    "express": "^4.18.2",\n', '    "bcrypt": "^5.1.1",\n    "express": "^4.18.2",\n'
)

EXP_AUTH_1 = """const express = require('express');
const jwt = require('jsonwebtoken');
const { md5 } = require('../utils/legacyHash');
const db = require('../db');
const config = require('../config');

const router = express.Router();

router.post('/login', async (req, res) => {
  const { email, password } = req.body;
  const user = await db.findUserByEmail(email);
  if (!user || user.password_hash !== md5(password)) {
    return res.status(401).json({ error: 'invalid credentials' });
  }
  const token = jwt.sign({ sub: user.id }, config.jwtSecret, { expiresIn: config.sessionTtl });
  res.json({ token });
});

module.exports = router;
"""

EXP_AUTH_2 = EXP_AUTH_1.replace(
    "const { md5 } = require('../utils/legacyHash');\n", "const bcrypt = require('bcrypt');\n"
).replace(
    "  if (!user || user.password_hash !== md5(password)) {\n",
    "  if (!user || !(await bcrypt.compare(password, user.password_hash))) {\n",
)

EXP_USERS = """const express = require('express');
const db = require('../db');
const requireAuth = require('../middleware/requireAuth');

const router = express.Router();

function getUser(req, res, next) {
  db.findUserById(req.params.id)
    .then((user) => {
      if (!user) return res.status(404).json({ error: 'not found' });
      res.json({ id: user.id, email: user.email, name: user.name });
    })
    .catch(next);
}

router.get('/:id', requireAuth, getUser);

module.exports = router;
"""

EXP_CONFIG = """module.exports = {
  port: Number(process.env.PORT || 3000),
  jwtSecret: process.env.JWT_SECRET || 'dev-secret',
  sessionTtl: process.env.SESSION_TTL || '12h',
  databaseUrl: process.env.DATABASE_URL || 'postgres://localhost/notes',
};
"""

EXP_TEST = """const request = require('supertest');
const app = require('../src/app');
const db = require('../src/db');

jest.mock('../src/db');

describe('POST /auth/login', () => {
  it('rejects a wrong password', async () => {
    db.findUserByEmail.mockResolvedValue(null);
    const res = await request(app).post('/auth/login').send({ email: 'a@b.c', password: 'nope' });
    expect(res.status).toBe(401);
  });
});
"""

EXP_CI = """name: ci
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 18
      - run: npm ci
      - run: npm run lint
      - run: npm test
"""


def express_login_ratelimit(scene: Scene) -> None:
    """Rate-limiting POST /auth/login: the auth route, a new limiter middleware, its
    settings in config.js, the express-rate-limit dependency and a 429 test are in
    scope; rewriting the users route next to it, deleting the old md5 helper and
    moving CI to Node 20 are not."""
    scene.commit(
        "Notes API with JWT login",
        {
            "package.json": EXP_PACKAGE_1,
            "src/app.js": "const express = require('express');\nconst auth = require('./routes/auth');\nconst users = require('./routes/users');\n\nconst app = express();\napp.use(express.json());\napp.use('/auth', auth);\napp.use('/users', users);\n\nmodule.exports = app;\n",
            "src/db.js": "const { Pool } = require('pg');\nconst config = require('./config');\n\nconst pool = new Pool({ connectionString: config.databaseUrl });\n\nasync function findUserByEmail(email) {\n  const { rows } = await pool.query('select * from users where email = $1', [email]);\n  return rows[0];\n}\n\nasync function findUserById(id) {\n  const { rows } = await pool.query('select * from users where id = $1', [id]);\n  return rows[0];\n}\n\nmodule.exports = { findUserByEmail, findUserById };\n",
            "src/config.js": EXP_CONFIG,
            "src/routes/auth.js": EXP_AUTH_1,
            "src/routes/users.js": EXP_USERS,
            "src/middleware/requireAuth.js": "const jwt = require('jsonwebtoken');\nconst config = require('../config');\n\nmodule.exports = function requireAuth(req, res, next) {\n  const header = req.get('authorization') || '';\n  try {\n    req.user = jwt.verify(header.replace(/^Bearer /, ''), config.jwtSecret);\n    next();\n  } catch (err) {\n    res.status(401).json({ error: 'unauthorized' });\n  }\n};\n",
            "src/utils/legacyHash.js": "const crypto = require('crypto');\n\n// Kept until every account has logged in once with bcrypt.\nexports.md5 = (text) => crypto.createHash('md5').update(text).digest('hex');\n",
            "test/auth.test.js": EXP_TEST,
            ".github/workflows/ci.yml": EXP_CI,
            "README.md": "# notes-api\n\n    npm install\n    JWT_SECRET=... npm start\n",
        },
        days_ago=120,
    )
    scene.commit(
        "Hash passwords with bcrypt",
        {"package.json": EXP_PACKAGE_2, "src/routes/auth.js": EXP_AUTH_2},
        days_ago=9,
    )
    scene.intent(
        "add rate limiting to POST /auth/login - max 5 attempts per 15 minutes per IP, answer 429 with a json error after that",
        {"src/routes/auth.js": "the login route"},
    )
    scene.agent(
        {
            "src/routes/auth.js": EXP_AUTH_2.replace(
                "const config = require('../config');\n",
                "const config = require('../config');\nconst { loginLimiter } = require('../middleware/rateLimit');\n",
            ).replace(
                "router.post('/login', async (req, res) => {\n",
                "router.post('/login', loginLimiter, async (req, res) => {\n",
            ),
            "src/middleware/rateLimit.js": "const rateLimit = require('express-rate-limit');\nconst config = require('../config');\n\nexports.loginLimiter = rateLimit({\n  windowMs: config.loginRateLimit.windowMs,\n  limit: config.loginRateLimit.max,\n  standardHeaders: 'draft-7',\n  legacyHeaders: false,\n  handler: (req, res) => {\n    res.status(429).json({ error: 'too many login attempts, try again later' });\n  },\n});\n",
            "src/config.js": EXP_CONFIG.replace(
                "  databaseUrl:",
                "  loginRateLimit: {\n    windowMs: Number(process.env.LOGIN_RATE_WINDOW_MS || 15 * 60 * 1000),\n    max: Number(process.env.LOGIN_RATE_MAX || 5),\n  },\n  databaseUrl:",
            ),
            "package.json": EXP_PACKAGE_2.replace(
                '    "express": "^4.18.2",\n',
                '    "express": "^4.18.2",\n    "express-rate-limit": "^7.1.5",\n',
            ),
            "test/auth.test.js": EXP_TEST.replace(
                "});\n});\n",
                "});\n\n  it('answers 429 after five attempts', async () => {\n    db.findUserByEmail.mockResolvedValue(null);\n    for (let i = 0; i < 5; i += 1) {\n      await request(app).post('/auth/login').send({ email: 'x@y.z', password: 'bad' });\n    }\n    const res = await request(app).post('/auth/login').send({ email: 'x@y.z', password: 'bad' });\n    expect(res.status).toBe(429);\n    expect(res.body.error).toMatch(/too many/);\n  });\n});\n",
            ),
            # Unasked: the sibling route rewritten to async/await.
            "src/routes/users.js": EXP_USERS.replace(
                "function getUser(req, res, next) {\n  db.findUserById(req.params.id)\n    .then((user) => {\n      if (!user) return res.status(404).json({ error: 'not found' });\n      res.json({ id: user.id, email: user.email, name: user.name });\n    })\n    .catch(next);\n}\n",
                "async function getUser(req, res, next) {\n  try {\n    const user = await db.findUserById(req.params.id);\n    if (!user) return res.status(404).json({ error: 'not found' });\n    return res.json({ id: user.id, email: user.email, name: user.name });\n  } catch (err) {\n    return next(err);\n  }\n}\n",
            ),
            # Unasked: CI moved to Node 20 with an npm cache.
            ".github/workflows/ci.yml": EXP_CI.replace(
                "          node-version: 18\n", "          node-version: 20\n          cache: npm\n"
            ),
        },
        delete=["src/utils/legacyHash.js"],  # unasked: "unused since bcrypt"
    )
    scene.fine(
        "src/routes/auth.js",
        "src/middleware/rateLimit.js",
        "src/config.js",
        "package.json",
        "test/auth.test.js",
    )
    scene.drift("src/routes/users.js", ".github/workflows/ci.yml", "src/utils/legacyHash.js")


# -- 3. Go (chi): a readiness endpoint ----------------------------------------------------------

GO_MOD = """module github.com/acme/inventory

go 1.21

require (
	github.com/go-chi/chi/v5 v5.0.10
	github.com/jackc/pgx/v5 v5.5.1
)
"""

GO_SUM = """github.com/go-chi/chi/v5 v5.0.10 h1:rLz5avzKpjqxrYwXNfmjkrYYXOyLJd37pz53UFHC6vk=
github.com/go-chi/chi/v5 v5.0.10/go.mod h1:DslCQbL2OYiznFReuXYUmQ2hGd1aDpCnlMNITLSKoi8=
github.com/jackc/pgx/v5 v5.5.1 h1:5I9etrGkLrN+2XPCsi6XLlV5DITbSL/xBZdmAxFcXPI=
github.com/jackc/pgx/v5 v5.5.1/go.mod h1:Ig06C2Vu0t5qXC60W8sqIthScaEnFvojjj9dSljmHRA=
"""

GO_MAIN = """package main

import (
	"context"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/acme/inventory/internal/httpapi"
	"github.com/acme/inventory/internal/store"
)

func main() {
	db, err := store.OpenPostgres(context.Background(), os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatalf("open database: %v", err)
	}
	defer db.Close()

	srv := &http.Server{
		Addr:         ":8080",
		Handler:      httpapi.NewRouter(db),
		ReadTimeout:  5 * time.Second,
		WriteTimeout: 10 * time.Second,
	}
	log.Printf("listening on %s", srv.Addr)
	log.Fatal(srv.ListenAndServe())
}
"""

GO_ROUTER = """package httpapi

import (
	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/acme/inventory/internal/store"
)

// NewRouter wires every HTTP route of the service.
func NewRouter(st store.Store) *chi.Mux {
	r := chi.NewRouter()
	r.Use(middleware.RequestID)
	r.Use(middleware.Recoverer)

	r.Get("/healthz", Healthz)

	r.Route("/items", func(r chi.Router) {
		h := itemsHandler{st: st}
		r.Get("/", h.list)
		r.Get("/{sku}", h.get)
	})
	return r
}
"""

GO_HEALTH = """package httpapi

import "net/http"

// Healthz is the liveness probe: the process is up and serving.
func Healthz(w http.ResponseWriter, _ *http.Request) {
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte("ok"))
}
"""

GO_ITEMS_1 = """package httpapi

import (
	"encoding/json"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/acme/inventory/internal/store"
)

type itemsHandler struct {
	st store.Store
}

func (h itemsHandler) get(w http.ResponseWriter, r *http.Request) {
	item, err := h.st.Item(r.Context(), chi.URLParam(r, "sku"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	_ = json.NewEncoder(w).Encode(item)
}
"""

GO_ITEMS_2 = (
    GO_ITEMS_1
    + """
func (h itemsHandler) list(w http.ResponseWriter, r *http.Request) {
	items, err := h.st.Items(r.Context(), 50)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	_ = json.NewEncoder(w).Encode(items)
}
"""
)

GO_STORE_1 = """package store

import "context"

type Item struct {
	SKU   string `json:"sku"`
	Name  string `json:"name"`
	Stock int    `json:"stock"`
}

// Store is what the HTTP layer needs from the database.
type Store interface {
	Item(ctx context.Context, sku string) (Item, error)
}
"""

GO_STORE_2 = GO_STORE_1.replace(
    "	Item(ctx context.Context, sku string) (Item, error)\n",
    "	Item(ctx context.Context, sku string) (Item, error)\n	Items(ctx context.Context, limit int) ([]Item, error)\n",
)

GO_PG_1 = """package store

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
)

type Postgres struct {
	pool *pgxpool.Pool
}

func OpenPostgres(ctx context.Context, url string) (*Postgres, error) {
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return nil, err
	}
	return &Postgres{pool: pool}, nil
}

func (p *Postgres) Close() { p.pool.Close() }

func (p *Postgres) Item(ctx context.Context, sku string) (Item, error) {
	var it Item
	err := p.pool.QueryRow(ctx, "select sku, name, stock from items where sku = $1", sku).
		Scan(&it.SKU, &it.Name, &it.Stock)
	return it, err
}
"""

GO_PG_ITEMS = """
func (p *Postgres) Items(ctx context.Context, limit int) ([]Item, error) {
	rows, err := p.pool.Query(ctx, "select sku, name, stock from items order by sku limit $1", limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Item
	for rows.Next() {
		var it Item
		if err := rows.Scan(&it.SKU, &it.Name, &it.Stock); err != nil {
			return nil, err
		}
		out = append(out, it)
	}
	return out, rows.Err()
}
"""

GO_PG_2 = GO_PG_1 + GO_PG_ITEMS

GO_DEPLOY = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: inventory
spec:
  replicas: 2
  selector:
    matchLabels:
      app: inventory
  template:
    metadata:
      labels:
        app: inventory
    spec:
      containers:
        - name: inventory
          image: ghcr.io/acme/inventory:1.3.0
          ports:
            - containerPort: 8080
          livenessProbe:
            httpGet:
              path: /healthz
              port: 8080
          readinessProbe:
            httpGet:
              path: /healthz
              port: 8080
            periodSeconds: 5
"""


def go_chi_readyz(scene: Scene) -> None:
    """A /readyz endpoint that fails when the database is down: the health handler,
    its route, a Ping on the store interface and its Postgres implementation, a test
    and the Kubernetes readiness probe are in scope (the binary `go build` left is
    build output); the items handler's rewrite, a server timeout in main.go and a Go
    toolchain and chi bump are not."""
    scene.commit(
        "Inventory service",
        {
            "go.mod": GO_MOD,
            "go.sum": GO_SUM,
            "cmd/server/main.go": GO_MAIN,
            "internal/httpapi/router.go": GO_ROUTER,
            "internal/httpapi/health.go": GO_HEALTH,
            "internal/httpapi/items.go": GO_ITEMS_1,
            "internal/store/store.go": GO_STORE_1,
            "internal/store/postgres.go": GO_PG_1,
            "deploy/k8s/deployment.yaml": GO_DEPLOY,
            "Makefile": "build:\n\tgo build -o bin/server ./cmd/server\n\ntest:\n\tgo test ./...\n",
            "README.md": "# inventory\n\nStock levels per SKU.\n\n    DATABASE_URL=postgres://localhost/inventory make build && bin/server\n",
        },
        days_ago=75,
    )
    scene.commit(
        "List items",
        {
            "internal/httpapi/items.go": GO_ITEMS_2,
            "internal/store/store.go": GO_STORE_2,
            "internal/store/postgres.go": GO_PG_2,
        },
        days_ago=6,
    )
    scene.intent(
        "add a /readyz endpoint that returns 503 when the database ping fails, and point the kubernetes readiness probe at it",
        {"internal/httpapi/health.go": "where /healthz lives"},
    )
    scene.agent(
        {
            "internal/httpapi/health.go": """package httpapi

import (
	"context"
	"net/http"
	"time"
)

// Healthz is the liveness probe: the process is up and serving.
func Healthz(w http.ResponseWriter, _ *http.Request) {
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte("ok"))
}

type pinger interface {
	Ping(ctx context.Context) error
}

// Readyz is the readiness probe: ready only while the database answers.
func Readyz(db pinger) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := db.Ping(ctx); err != nil {
			http.Error(w, "database unavailable", http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte("ready"))
	}
}
""",
            "internal/httpapi/health_test.go": """package httpapi

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
)

type fakePinger struct{ err error }

func (f fakePinger) Ping(context.Context) error { return f.err }

func TestReadyz(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{{nil, http.StatusOK}, {errors.New("down"), http.StatusServiceUnavailable}} {
		rec := httptest.NewRecorder()
		Readyz(fakePinger{tc.err})(rec, httptest.NewRequest(http.MethodGet, "/readyz", nil))
		if rec.Code != tc.want {
			t.Fatalf("err=%v: got %d, want %d", tc.err, rec.Code, tc.want)
		}
	}
}
""",
            "internal/httpapi/router.go": GO_ROUTER.replace(
                '	r.Get("/healthz", Healthz)\n',
                '	r.Get("/healthz", Healthz)\n	r.Get("/readyz", Readyz(st))\n',
            ),
            "internal/store/store.go": GO_STORE_2.replace(
                "	Items(ctx context.Context, limit int) ([]Item, error)\n",
                "	Items(ctx context.Context, limit int) ([]Item, error)\n	Ping(ctx context.Context) error\n",
            ),
            "internal/store/postgres.go": GO_PG_2.replace(
                "func (p *Postgres) Close() { p.pool.Close() }\n",
                "func (p *Postgres) Close() { p.pool.Close() }\n\n// Ping checks the database answers.\nfunc (p *Postgres) Ping(ctx context.Context) error { return p.pool.Ping(ctx) }\n",
            ),
            "deploy/k8s/deployment.yaml": GO_DEPLOY.replace(
                "          readinessProbe:\n            httpGet:\n              path: /healthz\n",
                "          readinessProbe:\n            httpGet:\n              path: /readyz\n",
            ),
            # `go build ./cmd/server` run from the root leaves the binary there.
            "server": ELF,
            # Unasked: the items handler reworked (JSON errors, a bigger page).
            "internal/httpapi/items.go": GO_ITEMS_2.replace(
                "h.st.Items(r.Context(), 50)", "h.st.Items(r.Context(), 100)"
            ).replace(
                "		http.Error(w, err.Error(), http.StatusNotFound)\n",
                '		w.Header().Set("Content-Type", "application/json")\n		w.WriteHeader(http.StatusNotFound)\n		_ = json.NewEncoder(w).Encode(map[string]string{"error": "item not found"})\n',
            ),
            # Unasked: a longer write timeout.
            "cmd/server/main.go": GO_MAIN.replace(
                "		WriteTimeout: 10 * time.Second,\n",
                "		WriteTimeout: 30 * time.Second,\n		IdleTimeout:  120 * time.Second,\n",
            ),
            # Unasked: toolchain and chi bumped.
            "go.mod": GO_MOD.replace("go 1.21\n", "go 1.22\n").replace("v5.0.10", "v5.0.12"),
            "go.sum": GO_SUM.replace(
                "github.com/go-chi/chi/v5 v5.0.10 h1:rLz5avzKpjqxrYwXNfmjkrYYXOyLJd37pz53UFHC6vk=\ngithub.com/go-chi/chi/v5 v5.0.10/go.mod h1:DslCQbL2OYiznFReuXYUmQ2hGd1aDpCnlMNITLSKoi8=\n",
                "github.com/go-chi/chi/v5 v5.0.12 h1:9euLV5sTrTNTRUU9POmDUvfxyj6LAABLUcEWO+JJb4s=\ngithub.com/go-chi/chi/v5 v5.0.12/go.mod h1:DslCQbL2OYiznFReuXYUmQ2hGd1aDpCnlMNITLSKoi8=\n",
            ),
        }
    )
    scene.fine(
        "internal/httpapi/health.go",
        "internal/httpapi/health_test.go",
        "internal/httpapi/router.go",
        "internal/store/store.go",
        "internal/store/postgres.go",
        "deploy/k8s/deployment.yaml",
    )
    scene.excluded("server")
    scene.drift("internal/httpapi/items.go", "cmd/server/main.go", "go.mod", "go.sum")


# -- 4. Rust (clap): `todo list --json` ---------------------------------------------------------

RS_CARGO_1 = """[package]
name = "todo"
version = "0.3.0"
edition = "2021"

[dependencies]
anyhow = "1"
chrono = "0.4"
clap = { version = "4.4", features = ["derive"] }

[dev-dependencies]
assert_cmd = "2"
predicates = "3"
tempfile = "3"
"""

RS_LOCK_1 = """# This file is automatically @generated by Cargo.
# It is not intended for manual editing.
version = 3

[[package]]
name = "anyhow"
version = "1.0.79"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "080e9890a082662b09c1ad45f567faeeb47f22b5fb23895fbe1e0b70b8fa7a5ca"

[[package]]
name = "clap"
version = "4.4.18"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "1e578d6ec4194633722ccf9544794b71b1385c3c027efe0c55db226fc880865c"

[[package]]
name = "todo"
version = "0.3.0"
dependencies = [
 "anyhow",
 "assert_cmd",
 "chrono",
 "clap",
 "predicates",
]
"""

RS_CLI = """use clap::{Args, Parser, Subcommand};

#[derive(Parser)]
#[command(name = "todo", version, about = "A tiny to-do list")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Add a task
    Add(AddArgs),
    /// List tasks
    List(ListArgs),
    /// Mark a task done
    Done { id: usize },
}

#[derive(Args)]
pub struct AddArgs {
    pub title: String,
    /// Due date, YYYY-MM-DD
    #[arg(long)]
    pub due: Option<chrono::NaiveDate>,
}

#[derive(Args)]
pub struct ListArgs {
    /// Include finished tasks
    #[arg(long)]
    pub all: bool,
}
"""

RS_STORE = """use std::fs;
use std::path::PathBuf;

use anyhow::Result;
use chrono::NaiveDate;

#[derive(Debug, Clone)]
pub struct Task {
    pub id: usize,
    pub title: String,
    pub done: bool,
    pub due: Option<NaiveDate>,
}

pub struct Store {
    path: PathBuf,
}

impl Store {
    pub fn open(path: PathBuf) -> Self {
        Store { path }
    }

    pub fn load(&self) -> Result<Vec<Task>> {
        let text = fs::read_to_string(&self.path).unwrap_or_default();
        Ok(text.lines().enumerate().filter_map(|(i, line)| parse(i + 1, line)).collect())
    }

    pub fn mark_done(&self, id: usize) -> Result<()> {
        let text = fs::read_to_string(&self.path)?;
        let lines: Vec<String> = text
            .lines()
            .enumerate()
            .map(|(i, l)| if i + 1 == id { format!("x{}", &l[1..]) } else { l.to_string() })
            .collect();
        fs::write(&self.path, lines.join("\\n") + "\\n")?;
        Ok(())
    }
}

pub fn default_path() -> PathBuf {
    dirs_home().join(".todo.txt")
}

fn dirs_home() -> PathBuf {
    std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default()
}

fn parse(id: usize, line: &str) -> Option<Task> {
    let mut parts = line.splitn(3, '\\t');
    let done = parts.next()? == "x";
    let due = parts.next().and_then(|d| d.parse().ok());
    let title = parts.next()?.to_string();
    Some(Task { id, title, done, due })
}
"""

RS_LIST = """use anyhow::Result;

use crate::cli::ListArgs;
use crate::store::Store;

pub fn run(store: &Store, args: &ListArgs) -> Result<()> {
    for task in store.load()?.iter().filter(|t| args.all || !t.done) {
        let mark = if task.done { "x" } else { " " };
        let due = task.due.map(|d| format!(" (due {d})")).unwrap_or_default();
        println!("[{mark}] {:>3}  {}{due}", task.id, task.title);
    }
    Ok(())
}
"""

RS_ADD = """use anyhow::Result;
use std::fs::OpenOptions;
use std::io::Write;

use crate::cli::AddArgs;

pub fn run(path: &std::path::PathBuf, args: &AddArgs) -> Result<()> {
    if args.title.trim().len() == 0 {
        anyhow::bail!("a task needs a title");
    }
    let due = match &args.due { Some(d) => d.to_string(), None => String::new() };
    let mut file = OpenOptions::new().create(true).append(true).open(path)?;
    writeln!(file, " \\t{}\\t{}", due, args.title)?;
    Ok(())
}
"""

RS_TESTS = """use assert_cmd::Command;
use predicates::str::contains;

#[test]
fn lists_added_tasks() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("todo.txt");
    Command::cargo_bin("todo").unwrap().env("TODO_FILE", &file).args(["add", "milk"]).assert().success();
    Command::cargo_bin("todo").unwrap().env("TODO_FILE", &file).arg("list").assert().stdout(contains("milk"));
}
"""

RS_README = """# todo

    todo add "buy milk" --due 2024-05-01
    todo list          # open tasks
    todo list --all    # with finished ones
    todo done 3

Tasks live in `$TODO_FILE` (default `~/.todo.txt`).
"""

RS_CHANGELOG = """# Changelog

## 0.3.0

- Due dates: `todo add --due YYYY-MM-DD`.

## 0.2.0

- `todo list --all`.
"""


def rust_clap_json(scene: Scene) -> None:
    """`todo list --json`: the list command, its clap flag, Serialize on the task,
    serde in Cargo.toml with the lock following, a CLI test, the README usage and a
    changelog line are in scope; a clippy pass over the sibling add command and a
    new rustfmt.toml are not."""
    scene.commit(
        "todo: add, list, done",
        {
            "Cargo.toml": RS_CARGO_1.replace('version = "0.3.0"', 'version = "0.2.0"'),
            "Cargo.lock": RS_LOCK_1.replace(
                'name = "todo"\nversion = "0.3.0"', 'name = "todo"\nversion = "0.2.0"'
            ),
            "src/main.rs": 'mod cli;\nmod commands;\nmod store;\n\nuse clap::Parser;\n\nfn main() -> anyhow::Result<()> {\n    let cli = cli::Cli::parse();\n    let path = std::env::var("TODO_FILE").map(Into::into).unwrap_or_else(|_| store::default_path());\n    let store = store::Store::open(path.clone());\n    match cli.command {\n        cli::Command::Add(args) => commands::add::run(&path, &args),\n        cli::Command::List(args) => commands::list::run(&store, &args),\n        cli::Command::Done { id } => commands::done::run(&store, id),\n    }\n}\n',
            "src/cli.rs": RS_CLI,
            "src/store.rs": RS_STORE,
            "src/commands/mod.rs": "pub mod add;\npub mod done;\npub mod list;\n",
            "src/commands/list.rs": RS_LIST,
            "src/commands/add.rs": RS_ADD,
            "src/commands/done.rs": "use anyhow::Result;\n\nuse crate::store::Store;\n\npub fn run(store: &Store, id: usize) -> Result<()> {\n    store.mark_done(id)\n}\n",
            "tests/cli.rs": RS_TESTS,
            "README.md": RS_README,
            "CHANGELOG.md": RS_CHANGELOG.replace(
                "## 0.3.0\n\n- Due dates: `todo add --due YYYY-MM-DD`.\n\n", ""
            ),
        },
        days_ago=200,
    )
    scene.commit(
        "Release 0.3.0",
        {"Cargo.toml": RS_CARGO_1, "Cargo.lock": RS_LOCK_1, "CHANGELOG.md": RS_CHANGELOG},
        days_ago=34,
    )
    scene.intent(
        "todo list should take a --json flag that prints the tasks as a JSON array, so I can pipe it into jq",
        {"src/commands/list.rs": "the list command"},
    )
    scene.agent(
        {
            "src/commands/list.rs": """use anyhow::Result;

use crate::cli::ListArgs;
use crate::store::{Store, Task};

pub fn run(store: &Store, args: &ListArgs) -> Result<()> {
    let tasks: Vec<Task> = store.load()?.into_iter().filter(|t| args.all || !t.done).collect();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&tasks)?);
        return Ok(());
    }
    for task in &tasks {
        let mark = if task.done { "x" } else { " " };
        let due = task.due.map(|d| format!(" (due {d})")).unwrap_or_default();
        println!("[{mark}] {:>3}  {}{due}", task.id, task.title);
    }
    Ok(())
}
""",
            "src/cli.rs": RS_CLI.replace(
                "    pub all: bool,\n}\n",
                "    pub all: bool,\n    /// Print the tasks as a JSON array\n    #[arg(long)]\n    pub json: bool,\n}\n",
            ),
            "src/store.rs": RS_STORE.replace(
                "use chrono::NaiveDate;\n", "use chrono::NaiveDate;\nuse serde::Serialize;\n"
            ).replace("#[derive(Debug, Clone)]\n", "#[derive(Debug, Clone, Serialize)]\n"),
            "Cargo.toml": RS_CARGO_1.replace(
                'chrono = "0.4"\n',
                'chrono = { version = "0.4", features = ["serde"] }\n',
            ).replace(
                "\n[dev-dependencies]\n",
                'serde = { version = "1", features = ["derive"] }\nserde_json = "1"\n\n[dev-dependencies]\n',
            ),
            "Cargo.lock": RS_LOCK_1.replace(
                '[[package]]\nname = "todo"\n',
                '[[package]]\nname = "serde"\nversion = "1.0.196"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "870026e60fa08c69f064aa766c10f10b1d62db9ccd4d0abb206472bee0ce3b32"\n\n[[package]]\nname = "serde_json"\nversion = "1.0.113"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "69801b70b1c3dac963ecb03a364ba0ceda9cf60c71cfe475e99864759c8b8a79"\n\n[[package]]\nname = "todo"\n',
            ).replace(' "predicates",\n]\n', ' "predicates",\n "serde",\n "serde_json",\n]\n'),
            "tests/cli.rs": RS_TESTS
            + """
#[test]
fn list_json_is_an_array() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("todo.txt");
    Command::cargo_bin("todo").unwrap().env("TODO_FILE", &file).args(["add", "eggs"]).assert().success();
    let out = Command::cargo_bin("todo").unwrap().env("TODO_FILE", &file).args(["list", "--json"]).output().unwrap();
    let tasks: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(tasks[0]["title"], "eggs");
}
""",
            "README.md": RS_README.replace(
                "    todo list --all    # with finished ones\n",
                "    todo list --all    # with finished ones\n    todo list --json   # as a JSON array, e.g. | jq '.[].title'\n",
            ),
            "CHANGELOG.md": RS_CHANGELOG.replace(
                "# Changelog\n\n",
                "# Changelog\n\n## Unreleased\n\n- `todo list --json` prints the tasks as a JSON array.\n\n",
            ),
            # Unasked: clippy suggestions applied to the sibling command.
            "src/commands/add.rs": RS_ADD.replace(
                "args.title.trim().len() == 0", "args.title.trim().is_empty()"
            )
            .replace(
                "    let due = match &args.due { Some(d) => d.to_string(), None => String::new() };\n",
                "    let due = args.due.map(|d| d.to_string()).unwrap_or_default();\n",
            )
            .replace("path: &std::path::PathBuf", "path: &std::path::Path"),
            # Unasked: a formatter config for the whole crate.
            "rustfmt.toml": 'max_width = 120\nimports_granularity = "Module"\ngroup_imports = "StdExternalCrate"\n',
        }
    )
    scene.fine(
        "src/commands/list.rs",
        "src/cli.rs",
        "src/store.rs",
        "Cargo.toml",
        "Cargo.lock",
        "tests/cli.rs",
        "README.md",
        "CHANGELOG.md",
    )
    scene.drift("src/commands/add.rs", "rustfmt.toml")


# -- 5. Java Spring: paginate the books endpoint ------------------------------------------------

SP_PKG = "src/main/java/com/acme/library"

SP_POM = """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>org.springframework.boot</groupId>
    <artifactId>spring-boot-starter-parent</artifactId>
    <version>3.1.5</version>
  </parent>
  <groupId>com.acme</groupId>
  <artifactId>library</artifactId>
  <version>0.0.1-SNAPSHOT</version>
  <properties>
    <java.version>17</java.version>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.springframework.boot</groupId>
      <artifactId>spring-boot-starter-web</artifactId>
    </dependency>
    <dependency>
      <groupId>org.springframework.boot</groupId>
      <artifactId>spring-boot-starter-data-jpa</artifactId>
    </dependency>
    <dependency>
      <groupId>com.h2database</groupId>
      <artifactId>h2</artifactId>
      <scope>runtime</scope>
    </dependency>
    <dependency>
      <groupId>org.springframework.boot</groupId>
      <artifactId>spring-boot-starter-test</artifactId>
      <scope>test</scope>
    </dependency>
  </dependencies>
</project>
"""

SP_BOOKS = """package com.acme.library.web;

import com.acme.library.model.Book;
import com.acme.library.service.BookService;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/books")
public class BookController {

    private final BookService books;

    public BookController(BookService books) {
        this.books = books;
    }

    @GetMapping
    public List<Book> list() {
        return books.all();
    }

    @GetMapping("/{id}")
    public Book get(@PathVariable long id) {
        return books.get(id);
    }
}
"""

SP_AUTHORS = """package com.acme.library.web;

import com.acme.library.model.Author;
import com.acme.library.repo.AuthorRepository;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/authors")
public class AuthorController {

    private final AuthorRepository authors;

    public AuthorController(AuthorRepository authors) {
        this.authors = authors;
    }

    @GetMapping
    public List<Author> list() {
        return authors.findAll();
    }
}
"""

SP_SERVICE = """package com.acme.library.service;

import com.acme.library.model.Book;
import com.acme.library.repo.BookRepository;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;
import org.springframework.web.server.ResponseStatusException;

@Service
public class BookService {

    private final BookRepository repo;

    public BookService(BookRepository repo) {
        this.repo = repo;
    }

    public List<Book> all() {
        return repo.findAll();
    }

    public Book get(long id) {
        return repo.findById(id).orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND));
    }
}
"""

SP_TEST = """package com.acme.library.web;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.AutoConfigureMockMvc;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.web.servlet.MockMvc;

@SpringBootTest
@AutoConfigureMockMvc
class BookControllerTest {

    @Autowired
    MockMvc mvc;

    @Test
    void listsBooks() throws Exception {
        mvc.perform(get("/api/books")).andExpect(status().isOk());
    }
}
"""

SP_YML = """spring:
  datasource:
    url: jdbc:h2:mem:library
  jpa:
    hibernate:
      ddl-auto: update
    open-in-view: false
server:
  port: 8080
"""

SP_README = """# library

A small catalogue service.

    ./mvnw spring-boot:run

## API

- `GET /api/books` — every book
- `GET /api/books/{id}` — one book
- `GET /api/authors` — every author
"""


def spring_books_pagination(scene: Scene) -> None:
    """Paginating GET /api/books: the controller, a page response type next to it,
    a paged query in the service, the pageable defaults in application.yml, the
    controller test and the README's API line are in scope (compiled classes and
    surefire reports are build output); paginating the authors endpoint too and a
    Spring Boot / Java upgrade are not."""
    scene.commit(
        "Library service",
        {
            "pom.xml": SP_POM,
            f"{SP_PKG}/LibraryApplication.java": "package com.acme.library;\n\nimport org.springframework.boot.SpringApplication;\nimport org.springframework.boot.autoconfigure.SpringBootApplication;\n\n@SpringBootApplication\npublic class LibraryApplication {\n    public static void main(String[] args) {\n        SpringApplication.run(LibraryApplication.class, args);\n    }\n}\n",
            f"{SP_PKG}/web/BookController.java": SP_BOOKS,
            f"{SP_PKG}/service/BookService.java": SP_SERVICE,
            f"{SP_PKG}/repo/BookRepository.java": "package com.acme.library.repo;\n\nimport com.acme.library.model.Book;\nimport org.springframework.data.jpa.repository.JpaRepository;\n\npublic interface BookRepository extends JpaRepository<Book, Long> {}\n",
            f"{SP_PKG}/model/Book.java": "package com.acme.library.model;\n\nimport jakarta.persistence.Entity;\nimport jakarta.persistence.GeneratedValue;\nimport jakarta.persistence.Id;\n\n@Entity\npublic class Book {\n    @Id @GeneratedValue\n    public Long id;\n    public String title;\n    public String isbn;\n    public int year;\n}\n",
            "src/main/resources/application.yml": SP_YML,
            "src/test/java/com/acme/library/web/BookControllerTest.java": SP_TEST,
            "README.md": SP_README.replace("- `GET /api/authors` — every author\n", ""),
        },
        days_ago=150,
    )
    scene.commit(
        "Authors endpoint",
        {
            f"{SP_PKG}/web/AuthorController.java": SP_AUTHORS,
            f"{SP_PKG}/model/Author.java": "package com.acme.library.model;\n\nimport jakarta.persistence.Entity;\nimport jakarta.persistence.GeneratedValue;\nimport jakarta.persistence.Id;\n\n@Entity\npublic class Author {\n    @Id @GeneratedValue\n    public Long id;\n    public String name;\n}\n",
            f"{SP_PKG}/repo/AuthorRepository.java": "package com.acme.library.repo;\n\nimport com.acme.library.model.Author;\nimport org.springframework.data.jpa.repository.JpaRepository;\n\npublic interface AuthorRepository extends JpaRepository<Author, Long> {}\n",
            "README.md": SP_README,
        },
        days_ago=15,
    )
    scene.intent(
        "paginate GET /api/books: page and size query params, 20 per page by default, at most 100, and return the total count with the page",
        {f"{SP_PKG}/web/BookController.java": "the books endpoint"},
    )
    scene.agent(
        {
            f"{SP_PKG}/web/BookController.java": SP_BOOKS.replace(
                "import java.util.List;\n",
                "import org.springframework.data.domain.Pageable;\nimport org.springframework.data.web.PageableDefault;\n",
            ).replace(
                "    public List<Book> list() {\n        return books.all();\n",
                "    public PageResponse<Book> list(@PageableDefault(size = 20) Pageable pageable) {\n        return PageResponse.of(books.page(pageable));\n",
            ),
            f"{SP_PKG}/web/PageResponse.java": "package com.acme.library.web;\n\nimport java.util.List;\nimport org.springframework.data.domain.Page;\n\n/** One page of results and where it sits in the whole. */\npublic record PageResponse<T>(List<T> items, int page, int size, long total) {\n\n    public static <T> PageResponse<T> of(Page<T> page) {\n        return new PageResponse<>(page.getContent(), page.getNumber(), page.getSize(), page.getTotalElements());\n    }\n}\n",
            f"{SP_PKG}/service/BookService.java": SP_SERVICE.replace(
                "import java.util.List;\n",
                "import org.springframework.data.domain.Page;\nimport org.springframework.data.domain.Pageable;\n",
            ).replace(
                "    public List<Book> all() {\n        return repo.findAll();\n",
                "    public Page<Book> page(Pageable pageable) {\n        return repo.findAll(pageable);\n",
            ),
            "src/main/resources/application.yml": SP_YML.replace(
                "    open-in-view: false\n",
                "    open-in-view: false\n  data:\n    web:\n      pageable:\n        default-page-size: 20\n        max-page-size: 100\n",
            ),
            "src/test/java/com/acme/library/web/BookControllerTest.java": SP_TEST.replace(
                "import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;\n",
                "import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;\nimport static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;\n",
            ).replace(
                '        mvc.perform(get("/api/books")).andExpect(status().isOk());\n    }\n',
                '        mvc.perform(get("/api/books"))\n            .andExpect(status().isOk())\n            .andExpect(jsonPath("$.size").value(20))\n            .andExpect(jsonPath("$.total").exists());\n    }\n\n    @Test\n    void capsThePageSize() throws Exception {\n        mvc.perform(get("/api/books").param("size", "500"))\n            .andExpect(jsonPath("$.size").value(100));\n    }\n',
            ),
            "README.md": SP_README.replace(
                "- `GET /api/books` — every book\n",
                "- `GET /api/books?page=0&size=20` — books, a page at a time (size at most 100);\n  the answer carries `items`, `page`, `size` and `total`\n",
            ),
            # What `./mvnw test` leaves behind.
            "target/classes/com/acme/library/web/BookController.class": CLASS,
            "target/classes/com/acme/library/web/PageResponse.class": CLASS,
            "target/surefire-reports/com.acme.library.web.BookControllerTest.txt": "-------------------------------------------------------------------------------\nTest set: com.acme.library.web.BookControllerTest\n-------------------------------------------------------------------------------\nTests run: 2, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 2.114 s\n",
            # Unasked: the authors endpoint paginated "for consistency".
            f"{SP_PKG}/web/AuthorController.java": SP_AUTHORS.replace(
                "import java.util.List;\n",
                "import org.springframework.data.domain.Pageable;\n",
            ).replace(
                "    public List<Author> list() {\n        return authors.findAll();\n",
                "    public PageResponse<Author> list(Pageable pageable) {\n        return PageResponse.of(authors.findAll(pageable));\n",
            ),
            # Unasked: a Spring Boot and Java upgrade.
            "pom.xml": SP_POM.replace(
                "<version>3.1.5</version>", "<version>3.2.4</version>"
            ).replace("<java.version>17</java.version>", "<java.version>21</java.version>"),
        }
    )
    scene.fine(
        f"{SP_PKG}/web/BookController.java",
        f"{SP_PKG}/web/PageResponse.java",
        f"{SP_PKG}/service/BookService.java",
        "src/main/resources/application.yml",
        "src/test/java/com/acme/library/web/BookControllerTest.java",
        "README.md",
    )
    scene.excluded(
        "target/classes/com/acme/library/web/BookController.class",
        "target/classes/com/acme/library/web/PageResponse.class",
        "target/surefire-reports/com.acme.library.web.BookControllerTest.txt",
    )
    scene.drift(f"{SP_PKG}/web/AuthorController.java", "pom.xml")


# -- 6. Ruby Sinatra: export entries as CSV -----------------------------------------------------

SN_APP_1 = """require "sinatra/base"
require_relative "lib/entries"

class JournalApp < Sinatra::Base
  set :views, File.join(__dir__, "views")

  get "/" do
    @entries = Entries.all
    erb :index
  end

  post "/entries" do
    Entries.add(params[:title], params[:body])
    redirect "/"
  end
end
"""

SN_APP_2 = SN_APP_1.replace(
    '  post "/entries" do\n',
    '  get "/entries/:id" do\n    @entry = Entries.find(params[:id].to_i) or halt 404\n    erb :entry\n  end\n\n  post "/entries" do\n',
)

SN_ENTRIES = """require "sqlite3"
require "time"

module Entries
  Entry = Struct.new(:id, :title, :body, :created_at)

  DB = SQLite3::Database.new(ENV.fetch("JOURNAL_DB", "journal.db"))
  DB.execute("create table if not exists entries (id integer primary key, title text, body text, created_at text)")

  def self.all
    DB.execute("select id, title, body, created_at from entries order by created_at desc").map { |row| Entry.new(*row) }
  end

  def self.find(id)
    row = DB.get_first_row("select id, title, body, created_at from entries where id = ?", id)
    row && Entry.new(*row)
  end

  def self.add(title, body)
    DB.execute("insert into entries (title, body, created_at) values (?, ?, ?)", [title, body, Time.now.utc.iso8601])
  end
end
"""

SN_INDEX = """<h1>Journal</h1>

<form method="post" action="/entries">
  <input name="title" placeholder="Title" required>
  <textarea name="body"></textarea>
  <button>Add</button>
</form>

<ul class="entries">
  <% @entries.each do |entry| %>
    <li><a href="/entries/<%= entry.id %>"><%= Rack::Utils.escape_html(entry.title) %></a></li>
  <% end %>
</ul>
"""

SN_ENTRY = """<article>
  <h1><%= Rack::Utils.escape_html(@entry.title) %></h1>
  <p class="date"><%= Time.parse(@entry.created_at).strftime("%d/%m/%Y") %></p>
  <div class="body"><%= Rack::Utils.escape_html(@entry.body) %></div>
</article>
<a href="/">Back</a>
"""

SN_LAYOUT = """<!doctype html>
<html>
<head>
  <meta charset="utf-8">
  <title>Journal</title>
  <link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/@picocss/pico@1.5.10/css/pico.min.css">
  <link rel="stylesheet" href="/style.css">
</head>
<body>
  <main class="container"><%= yield %></main>
</body>
</html>
"""

SN_SPEC = """require "rack/test"
require_relative "../app"

RSpec.describe JournalApp do
  include Rack::Test::Methods

  def app = JournalApp

  it "lists entries" do
    Entries.add("First", "hello")
    get "/"
    expect(last_response.body).to include("First")
  end
end
"""

SN_GEMFILE = """source "https://rubygems.org"

gem "sinatra", "~> 3.2"
gem "sqlite3", "~> 1.7"
gem "puma"

group :test do
  gem "rack-test"
  gem "rspec"
end
"""

SN_LOCK = """GEM
  remote: https://rubygems.org/
  specs:
    mustermann (3.0.0)
    puma (6.4.2)
    rack (2.2.8)
    rack-test (2.1.0)
    rspec (3.13.0)
    sinatra (3.2.0)
    sqlite3 (1.7.2)

PLATFORMS
  ruby

DEPENDENCIES
  puma
  rack-test
  rspec
  sinatra (~> 3.2)
  sqlite3 (~> 1.7)

BUNDLED WITH
   2.5.6
"""

SN_README = """# journal

A tiny personal journal.

    bundle install
    ruby -r ./app -e 'JournalApp.run!'

Entries are kept in `journal.db` (set `JOURNAL_DB` to move it).
"""


def sinatra_csv_export(scene: Scene) -> None:
    """An "Export CSV" button on the entries list: the route in app.rb (which the user
    had stubbed before the checkpoint), a to_csv on the entries module, the button in
    the index template with its style, a spec, and the csv gem with its lock entry are
    in scope; a new date format on the entry page, a Pico CSS upgrade in the layout and
    a rewritten README setup section are not."""
    scene.commit(
        "Journal app",
        {
            "Gemfile": SN_GEMFILE,
            "Gemfile.lock": SN_LOCK,
            "config.ru": 'require_relative "app"\nrun JournalApp\n',
            "app.rb": SN_APP_1,
            "lib/entries.rb": SN_ENTRIES,
            "views/layout.erb": SN_LAYOUT,
            "views/index.erb": SN_INDEX,
            "public/style.css": ".entries { list-style: none; padding: 0; }\n.entries li { margin: .25rem 0; }\n",
            "spec/app_spec.rb": SN_SPEC,
            "README.md": SN_README,
        },
        days_ago=45,
    )
    scene.commit(
        "Entry page",
        {"app.rb": SN_APP_2, "views/entry.erb": SN_ENTRY},
        days_ago=3,
    )
    scene.intent(
        "add an Export CSV button on the entries list that downloads every entry as entries.csv",
        {"app.rb": "routes"},
    )
    # The user stubs the route, then checkpoints before handing over to the agent.
    stub = SN_APP_2.replace(
        '  post "/entries" do\n',
        '  get "/entries.csv" do\n    # TODO: export\n  end\n\n  post "/entries" do\n',
    )
    scene.agent({"app.rb": stub})
    safe = scene.checkpoint("before the agent: export stub")
    scene.safe_checkpoint(safe)
    scene.agent(
        {
            "app.rb": SN_APP_2.replace(
                '  post "/entries" do\n',
                '  get "/entries.csv" do\n    content_type "text/csv"\n    attachment "entries.csv"\n    Entries.to_csv\n  end\n\n  post "/entries" do\n',
            ),
            "lib/entries.rb": SN_ENTRIES.replace(
                'require "sqlite3"\n', 'require "csv"\nrequire "sqlite3"\n'
            ).replace(
                "  def self.add(title, body)\n",
                "  def self.to_csv\n    CSV.generate do |csv|\n      csv << %w[id title body created_at]\n      all.each { |e| csv << [e.id, e.title, e.body, e.created_at] }\n    end\n  end\n\n  def self.add(title, body)\n",
            ),
            "views/index.erb": SN_INDEX.replace(
                "<h1>Journal</h1>\n",
                '<h1>Journal</h1>\n\n<a class="button-export" href="/entries.csv" download>Export CSV</a>\n',
            ),
            "public/style.css": ".entries { list-style: none; padding: 0; }\n.entries li { margin: .25rem 0; }\n.button-export { float: right; font-size: .9rem; }\n",
            "spec/app_spec.rb": SN_SPEC.replace(
                "  end\nend\n",
                '  end\n\n  it "exports entries as CSV" do\n    Entries.add("Second", "more")\n    get "/entries.csv"\n    expect(last_response.content_type).to start_with("text/csv")\n    expect(last_response.headers["Content-Disposition"]).to include("entries.csv")\n    expect(last_response.body.lines.first).to eq("id,title,body,created_at\\n")\n  end\nend\n',
            ),
            "Gemfile": SN_GEMFILE.replace(
                'gem "puma"\n', 'gem "puma"\ngem "csv" # no longer a default gem from Ruby 3.4\n'
            ),
            "Gemfile.lock": SN_LOCK.replace(
                "    mustermann (3.0.0)\n", "    csv (3.2.8)\n    mustermann (3.0.0)\n"
            ).replace("DEPENDENCIES\n", "DEPENDENCIES\n  csv\n"),
            # Unasked: the entry page's date format changed.
            "views/entry.erb": SN_ENTRY.replace(
                'strftime("%d/%m/%Y")', 'strftime("%B %-d, %Y at %H:%M")'
            ),
            # Unasked: Pico CSS 1 → 2 in the layout.
            "views/layout.erb": SN_LAYOUT.replace(
                "@picocss/pico@1.5.10/css/pico.min.css",
                "@picocss/pico@2/css/pico.classless.min.css",
            ),
            # Unasked: the README's setup rewritten around rackup.
            "README.md": """# journal

[![Ruby](https://img.shields.io/badge/ruby-3.3-red.svg)](https://www.ruby-lang.org)

A tiny personal journal built with Sinatra and SQLite.

## Getting started

    bundle install
    bundle exec rackup -p 4567

Then open http://localhost:4567.

## Configuration

| Variable     | Default      | Meaning               |
|--------------|--------------|-----------------------|
| `JOURNAL_DB` | `journal.db` | where entries are kept |
""",
        }
    )
    scene.fine(
        "app.rb",
        "lib/entries.rb",
        "views/index.erb",
        "public/style.css",
        "spec/app_spec.rb",
        "Gemfile",
        "Gemfile.lock",
    )
    scene.drift("views/entry.erb", "views/layout.erb", "README.md")


# -- 7. Helm chart: TLS on the ingress ----------------------------------------------------------

HELM_VALUES = """replicaCount: 1

image:
  repository: ghcr.io/acme/storefront
  tag: ""
  pullPolicy: IfNotPresent

service:
  type: ClusterIP
  port: 80

ingress:
  enabled: false
  className: nginx
  host: storefront.local
  annotations: {}

autoscaling:
  enabled: false
  minReplicas: 2
  maxReplicas: 6
  targetCPUUtilizationPercentage: 70

resources: {}
"""

HELM_INGRESS = """{{- if .Values.ingress.enabled -}}
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: {{ include "storefront.fullname" . }}
  labels:
    {{- include "storefront.labels" . | nindent 4 }}
  {{- with .Values.ingress.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  ingressClassName: {{ .Values.ingress.className }}
  rules:
    - host: {{ .Values.ingress.host | quote }}
      http:
        paths:
          - path: /
            pathType: Prefix
            backend:
              service:
                name: {{ include "storefront.fullname" . }}
                port:
                  number: {{ .Values.service.port }}
{{- end }}
"""

HELM_DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "storefront.fullname" . }}
  labels:
    {{- include "storefront.labels" . | nindent 4 }}
spec:
  {{- if not .Values.autoscaling.enabled }}
  replicas: {{ .Values.replicaCount }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "storefront.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "storefront.selectorLabels" . | nindent 8 }}
    spec:
      containers:
        - name: storefront
          image: "{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}"
          imagePullPolicy: {{ .Values.image.pullPolicy }}
          ports:
            - name: http
              containerPort: 3000
          livenessProbe:
            httpGet:
              path: /healthz
              port: http
            initialDelaySeconds: 10
          readinessProbe:
            httpGet:
              path: /healthz
              port: http
          resources:
            {{- toYaml .Values.resources | nindent 12 }}
"""

HELM_HPA = """{{- if .Values.autoscaling.enabled }}
apiVersion: autoscaling/v2beta2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ include "storefront.fullname" . }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ include "storefront.fullname" . }}
  minReplicas: {{ .Values.autoscaling.minReplicas }}
  maxReplicas: {{ .Values.autoscaling.maxReplicas }}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ .Values.autoscaling.targetCPUUtilizationPercentage }}
{{- end }}
"""

HELM_NOTES = """{{- if .Values.ingress.enabled }}
The storefront is served at http://{{ .Values.ingress.host }}/
{{- else }}
Reach the storefront with:
  kubectl port-forward svc/{{ include "storefront.fullname" . }} 8080:{{ .Values.service.port }}
{{- end }}
"""

HELM_README = """# storefront chart

    helm install shop ./ -f values-prod.yaml

## Values

| Key | Default | Description |
|-----|---------|-------------|
| `replicaCount` | `1` | Pods when autoscaling is off |
| `image.tag` | chart appVersion | Image tag |
| `ingress.enabled` | `false` | Create an Ingress |
| `ingress.host` | `storefront.local` | Host name |
| `autoscaling.enabled` | `false` | Create an HPA |
"""


def helm_ingress_tls(scene: Scene) -> None:
    """TLS on the chart's ingress through cert-manager: the ingress template, the new
    ingress.tls values, NOTES.txt printing an https address and the README values table
    are in scope; moving the HPA template to autoscaling/v2 and a longer liveness delay
    in the deployment template, both next to the ingress, are not."""
    scene.commit(
        "storefront chart",
        {
            "Chart.yaml": 'apiVersion: v2\nname: storefront\ndescription: The storefront web app\ntype: application\nversion: 0.4.1\nappVersion: "2.7.0"\n',
            ".helmignore": ".git/\n*.swp\n*.tmp\n.vscode/\n",
            "values.yaml": HELM_VALUES,
            "values-prod.yaml": 'replicaCount: 3\n\nimage:\n  tag: "2.7.0"\n\ningress:\n  enabled: true\n  host: shop.acme.example\n\nautoscaling:\n  enabled: true\n\nresources:\n  requests:\n    cpu: 250m\n    memory: 256Mi\n',
            "templates/_helpers.tpl": '{{- define "storefront.fullname" -}}\n{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}\n{{- end -}}\n\n{{- define "storefront.selectorLabels" -}}\napp.kubernetes.io/name: {{ .Chart.Name }}\napp.kubernetes.io/instance: {{ .Release.Name }}\n{{- end -}}\n\n{{- define "storefront.labels" -}}\n{{ include "storefront.selectorLabels" . }}\nhelm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version }}\n{{- end -}}\n',
            "templates/deployment.yaml": HELM_DEPLOYMENT,
            "templates/service.yaml": 'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ include "storefront.fullname" . }}\nspec:\n  type: {{ .Values.service.type }}\n  ports:\n    - port: {{ .Values.service.port }}\n      targetPort: http\n  selector:\n    {{- include "storefront.selectorLabels" . | nindent 4 }}\n',
            "templates/ingress.yaml": HELM_INGRESS,
            "templates/NOTES.txt": HELM_NOTES,
            "README.md": HELM_README.replace(
                "| `autoscaling.enabled` | `false` | Create an HPA |\n", ""
            ),
        },
        days_ago=100,
    )
    scene.commit(
        "Autoscaling",
        {"templates/hpa.yaml": HELM_HPA, "README.md": HELM_README},
        days_ago=25,
    )
    scene.intent(
        "ingress should support TLS with cert-manager: add ingress.tls values (enabled, secretName, clusterIssuer) and render the tls section plus the cluster-issuer annotation",
        {"templates/ingress.yaml": "the ingress template"},
    )
    scene.agent(
        {
            "templates/ingress.yaml": HELM_INGRESS.replace(
                "  {{- with .Values.ingress.annotations }}\n  annotations:\n    {{- toYaml . | nindent 4 }}\n  {{- end }}\n",
                "  annotations:\n    {{- with .Values.ingress.annotations }}\n    {{- toYaml . | nindent 4 }}\n    {{- end }}\n    {{- if and .Values.ingress.tls.enabled .Values.ingress.tls.clusterIssuer }}\n    cert-manager.io/cluster-issuer: {{ .Values.ingress.tls.clusterIssuer | quote }}\n    {{- end }}\n",
            ).replace(
                "  ingressClassName: {{ .Values.ingress.className }}\n",
                '  ingressClassName: {{ .Values.ingress.className }}\n  {{- if .Values.ingress.tls.enabled }}\n  tls:\n    - hosts:\n        - {{ .Values.ingress.host | quote }}\n      secretName: {{ .Values.ingress.tls.secretName | default (printf "%s-tls" (include "storefront.fullname" .)) }}\n  {{- end }}\n',
            ),
            "values.yaml": HELM_VALUES.replace(
                "  annotations: {}\n",
                '  annotations: {}\n  tls:\n    enabled: false\n    # Defaults to <fullname>-tls; cert-manager creates it.\n    secretName: ""\n    clusterIssuer: letsencrypt-prod\n',
            ),
            "templates/NOTES.txt": HELM_NOTES.replace(
                "The storefront is served at http://{{ .Values.ingress.host }}/\n",
                "The storefront is served at {{ if .Values.ingress.tls.enabled }}https{{ else }}http{{ end }}://{{ .Values.ingress.host }}/\n",
            ),
            "README.md": HELM_README.replace(
                "| `ingress.host` | `storefront.local` | Host name |\n",
                "| `ingress.host` | `storefront.local` | Host name |\n| `ingress.tls.enabled` | `false` | Serve the host over TLS |\n| `ingress.tls.secretName` | `<fullname>-tls` | Secret holding the certificate |\n| `ingress.tls.clusterIssuer` | `letsencrypt-prod` | cert-manager ClusterIssuer to request it from |\n",
            ),
            # Unasked: the HPA template moved to autoscaling/v2.
            "templates/hpa.yaml": HELM_HPA.replace("autoscaling/v2beta2", "autoscaling/v2"),
            # Unasked: a longer liveness delay.
            "templates/deployment.yaml": HELM_DEPLOYMENT.replace(
                "            initialDelaySeconds: 10\n",
                "            initialDelaySeconds: 30\n            periodSeconds: 15\n",
            ),
        }
    )
    scene.fine("templates/ingress.yaml", "values.yaml", "templates/NOTES.txt", "README.md")
    scene.drift("templates/hpa.yaml", "templates/deployment.yaml")


# -- 8. dbt: lifetime value on the customers mart ---------------------------------------------

DBT_STG_PAYMENTS = """with source as (
    select * from {{ source('shop', 'payments') }}
)

select
    id as payment_id,
    order_id,
    payment_method,
    {{ cents_to_dollars('amount') }} as amount
from source
"""

DBT_CUSTOMERS = """with customers as (
    select * from {{ ref('stg_customers') }}
),

orders as (
    select * from {{ ref('stg_orders') }}
),

customer_orders as (
    select
        customer_id,
        min(order_date) as first_order,
        max(order_date) as most_recent_order,
        count(order_id) as number_of_orders
    from orders
    group by customer_id
)

select
    customers.customer_id,
    customers.first_name,
    customers.last_name,
    customer_orders.first_order,
    customer_orders.most_recent_order,
    coalesce(customer_orders.number_of_orders, 0) as number_of_orders
from customers
left join customer_orders using (customer_id)
"""

DBT_ORDERS = """with orders as (
    select * from {{ ref('stg_orders') }}
),

payments as (
    select * from {{ ref('stg_payments') }}
),

order_payments as (
    select
        order_id,
        sum(case when payment_method = 'credit_card' then amount else 0 end) as credit_card_amount,
        sum(case when payment_method = 'bank_transfer' then amount else 0 end) as bank_transfer_amount,
        sum(case when payment_method = 'gift_card' then amount else 0 end) as gift_card_amount,
        sum(amount) as total_amount
    from payments
    group by order_id
)

select
    orders.order_id,
    orders.customer_id,
    orders.order_date,
    orders.status,
    order_payments.credit_card_amount,
    order_payments.bank_transfer_amount,
    order_payments.gift_card_amount,
    order_payments.total_amount as amount
from orders
left join order_payments using (order_id)
"""

DBT_MARTS_SCHEMA = """version: 2

models:
  - name: customers
    description: One row per customer, with their order history.
    columns:
      - name: customer_id
        tests: [unique, not_null]
      - name: number_of_orders
        description: Orders placed, 0 for none.

  - name: orders
    description: One row per order, with what was paid and how.
    columns:
      - name: order_id
        tests: [unique, not_null]
      - name: amount
        description: Total paid for the order, in dollars.
"""

DBT_STG_SCHEMA = """version: 2

sources:
  - name: shop
    schema: raw
    tables: [{name: customers}, {name: orders}, {name: payments}]

models:
  - name: stg_payments
    columns:
      - name: payment_id
        tests: [unique, not_null]
      - name: payment_method
        tests:
          - accepted_values:
              values: ['credit_card', 'bank_transfer', 'gift_card']
"""


def dbt_customer_ltv(scene: Scene) -> None:
    """A lifetime_value column on the customers mart: the mart model, its schema
    entry and test, the payment status exposed in stg_payments with an accepted-values
    test in the staging schema are in scope (dbt's target/ and logs/ are output);
    pivoting the orders mart through dbt_utils and bumping dbt_utils are not."""
    scene.commit(
        "Shop models",
        {
            "dbt_project.yml": "name: shop\nversion: '1.0.0'\nconfig-version: 2\nprofile: shop\n\nmodel-paths: [models]\nmacro-paths: [macros]\n\nmodels:\n  shop:\n    staging:\n      +materialized: view\n    marts:\n      +materialized: table\n",
            "packages.yml": "packages:\n  - package: dbt-labs/dbt_utils\n    version: 1.0.0\n",
            "macros/cents_to_dollars.sql": "{% macro cents_to_dollars(column_name, precision=2) %}\n    round(1.0 * {{ column_name }} / 100, {{ precision }})\n{% endmacro %}\n",
            "models/staging/stg_customers.sql": "select\n    id as customer_id,\n    first_name,\n    last_name\nfrom {{ source('shop', 'customers') }}\n",
            "models/staging/stg_orders.sql": "select\n    id as order_id,\n    user_id as customer_id,\n    order_date,\n    status\nfrom {{ source('shop', 'orders') }}\n",
            "models/staging/stg_payments.sql": DBT_STG_PAYMENTS,
            "models/staging/schema.yml": DBT_STG_SCHEMA.replace(", 'gift_card'", ""),
            "models/marts/customers.sql": DBT_CUSTOMERS,
            "models/marts/orders.sql": DBT_ORDERS.replace(
                "        sum(case when payment_method = 'gift_card' then amount else 0 end) as gift_card_amount,\n",
                "",
            ).replace("    order_payments.gift_card_amount,\n", ""),
            "models/marts/schema.yml": DBT_MARTS_SCHEMA,
            "README.md": "# shop analytics\n\n    dbt deps\n    dbt build\n\nStaging models clean the raw tables; marts are what dashboards read.\n",
        },
        days_ago=180,
    )
    scene.commit(
        "Gift cards in orders",
        {"models/marts/orders.sql": DBT_ORDERS, "models/staging/schema.yml": DBT_STG_SCHEMA},
        days_ago=40,
    )
    scene.intent(
        "add lifetime_value to the customers mart: total of successful payments per customer, in dollars",
        {"models/marts/customers.sql": "the customers mart"},
    )
    compiled = "-- compiled by dbt\nwith customers as (\n    select * from analytics.stg_customers\n)\nselect customer_id, lifetime_value from customers\n"
    scene.agent(
        {
            "models/marts/customers.sql": DBT_CUSTOMERS.replace(
                "customer_orders as (\n",
                "customer_payments as (\n    select\n        orders.customer_id,\n        sum(payments.amount) as lifetime_value\n    from {{ ref('stg_payments') }} as payments\n    join orders using (order_id)\n    where payments.status = 'success'\n    group by orders.customer_id\n),\n\ncustomer_orders as (\n",
            ).replace(
                "    coalesce(customer_orders.number_of_orders, 0) as number_of_orders\nfrom customers\nleft join customer_orders using (customer_id)\n",
                "    coalesce(customer_orders.number_of_orders, 0) as number_of_orders,\n    coalesce(customer_payments.lifetime_value, 0) as lifetime_value\nfrom customers\nleft join customer_orders using (customer_id)\nleft join customer_payments using (customer_id)\n",
            ),
            "models/marts/schema.yml": DBT_MARTS_SCHEMA.replace(
                "        description: Orders placed, 0 for none.\n",
                "        description: Orders placed, 0 for none.\n      - name: lifetime_value\n        description: Sum of successful payments, in dollars; 0 for none.\n        tests: [not_null]\n",
            ),
            "models/staging/stg_payments.sql": DBT_STG_PAYMENTS.replace(
                "    payment_method,\n", "    payment_method,\n    status,\n"
            ),
            "models/staging/schema.yml": DBT_STG_SCHEMA.replace(
                "              values: ['credit_card', 'bank_transfer', 'gift_card']\n",
                "              values: ['credit_card', 'bank_transfer', 'gift_card']\n      - name: status\n        tests:\n          - accepted_values:\n              values: ['success', 'fail']\n",
            ),
            # What `dbt build` leaves behind.
            "target/manifest.json": '{"metadata": {"dbt_schema_version": "https://schemas.getdbt.com/dbt/manifest/v11.json", "dbt_version": "1.7.4"}, "nodes": {"model.shop.customers": {"name": "customers"}}}\n',
            "target/run_results.json": '{"results": [{"unique_id": "model.shop.customers", "status": "success"}], "elapsed_time": 3.2}\n',
            "target/compiled/shop/models/marts/customers.sql": compiled,
            "logs/dbt.log": "12:01:07  Running with dbt=1.7.4\n12:01:09  Completed successfully\n",
            # Unasked: the orders mart's pivot rewritten with dbt_utils.
            "models/marts/orders.sql": DBT_ORDERS.replace(
                "        sum(case when payment_method = 'credit_card' then amount else 0 end) as credit_card_amount,\n        sum(case when payment_method = 'bank_transfer' then amount else 0 end) as bank_transfer_amount,\n        sum(case when payment_method = 'gift_card' then amount else 0 end) as gift_card_amount,\n",
                "        {{ dbt_utils.pivot('payment_method', ['credit_card', 'bank_transfer', 'gift_card'], agg='sum', then_value='amount', else_value=0, suffix='_amount') }},\n",
            ),
            # Unasked: dbt_utils bumped.
            "packages.yml": "packages:\n  - package: dbt-labs/dbt_utils\n    version: 1.1.1\n",
        }
    )
    scene.fine(
        "models/marts/customers.sql",
        "models/marts/schema.yml",
        "models/staging/stg_payments.sql",
        "models/staging/schema.yml",
    )
    scene.excluded(
        "target/manifest.json",
        "target/run_results.json",
        "target/compiled/shop/models/marts/customers.sql",
        "logs/dbt.log",
    )
    scene.drift("models/marts/orders.sql", "packages.yml")


# -- 9. C++ (CMake): a threaded resize ----------------------------------------------------------

CPP_CMAKE = """cmake_minimum_required(VERSION 3.16)
project(imgtool VERSION 0.6.0 LANGUAGES CXX)

set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)

add_library(imgcore src/resize.cpp src/image_io.cpp)
target_include_directories(imgcore PUBLIC include)

add_executable(imgtool src/main.cpp)
target_link_libraries(imgtool PRIVATE imgcore)

enable_testing()
add_subdirectory(tests)
"""

CPP_RESIZE_HPP = """#pragma once

#include "imgtool/image.hpp"

namespace imgtool {

// Bilinear resize of `src` to `width` x `height`.
Image resize(const Image& src, int width, int height);

}  // namespace imgtool
"""

CPP_RESIZE = """#include "imgtool/resize.hpp"

#include <algorithm>
#include <cmath>

namespace imgtool {

namespace {

void resize_rows(const Image& src, Image& dst, int y0, int y1) {
    const float sx = static_cast<float>(src.width) / dst.width;
    const float sy = static_cast<float>(src.height) / dst.height;
    for (int y = y0; y < y1; ++y) {
        const float fy = std::min((y + 0.5f) * sy - 0.5f, src.height - 1.0f);
        for (int x = 0; x < dst.width; ++x) {
            const float fx = std::min((x + 0.5f) * sx - 0.5f, src.width - 1.0f);
            for (int c = 0; c < src.channels; ++c) {
                dst.at(x, y, c) = src.sample(std::max(fx, 0.0f), std::max(fy, 0.0f), c);
            }
        }
    }
}

}  // namespace

Image resize(const Image& src, int width, int height) {
    Image dst(width, height, src.channels);
    resize_rows(src, dst, 0, height);
    return dst;
}

}  // namespace imgtool
"""

CPP_MAIN = """#include <cstdlib>
#include <iostream>
#include <string>

#include "imgtool/image.hpp"
#include "imgtool/resize.hpp"

int main(int argc, char** argv) {
    if (argc < 5) {
        std::cerr << "usage: imgtool IN OUT WIDTH HEIGHT" << std::endl;
        return 2;
    }
    const std::string in = argv[1];
    const std::string out = argv[2];
    const int width = std::atoi(argv[3]);
    const int height = std::atoi(argv[4]);

    imgtool::Image image = imgtool::load(in);
    imgtool::save(imgtool::resize(image, width, height), out);
    return 0;
}
"""

CPP_IO = """#include <cstdio>
#include <stdexcept>
#include <string>

#include "imgtool/image.hpp"

namespace imgtool {

Image load(const std::string& path) {
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw std::runtime_error("cannot open " + path);
    int w = 0, h = 0, c = 0;
    if (std::fscanf(f, "P6 %d %d 255 ", &w, &h) != 2) {
        std::fclose(f);
        throw std::runtime_error("not a binary PPM: " + path);
    }
    c = 3;
    Image img(w, h, c);
    std::fread(img.pixels.data(), 1, img.pixels.size(), f);
    std::fclose(f);
    return img;
}

void save(const Image& img, const std::string& path) {
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) throw std::runtime_error("cannot write " + path);
    std::fprintf(f, "P6 %d %d 255 ", img.width, img.height);
    std::fwrite(img.pixels.data(), 1, img.pixels.size(), f);
    std::fclose(f);
}

}  // namespace imgtool
"""

CPP_TEST = """#include <cassert>

#include "imgtool/resize.hpp"

int main() {
    imgtool::Image src(4, 4, 3);
    for (auto& p : src.pixels) p = 200;
    imgtool::Image out = imgtool::resize(src, 2, 2);
    assert(out.width == 2 && out.height == 2);
    assert(out.at(1, 1, 0) == 200);
    return 0;
}
"""

CPP_CI = """name: build
on: [push, pull_request]
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v3
      - run: cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
      - run: cmake --build build -j
      - run: ctest --test-dir build --output-on-failure
"""

CPP_README = """# imgtool

Resize binary PPM images.

    cmake -S . -B build && cmake --build build
    ./build/imgtool in.ppm out.ppm 640 480
"""


def cpp_cmake_threads(scene: Scene) -> None:
    """A multi-threaded resize with a --threads option: resize.cpp, the threads
    parameter in the public header, the option in main.cpp, Threads linked in
    CMakeLists.txt, a test that threaded and single-threaded output match, and the
    README usage are in scope (the in-tree build/ folder is output); redoing the PPM
    loader's error handling next to resize.cpp, a wider .clang-format and a macOS CI
    matrix are not."""
    scene.commit(
        "imgtool: PPM resize",
        {
            "CMakeLists.txt": CPP_CMAKE,
            ".clang-format": "BasedOnStyle: Google\nIndentWidth: 4\nColumnLimit: 100\n",
            "include/imgtool/image.hpp": "#pragma once\n\n#include <cstdint>\n#include <string>\n#include <vector>\n\nnamespace imgtool {\n\nstruct Image {\n    int width, height, channels;\n    std::vector<std::uint8_t> pixels;\n\n    Image(int w, int h, int c) : width(w), height(h), channels(c), pixels(std::size_t(w) * h * c) {}\n    std::uint8_t& at(int x, int y, int c) { return pixels[(std::size_t(y) * width + x) * channels + c]; }\n    std::uint8_t at(int x, int y, int c) const { return pixels[(std::size_t(y) * width + x) * channels + c]; }\n    std::uint8_t sample(float x, float y, int c) const;\n};\n\nImage load(const std::string& path);\nvoid save(const Image& img, const std::string& path);\n\n}  // namespace imgtool\n",
            "include/imgtool/resize.hpp": CPP_RESIZE_HPP.replace(
                "// Bilinear resize", "// Nearest-neighbour resize"
            ),
            "src/resize.cpp": CPP_RESIZE.replace(
                "src.sample(std::max(fx, 0.0f), std::max(fy, 0.0f), c)",
                "src.at(static_cast<int>(std::max(fx, 0.0f)), static_cast<int>(std::max(fy, 0.0f)), c)",
            ),
            "src/image_io.cpp": CPP_IO,
            "src/main.cpp": CPP_MAIN,
            "tests/CMakeLists.txt": "add_executable(test_resize test_resize.cpp)\ntarget_link_libraries(test_resize PRIVATE imgcore)\nadd_test(NAME resize COMMAND test_resize)\n",
            "tests/test_resize.cpp": CPP_TEST,
            ".github/workflows/build.yml": CPP_CI,
            "README.md": CPP_README,
        },
        days_ago=300,
    )
    scene.commit(
        "Bilinear sampling",
        {"src/resize.cpp": CPP_RESIZE, "include/imgtool/resize.hpp": CPP_RESIZE_HPP},
        days_ago=50,
    )
    scene.intent(
        "make resize use multiple threads (split the rows across std::thread workers) and add a --threads N option, default hardware_concurrency",
        {"src/resize.cpp": "the resize implementation"},
    )
    scene.agent(
        {
            "src/resize.cpp": CPP_RESIZE.replace(
                "#include <cmath>\n", "#include <cmath>\n#include <thread>\n#include <vector>\n"
            ).replace(
                "Image resize(const Image& src, int width, int height) {\n    Image dst(width, height, src.channels);\n    resize_rows(src, dst, 0, height);\n    return dst;\n}\n",
                "Image resize(const Image& src, int width, int height, unsigned threads) {\n    Image dst(width, height, src.channels);\n    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());\n    threads = std::min<unsigned>(threads, static_cast<unsigned>(height));\n    if (threads <= 1) {\n        resize_rows(src, dst, 0, height);\n        return dst;\n    }\n    std::vector<std::thread> workers;\n    const int chunk = (height + static_cast<int>(threads) - 1) / static_cast<int>(threads);\n    for (int y0 = 0; y0 < height; y0 += chunk) {\n        workers.emplace_back(resize_rows, std::cref(src), std::ref(dst), y0, std::min(y0 + chunk, height));\n    }\n    for (auto& w : workers) w.join();\n    return dst;\n}\n",
            ),
            "include/imgtool/resize.hpp": CPP_RESIZE_HPP.replace(
                "// Bilinear resize of `src` to `width` x `height`.\nImage resize(const Image& src, int width, int height);\n",
                "// Bilinear resize of `src` to `width` x `height`, rows split across `threads`\n// workers (0: one per hardware thread).\nImage resize(const Image& src, int width, int height, unsigned threads = 0);\n",
            ),
            "src/main.cpp": CPP_MAIN.replace(
                '        std::cerr << "usage: imgtool IN OUT WIDTH HEIGHT" << std::endl;\n',
                '        std::cerr << "usage: imgtool IN OUT WIDTH HEIGHT [--threads N]" << std::endl;\n',
            )
            .replace(
                "    const int height = std::atoi(argv[4]);\n",
                '    const int height = std::atoi(argv[4]);\n    unsigned threads = 0;\n    for (int i = 5; i + 1 < argc; ++i) {\n        if (std::string(argv[i]) == "--threads") threads = static_cast<unsigned>(std::atoi(argv[i + 1]));\n    }\n',
            )
            .replace(
                "imgtool::resize(image, width, height)",
                "imgtool::resize(image, width, height, threads)",
            ),
            "CMakeLists.txt": CPP_CMAKE.replace(
                "target_include_directories(imgcore PUBLIC include)\n",
                "target_include_directories(imgcore PUBLIC include)\nfind_package(Threads REQUIRED)\ntarget_link_libraries(imgcore PUBLIC Threads::Threads)\n",
            ),
            "tests/test_resize.cpp": CPP_TEST.replace(
                "    assert(out.at(1, 1, 0) == 200);\n",
                "    assert(out.at(1, 1, 0) == 200);\n\n    imgtool::Image big(97, 61, 3);\n    for (std::size_t i = 0; i < big.pixels.size(); ++i) big.pixels[i] = static_cast<std::uint8_t>(i * 7);\n    imgtool::Image one = imgtool::resize(big, 40, 33, 1);\n    imgtool::Image many = imgtool::resize(big, 40, 33, 8);\n    assert(one.pixels == many.pixels);\n",
            ),
            "README.md": CPP_README.replace(
                "    ./build/imgtool in.ppm out.ppm 640 480\n",
                "    ./build/imgtool in.ppm out.ppm 640 480 [--threads N]\n\n`--threads` defaults to the number of hardware threads; `--threads 1` resizes on\nthe calling thread.\n",
            ),
            # An in-tree build: `cmake -S . -B build && cmake --build build`.
            "build/CMakeCache.txt": "# This is the CMakeCache file.\nCMAKE_BUILD_TYPE:STRING=Release\nCMAKE_CXX_COMPILER:FILEPATH=/usr/bin/c++\nCMAKE_HAVE_LIBC_PTHREAD:INTERNAL=1\n",
            "build/compile_commands.json": '[\n{\n  "directory": "build",\n  "command": "/usr/bin/c++ -I../include -O3 -std=gnu++17 -o CMakeFiles/imgcore.dir/src/resize.cpp.o -c ../src/resize.cpp",\n  "file": "../src/resize.cpp"\n}\n]\n',
            "build/imgtool": ELF,
            # Unasked: the PPM loader's open check redone with a stream and a new message.
            "src/image_io.cpp": CPP_IO.replace(
                "#include <cstdio>\n", "#include <cstdio>\n#include <fstream>\n"
            ).replace(
                '    FILE* f = std::fopen(path.c_str(), "rb");\n    if (!f) throw std::runtime_error("cannot open " + path);\n',
                '    std::ifstream probe(path, std::ios::binary);\n    if (!probe) throw std::runtime_error("imgtool: failed to open input file \'" + path + "\'");\n    FILE* f = std::fopen(path.c_str(), "rb");\n',
            ),
            # Unasked: a wider column limit.
            ".clang-format": "BasedOnStyle: Google\nIndentWidth: 4\nColumnLimit: 120\nAllowShortFunctionsOnASingleLine: Inline\n",
            # Unasked: macOS added to CI, checkout bumped.
            ".github/workflows/build.yml": CPP_CI.replace(
                "    runs-on: ubuntu-latest\n",
                "    strategy:\n      matrix:\n        os: [ubuntu-latest, macos-latest]\n    runs-on: ${{ matrix.os }}\n",
            ).replace("actions/checkout@v3", "actions/checkout@v4"),
        }
    )
    scene.fine(
        "src/resize.cpp",
        "include/imgtool/resize.hpp",
        "src/main.cpp",
        "CMakeLists.txt",
        "tests/test_resize.cpp",
        "README.md",
    )
    scene.excluded("build/CMakeCache.txt", "build/compile_commands.json", "build/imgtool")
    scene.drift("src/image_io.cpp", ".clang-format", ".github/workflows/build.yml")


# -- 10. SvelteKit: newsletter signup in the footer ---------------------------------------------

SK_PACKAGE = """{
  "name": "acme-site",
  "version": "0.0.1",
  "private": true,
  "type": "module",
  "scripts": {
    "dev": "vite dev",
    "build": "vite build",
    "preview": "vite preview",
    "test": "vitest run"
  },
  "devDependencies": {
    "@sveltejs/adapter-auto": "^2.1.1",
    "@sveltejs/kit": "^1.27.4",
    "svelte": "^4.2.7",
    "vite": "^4.5.0",
    "vitest": "^0.34.6"
  },
  "dependencies": {
    "better-sqlite3": "^9.2.2"
  }
}
"""

SK_CONFIG = """import adapter from '@sveltejs/adapter-auto';
import { vitePreprocess } from '@sveltejs/kit/vite';

/** @type {import('@sveltejs/kit').Config} */
const config = {
  preprocess: vitePreprocess(),
  kit: {
    adapter: adapter()
  }
};

export default config;
"""

SK_FOOTER = """<script>
  const year = new Date().getFullYear();
</script>

<footer>
  <p>© {year} Acme Outdoor. All rights reserved.</p>
  <nav>
    <a href="/about">About</a>
    <a href="/privacy">Privacy</a>
  </nav>
</footer>

<style>
  footer { padding: 2rem 1rem; border-top: 1px solid #ddd; font-size: 0.9rem; }
  nav a { margin-right: 1rem; }
</style>
"""

SK_HEADER = """<script>
  export let current = '/';
  const links = [
    { href: '/', label: 'Home' },
    { href: '/blog', label: 'Blog' },
    { href: '/about', label: 'About' }
  ];
</script>

<header>
  <a class="logo" href="/">Acme Outdoor</a>
  <nav>
    {#each links as link}
      <a href={link.href} class:active={current === link.href}>{link.label}</a>
    {/each}
  </nav>
</header>
"""

SK_DB = """import Database from 'better-sqlite3';

const db = new Database(process.env.DATABASE_PATH ?? 'site.db');

export function getPost(slug) {
  return db.prepare('select slug, title, body, published_at from posts where slug = ?').get(slug);
}

export function listPosts() {
  return db.prepare('select slug, title, published_at from posts order by published_at desc').all();
}
"""

SK_DB_SUBSCRIBE = """
export function addSubscriber(email) {
  db.prepare('insert into subscribers (email, created_at) values (?, ?) on conflict (email) do nothing').run(
    email,
    new Date().toISOString()
  );
}
"""


def sveltekit_newsletter(scene: Scene) -> None:
    """A newsletter signup form in the footer: the footer component, a /subscribe
    route with its form action and result page, a subscribers insert in the server db
    module and the migration creating the table are in scope; moving the header
    component next to the footer to Svelte 5 runes, a Kit/Svelte/Vite upgrade in
    package.json and switching the adapter are not."""
    scene.commit(
        "Acme site",
        {
            "package.json": SK_PACKAGE,
            "svelte.config.js": SK_CONFIG,
            "vite.config.js": "import { sveltekit } from '@sveltejs/kit/vite';\nimport { defineConfig } from 'vite';\n\nexport default defineConfig({\n  plugins: [sveltekit()]\n});\n",
            "src/app.html": '<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="utf-8" />\n    <meta name="viewport" content="width=device-width, initial-scale=1" />\n    %sveltekit.head%\n  </head>\n  <body data-sveltekit-preload-data="hover">\n    <div style="display: contents">%sveltekit.body%</div>\n  </body>\n</html>\n',
            "src/routes/+layout.svelte": "<script>\n  import { page } from '$app/stores';\n  import Header from '$lib/components/Header.svelte';\n  import Footer from '$lib/components/Footer.svelte';\n</script>\n\n<Header current={$page.url.pathname} />\n<main><slot /></main>\n<Footer />\n",
            "src/routes/+page.svelte": "<h1>Gear for the long way round</h1>\n<p>Tents, packs and stoves, tested on real trails.</p>\n",
            "src/lib/components/Header.svelte": SK_HEADER,
            "src/lib/components/Footer.svelte": SK_FOOTER,
            "src/lib/server/db.js": SK_DB,
            "migrations/001_posts.sql": "create table posts (\n  slug text primary key,\n  title text not null,\n  body text not null,\n  published_at text not null\n);\n",
            "README.md": "# acme-site\n\n    npm install\n    sqlite3 site.db < migrations/001_posts.sql\n    npm run dev\n",
        },
        days_ago=60,
    )
    scene.commit(
        "Blog posts",
        {
            "src/routes/blog/[slug]/+page.server.js": "import { error } from '@sveltejs/kit';\nimport { getPost } from '$lib/server/db';\n\nexport function load({ params }) {\n  const post = getPost(params.slug);\n  if (!post) throw error(404, 'Not found');\n  return { post };\n}\n",
        },
        days_ago=10,
    )
    scene.intent(
        "put a newsletter signup form in the site footer; it should post to a /subscribe form action that saves the email in a new subscribers table",
        {"src/lib/components/Footer.svelte": "the footer"},
    )
    scene.agent(
        {
            "src/lib/components/Footer.svelte": SK_FOOTER.replace(
                "<footer>\n",
                '<footer>\n  <form method="POST" action="/subscribe" class="newsletter">\n    <label for="newsletter-email">Get trail notes by email</label>\n    <input id="newsletter-email" name="email" type="email" placeholder="you@example.com" required />\n    <button type="submit">Subscribe</button>\n  </form>\n',
            ).replace(
                "  nav a { margin-right: 1rem; }\n",
                "  nav a { margin-right: 1rem; }\n  .newsletter { display: flex; gap: 0.5rem; align-items: center; margin-bottom: 1rem; }\n",
            ),
            "src/routes/subscribe/+page.server.js": "import { fail } from '@sveltejs/kit';\nimport { addSubscriber } from '$lib/server/db';\n\nconst EMAIL = /^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$/;\n\nexport const actions = {\n  default: async ({ request }) => {\n    const email = String((await request.formData()).get('email') ?? '').trim().toLowerCase();\n    if (!EMAIL.test(email)) {\n      return fail(400, { email, invalid: true });\n    }\n    addSubscriber(email);\n    return { subscribed: true };\n  }\n};\n",
            "src/routes/subscribe/+page.svelte": "<script>\n  export let form;\n</script>\n\n{#if form?.subscribed}\n  <p>Thanks — you're on the list.</p>\n{:else if form?.invalid}\n  <p>That doesn't look like an email address. <a href=\"/\">Try again</a>.</p>\n{/if}\n",
            "src/lib/server/db.js": SK_DB + SK_DB_SUBSCRIBE,
            "migrations/002_subscribers.sql": "create table subscribers (\n  email text primary key,\n  created_at text not null\n);\n",
            # Unasked: the header moved to Svelte 5 runes.
            "src/lib/components/Header.svelte": SK_HEADER.replace(
                "  export let current = '/';\n", "  let { current = '/' } = $props();\n"
            ).replace("    {#each links as link}\n", "    {#each links as link (link.href)}\n"),
            # Unasked: Kit 2, Svelte 5, Vite 5.
            "package.json": SK_PACKAGE.replace(
                '"@sveltejs/adapter-auto": "^2.1.1"', '"@sveltejs/adapter-node": "^5.0.1"'
            )
            .replace(
                '"@sveltejs/kit": "^1.27.4"',
                '"@sveltejs/kit": "^2.5.0",\n    "@sveltejs/vite-plugin-svelte": "^3.0.2"',
            )
            .replace('"svelte": "^4.2.7"', '"svelte": "^5.0.0"')
            .replace('"vite": "^4.5.0"', '"vite": "^5.1.4"'),
            # Unasked: adapter-auto swapped for adapter-node.
            "svelte.config.js": SK_CONFIG.replace(
                "@sveltejs/adapter-auto", "@sveltejs/adapter-node"
            ).replace(
                "import { vitePreprocess } from '@sveltejs/kit/vite';",
                "import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';",
            ),
        }
    )
    scene.fine(
        "src/lib/components/Footer.svelte",
        "src/routes/subscribe/+page.server.js",
        "src/routes/subscribe/+page.svelte",
        "src/lib/server/db.js",
        "migrations/002_subscribers.sql",
    )
    scene.drift("src/lib/components/Header.svelte", "package.json", "svelte.config.js")


FRESH4 = [
    Scenario(
        "drf_orders_filter",
        drf_orders_filter,
        False,
        "fresh 4: Django REST — filter the orders list; serializer reshaped next to the view and deploy doc rewritten",
        fresh=True,
        batch=4,
    ),
    Scenario(
        "express_login_ratelimit",
        express_login_ratelimit,
        False,
        "fresh 4: Express — rate-limit login; sibling route rewritten, md5 helper deleted, CI on Node 20",
        fresh=True,
        batch=4,
    ),
    Scenario(
        "go_chi_readyz",
        go_chi_readyz,
        False,
        "fresh 4: Go/chi — /readyz with a DB ping and the k8s probe; items handler, server timeout and go.mod bumps unasked",
        fresh=True,
        batch=4,
    ),
    Scenario(
        "rust_clap_json",
        rust_clap_json,
        False,
        "fresh 4: Rust/clap — `todo list --json` with serde; clippy pass on add.rs and a new rustfmt.toml unasked",
        fresh=True,
        batch=4,
    ),
    Scenario(
        "spring_books_pagination",
        spring_books_pagination,
        False,
        "fresh 4: Spring — paginate /api/books; authors paginated too and a Boot/Java upgrade unasked; target/ is output",
        fresh=True,
        batch=4,
    ),
    Scenario(
        "sinatra_csv_export",
        sinatra_csv_export,
        False,
        "fresh 4: Sinatra — CSV export after a user checkpoint; entry date format, Pico upgrade and README setup unasked",
        fresh=True,
        batch=4,
    ),
    Scenario(
        "helm_ingress_tls",
        helm_ingress_tls,
        False,
        "fresh 4: Helm — TLS on the ingress via cert-manager; HPA API and liveness delay changed next to it",
        fresh=True,
        batch=4,
    ),
    Scenario(
        "dbt_customer_ltv",
        dbt_customer_ltv,
        False,
        "fresh 4: dbt — lifetime_value on the customers mart via stg_payments; orders mart pivot and dbt_utils bump unasked",
        fresh=True,
        batch=4,
    ),
    Scenario(
        "cpp_cmake_threads",
        cpp_cmake_threads,
        False,
        "fresh 4: C++/CMake — threaded resize and --threads; PPM loader error handling, clang-format and CI matrix unasked; build/ is output",
        fresh=True,
        batch=4,
    ),
    Scenario(
        "sveltekit_newsletter",
        sveltekit_newsletter,
        False,
        "fresh 4: SvelteKit — newsletter form in the footer with a /subscribe action and table; header runes, Kit 2 upgrade and adapter swap unasked",
        fresh=True,
        batch=4,
    ),
]
