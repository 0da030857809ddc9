"""Fresh scenarios, batch 10: stacks the earlier batches did not reach.

Written blind — without reading the advisor's rules — so they measure how the
advisor generalises to projects nobody tuned it on: a Hardhat Solidity project, a
PlatformIO firmware, a WordPress plugin, a Shopify theme, an Astro Starlight docs
site, a Deno Fresh app, a Rust crate built with wasm-pack, a Quarkus service, a
Streamlit app and a Neovim plugin. Each is labelled as a careful reviewer would,
reading the intent and the diff; the debatable labels carry the reviewer's reasoning.
"""

from __future__ import annotations

from scenario_kit import Scenario, Scene, lines

WASM = b"\x00asm\x01\x00\x00\x00" + bytes(range(48)) + b"\x07imgfilters"


# -- 1. Hardhat + TypeChain: a cliff for the vesting contract ------------------------------

_HARDHAT_CONFIG = lines(
    'import { HardhatUserConfig } from "hardhat/config";',
    'import "@nomicfoundation/hardhat-toolbox";',
    'import "dotenv/config";',
    "",
    "const config: HardhatUserConfig = {",
    "  solidity: {",
    '    version: "0.8.24",',
    "    settings: { optimizer: { enabled: true, runs: {runs} } },",
    "  },",
    "  networks: {",
    "    sepolia: {",
    '      url: process.env.SEPOLIA_RPC_URL ?? "",',
    "      accounts: process.env.DEPLOYER_KEY ? [process.env.DEPLOYER_KEY] : [],",
    "    },",
    "  },",
    '  typechain: { outDir: "typechain-types", target: "ethers-v6" },',
    "};",
    "",
    "export default config;",
)


def _vesting(body: str, ctor: str = "uint64 start_, uint64 duration_") -> str:
    return lines(
        "// SPDX-License-Identifier: MIT",
        "pragma solidity ^0.8.24;",
        "",
        'import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";',
        'import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";',
        "",
        "/// @notice Linear vesting of one ERC-20 for one beneficiary.",
        "contract TokenVesting {",
        "    using SafeERC20 for IERC20;",
        "",
        "    IERC20 public immutable token;",
        "    address public immutable beneficiary;",
        "    uint64 public immutable start;",
        "    uint64 public immutable duration;",
        "    uint256 public released;",
        "",
        "    event Released(uint256 amount);",
        "",
        f"    constructor(IERC20 token_, address beneficiary_, {ctor}) {{",
        "        token = token_;",
        "        beneficiary = beneficiary_;",
        "        start = start_;",
        "        duration = duration_;",
        "    }",
        "",
        body,
        "}",
    )


_VESTING_BODY = lines(
    "    function vestedAmount(uint64 timestamp) public view returns (uint256) {",
    "        uint256 total = token.balanceOf(address(this)) + released;",
    "        if (timestamp < start) return 0;",
    "        if (timestamp >= start + duration) return total;",
    "        return (total * (timestamp - start)) / duration;",
    "    }",
    "",
    "    function release() external {",
    "        uint256 amount = vestedAmount(uint64(block.timestamp)) - released;",
    "        released += amount;",
    "        emit Released(amount);",
    "        token.safeTransfer(beneficiary, amount);",
    "    }",
)

_VESTING_CLIFF_BODY = lines(
    "    function vestedAmount(uint64 timestamp) public view returns (uint256) {",
    "        uint256 total = token.balanceOf(address(this)) + released;",
    "        if (timestamp < start + cliff) return 0;",
    "        if (timestamp >= start + duration) return total;",
    "        return (total * (timestamp - start)) / duration;",
    "    }",
    "",
    "    function release() external {",
    "        uint256 amount = vestedAmount(uint64(block.timestamp)) - released;",
    "        if (amount == 0) revert NothingToRelease();",
    "        released += amount;",
    "        emit Released(amount);",
    "        token.safeTransfer(beneficiary, amount);",
    "    }",
)


def _treasury(delay: str) -> str:
    return lines(
        "// SPDX-License-Identifier: MIT",
        "pragma solidity ^0.8.24;",
        "",
        'import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";',
        "",
        "contract Treasury is Ownable {",
        f"    uint256 public constant WITHDRAW_DELAY = {delay};",
        "    mapping(bytes32 => uint256) public queuedAt;",
        "",
        "    constructor(address owner_) Ownable(owner_) {}",
        "",
        "    function queue(bytes32 id) external onlyOwner {",
        "        queuedAt[id] = block.timestamp;",
        "    }",
        "",
        "    function execute(bytes32 id, address to, uint256 amount) external onlyOwner {",
        '        require(queuedAt[id] != 0, "not queued");',
        '        require(block.timestamp >= queuedAt[id] + WITHDRAW_DELAY, "too early");',
        "        delete queuedAt[id];",
        "        payable(to).transfer(amount);",
        "    }",
        "",
        "    receive() external payable {}",
        "}",
    )


def _typechain(name: str, extra: str = "", inputs: int = 4) -> dict[str, str]:
    head = (
        "/* Autogenerated file. Do not edit manually. */\n"
        "/* tslint:disable */\n/* eslint-disable */\n"
    )
    return {
        f"typechain-types/contracts/{name}.ts": head
        + lines(
            'import type { BaseContract, BigNumberish, ContractRunner } from "ethers";',
            f"export interface {name}Interface {{ release: unknown;{extra} }}",
            f"export interface {name} extends BaseContract {{",
            "  connect(runner?: ContractRunner | null): this;",
            "  vestedAmount(timestamp: BigNumberish): Promise<bigint>;",
            "}",
        ),
        f"typechain-types/factories/contracts/{name}__factory.ts": head
        + lines(
            'import { ContractFactory } from "ethers";',
            f"const _abi = [{{ type: 'constructor', inputs: {inputs} }}] as const;",
            f"export class {name}__factory extends ContractFactory {{",
            "  static readonly abi = _abi;",
            "}",
        ),
    }


def hardhat_vesting_cliff(s: Scene) -> None:
    s.commit(
        "Scaffold Hardhat project with GovToken",
        {
            "package.json": lines(
                "{",
                '  "name": "acme-token",',
                '  "private": true,',
                '  "scripts": { "test": "hardhat test", "compile": "hardhat compile" },',
                '  "devDependencies": {',
                '    "@nomicfoundation/hardhat-toolbox": "^5.0.0",',
                '    "@openzeppelin/contracts": "^5.0.2",',
                '    "dotenv": "^16.4.5",',
                '    "hardhat": "^2.22.10"',
                "  }",
                "}",
            ),
            ".gitignore": lines("node_modules", ".env", "coverage", "cache", "artifacts"),
            "hardhat.config.ts": _HARDHAT_CONFIG.replace("{runs}", "200"),
            "contracts/GovToken.sol": lines(
                "// SPDX-License-Identifier: MIT",
                "pragma solidity ^0.8.24;",
                'import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";',
                "contract GovToken is ERC20 {",
                '    constructor(uint256 supply) ERC20("Acme Governance", "ACME") {',
                "        _mint(msg.sender, supply);",
                "    }",
                "}",
            ),
            "test/GovToken.test.ts": lines(
                'import { expect } from "chai";',
                'import { ethers } from "hardhat";',
                'describe("GovToken", () => {',
                '  it("mints the supply to the deployer", async () => {',
                "    const [owner] = await ethers.getSigners();",
                '    const t = await ethers.deployContract("GovToken", [1000n]);',
                "    expect(await t.balanceOf(owner.address)).to.equal(1000n);",
                "  });",
                "});",
            ),
            "README.md": "# acme-token\n\nGovernance token, vesting and treasury.\n",
        },
        days_ago=70,
    )
    s.commit(
        "Add linear TokenVesting with tests and deploy script",
        {
            "contracts/TokenVesting.sol": _vesting(_VESTING_BODY),
            "test/TokenVesting.test.ts": lines(
                'import { expect } from "chai";',
                'import { ethers } from "hardhat";',
                'import { time } from "@nomicfoundation/hardhat-toolbox/network-helpers";',
                'describe("TokenVesting", () => {',
                '  it("vests linearly", async () => {',
                "    const [, ben] = await ethers.getSigners();",
                '    const token = await ethers.deployContract("GovToken", [1000n]);',
                "    const start = (await time.latest()) + 10;",
                '    const v = await ethers.deployContract("TokenVesting", [token, ben, start, '
                "100]);",
                "    await token.transfer(v, 1000n);",
                "    expect(await v.vestedAmount(start + 50)).to.equal(500n);",
                "  });",
                "});",
            ),
            "scripts/deploy.ts": lines(
                'import { ethers } from "hardhat";',
                "async function main() {",
                "  const [deployer] = await ethers.getSigners();",
                '  const token = await ethers.deployContract("GovToken", [10n ** 24n]);',
                "  const start = Math.floor(Date.now() / 1000) + 3600;",
                '  const vesting = await ethers.deployContract("TokenVesting", [',
                "    token, process.env.BENEFICIARY ?? deployer.address, start, 365 * 86400,",
                "  ]);",
                '  console.log("vesting", await vesting.getAddress());',
                "}",
                "main().catch((e) => { console.error(e); process.exitCode = 1; });",
            ),
            **_typechain("TokenVesting"),
        },
        days_ago=45,
    )
    s.commit(
        "Add timelocked Treasury",
        {
            "contracts/Treasury.sol": _treasury("2 days"),
            "test/Treasury.test.ts": lines(
                'import { expect } from "chai";',
                'import { ethers } from "hardhat";',
                'describe("Treasury", () => {',
                '  it("refuses an early execute", async () => {',
                "    const [owner] = await ethers.getSigners();",
                '    const t = await ethers.deployContract("Treasury", [owner]);',
                '    const id = ethers.id("pay-1");',
                "    await t.queue(id);",
                '    await expect(t.execute(id, owner, 1)).to.be.revertedWith("too early");',
                "  });",
                "});",
            ),
            **_typechain("Treasury", inputs=1),
        },
        days_ago=30,
    )
    s.commit(
        "Vesting: emit Released before the transfer",
        {
            "contracts/TokenVesting.sol": _vesting(_VESTING_BODY) + "\n",
            "test/TokenVesting.test.ts": s.root.joinpath("test/TokenVesting.test.ts")
            .read_text()
            .replace("});\n});\n", '  it("emits Released", async () => {});\n  });\n});\n'),
            **_typechain("TokenVesting", " Released: unknown;"),
        },
        days_ago=12,
    )
    s.intent(
        "Add a cliff to TokenVesting: nothing is releasable before start + cliff, "
        "linear vesting from start after that",
        {"contracts/TokenVesting.sol": "the vesting contract getting the cliff"},
        hours_ago=2,
    )
    s.agent(
        {
            "contracts/TokenVesting.sol": _vesting(
                "    uint64 public immutable cliff;\n"
                "    error NothingToRelease();\n\n" + _VESTING_CLIFF_BODY,
                ctor="uint64 start_, uint64 cliff_, uint64 duration_",
            ).replace("duration = duration_;", "duration = duration_;\n        cliff = cliff_;"),
            "test/TokenVesting.test.ts": lines(
                'import { expect } from "chai";',
                'import { ethers } from "hardhat";',
                'import { time } from "@nomicfoundation/hardhat-toolbox/network-helpers";',
                'describe("TokenVesting", () => {',
                "  async function deploy(cliff: number) {",
                "    const [, ben] = await ethers.getSigners();",
                '    const token = await ethers.deployContract("GovToken", [1000n]);',
                "    const start = (await time.latest()) + 10;",
                "    const v = await ethers.deployContract(",
                '      "TokenVesting", [token, ben, start, cliff, 100]);',
                "    await token.transfer(v, 1000n);",
                "    return { v, start };",
                "  }",
                '  it("vests linearly", async () => {',
                "    const { v, start } = await deploy(0);",
                "    expect(await v.vestedAmount(start + 50)).to.equal(500n);",
                "  });",
                '  it("vests nothing before the cliff", async () => {',
                "    const { v, start } = await deploy(30);",
                "    expect(await v.vestedAmount(start + 29)).to.equal(0n);",
                "    expect(await v.vestedAmount(start + 30)).to.equal(300n);",
                "  });",
                "});",
            ),
            # The constructor gained a parameter: the deploy script must pass it.
            "scripts/deploy.ts": s.root.joinpath("scripts/deploy.ts")
            .read_text()
            .replace("start, 365 * 86400", "start, 90 * 86400, 365 * 86400"),
            **_typechain("TokenVesting", " Released: unknown; cliff: unknown;", inputs=5),
            # Drift: the treasury's timelock halved — a security setting nobody asked about.
            "contracts/Treasury.sol": _treasury("1 days"),
            # Drift: optimizer runs changed for every contract in the project.
            "hardhat.config.ts": _HARDHAT_CONFIG.replace("{runs}", "10_000"),
        },
        delete=["test/GovToken.test.ts"],  # drift: a passing test of another contract
    )
    s.fine("contracts/TokenVesting.sol", "test/TokenVesting.test.ts", "scripts/deploy.ts")
    s.excluded(
        "typechain-types/contracts/TokenVesting.ts",
        "typechain-types/factories/contracts/TokenVesting__factory.ts",
    )
    s.drift("contracts/Treasury.sol", "hardhat.config.ts", "test/GovToken.test.ts")
    s.note = "no checkpoint: restore from the commit"


# -- 2. PlatformIO firmware: deep sleep between readings -----------------------------------

_PIO_INI = lines(
    "[platformio]",
    "default_envs = esp32dev",
    "",
    "[env]",
    "platform = espressif32@6.5.0",
    "framework = arduino",
    "monitor_speed = 115200",
    "lib_deps =",
    "    adafruit/Adafruit BME280 Library@^2.2.4",
    "    knolleary/PubSubClient@^2.8",
    "",
    "[env:esp32dev]",
    "board = esp32dev",
    "build_flags = -DCORE_DEBUG_LEVEL=3",
    "",
    "[env:esp32dev-ota]",
    "extends = env:esp32dev",
    "upload_protocol = espota",
    "upload_port = sensor-node.local",
)


def _cpp_props(defines: str) -> str:
    return lines(
        "//",
        "// !!! WARNING !!! AUTO-GENERATED FILE!",
        '// PLEASE DO NOT MODIFY IT AND USE "platformio.ini":',
        "// https://docs.platformio.org/page/projectconf/section_env_build.html#build-flags",
        "//",
        "{",
        '    "configurations": [',
        "        {",
        '            "name": "PlatformIO",',
        f'            "defines": [{defines}],',
        '            "cStandard": "gnu99",',
        '            "cppStandard": "gnu++11"',
        "        }",
        "    ],",
        '    "version": 4',
        "}",
    )


_MQTT_CPP = lines(
    '#include "mqtt_client.h"',
    "#include <PubSubClient.h>",
    "#include <WiFi.h>",
    '#include "config.h"',
    "",
    "static WiFiClient wifi;",
    "static PubSubClient mqtt(wifi);",
    "",
    "bool mqtt_connect() {",
    "  mqtt.setServer(MQTT_HOST, MQTT_PORT);",
    "  for (int i = 0; i < 5 && !mqtt.connected(); i++) {",
    "    if (mqtt.connect(DEVICE_ID)) return true;",
    "    delay(500);",
    "  }",
    "  return mqtt.connected();",
    "}",
    "",
    "void mqtt_publish(const char *topic, float value) {",
    "  char buf[16];",
    '  snprintf(buf, sizeof buf, "%.2f", value);',
    "  mqtt.publish(topic, buf, true);",
    "}",
)


def platformio_deep_sleep(s: Scene) -> None:
    s.commit(
        "Initial PlatformIO project",
        {
            ".gitignore": lines(".pio", ".vscode/.browse.c_cpp.db*", ".vscode/ipch"),
            "platformio.ini": _PIO_INI.split("\n[env:esp32dev-ota]")[0] + "\n",
            "include/config.h": lines(
                "#pragma once",
                '#define DEVICE_ID "sensor-node-1"',
                "#define READ_INTERVAL_MS 60000",
            ),
            "src/main.cpp": lines(
                "#include <Arduino.h>",
                '#include "config.h"',
                '#include "sensor.h"',
                "",
                "void setup() { Serial.begin(115200); sensor_begin(); }",
                "",
                "void loop() {",
                "  Reading r = sensor_read();",
                '  Serial.printf("%.1f C %.1f %%\\n", r.temperature, r.humidity);',
                "  delay(READ_INTERVAL_MS);",
                "}",
            ),
            "include/sensor.h": lines(
                "#pragma once",
                "struct Reading { float temperature; float humidity; float pressure; };",
                "void sensor_begin();",
                "Reading sensor_read();",
            ),
            "src/sensor.cpp": lines(
                '#include "sensor.h"',
                "#include <Adafruit_BME280.h>",
                "static Adafruit_BME280 bme;",
                "void sensor_begin() { bme.begin(0x76); }",
                "Reading sensor_read() {",
                "  return {bme.readTemperature(), bme.readHumidity(), bme.readPressure() / 100};",
                "}",
            ),
            "test/test_sensor/test_main.cpp": lines(
                "#include <unity.h>",
                '#include "sensor.h"',
                "void test_reading_has_fields() { Reading r{21.5f, 40.f, 1013.f};",
                "  TEST_ASSERT_EQUAL_FLOAT(21.5f, r.temperature); }",
                "int main() { UNITY_BEGIN(); RUN_TEST(test_reading_has_fields); return "
                "UNITY_END(); }",
            ),
            ".vscode/c_cpp_properties.json": _cpp_props('"ARDUINO=10812"'),
            "README.md": "# sensor-node\n\nESP32 + BME280 weather node publishing to MQTT.\n",
        },
        days_ago=90,
    )
    s.commit(
        "Publish readings over MQTT",
        {
            "src/mqtt_client.cpp": _MQTT_CPP,
            "include/mqtt_client.h": lines(
                "#pragma once",
                "bool mqtt_connect();",
                "void mqtt_publish(const char *topic, float value);",
            ),
            "include/config.h": lines(
                "#pragma once",
                '#define DEVICE_ID "sensor-node-1"',
                "#define READ_INTERVAL_MS 60000",
                '#define MQTT_HOST "broker.lan"',
                "#define MQTT_PORT 1883",
            ),
            "src/main.cpp": lines(
                "#include <Arduino.h>",
                '#include "config.h"',
                '#include "mqtt_client.h"',
                '#include "sensor.h"',
                "",
                "void setup() { Serial.begin(115200); sensor_begin(); mqtt_connect(); }",
                "",
                "void loop() {",
                "  Reading r = sensor_read();",
                '  mqtt_publish("home/garden/temperature", r.temperature);',
                '  mqtt_publish("home/garden/humidity", r.humidity);',
                "  delay(READ_INTERVAL_MS);",
                "}",
            ),
        },
        days_ago=50,
    )
    s.commit(
        "Add OTA upload environment",
        {
            "platformio.ini": _PIO_INI,
            ".vscode/c_cpp_properties.json": _cpp_props('"ARDUINO=10812", "CORE_DEBUG_LEVEL=3"'),
        },
        days_ago=20,
    )
    # The user's own edit, before the session: an exception decoder for the serial
    # monitor. The checkpoint they take next holds it.
    s.agent(
        {
            "platformio.ini": _PIO_INI.replace(
                "monitor_speed = 115200",
                "monitor_speed = 115200\nmonitor_filters = esp32_exception_decoder",
            )
        }
    )
    s.intent(
        "Battery life: put the ESP32 into deep sleep between BME280 readings, "
        "with the wake interval configurable in config.h",
        {
            "src/main.cpp": "the read/publish loop that becomes wake-read-sleep",
            "include/config.h": "where the wake interval lives",
        },
        hours_ago=1,
    )
    before = s.checkpoint("before the agent: deep sleep")
    s.agent(
        {
            "include/config.h": lines(
                "#pragma once",
                '#define DEVICE_ID "sensor-node-1"',
                '#define MQTT_HOST "broker.lan"',
                "#define MQTT_PORT 1883",
                "// Seconds between wake-ups; the node sleeps in between.",
                "#define SLEEP_INTERVAL_S 300",
            ),
            "src/main.cpp": lines(
                "#include <Arduino.h>",
                '#include "config.h"',
                '#include "mqtt_client.h"',
                '#include "power.h"',
                '#include "sensor.h"',
                "",
                "void setup() {",
                "  Serial.begin(115200);",
                "  sensor_begin();",
                "  if (mqtt_connect()) {",
                "    Reading r = sensor_read();",
                '    mqtt_publish("home/garden/temperature", r.temperature);',
                '    mqtt_publish("home/garden/humidity", r.humidity);',
                "  }",
                "  sensor_sleep();",
                "  power_deep_sleep(SLEEP_INTERVAL_S);",
                "}",
                "",
                "void loop() {}",
            ),
            "include/power.h": lines(
                "#pragma once",
                "#include <stdint.h>",
                "uint64_t sleep_interval_us(uint32_t seconds);",
                "void power_deep_sleep(uint32_t seconds);",
            ),
            "src/power.cpp": lines(
                '#include "power.h"',
                "#include <esp_sleep.h>",
                "uint64_t sleep_interval_us(uint32_t seconds) { return (uint64_t)seconds * "
                "1000000ULL; }",
                "void power_deep_sleep(uint32_t seconds) {",
                "  esp_sleep_enable_timer_wakeup(sleep_interval_us(seconds));",
                "  esp_deep_sleep_start();",
                "}",
            ),
            "test/test_power/test_main.cpp": lines(
                "#include <unity.h>",
                '#include "power.h"',
                "void test_interval_in_microseconds() {",
                "  TEST_ASSERT_EQUAL_UINT64(300000000ULL, sleep_interval_us(300)); }",
                "int main() { UNITY_BEGIN(); RUN_TEST(test_interval_in_microseconds); return "
                "UNITY_END(); }",
            ),
            # The BME280 left in normal mode draws ~1 mA: putting it to sleep is part
            # of the battery work, used by main.cpp.
            "include/sensor.h": lines(
                "#pragma once",
                "struct Reading { float temperature; float humidity; float pressure; };",
                "void sensor_begin();",
                "Reading sensor_read();",
                "void sensor_sleep();",
            ),
            "src/sensor.cpp": lines(
                '#include "sensor.h"',
                "#include <Adafruit_BME280.h>",
                "static Adafruit_BME280 bme;",
                "void sensor_begin() { bme.begin(0x76); }",
                "Reading sensor_read() {",
                "  return {bme.readTemperature(), bme.readHumidity(), bme.readPressure() / 100};",
                "}",
                "void sensor_sleep() { bme.setSampling(Adafruit_BME280::MODE_SLEEP); }",
            ),
            # Drift: the MQTT client only reformatted (Allman braces), no behaviour change.
            "src/mqtt_client.cpp": _MQTT_CPP.replace(
                "  for (int i = 0; i < 5 && !mqtt.connected(); i++) {",
                "  for (int i = 0; i < 5 && !mqtt.connected(); i++)\n  {",
            ).replace(") {\n", ")\n{\n"),
            # Drift: the OTA environment pointed at the agent's guess of an IP address.
            "platformio.ini": _PIO_INI.replace(
                "monitor_speed = 115200",
                "monitor_speed = 115200\nmonitor_filters = esp32_exception_decoder",
            ).replace("upload_port = sensor-node.local", "upload_port = 192.168.1.47"),
            ".vscode/c_cpp_properties.json": _cpp_props(
                '"ARDUINO=10812", "CORE_DEBUG_LEVEL=3", "ESP32=1"'
            ),
        }
    )
    s.fine(
        "src/main.cpp",
        "include/config.h",
        "include/power.h",
        "src/power.cpp",
        "test/test_power/test_main.cpp",
        "include/sensor.h",
        "src/sensor.cpp",
    )
    s.drift("src/mqtt_client.cpp", "platformio.ini")
    # PlatformIO rewrites .vscode/c_cpp_properties.json from platformio.ini (its header
    # says so); this project predates the template that ignores it, so it is tracked.
    s.excluded(".vscode/c_cpp_properties.json")
    # The checkpoint holds the user's own monitor_filters line: restoring
    # platformio.ini from it keeps that edit, the commit would lose it.
    s.safe_checkpoint(before)
    s.note = "checkpoint before the work holds the user's own uncommitted ini edit"


# -- 3. WordPress plugin: a REST endpoint ---------------------------------------------------

_WP_MAIN = lines(
    "<?php",
    "/**",
    " * Plugin Name:       Tidy Donations",
    " * Description:       Simple donation forms and donor records.",
    " * Version:           {v}",
    " * Requires PHP:      7.4",
    " * Text Domain:       tidy-donations",
    " */",
    "",
    "defined( 'ABSPATH' ) || exit;",
    "",
    "define( 'TIDY_DONATIONS_VERSION', '{v}' );",
    "require_once __DIR__ . '/vendor/autoload.php';",
    "require_once __DIR__ . '/includes/class-donation.php';",
    "require_once __DIR__ . '/includes/class-donor-repository.php';",
    "require_once __DIR__ . '/includes/class-rest-controller.php';",
    "require_once __DIR__ . '/includes/class-settings-page.php';",
    "",
    "add_action( 'rest_api_init', array( new Tidy_Rest_Controller(), 'register_routes' ) );",
    "add_action( 'admin_menu', array( 'Tidy_Settings_Page', 'register' ) );",
    "add_action( 'init', function () {",
    "\tregister_block_type( __DIR__ . '/build/blocks/donate-button' );",
    "} );",
)

_WP_README = lines(
    "=== Tidy Donations ===",
    "Contributors: tidywp",
    "Tags: donations, fundraising",
    "Requires at least: 6.3",
    "Tested up to: 6.6",
    "Stable tag: {v}",
    "License: GPLv2 or later",
    "",
    "Simple donation forms and donor records.",
    "",
    "== Changelog ==",
    "{log}",
    "= 1.4.2 =",
    "* Fix: currency symbol on the donate button.",
)

_WP_SETTINGS = lines(
    "<?php",
    "class Tidy_Settings_Page {",
    "\tpublic static function register() {",
    "\t\tadd_options_page(",
    "\t\t\t__( '{title}', 'tidy-donations' ),",
    "\t\t\t__( '{title}', 'tidy-donations' ),",
    "\t\t\t'manage_options',",
    "\t\t\t'tidy-donations',",
    "\t\t\tarray( __CLASS__, 'render' )",
    "\t\t);",
    "\t}",
    "",
    "\tpublic static function render() {",
    "\t\techo '<div class=\"wrap\"><h1>' . esc_html__( '{title}', 'tidy-donations' ) . '</h1>';",
    "\t\tsettings_fields( 'tidy_donations' );",
    "\t\techo '</div>';",
    "\t}",
    "}",
)

_WP_REPO = lines(
    "<?php",
    "class Tidy_Donor_Repository {",
    "\tpublic function find( int $id ): ?array {",
    "\t\tglobal $wpdb;",
    "\t\t$row = $wpdb->get_row(",
    '\t\t\t$wpdb->prepare( "SELECT * FROM {$wpdb->prefix}tidy_donors WHERE id = %d", $id ),',
    "\t\t\tARRAY_A",
    "\t\t);",
    "\t\treturn $row ?: null;",
    "\t}",
    "{more}}",
)

_WP_REST = lines(
    "<?php",
    "class Tidy_Rest_Controller extends WP_REST_Controller {",
    "\tprotected $namespace = 'tidy/v1';",
    "",
    "\tpublic function register_routes() {",
    "\t\tregister_rest_route( $this->namespace, '/donors/(?P<id>\\d+)', array(",
    "\t\t\t'methods'             => WP_REST_Server::READABLE,",
    "\t\t\t'callback'            => array( $this, 'get_donor' ),",
    "\t\t\t'permission_callback' => array( $this, 'can_read' ),",
    "\t\t) );",
    "{routes}\t}",
    "",
    "\tpublic function can_read() {",
    "\t\treturn current_user_can( 'manage_options' );",
    "\t}",
    "",
    "\tpublic function get_donor( WP_REST_Request $request ) {",
    "\t\t$donor = ( new Tidy_Donor_Repository() )->find( (int) $request['id'] );",
    "\t\treturn $donor ? rest_ensure_response( $donor ) : new WP_Error( 'not_found', '', array( "
    "'status' => 404 ) );",
    "\t}",
    "{handlers}}",
)


def _wp_build(version: str) -> dict[str, str]:
    return {
        "build/blocks/donate-button/index.js": (
            '(()=>{"use strict";var e=window.wp.blocks,t=window.wp.blockEditor;'
            f'(0,e.registerBlockType)("tidy/donate-button",{{edit:()=>t.useBlockProps()}})}})();/*{version}*/\n'
        ),
        "build/blocks/donate-button/index.asset.php": (
            "<?php return array('dependencies' => array('wp-block-editor', 'wp-blocks'), "
            f"'version' => '{version}');\n"
        ),
        "build/blocks/donate-button/block.json": lines(
            "{",
            '  "apiVersion": 3,',
            '  "name": "tidy/donate-button",',
            '  "title": "Donate button",',
            '  "editorScript": "file:./index.js"',
            "}",
        ),
    }


def _pot(stamp: str, extra: str = "") -> str:
    return lines(
        "# Copyright (C) 2026 tidywp",
        "# This file is distributed under the GPLv2 or later.",
        'msgid ""',
        'msgstr ""',
        '"Project-Id-Version: Tidy Donations 1.4.2\\n"',
        f'"POT-Creation-Date: {stamp}\\n"',
        '"X-Generator: WP-CLI 2.11.0\\n"',
        '"X-Domain: tidy-donations\\n"',
        "",
        "#: includes/class-settings-page.php:5",
        'msgid "Tidy Donations"',
        'msgstr ""',
        extra,
    )


def wordpress_rest_endpoint(s: Scene) -> None:
    s.commit(
        "Tidy Donations 1.4.0",
        {
            "tidy-donations.php": _WP_MAIN.replace("{v}", "1.4.0"),
            "readme.txt": _WP_README.replace("{v}", "1.4.0").replace("{log}", ""),
            "composer.json": lines(
                "{",
                '  "name": "tidywp/tidy-donations",',
                '  "require": { "php": ">=7.4" },',
                '  "require-dev": { "phpunit/phpunit": "^9.6", '
                '"yoast/phpunit-polyfills": "^2.0" },',
                '  "autoload": { "classmap": ["includes/"] }',
                "}",
            ),
            "vendor/autoload.php": lines(
                "<?php",
                "// autoload.php @generated by Composer",
                "require_once __DIR__ . '/composer/autoload_real.php';",
                "return ComposerAutoloaderInit7f3a::getLoader();",
            ),
            "vendor/composer/autoload_classmap.php": lines(
                "<?php",
                "// autoload_classmap.php @generated by Composer",
                "return array();",
            ),
            "package.json": lines(
                "{",
                '  "name": "tidy-donations",',
                '  "scripts": { "build": "wp-scripts build", "start": "wp-scripts start" },',
                '  "devDependencies": { "@wordpress/scripts": "^28.0.0" }',
                "}",
            ),
            "src/blocks/donate-button/index.js": lines(
                "import { registerBlockType } from '@wordpress/blocks';",
                "import Edit from './edit';",
                "registerBlockType( 'tidy/donate-button', { edit: Edit } );",
            ),
            "src/blocks/donate-button/edit.js": lines(
                "import { useBlockProps } from '@wordpress/block-editor';",
                "export default function Edit() { return <button { ...useBlockProps() "
                "}>Donate</button>; }",
            ),
            "src/blocks/donate-button/block.json": _wp_build("x")[
                "build/blocks/donate-button/block.json"
            ],
            **_wp_build("3c1e9a0b7d2f4e61a5b8"),
            "includes/class-donation.php": lines(
                "<?php",
                "class Tidy_Donation {",
                "\tpublic int $donor_id;",
                "\tpublic int $amount_cents;",
                "\tpublic string $currency;",
                "}",
            ),
            "includes/class-donor-repository.php": _WP_REPO.replace("{more}", ""),
            "includes/class-rest-controller.php": _WP_REST.replace("{routes}", "").replace(
                "{handlers}", ""
            ),
            "includes/class-settings-page.php": _WP_SETTINGS.replace("{title}", "Tidy Donations"),
            "tests/phpunit/bootstrap.php": lines(
                "<?php",
                "require dirname( __DIR__, 2 ) . "
                "'/vendor/yoast/phpunit-polyfills/phpunitpolyfills-autoload.php';",
                "require getenv( 'WP_TESTS_DIR' ) . '/includes/bootstrap.php';",
            ),
            "tests/phpunit/test-rest-controller.php": lines(
                "<?php",
                "class Test_Rest_Controller extends WP_Test_REST_TestCase {",
                "\tpublic function test_donor_requires_admin() {",
                "\t\t$response = rest_do_request( new WP_REST_Request( 'GET', "
                "'/tidy/v1/donors/1' ) );",
                "\t\t$this->assertErrorResponse( 'rest_forbidden', $response, 401 );",
                "\t}",
                "}",
            ),
            "languages/tidy-donations.pot": _pot("2026-08-01T10:00:00+00:00"),
        },
        days_ago=80,
    )
    s.commit(
        "1.4.2: fix the currency symbol on the donate button",
        {
            "tidy-donations.php": _WP_MAIN.replace("{v}", "1.4.2"),
            "readme.txt": _WP_README.replace("{v}", "1.4.2").replace("{log}", ""),
            "src/blocks/donate-button/edit.js": lines(
                "import { useBlockProps } from '@wordpress/block-editor';",
                "import { __ } from '@wordpress/i18n';",
                "export default function Edit() {",
                "\treturn <button { ...useBlockProps() }>{ __( 'Donate', 'tidy-donations' ) "
                "}</button>;",
                "}",
            ),
            **_wp_build("9d04b2c6e1f38a7705c4"),
        },
        days_ago=25,
    )
    s.commit(
        "Donors endpoint: 404 for an unknown donor",
        {
            "includes/class-rest-controller.php": _WP_REST.replace("{routes}", "").replace(
                "{handlers}", ""
            ),
            "tests/phpunit/test-rest-controller.php": s.root.joinpath(
                "tests/phpunit/test-rest-controller.php"
            )
            .read_text()
            .replace(
                "}\n}\n",
                "}\n\n\tpublic function test_unknown_donor_is_404() {}\n}\n",
            ),
        },
        days_ago=9,
    )
    s.intent(
        "REST: GET /tidy/v1/donors/<id>/donations returns that donor's donation "
        "history, newest first, admins only",
        {"includes/class-rest-controller.php": "registers the tidy/v1 routes"},
        hours_ago=3,
    )
    s.agent(
        {
            "includes/class-rest-controller.php": _WP_REST.replace(
                "{routes}",
                "\t\tregister_rest_route( $this->namespace, '/donors/(?P<id>\\d+)/donations', "
                "array(\n"
                "\t\t\t'methods'             => WP_REST_Server::READABLE,\n"
                "\t\t\t'callback'            => array( $this, 'get_donations' ),\n"
                "\t\t\t'permission_callback' => array( $this, 'can_read' ),\n"
                "\t\t) );\n",
            ).replace(
                "{handlers}",
                "\n\tpublic function get_donations( WP_REST_Request $request ) {\n"
                "\t\t$rows = ( new Tidy_Donor_Repository() )->donations_for( (int) "
                "$request['id'] );\n"
                "\t\treturn rest_ensure_response( $rows );\n"
                "\t}\n",
            ),
            "includes/class-donor-repository.php": _WP_REPO.replace(
                "{more}",
                "\n\tpublic function donations_for( int $donor_id ): array {\n"
                "\t\tglobal $wpdb;\n"
                "\t\treturn $wpdb->get_results(\n"
                '\t\t\t$wpdb->prepare( "SELECT * FROM {$wpdb->prefix}tidy_donations'
                ' WHERE donor_id = %d ORDER BY created_at DESC", $donor_id ),\n'
                "\t\t\tARRAY_A\n"
                "\t\t);\n"
                "\t}\n",
            ),
        }
    )
    mid = s.checkpoint("donations endpoint answers")
    s.agent(
        {
            "tests/phpunit/test-rest-controller.php": s.root.joinpath(
                "tests/phpunit/test-rest-controller.php"
            )
            .read_text()
            .replace(
                "}\n}\n",
                "}\n\n\tpublic function test_donations_newest_first() {\n"
                "\t\twp_set_current_user( self::factory()->user->create( array( 'role' => "
                "'administrator' ) ) );\n"
                "\t\t$response = rest_do_request( new WP_REST_Request( 'GET', "
                "'/tidy/v1/donors/1/donations' ) );\n"
                "\t\t$this->assertSame( 200, $response->get_status() );\n"
                "\t}\n}\n",
            ),
            "languages/tidy-donations.pot": _pot("2026-11-26T09:12:44+00:00"),
            **_wp_build("e7a1c09f5b3d2864f0aa"),
            # Drift: a release nobody asked for — version in the header and the
            # stable tag, plus a changelog entry for it.
            "tidy-donations.php": _WP_MAIN.replace("{v}", "1.5.0"),
            "readme.txt": _WP_README.replace("{v}", "1.5.0").replace(
                "{log}", "= 1.5.0 =\n* New: donor donation history endpoint.\n"
            ),
            # Drift: the settings screen renamed.
            "includes/class-settings-page.php": _WP_SETTINGS.replace(
                "{title}", "Donation Settings"
            ),
        }
    )
    s.fine(
        "includes/class-rest-controller.php",
        "includes/class-donor-repository.php",
        "tests/phpunit/test-rest-controller.php",
    )
    # The POT file is extracted by `wp i18n make-pot`, the build/ folder by
    # `wp-scripts build` (its asset hash moved even though the block's source did not).
    s.excluded(
        "languages/tidy-donations.pot",
        "build/blocks/donate-button/index.js",
        "build/blocks/donate-button/index.asset.php",
    )
    s.drift("tidy-donations.php", "readme.txt", "includes/class-settings-page.php")
    # The mid-session checkpoint predates every drift and holds the endpoint work.
    s.safe_checkpoint(mid)
    s.note = "mid-session checkpoint after the endpoint, before the drift"


# -- 4. Shopify theme (Liquid): a size-chart drawer ----------------------------------------

_MAIN_PRODUCT = lines(
    '<section class="product page-width" data-section="{{ section.id }}">',
    "  {%- render 'product-media', product: product -%}",
    '  <div class="product__info">',
    "    {%- for block in section.blocks -%}",
    "      {%- case block.type -%}",
    "        {%- when 'title' -%}",
    '          <h1 class="product__title" {{ block.shopify_attributes }}>{{ product.title }}</h1>',
    "        {%- when 'price' -%}",
    "          {%- render 'price', product: product -%}",
    "{extra_case}      {%- endcase -%}",
    "    {%- endfor -%}",
    "  </div>",
    "</section>",
    "",
    "{% schema %}",
    "{",
    '  "name": "t:sections.main-product.name",',
    '  "blocks": [',
    '    { "type": "title", "name": "t:sections.main-product.blocks.title.name", "limit": 1 },',
    '    { "type": "price", "name": "t:sections.main-product.blocks.price.name", "limit": 1 '
    "}{extra_block}",
    "  ]",
    "}",
    "{% endschema %}",
)

_FEATURED = lines(
    '<div class="collection page-width">',
    '  <h2 class="title">{{ section.settings.title | escape }}</h2>',
    "  {%- for product in section.settings.collection.products limit: 4 -%}",
    "    {%- render 'card-product', card_product: product -%}",
    "  {%- endfor -%}",
    "</div>",
    "{% schema %}",
    "{",
    '  "name": "t:sections.featured-collection.name",',
    '  "settings": [',
    '    { "type": "text", "id": "title", "default": "{title}", "label": '
    '"t:sections.featured-collection.settings.title.label" },',
    '    { "type": "collection", "id": "collection", "label": '
    '"t:sections.featured-collection.settings.collection.label" }',
    "  ],",
    '  "presets": [{ "name": "t:sections.featured-collection.presets.name" }]',
    "}",
    "{% endschema %}",
)

_SETTINGS_DATA = lines(
    "/*",
    " * ------------------------------------------------------------",
    " * IMPORTANT: The contents of this file are auto-generated.",
    " *",
    " * This file may be updated by the Shopify admin theme editor",
    " * or related systems. Please exercise caution as any changes",
    " * made to this file may be overwritten.",
    " * ------------------------------------------------------------",
    " */",
    "{",
    '  "current": {',
    '    "colors_accent_1": "{accent}",',
    '    "colors_background_1": "#FFFFFF",',
    '    "type_header_font": "assistant_n4"',
    "  }",
    "}",
)

_PRODUCT_TEMPLATE = lines(
    "{",
    '  "sections": {',
    '    "main": {',
    '      "type": "main-product",',
    '      "blocks": {',
    '        "title": { "type": "title", "settings": {} },',
    '        "price": { "type": "price", "settings": {} }{block}',
    "      },",
    '      "block_order": ["title", "price"{order}]',
    "    }",
    "  },",
    '  "order": ["main"]',
    "}",
)


def _en_locale(extra: str = "") -> str:
    return lines(
        "{",
        '  "general": { "search": "Search", "cart": "Cart" },',
        '  "products": {',
        '    "product": {',
        f'      "add_to_cart": "Add to cart",{extra}',
        '      "sold_out": "Sold out"',
        "    }",
        "  }",
        "}",
    )


def shopify_size_chart(s: Scene) -> None:
    s.commit(
        "Theme from Dawn 13",
        {
            "layout/theme.liquid": lines(
                "<!doctype html>",
                '<html lang="{{ request.locale.iso_code }}">',
                "<head>{{ content_for_header }}"
                "{{ 'base.css' | asset_url | stylesheet_tag }}</head>",
                "<body>{% sections 'header-group' %}{{ content_for_layout }}"
                "{% sections 'footer-group' %}</body>",
                "</html>",
            ),
            "sections/main-product.liquid": _MAIN_PRODUCT.replace("{extra_case}", "").replace(
                "{extra_block}", ""
            ),
            "sections/featured-collection.liquid": _FEATURED.replace(
                "{title}", "Featured collection"
            ),
            "sections/header.liquid": lines(
                '<header class="header">',
                '  <a href="{{ routes.root_url }}">{{ shop.name }}</a>',
                "  {%- render 'header-menu', menu: section.settings.menu -%}",
                "</header>",
            ),
            "snippets/price.liquid": lines(
                '<div class="price">{{ product.price | money }}</div>',
            ),
            "snippets/product-media.liquid": lines(
                '<div class="product__media">{{ product.featured_media | image_url: width: 900 '
                "| image_tag }}</div>",
            ),
            "snippets/card-product.liquid": lines(
                '<a class="card" href="{{ card_product.url }}">{{ card_product.title }}</a>',
            ),
            "assets/base.css": lines(
                ":root { --page-width: 120rem; }",
                ".page-width { max-width: var(--page-width); margin: 0 auto; }",
            ),
            "assets/global.js": lines(
                "class ModalDialog extends HTMLElement {",
                "  show() { this.setAttribute('open', ''); }",
                "  hide() { this.removeAttribute('open'); }",
                "}",
                "customElements.define('modal-dialog', ModalDialog);",
            ),
            "config/settings_schema.json": lines(
                "[",
                '  { "name": "theme_info", "theme_name": "Dawn", "theme_version": "13.0.1" }',
                "]",
            ),
            "config/settings_data.json": _SETTINGS_DATA.replace("{accent}", "#121212"),
            "locales/en.default.json": _en_locale(),
            "locales/en.default.schema.json": lines(
                "{",
                '  "sections": { "main-product": { "name": "Product information" } }',
                "}",
            ),
            "templates/product.json": _PRODUCT_TEMPLATE.replace("{block}", "").replace(
                "{order}", ""
            ),
            "templates/index.json": lines(
                "{",
                '  "sections": { "featured": { "type": "featured-collection" } },',
                '  "order": ["featured"]',
                "}",
            ),
        },
        days_ago=60,
    )
    s.commit(
        "Product page: show compare-at price",
        {
            "snippets/price.liquid": lines(
                '<div class="price">{{ product.price | money }}',
                "  {%- if product.compare_at_price > product.price -%}",
                "    <s>{{ product.compare_at_price | money }}</s>",
                "  {%- endif -%}",
                "</div>",
            ),
            "sections/main-product.liquid": _MAIN_PRODUCT.replace("{extra_case}", "")
            .replace("{extra_block}", "")
            .replace(
                "render 'price', product: product",
                "render 'price', product: product, use_variant: true",
            ),
            "locales/en.default.json": _en_locale(' "sale": "Sale",'),
        },
        days_ago=21,
    )
    s.commit(
        "Home: featured collection heading and product block labels",
        {
            "sections/featured-collection.liquid": _FEATURED.replace(
                "{title}", "Featured collection"
            ).replace('<h2 class="title">', '<h2 class="title inline-richtext">'),
            "templates/index.json": lines(
                "{",
                '  "sections": { "featured": { "type": "featured-collection",',
                '    "settings": { "collection": "frontpage" } } },',
                '  "order": ["featured"]',
                "}",
            ),
            "sections/main-product.liquid": _MAIN_PRODUCT.replace("{extra_case}", "")
            .replace("{extra_block}", "")
            .replace(
                "render 'price', product: product",
                "render 'price', product: product, use_variant: true",
            ),
            "locales/en.default.schema.json": lines(
                "{",
                '  "sections": { "main-product": { "name": "Product information" } }',
                "}",
            ),
        },
        days_ago=8,
    )
    s.intent(
        "Product page: a 'Size chart' link that opens a drawer with the chart from the "
        "product's custom.size_chart metafield",
        {
            "sections/main-product.liquid": "product page section that gets the new block",
            "snippets/size-chart-drawer.liquid": "the new drawer",
        },
        hours_ago=2,
    )
    s.checkpoint("before the size chart")
    s.agent(
        {
            "snippets/size-chart-drawer.liquid": lines(
                "{%- if product.metafields.custom.size_chart != blank -%}",
                "  <button class=\"link\" data-size-chart-open>{{ 'products.product.size_chart' "
                "| t }}</button>",
                '  <size-chart-drawer class="drawer" hidden>',
                "    {{ product.metafields.custom.size_chart | metafield_tag }}",
                "  </size-chart-drawer>",
                "  {{ 'component-size-chart.css' | asset_url | stylesheet_tag }}",
                "  <script src=\"{{ 'size-chart-drawer.js' | asset_url }}\" defer></script>",
                "{%- endif -%}",
            ),
            "sections/main-product.liquid": _MAIN_PRODUCT.replace(
                "{extra_case}",
                "        {%- when 'size_chart' -%}\n"
                "          {%- render 'size-chart-drawer', product: product -%}\n",
            )
            .replace(
                "{extra_block}",
                ',\n    { "type": "size_chart", "name": '
                '"t:sections.main-product.blocks.size_chart.name", "limit": 1 }',
            )
            .replace(
                "render 'price', product: product",
                "render 'price', product: product, use_variant: true",
            ),
        }
    )
    mid = s.checkpoint("drawer renders")
    s.agent(
        {
            "assets/size-chart-drawer.js": lines(
                "class SizeChartDrawer extends HTMLElement {",
                "  connectedCallback() {",
                "    document.querySelector('[data-size-chart-open]')",
                "      ?.addEventListener('click', () => this.removeAttribute('hidden'));",
                "  }",
                "}",
                "customElements.define('size-chart-drawer', SizeChartDrawer);",
            ),
            "assets/component-size-chart.css": lines(
                "size-chart-drawer { position: fixed; inset: 0 0 0 auto; width: min(40rem, "
                "100vw); }",
                "size-chart-drawer table { width: 100%; border-collapse: collapse; }",
            ),
            "locales/en.default.json": _en_locale(
                ' "sale": "Sale",\n      "size_chart": "Size chart",'
            ),
            "locales/en.default.schema.json": lines(
                "{",
                '  "sections": { "main-product": { "name": "Product information",',
                '    "blocks": { "size_chart": { "name": "Size chart" } } } }',
                "}",
            ),
            # The block has to be placed in the product template for the link to
            # show at all: part of the feature, though the theme editor owns the file.
            "templates/product.json": _PRODUCT_TEMPLATE.replace(
                "{block}", ',\n        "size_chart": { "type": "size_chart", "settings": {} }'
            ).replace("{order}", ', "size_chart"'),
            # Drift: the merchant's live accent colour changed.
            "config/settings_data.json": _SETTINGS_DATA.replace("{accent}", "#1A4D8F"),
            # Drift: the home page's featured collection retitled.
            "sections/featured-collection.liquid": _FEATURED.replace(
                "{title}", "Shop the collection"
            ).replace('<h2 class="title">', '<h2 class="title inline-richtext">'),
        }
    )
    s.fine(
        "snippets/size-chart-drawer.liquid",
        "sections/main-product.liquid",
        "assets/size-chart-drawer.js",
        "assets/component-size-chart.css",
        "locales/en.default.json",
        "locales/en.default.schema.json",
        "templates/product.json",
    )
    # settings_data.json says it is "auto-generated", but it is the merchant's theme
    # settings, written by the theme editor from their choices: an agent changing a
    # colour there is a change to the live store's look, to review — not build output.
    s.drift("config/settings_data.json", "sections/featured-collection.liquid")
    # Two checkpoints, both before any drift: the newer one also holds the drawer.
    s.safe_checkpoint(mid)
    s.note = "two checkpoints before the drift; the newer is the safe point"


# -- 5. Astro Starlight docs: document a new option -----------------------------------------


def _config_ref(extra: str = "") -> str:
    return lines(
        "---",
        "title: Configuration reference",
        "description: Every option of relay.config.json.",
        "---",
        "",
        "import OptionTable from '../../../components/OptionTable.astro';",
        "",
        "## `timeout`",
        "",
        '<OptionTable type="number" default="30" />',
        "",
        "Seconds to wait for the upstream before giving up.",
        extra,
    )


def _astro_config(extra: str = "") -> str:
    return lines(
        "import { defineConfig } from 'astro/config';",
        "import starlight from '@astrojs/starlight';",
        "",
        "export default defineConfig({",
        "  integrations: [",
        "    starlight({",
        "      title: 'relay docs',",
        "      sidebar: [",
        "        { label: 'Guides', items: [",
        "          { label: 'Getting started', slug: 'guides/getting-started' },",
        f"          {{ label: 'Deploying', slug: 'guides/deploying' }},{extra}",
        "        ] },",
        "        { label: 'Reference', autogenerate: { directory: 'reference' } },",
        "      ],",
        "    }),",
        "  ],",
        "});",
    )


def _deploying(title: str) -> str:
    return lines(
        "---",
        f"title: {title}",
        "---",
        "",
        "relay ships as a single binary. Copy it to the server and run it under systemd.",
        "",
        "## systemd unit",
        "",
        "```ini",
        "[Service]",
        "ExecStart=/usr/local/bin/relay --config /etc/relay/relay.config.json",
        "```",
    )


_OPTION_TABLE = lines(
    "---",
    "interface Props { type: string; default?: string }",
    "const { type, default: fallback } = Astro.props;",
    "---",
    '<table class="option-table">',
    "  <tr><th>Type</th><td><code>{type}</code></td></tr>",
    "  {fallback && <tr><th>Default</th><td><code>{fallback}</code></td></tr>}",
    "</table>",
    "<style>",
    "  .option-table { margin-block: 1rem; }",
    "</style>",
)


def _starlight_pkg(version: str) -> str:
    return lines(
        "{",
        '  "name": "relay-docs",',
        '  "type": "module",',
        '  "scripts": { "dev": "astro dev", "build": "astro build" },',
        '  "dependencies": {',
        f'    "@astrojs/starlight": "{version}",',
        '    "astro": "^4.15.0",',
        '    "sharp": "^0.33.5"',
        "  }",
        "}",
    )


def astro_starlight_option_docs(s: Scene) -> None:
    s.commit(
        "Docs site with Starlight",
        {
            ".gitignore": lines("node_modules/", "dist/"),
            "package.json": _starlight_pkg("^0.28.2"),
            "astro.config.mjs": _astro_config(),
            "src/content/config.ts": lines(
                "import { defineCollection } from 'astro:content';",
                "import { docsSchema } from '@astrojs/starlight/schema';",
                "export const collections = { docs: defineCollection({ schema: docsSchema() }) };",
            ),
            "src/content/docs/index.mdx": lines(
                "---", "title: relay", "template: splash", "---", "", "A small HTTP relay."
            ),
            "src/content/docs/guides/getting-started.md": lines(
                "---", "title: Getting started", "---", "", "Install relay and write a config."
            ),
            "src/content/docs/guides/deploying.md": _deploying("Deploying"),
            "src/content/docs/reference/cli.md": lines(
                "---", "title: CLI", "---", "", "`relay --config FILE` starts the relay."
            ),
            "src/content/docs/reference/configuration.mdx": _config_ref(),
            "src/components/OptionTable.astro": _OPTION_TABLE,
            "public/favicon.svg": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"/>\n',
        },
        days_ago=100,
    )
    s.commit(
        "Guides: deploying with systemd",
        {
            "src/content/docs/guides/deploying.md": _deploying("Deploying"),
            "astro.config.mjs": _astro_config(),
            "src/content/docs/guides/getting-started.md": lines(
                "---",
                "title: Getting started",
                "---",
                "",
                "Install relay and write a config. Then see [Deploying](/guides/deploying/).",
            ),
        },
        days_ago=40,
    )
    s.commit(
        "Reference: document timeout and the CLI flags together",
        {
            "src/content/docs/reference/configuration.mdx": _config_ref(
                "\nSee also the `--timeout` flag in the [CLI reference](/reference/cli/)."
            ),
            "src/content/docs/reference/cli.md": lines(
                "---",
                "title: CLI",
                "---",
                "",
                "`relay --config FILE` starts the relay.",
                "`--timeout SECONDS` overrides `timeout`.",
            ),
        },
        days_ago=14,
    )
    s.intent(
        "Docs for relay 2.3's new `retry` option: its entry in the configuration "
        "reference and a how-to guide on retries",
        {"src/content/docs/reference/configuration.mdx": "the options reference"},
        hours_ago=4,
    )
    retry_ref = _config_ref(
        "\nSee also the `--timeout` flag in the [CLI reference](/reference/cli/).\n\n"
        "## `retry`\n\n"
        '<OptionTable type="{ attempts: number, backoff: string }" default="{ attempts: 0 }" />\n\n'
        "How often to retry a failed upstream call. See [Retrying](/guides/retries/)."
    )
    s.agent(
        {
            "src/content/docs/reference/configuration.mdx": retry_ref,
            # Drift: a Starlight upgrade nobody asked for, edited in by hand.
            "package.json": _starlight_pkg("^0.30.0"),
        }
    )
    # The user checkpoints here — after the bump had already slipped in.
    s.checkpoint("reference entry written")
    s.agent(
        {
            "src/content/docs/guides/retries.md": lines(
                "---",
                "title: Retrying failed calls",
                "---",
                "",
                "Set `retry.attempts` to retry an upstream call that failed.",
                "",
                "```json",
                '{ "retry": { "attempts": 3, "backoff": "exponential" } }',
                "```",
            ),
            # The new guide needs its sidebar entry (the Guides group is hand-listed).
            "astro.config.mjs": _astro_config(
                "\n          { label: 'Retrying', slug: 'guides/retries' },"
            ),
            # Drift: a sibling guide retitled.
            "src/content/docs/guides/deploying.md": _deploying("Deploying to production"),
            # Drift: the shared component restyled; nothing in the retry entry needed it.
            "src/components/OptionTable.astro": _OPTION_TABLE.replace(
                "margin-block: 1rem;", "margin-block: 1.5rem; font-size: var(--sl-text-sm);"
            ),
            ".astro/types.d.ts": lines(
                '/// <reference types="astro/client" />',
                '/// <reference path="content.d.ts" />',
            ),
            ".astro/content.d.ts": lines(
                "declare module 'astro:content' {",
                "  type Collections = { docs: Record<string, unknown> };",
                "}",
            ),
            ".astro/data-store.json": '[["Map",1,2],"meta::meta",["Map"]]\n',
        }
    )
    s.fine(
        "src/content/docs/reference/configuration.mdx",
        "src/content/docs/guides/retries.md",
        "astro.config.mjs",
    )
    s.drift(
        "package.json",
        "src/content/docs/guides/deploying.md",
        "src/components/OptionTable.astro",
    )
    # `astro sync` / `astro dev` write .astro/ (this older starter's .gitignore lacks it).
    s.excluded(".astro/types.d.ts", ".astro/content.d.ts", ".astro/data-store.json")
    # The only checkpoint already holds the package.json bump, so it is no point to
    # go back to: restoring package.json from it would keep the drift. A careful user
    # restores the drifted files from the commit (fine files are not restored at all).
    s.safe_commit()
    s.note = "the only checkpoint was taken after a drift: the commit is the safe point"


# -- 6. Deno Fresh: a bookmarks page --------------------------------------------------------


def _fresh_gen(routes: list[str], islands: list[str]) -> str:
    out = [
        "// DO NOT EDIT. This file is generated by Fresh.",
        "// This file SHOULD be checked into source version control.",
        "// This file is automatically updated during development when running `dev.ts`.",
        "",
    ]
    for i, r in enumerate(routes):
        out.append(f'import * as $_{i} from "./routes/{r}";')
    for i, isl in enumerate(islands):
        out.append(f'import * as $I{i} from "./islands/{isl}";')
    out += [
        'import { type Manifest } from "$fresh/server.ts";',
        "",
        "const manifest = {",
        "  routes: {",
        *[f'    "./routes/{r}": $_{i},' for i, r in enumerate(routes)],
        "  },",
        "  islands: {",
        *[f'    "./islands/{isl}": $I{i},' for i, isl in enumerate(islands)],
        "  },",
        "  baseUrl: import.meta.url,",
        "} satisfies Manifest;",
        "",
        "export default manifest;",
    ]
    return lines(*out)


def _deno_json(extra: str = "") -> str:
    return lines(
        "{",
        '  "lock": true,',
        '  "tasks": { "start": "deno run -A --watch=static/,routes/ dev.ts", "test": "deno test '
        '-A" },',
        '  "imports": {',
        '    "$fresh/": "https://deno.land/x/fresh@1.7.3/",',
        '    "preact": "https://esm.sh/preact@10.22.0",',
        f'    "$std/": "https://deno.land/std@0.216.0/"{extra}',
        "  },",
        '  "compilerOptions": { "jsx": "react-jsx", "jsxImportSource": "preact" }',
        "}",
    )


def _middleware(max_age: str) -> str:
    return lines(
        'import { FreshContext } from "$fresh/server.ts";',
        'import { getSession } from "../utils/session.ts";',
        "",
        "export async function handler(req: Request, ctx: FreshContext) {",
        "  ctx.state.user = await getSession(req);",
        "  const resp = await ctx.next();",
        "  resp.headers.set(",
        '    "Set-Cookie",',
        f'    `sid=${{ctx.state.user?.sid ?? ""}}; HttpOnly; Secure; Max-Age={max_age}`,',
        "  );",
        "  return resp;",
        "}",
    )


def _app(header_import: str) -> str:
    return lines(
        'import { type PageProps } from "$fresh/server.ts";',
        f'import Header from "{header_import}";',
        "",
        "export default function App({ Component }: PageProps) {",
        "  return (",
        "    <html>",
        '      <head><link rel="stylesheet" href="/styles.css" /></head>',
        "      <body><Header /><Component /></body>",
        "    </html>",
        "  );",
        "}",
    )


def fresh_bookmarks_page(s: Scene) -> None:
    base_routes = ["_app.tsx", "_middleware.ts", "index.tsx", "api/links.ts"]
    s.commit(
        "Linkstash on Fresh",
        {
            "deno.json": _deno_json(),
            "deno.lock": lines("{", '  "version": "3",', '  "remote": {}', "}"),
            "main.ts": lines(
                'import { start } from "$fresh/server.ts";',
                'import manifest from "./fresh.gen.ts";',
                'import config from "./fresh.config.ts";',
                "await start(manifest, config);",
            ),
            "dev.ts": lines(
                'import dev from "$fresh/dev.ts";',
                'import config from "./fresh.config.ts";',
                'await dev(import.meta.url, "./main.ts", config);',
            ),
            "fresh.config.ts": lines(
                'import { defineConfig } from "$fresh/server.ts";',
                "export default defineConfig({});",
            ),
            "fresh.gen.ts": _fresh_gen(base_routes, ["LinkForm.tsx"]),
            "routes/_app.tsx": _app("../components/Header.tsx"),
            "routes/_middleware.ts": _middleware("604800"),
            "routes/index.tsx": lines(
                'import { Head } from "$fresh/runtime.ts";',
                'import LinkForm from "../islands/LinkForm.tsx";',
                "export default function Home() {",
                "  return (<><Head><title>Linkstash</title></Head><LinkForm /></>);",
                "}",
            ),
            "routes/api/links.ts": lines(
                'import { Handlers } from "$fresh/server.ts";',
                'import { listLinks, saveLink } from "../../utils/db.ts";',
                "export const handler: Handlers = {",
                "  GET: async () => Response.json(await listLinks()),",
                "  POST: async (req) => Response.json(await saveLink(await req.json())),",
                "};",
            ),
            "routes/api/links_test.ts": lines(
                'import { assertEquals } from "$std/assert/mod.ts";',
                'import { handler } from "./links.ts";',
                'Deno.test("GET /api/links answers JSON", async () => {',
                "  // deno-lint-ignore no-explicit-any",
                '  const resp = await (handler as any).GET(new Request("http://x/api/links"));',
                '  assertEquals(resp.headers.get("content-type"), "application/json");',
                "});",
            ),
            "islands/LinkForm.tsx": lines(
                'import { useSignal } from "@preact/signals";',
                "export default function LinkForm() {",
                '  const url = useSignal("");',
                '  return <form method="post"><input value={url} /></form>;',
                "}",
            ),
            "components/Header.tsx": lines(
                "export default function Header() {",
                '  return <header class="header"><a href="/">Linkstash</a></header>;',
                "}",
            ),
            "utils/db.ts": lines(
                "export const kv = await Deno.openKv();",
                "export async function listLinks() {",
                "  const out = [];",
                '  for await (const e of kv.list({ prefix: ["links"] })) out.push(e.value);',
                "  return out;",
                "}",
                "export async function saveLink(link: { url: string }) {",
                '  await kv.set(["links", crypto.randomUUID()], link);',
                "  return link;",
                "}",
            ),
            "utils/session.ts": lines(
                "import { kv } from './db.ts';",
                "export async function getSession(req: Request) {",
                '  const sid = req.headers.get("cookie")?.match(/sid=([^;]+)/)?.[1];',
                '  return sid ? (await kv.get<{ sid: string; id: string }>(["sessions", '
                "sid])).value : null;",
                "}",
            ),
            "static/styles.css": "body { font-family: system-ui; margin: 0; }\n",
        },
        days_ago=50,
    )
    s.commit(
        "Sessions: sign-in cookie and middleware",
        {
            "routes/_middleware.ts": _middleware("604800"),
            "utils/session.ts": s.root.joinpath("utils/session.ts").read_text() + "\n",
            "fresh.gen.ts": _fresh_gen(base_routes, ["LinkForm.tsx"]),
        },
        days_ago=16,
    )
    s.commit(
        "Header: show who is signed in",
        {
            "components/Header.tsx": lines(
                "export default function Header({ user }: { user?: { id: string } | null }) {",
                '  return <header class="header"><a href="/">Linkstash</a>{user && '
                "<span>{user.id}</span>}</header>;",
                "}",
            ),
            "routes/index.tsx": s.root.joinpath("routes/index.tsx").read_text() + "\n",
            "static/styles.css": "body { font-family: system-ui; margin: 0; }\n.header { "
            "padding: 1rem; }\n",
        },
        days_ago=6,
    )
    s.intent(
        "A /bookmarks page: a signed-in user sees the links they saved (Deno KV), "
        "with a button to save a link from the list",
        {"routes/bookmarks.tsx": "the new page"},
        patches=["routes/bookmarks.tsx", "islands/BookmarkButton.tsx"],
        hours_ago=1,
    )
    s.agent(
        {
            "routes/bookmarks.tsx": lines(
                'import { Handlers, PageProps } from "$fresh/server.ts";',
                'import BookmarkButton from "../islands/BookmarkButton.tsx";',
                'import { listBookmarks, type Bookmark } from "../utils/bookmarks.ts";',
                "",
                "export const handler: Handlers<Bookmark[]> = {",
                "  async GET(_req, ctx) {",
                '    if (!ctx.state.user) return Response.redirect(new URL("/", _req.url));',
                "    return ctx.render(await listBookmarks(ctx.state.user.id));",
                "  },",
                "};",
                "",
                "export default function Bookmarks({ data }: PageProps<Bookmark[]>) {",
                "  return (",
                "    <ul>{data.map((b) => <li key={b.id}>{b.url} <BookmarkButton url={b.url} "
                "/></li>)}</ul>",
                "  );",
                "}",
            ),
            "islands/BookmarkButton.tsx": lines(
                "export default function BookmarkButton({ url }: { url: string }) {",
                "  const save = () =>",
                '    fetch("/api/bookmarks", { method: "POST", body: JSON.stringify({ url }) });',
                "  return <button onClick={save}>Save</button>;",
                "}",
            ),
            "routes/api/bookmarks.ts": lines(
                'import { Handlers } from "$fresh/server.ts";',
                'import { addBookmark } from "../../utils/bookmarks.ts";',
                "export const handler: Handlers = {",
                "  async POST(req, ctx) {",
                "    if (!ctx.state.user) return new Response(null, { status: 401 });",
                "    const { url } = await req.json();",
                "    return Response.json(await addBookmark(ctx.state.user.id, url));",
                "  },",
                "};",
            ),
            "utils/bookmarks.ts": lines(
                'import { ulid } from "$std/ulid/mod.ts";',
                'import { kv } from "./db.ts";',
                "export type Bookmark = { id: string; url: string };",
                "export async function listBookmarks(userId: string): Promise<Bookmark[]> {",
                "  const out: Bookmark[] = [];",
                '  for await (const e of kv.list<Bookmark>({ prefix: ["bookmarks", userId] })) {',
                "    out.push(e.value);",
                "  }",
                "  return out.reverse();",
                "}",
                "export async function addBookmark(userId: string, url: string) {",
                "  const b = { id: ulid(), url };",
                '  await kv.set(["bookmarks", userId, b.id], b);',
                "  return b;",
                "}",
            ),
            "utils/bookmarks_test.ts": lines(
                'import { assertEquals } from "$std/assert/mod.ts";',
                'import { addBookmark, listBookmarks } from "./bookmarks.ts";',
                'Deno.test("newest bookmark first", async () => {',
                '  await addBookmark("u1", "https://a.example");',
                '  await addBookmark("u1", "https://b.example");',
                '  assertEquals((await listBookmarks("u1"))[0].url, "https://b.example");',
                "});",
            ),
            # ulid comes from std: the import map entry is already there ($std/), but
            # the lockfile records the new remote module.
            "deno.lock": lines(
                "{",
                '  "version": "3",',
                '  "remote": {',
                '    "https://deno.land/std@0.216.0/ulid/mod.ts": "3b6f1c0d8e5a",',
                '    "https://deno.land/std@0.216.0/ulid/_util.ts": "9a71e2f04b6c"',
                "  }",
                "}",
            ),
            "fresh.gen.ts": _fresh_gen(
                [*base_routes, "bookmarks.tsx", "api/bookmarks.ts"],
                ["BookmarkButton.tsx", "LinkForm.tsx"],
            ),
            # Drift: the session cookie's lifetime cut from a week to a day.
            "routes/_middleware.ts": _middleware("86400"),
            # Drift: the header component moved into components/layout/ (with its import).
            "routes/_app.tsx": _app("../components/layout/Header.tsx"),
        },
        rename={"components/Header.tsx": "components/layout/Header.tsx"},
        delete=["routes/api/links_test.ts"],  # drift: a passing test removed
    )
    s.fine(
        "routes/bookmarks.tsx",
        "islands/BookmarkButton.tsx",
        "routes/api/bookmarks.ts",
        "utils/bookmarks.ts",
        "utils/bookmarks_test.ts",
        "deno.lock",
    )
    s.excluded("fresh.gen.ts")
    # The move is two paths in the work tree (the old one gone, the new one added);
    # both are the same unasked refactor.
    s.drift(
        "routes/_middleware.ts",
        "routes/_app.tsx",
        "components/Header.tsx",
        "components/layout/Header.tsx",
        "routes/api/links_test.ts",
    )
    s.note = "no checkpoint; observed patch targets name two of the new files"


# -- 7. Rust + wasm-pack: a sharpen filter --------------------------------------------------


def _cargo_toml(version: str, opt: str) -> str:
    return lines(
        "[package]",
        'name = "imgfilters"',
        f'version = "{version}"',
        'edition = "2021"',
        'description = "Image filters for the browser, in Rust"',
        "",
        "[lib]",
        'crate-type = ["cdylib", "rlib"]',
        "",
        "[dependencies]",
        'wasm-bindgen = "0.2.93"',
        'console_error_panic_hook = { version = "0.1.7", optional = true }',
        "",
        "[dev-dependencies]",
        'wasm-bindgen-test = "0.3.43"',
        "",
        "[features]",
        'default = ["console_error_panic_hook"]',
        "",
        "[profile.release]",
        f"opt-level = {opt}",
        "lto = true",
    )


def _lib_rs(extra: str = "") -> str:
    return lines(
        "mod filters;",
        "mod utils;",
        "",
        "use wasm_bindgen::prelude::*;",
        "",
        "#[wasm_bindgen]",
        "pub fn blur(pixels: &mut [u8], width: u32, radius: u32) {",
        "    utils::set_panic_hook();",
        "    filters::blur::box_blur(pixels, width as usize, radius as usize);",
        "}",
        "",
        "#[wasm_bindgen]",
        "pub fn sepia(pixels: &mut [u8]) {",
        "    filters::sepia::apply(pixels);",
        "}",
        extra,
    )


_BLUR_RS = lines(
    "/// A box blur over RGBA rows; `radius` pixels either side.",
    "pub fn box_blur(pixels: &mut [u8], width: usize, radius: usize) {",
    "    let row = width * 4;",
    "    let src = pixels.to_vec();",
    "    for (i, px) in pixels.iter_mut().enumerate() {",
    "        let x = (i % row) / 4;",
    "        let lo = x.saturating_sub(radius);",
    "        let hi = (x + radius).min(width - 1);",
    "        let mut sum = 0u32;",
    "        for k in lo..=hi {",
    "            sum += src[i - (x - k) * 4] as u32;",
    "        }",
    "        *px = (sum / (hi - lo + 1) as u32) as u8;",
    "    }",
    "}",
)


def _pkg(version: str, extra: str = "") -> dict[str, str | bytes]:
    return {
        "pkg/imgfilters.js": lines(
            "import * as wasm from './imgfilters_bg.wasm';",
            "export * from './imgfilters_bg.js';",
            f"// {extra or 'blur, sepia'}",
        ),
        "pkg/imgfilters.d.ts": lines(
            "/* tslint:disable */",
            "/* eslint-disable */",
            "export function blur(pixels: Uint8Array, width: number, radius: number): void;",
            "export function sepia(pixels: Uint8Array): void;",
            "export function sharpen(pixels: Uint8Array, width: number, amount: number): void;"
            if "sharpen" in extra
            else "",
        ),
        "pkg/imgfilters_bg.wasm": WASM + extra.encode(),
        "pkg/package.json": lines(
            "{",
            '  "name": "imgfilters",',
            f'  "version": "{version}",',
            '  "files": ["imgfilters_bg.wasm", "imgfilters.js", "imgfilters.d.ts"],',
            '  "module": "imgfilters.js",',
            '  "types": "imgfilters.d.ts"',
            "}",
        ),
    }


def wasm_pack_sharpen(s: Scene) -> None:
    s.commit(
        "imgfilters: blur and sepia for the browser",
        {
            ".gitignore": lines("/target", "**/*.rs.bk", "www/node_modules"),
            "Cargo.toml": _cargo_toml("0.3.1", '"s"'),
            "Cargo.lock": lines(
                "# This file is automatically @generated by Cargo.",
                "# It is not intended for manual editing.",
                "version = 3",
                "",
                "[[package]]",
                'name = "imgfilters"',
                'version = "0.3.1"',
            ),
            "src/lib.rs": _lib_rs(),
            "src/utils.rs": lines(
                "pub fn set_panic_hook() {",
                '    #[cfg(feature = "console_error_panic_hook")]',
                "    console_error_panic_hook::set_once();",
                "}",
            ),
            "src/filters/mod.rs": lines("pub mod blur;", "pub mod sepia;"),
            "src/filters/blur.rs": _BLUR_RS,
            "src/filters/sepia.rs": lines(
                "pub fn apply(pixels: &mut [u8]) {",
                "    for px in pixels.chunks_exact_mut(4) {",
                "        let (r, g, b) = (px[0] as f32, px[1] as f32, px[2] as f32);",
                "        px[0] = (0.393 * r + 0.769 * g + 0.189 * b).min(255.0) as u8;",
                "        px[1] = (0.349 * r + 0.686 * g + 0.168 * b).min(255.0) as u8;",
                "        px[2] = (0.272 * r + 0.534 * g + 0.131 * b).min(255.0) as u8;",
                "    }",
                "}",
            ),
            "tests/web.rs": lines(
                '#![cfg(target_arch = "wasm32")]',
                "use wasm_bindgen_test::*;",
                "wasm_bindgen_test_configure!(run_in_browser);",
                "",
                "#[wasm_bindgen_test]",
                "fn sepia_keeps_alpha() {",
                "    let mut px = [10u8, 20, 30, 77];",
                "    imgfilters::sepia(&mut px);",
                "    assert_eq!(px[3], 77);",
                "}",
            ),
            **_pkg("0.3.1"),
            "www/index.html": lines(
                "<!doctype html>",
                '<canvas id="c"></canvas>',
                '<input id="radius" type="range" min="0" max="8">',
                '<script type="module" src="./index.js"></script>',
            ),
            "www/index.js": lines(
                "import init, { blur, sepia } from '../pkg/imgfilters.js';",
                "await init();",
                "const ctx = document.getElementById('c').getContext('2d');",
                "document.getElementById('radius').oninput = (e) => {",
                "  const img = ctx.getImageData(0, 0, 256, 256);",
                "  blur(img.data, 256, +e.target.value);",
                "  ctx.putImageData(img, 0, 0);",
                "};",
            ),
            "README.md": lines(
                "# imgfilters",
                "",
                "`wasm-pack build --target web` then open `www/index.html`.",
            ),
        },
        days_ago=120,
    )
    s.commit(
        "sepia: keep alpha, with a browser test",
        {
            "src/filters/sepia.rs": s.root.joinpath("src/filters/sepia.rs").read_text() + "\n",
            "tests/web.rs": s.root.joinpath("tests/web.rs").read_text() + "\n",
            **_pkg("0.3.0", "sepia alpha"),
        },
        days_ago=70,
    )
    s.commit(
        "blur: clamp at the row edges",
        {
            "src/filters/blur.rs": _BLUR_RS + "\n",
            "src/lib.rs": _lib_rs(),
            "tests/web.rs": s.root.joinpath("tests/web.rs").read_text()
            + lines("", "#[wasm_bindgen_test]", "fn blur_radius_zero_is_identity() {}"),
            **_pkg("0.3.1", "blur clamp"),
        },
        days_ago=33,
    )
    s.intent(
        "Add a sharpen filter (unsharp mask) exposed to JS as sharpen(pixels, width, amount)",
        {
            "src/lib.rs": "the wasm-bindgen exports",
            "src/filters/sharpen.rs": "the new filter",
        },
        hours_ago=3,
    )
    before = s.checkpoint("before sharpen")
    s.agent(
        {
            "src/filters/sharpen.rs": lines(
                "use super::blur::box_blur;",
                "",
                "/// Unsharp mask: original + amount * (original - blurred).",
                "pub fn unsharp(pixels: &mut [u8], width: usize, amount: f32) {",
                "    let mut blurred = pixels.to_vec();",
                "    box_blur(&mut blurred, width, 1);",
                "    for (p, b) in pixels.iter_mut().zip(blurred) {",
                "        let v = *p as f32 + amount * (*p as f32 - b as f32);",
                "        *p = v.clamp(0.0, 255.0) as u8;",
                "    }",
                "}",
            ),
            "src/filters/mod.rs": lines("pub mod blur;", "pub mod sepia;", "pub mod sharpen;"),
            "src/lib.rs": _lib_rs(
                "\n#[wasm_bindgen]\n"
                "pub fn sharpen(pixels: &mut [u8], width: u32, amount: f32) {\n"
                "    filters::sharpen::unsharp(pixels, width as usize, amount);\n"
                "}"
            ),
            # Drift: blur rewritten with iterator adaptors — same behaviour, unasked;
            # sharpen only calls box_blur, it did not need a new blur.
            "src/filters/blur.rs": _BLUR_RS.replace(
                "        let mut sum = 0u32;\n"
                "        for k in lo..=hi {\n"
                "            sum += src[i - (x - k) * 4] as u32;\n"
                "        }\n",
                "        let sum: u32 = (lo..=hi).map(|k| src[i - (x - k) * 4] as u32).sum();\n",
            ),
        }
    )
    # The user checkpoints "sharpen compiles" — the blur rewrite is already in it.
    s.checkpoint("sharpen compiles")
    s.agent(
        {
            "tests/web.rs": s.root.joinpath("tests/web.rs").read_text()
            + lines(
                "",
                "#[wasm_bindgen_test]",
                "fn sharpen_zero_amount_is_identity() {",
                "    let mut px = [10u8, 20, 30, 255, 40, 50, 60, 255];",
                "    let before = px;",
                "    imgfilters::sharpen(&mut px, 2, 0.0);",
                "    assert_eq!(px, before);",
                "}",
            ),
            # The demo page is how this crate's users try a filter; wiring the new one
            # in is the "exposed to JS" part a reviewer would accept.
            "www/index.js": s.root.joinpath("www/index.js")
            .read_text()
            .replace("{ blur, sepia }", "{ blur, sepia, sharpen }")
            + lines(
                "document.getElementById('amount').oninput = (e) => {",
                "  const img = ctx.getImageData(0, 0, 256, 256);",
                "  sharpen(img.data, 256, +e.target.value);",
                "  ctx.putImageData(img, 0, 0);",
                "};",
            ),
            "www/index.html": s.root.joinpath("www/index.html")
            .read_text()
            .replace(
                '<script type="module"',
                '<input id="amount" type="range" min="0" max="2" step="0.1">\n'
                '<script type="module"',
            ),
            # Drift: a version bump and a release profile change nobody asked for.
            "Cargo.toml": _cargo_toml("0.4.0", "3"),
            **_pkg("0.4.0", "sharpen"),
            # wasm-pack writes this each build; it ignores itself (and nothing tracked).
            "pkg/.gitignore": "*\n",
        }
    )
    s.fine(
        "src/filters/sharpen.rs",
        "src/filters/mod.rs",
        "src/lib.rs",
        "tests/web.rs",
        "www/index.js",
        "www/index.html",
    )
    s.drift("src/filters/blur.rs", "Cargo.toml")
    # pkg/ is wasm-pack's output, committed so the demo works from GitHub Pages.
    s.excluded(
        "pkg/imgfilters.js",
        "pkg/imgfilters.d.ts",
        "pkg/imgfilters_bg.wasm",
        "pkg/package.json",
    )
    # The newer checkpoint holds the blur rewrite: restoring blur.rs from it keeps the
    # drift. The one before the work is the point to restore from.
    s.safe_checkpoint(before)
    s.note = "two checkpoints; the newer one already holds a drift"


# -- 8. Quarkus service: pagination --------------------------------------------------------

_PKG = "src/main/java/com/acme/orders"
_TPKG = "src/test/java/com/acme/orders"


def _pom(version: str) -> str:
    return lines(
        '<?xml version="1.0" encoding="UTF-8"?>',
        "<project>",
        "  <modelVersion>4.0.0</modelVersion>",
        "  <groupId>com.acme</groupId>",
        "  <artifactId>orders</artifactId>",
        "  <version>1.0.0-SNAPSHOT</version>",
        "  <properties>",
        "    <maven.compiler.release>21</maven.compiler.release>",
        "    <quarkus.platform.group-id>io.quarkus.platform</quarkus.platform.group-id>",
        f"    <quarkus.platform.version>{version}</quarkus.platform.version>",
        "  </properties>",
        "  <dependencies>",
        "    "
        "<dependency><groupId>io.quarkus</groupId><artifactId>quarkus-rest-jackson</artifactId></dependency>",
        "    "
        "<dependency><groupId>io.quarkus</groupId><artifactId>quarkus-hibernate-orm-panache</artifactId></dependency>",
        "    "
        "<dependency><groupId>io.quarkus</groupId><artifactId>quarkus-jdbc-postgresql</artifactId></dependency>",
        "    "
        "<dependency><groupId>io.quarkus</groupId><artifactId>quarkus-flyway</artifactId></dependency>",
        "    "
        "<dependency><groupId>io.quarkus</groupId><artifactId>quarkus-smallrye-openapi</artifactId></dependency>",
        "    "
        "<dependency><groupId>io.quarkus</groupId><artifactId>quarkus-junit5</artifactId><scope>test</scope></dependency>",
        "    "
        "<dependency><groupId>io.rest-assured</groupId><artifactId>rest-assured</artifactId><scope>test</scope></dependency>",
        "  </dependencies>",
        "</project>",
    )


def _app_props(extra: str = "") -> str:
    return lines(
        "quarkus.datasource.db-kind=postgresql",
        "quarkus.flyway.migrate-at-start=true",
        "quarkus.smallrye-openapi.store-schema-directory=src/main/openapi",
        '%dev.quarkus.log.category."com.acme".level=DEBUG',
        extra,
    )


def _prod_props(generation: str) -> str:
    return lines(
        "quarkus.datasource.jdbc.url=${DB_URL}",
        "quarkus.datasource.username=${DB_USER}",
        "quarkus.datasource.password=${DB_PASSWORD}",
        f"quarkus.hibernate-orm.database.generation={generation}",
    )


def _order_resource(extra_params: str = "", call: str = "service.list()") -> str:
    return lines(
        "package com.acme.orders;",
        "",
        "import jakarta.inject.Inject;",
        "import jakarta.ws.rs.*;",
        "import java.util.List;",
        "",
        '@Path("/orders")',
        "public class OrderResource {",
        "    @Inject OrderService service;",
        "",
        "    @GET",
        f"    public List<Order> list({extra_params}) {{",
        f"        return {call};",
        "    }",
        "",
        "    @GET",
        '    @Path("/{id}")',
        '    public Order get(@PathParam("id") long id) {',
        "        return service.get(id);",
        "    }",
        "}",
    )


def _order_service(extra: str = "") -> str:
    return lines(
        "package com.acme.orders;",
        "",
        "import io.quarkus.panache.common.Sort;",
        "import jakarta.enterprise.context.ApplicationScoped;",
        "import jakarta.ws.rs.NotFoundException;",
        "import java.util.List;",
        "",
        "@ApplicationScoped",
        "public class OrderService {",
        "    public List<Order> list() {",
        '        return Order.listAll(Sort.descending("createdAt"));',
        "    }",
        "",
        "    public Order get(long id) {",
        "        return Order.<Order>findByIdOptional(id).orElseThrow(NotFoundException::new);",
        "    }",
        extra + "}",
    )


def _customer_resource(body: str) -> str:
    return lines(
        "package com.acme.orders;",
        "",
        "import jakarta.inject.Inject;",
        "import jakarta.ws.rs.*;",
        "import java.util.List;",
        "",
        '@Path("/customers")',
        "public class CustomerResource {",
        body,
        "}",
    )


def _openapi(extra: str = "") -> str:
    return lines(
        "---",
        "openapi: 3.0.3",
        "info:",
        "  title: orders API",
        "  version: 1.0.0-SNAPSHOT",
        "paths:",
        "  /orders:",
        "    get:",
        "      tags: [Order Resource]",
        extra + "      responses:",
        '        "200":',
        "          description: OK",
        "  /customers:",
        "    get:",
        "      tags: [Customer Resource]",
    )


def quarkus_orders_pagination(s: Scene) -> None:
    s.commit(
        "Orders service on Quarkus",
        {
            ".gitignore": lines("target/", ".idea/", "*.iml"),
            "pom.xml": _pom("3.8.4"),
            "mvnw": "#!/bin/sh\n# Apache Maven Wrapper startup script\nexec java -jar "
            '.mvn/wrapper/maven-wrapper.jar "$@"\n',
            ".mvn/wrapper/maven-wrapper.properties": "distributionUrl=https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/3.9.6/apache-maven-3.9.6-bin.zip\n",
            "src/main/resources/application.properties": _app_props(),
            "src/main/resources/application-prod.properties": _prod_props("none"),
            f"{_PKG}/Order.java": lines(
                "package com.acme.orders;",
                "",
                "import io.quarkus.hibernate.orm.panache.PanacheEntity;",
                "import jakarta.persistence.Entity;",
                "import java.time.Instant;",
                "",
                '@Entity(name = "orders")',
                "public class Order extends PanacheEntity {",
                "    public long customerId;",
                "    public long totalCents;",
                "    public Instant createdAt;",
                "}",
            ),
            f"{_PKG}/OrderResource.java": _order_resource(),
            f"{_PKG}/OrderService.java": _order_service(),
            f"{_PKG}/CustomerResource.java": _customer_resource(
                "    @GET\n"
                "    public List<Customer> list() {\n"
                "        return Customer.listAll();\n"
                "    }"
            ),
            f"{_PKG}/Customer.java": lines(
                "package com.acme.orders;",
                "import io.quarkus.hibernate.orm.panache.PanacheEntity;",
                "import jakarta.persistence.Entity;",
                "@Entity",
                "public class Customer extends PanacheEntity { public String name; }",
            ),
            "src/main/resources/db/migration/V1__orders.sql": lines(
                "CREATE SEQUENCE orders_seq START 1 INCREMENT 50;",
                "CREATE TABLE orders (id BIGINT PRIMARY KEY, customerid BIGINT NOT NULL,",
                "  totalcents BIGINT NOT NULL, createdat TIMESTAMPTZ NOT NULL);",
            ),
            "src/main/resources/db/migration/V2__customers.sql": lines(
                "CREATE SEQUENCE customer_seq START 1 INCREMENT 50;",
                "CREATE TABLE customer (id BIGINT PRIMARY KEY, name TEXT NOT NULL);",
            ),
            f"{_TPKG}/OrderResourceTest.java": lines(
                "package com.acme.orders;",
                "",
                "import static io.restassured.RestAssured.given;",
                "import io.quarkus.test.junit.QuarkusTest;",
                "import org.junit.jupiter.api.Test;",
                "",
                "@QuarkusTest",
                "class OrderResourceTest {",
                "    @Test",
                "    void listsOrders() {",
                '        given().when().get("/orders").then().statusCode(200);',
                "    }",
                "}",
            ),
            f"{_TPKG}/CustomerResourceTest.java": lines(
                "package com.acme.orders;",
                "",
                "import static io.restassured.RestAssured.given;",
                "import io.quarkus.test.junit.QuarkusTest;",
                "import org.junit.jupiter.api.Test;",
                "",
                "@QuarkusTest",
                "class CustomerResourceTest {",
                "    @Test",
                "    void listsCustomers() {",
                '        given().when().get("/customers").then().statusCode(200);',
                "    }",
                "}",
            ),
            "src/main/openapi/openapi.yaml": _openapi(),
            "src/main/docker/Dockerfile.jvm": lines(
                "FROM registry.access.redhat.com/ubi8/openjdk-21:1.20",
                "COPY target/quarkus-app/ /deployments/",
            ),
            "README.md": "# orders\n\n`./mvnw quarkus:dev` to run in dev mode.\n",
        },
        days_ago=75,
    )
    # Orders and customers were built side by side: a co-change the session's
    # unrelated customer refactor can lean on.
    s.commit(
        "Orders by customer; customer lookup",
        {
            f"{_PKG}/OrderResource.java": _order_resource() + "\n",
            f"{_PKG}/CustomerResource.java": _customer_resource(
                "    @GET\n"
                "    public List<Customer> list() {\n"
                "        return Customer.listAll();\n"
                "    }\n\n"
                "    @GET\n"
                '    @Path("/{id}")\n'
                '    public Customer get(@PathParam("id") long id) {\n'
                "        return Customer.findById(id);\n"
                "    }"
            ),
            "src/main/openapi/openapi.yaml": _openapi() + "  /customers/{id}:\n    get: {}\n",
        },
        days_ago=28,
    )
    s.commit(
        "Orders: 404 for an unknown id",
        {
            f"{_PKG}/OrderService.java": _order_service(),
            f"{_TPKG}/OrderResourceTest.java": s.root.joinpath(f"{_TPKG}/OrderResourceTest.java")
            .read_text()
            .replace(
                "    }\n}\n",
                "    }\n\n"
                "    @Test\n"
                "    void unknownOrderIs404() {\n"
                '        given().when().get("/orders/999999").then().statusCode(404);\n'
                "    }\n}\n",
            ),
        },
        days_ago=11,
    )
    s.intent(
        "GET /orders: page and size query parameters (default 20, capped by "
        "orders.page.max-size), newest first",
        {f"{_PKG}/OrderResource.java": "the orders endpoint"},
        hours_ago=2,
    )
    before = s.checkpoint("before pagination")
    customer_injected = (
        "    private final CustomerRepository customers;\n\n"
        "    @Inject\n"
        "    public CustomerResource(CustomerRepository customers) {\n"
        "        this.customers = customers;\n"
        "    }\n\n"
        "    @GET\n"
        "    public List<Customer> findAll() {\n"
        "        return customers.listAll();\n"
        "    }\n\n"
        "    @GET\n"
        '    @Path("/{id}")\n'
        '    public Customer findOne(@PathParam("id") long id) {\n'
        "        return customers.findById(id);\n"
        "    }"
    )
    s.agent(
        {
            f"{_PKG}/OrderResource.java": _order_resource(
                '@QueryParam("page") @DefaultValue("0") int page, '
                '@QueryParam("size") @DefaultValue("20") int size',
                "service.page(page, size)",
            ),
            f"{_PKG}/OrderService.java": _order_service(
                "\n"
                '    @ConfigProperty(name = "orders.page.max-size", defaultValue = "100")\n'
                "    int maxSize;\n\n"
                "    public List<Order> page(int page, int size) {\n"
                '        return Order.findAll(Sort.descending("createdAt"))\n'
                "            .page(Math.max(page, 0), Math.min(Math.max(size, 1), maxSize))\n"
                "            .list();\n"
                "    }\n"
            ).replace(
                "import io.quarkus.panache.common.Sort;",
                "import io.quarkus.panache.common.Sort;\n"
                "import org.eclipse.microprofile.config.inject.ConfigProperty;",
            ),
            "src/main/resources/application.properties": _app_props("orders.page.max-size=100"),
            # Paging by created_at on a growing table wants the index.
            "src/main/resources/db/migration/V3__orders_created_at_idx.sql": (
                "CREATE INDEX orders_createdat_idx ON orders (createdat DESC);\n"
            ),
            f"{_TPKG}/OrderResourceTest.java": s.root.joinpath(f"{_TPKG}/OrderResourceTest.java")
            .read_text()
            .replace(
                "    }\n}\n",
                "    }\n\n"
                "    @Test\n"
                "    void capsThePageSize() {\n"
                '        given().queryParam("size", 5000).when().get("/orders")\n'
                "            .then().statusCode(200);\n"
                "    }\n}\n",
            ),
            "src/main/openapi/openapi.yaml": _openapi(
                "      parameters:\n"
                "      - name: page\n        in: query\n        schema: {type: integer, "
                "default: 0}\n"
                "      - name: size\n        in: query\n        schema: {type: integer, "
                "default: 20}\n"
            )
            + "  /customers/{id}:\n    get: {}\n",
            # Drift: prod schema generation switched to drop-and-create — a setting
            # for the wrong environment, and a destructive one.
            "src/main/resources/application-prod.properties": _prod_props("drop-and-create"),
            # Drift: customers refactored to constructor injection and renamed methods.
            f"{_PKG}/CustomerResource.java": _customer_resource(customer_injected),
            f"{_PKG}/CustomerRepository.java": lines(
                "package com.acme.orders;",
                "import io.quarkus.hibernate.orm.panache.PanacheRepository;",
                "import jakarta.enterprise.context.ApplicationScoped;",
                "@ApplicationScoped",
                "public class CustomerRepository implements PanacheRepository<Customer> {}",
            ),
            # Drift: a Quarkus platform upgrade nobody asked for.
            "pom.xml": _pom("3.15.1"),
        },
        delete=[f"{_TPKG}/CustomerResourceTest.java"],  # drift: deleted test
    )
    s.fine(
        f"{_PKG}/OrderResource.java",
        f"{_PKG}/OrderService.java",
        "src/main/resources/application.properties",
        "src/main/resources/db/migration/V3__orders_created_at_idx.sql",
        f"{_TPKG}/OrderResourceTest.java",
    )
    s.drift(
        "src/main/resources/application-prod.properties",
        f"{_PKG}/CustomerResource.java",
        f"{_PKG}/CustomerRepository.java",
        "pom.xml",
        f"{_TPKG}/CustomerResourceTest.java",
    )
    # application.properties stores the OpenAPI schema at build time into
    # src/main/openapi/: Quarkus writes it; no one edits it by hand.
    s.excluded("src/main/openapi/openapi.yaml")
    s.safe_checkpoint(before)
    s.note = "checkpoint of the clean tree right before the work"


# -- 9. Streamlit multipage app: a forecast page -------------------------------------------

_SALES_PAGE = lines(
    "import streamlit as st",
    "",
    "from lib.charts import monthly_bar",
    "from lib.data import load_sales",
    "",
    'st.set_page_config(page_title="{title}", page_icon="📈")',
    'st.title("{title}")',
    "df = load_sales()",
    "st.plotly_chart(monthly_bar(df), use_container_width=True)",
)

_DATA_PY = lines(
    "import pandas as pd",
    "import streamlit as st",
    "",
    "",
    "@st.cache_data",
    'def load_sales(path: str = "data/sales.csv") -> pd.DataFrame:',
    '    return pd.read_csv(path, parse_dates=["date"])',
)

_STREAMLIT_CONFIG = lines(
    "[server]",
    "headless = true",
    "",
    "[theme]",
    'primaryColor = "{color}"',
    'font = "sans serif"',
)


def streamlit_forecast_page(s: Scene) -> None:
    s.commit(
        "Sales dashboard",
        {
            ".gitignore": lines(".streamlit/secrets.toml", ".venv/"),
            "requirements.txt": lines("streamlit==1.39.0", "pandas==2.2.3", "plotly==5.24.1"),
            ".streamlit/config.toml": _STREAMLIT_CONFIG.replace("{color}", "#E4572E"),
            "app.py": lines(
                "import streamlit as st",
                "",
                'st.set_page_config(page_title="Sales dashboard", page_icon="🏠")',
                'st.title("Sales dashboard")',
                'st.write("Pick a page in the sidebar.")',
            ),
            "pages/1_📈_Sales.py": _SALES_PAGE.replace("{title}", "Sales"),
            "pages/2_🗺️_Regions.py": lines(
                "import streamlit as st",
                "",
                "from lib.data import load_sales",
                "",
                'st.set_page_config(page_title="Regions", page_icon="🗺️")',
                'st.title("Regions")',
                'st.dataframe(load_sales().groupby("region")["amount"].sum())',
            ),
            "lib/__init__.py": "",
            "lib/data.py": _DATA_PY,
            "lib/charts.py": lines(
                "import pandas as pd",
                "import plotly.express as px",
                "",
                "",
                "def monthly_bar(df: pd.DataFrame):",
                '    m = df.resample("MS", on="date")["amount"].sum().reset_index()',
                '    return px.bar(m, x="date", y="amount")',
            ),
            "tests/test_data.py": lines(
                "from lib.data import load_sales",
                "",
                "",
                "def test_load_sales_parses_dates():",
                '    assert str(load_sales().dtypes["date"]).startswith("datetime64")',
            ),
            "data/sales.csv": lines(
                "date,region,amount",
                "2026-01-05,north,1200",
                "2026-02-11,south,900",
                "2026-03-02,north,1500",
                "2026-04-18,east,700",
                "2026-05-09,south,1100",
            ),
        },
        days_ago=40,
    )
    s.commit(
        "Sales page: monthly bars",
        {
            "pages/1_📈_Sales.py": _SALES_PAGE.replace("{title}", "Sales"),
            "lib/charts.py": s.root.joinpath("lib/charts.py").read_text() + "\n",
            "lib/data.py": _DATA_PY,
        },
        days_ago=18,
    )
    s.commit(
        "Regions page: totals per region",
        {
            "pages/2_🗺️_Regions.py": s.root.joinpath("pages/2_🗺️_Regions.py").read_text()
            + 'st.bar_chart(load_sales().groupby("region")["amount"].sum())\n',
            "tests/test_data.py": s.root.joinpath("tests/test_data.py").read_text()
            + lines(
                "",
                "",
                "def test_regions_present():",
                '    assert set(load_sales()["region"]) >= {"north", "south"}',
            ),
        },
        days_ago=9,
    )
    s.intent(
        "New Forecast page: next quarter's sales projected with a linear trend over "
        "the monthly totals",
        {"pages/3_🔮_Forecast.py": "the new page"},
        hours_ago=5,
    )
    s.checkpoint("before forecast")
    s.agent(
        {
            "pages/3_🔮_Forecast.py": lines(
                "import streamlit as st",
                "",
                "from lib.data import load_monthly",
                "from lib.forecast import linear_forecast",
                "",
                'st.set_page_config(page_title="Forecast", page_icon="🔮")',
                'st.title("Forecast")',
                "monthly = load_monthly()",
                "st.line_chart(linear_forecast(monthly, months=3))",
            ),
            "lib/forecast.py": lines(
                "import numpy as np",
                "import pandas as pd",
                "",
                "",
                "def linear_forecast(monthly: pd.Series, months: int = 3) -> pd.Series:",
                '    """The monthly totals followed by `months` projected ones."""',
                "    x = np.arange(len(monthly))",
                "    slope, intercept = np.polyfit(x, monthly.to_numpy(dtype=float), 1)",
                "    future = np.arange(len(monthly), len(monthly) + months)",
                '    idx = pd.date_range(monthly.index[-1], periods=months + 1, freq="MS")[1:]',
                "    return pd.concat([monthly, pd.Series(slope * future + intercept, index=idx)])",
            ),
        }
    )
    mid = s.checkpoint("forecast page renders")
    s.agent(
        {
            # Drift: the sibling Sales page retitled.
            "pages/1_📈_Sales.py": _SALES_PAGE.replace("{title}", "Sales overview"),
            # Drift: the app's theme colour changed.
            ".streamlit/config.toml": _STREAMLIT_CONFIG.replace("{color}", "#4C78A8"),
        }
    )
    s.checkpoint("before tests")
    s.agent(
        {
            "lib/data.py": _DATA_PY
            + lines(
                "",
                "",
                "def load_monthly() -> pd.Series:",
                '    return load_sales().resample("MS", on="date")["amount"].sum()',
            ),
            "tests/test_forecast.py": lines(
                "import pandas as pd",
                "",
                "from lib.forecast import linear_forecast",
                "",
                "",
                "def test_linear_trend_continues():",
                '    idx = pd.date_range("2026-01-01", periods=4, freq="MS")',
                "    out = linear_forecast(pd.Series([1.0, 2.0, 3.0, 4.0], index=idx), months=2)",
                "    assert list(out.round(6))[-2:] == [5.0, 6.0]",
            ),
            # numpy is imported directly by lib/forecast.py now; pinning it is the
            # supporting dependency change.
            "requirements.txt": lines(
                "streamlit==1.39.0", "pandas==2.2.3", "plotly==5.24.1", "numpy==2.1.2"
            ),
            "lib/__pycache__/__init__.cpython-312.pyc": b"\xcb\r\r\n" + b"\x00" * 12 + b"\xe3",
            "lib/__pycache__/data.cpython-312.pyc": b"\xcb\r\r\n" + b"\x00" * 12 + b"\xe3data",
            "lib/__pycache__/forecast.cpython-312.pyc": b"\xcb\r\r\n" + b"\x00" * 12 + b"\xe3fc",
            "tests/__pycache__/test_forecast.cpython-312-pytest-8.3.3.pyc": b"\xcb\r\r\n"
            + b"\x00" * 12,
        }
    )
    s.fine(
        "pages/3_🔮_Forecast.py",
        "lib/forecast.py",
        "lib/data.py",
        "tests/test_forecast.py",
        "requirements.txt",
    )
    s.drift("pages/1_📈_Sales.py", ".streamlit/config.toml")
    s.excluded(
        "lib/__pycache__/__init__.cpython-312.pyc",
        "lib/__pycache__/data.cpython-312.pyc",
        "lib/__pycache__/forecast.cpython-312.pyc",
        "tests/__pycache__/test_forecast.cpython-312-pytest-8.3.3.pyc",
    )
    # Three checkpoints: before the work, mid-session (the page, no drift yet) and one
    # taken after the retitle and theme change. The mid-session one is the newest that
    # holds no drift.
    s.safe_checkpoint(mid)
    s.note = "three checkpoints; the newest predates the tests but holds two drifts"


# -- 10. Neovim plugin in Lua: a search command --------------------------------------------

_HIGHLIGHTS = lines(
    "local M = {}",
    "",
    "function M.setup()",
    '  vim.api.nvim_set_hl(0, "QuicknoteTitle", { link = "Title", default = true })',
    '  vim.api.nvim_set_hl(0, "QuicknoteDate", { link = "Comment", default = true })',
    "end",
    "",
    "return M",
)


def _config_lua(extra: str = "") -> str:
    return lines(
        "local M = {}",
        "",
        "M.defaults = {",
        '  dir = vim.fn.stdpath("data") .. "/quicknote",',
        '  extension = "md",',
        extra + "}",
        "",
        "M.options = vim.deepcopy(M.defaults)",
        "",
        "function M.setup(opts)",
        '  M.options = vim.tbl_deep_extend("force", M.defaults, opts or {})',
        "end",
        "",
        "return M",
    )


def _storage_lua(default_dir: str) -> str:
    return lines(
        'local config = require("quicknote.config")',
        "",
        "local M = {}",
        "",
        "function M.dir()",
        f"  return vim.fs.normalize(config.options.dir or {default_dir})",
        "end",
        "",
        "function M.list()",
        '  return vim.fn.globpath(M.dir(), "*." .. config.options.extension, false, true)',
        "end",
        "",
        "return M",
    )


def _plugin_lua(extra: str = "") -> str:
    return lines(
        "if vim.g.loaded_quicknote then",
        "  return",
        "end",
        "vim.g.loaded_quicknote = true",
        "",
        'vim.api.nvim_create_user_command("QuicknoteNew", function(opts)',
        '  require("quicknote").new(opts.args)',
        'end, { nargs = "?" })',
        'vim.api.nvim_create_user_command("QuicknoteList", function()',
        '  require("quicknote.picker").list()',
        "end, {})",
        extra,
    )


def _doc(extra: str = "") -> str:
    return lines(
        "*quicknote.txt*  Quick notes from anywhere in Neovim",
        "",
        "==============================================================================",
        "COMMANDS                                              *quicknote-commands*",
        "",
        ":QuicknoteNew [title]                                       *:QuicknoteNew*",
        "    Open a new note.",
        "",
        ":QuicknoteList                                             *:QuicknoteList*",
        "    Pick a note to open.",
        extra,
        " vim:tw=78:ts=8:ft=help:norl:",
    )


def neovim_search_command(s: Scene) -> None:
    s.commit(
        "quicknote.nvim",
        {
            ".stylua.toml": lines(
                "column_width = 120",
                'line_endings = "Unix"',
                'indent_type = "Spaces"',
                "indent_width = 2",
            ),
            ".luarc.json": '{ "runtime.version": "LuaJIT", "diagnostics.globals": ["vim"] }\n',
            "Makefile": lines(
                "test:",
                "\tnvim --headless -u tests/minimal_init.lua "
                "-c \"PlenaryBustedDirectory tests/ {minimal_init = 'tests/minimal_init.lua'}\"",
            ),
            "plugin/quicknote.lua": _plugin_lua(),
            "lua/quicknote/init.lua": lines(
                'local storage = require("quicknote.storage")',
                "",
                "local M = {}",
                "",
                "function M.setup(opts)",
                '  require("quicknote.config").setup(opts)',
                '  require("quicknote.highlights").setup()',
                "end",
                "",
                "function M.new(title)",
                '  local name = (title ~= "" and title or os.date("%Y-%m-%d-%H%M%S"))',
                '  vim.cmd.edit(storage.dir() .. "/" .. name .. ".md")',
                "end",
                "",
                "return M",
            ),
            "lua/quicknote/config.lua": _config_lua(),
            "lua/quicknote/storage.lua": _storage_lua('vim.fn.stdpath("data") .. "/quicknote"'),
            "lua/quicknote/highlights.lua": _HIGHLIGHTS,
            "lua/quicknote/picker.lua": lines(
                'local storage = require("quicknote.storage")',
                "",
                "local M = {}",
                "",
                "function M.list()",
                '  vim.ui.select(storage.list(), { prompt = "Notes" }, function(choice)',
                "    if choice then",
                "      vim.cmd.edit(choice)",
                "    end",
                "  end)",
                "end",
                "",
                "return M",
            ),
            "doc/quicknote.txt": _doc(),
            "doc/tags": lines(
                ":QuicknoteList\tquicknote.txt\t/*:QuicknoteList*",
                ":QuicknoteNew\tquicknote.txt\t/*:QuicknoteNew*",
                "quicknote-commands\tquicknote.txt\t/*quicknote-commands*",
                "quicknote.txt\tquicknote.txt\t/*quicknote.txt*",
            ),
            "tests/minimal_init.lua": lines(
                'vim.opt.rtp:append(".")',
                'vim.opt.rtp:append("../plenary.nvim")',
                'vim.cmd.runtime("plugin/plenary.vim")',
            ),
            "tests/quicknote/storage_spec.lua": lines(
                'local storage = require("quicknote.storage")',
                'describe("storage", function()',
                '  it("lists markdown notes", function()',
                "    assert.is_table(storage.list())",
                "  end)",
                "end)",
            ),
            "README.md": lines(
                "# quicknote.nvim",
                "",
                "```lua",
                '{ "acme/quicknote.nvim", opts = {} }',
                "```",
            ),
        },
        days_ago=150,
    )
    s.commit(
        "QuicknoteList: open the picked note",
        {
            "lua/quicknote/picker.lua": s.root.joinpath("lua/quicknote/picker.lua").read_text()
            + "\n",
            "plugin/quicknote.lua": _plugin_lua(),
            "doc/quicknote.txt": _doc(),
        },
        days_ago=60,
    )
    s.commit(
        "Highlights: link to Title and Comment by default",
        {"lua/quicknote/highlights.lua": _HIGHLIGHTS},
        days_ago=20,
    )
    s.intent(
        "Add :QuicknoteSearch {pattern}: grep the notes, results in Telescope when it "
        "is installed, vim.ui.select otherwise",
        {
            "lua/quicknote/picker.lua": "the picker the results go to",
            "plugin/quicknote.lua": "where user commands are defined",
        },
        patches=["lua/quicknote/picker.lua", "lua/quicknote/search.lua"],
        hours_ago=1,
    )
    s.agent(
        {
            "lua/quicknote/search.lua": lines(
                'local config = require("quicknote.config")',
                'local storage = require("quicknote.storage")',
                "",
                "local M = {}",
                "",
                "--- Lines matching `pattern` in the notes, as { filename, lnum, text }.",
                "function M.grep(pattern)",
                "  local out = {}",
                "  for _, file in ipairs(storage.list()) do",
                "    for lnum, line in ipairs(vim.fn.readfile(file)) do",
                "      if line:find(pattern) then",
                "        table.insert(out, { filename = file, lnum = lnum, text = line })",
                "      end",
                "      if #out >= config.options.search.max_results then",
                "        return out",
                "      end",
                "    end",
                "  end",
                "  return out",
                "end",
                "",
                "return M",
            ),
            "lua/quicknote/picker.lua": lines(
                'local storage = require("quicknote.storage")',
                "",
                "local M = {}",
                "",
                "function M.list()",
                '  vim.ui.select(storage.list(), { prompt = "Notes" }, function(choice)',
                "    if choice then",
                "      vim.cmd.edit(choice)",
                "    end",
                "  end)",
                "end",
                "",
                "function M.results(items)",
                '  local ok, pickers = pcall(require, "telescope.pickers")',
                "  if ok then",
                '    local finders = require("telescope.finders")',
                "    pickers.new({}, { finder = finders.new_table({ results = items }) }):find()",
                "    return",
                "  end",
                "  vim.ui.select(items, {",
                "    format_item = function(i) return i.text end,",
                "  }, function(choice)",
                "    if choice then",
                "      vim.cmd.edit(choice.filename)",
                "      vim.api.nvim_win_set_cursor(0, { choice.lnum, 0 })",
                "    end",
                "  end)",
                "end",
                "",
                "return M",
            ),
            "plugin/quicknote.lua": _plugin_lua(
                'vim.api.nvim_create_user_command("QuicknoteSearch", function(opts)\n'
                "  "
                'require("quicknote.picker").results(require("quicknote.search").grep(opts.args))\n'
                "end, { nargs = 1 })"
            ),
            # search.lua reads config.options.search.max_results: the default it needs.
            "lua/quicknote/config.lua": _config_lua("  search = { max_results = 200 },\n"),
            "doc/quicknote.txt": _doc(
                "\n:QuicknoteSearch {pattern}                              *:QuicknoteSearch*\n"
                "    Search the notes; results in Telescope if installed."
            ),
            "tests/quicknote/search_spec.lua": lines(
                'local search = require("quicknote.search")',
                'describe("search", function()',
                '  it("returns a list", function()',
                '    assert.is_table(search.grep("TODO"))',
                "  end)",
                "end)",
            ),
            # Drift: the default notes folder moved out of stdpath("data") — users'
            # existing notes would vanish from every command.
            "lua/quicknote/storage.lua": _storage_lua('"~/notes"'),
            # Drift: stylua's width changed, and an untouched module reformatted by it.
            ".stylua.toml": lines(
                "column_width = 100",
                'line_endings = "Unix"',
                'indent_type = "Spaces"',
                "indent_width = 2",
                'quote_style = "AutoPreferDouble"',
            ),
            "lua/quicknote/highlights.lua": _HIGHLIGHTS.replace(
                '  vim.api.nvim_set_hl(0, "QuicknoteTitle", { link = "Title", default = true })',
                '  vim.api.nvim_set_hl(0, "QuicknoteTitle", {\n'
                '    link = "Title",\n'
                "    default = true,\n"
                "  })",
            ),
            "doc/tags": lines(
                ":QuicknoteList\tquicknote.txt\t/*:QuicknoteList*",
                ":QuicknoteNew\tquicknote.txt\t/*:QuicknoteNew*",
                ":QuicknoteSearch\tquicknote.txt\t/*:QuicknoteSearch*",
                "quicknote-commands\tquicknote.txt\t/*quicknote-commands*",
                "quicknote.txt\tquicknote.txt\t/*quicknote.txt*",
            ),
        }
    )
    s.fine(
        "lua/quicknote/search.lua",
        "lua/quicknote/picker.lua",
        "plugin/quicknote.lua",
        "lua/quicknote/config.lua",
        "doc/quicknote.txt",
        "tests/quicknote/search_spec.lua",
    )
    s.drift("lua/quicknote/storage.lua", ".stylua.toml", "lua/quicknote/highlights.lua")
    # doc/tags is written by :helptags from doc/*.txt; committed so plugin managers
    # without a build step still get :help. Output, not a change to review.
    s.excluded("doc/tags")
    s.note = "no checkpoint; observed patches name the picker and the new search module"


FRESH10: list[Scenario] = [
    Scenario(
        name="b10_hardhat_vesting_cliff",
        build=hardhat_vesting_cliff,
        held_out=False,
        about="Hardhat: a vesting cliff with its test and deploy script; TypeChain output "
        "regenerated; treasury timelock, optimizer runs and a deleted test drift",
        fresh=True,
        batch=10,
    ),
    Scenario(
        name="b10_platformio_deep_sleep",
        build=platformio_deep_sleep,
        held_out=False,
        about="PlatformIO firmware: deep sleep with a power helper and Unity test; the "
        "generated VS Code config; OTA port and a reformatted MQTT client drift; "
        "checkpoint before the work holds the user's own ini edit",
        fresh=True,
        batch=10,
    ),
    Scenario(
        name="b10_wordpress_rest_endpoint",
        build=wordpress_rest_endpoint,
        held_out=False,
        about="WordPress plugin: a REST route and repository query; POT and wp-scripts "
        "build regenerated; a version bump and a retitled settings page drift; "
        "mid-session checkpoint",
        fresh=True,
        batch=10,
    ),
    Scenario(
        name="b10_shopify_size_chart",
        build=shopify_size_chart,
        held_out=False,
        about="Shopify theme: a size-chart drawer snippet, block, asset and locale "
        "strings; the merchant's settings_data and a sibling section drift; two "
        "checkpoints before the drift",
        fresh=True,
        batch=10,
    ),
    Scenario(
        name="b10_starlight_option_docs",
        build=astro_starlight_option_docs,
        held_out=False,
        about="Astro Starlight docs: a reference entry, a new guide and its sidebar "
        "entry; .astro/ types; a Starlight bump, a retitled guide and a restyled "
        "component drift; the only checkpoint came after a drift",
        fresh=True,
        batch=10,
    ),
    Scenario(
        name="b10_fresh_bookmarks_page",
        build=fresh_bookmarks_page,
        held_out=False,
        about="Deno Fresh: a page, island, API route, KV helper and test; fresh.gen.ts "
        "regenerated; a cookie lifetime, a moved component and a deleted test drift",
        fresh=True,
        batch=10,
    ),
    Scenario(
        name="b10_wasm_pack_sharpen",
        build=wasm_pack_sharpen,
        held_out=False,
        about="Rust + wasm-pack: a sharpen filter, its export, test and demo wiring; "
        "committed pkg/ rebuilt; blur refactor and a version bump drift; the newer "
        "checkpoint holds a drift",
        fresh=True,
        batch=10,
    ),
    Scenario(
        name="b10_quarkus_pagination",
        build=quarkus_orders_pagination,
        held_out=False,
        about="Quarkus: paged GET /orders with a config key, a Flyway index and a "
        "test; stored OpenAPI schema; a prod-profile setting, a customer refactor, "
        "a platform bump and a deleted test drift",
        fresh=True,
        batch=10,
    ),
    Scenario(
        name="b10_streamlit_forecast_page",
        build=streamlit_forecast_page,
        held_out=False,
        about="Streamlit: an emoji-named forecast page with a helper, data loader, test "
        "and pin; __pycache__ bytecode; a retitled sibling page and theme "
        "drift; three checkpoints",
        fresh=True,
        batch=10,
    ),
    Scenario(
        name="b10_neovim_search_command",
        build=neovim_search_command,
        held_out=False,
        about="Neovim Lua plugin: a search command, module, config default, help and "
        "spec; doc/tags regenerated; a storage default, stylua config and a "
        "reformatted module drift",
        fresh=True,
        batch=10,
    ),
]
