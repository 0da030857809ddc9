"""The seventh batch of fresh scenarios, written blind: ten agent sessions in
ecosystems the advisor was never tuned on (Laravel, an iOS app, Phoenix, an Android
app, dbt with Airflow, Next.js, SvelteKit, CMake, Flutter, an Ansible ops repo).

Each scenario is a small real project with a dated history (features that change
files together, and the odd sweeping commit that drags a sibling along), memory as a
user sets it, sometimes a checkpoint, and one agent session mixing the asked-for work
and the changes a reviewer accepts with it (a test, a config key the feature reads, a
dependency it imports, a helper it calls, a migration, a docs line) with drift a
reviewer would reject, plus the generated, vendored and build output each ecosystem
leaves behind the way it really does (a regenerated ``*.g.dart``, a published Vite
manifest, a CMake binary folder inside the source tree, vendored Ansible
collections). The labels are what a careful reviewer would say reading the intent
and the diff; debatable ones carry the reasoning in a comment.
"""

from __future__ import annotations

from scenario_kit import CLASS, ELF, PNG, Scenario, Scene, lines

# A zip container's first bytes, as an Android build leaves an ``.apk``.
ZIP = b"PK\x03\x04\x14\x00\x08\x08\x08\x00" + b"\x00" * 40 + b"classes.dex"
# A CPython bytecode cache file (3.11 magic), as running a DAG leaves one.
PYC = b"\xa7\r\r\n\x00\x00\x00\x00" + b"\x00" * 8 + b"\xe3compiled"


def _edit(s: Scene, rel: str, old: str, new: str) -> None:
    """The agent edits ``rel`` in place: the first ``old`` becomes ``new``."""
    text = (s.root / rel).read_text(encoding="utf-8")
    if old not in text:
        raise ValueError(f"{rel}: the text to replace is not there: {old!r}")
    s.agent({rel: text.replace(old, new, 1)})


def _with(text: str, old: str, new: str) -> str:
    """``text`` with its first ``old`` replaced (for a file's next committed version)."""
    if old not in text:
        raise ValueError(f"the text to replace is not there: {old!r}")
    return text.replace(old, new, 1)


# --------------------------------------------------------------------------------------
# 1. PHP / Laravel: an invoice PDF download on the billing detail page.
# --------------------------------------------------------------------------------------

_LARAVEL_INVOICES_V1 = r"""<?php

namespace App\Http\Controllers;

use App\Models\Invoice;
use Illuminate\Http\Request;

class InvoiceController extends Controller
{
    public function index(Request $request)
    {
        $invoices = $request->user()->customer->invoices()->latest()->paginate(20);

        return view('billing.index', compact('invoices'));
    }

    public function show(Invoice $invoice)
    {
        $this->authorize('view', $invoice);

        return view('billing.show', ['invoice' => $invoice->load('lines')]);
    }
}
"""

_LARAVEL_SHOW_V1 = r"""@extends('layouts.app')

@section('title', $invoice->number)

@section('content')
    <div class="flex items-center justify-between">
        <h1 class="text-2xl font-semibold">{{ __('billing.invoice') }} {{ $invoice->number }}</h1>
    </div>
    <table class="mt-6 w-full">
        @foreach ($invoice->lines as $line)
            <tr>
                <td>{{ $line->description }}</td>
                <td class="text-right">{{ $line->amount_formatted }}</td>
            </tr>
        @endforeach
    </table>
@endsection
"""

_LARAVEL_INDEX = r"""@extends('layouts.app')

@section('title', __('billing.title'))

@section('content')
    <h1 class="text-2xl font-semibold">{{ __('billing.title') }}</h1>
    <table class="mt-4 w-full">
        @foreach ($invoices as $invoice)
            <tr>
                <td><a href="{{ route('billing.show', $invoice) }}">{{ $invoice->number }}</a></td>
                <td>{{ $invoice->total_formatted }}</td>
            </tr>
        @endforeach
    </table>
    {{ $invoices->links() }}
@endsection
"""

_LARAVEL_ROUTES_V1 = r"""<?php

use App\Http\Controllers\CustomerController;
use App\Http\Controllers\DashboardController;
use Illuminate\Support\Facades\Route;

Route::middleware('auth')->group(function () {
    Route::get('/', DashboardController::class)->name('dashboard');
    Route::get('/customers', [CustomerController::class, 'index'])->name('customers.index');
});
"""

_LARAVEL_CUSTOMERS_V1 = r"""<?php

namespace App\Http\Controllers;

use App\Models\Customer;
use Illuminate\Http\Request;

class CustomerController extends Controller
{
    public function index(Request $request)
    {
        $customers = Customer::orderBy('name')->paginate(25);

        return view('customers.index', compact('customers'));
    }
}
"""

_LARAVEL_COMPOSER = r"""{
    "name": "acme/billing-portal",
    "type": "project",
    "require": {
        "php": "^8.1",
        "guzzlehttp/guzzle": "^7.2",
        "laravel/framework": "^10.10",
        "laravel/sanctum": "^3.3"
    },
    "require-dev": {
        "barryvdh/laravel-ide-helper": "^2.13",
        "fakerphp/faker": "^1.9.1",
        "phpunit/phpunit": "^10.1"
    },
    "autoload": {
        "psr-4": {
            "App\\": "app/",
            "Database\\Factories\\": "database/factories/"
        }
    }
}
"""

_LARAVEL_LOCK = r"""{
    "_readme": [
        "This file locks the dependencies of your project to a known state",
        "This file is @generated automatically"
    ],
    "content-hash": "6f0d3c1be0a8a3e4b7f2a6c1d9e8f7a1",
    "packages": [
        {"name": "guzzlehttp/guzzle", "version": "7.8.1"},
        {"name": "laravel/framework", "version": "v10.48.4"},
        {"name": "laravel/sanctum", "version": "v3.3.3"}
    ],
    "packages-dev": [
        {"name": "barryvdh/laravel-ide-helper", "version": "v2.15.1"},
        {"name": "phpunit/phpunit", "version": "10.5.13"}
    ]
}
"""

_LARAVEL_IDE_HELPER = r"""<?php
// @formatter:off
// phpcs:ignoreFile

/**
 * A helper file for Laravel, to provide autocomplete information to your IDE
 * Generated for Laravel 10.48.4.
 *
 * This file should not be included in your code, only analyzed by your IDE!
 *
 * @author Barry vd. Heuvel <barryvdh@gmail.com>
 * @see https://github.com/barryvdh/laravel-ide-helper
 */

namespace Illuminate\Support\Facades {
    class Route {
        public static function get($uri, $action = null) {}
    }
}

namespace {
    class Route extends \Illuminate\Support\Facades\Route {}
}
"""


def _laravel_invoice_pdf(s: Scene) -> None:
    s.commit(
        "Laravel 10 skeleton: customers and dashboard",
        {
            ".gitignore": lines(
                "/vendor", "/node_modules", ".env", "/storage/*.key", ".phpunit.cache"
            ),
            ".env.example": lines("APP_NAME=BillingPortal", "APP_ENV=local", "MAIL_MAILER=log"),
            "artisan": lines(
                "#!/usr/bin/env php", "<?php", "require __DIR__.'/bootstrap/app.php';"
            ),
            "composer.json": _LARAVEL_COMPOSER,
            "composer.lock": _LARAVEL_LOCK,
            "_ide_helper.php": _LARAVEL_IDE_HELPER,
            "package.json": '{\n  "private": true,\n  "scripts": {"dev": "vite", "build": "vite '
            'build"},\n'
            '  "devDependencies": {"laravel-vite-plugin": "^1.0.0", "vite": "^5.0.0"}\n}\n',
            "vite.config.js": lines(
                "import { defineConfig } from 'vite';",
                "import laravel from 'laravel-vite-plugin';",
                "",
                "export default defineConfig({",
                "    plugins: [laravel({ input: ['resources/css/app.css', 'resources/js/app.js'] "
                "})],",
                "});",
            ),
            "phpunit.xml": lines(
                '<?xml version="1.0" encoding="UTF-8"?>',
                '<phpunit bootstrap="vendor/autoload.php" colors="true">',
                '    <testsuites><testsuite name="Feature"><directory>tests/Feature</directory>'
                "</testsuite></testsuites>",
                "</phpunit>",
            ),
            "config/app.php": lines(
                "<?php",
                "",
                "return [",
                "    'name' => env('APP_NAME', 'Laravel'),",
                "    'env' => env('APP_ENV', 'production'),",
                "    'timezone' => 'UTC',",
                "    'locale' => 'en',",
                "];",
            ),
            "config/services.php": lines(
                "<?php",
                "",
                "return [",
                "    'mailgun' => ['domain' => env('MAILGUN_DOMAIN')],",
                "];",
            ),
            "routes/web.php": _LARAVEL_ROUTES_V1,
            "app/Http/Controllers/Controller.php": lines(
                "<?php",
                "",
                "namespace App\\Http\\Controllers;",
                "",
                "use Illuminate\\Foundation\\Auth\\Access\\AuthorizesRequests;",
                "use Illuminate\\Routing\\Controller as BaseController;",
                "",
                "class Controller extends BaseController",
                "{",
                "    use AuthorizesRequests;",
                "}",
            ),
            "app/Http/Controllers/DashboardController.php": lines(
                "<?php",
                "",
                "namespace App\\Http\\Controllers;",
                "",
                "class DashboardController extends Controller",
                "{",
                "    public function __invoke()",
                "    {",
                "        return view('dashboard');",
                "    }",
                "}",
            ),
            "app/Http/Controllers/CustomerController.php": _LARAVEL_CUSTOMERS_V1,
            "app/Models/Customer.php": lines(
                "<?php",
                "",
                "namespace App\\Models;",
                "",
                "use Illuminate\\Database\\Eloquent\\Model;",
                "",
                "class Customer extends Model",
                "{",
                "    public function invoices()",
                "    {",
                "        return $this->hasMany(Invoice::class);",
                "    }",
                "}",
            ),
            "app/Models/Invoice.php": lines(
                "<?php",
                "",
                "namespace App\\Models;",
                "",
                "use Illuminate\\Database\\Eloquent\\Model;",
                "",
                "class Invoice extends Model",
                "{",
                "    protected $casts = ['due_at' => 'date'];",
                "",
                "    public function lines()",
                "    {",
                "        return $this->hasMany(InvoiceLine::class);",
                "    }",
                "}",
            ),
            "resources/views/layouts/app.blade.php": lines(
                "<!DOCTYPE html>",
                "<html><head><title>@yield('title')</title>@vite(['resources/js/app.js'])</head>",
                "<body><nav><a href=\"{{ route('dashboard') "
                "}}\">Home</a></nav>@yield('content')</body>",
                "</html>",
            ),
            "resources/views/dashboard.blade.php": lines(
                "@extends('layouts.app')",
                "@section('content')",
                "    <h1>Dashboard</h1>",
                "@endsection",
            ),
            "resources/js/app.js": lines("import './bootstrap';"),
            "resources/css/app.css": lines("@tailwind base;", "@tailwind components;"),
            "database/migrations/2024_01_10_000000_create_customers_table.php": lines(
                "<?php",
                "",
                "return new class extends Migration {",
                "    public function up(): void",
                "    {",
                "        Schema::create('customers', fn (Blueprint $t) => $t->id());",
                "    }",
                "};",
            ),
            "tests/TestCase.php": lines(
                "<?php",
                "",
                "namespace Tests;",
                "",
                "abstract class TestCase extends \\Illuminate\\Foundation\\Testing\\TestCase {}",
            ),
            "tests/Feature/CustomerTest.php": lines(
                "<?php",
                "",
                "namespace Tests\\Feature;",
                "",
                "use Tests\\TestCase;",
                "",
                "class CustomerTest extends TestCase",
                "{",
                "    public function test_customers_are_listed_by_name(): void",
                "    {",
                "        $this->actingAs($this->admin())->get('/customers')->assertOk();",
                "    }",
                "}",
            ),
        },
        days_ago=70,
    )
    s.commit(
        "Billing: invoice list and detail pages",
        {
            "app/Http/Controllers/InvoiceController.php": _LARAVEL_INVOICES_V1,
            "resources/views/billing/index.blade.php": _LARAVEL_INDEX,
            "resources/views/billing/show.blade.php": _LARAVEL_SHOW_V1,
            "routes/web.php": _with(
                _with(
                    _LARAVEL_ROUTES_V1,
                    "use App\\Http\\Controllers\\DashboardController;\n",
                    "use App\\Http\\Controllers\\DashboardController;\n"
                    "use App\\Http\\Controllers\\InvoiceController;\n",
                ),
                "'customers.index');\n",
                "'customers.index');\n"
                "    Route::get('/billing', [InvoiceController::class, 'index'])"
                "->name('billing.index');\n"
                "    Route::get('/billing/{invoice}', [InvoiceController::class, 'show'])"
                "->name('billing.show');\n",
            ),
            "lang/en/billing.php": lines(
                "<?php",
                "",
                "return [",
                "    'title' => 'Billing',",
                "    'invoice' => 'Invoice',",
                "];",
            ),
            "database/migrations/2024_02_02_000000_create_invoices_table.php": lines(
                "<?php",
                "",
                "return new class extends Migration {",
                "    public function up(): void",
                "    {",
                "        Schema::create('invoices', function (Blueprint $t) {",
                "            $t->id();",
                "            $t->string('number')->unique();",
                "            $t->date('due_at');",
                "        });",
                "    }",
                "};",
            ),
            "tests/Feature/InvoiceTest.php": lines(
                "<?php",
                "",
                "namespace Tests\\Feature;",
                "",
                "use Tests\\TestCase;",
                "",
                "class InvoiceTest extends TestCase",
                "{",
                "    public function test_customer_sees_own_invoice(): void",
                "    {",
                "        $invoice = $this->invoiceFor($user = $this->customerUser());",
                '        $this->actingAs($user)->get("/billing/{$invoice->id}")->assertOk();',
                "    }",
                "}",
            ),
        },
        days_ago=40,
    )
    s.commit(
        "Billing: show the due date on the invoice page",
        {
            "resources/views/billing/show.blade.php": _with(
                _LARAVEL_SHOW_V1,
                "    </div>\n",
                "    </div>\n"
                "    <p class=\"text-sm text-gray-500\">{{ __('billing.due') }}: "
                "{{ $invoice->due_at->toFormattedDateString() }}</p>\n",
            ),
            "lang/en/billing.php": lines(
                "<?php",
                "",
                "return [",
                "    'title' => 'Billing',",
                "    'invoice' => 'Invoice',",
                "    'due' => 'Due',",
                "];",
            ),
            "app/Http/Controllers/InvoiceController.php": _with(
                _LARAVEL_INVOICES_V1, "->load('lines')", "->load('lines', 'customer')"
            ),
        },
        days_ago=24,
    )
    s.commit(
        "Customers: search by e-mail",
        {
            "app/Http/Controllers/CustomerController.php": _with(
                _LARAVEL_CUSTOMERS_V1,
                "Customer::orderBy('name')",
                "Customer::when($request->query('q'), fn ($q, $term) => "
                "$q->where('email', 'like', \"%{$term}%\"))->orderBy('name')",
            ),
            "tests/Feature/CustomerTest.php": lines(
                "<?php",
                "",
                "namespace Tests\\Feature;",
                "",
                "use Tests\\TestCase;",
                "",
                "class CustomerTest extends TestCase",
                "{",
                "    public function test_customers_are_listed_by_name(): void",
                "    {",
                "        $this->actingAs($this->admin())->get('/customers')->assertOk();",
                "    }",
                "",
                "    public function test_customers_can_be_searched_by_email(): void",
                "    {",
                "        $this->actingAs($this->admin())->get('/customers?q=acme')->assertOk();",
                "    }",
                "}",
            ),
        },
        days_ago=11,
    )
    # A sweeping commit: the billing list page changed with the layout, not with the
    # detail page, so history alone does not tie it to the work.
    s.commit(
        "Navigation: billing link in the main menu",
        {
            "resources/views/layouts/app.blade.php": lines(
                "<!DOCTYPE html>",
                "<html><head><title>@yield('title')</title>@vite(['resources/js/app.js'])</head>",
                "<body><nav><a href=\"{{ route('dashboard') }}\">Home</a>",
                "<a href=\"{{ route('billing.index') }}\">{{ __('billing.title') }}</a></nav>",
                "@yield('content')</body>",
                "</html>",
            ),
            "resources/views/billing/index.blade.php": _with(
                _LARAVEL_INDEX, 'class="mt-4 w-full"', 'class="mt-4 w-full table-auto"'
            ),
            "resources/views/dashboard.blade.php": lines(
                "@extends('layouts.app')",
                "@section('title', 'Dashboard')",
                "@section('content')",
                "    <h1>Dashboard</h1>",
                "@endsection",
            ),
        },
        days_ago=4,
    )
    s.intent(
        "Let customers download an invoice as a PDF from the billing detail page",
        {
            "app/Http/Controllers/InvoiceController.php": "serves the invoice pages",
            "resources/views/billing/show.blade.php": "the billing detail page",
        },
        hours_ago=1,
    )

    # -- the real work ------------------------------------------------------------------
    _edit(
        s,
        "app/Http/Controllers/InvoiceController.php",
        "use App\\Models\\Invoice;\n",
        "use App\\Models\\Invoice;\nuse Barryvdh\\DomPDF\\Facade\\Pdf;\n",
    )
    _edit(
        s,
        "app/Http/Controllers/InvoiceController.php",
        "        return view('billing.show', ['invoice' => $invoice->load('lines', 'customer')]);\n"
        "    }\n",
        "        return view('billing.show', ['invoice' => $invoice->load('lines', 'customer')]);\n"
        "    }\n\n"
        "    public function download(Invoice $invoice)\n"
        "    {\n"
        "        $this->authorize('view', $invoice);\n\n"
        "        $pdf = Pdf::loadView('invoices.pdf', ['invoice' => $invoice->load('lines', "
        "'customer')]);\n\n"
        '        return $pdf->download("invoice-{$invoice->number}.pdf");\n'
        "    }\n",
    )
    _edit(
        s,
        "resources/views/billing/show.blade.php",
        "    </div>\n",
        '        <a href="{{ route(\'billing.download\', $invoice) }}" class="btn btn-secondary">'
        "{{ __('billing.download_pdf') }}</a>\n    </div>\n",
    )
    _edit(
        s,
        "routes/web.php",
        "->name('billing.show');\n",
        "->name('billing.show');\n"
        "    Route::get('/billing/{invoice}/pdf', [InvoiceController::class, 'download'])"
        "->name('billing.download');\n",
    )
    _edit(
        s,
        "lang/en/billing.php",
        "    'due' => 'Due',\n",
        "    'due' => 'Due',\n    'download_pdf' => 'Download PDF',\n",
    )
    _edit(
        s,
        "composer.json",
        '"laravel/framework": "^10.10",',
        '"barryvdh/laravel-dompdf": "^2.1",\n        "laravel/framework": "^10.10",',
    )
    _edit(
        s,
        "composer.lock",
        '"packages": [\n',
        '"packages": [\n        {"name": "barryvdh/laravel-dompdf", "version": "v2.1.1"},\n'
        '        {"name": "dompdf/dompdf", "version": "v2.0.4"},\n',
    )
    _edit(
        s, "composer.lock", "6f0d3c1be0a8a3e4b7f2a6c1d9e8f7a1", "b2e41f0c9d7a6e5f4c3b2a1908f7e6d5"
    )
    s.agent(
        {
            # The published package config: the feature reads its paper size and fonts.
            "config/dompdf.php": lines(
                "<?php",
                "",
                "return [",
                "    'show_warnings' => false,",
                "    'options' => [",
                "        'default_paper_size' => 'a4',",
                "        'default_font' => 'dejavu sans',",
                "        'enable_remote' => false,",
                "    ],",
                "];",
            ),
            "resources/views/invoices/pdf.blade.php": lines(
                "<html><body style=\"font-family: 'DejaVu Sans'\">",
                "    <h1>{{ __('billing.invoice') }} {{ $invoice->number }}</h1>",
                "    <p>{{ $invoice->customer->name }}</p>",
                "    <table>@foreach ($invoice->lines as $line)<tr><td>{{ $line->description "
                "}}</td>"
                "<td>{{ $line->amount_formatted }}</td></tr>@endforeach</table>",
                "</body></html>",
            ),
            "tests/Feature/InvoiceDownloadTest.php": lines(
                "<?php",
                "",
                "namespace Tests\\Feature;",
                "",
                "use Tests\\TestCase;",
                "",
                "class InvoiceDownloadTest extends TestCase",
                "{",
                "    public function test_customer_downloads_own_invoice_as_pdf(): void",
                "    {",
                "        $invoice = $this->invoiceFor($user = $this->customerUser());",
                '        $this->actingAs($user)->get("/billing/{$invoice->id}/pdf")',
                "            ->assertOk()->assertHeader('content-type', 'application/pdf');",
                "    }",
                "",
                "    public function test_other_customers_invoice_is_forbidden(): void",
                "    {",
                "        $invoice = $this->invoiceFor($this->customerUser());",
                "        $this->actingAs($this->customerUser())",
                '            ->get("/billing/{$invoice->id}/pdf")',
                "            ->assertForbidden();",
                "    }",
                "}",
            ),
        }
    )
    s.fine(
        "app/Http/Controllers/InvoiceController.php",
        "resources/views/billing/show.blade.php",
        "routes/web.php",
        "lang/en/billing.php",
        "composer.json",
        "composer.lock",
        "config/dompdf.php",
        "resources/views/invoices/pdf.blade.php",
        "tests/Feature/InvoiceDownloadTest.php",
    )

    # -- drift ----------------------------------------------------------------------------
    # The sibling list page retitled, with a literal instead of the translation key.
    _edit(
        s,
        "resources/views/billing/index.blade.php",
        "<h1 class=\"text-2xl font-semibold\">{{ __('billing.title') }}</h1>",
        '<h1 class="text-2xl font-semibold">Invoices &amp; payments</h1>',
    )
    # An unrelated refactor: the customer e-mail search moved into a model scope.
    text = (s.root / "app/Http/Controllers/CustomerController.php").read_text(encoding="utf-8")
    start = text.index("Customer::when(")
    end = text.index("->orderBy('name')", start)
    s.agent(
        {
            "app/Http/Controllers/CustomerController.php": text[:start]
            + "Customer::search($request->query('q'))"
            + text[end:]
        }
    )
    _edit(
        s,
        "app/Models/Customer.php",
        "    public function invoices()",
        "    public function scopeSearch($query, ?string $term)\n"
        "    {\n"
        "        return $term ? $query->where('email', 'like', \"%{$term}%\") : $query;\n"
        "    }\n\n"
        "    public function invoices()",
    )
    _edit(s, "config/app.php", "'timezone' => 'UTC',", "'timezone' => 'Europe/Berlin',")
    s.agent(delete=["tests/Feature/CustomerTest.php"])
    s.drift(
        "resources/views/billing/index.blade.php",
        "app/Http/Controllers/CustomerController.php",
        "app/Models/Customer.php",
        "config/app.php",
        "tests/Feature/CustomerTest.php",
    )

    # -- generated / build output -----------------------------------------------------------
    # `php artisan ide-helper:generate` after the composer update: tracked, regenerated.
    _edit(s, "_ide_helper.php", "Generated for Laravel 10.48.4.", "Generated for Laravel 10.48.7.")
    _edit(
        s,
        "_ide_helper.php",
        "namespace {\n",
        "namespace Barryvdh\\DomPDF\\Facade {\n"
        "    class Pdf {\n        public static function loadView($view, $data = []) {}\n    "
        "}\n}\n\n"
        "namespace {\n",
    )
    # `npm run build`: this project's .gitignore predates Vite and misses public/build.
    s.agent(
        {
            "public/build/manifest.json": '{\n  "resources/js/app.js": {"file": '
            '"assets/app-4b8e1f2a.js", "isEntry": true, "src": "resources/js/app.js"}\n}\n',
            "public/build/assets/app-4b8e1f2a.js": "(()=>{var e=document;e.addEventListener("
            '"DOMContentLoaded",()=>{})})();\n',
            "public/build/assets/app-9c0d7e11.css": "*,:after,:before{box-sizing:border-box}\n",
        }
    )
    s.excluded(
        "_ide_helper.php",
        "public/build/manifest.json",
        "public/build/assets/app-4b8e1f2a.js",
        "public/build/assets/app-9c0d7e11.css",
    )
    s.safe_commit()
    s.note = "no checkpoint: the last commit is the safe point"


# --------------------------------------------------------------------------------------
# 2. Swift / iOS app: pull-to-refresh on the workout history list.
# --------------------------------------------------------------------------------------

_SWIFT_HISTORY_V1 = """import SwiftUI

struct WorkoutHistoryView: View {
    @StateObject private var viewModel = WorkoutHistoryViewModel()

    var body: some View {
        NavigationStack {
            List(viewModel.workouts) { workout in
                NavigationLink(value: workout) {
                    WorkoutRow(workout: workout)
                }
            }
            .navigationTitle("History")
            .navigationDestination(for: Workout.self) { WorkoutDetailView(workout: $0) }
            .task { await viewModel.load() }
        }
    }
}
"""

_SWIFT_HISTORY_V2 = """import SwiftUI

struct WorkoutHistoryView: View {
    @StateObject private var viewModel = WorkoutHistoryViewModel()

    var body: some View {
        NavigationStack {
            List {
                ForEach(viewModel.weeks) { week in
                    Section(week.title) {
                        ForEach(week.workouts) { workout in
                            NavigationLink(value: workout) {
                                WorkoutRow(workout: workout)
                            }
                        }
                    }
                }
            }
            .navigationTitle("History")
            .navigationDestination(for: Workout.self) { WorkoutDetailView(workout: $0) }
            .task { await viewModel.load() }
        }
    }
}
"""

_SWIFT_HISTORY_VM_V1 = """import Foundation

@MainActor
final class WorkoutHistoryViewModel: ObservableObject {
    @Published private(set) var workouts: [Workout] = []
    private let service: WorkoutService

    init(service: WorkoutService = .shared) {
        self.service = service
    }

    func load() async {
        workouts = (try? await service.fetchAll()) ?? []
    }
}
"""

_SWIFT_HISTORY_VM_V2 = """import Foundation

@MainActor
final class WorkoutHistoryViewModel: ObservableObject {
    @Published private(set) var weeks: [WorkoutWeek] = []
    private let service: WorkoutService

    init(service: WorkoutService = .shared) {
        self.service = service
    }

    func load() async {
        let workouts = (try? await service.fetchAll()) ?? []
        weeks = WorkoutWeek.group(workouts)
    }
}
"""

_SWIFT_SERVICE = """import Foundation

final class WorkoutService {
    static let shared = WorkoutService(client: APIClient.shared)
    private let client: APIClient

    init(client: APIClient) {
        self.client = client
    }

    func fetchAll() async throws -> [Workout] {
        try await client.get("/v1/workouts")
    }
}
"""

_SWIFT_SETTINGS_V1 = """import SwiftUI

struct SettingsView: View {
    @StateObject private var viewModel = SettingsViewModel()

    var body: some View {
        NavigationStack {
            Form {
                Section("Units") {
                    Picker("Distance", selection: $viewModel.distanceUnit) {
                        Text("km").tag(DistanceUnit.kilometers)
                        Text("mi").tag(DistanceUnit.miles)
                    }
                }
            }
            .navigationTitle("Settings")
        }
    }
}
"""

_SWIFT_HEALTHKIT = """import HealthKit

final class HealthKitService {
    private let store = HKHealthStore()

    func requestAuthorization(completion: @escaping (Bool) -> Void) {
        let types: Set = [HKObjectType.workoutType()]
        store.requestAuthorization(toShare: types, read: types) { granted, _ in
            completion(granted)
        }
    }
}
"""

_SWIFT_STRINGS_V1 = """\"history.title\" = \"History\";
\"settings.title\" = \"Settings\";
\"profile.title\" = \"Profile\";
"""

_SWIFT_L10N_V1 = """// swiftlint:disable all
// Generated using SwiftGen — https://github.com/SwiftGen/SwiftGen

import Foundation

internal enum L10n {
  internal enum History {
    /// History
    internal static let title = L10n.tr("Localizable", "history.title")
  }
  internal enum Settings {
    /// Settings
    internal static let title = L10n.tr("Localizable", "settings.title")
  }
}
"""

_SWIFT_PBXPROJ = """// !$*UTF8*$!
{
	archiveVersion = 1;
	objectVersion = 56;
	objects = {
/* Begin PBXBuildFile section */
		A1000001 /* FitTrackApp.swift in Sources */ = {isa = PBXBuildFile; fileRef = B1000001; };
		A1000002 /* WorkoutHistoryView.swift in Sources */ = {
			isa = PBXBuildFile; fileRef = B1000002; };
		A1000003 /* SettingsView.swift in Sources */ = {isa = PBXBuildFile; fileRef = B1000003; };
/* End PBXBuildFile section */
/* Begin PBXFileReference section */
		B1000001 /* FitTrackApp.swift */ = {isa = PBXFileReference; path = FitTrackApp.swift; };
		B1000002 /* WorkoutHistoryView.swift */ = {
			isa = PBXFileReference; path = WorkoutHistoryView.swift; };
		B1000003 /* SettingsView.swift */ = {isa = PBXFileReference; path = SettingsView.swift; };
/* End PBXFileReference section */
	};
	rootObject = C1000001 /* Project object */;
}
"""


def _swift_pull_to_refresh(s: Scene) -> None:
    s.commit(
        "FitTrack: workouts list, detail, settings",
        {
            ".gitignore": lines(
                "xcuserdata/", "DerivedData/", "*.xcuserstate", "fastlane/report.xml"
            ),
            ".swiftlint.yml": lines(
                "disabled_rules:", "  - line_length", "excluded:", "  - FitTrack/Generated"
            ),
            "FitTrack.xcodeproj/project.pbxproj": _SWIFT_PBXPROJ,
            "FitTrack.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved": lines(
                "{",
                '  "pins" : [',
                '    { "identity" : "swift-collections", "state" : { "version" : "1.1.0" } }',
                "  ],",
                '  "version" : 2',
                "}",
            ),
            "FitTrack/FitTrackApp.swift": lines(
                "import SwiftUI",
                "",
                "@main",
                "struct FitTrackApp: App {",
                "    var body: some Scene {",
                "        WindowGroup { RootTabView() }",
                "    }",
                "}",
            ),
            "FitTrack/Info.plist": lines(
                '<?xml version="1.0" encoding="UTF-8"?>',
                '<plist version="1.0"><dict>',
                "    <key>CFBundleShortVersionString</key><string>$(MARKETING_VERSION)</string>",
                "    <key>CFBundleVersion</key><string>41</string>",
                "    <key>NSHealthShareUsageDescription</key><string>Reads your workouts.</string>",
                "</dict></plist>",
            ),
            "FitTrack/Views/RootTabView.swift": lines(
                "import SwiftUI",
                "",
                "struct RootTabView: View {",
                "    var body: some View {",
                "        TabView {",
                '            WorkoutHistoryView().tabItem { Label("History", systemImage: '
                '"clock") }',
                '            SettingsView().tabItem { Label("Settings", systemImage: "gear") }',
                "        }",
                "    }",
                "}",
            ),
            "FitTrack/Views/WorkoutHistoryView.swift": _SWIFT_HISTORY_V1,
            "FitTrack/Views/WorkoutDetailView.swift": lines(
                "import SwiftUI",
                "",
                "struct WorkoutDetailView: View {",
                "    let workout: Workout",
                "    var body: some View { Text(workout.name).navigationTitle(workout.name) }",
                "}",
            ),
            "FitTrack/Views/WorkoutRow.swift": lines(
                "import SwiftUI",
                "",
                "struct WorkoutRow: View {",
                "    let workout: Workout",
                "    var body: some View { HStack { Text(workout.name); Spacer(); "
                "Text(workout.duration.formatted()) } }",
                "}",
            ),
            "FitTrack/Views/SettingsView.swift": _SWIFT_SETTINGS_V1,
            "FitTrack/ViewModels/WorkoutHistoryViewModel.swift": _SWIFT_HISTORY_VM_V1,
            "FitTrack/ViewModels/SettingsViewModel.swift": lines(
                "import Foundation",
                "",
                "@MainActor",
                "final class SettingsViewModel: ObservableObject {",
                "    @Published var distanceUnit: DistanceUnit = .kilometers",
                "}",
            ),
            "FitTrack/Services/APIClient.swift": lines(
                "import Foundation",
                "",
                "final class APIClient {",
                "    static let shared = APIClient()",
                "    func get<T: Decodable>(_ path: String) async throws -> T {",
                "        let (data, _) = try await URLSession.shared.data(from: URL(string: "
                "path)!)",
                "        return try JSONDecoder().decode(T.self, from: data)",
                "    }",
                "}",
            ),
            "FitTrack/Services/WorkoutService.swift": _SWIFT_SERVICE,
            "FitTrack/Models/Workout.swift": lines(
                "import Foundation",
                "",
                "struct Workout: Identifiable, Hashable, Decodable {",
                "    let id: UUID",
                "    let name: String",
                "    let startedAt: Date",
                "    let duration: Duration",
                "}",
            ),
            "FitTrack/Resources/Assets.xcassets/AppIcon.appiconset/Contents.json": lines(
                '{ "images" : [ { "idiom" : "universal", "platform" : "ios", "size" : '
                '"1024x1024" } ],',
                '  "info" : { "author" : "xcode", "version" : 1 } }',
            ),
            "FitTrackTests/WorkoutHistoryViewModelTests.swift": lines(
                "import XCTest",
                "@testable import FitTrack",
                "",
                "@MainActor",
                "final class WorkoutHistoryViewModelTests: XCTestCase {",
                "    func testLoadFillsWorkouts() async {",
                "        let vm = WorkoutHistoryViewModel(service: .stub([.sample]))",
                "        await vm.load()",
                "        XCTAssertEqual(vm.workouts.count, 1)",
                "    }",
                "}",
            ),
            "FitTrackTests/SettingsViewModelTests.swift": lines(
                "import XCTest",
                "@testable import FitTrack",
                "",
                "@MainActor",
                "final class SettingsViewModelTests: XCTestCase {",
                "    func testDefaultsToKilometers() {",
                "        XCTAssertEqual(SettingsViewModel().distanceUnit, .kilometers)",
                "    }",
                "}",
            ),
        },
        days_ago=90,
    )
    s.commit(
        "History: group workouts by week",
        {
            "FitTrack/Views/WorkoutHistoryView.swift": _SWIFT_HISTORY_V2,
            "FitTrack/ViewModels/WorkoutHistoryViewModel.swift": _SWIFT_HISTORY_VM_V2,
            "FitTrack/Models/WorkoutWeek.swift": lines(
                "import Foundation",
                "",
                "struct WorkoutWeek: Identifiable {",
                "    let id: Date",
                "    let title: String",
                "    let workouts: [Workout]",
                "    static func group(_ workouts: [Workout]) -> [WorkoutWeek] { [] }",
                "}",
            ),
            "FitTrackTests/WorkoutHistoryViewModelTests.swift": lines(
                "import XCTest",
                "@testable import FitTrack",
                "",
                "@MainActor",
                "final class WorkoutHistoryViewModelTests: XCTestCase {",
                "    func testLoadGroupsByWeek() async {",
                "        let vm = WorkoutHistoryViewModel(service: .stub([.sample, "
                ".sampleNextWeek]))",
                "        await vm.load()",
                "        XCTAssertEqual(vm.weeks.count, 2)",
                "    }",
                "}",
            ),
        },
        days_ago=50,
    )
    # A sweeping commit: titles moved to SwiftGen's L10n, so the settings screen changed
    # together with the history screen once.
    s.commit(
        "Localise navigation titles with SwiftGen",
        {
            "FitTrack/Views/WorkoutHistoryView.swift": _with(
                _SWIFT_HISTORY_V2,
                '.navigationTitle("History")',
                ".navigationTitle(L10n.History.title)",
            ),
            "FitTrack/Views/SettingsView.swift": _with(
                _SWIFT_SETTINGS_V1,
                '.navigationTitle("Settings")',
                ".navigationTitle(L10n.Settings.title)",
            ),
            "FitTrack/Resources/en.lproj/Localizable.strings": _SWIFT_STRINGS_V1,
            "FitTrack/Generated/Strings.swift": _SWIFT_L10N_V1,
        },
        days_ago=30,
    )
    s.commit(
        "Settings: HealthKit permission",
        {
            "FitTrack/Services/HealthKitService.swift": _SWIFT_HEALTHKIT,
            "FitTrack/ViewModels/SettingsViewModel.swift": lines(
                "import Foundation",
                "",
                "@MainActor",
                "final class SettingsViewModel: ObservableObject {",
                "    @Published var distanceUnit: DistanceUnit = .kilometers",
                "    @Published var healthKitEnabled = false",
                "}",
            ),
            "FitTrackTests/SettingsViewModelTests.swift": lines(
                "import XCTest",
                "@testable import FitTrack",
                "",
                "@MainActor",
                "final class SettingsViewModelTests: XCTestCase {",
                "    func testDefaultsToKilometers() {",
                "        XCTAssertEqual(SettingsViewModel().distanceUnit, .kilometers)",
                "    }",
                "",
                "    func testHealthKitOffByDefault() {",
                "        XCTAssertFalse(SettingsViewModel().healthKitEnabled)",
                "    }",
                "}",
            ),
        },
        days_ago=15,
    )
    s.intent(
        "Add pull-to-refresh to the workout history list, with an error banner if it fails",
        {"FitTrack/Views/WorkoutHistoryView.swift": "the history list screen"},
        hours_ago=2,
    )
    # The user sketched the banner state by hand before handing over to the agent, then
    # took a checkpoint: it holds that uncommitted edit, which a restore must keep.
    _edit(
        s,
        "FitTrack/Views/WorkoutHistoryView.swift",
        "    @StateObject private var viewModel = WorkoutHistoryViewModel()\n",
        "    @StateObject private var viewModel = WorkoutHistoryViewModel()\n"
        "    // TODO: pull to refresh + banner when the refresh fails\n",
    )
    before = s.checkpoint("before the pull-to-refresh session")

    # -- the real work ------------------------------------------------------------------
    _edit(
        s,
        "FitTrack/Views/WorkoutHistoryView.swift",
        "    // TODO: pull to refresh + banner when the refresh fails\n",
        "",
    )
    _edit(
        s,
        "FitTrack/Views/WorkoutHistoryView.swift",
        "            .task { await viewModel.load() }\n",
        "            .refreshable { await viewModel.reload() }\n"
        "            .overlay(alignment: .top) {\n"
        "                if let message = viewModel.refreshError {\n"
        "                    RefreshErrorBanner(message: message)\n"
        "                }\n"
        "            }\n"
        "            .task { await viewModel.load() }\n",
    )
    _edit(
        s,
        "FitTrack/ViewModels/WorkoutHistoryViewModel.swift",
        "    @Published private(set) var weeks: [WorkoutWeek] = []\n",
        "    @Published private(set) var weeks: [WorkoutWeek] = []\n"
        "    @Published private(set) var refreshError: String?\n",
    )
    _edit(
        s,
        "FitTrack/ViewModels/WorkoutHistoryViewModel.swift",
        "        weeks = WorkoutWeek.group(workouts)\n    }\n",
        "        weeks = WorkoutWeek.group(workouts)\n    }\n\n"
        "    func reload() async {\n"
        "        do {\n"
        "            let latest = try await service.fetchLatest(since: weeks.first?.id)\n"
        "            weeks = WorkoutWeek.group(latest + weeks.flatMap(\\.workouts))\n"
        "            refreshError = nil\n"
        "        } catch {\n"
        "            refreshError = L10n.History.refreshFailed\n"
        "        }\n"
        "    }\n",
    )
    _edit(
        s,
        "FitTrack/Services/WorkoutService.swift",
        '        try await client.get("/v1/workouts")\n    }\n',
        '        try await client.get("/v1/workouts")\n    }\n\n'
        "    func fetchLatest(since: Date?) async throws -> [Workout] {\n"
        '        let stamp = since.map { ISO8601DateFormatter().string(from: $0) } ?? ""\n'
        '        return try await client.get("/v1/workouts?since=\\(stamp)")\n'
        "    }\n",
    )
    s.agent(
        {
            "FitTrack/Views/Components/RefreshErrorBanner.swift": lines(
                "import SwiftUI",
                "",
                "struct RefreshErrorBanner: View {",
                "    let message: String",
                "    var body: some View {",
                "        Text(message)",
                "            .font(.footnote)",
                "            .padding(8)",
                "            .background(.red.opacity(0.9), in: Capsule())",
                "            .foregroundStyle(.white)",
                "    }",
                "}",
            ),
        }
    )
    # Registering the new file with the Xcode project: Xcode does this itself when a
    # file is added, and the build breaks without it.
    _edit(
        s,
        "FitTrack.xcodeproj/project.pbxproj",
        "/* End PBXBuildFile section */",
        "\t\tA1000004 /* RefreshErrorBanner.swift in Sources */ = {isa = PBXBuildFile; "
        "fileRef = B1000004; };\n/* End PBXBuildFile section */",
    )
    _edit(
        s,
        "FitTrack.xcodeproj/project.pbxproj",
        "/* End PBXFileReference section */",
        "\t\tB1000004 /* RefreshErrorBanner.swift */ = {isa = PBXFileReference; "
        "path = RefreshErrorBanner.swift; };\n/* End PBXFileReference section */",
    )
    _edit(
        s,
        "FitTrack/Resources/en.lproj/Localizable.strings",
        '"history.title" = "History";\n',
        '"history.title" = "History";\n'
        '"history.refresh.failed" = "Couldn\'t refresh your workouts.";\n',
    )
    _edit(
        s,
        "FitTrackTests/WorkoutHistoryViewModelTests.swift",
        "        XCTAssertEqual(vm.weeks.count, 2)\n    }\n",
        "        XCTAssertEqual(vm.weeks.count, 2)\n    }\n\n"
        "    func testReloadFailureShowsBanner() async {\n"
        "        let vm = WorkoutHistoryViewModel(service: .failing)\n"
        "        await vm.reload()\n"
        "        XCTAssertNotNil(vm.refreshError)\n"
        "    }\n",
    )
    s.fine(
        "FitTrack/Views/WorkoutHistoryView.swift",
        "FitTrack/ViewModels/WorkoutHistoryViewModel.swift",
        "FitTrack/Services/WorkoutService.swift",
        "FitTrack/Views/Components/RefreshErrorBanner.swift",
        "FitTrack.xcodeproj/project.pbxproj",
        "FitTrack/Resources/en.lproj/Localizable.strings",
        "FitTrackTests/WorkoutHistoryViewModelTests.swift",
    )

    # -- generated: SwiftGen's run-script phase rewrote the strings enum (tracked) --------
    _edit(
        s,
        "FitTrack/Generated/Strings.swift",
        '    internal static let title = L10n.tr("Localizable", "history.title")\n',
        "    /// Couldn't refresh your workouts.\n"
        '    internal static let refreshFailed = L10n.tr("Localizable", "history.refresh.failed")\n'
        "    /// History\n"
        '    internal static let title = L10n.tr("Localizable", "history.title")\n',
    )
    s.excluded("FitTrack/Generated/Strings.swift")

    # -- drift ----------------------------------------------------------------------------
    # The sibling tab retitled (it once changed with the history screen, in the
    # localisation sweep; that does not make this edit part of pull-to-refresh).
    _edit(
        s,
        "FitTrack/Views/SettingsView.swift",
        ".navigationTitle(L10n.Settings.title)",
        '.navigationTitle("Preferences")',
    )
    # Completion handler rewritten to async/await: a refactor nobody asked for.
    _edit(
        s,
        "FitTrack/Services/HealthKitService.swift",
        "    func requestAuthorization(completion: @escaping (Bool) -> Void) {\n"
        "        let types: Set = [HKObjectType.workoutType()]\n"
        "        store.requestAuthorization(toShare: types, read: types) { granted, _ in\n"
        "            completion(granted)\n"
        "        }\n"
        "    }\n",
        "    func requestAuthorization() async throws -> Bool {\n"
        "        let types: Set = [HKObjectType.workoutType()]\n"
        "        try await store.requestAuthorization(toShare: types, read: types)\n"
        "        return true\n"
        "    }\n",
    )
    _edit(s, "FitTrack/Info.plist", "<string>41</string>", "<string>42</string>")
    s.agent(delete=["FitTrackTests/SettingsViewModelTests.swift"])
    s.drift(
        "FitTrack/Views/SettingsView.swift",
        "FitTrack/Services/HealthKitService.swift",
        "FitTrack/Info.plist",
        "FitTrackTests/SettingsViewModelTests.swift",
    )
    s.safe_checkpoint(before)
    s.note = "the checkpoint predates the session and holds the user's own TODO edit"


# --------------------------------------------------------------------------------------
# 3. Elixir / Phoenix: rate-limit the login endpoint; checkpoint taken mid-session.
# --------------------------------------------------------------------------------------

_EX_SESSION_V1 = """defmodule ShopWeb.UserSessionController do
  use ShopWeb, :controller

  alias Shop.Accounts
  alias ShopWeb.UserAuth

  def new(conn, _params) do
    render(conn, :new, error_message: nil)
  end

  def create(conn, %{"user" => %{"email" => email, "password" => password} = user_params}) do
    if user = Accounts.get_user_by_email_and_password(email, password) do
      UserAuth.log_in_user(conn, user, user_params)
    else
      render(conn, :new, error_message: "Invalid email or password")
    end
  end

  def delete(conn, _params) do
    UserAuth.log_out_user(conn)
  end
end
"""

_EX_SESSION_TEST_V1 = """defmodule ShopWeb.UserSessionControllerTest do
  use ShopWeb.ConnCase, async: true

  import Shop.AccountsFixtures

  setup do
    %{user: user_fixture()}
  end

  test "logs the user in", %{conn: conn, user: user} do
    params = %{"email" => user.email, "password" => valid_user_password()}
    conn = post(conn, ~p"/users/log_in", %{"user" => params})
    assert redirected_to(conn) == ~p"/"
  end
end
"""

_EX_CATALOG = """defmodule Shop.Catalog do
  @moduledoc "Products and their prices."

  import Ecto.Query, warn: false
  alias Shop.Repo
  alias Shop.Catalog.Product

  def list_products(opts \\\\ []) do
    Product
    |> where([p], p.active == true)
    |> order_by([p], [asc: p.name])
    |> limit(^Keyword.get(opts, :limit, 50))
    |> Repo.all()
  end

  def get_product!(id), do: Repo.get!(Product, id)
end
"""

_EX_PRODUCT_LIVE = """defmodule ShopWeb.ProductLive.Index do
  use ShopWeb, :live_view

  alias Shop.Catalog

  @impl true
  def mount(_params, _session, socket) do
    {:ok,
     socket
     |> assign(:page_title, "Listing Products")
     |> stream(:products, Catalog.list_products())}
  end
end
"""

_EX_MIX = """defmodule Shop.MixProject do
  use Mix.Project

  def project do
    [
      app: :shop,
      version: "0.4.0",
      elixir: "~> 1.15",
      start_permanent: Mix.env() == :prod,
      deps: deps()
    ]
  end

  def application do
    [mod: {Shop.Application, []}, extra_applications: [:logger, :runtime_tools]]
  end

  defp deps do
    [
      {:phoenix, "~> 1.7.11"},
      {:phoenix_ecto, "~> 4.4"},
      {:ecto_sql, "~> 3.10"},
      {:postgrex, ">= 0.0.0"},
      {:phoenix_live_view, "~> 0.20.2"},
      {:bcrypt_elixir, "~> 3.0"},
      {:jason, "~> 1.2"}
    ]
  end
end
"""

_EX_LOCK = """%{
  "bcrypt_elixir": {:hex, :bcrypt_elixir, "3.1.0",
    "0b110a9a6c619b19a7f73fa3004aa11d6e719a67e672d1633dc36b6b2290a0f7", [:make, :mix], [],
    "hexpm", "2ad2acb5a8bc049e8d5aa267802631912bb80d5f4110a178ae7999e69dca1bf7"},
  "ecto_sql": {:hex, :ecto_sql, "3.11.1",
    "e9abf28ae27ef3916b43545f9578b4750956ccea444853606472089e7d169470", [:mix], [],
    "hexpm", "ce14063ab3514424276e7e360108ad6c2308f6d88164a076aac8a387e1fea634"},
  "jason": {:hex, :jason, "1.4.1",
    "af1504e35f629ddcdd6addb3513c3853991f694921b1b9368b0bd32beb9f1b63", [:mix], [],
    "hexpm", "fbb01ecdfd565b56261302f7e1fcc27c4fb8f32d56eab74db621fc154604a7a1"},
  "phoenix": {:hex, :phoenix, "1.7.11",
    "1d88fc6b05ab0c735b250932c4e6e33bfa1c186f76dcf623d8dd52f07d6379c7", [:mix], [],
    "hexpm", "b1ec57f2e40316b306708fe59b92a16b9f6f4bf50ccfa41aa8c7feb79e0ec02a"},
}
"""

_EX_CONFIG = """import Config

config :shop,
  ecto_repos: [Shop.Repo],
  generators: [timestamp_type: :utc_datetime]

config :shop, ShopWeb.Endpoint,
  url: [host: "localhost"],
  render_errors: [formats: [html: ShopWeb.ErrorHTML], layout: false],
  pubsub_server: Shop.PubSub

config :logger, :console,
  format: "$time $metadata[$level] $message\\n",
  metadata: [:request_id]

import_config "#{config_env()}.exs"
"""


def _phoenix_login_rate_limit(s: Scene) -> None:
    s.commit(
        "Phoenix 1.7 shop: accounts and pages",
        {
            ".gitignore": lines(
                "/_build/",
                "/cover/",
                "/deps/",
                "/doc/",
                "erl_crash.dump",
                "*.ez",
                "/tmp/",  # noqa: S108
            ),
            ".formatter.exs": lines(
                "[",
                "  import_deps: [:ecto, :ecto_sql, :phoenix],",
                '  inputs: ["*.{ex,exs}", "{config,lib,test}/**/*.{ex,exs}"]',
                "]",
            ),
            "mix.exs": _EX_MIX,
            "mix.lock": _EX_LOCK,
            "config/config.exs": _EX_CONFIG,
            "config/dev.exs": lines(
                "import Config",
                "",
                'config :shop, Shop.Repo, database: "shop_dev", '
                "show_sensitive_data_on_connection_error: true",
                'config :logger, :console, format: "[$level] $message\\n"',
            ),
            "config/prod.exs": lines(
                "import Config",
                "",
                "config :shop, ShopWeb.Endpoint, cache_static_manifest: "
                '"priv/static/cache_manifest.json"',
                "config :logger, level: :info",
            ),
            "config/test.exs": lines(
                "import Config",
                "",
                "config :bcrypt_elixir, :log_rounds, 1",
                "config :shop, Shop.Repo, database: "
                '"shop_test#{System.get_env("MIX_TEST_PARTITION")}"',
                "config :logger, level: :warning",
            ),
            "config/runtime.exs": lines(
                "import Config",
                "",
                "if config_env() == :prod do",
                '  config :shop, Shop.Repo, url: System.fetch_env!("DATABASE_URL")',
                "end",
            ),
            "lib/shop/application.ex": lines(
                "defmodule Shop.Application do",
                "  use Application",
                "",
                "  @impl true",
                "  def start(_type, _args) do",
                "    children = [Shop.Repo, {Phoenix.PubSub, name: Shop.PubSub}, ShopWeb.Endpoint]",
                "    Supervisor.start_link(children, strategy: :one_for_one, name: "
                "Shop.Supervisor)",
                "  end",
                "end",
            ),
            "lib/shop/repo.ex": lines(
                "defmodule Shop.Repo do",
                "  use Ecto.Repo, otp_app: :shop, adapter: Ecto.Adapters.Postgres",
                "end",
            ),
            "lib/shop/accounts.ex": lines(
                "defmodule Shop.Accounts do",
                "  alias Shop.Repo",
                "  alias Shop.Accounts.User",
                "",
                "  def get_user_by_email_and_password(email, password) do",
                "    user = Repo.get_by(User, email: email)",
                "    if User.valid_password?(user, password), do: user",
                "  end",
                "end",
            ),
            "lib/shop/accounts/user.ex": lines(
                "defmodule Shop.Accounts.User do",
                "  use Ecto.Schema",
                "",
                '  schema "users" do',
                "    field :email, :string",
                "    field :hashed_password, :string, redact: true",
                "    timestamps(type: :utc_datetime)",
                "  end",
                "",
                "  def valid_password?(%__MODULE__{hashed_password: h}, password) when "
                "is_binary(h),",
                "    do: Bcrypt.verify_pass(password, h)",
                "",
                "  def valid_password?(_, _), do: Bcrypt.no_user_verify()",
                "end",
            ),
            "lib/shop_web.ex": lines(
                "defmodule ShopWeb do",
                "  def controller, do: quote(do: use(Phoenix.Controller, formats: [:html, :json]))",
                "  def live_view, do: quote(do: use(Phoenix.LiveView, layout: {ShopWeb.Layouts, "
                ":app}))",
                "  defmacro __using__(which), do: apply(__MODULE__, which, [])",
                "end",
            ),
            "lib/shop_web/endpoint.ex": lines(
                "defmodule ShopWeb.Endpoint do",
                "  use Phoenix.Endpoint, otp_app: :shop",
                "",
                '  plug Plug.Static, at: "/", from: :shop, gzip: false',
                "  plug Plug.RequestId",
                "  plug ShopWeb.Router",
                "end",
            ),
            "lib/shop_web/router.ex": lines(
                "defmodule ShopWeb.Router do",
                "  use Phoenix.Router",
                "",
                "  pipeline :browser do",
                '    plug :accepts, ["html"]',
                "    plug :fetch_session",
                "    plug :protect_from_forgery",
                "  end",
                "",
                '  scope "/", ShopWeb do',
                "    pipe_through :browser",
                '    get "/", PageController, :home',
                "  end",
                "end",
            ),
            "lib/shop_web/controllers/page_controller.ex": lines(
                "defmodule ShopWeb.PageController do",
                "  use ShopWeb, :controller",
                "",
                "  def home(conn, _params), do: render(conn, :home)",
                "end",
            ),
            "lib/shop_web/components/layouts.ex": lines(
                "defmodule ShopWeb.Layouts do",
                "  use Phoenix.Component",
                '  embed_templates "layouts/*"',
                "end",
            ),
            "assets/js/app.js": lines(
                'import "phoenix_html"',
                'import {Socket} from "phoenix"',
                'import {LiveSocket} from "phoenix_live_view"',
                "",
                'let liveSocket = new LiveSocket("/live", Socket)',
                "liveSocket.connect()",
            ),
            "test/test_helper.exs": lines(
                "ExUnit.start()", "Ecto.Adapters.SQL.Sandbox.mode(Shop.Repo, :manual)"
            ),
            "test/support/conn_case.ex": lines(
                "defmodule ShopWeb.ConnCase do",
                "  use ExUnit.CaseTemplate",
                "",
                "  using do",
                "    quote do",
                "      import Plug.Conn",
                "      import Phoenix.ConnTest",
                "      @endpoint ShopWeb.Endpoint",
                "    end",
                "  end",
                "end",
            ),
            "priv/repo/migrations/20240105101500_create_users.exs": lines(
                "defmodule Shop.Repo.Migrations.CreateUsers do",
                "  use Ecto.Migration",
                "",
                "  def change do",
                "    create table(:users) do",
                "      add :email, :citext, null: false",
                "      add :hashed_password, :string, null: false",
                "      timestamps(type: :utc_datetime)",
                "    end",
                "  end",
                "end",
            ),
        },
        days_ago=80,
    )
    s.commit(
        "Accounts: log in with e-mail and password",
        {
            "lib/shop_web/controllers/user_session_controller.ex": _EX_SESSION_V1,
            "lib/shop_web/router.ex": lines(
                "defmodule ShopWeb.Router do",
                "  use Phoenix.Router",
                "",
                "  pipeline :browser do",
                '    plug :accepts, ["html"]',
                "    plug :fetch_session",
                "    plug :protect_from_forgery",
                "  end",
                "",
                '  scope "/", ShopWeb do',
                "    pipe_through :browser",
                '    get "/", PageController, :home',
                '    get "/users/log_in", UserSessionController, :new',
                '    post "/users/log_in", UserSessionController, :create',
                '    delete "/users/log_out", UserSessionController, :delete',
                "  end",
                "end",
            ),
            "test/shop_web/controllers/user_session_controller_test.exs": _EX_SESSION_TEST_V1,
        },
        days_ago=45,
    )
    s.commit(
        "Catalog: product listing LiveView",
        {
            "lib/shop/catalog.ex": _EX_CATALOG,
            "lib/shop/catalog/product.ex": lines(
                "defmodule Shop.Catalog.Product do",
                "  use Ecto.Schema",
                "",
                '  schema "products" do',
                "    field :name, :string",
                "    field :price_cents, :integer",
                "    field :active, :boolean, default: true",
                "    timestamps(type: :utc_datetime)",
                "  end",
                "end",
            ),
            "lib/shop_web/live/product_live/index.ex": _EX_PRODUCT_LIVE,
            "priv/repo/migrations/20240301090000_create_products.exs": lines(
                "defmodule Shop.Repo.Migrations.CreateProducts do",
                "  use Ecto.Migration",
                "",
                "  def change do",
                "    create table(:products) do",
                "      add :name, :string",
                "      add :price_cents, :integer",
                "      add :active, :boolean, default: true",
                "      timestamps(type: :utc_datetime)",
                "    end",
                "  end",
                "end",
            ),
            "test/shop/catalog_test.exs": lines(
                "defmodule Shop.CatalogTest do",
                "  use Shop.DataCase",
                "",
                '  test "list_products/0 hides inactive products" do',
                "    assert Shop.Catalog.list_products() == []",
                "  end",
                "end",
            ),
        },
        days_ago=20,
    )
    s.commit(
        "Session: keep me logged in",
        {
            "lib/shop_web/controllers/user_session_controller.ex": _with(
                _EX_SESSION_V1,
                '      render(conn, :new, error_message: "Invalid email or password")\n',
                "      # Same message either way: do not reveal which e-mails are registered.\n"
                '      render(conn, :new, error_message: "Invalid email or password")\n',
            ),
            "test/shop_web/controllers/user_session_controller_test.exs": _with(
                _EX_SESSION_TEST_V1,
                "  end\nend\n",
                "  end\n\n"
                '  test "remember me sets a cookie", %{conn: conn, user: user} do\n'
                '    conn = post(conn, ~p"/users/log_in", %{"user" => %{"email" => user.email, '
                '"password" => valid_user_password(), "remember_me" => "true"}})\n'
                '    assert conn.resp_cookies["_shop_web_user_remember_me"]\n'
                "  end\nend\n",
            ),
        },
        days_ago=6,
    )
    s.intent(
        "Rate-limit the login endpoint: at most 5 attempts per minute per IP, then 429",
        {"lib/shop_web/controllers/user_session_controller.ex": "handles POST /users/log_in"},
        hours_ago=1.5,
    )

    # -- the real work, first half --------------------------------------------------------
    _edit(
        s,
        "lib/shop_web/controllers/user_session_controller.ex",
        "  alias ShopWeb.UserAuth\n",
        "  alias ShopWeb.UserAuth\n\n"
        '  plug ShopWeb.Plugs.RateLimit, [bucket: "login", limit: 5, scale_ms: 60_000]'
        " when action in [:create]\n",
    )
    s.agent(
        {
            "lib/shop_web/plugs/rate_limit.ex": lines(
                "defmodule ShopWeb.Plugs.RateLimit do",
                '  @moduledoc "Refuses a request with 429 once its client IP used up its bucket."',
                "  import Plug.Conn",
                "",
                "  def init(opts), do: Map.new(opts)",
                "",
                "  def call(conn, %{bucket: bucket, limit: limit, scale_ms: scale}) do",
                '    key = "#{bucket}:#{:inet.ntoa(conn.remote_ip)}"',
                "",
                "    case Hammer.check_rate(key, scale, limit) do",
                "      {:allow, _count} -> conn",
                '      {:deny, _limit} -> conn |> send_resp(429, "Too many attempts") |> halt()',
                "    end",
                "  end",
                "end",
            ),
            "test/shop_web/plugs/rate_limit_test.exs": lines(
                "defmodule ShopWeb.Plugs.RateLimitTest do",
                "  use ShopWeb.ConnCase, async: false",
                "",
                "  alias ShopWeb.Plugs.RateLimit",
                "",
                '  test "the sixth attempt in a minute is refused", %{conn: conn} do',
                '    opts = RateLimit.init(bucket: "t#{System.unique_integer()}", limit: 5, '
                "scale_ms: 60_000)",
                "    for _ <- 1..5, do: refute RateLimit.call(conn, opts).halted",
                "    assert RateLimit.call(conn, opts).status == 429",
                "  end",
                "end",
            ),
        }
    )
    _edit(
        s,
        "mix.exs",
        '      {:jason, "~> 1.2"}\n',
        '      {:jason, "~> 1.2"},\n      {:hammer, "~> 6.1"}\n',
    )
    _edit(
        s,
        "mix.lock",
        '  "jason":',
        '  "hammer": {:hex, :hammer, "6.2.1", '
        '"5ae9c33e3dceaeb42de0db46bf505bd9c35f259c8defb03390cd7556fea67ee2", '
        '[:mix], [], "hexpm", '
        '"b9476d0c13883d2dc0cc72e786bac6ac28911fba7cc2e04b70ce6a6d9c4b2bdc"},\n'
        '  "jason":',
    )
    _edit(
        s,
        "config/config.exs",
        'import_config "#{config_env()}.exs"\n',
        "config :hammer,\n"
        "  backend: {Hammer.Backend.ETS, [expiry_ms: 60_000 * 60, cleanup_interval_ms: 60_000 * "
        "10]}\n\n"
        'import_config "#{config_env()}.exs"\n',
    )
    # The user tried it in the browser, liked it, and checkpointed: everything so far
    # is the asked-for work, so this checkpoint (not the commit) is what to go back to.
    working = s.checkpoint("login rate limit works")

    # -- the session goes on: one more fine change, then drift --------------------------------
    _edit(
        s,
        "test/shop_web/controllers/user_session_controller_test.exs",
        '  test "remember me sets a cookie"',
        '  test "the sixth failed login in a minute gets 429", %{conn: conn, user: user} do\n'
        '    params = %{"user" => %{"email" => user.email, "password" => "wrong"}}\n'
        '    for _ <- 1..5, do: post(conn, ~p"/users/log_in", params)\n'
        '    assert post(conn, ~p"/users/log_in", params).status == 429\n'
        "  end\n\n"
        '  test "remember me sets a cookie"',
    )
    s.fine(
        "lib/shop_web/controllers/user_session_controller.ex",
        "lib/shop_web/plugs/rate_limit.ex",
        "test/shop_web/plugs/rate_limit_test.exs",
        "mix.exs",
        "mix.lock",
        "config/config.exs",
        "test/shop_web/controllers/user_session_controller_test.exs",
    )
    # Debug logging switched on in production while "checking the 429s": the wrong
    # environment, and nobody asked.
    _edit(s, "config/prod.exs", "config :logger, level: :info", "config :logger, level: :debug")
    # A style-only cleanup (keyword-list brackets, a long def split) of a context
    # module nobody is working on.
    _edit(
        s,
        "lib/shop/catalog.ex",
        "    |> order_by([p], [asc: p.name])\n",
        "    |> order_by([p], asc: p.name)\n",
    )
    _edit(
        s,
        "lib/shop/catalog.ex",
        "  def get_product!(id), do: Repo.get!(Product, id)\n",
        "  def get_product!(id),\n    do: Repo.get!(Product, id)\n",
    )
    _edit(
        s,
        "lib/shop_web/live/product_live/index.ex",
        '|> assign(:page_title, "Listing Products")',
        '|> assign(:page_title, "Our products")',
    )
    s.drift("config/prod.exs", "lib/shop/catalog.ex", "lib/shop_web/live/product_live/index.ex")

    # -- build output: `mix assets.deploy` digests into priv/static, which this project's
    # older .gitignore does not cover ------------------------------------------------------
    s.agent(
        {
            "priv/static/assets/app-5f3e9a7c1b2d.js": "(()=>{var n=new "
            'LiveSocket("/live",Socket);n.connect()})();\n',
            "priv/static/assets/app-5f3e9a7c1b2d.js.gz": b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03"
            + b"\x00" * 20,
            "priv/static/cache_manifest.json": (
                '{"digests":{"assets/app-5f3e9a7c1b2d.js":{"logical_path":'
                '"assets/app.js","mtime":63877811200,"size":1843}},"latest":{"assets/app.js":'
                '"assets/app-5f3e9a7c1b2d.js"},"version":1}\n'
            ),
        }
    )
    s.excluded(
        "priv/static/assets/app-5f3e9a7c1b2d.js",
        "priv/static/assets/app-5f3e9a7c1b2d.js.gz",
        "priv/static/cache_manifest.json",
    )
    s.safe_checkpoint(working)
    s.note = "checkpoint taken mid-session after the real work and before any drift"


# --------------------------------------------------------------------------------------
# 4. Kotlin / Android: offline banner on the feed; checkpoint taken after the drift.
# --------------------------------------------------------------------------------------

_KT = "app/src/main/java/com/example/news"
_KT_TEST = "app/src/test/java/com/example/news"

_KT_FEED_SCREEN_V1 = """package com.example.news.ui.feed

import androidx.compose.foundation.lazy.LazyColumn
import androidx.compose.foundation.lazy.items
import androidx.compose.material3.Scaffold
import androidx.compose.material3.Text
import androidx.compose.material3.TopAppBar
import androidx.compose.runtime.Composable
import androidx.compose.runtime.getValue
import androidx.compose.ui.res.stringResource
import androidx.hilt.navigation.compose.hiltViewModel
import androidx.lifecycle.compose.collectAsStateWithLifecycle
import com.example.news.R

@Composable
fun FeedScreen(onOpen: (String) -> Unit, viewModel: FeedViewModel = hiltViewModel()) {
    val state by viewModel.state.collectAsStateWithLifecycle()
    val title = stringResource(R.string.feed_title)
    Scaffold(topBar = { TopAppBar(title = { Text(title) }) }) { padding ->
        LazyColumn(contentPadding = padding) {
            items(state.articles, key = { it.id }) { ArticleRow(it, onClick = { onOpen(it.id) }) }
        }
    }
}
"""

_KT_FEED_VM_V1 = """package com.example.news.ui.feed

import androidx.lifecycle.ViewModel
import androidx.lifecycle.viewModelScope
import com.example.news.data.NewsRepository
import dagger.hilt.android.lifecycle.HiltViewModel
import javax.inject.Inject
import kotlinx.coroutines.flow.SharingStarted
import kotlinx.coroutines.flow.map
import kotlinx.coroutines.flow.stateIn

@HiltViewModel
class FeedViewModel @Inject constructor(repository: NewsRepository) : ViewModel() {
    val state = repository.latest()
        .map { FeedUiState(articles = it) }
        .stateIn(viewModelScope, SharingStarted.WhileSubscribed(5_000), FeedUiState())
}

data class FeedUiState(val articles: List<Article> = emptyList())
"""

_KT_FEED_TEST_V1 = """package com.example.news.ui.feed

import kotlinx.coroutines.test.runTest
import org.junit.Assert.assertEquals
import org.junit.Test

class FeedViewModelTest {
    @Test
    fun `state lists the latest articles`() = runTest {
        val vm = FeedViewModel(FakeNewsRepository(listOf(sampleArticle)))
        assertEquals(1, vm.state.value.articles.size)
    }
}
"""

_KT_STRINGS_V1 = """<resources>
    <string name="app_name">News</string>
    <string name="feed_title">Top stories</string>
    <string name="settings_title">Settings</string>
</resources>
"""

_KT_STRINGS_DE_V1 = """<resources>
    <string name="feed_title">Top-Meldungen</string>
    <string name="settings_title">Einstellungen</string>
</resources>
"""

_KT_VERSIONS = """[versions]
agp = "8.2.2"
kotlin = "1.9.22"
composeBom = "2024.02.00"
hilt = "2.50"

[libraries]
compose-bom = { group = "androidx.compose", name = "compose-bom", version.ref = "composeBom" }
hilt-android = { group = "com.google.dagger", name = "hilt-android", version.ref = "hilt" }
coroutines-test = { module = "org.jetbrains.kotlinx:kotlinx-coroutines-test", version = "1.7.3" }

[plugins]
android-application = { id = "com.android.application", version.ref = "agp" }
kotlin-android = { id = "org.jetbrains.kotlin.android", version.ref = "kotlin" }
"""

_KT_MANIFEST = """<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android">

    <uses-permission android:name="android.permission.INTERNET" />

    <application
        android:name=".NewsApp"
        android:label="@string/app_name"
        android:theme="@style/Theme.News">
        <activity android:name=".MainActivity" android:exported="true">
            <intent-filter>
                <action android:name="android.intent.action.MAIN" />
                <category android:name="android.intent.category.LAUNCHER" />
            </intent-filter>
        </activity>
    </application>
</manifest>
"""


def _android_offline_banner(s: Scene) -> None:
    s.commit(
        "News app: feed, article, settings (Compose + Hilt)",
        {
            # Android Studio's root .gitignore; the module's own app/.gitignore (with
            # /build) was never committed, so app/build/ shows up untracked.
            ".gitignore": lines(
                "*.iml",
                ".gradle",
                "/local.properties",
                "/.idea",
                ".DS_Store",
                "/build",
                "/captures",
            ),
            "settings.gradle.kts": lines(
                "pluginManagement { repositories { google(); mavenCentral(); "
                "gradlePluginPortal() } }",
                'rootProject.name = "News"',
                'include(":app")',
            ),
            "build.gradle.kts": lines(
                "plugins {",
                "    alias(libs.plugins.android.application) apply false",
                "    alias(libs.plugins.kotlin.android) apply false",
                "}",
            ),
            "gradle.properties": lines("org.gradle.jvmargs=-Xmx2048m", "android.useAndroidX=true"),
            "gradle/libs.versions.toml": _KT_VERSIONS,
            "gradle/wrapper/gradle-wrapper.properties": lines(
                "distributionUrl=https\\://services.gradle.org/distributions/gradle-8.4-bin.zip"
            ),
            "app/build.gradle.kts": lines(
                "plugins {",
                "    alias(libs.plugins.android.application)",
                "    alias(libs.plugins.kotlin.android)",
                "}",
                "",
                "android {",
                '    namespace = "com.example.news"',
                "    compileSdk = 34",
                "    defaultConfig {",
                '        applicationId = "com.example.news"',
                "        minSdk = 24",
                "        targetSdk = 34",
                "        versionCode = 12",
                '        versionName = "1.6.0"',
                "    }",
                "}",
                "",
                "dependencies {",
                "    implementation(platform(libs.compose.bom))",
                "    implementation(libs.hilt.android)",
                "    testImplementation(libs.coroutines.test)",
                "}",
            ),
            "app/proguard-rules.pro": lines("-keep class com.example.news.data.remote.** { *; }"),
            "app/src/main/AndroidManifest.xml": _KT_MANIFEST,
            "app/src/main/res/values/strings.xml": _KT_STRINGS_V1,
            "app/src/main/res/values-de/strings.xml": _KT_STRINGS_DE_V1,
            f"{_KT}/NewsApp.kt": lines(
                "package com.example.news",
                "",
                "import android.app.Application",
                "import dagger.hilt.android.HiltAndroidApp",
                "",
                "@HiltAndroidApp",
                "class NewsApp : Application()",
            ),
            f"{_KT}/MainActivity.kt": lines(
                "package com.example.news",
                "",
                "import android.os.Bundle",
                "import androidx.activity.ComponentActivity",
                "import androidx.activity.compose.setContent",
                "import dagger.hilt.android.AndroidEntryPoint",
                "",
                "@AndroidEntryPoint",
                "class MainActivity : ComponentActivity() {",
                "    override fun onCreate(savedInstanceState: Bundle?) {",
                "        super.onCreate(savedInstanceState)",
                "        setContent { NewsNavHost() }",
                "    }",
                "}",
            ),
            f"{_KT}/ui/feed/FeedScreen.kt": _KT_FEED_SCREEN_V1,
            f"{_KT}/ui/feed/FeedViewModel.kt": _KT_FEED_VM_V1,
            f"{_KT}/ui/article/ArticleScreen.kt": lines(
                "package com.example.news.ui.article",
                "",
                "import androidx.compose.material3.Text",
                "import androidx.compose.runtime.Composable",
                "",
                "@Composable",
                "fun ArticleScreen(viewModel: ArticleViewModel) {",
                "    Text(viewModel.title)",
                "}",
            ),
            f"{_KT}/ui/article/ArticleViewModel.kt": lines(
                "package com.example.news.ui.article",
                "",
                "import androidx.lifecycle.ViewModel",
                "",
                "class ArticleViewModel(val title: String) : ViewModel()",
            ),
            f"{_KT}/ui/settings/SettingsScreen.kt": lines(
                "package com.example.news.ui.settings",
                "",
                "import androidx.compose.material3.Scaffold",
                "import androidx.compose.material3.Text",
                "import androidx.compose.material3.TopAppBar",
                "import androidx.compose.runtime.Composable",
                "import androidx.compose.ui.res.stringResource",
                "import com.example.news.R",
                "",
                "@Composable",
                "fun SettingsScreen() {",
                "    Scaffold(topBar = { TopAppBar(title = { "
                "Text(stringResource(R.string.settings_title)) }) }) {",
                "        SettingsList(it)",
                "    }",
                "}",
            ),
            f"{_KT}/data/NewsRepository.kt": lines(
                "package com.example.news.data",
                "",
                "import com.example.news.data.remote.NewsApi",
                "import javax.inject.Inject",
                "import kotlinx.coroutines.flow.flow",
                "",
                "class NewsRepository @Inject constructor(private val api: NewsApi) {",
                "    fun latest() = flow { emit(api.topStories()) }",
                "}",
            ),
            f"{_KT}/data/remote/NewsApi.kt": lines(
                "package com.example.news.data.remote",
                "",
                "interface NewsApi {",
                "    suspend fun topStories(): List<com.example.news.ui.feed.Article>",
                "}",
            ),
            f"{_KT}/di/AppModule.kt": lines(
                "package com.example.news.di",
                "",
                "import dagger.Module",
                "import dagger.hilt.InstallIn",
                "import dagger.hilt.components.SingletonComponent",
                "",
                "@Module",
                "@InstallIn(SingletonComponent::class)",
                "object AppModule",
            ),
            f"{_KT_TEST}/ui/feed/FeedViewModelTest.kt": _KT_FEED_TEST_V1,
            f"{_KT_TEST}/ui/article/ArticleViewModelTest.kt": lines(
                "package com.example.news.ui.article",
                "",
                "import org.junit.Assert.assertEquals",
                "import org.junit.Test",
                "",
                "class ArticleViewModelTest {",
                "    @Test",
                "    fun `title is shown as given`() {",
                '        assertEquals("Hello", ArticleViewModel("Hello").title)',
                "    }",
                "}",
            ),
        },
        days_ago=70,
    )
    s.commit(
        "Feed: error state when loading fails",
        {
            f"{_KT}/ui/feed/FeedScreen.kt": _with(
                _KT_FEED_SCREEN_V1,
                "        LazyColumn(contentPadding = padding) {",
                "        if (state.error) ErrorRow(stringResource(R.string.feed_error))\n"
                "        LazyColumn(contentPadding = padding) {",
            ),
            f"{_KT}/ui/feed/FeedViewModel.kt": _with(
                _with(
                    _KT_FEED_VM_V1,
                    "        .map { FeedUiState(articles = it) }\n",
                    "        .map { FeedUiState(articles = it) }\n"
                    "        .catch { emit(FeedUiState(error = true)) }\n",
                ),
                "data class FeedUiState(val articles: List<Article> = emptyList())",
                "data class FeedUiState(val articles: List<Article> = emptyList(), val error: "
                "Boolean = false)",
            ),
            f"{_KT_TEST}/ui/feed/FeedViewModelTest.kt": _with(
                _KT_FEED_TEST_V1,
                "    }\n}\n",
                "    }\n\n"
                "    @Test\n"
                "    fun `a failing repository shows the error row`() = runTest {\n"
                "        val vm = FeedViewModel(FakeNewsRepository(failing = true))\n"
                "        assertEquals(true, vm.state.value.error)\n"
                "    }\n}\n",
            ),
            "app/src/main/res/values/strings.xml": _with(
                _KT_STRINGS_V1,
                '    <string name="settings_title">',
                '    <string name="feed_error">Couldn\'t load stories</string>\n'
                '    <string name="settings_title">',
            ),
            "app/src/main/res/values-de/strings.xml": _with(
                _KT_STRINGS_DE_V1,
                '    <string name="settings_title">',
                '    <string name="feed_error">Meldungen konnten nicht geladen werden</string>\n'
                '    <string name="settings_title">',
            ),
        },
        days_ago=35,
    )
    s.commit(
        "Build: Gradle 8.5",
        {
            "gradle/wrapper/gradle-wrapper.properties": lines(
                "distributionUrl=https\\://services.gradle.org/distributions/gradle-8.5-bin.zip"
            ),
        },
        days_ago=9,
    )
    s.intent(
        "Show an offline banner on the feed screen while the device has no network",
        {f"{_KT}/ui/feed/FeedScreen.kt": "the feed screen"},
        hours_ago=3,
    )

    # -- the real work ------------------------------------------------------------------
    _edit(
        s,
        f"{_KT}/ui/feed/FeedScreen.kt",
        "        if (state.error)",
        "        if (state.offline) OfflineBanner(stringResource(R.string.feed_offline))\n"
        "        if (state.error)",
    )
    _edit(
        s,
        f"{_KT}/ui/feed/FeedViewModel.kt",
        "class FeedViewModel @Inject constructor(repository: NewsRepository) : ViewModel() {\n"
        "    val state = repository.latest()\n"
        "        .map { FeedUiState(articles = it) }\n",
        "class FeedViewModel @Inject constructor(\n"
        "    repository: NewsRepository,\n"
        "    network: NetworkMonitor,\n"
        ") : ViewModel() {\n"
        "    val state = combine(repository.latest(), network.isOnline) { articles, online ->\n"
        "        FeedUiState(articles = articles, offline = !online)\n"
        "    }\n",
    )
    _edit(
        s,
        f"{_KT}/ui/feed/FeedViewModel.kt",
        "val error: Boolean = false)",
        "val error: Boolean = false, val offline: Boolean = false)",
    )
    s.agent(
        {
            f"{_KT}/data/network/NetworkMonitor.kt": lines(
                "package com.example.news.data.network",
                "",
                "import android.content.Context",
                "import android.net.ConnectivityManager",
                "import android.net.Network",
                "import dagger.hilt.android.qualifiers.ApplicationContext",
                "import javax.inject.Inject",
                "import kotlinx.coroutines.channels.awaitClose",
                "import kotlinx.coroutines.flow.callbackFlow",
                "",
                "class NetworkMonitor @Inject constructor(@ApplicationContext context: Context) {",
                "    private val manager = "
                "context.getSystemService(ConnectivityManager::class.java)",
                "",
                "    val isOnline = callbackFlow {",
                "        val callback = object : ConnectivityManager.NetworkCallback() {",
                "            override fun onAvailable(network: Network) { trySend(true) }",
                "            override fun onLost(network: Network) { trySend(false) }",
                "        }",
                "        manager.registerDefaultNetworkCallback(callback)",
                "        awaitClose { manager.unregisterNetworkCallback(callback) }",
                "    }",
                "}",
            ),
            f"{_KT_TEST}/ui/feed/FakeNetworkMonitor.kt": lines(
                "package com.example.news.ui.feed",
                "",
                "import kotlinx.coroutines.flow.MutableStateFlow",
                "",
                "class FakeNetworkMonitor(online: Boolean = true) {",
                "    val isOnline = MutableStateFlow(online)",
                "}",
            ),
        }
    )
    _edit(
        s,
        f"{_KT}/di/AppModule.kt",
        "object AppModule",
        "object AppModule {\n"
        "    @Provides\n"
        "    @Singleton\n"
        "    fun networkMonitor(@ApplicationContext context: Context) = NetworkMonitor(context)\n"
        "}",
    )
    _edit(
        s,
        "app/src/main/AndroidManifest.xml",
        '    <uses-permission android:name="android.permission.INTERNET" />\n',
        '    <uses-permission android:name="android.permission.INTERNET" />\n'
        '    <uses-permission android:name="android.permission.ACCESS_NETWORK_STATE" />\n',
    )
    _edit(
        s,
        "app/src/main/res/values/strings.xml",
        '    <string name="settings_title">',
        '    <string name="feed_offline">You\'re offline. Showing saved stories.</string>\n'
        '    <string name="settings_title">',
    )
    _edit(
        s,
        "app/src/main/res/values-de/strings.xml",
        '    <string name="settings_title">',
        '    <string name="feed_offline">Du bist offline. Gespeicherte Meldungen werden '
        "angezeigt.</string>\n"
        '    <string name="settings_title">',
    )
    _edit(
        s,
        f"{_KT_TEST}/ui/feed/FeedViewModelTest.kt",
        "    fun `a failing repository",
        "    fun `losing the network shows the offline banner`() = runTest {\n"
        "        val network = FakeNetworkMonitor(online = false)\n"
        "        val vm = FeedViewModel(FakeNewsRepository(listOf(sampleArticle)), network)\n"
        "        assertEquals(true, vm.state.value.offline)\n"
        "    }\n\n"
        "    @Test\n"
        "    fun `a failing repository",
    )
    s.fine(
        f"{_KT}/ui/feed/FeedScreen.kt",
        f"{_KT}/ui/feed/FeedViewModel.kt",
        f"{_KT}/data/network/NetworkMonitor.kt",
        f"{_KT}/di/AppModule.kt",
        "app/src/main/AndroidManifest.xml",
        "app/src/main/res/values/strings.xml",
        "app/src/main/res/values-de/strings.xml",
        f"{_KT_TEST}/ui/feed/FeedViewModelTest.kt",
        f"{_KT_TEST}/ui/feed/FakeNetworkMonitor.kt",
    )

    # -- drift ----------------------------------------------------------------------------
    # Kotlin 2.0 and a newer Compose BOM: a toolchain upgrade nobody asked for.
    _edit(s, "gradle/libs.versions.toml", 'kotlin = "1.9.22"', 'kotlin = "2.0.0"')
    _edit(s, "gradle/libs.versions.toml", 'composeBom = "2024.02.00"', 'composeBom = "2024.06.00"')
    # registerDefaultNetworkCallback exists since API 24: raising minSdk drops users.
    _edit(s, "app/build.gradle.kts", "        minSdk = 24", "        minSdk = 26")
    _edit(
        s,
        f"{_KT}/ui/settings/SettingsScreen.kt",
        "Text(stringResource(R.string.settings_title))",
        'Text("Preferences")',
    )
    s.agent(delete=[f"{_KT_TEST}/ui/article/ArticleViewModelTest.kt"])
    s.drift(
        "gradle/libs.versions.toml",
        "app/build.gradle.kts",
        f"{_KT}/ui/settings/SettingsScreen.kt",
        f"{_KT_TEST}/ui/article/ArticleViewModelTest.kt",
    )

    # -- build output: `./gradlew assembleDebug` ---------------------------------------------
    s.agent(
        {
            "app/build/outputs/apk/debug/app-debug.apk": ZIP,
            "app/build/outputs/apk/debug/output-metadata.json": '{\n  "version": 3,\n  '
            '"artifactType": '
            '{"type": "APK", "kind": "Directory"},\n  "applicationId": "com.example.news",\n'
            '  "elements": [{"outputFile": "app-debug.apk", "versionCode": 12}]\n}\n',
            "app/build/tmp/kotlin-classes/debug/com/example/news/ui/feed/FeedScreenKt.class": CLASS,
            "app/build/intermediates/merged_manifest/debug/AndroidManifest.xml": _KT_MANIFEST,
        }
    )
    s.excluded(
        "app/build/outputs/apk/debug/app-debug.apk",
        "app/build/outputs/apk/debug/output-metadata.json",
        "app/build/tmp/kotlin-classes/debug/com/example/news/ui/feed/FeedScreenKt.class",
        "app/build/intermediates/merged_manifest/debug/AndroidManifest.xml",
    )
    # The agent checkpointed "before review" at the very end: that checkpoint already
    # holds every drift, so it is no place to restore from; the commit is.
    s.checkpoint("agent: offline banner done, before review")
    s.safe_commit()
    s.note = "the only checkpoint was taken after the drift; the commit is the safe point"


# --------------------------------------------------------------------------------------
# 5. dbt + Airflow: a customer lifetime value model; part of it committed after the
#    intent was set, observed patches from the earlier session.
# --------------------------------------------------------------------------------------

_DBT_MARTS_YML_V1 = """version: 2

models:
  - name: fct_orders
    description: One row per order with its payment total.
    columns:
      - name: order_id
        tests: [unique, not_null]
"""

_DBT_STG_PAYMENTS = """with source as (
    select * from {{ source('shop', 'payments') }}
)

select
    id as payment_id,
    order_id,
    payment_method,
    {{ cents_to_dollars('amount') }} as amount,
    created_at as paid_at
from source
"""

_DBT_DIM_CUSTOMERS = """with customers as (
    select * from {{ ref('stg_customers') }}
),

orders as (
    select * from {{ ref('stg_orders') }}
),

customer_orders as (
    select
        customer_id
        , min(order_date) as first_order
        , max(order_date) as most_recent_order
        , count(order_id) as number_of_orders
    from orders
    group by 1
)

select
    customers.customer_id
    , customers.first_name
    , customers.last_name
    , customer_orders.first_order
    , customer_orders.most_recent_order
    , coalesce(customer_orders.number_of_orders, 0) as number_of_orders
from customers
left join customer_orders using (customer_id)
"""

_DBT_LTV_DRAFT = """with orders as (
    select * from {{ ref('fct_orders') }}
)

select
    customer_id,
    sum(amount) as lifetime_value
from orders
group by 1
"""

_DBT_DAG = '''"""Runs the dbt project every morning and tells #data when it fails."""

from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator

from utils.slack import notify_failure

with DAG(
    dag_id="dbt_daily",
    schedule="0 6 * * *",
    start_date=datetime(2024, 1, 1),
    catchup=False,
    default_args={"on_failure_callback": notify_failure},
) as dag:
    deps = BashOperator(task_id="dbt_deps", bash_command="cd /opt/dbt && dbt deps")
    build = BashOperator(task_id="dbt_build", bash_command="cd /opt/dbt && dbt build --target prod")
    deps >> build
'''


def _dbt_customer_ltv(s: Scene) -> None:
    s.commit(
        "jaffle_shop: staging models, orders mart, daily DAG",
        {
            # dbt's own template ignores target/; this repo was started by hand.
            ".gitignore": lines("dbt_packages/", "logs/", ".venv/", ".env"),
            "README.md": lines(
                "# jaffle_shop analytics", "", "`dbt build` builds and tests everything."
            ),
            "requirements.txt": lines("dbt-postgres==1.7.4", "apache-airflow==2.8.1"),
            "dbt_project.yml": lines(
                "name: jaffle_shop",
                "version: '1.0.0'",
                "profile: jaffle_shop",
                "model-paths: ['models']",
                "models:",
                "  jaffle_shop:",
                "    staging:",
                "      +materialized: view",
                "    marts:",
                "      +materialized: table",
            ),
            "packages.yml": lines(
                "packages:", "  - package: dbt-labs/dbt_utils", "    version: 1.1.1"
            ),
            "profiles/profiles.yml": lines(
                "jaffle_shop:",
                "  target: dev",
                "  outputs:",
                "    dev:",
                "      type: postgres",
                "      host: localhost",
                "      schema: dbt_dev",
                "      threads: 4",
                "    prod:",
                "      type: postgres",
                "      host: \"{{ env_var('WAREHOUSE_HOST') }}\"",
                "      schema: analytics",
                "      threads: 4",
            ),
            "models/staging/_stg__sources.yml": lines(
                "version: 2",
                "sources:",
                "  - name: shop",
                "    tables: [{name: customers}, {name: orders}, {name: payments}]",
            ),
            "models/staging/stg_customers.sql": lines(
                "select id as customer_id, first_name, last_name from {{ source('shop', "
                "'customers') }}"
            ),
            "models/staging/stg_orders.sql": lines(
                "select id as order_id, user_id as customer_id, order_date, status",
                "from {{ source('shop', 'orders') }}",
            ),
            "models/staging/stg_payments.sql": _DBT_STG_PAYMENTS,
            "models/marts/fct_orders.sql": lines(
                "select o.order_id, o.customer_id, o.order_date, sum(p.amount) as amount",
                "from {{ ref('stg_orders') }} o",
                "left join {{ ref('stg_payments') }} p using (order_id)",
                "group by 1, 2, 3",
            ),
            "models/marts/_marts__models.yml": _DBT_MARTS_YML_V1,
            "macros/cents_to_dollars.sql": lines(
                "{% macro cents_to_dollars(column) %}",
                "    ({{ column }} / 100)::numeric(16, 2)",
                "{% endmacro %}",
            ),
            "seeds/payment_methods.csv": lines(
                "method,label", "card,Card", "bank_transfer,Bank transfer"
            ),
            "tests/assert_positive_payments.sql": lines(
                "-- Payments are never negative: refunds are their own rows with a status.",
                "select * from {{ ref('stg_payments') }} where amount < 0",
            ),
            "dags/dbt_daily.py": _DBT_DAG,
            "dags/utils/__init__.py": "",
            "dags/utils/slack.py": lines(
                '"""Failure alerts for the data DAGs."""',
                "",
                "from airflow.providers.slack.hooks.slack_webhook import SlackWebhookHook",
                "",
                "",
                "def notify_failure(context):",
                '    task = context["task_instance"]',
                '    SlackWebhookHook(slack_webhook_conn_id="slack_data").send(',
                '        text=f"dbt task {task.task_id} failed: {task.log_url}"',
                "    )",
            ),
            "tests_dags/test_dag_integrity.py": lines(
                '"""Every DAG file imports without errors."""',
                "",
                "from airflow.models import DagBag",
                "",
                "",
                "def test_dags_import_cleanly():",
                '    assert DagBag(dag_folder="dags", include_examples=False).import_errors == {}',
            ),
        },
        days_ago=100,
    )
    s.commit(
        "Customers: first and last order dates",
        {
            "models/marts/dim_customers.sql": _DBT_DIM_CUSTOMERS,
            "models/marts/_marts__models.yml": _DBT_MARTS_YML_V1
            + lines(
                "  - name: dim_customers",
                "    description: One row per customer with order dates.",
                "    columns:",
                "      - name: customer_id",
                "        tests: [unique, not_null]",
            ),
        },
        days_ago=45,
    )
    s.commit(
        "Orders: count successful payments only",
        {
            "models/staging/stg_payments.sql": _with(
                _DBT_STG_PAYMENTS, "    payment_method,\n", "    payment_method,\n    status,\n"
            ),
            "models/marts/fct_orders.sql": lines(
                "select o.order_id, o.customer_id, o.order_date, sum(p.amount) as amount",
                "from {{ ref('stg_orders') }} o",
                "left join {{ ref('stg_payments') }} p using (order_id)",
                "where p.status = 'success'",
                "group by 1, 2, 3",
            ),
        },
        days_ago=20,
    )
    s.commit(
        "DAG: Slack alert links the task log",
        {"dags/dbt_daily.py": _DBT_DAG.replace("tells #data", "tells #data-alerts")},
        days_ago=8,
    )
    # The intent and its explicit model were set before the user committed a first
    # draft; the hook saw the earlier session patch the model and its schema file.
    s.intent(
        "Add fct_customer_ltv: lifetime value per customer from orders and payments, net of "
        "refunds",
        {"models/marts/fct_customer_ltv.sql": "the new mart model"},
        patches=["models/marts/fct_customer_ltv.sql", "models/marts/_marts__models.yml"],
        hours_ago=5,
    )
    s.commit(
        "fct_customer_ltv: first draft",
        {"models/marts/fct_customer_ltv.sql": _DBT_LTV_DRAFT},
        days_ago=0.1,
    )

    # -- the real work ------------------------------------------------------------------
    s.agent(
        {
            "models/marts/fct_customer_ltv.sql": lines(
                "with orders as (",
                "    select * from {{ ref('fct_orders') }}",
                "),",
                "",
                "refunds as (",
                "    select order_id, sum(amount) as refunded",
                "    from {{ ref('stg_payments') }}",
                "    where is_refund",
                "    group by 1",
                ")",
                "",
                "select",
                "    orders.customer_id,",
                "    count(distinct orders.order_id) as orders,",
                "    sum(orders.amount) - coalesce(sum(refunds.refunded), 0) as lifetime_value,",
                "    {{ safe_divide('sum(orders.amount)', 'count(distinct orders.order_id)') }}"
                " as avg_order_value",
                "from orders",
                "left join refunds using (order_id)",
                "group by 1",
            ),
            "macros/safe_divide.sql": lines(
                "{% macro safe_divide(numerator, denominator) %}",
                "    case when ({{ denominator }}) = 0 then null"
                " else ({{ numerator }})::numeric / ({{ denominator }}) end",
                "{% endmacro %}",
            ),
            "tests/assert_ltv_not_below_zero.sql": lines(
                "-- Refunds never exceed what a customer paid.",
                "select * from {{ ref('fct_customer_ltv') }} where lifetime_value < 0",
            ),
        }
    )
    s.agent(
        {
            "models/marts/_marts__models.yml": (
                s.root / "models/marts/_marts__models.yml"
            ).read_text(encoding="utf-8")
            + lines(
                "  - name: fct_customer_ltv",
                "    description: Lifetime value per customer, net of refunds.",
                "    columns:",
                "      - name: customer_id",
                "        tests: [unique, not_null, {relationships: {to: ref('dim_customers'),"
                " field: customer_id}}]",
                "      - name: lifetime_value",
                "        description: Paid minus refunded, in dollars.",
            )
        }
    )
    # Debatable, accepted: the model needs to tell refunds apart ("net of refunds" is
    # in the intent), and the staging model is where the source's status is decoded.
    _edit(
        s,
        "models/staging/stg_payments.sql",
        "    status,\n",
        "    status,\n    status = 'refunded' as is_refund,\n",
    )
    s.fine(
        "models/marts/fct_customer_ltv.sql",
        "models/marts/_marts__models.yml",
        "macros/safe_divide.sql",
        "tests/assert_ltv_not_below_zero.sql",
        "models/staging/stg_payments.sql",
    )

    # -- drift ----------------------------------------------------------------------------
    # sqlfluff "fix" over a model nobody touched: leading commas to trailing.
    s.agent(
        {
            "models/marts/dim_customers.sql": _DBT_DIM_CUSTOMERS.replace(
                "\n        , ", ",\n        "
            ).replace("\n    , ", ",\n    ")
        }
    )
    _edit(s, "packages.yml", "    version: 1.1.1", "    version: 1.3.0")
    # Production's threads quadrupled "to make the new model build faster": the wrong
    # target, and the warehouse is shared.
    _edit(
        s,
        "profiles/profiles.yml",
        "      schema: analytics\n      threads: 4",
        "      schema: analytics\n      threads: 16",
    )
    _edit(s, "dags/dbt_daily.py", 'schedule="0 6 * * *"', 'schedule="0 */6 * * *"')
    # Deleted because it failed on refund rows the agent's own test now covers — but
    # it guards the staging payments, not the new model.
    s.agent(delete=["tests/assert_positive_payments.sql"])
    s.drift(
        "models/marts/dim_customers.sql",
        "packages.yml",
        "profiles/profiles.yml",
        "dags/dbt_daily.py",
        "tests/assert_positive_payments.sql",
    )

    # -- build output: `dbt build` and a DAG parse ------------------------------------------
    s.agent(
        {
            "target/manifest.json": '{"metadata": {"dbt_schema_version": '
            '"https://schemas.getdbt.com/dbt/manifest/v11.json", "dbt_version": "1.7.4"},'
            ' "nodes": {"model.jaffle_shop.fct_customer_ltv": {"resource_type": "model"}}}\n',
            "target/run_results.json": '{"results": [{"unique_id": '
            '"model.jaffle_shop.fct_customer_ltv", "status": "success"}], "elapsed_time": 4.2}\n',
            "target/compiled/jaffle_shop/models/marts/fct_customer_ltv.sql": lines(
                'with orders as (select * from "analytics"."dbt_dev"."fct_orders")',
                "select customer_id, sum(amount) as lifetime_value from orders group by 1",
            ),
            "target/run/jaffle_shop/models/marts/fct_customer_ltv.sql": lines(
                'create table "analytics"."dbt_dev"."fct_customer_ltv__dbt_tmp" as (',
                "select customer_id, sum(amount) as lifetime_value from orders group by 1);",
            ),
            "dags/__pycache__/dbt_daily.cpython-311.pyc": PYC,
        }
    )
    s.excluded(
        "target/manifest.json",
        "target/run_results.json",
        "target/compiled/jaffle_shop/models/marts/fct_customer_ltv.sql",
        "target/run/jaffle_shop/models/marts/fct_customer_ltv.sql",
        "dags/__pycache__/dbt_daily.cpython-311.pyc",
    )
    s.safe_commit()
    s.note = "the draft commit came after the intent; no checkpoint"


# --------------------------------------------------------------------------------------
# 6. Next.js (app router): a newsletter API route wired to the footer form; the user
#    had started the form before the checkpoint.
# --------------------------------------------------------------------------------------

_NEXT_FOOTER_V1 = """import Link from "next/link";

export default function Footer() {
  return (
    <footer className="site-footer">
      <nav>
        <Link href="/pricing">Pricing</Link>
        <Link href="/blog">Blog</Link>
      </nav>
      <p>&copy; {new Date().getFullYear()} Acme Analytics</p>
    </footer>
  );
}
"""

_NEXT_PRICING_PAGE = """import PricingTable from "@/components/PricingTable";

export const metadata = { title: "Pricing — Acme Analytics" };

export default function PricingPage() {
  return (
    <main>
      <h1>Simple pricing</h1>
      <PricingTable />
    </main>
  );
}
"""

_NEXT_HEADER = """import Link from "next/link";

export default function Header() {
  return (
    <header className="site-header">
      <Link href="/" className="logo">Acme</Link>
      <nav>
        <Link href="/pricing">Pricing</Link>
        <Link href="/blog">Blog</Link>
      </nav>
    </header>
  );
}
"""

_NEXT_PRISMA_V1 = """generator client {
  provider = "prisma-client-js"
}

datasource db {
  provider = "postgresql"
  url      = env("DATABASE_URL")
}

model ContactMessage {
  id        Int      @id @default(autoincrement())
  email     String
  body      String
  createdAt DateTime @default(now())
}
"""

_NEXT_VALIDATION = """import { z } from "zod";

export const contactSchema = z.object({
  email: z.string().email(),
  body: z.string().min(10).max(5000),
});
"""

_NEXT_PACKAGE = """{
  "name": "acme-site",
  "private": true,
  "scripts": {
    "dev": "next dev",
    "build": "next build",
    "test": "jest"
  },
  "dependencies": {
    "@prisma/client": "5.10.2",
    "next": "14.1.0",
    "react": "18.2.0",
    "react-dom": "18.2.0",
    "zod": "3.22.4"
  },
  "devDependencies": {
    "jest": "29.7.0",
    "prisma": "5.10.2",
    "typescript": "5.3.3"
  }
}
"""


def _nextjs_newsletter_route(s: Scene) -> None:
    s.commit(
        "Acme marketing site: home, blog, contact form",
        {
            ".gitignore": lines("node_modules", ".env.local", "*.tsbuildinfo"),
            ".env.example": lines(
                "DATABASE_URL=postgres://localhost/acme", "SMTP_URL=smtp://localhost:1025"
            ),
            "package.json": _NEXT_PACKAGE,
            "package-lock.json": '{\n  "name": "acme-site",\n  "lockfileVersion": 3,\n'
            '  "packages": {"node_modules/next": {"version": "14.1.0"}}\n}\n',
            "next.config.js": lines(
                "/** @type {import('next').NextConfig} */",
                "const nextConfig = {",
                "  reactStrictMode: true,",
                "  images: { remotePatterns: [{ protocol: 'https', hostname: 'cdn.acme.test' }] },",
                "};",
                "",
                "module.exports = nextConfig;",
            ),
            "tsconfig.json": '{\n  "compilerOptions": {"strict": true, "paths": {"@/*": '
            '["./*"]}}\n}\n',
            "next-env.d.ts": lines(
                '/// <reference types="next" />',
                '/// <reference types="next/image-types/global" />',
            ),
            "jest.config.js": lines("module.exports = { testEnvironment: 'jsdom' };"),
            "app/layout.tsx": lines(
                'import Header from "@/components/Header";',
                'import Footer from "@/components/Footer";',
                'import "@/styles/globals.css";',
                "",
                "export default function RootLayout({ children }: { children: React.ReactNode }) {",
                '  return (<html lang="en"><body><Header />{children}<Footer /></body></html>);',
                "}",
            ),
            "app/page.tsx": lines(
                "export default function Home() {",
                "  return <main><h1>Analytics your team will actually read</h1></main>;",
                "}",
            ),
            "app/blog/page.tsx": lines(
                "export default function Blog() {",
                "  return <main><h1>Blog</h1></main>;",
                "}",
            ),
            "components/Header.tsx": _with(
                _NEXT_HEADER, '        <Link href="/pricing">Pricing</Link>\n', ""
            ),
            "components/Footer.tsx": _with(_NEXT_FOOTER_V1, "{new Date().getFullYear()} ", ""),
            "lib/db.ts": lines(
                'import { PrismaClient } from "@prisma/client";',
                "",
                "export const db = new PrismaClient();",
            ),
            "styles/globals.css": lines(
                ".site-footer { padding: 2rem; }", ".site-header { display: flex; }"
            ),
            "public/logo.svg": lines(
                '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"/>'
            ),
            "prisma/schema.prisma": _NEXT_PRISMA_V1,
            "prisma/migrations/migration_lock.toml": lines('provider = "postgresql"'),
            "prisma/migrations/20240301120000_init/migration.sql": lines(
                'CREATE TABLE "ContactMessage" ("id" SERIAL PRIMARY KEY, "email" TEXT NOT NULL,',
                '  "body" TEXT NOT NULL, "createdAt" TIMESTAMP(3) NOT NULL DEFAULT '
                "CURRENT_TIMESTAMP);",
            ),
        },
        days_ago=90,
    )
    s.commit(
        "Contact form: API route with validation and mail",
        {
            "app/api/contact/route.ts": lines(
                'import { NextResponse } from "next/server";',
                'import { contactSchema } from "@/lib/validation";',
                'import { db } from "@/lib/db";',
                'import { sendMail } from "@/lib/mailer";',
                "",
                "export async function POST(request: Request) {",
                "  const parsed = contactSchema.safeParse(await request.json());",
                "  if (!parsed.success) return NextResponse.json({ error: 'invalid' }, { status: "
                "400 });",
                "  await db.contactMessage.create({ data: parsed.data });",
                '  await sendMail("team@acme.test", "Contact form", parsed.data.body);',
                "  return NextResponse.json({ ok: true });",
                "}",
            ),
            "lib/validation.ts": _NEXT_VALIDATION,
            "lib/mailer.ts": lines(
                'import nodemailer from "nodemailer";',
                "",
                "const transport = nodemailer.createTransport(process.env.SMTP_URL);",
                "",
                "export async function sendMail(to: string, subject: string, text: string) {",
                '  await transport.sendMail({ from: "site@acme.test", to, subject, text });',
                "}",
            ),
            "__tests__/contact.test.ts": lines(
                'import { POST } from "@/app/api/contact/route";',
                "",
                'test("rejects an invalid e-mail", async () => {',
                '  const res = await POST(new Request("http://x", { method: "POST",'
                ' body: JSON.stringify({ email: "nope", body: "hello there" }) }));',
                "  expect(res.status).toBe(400);",
                "});",
            ),
        },
        days_ago=50,
    )
    s.commit(
        "Pricing page with plan table",
        {
            "app/pricing/page.tsx": _NEXT_PRICING_PAGE,
            "components/PricingTable.tsx": lines(
                "const plans = [",
                '  { name: "Starter", price: 0 },',
                '  { name: "Team", price: 49 },',
                "];",
                "",
                "export default function PricingTable() {",
                "  return (",
                "    <table>",
                "      <tbody>{plans.map((p) => <tr key={p.name}><td>{p.name}</td>"
                "<td>${p.price}</td></tr>)}</tbody>",
                "    </table>",
                "  );",
                "}",
            ),
            "components/Header.tsx": _NEXT_HEADER,
        },
        days_ago=25,
    )
    s.commit(
        "Footer: copyright year and test",
        {
            "components/Footer.tsx": _NEXT_FOOTER_V1,
            "__tests__/Footer.test.tsx": lines(
                'import { render, screen } from "@testing-library/react";',
                'import Footer from "@/components/Footer";',
                "",
                'test("shows the current year", () => {',
                "  render(<Footer />);",
                "  expect(screen.getByText(new RegExp(String(new "
                "Date().getFullYear())))).toBeTruthy();",
                "});",
            ),
            "styles/globals.css": lines(
                ".site-footer { padding: 2rem; display: grid; gap: 1rem; }",
                ".site-header { display: flex; }",
            ),
        },
        days_ago=10,
    )
    s.intent(
        "Newsletter signup: POST /api/newsletter stores the e-mail, and the footer form calls it",
        {
            "app/api/newsletter/route.ts": "the new API route",
            "components/Footer.tsx": "holds the signup form",
        },
        hours_ago=2,
    )
    # The user started the form markup by hand, then checkpointed and handed over.
    _edit(
        s,
        "components/Footer.tsx",
        "      <p>&copy;",
        '      <form className="newsletter">\n'
        '        <input type="email" name="email" placeholder="you@company.com" required />\n'
        "        <button>Subscribe</button>\n"
        "      </form>\n"
        "      <p>&copy;",
    )
    before = s.checkpoint("before the newsletter session")

    # -- the real work ------------------------------------------------------------------
    s.agent(
        {
            "app/api/newsletter/route.ts": lines(
                'import { NextResponse } from "next/server";',
                'import { newsletterSchema } from "@/lib/validation";',
                'import { subscribe } from "@/lib/newsletter";',
                "",
                "export async function POST(request: Request) {",
                "  const parsed = newsletterSchema.safeParse(await request.json());",
                "  if (!parsed.success) {",
                '    return NextResponse.json({ error: "Please enter a valid e-mail." }, { '
                "status: 400 });",
                "  }",
                "  await subscribe(parsed.data.email);",
                "  return NextResponse.json({ ok: true }, { status: 201 });",
                "}",
            ),
            "lib/newsletter.ts": lines(
                'import { db } from "@/lib/db";',
                'import { sendMail } from "@/lib/mailer";',
                "",
                'const doubleOptIn = process.env.NEWSLETTER_DOUBLE_OPT_IN === "true";',
                "",
                "export async function subscribe(email: string) {",
                "  const row = await db.subscriber.upsert({",
                "    where: { email },",
                "    create: { email, confirmed: !doubleOptIn },",
                "    update: {},",
                "  });",
                "  if (doubleOptIn && !row.confirmed) {",
                '    await sendMail(email, "Confirm your subscription", '
                "`/newsletter/confirm?id=${row.id}`);",
                "  }",
                "}",
            ),
            "prisma/migrations/20240611093000_add_subscriber/migration.sql": lines(
                'CREATE TABLE "Subscriber" ("id" SERIAL PRIMARY KEY, "email" TEXT NOT NULL,',
                '  "confirmed" BOOLEAN NOT NULL DEFAULT false,',
                '  "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP);',
                'CREATE UNIQUE INDEX "Subscriber_email_key" ON "Subscriber"("email");',
            ),
            "__tests__/newsletter.test.ts": lines(
                'import { POST } from "@/app/api/newsletter/route";',
                "",
                "const post = (body: unknown) =>",
                '  POST(new Request("http://x", { method: "POST", body: JSON.stringify(body) }));',
                "",
                'test("rejects an invalid e-mail", async () => {',
                '  expect((await post({ email: "nope" })).status).toBe(400);',
                "});",
                "",
                'test("subscribes a valid e-mail", async () => {',
                '  expect((await post({ email: "ada@example.com" })).status).toBe(201);',
                "});",
            ),
        }
    )
    _edit(
        s,
        "components/Footer.tsx",
        'import Link from "next/link";\n',
        '"use client";\n\nimport Link from "next/link";\nimport { useState } from "react";\n',
    )
    _edit(
        s,
        "components/Footer.tsx",
        "export default function Footer() {\n  return (\n",
        "export default function Footer() {\n"
        '  const [status, setStatus] = useState<"idle" | "done" | "error">("idle");\n\n'
        "  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {\n"
        "    event.preventDefault();\n"
        '    const email = new FormData(event.currentTarget).get("email");\n'
        '    const res = await fetch("/api/newsletter", { method: "POST", body: JSON.stringify({ '
        "email }) });\n"
        '    setStatus(res.ok ? "done" : "error");\n'
        "  }\n\n"
        "  return (\n",
    )
    _edit(
        s,
        "components/Footer.tsx",
        '<form className="newsletter">',
        '<form className="newsletter" onSubmit={onSubmit}>',
    )
    _edit(
        s,
        "components/Footer.tsx",
        "      </form>\n",
        "      </form>\n"
        '      {status === "done" && <p role="status">Thanks! Check your inbox.</p>}\n'
        '      {status === "error" && <p role="alert">That did not work, please try again.</p>}\n',
    )
    _edit(
        s,
        "lib/validation.ts",
        "  body: z.string().min(10).max(5000),\n});\n",
        "  body: z.string().min(10).max(5000),\n});\n\n"
        "export const newsletterSchema = z.object({ email: z.string().email() });\n",
    )
    _edit(
        s,
        "prisma/schema.prisma",
        "model ContactMessage {",
        "model Subscriber {\n"
        "  id        Int      @id @default(autoincrement())\n"
        "  email     String   @unique\n"
        "  confirmed Boolean  @default(false)\n"
        "  createdAt DateTime @default(now())\n"
        "}\n\n"
        "model ContactMessage {",
    )
    _edit(
        s,
        ".env.example",
        "SMTP_URL=smtp://localhost:1025\n",
        "SMTP_URL=smtp://localhost:1025\nNEWSLETTER_DOUBLE_OPT_IN=true\n",
    )
    _edit(
        s,
        "__tests__/Footer.test.tsx",
        "});\n",
        "});\n\n"
        'test("has a newsletter form", () => {\n'
        "  render(<Footer />);\n"
        '  expect(screen.getByRole("button", { name: "Subscribe" })).toBeTruthy();\n'
        "});\n",
    )
    s.fine(
        "app/api/newsletter/route.ts",
        "components/Footer.tsx",
        "lib/newsletter.ts",
        "lib/validation.ts",
        "prisma/schema.prisma",
        "prisma/migrations/20240611093000_add_subscriber/migration.sql",
        "__tests__/newsletter.test.ts",
        "__tests__/Footer.test.tsx",
        ".env.example",
    )

    # -- drift ----------------------------------------------------------------------------
    # The plan table moved into a folder of its own, and the pricing page retitled while
    # its import was being fixed: neither is the newsletter.
    s.agent(rename={"components/PricingTable.tsx": "components/pricing/PricingTable.tsx"})
    _edit(
        s,
        "app/pricing/page.tsx",
        '"@/components/PricingTable"',
        '"@/components/pricing/PricingTable"',
    )
    _edit(s, "app/pricing/page.tsx", "<h1>Simple pricing</h1>", "<h1>Plans for every team</h1>")
    # Prettier with a different config over the header: quotes and line breaks only.
    s.agent(
        {
            "components/Header.tsx": _NEXT_HEADER.replace('"', "'").replace(
                "<Link href='/' className='logo'>Acme</Link>",
                "<Link href='/' className='logo'>\n        Acme\n      </Link>",
            )
        }
    )
    _edit(s, "next.config.js", "  reactStrictMode: true,", "  reactStrictMode: false,")
    # The agent edited the manifest without running npm: the lockfile did not move.
    _edit(s, "package.json", '"next": "14.1.0"', '"next": "14.2.3"')
    s.drift(
        "components/PricingTable.tsx",
        "components/pricing/PricingTable.tsx",
        "app/pricing/page.tsx",
        "components/Header.tsx",
        "next.config.js",
        "package.json",
    )

    # -- build output: `next build` (no .next/ line in this .gitignore) --------------------
    s.agent(
        {
            ".next/BUILD_ID": "b9Zr1vKq2mXw\n",
            ".next/build-manifest.json": '{"pages": {"/_app": ["static/chunks/main-4f1c.js"]}}\n',
            ".next/server/app/api/newsletter/route.js": '"use strict";(()=>{var e={};'
            "e.id=311;module.exports=e})();\n",
            ".next/cache/webpack/client-production/0.pack": b"\x00\x01webpack-pack\x00"
            + bytes(range(32)),
        }
    )
    s.excluded(
        ".next/BUILD_ID",
        ".next/build-manifest.json",
        ".next/server/app/api/newsletter/route.js",
        ".next/cache/webpack/client-production/0.pack",
    )
    s.safe_checkpoint(before)
    s.note = (
        "the checkpoint holds the user's own form markup; restoring from the commit would lose it"
    )


# --------------------------------------------------------------------------------------
# 7. SvelteKit: a dark-mode toggle on the settings page; two checkpoints, the second
#    taken after the first drift.
# --------------------------------------------------------------------------------------

_SK_SETTINGS_V1 = """<script lang="ts">
  import Toggle from '$lib/components/Toggle.svelte';
  import { t } from '$lib/i18n';

  export let data;
  let emailNotifications = data.preferences.email;
</script>

<h1>{$t('settings.title')}</h1>

<section>
  <Toggle bind:checked={emailNotifications} label={$t('settings.emailNotifications')} />
</section>
"""

_SK_PROFILE = """<script lang="ts">
  import { user } from '$lib/stores/user';
  import Card from '$lib/components/Card.svelte';
</script>

<h1>Profile</h1>

<Card>
  <img src={$user.avatarUrl} alt="" class="avatar" />
  <p>{$user.name}</p>
</Card>
"""

_SK_CARD = """<script lang="ts">
  export let padded = true;
</script>

<div class="card" class:padded>
  <slot />
</div>

<style>
  .card { border-radius: 0.75rem; background: var(--surface); }
  .padded { padding: 1rem; }
</style>
"""

_SK_EN_V1 = """{
  "settings.title": "Settings",
  "settings.emailNotifications": "E-mail notifications",
  "profile.upload": "Upload a photo"
}
"""

_SK_LAYOUT = """<script lang="ts">
  import Navbar from '$lib/components/Navbar.svelte';
  import '../app.css';
</script>

<Navbar />
<main>
  <slot />
</main>
"""

_SK_NAVBAR = """<script lang="ts">
  import { page } from '$app/stores';
  const links = [
    { href: '/', label: 'Home' },
    { href: '/profile', label: 'Profile' },
    { href: '/settings', label: 'Settings' }
  ];
</script>

<nav>
  {#each links as link}
    <a href={link.href} class:active={$page.url.pathname === link.href}>{link.label}</a>
  {/each}
</nav>
"""


def _sveltekit_dark_mode(s: Scene) -> None:
    s.commit(
        "SvelteKit app: home, profile, settings",
        {
            ".gitignore": lines("node_modules", "/.env", ".DS_Store"),
            ".prettierrc": lines(
                "{",
                '  "useTabs": false,',
                '  "singleQuote": true,',
                '  "trailingComma": "none",',
                '  "printWidth": 100,',
                '  "plugins": ["prettier-plugin-svelte"]',
                "}",
            ),
            "package.json": '{\n  "name": "habit-app",\n  "private": true,\n  "type": "module",\n'
            '  "scripts": {"dev": "vite dev", "build": "vite build", "test": "vitest"},\n'
            '  "devDependencies": {"@sveltejs/kit": "^2.5.0", "svelte": "^4.2.12",'
            ' "tailwindcss": "^3.4.1", "vitest": "^1.3.1"}\n}\n',
            "svelte.config.js": lines(
                "import adapter from '@sveltejs/adapter-node';",
                "",
                "export default { kit: { adapter: adapter() } };",
            ),
            "vite.config.ts": lines(
                "import { sveltekit } from '@sveltejs/kit/vite';",
                "import { defineConfig } from 'vite';",
                "",
                "export default defineConfig({ plugins: [sveltekit()] });",
            ),
            "tailwind.config.js": lines(
                "/** @type {import('tailwindcss').Config} */",
                "export default {",
                "  content: ['./src/**/*.{html,js,svelte,ts}'],",
                "  theme: { extend: {} }",
                "};",
            ),
            "src/app.html": lines(
                "<!doctype html>",
                '<html lang="en">',
                "  <head>",
                '    <meta charset="utf-8" />',
                "    %sveltekit.head%",
                "  </head>",
                '  <body data-sveltekit-preload-data="hover">',
                "    <div>%sveltekit.body%</div>",
                "  </body>",
                "</html>",
            ),
            "src/app.css": lines(
                "@tailwind base;",
                "@tailwind components;",
                "@tailwind utilities;",
                "",
                ":root { --surface: #ffffff; --text: #111827; }",
            ),
            "src/routes/+layout.svelte": _SK_LAYOUT,
            "src/routes/+page.svelte": lines("<h1>Today</h1>", "<p>Your habits for today.</p>"),
            "src/routes/about/+page.svelte": lines("<h1>About</h1>"),
            "src/routes/api/health/+server.ts": lines(
                "import { json } from '@sveltejs/kit';",
                "",
                "export const GET = () => json({ ok: true });",
            ),
            "src/lib/components/Navbar.svelte": _SK_NAVBAR,
            "src/lib/components/Card.svelte": _SK_CARD,
            "src/lib/components/Toggle.svelte": lines(
                '<script lang="ts">',
                "  export let checked = false;",
                "  export let label: string;",
                "</script>",
                "",
                '<label class="toggle"><input type="checkbox" bind:checked /> {label}</label>',
            ),
            "src/lib/i18n/index.ts": lines(
                "import { derived, writable } from 'svelte/store';",
                "import en from './en.json';",
                "",
                "const locale = writable('en');",
                "export const t = derived(locale, () => (key: string) => (en as Record<string, "
                "string>)[key] ?? key);",
            ),
        },
        days_ago=75,
    )
    s.commit(
        "Settings: notification preferences",
        {
            "src/routes/settings/+page.svelte": _SK_SETTINGS_V1,
            "src/routes/settings/+page.ts": lines(
                "export const load = async ({ fetch }) => {",
                "  const preferences = await fetch('/api/preferences').then((r) => r.json());",
                "  return { preferences };",
                "};",
            ),
            "src/lib/i18n/en.json": _SK_EN_V1.replace(
                '  "profile.upload": "Upload a photo"\n', ""
            ).replace('"E-mail notifications",', '"E-mail notifications"'),
            "tests/settings.spec.ts": lines(
                "import { expect, test } from '@playwright/test';",
                "",
                "test('settings shows the notification toggle', async ({ page }) => {",
                "  await page.goto('/settings');",
                "  await expect(page.getByLabel('E-mail notifications')).toBeVisible();",
                "});",
            ),
        },
        days_ago=40,
    )
    s.commit(
        "Profile page and user store",
        {
            "src/routes/profile/+page.svelte": _SK_PROFILE,
            "src/lib/stores/user.ts": lines(
                "import { writable } from 'svelte/store';",
                "",
                "export type User = { name: string; avatarUrl: string };",
                "export const user = writable<User>({ name: '', avatarUrl: '/avatar.svg' });",
            ),
            "src/lib/stores/user.test.ts": lines(
                "import { get } from 'svelte/store';",
                "import { expect, it } from 'vitest';",
                "import { user } from './user';",
                "",
                "it('starts with the default avatar', () => {",
                "  expect(get(user).avatarUrl).toBe('/avatar.svg');",
                "});",
            ),
            "src/lib/i18n/en.json": _SK_EN_V1,
        },
        days_ago=22,
    )
    s.commit(
        "Navbar: highlight the active link",
        {
            "src/lib/components/Navbar.svelte": _SK_NAVBAR
            + "\n<style>\n  .active { font-weight: 600; }\n</style>\n",
            "src/routes/+layout.svelte": _SK_LAYOUT,
        },
        days_ago=8,
    )
    s.intent(
        "Dark mode toggle on the settings page, remembered in localStorage",
        {"src/routes/settings/+page.svelte": "the settings page"},
        hours_ago=1,
    )
    before = s.checkpoint("before dark mode")

    # -- the real work, first part --------------------------------------------------------
    s.agent(
        {
            "src/lib/stores/theme.ts": lines(
                "import { browser } from '$app/environment';",
                "import { writable } from 'svelte/store';",
                "",
                "export type Theme = 'light' | 'dark';",
                "const KEY = 'theme';",
                "",
                "const initial: Theme = browser && localStorage.getItem(KEY) === 'dark' ? 'dark' "
                ": 'light';",
                "export const theme = writable<Theme>(initial);",
                "",
                "theme.subscribe((value) => {",
                "  if (!browser) return;",
                "  localStorage.setItem(KEY, value);",
                "  document.documentElement.classList.toggle('dark', value === 'dark');",
                "});",
            ),
            "src/lib/stores/theme.test.ts": lines(
                "import { get } from 'svelte/store';",
                "import { expect, it } from 'vitest';",
                "import { theme } from './theme';",
                "",
                "it('defaults to light', () => {",
                "  expect(get(theme)).toBe('light');",
                "});",
            ),
        }
    )
    _edit(
        s,
        "src/routes/settings/+page.svelte",
        "  import { t } from '$lib/i18n';\n",
        "  import { t } from '$lib/i18n';\n  import { theme } from '$lib/stores/theme';\n",
    )
    _edit(
        s,
        "src/routes/settings/+page.svelte",
        "  let emailNotifications = data.preferences.email;\n",
        "  let emailNotifications = data.preferences.email;\n"
        "  let dark = $theme === 'dark';\n"
        "  $: theme.set(dark ? 'dark' : 'light');\n",
    )
    _edit(
        s,
        "src/routes/settings/+page.svelte",
        "</section>\n",
        "  <Toggle bind:checked={dark} label={$t('settings.darkMode')} />\n</section>\n",
    )
    _edit(
        s,
        "tailwind.config.js",
        "  content: ['./src/**/*.{html,js,svelte,ts}'],\n",
        "  darkMode: 'class',\n  content: ['./src/**/*.{html,js,svelte,ts}'],\n",
    )
    _edit(
        s,
        "src/app.css",
        ":root { --surface: #ffffff; --text: #111827; }\n",
        ":root { --surface: #ffffff; --text: #111827; }\n"
        ":root.dark { --surface: #111827; --text: #f9fafb; }\n",
    )
    # Drift already in the first part: the profile page retitled on the way past.
    _edit(s, "src/routes/profile/+page.svelte", "<h1>Profile</h1>", "<h1>Your account</h1>")
    # The user checkpointed here because the toggle worked, not noticing the retitle.
    s.checkpoint("dark mode toggle works")

    # -- the rest of the session ------------------------------------------------------------
    _edit(
        s,
        "src/app.html",
        "    %sveltekit.head%\n",
        "    <script>\n"
        "      if (localStorage.getItem('theme') === 'dark') "
        "document.documentElement.classList.add('dark');\n"
        "    </script>\n"
        "    %sveltekit.head%\n",
    )
    _edit(
        s,
        "src/routes/+layout.svelte",
        "  import '../app.css';\n",
        "  import '../app.css';\n  import '$lib/stores/theme';\n",
    )
    _edit(
        s,
        "src/lib/i18n/en.json",
        '  "settings.emailNotifications": "E-mail notifications",\n',
        '  "settings.emailNotifications": "E-mail notifications",\n  "settings.darkMode": "Dark '
        'mode",\n',
    )
    s.fine(
        "src/routes/settings/+page.svelte",
        "src/lib/stores/theme.ts",
        "src/lib/stores/theme.test.ts",
        "tailwind.config.js",
        "src/app.css",
        "src/app.html",
        "src/routes/+layout.svelte",
        "src/lib/i18n/en.json",
    )
    # Debatable, rejected: a second toggle in the navbar. It uses the new store, but the
    # user asked for the toggle on the settings page, and the navbar is on every page.
    _edit(
        s,
        "src/lib/components/Navbar.svelte",
        "  import { page } from '$app/stores';\n",
        "  import { page } from '$app/stores';\n  import { theme } from '$lib/stores/theme';\n",
    )
    _edit(
        s,
        "src/lib/components/Navbar.svelte",
        "  {/each}\n",
        "  {/each}\n"
        "  <button on:click={() => theme.update((v) => (v === 'dark' ? 'light' : "
        "'dark'))}>◐</button>\n",
    )
    _edit(s, ".prettierrc", '"printWidth": 100', '"printWidth": 120')
    s.agent(
        {
            "src/lib/components/Card.svelte": _SK_CARD.replace(
                "  .card { border-radius: 0.75rem; background: var(--surface); }\n",
                "  .card {\n    border-radius: 0.75rem;\n    background: var(--surface);\n  }\n",
            ).replace("  .padded { padding: 1rem; }\n", "  .padded {\n    padding: 1rem;\n  }\n")
        },
        delete=["src/lib/stores/user.test.ts"],
    )
    s.drift(
        "src/routes/profile/+page.svelte",
        "src/lib/components/Navbar.svelte",
        ".prettierrc",
        "src/lib/components/Card.svelte",
        "src/lib/stores/user.test.ts",
    )

    # -- generated: `svelte-kit sync` and the build (no .svelte-kit line in .gitignore) --
    s.agent(
        {
            ".svelte-kit/tsconfig.json": '{\n  "compilerOptions": {"paths": {"$lib": '
            '["../src/lib"]}}\n}\n',
            ".svelte-kit/ambient.d.ts": lines(
                "// this file is generated — do not edit it",
                "declare module '$env/static/private' {}",
            ),
            ".svelte-kit/types/src/routes/settings/$types.d.ts": lines(
                "import type * as Kit from '@sveltejs/kit';",
                "export type PageData = Kit.PageData;",
            ),
            ".svelte-kit/output/client/_app/immutable/entry/app.7f3a1c.js": "export{a as "
            "start}from'../chunks/x.js';\n",
        }
    )
    s.excluded(
        ".svelte-kit/tsconfig.json",
        ".svelte-kit/ambient.d.ts",
        ".svelte-kit/types/src/routes/settings/$types.d.ts",
        ".svelte-kit/output/client/_app/immutable/entry/app.7f3a1c.js",
    )
    # The later checkpoint already holds the profile retitle; only the first one
    # predates every drift.
    s.safe_checkpoint(before)
    s.note = "two checkpoints: the later one holds drift, the earlier one is safe"


# --------------------------------------------------------------------------------------
# 8. C++ / CMake: a --json flag for the stats command; a vendored header and an
#    in-source build folder.
# --------------------------------------------------------------------------------------

_CPP_STATS_CMD_V1 = """#include "cli/stats_command.hpp"

#include <iostream>

#include "core/parser.hpp"
#include "core/stats.hpp"

namespace statly::cli {

int run_stats(const Args& args) {
    const auto samples = core::parse_file(args.input);
    const auto summary = core::summarize(samples);
    std::cout << "count  " << summary.count << '\\n'
              << "mean   " << summary.mean << '\\n'
              << "stddev " << summary.stddev << '\\n';
    return 0;
}

}  // namespace statly::cli
"""

_CPP_STATS_CMD_HPP = """#pragma once

#include "cli/args.hpp"

namespace statly::cli {

int run_stats(const Args& args);

}  // namespace statly::cli
"""

_CPP_ARGS_V1 = """#include "cli/args.hpp"

#include <stdexcept>
#include <string_view>

namespace statly::cli {

Args parse_args(int argc, char** argv) {
    Args args;
    for (int i = 1; i < argc; ++i) {
        std::string_view arg = argv[i];
        if (arg == "--input" && i + 1 < argc) {
            args.input = argv[++i];
        } else if (args.command.empty()) {
            args.command = arg;
        } else {
            throw std::invalid_argument("unknown argument: " + std::string(arg));
        }
    }
    return args;
}

}  // namespace statly::cli
"""

_CPP_ARGS_HPP_V1 = """#pragma once

#include <string>

namespace statly::cli {

struct Args {
    std::string command;
    std::string input = "-";
};

Args parse_args(int argc, char** argv);

}  // namespace statly::cli
"""

_CPP_IMPORT_CMD = """#include "cli/import_command.hpp"

#include <iostream>

#include "core/parser.hpp"

namespace statly::cli {

int run_import(const Args& args) {
    auto samples = core::parse_file(args.input);
    if (!args.quiet) std::cerr << "imported " << samples.size() << " samples\\n";
    return samples.empty() ? 1 : 0;
}

}  // namespace statly::cli
"""

_CPP_PARSER = """#include "core/parser.hpp"

#include <fstream>
#include <sstream>

namespace statly::core {

std::vector<double> parse_stream(std::istream& in) {
    std::vector<double> out;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        out.push_back(std::stod(line));
    }
    return out;
}

std::vector<double> parse_file(const std::string& path) {
    std::ifstream in(path);
    return parse_stream(in);
}

}  // namespace statly::core
"""

_CPP_SRC_CMAKE_V1 = """add_library(statly_core
    core/parser.cpp
    core/stats.cpp
)
target_include_directories(statly_core PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
statly_warnings(statly_core)

add_executable(statly
    main.cpp
    cli/args.cpp
    cli/stats_command.cpp
    cli/import_command.cpp
)
target_link_libraries(statly PRIVATE statly_core)
statly_warnings(statly)
"""

_CPP_TESTS_CMAKE = """add_executable(statly_tests
    test_stats.cpp
    test_parser.cpp
)
target_include_directories(statly_tests PRIVATE ${PROJECT_SOURCE_DIR}/third_party/doctest)
target_link_libraries(statly_tests PRIVATE statly_core)
add_test(NAME statly_tests COMMAND statly_tests)
"""

_CPP_DOCS_V1 = """# statly command line

    statly stats --input samples.txt
    statly import --input samples.txt.gz

`--quiet` silences progress on stderr.
"""


def _cmake_stats_json(s: Scene) -> None:
    s.commit(
        "statly: stats and import commands",
        {
            ".gitignore": lines("*.swp", ".cache/", ".vscode/"),
            ".clang-format": lines("BasedOnStyle: Google", "IndentWidth: 4", "ColumnLimit: 100"),
            "CMakeLists.txt": lines(
                "cmake_minimum_required(VERSION 3.20)",
                "project(statly VERSION 1.2.0 LANGUAGES CXX)",
                "",
                "set(CMAKE_CXX_STANDARD 20)",
                "set(CMAKE_CXX_STANDARD_REQUIRED ON)",
                "include(cmake/Warnings.cmake)",
                "",
                "add_subdirectory(src)",
                "enable_testing()",
                "add_subdirectory(tests)",
            ),
            "CMakePresets.json": '{\n  "version": 6,\n  "configurePresets": [{"name": "dev", '
            '"binaryDir": "${sourceDir}/build", "generator": "Ninja"}]\n}\n',
            "cmake/Warnings.cmake": lines(
                "function(statly_warnings target)",
                "  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror)",
                "endfunction()",
            ),
            "README.md": lines(
                "# statly", "", "Summary statistics for sample files. See docs/cli.md."
            ),
            "docs/cli.md": _CPP_DOCS_V1.replace("\n`--quiet` silences progress on stderr.\n", ""),
            "src/CMakeLists.txt": _CPP_SRC_CMAKE_V1,
            "src/main.cpp": lines(
                "#include <iostream>",
                "",
                '#include "cli/args.hpp"',
                '#include "cli/import_command.hpp"',
                '#include "cli/stats_command.hpp"',
                "",
                "int main(int argc, char** argv) {",
                "    const auto args = statly::cli::parse_args(argc, argv);",
                '    if (args.command == "stats") return statly::cli::run_stats(args);',
                '    if (args.command == "import") return statly::cli::run_import(args);',
                '    std::cerr << "usage: statly <stats|import> [--input FILE]\\n";',
                "    return 2;",
                "}",
            ),
            "src/cli/args.hpp": _CPP_ARGS_HPP_V1,
            "src/cli/args.cpp": _CPP_ARGS_V1,
            "src/cli/stats_command.hpp": _CPP_STATS_CMD_HPP,
            "src/cli/stats_command.cpp": _with(
                _CPP_STATS_CMD_V1,
                "'\\n'\n              << \"stddev \" << summary.stddev << '\\n';",
                "'\\n';",
            ),
            "src/cli/import_command.hpp": lines(
                "#pragma once",
                "",
                '#include "cli/args.hpp"',
                "",
                "namespace statly::cli {",
                "",
                "int run_import(const Args& args);",
                "",
                "}  // namespace statly::cli",
            ),
            "src/cli/import_command.cpp": _CPP_IMPORT_CMD.replace(
                '    if (!args.quiet) std::cerr << "imported "', '    std::cerr << "imported "'
            ),
            "src/core/parser.hpp": lines(
                "#pragma once",
                "",
                "#include <istream>",
                "#include <string>",
                "#include <vector>",
                "",
                "namespace statly::core {",
                "",
                "std::vector<double> parse_stream(std::istream& in);",
                "std::vector<double> parse_file(const std::string& path);",
                "",
                "}  // namespace statly::core",
            ),
            "src/core/parser.cpp": _CPP_PARSER,
            "src/core/stats.hpp": lines(
                "#pragma once",
                "",
                "#include <cstddef>",
                "#include <vector>",
                "",
                "namespace statly::core {",
                "",
                "struct Summary {",
                "    std::size_t count = 0;",
                "    double mean = 0;",
                "    double stddev = 0;",
                "};",
                "",
                "Summary summarize(const std::vector<double>& samples);",
                "",
                "}  // namespace statly::core",
            ),
            "src/core/stats.cpp": lines(
                '#include "core/stats.hpp"',
                "",
                "#include <cmath>",
                "#include <numeric>",
                "",
                "namespace statly::core {",
                "",
                "Summary summarize(const std::vector<double>& samples) {",
                "    Summary s;",
                "    s.count = samples.size();",
                "    if (s.count == 0) return s;",
                "    s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / s.count;",
                "    double sq = 0;",
                "    for (double x : samples) sq += (x - s.mean) * (x - s.mean);",
                "    s.stddev = std::sqrt(sq / s.count);",
                "    return s;",
                "}",
                "",
                "}  // namespace statly::core",
            ),
            "tests/CMakeLists.txt": _CPP_TESTS_CMAKE,
            "tests/test_stats.cpp": lines(
                '#include "doctest.h"',
                '#include "core/stats.hpp"',
                "",
                'TEST_CASE("mean of three samples") {',
                "    CHECK(statly::core::summarize({1, 2, 3}).mean == doctest::Approx(2.0));",
                "}",
            ),
            "tests/test_parser.cpp": lines(
                "#include <sstream>",
                '#include "doctest.h"',
                '#include "core/parser.hpp"',
                "",
                'TEST_CASE("comments and blank lines are skipped") {',
                '    std::istringstream in("# header\\n1.5\\n\\n2.5\\n");',
                "    CHECK(statly::core::parse_stream(in).size() == 2);",
                "}",
            ),
            "third_party/doctest/doctest.h": lines(
                "// ====================================================================== lgtm "
                "[cpp/missing-header-guard]",
                "// == DO NOT MODIFY THIS FILE BY HAND - IT IS AUTO GENERATED BY CMAKE! ==",
                "// ======================================================================",
                "#ifndef DOCTEST_LIBRARY_INCLUDED",
                "#define DOCTEST_LIBRARY_INCLUDED",
                '#define DOCTEST_VERSION_STR "2.4.11"',
                "#endif",
            ),
        },
        days_ago=120,
    )
    s.commit(
        "stats: report the standard deviation",
        {
            "src/cli/stats_command.cpp": _CPP_STATS_CMD_V1,
            "tests/test_stats.cpp": lines(
                '#include "doctest.h"',
                '#include "core/stats.hpp"',
                "",
                'TEST_CASE("mean of three samples") {',
                "    CHECK(statly::core::summarize({1, 2, 3}).mean == doctest::Approx(2.0));",
                "}",
                "",
                'TEST_CASE("standard deviation") {',
                "    CHECK(statly::core::summarize({2, 4, 4, 4, 5, 5, 7, 9}).stddev == "
                "doctest::Approx(2.0));",
                "}",
            ),
        },
        days_ago=70,
    )
    # A flag added to both commands at once: import_command changed with the explicit file.
    s.commit(
        "cli: --quiet for stats and import",
        {
            "src/cli/args.hpp": _with(
                _CPP_ARGS_HPP_V1,
                '    std::string input = "-";\n',
                '    std::string input = "-";\n    bool quiet = false;\n',
            ),
            "src/cli/args.cpp": _with(
                _CPP_ARGS_V1,
                "        } else if (args.command.empty()) {",
                '        } else if (arg == "--quiet") {\n'
                "            args.quiet = true;\n"
                "        } else if (args.command.empty()) {",
            ),
            "src/cli/import_command.cpp": _CPP_IMPORT_CMD,
            "src/cli/stats_command.cpp": _with(
                _CPP_STATS_CMD_V1,
                "    const auto summary = core::summarize(samples);\n",
                "    const auto summary = core::summarize(samples);\n"
                '    if (!args.quiet) std::cerr << "read " << samples.size() << " samples\\n";\n',
            ),
            "docs/cli.md": _CPP_DOCS_V1,
        },
        days_ago=30,
    )
    s.intent(
        "Add a --json flag to `statly stats` that prints the summary as one JSON object",
        {"src/cli/stats_command.cpp": "the stats command"},
        hours_ago=2,
    )
    before = s.checkpoint("before --json")

    # -- the real work ------------------------------------------------------------------
    _edit(
        s,
        "src/cli/stats_command.cpp",
        "#include <iostream>\n",
        '#include <iostream>\n\n#include "cli/json_writer.hpp"\n',
    )
    _edit(
        s,
        "src/cli/stats_command.cpp",
        '    std::cout << "count  "',
        "    if (args.json) {\n"
        "        std::cout << to_json(summary) << '\\n';\n"
        "        return 0;\n"
        "    }\n"
        '    std::cout << "count  "',
    )
    _edit(
        s,
        "src/cli/args.hpp",
        "    bool quiet = false;\n",
        "    bool quiet = false;\n    bool json = false;\n",
    )
    _edit(
        s,
        "src/cli/args.cpp",
        '        } else if (arg == "--quiet") {',
        '        } else if (arg == "--json") {\n'
        "            args.json = true;\n"
        '        } else if (arg == "--quiet") {',
    )
    s.agent(
        {
            "src/cli/json_writer.hpp": lines(
                "#pragma once",
                "",
                "#include <string>",
                "",
                '#include "core/stats.hpp"',
                "",
                "namespace statly::cli {",
                "",
                "std::string to_json(const core::Summary& summary);",
                "",
                "}  // namespace statly::cli",
            ),
            "src/cli/json_writer.cpp": lines(
                '#include "cli/json_writer.hpp"',
                "",
                "#include <nlohmann/json.hpp>",
                "",
                "namespace statly::cli {",
                "",
                "std::string to_json(const core::Summary& summary) {",
                "    nlohmann::json out = {",
                '        {"count", summary.count}, {"mean", summary.mean}, {"stddev", '
                "summary.stddev}};",
                "    return out.dump();",
                "}",
                "",
                "}  // namespace statly::cli",
            ),
            "tests/test_stats_json.cpp": lines(
                '#include "doctest.h"',
                '#include "cli/json_writer.hpp"',
                "",
                'TEST_CASE("summary as one JSON object") {',
                "    statly::core::Summary s{3, 2.0, 0.5};",
                '    CHECK(statly::cli::to_json(s) == R"({"count":3,"mean":2.0,"stddev":0.5})");',
                "}",
            ),
        }
    )
    _edit(
        s,
        "src/CMakeLists.txt",
        "    cli/import_command.cpp\n)\n",
        "    cli/import_command.cpp\n    cli/json_writer.cpp\n)\n"
        "target_include_directories(statly PRIVATE ${PROJECT_SOURCE_DIR}/third_party)\n",
    )
    _edit(
        s,
        "tests/CMakeLists.txt",
        "    test_parser.cpp\n)\n",
        "    test_parser.cpp\n    test_stats_json.cpp\n    "
        "${PROJECT_SOURCE_DIR}/src/cli/json_writer.cpp\n)\n",
    )
    _edit(
        s,
        "tests/CMakeLists.txt",
        "${PROJECT_SOURCE_DIR}/third_party/doctest)",
        "${PROJECT_SOURCE_DIR}/third_party/doctest\n    ${PROJECT_SOURCE_DIR}/third_party "
        "${PROJECT_SOURCE_DIR}/src)",
    )
    _edit(
        s,
        "docs/cli.md",
        "`--quiet` silences progress on stderr.\n",
        "`--quiet` silences progress on stderr.\n"
        '`statly stats --json` prints `{"count":…,"mean":…,"stddev":…}` on one line.\n',
    )
    s.fine(
        "src/cli/stats_command.cpp",
        "src/cli/args.hpp",
        "src/cli/args.cpp",
        "src/cli/json_writer.hpp",
        "src/cli/json_writer.cpp",
        "src/CMakeLists.txt",
        "tests/CMakeLists.txt",
        "tests/test_stats_json.cpp",
        "docs/cli.md",
    )

    # -- vendored: the single-header JSON library, dropped into third_party/ -------------
    s.agent(
        {
            "third_party/nlohmann/json.hpp": lines(
                "//     __ _____ _____ _____",
                "//  __|  |   __|     |   | |  JSON for Modern C++",
                "// |  |  |__   |  |  | | | |  version 3.11.3",
                "// |_____|_____|_____|_|___|  https://github.com/nlohmann/json",
                "//",
                "// SPDX-FileCopyrightText: 2013-2023 Niels Lohmann <https://nlohmann.me>",
                "// SPDX-License-Identifier: MIT",
                "",
                "#ifndef INCLUDE_NLOHMANN_JSON_HPP_",
                "#define INCLUDE_NLOHMANN_JSON_HPP_",
                "namespace nlohmann { class json; }",
                "#endif  // INCLUDE_NLOHMANN_JSON_HPP_",
            ),
            "third_party/nlohmann/LICENSE.MIT": lines(
                "MIT License",
                "",
                "Copyright (c) 2013-2022 Niels Lohmann",
            ),
        }
    )
    s.excluded("third_party/nlohmann/json.hpp", "third_party/nlohmann/LICENSE.MIT")

    # -- drift ----------------------------------------------------------------------------
    # clang-format over a file nobody is working on (braces on the one-line ifs).
    _edit(
        s,
        "src/core/parser.cpp",
        "        if (line.empty() || line[0] == '#') continue;\n",
        "        if (line.empty() || line[0] == '#') {\n            continue;\n        }\n",
    )
    # -Werror dropped "because nlohmann warns": weakens every target's build.
    _edit(s, "cmake/Warnings.cmake", "-Wpedantic -Werror)", "-Wpedantic)")
    _edit(s, "CMakeLists.txt", "project(statly VERSION 1.2.0", "project(statly VERSION 1.3.0")
    # It changed together with the stats command once (the --quiet commit); this edit
    # is a rename of a local, nothing to do with JSON output.
    _edit(
        s,
        "src/cli/import_command.cpp",
        "    auto samples = core::parse_file(args.input);\n",
        "    const auto imported = core::parse_file(args.input);\n",
    )
    _edit(
        s,
        "src/cli/import_command.cpp",
        '"imported " << samples.size()',
        '"imported " << imported.size()',
    )
    _edit(
        s,
        "src/cli/import_command.cpp",
        "    return samples.empty() ? 1 : 0;",
        "    return imported.empty() ? 1 : 0;",
    )
    s.drift(
        "src/core/parser.cpp",
        "cmake/Warnings.cmake",
        "CMakeLists.txt",
        "src/cli/import_command.cpp",
    )

    # -- build output: `cmake --preset dev && cmake --build build` inside the tree ---------
    s.agent(
        {
            "build/CMakeCache.txt": lines(
                "# This is the CMakeCache file.",
                "# For build in directory: /home/dev/statly/build",
                "CMAKE_BUILD_TYPE:STRING=Debug",
                "CMAKE_CXX_COMPILER:FILEPATH=/usr/bin/c++",
            ),
            "build/compile_commands.json": '[\n{"directory": "build", "command": "c++ -Isrc -Wall '
            '-c src/cli/json_writer.cpp", "file": "src/cli/json_writer.cpp"}\n]\n',
            "build/build.ninja": lines(
                "# CMAKE generated file: DO NOT EDIT!", "ninja_required_version = 1.5"
            ),
            "build/src/CMakeFiles/statly.dir/cli/json_writer.cpp.o": ELF,
            "build/src/statly": ELF,
            "build/tests/statly_tests": ELF,
        }
    )
    s.excluded(
        "build/CMakeCache.txt",
        "build/compile_commands.json",
        "build/build.ninja",
        "build/src/CMakeFiles/statly.dir/cli/json_writer.cpp.o",
        "build/src/statly",
        "build/tests/statly_tests",
    )
    s.safe_checkpoint(before)
    s.note = "a clean checkpoint right before the session"


# --------------------------------------------------------------------------------------
# 9. Dart / Flutter: a favourites tab; build_runner output and plugin registrants
#    regenerated; the hook saw the agent patch a drifted screen too.
# --------------------------------------------------------------------------------------

_DART_HOME_V1 = """import 'package:flutter/material.dart';
import 'package:flutter_gen/gen_l10n/app_localizations.dart';

import 'recipe_list_screen.dart';
import 'settings_screen.dart';

class HomeScreen extends StatefulWidget {
  const HomeScreen({super.key});

  @override
  State<HomeScreen> createState() => _HomeScreenState();
}

class _HomeScreenState extends State<HomeScreen> {
  int _index = 0;

  static const _pages = [RecipeListScreen(), SettingsScreen()];

  @override
  Widget build(BuildContext context) {
    final l10n = AppLocalizations.of(context)!;
    return Scaffold(
      body: _pages[_index],
      bottomNavigationBar: NavigationBar(
        selectedIndex: _index,
        onDestinationSelected: (i) => setState(() => _index = i),
        destinations: [
          NavigationDestination(icon: const Icon(Icons.restaurant_menu), label: l10n.recipesTab),
          NavigationDestination(icon: const Icon(Icons.settings), label: l10n.settingsTab),
        ],
      ),
    );
  }
}
"""

_DART_SETTINGS = """import 'package:flutter/material.dart';
import 'package:flutter_gen/gen_l10n/app_localizations.dart';

class SettingsScreen extends StatelessWidget {
  const SettingsScreen({super.key});

  @override
  Widget build(BuildContext context) {
    final l10n = AppLocalizations.of(context)!;
    return Scaffold(
      appBar: AppBar(title: Text(l10n.settingsTab)),
      body: ListView(children: [
        SwitchListTile(value: true, onChanged: null, title: Text(l10n.metricUnits)),
      ]),
    );
  }
}
"""

_DART_RECIPE_V1 = """import 'package:json_annotation/json_annotation.dart';

part 'recipe.g.dart';

@JsonSerializable()
class Recipe {
  Recipe({required this.id, required this.title, required this.minutes});

  final String id;
  final String title;
  final int minutes;

  factory Recipe.fromJson(Map<String, dynamic> json) => _$RecipeFromJson(json);
  Map<String, dynamic> toJson() => _$RecipeToJson(this);
}
"""

_DART_RECIPE_G_V1 = """// GENERATED CODE - DO NOT MODIFY BY HAND

part of 'recipe.dart';

// **************************************************************************
// JsonSerializableGenerator
// **************************************************************************

Recipe _$RecipeFromJson(Map<String, dynamic> json) => Recipe(
      id: json['id'] as String,
      title: json['title'] as String,
      minutes: json['minutes'] as int,
    );

Map<String, dynamic> _$RecipeToJson(Recipe instance) => <String, dynamic>{
      'id': instance.id,
      'title': instance.title,
      'minutes': instance.minutes,
    };
"""

_DART_REPOSITORY = """import 'dart:convert';

import 'package:flutter/services.dart' show rootBundle;

import '../models/recipe.dart';

class RecipeRepository {
  Future<List<Recipe>> all() async {
    final raw = await rootBundle.loadString('assets/recipes.json');
    final items = jsonDecode(raw) as List;
    return items.map((e) => Recipe.fromJson(e as Map<String, dynamic>)).toList();
  }

  Future<Recipe?> byId(String id) async {
    final recipes = await all();
    for (final r in recipes) { if (r.id == id) return r; }
    return null;
  }
}
"""

_DART_CARD = """import 'package:flutter/material.dart';

import '../models/recipe.dart';

class RecipeCard extends StatelessWidget {
  const RecipeCard({super.key, required this.recipe, this.onTap});

  final Recipe recipe;
  final VoidCallback? onTap;

  @override
  Widget build(BuildContext context) {
    return Card(
      child: ListTile(
        title: Text(recipe.title),
        trailing: Chip(label: Text('${recipe.minutes} min')),
        onTap: onTap,
      ),
    );
  }
}
"""

_DART_PUBSPEC = """name: recipes
description: Family recipes, offline.
publish_to: 'none'
version: 1.4.2+18

environment:
  sdk: '>=3.2.0 <4.0.0'

dependencies:
  flutter:
    sdk: flutter
  flutter_localizations:
    sdk: flutter
  intl: any
  json_annotation: ^4.8.1

dev_dependencies:
  build_runner: ^2.4.8
  flutter_lints: ^3.0.1
  flutter_test:
    sdk: flutter
  json_serializable: ^6.7.1

flutter:
  generate: true
  assets:
    - assets/recipes.json
    - assets/images/
"""

_DART_LOCK = """# Generated by pub
# See https://dart.dev/tools/pub/glossary#lockfile
packages:
  json_annotation:
    dependency: "direct main"
    description:
      name: json_annotation
      url: "https://pub.dev"
    source: hosted
    version: "4.8.1"
sdks:
  dart: ">=3.2.0 <4.0.0"
"""

_DART_EN_ARB = """{
  "@@locale": "en",
  "recipesTab": "Recipes",
  "settingsTab": "Settings",
  "metricUnits": "Metric units"
}
"""

_DART_DE_ARB = """{
  "@@locale": "de",
  "recipesTab": "Rezepte",
  "settingsTab": "Einstellungen",
  "metricUnits": "Metrische Einheiten"
}
"""

_DART_MACOS_REGISTRANT = """//
//  Generated file. Do not edit.
//

import FlutterMacOS
import Foundation


func RegisterGeneratedPlugins(registry: FlutterPluginRegistry) {
}
"""

_DART_LINUX_REGISTRANT = """//
//  Generated file. Do not edit.
//

// clang-format off

#include "generated_plugin_registrant.h"


void fl_register_plugins(FlPluginRegistry* registry) {
}
"""


def _flutter_favourites_tab(s: Scene) -> None:
    s.commit(
        "Recipes app: list, detail, settings",
        {
            ".gitignore": lines(
                ".dart_tool/",
                ".flutter-plugins",
                ".flutter-plugins-dependencies",
                "/build/",
                "*.iml",
            ),
            ".metadata": lines(
                "version:",
                '  revision: "41456452f29d64e8deb623a3c927524bcf9f111b"',
                "  channel: stable",
            ),
            "analysis_options.yaml": lines(
                "include: package:flutter_lints/flutter.yaml",
                "",
                "linter:",
                "  rules:",
                "    prefer_single_quotes: true",
                "    avoid_print: true",
            ),
            "l10n.yaml": lines(
                "arb-dir: lib/l10n",
                "template-arb-file: app_en.arb",
                "output-localization-file: app_localizations.dart",
            ),
            "pubspec.yaml": _DART_PUBSPEC.replace("  json_annotation: ^4.8.1\n", "")
            .replace("  build_runner: ^2.4.8\n", "")
            .replace("  json_serializable: ^6.7.1\n", ""),
            "pubspec.lock": _DART_LOCK,
            "assets/recipes.json": '[{"id": "1", "title": "Käsespätzle", "minutes": 40}]\n',
            "assets/images/placeholder.png": PNG,
            "lib/main.dart": lines(
                "import 'package:flutter/material.dart';",
                "",
                "import 'app.dart';",
                "",
                "void main() => runApp(const RecipesApp());",
            ),
            "lib/app.dart": lines(
                "import 'package:flutter/material.dart';",
                "import 'package:flutter_gen/gen_l10n/app_localizations.dart';",
                "",
                "import 'screens/home_screen.dart';",
                "",
                "class RecipesApp extends StatelessWidget {",
                "  const RecipesApp({super.key});",
                "",
                "  @override",
                "  Widget build(BuildContext context) => const MaterialApp(",
                "        localizationsDelegates: AppLocalizations.localizationsDelegates,",
                "        supportedLocales: AppLocalizations.supportedLocales,",
                "        home: HomeScreen(),",
                "      );",
                "}",
            ),
            "lib/screens/home_screen.dart": _DART_HOME_V1.replace(
                "          NavigationDestination(icon: const Icon(Icons.settings), label: "
                "l10n.settingsTab),\n",
                "",
            )
            .replace("[RecipeListScreen(), SettingsScreen()]", "[RecipeListScreen()]")
            .replace("import 'settings_screen.dart';\n", ""),
            "lib/screens/recipe_list_screen.dart": lines(
                "import 'package:flutter/material.dart';",
                "",
                "import '../services/recipe_repository.dart';",
                "import '../widgets/recipe_card.dart';",
                "",
                "class RecipeListScreen extends StatelessWidget {",
                "  const RecipeListScreen({super.key});",
                "",
                "  @override",
                "  Widget build(BuildContext context) => FutureBuilder(",
                "        future: RecipeRepository().all(),",
                "        builder: (context, snap) => ListView(",
                "          children: [for (final r in snap.data ?? []) RecipeCard(recipe: r)],",
                "        ),",
                "      );",
                "}",
            ),
            "lib/screens/recipe_detail_screen.dart": lines(
                "import 'package:flutter/material.dart';",
                "",
                "import '../models/recipe.dart';",
                "",
                "class RecipeDetailScreen extends StatelessWidget {",
                "  const RecipeDetailScreen({super.key, required this.recipe});",
                "  final Recipe recipe;",
                "",
                "  @override",
                "  Widget build(BuildContext context) => Scaffold(appBar: AppBar(title: "
                "Text(recipe.title)));",
                "}",
            ),
            "lib/models/recipe.dart": lines(
                "class Recipe {",
                "  Recipe({required this.id, required this.title});",
                "  final String id;",
                "  final String title;",
                "}",
            ),
            "lib/services/recipe_repository.dart": _DART_REPOSITORY,
            "lib/widgets/recipe_card.dart": _DART_CARD.replace(
                "        trailing: Chip(label: Text('${recipe.minutes} min')),\n", ""
            ),
            "lib/l10n/app_en.arb": _DART_EN_ARB.replace(
                ',\n  "settingsTab": "Settings",\n  "metricUnits": "Metric units"', ""
            ),
            "lib/l10n/app_de.arb": _DART_DE_ARB.replace(
                ',\n  "settingsTab": "Einstellungen",\n  "metricUnits": "Metrische Einheiten"', ""
            ),
            "test/widget_test.dart": lines(
                "import 'package:flutter_test/flutter_test.dart';",
                "import 'package:recipes/app.dart';",
                "",
                "void main() {",
                "  testWidgets('the recipes tab is shown first', (tester) async {",
                "    await tester.pumpWidget(const RecipesApp());",
                "    expect(find.text('Recipes'), findsWidgets);",
                "  });",
                "}",
            ),
            "android/app/build.gradle": lines(
                "android {",
                "    namespace 'com.example.recipes'",
                "    compileSdkVersion flutter.compileSdkVersion",
                "    defaultConfig {",
                "        minSdkVersion flutter.minSdkVersion",
                "        targetSdkVersion flutter.targetSdkVersion",
                "    }",
                "}",
            ),
            "ios/Runner/Info.plist": lines(
                '<plist version="1.0"><dict>',
                "  <key>CFBundleDisplayName</key><string>Recipes</string>",
                "</dict></plist>",
            ),
            "macos/Flutter/GeneratedPluginRegistrant.swift": _DART_MACOS_REGISTRANT,
            "linux/flutter/generated_plugin_registrant.cc": _DART_LINUX_REGISTRANT,
        },
        days_ago=100,
    )
    s.commit(
        "Recipe model: json_serializable, cooking time",
        {
            "lib/models/recipe.dart": _DART_RECIPE_V1,
            "lib/models/recipe.g.dart": _DART_RECIPE_G_V1,
            "pubspec.yaml": _DART_PUBSPEC,
            "lib/services/recipe_repository.dart": _DART_REPOSITORY,
            "lib/widgets/recipe_card.dart": _DART_CARD,
        },
        days_ago=55,
    )
    # The settings tab was added to the bottom navigation in one commit with its screen:
    # from now on settings_screen.dart and home_screen.dart change together.
    s.commit(
        "Home: bottom navigation with a settings tab",
        {
            "lib/screens/home_screen.dart": _DART_HOME_V1,
            "lib/screens/settings_screen.dart": _DART_SETTINGS,
            "lib/l10n/app_en.arb": _DART_EN_ARB,
            "lib/l10n/app_de.arb": _DART_DE_ARB,
        },
        days_ago=30,
    )
    # The hook recorded the files the agent patched in the first half of the session:
    # the two tab files, and the settings screen it retitled on the way. A recorded
    # patch says the agent touched a file, not that the user wanted the change.
    s.intent(
        "Add a Favourites tab to the bottom navigation: heart a recipe on its card, "
        "see all hearted recipes in the new tab",
        {
            "lib/screens/home_screen.dart": "owns the bottom navigation",
            "lib/screens/favourites_screen.dart": "the new tab",
        },
        patches=[
            "lib/screens/home_screen.dart",
            "lib/screens/favourites_screen.dart",
            "lib/screens/settings_screen.dart",
        ],
        hours_ago=1,
    )

    # -- the real work ------------------------------------------------------------------
    _edit(
        s,
        "lib/screens/home_screen.dart",
        "import 'recipe_list_screen.dart';\n",
        "import 'favourites_screen.dart';\nimport 'recipe_list_screen.dart';\n",
    )
    _edit(
        s,
        "lib/screens/home_screen.dart",
        "[RecipeListScreen(), SettingsScreen()]",
        "[RecipeListScreen(), FavouritesScreen(), SettingsScreen()]",
    )
    _edit(
        s,
        "lib/screens/home_screen.dart",
        "          NavigationDestination(icon: const Icon(Icons.settings)",
        "          NavigationDestination(icon: const Icon(Icons.favorite), label: "
        "l10n.favouritesTab),\n"
        "          NavigationDestination(icon: const Icon(Icons.settings)",
    )
    s.agent(
        {
            "lib/screens/favourites_screen.dart": lines(
                "import 'package:flutter/material.dart';",
                "import 'package:flutter_gen/gen_l10n/app_localizations.dart';",
                "",
                "import '../services/favourites_store.dart';",
                "import '../services/recipe_repository.dart';",
                "import '../widgets/recipe_card.dart';",
                "",
                "class FavouritesScreen extends StatelessWidget {",
                "  const FavouritesScreen({super.key});",
                "",
                "  @override",
                "  Widget build(BuildContext context) {",
                "    final l10n = AppLocalizations.of(context)!;",
                "    return FutureBuilder(",
                "      future: FavouritesStore.instance.filter(RecipeRepository().all()),",
                "      builder: (context, snap) {",
                "        final recipes = snap.data ?? [];",
                "        if (recipes.isEmpty) {",
                "          return Center(child: Column(mainAxisSize: MainAxisSize.min, children: [",
                "            Image.asset('assets/images/empty favourites.png', width: 160),",
                "            Text(l10n.favouritesEmpty),",
                "          ]));",
                "        }",
                "        return ListView(children: [for (final r in recipes) RecipeCard(recipe: "
                "r)]);",
                "      },",
                "    );",
                "  }",
                "}",
            ),
            "lib/services/favourites_store.dart": lines(
                "import 'package:shared_preferences/shared_preferences.dart';",
                "",
                "import '../models/recipe.dart';",
                "",
                "class FavouritesStore {",
                "  FavouritesStore._();",
                "  static final instance = FavouritesStore._();",
                "  static const _key = 'favourite_recipe_ids';",
                "",
                "  Future<Set<String>> ids() async =>",
                "      (await SharedPreferences.getInstance()).getStringList(_key)?.toSet() ?? {};",
                "",
                "  Future<void> toggle(String id) async {",
                "    final prefs = await SharedPreferences.getInstance();",
                "    final current = await ids();",
                "    current.contains(id) ? current.remove(id) : current.add(id);",
                "    await prefs.setStringList(_key, current.toList());",
                "  }",
                "",
                "  Future<List<Recipe>> filter(Future<List<Recipe>> all) async {",
                "    final wanted = await ids();",
                "    return (await all).where((r) => wanted.contains(r.id)).toList();",
                "  }",
                "}",
            ),
            "test/favourites_store_test.dart": lines(
                "import 'package:flutter_test/flutter_test.dart';",
                "import 'package:recipes/services/favourites_store.dart';",
                "import 'package:shared_preferences/shared_preferences.dart';",
                "",
                "void main() {",
                "  test('toggling twice removes the favourite', () async {",
                "    SharedPreferences.setMockInitialValues({});",
                "    await FavouritesStore.instance.toggle('1');",
                "    await FavouritesStore.instance.toggle('1');",
                "    expect(await FavouritesStore.instance.ids(), isEmpty);",
                "  });",
                "}",
            ),
            # The empty-state picture the new screen shows (a spaced file name, as a
            # designer exported it).
            "assets/images/empty favourites.png": PNG + b"heart",
        }
    )
    # Debatable, accepted: the card is where the intent says a recipe gets hearted.
    _edit(
        s,
        "lib/widgets/recipe_card.dart",
        "import '../models/recipe.dart';\n",
        "import '../models/recipe.dart';\nimport '../services/favourites_store.dart';\n",
    )
    _edit(
        s,
        "lib/widgets/recipe_card.dart",
        "        trailing: Chip(label: Text('${recipe.minutes} min')),\n",
        "        leading: IconButton(\n"
        "          icon: Icon(recipe.isFavourite ? Icons.favorite : Icons.favorite_border),\n"
        "          onPressed: () => FavouritesStore.instance.toggle(recipe.id),\n"
        "        ),\n"
        "        trailing: Chip(label: Text('${recipe.minutes} min')),\n",
    )
    _edit(
        s,
        "lib/models/recipe.dart",
        "  Recipe({required this.id, required this.title, required this.minutes});\n",
        "  Recipe({required this.id, required this.title, required this.minutes, "
        "this.isFavourite = false});\n",
    )
    _edit(
        s,
        "lib/models/recipe.dart",
        "  final int minutes;\n",
        "  final int minutes;\n  final bool isFavourite;\n",
    )
    _edit(
        s,
        "pubspec.yaml",
        "  json_annotation: ^4.8.1\n",
        "  json_annotation: ^4.8.1\n  shared_preferences: ^2.2.2\n",
    )
    _edit(
        s,
        "pubspec.lock",
        "sdks:\n",
        "  shared_preferences:\n"
        '    dependency: "direct main"\n'
        "    description:\n"
        "      name: shared_preferences\n"
        '      url: "https://pub.dev"\n'
        "    source: hosted\n"
        '    version: "2.2.2"\n'
        "sdks:\n",
    )
    _edit(
        s,
        "lib/l10n/app_en.arb",
        '  "settingsTab": "Settings",\n',
        '  "favouritesTab": "Favourites",\n'
        '  "favouritesEmpty": "Tap the heart on a recipe to keep it here.",\n'
        '  "settingsTab": "Settings",\n',
    )
    _edit(
        s,
        "lib/l10n/app_de.arb",
        '  "settingsTab": "Einstellungen",\n',
        '  "favouritesTab": "Favoriten",\n'
        '  "favouritesEmpty": "Tippe auf das Herz eines Rezepts, um es hier zu sammeln.",\n'
        '  "settingsTab": "Einstellungen",\n',
    )
    s.fine(
        "lib/screens/home_screen.dart",
        "lib/screens/favourites_screen.dart",
        "lib/services/favourites_store.dart",
        "test/favourites_store_test.dart",
        "assets/images/empty favourites.png",
        "lib/widgets/recipe_card.dart",
        "lib/models/recipe.dart",
        "pubspec.yaml",
        "pubspec.lock",
        "lib/l10n/app_en.arb",
        "lib/l10n/app_de.arb",
    )

    # -- generated: `dart run build_runner build` and `flutter pub get` ---------------------
    # (shared_preferences is Dart-only on Linux, so only the macOS registrant moves.)
    _edit(
        s,
        "lib/models/recipe.g.dart",
        "      minutes: json['minutes'] as int,\n",
        "      minutes: json['minutes'] as int,\n      isFavourite: json['isFavourite'] as bool? "
        "?? false,\n",
    )
    _edit(
        s,
        "lib/models/recipe.g.dart",
        "      'minutes': instance.minutes,\n",
        "      'minutes': instance.minutes,\n      'isFavourite': instance.isFavourite,\n",
    )
    _edit(
        s,
        "macos/Flutter/GeneratedPluginRegistrant.swift",
        "import Foundation\n",
        "import Foundation\n\nimport shared_preferences_foundation\n",
    )
    _edit(
        s,
        "macos/Flutter/GeneratedPluginRegistrant.swift",
        "func RegisterGeneratedPlugins(registry: FlutterPluginRegistry) {\n",
        "func RegisterGeneratedPlugins(registry: FlutterPluginRegistry) {\n"
        "  SharedPreferencesPlugin.register(with: registry.registrar(forPlugin: "
        '"SharedPreferencesPlugin"))\n',
    )
    s.excluded(
        "lib/models/recipe.g.dart",
        "macos/Flutter/GeneratedPluginRegistrant.swift",
    )

    # -- drift ----------------------------------------------------------------------------
    _edit(
        s,
        "lib/screens/settings_screen.dart",
        "AppBar(title: Text(l10n.settingsTab))",
        "AppBar(title: const Text('Preferences'))",
    )
    # A lint switched off to quiet the analyzer instead of fixing the code.
    _edit(s, "analysis_options.yaml", "    avoid_print: true\n", "    avoid_print: false\n")
    # `dart format` over a service nobody is changing.
    _edit(
        s,
        "lib/services/recipe_repository.dart",
        "    for (final r in recipes) { if (r.id == id) return r; }\n",
        "    for (final r in recipes) {\n      if (r.id == id) return r;\n    }\n",
    )
    _edit(
        s,
        "android/app/build.gradle",
        "        minSdkVersion flutter.minSdkVersion\n",
        "        minSdkVersion 23\n",
    )
    # The default smoke test broke once a third tab existed; deleting it is not fixing it.
    s.agent(delete=["test/widget_test.dart"])
    s.drift(
        "lib/screens/settings_screen.dart",
        "analysis_options.yaml",
        "lib/services/recipe_repository.dart",
        "android/app/build.gradle",
        "test/widget_test.dart",
    )
    s.safe_commit()
    s.note = "observed patches include a drifted screen; no checkpoint"


# --------------------------------------------------------------------------------------
# 10. Shell / Ansible ops repo: a logrotate role for the app servers; the user's own
#     inventory edit sits in the checkpoint; collections installed into the tree.
# --------------------------------------------------------------------------------------

_ANS_APP_PLAYBOOK = """---
- name: Application servers
  hosts: app
  become: true
  roles:
    - role: nginx
    - role: app
"""

_ANS_PROD_VARS = """---
app_env: production
app_log_dir: /var/log/shopapi
nginx_worker_processes: 4
nginx_client_max_body_size: 10m
"""

_ANS_STAGING_HOSTS = """[app]
app-01.staging.internal
app-02.staging.internal

[db]
db-01.staging.internal
"""

_ANS_DEPLOY = """#!/usr/bin/env bash
# Deploys a tagged release to one environment and rolls back if the health check fails.
set -e

source "$(dirname "$0")/lib/common.sh"

ENV=$1
TAG=$2

[ -z "$ENV" ] && die "usage: deploy.sh <staging|production> <tag>"

log "deploying $TAG to $ENV"
ansible-playbook -i inventories/$ENV/hosts.ini playbooks/app.yml -e app_version=$TAG

if ! curl -fsS https://$ENV.shop.internal/healthz >/dev/null; then
  log "health check failed, rolling back"
  ansible-playbook -i inventories/$ENV/hosts.ini playbooks/app.yml -e app_version=$(previous_tag)
  exit 1
fi
"""

_ANS_COMMON = """# Shared helpers for the ops scripts.

log() { printf '%s %s\\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

die() { log "$*"; exit 1; }

previous_tag() {
    git describe --tags --abbrev=0 HEAD^
}
"""

_ANS_NGINX_CONF = """user www-data;
worker_processes {{ nginx_worker_processes }};

http {
    client_max_body_size {{ nginx_client_max_body_size }};
    gzip on;
    gzip_types text/plain application/json;

    include /etc/nginx/conf.d/*.conf;
}
"""


def _ansible_logrotate_role(s: Scene) -> None:
    s.commit(
        "ops: inventories, nginx/app/postgres roles, deploy scripts",
        {
            ".gitignore": lines("*.retry", ".vault_pass", ".venv/"),
            "ansible.cfg": lines(
                "[defaults]",
                "inventory = inventories/staging/hosts.ini",
                "roles_path = roles",
                "collections_path = ./collections:~/.ansible/collections",
                "forks = 10",
                "",
                "[ssh_connection]",
                "pipelining = True",
            ),
            "requirements.yml": lines(
                "---",
                "collections:",
                "  - name: community.general",
                "    version: 8.4.0",
                "  - name: ansible.posix",
                "    version: 1.5.4",
            ),
            ".ansible-lint": lines("profile: production", "exclude_paths:", "  - collections/"),
            "Makefile": lines(
                "lint:",
                "\tansible-lint",
                "\tshellcheck scripts/*.sh scripts/lib/*.sh",
                "",
                "deps:",
                "\tansible-galaxy collection install -r requirements.yml -p ./collections",
            ),
            "README.md": lines(
                "# shop-ops",
                "",
                "Ansible for the shop API servers.",
                "",
                "## Roles",
                "",
                "- `nginx`: reverse proxy in front of the API",
                "- `app`: the API as a systemd service",
                "- `postgres`: the database hosts",
            ),
            "inventories/production/hosts.ini": lines(
                "[app]",
                "app-01.prod.internal",
                "app-02.prod.internal",
                "app-03.prod.internal",
                "",
                "[db]",
                "db-01.prod.internal",
            ),
            "inventories/production/group_vars/all.yml": _with(
                _ANS_PROD_VARS, "nginx_client_max_body_size: 10m\n", ""
            ),
            "inventories/staging/hosts.ini": _ANS_STAGING_HOSTS,
            "inventories/staging/group_vars/all.yml": _with(
                _ANS_PROD_VARS, "nginx_client_max_body_size: 10m\n", ""
            )
            .replace("production", "staging")
            .replace("nginx_worker_processes: 4", "nginx_worker_processes: 2"),
            "playbooks/site.yml": lines(
                "---",
                "- import_playbook: app.yml",
                "- import_playbook: db.yml",
            ),
            "playbooks/app.yml": _with(_ANS_APP_PLAYBOOK, "    - role: app\n", ""),
            "playbooks/db.yml": lines(
                "---",
                "- name: Database servers",
                "  hosts: db",
                "  become: true",
                "  roles:",
                "    - role: postgres",
            ),
            "roles/nginx/tasks/main.yml": lines(
                "---",
                "- name: Install nginx",
                "  ansible.builtin.apt:",
                "    name: nginx",
                "    state: present",
                "",
                "- name: Configure nginx",
                "  ansible.builtin.template:",
                "    src: nginx.conf.j2",
                "    dest: /etc/nginx/nginx.conf",
                "    mode: '0644'",
                "  notify: Reload nginx",
            ),
            "roles/nginx/handlers/main.yml": lines(
                "---",
                "- name: Reload nginx",
                "  ansible.builtin.service:",
                "    name: nginx",
                "    state: reloaded",
            ),
            "roles/nginx/templates/nginx.conf.j2": _ANS_NGINX_CONF.replace(
                "    gzip on;\n    gzip_types text/plain application/json;\n", ""
            ).replace("    client_max_body_size {{ nginx_client_max_body_size }};\n", ""),
            "roles/app/defaults/main.yml": lines("---", "app_user: shopapi", "app_version: latest"),
            "roles/app/tasks/main.yml": lines(
                "---",
                "- name: Create the service user",
                "  ansible.builtin.user:",
                "    name: '{{ app_user }}'",
                "    system: true",
            ),
            "roles/postgres/tasks/main.yml": lines(
                "---",
                "- name: Install PostgreSQL",
                "  ansible.builtin.apt:",
                "    name: postgresql-15",
                "    state: present",
            ),
            "scripts/deploy.sh": _with(
                _ANS_DEPLOY,
                "if ! curl -fsS https://$ENV.shop.internal/healthz >/dev/null; then\n"
                '  log "health check failed, rolling back"\n'
                "  ansible-playbook -i inventories/$ENV/hosts.ini playbooks/app.yml -e "
                "app_version=$(previous_tag)\n"
                "  exit 1\n"
                "fi\n",
                "",
            ),
            "scripts/backup.sh": lines(
                "#!/usr/bin/env bash",
                "set -e",
                'source "$(dirname "$0")/lib/common.sh"',
                'log "dumping shop database"',
                "ssh db-01.prod.internal 'pg_dump shop | gzip' > backups/shop-$(date +%F).sql.gz",
            ),
            "scripts/lib/common.sh": _ANS_COMMON.replace(
                "\nprevious_tag() {\n    git describe --tags --abbrev=0 HEAD^\n}\n", ""
            ),
        },
        days_ago=150,
    )
    s.commit(
        "app role: systemd unit and log directory",
        {
            "roles/app/defaults/main.yml": lines(
                "---", "app_user: shopapi", "app_version: latest", "app_log_dir: /var/log/shopapi"
            ),
            "roles/app/tasks/main.yml": lines(
                "---",
                "- name: Create the service user",
                "  ansible.builtin.user:",
                "    name: '{{ app_user }}'",
                "    system: true",
                "",
                "- name: Log directory",
                "  ansible.builtin.file:",
                "    path: '{{ app_log_dir }}'",
                "    state: directory",
                "    owner: '{{ app_user }}'",
                "    mode: '0750'",
                "",
                "- name: Systemd unit",
                "  ansible.builtin.template:",
                "    src: shopapi.service.j2",
                "    dest: /etc/systemd/system/shopapi.service",
                "    mode: '0644'",
            ),
            "roles/app/templates/shopapi.service.j2": lines(
                "[Unit]",
                "Description=shop API",
                "",
                "[Service]",
                "User={{ app_user }}",
                "ExecStart=/opt/shopapi/bin/shopapi --log-dir {{ app_log_dir }}",
                "Restart=on-failure",
            ),
            "playbooks/app.yml": _ANS_APP_PLAYBOOK,
        },
        days_ago=80,
    )
    s.commit(
        "nginx: gzip and upload limit per environment",
        {
            "roles/nginx/templates/nginx.conf.j2": _ANS_NGINX_CONF,
            "inventories/production/group_vars/all.yml": _ANS_PROD_VARS,
            "inventories/staging/group_vars/all.yml": _ANS_PROD_VARS.replace(
                "production", "staging"
            ).replace("nginx_worker_processes: 4", "nginx_worker_processes: 2"),
        },
        days_ago=45,
    )
    s.commit(
        "deploy.sh: roll back when the health check fails",
        {"scripts/deploy.sh": _ANS_DEPLOY, "scripts/lib/common.sh": _ANS_COMMON},
        days_ago=20,
    )
    s.intent(
        "Add a logrotate role and apply it to the app servers (daily, keep 14, compress)",
        {
            "roles/logrotate/tasks/main.yml": "the new role",
            "playbooks/app.yml": "the app servers' playbook",
        },
        hours_ago=2,
    )
    # The user added a staging host by hand (their own change, not the agent's), then
    # checkpointed. It is in the work tree's diff, and it is not drift: nobody but the
    # user made it, and a restore from the checkpoint keeps it.
    _edit(
        s,
        "inventories/staging/hosts.ini",
        "app-02.staging.internal\n",
        "app-02.staging.internal\napp-03.staging.internal\n",
    )
    before = s.checkpoint("before logrotate")

    # -- the real work ------------------------------------------------------------------
    s.agent(
        {
            "roles/logrotate/tasks/main.yml": lines(
                "---",
                "- name: Install logrotate",
                "  ansible.builtin.apt:",
                "    name: logrotate",
                "    state: present",
                "",
                "- name: Rotate the app logs",
                "  ansible.builtin.template:",
                "    src: app.logrotate.j2",
                "    dest: /etc/logrotate.d/{{ logrotate_name }}",
                "    mode: '0644'",
                "    validate: logrotate -d %s",
            ),
            "roles/logrotate/defaults/main.yml": lines(
                "---",
                "logrotate_name: shopapi",
                "logrotate_paths:",
                "  - '{{ app_log_dir }}/*.log'",
                "logrotate_frequency: daily",
                "logrotate_keep: 14",
                "logrotate_compress: true",
            ),
            "roles/logrotate/templates/app.logrotate.j2": lines(
                "# {{ ansible_managed }}",
                "{{ logrotate_paths | join(' ') }} {",
                "    {{ logrotate_frequency }}",
                "    rotate {{ logrotate_keep }}",
                "{% if logrotate_compress %}",
                "    compress",
                "    delaycompress",
                "{% endif %}",
                "    missingok",
                "    notifempty",
                "    copytruncate",
                "}",
            ),
            "roles/logrotate/meta/main.yml": lines(
                "---",
                "galaxy_info:",
                "  role_name: logrotate",
                "  description: Rotates the shop API logs",
                "  min_ansible_version: '2.15'",
                "dependencies: []",
            ),
            "roles/logrotate/molecule/default/molecule.yml": lines(
                "---",
                "driver:",
                "  name: docker",
                "platforms:",
                "  - name: instance",
                "    image: debian:12",
                "provisioner:",
                "  name: ansible",
                "  inventory:",
                "    group_vars:",
                "      all:",
                "        app_log_dir: /var/log/shopapi",
            ),
            "roles/logrotate/molecule/default/verify.yml": lines(
                "---",
                "- name: Verify",
                "  hosts: all",
                "  tasks:",
                "    - name: The config passes logrotate's own check",
                "      ansible.builtin.command: logrotate -d /etc/logrotate.d/shopapi",
                "      changed_when: false",
            ),
            "docs/runbooks/logrotate — app servers.md": lines(
                "# Log rotation on the app servers",
                "",
                "Logs under `/var/log/shopapi` rotate daily; 14 compressed days are kept.",
                "To rotate now: `sudo logrotate -f /etc/logrotate.d/shopapi`.",
            ),
        }
    )
    _edit(s, "playbooks/app.yml", "    - role: app\n", "    - role: app\n    - role: logrotate\n")
    _edit(
        s,
        "README.md",
        "- `postgres`: the database hosts\n",
        "- `postgres`: the database hosts\n- `logrotate`: daily rotation of the API logs (keeps "
        "14 days)\n",
    )
    s.fine(
        "roles/logrotate/tasks/main.yml",
        "roles/logrotate/defaults/main.yml",
        "roles/logrotate/templates/app.logrotate.j2",
        "roles/logrotate/meta/main.yml",
        "roles/logrotate/molecule/default/molecule.yml",
        "roles/logrotate/molecule/default/verify.yml",
        "docs/runbooks/logrotate — app servers.md",
        "playbooks/app.yml",
        "README.md",
        "inventories/staging/hosts.ini",
    )

    # -- vendored: `make deps` installed the collections into ./collections -----------------
    s.agent(
        {
            "collections/ansible_collections/community/general/MANIFEST.json": (
                '{\n  "collection_info": '
                '{"namespace": "community", "name": "general", "version": "8.4.0"}\n}\n'
            ),
            "collections/ansible_collections/community/general/plugins/modules/ini_file.py": lines(
                "#!/usr/bin/python",
                "# Copyright (c) 2012, Jan-Piet Mens <jpmens () gmail.com>",
                "# GNU General Public License v3.0+",
                "DOCUMENTATION = r'''",
                "module: ini_file",
                "short_description: Tweak settings in INI files",
                "'''",
            ),
            "collections/ansible_collections/ansible/posix/MANIFEST.json": (
                '{\n  "collection_info": '
                '{"namespace": "ansible", "name": "posix", "version": "1.5.4"}\n}\n'
            ),
            "collections/ansible_collections/ansible/posix/plugins/modules/sysctl.py": lines(
                "#!/usr/bin/python",
                '# Copyright: (c) 2012, David "DaviXX" CHANIAL <david.chanial@gmail.com>',
                "DOCUMENTATION = r'''",
                "module: sysctl",
                "'''",
            ),
        }
    )
    s.excluded(
        "collections/ansible_collections/community/general/MANIFEST.json",
        "collections/ansible_collections/community/general/plugins/modules/ini_file.py",
        "collections/ansible_collections/ansible/posix/MANIFEST.json",
        "collections/ansible_collections/ansible/posix/plugins/modules/sysctl.py",
    )

    # -- drift ----------------------------------------------------------------------------
    # "Hardening" the deploy script: strict mode and quoting, nothing to do with logs.
    _edit(s, "scripts/deploy.sh", "set -e\n", "set -euo pipefail\n")
    _edit(s, "scripts/deploy.sh", "ENV=$1\nTAG=$2\n", 'ENV="${1:-}"\nTAG="${2:-}"\n')
    # shfmt over the shared helpers.
    s.agent(
        {
            "scripts/lib/common.sh": _ANS_COMMON.replace(
                'log() { printf \'%s %s\\n\' "$(date -u +%H:%M:%S)" "$*" >&2; }\n',
                'log() {\n\tprintf \'%s %s\\n\' "$(date -u +%H:%M:%S)" "$*" >&2\n}\n',
            )
            .replace('die() { log "$*"; exit 1; }\n', 'die() {\n\tlog "$*"\n\texit 1\n}\n')
            .replace("    git describe", "\tgit describe")
        }
    )
    _edit(
        s,
        "roles/nginx/templates/nginx.conf.j2",
        "    gzip_types text/plain application/json;",
        "    gzip_types text/plain text/css application/json application/javascript;",
    )
    _edit(s, "ansible.cfg", "forks = 10", "forks = 50")
    # Production's upload limit raised while "testing" the role: the wrong environment.
    _edit(
        s,
        "inventories/production/group_vars/all.yml",
        "nginx_client_max_body_size: 10m",
        "nginx_client_max_body_size: 100m",
    )
    s.drift(
        "scripts/deploy.sh",
        "scripts/lib/common.sh",
        "roles/nginx/templates/nginx.conf.j2",
        "ansible.cfg",
        "inventories/production/group_vars/all.yml",
    )
    s.safe_checkpoint(before)
    s.note = "the checkpoint holds the user's own staging host; the commit would lose it"


FRESH7: list[Scenario] = [
    Scenario(
        name="fresh7_laravel_invoice_pdf",
        build=_laravel_invoice_pdf,
        held_out=False,
        about="Laravel: PDF download (route, dompdf dependency + lock + published config, "
        "view, test, lang key) vs a retitled sibling list page, a customer controller "
        "refactor, a timezone change and a deleted test; regenerated _ide_helper.php and an "
        "untracked Vite public/build are excluded",
        fresh=True,
        batch=7,
    ),
    Scenario(
        name="fresh7_swift_pull_to_refresh",
        build=_swift_pull_to_refresh,
        held_out=False,
        about="iOS: pull-to-refresh (view model, service, new banner view + pbxproj entry, "
        "strings, test) vs a retitled settings tab that once co-changed with the screen, an "
        "async refactor, a build-number bump, a deleted test; SwiftGen output excluded; "
        "the checkpoint holds the user's own edit",
        fresh=True,
        batch=7,
    ),
    Scenario(
        name="fresh7_phoenix_login_rate_limit",
        build=_phoenix_login_rate_limit,
        held_out=False,
        about="Phoenix: login rate limit (plug module, hammer dep + mix.lock, config key, "
        "tests) vs prod log level, mix-format of an untouched context, a retitled LiveView; "
        "digested priv/static excluded; checkpoint mid-session after the real work is safe",
        fresh=True,
        batch=7,
    ),
    Scenario(
        name="fresh7_android_offline_banner",
        build=_android_offline_banner,
        held_out=False,
        about="Android: offline banner (view model, NetworkMonitor, Hilt module, manifest "
        "permission, strings in two locales, test + fake) vs a Kotlin/Compose upgrade, a "
        "minSdk raise, a retitled settings screen, a deleted test; untracked app/build "
        "excluded; the only checkpoint postdates the drift so the commit is safe",
        fresh=True,
        batch=7,
    ),
    Scenario(
        name="fresh7_dbt_customer_ltv",
        build=_dbt_customer_ltv,
        held_out=False,
        about="dbt + Airflow: an LTV mart committed as a draft after the intent, then "
        "finished (schema yml, macro, data test, staging column) vs sqlfluff on an untouched "
        "model, a package bump, prod threads, a DAG schedule change, a deleted data test; "
        "target/ and __pycache__ excluded",
        fresh=True,
        batch=7,
    ),
    Scenario(
        name="fresh7_nextjs_newsletter_route",
        build=_nextjs_newsletter_route,
        held_out=False,
        about="Next.js: a new API route + footer form (helper, zod schema, Prisma model and "
        "migration, env key, tests) vs a component moved to a new folder, a retitled pricing "
        "page, a prettier-only header, next.config and a next bump; .next/ excluded; the "
        "checkpoint holds the user's own form markup",
        fresh=True,
        batch=7,
    ),
    Scenario(
        name="fresh7_sveltekit_dark_mode",
        build=_sveltekit_dark_mode,
        held_out=False,
        about="SvelteKit: dark-mode toggle (store + test, tailwind darkMode, css, app.html, "
        "layout, i18n) vs a second toggle in the navbar, a retitled profile page, prettier "
        "config and a reformatted card, a deleted store test; .svelte-kit excluded; of two "
        "checkpoints only the earlier predates the drift",
        fresh=True,
        batch=7,
    ),
    Scenario(
        name="fresh7_cmake_stats_json",
        build=_cmake_stats_json,
        held_out=False,
        about="C++/CMake: a --json flag (args, new writer module, CMakeLists, test, docs) vs "
        "clang-format of the parser, -Werror dropped, a version bump and a rename in a "
        "command that once co-changed; vendored third_party/nlohmann and an in-tree build/ "
        "excluded; clean checkpoint before the session",
        fresh=True,
        batch=7,
    ),
    Scenario(
        name="fresh7_flutter_favourites_tab",
        build=_flutter_favourites_tab,
        held_out=False,
        about="Flutter: a favourites tab (new screen and store, model field, card heart, "
        "shared_preferences + lock, arb strings, test, a spaced asset name) vs a retitled "
        "settings screen the hook saw patched, a disabled lint, dart format elsewhere, a "
        "minSdk pin, a deleted test; *.g.dart and plugin registrants excluded",
        fresh=True,
        batch=7,
    ),
    Scenario(
        name="fresh7_ansible_logrotate_role",
        build=_ansible_logrotate_role,
        held_out=False,
        about="Ansible: a new role (tasks, defaults, template, meta, molecule, a non-ASCII "
        "runbook, README line, playbook) vs deploy.sh strict mode, shfmt of shared helpers, "
        "nginx gzip types, ansible.cfg forks, a prod-only var; vendored collections/ "
        "excluded; the checkpoint holds the user's own staging host",
        fresh=True,
        batch=7,
    ),
]
