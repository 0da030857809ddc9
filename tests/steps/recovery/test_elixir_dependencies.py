"""Elixir calls a library's module by its full name (``Hammer.check_rate(…)``) with
no ``alias`` or ``import``: such a call in an in-scope change is what puts the
``{:hammer, …}`` line of ``mix.exs`` and ``config :hammer`` in scope, while the
project's own modules and Erlang's are never taken for a library."""

from __future__ import annotations

from vibflow.steps.recovery import dependencies

PLUG = """defmodule ShopWeb.Plugs.RateLimit do
  import Plug.Conn

  def call(conn, %{bucket: bucket, limit: limit, scale_ms: scale}) do
    key = "#{bucket}:#{:inet.ntoa(conn.remote_ip)}"
    # Hammer.delete_buckets(key) when the user logs in
    case Hammer.check_rate(key, scale, limit) do
      {:allow, _count} -> ShopWeb.Telemetry.count!(conn)
    end
  end
end
"""

MIX_BEFORE = """  defp deps do
    [
      {:jason, "~> 1.2"}
    ]
  end
"""
CONFIG_BEFORE = 'import Config\n\nimport_config "#{config_env()}.exs"\n'


def test_a_remote_call_names_the_library_not_the_project_or_erlang() -> None:
    lines = PLUG.splitlines()
    own = dependencies.elixir_roots(lines)
    assert own == {"ShopWeb", "Shop"}  # Phoenix's two halves of the app
    called = dependencies.called(lines, own)
    assert set(called.values()) == {"Hammer"}  # not ShopWeb, :inet or the comment's
    assert dependencies.called(lines).keys() >= {"hammer", "shopweb"}


def test_mix_exs_and_config_exs_are_explained_by_the_call() -> None:
    """The new dep line declares what the plug calls; in config.exs the atom declares
    it and the line naming its backend module is explained by it too."""
    lines = PLUG.splitlines()
    calls = dependencies.called(lines, dependencies.elixir_roots(lines))
    mix = MIX_BEFORE.replace('"~> 1.2"}', '"~> 1.2"},\n      {:hammer, "~> 6.1"}')
    known = dependencies.names_in(MIX_BEFORE)
    assert dependencies.needed(mix.splitlines(), calls, manifest=True, known=known) == (
        "hammer",
        "Hammer",
    )
    assert dependencies.unexplained(MIX_BEFORE, mix, calls, manifest=True, known=known) == []
    config = CONFIG_BEFORE.replace(
        "\nimport_config",
        "\nconfig :hammer,\n  backend: {Hammer.Backend.ETS, [expiry_ms: 3_600_000]}\n"
        "\nconfig :shop, ShopWeb.Endpoint, http: [port: 4001]\n\nimport_config",
    )
    known = dependencies.names_in(CONFIG_BEFORE)
    assert dependencies.needed(config.splitlines(), calls, manifest=False, known=known)
    # The port change is the config's own: still named for review.
    assert dependencies.unexplained(CONFIG_BEFORE, config, calls, manifest=False, known=known) == [
        "+ config :shop, ShopWeb.Endpoint, http: [port: 4001]"
    ]


def test_the_apps_own_modules_and_elixirs_are_no_library() -> None:
    """`Storefront.Accounts.get_user!(…)` in a controller of StorefrontWeb is the app
    itself (mix.exs names it); `Integer.parse(…)`, `String.trim(…)` are Elixir's."""
    lines = [
        "defmodule StorefrontWeb.UserController do",
        '  def show(conn, %{"id" => id}) do',
        "    user = Storefront.Accounts.get_user!(Integer.parse(String.trim(id)))",
        "    Plug.Conn.send_resp(conn, 200, Jason.encode!(user))",
    ]
    own = dependencies.elixir_roots(lines) | dependencies.mix_app(
        '  [app: :storefront, version: "0.1"]'
    )
    assert set(dependencies.called(lines, own).values()) == {"Plug", "Jason"}
    assert dependencies.mix_app("app: :my_shop") == {"MyShop", "MyShopWeb"}
