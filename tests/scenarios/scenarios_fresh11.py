"""Fresh scenarios, batch 11: ten agent sessions on stacks the earlier batches did not
cover (Symfony, Unity, Haskell, Elm, Ktor, a notebook experiment repo, Remix, Pulumi,
an autotools C library, Swift Vapor), written without looking at the advisor's rules.

Each one is a small real project with a dated history, memory as the user left it,
checkpoints where a user would have taken them, and an agent's edits that mix the
work asked for, changes a careful reviewer would reject, and the build output the
ecosystem leaves behind. The labels are the reviewer's, read from the intent and the
diff; a comment gives the reasoning wherever a label could be argued.
"""

from __future__ import annotations

import json

from scenario_kit import CLASS, DLL, ELF, PNG, Scenario, Scene, lines
from vibflow_testing.repo import write

#: Bytes a Unity editor leaves in ``Library/`` (its asset database is LMDB, not text).
LMDB = b"\x00\x00\x00\x00\xde\xc0\xef\xbe\x01\x00\x00\x00" + b"\x00" * 48
#: A compiled GHC interface / object and a pickled model: binary outputs.
GHC_HI = b"\x01\xfa\xce\x00\x00\x00\x00\x00hi-9.6.4\x00" + b"\x00" * 24
PICKLE = b"\x80\x05\x95\x1a\x00\x00\x00\x00\x00\x00\x00\x8c\x08lightgbm\x94." + b"\x00" * 8
#: A zip (a fat jar): binary build output.
JAR = b"PK\x03\x04\x14\x00\x08\x08\x08\x00" + b"\x00" * 20 + b"META-INF/MANIFEST.MF"


def _unity_meta(guid: str, importer: str = "MonoImporter") -> str:
    """The ``.meta`` Unity writes next to every asset (committed: it carries the GUID)."""
    return lines(
        "fileFormatVersion: 2",
        f"guid: {guid}",
        f"{importer}:",
        "  externalObjects: {}",
        "  serializedVersion: 2",
        "  userData: ",
        "  assetBundleName: ",
        "  assetBundleVariant: ",
    )


def _notebook(*cells: tuple[str, str, str | None]) -> str:
    """A Jupyter notebook: cells as (kind, source, output-or-None)."""
    out = []
    for n, (kind, source, result) in enumerate(cells, start=1):
        cell: dict[str, object] = {"cell_type": kind, "metadata": {}, "source": source}
        if kind == "code":
            cell["execution_count"] = n
            cell["outputs"] = (
                [{"output_type": "stream", "name": "stdout", "text": result}] if result else []
            )
        out.append(cell)
    doc = {
        "cells": out,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


# -- 1. Symfony: a console command, its entity field and migration ---------------------------


def symfony_overdue_reminders(s: Scene) -> None:
    """Symfony app: an overdue-invoice reminder command. Drift: prod log level, a sibling
    page retitled, a formatted entity; Encore's public/build/ output is excluded."""
    invoice = lines(
        "<?php",
        "namespace App\\Entity;",
        "",
        "use App\\Repository\\InvoiceRepository;",
        "use Doctrine\\ORM\\Mapping as ORM;",
        "",
        "#[ORM\\Entity(repositoryClass: InvoiceRepository::class)]",
        "class Invoice",
        "{",
        "    #[ORM\\Id, ORM\\GeneratedValue, ORM\\Column]",
        "    private ?int $id = null;",
        "    #[ORM\\ManyToOne(inversedBy: 'invoices')]",
        "    private ?Customer $customer = null;",
        "    #[ORM\\Column]",
        "    private int $amountCents = 0;",
        "    public function getId(): ?int { return $this->id; }",
        "    public function getCustomer(): ?Customer { return $this->customer; }",
        "}",
    )
    repo = lines(
        "<?php",
        "namespace App\\Repository;",
        "",
        "use App\\Entity\\Invoice;",
        "use Doctrine\\Bundle\\DoctrineBundle\\Repository\\ServiceEntityRepository;",
        "use Doctrine\\Persistence\\ManagerRegistry;",
        "",
        "class InvoiceRepository extends ServiceEntityRepository",
        "{",
        "    public function __construct(ManagerRegistry $registry)",
        "    {",
        "        parent::__construct($registry, Invoice::class);",
        "    }",
        "}",
    )
    subscription = lines(
        "<?php",
        "namespace App\\Controller;",
        "",
        "use Symfony\\Bundle\\FrameworkBundle\\Controller\\AbstractController;",
        "use Symfony\\Component\\HttpFoundation\\Response;",
        "use Symfony\\Component\\Routing\\Attribute\\Route;",
        "",
        "class SubscriptionController extends AbstractController",
        "{",
        "    #[Route('/account/subscription', name: 'subscription_index')]",
        "    public function index(): Response",
        "    {",
        "        return $this->render('subscription/index.html.twig', [",
        "            'title' => 'Your subscription',",
        "        ]);",
        "    }",
        "}",
    )
    customer = lines(
        "<?php",
        "namespace App\\Entity;",
        "",
        "use Doctrine\\ORM\\Mapping as ORM;",
        "",
        "#[ORM\\Entity]",
        "class Customer",
        "{",
        "    #[ORM\\Id, ORM\\GeneratedValue, ORM\\Column]",
        "    private ?int $id = null;",
        "    #[ORM\\Column(length: 180)]",
        "    private string $email = '';",
        "    public function getEmail(): string { return $this->email; }",
        "}",
    )
    s.commit(
        "Symfony 7 skeleton: invoices, subscriptions, mailer",
        {
            ".gitignore": lines("/vendor/", "/var/", "/.env.local", "/node_modules/"),
            "composer.json": lines(
                "{",
                '  "type": "project",',
                '  "require": {',
                '    "php": ">=8.2",',
                '    "doctrine/orm": "^3.1",',
                '    "symfony/console": "7.1.*",',
                '    "symfony/mailer": "7.1.*",',
                '    "symfony/twig-bundle": "7.1.*"',
                "  }",
                "}",
            ),
            "composer.lock": lines("{", '  "content-hash": "4be1f0c2",', '  "packages": []', "}"),
            ".env": lines("APP_ENV=dev", "DATABASE_URL=postgresql://app@127.0.0.1/app"),
            "bin/console": lines("#!/usr/bin/env php", "<?php", "require 'vendor/autoload.php';"),
            "config/services.yaml": lines(
                "services:",
                "  _defaults:",
                "    autowire: true",
                "    autoconfigure: true",
                "  App\\:",
                "    resource: '../src/'",
            ),
            "config/packages/doctrine.yaml": lines(
                "doctrine:", "  dbal:", "    url: '%env(DATABASE_URL)%'"
            ),
            "config/packages/mailer.yaml": lines(
                "framework:", "  mailer:", "    dsn: 'null://null'"
            ),
            "config/packages/prod/monolog.yaml": lines(
                "monolog:",
                "  handlers:",
                "    main:",
                "      type: fingers_crossed",
                "      action_level: error",
                "      handler: nested",
            ),
            "config/packages/dev/monolog.yaml": lines(
                "monolog:", "  handlers:", "    main:", "      type: stream", "      level: debug"
            ),
            "src/Kernel.php": lines("<?php", "namespace App;", "class Kernel {}"),
            "src/Entity/Invoice.php": invoice,
            "src/Entity/Customer.php": customer,
            "src/Repository/InvoiceRepository.php": repo,
            "src/Controller/InvoiceController.php": lines(
                "<?php",
                "namespace App\\Controller;",
                "",
                "use Symfony\\Bundle\\FrameworkBundle\\Controller\\AbstractController;",
                "",
                "class InvoiceController extends AbstractController {}",
            ),
            "src/Controller/SubscriptionController.php": subscription,
            "templates/base.html.twig": lines(
                "<!DOCTYPE html>", "<title>{% block title %}Billing{% endblock %}</title>"
            ),
            "templates/invoice/index.html.twig": lines(
                "{% extends 'base.html.twig' %}", "{% block body %}<h1>Invoices</h1>{% endblock %}"
            ),
            "templates/subscription/index.html.twig": lines(
                "{% extends 'base.html.twig' %}",
                "{% block body %}<h1>{{ title }}</h1>{% endblock %}",
            ),
            "translations/messages.en.yaml": lines("invoice:", "  title: Invoices"),
            "migrations/Version20260901120000.php": lines(
                "<?php",
                "namespace DoctrineMigrations;",
                "final class Version20260901120000 extends AbstractMigration",
                "{",
                "    public function up(Schema $schema): void",
                "    {",
                "        $this->addSql('CREATE TABLE invoice (id SERIAL, amount_cents INT)');",
                "    }",
                "}",
            ),
            "tests/Controller/InvoiceControllerTest.php": lines(
                "<?php",
                "namespace App\\Tests\\Controller;",
                "class InvoiceControllerTest extends WebTestCase {}",
            ),
            "webpack.config.js": lines(
                "const Encore = require('@symfony/webpack-encore');",
                "Encore.setOutputPath('public/build/').setPublicPath('/build')",
                "  .addEntry('app', './assets/app.js');",
                "module.exports = Encore.getWebpackConfig();",
            ),
            "assets/app.js": lines("import './styles/app.css';"),
            "assets/styles/app.css": lines("body { font-family: system-ui; }"),
            "package.json": lines(
                "{", '  "devDependencies": { "@symfony/webpack-encore": "^4.6.1" }', "}"
            ),
        },
        days_ago=60,
    )
    s.commit(
        "Invoices: due date, listed on the invoices page",
        {
            "src/Entity/Invoice.php": invoice.replace(
                "    public function getId()",
                "    #[ORM\\Column]\n"
                "    private \\DateTimeImmutable $dueAt;\n"
                "    public function getId()",
            ),
            "src/Repository/InvoiceRepository.php": repo,
            "migrations/Version20261010093000.php": lines(
                "<?php",
                "namespace DoctrineMigrations;",
                "final class Version20261010093000 extends AbstractMigration",
                "{",
                "    public function up(Schema $schema): void",
                "    {",
                "        $this->addSql('ALTER TABLE invoice ADD due_at TIMESTAMP NOT NULL');",
                "    }",
                "}",
            ),
            "templates/invoice/index.html.twig": lines(
                "{% extends 'base.html.twig' %}",
                "{% block body %}<h1>Invoices</h1>",
                "{% for i in invoices %}<td>{{ i.dueAt|date('Y-m-d') }}</td>{% endfor %}",
                "{% endblock %}",
            ),
        },
        days_ago=40,
    )
    s.commit(
        "Subscription page: plan badge",
        {
            "templates/subscription/index.html.twig": lines(
                "{% extends 'base.html.twig' %}",
                "{% block body %}<h1>{{ title }}</h1><span class=badge>{{ plan }}</span>",
                "{% endblock %}",
            ),
            "translations/messages.en.yaml": lines(
                "invoice:", "  title: Invoices", "subscription:", "  badge: Current plan"
            ),
        },
        days_ago=20,
    )
    s.commit(
        "Mailer: DSN from the environment",
        {
            "config/packages/mailer.yaml": lines(
                "framework:", "  mailer:", "    dsn: '%env(MAILER_DSN)%'"
            ),
            ".env": lines(
                "APP_ENV=dev",
                "DATABASE_URL=postgresql://app@127.0.0.1/app",
                "MAILER_DSN=null://null",
            ),
        },
        days_ago=8,
    )
    s.intent(
        "Send a reminder email for invoices past their due date (console command run by "
        "cron) and record when the reminder went out",
        {
            "src/Command/SendOverdueRemindersCommand.php": "the new cron command",
            "src/Entity/Invoice.php": "gets reminderSentAt",
        },
        hours_ago=2,
    )
    s.agent(
        {
            "src/Command/SendOverdueRemindersCommand.php": lines(
                "<?php",
                "namespace App\\Command;",
                "",
                "use App\\Repository\\InvoiceRepository;",
                "use Symfony\\Component\\Console\\Attribute\\AsCommand;",
                "use Symfony\\Component\\Mailer\\MailerInterface;",
                "",
                "#[AsCommand(name: 'app:invoices:remind-overdue')]",
                "final class SendOverdueRemindersCommand extends Command",
                "{",
                "    public function __construct(",
                "        private InvoiceRepository $invoices,",
                "        private MailerInterface $mailer,",
                "        private string $reminderFrom,",
                "    ) { parent::__construct(); }",
                "",
                "    protected function execute($input, $output): int",
                "    {",
                "        foreach ($this->invoices->findOverdueWithoutReminder() as $invoice) {",
                "            $this->mailer->send($this->reminderFor($invoice));",
                "            $invoice->markReminderSent(new \\DateTimeImmutable());",
                "        }",
                "        return Command::SUCCESS;",
                "    }",
                "}",
            ),
            "src/Entity/Invoice.php": invoice.replace(
                "    public function getId()",
                "    #[ORM\\Column]\n"
                "    private \\DateTimeImmutable $dueAt;\n"
                "    #[ORM\\Column(nullable: true)]\n"
                "    private ?\\DateTimeImmutable $reminderSentAt = null;\n"
                "    public function markReminderSent(\\DateTimeImmutable $at): void"
                " { $this->reminderSentAt = $at; }\n"
                "    public function getId()",
            ),
            "src/Repository/InvoiceRepository.php": repo.replace(
                "    }\n}",
                "    }\n\n"
                "    /** @return Invoice[] */\n"
                "    public function findOverdueWithoutReminder(): array\n"
                "    {\n"
                "        return $this->createQueryBuilder('i')\n"
                "            ->where('i.dueAt < CURRENT_DATE() AND i.reminderSentAt IS NULL')\n"
                "            ->getQuery()->getResult();\n"
                "    }\n}",
            ),
            "migrations/Version20261126101500.php": lines(
                "<?php",
                "namespace DoctrineMigrations;",
                "final class Version20261126101500 extends AbstractMigration",
                "{",
                "    public function up(Schema $schema): void",
                "    {",
                "        $this->addSql('ALTER TABLE invoice ADD reminder_sent_at TIMESTAMP');",
                "    }",
                "}",
            ),
            "templates/emails/overdue_reminder.html.twig": lines(
                "<p>{{ 'invoice.overdue.body'|trans({'%due%': invoice.dueAt|date}) }}</p>"
            ),
            "translations/messages.en.yaml": lines(
                "invoice:",
                "  title: Invoices",
                "  overdue:",
                "    subject: Your invoice is overdue",
                "    body: 'Your invoice was due on %due%.'",
                "subscription:",
                "  badge: Current plan",
            ),
            "config/services.yaml": lines(
                "services:",
                "  _defaults:",
                "    autowire: true",
                "    autoconfigure: true",
                "    bind:",
                "      string $reminderFrom: '%env(REMINDER_FROM)%'",
                "  App\\:",
                "    resource: '../src/'",
            ),
            ".env": lines(
                "APP_ENV=dev",
                "DATABASE_URL=postgresql://app@127.0.0.1/app",
                "MAILER_DSN=null://null",
                "REMINDER_FROM=billing@example.com",
            ),
            "tests/Command/SendOverdueRemindersCommandTest.php": lines(
                "<?php",
                "namespace App\\Tests\\Command;",
                "final class SendOverdueRemindersCommandTest extends KernelTestCase",
                "{",
                "    public function testRemindsOnlyOnce(): void {}",
                "}",
            ),
            # Drift: the agent turned prod logging up to debug "to see the mails go out".
            "config/packages/prod/monolog.yaml": lines(
                "monolog:",
                "  handlers:",
                "    main:",
                "      type: fingers_crossed",
                "      action_level: debug",
                "      handler: nested",
            ),
            # Drift: a sibling page retitled.
            "src/Controller/SubscriptionController.php": subscription.replace(
                "Your subscription", "Plan & billing"
            ),
            # Drift: php-cs-fixer run over an entity nobody touched.
            "src/Entity/Customer.php": customer.replace(
                "    public function getEmail(): string { return $this->email; }",
                "\n    public function getEmail(): string\n    {\n        return"
                " $this->email;\n    }",
            ),
            # `npm run build` to preview the email styles: Encore's output, never ignored here
            # because Encore came after the recipe's .gitignore.
            "public/build/app.js": "(()=>{var e={};})();\n",
            "public/build/entrypoints.json": '{"entrypoints":{"app":{"js":["/build/app.js"]}}}\n',
            "public/build/manifest.json": '{"build/app.js":"/build/app.js"}\n',
        }
    )
    s.fine(
        "src/Command/SendOverdueRemindersCommand.php",
        "src/Entity/Invoice.php",
        "src/Repository/InvoiceRepository.php",
        "migrations/Version20261126101500.php",
        "templates/emails/overdue_reminder.html.twig",
        "translations/messages.en.yaml",
        "config/services.yaml",  # binds the sender address the command reads
        ".env",  # the REMINDER_FROM default that binding needs
        "tests/Command/SendOverdueRemindersCommandTest.php",
    )
    s.drift(
        "config/packages/prod/monolog.yaml",
        "src/Controller/SubscriptionController.php",
        "src/Entity/Customer.php",
    )
    s.excluded("public/build/app.js", "public/build/entrypoints.json", "public/build/manifest.json")
    s.safe_commit()


# -- 2. Unity: a dash ability, scripts with their .meta files ------------------------------


def unity_dash_ability(s: Scene) -> None:
    """Unity game in a Game/ subfolder (the root .gitignore's anchored /Library/ misses it):
    a dash ability with .meta files, an icon with a space in its name; drift: version
    bump, main menu retitled, spawner refactor; Library/Temp/Logs are excluded."""
    g = "Game/Assets/Scripts"
    controller = lines(
        "using UnityEngine;",
        "",
        "public class PlayerController : MonoBehaviour",
        "{",
        "    [SerializeField] float moveSpeed = 6f;",
        "    [SerializeField] float coyoteTime = 0.12f;",
        "    Rigidbody2D body;",
        "",
        "    void Awake() => body = GetComponent<Rigidbody2D>();",
        "",
        "    void Update()",
        "    {",
        '        var x = Input.GetAxisRaw("Horizontal");',
        "        body.velocity = new Vector2(x * moveSpeed, body.velocity.y);",
        "    }",
        "}",
    )
    hud = lines(
        "using UnityEngine;",
        "using UnityEngine.UI;",
        "",
        "public class Hud : MonoBehaviour",
        "{",
        "    [SerializeField] Slider health;",
        "    public void ShowHealth(float v) => health.value = v;",
        "}",
    )
    coyote = controller.replace(
        "    Rigidbody2D body;", "    Rigidbody2D body;\n    float lastGrounded;"
    )
    hud_flash = hud.replace("}", "    public void Flash() {}\n}", 1)
    menu = lines(
        "using UnityEngine;",
        "using TMPro;",
        "",
        "public class MainMenu : MonoBehaviour",
        "{",
        "    [SerializeField] TMP_Text title;",
        '    void Start() => title.text = "Hollow Lanterns";',
        "}",
    )
    spawner = lines(
        "using UnityEngine;",
        "",
        "public class EnemySpawner : MonoBehaviour",
        "{",
        "    public GameObject prefab;",
        "    public float every = 3f;",
        "    float t;",
        "    void Update()",
        "    {",
        "        t += Time.deltaTime;",
        "        if (t > every) { Instantiate(prefab, transform.position, Quaternion.identity);"
        " t = 0; }",
        "    }",
        "}",
    )
    settings = lines(
        "%YAML 1.1",
        "PlayerSettings:",
        "  companyName: Lantern Works",
        "  productName: Hollow Lanterns",
        "  bundleVersion: 0.4.1",
    )
    inputs = lines(
        "%YAML 1.1",
        "InputManager:",
        "  m_Axes:",
        "  - m_Name: Horizontal",
        "    positiveButton: right",
        "  - m_Name: Jump",
        "    positiveButton: space",
    )
    level = lines(
        "%YAML 1.1",
        "--- !u!1 &100",
        "GameObject:",
        "  m_Name: Player",
        "--- !u!114 &101",
        "MonoBehaviour:",
        "  m_Script: {fileID: 11500000, guid: 6f1c2a0b9e3d4c5a8b7e6d5c4b3a2910}",
    )
    s.commit(
        "Hollow Lanterns: player, enemies, HUD, menu",
        {
            ".gitignore": lines(
                "/[Ll]ibrary/", "/[Tt]emp/", "/[Oo]bj/", "/[Ll]ogs/", "*.csproj", "*.sln"
            ),
            "README.md": lines("# Hollow Lanterns", "", "Open `Game/` in Unity 2022.3 LTS."),
            f"{g}/Player/PlayerController.cs": controller,
            f"{g}/Player/PlayerController.cs.meta": _unity_meta("6f1c2a0b9e3d4c5a8b7e6d5c4b3a2910"),
            f"{g}/Player/PlayerHealth.cs": lines(
                "using UnityEngine;",
                "public class PlayerHealth : MonoBehaviour { public float hp = 3; }",
            ),
            f"{g}/Player/PlayerHealth.cs.meta": _unity_meta("0a9b8c7d6e5f40312233445566778899"),
            f"{g}/Enemies/EnemySpawner.cs": spawner,
            f"{g}/Enemies/EnemySpawner.cs.meta": _unity_meta("11223344556677889900aabbccddeeff"),
            f"{g}/UI/Hud.cs": hud.replace(
                "    public void ShowHealth(float v) => health.value = v;\n", ""
            ),
            f"{g}/UI/Hud.cs.meta": _unity_meta("ffeeddccbbaa00998877665544332211"),
            f"{g}/UI/MainMenu.cs": menu,
            f"{g}/UI/MainMenu.cs.meta": _unity_meta("abcdefabcdefabcdefabcdefabcdef01"),
            "Game/Assets/Scenes/Level1.unity": level,
            "Game/Assets/Scenes/Level1.unity.meta": _unity_meta(
                "5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a", "DefaultImporter"
            ),
            "Game/Assets/Scenes/Main Menu.unity": lines(
                "%YAML 1.1", "--- !u!1 &1", "GameObject:", "  m_Name: Canvas"
            ),
            "Game/Assets/Scenes/Main Menu.unity.meta": _unity_meta(
                "6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b", "DefaultImporter"
            ),
            "Game/Assets/Tests/EditMode/EditModeTests.asmdef": lines(
                "{", '  "name": "EditModeTests",', '  "includePlatforms": ["Editor"]', "}"
            ),
            "Game/Assets/Tests/EditMode/PlayerHealthTests.cs": lines(
                "using NUnit.Framework;",
                "public class PlayerHealthTests { [Test] public void StartsWithThree() {} }",
            ),
            "Game/Assets/Tests/EditMode/PlayerHealthTests.cs.meta": _unity_meta(
                "7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c"
            ),
            "Game/ProjectSettings/ProjectSettings.asset": settings,
            "Game/ProjectSettings/InputManager.asset": inputs,
            "Game/ProjectSettings/ProjectVersion.txt": lines("m_EditorVersion: 2022.3.21f1"),
            "Game/Packages/manifest.json": lines(
                "{", '  "dependencies": { "com.unity.textmeshpro": "3.0.6" }', "}"
            ),
        },
        days_ago=50,
    )
    s.commit(
        "HUD: health bar wired to the player",
        {
            f"{g}/UI/Hud.cs": hud,
            f"{g}/Player/PlayerHealth.cs": lines(
                "using UnityEngine;",
                "public class PlayerHealth : MonoBehaviour",
                "{",
                "    public float hp = 3;",
                "    [SerializeField] Hud hud;",
                "}",
            ),
            "Game/Assets/Scenes/Level1.unity": level + "  hud: {fileID: 300}\n",
        },
        days_ago=30,
    )
    s.commit(
        "Player: coyote time, shown as a HUD flash",
        {
            f"{g}/Player/PlayerController.cs": coyote,
            f"{g}/UI/Hud.cs": hud_flash,
        },
        days_ago=10,
    )
    s.intent(
        "Add a dash to the player: press Dash (Left Shift / pad B) for a short burst, "
        "with a cooldown shown on the HUD",
        {f"{g}/Player/PlayerController.cs": "movement", f"{g}/UI/Hud.cs": "cooldown display"},
        hours_ago=1,
    )
    before = s.checkpoint("before the dash work")
    s.agent(
        {
            f"{g}/Player/PlayerController.cs": coyote.replace(
                "    void Update()\n    {",
                '    void Update()\n    {\n        if (Input.GetButtonDown("Dash")) '
                "dash.TryDash(body);",
            ).replace("    Rigidbody2D body;", "    Rigidbody2D body;\n    DashAbility dash;"),
            f"{g}/Player/DashAbility.cs": lines(
                "using UnityEngine;",
                "",
                "public class DashAbility : MonoBehaviour",
                "{",
                "    [SerializeField] float force = 14f;",
                "    [SerializeField] float cooldown = 0.8f;",
                "    float readyAt;",
                "    public float Remaining => Mathf.Max(0, readyAt - Time.time);",
                "    public void TryDash(Rigidbody2D body) { if (Remaining > 0) return; }",
                "}",
            ),
            f"{g}/Player/DashAbility.cs.meta": _unity_meta("d45ab17c0e9f4b2a9c3d7e8f10213243"),
            f"{g}/UI/Hud.cs": hud_flash.replace(
                "    public void Flash() {}\n",
                "    public void Flash() {}\n"
                "    [SerializeField] Image dashIcon;\n"
                "    public void ShowDash(float left) => dashIcon.fillAmount = 1 - left;\n",
            ),
            "Game/Assets/Art/UI/Dash Icon.png": PNG,
            "Game/Assets/Art/UI/Dash Icon.png.meta": _unity_meta(
                "e1e2e3e4e5e6e7e8e9e0f1f2f3f4f5f6", "TextureImporter"
            ),
            "Game/Assets/Tests/EditMode/DashAbilityTests.cs": lines(
                "using NUnit.Framework;",
                "public class DashAbilityTests { [Test] public void RespectsCooldown() {} }",
            ),
            "Game/Assets/Tests/EditMode/DashAbilityTests.cs.meta": _unity_meta(
                "9d9d9d9d9d9d9d9d9d9d9d9d9d9d9d9d"
            ),
            "Game/ProjectSettings/InputManager.asset": inputs
            + lines(
                "  - m_Name: Dash",
                "    positiveButton: left shift",
                "    altPositiveButton: joystick button 1",
            ),
            # The DashAbility component added to the Player object in the level.
            "Game/Assets/Scenes/Level1.unity": level
            + "  hud: {fileID: 300}\n"
            + lines(
                "--- !u!114 &102",
                "MonoBehaviour:",
                "  m_Script: {fileID: 11500000, guid: d45ab17c0e9f4b2a9c3d7e8f10213243}",
            ),
            # Drift: nobody asked for a release number.
            "Game/ProjectSettings/ProjectSettings.asset": settings.replace("0.4.1", "0.5.0"),
            # Drift: the title screen retitled.
            f"{g}/UI/MainMenu.cs": menu.replace('"Hollow Lanterns"', '"Hollow Lanterns: Dash!"'),
            # Drift: an unrelated "cleanup" of the spawner into a coroutine.
            f"{g}/Enemies/EnemySpawner.cs": lines(
                "using System.Collections;",
                "using UnityEngine;",
                "",
                "public class EnemySpawner : MonoBehaviour",
                "{",
                "    public GameObject prefab;",
                "    public float every = 3f;",
                "    IEnumerator Start()",
                "    {",
                "        while (true) { yield return new WaitForSeconds(every);"
                " Instantiate(prefab, transform.position, Quaternion.identity); }",
                "    }",
                "}",
            ),
            # What the editor writes while recompiling: never committed.
            "Game/Library/ScriptAssemblies/Assembly-CSharp.dll": DLL,
            "Game/Library/ArtifactDB": LMDB,
            "Game/Library/SourceAssetDB": LMDB,
            "Game/Temp/UnityLockfile": b"",
            "Game/Logs/AssetImportWorker0.log": "Start importing Assets/Art/UI/Dash Icon.png\n",
            "Game/Assembly-CSharp.csproj": '<Project ToolsVersion="4.0"></Project>\n',
        }
    )
    s.fine(
        f"{g}/Player/PlayerController.cs",
        f"{g}/Player/DashAbility.cs",
        f"{g}/Player/DashAbility.cs.meta",  # Unity needs it committed with the script
        f"{g}/UI/Hud.cs",
        "Game/Assets/Art/UI/Dash Icon.png",
        "Game/Assets/Art/UI/Dash Icon.png.meta",
        "Game/Assets/Tests/EditMode/DashAbilityTests.cs",
        "Game/Assets/Tests/EditMode/DashAbilityTests.cs.meta",
        "Game/ProjectSettings/InputManager.asset",  # the Dash button the feature reads
        "Game/Assets/Scenes/Level1.unity",  # the component attached to the player
    )
    s.drift(
        "Game/ProjectSettings/ProjectSettings.asset",
        f"{g}/UI/MainMenu.cs",
        f"{g}/Enemies/EnemySpawner.cs",
    )
    # The IDE project file Unity regenerates is ignored by the unanchored `*.csproj`, so
    # it is no change at all and is not listed.
    s.excluded(
        "Game/Library/ScriptAssemblies/Assembly-CSharp.dll",
        "Game/Library/ArtifactDB",
        "Game/Library/SourceAssetDB",
        "Game/Temp/UnityLockfile",
        "Game/Logs/AssetImportWorker0.log",
    )
    s.safe_checkpoint(before)


# -- 3. Haskell (stack + hpack): a --json flag ------------------------------------------------


def _cabal(deps: str) -> str:
    """The .cabal file hpack writes from package.yaml (tracked, never edited by hand)."""
    return lines(
        "cabal-version: 2.2",
        "",
        "-- This file has been generated from package.yaml by hpack version 0.36.0.",
        "--",
        "-- see: https://github.com/sol/hpack",
        "",
        "name:           ledger-tool",
        "version:        0.3.0",
        "",
        "library",
        "  exposed-modules:",
        "      Ledger.Config",
        "      Ledger.Parse",
        "      Ledger.Report",
        *(["      Ledger.Report.Json"] if "aeson" in deps else []),
        "      Ledger.Types",
        "  hs-source-dirs: src",
        f"  build-depends: {deps}",
    )


def haskell_report_json(s: Scene) -> None:
    """Haskell stack project: `ledger report --json`. The hpack-generated .cabal and
    .stack-work/ output are excluded; drift: a resolver bump and a reformatted module.
    A checkpoint mid-session, after the first (clean) turn, is the safe point."""
    deps = "base >=4.7 && <5, containers, text, megaparsec"
    package = lines(
        "name: ledger-tool",
        "version: 0.3.0",
        "dependencies:",
        "  - base >= 4.7 && < 5",
        "  - containers",
        "  - text",
        "  - megaparsec",
        "library:",
        "  source-dirs: src",
        "executables:",
        "  ledger:",
        "    main: Main.hs",
        "    source-dirs: app",
        "    dependencies: [ledger-tool, optparse-applicative]",
        "tests:",
        "  ledger-test:",
        "    main: Spec.hs",
        "    source-dirs: test",
        "    dependencies: [ledger-tool, hspec]",
    )
    report = lines(
        "module Ledger.Report (Balance (..), balances, renderTable) where",
        "",
        "import qualified Data.Map.Strict as M",
        "import Data.Text (Text)",
        "import Ledger.Types",
        "",
        "data Balance = Balance {account :: Text, amount :: Amount}",
        "",
        "balances :: [Posting] -> [Balance]",
        "balances ps = [Balance a m | (a, m) <- M.toList (M.fromListWith (<>) (pairs ps))]",
        "",
        "renderTable :: [Balance] -> Text",
        "renderTable = foldMap row",
    )
    main = lines(
        "module Main (main) where",
        "",
        "import Ledger.Config (loadConfig)",
        "import Ledger.Report",
        "import Options.Applicative",
        "",
        "data Opts = Opts {file :: FilePath, prefix :: Maybe String}",
        "",
        "main :: IO ()",
        "main = do",
        "  cfg <- loadConfig",
        "  opts <- execParser (info (parser cfg) fullDesc)",
        "  run opts",
    )
    config = lines(
        "module Ledger.Config (Config (..), loadConfig) where",
        "",
        "import System.Directory (getHomeDirectory)",
        "",
        "data Config = Config { defaultFile :: FilePath , currency :: String }",
        "",
        "loadConfig :: IO Config",
        'loadConfig = do { home <- getHomeDirectory ; pure (Config (home <> "/.ledger") "EUR") }',
    )
    config_now = config.replace("/.ledger", "/.ledgerrc")
    report_now = report.replace(
        "renderTable = foldMap row",
        "renderTable = foldMap row\n\nbyPrefix :: Text -> [Balance] -> [Balance]\n"
        "byPrefix p = filter (T.isPrefixOf p . account)",
    )
    stack = lines("resolver: lts-21.25", "packages:", "  - .")
    spec = lines(
        "module Ledger.ReportSpec (spec) where",
        "",
        "import Ledger.Report",
        "import Test.Hspec",
        "",
        "spec :: Spec",
        'spec = describe "balances" $ it "sums per account" $ pending',
    )
    s.commit(
        "ledger-tool: parse and report balances",
        {
            # From the cabal days; nobody added .stack-work/ after moving to stack.
            ".gitignore": lines("dist-newstyle/"),
            "package.yaml": package,
            "ledger-tool.cabal": _cabal(deps),
            "stack.yaml": stack,
            "stack.yaml.lock": lines("packages: []", "snapshots:", "- original: lts-21.25"),
            "README.md": lines("# ledger-tool", "", "`ledger report FILE` prints balances."),
            "CHANGELOG.md": lines("# Changelog", "", "## 0.3.0", "- Report by account prefix"),
            "app/Main.hs": main,
            "src/Ledger/Types.hs": lines(
                "module Ledger.Types where",
                "",
                "newtype Amount = Amount Rational",
                "data Posting = Posting {pAccount :: Text, pAmount :: Amount}",
            ),
            "src/Ledger/Parse.hs": lines(
                "module Ledger.Parse (parseJournal) where",
                "",
                "import Text.Megaparsec",
            ),
            "src/Ledger/Config.hs": config,
            "src/Ledger/Report.hs": report,
            "test/Spec.hs": lines("{-# OPTIONS_GHC -F -pgmF hspec-discover #-}"),
            "test/Ledger/ReportSpec.hs": spec,
            "test/Ledger/ParseSpec.hs": lines("module Ledger.ParseSpec (spec) where"),
        },
        days_ago=70,
    )
    s.commit(
        "Parse: multi-currency amounts",
        {
            "src/Ledger/Parse.hs": lines(
                "module Ledger.Parse (parseJournal, amountP) where",
                "",
                "import Text.Megaparsec",
            ),
            "src/Ledger/Types.hs": lines(
                "module Ledger.Types where",
                "",
                "data Amount = Amount {commodity :: Text, quantity :: Rational}",
                "data Posting = Posting {pAccount :: Text, pAmount :: Amount}",
            ),
            "test/Ledger/ParseSpec.hs": lines(
                "module Ledger.ParseSpec (spec) where", "-- amounts with commodities"
            ),
        },
        days_ago=45,
    )
    s.commit(
        "Report: group by account prefix (--prefix)",
        {
            "src/Ledger/Report.hs": report_now,
            "app/Main.hs": main,
            "test/Ledger/ReportSpec.hs": spec + "-- byPrefix keeps only matching accounts\n",
        },
        days_ago=25,
    )
    s.commit(
        "Config: read ~/.ledgerrc",
        {"src/Ledger/Config.hs": config_now},
        days_ago=12,
    )
    s.intent(
        "Add a --json flag to `ledger report` that prints the balances as JSON",
        {"src/Ledger/Report.hs": "balances to render", "app/Main.hs": "the CLI flag"},
        hours_ago=3,
    )
    # Turn 1: the encoder and its dependency; the agent ran `stack build`.
    s.agent(
        {
            "src/Ledger/Report.hs": report_now.replace(
                "module Ledger.Report (Balance (..), balances, renderTable) where",
                "module Ledger.Report (Balance (..), balances, renderTable, renderJson) where",
            )
            + "\nrenderJson :: [Balance] -> LByteString\nrenderJson = encode . map toJsonBalance\n",
            "src/Ledger/Report/Json.hs": lines(
                "module Ledger.Report.Json (toJsonBalance) where",
                "",
                "import Data.Aeson",
                "",
                "toJsonBalance :: Balance -> Value",
                'toJsonBalance b = object ["account" .= account b, "amount" .= show (amount b)]',
            ),
            "package.yaml": package.replace("  - megaparsec", "  - megaparsec\n  - aeson"),
            "ledger-tool.cabal": _cabal(deps + ", aeson"),
            ".stack-work/dist/x86_64-linux/ghc-9.6.4/build/Ledger/Report/Json.hi": GHC_HI,
            ".stack-work/dist/x86_64-linux/ghc-9.6.4/build/Ledger/Report/Json.o": ELF,
            ".stack-work/install/x86_64-linux/lts-21.25/9.6.4/bin/ledger": ELF,
        }
    )
    mid = s.checkpoint("report --json: encoder compiles")
    # Turn 2: the flag, a test, a changelog line — and two things nobody asked for.
    s.agent(
        {
            "app/Main.hs": main.replace(
                "data Opts = Opts {file :: FilePath, prefix :: Maybe String}",
                "data Opts = Opts {file :: FilePath, prefix :: Maybe String, asJson :: Bool}",
            )
            + lines(
                "",
                "jsonFlag :: Parser Bool",
                'jsonFlag = switch (long "json" <> help "Print the balances as JSON")',
            ),
            "test/Ledger/ReportSpec.hs": spec
            + "-- byPrefix keeps only matching accounts\n"
            + "-- renderJson emits one object per account\n",
            "CHANGELOG.md": lines(
                "# Changelog",
                "",
                "## Unreleased",
                "- `ledger report --json`",
                "",
                "## 0.3.0",
                "- Report by account prefix",
            ),
            # Drift: a new LTS snapshot nobody asked for (changes every dependency).
            "stack.yaml": stack.replace("lts-21.25", "lts-22.7"),
            # Drift: fourmolu run over a module the feature never touches.
            "src/Ledger/Config.hs": lines(
                "module Ledger.Config (",
                "    Config (..),",
                "    loadConfig,",
                ") where",
                "",
                "import System.Directory (getHomeDirectory)",
                "",
                "data Config = Config",
                "    { defaultFile :: FilePath",
                "    , currency :: String",
                "    }",
                "",
                "loadConfig :: IO Config",
                "loadConfig = do",
                "    home <- getHomeDirectory",
                '    pure (Config (home <> "/.ledgerrc") "EUR")',
            ),
        }
    )
    s.fine(
        "src/Ledger/Report.hs",
        "src/Ledger/Report/Json.hs",
        "package.yaml",  # aeson, which the new module imports
        "app/Main.hs",
        "test/Ledger/ReportSpec.hs",
        "CHANGELOG.md",
    )
    s.drift("stack.yaml", "src/Ledger/Config.hs")
    # ledger-tool.cabal says it is hpack's output of package.yaml: regenerated, excluded.
    s.excluded(
        "ledger-tool.cabal",
        ".stack-work/dist/x86_64-linux/ghc-9.6.4/build/Ledger/Report/Json.hi",
        ".stack-work/dist/x86_64-linux/ghc-9.6.4/build/Ledger/Report/Json.o",
        ".stack-work/install/x86_64-linux/lts-21.25/9.6.4/bin/ledger",
    )
    s.safe_checkpoint(mid)


# -- 4. Elm: a tag filter on the search page ---------------------------------------------------


def elm_recipe_tag_filter(s: Scene) -> None:
    """Elm front end: tag chips on the search page. The tracked compiled public/main.js is
    excluded; drift: a sibling page retitled, a failing test deleted, an elm-review rule
    switched off. No checkpoint: the commit is the safe point."""
    search = lines(
        "module Page.Search exposing (Model, Msg, init, update, view)",
        "",
        "import Api.Recipes as Api",
        "import Html exposing (..)",
        "import Ui.Card as Card",
        "",
        "type alias Model = { query : String, results : List Api.Recipe }",
        "",
        "type Msg",
        "    = QueryChanged String",
        "    | Debounced String",
        "    | GotResults (Result Http.Error (List Api.Recipe))",
        "",
        "view : Model -> Html Msg",
        "view model =",
        "    div [] [ input [ onInput QueryChanged ] [], div [] (List.map Card.view"
        " model.results) ]",
    )
    api = lines(
        "module Api.Recipes exposing (Recipe, search)",
        "",
        "import Http",
        "import Url.Builder as Url",
        "",
        "search : String -> (Result Http.Error (List Recipe) -> msg) -> Cmd msg",
        "search q toMsg =",
        '    Http.get { url = Url.absolute [ "api", "recipes" ] [ Url.string "q" q ],'
        " expect = expectRecipes toMsg }",
    )
    favorites = lines(
        "module Page.Favorites exposing (view)",
        "",
        "import Html exposing (..)",
        "",
        "view : List Recipe -> Html msg",
        'view recipes = section [] [ h1 [] [ text "My favourites" ], ul [] (List.map item'
        " recipes) ]",
    )
    review = lines(
        "module ReviewConfig exposing (config)",
        "",
        "import NoUnused.Variables",
        "import NoDebug.Log",
        "",
        "config =",
        "    [ NoUnused.Variables.rule",
        "    , NoDebug.Log.rule",
        "    ]",
    )
    search_test = lines(
        "module Page.SearchTest exposing (suite)",
        "",
        "import Expect",
        "import Test exposing (..)",
        "",
        'suite = describe "search" [ test "debounces" <| \\_ -> Expect.pass ]',
    )
    css = lines(".card { border-radius: 8px; }", ".empty { color: #777; }")
    s.commit(
        "Recipe box: Elm front end",
        {
            ".gitignore": lines("elm-stuff/", "node_modules/"),
            "elm.json": lines(
                "{",
                '    "type": "application",',
                '    "source-directories": ["src"],',
                '    "elm-version": "0.19.1",',
                '    "dependencies": { "direct": { "elm/core": "1.0.5", "elm/http": "2.0.0",'
                ' "elm/url": "1.0.0" } }',
                "}",
            ),
            "package.json": lines(
                "{",
                '  "scripts": { "build": "elm make src/Main.elm --optimize'
                ' --output=public/main.js" },',
                '  "devDependencies": { "elm": "^0.19.1-6", "elm-test": "^0.19.1-revision12" }',
                "}",
            ),
            "review/elm.json": lines("{", '    "type": "application"', "}"),
            "review/src/ReviewConfig.elm": review,
            "src/Main.elm": lines("module Main exposing (main)", "", "import Route"),
            "src/Route.elm": lines("module Route exposing (Route(..))", "", "type Route = Search"),
            "src/Page/Search.elm": search.replace("    | Debounced String\n", ""),
            "src/Page/Profile.elm": lines("module Page.Profile exposing (view)"),
            "src/Api/Recipes.elm": api.replace('Url.string "q" q', 'Url.string "query" q'),
            "src/Ui/Card.elm": lines("module Ui.Card exposing (view)"),
            "tests/Page/SearchTest.elm": search_test.replace('"debounces"', '"finds by name"'),
            "tests/Page/ProfileTest.elm": lines(
                "module Page.ProfileTest exposing (suite)",
                "",
                'suite = test "shows the display name" <| \\_ -> Expect.equal 1 1',
            ),
            "public/index.html": lines('<script src="/main.js"></script>'),
            "public/style.css": css,
            # Tracked because the host serves public/ as it is: `npm run build` rewrites it.
            "public/main.js": "(function(scope){'use strict';var _Page_Search=1;}(this));\n",
        },
        days_ago=80,
    )
    s.commit(
        "Favorites page",
        {
            "src/Page/Favorites.elm": favorites,
            "src/Route.elm": lines(
                "module Route exposing (Route(..))", "", "type Route = Search | Favorites"
            ),
            "src/Main.elm": lines("module Main exposing (main)", "", "import Page.Favorites"),
        },
        days_ago=50,
    )
    s.commit(
        "Search: debounce the input",
        {
            "src/Page/Search.elm": search,
            "src/Api/Recipes.elm": api,
            "tests/Page/SearchTest.elm": search_test,
        },
        days_ago=30,
    )
    s.commit(
        "Profile: avatar upload",
        {
            "src/Page/Profile.elm": lines("module Page.Profile exposing (view)", "-- avatar"),
            "tests/Page/ProfileTest.elm": lines(
                "module Page.ProfileTest exposing (suite)",
                "",
                'suite = test "shows the avatar" <| \\_ -> Expect.equal 1 1',
            ),
        },
        days_ago=14,
    )
    s.commit(
        "Search: empty state",
        {
            "src/Page/Search.elm": search.replace("    div [] [", '    div [ class "search" ] ['),
            "public/style.css": css + ".search input { width: 100%; }\n",
            "public/main.js": "(function(scope){'use strict';var _Page_Search=2;}(this));\n",
        },
        days_ago=5,
    )
    s.intent(
        "Let users filter the recipe search by tags: chips under the search box, "
        "several tags combine",
        {"src/Page/Search.elm": "the search page"},
        patches=["src/Page/Search.elm", "src/Ui/TagChip.elm"],
        hours_ago=1,
    )
    s.agent(
        {
            "src/Page/Search.elm": search.replace("    div [] [", '    div [ class "search" ] [')
            .replace("{ query : String,", "{ query : String, tags : Set String,")
            .replace("    | Debounced String", "    | Debounced String\n    | TagToggled String"),
            "src/Ui/TagChip.elm": lines(
                "module Ui.TagChip exposing (view)",
                "",
                "import Html exposing (..)",
                "",
                "view : { tag : String, on : Bool, toggle : String -> msg } -> Html msg",
                'view c = button [ class "tag-chip", onClick (c.toggle c.tag) ] [ text c.tag ]',
            ),
            "src/Api/Recipes.elm": api.replace(
                "search : String ->", "search : String -> List String ->"
            )
            .replace("search q toMsg", "search q tags toMsg")
            .replace(
                '[ Url.string "q" q ]', '(Url.string "q" q :: List.map (Url.string "tag") tags)'
            ),
            "tests/Page/SearchTest.elm": search_test.replace(
                "Expect.pass ]", 'Expect.pass, test "tags combine" <| \\_ -> Expect.pass ]'
            ),
            "public/style.css": css
            + ".search input { width: 100%; }\n.tag-chip { border-radius: 999px; }\n",
            "public/main.js": "(function(scope){'use strict';var _Page_Search=3;}(this));\n",
            # Drift: the sibling page retitled.
            "src/Page/Favorites.elm": favorites.replace("My favourites", "Saved recipes"),
            # Drift: silencing the linter instead of using the variable it flagged.
            "review/src/ReviewConfig.elm": review.replace(
                "    [ NoUnused.Variables.rule\n    , NoDebug.Log.rule", "    [ NoDebug.Log.rule"
            ),
        },
        # Drift: a profile test that failed on the agent's machine, deleted.
        delete=["tests/Page/ProfileTest.elm"],
    )
    s.fine(
        "src/Page/Search.elm",
        "src/Ui/TagChip.elm",
        "src/Api/Recipes.elm",  # the tags query parameter the filter sends
        "tests/Page/SearchTest.elm",
        "public/style.css",  # the chip style
    )
    s.drift("src/Page/Favorites.elm", "review/src/ReviewConfig.elm", "tests/Page/ProfileTest.elm")
    # `elm make --output=public/main.js`: compiled output, rebuilt by every deploy.
    s.excluded("public/main.js")
    s.safe_commit()


# -- 5. Ktor + Gradle: rate limiting, several checkpoints ------------------------------------


def ktor_orders_rate_limit(s: Scene) -> None:
    """Ktor service (Gradle multi-project): per-API-key rate limiting. Checkpoints before,
    mid-session and after the drift; the mid one (before any drift) is the safe point.
    Drift: prod pool size, a wrapper bump, a sibling route refactor; service/build/ and
    .kotlin/ are excluded (the root .gitignore anchors /build/ to the root)."""
    pkg = "service/src/main/kotlin/com/acme/orders"
    classes = "service/build/classes/kotlin/main"
    versions = lines(
        "[versions]",
        'kotlin = "2.0.21"',
        'ktor = "2.3.12"',
        "",
        "[libraries]",
        'ktor-server-core = { module = "io.ktor:ktor-server-core", version.ref = "ktor" }',
        'ktor-server-netty = { module = "io.ktor:ktor-server-netty", version.ref = "ktor" }',
        'ktor-server-auth = { module = "io.ktor:ktor-server-auth", version.ref = "ktor" }',
    )
    build = lines(
        "plugins {",
        "    alias(libs.plugins.kotlin.jvm)",
        "    alias(libs.plugins.ktor)",
        "}",
        "",
        "dependencies {",
        "    implementation(libs.ktor.server.core)",
        "    implementation(libs.ktor.server.netty)",
        "    implementation(libs.ktor.server.auth)",
        '    testImplementation("io.ktor:ktor-server-test-host")',
        "}",
    )
    app = lines(
        "package com.acme.orders",
        "",
        "import com.acme.orders.plugins.*",
        "import io.ktor.server.application.*",
        "",
        "fun Application.module() {",
        "    configureSecurity()",
        "    configureSerialization()",
        "    configureRouting()",
        "}",
    )
    orders = lines(
        "package com.acme.orders.routes",
        "",
        "import io.ktor.server.routing.*",
        "",
        "fun Route.orderRoutes(service: OrderService) {",
        '    route("/v1/orders") {',
        "        get { call.respond(service.list(call.apiKey())) }",
        "        post { call.respond(HttpStatusCode.Created, service.create(call.receive())) }",
        "    }",
        "}",
    )
    customers = lines(
        "package com.acme.orders.routes",
        "",
        "import io.ktor.server.routing.*",
        "",
        "fun Route.customerRoutes(service: CustomerService) {",
        '    get("/v1/customers/{id}") {',
        '        val id = call.parameters["id"] ?: return@get'
        " call.respond(HttpStatusCode.BadRequest)",
        "        call.respond(service.find(id))",
        "    }",
        "}",
    )
    conf = lines(
        "ktor {",
        "    deployment { port = 8080 }",
        "    application { modules = [ com.acme.orders.ApplicationKt.module ] }",
        "}",
        "db { url = ${?DB_URL}, maximumPoolSize = 10 }",
    )
    prod = lines('include "application.conf"', "db { maximumPoolSize = 30 }")
    wrapper = lines(
        "distributionBase=GRADLE_USER_HOME",
        "distributionUrl=https\\://services.gradle.org/distributions/gradle-8.5-bin.zip",
    )
    s.commit(
        "Orders service: Ktor 2, API-key auth",
        {
            ".gitignore": lines("/build/", ".gradle/", ".idea/", "local.properties"),
            "settings.gradle.kts": lines(
                'rootProject.name = "orders"', 'include("service", "client-sdk")'
            ),
            "build.gradle.kts": lines("plugins { alias(libs.plugins.kotlin.jvm) apply false }"),
            "gradle.properties": lines("org.gradle.jvmargs=-Xmx2g", "kotlin.code.style=official"),
            "gradle/libs.versions.toml": versions,
            "gradle/wrapper/gradle-wrapper.properties": wrapper,
            "gradlew": lines(
                "#!/bin/sh", 'exec java -jar "$APP_HOME/gradle/wrapper/gradle-wrapper.jar" "$@"'
            ),
            "service/build.gradle.kts": build,
            f"{pkg}/Application.kt": app,
            f"{pkg}/plugins/Security.kt": lines(
                "package com.acme.orders.plugins", "", "fun Application.configureSecurity() {}"
            ),
            f"{pkg}/plugins/Serialization.kt": lines(
                "package com.acme.orders.plugins", "", "fun Application.configureSerialization() {}"
            ),
            f"{pkg}/plugins/Routing.kt": lines(
                "package com.acme.orders.plugins", "", "fun Application.configureRouting() {}"
            ),
            f"{pkg}/routes/OrderRoutes.kt": orders.replace("call.apiKey()", ""),
            f"{pkg}/routes/CustomerRoutes.kt": customers,
            f"{pkg}/service/OrderService.kt": lines(
                "package com.acme.orders.service", "class OrderService"
            ),
            "service/src/main/resources/application.conf": conf,
            "service/src/main/resources/application-prod.conf": prod,
            "service/src/main/resources/logback.xml": lines("<configuration/>"),
            "service/src/test/kotlin/com/acme/orders/OrderRoutesTest.kt": lines(
                "package com.acme.orders", "class OrderRoutesTest"
            ),
            "service/src/test/kotlin/com/acme/orders/CustomerRoutesTest.kt": lines(
                "package com.acme.orders", "class CustomerRoutesTest"
            ),
            "client-sdk/build.gradle.kts": lines("plugins { alias(libs.plugins.kotlin.jvm) }"),
            "client-sdk/src/main/kotlin/com/acme/orders/client/OrdersClient.kt": lines(
                "package com.acme.orders.client", "class OrdersClient(val baseUrl: String)"
            ),
        },
        days_ago=45,
    )
    s.commit(
        "Orders: API key required on /v1/orders",
        {
            f"{pkg}/routes/OrderRoutes.kt": orders,
            f"{pkg}/plugins/Security.kt": lines(
                "package com.acme.orders.plugins",
                "",
                "fun Application.configureSecurity() { install(Authentication) {"
                ' apiKey("orders") } }',
            ),
            "service/src/test/kotlin/com/acme/orders/OrderRoutesTest.kt": lines(
                "package com.acme.orders", "class OrderRoutesTest { /* 401 without a key */ }"
            ),
        },
        days_ago=20,
    )
    s.commit(
        "Client SDK: list orders; route test for the SDK's query",
        {
            "client-sdk/src/main/kotlin/com/acme/orders/client/OrdersClient.kt": lines(
                "package com.acme.orders.client",
                "class OrdersClient(val baseUrl: String, val apiKey: String) {",
                "    suspend fun list() =",
                '        http.get("$baseUrl/v1/orders") { header("X-Api-Key", apiKey) }',
                "}",
            ),
            "service/src/test/kotlin/com/acme/orders/OrderRoutesTest.kt": lines(
                "package com.acme.orders",
                "class OrderRoutesTest { /* 401 without a key; list as the SDK calls it */ }",
            ),
        },
        days_ago=9,
    )
    s.intent(
        "Rate-limit the /v1/orders endpoints per API key (429 with Retry-After)",
        {
            f"{pkg}/routes/OrderRoutes.kt": "the routes to limit",
            f"{pkg}/plugins/RateLimiting.kt": "new plugin",
        },
        hours_ago=2,
    )
    s.checkpoint("before rate limiting")
    s.agent(
        {
            f"{pkg}/plugins/RateLimiting.kt": lines(
                "package com.acme.orders.plugins",
                "",
                "import io.ktor.server.plugins.ratelimit.*",
                "",
                'val OrdersLimit = RateLimitName("orders")',
                "",
                "fun Application.configureRateLimiting() {",
                "    val perMinute ="
                ' environment.config.property("rateLimit.ordersPerMinute").getString().toInt()',
                "    install(RateLimit) {",
                "        register(OrdersLimit) {",
                "            rateLimiter(limit = perMinute, refillPeriod = 60.seconds)",
                "            requestKey { call -> call.apiKey() }",
                "        }",
                "    }",
                "}",
            ),
            f"{pkg}/Application.kt": app.replace(
                "    configureRouting()", "    configureRateLimiting()\n    configureRouting()"
            ),
            "gradle/libs.versions.toml": versions
            + 'ktor-server-rate-limit = { module = "io.ktor:ktor-server-rate-limit",'
            ' version.ref = "ktor" }\n',
            "service/build.gradle.kts": build.replace(
                "    implementation(libs.ktor.server.auth)",
                "    implementation(libs.ktor.server.auth)\n"
                "    implementation(libs.ktor.server.rate.limit)",
            ),
            f"{classes}/com/acme/orders/plugins/RateLimitingKt.class": CLASS,
            "service/build/libs/service-all.jar": JAR,
            ".kotlin/sessions/kotlin-compiler-4417839210.salive": b"",
        }
    )
    mid = s.checkpoint("rate limiter plugin compiles")
    s.agent(
        {
            f"{pkg}/routes/OrderRoutes.kt": orders.replace(
                '    route("/v1/orders") {', '    rateLimit(OrdersLimit) { route("/v1/orders") {'
            ).replace("    }\n}", "    } }\n}"),
            "service/src/main/resources/application.conf": conf
            + "rateLimit { ordersPerMinute = 120, ordersPerMinute = ${?ORDERS_PER_MINUTE} }\n",
            "service/src/test/kotlin/com/acme/orders/RateLimitingTest.kt": lines(
                "package com.acme.orders",
                "",
                "class RateLimitingTest {",
                "    @Test fun `121st request in a minute gets 429 with Retry-After`() ="
                " testApplication {}",
                "}",
            ),
            # Drift: the production pool resized while "tuning" for the load test.
            "service/src/main/resources/application-prod.conf": prod.replace("30", "80"),
            # Drift: a Gradle upgrade nobody asked for.
            "gradle/wrapper/gradle-wrapper.properties": wrapper.replace("8.5", "8.10.2"),
            # Drift: the customers route rewritten in the "same style".
            f"{pkg}/routes/CustomerRoutes.kt": customers.replace(
                '        val id = call.parameters["id"] ?: return@get'
                " call.respond(HttpStatusCode.BadRequest)\n"
                "        call.respond(service.find(id))",
                '        call.respond(service.find(call.parameters.getOrFail("id")))',
            ),
            ".kotlin/errors/errors-1732612345678.log": "kotlin daemon: connection reset\n",
        }
    )
    s.checkpoint("after the second turn")
    s.fine(
        f"{pkg}/plugins/RateLimiting.kt",
        f"{pkg}/Application.kt",
        "gradle/libs.versions.toml",  # the rate-limit plugin's catalog entry
        "service/build.gradle.kts",
        f"{pkg}/routes/OrderRoutes.kt",
        "service/src/main/resources/application.conf",  # the limit the plugin reads
        "service/src/test/kotlin/com/acme/orders/RateLimitingTest.kt",
    )
    s.drift(
        "service/src/main/resources/application-prod.conf",
        "gradle/wrapper/gradle-wrapper.properties",
        f"{pkg}/routes/CustomerRoutes.kt",
    )
    s.excluded(
        f"{classes}/com/acme/orders/plugins/RateLimitingKt.class",
        "service/build/libs/service-all.jar",
        ".kotlin/sessions/kotlin-compiler-4417839210.salive",
        ".kotlin/errors/errors-1732612345678.log",
    )
    # The last checkpoint that holds none of the drift: restoring from it keeps the plugin.
    s.safe_checkpoint(mid)


# -- 6. A notebook experiment repo: a new model, the user's own notes -------------------------


def notebook_churn_gbm(s: Scene) -> None:
    """ML experiment repo: LightGBM against the logistic baseline. The user wrote a note
    by hand and took a checkpoint before the agent ran (the safe point: it keeps the
    note). Drift: a re-executed exploration notebook (spaced, non-ASCII name), changed
    features and seed (they break the comparison); mlruns/ and .ipynb_checkpoints/ are
    excluded."""
    explore = "notebooks/01 Exploration données.ipynb"
    features = lines(
        '"""Feature engineering for the churn model."""',
        "import pandas as pd",
        "",
        "TENURE_BINS = [0, 6, 12, 24, 48, 120]",
        "",
        "",
        "def build(df: pd.DataFrame) -> pd.DataFrame:",
        '    out = df.assign(tenure_bucket=pd.cut(df["tenure_months"], TENURE_BINS))',
        '    return pd.get_dummies(out, columns=["plan", "tenure_bucket"])',
    )
    train = lines(
        '"""Train a churn model: python train.py --config configs/logreg.yaml"""',
        "import argparse",
        "",
        "import yaml",
        "",
        "from churn import data, features",
        "from churn.models import logreg",
        "",
        "",
        "def main() -> None:",
        "    p = argparse.ArgumentParser()",
        '    p.add_argument("--config", required=True)',
        "    cfg = yaml.safe_load(open(p.parse_args().config))",
        '    x, y = data.split(features.build(data.load()), seed=cfg["seed"])',
        "    logreg.fit(x, y, **cfg['model'])",
    )
    compare = _notebook(
        ("markdown", "# Model comparison\nSame split, same features.", None),
        ("code", "from churn.models import logreg\nauc_lr = logreg.evaluate()", "AUC 0.781\n"),
    )
    explore_nb = _notebook(
        ("markdown", "# Exploration des données", None),
        ("code", "df = data.load()\ndf.churned.mean()", "0.264\n"),
        ("code", "df.tenure_months.describe()", "count 7043\nmean 32.4\n"),
    )
    params = lines("seed: 42", "test_size: 0.2")
    s.commit(
        "Churn: data loading, features, logistic baseline",
        {
            ".gitignore": lines("data/raw/", "__pycache__/", ".venv/"),
            "README.md": lines("# churn", "", "`make train` then open notebooks/03."),
            "requirements.txt": lines(
                "pandas==2.2.2", "scikit-learn==1.5.1", "pyyaml==6.0.1", "mlflow==2.14.1"
            ),
            "Makefile": lines("train:", "\tpython train.py --config configs/logreg.yaml"),
            "params.yaml": params,
            "train.py": train.replace(', seed=cfg["seed"]', ""),
            "src/churn/__init__.py": "",
            "src/churn/data.py": lines(
                "import pandas as pd",
                "",
                "def load() -> pd.DataFrame:",
                '    return pd.read_csv("data/raw/telco.csv")',
            ),
            "src/churn/features.py": features.replace(
                'df.assign(tenure_bucket=pd.cut(df["tenure_months"], TENURE_BINS))', "df"
            ).replace(', "tenure_bucket"', ""),
            "src/churn/models/__init__.py": "",
            "src/churn/models/logreg.py": lines(
                "from sklearn.linear_model import LogisticRegression",
                "",
                "def fit(x, y, **kw): ...",
            ),
            "configs/logreg.yaml": lines("seed: 42", "model:", "  C: 1.0"),
            "tests/test_features.py": lines(
                "from churn import features", "", "def test_buckets_cover_tenure(): ..."
            ),
            "tests/test_logreg.py": lines("def test_fit_runs(): ..."),
            explore: explore_nb,
            "notebooks/02_features.ipynb": _notebook(
                ("code", "features.build(df).shape", "(7043, 31)\n")
            ),
            "NOTES.md": lines("# Notes", "", "## 2026-10-02", "- baseline logreg AUC 0.78"),
        },
        days_ago=40,
    )
    s.commit(
        "Notebook 03: baseline ROC, figure in reports/",
        {
            "notebooks/03_model_comparison.ipynb": compare,
            "reports/figures/roc_logreg.png": PNG,
            "train.py": train,
        },
        days_ago=20,
    )
    s.commit(
        "Features: tenure buckets",
        {
            "src/churn/features.py": features,
            "tests/test_features.py": lines(
                "from churn import features",
                "",
                "def test_buckets_cover_tenure(): ...",
                "def test_dummies(): ...",
            ),
        },
        days_ago=9,
    )
    s.intent(
        "Try LightGBM for churn and compare it with the logistic baseline in notebook 03 "
        "(same split, same features)",
        {"train.py": "gets --model", "notebooks/03_model_comparison.ipynb": "the comparison"},
        hours_ago=1,
    )
    # The user's own note, typed before handing over to the agent.
    write(
        s.root,
        "NOTES.md",
        lines(
            "# Notes",
            "",
            "## 2026-10-02",
            "- baseline logreg AUC 0.78",
            "",
            "## Today",
            "- GBM: keep features and seed fixed, compare AUC on the same split",
        ),
    )
    before = s.checkpoint("my notes, before the agent")
    s.agent(
        {
            "train.py": train.replace(
                "from churn.models import logreg", "from churn.models import gbm, logreg"
            ).replace(
                "    logreg.fit(x, y, **cfg['model'])",
                "    model = gbm if cfg.get('kind') == 'gbm' else logreg\n"
                "    model.fit(x, y, **cfg['model'])",
            ),
            "src/churn/models/gbm.py": lines(
                "import lightgbm as lgb",
                "",
                "",
                "def fit(x, y, **kw):",
                "    return lgb.LGBMClassifier(**kw).fit(x, y)",
            ),
            "configs/gbm.yaml": lines(
                "kind: gbm", "seed: 42", "model:", "  num_leaves: 31", "  learning_rate: 0.05"
            ),
            "requirements.txt": lines(
                "pandas==2.2.2",
                "scikit-learn==1.5.1",
                "pyyaml==6.0.1",
                "mlflow==2.14.1",
                "lightgbm==4.5.0",
            ),
            "tests/test_gbm.py": lines(
                "from churn.models import gbm", "", "def test_fit_returns_classifier(): ..."
            ),
            "notebooks/03_model_comparison.ipynb": _notebook(
                ("markdown", "# Model comparison\nSame split, same features.", None),
                (
                    "code",
                    "from churn.models import logreg\nauc_lr = logreg.evaluate()",
                    "AUC 0.781\n",
                ),
                ("code", "from churn.models import gbm\nauc_gbm = gbm.evaluate()", "AUC 0.842\n"),
            ),
            # Debatable: a figure is output, but this repo commits its report figures (the
            # baseline's is tracked) and this one is the comparison the user asked for.
            "reports/figures/roc_gbm_vs_logreg.png": PNG + b"gbm",
            # Drift: the agent re-ran the exploration notebook: new outputs, nothing asked.
            explore: explore_nb.replace("0.264", "0.2654").replace("mean 32.4", "mean 32.37"),
            # Drift: new tenure bins change the baseline's features (the note says keep them).
            "src/churn/features.py": features.replace(
                "[0, 6, 12, 24, 48, 120]", "[0, 3, 6, 12, 24, 36, 48, 72, 120]"
            ),
            # Drift: another seed means another split: the comparison is no longer like for like.
            "params.yaml": params.replace("seed: 42", "seed: 7"),
            # MLflow's run store and Jupyter's autosave: never committed.
            "mlruns/0/7f3c9a1e/meta.yaml": lines("run_id: 7f3c9a1e", "status: 3"),
            "mlruns/0/7f3c9a1e/metrics/auc": "1764160000000 0.842 0\n",
            "mlruns/0/7f3c9a1e/artifacts/model/model.pkl": PICKLE,
            "notebooks/.ipynb_checkpoints/03_model_comparison-checkpoint.ipynb": compare,
        }
    )
    s.fine(
        "NOTES.md",  # the user's own hand edit: theirs, not the agent's drift
        "train.py",
        "src/churn/models/gbm.py",
        "configs/gbm.yaml",
        "requirements.txt",  # lightgbm, which the new module imports
        "tests/test_gbm.py",
        "notebooks/03_model_comparison.ipynb",
        "reports/figures/roc_gbm_vs_logreg.png",
    )
    s.drift(explore, "src/churn/features.py", "params.yaml")
    s.excluded(
        "mlruns/0/7f3c9a1e/meta.yaml",
        "mlruns/0/7f3c9a1e/metrics/auc",
        "mlruns/0/7f3c9a1e/artifacts/model/model.pkl",
        "notebooks/.ipynb_checkpoints/03_model_comparison-checkpoint.ipynb",
    )
    s.safe_checkpoint(before)


# -- 7. Remix: empty memory, a rename nobody asked for ----------------------------------------


def remix_newsletter_no_memory(s: Scene) -> None:
    """Remix blog, memory empty (the user asked in the chat only: a newsletter signup in
    the footer). Drift: a component renamed to kebab-case (both paths and the header's
    import), the home hero retitled, a post page reformatted, a framework bump;
    Playwright's report and results are excluded."""
    footer = lines(
        'import { SocialLinks } from "./SocialLinks";',
        "",
        "export function Footer() {",
        "  return (",
        '    <footer className="mt-16 border-t py-8">',
        "      <SocialLinks />",
        "      <p>© {new Date().getFullYear()} Field Notes</p>",
        "    </footer>",
        "  );",
        "}",
    )
    header = lines(
        'import { Link } from "@remix-run/react";',
        'import { SocialLinks } from "./SocialLinks";',
        "",
        "export function Header() {",
        '  return <header><Link to="/">Field Notes</Link><SocialLinks compact /></header>;',
        "}",
    )
    social = lines(
        "export function SocialLinks({ compact = false }: { compact?: boolean }) {",
        '  return <nav aria-label="social">{compact ? null : "Follow"} …</nav>;',
        "}",
    )
    index = lines(
        'import type { MetaFunction } from "@remix-run/node";',
        "",
        'export const meta: MetaFunction = () => [{ title: "Field Notes" }];',
        "",
        "export default function Index() {",
        '  return <h1 className="text-4xl">Notes from the field</h1>;',
        "}",
    )
    post = lines(
        'import { json, type LoaderFunctionArgs } from "@remix-run/node";',
        'import { useLoaderData } from "@remix-run/react";',
        'import { getPost } from "~/lib/posts.server";',
        "",
        "export async function loader({ params }: LoaderFunctionArgs) {",
        "  const post = await getPost(params.slug!); if (!post) throw new Response(null, {"
        " status: 404 });",
        "  return json({ post })",
        "}",
        "",
        "export default function Post() {",
        "  const { post } = useLoaderData<typeof loader>()",
        "  return <article dangerouslySetInnerHTML={{ __html: post.html }} />",
        "}",
    )
    package = lines(
        "{",
        '  "name": "field-notes",',
        '  "type": "module",',
        '  "scripts": { "dev": "remix vite:dev", "build": "remix vite:build", "e2e":'
        ' "playwright test" },',
        '  "dependencies": {',
        '    "@remix-run/node": "^2.9.2",',
        '    "@remix-run/react": "^2.9.2",',
        '    "react": "^18.3.1"',
        "  },",
        '  "devDependencies": { "@playwright/test": "^1.44.0", "vite": "^5.2.11" }',
        "}",
    )
    env = lines("DATABASE_URL=file:./dev.db", "SESSION_SECRET=change-me")
    s.commit(
        "Field Notes: Remix + Vite blog",
        {
            ".gitignore": lines("node_modules", "/.cache", "/build", ".env"),
            "package.json": package,
            "package-lock.json": lines(
                "{", '  "name": "field-notes",', '  "lockfileVersion": 3', "}"
            ),
            "vite.config.ts": lines(
                'import { vitePlugin as remix } from "@remix-run/dev";',
                "export default { plugins: [remix()] };",
            ),
            "tsconfig.json": lines('{ "compilerOptions": { "paths": { "~/*": ["./app/*"] } } }'),
            "tailwind.config.ts": lines('export default { content: ["./app/**/*.tsx"] };'),
            "playwright.config.ts": lines('export default { testDir: "e2e" };'),
            ".env.example": env,
            "app/root.tsx": lines(
                'import { Footer } from "./components/Footer";',
                'import { Header } from "./components/Header";',
            ),
            "app/routes/_index.tsx": index,
            "app/routes/blog._index.tsx": lines("export default function Blog() { return null; }"),
            "app/routes/blog.$slug.tsx": post.replace(
                " if (!post) throw new Response(null, { status: 404 });", ""
            ),
            "app/components/Footer.tsx": footer.replace(
                'import { SocialLinks } from "./SocialLinks";\n\n', ""
            ).replace("      <SocialLinks />\n", ""),
            "app/components/Header.tsx": header.replace(
                'import { SocialLinks } from "./SocialLinks";\n', ""
            ).replace("<SocialLinks compact />", ""),
            "app/lib/posts.server.ts": lines("export async function getPost(slug: string) {}"),
            "app/lib/db.server.ts": lines("export const db = {};"),
            "e2e/home.spec.ts": lines('test("home shows the title", async ({ page }) => {});'),
        },
        days_ago=35,
    )
    s.commit(
        "Footer: social links, also in the header",
        {
            "app/components/Footer.tsx": footer,
            "app/components/Header.tsx": header,
            "app/components/SocialLinks.tsx": social,
        },
        days_ago=21,
    )
    s.commit(
        "Posts: 404 for unknown slugs",
        {
            "app/routes/blog.$slug.tsx": post,
            "app/lib/posts.server.ts": lines(
                "export async function getPost(slug: string) { return null; }"
            ),
        },
        days_ago=6,
    )
    s.intent(None)
    s.agent(
        {
            "app/components/Footer.tsx": lines(
                'import { NewsletterForm } from "./NewsletterForm";',
                'import { SocialLinks } from "./social-links";',
                "",
                "export function Footer() {",
                "  return (",
                '    <footer className="mt-16 border-t py-8">',
                "      <NewsletterForm />",
                "      <SocialLinks />",
                "      <p>© {new Date().getFullYear()} Field Notes</p>",
                "    </footer>",
                "  );",
                "}",
            ),
            "app/components/NewsletterForm.tsx": lines(
                'import { useFetcher } from "@remix-run/react";',
                "",
                "export function NewsletterForm() {",
                "  const fetcher = useFetcher<{ ok: boolean }>();",
                '  return <fetcher.Form method="post" action="/newsletter">'
                '<input name="email" type="email" required /></fetcher.Form>;',
                "}",
            ),
            "app/routes/newsletter.tsx": lines(
                'import { json, type ActionFunctionArgs } from "@remix-run/node";',
                'import { subscribe } from "~/lib/newsletter.server";',
                "",
                "export async function action({ request }: ActionFunctionArgs) {",
                '  const email = String((await request.formData()).get("email") ?? "");',
                "  return json({ ok: await subscribe(email) });",
                "}",
            ),
            "app/lib/newsletter.server.ts": lines(
                "const KEY = process.env.BUTTONDOWN_API_KEY;",
                "",
                "export async function subscribe(email: string): Promise<boolean> {",
                '  const r = await fetch("https://api.buttondown.email/v1/subscribers", {',
                '    method: "POST", headers: { Authorization: `Token ${KEY}` },',
                "    body: JSON.stringify({ email }),",
                "  });",
                "  return r.ok;",
                "}",
            ),
            ".env.example": env + "BUTTONDOWN_API_KEY=\n",
            "e2e/newsletter.spec.ts": lines(
                'test("footer signup shows a thank-you", async ({ page }) => {});'
            ),
            # Drift, part of the rename: the header only follows the new file name.
            "app/components/Header.tsx": header.replace('"./SocialLinks"', '"./social-links"'),
            # Drift: the home page's hero retitled.
            "app/routes/_index.tsx": index.replace(
                "Notes from the field", "Never miss a field note"
            ),
            # Drift: prettier over a route nobody touched.
            "app/routes/blog.$slug.tsx": post.replace(
                "  const post = await getPost(params.slug!); if (!post) throw new"
                " Response(null, { status: 404 });",
                "  const post = await getPost(params.slug!);\n"
                "  if (!post) throw new Response(null, { status: 404 });",
            )
            .replace("json({ post })", "json({ post });")
            .replace("useLoaderData<typeof loader>()", "useLoaderData<typeof loader>();"),
            # Drift: a Remix bump in package.json, not asked for (no lockfile change).
            "package.json": package.replace('"^2.9.2"', '"^2.15.0"'),
            "playwright-report/index.html": (
                "<!DOCTYPE html><title>Playwright Test Report</title>\n"
            ),
            "test-results/.last-run.json": '{"status": "passed", "failedTests": []}\n',
        },
        # Drift: a rename to kebab-case nobody asked for.
        rename={"app/components/SocialLinks.tsx": "app/components/social-links.tsx"},
    )
    s.fine(
        # The footer also follows the rename, but the signup form is what it is for.
        "app/components/Footer.tsx",
        "app/components/NewsletterForm.tsx",
        "app/routes/newsletter.tsx",
        "app/lib/newsletter.server.ts",
        ".env.example",  # the key the helper reads
        "e2e/newsletter.spec.ts",
    )
    s.drift(
        "app/components/SocialLinks.tsx",
        "app/components/social-links.tsx",
        "app/components/Header.tsx",
        "app/routes/_index.tsx",
        "app/routes/blog.$slug.tsx",
        "package.json",
    )
    s.excluded("playwright-report/index.html", "test-results/.last-run.json")
    s.safe_commit()


# -- 8. Pulumi (TypeScript): stale memory, an explicit file renamed since ------------------


def pulumi_stale_cdn(s: Scene) -> None:
    """Pulumi TS program: a CDN for the staging assets bucket. Memory is six days old and
    names infra/storage.ts, renamed to infra/buckets.ts in a commit since; the checkpoint
    from that day predates two commits, so the commit is the safe point. Drift: the
    production stack's config, a reformatted module, a provider bump; bin/ (tsc's
    outDir) is excluded."""
    staging = lines(
        "config:",
        "  aws:region: eu-west-1",
        "  assets:bucketName: fieldnotes-assets-staging",
    )
    production = lines(
        "config:",
        "  aws:region: eu-west-1",
        "  assets:bucketName: fieldnotes-assets",
        "  db:instanceClass: db.t4g.medium",
    )
    index = lines(
        'import { assetsBucket } from "./infra/storage";',
        'import { vpc } from "./infra/network";',
        'import { db } from "./infra/database";',
        "",
        "export const bucketName = assetsBucket.bucket;",
        "export const vpcId = vpc.vpcId;",
        "export const dbEndpoint = db.endpoint;",
    )
    storage = lines(
        'import * as aws from "@pulumi/aws";',
        'import * as pulumi from "@pulumi/pulumi";',
        "",
        'const cfg = new pulumi.Config("assets");',
        'export const assetsBucket = new aws.s3.BucketV2("assets", { bucket:'
        ' cfg.require("bucketName") });',
    )
    block = (
        'export const block = new aws.s3.BucketPublicAccessBlock("assets", {\n'
        "  bucket: assetsBucket.id, blockPublicAcls: true, blockPublicPolicy: true,\n"
        "});\n"
    )
    network = lines(
        'import * as awsx from "@pulumi/awsx";',
        "",
        'export const vpc = new awsx.ec2.Vpc("main", {numberOfAvailabilityZones: 2,'
        ' natGateways: {strategy: "Single"}});',
    )
    database = lines(
        'import * as aws from "@pulumi/aws";',
        "",
        'export const db = new aws.rds.Instance("main", { engine: "postgres",'
        ' instanceClass: "db.t4g.micro" });',
    )
    package = lines(
        "{",
        '  "name": "fieldnotes-infra",',
        '  "main": "bin/index.js",',
        '  "devDependencies": { "typescript": "^5.4.5", "vitest": "^1.6.0" },',
        '  "dependencies": {',
        '    "@pulumi/aws": "^6.9.0",',
        '    "@pulumi/awsx": "^2.4.0",',
        '    "@pulumi/pulumi": "^3.113.0"',
        "  }",
        "}",
    )
    s.commit(
        "Infra: VPC and database as a Pulumi program",
        {
            ".gitignore": lines("node_modules/"),
            "Pulumi.yaml": lines("name: fieldnotes-infra", "runtime: nodejs", "main: bin/index.js"),
            "Pulumi.production.yaml": production,
            "package.json": package,
            "package-lock.json": lines("{", '  "lockfileVersion": 3', "}"),
            "tsconfig.json": lines('{ "compilerOptions": { "outDir": "bin", "strict": true } }'),
            "README.md": lines("# fieldnotes-infra", "", "`npm run build && pulumi up -s staging`"),
            "index.ts": index.replace(
                'import { assetsBucket } from "./infra/storage";\n', ""
            ).replace("export const bucketName = assetsBucket.bucket;\n", ""),
            "infra/network.ts": network,
            "infra/database.ts": database,
        },
        days_ago=90,
    )
    s.commit(
        "Staging stack: assets bucket",
        {
            "infra/storage.ts": storage,
            "index.ts": index,
            "Pulumi.staging.yaml": staging,
            "tests/storage.test.ts": lines('test("bucket name comes from config", () => {});'),
        },
        days_ago=40,
    )
    s.commit(
        "Assets bucket: block public access",
        {
            "infra/storage.ts": storage + block,
            "tests/storage.test.ts": lines(
                'test("bucket name comes from config", () => {});',
                'test("public access is blocked", () => {});',
            ),
        },
        days_ago=7,
    )
    s.intent(
        "Put a CloudFront CDN in front of the staging assets bucket (origin access control, "
        "cache policy for /static)",
        {"infra/storage.ts": "the assets bucket", "index.ts": "stack outputs"},
        hours_ago=6 * 24,
    )
    s.checkpoint("before the CDN")
    buckets = storage + block
    s.commit(
        "Split storage.ts: buckets.ts (bucket + access block)",
        {
            "infra/buckets.ts": buckets,
            "index.ts": index.replace("./infra/storage", "./infra/buckets"),
            "tests/buckets.test.ts": lines(
                'test("bucket name comes from config", () => {});',
                'test("public access is blocked", () => {});',
            ),
        },
        delete=["infra/storage.ts", "tests/storage.test.ts"],
        days_ago=4,
    )
    s.commit(
        "Database: nightly snapshots on staging",
        {
            "infra/database.ts": database.replace(
                'instanceClass: "db.t4g.micro"',
                'instanceClass: "db.t4g.micro", backupRetentionPeriod: 7',
            ),
            "Pulumi.staging.yaml": staging + "  db:backupRetentionDays: 7\n",
        },
        days_ago=2,
    )
    s.agent(
        {
            "infra/cdn.ts": lines(
                'import * as aws from "@pulumi/aws";',
                'import * as pulumi from "@pulumi/pulumi";',
                'import { assetsBucket } from "./buckets";',
                "",
                'const cfg = new pulumi.Config("assets");',
                'const oac = new aws.cloudfront.OriginAccessControl("assets", {',
                '  originAccessControlOriginType: "s3", signingBehavior: "always",'
                ' signingProtocol: "sigv4",',
                "});",
                'export const cdn = new aws.cloudfront.Distribution("assets", {',
                "  enabled: true,",
                '  priceClass: cfg.get("cdnPriceClass") ?? "PriceClass_100",',
                '  origins: [{ originId: "s3", domainName: assetsBucket.bucketRegionalDomainName,'
                " originAccessControlId: oac.id }],",
                "});",
            ),
            "infra/buckets.ts": buckets
            + lines(
                'export const cdnReadPolicy = new aws.s3.BucketPolicy("assets-cdn", {',
                "  bucket: assetsBucket.id,",
                "  policy: cdnOnlyPolicy(assetsBucket.arn),",
                "});",
            ),
            "index.ts": index.replace("./infra/storage", "./infra/buckets").replace(
                'import { db } from "./infra/database";',
                'import { db } from "./infra/database";\nimport { cdn } from "./infra/cdn";',
            )
            + "export const cdnDomain = cdn.domainName;\n",
            "Pulumi.staging.yaml": staging
            + "  db:backupRetentionDays: 7\n  assets:cdnPriceClass: PriceClass_100\n",
            "tests/cdn.test.ts": lines(
                'test("the bucket is only readable through the CDN", () => {});'
            ),
            # Drift: the intent is the staging stack; production got the CDN setting too,
            # and a bigger database "for the CDN traffic".
            "Pulumi.production.yaml": production.replace("db.t4g.medium", "db.r6g.large")
            + "  assets:cdnPriceClass: PriceClass_All\n",
            # Drift: prettier over a module the CDN never touches.
            "infra/network.ts": lines(
                'import * as awsx from "@pulumi/awsx";',
                "",
                'export const vpc = new awsx.ec2.Vpc("main", {',
                "  numberOfAvailabilityZones: 2,",
                '  natGateways: { strategy: "Single" },',
                "});",
            ),
            # Drift: a provider major-range jump nobody asked for (npm install not re-run).
            "package.json": package.replace('"^6.9.0"', '"^6.60.0"').replace(
                '"^3.113.0"', '"^3.140.0"'
            ),
            # `npm run build`: tsc's output, committed nowhere.
            "bin/index.js": (
                '"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\n'
            ),
            "bin/infra/cdn.js": '"use strict";\nexports.cdn = void 0;\n',
            "bin/infra/buckets.js": '"use strict";\nexports.assetsBucket = void 0;\n',
        }
    )
    s.fine(
        "infra/cdn.ts",
        "infra/buckets.ts",  # the explicit infra/storage.ts, renamed since the intent was set
        "index.ts",
        "Pulumi.staging.yaml",  # the staging stack's CDN setting
        "tests/cdn.test.ts",
    )
    s.drift("Pulumi.production.yaml", "infra/network.ts", "package.json")
    s.excluded("bin/index.js", "bin/infra/cdn.js", "bin/infra/buckets.js")
    # The checkpoint predates the split and the snapshot commits: restoring from it
    # would bring storage.ts back and undo committed work. The commit is the safe point.
    s.safe_commit()


# -- 9. A C library with autotools: streaming decoder, what autoreconf/configure leave --------


def autotools_b85_stream(s: Scene) -> None:
    """C library (autotools): a streaming decoder replacing a stub (a fine deletion).
    autoreconf/configure output is excluded (configure and Makefile.in tracked, the rest
    not ignored). The user adds a NEWS line by hand; a checkpoint after the first turn
    already holds drift (a version bump, a reformatted encoder): the commit is safe."""
    header = lines(
        "#ifndef B85_H",
        "#define B85_H",
        "#include <stddef.h>",
        "",
        "size_t b85_encode(const unsigned char *in, size_t n, char *out);",
        "int b85_decode(const char *in, size_t n, unsigned char *out, size_t *outlen);",
        "",
        "/* Streaming decode: not implemented yet (see stream_stub.c). */",
        "#endif",
    )
    decode = lines(
        '#include "b85.h"',
        '#include "util.h"',
        "",
        "int b85_decode(const char *in, size_t n, unsigned char *out, size_t *outlen)",
        "{",
        "    size_t o = 0;",
        "    for (size_t i = 0; i + 5 <= n; i += 5) o += decode_block(in + i, out + o);",
        "    *outlen = o;",
        "    return 0;",
        "}",
    )
    encode = lines(
        '#include "b85.h"',
        '#include "util.h"',
        "",
        "size_t b85_encode(const unsigned char *in, size_t n, char *out) {",
        "  size_t o = 0;",
        "  for (size_t i = 0; i < n; i += 4) { o += encode_block(in + i, n - i < 4 ? n - i"
        " : 4, out + o); }",
        "  return o;",
        "}",
    )
    configure_ac = lines(
        "AC_INIT([libb85], [1.2.0], [bugs@b85.example.org])",
        "AC_CONFIG_SRCDIR([src/encode.c])",
        "AC_CONFIG_MACRO_DIRS([m4])",
        "AM_INIT_AUTOMAKE([foreign subdir-objects])",
        "LT_INIT",
        "AC_PROG_CC",
        "AC_CONFIG_HEADERS([config.h])",
        "AC_CONFIG_FILES([Makefile src/Makefile tests/Makefile])",
        "AC_OUTPUT",
    )
    src_am = lines(
        "lib_LTLIBRARIES = libb85.la",
        "libb85_la_SOURCES = encode.c decode.c util.c stream_stub.c",
        "libb85_la_LDFLAGS = -version-info 3:0:1",
        "include_HEADERS = ../include/b85.h",
        "bin_PROGRAMS = b85-inspect",
        "b85_inspect_SOURCES = inspect.c",
        "b85_inspect_LDADD = libb85.la",
    )
    tests_am = lines(
        "check_PROGRAMS = test_encode test_decode",
        "TESTS = $(check_PROGRAMS)",
        "LDADD = ../src/libb85.la",
    )
    news = lines("libb85 NEWS", "", "1.2.0", "  * b85_decode reports the output length.")

    def generated(version: str, tests: str) -> dict[str, str | bytes]:
        """What `autoreconf -fi && ./configure && make` leaves in the tree."""
        head = "# Generated by GNU Autoconf 2.72 for libb85 " + version + ".\n"
        made = "# Makefile.in generated by automake 1.16.5 from Makefile.am.\n"
        return {
            "configure": "#! /bin/sh\n" + head + "PACKAGE_VERSION='" + version + "'\n",
            "Makefile.in": made + "PACKAGE_VERSION = " + version + "\n",
            "src/Makefile.in": made + "libb85_la_SOURCES = encode.c decode.c util.c\n",
            "tests/Makefile.in": made + tests,
            "aclocal.m4": "# generated automatically by aclocal 1.16.5 -*- Autoconf -*-\n",
            "config.h.in": "/* config.h.in.  Generated from configure.ac by autoheader.  */\n",
            "autom4te.cache/requests": "# This file was generated by Autom4te 2.72.\n",
            "config.log": "This file contains any messages produced by compilers while\n",
            "config.status": "#! /bin/sh\n# Generated by configure.\n",
            "libtool": "#! /bin/sh\n# Generated automatically by config.status (libb85) "
            + version
            + "\n",
            "Makefile": "# Makefile.  Generated from Makefile.in by configure.\n",
            "src/Makefile": "# src/Makefile.  Generated from Makefile.in by configure.\n",
            "src/b85-inspect": ELF,
        }

    s.commit(
        "libb85 1.2.0",
        {
            # Only objects are ignored: autoreconf's and configure's files show up.
            ".gitignore": lines("*.o", "*.lo", "*.la", ".libs/", ".deps/"),
            "configure.ac": configure_ac,
            "Makefile.am": lines(
                "SUBDIRS = src tests", "ACLOCAL_AMFLAGS = -I m4", "dist_man_MANS = doc/b85.3"
            ),
            "autogen.sh": lines("#!/bin/sh", "exec autoreconf -fi"),
            "src/Makefile.am": src_am,
            "tests/Makefile.am": tests_am,
            "include/b85.h": header.replace(", size_t *outlen", ""),
            "src/encode.c": encode,
            "src/decode.c": decode.replace(", size_t *outlen", "").replace(
                "    *outlen = o;\n", ""
            ),
            "src/util.c": lines('#include "util.h"', "/* block helpers */"),
            "src/util.h": lines("int decode_block(const char *in, unsigned char *out);"),
            "src/inspect.c": lines('#include "b85.h"', "int main(void) { return 0; }"),
            "src/stream_stub.c": lines(
                '#include "b85.h"', "/* TODO: streaming decoder (b85_decoder_*). */"
            ),
            "tests/test_encode.c": lines('#include "b85.h"', "int main(void) { return 0; }"),
            "tests/test_decode.c": lines('#include "b85.h"', "int main(void) { return 0; }"),
            "doc/b85.3": lines(".TH B85 3", ".SH NAME", "b85_encode, b85_decode"),
            "NEWS": lines("libb85 NEWS", "", "1.1.0", "  * Z85 alphabet."),
            "README": lines(
                "libb85: Ascii85 / Z85 encoding.", "", "./autogen.sh && ./configure && make"
            ),
            "m4/.gitignore": lines("*", "!.gitignore"),
            # Release tarballs are cut from the repository: these two are tracked.
            "configure": "#! /bin/sh\n# Generated by GNU Autoconf 2.72 for libb85 1.2.0.\n",
            "Makefile.in": "# Makefile.in generated by automake 1.16.5 from Makefile.am.\n",
        },
        days_ago=120,
    )
    s.commit(
        "tests: Z85 vectors from the spec",
        {
            "tests/test_encode.c": lines(
                '#include "b85.h"', "/* Z85 spec vectors */", "int main(void) { return 0; }"
            ),
            "README": lines(
                "libb85: Ascii85 / Z85 encoding.",
                "",
                "./autogen.sh && ./configure && make check",
            ),
        },
        days_ago=75,
    )
    s.commit(
        "decode: report the output length",
        {
            "src/decode.c": decode,
            "include/b85.h": header,
            "tests/test_decode.c": lines(
                '#include "b85.h"', "int main(void) { /* outlen */ return 0; }"
            ),
            "NEWS": news,
        },
        days_ago=30,
    )
    s.intent(
        "Add a streaming decoder API (b85_decoder_init / _update / _final) that replaces the "
        "stub in src/stream_stub.c",
        {"include/b85.h": "public API", "src/decode.c": "block decoding to reuse"},
        hours_ago=2,
    )
    s.agent(
        {
            "include/b85.h": header.replace(
                "/* Streaming decode: not implemented yet (see stream_stub.c). */",
                "typedef struct b85_decoder { unsigned char carry[5]; size_t ncarry; }"
                " b85_decoder;\n"
                "void b85_decoder_init(b85_decoder *d);\n"
                "int b85_decoder_update(b85_decoder *d, const char *in, size_t n,\n"
                "                       unsigned char *out, size_t *outlen);\n"
                "int b85_decoder_final(b85_decoder *d, unsigned char *out, size_t *outlen);",
            ),
            "src/decode.c": decode.replace(
                "int b85_decode(",
                "size_t b85_decode_blocks(const char *in, size_t n, unsigned char *out)\n"
                "{\n    size_t o = 0;\n"
                "    for (size_t i = 0; i + 5 <= n; i += 5) o += decode_block(in + i, out + o);\n"
                "    return o;\n}\n\nint b85_decode(",
            ),
            "src/stream.c": lines(
                "#include <string.h>",
                '#include "b85.h"',
                "",
                "void b85_decoder_init(b85_decoder *d) { memset(d, 0, sizeof *d); }",
                "",
                "int b85_decoder_update(b85_decoder *d, const char *in, size_t n,",
                "                       unsigned char *out, size_t *outlen)",
                "{",
                "    /* top up the carried partial block, then whole blocks, keep the rest */",
                "    return 0;",
                "}",
            ),
            "src/Makefile.am": src_am.replace("stream_stub.c", "stream.c"),
            # Drift: a release number is the maintainer's call, not part of the feature.
            "configure.ac": configure_ac.replace("[1.2.0]", "[1.3.0]"),
            # Drift: clang-format over the encoder.
            "src/encode.c": lines(
                '#include "b85.h"',
                '#include "util.h"',
                "",
                "size_t b85_encode(const unsigned char *in, size_t n, char *out)",
                "{",
                "    size_t o = 0;",
                "    for (size_t i = 0; i < n; i += 4) {",
                "        o += encode_block(in + i, n - i < 4 ? n - i : 4, out + o);",
                "    }",
                "    return o;",
                "}",
            ),
            **generated("1.3.0", ""),
        },
        delete=["src/stream_stub.c"],
    )
    # The user's own NEWS line, typed while the agent worked.
    write(
        s.root,
        "NEWS",
        lines(
            "libb85 NEWS",
            "",
            "Unreleased",
            "  * Streaming decoder: b85_decoder_init/_update/_final.",
            "",
            "1.2.0",
            "  * b85_decode reports the output length.",
        ),
    )
    s.checkpoint("my NEWS line + the agent's first pass")
    s.agent(
        {
            "tests/test_stream.c": lines(
                '#include "b85.h"',
                "/* feed 1, 3 and 7 bytes at a time: same output as b85_decode */",
                "int main(void) { return 0; }",
            ),
            "tests/Makefile.am": tests_am.replace(
                "test_encode test_decode", "test_encode test_decode test_stream"
            ),
            "doc/b85.3": lines(
                ".TH B85 3",
                ".SH NAME",
                "b85_encode, b85_decode, b85_decoder_init, b85_decoder_update, b85_decoder_final",
            ),
            "tests/Makefile.in": "# Makefile.in generated by automake 1.16.5 from Makefile.am.\n"
            "check_PROGRAMS = test_encode$(EXEEXT) test_decode$(EXEEXT) test_stream$(EXEEXT)\n",
        }
    )
    s.fine(
        "include/b85.h",
        "src/decode.c",
        "src/stream.c",
        "src/stream_stub.c",  # deleted: the intent says the new API replaces the stub
        "src/Makefile.am",
        "NEWS",  # the user's own line
        "tests/test_stream.c",
        "tests/Makefile.am",
        "doc/b85.3",
    )
    s.drift("configure.ac", "src/encode.c")
    s.excluded(*generated("1.3.0", ""))
    # The checkpoint holds the version bump and the reformatted encoder already.
    s.safe_commit()


# -- 10. Swift Vapor: password reset, several checkpoints -------------------------------------


def vapor_password_reset(s: Scene) -> None:
    """Swift Vapor service: a password-reset flow with a Fluent migration, a Leaf email
    and a banner image. The first turn mixes drift (a sibling controller, a Dockerfile
    bump) into the work, a checkpoint follows it; the one before the work is safe. The
    Tailwind-built Public/styles/app.css (tracked) is excluded; drift in CI."""
    package = lines(
        "// swift-tools-version:5.9",
        "import PackageDescription",
        "",
        "let package = Package(",
        '    name: "todo-api",',
        "    platforms: [.macOS(.v13)],",
        "    dependencies: [",
        '        .package(url: "https://github.com/vapor/vapor.git", from: "4.99.0"),',
        '        .package(url: "https://github.com/vapor/fluent.git", from: "4.9.0"),',
        '        .package(url: "https://github.com/vapor/leaf.git", from: "4.3.0"),',
        "    ],",
        "    targets: [",
        '        .executableTarget(name: "App", dependencies: [.product(name: "Vapor",'
        ' package: "vapor")]),',
        '        .testTarget(name: "AppTests", dependencies: [.target(name: "App")]),',
        "    ]",
        ")",
    )
    resolved = lines(
        "{",
        '  "originHash" : "a1c3e5",',
        '  "pins" : [',
        '    { "identity" : "vapor", "state" : { "version" : "4.99.3" } }',
        "  ],",
        '  "version" : 3',
        "}",
    )
    auth = lines(
        "import Vapor",
        "",
        "struct AuthController: RouteCollection {",
        "    func boot(routes: RoutesBuilder) throws {",
        '        let auth = routes.grouped("auth")',
        '        auth.post("login", use: login)',
        "    }",
        "",
        "    func login(req: Request) async throws -> UserToken { try await"
        " User.authenticate(req) }",
        "}",
    )
    todo = lines(
        "import Vapor",
        "",
        "struct TodoController: RouteCollection {",
        "    func boot(routes: RoutesBuilder) throws {",
        '        let todos = routes.grouped("todos")',
        "        todos.get(use: index)",
        "        todos.post(use: create)",
        "    }",
        "    func index(req: Request) async throws -> [Todo] { try await Todo.query(on:"
        " req.db).all() }",
        "    func create(req: Request) async throws -> Todo {",
        "        let todo = try req.content.decode(Todo.self); try await todo.save(on:"
        " req.db); return todo",
        "    }",
        "}",
    )
    configure = lines(
        "import Fluent",
        "import Leaf",
        "import Vapor",
        "",
        "public func configure(_ app: Application) async throws {",
        "    app.views.use(.leaf)",
        "    app.migrations.add(CreateUser())",
        "    app.migrations.add(CreateTodo())",
        "    try routes(app)",
        "}",
    )
    dockerfile = lines(
        "FROM swift:5.9-jammy AS build",
        "WORKDIR /build",
        "COPY . .",
        "RUN swift build -c release --static-swift-stdlib",
        "FROM ubuntu:jammy",
        "COPY --from=build /build/.build/release/App /app/App",
        'ENTRYPOINT ["/app/App", "serve", "--hostname", "0.0.0.0"]',
    )
    workflow = lines(
        "name: test",
        "on: [push, pull_request]",
        "jobs:",
        "  test:",
        "    runs-on: ubuntu-latest",
        "    container: swift:5.9-jammy",
        "    services: { postgres: { image: postgres:16 } }",
        "    steps:",
        "      - uses: actions/checkout@v4",
        "      - run: swift test",
    )
    tailwind = "/*! tailwindcss v3.4.3 | MIT License | https://tailwindcss.com */\n"
    css = tailwind + ".btn{border-radius:.375rem}.card{padding:1rem}\n"
    s.commit(
        "todo-api: Vapor 4, Fluent, Leaf",
        {
            ".gitignore": lines(".build/", ".swiftpm/", "Packages/", "*.xcodeproj", ".env"),
            "Package.swift": package,
            "Package.resolved": resolved,
            "Dockerfile": dockerfile,
            "docker-compose.yml": lines("services:", "  db:", "    image: postgres:16"),
            ".github/workflows/test.yml": workflow.replace(
                "    services: { postgres: { image: postgres:16 } }\n", ""
            ),
            "tailwind.config.js": lines(
                "module.exports = { content: ['Resources/Views/**/*.leaf'] };"
            ),
            "Resources/styles/input.css": lines("@tailwind base;", "@tailwind components;"),
            # Built by `npx tailwindcss -i Resources/styles/input.css -o Public/styles/app.css`
            # and tracked, because Vapor's FileMiddleware serves Public/ as it is.
            "Public/styles/app.css": css,
            "Public/images/logo.png": PNG,
            "Sources/App/entrypoint.swift": lines("import Vapor", "@main enum Entrypoint {}"),
            "Sources/App/configure.swift": configure,
            "Sources/App/routes.swift": lines(
                "import Vapor",
                "func routes(_ app: Application) throws {",
                "    try app.register(collection: AuthController())",
                "    try app.register(collection: TodoController())",
                "}",
            ),
            "Sources/App/Controllers/AuthController.swift": auth.replace("-> UserToken", "-> User"),
            "Sources/App/Controllers/TodoController.swift": todo,
            "Sources/App/Models/User.swift": lines(
                "import Fluent", 'final class User: Model { static let schema = "users" }'
            ),
            "Sources/App/Models/Todo.swift": lines(
                "import Fluent", 'final class Todo: Model { static let schema = "todos" }'
            ),
            "Sources/App/Migrations/CreateUser.swift": lines(
                "struct CreateUser: AsyncMigration {}"
            ),
            "Sources/App/Migrations/CreateTodo.swift": lines(
                "struct CreateTodo: AsyncMigration {}"
            ),
            "Resources/Views/welcome-email.leaf": lines(
                '<img src="/images/logo.png"><h1>Welcome</h1>'
            ),
            "Tests/AppTests/AuthTests.swift": lines(
                "@testable import App", "import XCTVapor", "final class AuthTests: XCTestCase {}"
            ),
            "Tests/AppTests/TodoTests.swift": lines(
                "@testable import App", "import XCTVapor", "final class TodoTests: XCTestCase {}"
            ),
            "README.md": lines(
                "# todo-api", "", "## Auth", "", "`POST /auth/login` returns a token."
            ),
        },
        days_ago=55,
    )
    s.commit(
        "CI: run the tests against Postgres",
        {
            ".github/workflows/test.yml": workflow,
            "docker-compose.yml": lines(
                "services:", "  db:", "    image: postgres:16", "    ports: ['5432:5432']"
            ),
        },
        days_ago=30,
    )
    s.commit(
        "Auth: login returns a bearer token; welcome email",
        {
            "Sources/App/Controllers/AuthController.swift": auth,
            "Sources/App/Models/User.swift": lines(
                "import Fluent",
                'final class User: Model { static let schema = "users"; @Field(key:'
                ' "email") var email: String }',
            ),
            "Tests/AppTests/AuthTests.swift": lines(
                "@testable import App",
                "import XCTVapor",
                "final class AuthTests: XCTestCase { func testLogin() async throws {} }",
            ),
            "Public/styles/app.css": css + ".hero{font-size:2rem}\n",
        },
        days_ago=18,
    )
    s.intent(
        "Add a password-reset flow: POST /auth/reset-request emails a one-time token, "
        "POST /auth/reset sets the new password",
        {"Sources/App/Controllers/AuthController.swift": "the auth routes"},
        hours_ago=3,
    )
    before = s.checkpoint("before password reset")
    s.agent(
        {
            "Sources/App/Controllers/AuthController.swift": auth.replace(
                '        auth.post("login", use: login)',
                '        auth.post("login", use: login)\n'
                '        auth.post("reset-request", use: requestReset)\n'
                '        auth.post("reset", use: reset)',
            ).replace(
                "    func login(req: Request) async throws -> UserToken",
                "    func requestReset(req: Request) async throws -> HTTPStatus {\n"
                '        let email = try req.content.get(String.self, at: "email")\n'
                "        try await PasswordResetToken.issue(for: email, on: req)\n"
                "        return .accepted\n"
                "    }\n\n"
                "    func reset(req: Request) async throws -> HTTPStatus { try await"
                " PasswordResetToken.redeem(req) }\n\n"
                "    func login(req: Request) async throws -> UserToken",
            ),
            "Sources/App/Models/PasswordResetToken.swift": lines(
                "import Fluent",
                "import Vapor",
                "",
                "final class PasswordResetToken: Model {",
                '    static let schema = "password_reset_tokens"',
                "    @ID var id: UUID?",
                '    @Parent(key: "user_id") var user: User',
                '    @Field(key: "token_hash") var tokenHash: String',
                '    @Field(key: "expires_at") var expiresAt: Date',
                "}",
            ),
            "Sources/App/Migrations/CreatePasswordResetToken.swift": lines(
                "import Fluent",
                "",
                "struct CreatePasswordResetToken: AsyncMigration {",
                "    func prepare(on db: Database) async throws {",
                '        try await db.schema("password_reset_tokens").id()',
                '            .field("user_id", .uuid, .required, .references("users", "id"))',
                '            .field("token_hash", .string, .required)',
                '            .field("expires_at", .datetime, .required).create()',
                "    }",
                "}",
            ),
            "Sources/App/configure.swift": configure.replace(
                "    app.migrations.add(CreateTodo())",
                "    app.migrations.add(CreateTodo())\n"
                "    app.migrations.add(CreatePasswordResetToken())\n"
                '    app.smtp.configuration.hostname = Environment.get("SMTP_HOST") ?? "localhost"',
            ),
            "Package.swift": package.replace(
                '        .package(url: "https://github.com/vapor/leaf.git", from: "4.3.0"),',
                '        .package(url: "https://github.com/vapor/leaf.git", from: "4.3.0"),\n'
                '        .package(url: "https://github.com/Mikroservices/Smtp.git", from:'
                ' "3.1.0"),',
            ),
            # The pin for the mail package the reset email needs.
            "Package.resolved": resolved.replace(
                '    { "identity" : "vapor", "state" : { "version" : "4.99.3" } }',
                '    { "identity" : "smtp", "state" : { "version" : "3.1.2" } },\n'
                '    { "identity" : "vapor", "state" : { "version" : "4.99.3" } }',
            ),
            # Drift: the todo controller "modernised" on the way.
            "Sources/App/Controllers/TodoController.swift": todo.replace(
                "        let todo = try req.content.decode(Todo.self); try await"
                " todo.save(on: req.db); return todo",
                "        let todo = try req.content.decode(Todo.self)\n"
                "        try await todo.save(on: req.db)\n"
                "        return todo",
            ).replace("todos.get(use: index)", "todos.get(use: self.index)"),
            # Drift: a toolchain bump in the image nobody asked for.
            "Dockerfile": dockerfile.replace("swift:5.9-jammy", "swift:5.10-jammy"),
        }
    )
    s.checkpoint("reset endpoints compile")
    s.agent(
        {
            "Resources/Views/reset-email.leaf": lines(
                '<img src="/images/reset-banner.png" alt="">',
                '<p class="card">Use this link within 30 minutes: '
                '<a class="btn underline" href="#(resetURL)">Reset password</a></p>',
            ),
            "Public/images/reset-banner.png": PNG + b"reset",
            "Tests/AppTests/AuthTests.swift": lines(
                "@testable import App",
                "import XCTVapor",
                "final class AuthTests: XCTestCase {",
                "    func testLogin() async throws {}",
                "    func testResetTokenExpiresAfterThirtyMinutes() async throws {}",
                "}",
            ),
            "README.md": lines(
                "# todo-api",
                "",
                "## Auth",
                "",
                "`POST /auth/login` returns a token.",
                "`POST /auth/reset-request` emails a reset link; `POST /auth/reset` sets"
                " the password.",
            ),
            "Public/styles/app.css": css
            + ".hero{font-size:2rem}\n.underline{text-decoration:underline}\n",
            # Drift: CI now also runs on macOS, which nobody asked for.
            ".github/workflows/test.yml": workflow.replace(
                "    runs-on: ubuntu-latest",
                "    strategy: { matrix: { os: [ubuntu-latest, macos-14] } }\n"
                "    runs-on: ${{ matrix.os }}",
            ),
        }
    )
    s.fine(
        "Sources/App/Controllers/AuthController.swift",
        "Sources/App/Models/PasswordResetToken.swift",
        "Sources/App/Migrations/CreatePasswordResetToken.swift",
        "Sources/App/configure.swift",  # registers the migration and the SMTP settings
        "Package.swift",  # the mail package the reset email is sent with
        "Package.resolved",
        "Resources/Views/reset-email.leaf",
        "Public/images/reset-banner.png",
        "Tests/AppTests/AuthTests.swift",
        "README.md",
    )
    s.drift(
        "Sources/App/Controllers/TodoController.swift",
        "Dockerfile",
        ".github/workflows/test.yml",
    )
    # Rebuilt by the Tailwind CLI from the templates (the banner text added classes).
    s.excluded("Public/styles/app.css")
    # The checkpoint after the first turn holds the controller refactor and the bump.
    s.safe_checkpoint(before)


FRESH11: list[Scenario] = [
    Scenario(
        name="b11_symfony_overdue_reminders",
        build=symfony_overdue_reminders,
        held_out=False,
        about="Symfony: cron command + entity field + migration; prod log level, sibling "
        "page, formatted entity drift; Encore public/build/ excluded; no checkpoint",
        fresh=True,
        batch=11,
    ),
    Scenario(
        name="b11_unity_dash_ability",
        build=unity_dash_ability,
        held_out=False,
        about="Unity: script + .meta, spaced PNG icon, input axis, scene; version bump, menu "
        "retitle, spawner refactor drift; Library/Temp/Logs excluded; checkpoint before",
        fresh=True,
        batch=11,
    ),
    Scenario(
        name="b11_haskell_report_json",
        build=haskell_report_json,
        held_out=False,
        about="Haskell stack: --json flag; hpack .cabal and .stack-work excluded; resolver "
        "bump and fourmolu drift; mid-session checkpoint is safe",
        fresh=True,
        batch=11,
    ),
    Scenario(
        name="b11_elm_recipe_tag_filter",
        build=elm_recipe_tag_filter,
        held_out=False,
        about="Elm: tag chips; tracked compiled public/main.js excluded; sibling page, "
        "deleted test, elm-review rule off drift; no checkpoint",
        fresh=True,
        batch=11,
    ),
    Scenario(
        name="b11_ktor_orders_rate_limit",
        build=ktor_orders_rate_limit,
        held_out=False,
        about="Ktor multi-project: rate limit plugin not yet existing as explicit; prod conf, "
        "wrapper bump, sibling route drift; module build/ and .kotlin/ excluded; 3 checkpoints",
        fresh=True,
        batch=11,
    ),
    Scenario(
        name="b11_notebook_churn_gbm",
        build=notebook_churn_gbm,
        held_out=False,
        about="Notebook ML repo: new model vs baseline; user's hand-edited NOTES then "
        "checkpoint; re-run non-ASCII spaced notebook, features, seed drift; mlruns excluded",
        fresh=True,
        batch=11,
    ),
    Scenario(
        name="b11_remix_newsletter_no_memory",
        build=remix_newsletter_no_memory,
        held_out=False,
        about="Remix, empty memory: footer newsletter action; unasked kebab-case rename, "
        "hero retitle, prettier, framework bump drift; Playwright output excluded",
        fresh=True,
        batch=11,
    ),
    Scenario(
        name="b11_pulumi_stale_cdn",
        build=pulumi_stale_cdn,
        held_out=False,
        about="Pulumi TS, stale memory naming a since-renamed file, old checkpoint before two "
        "commits; production stack, prettier, provider bump drift; tsc bin/ excluded",
        fresh=True,
        batch=11,
    ),
    Scenario(
        name="b11_autotools_b85_stream",
        build=autotools_b85_stream,
        held_out=False,
        about="C autotools: streaming API replacing a deleted stub; user's NEWS line; version "
        "bump and clang-format drift; autoreconf/configure output excluded; ckpt after drift",
        fresh=True,
        batch=11,
    ),
    Scenario(
        name="b11_vapor_password_reset",
        build=vapor_password_reset,
        held_out=False,
        about="Swift Vapor: reset flow + migration + Leaf mail + PNG; sibling controller, "
        "Dockerfile, CI drift; tracked Tailwind CSS excluded; checkpoint before is safe",
        fresh=True,
        batch=11,
    ),
]
